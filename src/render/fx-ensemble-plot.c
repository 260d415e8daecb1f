/* fx-ensemble-plot.c: ensemble statistics against time, and probe paths. */
#include "fx-ensemble-plot.h"
#include "fx-output.h"
#include "fx-render-private.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  double x, y, w, h;      /* data area    */
  double x0, x1, y0, y1;  /* data ranges  */
} Frame;

static double fx_ (const Frame *f, double v) { return f->x + (v - f->x0) / (f->x1 - f->x0) * f->w; }
static double fy_ (const Frame *f, double v) { return f->y + f->h - (v - f->y0) / (f->y1 - f->y0) * f->h; }

static void
pad_range (double *lo, double *hi)
{
  if (!(*lo <= *hi))
    *lo = 0, *hi = 1;
  double span = *hi - *lo, pad = span > 0 ? 0.05 * span : MAX (fabs (*lo) * 0.05, 1e-3);
  *lo -= pad;
  *hi += pad;
}

static void
draw_frame (cairo_t *cr, const Frame *f, const char *title, const char *x_label,
            const FxPlotStyle *st, const FxPalette *pal)
{
  double k = st->font_scale > 0 ? st->font_scale : 1;
  char buf[64];

  fx_text_font (cr, 10.5 * k, FALSE);
  cairo_set_line_width (cr, 1);
  double sx = fx_nice_step (f->x1 - f->x0, 6), sy = fx_nice_step (f->y1 - f->y0, 5);
  for (double v = ceil (f->y0 / sy) * sy; v <= f->y1; v += sy)
    {
      fx_set_rgba (cr, pal->fg, 0.08);
      cairo_move_to (cr, f->x, round (fy_ (f, v)) + 0.5);
      cairo_line_to (cr, f->x + f->w, round (fy_ (f, v)) + 0.5);
      cairo_stroke (cr);
      fx_format_tick (buf, sizeof buf, v, 1e-9 * sy);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, f->x - 6 * k, fy_ (f, v), buf, FX_ALIGN_END, FX_ALIGN_CENTER);
    }
  for (double v = ceil (f->x0 / sx) * sx; v <= f->x1; v += sx)
    {
      fx_format_tick (buf, sizeof buf, v, 1e-9 * sx);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, fx_ (f, v), f->y + f->h + 4 * k, buf, FX_ALIGN_CENTER, FX_ALIGN_START);
    }
  fx_set_rgba (cr, pal->fg, 0.4);
  cairo_rectangle (cr, f->x + 0.5, f->y + 0.5, f->w - 1, f->h - 1);
  cairo_stroke (cr);
  fx_set_rgb (cr, pal->dim);
  fx_text_draw (cr, f->x + f->w, f->y + f->h + 18 * k, x_label, FX_ALIGN_END, FX_ALIGN_START);
  if (st->show_title)
    {
      fx_text_font (cr, 12 * k, TRUE);
      fx_set_rgb (cr, pal->fg);
      fx_text_draw (cr, f->x, 6 * k, title, FX_ALIGN_START, FX_ALIGN_START);
    }
}

static void
frame_area (const FxPlotStyle *st, double w, double h, Frame *f)
{
  double k = st->font_scale > 0 ? st->font_scale : 1;

  f->x = 58 * k;
  f->y = (st->show_title ? 26 : 10) * k;
  f->w = MAX (w - f->x - 12 * k, 10);
  f->h = MAX (h - f->y - 40 * k, 10);
}

static void
legend (cairo_t *cr, const Frame *f, guint slot, const char *name, const double rgb[3],
        const FxPlotStyle *st)
{
  double k = st->font_scale > 0 ? st->font_scale : 1, y = f->y + (8 + 15 * slot) * k;

  fx_set_rgb (cr, rgb);
  cairo_set_line_width (cr, 2.5);
  cairo_move_to (cr, f->x + 8 * k, y);
  cairo_line_to (cr, f->x + 24 * k, y);
  cairo_stroke (cr);
  fx_text_font (cr, 10 * k, FALSE);
  fx_text_draw (cr, f->x + 28 * k, y, name, FX_ALIGN_START, FX_ALIGN_CENTER);
}

static const guint energy_columns[] = {
  FX_ENSEMBLE_H, FX_ENSEMBLE_KINETIC, FX_ENSEMBLE_ELASTIC, FX_ENSEMBLE_GRAVITY, FX_ENSEMBLE_SUPPLIED,
  FX_ENSEMBLE_DISSIPATED
};
static const char *const energy_names[] = {
  N_("Total H"), N_("Kinetic"), N_("Elastic"), N_("Gravity"), N_("Supplied work"), N_("Dissipated")
};

/* Energies are drawn as changes since the start: each column less its
 * mean at the first time, the same shift for the mean, the band and the
 * sample paths. Gravity potential measured from y = 0 would otherwise
 * dwarf the kinetic and elastic bands (a 50 kJ mean against 0.2 kJ). */
static double
start_of (const FxEnsemble *e, guint c)
{
  return fx_ensemble_n_times (e) > 0 ? fx_ensemble_mean (e, 0, c) : 0;
}

static gboolean
column_is_zero (const FxEnsemble *e, guint c)
{
  for (guint i = 0; i < fx_ensemble_n_times (e); i++)
    if (fx_ensemble_quantile (e, i, c, 0.0) != 0.0 || fx_ensemble_quantile (e, i, c, 1.0) != 0.0)
      return FALSE;
  return TRUE;
}

static void
draw_energy (cairo_t *cr, const FxEnsemble *e, double t_now, const FxPlotStyle *st,
             const FxPalette *pal, double w, double h)
{
  guint n = fx_ensemble_n_times (e), shown[G_N_ELEMENTS (energy_columns)], n_shown = 0;
  g_autofree double *q05 = g_new (double, n), *q95 = g_new (double, n);
  Frame f;
  double lo = INFINITY, hi = -INFINITY;

  for (guint j = 0; j < G_N_ELEMENTS (energy_columns); j++)
    if (!column_is_zero (e, energy_columns[j]))
      shown[n_shown++] = j;
  for (guint j = 0; j < n_shown; j++)
    for (guint i = 0; i < n; i++)
      {
        guint c = energy_columns[shown[j]];
        double v0 = start_of (e, c);
        lo = MIN (lo, fx_ensemble_quantile (e, i, c, 0.05) - v0);
        hi = MAX (hi, fx_ensemble_quantile (e, i, c, 0.95) - v0);
        lo = MIN (lo, fx_ensemble_mean (e, i, c) - v0);
        hi = MAX (hi, fx_ensemble_mean (e, i, c) - v0);
      }
  for (guint k = 0; k < fx_ensemble_n_paths (e); k++)
    for (guint i = 0; i < n; i++)
      {
        double v = fx_ensemble_path_value (e, k, i, FX_ENSEMBLE_H) - start_of (e, FX_ENSEMBLE_H);
        lo = MIN (lo, v);
        hi = MAX (hi, v);
      }
  pad_range (&lo, &hi);
  frame_area (st, w, h, &f);
  /* the legend in a row above the data, where it hides none of it */
  double ks = st->font_scale > 0 ? st->font_scale : 1;
  f.y += 16 * ks;
  f.h = MAX (f.h - 16 * ks, 10);
  f.x0 = fx_ensemble_time (e, 0);
  f.x1 = MAX (fx_ensemble_time (e, n - 1), f.x0 + 1e-9);
  f.y0 = lo;
  f.y1 = hi;
  draw_frame (cr, &f, _("Energy change since start: mean, 5\u201395 % band, samples"), "t / s", st, pal);

  cairo_save (cr);
  cairo_rectangle (cr, f.x, f.y, f.w, f.h);
  cairo_clip (cr);
  for (guint j = 0; j < n_shown; j++)
    {
      guint c = energy_columns[shown[j]];
      double rgb[3];

      fx_series_color (shown[j], st->dark, rgb);
      for (guint i = 0; i < n; i++)
        {
          q05[i] = fx_ensemble_quantile (e, i, c, 0.05) - start_of (e, c);
          q95[i] = fx_ensemble_quantile (e, i, c, 0.95) - start_of (e, c);
        }
      for (guint i = 0; i < n; i++)
        cairo_line_to (cr, fx_ (&f, fx_ensemble_time (e, i)), fy_ (&f, q95[i]));
      for (guint i = n; i-- > 0;)
        cairo_line_to (cr, fx_ (&f, fx_ensemble_time (e, i)), fy_ (&f, q05[i]));
      cairo_close_path (cr);
      fx_set_rgba (cr, rgb, 0.18);
      cairo_fill (cr);
    }
  /* thin lines: H of each kept sample */
  {
    double rgb[3];

    fx_series_color (0, st->dark, rgb);
    cairo_set_line_width (cr, 0.8);
    for (guint k = 0; k < fx_ensemble_n_paths (e); k++)
      {
        for (guint i = 0; i < n; i++)
          cairo_line_to (cr, fx_ (&f, fx_ensemble_time (e, i)),
                         fy_ (&f, fx_ensemble_path_value (e, k, i, FX_ENSEMBLE_H)
                                  - start_of (e, FX_ENSEMBLE_H)));
        fx_set_rgba (cr, rgb, 0.3);
        cairo_stroke (cr);
      }
  }
  cairo_set_line_width (cr, 2);
  for (guint j = 0; j < n_shown; j++)
    {
      guint c = energy_columns[shown[j]];
      double rgb[3];

      fx_series_color (shown[j], st->dark, rgb);
      for (guint i = 0; i < n; i++)
        cairo_line_to (cr, fx_ (&f, fx_ensemble_time (e, i)),
                       fy_ (&f, fx_ensemble_mean (e, i, c) - start_of (e, c)));
      fx_set_rgb (cr, rgb);
      cairo_stroke (cr);
    }
  if (t_now >= f.x0 && t_now <= f.x1)
    {
      fx_set_rgba (cr, pal->fg, 0.5);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, round (fx_ (&f, t_now)) + 0.5, f.y);
      cairo_line_to (cr, round (fx_ (&f, t_now)) + 0.5, f.y + f.h);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
  double x = f.x;
  fx_text_font (cr, 10 * ks, FALSE);
  for (guint j = 0; j < n_shown; j++)
    {
      double rgb[3], y = f.y - 9 * ks;
      const char *name = _(energy_names[shown[j]]);

      fx_series_color (shown[j], st->dark, rgb);
      fx_set_rgb (cr, rgb);
      cairo_set_line_width (cr, 2.5);
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x + 14 * ks, y);
      cairo_stroke (cr);
      x += 17 * ks + fx_text_draw (cr, x + 17 * ks, y, name, FX_ALIGN_START, FX_ALIGN_CENTER) + 10 * ks;
    }
}

static guint
time_index (const FxEnsemble *e, double t)
{
  guint n = fx_ensemble_n_times (e), i = 0;

  while (i + 1 < n && fx_ensemble_time (e, i + 1) <= t + 1e-12)
    i++;
  return i;
}

/* A probe's displacement from where it started (every sample starts there). */
typedef struct {
  const FxEnsemble *e;
  guint cx, cy;
  double x0, y0;
} ProbeCols;

static ProbeCols
probe_cols (const FxEnsemble *e, guint p)
{
  ProbeCols c = { e, FX_ENSEMBLE_PROBE_COLUMN (p, FX_PROBE_X), FX_ENSEMBLE_PROBE_COLUMN (p, FX_PROBE_Y),
                  0, 0 };
  c.x0 = fx_ensemble_mean (e, 0, c.cx);
  c.y0 = fx_ensemble_mean (e, 0, c.cy);
  return c;
}

/* sample k's displacement at time i (k < 0: the mean's) */
static void
probe_at (const ProbeCols *c, int k, guint i, double d[2])
{
  if (k < 0)
    {
      d[0] = fx_ensemble_mean (c->e, i, c->cx) - c->x0;
      d[1] = fx_ensemble_mean (c->e, i, c->cy) - c->y0;
      return;
    }
  d[0] = fx_ensemble_path_value (c->e, (guint) k, i, c->cx) - c->x0;
  d[1] = fx_ensemble_path_value (c->e, (guint) k, i, c->cy) - c->y0;
}

/* The y axis' name, along it. */
static void
y_label (cairo_t *cr, const Frame *f, const char *label, const FxPlotStyle *st, const FxPalette *pal)
{
  double k = st->font_scale > 0 ? st->font_scale : 1;

  cairo_save (cr);
  cairo_translate (cr, 4 * k, f->y);
  cairo_rotate (cr, -G_PI / 2);
  fx_text_font (cr, 10.5 * k, FALSE);
  fx_set_rgb (cr, pal->dim);
  fx_text_draw (cr, 0, 0, label, FX_ALIGN_END, FX_ALIGN_START);
  cairo_restore (cr);
}

/* The probe plot's data area and axes: the displacements of every probe,
 * sample and mean, padded, with equal scales (the narrower range widened). */
static void
probe_frame (const FxEnsemble *e, const FxPlotStyle *st, double w, double h, Frame *f)
{
  guint n = fx_ensemble_n_times (e), n_probes = FX_ENSEMBLE_N_PROBES (fx_ensemble_n_columns (e));
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, d[2];

  for (guint p = 0; p < n_probes; p++)
    {
      ProbeCols c = probe_cols (e, p);
      for (guint i = 0; i < n; i++)
        for (int k = -1; k < (int) fx_ensemble_n_paths (e); k++)
          {
            probe_at (&c, k, i, d);
            xlo = MIN (xlo, d[0]), xhi = MAX (xhi, d[0]), ylo = MIN (ylo, d[1]), yhi = MAX (yhi, d[1]);
          }
    }
  pad_range (&xlo, &xhi);
  pad_range (&ylo, &yhi);
  frame_area (st, w, h, f);
  double sx = (xhi - xlo) / f->w, sy = (yhi - ylo) / f->h, s = MAX (sx, sy);
  double cx0 = 0.5 * (xlo + xhi), cy0 = 0.5 * (ylo + yhi);
  f->x0 = cx0 - 0.5 * s * f->w, f->x1 = cx0 + 0.5 * s * f->w;
  f->y0 = cy0 - 0.5 * s * f->h, f->y1 = cy0 + 0.5 * s * f->h;
}

void
fx_ensemble_plot_probe_axes (const FxEnsemble *e, double w, double h, double x[2], double y[2])
{
  FxPlotStyle style;
  Frame f;

  fx_plot_style_init (&style);
  probe_frame (e, &style, w, h, &f);
  x[0] = f.x0, x[1] = f.x1, y[0] = f.y0, y[1] = f.y1;
}

/* Paths of each probe's displacement from its start, so that probes far
 * apart (a mast's top and middle) share a scale fitted to how far they
 * move, not to where they are. Equal scales keep the paths' shapes. */
static void
draw_probes (cairo_t *cr, const FxEnsemble *e, double t_now, const FxPlotStyle *st,
             const FxPalette *pal, double w, double h)
{
  guint n = fx_ensemble_n_times (e), n_probes = FX_ENSEMBLE_N_PROBES (fx_ensemble_n_columns (e));
  guint n_paths = fx_ensemble_n_paths (e);
  double d[2];
  Frame f;

  probe_frame (e, st, w, h, &f);
  draw_frame (cr, &f, _("Probe paths from their start: samples and mean"), _("\u0394x / m"), st, pal);
  y_label (cr, &f, _("\u0394y / m"), st, pal);

  cairo_save (cr);
  cairo_rectangle (cr, f.x, f.y, f.w, f.h);
  cairo_clip (cr);
  guint now = t_now >= 0 ? time_index (e, t_now) : n - 1;
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);  /* no miter spikes where a path turns back */
  for (guint p = 0; p < n_probes; p++)
    {
      ProbeCols c = probe_cols (e, p);
      double rgb[3];

      fx_series_color (p, st->dark, rgb);
      for (int k = 0; k <= (int) n_paths; k++)
        {
          int sample = k < (int) n_paths ? k : -1;  /* the mean last, on top */
          cairo_set_line_width (cr, sample < 0 ? 2.2 : 0.8);
          for (guint i = 0; i <= now; i++)
            {
              probe_at (&c, sample, i, d);
              cairo_line_to (cr, fx_ (&f, d[0]), fy_ (&f, d[1]));
            }
          fx_set_rgba (cr, rgb, sample < 0 ? 1.0 : 0.3);
          cairo_stroke (cr);
          if (sample < 0)
            continue;
          probe_at (&c, sample, now, d);
          cairo_arc (cr, fx_ (&f, d[0]), fy_ (&f, d[1]), 2.0, 0, 2 * G_PI);
          fx_set_rgba (cr, rgb, 0.6);
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);
  for (guint p = 0; p < n_probes; p++)
    {
      const char *x_name = fx_ensemble_column_name (e, FX_ENSEMBLE_PROBE_COLUMN (p, FX_PROBE_X));
      g_autofree char *name = g_strndup (x_name, strlen (x_name) - strlen (fx_probe_suffix[FX_PROBE_X]));
      double rgb[3];

      fx_series_color (p, st->dark, rgb);
      legend (cr, &f, p, name, rgb, st);
    }
}

void
fx_ensemble_plot_draw (cairo_t *cr, FxEnsemblePlotKind kind, const FxEnsemble *e, double t_now,
                       const FxPlotStyle *style, double w, double h)
{
  const FxPalette *pal = fx_palette_get (style->dark);

  cairo_save (cr);
  if (!style->transparent)
    {
      fx_set_rgb (cr, pal->bg);
      cairo_paint (cr);
    }
  if (e == NULL || fx_ensemble_n_ok (e) == 0 || fx_ensemble_n_times (e) < 2)
    {
      fx_text_font (cr, 12, FALSE);
      fx_set_rgb (cr, pal->dim);
      fx_text_draw (cr, w / 2, h / 2, _("No samples yet"), FX_ALIGN_CENTER, FX_ALIGN_CENTER);
    }
  else if (kind == FX_ENSEMBLE_PLOT_ENERGY)
    draw_energy (cr, e, t_now, style, pal, w, h);
  else
    draw_probes (cr, e, t_now, style, pal, w, h);
  cairo_restore (cr);
}

gboolean
fx_ensemble_plot_write_png (FxEnsemblePlotKind kind, const FxEnsemble *e, gboolean dark, int w,
                            int h, const char *path, GError **error)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (surface);
  FxPlotStyle style;
  g_autoptr (FxOutput) out = fx_output_new (path, error);

  if (out == NULL)
    {
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      return FALSE;
    }
  fx_plot_style_init (&style);
  style.dark = dark;
  fx_ensemble_plot_draw (cr, kind, e, -1, &style, w, h);
  cairo_destroy (cr);
  cairo_status_t status = cairo_surface_write_to_png (surface, fx_output_file (out));
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot write %s: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return fx_output_commit (g_steal_pointer (&out), error);
}

void
fx_ensemble_draw_trails (cairo_t *cr, const FxEnsemble *e, const FxView *view, double t,
                         gboolean dark)
{
  if (e == NULL || fx_ensemble_n_ok (e) == 0)
    return;
  guint n_probes = FX_ENSEMBLE_N_PROBES (fx_ensemble_n_columns (e));
  guint now = time_index (e, t);
  double x, y;

  cairo_save (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint p = 0; p < n_probes; p++)
    {
      guint cx = FX_ENSEMBLE_PROBE_COLUMN (p, FX_PROBE_X), cy = FX_ENSEMBLE_PROBE_COLUMN (p, FX_PROBE_Y);
      double rgb[3];

      fx_series_color (p, dark, rgb);
      cairo_set_line_width (cr, 1.0);
      for (guint k = 0; k < fx_ensemble_n_paths (e); k++)
        {
          for (guint i = 0; i <= now; i++)
            {
              fx_view_to_device (view, fx_ensemble_path_value (e, k, i, cx),
                                 fx_ensemble_path_value (e, k, i, cy), &x, &y);
              cairo_line_to (cr, x, y);
            }
          fx_set_rgba (cr, rgb, 0.25);
          cairo_stroke (cr);
          fx_view_to_device (view, fx_ensemble_path_value (e, k, now, cx),
                             fx_ensemble_path_value (e, k, now, cy), &x, &y);
          cairo_arc (cr, x, y, 2.5, 0, 2 * G_PI);
          fx_set_rgba (cr, rgb, 0.5);
          cairo_fill (cr);
        }
      /* the mean, dashed: it is no sample's path */
      double dash[] = { 6, 4 };
      cairo_set_dash (cr, dash, 2, 0);
      cairo_set_line_width (cr, 2.0);
      for (guint i = 0; i <= now; i++)
        {
          fx_view_to_device (view, fx_ensemble_mean (e, i, cx), fx_ensemble_mean (e, i, cy), &x, &y);
          cairo_line_to (cr, x, y);
        }
      fx_set_rgba (cr, rgb, 0.9);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  cairo_restore (cr);
}
