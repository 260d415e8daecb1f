/* flexion-ensemble-view.c: the Ensemble toggle and its statistics panel. */
#include "flexion-ensemble-view.h"
#include "fx-ensemble.h"
#include "fx-ensemble-plot.h"
#include "flexion-canvas.h"

#include <glib/gi18n.h>
#include <string.h>

/* One computation: owned by its GTask thread and the UI, freed by the last. */
typedef struct {
  gint ref;
  gint cancel;  /* atomic: the UI no longer wants it */
  gint done;    /* atomic: samples finished          */
  guint total;
  FxModel *model;
} Job;

static Job *
job_ref (Job *job)
{
  g_atomic_int_inc (&job->ref);
  return job;
}

static void
job_unref (Job *job)
{
  if (job && g_atomic_int_dec_and_test (&job->ref))
    {
      fx_model_free (job->model);
      g_free (job);
    }
}

typedef struct {
  FlexionWindow *window;   /* weak: the window owns the toggle */
  GtkWidget *toggle;
  GtkWidget *panel;        /* AdwWindow, transient for the window */
  GtkWidget *energy, *probes, *progress, *status, *samples, *export_button;
  FxEnsemble *ensemble;
  Job *job;                /* the running computation, or NULL */
  guint poll;              /* progress timeout */
  gboolean following;       /* connected to the simulation's frames */
  GtkWidget *canvas;         /* weak: where the sample trails are drawn */
} Ui;

static Ui *
ui_of (GtkWidget *toggle)
{
  return g_object_get_data (G_OBJECT (toggle), "flexion-ensemble-ui");
}

static double
now (Ui *ui)
{
  FlexionSimulation *sim = ui->window ? flexion_window_get_simulation (ui->window) : NULL;
  return sim ? flexion_simulation_get_time (sim) : -1;
}

static void
draw_plot (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  Ui *ui = data;
  FxPlotStyle style;
  FxEnsemblePlotKind kind = GTK_WIDGET (area) == ui->energy ? FX_ENSEMBLE_PLOT_ENERGY
                                                            : FX_ENSEMBLE_PLOT_PROBES;

  fx_plot_style_init (&style);
  style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  fx_ensemble_plot_draw (cr, kind, ui->ensemble, now (ui), &style, w, h);
}

static void
redraw (Ui *ui)
{
  if (ui->panel)
    {
      gtk_widget_queue_draw (ui->energy);
      gtk_widget_queue_draw (ui->probes);
    }
}

/* The other samples' probe trails, faint, over the running mechanism
 * (which is sample 0: the same seed and sample index). */
static void
draw_trails (cairo_t *cr, const FxView *view, double t, gpointer data)
{
  Ui *ui = data;

  fx_ensemble_draw_trails (cr, ui->ensemble, view, t,
                           adw_style_manager_get_dark (adw_style_manager_get_default ()));
}

static void
show_trails (Ui *ui, gboolean on)
{
  if (ui->canvas == NULL && on && ui->window)
    {
      ui->canvas = flexion_window_get_canvas (ui->window);
      g_object_add_weak_pointer (G_OBJECT (ui->canvas), (gpointer *) &ui->canvas);
    }
  if (ui->canvas)
    flexion_canvas_set_overlay (FLEXION_CANVAS (ui->canvas), on ? draw_trails : NULL, ui);
}

/* ------------------------------------------------------------ computing */

static void
on_progress (guint done, guint total, gpointer data)
{
  g_atomic_int_set (&((Job *) data)->done, (gint) done);
}

static void
compute (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  FxEnsembleOptions o;
  GError *error = NULL;

  fx_ensemble_options_init (&o, job->model);
  o.n_samples = job->total;
  o.keep = job->total;
  /* leave one core to the window, so that it keeps drawing */
  o.threads = MAX (1u, g_get_num_processors () - 1);
  o.nice = 19;  /* background work: the window and the main run come first */
  o.progress = on_progress;
  o.progress_data = job;
  o.cancel = &job->cancel;
  FxEnsemble *e = fx_ensemble_run (job->model, &o, &error);
  if (e == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, e, (GDestroyNotify) fx_ensemble_free);
}

static void
set_status (Ui *ui, const char *text)
{
  if (ui->panel)
    gtk_label_set_text (GTK_LABEL (ui->status), text);
}

static gboolean
poll_progress (gpointer data)
{
  Ui *ui = data;

  if (ui->job && ui->panel)
    gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (ui->progress),
                                   (double) g_atomic_int_get (&ui->job->done) / ui->job->total);
  return G_SOURCE_CONTINUE;
}

static void
stop (Ui *ui)
{
  if (ui->job)
    {
      g_atomic_int_set (&ui->job->cancel, 1);
      g_clear_pointer (&ui->job, job_unref);
    }
  g_clear_handle_id (&ui->poll, g_source_remove);
}

static void
computed (GObject *source, GAsyncResult *result, gpointer data)
{
  Job *job = data;
  GtkWidget *toggle = GTK_WIDGET (source);
  Ui *ui = ui_of (toggle);
  g_autoptr (GError) error = NULL;
  FxEnsemble *e = g_task_propagate_pointer (G_TASK (result), &error);

  if (ui == NULL || ui->job != job || g_atomic_int_get (&job->cancel))
    {
      /* stopped or replaced meanwhile: drop it */
      fx_ensemble_free (e);
      job_unref (job);
      return;
    }
  stop (ui);
  job_unref (job);
  if (e == NULL)
    {
      set_status (ui, error->message);
      return;
    }
  g_clear_pointer (&ui->ensemble, fx_ensemble_free);
  ui->ensemble = e;
  if (ui->panel == NULL)
    return;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (ui->progress), 1.0);
  g_autofree char *text = fx_ensemble_n_failed (e) == 0
    ? g_strdup_printf (_("%u samples; every step balances energy to %.1g of its scale"),
                       fx_ensemble_n_ok (e), MAX (fx_ensemble_worst_balance (e), 1e-16))
    : g_strdup_printf (_("%u samples, %u failed and left out (first: sample %u at t = %.4g s)"),
                       fx_ensemble_n_ok (e), fx_ensemble_n_failed (e),
                       fx_ensemble_failure (e, 0)->sample, fx_ensemble_failure (e, 0)->t);
  set_status (ui, text);
  gtk_widget_set_sensitive (ui->export_button, TRUE);
  show_trails (ui, TRUE);
  redraw (ui);
}

static void
start (Ui *ui)
{
  FxDocument *doc = flexion_window_get_document (ui->window);
  Job *job = g_new0 (Job, 1);

  stop (ui);
  show_trails (ui, FALSE);  /* they would be the previous model's */
  job->ref = 1;
  job->total = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (ui->samples));
  job->model = fx_model_copy (fx_document_get_model (doc));
  ui->job = job;
  gtk_widget_set_sensitive (ui->export_button, FALSE);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (ui->progress), 0.0);
  set_status (ui, fx_model_has_noise (job->model)
                    ? _("Computing the samples in the background\u2026")
                    : _("This model has no noisy load: every sample is the same run"));
  ui->poll = g_timeout_add (100, poll_progress, ui);

  GTask *task = g_task_new (ui->toggle, NULL, computed, job_ref (job));
  g_task_set_task_data (task, job_ref (job), (GDestroyNotify) job_unref);
  g_task_run_in_thread (task, compute);
  g_object_unref (task);
}

/* ------------------------------------------------------------ export */

gboolean
flexion_ensemble_toggle_export (GtkWidget *toggle, const char *csv_path, GError **error)
{
  Ui *ui = ui_of (toggle);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (ui == NULL || ui->ensemble == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The ensemble has not finished yet"));
      return FALSE;
    }
  g_autofree char *stem = g_str_has_suffix (csv_path, ".csv")
                            ? g_strndup (csv_path, strlen (csv_path) - 4) : g_strdup (csv_path);
  g_autofree char *energy = g_strconcat (stem, "-energy.png", NULL);
  g_autofree char *probes = g_strconcat (stem, "-probes.png", NULL);
  return fx_ensemble_write_stats (ui->ensemble, csv_path, error)
         && fx_ensemble_plot_write_png (FX_ENSEMBLE_PLOT_ENERGY, ui->ensemble, dark, 960, 540,
                                        energy, error)
         && fx_ensemble_plot_write_png (FX_ENSEMBLE_PLOT_PROBES, ui->ensemble, dark, 960, 540,
                                        probes, error);
}

static void
on_export_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  Ui *ui = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path && flexion_ensemble_toggle_export (ui->toggle, path, &error))
        {
          g_autofree char *msg = g_strdup_printf (_("Exported %s and its two plots"), path);
          flexion_window_toast (ui->window, msg);
        }
      else if (error)
        flexion_window_toast (ui->window, error->message);
    }
  g_object_unref (dialog);
}

static void
on_export (GtkButton *button, Ui *ui)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (
    _("Export Ensemble Statistics"), GTK_WINDOW (ui->panel), GTK_FILE_CHOOSER_ACTION_SAVE,
    _("_Export"), _("_Cancel"));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "ensemble.csv");
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), ui);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ------------------------------------------------------------ panel */

static gboolean
on_panel_close (GtkWindow *panel, Ui *ui)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (ui->toggle), FALSE);
  return TRUE;  /* hidden by the toggle, kept for the next time */
}

static GtkWidget *
plot_area (Ui *ui)
{
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_plot, ui, NULL);
  gtk_widget_set_size_request (area, 360, 220);
  gtk_widget_set_hexpand (area, TRUE);
  gtk_widget_set_vexpand (area, TRUE);
  return area;
}

static void
build_panel (Ui *ui)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *recompute = gtk_button_new_with_mnemonic (_("_Recompute"));

  ui->panel = adw_window_new ();
  gtk_window_set_title (GTK_WINDOW (ui->panel), _("Ensemble"));
  gtk_window_set_transient_for (GTK_WINDOW (ui->panel), GTK_WINDOW (ui->window));
  gtk_window_set_default_size (GTK_WINDOW (ui->panel), 640, 620);
  gtk_window_set_hide_on_close (GTK_WINDOW (ui->panel), TRUE);
  g_signal_connect (ui->panel, "close-request", G_CALLBACK (on_panel_close), ui);

  ui->samples = gtk_spin_button_new_with_range (2, 2000, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (ui->samples), FLEXION_ENSEMBLE_DEFAULT_SAMPLES);
  gtk_widget_set_tooltip_text (ui->samples, _("Number of samples"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (ui->samples), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Number of samples"), -1);
  g_signal_connect_swapped (recompute, "clicked", G_CALLBACK (start), ui);
  ui->export_button = gtk_button_new_with_mnemonic (_("_Export\u2026"));
  gtk_widget_set_tooltip_text (ui->export_button,
                               _("Write the statistics CSV and the two plots as PNG"));
  g_signal_connect (ui->export_button, "clicked", G_CALLBACK (on_export), ui);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), ui->samples);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), recompute);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), ui->export_button);

  ui->progress = gtk_progress_bar_new ();
  ui->status = gtk_label_new ("");
  gtk_label_set_wrap (GTK_LABEL (ui->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (ui->status), 0);
  gtk_widget_add_css_class (ui->status, "dim-label");
  gtk_box_append (GTK_BOX (controls), ui->status);
  gtk_widget_set_margin_start (controls, 12);
  gtk_widget_set_margin_end (controls, 12);
  gtk_widget_set_margin_top (controls, 6);
  gtk_widget_set_margin_bottom (controls, 6);

  ui->energy = plot_area (ui);
  ui->probes = plot_area (ui);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), ui->progress);
  gtk_box_append (GTK_BOX (box), controls);
  gtk_box_append (GTK_BOX (box), ui->energy);
  gtk_box_append (GTK_BOX (box), ui->probes);
  adw_window_set_content (ADW_WINDOW (ui->panel), box);
  /* Space, Ctrl+R... act on the mechanism from the panel too */
  flexion_window_share_keys (ui->window, GTK_WINDOW (ui->panel));
}

/* ------------------------------------------------------------ toggle */

/* The plots follow the main run's time: Play, Step, Reset and the
 * timeline move their cursor and the probes' positions. */
static void
on_frame (FlexionSimulation *sim, GtkWidget *toggle)
{
  Ui *ui = ui_of (toggle);

  if (ui && ui->ensemble && ui->panel && gtk_widget_get_visible (ui->panel))
    redraw (ui);
}

static void
on_toggled (GtkToggleButton *button, Ui *ui)
{
  if (gtk_toggle_button_get_active (button))
    {
      if (ui->panel == NULL)
        build_panel (ui);
      if (!ui->following)
        g_signal_connect_object (flexion_window_get_simulation (ui->window), "frame",
                                 G_CALLBACK (on_frame), ui->toggle, 0);
      ui->following = TRUE;
      /* the panel opens beside the window without taking the keyboard:
       * no field focused (Space would erase the sample count), and its
       * keys act on the window (flexion_window_share_keys) */
      gtk_window_present (GTK_WINDOW (ui->panel));
      gtk_window_set_focus (GTK_WINDOW (ui->panel), NULL);
      start (ui);
    }
  else
    {
      stop (ui);
      show_trails (ui, FALSE);
      if (ui->panel)
        gtk_widget_set_visible (ui->panel, FALSE);
    }
}

/* The window goes: stop computing, close the panel, forget the window
 * (a finishing task may still hold the toggle). */
static void
on_toggle_destroy (GtkWidget *toggle, Ui *ui)
{
  stop (ui);
  show_trails (ui, FALSE);
  if (ui->canvas)
    g_object_remove_weak_pointer (G_OBJECT (ui->canvas), (gpointer *) &ui->canvas);
  ui->canvas = NULL;
  if (ui->panel)
    gtk_window_destroy (GTK_WINDOW (ui->panel));
  ui->panel = NULL;
  ui->window = NULL;
}

static void
ui_free (gpointer data)
{
  Ui *ui = data;

  stop (ui);
  g_clear_pointer (&ui->ensemble, fx_ensemble_free);
  if (ui->panel)
    gtk_window_destroy (GTK_WINDOW (ui->panel));
  g_free (ui);
}

GtkWidget *
flexion_ensemble_toggle_new (FlexionWindow *window)
{
  Ui *ui = g_new0 (Ui, 1);

  ui->window = window;
  /* an icon (random paths) keeps the simulation bar as narrow as before */
  ui->toggle = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (ui->toggle), "media-playlist-shuffle-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (ui->toggle), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Ensemble"), -1);
  gtk_widget_set_tooltip_text (ui->toggle,
                               _("Run 20 noisy samples in the background and show their mean, "
                                 "5\u201395 % band and paths"));
  gtk_widget_add_css_class (ui->toggle, "flat");
  gtk_widget_set_valign (ui->toggle, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (ui->toggle), "flexion-ensemble-ui", ui, ui_free);
  g_signal_connect (ui->toggle, "toggled", G_CALLBACK (on_toggled), ui);
  g_signal_connect (ui->toggle, "destroy", G_CALLBACK (on_toggle_destroy), ui);
  return ui->toggle;
}

void
flexion_ensemble_toggle_attach (FlexionWindow *window, GtkWidget *play_button)
{
  GtkWidget *parent = gtk_widget_get_parent (play_button);
  GtkWidget *toggle = flexion_ensemble_toggle_new (window);

  gtk_widget_set_name (toggle, "ensemble_toggle");
  if (GTK_IS_BOX (parent))
    gtk_box_insert_child_after (GTK_BOX (parent), toggle, play_button);
  else
    {
      GtkWidget *bar = gtk_widget_get_ancestor (play_button, GTK_TYPE_ACTION_BAR);
      g_return_if_fail (bar != NULL);
      gtk_action_bar_pack_start (GTK_ACTION_BAR (bar), toggle);
    }
}

GtkWidget *
flexion_ensemble_toggle_get_panel (GtkWidget *toggle)
{
  return ui_of (toggle)->panel;
}

const FxEnsemble *
flexion_ensemble_toggle_get_ensemble (GtkWidget *toggle)
{
  Ui *ui = ui_of (toggle);
  return ui->job ? NULL : ui->ensemble;
}

gboolean
flexion_ensemble_toggle_is_running (GtkWidget *toggle)
{
  return ui_of (toggle)->job != NULL;
}
