/* flexion-export-dialog.c */
#include "flexion-export-dialog.h"
#include "flexion-simulation.h"
#include "fx-export.h"
#include "flexion-rows.h"
#include "flexion-number-field.h"
#include "fx-runner.h"
#include "flexion-application.h"

#include <glib/gi18n.h>
#include <string.h>

struct _FlexionExportDialog {
  AdwWindow parent_instance;

  FxModel *model;
  char *title;          /* the document's, for file names */
  FxSeries *series;     /* a copy of the run's */
  FxStepFrame *frame;   /* the frame on screen */
  FxSceneStyle style;
  double deflection;    /* animations: 1 to 1000, 0 auto */
  GPtrArray *recorded;  /* the run on screen (FxStepFrame*), or NULL */

  AdwToastOverlay *toasts;
  AdwComboRow *format_row;
  GtkSpinButton *width_spin, *height_spin, *fps_spin, *from_spin, *until_spin;
  GtkSwitch *colorbar_switch, *time_switch, *inset_switch;
  GtkWidget *animation_button;
  AdwComboRow *plot_row;
  GtkWidget *progress_box;
  GtkProgressBar *progress;
  GtkWidget *cancel_button;

  GtkWidget *plot_button;
  GSettings *settings;  /* the application's, or NULL: the choices kept */

  GCancellable *cancellable;
  gint progress_permille;  /* written by the worker, read by a timeout */
  guint progress_source;

  FxRunner *runner;     /* "Run and Export": the model run to its end */
  guint run_source;
  GFile *run_then_file; /* where the plot goes after that run, or NULL: ask */
};

G_DEFINE_FINAL_TYPE (FlexionExportDialog, flexion_export_dialog, ADW_TYPE_WINDOW)

enum { FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const FxAnimationFormat formats[] = {
  FX_ANIMATION_GIF, FX_ANIMATION_WEBM, FX_ANIMATION_MP4, FX_ANIMATION_PNG_SEQUENCE,
};
static const char *const extensions[] = { ".gif", ".webm", ".mp4", "-frames" };

/* ---- helpers ---- */

static void
on_toast_open (AdwToast *t, gpointer data)
{
  const char *uri = g_object_get_data (G_OBJECT (t), "uri");
  GtkWindow *parent = GTK_WINDOW (data);
  gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
}

/* A toast with an Open button for the file just written. */
static void
toast_with_open (FlexionExportDialog *self, const char *message, const char *path)
{
  AdwToast *t = flexion_toast_new (message, 10);
  adw_toast_set_button_label (t, _("_Open"));
  g_object_set_data_full (G_OBJECT (t), "uri", g_filename_to_uri (path, NULL, NULL), g_free);
  g_signal_connect (t, "button-clicked", G_CALLBACK (on_toast_open), self);
  adw_toast_overlay_add_toast (self->toasts, t);
}

static void
toast (FlexionExportDialog *self, const char *message)
{
  AdwToast *t = flexion_toast_new (message, 8);
  adw_toast_overlay_add_toast (self->toasts, t);
}

/* The choices are kept in the settings (export-*), across windows and
 * restarts; "Until" 0 there means the model's own end time. */
static void
remember (FlexionExportDialog *self)
{
  if (self->settings == NULL)
    return;
  g_settings_delay (self->settings);
  g_settings_set_uint (self->settings, "export-format", adw_combo_row_get_selected (self->format_row));
  g_settings_set_double (self->settings, "export-width", gtk_spin_button_get_value (self->width_spin));
  g_settings_set_double (self->settings, "export-height", gtk_spin_button_get_value (self->height_spin));
  g_settings_set_double (self->settings, "export-fps", gtk_spin_button_get_value (self->fps_spin));
  g_settings_set_double (self->settings, "export-from", gtk_spin_button_get_value (self->from_spin));
  g_settings_set_double (self->settings, "export-until", gtk_spin_button_get_value (self->until_spin));
  g_settings_set_boolean (self->settings, "export-colorbar", gtk_switch_get_active (self->colorbar_switch));
  g_settings_set_boolean (self->settings, "export-time-stamp", gtk_switch_get_active (self->time_switch));
  g_settings_set_boolean (self->settings, "export-inset", gtk_switch_get_active (self->inset_switch));
  g_settings_set_uint (self->settings, "export-plot", adw_combo_row_get_selected (self->plot_row));
  g_settings_apply (self->settings);
}

static void
recall (FlexionExportDialog *self)
{
  if (self->settings == NULL)
    return;
  adw_combo_row_set_selected (self->format_row, g_settings_get_uint (self->settings, "export-format"));
  gtk_spin_button_set_value (self->width_spin, g_settings_get_double (self->settings, "export-width"));
  gtk_spin_button_set_value (self->height_spin, g_settings_get_double (self->settings, "export-height"));
  gtk_spin_button_set_value (self->fps_spin, g_settings_get_double (self->settings, "export-fps"));
  gtk_spin_button_set_value (self->from_spin, g_settings_get_double (self->settings, "export-from"));
  double until = g_settings_get_double (self->settings, "export-until");
  if (until > 0)
    gtk_spin_button_set_value (self->until_spin, until);
  gtk_switch_set_active (self->colorbar_switch, g_settings_get_boolean (self->settings, "export-colorbar"));
  gtk_switch_set_active (self->time_switch, g_settings_get_boolean (self->settings, "export-time-stamp"));
  gtk_switch_set_active (self->inset_switch, g_settings_get_boolean (self->settings, "export-inset"));
  adw_combo_row_set_selected (self->plot_row, g_settings_get_uint (self->settings, "export-plot"));
}

static GtkSpinButton *
spin_row (AdwPreferencesGroup *group, const char *title, const char *unit, double value,
          double lo, double hi, double step, guint digits)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lo, hi, step);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  flexion_number_field_attach (GTK_SPIN_BUTTON (spin), FALSE);
  flexion_control_row (group, title, unit, spin);
  return GTK_SPIN_BUTTON (spin);
}

static char *
base_name (FlexionExportDialog *self)
{
  g_autofree char *t = g_strdup (self->title);
  if (g_str_has_suffix (t, ".flexion"))
    t[strlen (t) - strlen (".flexion")] = '\0';
  return g_strdup (t);
}

/* ---- availability ---- */

static void
update_format (FlexionExportDialog *self)
{
  guint i = adw_combo_row_get_selected (self->format_row);
  g_autofree char *why = NULL;
  gboolean ok = i < G_N_ELEMENTS (formats) && fx_animation_format_available (formats[i], &why);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->format_row), ok ? "" : why);
  gtk_widget_set_sensitive (self->animation_button, ok && self->cancellable == NULL);
}

/* ---- the worker ---- */

typedef struct {
  FlexionExportDialog *self;  /* for progress only (atomic) */
  FxModel *model;
  char *path;
  FxAnimationFormat format;
  FxAnimationOptions options;
  GPtrArray *recorded;  /* options.recorded's reference */
  gboolean reused;      /* drawn from the run on screen */
  GCancellable *cancellable;
  guint n_frames;
} AnimationJob;

static void
animation_job_free (gpointer data)
{
  AnimationJob *job = data;
  fx_model_free (job->model);
  g_clear_pointer (&job->recorded, g_ptr_array_unref);
  g_free (job->path);
  g_object_unref (job->cancellable);
  g_free (job);
}

static gboolean
job_progress (double fraction, gpointer data)
{
  AnimationJob *job = data;
  g_atomic_int_set (&job->self->progress_permille, (gint) (fraction * 1000));
  return !g_cancellable_is_cancelled (job->cancellable);
}

static void
animation_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AnimationJob *job = data;
  GError *error = NULL;
  fx_runner_lower_thread_priority ();  /* the window stays smooth meanwhile */
  if (fx_export_animation (job->model, job->path, job->format, &job->options, job_progress, job,
                           &job->n_frames, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static gboolean
update_progress (gpointer data)
{
  FlexionExportDialog *self = data;
  gtk_progress_bar_set_fraction (self->progress, g_atomic_int_get (&self->progress_permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
set_busy (FlexionExportDialog *self, gboolean busy)
{
  gtk_widget_set_visible (self->progress_box, busy);
  gtk_widget_set_sensitive (self->animation_button, !busy);
  if (busy)
    {
      g_atomic_int_set (&self->progress_permille, 0);
      gtk_progress_bar_set_fraction (self->progress, 0);
      self->progress_source = g_timeout_add (100, update_progress, self);
    }
  else
    {
      g_clear_handle_id (&self->progress_source, g_source_remove);
      g_clear_object (&self->cancellable);
      update_format (self);
    }
}

static void
on_animation_done (GObject *source, GAsyncResult *result, gpointer data)
{
  FlexionExportDialog *self = FLEXION_EXPORT_DIALOG (source);
  AnimationJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);
  g_autofree char *name = g_path_get_basename (job->path);
  g_autofree char *message = NULL;
  if (ok && job->reused)
    message = g_strdup_printf (g_dngettext (NULL, "Exported “%s”: %u frame of the run on screen",
                                            "Exported “%s”: %u frames of the run on screen",
                                            job->n_frames), name, job->n_frames);
  else if (ok)
    message = g_strdup_printf (g_dngettext (NULL, "Exported “%s”: %u frame", "Exported “%s”: %u frames",
                                            job->n_frames), name, job->n_frames);
  else if (g_error_matches (error, FX_EXPORT_ERROR, FX_EXPORT_ERROR_CANCELLED))
    message = g_strdup (_("Export cancelled; no file was written"));
  else
    message = g_strdup_printf (_("Could not export “%s”: %s"), name, error->message);
  set_busy (self, FALSE);
  if (ok)
    toast_with_open (self, message, job->path);
  else
    toast (self, message);
  g_signal_emit (self, signals[FINISHED], 0, ok, message);
}

void
flexion_export_dialog_export_animation (FlexionExportDialog *self, GFile *file)
{
  g_return_if_fail (self->cancellable == NULL);
  guint i = MIN (adw_combo_row_get_selected (self->format_row), G_N_ELEMENTS (formats) - 1);
  AnimationJob *job = g_new0 (AnimationJob, 1);
  job->self = self;
  job->model = fx_model_copy (self->model);
  job->path = g_file_get_path (file);
  job->format = formats[i];
  fx_animation_options_init (&job->options);
  job->options.width = gtk_spin_button_get_value_as_int (self->width_spin);
  job->options.height = gtk_spin_button_get_value_as_int (self->height_spin);
  job->options.fps = gtk_spin_button_get_value (self->fps_spin);
  job->options.t_from = gtk_spin_button_get_value (self->from_spin);
  job->options.t_until = gtk_spin_button_get_value (self->until_spin);
  job->options.colorbar = gtk_switch_get_active (self->colorbar_switch);
  job->options.time_stamp = gtk_switch_get_active (self->time_switch);
  job->options.energy_inset = gtk_switch_get_active (self->inset_switch);
  job->options.dark = self->style.dark;
  job->options.colormap = self->style.colormap;
  job->options.deflection_scale = self->deflection;
  job->options.diagram = self->style.diagram;
  remember (self);
  if (self->recorded && fx_export_recorded_covers (self->recorded, job->options.t_until))
    {
      /* the frames the user watched: the same run, not a second solve */
      job->recorded = g_ptr_array_ref (self->recorded);
      job->options.recorded = job->recorded;
      job->reused = TRUE;
    }
  self->cancellable = g_cancellable_new ();
  job->cancellable = g_object_ref (self->cancellable);
  set_busy (self, TRUE);

  GTask *task = g_task_new (self, NULL, on_animation_done, NULL);
  g_task_set_task_data (task, job, animation_job_free);
  g_task_run_in_thread (task, animation_thread);
  g_object_unref (task);
}

void
flexion_export_dialog_cancel (FlexionExportDialog *self)
{
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

/* ---- file choosers ---- */

typedef void (*FileChosen) (FlexionExportDialog *self, GFile *file, gpointer data);

typedef struct {
  FlexionExportDialog *self;
  FileChosen then;
  gpointer data;
} Chooser;

static void
on_chooser_response (GtkNativeDialog *dialog, int response, Chooser *c)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      c->then (c->self, file, c->data);
    }
  g_object_unref (dialog);
  g_free (c);
}

static void
choose_file (FlexionExportDialog *self, const char *title, const char *suggested,
             FileChosen then, gpointer data)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SAVE,
                                                              _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested);
  Chooser *c = g_new (Chooser, 1);
  *c = (Chooser) { self, then, data };
  g_signal_connect (dialog, "response", G_CALLBACK (on_chooser_response), c);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
animation_chosen (FlexionExportDialog *self, GFile *file, gpointer data)
{
  flexion_export_dialog_export_animation (self, file);
}

static void
on_animation_clicked (FlexionExportDialog *self)
{
  guint i = MIN (adw_combo_row_get_selected (self->format_row), G_N_ELEMENTS (formats) - 1);
  g_autofree char *base = base_name (self);
  g_autofree char *name = g_strconcat (base, extensions[i], NULL);
  choose_file (self, _("Export Animation"), name, animation_chosen, NULL);
}

/* The toast after a plot or picture: Open on success, the reason if not. */
static void
report_quick_export (FlexionExportDialog *self, gboolean ok, const char *path, const GError *error)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *msg = ok ? g_strdup_printf (_("Exported “%s”"), name)
                            : g_strdup_printf (_("Could not export “%s”: %s"), name, error->message);
  if (ok)
    toast_with_open (self, msg, path);
  else
    toast (self, msg);
}

/* Plots and pictures are quick: drawn here, the file named by its extension. */
static void
plot_chosen (FlexionExportDialog *self, GFile *file, gpointer data)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;
  guint kind = adw_combo_row_get_selected (self->plot_row);
  gboolean ok;
  /* a .csv name asks for the data of that plot, whichever was chosen */
  gboolean csv = g_str_has_suffix (path, ".csv") || g_str_has_suffix (path, ".CSV");
  if (kind == 4 || (csv && kind < 3))
    ok = fx_series_write_csv (self->series, path, &error);
  else if (kind == 5 || (csv && kind == 3))
    ok = fx_series_write_probes_csv (self->series, path, &error);
  else
    {
      FxPlotStyle st;
      fx_plot_style_init (&st);
      st.dark = self->style.dark;
      if (self->settings)
        {
          /* the energy view chosen on the live plot */
          g_autofree char *view = g_settings_get_string (self->settings, "energy-view");
          st.energy_view = g_str_equal (view, "books") ? FX_ENERGY_BOOKS
                           : g_str_equal (view, "absolute") ? FX_ENERGY_ABSOLUTE : FX_ENERGY_RELATIVE;
        }
      st.t_window = 0;
      ok = fx_export_plot (self->series, kind, &st, path, 800, 450, &error);
    }
  report_quick_export (self, ok, path, error);
}

/* ---- Run and Export: the plots need a run; without one on screen the
 * model is run here to its end time, in the background, then exported ---- */

static void on_plot_clicked (FlexionExportDialog *self);
static void plot_chosen (FlexionExportDialog *self, GFile *file, gpointer data);

static void
update_plot_button (FlexionExportDialog *self)
{
  gboolean run = fx_series_len (self->series) == 0;
  gtk_button_set_label (GTK_BUTTON (self->plot_button), run ? _("_Run and Export Plot…") : _("Export _Plot…"));
  g_autofree char *tip = g_strdup_printf (_("Simulate the model to its end time (%g s), then choose a file"),
                                          self->model->t_end);
  gtk_widget_set_tooltip_text (self->plot_button, run ? tip : _("Choose a file and export the plot"));
  gtk_widget_set_sensitive (self->plot_button, self->runner == NULL);
}

static void
stop_run (FlexionExportDialog *self)
{
  g_clear_handle_id (&self->run_source, g_source_remove);
  g_clear_pointer (&self->runner, fx_runner_free);
  gtk_widget_set_visible (self->progress_box, self->cancellable != NULL);
  update_plot_button (self);
}

static gboolean
poll_run (gpointer data)
{
  FlexionExportDialog *self = data;
  FxStepFrame *f;
  while ((f = fx_runner_pop_frame (self->runner)))
    {
      fx_series_add (self->series, f);
      fx_step_frame_unref (f);
    }
  double t_end = self->model->t_end;
  gtk_progress_bar_set_fraction (self->progress, CLAMP (fx_runner_time (self->runner) / t_end, 0, 1));
  g_autoptr (GError) error = NULL;
  if (fx_runner_failed (self->runner, &error))
    {
      g_autofree char *msg = flexion_stop_message (fx_runner_time (self->runner), error);
      toast (self, msg);
    }
  else if (fx_runner_is_busy (self->runner) || fx_runner_n_frames (self->runner) > 0)
    return G_SOURCE_CONTINUE;
  self->run_source = 0;
  stop_run (self);
  g_autoptr (GFile) file = g_steal_pointer (&self->run_then_file);
  if (fx_series_len (self->series) > 1 && file)
    plot_chosen (self, file, NULL);
  else if (fx_series_len (self->series) > 1)
    on_plot_clicked (self);
  return G_SOURCE_REMOVE;
}

static void
start_run (FlexionExportDialog *self)
{
  g_autoptr (GError) error = NULL;
  self->runner = fx_runner_new (self->model, &error);
  if (self->runner == NULL)
    {
      g_autofree char *msg = g_strdup_printf (_("Cannot run the model: %s"), error->message);
      toast (self, msg);
      return;
    }
  g_autofree const char **ids = g_new0 (const char *, self->model->probes->len + 1);
  for (guint p = 0; p < self->model->probes->len; p++)
    ids[p] = fx_model_probe (self->model, p)->id;
  fx_series_clear (self->series);
  fx_series_set_probes (self->series, self->model->probes->len, ids);
  fx_runner_set_horizon (self->runner, self->model->t_end);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_widget_set_visible (self->progress_box, TRUE);
  self->run_source = g_timeout_add (30, poll_run, self);
  update_plot_button (self);
}

static void
on_plot_clicked (FlexionExportDialog *self)
{
  remember (self);
  if (fx_series_len (self->series) == 0)
    {
      start_run (self);
      return;
    }
  static const char *const suffix[] = { "-energy.svg", "-balance.svg", "-newton.svg", "-probes.svg",
                                         "-energy.csv", "-probes.csv" };
  guint kind = MIN (adw_combo_row_get_selected (self->plot_row), 5u);
  g_autofree char *base = base_name (self);
  g_autofree char *name = g_strconcat (base, suffix[kind], NULL);
  choose_file (self, _("Export Plot"), name, plot_chosen, NULL);
}

void
flexion_export_dialog_export_plot (FlexionExportDialog *self, GFile *file)
{
  g_return_if_fail (self->runner == NULL);
  remember (self);
  if (fx_series_len (self->series) > 0)
    {
      plot_chosen (self, file, NULL);
      return;
    }
  g_set_object (&self->run_then_file, file);
  start_run (self);
}

static void
picture_chosen (FlexionExportDialog *self, GFile *file, gpointer data)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxStepFrame) model_frame = fx_step_frame_new_from_model (self->model);
  const FxStepFrame *frame = self->frame ? self->frame : model_frame;
  FxSceneStyle st = self->style;
  st.selected_joint = st.selected_link = st.hover_joint = st.hover_link = -1;
  st.trails = NULL;
  st.assignment = NULL;
  st.has_pull = FALSE;
  st.show_colorbar = self->frame != NULL;
  if (st.moment_range <= 0)
    st.moment_range = frame->moment_max_abs;
  gboolean ok = fx_export_scene (self->model, frame, self->frame ? model_frame : NULL, &st, path,
                                 1280, 720, &error);
  report_quick_export (self, ok, path, error);
}

static void
on_picture_clicked (FlexionExportDialog *self)
{
  g_autofree char *base = base_name (self);
  g_autofree char *name = g_strconcat (base, ".png", NULL);
  choose_file (self, _("Export Picture"), name, picture_chosen, NULL);
}

/* ---- object ---- */

static gboolean
flexion_export_dialog_close_request (GtkWindow *window)
{
  /* closing cancels a running export: its file is then never written */
  FlexionExportDialog *self = FLEXION_EXPORT_DIALOG (window);
  flexion_export_dialog_cancel (self);
  remember (self);
  g_clear_handle_id (&self->run_source, g_source_remove);
  g_clear_pointer (&self->runner, fx_runner_free);
  return GTK_WINDOW_CLASS (flexion_export_dialog_parent_class)->close_request (window);
}

static void
flexion_export_dialog_finalize (GObject *object)
{
  FlexionExportDialog *self = FLEXION_EXPORT_DIALOG (object);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_handle_id (&self->run_source, g_source_remove);
  g_clear_pointer (&self->runner, fx_runner_free);
  g_clear_object (&self->run_then_file);
  g_clear_object (&self->settings);
  fx_model_free (self->model);
  fx_series_free (self->series);
  g_clear_pointer (&self->frame, fx_step_frame_unref);
  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  g_free (self->title);
  G_OBJECT_CLASS (flexion_export_dialog_parent_class)->finalize (object);
}

static void
flexion_export_dialog_class_init (FlexionExportDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flexion_export_dialog_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = flexion_export_dialog_close_request;
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_STRING);
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static GtkWidget *
button (const char *label, const char *tooltip, GCallback cb, gpointer data)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);
  gtk_widget_add_css_class (b, "pill");
  gtk_widget_set_halign (b, GTK_ALIGN_END);
  gtk_widget_set_margin_top (b, 12);
  gtk_widget_set_tooltip_text (b, tooltip);
  g_signal_connect_swapped (b, "clicked", cb, data);
  return b;
}

static void
build (FlexionExportDialog *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Export"));
  gtk_window_set_default_size (GTK_WINDOW (self), 520, 720);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);
  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->toasts), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toasts));
  GtkWidget *page = adw_preferences_page_new ();
  adw_toast_overlay_set_child (self->toasts, page);
  adw_window_set_content (ADW_WINDOW (self), box);

  /* animation */
  AdwPreferencesGroup *anim = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (anim, _("Animation"));
  adw_preferences_group_set_description (anim, _("The model simulated from the start, drawn as on the canvas"));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), anim);
  const char *names[] = { _("GIF (loops, for slides and web pages)"), _("WebM video"), _("MP4 video"),
                          _("PNG frames (a folder)"), NULL };
  self->format_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->format_row), _("Format"));
  GtkStringList *list = gtk_string_list_new (names);
  adw_combo_row_set_model (self->format_row, G_LIST_MODEL (list));
  g_object_unref (list);
  g_signal_connect_swapped (self->format_row, "notify::selected", G_CALLBACK (update_format), self);
  adw_preferences_group_add (anim, GTK_WIDGET (self->format_row));
  self->width_spin = spin_row (anim, _("Width"), _("pixels"), 960, 16, 8192, 16, 0);
  self->height_spin = spin_row (anim, _("Height"), _("pixels"), 540, 16, 8192, 16, 0);
  self->fps_spin = spin_row (anim, _("Frame rate"), _("frames per second"), 30, 1, 120, 1, 0);
  self->from_spin = spin_row (anim, _("From"), _("s"), 0, 0, 1e6, 0.1, 3);
  self->until_spin = spin_row (anim, _("Until"), _("s"), self->model->t_end, 0.001, 1e6, 0.1, 3);
  self->colorbar_switch = flexion_switch_row (anim, _("Colour bar"), NULL, TRUE);
  self->time_switch = flexion_switch_row (anim, _("Time stamp"), NULL, TRUE);
  self->inset_switch = flexion_switch_row (anim, _("Energy plot inset"), NULL, FALSE);
  self->animation_button = button (_("Export _Animation…"), _("Choose a file and export the animation"),
                                   G_CALLBACK (on_animation_clicked), self);
  gtk_widget_add_css_class (self->animation_button, "suggested-action");
  adw_preferences_group_add (anim, self->animation_button);

  self->progress_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_top (self->progress_box, 12);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Export progress"), -1);
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_tooltip_text (self->cancel_button, _("Stop the export; no file is written"));
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (flexion_export_dialog_cancel), self);
  gtk_box_append (GTK_BOX (self->progress_box), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (self->progress_box), self->cancel_button);
  gtk_widget_set_visible (self->progress_box, FALSE);
  adw_preferences_group_add (anim, self->progress_box);

  /* plots */
  AdwPreferencesGroup *plots = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (plots, _("Plots"));
  adw_preferences_group_set_description (plots, _("Of the current run: PNG, SVG or PDF by the file name, or the data as CSV"));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), plots);
  const char *kinds[] = { _("Energy"), _("Balance residual"), _("Newton iterations"),
                          _("Probe trajectories"), _("Energy data (CSV)"), _("Probe positions (CSV)"), NULL };
  self->plot_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->plot_row), _("Plot"));
  list = gtk_string_list_new (kinds);
  adw_combo_row_set_model (self->plot_row, G_LIST_MODEL (list));
  g_object_unref (list);
  adw_preferences_group_add (plots, GTK_WIDGET (self->plot_row));
  self->plot_button = button (_("Export _Plot…"), _("Choose a file and export the plot"),
                              G_CALLBACK (on_plot_clicked), self);
  adw_preferences_group_add (plots, self->plot_button);

  /* picture */
  AdwPreferencesGroup *pic = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (pic, _("Picture"));
  adw_preferences_group_set_description (pic, _("The mechanism as shown now, with its colour bar: PNG, or SVG and PDF as vector graphics"));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), pic);
  adw_preferences_group_add (pic, button (_("Export P_icture…"), _("Choose a file and export the picture"),
                                          G_CALLBACK (on_picture_clicked), self));
  /* room under the last button for the toasts, which would cover it */
  GtkWidget *room = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_size_request (room, -1, 72);
  AdwPreferencesGroup *tail = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_add (tail, room);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), tail);
  recall (self);
  update_plot_button (self);
  update_format (self);
}

static void
flexion_export_dialog_init (FlexionExportDialog *self)
{
}

void
flexion_export_dialog_set_recorded (FlexionExportDialog *self, GPtrArray *frames)
{
  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  self->recorded = frames ? g_ptr_array_ref (frames) : NULL;
}

void
flexion_export_dialog_set_deflection_scale (FlexionExportDialog *self, double scale)
{
  self->deflection = scale > 0 ? CLAMP (scale, 1, 1000) : 0;
}

GtkWidget *
flexion_export_dialog_new (GtkWindow *parent, FxDocument *doc, const FxSeries *series,
                           FxStepFrame *frame, const FxSceneStyle *style)
{
  FlexionExportDialog *self = g_object_new (FLEXION_TYPE_EXPORT_DIALOG, "transient-for", parent,
                                            "modal", TRUE, NULL);
  self->model = fx_model_copy (fx_document_get_model (doc));
  self->title = fx_document_dup_title (doc);
  self->series = fx_series_copy (series);
  self->frame = frame ? fx_step_frame_ref (frame) : NULL;
  self->style = *style;
  self->deflection = style->deflection_scale > 0 ? style->deflection_scale : 1;
  GApplication *app = parent ? G_APPLICATION (gtk_window_get_application (parent)) : NULL;
  GSettings *settings = FLEXION_IS_APPLICATION (app) ? flexion_application_get_settings (FLEXION_APPLICATION (app)) : NULL;
  self->settings = settings ? g_object_ref (settings) : NULL;
  build (self);
  return GTK_WIDGET (self);
}
