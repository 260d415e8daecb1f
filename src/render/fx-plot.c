/* fx-plot.c: axes, ticks, curves, legend and read-out of the run plots. */
#include "fx-plot.h"
#include "fx-render-private.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BALANCE_FLOOR 1e-18  /* |balance| below this is drawn at this value */
#define MAX_CURVES 5

typedef double (*Getter) (const FxSeriesPoint *p);

static double get_H (const FxSeriesPoint *p) { return p->H; }
static double get_kinetic (const FxSeriesPoint *p) { return p->kinetic; }
static double get_elastic (const FxSeriesPoint *p) { return p->elastic; }
static double get_gravity (const FxSeriesPoint *p) { return p->gravity; }
static double get_supplied (const FxSeriesPoint *p) { return p->supplied; }
static double get_balance (const FxSeriesPoint *p) { return MAX (fabs (p->balance), BALANCE_FLOOR); }
static double get_newton (const FxSeriesPoint *p) { return p->newton; }
static double get_factorisations (const FxSeriesPoint *p) { return p->factorisations; }

typedef struct {
  const char *name;
  Getter get;
  guint color;
} Curve;

typedef struct {
  const char *title;
  const char *y_label;
  gboolean log_y;
  gboolean steps;  /* draw as steps (integer data) */
  guint n_curves;
  Curve curves[MAX_CURVES];
} PlotSpec;

static const PlotSpec specs[] = {
  [FX_PLOT_ENERGY] = { N_("Energy"), "J", FALSE, FALSE, 5,
    { { N_("Total H"), get_H, 0 }, { N_("Kinetic"), get_kinetic, 1 }, { N_("Elastic"), get_elastic, 2 },
      { N_("Gravity"), get_gravity, 3 }, { N_("Supplied work"), get_supplied, 4 } } },
  [FX_PLOT_BALANCE] = { N_("Balance residual"), N_("J per step"), TRUE, FALSE, 1,
    { { "|\u0394H \u2212 W + D|", get_balance, 0 } } },
  /* both: formulations compare by iterations; the cost of a step is in
   * its factorisations too (a reused one makes iterations cheap) */
  [FX_PLOT_NEWTON] = { N_("Newton iterations"), N_("per step"), FALSE, TRUE, 2,
    { { N_("Iterations"), get_newton, 2 }, { N_("Factorisations"), get_factorisations, 1 } } },
  [FX_PLOT_PROBES] = { N_("Probe trajectories"), "m", FALSE, FALSE, 0, { { NULL, NULL, 0 } } },
};

const char *
fx_plot_title (FxPlotKind kind)
{
  return _(specs[kind].title);
}

void
fx_plot_style_init (FxPlotStyle *s)
{
  memset (s, 0, sizeof *s);
  s->t_window = 10;
  s->hover_x = -1;
  s->font_scale = 1;
  s->show_title = TRUE;
}

typedef struct {
  double x, y, w, h;       /* data area */
  double t0, t1, v0, v1;   /* ranges (log10 values when log_y) */
  gboolean log_y;
} Axes;

static double
ax_x (const Axes *a, double t)
{
  return a->x + (t - a->t0) / (a->t1 - a->t0) * a->w;
}

static double
ax_y (const Axes *a, double v)
{
  if (a->log_y)
    v = log10 (v);
  return a->y + a->h - (v - a->v0) / (a->v1 - a->v0) * a->h;
}

static double
fs (const FxPlotStyle *st)
{
  return st->font_scale > 0 ? st->font_scale : 1;
}

void
fx_plot_area (FxPlotKind kind, const FxPlotStyle *style, double w, double h, double area[4])
{
  double k = fs (style);
  double top = (style->show_title ? 26 : 10) * k;
  double left = 58 * k, right = 12 * k, bottom = 34 * k;
  area[0] = left;
  area[1] = top;
  area[2] = MAX (w - left - right, 10);
  area[3] = MAX (h - top - bottom, 10);
}

static void
visible_range (const FxSeries *s, const FxPlotStyle *st, guint *i0, guint *i1,
               double *t0, double *t1)
{
  guint n = fx_series_len (s);
  double t_last = n > 0 ? fx_series_get (s, n - 1)->t : 0;
  double t_first = n > 0 ? fx_series_get (s, 0)->t : 0;
  if (st->t_window > 0)
    {
      *t1 = MAX (t_last, t_first + st->t_window);
      *t0 = *t1 - st->t_window;
    }
  else
    {
      *t0 = t_first;
      *t1 = t_last > t_first ? t_last : t_first + 1;
    }
  *i0 = fx_series_find (s, *t0);
  *i1 = n;
}

static void
value_range (const PlotSpec *spec, const FxSeries *s, guint i0, guint i1, double *v0, double *v1)
{
  double lo = INFINITY, hi = -INFINITY;
  for (guint i = i0; i < i1; i++)
    for (guint c = 0; c < spec->n_curves; c++)
      {
        double v = spec->curves[c].get (fx_series_get (s, i));
        if (!isfinite (v))
          continue;
        lo = MIN (lo, v);
        hi = MAX (hi, v);
      }
  if (spec->log_y)
    {
      if (!(lo <= hi))
        lo = hi = BALANCE_FLOOR;
      *v0 = floor (log10 (lo));
      *v1 = ceil (log10 (hi));
      if (*v1 - *v0 < 2)
        *v1 = *v0 + 2;
      return;
    }
  if (spec->steps)
    {
      *v0 = 0;
      *v1 = MAX (4, ceil (hi) + 1);
      return;
    }
  if (!(lo <= hi))
    lo = 0, hi = 1;
  double span = hi - lo, mag = MAX (fabs (lo), fabs (hi));
  if (span < 1e-9 * MAX (mag, 1e-300) || span == 0)
    {
      double pad = mag > 0 ? 0.05 * mag : 1;
      lo -= pad;
      hi += pad;
    }
  else
    {
      lo -= 0.05 * span;
      hi += 0.05 * span;
    }
  *v0 = lo;
  *v1 = hi;
}

static void
draw_axes (cairo_t *cr, const PlotSpec *spec, const Axes *a, const FxPlotStyle *st,
           const FxPalette *pal)
{
  double k = fs (st);
  const double box[4] = { a->x, a->y, a->w, a->h };
  char buf[64];
  fx_text_font (cr, 10.5 * k, FALSE);
  cairo_set_line_width (cr, 1);

  /* horizontal grid and y ticks */
  if (a->log_y)
    {
      int span = (int) (a->v1 - a->v0);
      int every = span > 12 ? 4 : span > 6 ? 2 : 1;
      for (int e = (int) a->v0; e <= (int) a->v1; e++)
        {
          if ((e - (int) a->v0) % every)
            continue;
          double y = floor (ax_y (a, pow (10, e))) + 0.5;
          fx_set_rgba (cr, pal->fg, 0.08);
          cairo_move_to (cr, a->x, y);
          cairo_line_to (cr, a->x + a->w, y);
          cairo_stroke (cr);
          snprintf (buf, sizeof buf, "1e%d", e);
          if (e < 0)
            snprintf (buf, sizeof buf, "1e\u2212%d", -e);
          fx_set_rgb (cr, pal->dim);
          fx_text_draw (cr, a->x - 6 * k, y, buf, FX_ALIGN_END, FX_ALIGN_CENTER);
        }
    }
  else
    {
      double step = fx_nice_step (a->v1 - a->v0, (int) MAX (2, a->h / (28 * k)));
      if (spec->steps)
        step = MAX (1, round (step));
      fx_draw_ticks (cr, box, a->v0, a->v1, step, TRUE, k, pal);
    }

  /* x ticks */
  double tstep = fx_nice_step (a->t1 - a->t0, (int) MAX (2, a->w / (70 * k)));
  fx_draw_ticks (cr, box, a->t0, a->t1, tstep, FALSE, k, pal);
  fx_set_rgb (cr, pal->dim);
  fx_text_draw (cr, a->x + a->w, a->y + a->h + 18 * k, _("Time (s)"), FX_ALIGN_END, FX_ALIGN_START);

  /* frame */
  fx_set_rgba (cr, pal->fg, 0.3);
  cairo_rectangle (cr, floor (a->x) + 0.5, floor (a->y) + 0.5, floor (a->w), floor (a->h));
  cairo_stroke (cr);

  if (st->show_title)
    {
      fx_text_font (cr, 12 * k, TRUE);
      fx_set_rgb (cr, pal->fg);
      double tw = fx_text_draw (cr, a->x, 6 * k, _(spec->title), FX_ALIGN_START, FX_ALIGN_START);
      if (spec->y_label[0])
        {
          fx_text_font (cr, 11 * k, FALSE);
          fx_set_rgb (cr, pal->dim);
          snprintf (buf, sizeof buf, "(%s)", _(spec->y_label));
          fx_text_draw (cr, a->x + tw + 6 * k, 7 * k, buf, FX_ALIGN_START, FX_ALIGN_START);
        }
    }
}

/* The min and max of curve c over each pixel column of [i0, i1): column k
 * holds points b_k .. b_k + per - 1. */
typedef struct {
  guint n;
  double *x, *lo, *hi;
} Columns;

static void
columns_clear (Columns *cols)
{
  g_free (cols->x);
  g_free (cols->lo);
  g_free (cols->hi);
}

static guint
column_width (guint i0, guint i1, const Axes *a)
{
  return MAX (1u, (guint) ((i1 - i0) / MAX (a->w, 1)));
}

static void
columns_of (const Curve *c, const FxSeries *s, guint i0, guint i1, const Axes *a, Columns *cols)
{
  guint per = column_width (i0, i1, a);
  guint n_max = (i1 - i0) / per + 1;
  cols->n = 0;
  cols->x = g_new (double, n_max);
  cols->lo = g_new (double, n_max);
  cols->hi = g_new (double, n_max);
  for (guint b = i0; b < i1; b += per)
    {
      guint e = MIN (i1, b + per);
      double lo = INFINITY, hi = -INFINITY;
      for (guint i = b; i < e; i++)
        {
          double v = c->get (fx_series_get (s, i));
          if (!isfinite (v))
            continue;
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
      if (!(lo <= hi))
        continue;
      cols->x[cols->n] = ax_x (a, fx_series_get (s, b)->t);
      cols->lo[cols->n] = ax_y (a, lo);
      cols->hi[cols->n] = ax_y (a, hi);
      cols->n++;
    }
}

static void
draw_curve (cairo_t *cr, const PlotSpec *spec, const Columns *c, guint i0, guint i1,
            const Axes *a, const double rgb[3])
{
  /* More points than pixel columns: an oscillation faster than a pixel is
   * drawn as its min/max envelope, a light band with its edges, so it
   * reads as an envelope rather than a solid block of zig-zags. */
  Columns cols = *c;
  gboolean envelope = column_width (i0, i1, a) > 1 && !spec->steps;
  if (envelope && cols.n > 1)
    {
      cairo_move_to (cr, cols.x[0], cols.hi[0]);
      for (guint k = 1; k < cols.n; k++)
        cairo_line_to (cr, cols.x[k], cols.hi[k]);
      for (guint k = cols.n; k-- > 0;)
        cairo_line_to (cr, cols.x[k], cols.lo[k]);
      cairo_close_path (cr);
      fx_set_rgba (cr, rgb, 0.3);
      cairo_fill (cr);
      fx_set_rgb (cr, rgb);
      double lw = cairo_get_line_width (cr);
      cairo_set_line_width (cr, 0.6 * lw);
      for (int edge = 0; edge < 2; edge++)
        {
          const double *y = edge ? cols.lo : cols.hi;
          cairo_move_to (cr, cols.x[0], y[0]);
          for (guint k = 1; k < cols.n; k++)
            cairo_line_to (cr, cols.x[k], y[k]);
          cairo_stroke (cr);
        }
      cairo_set_line_width (cr, lw);
      return;
    }
  fx_set_rgb (cr, rgb);
  double prev_y = 0;
  for (guint k = 0; k < cols.n; k++)
    {
      if (k == 0)
        cairo_move_to (cr, cols.x[k], cols.lo[k]);
      else if (spec->steps)
        cairo_line_to (cr, cols.x[k], prev_y);
      cairo_line_to (cr, cols.x[k], cols.lo[k]);
      if (cols.hi[k] != cols.lo[k])
        cairo_line_to (cr, cols.x[k], cols.hi[k]);
      prev_y = cols.hi[k];
    }
  cairo_stroke (cr);
}

/* How many drawn points of the plot's curves fall in the box: where the
 * legend would hide the least. */
static guint
points_under (const PlotSpec *spec, const Columns *cols, double bx, double by, double bw, double bh)
{
  guint n = 0;
  for (guint c = 0; c < spec->n_curves; c++)
    for (guint k = 0; k < cols[c].n; k++)
      if (cols[c].x[k] >= bx && cols[c].x[k] <= bx + bw
          && MAX (cols[c].lo[k], cols[c].hi[k]) >= by && MIN (cols[c].lo[k], cols[c].hi[k]) <= by + bh)
        n++;
  return n;
}

static void
draw_legend (cairo_t *cr, const PlotSpec *spec, const Axes *a, const FxPlotStyle *st,
             const FxPalette *pal, const Columns *cols)
{
  if (spec->n_curves < 2)
    return;
  double k = fs (st);
  fx_text_font (cr, 10 * k, FALSE);
  double row = 14 * k, wmax = 0;
  for (guint c = 0; c < spec->n_curves; c++)
    wmax = MAX (wmax, fx_text_width (cr, _(spec->curves[c].name)));
  double bw = wmax + 30 * k, bh = spec->n_curves * row + 8 * k;
  if (bw > a->w - 12 * k || bh > a->h - 12 * k)
    return;
  /* the corner that hides the fewest points, top right when they tie */
  double xs[2] = { a->x + a->w - bw - 6 * k, a->x + 6 * k };
  double ys[2] = { a->y + 6 * k, a->y + a->h - bh - 6 * k };
  double bx = xs[0], by = ys[0];
  guint best = G_MAXUINT;
  for (int corner = 0; corner < 4; corner++)
    {
      double cx = xs[corner & 1], cy = ys[corner >> 1];
      guint hidden = points_under (spec, cols, cx, cy, bw, bh);
      if (hidden < best)
        best = hidden, bx = cx, by = cy;
    }
  fx_rounded_rect (cr, bx, by, bw, bh, 5 * k);
  fx_set_rgba (cr, pal->card, 0.85);
  cairo_fill (cr);
  for (guint c = 0; c < spec->n_curves; c++)
    {
      double rgb[3], y = by + 4 * k + (c + 0.5) * row;
      fx_series_color (spec->curves[c].color, st->dark, rgb);
      fx_draw_legend_entry (cr, bx + 6 * k, y, rgb, _(spec->curves[c].name), k, pal);
    }
}

static void
draw_hover (cairo_t *cr, const PlotSpec *spec, const FxSeries *s, guint i0, guint i1,
            const Axes *a, const FxPlotStyle *st, const FxPalette *pal)
{
  if (st->hover_x < a->x || st->hover_x > a->x + a->w || i1 <= i0)
    return;
  double k = fs (st);
  double t = a->t0 + (st->hover_x - a->x) / a->w * (a->t1 - a->t0);
  guint i = fx_series_find (s, t);
  if (i >= i1)
    i = i1 - 1;
  if (i > i0 && fabs (fx_series_get (s, i - 1)->t - t) < fabs (fx_series_get (s, i)->t - t))
    i--;
  const FxSeriesPoint *p = fx_series_get (s, i);
  double x = floor (ax_x (a, p->t)) + 0.5;
  fx_set_rgba (cr, pal->fg, 0.45);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x, a->y);
  cairo_line_to (cr, x, a->y + a->h);
  cairo_stroke (cr);

  char lines[MAX_CURVES + 1][96];
  guint n = 0;
  snprintf (lines[n++], sizeof lines[0], "t = %.4g s", p->t);
  for (guint c = 0; c < spec->n_curves; c++)
    {
      char v[48];
      double val = spec->curves[c].get (p);
      if (spec->log_y)
        snprintf (v, sizeof v, "%.3e", fabs (p->balance));
      else
        fx_format_value (v, sizeof v, val);
      const char *unit = spec->steps ? "" : "J";
      snprintf (lines[n++], sizeof lines[0], "%s: %s%s%s", _(spec->curves[c].name), v,
                unit[0] ? " " : "", unit);
      double rgb[3];
      fx_series_color (spec->curves[c].color, st->dark, rgb);
      fx_set_rgb (cr, rgb);
      cairo_arc (cr, x, ax_y (a, val), 3.5 * k, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  const char *texts[MAX_CURVES + 1];
  for (guint l = 0; l < n; l++)
    texts[l] = lines[l];
  const double box[4] = { a->x, a->y, a->w, a->h };
  fx_draw_readout (cr, x, box, texts, n, k, pal);
}

/* y against x of every probe over the visible time range, at equal scales
 * so paths keep their shape. */
static void
draw_probe_paths (cairo_t *cr, const FxSeries *s, const FxPlotStyle *st, double w, double h)
{
  const PlotSpec *spec = &specs[FX_PLOT_PROBES];
  const FxPalette *pal = fx_palette_get (st->dark);
  double k = fs (st), area[4];
  fx_plot_area (FX_PLOT_PROBES, st, w, h, area);
  guint i0, i1;
  double t0, t1;
  visible_range (s, st, &i0, &i1, &t0, &t1);
  guint np = fx_series_n_probes (s);

  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, xy[2];
  for (guint i = i0; i < i1; i++)
    for (guint p = 0; p < np; p++)
      {
        fx_series_probe_xy (s, i, p, xy);
        if (!isfinite (xy[0]) || !isfinite (xy[1]))
          continue;
        x0 = MIN (x0, xy[0]), x1 = MAX (x1, xy[0]);
        y0 = MIN (y0, xy[1]), y1 = MAX (y1, xy[1]);
      }
  gboolean any = x0 <= x1;
  if (!any)
    x0 = y0 = 0, x1 = y1 = 1;
  double span = MAX (MAX (x1 - x0, y1 - y0), 1e-9) * 1.1;
  double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  double scale = MIN (area[2], area[3]) / span;
  /* the data area keeps the plot's full size; the ranges grow to fill it */
  Axes a = { area[0], area[1], area[2], area[3], cx - area[2] / scale / 2, cx + area[2] / scale / 2,
             cy - area[3] / scale / 2, cy + area[3] / scale / 2, FALSE };

  fx_text_font (cr, 10.5 * k, FALSE);
  cairo_set_line_width (cr, 1);
  double step = fx_nice_step (a.v1 - a.v0, (int) MAX (2, a.h / (28 * k)));
  fx_draw_ticks (cr, area, a.v0, a.v1, step, TRUE, k, pal);
  fx_draw_ticks (cr, area, a.t0, a.t1, step, FALSE, k, pal);
  fx_set_rgb (cr, pal->dim);
  fx_text_draw (cr, a.x + a.w, a.y + a.h + 18 * k, _("x (m)"), FX_ALIGN_END, FX_ALIGN_START);
  fx_set_rgba (cr, pal->fg, 0.3);
  cairo_rectangle (cr, floor (a.x) + 0.5, floor (a.y) + 0.5, floor (a.w), floor (a.h));
  cairo_stroke (cr);
  if (st->show_title)
    {
      fx_text_font (cr, 12 * k, TRUE);
      fx_set_rgb (cr, pal->fg);
      double tw = fx_text_draw (cr, a.x, 6 * k, _(spec->title), FX_ALIGN_START, FX_ALIGN_START);
      fx_text_font (cr, 11 * k, FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, a.x + tw + 6 * k, 7 * k, _("(y against x, m)"), FX_ALIGN_START, FX_ALIGN_START);
    }

  cairo_save (cr);
  cairo_rectangle (cr, a.x, a.y, a.w, a.h);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_width (cr, 1.8 * k);
  for (guint p = 0; p < np; p++)
    {
      double rgb[3];
      fx_series_color (p + 3, st->dark, rgb);
      gboolean started = FALSE;
      guint per = MAX (1u, (i1 - i0) / 4000);
      for (guint i = i0; i < i1; i += per)
        {
          fx_series_probe_xy (s, i, p, xy);
          if (!isfinite (xy[0]) || !isfinite (xy[1]))
            continue;
          if (!started)
            cairo_move_to (cr, ax_x (&a, xy[0]), ax_y (&a, xy[1]));
          else
            cairo_line_to (cr, ax_x (&a, xy[0]), ax_y (&a, xy[1]));
          started = TRUE;
        }
      fx_set_rgb (cr, rgb);
      cairo_stroke (cr);
      if (i1 > i0)
        {
          fx_series_probe_xy (s, i1 - 1, p, xy);
          if (isfinite (xy[0]) && isfinite (xy[1]))
            {
              cairo_arc (cr, ax_x (&a, xy[0]), ax_y (&a, xy[1]), 3.5 * k, 0, 2 * G_PI);
              cairo_fill (cr);
            }
        }
    }
  cairo_restore (cr);

  if (!any)
    {
      fx_text_font (cr, 11 * k, FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, a.x + a.w / 2, a.y + a.h / 2,
                    np == 0 ? "No probes in this model" : _("Press Play to run"),
                    FX_ALIGN_CENTER, FX_ALIGN_CENTER);
      return;
    }
  /* legend: the probe ids */
  fx_text_font (cr, 10 * k, FALSE);
  double row = 14 * k, wmax = 0;
  for (guint p = 0; p < np; p++)
    wmax = MAX (wmax, fx_text_width (cr, fx_series_probe_id (s, p)));
  double bw = wmax + 30 * k, bh = np * row + 8 * k;
  double bx = a.x + a.w - bw - 6 * k, by = a.y + 6 * k;
  if (bw > a.w - 12 * k || bh > a.h - 12 * k)
    return;
  fx_rounded_rect (cr, bx, by, bw, bh, 5 * k);
  fx_set_rgba (cr, pal->card, 0.85);
  cairo_fill (cr);
  for (guint p = 0; p < np; p++)
    {
      double rgb[3], y = by + 4 * k + (p + 0.5) * row;
      fx_series_color (p + 3, st->dark, rgb);
      fx_draw_legend_entry (cr, bx + 6 * k, y, rgb, fx_series_probe_id (s, p), k, pal);
    }
}

void
fx_plot_draw (cairo_t *cr, FxPlotKind kind, const FxSeries *s, const FxPlotStyle *st,
              double w, double h)
{
  if (kind == FX_PLOT_PROBES)
    {
      fx_plot_begin (cr, w, h, st->transparent, fx_palette_get (st->dark));
      draw_probe_paths (cr, s, st, w, h);
      cairo_restore (cr);
      return;
    }

  const PlotSpec *spec = &specs[kind];
  const FxPalette *pal = fx_palette_get (st->dark);
  double area[4];
  fx_plot_area (kind, st, w, h, area);
  Axes a = { area[0], area[1], area[2], area[3], 0, 1, 0, 1, spec->log_y };

  fx_plot_begin (cr, w, h, st->transparent, pal);
  guint i0, i1;
  visible_range (s, st, &i0, &i1, &a.t0, &a.t1);
  /* frame 0 carries no step: leave it out of per-step plots */
  if (kind != FX_PLOT_ENERGY && i0 < i1 && fx_series_get (s, i0)->newton == 0
      && fx_series_get (s, i0)->t == fx_series_get (s, 0)->t)
    i0++;
  value_range (spec, s, i0, i1, &a.v0, &a.v1);
  draw_axes (cr, spec, &a, st, pal);

  cairo_save (cr);
  cairo_rectangle (cr, a.x, a.y, a.w, a.h);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* each curve's pixel columns once, for drawing and for the legend */
  Columns cols[MAX_CURVES] = { { 0 } };
  for (guint c = 0; c < spec->n_curves && i1 > i0; c++)
    columns_of (&spec->curves[c], s, i0, i1, &a, &cols[c]);
  /* the first curve (Total H) last, on top of the terms it sums */
  for (guint c = spec->n_curves; c-- > 0 && i1 > i0;)
    {
      double rgb[3];
      fx_series_color (spec->curves[c].color, st->dark, rgb);
      cairo_set_line_width (cr, 1.8 * fs (st));
      draw_curve (cr, spec, &cols[c], i0, i1, &a, rgb);
    }
  cairo_restore (cr);

  if (i1 <= i0)
    {
      fx_text_font (cr, 11 * fs (st), FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, a.x + a.w / 2, a.y + a.h / 2, _("Press Play to run"), FX_ALIGN_CENTER,
                    FX_ALIGN_CENTER);
    }
  if (i1 > i0)
    draw_legend (cr, spec, &a, st, pal, cols);
  for (guint c = 0; c < spec->n_curves; c++)
    columns_clear (&cols[c]);
  draw_hover (cr, spec, s, i0, i1, &a, st, pal);
  cairo_restore (cr);
}
