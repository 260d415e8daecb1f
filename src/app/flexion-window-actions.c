/* flexion-window-actions.c: the window's win.* actions: files, editing,
 * view and simulation. Menus, buttons, shortcuts and the UI tests all go
 * through these. */
#include "flexion-window-private.h"
#include "flexion-measure-view.h"
#include "flexion-plot-view.h"
#include "flexion-gallery.h"
#include "flexion-export-dialog.h"
#include "fx-model-io.h"
#include "fx-conflicts.h"

#include <glib/gi18n.h>
#include <math.h>

static void
on_open_response (GtkNativeDialog *dialog, int response, FlexionWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      GFile *file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      _flexion_window_maybe_discard (self, _flexion_window_open_file_continuation, file, g_object_unref);
    }
  g_object_unref (dialog);
}

/* ---- actions: files ---- */

static void
win_new (GSimpleAction *a, GVariant *p, gpointer data)
{
  _flexion_window_maybe_discard (data, _flexion_window_new_document, NULL, NULL);
}

static void
win_open (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Open Mechanism"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_autoptr (GtkFileFilter) filter = _flexion_window_file_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
win_open_recent (GSimpleAction *a, GVariant *p, gpointer data)
{
  GFile *file = g_file_new_for_uri (g_variant_get_string (p, NULL));
  _flexion_window_maybe_discard (data, _flexion_window_open_file_continuation, file, g_object_unref);
}

static void
win_save (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  Pending *pending = g_new0 (Pending, 1);
  pending->self = self;
  _flexion_window_save_then (self, pending);
}

static void
win_save_as (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  Pending *pending = g_new0 (Pending, 1);
  pending->self = self;
  _flexion_window_save_as_then (self, pending);
}

static void
example_continuation (FlexionWindow *self, gpointer data)
{
  flexion_window_load_example (self, G_FILE (data));
}

static void
on_example_activated (FlexionGallery *gallery, GFile *file, FlexionWindow *self)
{
  _flexion_window_maybe_discard (self, example_continuation, g_object_ref (file), g_object_unref);
}

void
flexion_window_show_gallery (FlexionWindow *self)
{
  GtkWidget *gallery = flexion_gallery_new (GTK_WINDOW (self), self->examples_dir);
  g_signal_connect (gallery, "example-activated", G_CALLBACK (on_example_activated), self);
  gtk_window_present (GTK_WINDOW (gallery));
}

GtkWidget *
flexion_window_show_export (FlexionWindow *self)
{
  FxSceneStyle style;
  flexion_canvas_get_style (self->canvas, &style);
  GtkWidget *dialog = flexion_export_dialog_new (GTK_WINDOW (self), self->doc,
                                                 flexion_simulation_get_series (self->sim),
                                                 flexion_simulation_get_frame (self->sim), &style);
  flexion_export_dialog_set_deflection_scale (FLEXION_EXPORT_DIALOG (dialog),
                                              flexion_canvas_get_deflection_setting (self->canvas));
  g_autoptr (GPtrArray) recorded = flexion_simulation_dup_recorded (self->sim);
  flexion_export_dialog_set_recorded (FLEXION_EXPORT_DIALOG (dialog), recorded);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
win_export (GSimpleAction *a, GVariant *p, gpointer data)
{
  flexion_window_show_export (data);
}

static void
win_examples (GSimpleAction *a, GVariant *p, gpointer data)
{
  flexion_window_show_gallery (data);
}

/* ---- actions: editing ---- */

static void
win_undo (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  fx_document_undo (self->doc);
}

static void
win_redo (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  fx_document_redo (self->doc);
}

static void
win_delete (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  int j = selected_joint (self), l = selected_link (self);
  flexion_canvas_select (self->canvas, -1, -1);
  if (j >= 0)
    fx_document_delete_joint (self->doc, j);
  else if (l >= 0)
    fx_document_delete_link_tidy (self->doc, l);  /* no joints left dangling */
}

static void
win_tool (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  const char *tool = g_variant_get_string (p, NULL);
  flexion_canvas_set_tool (self->canvas, g_str_equal (tool, "link") ? FLEXION_TOOL_LINK : FLEXION_TOOL_SELECT);
  g_simple_action_set_state (a, p);
}

static void
win_add_link (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  double x0, y0, x1, y1;
  g_variant_get (p, "(dddd)", &x0, &y0, &x1, &y1);
  FxSection section;
  guint elements;
  flexion_canvas_default_section (&section, &elements);
  int l = fx_document_add_link_at (self->doc, x0, y0, x1, y1, 1e-9, elements, &section);
  if (l >= 0)
    flexion_canvas_select (self->canvas, -1, l);
}

static void
win_move_joint (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  guint j;
  double x, y;
  g_variant_get (p, "(udd)", &j, &x, &y);
  if (j < model (self)->joints->len)
    {
      fx_document_move_joint (self->doc, j, x, y);
      fx_document_break_merge (self->doc);
    }
}

static gboolean
parse_formulation (const char *s, FxFormulation *f)
{
  return fx_formulation_from_string (s, f);
}

static void
win_formulation_of (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  guint l;
  const char *name;
  FxFormulation f;
  g_variant_get (p, "(u&s)", &l, &name);
  if (l < model (self)->links->len && parse_formulation (name, &f))
    fx_document_set_formulation (self->doc, l, f);
}

static void
win_formulation (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  FxFormulation f;
  int l = selected_link (self);
  if (l >= 0 && parse_formulation (g_variant_get_string (p, NULL), &f))
    fx_document_set_formulation (self->doc, l, f);
}

static void
win_all_auto (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  FxModel *m = fx_document_begin_edit (self->doc);
  for (guint l = 0; l < m->links->len; l++)
    fx_model_link (m, l)->formulation = FX_FORMULATION_AUTO;
  fx_document_end_edit (self->doc, _("Set All Formulations to Auto"), NULL);
}

/* A fix the inspector offered (fx_conflict_fixes): one undoable edit. */
static void
win_apply_fix (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  const char *machine = g_variant_get_string (p, NULL);
  g_autoptr (GPtrArray) fixes = fx_conflict_fixes (model (self));
  for (guint i = 0; i < fixes->len; i++)
    {
      const FxConflictFix *f = fixes->pdata[i];
      FxModel *fixed = g_str_equal (f->machine, machine)
                       ? fx_conflict_fix_model (model (self), machine) : NULL;
      if (fixed)
        {
          fx_document_replace (self->doc, fixed, f->label);
          return;
        }
    }
}

/* The regularising inertia at a joint becomes the joint's own: one
 * undoable edit, and from then on it is saved with the model. */
static void
win_keep_regulariser (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  guint joint, channel;
  g_variant_get (p, "(uu)", &joint, &channel);
  g_autoptr (FxAssignment) as = fx_assignment_compute (model (self));
  const FxRegulariser *r = fx_assignment_regulariser_at (as, joint, (FxChannel) channel);
  if (r == NULL)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_regulariser_keep (m, r);
  fx_document_end_edit (self->doc, channel == FX_CHANNEL_ROTATION ? _("Keep Regularising Inertia")
                                                                  : _("Keep Regularising Mass"), NULL);
}

static void
win_joint_kind (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  int j = selected_joint (self);
  FxJointKind kind;
  if (j >= 0 && fx_joint_kind_from_string (g_variant_get_string (p, NULL), &kind))
    fx_document_set_joint_kind (self->doc, j, kind);
}

static void
win_support (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  int j = selected_joint (self);
  FxSupport support;
  if (j < 0 || !fx_support_from_string (g_variant_get_string (p, NULL), &support))
    return;
  const FxJoint *joint = fx_model_joint (model (self), j);
  if (support == FX_SUPPORT_ROLLER && joint->slider_direction[0] == 0 && joint->slider_direction[1] == 0)
    {
      /* a roller runs on a guide: horizontal until the user turns it */
      FxModel *m = fx_document_begin_edit (self->doc);
      FxJoint *mj = fx_model_joint (m, j);
      mj->support = support;
      mj->slider = FALSE;
      mj->slider_direction[0] = 1;
      fx_document_end_edit (self->doc, _("Set Support"), NULL);
    }
  else
    fx_document_set_support (self->doc, j, support);
}

static void
win_add_mass (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  int j = selected_joint (self);
  if (j < 0)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxJoint *joint = fx_model_joint (m, j);
  if (joint->mass <= 0)
    joint->mass = 1;
  fx_document_end_edit (self->doc, _("Add Point Mass"), NULL);
}

/* A new load: 10 N down, ramped in over 1 s (or half the run, when that
 * is shorter) rather than switched on at once. A step sets a structure
 * ringing about its loaded shape for ever (issue 30); a ramp slow against
 * its periods brings it there almost at rest, as a statics lesson wants. */
static void
new_load_defaults (FxLoad *load, const FxModel *m)
{
  load->force[1] = -10;
  load->profile.type = FX_PROFILE_RAMP;
  load->profile.t0 = 0;
  load->profile.t1 = m->t_end > 0 ? MIN (1.0, 0.5 * m->t_end) : 1.0;
}

static void
win_add_load (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  int j = selected_joint (self);
  if (j < 0)
    return;
  g_autofree char *jid = g_strdup (fx_model_joint (model (self), j)->id);
  FxModel *m = fx_document_begin_edit (self->doc);
  new_load_defaults (fx_model_add_joint_load (m, jid), m);
  fx_document_end_edit (self->doc, _("Add Load"), NULL);
}

/* The first and second links at joint j (-1 when absent). */
static void
links_at (const FxModel *m, guint j, int *first, int *second)
{
  const char *id = fx_model_joint (m, j)->id;
  *first = *second = -1;
  for (guint l = 0; l < m->links->len; l++)
    {
      const FxLink *link = fx_model_link (m, l);
      if (!g_str_equal (link->from, id) && !g_str_equal (link->to, id))
        continue;
      if (*first < 0)
        *first = l;
      else if (*second < 0)
        *second = l;
    }
}

typedef enum { DEVICE_TORQUE_MOTOR, DEVICE_SPEED_MOTOR, DEVICE_SPRING } Device;

/* Whether joint `jid` has a motor of `type` already: one of each kind per
 * joint, as two speed motors on one joint would fight. */
static gboolean
has_motor (const FxModel *m, const char *jid, FxMotorType type)
{
  for (guint i = 0; i < m->motors->len; i++)
    if (fx_model_motor (m, i)->type == type && g_strcmp0 (fx_model_motor (m, i)->joint, jid) == 0)
      return TRUE;
  return FALSE;
}

static void
add_joint_device (FlexionWindow *self, Device device)
{
  gboolean motor = device != DEVICE_SPRING;
  int j = selected_joint (self);
  if (j < 0)
    return;
  const FxModel *cm = model (self);
  const FxJoint *joint = fx_model_joint (cm, j);
  int a, b;
  links_at (cm, j, &a, &b);
  gboolean ground = joint->support == FX_SUPPORT_PIN;
  if (a < 0 || (!ground && b < 0) || joint->kind != FX_JOINT_PIN)
    {
      flexion_window_toast (self, motor
        ? _("A motor needs a pin joint with two links, or a pin support with one")
        : _("A spring needs a pin joint with two links, or a pin support with one"));
      return;
    }
  FxMotorType type = device == DEVICE_SPEED_MOTOR ? FX_MOTOR_SPEED : FX_MOTOR_TORQUE;
  if (motor && has_motor (cm, joint->id, type))
    {
      flexion_window_toast (self, type == FX_MOTOR_SPEED
        ? _("This joint has a speed motor already: change it in the inspector")
        : _("This joint has a torque motor already: change it in the inspector"));
      return;
    }
  g_autofree char *jid = g_strdup (joint->id);
  g_autofree char *la = g_strdup (fx_model_link (cm, a)->id);
  g_autofree char *lb = ground ? NULL : g_strdup (fx_model_link (cm, b)->id);
  g_autofree char *id = fx_document_fresh_id (self->doc, motor ? "M" : "S");
  FxModel *m = fx_document_begin_edit (self->doc);
  if (motor && type == FX_MOTOR_SPEED)
    {
      /* 2.5 rad/s, about one turn in 2.5 s: a pace a class can follow
       * (issue 32; 1 rad/s took over six seconds a turn), reached over
       * half a second: a sudden start would ring a flexible link */
      FxMotor *mo = fx_model_add_motor (m, id, jid, la, lb, FX_MOTOR_SPEED, 2.5);
      mo->profile.type = FX_PROFILE_RAMP;
      mo->profile.t0 = 0;
      mo->profile.t1 = 0.5;
    }
  else if (motor)
    fx_model_add_motor (m, id, jid, la, lb, FX_MOTOR_TORQUE, 1.0);
  else
    fx_model_add_spring (m, id, jid, la, lb, 10.0, 0.0);
  fx_document_end_edit (self->doc, motor ? _("Add Motor") : _("Add Spring"), NULL);
}

static void
win_add_motor (GSimpleAction *a, GVariant *p, gpointer data)
{
  add_joint_device (data, DEVICE_TORQUE_MOTOR);
}

static void
win_add_speed_motor (GSimpleAction *a, GVariant *p, gpointer data)
{
  add_joint_device (data, DEVICE_SPEED_MOTOR);
}

static void
win_add_spring (GSimpleAction *a, GVariant *p, gpointer data)
{
  add_joint_device (data, DEVICE_SPRING);
}

/* The link and fraction a link item of the context menu is about: where
 * the menu was opened, or the selected link's midpoint. -1: none. */
static int
link_point (FlexionWindow *self, double *s)
{
  double xy[2];
  int l = flexion_canvas_get_context_point (self->canvas, s, xy);
  if (l != selected_link (self))
    l = selected_link (self), *s = 0.5;
  *s = CLAMP (*s, 0, 1);
  return l;
}

static void
win_add_probe (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  double s;
  int l = link_point (self, &s);
  if (l < 0)
    return;
  g_autofree char *lid = g_strdup (fx_model_link (model (self), l)->id);
  g_autofree char *id = fx_document_fresh_id (self->doc, "P");
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_add_probe (m, id, lid, s);
  fx_document_end_edit (self->doc, _("Add Probe"), NULL);
}

static void
win_add_link_load (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  double s;
  int l = link_point (self, &s);
  if (l < 0)
    return;
  g_autofree char *lid = g_strdup (fx_model_link (model (self), l)->id);
  FxModel *m = fx_document_begin_edit (self->doc);
  new_load_defaults (fx_model_add_link_load (m, lid, s), m);
  fx_document_end_edit (self->doc, _("Add Load"), NULL);
}

static void
win_remove_item (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  const char *kind;
  guint i;
  g_variant_get (p, "(&su)", &kind, &i);
  FxModel *m = fx_document_begin_edit (self->doc);
  GArray *array = g_str_equal (kind, "load") ? m->loads
                  : g_str_equal (kind, "motor") ? m->motors
                  : g_str_equal (kind, "spring") ? m->springs
                  : g_str_equal (kind, "probe") ? m->probes : NULL;
  if (array && i < array->len)
    g_array_remove_index (array, i);
  fx_document_end_edit (self->doc, _("Remove"), NULL);
}

/* ---- the kinematics lesson: every link rigid ---- */

static gboolean
all_links_rigid (const FxModel *m)
{
  guint rigid = 0;
  for (guint i = 0; i < m->links->len; i++)
    rigid += fx_model_link (m, i)->rigid;
  return m->links->len > 0 && rigid == m->links->len;
}

void
_flexion_window_update_all_rigid (FlexionWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "all-rigid");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (all_links_rigid (model (self))));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), model (self)->links->len > 0);
}

/* All links rigid, or none (one undoable edit). A floating-frame link
 * becomes geometrically exact: it is never rigid (as the inspector's
 * Model row switches it). */
static void
win_all_rigid (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  gboolean rigid = !all_links_rigid (model (self));
  FxModel *m = fx_document_begin_edit (self->doc);
  for (guint i = 0; i < m->links->len; i++)
    {
      FxLink *l = fx_model_link (m, i);
      if (rigid && l->kind == FX_LINK_FLOATING_FRAME)
        {
          l->kind = FX_LINK_GEOMETRICALLY_EXACT;
          l->frame = FX_LINK_FRAME_MEAN_AXIS;
          l->kelvin_voigt = 0.0;
        }
      l->rigid = rigid;
    }
  fx_document_end_edit (self->doc, rigid ? _("All Links Rigid") : _("All Links Flexible"), NULL);
}

/* ---- actions: view and simulation ---- */

static void
win_fit (GSimpleAction *a, GVariant *p, gpointer data)
{
  flexion_canvas_fit (FLEXION_WINDOW (data)->canvas);
}

static void
win_zoom_in (GSimpleAction *a, GVariant *p, gpointer data)
{
  flexion_canvas_zoom (FLEXION_WINDOW (data)->canvas, 1.25);
}

static void
win_zoom_out (GSimpleAction *a, GVariant *p, gpointer data)
{
  flexion_canvas_zoom (FLEXION_WINDOW (data)->canvas, 0.8);
}

static void
win_play (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  if (flexion_simulation_get_playing (self->sim))
    {
      /* Play again while a big model's solver is prepared: Cancel */
      if (!flexion_simulation_cancel (self->sim))
        flexion_simulation_pause (self->sim);
      return;
    }
  /* after a solver stop nothing more can be computed: Play replays what
   * was, from its start */
  if (self->run_stopped && !flexion_simulation_get_replaying (self->sim)
      && flexion_simulation_get_n_recorded (self->sim) > 1)
    flexion_simulation_seek (self->sim, flexion_simulation_get_recorded (self->sim, 0)->t);
  g_autoptr (GError) error = NULL;
  if (!flexion_simulation_play (self->sim, &error))
    _flexion_window_cannot_run (self, error);
}

static void
win_step (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  g_autoptr (GError) error = NULL;
  if (!flexion_simulation_step (self->sim, &error))
    _flexion_window_cannot_run (self, error);
  flexion_canvas_wake (self->canvas);
}

static void
win_reset (GSimpleAction *a, GVariant *p, gpointer data)
{
  flexion_simulation_reset (FLEXION_WINDOW (data)->sim);
  _flexion_window_forget_stop (FLEXION_WINDOW (data));
  /* back to the start, in full view (as Ctrl+0) */
  flexion_canvas_fit (FLEXION_WINDOW (data)->canvas);
}

/* [ and ] climb a ladder that always passes through 1x, whatever speed
 * the slider was dragged to: doubling from 1x would give 0.125x, never 1x
 * again. */
static void
change_speed (FlexionWindow *self, int direction)
{
  static const double ladder[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10 };
  double now = pow (10, gtk_adjustment_get_value (self->speed_adjustment)), next = now;
  if (direction > 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (ladder) && next == now; i++)
        if (ladder[i] > now * (1 + 1e-6))
          next = ladder[i];
    }
  else
    for (guint i = G_N_ELEMENTS (ladder); i-- > 0 && next == now;)
      if (ladder[i] < now * (1 - 1e-6))
        next = ladder[i];
  gtk_adjustment_set_value (self->speed_adjustment, CLAMP (log10 (next), -1, 1));
}

static void
win_faster (GSimpleAction *a, GVariant *p, gpointer data)
{
  change_speed (data, +1);
}

static void
win_slower (GSimpleAction *a, GVariant *p, gpointer data)
{
  change_speed (data, -1);
}

static void
set_presentation (FlexionWindow *self, gboolean on)
{
  if (on == self->presentation)
    return;
  self->presentation = on;
  /* hiding the inspector also turns its (bound) button off: remember it,
   * so leaving restores the inspector as it was */
  if (on)
    self->inspector_before = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->inspector_button));
  if (on)
    gtk_window_fullscreen (GTK_WINDOW (self));
  else
    gtk_window_unfullscreen (GTK_WINDOW (self));
  gtk_widget_set_visible (self->edit_box, !on);
  gtk_widget_set_visible (self->open_button, !on);
  gtk_widget_set_visible (self->inspector_button, !on);
  gtk_widget_set_visible (GTK_WIDGET (self->inspector), !on && self->inspector_before);
  if (on)
    gtk_widget_add_css_class (GTK_WIDGET (self), "presentation");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "presentation");
  flexion_canvas_set_presentation (self->canvas, on);
  for (guint i = 0; i < 3; i++)
    flexion_plot_view_set_font_scale (FLEXION_PLOT_VIEW (self->plots[i]), on ? 1.4 : 1.0);
  flexion_measure_view_set_font_scale (FLEXION_MEASURE_VIEW (self->measure), on ? 1.4 : 1.0);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "presentation");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (on));
}

static void
win_presentation (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  set_presentation (self, !self->presentation);
}

static void
win_leave_presentation (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  /* Escape: first what is busy, then presentation mode */
  if (_flexion_window_cancel_busy (self))
    return;
  if (self->presentation)
    set_presentation (self, FALSE);
}

static void
win_show_labels (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  gboolean on = !g_variant_get_boolean (g_action_get_state (G_ACTION (a)));
  g_simple_action_set_state (a, g_variant_new_boolean (on));
  flexion_canvas_set_show (self->canvas, "labels", on);
}

/* The diagram view without settings (the choice lasts the session); with
 * settings, flexion_window_new replaces this action by the key's. */
static void
win_diagram (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  FxDiagramView view = FX_DIAGRAM_VIEW_NONE;
  if (!fx_diagram_view_parse (g_variant_get_string (p, NULL), &view))
    return;
  g_simple_action_set_state (a, p);
  flexion_canvas_set_diagram (self->canvas, view);
}

/* Ctrl+D: none, N, V, M, none ... through the diagram action, so the menu's
 * radio items and the remembered setting follow. */
static void
win_next_diagram (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  FxDiagramView next = (flexion_canvas_get_diagram (self->canvas) + 1) % (FX_DIAGRAM_VIEW_M + 1);
  g_action_group_activate_action (G_ACTION_GROUP (self), "diagram",
                                  g_variant_new_string (fx_diagram_view_name (next)));
}

static void
win_toggle_inspector (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionWindow *self = data;
  GtkToggleButton *b = GTK_TOGGLE_BUTTON (self->inspector_button);
  gtk_toggle_button_set_active (b, !gtk_toggle_button_get_active (b));
}

static void
win_none (GSimpleAction *a, GVariant *p, gpointer data)
{
}

static const GActionEntry win_entries[] = {
  { .name = "new", .activate = win_new },
  { .name = "open", .activate = win_open },
  { .name = "open-recent", .activate = win_open_recent, .parameter_type = "s" },
  { .name = "save", .activate = win_save },
  { .name = "save-as", .activate = win_save_as },
  { .name = "examples", .activate = win_examples },
  { .name = "export", .activate = win_export },
  { .name = "undo", .activate = win_undo },
  { .name = "redo", .activate = win_redo },
  { .name = "delete", .activate = win_delete },
  { .name = "tool", .activate = win_tool, .parameter_type = "s", .state = "'select'" },
  { .name = "add-link", .activate = win_add_link, .parameter_type = "(dddd)" },
  { .name = "move-joint", .activate = win_move_joint, .parameter_type = "(udd)" },
  { .name = "set-formulation", .activate = win_formulation_of, .parameter_type = "(us)" },
  { .name = "formulation-of", .activate = win_formulation_of, .parameter_type = "(us)" },
  { .name = "formulation", .activate = win_formulation, .parameter_type = "s", .state = "'auto'" },
  { .name = "all-auto", .activate = win_all_auto },
  { .name = "apply-fix", .activate = win_apply_fix, .parameter_type = "s" },
  { .name = "keep-regulariser", .activate = win_keep_regulariser, .parameter_type = "(uu)" },
  { .name = "joint-kind", .activate = win_joint_kind, .parameter_type = "s", .state = "'pin'" },
  { .name = "support", .activate = win_support, .parameter_type = "s", .state = "'none'" },
  { .name = "add-mass", .activate = win_add_mass },
  { .name = "add-load", .activate = win_add_load },
  { .name = "add-motor", .activate = win_add_motor },
  { .name = "add-speed-motor", .activate = win_add_speed_motor },
  { .name = "add-spring", .activate = win_add_spring },
  { .name = "add-probe", .activate = win_add_probe },
  { .name = "add-link-load", .activate = win_add_link_load },
  { .name = "remove-item", .activate = win_remove_item, .parameter_type = "(su)" },
  { .name = "fit", .activate = win_fit },
  { .name = "zoom-in", .activate = win_zoom_in },
  { .name = "zoom-out", .activate = win_zoom_out },
  { .name = "play", .activate = win_play },
  { .name = "step", .activate = win_step },
  { .name = "reset", .activate = win_reset },
  { .name = "faster", .activate = win_faster },
  { .name = "slower", .activate = win_slower },
  { .name = "presentation", .activate = win_presentation, .state = "false" },
  { .name = "all-rigid", .activate = win_all_rigid, .state = "false" },
  { .name = "leave-presentation", .activate = win_leave_presentation },
  { .name = "show-labels", .activate = win_show_labels, .state = "false" },
  { .name = "diagram", .activate = win_diagram, .parameter_type = "s", .state = "'none'" },
  { .name = "next-diagram", .activate = win_next_diagram },
  { .name = "toggle-inspector", .activate = win_toggle_inspector },
  { .name = "none", .activate = win_none },
};

void
_flexion_window_actions_init (FlexionWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
}
