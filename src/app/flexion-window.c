/* flexion-window.c: the window: document, title, simulation bar, settings
 * and closing. Files are in flexion-window-files.c, actions in
 * flexion-window-actions.c, dropped files in flexion-window-dnd.c. */
#include "flexion-window-private.h"
#include "flexion-ensemble-view.h"
#include "flexion-canvas.h"
#include "flexion-inspector.h"
#include "flexion-modes-panel.h"
#include "flexion-plot-view.h"
#include "flexion-measure-view.h"
#include "flexion-gallery.h"
#include "flexion-export-dialog.h"
#include "flexion-rows.h"
#include "flexion-number-field.h"
#include "fx-conflicts.h"
#include "fx-model-io.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* struct _FlexionWindow is in flexion-window-private.h */

G_DEFINE_FINAL_TYPE (FlexionWindow, flexion_window, ADW_TYPE_APPLICATION_WINDOW)

/* ---- helpers ---- */

void
flexion_window_toast (FlexionWindow *self, const char *message)
{
  AdwToast *toast = flexion_toast_new (message, 6);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
action_set_enabled (FlexionWindow *self, const char *name, gboolean enabled)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  if (a)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (a), enabled);
}

/* ---- title, history, controls ---- */

static void
update_title (FlexionWindow *self)
{
  g_autofree char *title = fx_document_dup_title (self->doc);
  gboolean modified = fx_document_get_modified (self->doc);
  g_autofree char *shown = modified ? g_strdup_printf ("• %s", title) : g_strdup (title);
  adw_window_title_set_title (self->window_title, shown);
  GFile *file = fx_document_get_file (self->doc);
  g_autofree char *dir = NULL;
  if (file)
    {
      g_autoptr (GFile) parent = g_file_get_parent (file);
      dir = parent ? g_file_get_parse_name (parent) : NULL;
    }
  adw_window_title_set_subtitle (self->window_title, dir ? dir : (modified ? _("Unsaved") : ""));
  g_autofree char *wt = g_strdup_printf ("%s – Flexion", title);
  gtk_window_set_title (GTK_WINDOW (self), wt);
}

static void
update_history (FlexionWindow *self)
{
  action_set_enabled (self, "undo", fx_document_can_undo (self->doc));
  action_set_enabled (self, "redo", fx_document_can_redo (self->doc));
  const char *u = fx_document_undo_label (self->doc), *r = fx_document_redo_label (self->doc);
  g_autofree char *ut = u ? g_strdup_printf (_("Undo %s (Ctrl+Z)"), u) : g_strdup (_("Undo (Ctrl+Z)"));
  g_autofree char *rt = r ? g_strdup_printf (_("Redo %s (Ctrl+Shift+Z)"), r) : g_strdup (_("Redo (Ctrl+Shift+Z)"));
  gtk_widget_set_tooltip_text (self->undo_button, ut);
  gtk_widget_set_tooltip_text (self->redo_button, rt);
}

static void
set_action_state (FlexionWindow *self, const char *name, const char *value)
{
  GAction *a = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  if (a && value)
    g_simple_action_set_state (G_SIMPLE_ACTION (a), g_variant_new_string (value));
}

static void
update_selection_actions (FlexionWindow *self)
{
  /* the right-click menus mark the selection's current kind, support and
   * formulation (radio items of stateful actions) */
  if (selected_joint (self) >= 0 && (guint) selected_joint (self) < model (self)->joints->len)
    {
      const FxJoint *j = fx_model_joint (model (self), selected_joint (self));
      set_action_state (self, "joint-kind", fx_joint_kind_to_string (j->kind));
      set_action_state (self, "support", fx_support_to_string (j->support));
    }
  if (selected_link (self) >= 0 && (guint) selected_link (self) < model (self)->links->len)
    set_action_state (self, "formulation",
                      fx_formulation_to_string (fx_model_link (model (self), selected_link (self))->formulation));
  gboolean joint = selected_joint (self) >= 0, link = selected_link (self) >= 0;
  action_set_enabled (self, "delete", joint || link);
  action_set_enabled (self, "joint-kind", joint);
  action_set_enabled (self, "support", joint);
  action_set_enabled (self, "add-mass", joint);
  action_set_enabled (self, "add-load", joint);
  action_set_enabled (self, "add-motor", joint);
  action_set_enabled (self, "add-speed-motor", joint);
  action_set_enabled (self, "add-spring", joint);
  action_set_enabled (self, "formulation", link);
  action_set_enabled (self, "add-probe", link);
  action_set_enabled (self, "add-link-load", link);
}

/* The bar's solver read-out in short, on two lines of about 15 characters,
 * which the bar has at 1254 px with the inspector open: Newton's iterations
 * and residual, then the substeps this step needed or else the speed
 * achieved. The whole sentence is the tooltip. */
static char *
solver_summary (FlexionSimulation *sim)
{
  const FxStepFrame *f = flexion_simulation_get_frame (sim);
  if (f == NULL || f->step == 0)
    return g_strdup ("");
  GString *s = g_string_new (NULL);
  /* Translators: the bar's short solver read-out, first line: Newton
   * iterations and the residual, e.g. "Newton 3 · 2e-14" */
  g_string_printf (s, _("Newton %u · %.0e"), f->report.newton_iters, f->report.residual);
  double achieved = flexion_simulation_get_achieved_speed (sim);
  g_string_append_c (s, '\n');
  if (f->report.level > 0)
    /* Translators: the bar's short solver read-out, second line */
    g_string_append_printf (s, _("%u substeps"), f->report.substeps);
  else if (achieved > 0 && achieved < 0.9 * MIN (flexion_simulation_get_speed (sim), 1.0))
    /* Translators: the bar's short solver read-out, second line: the speed
     * achieved, below real time */
    g_string_append_printf (s, _("%.2g× slow"), achieved);
  else if (achieved > 0)
    g_string_append_printf (s, "%.2g×", achieved);
  return g_string_free (s, FALSE);
}

static void
update_time (FlexionWindow *self)
{
  char buf[96];
  g_snprintf (buf, sizeof buf, "t = %.3f s", flexion_simulation_get_time (self->sim));
  gtk_inscription_set_text (self->time_label, buf);
  g_autofree char *summary = solver_summary (self->sim);
  gtk_inscription_set_text (self->solver_label, summary);
  /* the pointer's coordinates are for drawing: during a run their room is
   * the solver's, but in the lesson view, where the solver's line is not
   * shown */
  gtk_widget_set_visible (GTK_WIDGET (self->pointer_label), *summary == '\0' || self->lesson);
  /* and an empty solver line leaves the pointer its room (at 1254 px the
   * read-out was cut to "x 0.00…", issue 32) */
  gtk_widget_set_visible (GTK_WIDGET (self->solver_label), *summary != '\0' && !self->lesson);
  /* the whole read-out, the substep level and a solver slower than real
   * time in words, is the tooltip */
  g_autofree char *solver = flexion_simulation_describe_solver (self->sim);
  const char *tip = gtk_widget_get_tooltip_text (GTK_WIDGET (self->solver_label));
  if (solver && *solver && g_strcmp0 (tip, solver) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->solver_label), solver);
}

static void
update_play_button (FlexionWindow *self)
{
  gboolean playing = flexion_simulation_get_playing (self->sim);
  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (self->play_button, playing ? _("Pause (Space)") : _("Play (Space)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  playing ? _("Pause") : _("Play"), -1);
}

/* The bar shows the model's time step; an edit of it (here, in the
 * inspector, or by undo) reaches the run from its next step. */
static void
follow_model_dt (FlexionWindow *self)
{
  if (model (self)->dt == self->model_dt)
    return;
  self->model_dt = model (self)->dt;
  flexion_simulation_set_dt (self->sim, self->model_dt);
  self->updating_controls = TRUE;
  gtk_adjustment_set_value (self->dt_adjustment, self->model_dt);
  self->updating_controls = FALSE;
}

static void
on_cannot_run_dismissed (AdwToast *toast, FlexionWindow *self)
{
  if (self->cannot_run == toast)
    self->cannot_run = NULL;
}

/* Why the model cannot run. A causality conflict gets a short toast and
 * the link at fault in the inspector, which lists the conflicting ends in
 * plain words (a toast would cut a long explanation off); the toast goes
 * as soon as an edit makes the model consistent. */
void
_flexion_window_cannot_run (FlexionWindow *self, const GError *error)
{
  g_autoptr (GPtrArray) ends = fx_conflict_ends (model (self));
  /* the whole first sentence, in plain words (no JSON path) */
  g_autofree char *first = fx_conflict_first_sentence (model (self), error->message);
  g_autofree char *msg = g_strdup_printf (_("Cannot run: %s"), first);
  if (ends->len > 0)
    flexion_canvas_select (self->canvas, -1, (int) ((const FxConflictEnd *) ends->pdata[0])->link);
  else
    flexion_canvas_select (self->canvas, -1, -1);  /* the inspector shows the conflicts */
  /* the inspector says the rest: make sure it is in view */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->inspector_button), TRUE);
  if (self->cannot_run)
    adw_toast_dismiss (self->cannot_run);
  AdwToast *toast = flexion_toast_new (msg, 0);  /* until fixed or dismissed */
  self->cannot_run = toast;
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_cannot_run_dismissed), self);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
on_doc_changed (FlexionWindow *self)
{
  if (self->cannot_run)
    {
      g_autoptr (FxAssignment) as = fx_assignment_compute (model (self));
      if (fx_assignment_ok (as) && model (self)->links->len > 0)
        adw_toast_dismiss (self->cannot_run);
    }
  /* a change of settings a run can take from its next step goes on with
   * the run; any other edit returns to the drawn model, as the old run
   * belongs to another model, and says so */
  gboolean had_run = flexion_simulation_get_running (self->sim);
  if (!flexion_simulation_update_model (self->sim, model (self)) && had_run)
    flexion_window_toast (self, _("The model changed: the run starts again from the drawn model"));
  _flexion_window_forget_stop (self);
  follow_model_dt (self);
  _flexion_window_update_all_rigid (self);
  update_title (self);
  update_history (self);
  update_selection_actions (self);
  update_time (self);
}

/* The timeline spans what has been computed and follows the frame shown. */
static void
update_timeline (FlexionWindow *self)
{
  guint n = flexion_simulation_get_n_recorded (self->sim);
  if (gtk_widget_get_visible (GTK_WIDGET (self->timeline)) != (n > 1))
    gtk_widget_set_visible (GTK_WIDGET (self->timeline), n > 1);
  if (n <= 1)
    return;
  /* a new range only when the run grew, else just the value */
  self->updating_controls = TRUE;
  double lo = flexion_simulation_get_recorded (self->sim, 0)->t;
  double hi = flexion_simulation_get_recorded_end (self->sim);
  GtkAdjustment *adj = self->timeline_adjustment;
  if (gtk_adjustment_get_lower (adj) != lo || gtk_adjustment_get_upper (adj) != hi)
    gtk_adjustment_configure (adj, flexion_simulation_get_time (self->sim), lo, hi,
                              flexion_simulation_get_dt (self->sim),
                              10 * flexion_simulation_get_dt (self->sim), 0);
  else
    gtk_adjustment_set_value (adj, flexion_simulation_get_time (self->sim));
  self->updating_controls = FALSE;
}

static void
on_timeline_changed (GtkAdjustment *adj, FlexionWindow *self)
{
  if (self->updating_controls)
    return;
  flexion_simulation_seek (self->sim, gtk_adjustment_get_value (adj));
}

static void
on_sim_frame (FlexionWindow *self)
{
  update_time (self);
  update_timeline (self);
  /* while the timeline shows an earlier moment, the plots mark it */
  double cursor = flexion_simulation_get_replaying (self->sim) ? flexion_simulation_get_time (self->sim) : NAN;
  for (guint i = 0; i < 3; i++)
    {
      flexion_plot_view_set_cursor (FLEXION_PLOT_VIEW (self->plots[i]), cursor);
      gtk_widget_queue_draw (self->plots[i]);
    }
}

static void
on_stopped_dismissed (AdwToast *toast, FlexionWindow *self)
{
  if (self->stopped == toast)
    self->stopped = NULL;
}

/* Once the run is gone (Reset, an edit), so is its stop. */
void
_flexion_window_forget_stop (FlexionWindow *self)
{
  if (flexion_simulation_get_running (self->sim))
    return;
  self->run_stopped = FALSE;
  if (self->stopped)
    adw_toast_dismiss (self->stopped);
}

/* The solver stopped (a floating-frame blade spun past its limit, issue
 * 22): the run so far stays, frames, plots and timeline; its message stays
 * on screen until the run goes, and Play replays it (win.play). */
static void
on_sim_failed (FlexionWindow *self, const char *message)
{
  self->run_stopped = TRUE;
  g_autofree char *text = g_strdup_printf ("%s\n%s", message,
                                           _("What was computed is kept: Play replays it, Reset starts again."));
  if (self->stopped)
    adw_toast_dismiss (self->stopped);
  AdwToast *toast = flexion_toast_new (text, 0);
  self->stopped = toast;
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_stopped_dismissed), self);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
on_selection_changed (FlexionWindow *self)
{
  flexion_inspector_show (self->inspector, selected_joint (self), selected_link (self));
  update_selection_actions (self);
}

static void
on_pointer_moved (FlexionWindow *self, double x, double y)
{
  char buf[80];
  /* Translators: the pointer position in metres; short, so that it fits
   * beside the other controls at 1254 px (issue 32) */
  g_snprintf (buf, sizeof buf, _("x %.3f, y %.3f m"), x, y);
  gtk_inscription_set_text (self->pointer_label, buf);
}

/* The model's "view" (docs/model-format.md): a statics lesson opens on
 * its answer, settled and with its diagram. The diagram is this
 * document's only: the user's own choice (the diagram action, a
 * remembered setting) is not changed, and the next document shows it
 * again (the truss's N diagram once stayed on for every later document). */
static void
apply_model_view (FlexionWindow *self)
{
  const FxModel *m = model (self);
  FxDiagramView view = FX_DIAGRAM_VIEW_NONE;

  if (m->view_diagram >= (int) FX_DIAGRAM_VIEW_NONE && m->view_diagram <= (int) FX_DIAGRAM_VIEW_M)
    view = (FxDiagramView) m->view_diagram;
  else
    {
      g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "diagram");
      if (state && g_variant_is_of_type (state, G_VARIANT_TYPE_STRING))
        fx_diagram_view_parse (g_variant_get_string (state, NULL), &view);
    }
  flexion_canvas_set_diagram (self->canvas, view);
  if (m->view_settled)
    g_action_group_activate_action (G_ACTION_GROUP (self), "settle", NULL);
}

void
flexion_window_set_document (FlexionWindow *self, FxDocument *doc)
{
  if (self->doc)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  g_set_object (&self->doc, doc);
  g_signal_connect_swapped (doc, "changed", G_CALLBACK (on_doc_changed), self);
  g_signal_connect_swapped (doc, "notify::modified", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (doc, "notify::file", G_CALLBACK (update_title), self);
  flexion_simulation_set_model (self->sim, model (self));
  self->model_dt = -1;
  follow_model_dt (self);
  /* the step a model comes with is marked, not toasted: the toast is for
   * a step the user just set */
  self->warned_dt = model (self)->dt;
  flexion_canvas_set_document (self->canvas, doc);
  flexion_inspector_set_document (self->inspector, doc);
  flexion_modes_panel_set_document (self->modes_panel, doc);
  flexion_measure_view_set_document (FLEXION_MEASURE_VIEW (self->measure), doc);
  _flexion_window_update_all_rigid (self);
  /* not amber for the document before: its own modes will say */
  gtk_widget_remove_css_class (GTK_WIDGET (self->dt_spin), "warning");
  gtk_widget_set_visible (GTK_WIDGET (self->dt_warning), FALSE);
  update_title (self);
  update_history (self);
  update_selection_actions (self);
  update_time (self);
  apply_model_view (self);
}

FxDocument *
flexion_window_get_document (FlexionWindow *self)
{
  return self->doc;
}

FlexionSimulation *
flexion_window_get_simulation (FlexionWindow *self)
{
  return self->sim;
}

GtkWidget *
flexion_window_get_canvas (FlexionWindow *self)
{
  return GTK_WIDGET (self->canvas);
}

gboolean
flexion_window_is_pristine (FlexionWindow *self)
{
  return fx_document_get_file (self->doc) == NULL && !fx_document_get_modified (self->doc)
         && model (self)->joints->len == 0 && self->opening == NULL;
}

/* ---- deflection scale ---- */

/* the dropdown's rows: 0 is auto */
static const double deflection_choices[] = { 0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };

static void
show_deflection_choice (FlexionWindow *self, double scale)
{
  guint row = 0;
  for (guint i = 0; i < G_N_ELEMENTS (deflection_choices); i++)
    if (fabs (deflection_choices[i] - scale) < 1e-9)
      row = i;
  self->updating_controls = TRUE;
  gtk_drop_down_set_selected (self->deflection_dropdown, row);
  self->updating_controls = FALSE;
}

static void
on_deflection_selected (FlexionWindow *self)
{
  if (self->updating_controls)
    return;
  guint row = gtk_drop_down_get_selected (self->deflection_dropdown);
  double scale = row < G_N_ELEMENTS (deflection_choices) ? deflection_choices[row] : 0;
  flexion_canvas_set_deflection_scale (self->canvas, scale);
  if (self->settings)
    g_settings_set_double (self->settings, "deflection-scale", scale);
}

/* ---- settings ---- */

static void
apply_dark (FlexionWindow *self)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  flexion_canvas_set_dark (self->canvas, dark);
  for (guint i = 0; i < 3; i++)
    flexion_plot_view_set_dark (FLEXION_PLOT_VIEW (self->plots[i]), dark);
}

/* The lesson view (issue 32): the solver's diagnostics (balance residual,
 * Newton iterations, the solver's line, causality glyphs and ports) give
 * their place to the Measurements plot, shown even before anything is
 * picked, so a class sees where its measurements go. */
static void
apply_lesson_view (FlexionWindow *self, gboolean on)
{
  self->lesson = on;
  gtk_widget_set_visible (self->plots[1], !on);
  gtk_widget_set_visible (self->plots[2], !on);
  flexion_canvas_set_show (self->canvas, "causality",
                           !on && g_settings_get_boolean (self->settings, "show-causality"));
  flexion_inspector_set_lesson (self->inspector, on);
  flexion_measure_view_set_pinned (FLEXION_MEASURE_VIEW (self->measure), on);
  update_time (self);
}

static void
on_setting_changed (GSettings *settings, const char *key, FlexionWindow *self)
{
  if (key == NULL || g_str_equal (key, "colormap"))
    {
      g_autofree char *name = g_settings_get_string (settings, "colormap");
      flexion_canvas_set_colormap (self->canvas, name);
    }
  if (key == NULL || g_str_equal (key, "snap-to-grid") || g_str_equal (key, "grid-step"))
    flexion_canvas_set_snap (self->canvas, g_settings_get_boolean (settings, "snap-to-grid"),
                             g_settings_get_double (settings, "grid-step"));
  if (key == NULL || g_str_equal (key, "keep-in-view"))
    flexion_canvas_set_follow (self->canvas, g_settings_get_boolean (settings, "keep-in-view"));
  if (key == NULL || g_str_equal (key, "lesson-view") || g_str_equal (key, "show-causality"))
    apply_lesson_view (self, g_settings_get_boolean (settings, "lesson-view"));
  static const char *shows[][2] = {
    { "show-grid", "grid" }, { "show-initial", "initial" }, { "show-trails", "trails" },
    { "show-joint-gaps", "joint-gaps" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (shows); i++)
    if (key == NULL || g_str_equal (key, shows[i][0]))
      flexion_canvas_set_show (self->canvas, shows[i][1], g_settings_get_boolean (settings, shows[i][0]));
  if (key == NULL || g_str_equal (key, "diagram"))
    {
      g_autofree char *name = g_settings_get_string (settings, "diagram");
      FxDiagramView view = FX_DIAGRAM_VIEW_NONE;
      fx_diagram_view_parse (name, &view);
      flexion_canvas_set_diagram (self->canvas, view);
    }
  if (key == NULL || g_str_equal (key, "deflection-scale"))
    {
      double scale = g_settings_get_double (settings, "deflection-scale");
      flexion_canvas_set_deflection_scale (self->canvas, scale);
      show_deflection_choice (self, scale);
    }
  if (key == NULL || g_str_equal (key, "plot-window"))
    {
      for (guint i = 0; i < 3; i++)
        flexion_plot_view_set_window (FLEXION_PLOT_VIEW (self->plots[i]),
                                      g_settings_get_double (settings, "plot-window"));
      flexion_measure_view_set_window (FLEXION_MEASURE_VIEW (self->measure),
                                       g_settings_get_double (settings, "plot-window"));
    }
}

/* ---- speed and dt controls ---- */

static void
on_speed_changed (GtkAdjustment *adj, FlexionWindow *self)
{
  double speed = pow (10, gtk_adjustment_get_value (adj));
  flexion_simulation_set_speed (self->sim, speed);
  if (self->settings)
    g_settings_set_double (self->settings, "speed", speed);
}

static void
on_sim_speed (FlexionWindow *self)
{
  double v = log10 (flexion_simulation_get_speed (self->sim));
  if (fabs (v - gtk_adjustment_get_value (self->speed_adjustment)) > 1e-9)
    gtk_adjustment_set_value (self->speed_adjustment, v);
}

static char *
format_speed (GtkScale *scale, double value, gpointer data)
{
  return g_strdup_printf ("%.2g×", pow (10, value));
}

static void check_dt (FlexionWindow *self);

/* The bar's Δt is the model's time step, the same setting as the
 * inspector's: an undoable edit of the document. */
static void
on_dt_changed (GtkAdjustment *adj, FlexionWindow *self)
{
  if (self->updating_controls)
    return;
  double dt = gtk_adjustment_get_value (adj);
  if (dt == model (self)->dt)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  m->dt = dt;
  fx_document_end_edit (self->doc, _("Set Time Step"), "model:dt");
  check_dt (self);
}

/* ---- single-key shortcuts ---- */

/* Space, period, brackets, Delete, S and L act on the mechanism wherever
 * the focus is, except while typing in a text field. They are caught
 * before the focused widget sees them, so Space never presses whichever
 * button happens to have the focus. */
static gboolean
on_key_capture (GtkEventControllerKey *c, guint keyval, guint keycode, GdkModifierType state,
                FlexionWindow *self)
{
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK))
    return FALSE;
  /* the focus of the window the key came to: this one or a panel of it */
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (gtk_event_controller_get_widget (
    GTK_EVENT_CONTROLLER (c))));
  if (focus && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT (focus)))
    return FALSE;
  const char *action = NULL;
  GVariant *target = NULL;
  switch (keyval)
    {
    case GDK_KEY_space: action = "play"; break;
    case GDK_KEY_period: action = "step"; break;
    case GDK_KEY_bracketright: action = "faster"; break;
    case GDK_KEY_bracketleft: action = "slower"; break;
    case GDK_KEY_Delete: case GDK_KEY_KP_Delete: action = "delete"; break;
    case GDK_KEY_s: action = "tool"; target = g_variant_new_string ("select"); break;
    case GDK_KEY_l: action = "tool"; target = g_variant_new_string ("link"); break;
    default: return FALSE;
    }
  if (!g_action_group_get_action_enabled (G_ACTION_GROUP (self), action))
    {
      if (target)
        g_variant_unref (g_variant_ref_sink (target));
      return FALSE;
    }
  g_action_group_activate_action (G_ACTION_GROUP (self), action, target);
  return TRUE;
}

/* A window of this one's (the Ensemble panel) takes the same keys: the
 * single keys above, and the application's shortcuts for "win." and
 * "app." actions, which act on this window. */
void
flexion_window_share_keys (FlexionWindow *self, GtkWindow *other)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  gtk_widget_insert_action_group (GTK_WIDGET (other), "win", G_ACTION_GROUP (self));
  if (app)
    gtk_widget_insert_action_group (GTK_WIDGET (other), "app", G_ACTION_GROUP (app));

  GtkEventController *keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_capture), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (other), keys);

  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_LOCAL);
  g_auto (GStrv) actions = app ? gtk_application_list_action_descriptions (app) : NULL;
  for (guint i = 0; actions && actions[i]; i++)
    {
      if (!g_str_has_prefix (actions[i], "win.") && !g_str_has_prefix (actions[i], "app."))
        continue;
      g_auto (GStrv) accels = gtk_application_get_accels_for_action (app, actions[i]);
      GVariant *target = NULL;
      g_autofree char *plain = NULL;
      if (!g_action_parse_detailed_name (actions[i], &plain, &target, NULL))
        continue;
      for (guint k = 0; accels[k]; k++)
        {
          GtkShortcutTrigger *trigger = gtk_shortcut_trigger_parse_string (accels[k]);
          if (trigger == NULL)
            continue;
          GtkShortcut *sc = gtk_shortcut_new (trigger, gtk_named_action_new (plain));
          if (target)
            gtk_shortcut_set_arguments (sc, target);
          gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), sc);
        }
      g_clear_pointer (&target, g_variant_unref);
    }
  gtk_widget_add_controller (GTK_WIDGET (other), shortcuts);
}

/* ---- close ---- */

static void
close_continuation (FlexionWindow *self, gpointer data)
{
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
flexion_window_close_request (GtkWindow *window)
{
  FlexionWindow *self = FLEXION_WINDOW (window);
  if (self->settings && !gtk_window_is_fullscreen (window))
    {
      int w, h;
      gtk_window_get_default_size (window, &w, &h);
      g_settings_set_int (self->settings, "window-width", w);
      g_settings_set_int (self->settings, "window-height", h);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  if (self->close_confirmed || !fx_document_get_modified (self->doc) || model (self)->joints->len == 0)
    {
      flexion_simulation_reset (self->sim);
      return GTK_WINDOW_CLASS (flexion_window_parent_class)->close_request (window);
    }
  _flexion_window_maybe_discard (self, close_continuation, NULL, NULL);
  return TRUE;
}

/* The inspector keeps a sidebar's width (380 px) whatever the window's;
 * the paned would otherwise split by natural widths. */
static void
place_inspector (FlexionWindow *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self->hpaned));
  if (w > 600)
    gtk_paned_set_position (self->hpaned, w - 380);
}

static void
on_paned_width (FlexionWindow *self)
{
  if (!g_object_get_data (G_OBJECT (self), "inspector-placed") && gtk_widget_get_width (GTK_WIDGET (self->hpaned)) > 600)
    {
      place_inspector (self);
      g_object_set_data (G_OBJECT (self), "inspector-placed", GINT_TO_POINTER (1));
    }
}

static gboolean
place_inspector_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  FlexionWindow *self = FLEXION_WINDOW (widget);
  on_paned_width (self);
  return g_object_get_data (G_OBJECT (self), "inspector-placed") ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

/* ---- object ---- */

static void
flexion_window_dispose (GObject *object)
{
  FlexionWindow *self = FLEXION_WINDOW (object);
  if (self->doc)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  if (self->sim)
    g_signal_handlers_disconnect_by_data (self->sim, self);
  if (self->cannot_run)
    g_signal_handlers_disconnect_by_data (self->cannot_run, self);
  self->cannot_run = NULL;
  if (self->stopped)
    g_signal_handlers_disconnect_by_data (self->stopped, self);
  self->stopped = NULL;
  if (self->settings)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), FLEXION_TYPE_WINDOW);
  g_clear_object (&self->doc);
  g_clear_object (&self->sim);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->examples_dir, g_free);
  G_OBJECT_CLASS (flexion_window_parent_class)->dispose (object);
}

static void
flexion_window_class_init (FlexionWindowClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);
  oc->dispose = flexion_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = flexion_window_close_request;

  g_type_ensure (FLEXION_TYPE_CANVAS);
  g_type_ensure (FLEXION_TYPE_INSPECTOR);
  gtk_widget_class_set_template_from_resource (wc, "/io/github/flexion/Flexion/flexion-window.ui");
  gtk_widget_class_bind_template_child (wc, FlexionWindow, header_bar);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, window_title);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, edit_box);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, open_button);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, inspector_button);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, undo_button);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, redo_button);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, toast_overlay);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, hpaned);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, canvas);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, inspector);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, plots_box);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, play_button);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, time_label);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, pointer_label);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, solver_label);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, speed_adjustment);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, speed_scale);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, dt_adjustment);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, dt_spin);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, dt_warning);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, deflection_dropdown);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, timeline);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, timeline_adjustment);
  gtk_widget_class_bind_template_child (wc, FlexionWindow, recent_menu);

  gtk_widget_class_add_binding_action (wc, GDK_KEY_Escape, 0, "win.leave-presentation", NULL);
}

/* The Modes panel's counts, in the inspector's model section. */
/* The lowest vibration frequency the Modes panel found (Hz), or 0. */
static double
first_frequency (FlexionWindow *self)
{
  const FxModes *modes = flexion_modes_panel_get_modes (self->modes_panel);
  double f1 = 0;
  for (guint i = 0; modes && i < modes->n_modes; i++)
    if (modes->modes[i].kind == FX_MODE_VIBRATION && modes->modes[i].frequency > 0)
      f1 = f1 > 0 ? MIN (f1, modes->modes[i].frequency) : modes->modes[i].frequency;
  return f1;
}

/* A step longer than a tenth of the first vibration period cannot show
 * that vibration (the implicit midpoint rule keeps it stable and its
 * energy exact, but smears it out): the Δt field turns amber and says
 * why, with a toast once per value the user sets. The fourth-order Gauss
 * step resolves it with a quarter of the period: its period error there,
 * 0.7 %, is what the midpoint rule's is at a 22nd (3.2 % at a tenth). */
static void
check_dt (FlexionWindow *self)
{
  double f1 = first_frequency (self), dt = model (self)->dt;
  /* nothing drawn, nothing to resolve (the modes of the document before
   * a New are not this one's); gauss4 resolves a period in 4 steps as
   * well as the midpoint rule in 10 */
  gboolean gauss = model (self)->integrator == FX_INTEGRATOR_GAUSS4;
  double per_period = gauss ? 4 : 10;
  gboolean coarse = f1 > 0 && dt > 1 / (per_period * f1) && model (self)->links->len > 0;
  GtkWidget *spin = GTK_WIDGET (self->dt_spin);
  gtk_widget_set_visible (GTK_WIDGET (self->dt_warning), coarse);
  if (!coarse)
    {
      gtk_widget_remove_css_class (spin, "warning");
      gtk_widget_set_tooltip_text (spin, _("Time step in seconds"));
      if (f1 > 0)  /* known to be fine (not merely not computed yet) */
        self->warned_dt = 0;
      return;
    }
  g_autofree char *why = gauss
    ? g_strdup_printf (
        _("Δt = %g s is longer than a quarter of the first vibration period (1/(4 × %.3g Hz) = %.2g s): "
          "fast vibrations will not be resolved"), dt, f1, 1 / (4 * f1))
    : g_strdup_printf (
        _("Δt = %g s is longer than a tenth of the first vibration period (1/(10 × %.3g Hz) = %.2g s): "
          "fast vibrations will not be resolved"), dt, f1, 1 / (10 * f1));
  gtk_widget_add_css_class (spin, "warning");
  gtk_widget_set_tooltip_text (spin, why);
  /* Translators: beside the amber time step field: the step the first
   * vibration (its frequency) needs at most */
  g_autofree char *brief = g_strdup_printf (_("too long for %.3g Hz: ≤ %.2g s"), f1, 1 / (per_period * f1));
  gtk_label_set_text (self->dt_warning, brief);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->dt_warning), why);
  if (self->warned_dt != dt)
    flexion_window_toast (self, why);
  self->warned_dt = dt;
}

static void
on_modes_computed (FlexionWindow *self)
{
  if (self->inspector == NULL)  /* the window is closing */
    return;
  flexion_inspector_set_modes_summary (self->inspector,
                                       flexion_modes_panel_get_summary (self->modes_panel));
  check_dt (self);
}

static void
flexion_window_init (FlexionWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  _flexion_window_actions_init (self);

  self->sim = flexion_simulation_new ();
  g_signal_connect_swapped (self->sim, "frame", G_CALLBACK (on_sim_frame), self);
  g_signal_connect_swapped (self->sim, "failed", G_CALLBACK (on_sim_failed), self);
  g_signal_connect_swapped (self->sim, "notify::playing", G_CALLBACK (update_play_button), self);
  g_signal_connect_swapped (self->sim, "notify::speed", G_CALLBACK (on_sim_speed), self);
  flexion_canvas_set_simulation (self->canvas, self->sim);
  _flexion_window_busy_init (self);
  /* the Ensemble toggle beside Play (flexion-ensemble-view.c) */
  flexion_ensemble_toggle_attach (self, self->play_button);

  static const FxPlotKind kinds[] = { FX_PLOT_ENERGY, FX_PLOT_BALANCE, FX_PLOT_NEWTON };
  for (guint i = 0; i < 3; i++)
    {
      self->plots[i] = flexion_plot_view_new (kinds[i]);
      flexion_plot_view_set_series (FLEXION_PLOT_VIEW (self->plots[i]),
                                    flexion_simulation_get_series (self->sim));
      gtk_box_append (GTK_BOX (self->plots_box), self->plots[i]);
    }

  self->modes_panel = FLEXION_MODES_PANEL (flexion_modes_panel_new ());
  flexion_modes_panel_set_canvas (self->modes_panel, self->canvas);
  flexion_modes_panel_set_simulation (self->modes_panel, self->sim);
  g_signal_connect_object (self->modes_panel, "computed", G_CALLBACK (on_modes_computed), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->plots_box), GTK_WIDGET (self->modes_panel));
  /* what the user picked from probes and supports (measure.* actions) */
  self->measure = flexion_measure_view_new ();
  flexion_measure_view_set_simulation (FLEXION_MEASURE_VIEW (self->measure), self->sim);
  flexion_measure_view_install_actions (FLEXION_MEASURE_VIEW (self->measure), GTK_WIDGET (self));
  gtk_box_append (GTK_BOX (self->plots_box), self->measure);

  g_signal_connect_swapped (self->canvas, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (self->canvas, "pointer-moved", G_CALLBACK (on_pointer_moved), self);

  gtk_scale_set_format_value_func (self->speed_scale, format_speed, NULL, NULL);
  gtk_scale_add_mark (self->speed_scale, 0, GTK_POS_BOTTOM, NULL);
  g_signal_connect (self->speed_adjustment, "value-changed", G_CALLBACK (on_speed_changed), self);
  g_signal_connect (self->dt_adjustment, "value-changed", G_CALLBACK (on_dt_changed), self);
  g_signal_connect (self->timeline_adjustment, "value-changed", G_CALLBACK (on_timeline_changed), self);
  flexion_number_field_attach (self->dt_spin, TRUE);
  g_signal_connect_swapped (self->deflection_dropdown, "notify::selected",
                            G_CALLBACK (on_deflection_selected), self);

  GtkEventController *keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_capture), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  _flexion_window_dnd_init (self);

  AdwStyleManager *sm = adw_style_manager_get_default ();
  g_signal_connect_swapped (sm, "notify::dark", G_CALLBACK (apply_dark), self);
  apply_dark (self);

  gtk_widget_add_tick_callback (GTK_WIDGET (self), place_inspector_tick, NULL, NULL);

  g_autoptr (FxDocument) doc = fx_document_new ();
  flexion_window_set_document (self, doc);
  _flexion_window_rebuild_recent_menu (self);
  update_play_button (self);
}

FlexionWindow *
flexion_window_new (AdwApplication *app, GSettings *settings, const char *examples_dir)
{
  FlexionWindow *self = g_object_new (FLEXION_TYPE_WINDOW, "application", app, NULL);
  self->examples_dir = g_strdup (examples_dir);
  if (settings)
    {
      self->settings = g_object_ref (settings);
      static const char *const toggles[] = { "keep-in-view", "lesson-view" };
      for (guint i = 0; i < G_N_ELEMENTS (toggles); i++)
        {
          GAction *toggle = g_settings_create_action (settings, toggles[i]);
          g_action_map_add_action (G_ACTION_MAP (self), toggle);
          g_object_unref (toggle);
        }
      /* the diagram view is remembered: it replaces the session-only one */
      GAction *diagram = g_settings_create_action (settings, "diagram");
      g_action_map_add_action (G_ACTION_MAP (self), diagram);
      g_object_unref (diagram);
      g_signal_connect (settings, "changed", G_CALLBACK (on_setting_changed), self);
      on_setting_changed (settings, NULL, self);
      gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (settings, "window-width"),
                                   g_settings_get_int (settings, "window-height"));
      if (g_settings_get_boolean (settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      gtk_adjustment_set_value (self->speed_adjustment,
                                log10 (g_settings_get_double (settings, "speed")));
      g_settings_bind (settings, "energy-view", self->plots[0], "energy-view", G_SETTINGS_BIND_DEFAULT);
      g_autoptr (FxDocument) doc = _flexion_window_empty_document (self);
      flexion_window_set_document (self, doc);
    }
  return self;
}
