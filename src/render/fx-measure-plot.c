/* fx-measure-plot.c: what probes and supports measure, against time or
 * against each other (fx-measure-plot.h). */
#include "fx-measure-plot.h"
#include "fx-render-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Points drawn per curve at most: more are thinned by an even stride. */
#define MAX_DRAWN 4000

/* ---------------------------------------------------------- quantities */

static const char *const probe_names[FX_PROBE_N_ALL] = {
  N_("position x"), N_("position y"), N_("velocity x"), N_("velocity y"),
  N_("section angle"), N_("axial force N"), N_("shear force V"), N_("bending moment M"),
  N_("speed |v|"), N_("angular velocity ω"), N_("angle within ±180°"),
};
static const char *const probe_units[FX_PROBE_N_ALL] = {
  "m", "m", "m/s", "m/s", "\u00b0", "N", "N", "N m", "m/s", "rad/s", "\u00b0",
};
static const char *const reaction_names[FX_REACTION_N_VALUES] = {
  N_("reaction x"), N_("reaction y"), N_("reaction moment"),
};
/* in titles, legends and axes, where room is short: the symbols of the
 * CSV columns (README) */
static const char *const probe_symbols[FX_PROBE_N_ALL] = {
  "x", "y", "vx", "vy", "\u03b8", "N", "V", "M", "|v|", "\u03c9", "\u03b8\u00b1",
};
static const char *const reaction_symbols[FX_REACTION_N_VALUES] = { "Fx", "Fy", "M" };
static const char *const reaction_units[FX_REACTION_N_VALUES] = { "N", "N", "N m" };

const char *
fx_probe_value_name (guint value)
{
  return value < FX_PROBE_N_ALL ? _(probe_names[value]) : "?";
}

gboolean
fx_quantity_wraps (const FxQuantity *q)
{
  return q->source == FX_QUANTITY_PROBE && q->value == FX_PROBE_ANGLE_WRAPPED;
}

/* The section's angular velocity at point i (rad/s): the central
 * difference of the recorded angle, which is continuous (not wrapped),
 * one-sided at the ends of the series. */
static double
probe_omega (const FxSeries *s, guint i, guint probe)
{
  guint n = fx_series_len (s);
  if (n < 2)
    return NAN;
  guint a = i > 0 ? i - 1 : 0, b = i + 1 < n ? i + 1 : n - 1;
  double dt = fx_series_get (s, b)->t - fx_series_get (s, a)->t;
  if (!(dt > 0))
    return NAN;
  return (fx_series_probe_value (s, b, probe, FX_PROBE_ANGLE)
          - fx_series_probe_value (s, a, probe, FX_PROBE_ANGLE)) / dt;
}

static double
probe_value (const FxSeries *s, guint i, guint probe, guint value)
{
  switch (value)
    {
    case FX_PROBE_SPEED:
      return hypot (fx_series_probe_value (s, i, probe, FX_PROBE_VX),
                    fx_series_probe_value (s, i, probe, FX_PROBE_VY));
    case FX_PROBE_OMEGA:
      return probe_omega (s, i, probe);
    case FX_PROBE_ANGLE_WRAPPED:
      {
        double deg = remainder (fx_series_probe_value (s, i, probe, FX_PROBE_ANGLE) * 180.0 / G_PI, 360.0);
        return deg == -180.0 ? 180.0 : deg;
      }
    case FX_PROBE_ANGLE:
      return fx_series_probe_value (s, i, probe, value) * 180.0 / G_PI;
    default:
      return fx_series_probe_value (s, i, probe, value);
    }
}

const char *
fx_reaction_value_name (FxReactionValue value)
{
  return _(reaction_names[value]);
}

double
fx_quantity_value (const FxSeries *s, guint i, const FxQuantity *q)
{
  switch (q->source)
    {
    case FX_QUANTITY_PROBE:
      if (q->index >= fx_series_n_probes (s) || q->value >= FX_PROBE_N_ALL)
        return NAN;
      return probe_value (s, i, q->index, q->value);
    case FX_QUANTITY_SUPPORT:
      {
        int k = fx_series_find_support (s, q->index);
        if (k < 0 || q->value >= FX_REACTION_N_VALUES)
          return NAN;
        return fx_series_reaction (s, i, (guint) k, q->value);
      }
    case FX_QUANTITY_TIME:
    default:
      return fx_series_get (s, i)->t;
    }
}

char *
fx_quantity_name (const FxSeries *s, const FxQuantity *q)
{
  if (q->source == FX_QUANTITY_PROBE && q->value < FX_PROBE_N_ALL)
    {
      const char *id = fx_series_probe_id (s, q->index);
      return g_strdup_printf ("%s: %s", id ? id : "?", probe_symbols[q->value]);
    }
  if (q->source == FX_QUANTITY_SUPPORT && q->value < FX_REACTION_N_VALUES)
    {
      int k = fx_series_find_support (s, q->index);
      const char *id = k >= 0 ? fx_series_support_id (s, (guint) k) : NULL;
      return g_strdup_printf ("%s: %s", id ? id : "?", reaction_symbols[q->value]);
    }
  return g_strdup (_("Time"));
}

const char *
fx_quantity_unit (const FxQuantity *q)
{
  if (q->source == FX_QUANTITY_PROBE && q->value < FX_PROBE_N_ALL)
    return probe_units[q->value];
  if (q->source == FX_QUANTITY_SUPPORT && q->value < FX_REACTION_N_VALUES)
    return reaction_units[q->value];
  return "s";
}

gboolean
fx_quantity_equal (const FxQuantity *a, const FxQuantity *b)
{
  return a->source == b->source && (a->source == FX_QUANTITY_TIME
                                    || (a->index == b->index && a->value == b->value));
}

/* ---------------------------------------------------------------- plot */

void
fx_measure_plot_init (FxMeasurePlot *p)
{
  memset (p, 0, sizeof *p);
  p->x.source = FX_QUANTITY_TIME;
}

gboolean
fx_measure_plot_add (FxMeasurePlot *p, const FxQuantity *q)
{
  for (guint c = 0; c < p->n_curves; c++)
    if (fx_quantity_equal (&p->y[c], q))
      return FALSE;
  if (p->n_curves > 0 && strcmp (fx_quantity_unit (&p->y[0]), fx_quantity_unit (q)) != 0)
    p->n_curves = 0;
  if (p->n_curves == FX_MEASURE_MAX_CURVES)
    {
      memmove (&p->y[0], &p->y[1], sizeof p->y[0] * (FX_MEASURE_MAX_CURVES - 1));
      p->n_curves--;
    }
  p->y[p->n_curves++] = *q;
  return TRUE;
}

typedef struct {
  double x, y, w, h;      /* data area, device */
  double x0, x1, y0, y1;  /* ranges            */
} Area;

static double ax (const Area *a, double v) { return a->x + (v - a->x0) / (a->x1 - a->x0) * a->w; }
static double ay (const Area *a, double v) { return a->y + a->h - (v - a->y0) / (a->y1 - a->y0) * a->h; }

static double
font_k (const FxPlotStyle *st)
{
  return st->font_scale > 0 ? st->font_scale : 1;
}

/* The points shown: those of the last t_window seconds (all: t_window <= 0). */
static guint
first_shown (const FxSeries *s, const FxPlotStyle *st)
{
  guint n = fx_series_len (s);

  if (n == 0 || st->t_window <= 0)
    return 0;
  return fx_series_find (s, fx_series_get (s, n - 1)->t - st->t_window);
}

static void
pad (double *lo, double *hi)
{
  if (!(*lo <= *hi))
    *lo = 0, *hi = 1;
  double span = *hi - *lo, mag = MAX (fabs (*lo), fabs (*hi));
  double d = span > 1e-9 * mag && span > 0 ? 0.05 * span : (mag > 0 ? 0.05 * mag : 1);
  *lo -= d;
  *hi += d;
}

static void
ranges (const FxMeasurePlot *p, const FxSeries *s, guint i0, guint i1, const FxPlotStyle *st,
        Area *a)
{
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;

  for (guint i = i0; i < i1; i++)
    {
      double x = fx_quantity_value (s, i, &p->x);
      if (!isfinite (x))
        continue;
      gboolean any = FALSE;
      for (guint c = 0; c < p->n_curves; c++)
        {
          double y = fx_quantity_value (s, i, &p->y[c]);
          if (!isfinite (y))
            continue;
          ylo = MIN (ylo, y), yhi = MAX (yhi, y), any = TRUE;
        }
      if (any)
        xlo = MIN (xlo, x), xhi = MAX (xhi, x);
    }
  if (p->x.source == FX_QUANTITY_TIME)
    {
      /* time runs on as the run plots do: a window that fills as it goes */
      double t_last = i1 > 0 ? fx_series_get (s, i1 - 1)->t : 0, t_first = i1 > 0 ? fx_series_get (s, 0)->t : 0;
      xhi = st->t_window > 0 ? MAX (t_last, t_first + st->t_window) : MAX (t_last, t_first + 1e-9);
      xlo = st->t_window > 0 ? xhi - st->t_window : t_first;
    }
  else
    pad (&xlo, &xhi);
  pad (&ylo, &yhi);
  a->x0 = xlo, a->x1 = xhi, a->y0 = ylo, a->y1 = yhi;
}

/* "(m/s)" after the title, or the one curve's name and unit */
static char *
title_of (const FxMeasurePlot *p, const FxSeries *s)
{
  if (p->n_curves == 1)
    {
      g_autofree char *name = fx_quantity_name (s, &p->y[0]);
      return g_strdup_printf ("%s (%s)", name, fx_quantity_unit (&p->y[0]));
    }
  return g_strdup_printf ("%s (%s)", _("Measurements"),
                          p->n_curves ? fx_quantity_unit (&p->y[0]) : "");
}

static void
draw_axes (cairo_t *cr, const FxMeasurePlot *p, const FxSeries *s, const Area *a,
           const FxPlotStyle *st, const FxPalette *pal)
{
  double k = font_k (st);
  const double box[4] = { a->x, a->y, a->w, a->h };

  fx_text_font (cr, 10.5 * k, FALSE);
  cairo_set_line_width (cr, 1);
  fx_draw_ticks (cr, box, a->y0, a->y1, fx_nice_step (a->y1 - a->y0, (int) MAX (2, a->h / (28 * k))),
                 TRUE, k, pal);
  fx_draw_ticks (cr, box, a->x0, a->x1, fx_nice_step (a->x1 - a->x0, (int) MAX (2, a->w / (70 * k))),
                 FALSE, k, pal);
  g_autofree char *x_name = fx_quantity_name (s, &p->x);
  g_autofree char *x_label = g_strdup_printf ("%s (%s)", x_name, fx_quantity_unit (&p->x));
  fx_set_rgb (cr, pal->dim);
  fx_text_draw (cr, a->x + a->w, a->y + a->h + 18 * k, x_label, FX_ALIGN_END, FX_ALIGN_START);
  fx_set_rgba (cr, pal->fg, 0.3);
  cairo_rectangle (cr, floor (a->x) + 0.5, floor (a->y) + 0.5, floor (a->w), floor (a->h));
  cairo_stroke (cr);
  if (st->show_title)
    {
      g_autofree char *title = title_of (p, s);
      fx_text_font (cr, 12 * k, TRUE);
      fx_set_rgb (cr, pal->fg);
      fx_text_draw (cr, a->x, 6 * k, title, FX_ALIGN_START, FX_ALIGN_START);
    }
}

/* Curve c from point i0 to i1, broken where a value is unknown; a dot at
 * the newest point of a curve against another quantity (where it is now). */
static void
draw_curve (cairo_t *cr, const FxMeasurePlot *p, const FxSeries *s, guint c, guint i0, guint i1,
            const Area *a, const FxPlotStyle *st)
{
  double rgb[3], k = font_k (st), last_x = NAN, last_y = NAN;
  guint stride = MAX (1u, (i1 - i0) / MAX_DRAWN);
  gboolean pen = FALSE;

  fx_series_color (c, st->dark, rgb);
  fx_set_rgb (cr, rgb);
  cairo_set_line_width (cr, 1.8 * k);
  for (guint i = i0; i < i1; i = i + stride < i1 || i == i1 - 1 ? i + stride : i1 - 1)
    {
      /* every stride-th point, and the newest */
      double x = fx_quantity_value (s, i, &p->x), y = fx_quantity_value (s, i, &p->y[c]);
      if (!isfinite (x) || !isfinite (y))
        {
          pen = FALSE;
          continue;
        }
      /* a wrapped angle jumps a turn: no line across the plot */
      if (pen && ((fx_quantity_wraps (&p->y[c]) && fabs (y - last_y) > 180)
                  || (fx_quantity_wraps (&p->x) && fabs (x - last_x) > 180)))
        pen = FALSE;
      if (pen)
        cairo_line_to (cr, ax (a, x), ay (a, y));
      else
        cairo_move_to (cr, ax (a, x), ay (a, y));
      pen = TRUE;
      last_x = x, last_y = y;
    }
  cairo_stroke (cr);
  if (p->x.source != FX_QUANTITY_TIME && isfinite (last_x))
    {
      cairo_arc (cr, ax (a, last_x), ay (a, last_y), 3.5 * k, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

static void
draw_legend (cairo_t *cr, const FxMeasurePlot *p, const FxSeries *s, const Area *a,
             const FxPlotStyle *st, const FxPalette *pal)
{
  double k = font_k (st), row = 14 * k, wmax = 0;
  char *names[FX_MEASURE_MAX_CURVES];

  if (p->n_curves < 2)
    return;
  fx_text_font (cr, 10 * k, FALSE);
  for (guint c = 0; c < p->n_curves; c++)
    {
      names[c] = fx_quantity_name (s, &p->y[c]);
      wmax = MAX (wmax, fx_text_width (cr, names[c]));
    }
  double bw = wmax + 30 * k, bh = p->n_curves * row + 8 * k;
  double bx = a->x + a->w - bw - 6 * k, by = a->y + 6 * k;
  if (bw <= a->w - 12 * k && bh <= a->h - 12 * k)
    {
      fx_rounded_rect (cr, bx, by, bw, bh, 5 * k);
      fx_set_rgba (cr, pal->card, 0.85);
      cairo_fill (cr);
      for (guint c = 0; c < p->n_curves; c++)
        {
          double rgb[3], y = by + 4 * k + (c + 0.5) * row;
          fx_series_color (c, st->dark, rgb);
          fx_draw_legend_entry (cr, bx + 6 * k, y, rgb, names[c], k, pal);
        }
    }
  for (guint c = 0; c < p->n_curves; c++)
    g_free (names[c]);
}

/* Against another quantity: the point of a curve nearest the pointer,
 * ringed, with its time and both values. */
static void
draw_hover_xy (cairo_t *cr, const FxMeasurePlot *p, const FxSeries *s, guint i0, guint i1,
               const Area *a, const FxPlotStyle *st, const FxPalette *pal)
{
  double k = font_k (st), best = INFINITY;
  guint bi = 0, bc = 0;
  guint stride = MAX (1u, (i1 - i0) / MAX_DRAWN);
  for (guint c = 0; c < p->n_curves; c++)
    for (guint i = i0; i < i1; i += stride)
      {
        double x = fx_quantity_value (s, i, &p->x), y = fx_quantity_value (s, i, &p->y[c]);
        if (!isfinite (x) || !isfinite (y))
          continue;
        double d = hypot (ax (a, x) - st->hover_x, ay (a, y) - st->hover_y);
        if (d < best)
          best = d, bi = i, bc = c;
      }
  if (!(best < 40 * k))
    return;
  double x = fx_quantity_value (s, bi, &p->x), y = fx_quantity_value (s, bi, &p->y[bc]), rgb[3];
  fx_series_color (bc, st->dark, rgb);
  fx_set_rgb (cr, rgb);
  cairo_set_line_width (cr, 2 * k);
  cairo_arc (cr, ax (a, x), ay (a, y), 5 * k, 0, 2 * G_PI);
  cairo_stroke (cr);
  char vx[48], vy[48];
  fx_format_value (vx, sizeof vx, x);
  fx_format_value (vy, sizeof vy, y);
  g_autofree char *xn = fx_quantity_name (s, &p->x), *yn = fx_quantity_name (s, &p->y[bc]);
  g_autofree char *l0 = g_strdup_printf ("t = %.4g s", fx_series_get (s, bi)->t);
  g_autofree char *l1 = g_strdup_printf ("%s: %s %s", xn, vx, fx_quantity_unit (&p->x));
  g_autofree char *l2 = g_strdup_printf ("%s: %s %s", yn, vy, fx_quantity_unit (&p->y[bc]));
  const char *lines[] = { l0, l1, l2 };
  const double box[4] = { a->x, a->y, a->w, a->h };
  fx_draw_readout (cr, ax (a, x), box, lines, 3, k, pal);
}

/* Against time: a cursor at the hovered time and every curve's value there. */
static void
draw_hover (cairo_t *cr, const FxMeasurePlot *p, const FxSeries *s, guint i0, guint i1,
            const Area *a, const FxPlotStyle *st, const FxPalette *pal)
{
  if (st->hover_x < a->x || st->hover_x > a->x + a->w || i1 <= i0)
    return;
  if (p->x.source != FX_QUANTITY_TIME)
    {
      draw_hover_xy (cr, p, s, i0, i1, a, st, pal);
      return;
    }
  double k = font_k (st), t = a->x0 + (st->hover_x - a->x) / a->w * (a->x1 - a->x0);
  guint i = MIN (fx_series_find (s, t), i1 - 1);
  if (i > i0 && fabs (fx_series_get (s, i - 1)->t - t) < fabs (fx_series_get (s, i)->t - t))
    i--;
  double x = floor (ax (a, fx_series_get (s, i)->t)) + 0.5;
  fx_set_rgba (cr, pal->fg, 0.45);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x, a->y);
  cairo_line_to (cr, x, a->y + a->h);
  cairo_stroke (cr);

  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (lines, g_strdup_printf ("t = %.4g s", fx_series_get (s, i)->t));
  for (guint c = 0; c < p->n_curves; c++)
    {
      char v[48];
      double val = fx_quantity_value (s, i, &p->y[c]), rgb[3];
      g_autofree char *name = fx_quantity_name (s, &p->y[c]);
      if (!isfinite (val))
        continue;
      fx_format_value (v, sizeof v, val);
      g_ptr_array_add (lines, g_strdup_printf ("%s: %s %s", name, v, fx_quantity_unit (&p->y[c])));
      fx_series_color (c, st->dark, rgb);
      fx_set_rgb (cr, rgb);
      cairo_arc (cr, x, ay (a, val), 3.5 * k, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  const double box[4] = { a->x, a->y, a->w, a->h };
  fx_draw_readout (cr, x, box, (const char *const *) lines->pdata, lines->len, k, pal);
  g_ptr_array_unref (lines);
}

void
fx_measure_plot_draw (cairo_t *cr, const FxMeasurePlot *p, const FxSeries *s,
                      const FxPlotStyle *st, double w, double h)
{
  const FxPalette *pal = fx_palette_get (st->dark);
  double k = font_k (st), area[4];
  guint i1 = fx_series_len (s), i0 = first_shown (s, st);

  /* the run plots' margins, so that plots side by side line up */
  fx_plot_area (FX_PLOT_ENERGY, st, w, h, area);
  Area a = { area[0], area[1], area[2], area[3], 0, 1, 0, 1 };

  fx_plot_begin (cr, w, h, st->transparent, pal);
  ranges (p, s, i0, i1, st, &a);
  draw_axes (cr, p, s, &a, st, pal);
  cairo_save (cr);
  cairo_rectangle (cr, a.x, a.y, a.w, a.h);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint c = 0; c < p->n_curves && i1 > i0; c++)
    draw_curve (cr, p, s, c, i0, i1, &a, st);
  cairo_restore (cr);
  if (p->n_curves == 0 || i1 <= i0)
    {
      fx_text_font (cr, 11 * k, FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw_wrapped (cr, a.x + a.w / 2, a.y + a.h / 2, a.w - 12 * k,
                            p->n_curves == 0 ? _("Choose what to plot from a probe or a support")
                                             : _("Press Play to run"));
    }
  draw_legend (cr, p, s, &a, st, pal);
  draw_hover (cr, p, s, i0, i1, &a, st, pal);
  cairo_restore (cr);
}
