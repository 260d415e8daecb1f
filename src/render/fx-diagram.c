/* fx-diagram.c: the N, V, M diagrams drawn over the scene (fx-diagram.h).
 *
 * Each link's samples (nodes and element centres, fx-frame.h) are placed
 * on its drawn axis, which is the magnified one when bending is magnified,
 * and offset along the axis's normal in proportion to the value. The area
 * between axis and curve is filled per sign: where the value changes sign
 * between two samples the strip is cut at the zero.
 */
#include "fx-diagram.h"
#include "fx-scene-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ values */

gboolean
fx_diagram_view_parse (const char *text, FxDiagramView *view)
{
  static const char *const names[] = { "none", "N", "V", "M" };

  if (text == NULL || *text == '\0')
    {
      *view = FX_DIAGRAM_VIEW_NONE;
      return TRUE;
    }
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    if (g_ascii_strcasecmp (text, names[k]) == 0)
      {
        *view = (FxDiagramView) k;
        return TRUE;
      }
  return FALSE;
}

const char *
fx_diagram_view_name (FxDiagramView view)
{
  switch (view)
    {
    case FX_DIAGRAM_VIEW_N: return "N";
    case FX_DIAGRAM_VIEW_V: return "V";
    case FX_DIAGRAM_VIEW_M: return "M";
    case FX_DIAGRAM_VIEW_NONE: default: return "none";
    }
}

const char *
fx_diagram_view_title (FxDiagramView view)
{
  switch (view)
    {
    case FX_DIAGRAM_VIEW_N: return _("Axial force N");
    case FX_DIAGRAM_VIEW_V: return _("Shear force V");
    case FX_DIAGRAM_VIEW_M: return _("Bending moment M");
    case FX_DIAGRAM_VIEW_NONE: default: return "";
    }
}

const char *
fx_diagram_legend_text (FxDiagramView view)
{
  switch (view)
    {
    case FX_DIAGRAM_VIEW_N:
      return _("+ tension, − compression; + drawn left of each link (from → to)");
    case FX_DIAGRAM_VIEW_V:
      return _("+ drawn left of each link (from → to)");
    case FX_DIAGRAM_VIEW_M:
      return _("drawn on the tension side");
    case FX_DIAGRAM_VIEW_NONE: default:
      return "";
    }
}

static int
field_of (FxDiagramView view)
{
  return view == FX_DIAGRAM_VIEW_N ? FX_DIAGRAM_N : view == FX_DIAGRAM_VIEW_V ? FX_DIAGRAM_V
                                                                             : FX_DIAGRAM_M;
}

static guint
n_samples (const FxStepFrame *f, guint l)
{
  guint n = f->node_offset[l + 1] - f->node_offset[l];
  return n >= 2 ? 2 * n - 1 : 0;
}

double
fx_diagram_sample (const FxStepFrame *f, FxDiagramView view, guint l, guint k)
{
  if (view == FX_DIAGRAM_VIEW_NONE || f->diagram == NULL || l >= f->n_links || k >= n_samples (f, l))
    return NAN;
  return f->diagram[FX_DIAGRAM_N_VALUES * (2 * (gsize) f->node_offset[l] + k) + field_of (view)];
}

double
fx_diagram_max_abs (const FxStepFrame *f, FxDiagramView view)
{
  double worst = 0;
  if (view == FX_DIAGRAM_VIEW_NONE)
    return 0;
  for (guint l = 0; l < f->n_links; l++)
    for (guint k = 0; k < n_samples (f, l); k++)
      {
        double v = fabs (fx_diagram_sample (f, view, l, k));
        if (isfinite (v))
          worst = MAX (worst, v);
      }
  return worst;
}

void
fx_diagram_grow_bounds (FxDiagramView view, double box[4])
{
  double size = MAX (box[1] - box[0], box[3] - box[2]);
  if (view == FX_DIAGRAM_VIEW_NONE || !(size > 0))
    return;
  double reach = 1.2 * FX_DIAGRAM_SPAN * size;
  box[0] -= reach, box[1] += reach, box[2] -= reach, box[3] += reach;
}

static gint
by_magnitude (gconstpointer a, gconstpointer b)
{
  double x = fabs (((const FxDiagramExtreme *) a)->value), y = fabs (((const FxDiagramExtreme *) b)->value);
  return (x < y) - (x > y);
}

GArray *
fx_diagram_extremes (const FxStepFrame *f, FxDiagramView view)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (FxDiagramExtreme));
  double top = fx_diagram_max_abs (f, view);
  if (!(top > 0))
    return out;
  for (guint l = 0; l < f->n_links; l++)
    {
      guint n = n_samples (f, l), hi = 0, lo = 0;
      if (n == 0)
        continue;
      for (guint k = 1; k < n; k++)
        {
          double v = fx_diagram_sample (f, view, l, k);
          if (v > fx_diagram_sample (f, view, l, hi))
            hi = k;
          if (v < fx_diagram_sample (f, view, l, lo))
            lo = k;
        }
      double vh = fx_diagram_sample (f, view, l, hi), vl = fx_diagram_sample (f, view, l, lo);
      if (!isfinite (vh) || !isfinite (vl))
        continue;
      guint picks[2] = { hi, lo }, n_picks = 2;
      /* constant along the link (a truss member's N): once, at its middle */
      if (vh - vl <= 1e-3 * MAX (fabs (vh), fabs (vl)))
        picks[0] = n / 2, n_picks = 1;
      /* all of one sign: the one farther from zero */
      else if (vl > 0)
        n_picks = 1;
      else if (vh < 0)
        picks[0] = lo, n_picks = 1;
      for (guint p = 0; p < n_picks; p++)
        {
          double v = fx_diagram_sample (f, view, l, picks[p]);
          if (!(fabs (v) >= 1e-2 * top) || (p == 1 && picks[1] == picks[0]))
            continue;
          FxDiagramExtreme e = { l, picks[p], (double) picks[p] / (n - 1), v };
          g_array_append_val (out, e);
        }
    }
  g_array_sort (out, by_magnitude);
  return out;
}

void
fx_diagram_format (char *buf, gsize size, double value, FxDiagramView view)
{
  static const char *const prefix[] = { "p", "n", "µ", "m", "", "k", "M", "G", "T" };
  const char *unit = view == FX_DIAGRAM_VIEW_M ? "N\u00a0m" : "N";
  double a = fabs (value);

  if (!isfinite (value))
    {
      snprintf (buf, size, "—");
      return;
    }
  if (a == 0)
    {
      snprintf (buf, size, "0\u00a0%s", unit);
      return;
    }
  /* round to 3 significant digits first, so 999.7 becomes 1.00 k */
  double digits = floor (log10 (a));
  double rounded = round (a / pow (10, digits - 2)) * pow (10, digits - 2);
  int exp3 = (int) floor (floor (log10 (rounded) + 1e-12) / 3);
  exp3 = CLAMP (exp3, -4, 4);
  double mant = rounded / pow (10, 3 * exp3);
  int decimals = mant >= 100 - 1e-9 ? 0 : mant >= 10 - 1e-9 ? 1 : 2;
  snprintf (buf, size, "%s%.*f\u00a0%s%s", value < 0 ? "\u2212" : "", decimals, mant,
            prefix[exp3 + 4], unit);
}

/* ----------------------------------------------------------- drawing */

/* Sample k of link l on the drawn axis (model coordinates) and the axis's
 * unit left normal there. */
static void
sample_place (const FxStepFrame *f, guint l, guint k, double p[2], double nrm[2])
{
  guint a = f->node_offset[l], last = f->node_offset[l + 1] - 1, i = a + k / 2;
  double tx, ty;
  if (k % 2 == 1)
    {
      p[0] = 0.5 * (f->x[i] + f->x[i + 1]);
      p[1] = 0.5 * (f->y[i] + f->y[i + 1]);
      tx = f->x[i + 1] - f->x[i], ty = f->y[i + 1] - f->y[i];
    }
  else
    {
      guint i0 = i > a ? i - 1 : i, i1 = i < last ? i + 1 : i;
      p[0] = f->x[i];
      p[1] = f->y[i];
      tx = f->x[i1] - f->x[i0], ty = f->y[i1] - f->y[i0];
    }
  double len = hypot (tx, ty);
  nrm[0] = len > 0 ? -ty / len : 0;
  nrm[1] = len > 0 ? tx / len : 1;
}

typedef struct {
  const Scene *sc;
  FxDiagramView view;
  double per_unit;  /* model metres of offset per unit of value */
} Draw;

/* The offset point of value v at axis point p with normal nrm (device). */
static void
offset_point (const Draw *d, const double p[2], const double nrm[2], double v, double *dx, double *dy)
{
  /* the moment on the tension side: right of the direction where positive */
  double sign = d->view == FX_DIAGRAM_VIEW_M ? -1 : 1, off = sign * v * d->per_unit;
  scene_dev (d->sc, p[0] + off * nrm[0], p[1] + off * nrm[1], dx, dy);
}

static void
sign_colours (const Scene *sc, double pos[3], double neg[3])
{
  /* GNOME red 3 and blue 3: tension and compression in the usual colours */
  fx_rgb_hex (sc->style->dark ? "#ff7b63" : "#e01b24", pos);
  fx_rgb_hex (sc->style->dark ? "#99c1f1" : "#1c71d8", neg);
}

/* A point of the diagram's axis: where, its normal, and its value. */
typedef struct {
  double p[2], nrm[2], v;
} AxisPoint;

/* Link l's samples, with the points where the value crosses zero between
 * two of them put in; a non-finite sample stays, to break the runs. */
static void
axis_points (const Draw *d, guint l, GArray *out)
{
  const FxStepFrame *f = d->sc->frame;
  guint n = n_samples (f, l);
  g_array_set_size (out, 0);
  for (guint k = 0; k < n; k++)
    {
      AxisPoint b;
      sample_place (f, l, k, b.p, b.nrm);
      b.v = fx_diagram_sample (f, d->view, l, k);
      if (k > 0)
        {
          const AxisPoint *a = &g_array_index (out, AxisPoint, out->len - 1);
          if ((a->v > 0 && b.v < 0) || (a->v < 0 && b.v > 0))
            {
              AxisPoint z = { .v = 0 };
              double t = a->v / (a->v - b.v);
              for (int c = 0; c < 2; c++)
                {
                  z.p[c] = a->p[c] + t * (b.p[c] - a->p[c]);
                  z.nrm[c] = a->nrm[c] + t * (b.nrm[c] - a->nrm[c]);
                }
              g_array_append_val (out, z);
            }
        }
      g_array_append_val (out, b);
    }
}

/* The value of one sign: the other sign's values count as zero. */
static inline double
of_sign (double v, int sign)
{
  return sign > 0 ? MAX (v, 0) : MIN (v, 0);
}

/* Whether the piece between points a and b has area of this sign. */
static inline gboolean
piece_filled (const AxisPoint *a, const AxisPoint *b, int sign)
{
  return isfinite (a->v) && isfinite (b->v) && (of_sign (a->v, sign) != 0 || of_sign (b->v, sign) != 0);
}

/* The area of one sign as one polygon per run of filled pieces: along the
 * axis, then back along the curve. One polygon, not a strip per piece:
 * cairo's rasteriser paid for every strip's shared edges (a 1000-element
 * link's M diagram took 73 ms a frame; bench/bench-render.c). */
static void
fill_sign (const Draw *d, int sign, const double rgb[3])
{
  const FxStepFrame *f = d->sc->frame;
  cairo_t *cr = d->sc->cr;
  g_autoptr (GArray) pts = g_array_new (FALSE, FALSE, sizeof (AxisPoint));
  cairo_new_path (cr);
  for (guint l = 0; l < f->n_links; l++)
    {
      axis_points (d, l, pts);
      const AxisPoint *q = (const AxisPoint *) pts->data;
      guint i = 0;
      while (i + 1 < pts->len)
        {
          if (!piece_filled (&q[i], &q[i + 1], sign))
            {
              i++;
              continue;
            }
          guint end = i + 1;
          while (end + 1 < pts->len && piece_filled (&q[end], &q[end + 1], sign))
            end++;
          double x, y;
          for (guint k = i; k <= end; k++)
            {
              scene_dev (d->sc, q[k].p[0], q[k].p[1], &x, &y);
              if (k == i)
                cairo_move_to (cr, x, y);
              else
                cairo_line_to (cr, x, y);
            }
          for (guint k = end + 1; k-- > i;)
            {
              offset_point (d, q[k].p, q[k].nrm, of_sign (q[k].v, sign), &x, &y);
              cairo_line_to (cr, x, y);
            }
          cairo_close_path (cr);
          i = end;
        }
    }
  fx_set_rgba (cr, rgb, 0.35);
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_WINDING);
  cairo_fill (cr);
}

static void
outline (const Draw *d)
{
  const FxStepFrame *f = d->sc->frame;
  cairo_t *cr = d->sc->cr;
  for (guint l = 0; l < f->n_links; l++)
    {
      guint n = n_samples (f, l);
      gboolean open = FALSE;
      for (guint k = 0; k < n; k++)
        {
          double p[2], nrm[2], x, y, v = fx_diagram_sample (f, d->view, l, k);
          if (!isfinite (v))
            {
              open = FALSE;
              continue;
            }
          sample_place (f, l, k, p, nrm);
          if (!open)
            {
              /* from the axis, so the curve closes on it at the link's ends */
              scene_dev (d->sc, p[0], p[1], &x, &y);
              cairo_move_to (cr, x, y);
              open = TRUE;
            }
          offset_point (d, p, nrm, v, &x, &y);
          cairo_line_to (cr, x, y);
          if (k + 1 == n)
            {
              scene_dev (d->sc, p[0], p[1], &x, &y);
              cairo_line_to (cr, x, y);
            }
        }
    }
  cairo_set_line_width (cr, 1.5 * d->sc->ls);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  fx_set_rgba (cr, d->sc->pal->fg, 0.8);
  cairo_stroke (cr);
}

/* The extremes' values at the curve, beyond it along the normal; a label
 * that would overlap one already written is left out. */
static void
labels (const Draw *d)
{
  const FxStepFrame *f = d->sc->frame;
  cairo_t *cr = d->sc->cr;
  double ls = d->sc->ls;
  g_autoptr (GArray) ext = fx_diagram_extremes (f, d->view);
  g_autoptr (GArray) boxes = g_array_new (FALSE, FALSE, sizeof (double) * 4);

  fx_text_font (cr, 11 * ls, TRUE);
  double th = fx_text_height (cr);
  for (guint i = 0; i < ext->len && i < 60; i++)
    {
      const FxDiagramExtreme *e = &g_array_index (ext, FxDiagramExtreme, i);
      double p[2], nrm[2], x, y, ax, ay;
      char text[64];
      sample_place (f, e->link, e->sample, p, nrm);
      offset_point (d, p, nrm, e->value, &x, &y);
      scene_dev (d->sc, p[0], p[1], &ax, &ay);
      /* away from the axis, or along the normal where the curve is at it */
      double ux = x - ax, uy = y - ay, len = hypot (ux, uy);
      if (len < 1)
        {
          double sign = d->view == FX_DIAGRAM_VIEW_M ? -1 : 1;
          ux = sign * (e->value >= 0 ? 1 : -1) * nrm[0], uy = -sign * (e->value >= 0 ? 1 : -1) * nrm[1];
          len = hypot (ux, uy);
        }
      ux /= len, uy /= len;
      fx_diagram_format (text, sizeof text, e->value, d->view);
      double tw = fx_text_width (cr, text), gap = 6 * ls;
      /* the box's centre beyond the point, far enough that the box clears it */
      double cx = x + ux * (gap + 0.5 * tw * fabs (ux)), cy = y + uy * (gap + 0.5 * th * fabs (uy) + 0.5 * th * (1 - fabs (uy)));
      double box[4] = { cx - 0.5 * tw - 2, cy - 0.5 * th - 1, cx + 0.5 * tw + 2, cy + 0.5 * th + 1 };
      gboolean clash = FALSE;
      for (guint b = 0; b < boxes->len && !clash; b++)
        {
          const double *o = (const double *) (boxes->data + b * sizeof (double) * 4);
          clash = box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3];
        }
      if (clash)
        continue;
      g_array_append_vals (boxes, box, 1);
      fx_rounded_rect (cr, box[0], box[1], box[2] - box[0], box[3] - box[1], 3 * ls);
      fx_set_rgba (cr, d->sc->pal->bg, 0.8);
      cairo_fill (cr);
      fx_set_rgb (cr, d->sc->pal->fg);
      fx_text_draw (cr, cx, cy, text, FX_ALIGN_CENTER, FX_ALIGN_CENTER);
    }
}

static int
by_value (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The largest ordinate, m: FX_DIAGRAM_SPAN of the model's size, but no more
 * than FX_DIAGRAM_MEMBER_SPAN of a typical (the median) link's chord, so
 * that a truss's bands stay near their members (at 0.15 of the Warren
 * truss's 6 m, 0.9 m bands covered the neighbouring 2 m members). */
static double
diagram_span (const FxStepFrame *f, double size)
{
  double span = FX_DIAGRAM_SPAN * size;
  g_autofree double *chord = g_new (double, MAX (f->n_links, 1));
  guint n = 0;

  for (guint l = 0; l < f->n_links; l++)
    {
      guint a = f->node_offset[l], b = f->node_offset[l + 1];
      if (b > a + 1 && isfinite (f->x[a]) && isfinite (f->x[b - 1]))
        chord[n++] = hypot (f->x[b - 1] - f->x[a], f->y[b - 1] - f->y[a]);
    }
  if (n == 0)
    return span;
  qsort (chord, n, sizeof (double), by_value);
  double median = chord[n / 2];
  return median > 0 ? MIN (span, FX_DIAGRAM_MEMBER_SPAN * median) : span;
}

void
scene_draw_diagram (const Scene *sc, FxDiagramView view)
{
  const FxStepFrame *f = sc->frame;
  double top = fx_diagram_max_abs (f, view), box[4];

  if (sc->style->diagram_range > top)
    top = sc->style->diagram_range;
  if (!(top > 0) || !fx_scene_bounds (f, box))
    return;
  double size = MAX (box[1] - box[0], box[3] - box[2]);
  if (!(size > 0))
    return;
  Draw d = { sc, view, diagram_span (f, size) / top };
  double pos[3], neg[3];
  sign_colours (sc, pos, neg);
  cairo_save (sc->cr);
  fill_sign (&d, 1, pos);
  fill_sign (&d, -1, neg);
  outline (&d);
  labels (&d);
  cairo_restore (sc->cr);
}

/* The legend card: the title with the largest value, the sign convention,
 * and the two fill colours. Its size through w, h (drawn when draw). */
static void
legend (const Scene *sc, FxDiagramView view, double x, double y, gboolean draw, double *w, double *h)
{
  cairo_t *cr = sc->cr;
  double ls = sc->ls, pad = 10 * ls, sw = 14 * ls;
  char max_text[64], title[160];
  const char *signs[2] = {
    view == FX_DIAGRAM_VIEW_N ? _("tension") : _("positive"),
    view == FX_DIAGRAM_VIEW_N ? _("compression") : _("negative"),
  };

  fx_diagram_format (max_text, sizeof max_text, fx_diagram_max_abs (sc->frame, view), view);
  /* Translators: a diagram's title and its largest value, "Bending moment M, max 50.0 N m" */
  snprintf (title, sizeof title, _("%s, max %s"), fx_diagram_view_title (view), max_text);
  fx_text_font (cr, 11 * ls, TRUE);
  double th = fx_text_height (cr), tw = fx_text_width (cr, title);
  fx_text_font (cr, 10.5 * ls, FALSE);
  const char *rule = fx_diagram_legend_text (view);
  tw = MAX (tw, fx_text_width (cr, rule));
  double keys = sw + 4 * ls + fx_text_width (cr, signs[0]) + 12 * ls + sw + 4 * ls + fx_text_width (cr, signs[1]);
  tw = MAX (tw, keys);
  *w = tw + 2 * pad;
  *h = 3 * th + 8 * ls + 2 * pad;
  if (!draw)
    return;

  double pos[3], neg[3];
  sign_colours (sc, pos, neg);
  fx_rounded_rect (cr, x, y, *w, *h, 8 * ls);
  fx_set_rgba (cr, sc->pal->card, 0.92);
  cairo_fill_preserve (cr);
  fx_set_rgba (cr, sc->pal->fg, 0.12);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);

  fx_text_font (cr, 11 * ls, TRUE);
  fx_set_rgb (cr, sc->pal->fg);
  fx_text_draw (cr, x + pad, y + pad, title, FX_ALIGN_START, FX_ALIGN_START);
  fx_text_font (cr, 10.5 * ls, FALSE);
  fx_text_draw (cr, x + pad, y + pad + th + 4 * ls, rule, FX_ALIGN_START, FX_ALIGN_START);
  double kx = x + pad, ky = y + pad + 2 * th + 8 * ls;
  for (int k = 0; k < 2; k++)
    {
      const double *rgb = k == 0 ? pos : neg;
      cairo_rectangle (cr, kx, ky + 0.15 * th, sw, 0.7 * th);
      fx_set_rgba (cr, rgb, 0.35);
      cairo_fill_preserve (cr);
      fx_set_rgb (cr, rgb);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      fx_set_rgb (cr, sc->pal->fg);
      kx += sw + 4 * ls;
      kx += fx_text_draw (cr, kx, ky, signs[k], FX_ALIGN_START, FX_ALIGN_START) + 12 * ls;
    }
}

void
scene_draw_diagram_legend (const Scene *sc, FxDiagramView view, double area_w, double area_h)
{
  double w, h;
  legend (sc, view, 0, 0, FALSE, &w, &h);
  if (w > area_w - 24 || h > area_h - 24)
    return;
  cairo_save (sc->cr);
  /* top right: the time and the magnification are top left, the colour
   * bar bottom right, and a fitted structure sits low in the middle */
  legend (sc, view, area_w - w - 12, 12, TRUE, &w, &h);
  cairo_restore (sc->cr);
}
