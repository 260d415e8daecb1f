/* fx-plot.c: axes, ticks, curves, legend and read-out of the run plots. */
#include "fx-plot.h"
#include "fx-render-private.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BALANCE_FLOOR 1e-18  /* |balance| below this is drawn at this value */
#define MAX_CURVES 6

/* A curve's value at point p; p0 is the series' first point (the start the
 * relative energies are measured from). */
typedef double (*Getter) (const FxSeriesPoint *p, const FxSeriesPoint *p0);

static double get_H (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->H; }
static double get_kinetic (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->kinetic; }
static double get_elastic (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->elastic; }
static double get_gravity (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->gravity; }
static double get_supplied (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->supplied - p0->supplied; }
static double get_dissipated (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->dissipated - p0->dissipated; }
static double get_dH (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->H - p0->H; }
static double get_dkinetic (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->kinetic - p0->kinetic; }
static double get_delastic (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->elastic - p0->elastic; }
static double get_dgravity (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->gravity - p0->gravity; }
/* the books: H(t) - H(0) - W + D, flat to the per-step balance residuals */
static double
get_books (const FxSeriesPoint *p, const FxSeriesPoint *p0)
{
  return get_dH (p, p0) - get_supplied (p, p0) + get_dissipated (p, p0);
}
static double get_balance (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return MAX (fabs (p->balance), BALANCE_FLOOR); }
static double get_newton (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->newton; }
static double get_factorisations (const FxSeriesPoint *p, const FxSeriesPoint *p0) { return p->factorisations; }

/* Dash patterns keep curves that coincide apart: in a loaded cantilever
 * with no damping, H - H(0) and the supplied work are the same curve. */
typedef enum { SOLID, DASHED, DOTTED, DASH_DOT } Dash;

typedef struct {
  const char *name;
  Getter get;
  guint color;
  Dash dash;
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
  [FX_PLOT_ENERGY] = { N_("Energy"), "J", FALSE, FALSE, 6,
    { { N_("Total H"), get_H, 0, SOLID }, { N_("Kinetic"), get_kinetic, 1, SOLID },
      { N_("Elastic"), get_elastic, 2, SOLID }, { N_("Gravity"), get_gravity, 3, SOLID },
      { N_("Supplied"), get_supplied, 4, DASHED }, { N_("Dissipated"), get_dissipated, 5, DOTTED } } },
  [FX_PLOT_BALANCE] = { N_("Balance residual"), N_("J per step"), TRUE, FALSE, 1,
    { { "|\u0394H \u2212 W + D|", get_balance, 0, SOLID } } },
  /* both: formulations compare by iterations; the cost of a step is in
   * its factorisations too (a reused one makes iterations cheap) */
  [FX_PLOT_NEWTON] = { N_("Newton iterations"), N_("per step"), FALSE, TRUE, 2,
    { { N_("Iterations"), get_newton, 2, SOLID }, { N_("Factorisations"), get_factorisations, 1, DASHED } } },
  [FX_PLOT_PROBES] = { N_("Probe trajectories"), "m", FALSE, FALSE, 0, { { NULL, NULL, 0, SOLID } } },
};

static const PlotSpec energy_relative = { N_("Energy change"), N_("J since start"), FALSE, FALSE, 6,
  { { N_("Total H"), get_dH, 0, SOLID }, { N_("Kinetic"), get_dkinetic, 1, SOLID },
    { N_("Elastic"), get_delastic, 2, SOLID }, { N_("Gravity"), get_dgravity, 3, SOLID },
    { N_("Supplied"), get_supplied, 4, DASHED }, { N_("Dissipated"), get_dissipated, 5, DOTTED } } };

static const PlotSpec energy_books = { N_("Energy books"), N_("J since start"), FALSE, FALSE, 4,
  { { "\u0394H", get_dH, 0, SOLID }, { N_("Supplied W"), get_supplied, 4, DASHED },
    { N_("Dissipated D"), get_dissipated, 5, DOTTED },
    { "\u0394H \u2212 W + D", get_books, 3, DASH_DOT } } };

static const PlotSpec *
spec_of (FxPlotKind kind, const FxPlotStyle *st)
{
  if (kind == FX_PLOT_ENERGY && st->energy_view == FX_ENERGY_RELATIVE)
    return &energy_relative;
  if (kind == FX_PLOT_ENERGY && st->energy_view == FX_ENERGY_BOOKS)
    return &energy_books;
  return &specs[kind];
}

const char *
fx_plot_title (FxPlotKind kind)
{
  return _(specs[kind].title);
}

const char *
fx_energy_view_name (FxEnergyView view)
{
  static const char *names[] = { N_("Change since start"), N_("Books: H, supplied, dissipated"),
                                 N_("Absolute (gravity from y = 0)") };
  return _(names[MIN ((guint) view, G_N_ELEMENTS (names) - 1)]);
}

void
fx_plot_style_init (FxPlotStyle *s)
{
  memset (s, 0, sizeof *s);
  s->t_window = 10;
  s->hover_x = -1;
  s->font_scale = 1;
  s->show_title = TRUE;
  s->energy_view = FX_ENERGY_RELATIVE;
  s->cursor_t = NAN;
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

/* The legend: one entry per curve (a swatch in the curve's dash, then the
 * name), in rows between the title and the data, so it never hides data. */
typedef struct {
  guint n, n_rows;
  double x[MAX_CURVES], y[MAX_CURVES];  /* each entry's swatch start, row middle */
  double top, bottom;                   /* the rows' extent                      */
} Legend;

static void
legend_layout (cairo_t *cr, const PlotSpec *spec, const FxPlotStyle *st, double w, Legend *lg)
{
  double k = fs (st), row = 14 * k;
  /* the right end leaves room for the live plot's view menu */
  double left = 8 * k, right = w - 28 * k, x = left;
  memset (lg, 0, sizeof *lg);
  lg->top = lg->bottom = (st->show_title ? 24 : 6) * k;
  if (spec->n_curves < 2)
    return;
  fx_text_font (cr, 10 * k, FALSE);
  lg->n_rows = 1;
  for (guint c = 0; c < spec->n_curves; c++)
    {
      double ew = 17 * k + fx_text_width (cr, _(spec->curves[c].name));
      if (x > left && x + ew > right)
        {
          x = left;
          lg->n_rows++;
        }
      lg->x[c] = x;
      lg->y[c] = lg->top + (lg->n_rows - 0.5) * row;
      x += ew + 9 * k;
    }
  lg->n = spec->n_curves;
  lg->bottom = lg->top + lg->n_rows * row;
}

/* A context only to measure text with (the area depends on the legend). */
static void
legend_measure (const PlotSpec *spec, const FxPlotStyle *st, double w, Legend *lg)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  legend_layout (cr, spec, st, w, lg);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
area_below (const FxPlotStyle *st, const Legend *lg, double w, double h, double area[4])
{
  double k = fs (st);
  double top = lg->n_rows > 0 ? lg->bottom + 6 * k : (st->show_title ? 26 : 10) * k;
  double left = 58 * k, right = 12 * k, bottom = 34 * k;
  area[0] = left;
  area[1] = top;
  area[2] = MAX (w - left - right, 10);
  area[3] = MAX (h - top - bottom, 10);
}

void
fx_plot_area (FxPlotKind kind, const FxPlotStyle *style, double w, double h, double area[4])
{
  Legend lg;
  legend_measure (spec_of (kind, style), style, w, &lg);
  area_below (style, &lg, w, h, area);
}

void
fx_plot_legend_box (FxPlotKind kind, const FxPlotStyle *style, double w, double h, double box[4])
{
  Legend lg;
  legend_measure (spec_of (kind, style), style, w, &lg);
  double k = fs (style);
  box[0] = 8 * k;
  box[1] = lg.top;
  box[2] = lg.n_rows > 0 ? MAX (w - 28 * k - box[0], 0) : 0;
  box[3] = lg.bottom - lg.top;
}

static void
visible_range (const FxSeries *s, const FxPlotStyle *st, guint *i0, guint *i1,
               double *t0, double *t1)
{
  guint n = fx_series_len (s);
  double t_last = n > 0 ? fx_series_get (s, n - 1)->t : 0;
  double t_first = n > 0 ? fx_series_get (s, 0)->t : 0;
  *i1 = n;
  if (st->t_window > 0)
    {
      *t1 = MAX (t_last, t_first + st->t_window);
      *t0 = *t1 - st->t_window;
      /* scrubbed back before the window: the window centres on the cursor */
      if (isfinite (st->cursor_t) && st->cursor_t < *t0)
        {
          *t0 = MAX (t_first, st->cursor_t - st->t_window / 2);
          *t1 = *t0 + st->t_window;
          *i1 = MIN (n, fx_series_find (s, *t1) + 1);
        }
    }
  else
    {
      *t0 = t_first;
      *t1 = t_last > t_first ? t_last : t_first + 1;
    }
  *i0 = fx_series_find (s, *t0);
}

static void
value_range (const PlotSpec *spec, const FxSeries *s, guint i0, guint i1, double *v0, double *v1)
{
  double lo = INFINITY, hi = -INFINITY;
  for (guint i = i0; i < i1; i++)
    for (guint c = 0; c < spec->n_curves; c++)
      {
        double v = spec->curves[c].get (fx_series_get (s, i), fx_series_get (s, 0));
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

/* The title, then its unit in parentheses, from x when they fit in the
 * plot's width w, else from the left edge; the unit is left out before
 * the title is cut (with an ellipsis), so a narrow plot keeps its name. */
static void
draw_title (cairo_t *cr, const FxPlotStyle *st, const FxPalette *pal, double x, double w,
            const char *title, const char *unit)
{
  double k = fs (st), gap = 6 * k, room = w - 6 * k;
  fx_text_font (cr, 11 * k, FALSE);
  double uw = unit ? fx_text_width (cr, unit) + gap : 0;
  fx_text_font (cr, 12 * k, TRUE);
  double tw = fx_text_width (cr, title);
  if (x + tw + uw > room)
    x = 6 * k;
  if (x + tw + uw > room)
    uw = 0, unit = NULL;
  g_autofree char *cut = NULL;
  if (x + tw > room)
    {
      /* drop whole characters until it fits with the ellipsis */
      glong n = g_utf8_strlen (title, -1);
      while (n > 1)
        {
          g_free (cut);
          g_autofree char *head = g_utf8_substring (title, 0, --n);
          cut = g_strconcat (head, "\u2026", NULL);
          if (x + fx_text_width (cr, cut) <= room)
            break;
        }
      title = cut ? cut : title;
    }
  fx_set_rgb (cr, pal->fg);
  tw = fx_text_draw (cr, x, 6 * k, title, FX_ALIGN_START, FX_ALIGN_START);
  if (unit)
    {
      fx_text_font (cr, 11 * k, FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, x + tw + gap, 7 * k, unit, FX_ALIGN_START, FX_ALIGN_START);
    }
}

static void
draw_axes (cairo_t *cr, const PlotSpec *spec, const Axes *a, const FxPlotStyle *st,
           const FxPalette *pal, double w)
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
      snprintf (buf, sizeof buf, "(%s)", _(spec->y_label));
      draw_title (cr, st, pal, a->x, w, _(spec->title), spec->y_label[0] ? buf : NULL);
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
          double v = c->get (fx_series_get (s, i), fx_series_get (s, 0));
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

static void
set_dash (cairo_t *cr, Dash dash, double k)
{
  static const double dashed[] = { 7, 4 }, dotted[] = { 1.5, 3.5 }, dash_dot[] = { 8, 3, 1.5, 3 };
  const double *pattern = dash == DASHED ? dashed : dash == DOTTED ? dotted : dash_dot;
  int n = dash == DASHED || dash == DOTTED ? 2 : 4;
  double scaled[4];
  for (int i = 0; i < n; i++)
    scaled[i] = pattern[i] * k;
  cairo_set_dash (cr, scaled, dash == SOLID ? 0 : n, 0);
  cairo_set_line_cap (cr, dash == DOTTED ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
}

static void
draw_legend (cairo_t *cr, const PlotSpec *spec, const Legend *lg, const FxPlotStyle *st,
             const FxPalette *pal)
{
  double k = fs (st);
  fx_text_font (cr, 10 * k, FALSE);
  for (guint c = 0; c < lg->n; c++)
    {
      double rgb[3], x = lg->x[c], y = lg->y[c];
      fx_series_color (spec->curves[c].color, st->dark, rgb);
      fx_set_rgb (cr, rgb);
      cairo_set_line_width (cr, 2.2 * k);
      set_dash (cr, spec->curves[c].dash, k);
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x + 14 * k, y);
      cairo_stroke (cr);
      set_dash (cr, SOLID, k);
      fx_set_rgb (cr, pal->fg);
      fx_text_draw (cr, x + 17 * k, y, _(spec->curves[c].name), FX_ALIGN_START, FX_ALIGN_CENTER);
    }
}

/* A vertical line at the time the timeline shows, while scrubbing. */
static void
draw_cursor (cairo_t *cr, const Axes *a, const FxPlotStyle *st, const FxPalette *pal)
{
  if (!isfinite (st->cursor_t) || st->cursor_t < a->t0 || st->cursor_t > a->t1)
    return;
  /* in the text colour, with a notch at the top: the curves use the
   * palette's colours, the accent blue among them */
  double x = floor (ax_x (a, st->cursor_t)) + 0.5, k = fs (st);
  fx_set_rgba (cr, pal->fg, 0.75);
  cairo_set_line_width (cr, 1.5 * k);
  cairo_move_to (cr, x, a->y);
  cairo_line_to (cr, x, a->y + a->h);
  cairo_stroke (cr);
  cairo_move_to (cr, x - 5 * k, a->y);
  cairo_line_to (cr, x + 5 * k, a->y);
  cairo_line_to (cr, x, a->y + 6 * k);
  cairo_close_path (cr);
  cairo_fill (cr);
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
      double val = spec->curves[c].get (p, fx_series_get (s, 0));
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
    draw_title (cr, st, pal, a.x, w, _(spec->title), _("(y against x, m)"));

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
      fx_text_draw_wrapped (cr, a.x + a.w / 2, a.y + a.h / 2, a.w - 12 * k,
                            np == 0 ? _("No probes in this model") : _("Press Play to run"));
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

  const PlotSpec *spec = spec_of (kind, st);
  const FxPalette *pal = fx_palette_get (st->dark);
  Legend lg;
  legend_layout (cr, spec, st, w, &lg);
  double area[4];
  area_below (st, &lg, w, h, area);
  Axes a = { area[0], area[1], area[2], area[3], 0, 1, 0, 1, spec->log_y };

  fx_plot_begin (cr, w, h, st->transparent, pal);
  guint i0, i1;
  visible_range (s, st, &i0, &i1, &a.t0, &a.t1);
  /* frame 0 carries no step: leave it out of per-step plots */
  if (kind != FX_PLOT_ENERGY && i0 < i1 && fx_series_get (s, i0)->newton == 0
      && fx_series_get (s, i0)->t == fx_series_get (s, 0)->t)
    i0++;
  value_range (spec, s, i0, i1, &a.v0, &a.v1);
  draw_axes (cr, spec, &a, st, pal, w);

  cairo_save (cr);
  cairo_rectangle (cr, a.x, a.y, a.w, a.h);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* solid curves first, the first (Total H) last of them, on top of the
   * terms it sums; then the dashed ones over them, so a curve that lies
   * on another shows through its gaps */
  for (int pass = 0; pass < 2; pass++)
    for (guint c = spec->n_curves; c-- > 0 && i1 > i0;)
      {
        if ((spec->curves[c].dash != SOLID) != pass)
          continue;
        Columns cols;
        columns_of (&spec->curves[c], s, i0, i1, &a, &cols);
        double rgb[3];
        fx_series_color (spec->curves[c].color, st->dark, rgb);
        cairo_set_line_width (cr, (c == 0 ? 2.2 : 1.8) * fs (st));
        set_dash (cr, spec->curves[c].dash, fs (st));
        draw_curve (cr, spec, &cols, i0, i1, &a, rgb);
        set_dash (cr, SOLID, fs (st));
        columns_clear (&cols);
      }
  draw_cursor (cr, &a, st, pal);
  cairo_restore (cr);

  if (i1 <= i0)
    {
      fx_text_font (cr, 11 * fs (st), FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw_wrapped (cr, a.x + a.w / 2, a.y + a.h / 2, a.w - 12 * fs (st), _("Press Play to run"));
    }
  draw_legend (cr, spec, &lg, st, pal);
  draw_hover (cr, spec, s, i0, i1, &a, st, pal);
  cairo_restore (cr);
}
