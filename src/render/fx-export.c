/* fx-export.c: the formats, running a model for an export, plots and
 * pictures; the animations are in fx-export-animation.c. */
#include "fx-export-private.h"
#include "fx-deflection.h"
#include "fx-gif.h"
#include "fx-render-private.h"
#include "fx-system.h"
#include "fx-memory.h"
#include "fx-output.h"

#include <glib/gi18n-lib.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK (fx-export-error-quark, fx_export_error)

FxAnimationFormat
fx_animation_format_for_path (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".gif"))
    return FX_ANIMATION_GIF;
  if (g_str_has_suffix (lower, ".webm"))
    return FX_ANIMATION_WEBM;
  if (g_str_has_suffix (lower, ".mp4"))
    return FX_ANIMATION_MP4;
  return FX_ANIMATION_PNG_SEQUENCE;
}

gboolean
fx_animation_path_is_known (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  const char *dot = strrchr (base, '.');

  return fx_animation_format_for_path (path) != FX_ANIMATION_PNG_SEQUENCE || dot == NULL
         || dot == base;
}

gboolean
fx_export_check_animation_path (const char *path, GError **error)
{
  if (fx_animation_path_is_known (path))
    return TRUE;
  g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED,
               _("%s: use a .gif, .webm or .mp4 file name, or a name without an extension for a "
                 "new folder of PNG frames"), path);
  return FALSE;
}

const char *
fx_animation_format_name (FxAnimationFormat f)
{
  switch (f)
    {
    case FX_ANIMATION_GIF: return "GIF";
    case FX_ANIMATION_PNG_SEQUENCE: return _("PNG sequence");
    case FX_ANIMATION_WEBM: return "WebM";
    case FX_ANIMATION_MP4: return "MP4";
    }
  return "";
}

/* The GStreamer pipeline tail for a video format. */
static const char *const *
video_elements (FxAnimationFormat f)
{
  static const char *const webm[] = { "vp8enc", "webmmux", NULL };
  static const char *const mp4[] = { "x264enc", "mp4mux", NULL };
  return f == FX_ANIMATION_WEBM ? webm : mp4;
}

static gboolean
gst_has_element (const char *element)
{
  const char *argv[] = { "gst-inspect-1.0", element, NULL };
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

gboolean
fx_animation_format_available (FxAnimationFormat f, char **why)
{
  if (f == FX_ANIMATION_GIF || f == FX_ANIMATION_PNG_SEQUENCE)
    return TRUE;
  g_autofree char *launch = g_find_program_in_path ("gst-launch-1.0");
  g_autofree char *inspect = g_find_program_in_path ("gst-inspect-1.0");
  if (launch == NULL || inspect == NULL)
    {
      if (why)
        *why = g_strdup_printf (_("%s needs GStreamer (gst-launch-1.0 and gst-inspect-1.0, Debian "
                                  "package gstreamer1.0-tools), which is not installed"),
                                fx_animation_format_name (f));
      return FALSE;
    }
  const char *const *elements = video_elements (f);
  for (guint i = 0; elements[i]; i++)
    if (!gst_has_element (elements[i]))
      {
        if (why)
          *why = g_strdup_printf (_("%s needs the GStreamer element %s (Debian package %s), which "
                                    "is not installed"), fx_animation_format_name (f), elements[i],
                                  f == FX_ANIMATION_WEBM ? "gstreamer1.0-plugins-good"
                                                         : "gstreamer1.0-plugins-ugly");
        return FALSE;
      }
  return TRUE;
}

gboolean
fx_image_format_for_path (const char *path, FxImageFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    *format = FX_IMAGE_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = FX_IMAGE_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = FX_IMAGE_PDF;
  else
    return FALSE;
  return TRUE;
}

void
fx_animation_options_init (FxAnimationOptions *o)
{
  memset (o, 0, sizeof *o);
  o->width = 960;
  o->height = 540;
  o->fps = 30;
  o->colorbar = TRUE;
  o->time_stamp = TRUE;
  o->show_initial = TRUE;
  o->trails = TRUE;
  o->line_scale = 1;
  o->deflection_scale = 1;
}

/* ---- temporary files beside the target ---- */

/* An output through fx-output.h (a temporary beside a regular target, a
 * device or a FIFO written in place), its errors in FX_EXPORT_ERROR. */
static gboolean
export_error (GError *local, GError **error)
{
  g_set_error_literal (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, local->message);
  g_error_free (local);
  return FALSE;
}

FxOutput *
fx_export_output_new (const char *path, GError **error)
{
  GError *local = NULL;
  FxOutput *out = fx_output_new (path, &local);
  if (out == NULL)
    export_error (local, error);
  return out;
}

gboolean
fx_export_output_commit (FxOutput *out, GError **error)
{
  GError *local = NULL;
  return fx_output_commit (out, &local) || export_error (local, error);
}

/* A new folder beside `path` for PNG frames. */
char *
fx_export_temp_folder_beside (const char *path, GError **error)
{
  g_autofree char *tmpl = g_strconcat (path, ".part-XXXXXX", NULL);
  if (g_mkdtemp (tmpl) == NULL)
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("cannot write beside %s: %s"),
                   path, g_strerror (errno));
      return NULL;
    }
  return g_steal_pointer (&tmpl);
}

gboolean
fx_export_cancelled (GError **error)
{
  g_set_error_literal (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_CANCELLED, _("the export was cancelled"));
  return FALSE;
}

/* ---- running a model ---- */


void
fx_export_run_clear (FxExportRun *r)
{
  g_clear_pointer (&r->frames, g_ptr_array_unref);
  g_clear_pointer (&r->reports, g_array_unref);
  g_clear_pointer (&r->probe_values, g_array_unref);
  g_clear_pointer (&r->frame_steps, g_array_unref);
}

static void
record_probes (FxExportRun *run, const FxSystem *system, const FxModel *model)
{
  for (guint p = 0; p < run->n_probes; p++)
    {
      const FxProbe *probe = fx_model_probe (model, p);
      int l = fx_model_find_link (model, probe->link);
      double values[FX_PROBE_N_VALUES];
      for (guint v = 0; v < FX_PROBE_N_VALUES; v++)
        values[v] = NAN;
      if (l >= 0)
        fx_system_probe_values (system, (guint) l, probe->s, values);
      g_array_append_vals (run->probe_values, values, FX_PROBE_N_VALUES);
    }
}

const double *
fx_export_run_probes (const FxExportRun *run, guint step)
{
  return run->n_probes ? &g_array_index (run->probe_values, double,
                                         (gsize) step * FX_PROBE_N_VALUES * run->n_probes)
                       : NULL;
}

FxSeries *
fx_export_series_for_model (const FxModel *model)
{
  FxSeries *series = fx_series_new ();
  g_autofree const char **ids = g_new0 (const char *, model->probes->len + 1);
  for (guint p = 0; p < model->probes->len; p++)
    ids[p] = fx_model_probe (model, p)->id;
  fx_series_set_probes (series, model->probes->len, ids);
  return series;
}

/* Steps the model to t_until, keeping a frame at each of t_from + k / fps
 * (fps <= 0: none) and every step's report. */
static gboolean
report_is_finite (const FxStepReport *r)
{
  return isfinite (r->t) && isfinite (r->H) && isfinite (r->kinetic) && isfinite (r->elastic)
         && isfinite (r->gravity) && isfinite (r->supplied) && isfinite (r->dissipated)
         && isfinite (r->balance) && isfinite (r->residual) && isfinite (r->joint_gap);
}

/* A span the loop below ends: NaN or an endless count of steps would not. */
static gboolean
check_span (double t_until, double dt, GError **error)
{
  if (isfinite (t_until) && t_until > 0 && isfinite (dt) && dt > 0
      && t_until / dt <= FX_MAX_STEPS)
    return TRUE;
  g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED,
               _("cannot run to %g s in steps of %g s: both must be finite and > 0, and give "
                 "at most %g steps"), t_until, dt, FX_MAX_STEPS);
  return FALSE;
}

/* An export keeps every step's report and probes, and every frame's nodes:
 * refuse a run whose record would pass the memory limit, before it grows
 * until g_realloc aborts. */
static gboolean
check_run_memory (const FxSystem *system, const FxModel *model, double t_until, double dt,
                  double t_from, double fps, GError **error)
{
  guint64 nodes = 0;
  for (guint l = 0; l < fx_system_n_links (system); l++)
    nodes += fx_system_link_elements (system, l) + 1;
  double steps = ceil (t_until / dt) + 1;
  double frames = fps > 0 ? MIN (steps, floor ((t_until - t_from) * fps) + 1) : 1;
  double per_step = sizeof (FxStepReport) + sizeof (FxSeriesPoint)
                    + (FX_PROBE_N_VALUES + 2) * sizeof (double) * model->probes->len;
  /* a frame: x, y, theta and moment per node, and the joints */
  double per_frame = sizeof (double) * (4.0 * nodes + 2.0 * model->joints->len) + 256;
  double bytes = steps * per_step + MAX (frames, 1) * per_frame;
  g_autofree char *what = g_strdup_printf (_("An export of %.0f steps and %.0f frames"), steps,
                                           frames);
  return fx_memory_check (bytes >= 1.8e19 ? G_MAXUINT64 : (guint64) bytes, what,
                          _("export a shorter span, with a larger time step or fewer frames "
                            "per second"), error);
}

gboolean
fx_export_run_model (const FxModel *model, double t_until, double dt, double t_from, double fps,
           FxExportProgress progress, gpointer data, double share, FxExportRun *run, GError **error)
{
  if (!check_span (t_until, dt, error))
    return FALSE;
  g_autoptr (FxSystem) system = fx_system_new (model, error);
  if (system == NULL || !check_run_memory (system, model, t_until, dt, t_from, fps, error))
    return FALSE;
  g_autoptr (FxIntegrator) integ = fx_integrator_new (system, model->tolerance, model->max_iterations);
  if (!fx_integrator_prepare (integ, error))
    return FALSE;
  run->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  run->reports = g_array_new (FALSE, FALSE, sizeof (FxStepReport));
  run->frame_steps = g_array_new (FALSE, FALSE, sizeof (guint));
  run->probe_values = g_array_new (FALSE, FALSE, sizeof (double));
  run->n_probes = model->probes->len;

  FxStepReport report;
  fx_integrator_report (integ, &report);
  g_array_append_val (run->reports, report);
  record_probes (run, system, model);
  guint k = 0;
  double eps = 1e-6 * dt;
  double next_t = t_from;
  guint step = 0;
  for (;;)
    {
      double t = fx_system_time (system);
      while (fps > 0 && t >= next_t - eps && next_t <= t_until + eps)
        {
          g_ptr_array_add (run->frames, fx_step_frame_new (system, &report, step));
          guint idx = run->reports->len - 1;
          g_array_append_val (run->frame_steps, idx);
          k++;
          next_t = t_from + k / fps;
        }
      if (t >= t_until - eps)
        break;
      /* always the full step, as the app and `flexion-cli run` take it */
      if (!fx_integrator_step (integ, dt, &report, error))
        return FALSE;
      if (!report_is_finite (&report))
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED,
                       _("the energies are no longer finite numbers at t = %g s"), report.t);
          return FALSE;
        }
      step++;
      g_array_append_val (run->reports, report);
      record_probes (run, system, model);
      if (progress && step % 8 == 0 && !progress (share * t / t_until, data))
        return fx_export_cancelled (error);
    }
  return TRUE;
}

/* The run from frames already computed, when they are every step from 0
 * to t_until: the same frames and reports run_model would make, without
 * solving again. FALSE (and nothing made) otherwise. */
gboolean
fx_export_recorded_covers (const GPtrArray *rec, double t_until)
{
  if (rec == NULL || rec->len < 2)
    return FALSE;
  const FxStepFrame *first = rec->pdata[0], *last = rec->pdata[rec->len - 1];
  double eps = 1e-6 * MAX (last->report.dt, 1e-12);
  if (first->step != 0 || last->t < t_until - eps)
    return FALSE;
  for (guint i = 0; i < rec->len; i++)
    if (((const FxStepFrame *) rec->pdata[i])->step != i)
      return FALSE;  /* thinned: a step is missing */
  return TRUE;
}

gboolean
fx_export_run_from_recorded (const GPtrArray *rec, double t_until, double t_from, double fps, FxExportRun *run)
{
  if (!fx_export_recorded_covers (rec, t_until))
    return FALSE;
  const FxStepFrame *first = rec->pdata[0], *last = rec->pdata[rec->len - 1];
  double eps = 1e-6 * MAX (last->report.dt, 1e-12);
  run->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  run->reports = g_array_new (FALSE, FALSE, sizeof (FxStepReport));
  run->frame_steps = g_array_new (FALSE, FALSE, sizeof (guint));
  run->probe_values = g_array_new (FALSE, FALSE, sizeof (double));
  run->n_probes = first->n_probes;
  guint k = 0;
  double next_t = t_from;
  for (guint i = 0; i < rec->len; i++)
    {
      FxStepFrame *f = rec->pdata[i];
      g_array_append_val (run->reports, f->report);
      g_array_append_vals (run->probe_values, f->probe_values, FX_PROBE_N_VALUES * f->n_probes);
      while (f->t >= next_t - eps && next_t <= t_until + eps)
        {
          g_ptr_array_add (run->frames, fx_step_frame_ref (f));
          g_array_append_val (run->frame_steps, i);
          k++;
          next_t = t_from + k / fps;
        }
      if (f->t >= t_until - eps)
        break;
    }
  return TRUE;
}

FxSeries *
fx_export_run_series (const FxModel *model, double t_until, double dt, FxStepFrame **last,
                      FxExportProgress progress, gpointer data, GError **error)
{
  if (t_until <= 0)
    t_until = model->t_end;
  if (dt <= 0)
    dt = model->dt;
  FxExportRun run = { 0 };
  if (!fx_export_run_model (model, t_until, dt, t_until, 1e-300, progress, data, 1.0, &run, error))
    {
      fx_export_run_clear (&run);
      return NULL;
    }
  FxSeries *series = fx_export_series_for_model (model);
  for (guint i = 0; i < run.reports->len; i++)
    fx_series_add_report (series, &g_array_index (run.reports, FxStepReport, i), i, fx_export_run_probes (&run, i));
  if (last)
    *last = run.frames->len ? fx_step_frame_ref (g_ptr_array_index (run.frames, run.frames->len - 1)) : NULL;
  fx_export_run_clear (&run);
  return series;
}

/* ---- single pictures ---- */

typedef void (*DrawFunc) (cairo_t *cr, gpointer data, double w, double h);

static gboolean
write_picture (const char *path, guint w, guint h, DrawFunc draw, gpointer data, GError **error)
{
  FxImageFormat format;
  if (!fx_image_format_for_path (path, &format))
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED,
                   _("%s: use a .png, .svg or .pdf file name"), path);
      return FALSE;
    }
  FxOutput *out = fx_export_output_new (path, error);
  if (out == NULL)
    return FALSE;
  const char *file = fx_output_file (out);
  cairo_surface_t *s = format == FX_IMAGE_PNG ? cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h)
                       : format == FX_IMAGE_SVG ? cairo_svg_surface_create (file, w, h)
                       : cairo_pdf_surface_create (file, w, h);
  cairo_t *cr = cairo_create (s);
  draw (cr, data, w, h);
  cairo_destroy (cr);
  cairo_status_t st = CAIRO_STATUS_SUCCESS;
  if (format == FX_IMAGE_PNG)
    st = cairo_surface_write_to_png (s, file);
  cairo_surface_finish (s);
  if (st == CAIRO_STATUS_SUCCESS)
    st = cairo_surface_status (s);
  cairo_surface_destroy (s);
  if (st != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_FAILED, _("cannot write %s: %s"), path,
                   cairo_status_to_string (st));
      fx_output_abort (out);
      return FALSE;
    }
  return fx_export_output_commit (out, error);
}

typedef struct {
  const FxSeries *series;
  FxPlotKind kind;
  const FxPlotStyle *style;
} PlotJob;

static void
draw_plot (cairo_t *cr, gpointer data, double w, double h)
{
  PlotJob *j = data;
  fx_plot_draw (cr, j->kind, j->series, j->style, w, h);
}

gboolean
fx_export_plot (const FxSeries *series, FxPlotKind kind, const FxPlotStyle *style,
                const char *path, guint width, guint height, GError **error)
{
  PlotJob job = { series, kind, style };
  return write_picture (path, width, height, draw_plot, &job, error);
}

typedef struct {
  const FxModel *model;
  const FxStepFrame *frame, *initial;
  const FxSceneStyle *style;
} SceneJob;

static void
draw_scene (cairo_t *cr, gpointer data, double w, double h)
{
  SceneJob *j = data;
  FxView view = { 100, w / 2, h / 2 };
  double box[4], b[4];
  if (fx_scene_bounds (j->frame, box))
    {
      if (j->initial && j->style->show_initial && fx_scene_bounds (j->initial, b))
        {
          box[0] = MIN (box[0], b[0]);
          box[1] = MAX (box[1], b[1]);
          box[2] = MIN (box[2], b[2]);
          box[3] = MAX (box[3], b[3]);
        }
      fx_diagram_grow_bounds (j->style->diagram, box);
      fx_view_fit (&view, box, w, h, 50 * (j->style->line_scale > 0 ? j->style->line_scale : 1));
    }
  fx_scene_draw (cr, j->model, j->frame, j->initial, &view, j->style, w, h);
}

gboolean
fx_export_scene (const FxModel *model, const FxStepFrame *frame, const FxStepFrame *initial,
                 const FxSceneStyle *style, const char *path, guint width, guint height,
                 GError **error)
{
  SceneJob job = { model, frame, initial, style };
  return write_picture (path, width, height, draw_scene, &job, error);
}
