/* test-export.c: animations, plots, pictures and CSV written by fx-export,
 * read back with independent readers. */
#include "fx-export.h"
#include "fx-model-io.h"
#include "../test-models.h"
#include "fx-system.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>


static char *
out_dir (void)
{
  char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "export-out", NULL);
  g_mkdir_with_parents (dir, 0755);
  return dir;
}

/* Walks the GIF block structure (not a decoder: an independent count) and
 * returns the number of images, with the logical screen size. */
static guint
gif_count_images (const guint8 *d, gsize n, guint *w, guint *h, gboolean *loops)
{
  g_assert_cmpuint (n, >, 13 + 768);
  g_assert_true (memcmp (d, "GIF89a", 6) == 0);
  *w = d[6] | d[7] << 8;
  *h = d[8] | d[9] << 8;
  *loops = FALSE;
  gsize i = 13;
  if (d[10] & 0x80)
    i += 3u * (1u << ((d[10] & 7) + 1));
  guint images = 0;
  while (i < n)
    {
      guint8 b = d[i++];
      if (b == 0x3b)
        return images;
      if (b == 0x21)
        {
          guint8 label = d[i++];
          if (label == 0xff && i + 12 < n && memcmp (d + i + 1, "NETSCAPE2.0", 11) == 0)
            *loops = TRUE;
        }
      else if (b == 0x2c)
        {
          images++;
          guint8 flags = d[i + 8];
          i += 9;
          if (flags & 0x80)
            i += 3u * (1u << ((flags & 7) + 1));
          i++;  /* LZW minimum code size */
        }
      else
        g_assert_not_reached ();
      while (i < n && d[i] != 0)  /* sub-blocks */
        i += d[i] + 1;
      i++;
    }
  g_assert_not_reached ();
  return 0;
}

static guint
count_distinct (GdkPixbuf *pb)
{
  int w = gdk_pixbuf_get_width (pb), h = gdk_pixbuf_get_height (pb);
  int stride = gdk_pixbuf_get_rowstride (pb), nc = gdk_pixbuf_get_n_channels (pb);
  const guint8 *px = gdk_pixbuf_read_pixels (pb);
  g_autoptr (GHashTable) set = g_hash_table_new (NULL, NULL);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint8 *p = px + y * stride + nc * x;
        g_hash_table_add (set, GUINT_TO_POINTER (p[0] << 16 | p[1] << 8 | p[2]));
      }
  return g_hash_table_size (set);
}

static void
test_gif (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autofree char *dir = out_dir ();
  g_autofree char *path = g_build_filename (dir, "four-bar.gif", NULL);
  g_unlink (path);
  FxAnimationOptions o;
  fx_animation_options_init (&o);
  o.width = 320;
  o.height = 180;
  o.fps = 10;
  o.t_until = 1.0;
  o.energy_inset = TRUE;
  guint n = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (fx_export_animation (m, path, FX_ANIMATION_GIF, &o, NULL, NULL, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 11);  /* t = 0, 0.1, ..., 1.0 */

  g_autofree guint8 *data = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, (char **) &data, &len, NULL));
  guint w, h;
  gboolean loops;
  g_assert_cmpuint (gif_count_images (data, len, &w, &h, &loops), ==, 11);
  g_assert_cmpuint (w, ==, 320);
  g_assert_cmpuint (h, ==, 180);
  g_assert_true (loops);

  /* gdk-pixbuf decodes it: the right size, a real picture, and later
   * frames differ from the first (the mechanism moves) */
  g_autoptr (GdkPixbufAnimation) anim = gdk_pixbuf_animation_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_animation_get_width (anim), ==, 320);
  g_assert_cmpint (gdk_pixbuf_animation_get_height (anim), ==, 180);
  g_assert_false (gdk_pixbuf_animation_is_static_image (anim));
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GTimeVal t0 = { 0, 0 };
  g_autoptr (GdkPixbufAnimationIter) it = gdk_pixbuf_animation_get_iter (anim, &t0);
  int delay = gdk_pixbuf_animation_iter_get_delay_time (it);
  g_assert_cmpint (delay, ==, 100);
  g_autoptr (GdkPixbuf) first = gdk_pixbuf_copy (gdk_pixbuf_animation_iter_get_pixbuf (it));
  GTimeVal t1 = { 0, 900 * 1000 };  /* frame 9 */
  gdk_pixbuf_animation_iter_advance (it, &t1);
  G_GNUC_END_IGNORE_DEPRECATIONS
  GdkPixbuf *later = gdk_pixbuf_animation_iter_get_pixbuf (it);
  g_assert_cmpuint (count_distinct (first), >, 20);
  g_assert_cmpuint (count_distinct (later), >, 20);
  gsize bytes = gdk_pixbuf_get_byte_length (first);
  g_assert_true (memcmp (gdk_pixbuf_read_pixels (first), gdk_pixbuf_read_pixels (later), bytes) != 0);
}

static void
test_png_sequence (void)
{
  g_autoptr (FxModel) m = test_load_example ("flying-spaghetti.flexion");
  g_autofree char *dir = out_dir ();
  g_autofree char *path = g_build_filename (dir, "spaghetti-frames", NULL);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) d = g_dir_open (path, 0, NULL);
      const char *name;
      while ((name = g_dir_read_name (d)))
        {
          g_autofree char *f = g_build_filename (path, name, NULL);
          g_unlink (f);
        }
      g_rmdir (path);
    }
  FxAnimationOptions o;
  fx_animation_options_init (&o);
  o.width = 200;
  o.height = 120;
  o.fps = 20;
  o.t_from = 0.5;
  o.t_until = 1.0;
  guint n = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (fx_export_animation (m, path, FX_ANIMATION_PNG_SEQUENCE, &o, NULL, NULL, &n, &error));
  g_assert_cmpuint (n, ==, 11);
  g_autofree char *last = g_build_filename (path, "frame-00010.png", NULL);
  g_autoptr (GdkPixbuf) pb = gdk_pixbuf_new_from_file (last, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pb), ==, 200);
  g_autofree char *extra = g_build_filename (path, "frame-00011.png", NULL);
  g_assert_false (g_file_test (extra, G_FILE_TEST_EXISTS));
  /* a second export into an existing folder is refused */
  g_assert_false (fx_export_animation (m, path, FX_ANIMATION_PNG_SEQUENCE, &o, NULL, NULL, NULL, &error));
  g_assert_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED);
}

static void
test_video (void)
{
  g_autofree char *why = NULL;
  if (!fx_animation_format_available (FX_ANIMATION_WEBM, &why))
    {
      g_test_skip (why);
      return;
    }
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autofree char *dir = out_dir ();
  g_autofree char *path = g_build_filename (dir, "four-bar.webm", NULL);
  FxAnimationOptions o;
  fx_animation_options_init (&o);
  o.width = 320;
  o.height = 180;
  o.fps = 25;
  o.t_until = 2.0;
  g_autoptr (GError) error = NULL;
  g_assert_true (fx_export_animation (m, path, FX_ANIMATION_WEBM, &o, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  /* the duration, by GStreamer's own discoverer */
  g_autofree char *discoverer = g_find_program_in_path ("gst-discoverer-1.0");
  if (discoverer == NULL)
    {
      g_test_skip ("gst-discoverer-1.0 (gstreamer1.0-plugins-base-apps) is not installed");
      return;
    }
  const char *argv[] = { "gst-discoverer-1.0", path, NULL };
  g_autofree char *out = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               NULL, NULL, &error));
  const char *d = strstr (out, "Duration: ");
  g_assert_nonnull (d);
  int hh, mm;
  double ss;
  g_assert_cmpint (sscanf (d, "Duration: %d:%d:%lf", &hh, &mm, &ss), ==, 3);
  double seconds = hh * 3600 + mm * 60 + ss;
  g_assert_cmpfloat (fabs (seconds - 51 / 25.0), <, 0.1);  /* 51 frames at 25 fps */
}

static void
test_plots_and_picture (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxStepFrame) last = NULL;
  g_autoptr (FxSeries) series = fx_export_run_series (m, 0.5, 0, &last, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autofree char *dir = out_dir ();
  FxPlotStyle st;
  fx_plot_style_init (&st);
  st.t_window = 0;
  const char *names[] = { "energy.svg", "balance.pdf", "newton.png", "probes.pdf" };
  for (int k = 0; k < 4; k++)
    {
      g_autofree char *path = g_build_filename (dir, names[k], NULL);
      g_assert_true (fx_export_plot (series, k, &st, path, 640, 360, &error));
      g_assert_no_error (error);
    }
  FxSceneStyle ss;
  fx_scene_style_init (&ss);
  ss.moment_range = last->moment_max_abs;
  g_autofree char *svg_pic = g_build_filename (dir, "picture.svg", NULL);
  g_assert_true (fx_export_scene (m, last, NULL, &ss, svg_pic, 640, 360, &error));

  /* SVG: well-formed XML whose root is <svg> */
  const char *svgs[] = { "energy.svg", "picture.svg" };
  for (int k = 0; k < 2; k++)
    {
      g_autofree char *path = g_build_filename (dir, svgs[k], NULL);
      g_autofree char *text = NULL;
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      GMarkupParser parser = { 0 };
      GMarkupParseContext *ctx = g_markup_parse_context_new (&parser, 0, NULL, NULL);
      /* skip the XML declaration, which GMarkup does not take */
      const char *root = strstr (text, "<svg");
      g_assert_nonnull (root);
      g_assert_true (g_markup_parse_context_parse (ctx, root, -1, &error));
      g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
      g_assert_no_error (error);
      g_markup_parse_context_free (ctx);
    }
  /* PDF: header, one page object, cross-reference and end marker */
  g_autofree char *pdf = g_build_filename (dir, "balance.pdf", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  g_assert_true (g_str_has_prefix (data, "%PDF-1."));
  g_autofree char *tail = g_strndup (data + len - 32, 32);
  g_assert_nonnull (strstr (tail, "%%EOF"));
  /* searched byte by byte: the binary streams hold NUL bytes */
  gboolean page = FALSE;
  for (gsize i = 0; i + 11 <= len && !page; i++)
    page = memcmp (data + i, "/Type /Page", 11) == 0;
  g_assert_true (page);
  g_assert_nonnull (strstr (tail, "startxref"));
  /* PNG: decodes at the asked size */
  g_autofree char *png = g_build_filename (dir, "newton.png", NULL);
  g_autoptr (GdkPixbuf) pb = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pb), ==, 640);
  g_assert_cmpint (gdk_pixbuf_get_height (pb), ==, 360);
  /* an unknown extension is refused, naming the choices */
  g_autofree char *bad = g_build_filename (dir, "plot.bmp", NULL);
  g_assert_false (fx_export_plot (series, FX_PLOT_ENERGY, &st, bad, 100, 100, &error));
  g_assert_nonnull (strstr (error->message, ".svg"));
}

static void
test_probe_csv (void)
{
  /* the four-bar's probe at the coupler's midpoint, from the series and from
   * the engine directly */
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_assert_cmpuint (m->probes->len, ==, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSeries) series = fx_export_run_series (m, 0.2, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_series_n_probes (series), ==, 1);
  g_assert_cmpstr (fx_series_probe_id (series, 0), ==, fx_model_probe (m, 0)->id);
  g_autofree char *dir = out_dir ();
  g_autofree char *csv = g_build_filename (dir, "probes.csv", NULL);
  g_assert_true (fx_series_write_probes_csv (series, csv, &error));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_auto (GStrv) rows = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpuint (g_strv_length (rows), ==, fx_series_len (series) + 1);

  /* the columns of `flexion-cli run --probes`: every value, not only x, y */
  g_autofree char *header = g_strdup_printf ("t,%1$s.x,%1$s.y,%1$s.vx,%1$s.vy,%1$s.angle,%1$s.N,"
                                             "%1$s.V,%1$s.M", fx_model_probe (m, 0)->id);
  g_assert_cmpstr (rows[0], ==, header);

  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  int l = fx_model_find_link (m, fx_model_probe (m, 0)->link);
  for (guint k = 0; k + 1 < fx_series_len (series); k++)
    {
      double values[FX_PROBE_N_VALUES];
      fx_system_probe_values (sys, l, fx_model_probe (m, 0)->s, values);
      g_auto (GStrv) cols = g_strsplit (rows[k + 1], ",", -1);
      g_assert_cmpuint (g_strv_length (cols), ==, 1 + FX_PROBE_N_VALUES);
      for (guint v = 0; v < FX_PROBE_N_VALUES; v++)
        g_assert_cmpfloat (g_ascii_strtod (cols[1 + v], NULL), ==, values[v]);
      FxStepReport r;
      g_assert_true (fx_integrator_step (integ, m->dt, &r, &error));
    }
}

static void
test_csv_matches_run (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSeries) series = fx_export_run_series (m, 0.4, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autofree char *dir = out_dir ();
  g_autofree char *csv = g_build_filename (dir, "four-bar.csv", NULL);
  g_assert_true (fx_series_write_csv (series, csv, &error));

  /* an independent run with the engine alone */
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  guint steps = (guint) lround (0.4 / m->dt);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_auto (GStrv) rows = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpuint (g_strv_length (rows), ==, steps + 2);  /* header, t = 0, each step */
  /* the header of `flexion-cli run --energy`: one reader for both */
  g_assert_cmpstr (rows[0], ==, "t,H,kinetic,elastic,gravity,supplied,dissipated,balance,newton_iters,factorisations,residual,joint_gap,substeps");
  for (guint k = 1; k <= steps; k++)
    {
      FxStepReport r;
      g_assert_true (fx_integrator_step (integ, m->dt, &r, &error));
      g_auto (GStrv) cols = g_strsplit (rows[k + 1], ",", -1);
      g_assert_cmpfloat (g_ascii_strtod (cols[0], NULL), ==, r.t);
      g_assert_cmpfloat (g_ascii_strtod (cols[1], NULL), ==, r.H);
      g_assert_cmpfloat (g_ascii_strtod (cols[7], NULL), ==, r.balance);
      g_assert_cmpuint ((guint) g_ascii_strtod (cols[8], NULL), ==, r.newton_iters);
      g_assert_cmpuint ((guint) g_ascii_strtod (cols[9], NULL), ==, r.factorisations);
    }
}

typedef struct {
  double cancel_at;
  guint calls;
} CancelAt;

static gboolean
cancel_progress (double fraction, gpointer data)
{
  CancelAt *c = data;
  c->calls++;
  return fraction < c->cancel_at;
}

static gboolean
dir_has_part_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (strstr (name, ".part-"))
      return TRUE;
  return FALSE;
}

static void
test_cancel_leaves_nothing (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autofree char *dir = out_dir ();
  FxAnimationOptions o;
  fx_animation_options_init (&o);
  o.width = 160;
  o.height = 90;
  o.fps = 10;
  o.t_until = 1.0;
  const char *names[] = { "cancelled.gif", "cancelled-frames" };
  FxAnimationFormat formats[] = { FX_ANIMATION_GIF, FX_ANIMATION_PNG_SEQUENCE };
  double when[] = { 0.2, 0.7 };  /* while simulating, while drawing */
  for (int f = 0; f < 2; f++)
    for (int w = 0; w < 2; w++)
      {
        g_autofree char *path = g_build_filename (dir, names[f], NULL);
        CancelAt c = { when[w], 0 };
        g_autoptr (GError) error = NULL;
        g_assert_false (fx_export_animation (m, path, formats[f], &o, cancel_progress, &c, NULL, &error));
        g_assert_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_CANCELLED);
        g_assert_cmpuint (c.calls, >, 0);
        g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
        g_assert_false (dir_has_part_files (dir));
      }
}

static void
test_bad_options (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autofree char *dir = out_dir ();
  g_autofree char *path = g_build_filename (dir, "bad.gif", NULL);
  FxAnimationOptions o;
  fx_animation_options_init (&o);
  o.fps = 0;
  g_autoptr (GError) error = NULL;
  g_assert_false (fx_export_animation (m, path, FX_ANIMATION_GIF, &o, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "fps"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export/gif", test_gif);
  g_test_add_func ("/export/png-sequence", test_png_sequence);
  g_test_add_func ("/export/video", test_video);
  g_test_add_func ("/export/plots-and-picture", test_plots_and_picture);
  g_test_add_func ("/export/csv-matches-run", test_csv_matches_run);
  g_test_add_func ("/export/probe-csv", test_probe_csv);
  g_test_add_func ("/export/cancel-leaves-nothing", test_cancel_leaves_nothing);
  g_test_add_func ("/export/bad-options", test_bad_options);
  return g_test_run ();
}
