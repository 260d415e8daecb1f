/* fx-view.h: the map between model coordinates (metres, y up) and device
 * pixels (y down), with zoom about a point, fit, and the grid step. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double scale;   /* pixels per metre                        */
  double ox, oy;  /* device position of the model's origin   */
} FxView;

static inline void
fx_view_to_device (const FxView *v, double x, double y, double *dx, double *dy)
{
  *dx = v->ox + v->scale * x;
  *dy = v->oy - v->scale * y;
}

static inline void
fx_view_to_world (const FxView *v, double dx, double dy, double *x, double *y)
{
  *x = (dx - v->ox) / v->scale;
  *y = (v->oy - dy) / v->scale;
}

/* Fits the box [x0, x1] x [y0, y1] into a w x h area with `margin` pixels
 * around; a degenerate box is given a size of 1 m. */
void   fx_view_fit       (FxView *v, const double bbox[4], double w, double h, double margin);
/* Zooms by `factor` keeping the world point under (dx, dy) in place; the
 * scale stays within 1e-3 .. 1e7 px/m. */
void   fx_view_zoom_at   (FxView *v, double dx, double dy, double factor);
/* The grid step (m) on the 1-2-5 ladder whose spacing is at least
 * `min_pixels` on screen. */
double fx_view_grid_step (const FxView *v, double min_pixels);
/* Rounds (x, y) to the nearest multiple of `step`. */
void   fx_snap_to_grid   (double step, double *x, double *y);

G_END_DECLS
