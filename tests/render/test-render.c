/* test-render.c: the cairo drawing of scenes and plots (flexion-render). */
#include "fx-scene.h"
#include "fx-plot.h"
#include "fx-ensemble-plot.h"
#include "fx-measure-plot.h"
#include "fx-runner.h"
#include "fx-model-io.h"
#include "fx-conflicts.h"
#include "fx-render-private.h"
#include "../test-models.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdlib.h>


/* How many pixels differ from the top-left (background) pixel. */
static guint
count_non_background (cairo_surface_t *s)
{
  cairo_surface_flush (s);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  guint32 bg = *(const guint32 *) data;
  guint n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += *(const guint32 *) (data + y * stride + 4 * x) != bg;
  return n;
}

/* How many pixels are within a few levels of the colour (r, g, b). */
static guint
count_color (cairo_surface_t *s, int r, int g, int b)
{
  cairo_surface_flush (s);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  guint n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
        int pr = (px >> 16) & 0xff, pg = (px >> 8) & 0xff, pb = px & 0xff;
        n += abs (pr - r) < 8 && abs (pg - g) < 8 && abs (pb - b) < 8;
      }
  return n;
}

/* CIELAB lightness L* (0..100) of an sRGB colour. */
static double
luminance (const double rgb[3])
{
  double lin[3];
  for (int c = 0; c < 3; c++)
    lin[c] = rgb[c] <= 0.04045 ? rgb[c] / 12.92 : pow ((rgb[c] + 0.055) / 1.055, 2.4);
  double Y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  double f = Y > 0.008856 ? cbrt (Y) : 7.787 * Y + 16.0 / 116;
  return 116 * f - 16;
}

static void
test_colormap (void)
{
  for (int map = 0; map < 2; map++)
    {
      double zero[3], lo[3], hi[3];
      fx_colormap_eval (map, 0, zero);
      /* neutral at zero: a grey */
      g_assert_cmpfloat (fabs (zero[0] - zero[1]), <, 0.02);
      g_assert_cmpfloat (fabs (zero[1] - zero[2]), <, 0.02);
      for (double u = 0.25; u <= 1.0; u += 0.25)
        {
          fx_colormap_eval (map, -u, lo);
          fx_colormap_eval (map, u, hi);
          /* symmetric: equal |M| reads as equally strong */
          g_assert_cmpfloat (fabs (luminance (lo) - luminance (hi)), <, 1.0);
          /* ordered: stronger moments are further from the neutral grey */
          g_assert_cmpfloat (luminance (hi), <, luminance (zero) - 3);
        }
      /* the two signs differ in hue */
      fx_colormap_eval (map, -1, lo);
      fx_colormap_eval (map, 1, hi);
      g_assert_cmpfloat (fabs (lo[0] - hi[0]) + fabs (lo[2] - hi[2]), >, 0.5);
      /* clamped and NaN-safe */
      double out[3];
      fx_colormap_eval (map, 7, out);
      g_assert_cmpfloat (out[0], ==, hi[0]);
      fx_colormap_eval (map, NAN, out);
      g_assert_cmpfloat (out[1], ==, zero[1]);
    }
}

static void
test_view (void)
{
  FxView v;
  double bbox[4] = { -1, 3, 0, 2 };
  fx_view_fit (&v, bbox, 800, 600, 40);
  double dx, dy, x, y;
  fx_view_to_device (&v, -1, 1, &dx, &dy);
  g_assert_cmpfloat (fabs (dx - 40), <, 1e-9);  /* width-limited: 720 px for 4 m */
  fx_view_to_world (&v, 123.4, 321.0, &x, &y);
  fx_view_to_device (&v, x, y, &dx, &dy);
  g_assert_cmpfloat (fabs (dx - 123.4) + fabs (dy - 321.0), <, 1e-9);
  /* zoom keeps the point under the pointer */
  fx_view_to_world (&v, 200, 100, &x, &y);
  fx_view_zoom_at (&v, 200, 100, 2.5);
  fx_view_to_device (&v, x, y, &dx, &dy);
  g_assert_cmpfloat (fabs (dx - 200) + fabs (dy - 100), <, 1e-9);
  /* the grid ladder */
  v.scale = 100;
  g_assert_cmpfloat (fx_view_grid_step (&v, 24), ==, 0.5);
  v.scale = 1000;
  g_assert_cmpfloat (fabs (fx_view_grid_step (&v, 24) - 0.05), <, 1e-15);
  v.scale = 30;
  g_assert_cmpfloat (fx_view_grid_step (&v, 24), ==, 1);
  x = 0.26, y = -0.74;
  fx_snap_to_grid (0.5, &x, &y);
  g_assert_cmpfloat (x, ==, 0.5);
  g_assert_cmpfloat (y, ==, -0.5);
}

static void
draw_four_bar (cairo_t *cr, const FxModel *m, const FxStepFrame *frame, double w, double h)
{
  FxSceneStyle style;
  fx_scene_style_init (&style);
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  style.assignment = as;
  FxView view;
  double bbox[4];
  g_assert_true (fx_scene_bounds (frame, bbox));
  fx_view_fit (&view, bbox, w, h, 60);
  fx_scene_draw (cr, m, frame, NULL, &view, &style, w, h);
}

static void
test_scene_image (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxRunner) r = fx_runner_new (m, &error);
  g_assert_no_error (error);
  fx_runner_set_horizon (r, 0.3);
  while (fx_runner_is_busy (r))
    g_usleep (1000);
  g_autoptr (GPtrArray) frames = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  fx_runner_pop_all (r, frames);
  g_assert_cmpuint (frames->len, >, 10);
  FxStepFrame *last = g_ptr_array_index (frames, frames->len - 1);
  g_assert_cmpfloat (last->moment_max_abs, >, 0);

  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 480);
  cairo_t *cr = cairo_create (s);
  draw_four_bar (cr, m, last, 640, 480);
  cairo_destroy (cr);
  guint n = count_non_background (s);
  /* links, joints, supports, colour bar: a few percent of the picture */
  g_assert_cmpuint (n, >, 640 * 480 / 50);
  g_assert_cmpuint (n, <, 640 * 480 / 2);
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "four-bar-scene.png", NULL);
  g_assert_cmpint (cairo_surface_write_to_png (s, png), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);

  /* picking finds the joints and links where they are drawn */
  FxView view;
  double bbox[4], dx, dy, sfrac;
  fx_scene_bounds (last, bbox);
  fx_view_fit (&view, bbox, 640, 480, 60);
  fx_view_to_device (&view, last->joint_xy[0], last->joint_xy[1], &dx, &dy);
  g_assert_cmpint (fx_scene_pick_joint (last, &view, dx + 3, dy - 2, 8), ==, 0);
  guint mid = (last->node_offset[0] + last->node_offset[1]) / 2;
  fx_view_to_device (&view, last->x[mid], last->y[mid], &dx, &dy);
  g_assert_cmpint (fx_scene_pick_link (last, &view, dx, dy + 2, 6, &sfrac), ==, 0);
  g_assert_cmpfloat (fabs (sfrac - 0.5), <, 0.15);
  g_assert_cmpint (fx_scene_pick_link (last, &view, -500, -500, 6, &sfrac), ==, -1);
}

/* How many pixels are within 0.1 (per channel) of `rgb`. */
static guint
count_colour (cairo_surface_t *s, const double rgb[3])
{
  cairo_surface_flush (s);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  guint n = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 px = *(const guint32 *) (data + y * stride + 4 * x);
        double c[3] = { ((px >> 16) & 255) / 255.0, ((px >> 8) & 255) / 255.0, (px & 255) / 255.0 };
        n += fabs (c[0] - rgb[0]) < 0.1 && fabs (c[1] - rgb[1]) < 0.1 && fabs (c[2] - rgb[2]) < 0.1;
      }
  return n;
}

static void
test_conflict_glyphs (void)
{
  /* the four-bar's crank set free-free by hand: its end at the pin support
   * is ringed in red, and the coupler and rocker (Auto) keep their glyphs,
   * blue V among them (the crank's own are all F) */
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  fx_model_link (m, 0)->formulation = FX_FORMULATION_FREE_FREE;
  g_autoptr (GPtrArray) ends = fx_conflict_ends (m);
  g_assert_cmpuint (ends->len, ==, 1);
  g_autoptr (FxAssignment) relaxed = fx_conflict_relaxed_assignment (m, ends);
  g_assert_nonnull (relaxed);
  g_autoptr (FxStepFrame) frame = fx_step_frame_new_from_model (m);
  const FxPalette *pal = fx_palette_get (FALSE);
  guint red[2], blue[2];
  for (int with_relaxed = 0; with_relaxed < 2; with_relaxed++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 480);
      cairo_t *cr = cairo_create (s);
      FxSceneStyle style;
      fx_scene_style_init (&style);
      style.assignment = with_relaxed ? relaxed : NULL;
      style.conflicts = ends;
      style.show_grid = FALSE;
      FxView view;
      double bbox[4];
      g_assert_true (fx_scene_bounds (frame, bbox));
      fx_view_fit (&view, bbox, 640, 480, 60);
      fx_scene_draw (cr, m, frame, NULL, &view, &style, 640, 480);
      cairo_destroy (cr);
      red[with_relaxed] = count_colour (s, pal->error);
      blue[with_relaxed] = count_colour (s, pal->accent);
      if (with_relaxed)
        {
          g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "conflict-scene.png", NULL);
          g_assert_cmpint (cairo_surface_write_to_png (s, png), ==, CAIRO_STATUS_SUCCESS);
        }
      cairo_surface_destroy (s);
    }
  g_test_message ("red pixels %u / %u, blue %u / %u (without / with the other links' glyphs)",
                  red[0], red[1], blue[0], blue[1]);
  g_assert_cmpuint (red[0], >, 50);      /* the ring */
  g_assert_cmpuint (red[1], ==, red[0]);
  g_assert_cmpuint (blue[1], >, blue[0] + 50);  /* the V glyphs of coupler and rocker */
}

static void
test_strip_paths (void)
{
  /* the app never shows the loader's JSON paths; other colons stay */
  const char *cases[][2] = {
    { "(root): no valid formulation for this mechanism:\n  links[0]: link \"crank\" is stuck.",
      "no valid formulation for this mechanism: link \"crank\" is stuck." },
    { "joints[3].at: must be finite", "must be finite" },
    { "(root): time: dt must be > 0", "dt must be > 0" },
    { "solver failed at t = 1 s: Newton did not converge", "solver failed at t = 1 s: Newton did not converge" },
    { "warning: keep me", "warning: keep me" },
    { "one\ntwo", "one\ntwo" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *plain = fx_conflict_strip_paths (cases[i][0]);
      g_assert_cmpstr (plain, ==, cases[i][1]);
    }
}

static void
test_vector_outputs (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (FxStepFrame) frame = fx_step_frame_new_from_model (m);
  const char *dir = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *svg = g_build_filename (dir, "four-bar-scene.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "four-bar-scene.pdf", NULL);
  cairo_surface_t *surfaces[2] = { cairo_svg_surface_create (svg, 400, 300),
                                   cairo_pdf_surface_create (pdf, 400, 300) };
  for (int k = 0; k < 2; k++)
    {
      cairo_t *cr = cairo_create (surfaces[k]);
      draw_four_bar (cr, m, frame, 400, 300);
      cairo_destroy (cr);
      cairo_surface_finish (surfaces[k]);
      g_assert_cmpint (cairo_surface_status (surfaces[k]), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_destroy (surfaces[k]);
    }
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (svg, &data, &len, NULL));
  g_assert_nonnull (strstr (data, "<svg"));
  g_assert_nonnull (strstr (data, "</svg>"));
  g_free (data);
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  g_assert_true (g_str_has_prefix (data, "%PDF-"));
  /* a finished PDF ends with its end-of-file marker (binary streams before it) */
  g_assert_cmpuint (len, >, 100);
  g_autofree char *tail = g_strndup (data + len - 16, 16);
  g_assert_nonnull (strstr (tail, "%%EOF"));
}

static void
test_plots (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (FxRunner) r = fx_runner_new (m, NULL);
  fx_runner_set_horizon (r, 1.0);
  while (fx_runner_is_busy (r))
    g_usleep (1000);
  g_autoptr (FxSeries) series = fx_series_new ();
  FxStepFrame *f;
  while ((f = fx_runner_pop_frame (r)))
    {
      fx_series_add (series, f);
      fx_step_frame_unref (f);
    }
  guint n = fx_series_len (series);
  g_assert_cmpuint (n, >, 50);
  /* the accumulated balance: H(t) - H(0) = W - D + sum of residuals */
  const FxSeriesPoint *p0 = fx_series_get (series, 0), *pn = fx_series_get (series, n - 1);
  double sum = 0;
  for (guint i = 0; i < n; i++)
    sum += fx_series_get (series, i)->balance;
  g_assert_cmpfloat (fabs ((pn->H - p0->H) - (pn->supplied - pn->dissipated) - sum), <,
                     1e-9 * MAX (1, fabs (p0->H)));
  g_assert_cmpuint (fx_series_find (series, 0.5), >, 0);
  g_assert_cmpfloat (fx_series_get (series, fx_series_find (series, 0.5))->t, >=, 0.5);

  for (int kind = 0; kind < 3; kind++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 480, 240);
      cairo_t *cr = cairo_create (s);
      FxPlotStyle st;
      fx_plot_style_init (&st);
      st.hover_x = 300;
      fx_plot_draw (cr, kind, series, &st, 480, 240);
      cairo_destroy (cr);
      g_assert_cmpuint (count_non_background (s), >, 480 * 240 / 40);
      g_autofree char *name = g_strdup_printf ("plot-%d.png", kind);
      g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), name, NULL);
      cairo_surface_write_to_png (s, png);
      cairo_surface_destroy (s);
    }

  g_autofree char *csv = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "series.csv", NULL);
  g_assert_true (fx_series_write_csv (series, csv, NULL));
  g_autofree char *data = NULL;
  g_assert_true (g_file_get_contents (csv, &data, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (g_strchomp (data), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, n + 1);
}

/* The ensemble's probe plot fits how far the probes move, not where they
 * are: the gusty mast's top sways a few centimetres at 12 m and its middle
 * less at 6 m, so the axes span centimetres, not the 6 m between them. */
static void
test_ensemble_probe_axes (void)
{
  g_autoptr (FxModel) m = test_load_example ("gusty-cantilever.flexion");
  g_autoptr (GError) error = NULL;
  FxEnsembleOptions o;

  m->t_end = 1.5;
  fx_ensemble_options_init (&o, m);
  o.n_samples = 3;
  o.keep = 3;
  o.threads = 1;
  g_autoptr (FxEnsemble) e = fx_ensemble_run (m, &o, &error);
  g_assert_no_error (error);

  double x[2], y[2], sway = 0.0;
  fx_ensemble_plot_probe_axes (e, 960, 540, x, y);
  guint cx = FX_ENSEMBLE_PROBE_COLUMN (0, FX_PROBE_X);
  for (guint i = 0; i < fx_ensemble_n_times (e); i++)
    for (guint k = 0; k < fx_ensemble_n_paths (e); k++)
      sway = MAX (sway, fabs (fx_ensemble_path_value (e, k, i, cx) - fx_ensemble_mean (e, 0, cx)));
  g_test_message ("top sways %.3g m; axes x %.3g .. %.3g m, y %.3g .. %.3g m", sway, x[0], x[1],
                  y[0], y[1]);
  g_assert_cmpfloat (sway, >, 1e-3);
  /* the sway fills the plot's width, give or take the padding */
  g_assert_cmpfloat (x[0], <=, -0.0);
  g_assert_cmpfloat (x[1], >=, sway);
  g_assert_cmpfloat (x[1] - x[0], <, 2.5 * sway);
  /* equal scales: metres per pixel alike on both axes (frame 890 x 474 px) */
  g_assert_cmpfloat (fabs ((x[1] - x[0]) / (y[1] - y[0]) - 890.0 / 474.0), <, 0.01);
}

/* The Measurements plot reads a run's probe values and reactions from its
 * series: a rigid pendulum let go from the horizontal, its pin's reaction,
 * its tip's angle in degrees, and a plot of one quantity against another. */
static void
test_measure_plot (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "T", 1, 0)->mass = 0.5;
  test_add_link (m, "rod", "O", "T", 4, 2.0, 1e-3, 1e9, 1e9, 1e6)->rigid = TRUE;
  fx_model_add_probe (m, "tip", "rod", 1.0);
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  g_autoptr (FxSeries) series = fx_series_new ();
  const char *ids[] = { "tip" };
  fx_series_set_probes (series, 1, ids);
  fx_series_set_supports (series, m);
  g_assert_cmpuint (fx_series_n_supports (series), ==, 1);
  g_assert_cmpstr (fx_series_support_id (series, 0), ==, "O");
  for (guint step = 0; step <= 50; step++)
    {
      FxStepReport rep;
      if (step > 0)
        g_assert_true (fx_integrator_step (it, 0.01, &rep, NULL));
      g_autoptr (FxStepFrame) f = fx_step_frame_new (sys, step > 0 ? &rep : NULL, step);
      fx_series_add (series, f);
    }

  FxQuantity angle = { FX_QUANTITY_PROBE, 0, FX_PROBE_ANGLE };
  FxQuantity fy = { FX_QUANTITY_SUPPORT, 0, FX_REACTION_FY };
  FxQuantity fx = { FX_QUANTITY_SUPPORT, 0, FX_REACTION_FX };
  guint last = fx_series_len (series) - 1;
  double r[FX_REACTION_N_VALUES * 2];
  fx_system_reactions (sys, r);
  g_assert_cmpfloat (fx_quantity_value (series, last, &fy), ==, r[FX_REACTION_FY]);
  g_assert_cmpfloat (fabs (fx_quantity_value (series, 0, &angle)), <, 1e-12);
  /* falling clockwise: the angle goes negative, in degrees */
  g_assert_cmpfloat (fx_quantity_value (series, last, &angle), <, -10.0);
  g_assert_cmpfloat (fx_quantity_value (series, last, &angle), >, -180.0);
  g_assert_cmpstr (fx_quantity_unit (&angle), ==, "\u00b0");
  g_autofree char *name = fx_quantity_name (series, &fy);
  g_assert_nonnull (strstr (name, "O"));

  FxMeasurePlot plot;
  fx_measure_plot_init (&plot);
  g_assert_true (fx_measure_plot_add (&plot, &fy));
  g_assert_false (fx_measure_plot_add (&plot, &fy));
  g_assert_true (fx_measure_plot_add (&plot, &fx));
  g_assert_cmpuint (plot.n_curves, ==, 2);
  /* another unit replaces the curves: one axis, one unit */
  g_assert_true (fx_measure_plot_add (&plot, &angle));
  g_assert_cmpuint (plot.n_curves, ==, 1);

  FxPlotStyle style;
  fx_plot_style_init (&style);
  for (guint against = 0; against < 2; against++)
    {
      cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 240);
      cairo_t *cr = cairo_create (img);
      if (against)
        plot.x = fy;
      fx_measure_plot_draw (cr, &plot, series, &style, 400, 240);
      /* the first curve's colour (GNOME blue #1c71d8) */
      guint n = count_color (img, 0x1c, 0x71, 0xd8);
      g_test_message ("%s: %u pixels of the curve", against ? "against the reaction" : "against time", n);
      g_assert_cmpuint (n, >, 100);
      cairo_destroy (cr);
      cairo_surface_destroy (img);
    }
}

/* The supports' reactions drawn over a running four-bar: its two pins
 * push on the mechanism, and their arrows add the accent colour; the
 * drawing before a run has none. */
static void
test_reaction_arrows (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  for (guint i = 0; i < 5; i++)
    g_assert_true (fx_integrator_step (it, 0.02, &rep, NULL));
  g_autoptr (FxStepFrame) frame = fx_step_frame_new (sys, &rep, 5);
  g_autoptr (FxStepFrame) drawing = fx_step_frame_new_from_model (m);
  g_assert_cmpint (frame->holds[fx_model_find_joint (m, "O")], ==, FX_HOLDS_FORCE);
  g_assert_cmpint (frame->holds[fx_model_find_joint (m, "A")], ==, FX_HOLDS_NONE);

  FxView view;
  double bbox[4];
  fx_scene_bounds (frame, bbox);
  fx_view_fit (&view, bbox, 640, 480, 80);
  guint accent[3];
  for (guint k = 0; k < 3; k++)
    {
      cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 480);
      cairo_t *cr = cairo_create (img);
      FxSceneStyle style;
      fx_scene_style_init (&style);
      style.show_reactions = k != 1;
      fx_scene_draw (cr, m, k == 2 ? drawing : frame, NULL, &view, &style, 640, 480);
      if (k == 0)
        {
          g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "four-bar-reactions.png", NULL);
          g_assert_cmpint (cairo_surface_write_to_png (img, png), ==, CAIRO_STATUS_SUCCESS);
        }
      /* the light palette's accent, #1c71d8, at the arrows' 0.9 alpha over the background */
      accent[k] = count_color (img, 0x33, 0x7f, 0xdb);
      cairo_destroy (cr);
      cairo_surface_destroy (img);
    }
  g_test_message ("accent pixels: %u with reactions, %u without, %u on the drawing", accent[0],
                  accent[1], accent[2]);
  g_assert_cmpuint (accent[0], >, accent[1] + 200);
  g_assert_cmpuint (accent[2], ==, accent[1]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/colormap", test_colormap);
  g_test_add_func ("/render/view", test_view);
  g_test_add_func ("/render/scene-image", test_scene_image);
  g_test_add_func ("/render/vector-outputs", test_vector_outputs);
  g_test_add_func ("/render/conflict-glyphs", test_conflict_glyphs);
  g_test_add_func ("/render/strip-paths", test_strip_paths);
  g_test_add_func ("/render/plots", test_plots);
  g_test_add_func ("/render/ensemble-probe-axes", test_ensemble_probe_axes);
  g_test_add_func ("/render/measure-plot", test_measure_plot);
  g_test_add_func ("/render/reaction-arrows", test_reaction_arrows);
  return g_test_run ();
}
