/* flexion-modes-panel.c: the Modes panel (see flexion-modes-panel.h). */
#define _GNU_SOURCE  /* syscall (SYS_gettid): a thread's own priority */
#include "flexion-modes-panel.h"
#include "fx-export.h"
#include "fx-deflection.h"
#include "fx-conflicts.h"

#include <glib/gi18n.h>
#include <math.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Edits come in bursts (a drag moves a joint many times): wait this long
 * after the last one. A new document is computed at once. */
#define RECOMPUTE_DELAY_MS 300
/* Vibration modes listed. */
#define MAX_VIBRATIONS 20
/* One animation cycle, whatever the frequency: 13.7 Hz is not watchable. */
#define CYCLE_SECONDS 1.6
/* Displacement amplitude as a fraction of the model's size. */
#define AMPLITUDE_FRACTION 0.08

struct _FlexionModesPanel {
  AdwBin parent_instance;

  GtkWidget *spinner, *back_button, *animation_button, *save_button, *summary_label, *list;

  FxDocument *doc;
  FlexionCanvas *canvas;
  FlexionSimulation *sim;

  FxModel *modes_model;   /* the model the modes belong to  */
  FxModes *modes;
  char *summary;
  guint generation;       /* drops results of older models  */
  gboolean running;       /* a computation is under way      */
  gboolean pending;       /* another one is due after it     */
  gboolean stopped;       /* out of the window: no more      */
  guint recompute_id;

  int shown;              /* index into modes->modes, -1: none */
  GtkWidget *kernel_row;  /* "mobility 0 · 16 self-stress states", or NULL */
  gboolean kernel_open;   /* its motions and self-stress rows shown */
  guint tick_id;
  gint64 t0;
};

G_DEFINE_FINAL_TYPE (FlexionModesPanel, flexion_modes_panel, ADW_TYPE_BIN)

enum { COMPUTED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- the shape on the canvas ---- */

static void
draw_shown (FlexionModesPanel *self, double phase)
{
  if (self->canvas == NULL || self->modes == NULL || self->shown < 0)
    return;
  const FxMode *m = &self->modes->modes[self->shown];
  g_autofree char *label = fx_mode_label (self->modes, m);
  double amplitude = AMPLITUDE_FRACTION * MAX (self->modes->size, 1e-9);
  g_autoptr (FxStepFrame) frame = fx_modes_frame (self->modes, self->modes_model, (guint) self->shown,
                                                  phase, amplitude);
  fx_mode_frame_smooth_angles (frame);
  flexion_canvas_set_mode_frame (self->canvas, frame, label);
}

static gboolean
on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  FlexionModesPanel *self = FLEXION_MODES_PANEL (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  if (self->t0 == 0)
    self->t0 = now;
  draw_shown (self, fmod ((now - self->t0) / 1e6 / CYCLE_SECONDS, 1.0));
  return G_SOURCE_CONTINUE;
}

static void
stop_animation (FlexionModesPanel *self)
{
  if (self->tick_id)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
  self->tick_id = 0;
  self->t0 = 0;
}

/* Rows carry their mode's index + 1 ("mode"); the kernel's summary row
 * carries none. The list shows vibrations first, then the kernel. */
static int
mode_of_row (GtkListBoxRow *row)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "mode")) - 1;
}

static GtkListBoxRow *
row_of_mode (FlexionModesPanel *self, int index)
{
  for (GtkWidget *c = gtk_widget_get_first_child (self->list); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_BOX_ROW (c) && mode_of_row (GTK_LIST_BOX_ROW (c)) == index)
      return GTK_LIST_BOX_ROW (c);
  return NULL;
}

static void set_kernel_open (FlexionModesPanel *self, gboolean open);

void
flexion_modes_panel_show_mode (FlexionModesPanel *self, int index)
{
  g_return_if_fail (FLEXION_IS_MODES_PANEL (self));
  if (self->modes == NULL || index >= (int) self->modes->n_modes)
    index = -1;
  self->shown = index;
  gtk_widget_set_visible (self->back_button, index >= 0);
  gtk_widget_set_visible (self->animation_button, index >= 0);
  if (index < 0)
    {
      stop_animation (self);
      gtk_list_box_unselect_all (GTK_LIST_BOX (self->list));
      if (self->canvas)
        flexion_canvas_set_mode_frame (self->canvas, NULL, NULL);
      return;
    }
  GtkListBoxRow *row = row_of_mode (self, index);
  if (row && !gtk_widget_get_visible (GTK_WIDGET (row)))
    set_kernel_open (self, TRUE);
  if (row && !gtk_list_box_row_is_selected (row))
    gtk_list_box_select_row (GTK_LIST_BOX (self->list), row);
  draw_shown (self, 0.25);  /* at once, at full amplitude */
  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, NULL, NULL);
}

int
flexion_modes_panel_get_shown_mode (FlexionModesPanel *self)
{
  return self->shown;
}

static void
on_row_selected (GtkListBox *list, GtkListBoxRow *row, FlexionModesPanel *self)
{
  int index = row ? mode_of_row (row) : -1;
  if (index != self->shown && index >= 0)
    flexion_modes_panel_show_mode (self, index);
}

/* ---- the list ---- */

static void
set_summary (FlexionModesPanel *self, const char *text)
{
  g_free (self->summary);
  self->summary = g_strdup (text);
  gtk_label_set_text (GTK_LABEL (self->summary_label), text);
  /* a long one is cut to a few lines (so it cannot widen the window past
   * the inspector); the whole of it in the tooltip */
  gtk_widget_set_tooltip_text (self->summary_label, text);
}

static GtkWidget *
mode_row (const FxModes *modes, const FxMode *m)
{
  g_autofree char *text = fx_mode_label (modes, m);
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (label, text);
  gtk_widget_add_css_class (label, "numeric");
  if (m->kind == FX_MODE_SELF_STRESS)
    gtk_widget_set_tooltip_text (label, _("Stresses in equilibrium with no load: drawn by their bending moment"));
  else if (m->kind == FX_MODE_MOTION)
    gtk_widget_set_tooltip_text (label, _("A motion that strains nothing (zero frequency)"));
  return label;
}

/* The kernel's summary row: "mobility 0 · 16 self-stress states", which
 * opens to list them (issue 23.8: a truss listed 16 of them before any
 * frequency). */
static GtkWidget *
kernel_summary_row (const FxModes *modes)
{
  g_autofree char *states = g_strdup_printf (g_dngettext (NULL, "%u self-stress state",
                                                          "%u self-stress states", modes->indeterminacy),
                                             modes->indeterminacy);
  g_autofree char *text = g_strdup_printf (_("mobility %u · %s"), modes->mobility, states);
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* wraps rather than widening the panel (and the window past 1280 px) */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "dim-label");
  /* wraps rather than widening the panel (the window fits 1280 px) */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_tooltip_text (row, _("Motions and self-stress states: click to show or hide them"));
  return row;
}

static gboolean
is_kernel (const FxMode *m)
{
  return m->kind == FX_MODE_MOTION || m->kind == FX_MODE_SELF_STRESS;
}

static void
set_kernel_open (FlexionModesPanel *self, gboolean open)
{
  self->kernel_open = open;
  for (GtkWidget *c = gtk_widget_get_first_child (self->list); c; c = gtk_widget_get_next_sibling (c))
    {
      int index = GTK_IS_LIST_BOX_ROW (c) ? mode_of_row (GTK_LIST_BOX_ROW (c)) : -1;
      if (index >= 0 && is_kernel (&self->modes->modes[index]))
        gtk_widget_set_visible (c, open);
    }
}

static void
append_mode_row (FlexionModesPanel *self, guint i)
{
  GtkWidget *row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), mode_row (self->modes, &self->modes->modes[i]));
  g_object_set_data (G_OBJECT (row), "mode", GINT_TO_POINTER ((int) i + 1));
  gtk_list_box_append (GTK_LIST_BOX (self->list), row);
}

static void
rebuild_list (FlexionModesPanel *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (self->list)))
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  self->kernel_row = NULL;
  gtk_widget_set_sensitive (self->save_button, self->modes != NULL);
  if (self->modes == NULL)
    return;
  guint n_vib = fx_modes_count (self->modes, FX_MODE_VIBRATION)
                + fx_modes_count (self->modes, FX_MODE_REGULARISATION);
  guint n_kernel = self->modes->n_modes - n_vib;
  /* vibrations, then regularisation modes (the core's order) */
  for (guint i = 0; i < self->modes->n_modes; i++)
    if (!is_kernel (&self->modes->modes[i]))
      append_mode_row (self, i);
  if (n_kernel == 0)
    return;
  self->kernel_row = kernel_summary_row (self->modes);
  gtk_list_box_append (GTK_LIST_BOX (self->list), self->kernel_row);
  for (guint i = 0; i < self->modes->n_modes; i++)
    if (is_kernel (&self->modes->modes[i]))
      append_mode_row (self, i);
  /* a few (a mechanism's motions) are listed open; many, or nothing
   * else to list, too */
  set_kernel_open (self, n_kernel <= 3 || n_vib == 0);
}

static void
on_row_activated (GtkListBox *list, GtkListBoxRow *row, FlexionModesPanel *self)
{
  if (GTK_WIDGET (row) == self->kernel_row)
    set_kernel_open (self, !self->kernel_open);
}

/* ---- computing, off the UI thread ---- */

/* One computation, in its own thread at a lower priority: the solver and
 * the frame clock come first on a busy machine. */
typedef struct {
  FlexionModesPanel *self;  /* a reference */
  FxModel *model;
  guint generation;
  FxModes *modes;
  GError *error;
} Job;

static void start_task (FlexionModesPanel *self);

/* One computation at a time: a dense solve cannot be interrupted, so edits
 * made meanwhile wait for it and then start one more, on the newest model. */
static gboolean
deliver (gpointer data)
{
  Job *job = data;
  FlexionModesPanel *self = job->self;
  self->running = FALSE;
  if (job->generation != self->generation)
    {
      g_clear_pointer (&job->modes, fx_modes_free);
      if (self->pending)
        start_task (self);
    }
  else
    {
      gtk_spinner_stop (GTK_SPINNER (self->spinner));
      self->modes = g_steal_pointer (&job->modes);
      if (self->modes)
        {
          g_autofree char *summary = fx_modes_summary (self->modes);
          set_summary (self, summary);
        }
      else
        {
          /* in plain words: the JSON paths are for the command line */
          g_autofree char *plain = fx_conflict_plain_message (job->model, job->error->message);
          set_summary (self, plain);
        }
      rebuild_list (self);
      g_signal_emit (self, signals[COMPUTED], 0);
    }
  g_clear_error (&job->error);
  fx_model_free (job->model);
  g_object_unref (job->self);
  g_free (job);
  return G_SOURCE_REMOVE;
}

static gpointer
compute_thread (gpointer data)
{
  Job *job = data;
#ifdef __linux__
  /* nice 10 for this thread only (it ends with the job) */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10);
#endif
  job->modes = fx_modes_compute (job->model, MAX_VIBRATIONS, &job->error);
  /* At default priority, above GDK's redraw (issue 23.1): while the job
   * runs the spinner animates, and a software GL renderer under Xvfb paints
   * a 1280x800 window in ~100 ms, so frames follow each other with < 1 ms
   * between them and a default-idle source never ran: the spinner turned
   * forever. Measured: 48 frames in 5 s and the result never delivered with
   * GSK_RENDERER=gl; 2 frames and delivered at once with cairo. */
  g_idle_add_full (G_PRIORITY_DEFAULT, deliver, job, NULL);
  return NULL;
}

static void
start_task (FlexionModesPanel *self)
{
  self->pending = FALSE;
  if (self->stopped || self->doc == NULL)
    return;
  g_clear_pointer (&self->modes_model, fx_model_free);
  self->modes_model = fx_model_copy (fx_document_get_model (self->doc));
  Job *job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->model = fx_model_copy (self->modes_model);
  job->generation = self->generation;
  self->running = TRUE;
  gtk_spinner_start (GTK_SPINNER (self->spinner));
  g_thread_unref (g_thread_new ("flexion-modes", compute_thread, job));
}

static void
compute (FlexionModesPanel *self)
{
  self->recompute_id = 0;
  flexion_modes_panel_show_mode (self, -1);
  g_clear_pointer (&self->modes, fx_modes_free);
  rebuild_list (self);
  self->generation++;
  set_summary (self, "");
  if (self->doc == NULL || fx_document_get_model (self->doc)->links->len == 0)
    {
      self->pending = FALSE;
      gtk_spinner_stop (GTK_SPINNER (self->spinner));
      g_signal_emit (self, signals[COMPUTED], 0);
      return;
    }
  if (self->running)
    self->pending = TRUE;  /* after the one under way */
  else
    start_task (self);
}

static gboolean
compute_later (gpointer data)
{
  compute (data);
  return G_SOURCE_REMOVE;
}

static void
on_doc_changed (FlexionModesPanel *self)
{
  /* the modes no longer match the drawing: leave and forget them at once */
  flexion_modes_panel_show_mode (self, -1);
  g_clear_pointer (&self->modes, fx_modes_free);
  rebuild_list (self);
  self->generation++;
  set_summary (self, "");
  gtk_spinner_start (GTK_SPINNER (self->spinner));
  if (self->recompute_id)
    g_source_remove (self->recompute_id);
  self->recompute_id = g_timeout_add (RECOMPUTE_DELAY_MS, compute_later, self);
}

void
flexion_modes_panel_set_document (FlexionModesPanel *self, FxDocument *doc)
{
  g_return_if_fail (FLEXION_IS_MODES_PANEL (self));
  if (self->doc)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  g_set_object (&self->doc, doc);
  if (doc)
    g_signal_connect_swapped (doc, "changed", G_CALLBACK (on_doc_changed), self);
  if (self->recompute_id)
    g_source_remove (self->recompute_id);
  self->recompute_id = 0;
  compute (self);
}

void
flexion_modes_panel_set_canvas (FlexionModesPanel *self, FlexionCanvas *canvas)
{
  g_return_if_fail (FLEXION_IS_MODES_PANEL (self));
  self->canvas = canvas;  /* a sibling in the same window: outlives the panel's use */
}

static void
on_playing (FlexionModesPanel *self)
{
  if (self->sim && flexion_simulation_get_playing (self->sim))
    flexion_modes_panel_show_mode (self, -1);
}

void
flexion_modes_panel_set_simulation (FlexionModesPanel *self, FlexionSimulation *sim)
{
  g_return_if_fail (FLEXION_IS_MODES_PANEL (self));
  if (self->sim)
    g_signal_handlers_disconnect_by_data (self->sim, self);
  g_set_object (&self->sim, sim);
  if (sim)
    g_signal_connect_swapped (sim, "notify::playing", G_CALLBACK (on_playing), self);
}

const FxModes *
flexion_modes_panel_get_modes (FlexionModesPanel *self)
{
  return self->modes;
}

const char *
flexion_modes_panel_get_summary (FlexionModesPanel *self)
{
  return self->summary ? self->summary : "";
}

gboolean
flexion_modes_panel_save_table (FlexionModesPanel *self, const char *path, GError **error)
{
  if (self->modes == NULL)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED, _("No modes to save"));
      return FALSE;
    }
  return fx_modes_write_csv (self->modes, self->modes_model, path, error);
}

/* ---- saving the table ---- */

static void
on_save_response (GtkNativeDialog *dialog, int response, FlexionModesPanel *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;
      if (path && !flexion_modes_panel_save_table (self, path, &error))
        {
          GtkWidget *w = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
          if (w)
            adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (w), adw_toast_new (error->message));
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
on_save_clicked (FlexionModesPanel *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Save Frequency Table"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "modes.csv");
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---- saving the shown mode's animation (in a worker thread) ---- */

typedef struct {
  FxModel *model;
  GPtrArray *frames;
  char *path;
  char *label;  /* "mode 1 · 45.3 Hz", drawn in the corner */
} AnimationJob;

static void
animation_job_free (AnimationJob *job)
{
  fx_model_free (job->model);
  g_ptr_array_unref (job->frames);
  g_free (job->path);
  g_free (job->label);
  g_free (job);
}

static void
animation_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  AnimationJob *job = data;
  FxAnimationOptions options;
  GError *error = NULL;
  fx_animation_options_init (&options);
  options.fps = 24;
  options.colorbar = FALSE;
  options.time_stamp = TRUE;
  options.label = job->label;
  options.show_initial = TRUE;
  if (fx_export_frames (job->model, job->frames, job->path, fx_animation_format_for_path (job->path),
                        &options, NULL, NULL, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
toast (FlexionModesPanel *self, const char *text)
{
  GtkWidget *w = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  if (w)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (w), adw_toast_new (text));
}

static void
on_animation_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  FlexionModesPanel *self = FLEXION_MODES_PANEL (source);
  g_autoptr (GError) error = NULL;
  AnimationJob *job = g_task_get_task_data (G_TASK (result));
  g_autofree char *base = g_path_get_basename (job->path);
  g_autofree char *text = g_task_propagate_boolean (G_TASK (result), &error)
    ? g_strdup_printf (_("Saved %s"), base) : g_strdup (error->message);
  if (gtk_widget_get_root (GTK_WIDGET (self)))
    toast (self, text);
}

static void
on_animation_response (GtkNativeDialog *dialog, int response, FlexionModesPanel *self)
{
  g_autoptr (GFile) file = response == GTK_RESPONSE_ACCEPT
    ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)) : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  if (path && self->modes && self->shown >= 0)
    {
      AnimationJob *job = g_new0 (AnimationJob, 1);
      job->model = fx_model_copy (self->modes_model);
      job->frames = fx_modes_cycle (self->modes, self->modes_model, (guint) self->shown, 48,
                                    1.25 * AMPLITUDE_FRACTION * MAX (self->modes->size, 1e-9));
      for (guint i = 0; i < job->frames->len; i++)
        fx_mode_frame_smooth_angles (job->frames->pdata[i]);
      job->path = g_steal_pointer (&path);
      job->label = fx_mode_label (self->modes, &self->modes->modes[self->shown]);
      GTask *task = g_task_new (self, NULL, on_animation_saved, NULL);
      g_task_set_task_data (task, job, (GDestroyNotify) animation_job_free);
      g_task_run_in_thread (task, animation_in_thread);
      g_object_unref (task);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
on_animation_clicked (FlexionModesPanel *self)
{
  if (self->modes == NULL || self->shown < 0)
    return;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Save Mode Animation"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  const FxMode *m = &self->modes->modes[self->shown];
  g_autofree char *name = g_strdup_printf ("%s-%u.gif", fx_mode_kind_to_string (m->kind), m->index);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (on_animation_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---- life cycle ---- */

static gboolean
on_key (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
        FlexionModesPanel *self)
{
  if (keyval != GDK_KEY_Escape || self->shown < 0)
    return FALSE;
  flexion_modes_panel_show_mode (self, -1);
  return TRUE;
}

static void
on_back (FlexionModesPanel *self)
{
  flexion_modes_panel_show_mode (self, -1);
}

/* Out of the window (closing): no more work, no more results. A running
 * task holds the panel alive until it ends; its result is then dropped. */
static void
stop_work (FlexionModesPanel *self)
{
  self->stopped = TRUE;
  self->pending = FALSE;
  self->generation++;
  if (self->recompute_id)
    g_source_remove (self->recompute_id);
  self->recompute_id = 0;
  stop_animation (self);
}

static void
flexion_modes_panel_unroot (GtkWidget *widget)
{
  stop_work (FLEXION_MODES_PANEL (widget));
  GTK_WIDGET_CLASS (flexion_modes_panel_parent_class)->unroot (widget);
}

static void
flexion_modes_panel_dispose (GObject *object)
{
  FlexionModesPanel *self = FLEXION_MODES_PANEL (object);
  stop_work (self);
  if (self->doc)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  if (self->sim)
    g_signal_handlers_disconnect_by_data (self->sim, self);
  g_clear_object (&self->doc);
  g_clear_object (&self->sim);
  g_clear_pointer (&self->modes, fx_modes_free);
  g_clear_pointer (&self->modes_model, fx_model_free);
  g_clear_pointer (&self->summary, g_free);
  G_OBJECT_CLASS (flexion_modes_panel_parent_class)->dispose (object);
}

static void
flexion_modes_panel_class_init (FlexionModesPanelClass *klass)
{
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = flexion_modes_panel_dispose;
  wc->unroot = flexion_modes_panel_unroot;
  gtk_widget_class_set_template_from_resource (wc, "/io/github/flexion/Flexion/flexion-modes-panel.ui");
  gtk_widget_class_bind_template_child (wc, FlexionModesPanel, spinner);
  gtk_widget_class_bind_template_child (wc, FlexionModesPanel, back_button);
  gtk_widget_class_bind_template_child (wc, FlexionModesPanel, save_button);
  gtk_widget_class_bind_template_child (wc, FlexionModesPanel, animation_button);
  gtk_widget_class_bind_template_child (wc, FlexionModesPanel, summary_label);
  gtk_widget_class_bind_template_child (wc, FlexionModesPanel, list);
  signals[COMPUTED] = g_signal_new ("computed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
flexion_modes_panel_init (FlexionModesPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->shown = -1;
  g_signal_connect (self->list, "row-selected", G_CALLBACK (on_row_selected), self);
  g_signal_connect (self->list, "row-activated", G_CALLBACK (on_row_activated), self);
  g_signal_connect_swapped (self->back_button, "clicked", G_CALLBACK (on_back), self);
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (on_save_clicked), self);
  g_signal_connect_swapped (self->animation_button, "clicked", G_CALLBACK (on_animation_clicked), self);
  GtkEventController *keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

GtkWidget *
flexion_modes_panel_new (void)
{
  return g_object_new (FLEXION_TYPE_MODES_PANEL, NULL);
}
