/* fx-export-animation.c: animations of a run (GIF, PNG frames, WebM and
 * MP4 through GStreamer) and of given frames (a mode's cycle), apart from
 * the plots and pictures of fx-export.c. */
#include "fx-export-private.h"
#include "fx-deflection.h"
#include "fx-gif.h"
#include "fx-render-private.h"
#include "fx-system.h"
#include "fx-memory.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- drawing frames ---- */

static void
draw_inset (cairo_t *cr, const FxSeries *series, const FxAnimationOptions *o, double t_end)
{
  double w = o->width * 0.34, h = o->height * 0.30, x = 12, y = o->height - h - 12;
  const FxPalette *pal = fx_palette_get (o->dark);
  cairo_save (cr);
  fx_rounded_rect (cr, x, y, w, h, 8);
  fx_set_rgba (cr, pal->card, 0.9);
  cairo_fill (cr);
  cairo_translate (cr, x, y);
  FxPlotStyle st;
  fx_plot_style_init (&st);
  st.dark = o->dark;
  st.transparent = TRUE;
  st.t_window = t_end;  /* fixed axes: the whole run */
  st.font_scale = 0.8;
  fx_plot_draw (cr, FX_PLOT_ENERGY, series, &st, w, h);
  cairo_restore (cr);
}

typedef struct {
  const FxModel *model;
  const FxAnimationOptions *o;
  FxView view;
  FxSceneStyle style;
  FxStepFrame *initial;
  FxTrails *trails;
  FxSeries *series;
  guint series_upto;  /* reports added to `series` */
  FxExportRun *run;
} Painter;

static void
paint_frame (Painter *p, guint i, cairo_t *cr)
{
  FxStepFrame *f = g_ptr_array_index (p->run->frames, i);
  if (p->trails)
    fx_trails_add (p->trails, f);
  guint upto = g_array_index (p->run->frame_steps, guint, i);
  for (; p->series_upto <= upto; p->series_upto++)
    fx_series_add_report (p->series, &g_array_index (p->run->reports, FxStepReport, p->series_upto),
                          p->series_upto, fx_export_run_probes (p->run, p->series_upto));
  fx_scene_draw (cr, p->model, f, p->initial, &p->view, &p->style, p->o->width, p->o->height);
  if (p->o->energy_inset)
    draw_inset (cr, p->series, p->o, p->o->t_until);
}

/* The options' scale, or for auto the one that shows the run's largest
 * deflection as a tenth of the model's size, and no member bent by more
 * than a tenth of its length. */
static double
run_deflection_scale (const FxModel *model, const FxAnimationOptions *o, FxExportRun *run,
                      const FxStepFrame *initial)
{
  if (o->deflection_scale > 0)
    return CLAMP (o->deflection_scale, 1, 1000);
  double worst = 0, ratio = 0, b[4];
  for (guint i = 0; i < run->frames->len; i++)
    {
      worst = MAX (worst, fx_deflection_max (model, g_ptr_array_index (run->frames, i)));
      ratio = MAX (ratio, fx_deflection_max_ratio (model, g_ptr_array_index (run->frames, i)));
    }
  if (!fx_scene_bounds (initial, b))
    return 1;
  return fx_deflection_auto_scale_members (worst, MAX (b[1] - b[0], b[3] - b[2]), ratio);
}

static gboolean
painter_init (Painter *p, const FxModel *model, const FxAnimationOptions *o, FxExportRun *run)
{
  p->model = model;
  p->o = o;
  p->run = run;
  fx_scene_style_init (&p->style);
  p->style.dark = o->dark;
  p->style.colormap = o->colormap;
  p->style.show_colorbar = o->colorbar;
  p->style.show_time = o->time_stamp;
  p->style.time_label = o->label;
  p->style.show_initial = o->show_initial;
  p->style.show_causality = FALSE;
  p->style.line_scale = o->line_scale > 0 ? o->line_scale : 1;
  p->style.diagram = o->diagram;
  p->initial = fx_step_frame_new_from_model (model);

  /* one deflection scale, one view for the whole motion, one colour scale
   * for the whole run */
  double box[4] = { INFINITY, -INFINITY, INFINITY, -INFINITY }, b[4];
  double range = 0;
  p->style.deflection_scale = run_deflection_scale (model, o, run, p->initial);
  for (guint i = 0; i < run->frames->len; i++)
    {
      g_autoptr (FxStepFrame) f = fx_deflection_magnify (model, g_ptr_array_index (run->frames, i),
                                                         p->style.deflection_scale);
      if (fx_scene_bounds (f, b))
        {
          box[0] = MIN (box[0], b[0]);
          box[1] = MAX (box[1], b[1]);
          box[2] = MIN (box[2], b[2]);
          box[3] = MAX (box[3], b[3]);
        }
      if (isfinite (f->moment_max_abs))
        range = MAX (range, f->moment_max_abs);
      p->style.diagram_range = MAX (p->style.diagram_range, fx_diagram_max_abs (f, o->diagram));
    }
  if (fx_scene_bounds (p->initial, b))
    {
      box[0] = MIN (box[0], b[0]);
      box[1] = MAX (box[1], b[1]);
      box[2] = MIN (box[2], b[2]);
      box[3] = MAX (box[3], b[3]);
    }
  if (!(box[0] <= box[1]))
    return FALSE;
  fx_diagram_grow_bounds (o->diagram, box);
  fx_view_fit (&p->view, box, o->width, o->height, 40 * p->style.line_scale);
  p->style.moment_range = range > 0 ? range : 1;
  p->trails = o->trails && model->probes->len ? fx_trails_new (model->probes->len, 100000) : NULL;
  p->style.trails = p->trails;
  p->series = fx_export_series_for_model (model);
  return TRUE;
}

static void
painter_clear (Painter *p)
{
  g_clear_pointer (&p->initial, fx_step_frame_unref);
  g_clear_pointer (&p->trails, fx_trails_free);
  g_clear_pointer (&p->series, fx_series_free);
}

/* ---- GIF palette: the colour map, the UI colours, then the picture's ---- */

static guint
add_color (guint8 *pal, guint n, const double rgb[3])
{
  if (n >= 256)
    return n;
  for (int c = 0; c < 3; c++)
    pal[3 * n + c] = (guint8) lround (CLAMP (rgb[c], 0, 1) * 255);
  return n + 1;
}

static guint
build_palette (guint8 *pal, const FxAnimationOptions *o, cairo_surface_t **samples, guint n_samples)
{
  guint n = 0;
  double rgb[3];
  for (int k = 0; k < 96; k++)
    {
      fx_colormap_eval (o->colormap, -1 + 2.0 * k / 95, rgb);
      n = add_color (pal, n, rgb);
    }
  const FxPalette *p = fx_palette_get (o->dark);
  const double *fixed[] = { p->bg, p->card, p->fg, p->dim, p->accent, p->outline, p->ground,
                            p->load, p->motor, p->spring, p->error };
  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    n = add_color (pal, n, fixed[i]);
  for (guint i = 0; i < 7; i++)
    {
      fx_series_color (i, o->dark, rgb);
      n = add_color (pal, n, rgb);
    }
  /* anti-aliased edges and faint grid lines: blends of fg over bg */
  for (int k = 1; k < 24; k++)
    {
      double t = k / 24.0;
      for (int c = 0; c < 3; c++)
        rgb[c] = (1 - t) * p->bg[c] + t * p->fg[c];
      n = add_color (pal, n, rgb);
    }
  /* the rest: the most common colours of sample frames (5 bits per channel) */
  g_autofree guint *hist = g_new0 (guint, 32768);
  for (guint s = 0; s < n_samples; s++)
    {
      cairo_surface_flush (samples[s]);
      const guint8 *data = cairo_image_surface_get_data (samples[s]);
      int w = cairo_image_surface_get_width (samples[s]), h = cairo_image_surface_get_height (samples[s]);
      int stride = cairo_image_surface_get_stride (samples[s]);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          {
            const guint8 *px = data + y * stride + 4 * x;  /* B G R A */
            hist[((px[2] >> 3) << 10) | ((px[1] >> 3) << 5) | (px[0] >> 3)]++;
          }
    }
  while (n < 256)
    {
      guint best = 0;
      for (guint i = 1; i < 32768; i++)
        if (hist[i] > hist[best])
          best = i;
      if (hist[best] == 0)
        break;
      hist[best] = 0;
      rgb[0] = (((best >> 10) & 31) * 8 + 4) / 255.0;
      rgb[1] = (((best >> 5) & 31) * 8 + 4) / 255.0;
      rgb[2] = ((best & 31) * 8 + 4) / 255.0;
      n = add_color (pal, n, rgb);
    }
  return n;
}

static void
index_frame (cairo_surface_t *s, FxPaletteMap *map, guint8 *out)
{
  cairo_surface_flush (s);
  const guint8 *data = cairo_image_surface_get_data (s);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint8 *px = data + y * stride + 4 * x;
        out[y * w + x] = fx_palette_map_lookup (map, px[2], px[1], px[0]);
      }
}

static cairo_surface_t *
render (Painter *p, guint i)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, p->o->width, p->o->height);
  cairo_t *cr = cairo_create (s);
  paint_frame (p, i, cr);
  cairo_destroy (cr);
  return s;
}

static gboolean
write_gif (Painter *p, const char *tmp, const char *target, FxExportProgress progress, gpointer data,
           GError **error)
{
  const FxAnimationOptions *o = p->o;
  guint n = p->run->frames->len;
  /* sample the first, middle and last pictures for the palette, on a
   * throwaway painter so trails and series start clean for the real pass */
  Painter sampler = *p;
  sampler.trails = NULL;
  sampler.style.trails = NULL;
  sampler.series = fx_export_series_for_model (p->model);
  sampler.series_upto = 0;
  cairo_surface_t *samples[3];
  guint picks[3] = { 0, n / 2, n - 1 };
  for (guint k = 0; k < 3; k++)
    samples[k] = render (&sampler, picks[k]);
  fx_series_free (sampler.series);
  guint8 palette[256 * 3];
  guint n_colors = build_palette (palette, o, samples, 3);
  for (guint k = 0; k < 3; k++)
    cairo_surface_destroy (samples[k]);

  FILE *f = g_fopen (tmp, "wb");
  if (f == NULL)
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("cannot write %s: %s"), target,
                   g_strerror (errno));
      return FALSE;
    }
  FxGifWriter *gif = fx_gif_writer_new (f, o->width, o->height, palette, n_colors,
                                        fx_gif_frame_delay (0, o->fps), TRUE);
  FxPaletteMap *map = fx_palette_map_new (palette, n_colors);
  g_autofree guint8 *indices = g_malloc ((gsize) o->width * o->height);
  gboolean ok = TRUE;
  for (guint i = 0; i < n && ok; i++)
    {
      cairo_surface_t *s = render (p, i);
      index_frame (s, map, indices);
      cairo_surface_destroy (s);
      fx_gif_writer_set_delay (gif, fx_gif_frame_delay (i, o->fps));
      fx_gif_writer_add_frame (gif, indices);
      if (progress && !progress (0.4 + 0.6 * (i + 1) / n, data))
        ok = fx_export_cancelled (error);
    }
  fx_palette_map_free (map);
  gboolean written = fx_gif_writer_finish (gif);
  if (fclose (f) != 0)
    written = FALSE;
  if (ok && !written)
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("writing %s failed: %s"), target,
                   g_strerror (errno));
      ok = FALSE;
    }
  return ok;
}

static gboolean
write_png_frames (Painter *p, const char *dir, FxExportProgress progress, gpointer data,
                  double from, double share, GError **error)
{
  guint n = p->run->frames->len;
  for (guint i = 0; i < n; i++)
    {
      cairo_surface_t *s = render (p, i);
      g_autofree char *name = g_strdup_printf ("frame-%05u.png", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      cairo_status_t st = cairo_surface_write_to_png (s, path);
      cairo_surface_destroy (s);
      if (st != CAIRO_STATUS_SUCCESS)
        {
          g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("cannot write %s: %s"), path,
                       cairo_status_to_string (st));
          return FALSE;
        }
      if (progress && !progress (from + share * (i + 1) / n, data))
        return fx_export_cancelled (error);
    }
  return TRUE;
}

static gboolean
encode_video (FxAnimationFormat format, const char *frames_dir, double fps, const char *out,
              GError **error)
{
  g_autofree char *location = g_strdup_printf ("location=%s/frame-%%05d.png", frames_dir);
  g_autofree char *caps = g_strdup_printf ("caps=image/png,framerate=%d/1000", (int) lround (fps * 1000));
  g_autofree char *sink = g_strdup_printf ("location=%s", out);
  const char *argv_webm[] = { "gst-launch-1.0", "-q", "multifilesrc", location, "index=0", caps, "!",
                              "pngdec", "!", "videoconvert", "!", "vp8enc", "deadline=1",
                              "target-bitrate=2000000", "!", "webmmux", "!", "filesink", sink, NULL };
  const char *argv_mp4[] = { "gst-launch-1.0", "-q", "multifilesrc", location, "index=0", caps, "!",
                             "pngdec", "!", "videoconvert", "!", "video/x-raw,format=I420", "!",
                             "x264enc", "!", "mp4mux", "!", "filesink", sink, NULL };
  g_autofree char *err_out = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) (format == FX_ANIMATION_WEBM ? argv_webm : argv_mp4), NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err_out,
                     &status, error))
    return FALSE;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("GStreamer could not encode %s: %s"),
                   fx_animation_format_name (format), err_out ? g_strstrip (err_out) : "");
      return FALSE;
    }
  return TRUE;
}

/* The painter's frames to `path` in `format`, through a temporary file or
 * folder beside it that replaces it only when complete. The frames' progress
 * runs from `from` over `png_share` (PNG frames) or `video_share` (the frames
 * of a video, whose encoding takes the rest). */
static gboolean
write_animation (Painter *painter, FxAnimationFormat format, const char *path, double fps,
                 FxExportProgress progress, gpointer data, double from, double png_share,
                 double video_share, GError **error)
{
  gboolean ok = FALSE;

  if (format == FX_ANIMATION_PNG_SEQUENCE)
    {
      /* a new folder (checked absent): written beside, renamed at the end */
      g_autofree char *tmp = fx_export_temp_folder_beside (path, error);
      ok = tmp && write_png_frames (painter, tmp, progress, data, from, png_share, error);
      if (ok && g_rename (tmp, path) != 0)
        {
          g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("cannot write %s: %s"), path,
                       g_strerror (errno));
          ok = FALSE;
        }
      if (!ok && tmp)
        fx_output_remove (tmp);
      return ok;
    }
  FxOutput *out = fx_export_output_new (path, error);
  if (out == NULL)
    return FALSE;
  if (format == FX_ANIMATION_GIF)
    ok = write_gif (painter, fx_output_file (out), path, progress, data, error);
  else
    {
      g_autofree char *frames = fx_export_temp_folder_beside (path, error);
      ok = frames && write_png_frames (painter, frames, progress, data, from, video_share, error)
           && encode_video (format, frames, fps, fx_output_file (out), error);
      if (frames)
        fx_output_remove (frames);
    }
  if (!ok)
    {
      fx_output_abort (out);
      return FALSE;
    }
  return fx_export_output_commit (out, error);
}

/* The format can be written here, and `path` can take it (a PNG sequence
 * goes into a folder that does not exist yet). */
static gboolean
check_target (const char *path, FxAnimationFormat format, GError **error)
{
  g_autofree char *why = NULL;
  if (!fx_animation_format_available (format, &why))
    {
      g_set_error_literal (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_UNAVAILABLE, why);
      return FALSE;
    }
  if (!fx_export_check_animation_path (path, error))
    return FALSE;
  if (format == FX_ANIMATION_PNG_SEQUENCE && g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED,
                   _("%s already exists: a PNG sequence goes into a new folder"), path);
      return FALSE;
    }
  return TRUE;
}

gboolean
fx_export_animation (const FxModel *model, const char *path, FxAnimationFormat format,
                     const FxAnimationOptions *options, FxExportProgress progress, gpointer data,
                     guint *n_frames, GError **error)
{
  FxAnimationOptions o = *options;
  if (o.t_until <= 0)
    o.t_until = model->t_end;
  if (o.dt <= 0)
    o.dt = model->dt;
  if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192 || !(o.fps > 0)
      || o.fps > 240 || !(o.t_from >= 0) || !(o.t_from <= o.t_until))
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED,
                   _("bad animation options: size %ux%u (16 to 8192), %g fps (up to 240), from %g s "
                     "to %g s"), o.width, o.height, o.fps, o.t_from, o.t_until);
      return FALSE;
    }
  if (!check_target (path, format, error))
    return FALSE;

  FxExportRun run = { 0 };
  if (!fx_export_run_from_recorded (o.recorded, o.t_until, o.t_from, o.fps, &run)
      && !fx_export_run_model (model, o.t_until, o.dt, o.t_from, o.fps, progress, data, 0.4, &run, error))
    {
      fx_export_run_clear (&run);
      return FALSE;
    }
  Painter painter = { 0 };
  if (run.frames->len == 0 || !painter_init (&painter, model, &o, &run))
    {
      g_set_error_literal (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("nothing to draw"));
      painter_clear (&painter);
      fx_export_run_clear (&run);
      return FALSE;
    }

  gboolean ok = write_animation (&painter, format, path, o.fps, progress, data,
                                 0.4, 0.6, 0.5, error);
  if (ok && n_frames)
    *n_frames = run.frames->len;
  painter_clear (&painter);
  fx_export_run_clear (&run);
  return ok;
}

/* ---- given frames (a mode's cycle) ---- */

gboolean
fx_export_frames (const FxModel *model, GPtrArray *frames, const char *path, FxAnimationFormat format,
                  const FxAnimationOptions *options, FxExportProgress progress, gpointer data,
                  GError **error)
{
  FxAnimationOptions o = *options;
  o.energy_inset = FALSE;  /* frames without a run have no energy */
  o.trails = FALSE;
  if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192 || !(o.fps > 0) || o.fps > 240
      || frames->len == 0)
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED,
                   _("bad animation options: size %ux%u (16 to 8192), %g fps (up to 240), %u frames"),
                   o.width, o.height, o.fps, frames->len);
      return FALSE;
    }
  if (!check_target (path, format, error))
    return FALSE;
  /* a run of the given frames: zero reports, no probes */
  FxExportRun run = { 0 };
  run.frames = g_ptr_array_ref (frames);
  run.reports = g_array_new (FALSE, TRUE, sizeof (FxStepReport));
  run.frame_steps = g_array_new (FALSE, FALSE, sizeof (guint));
  run.probe_values = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (run.reports, frames->len);
  for (guint i = 0; i < frames->len; i++)
    g_array_append_val (run.frame_steps, i);
  Painter painter = { 0 };
  gboolean ok = painter_init (&painter, model, &o, &run);
  if (!ok)
    g_set_error_literal (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("nothing to draw"));
  else
    ok = write_animation (&painter, format, path, o.fps, progress, data, 0.0, 1.0, 1.0, error);
  painter_clear (&painter);
  fx_export_run_clear (&run);
  return ok;
}
