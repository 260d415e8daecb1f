/* fx-view.c */
#include "fx-view.h"

#include <math.h>

#define SCALE_MIN 1e-3
#define SCALE_MAX 1e7

void
fx_view_fit (FxView *v, const double bbox[4], double w, double h, double margin)
{
  double bw = bbox[1] - bbox[0], bh = bbox[3] - bbox[2];
  double cx = (bbox[0] + bbox[1]) / 2, cy = (bbox[2] + bbox[3]) / 2;
  if (!(bw > 0) && !(bh > 0))
    bw = bh = 1;
  double aw = MAX (w - 2 * margin, 10), ah = MAX (h - 2 * margin, 10);
  double sx = bw > 0 ? aw / bw : INFINITY, sy = bh > 0 ? ah / bh : INFINITY;
  v->scale = CLAMP (MIN (sx, sy), SCALE_MIN, SCALE_MAX);
  v->ox = w / 2 - v->scale * cx;
  v->oy = h / 2 + v->scale * cy;
}

void
fx_view_zoom_at (FxView *v, double dx, double dy, double factor)
{
  double x, y;
  fx_view_to_world (v, dx, dy, &x, &y);
  v->scale = CLAMP (v->scale * factor, SCALE_MIN, SCALE_MAX);
  v->ox = dx - v->scale * x;
  v->oy = dy + v->scale * y;
}

double
fx_view_grid_step (const FxView *v, double min_pixels)
{
  double raw = min_pixels / v->scale;
  double decade = pow (10, floor (log10 (raw)));
  static const double ladder[] = { 1, 2, 5, 10 };
  for (guint i = 0; i < G_N_ELEMENTS (ladder); i++)
    if (ladder[i] * decade >= raw * (1 - 1e-12))
      return ladder[i] * decade;
  return 10 * decade;
}

void
fx_snap_to_grid (double step, double *x, double *y)
{
  if (!(step > 0))
    return;
  *x = round (*x / step) * step;
  *y = round (*y / step) * step;
  /* avoid -0 in files and read-outs */
  if (*x == 0)
    *x = 0;
  if (*y == 0)
    *y = 0;
}
