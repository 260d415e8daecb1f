/* flexion-inspector.c
 *
 * The rows are rebuilt when the selection or the model changes from
 * elsewhere (canvas, undo); an edit made here does not rebuild, so the
 * spin button being typed into keeps its focus. The link's rows are in
 * flexion-inspector-link.c.
 */
#include "flexion-inspector-private.h"
#include "flexion-number-field.h"
#include "flexion-presets.h"
#include "fx-conflicts.h"
#include "fx-causality.h"
#include "flexion-rows.h"
#include "flexion-measure-view.h"

#include <glib/gi18n.h>
#include <math.h>

G_DEFINE_FINAL_TYPE (FlexionInspector, flexion_inspector, ADW_TYPE_BIN)

/* The profile of load i, or of motor i when PROFILE_OF_MOTOR is set. */
static FxProfile *
profile_of (const FxModel *m, guint target)
{
  guint i = target & ~PROFILE_OF_MOTOR;
  if (target & PROFILE_OF_MOTOR)
    return i < m->motors->len ? &fx_model_motor (m, i)->profile : NULL;
  return i < m->loads->len ? &fx_model_load (m, i)->profile : NULL;
}

static void rebuild (FlexionInspector *self);

/* ---- applying edits ---- */

static void
apply_number (FxModel *m, Field f, guint i, double v)
{
  FxJoint *j = f >= F_JOINT_X && f <= F_DRIVE_VY ? fx_model_joint (m, i) : NULL;
  gboolean link_field = (f >= F_LINK_ELEMENTS && f <= F_LINK_ROT_DAMPING)
                        || (f >= F_LINK_NU && f <= F_LINK_ZETA);
  FxLink *l = link_field ? fx_model_link (m, i) : NULL;
  switch (f)
    {
    case F_GRAVITY_X: m->gravity[0] = v; break;
    case F_GRAVITY_Y: m->gravity[1] = v; break;
    case F_DT: m->dt = v; break;
    case F_T_END: m->t_end = v; break;
    case F_JOINT_X: j->at[0] = v; break;
    case F_JOINT_Y: j->at[1] = v; break;
    case F_JOINT_MASS: j->mass = v; break;
    case F_JOINT_INERTIA: j->inertia = v; break;
    case F_SLIDER_MASS: j->slider_mass = v; break;
    case F_SLIDER_ANGLE:
      j->slider_direction[0] = cos (v * G_PI / 180);
      j->slider_direction[1] = sin (v * G_PI / 180);
      break;
    case F_DRIVE_VX: j->drive_velocity[0] = v; break;
    case F_DRIVE_VY: j->drive_velocity[1] = v; break;
    case F_LINK_ELEMENTS: l->elements = (guint) MAX (1, round (v)); break;
    case F_LINK_DEGREE: l->degree = (guint) CLAMP (round (v), 1, FX_MAX_DEGREE); break;
    case F_LINK_EA: l->section.EA = v; l->section.form = FX_SECTION_CANONICAL; break;
    case F_LINK_GA: l->section.GA = v; l->section.form = FX_SECTION_CANONICAL; break;
    case F_LINK_EI: l->section.EI = v; l->section.form = FX_SECTION_CANONICAL; break;
    case F_LINK_RHOA: l->section.rhoA = v; l->section.form = FX_SECTION_CANONICAL; break;
    case F_LINK_RHOI: l->section.rhoI = v; l->section.form = FX_SECTION_CANONICAL; break;
    case F_LINK_E: l->section.E = v; fx_section_derive (&l->section); break;
    case F_LINK_RHO: l->section.rho = v; fx_section_derive (&l->section); break;
    case F_LINK_WIDTH: l->section.width = v; fx_section_derive (&l->section); break;
    case F_LINK_HEIGHT: l->section.height = v; fx_section_derive (&l->section); break;
    case F_LINK_DAMPING: l->damping = v; break;
    case F_LINK_ROT_DAMPING: l->rotational_damping = v; break;
    case F_LOAD_FX: fx_model_load (m, i)->force[0] = v; break;
    case F_LOAD_FY: fx_model_load (m, i)->force[1] = v; break;
    case F_LOAD_MOMENT: fx_model_load (m, i)->moment = v; break;
    case F_LOAD_S: fx_model_load (m, i)->s = v; break;
    case F_MOTOR_VALUE: fx_model_motor (m, i)->value = v; break;
    case F_SPRING_K: fx_model_spring (m, i)->stiffness = v; break;
    case F_SPRING_C: fx_model_spring (m, i)->damping = v; break;
    case F_PROBE_S: fx_model_probe (m, i)->s = v; break;
    case F_LINK_NU: l->section.nu = v; fx_section_derive (&l->section); break;
    case F_LINK_DIAMETER: l->section.diameter = v; fx_section_derive (&l->section); break;
    case F_LINK_INNER: l->section.inner_diameter = v; fx_section_derive (&l->section); break;
    case F_LINK_KELVIN_VOIGT: l->kelvin_voigt = v; break;
    case F_LINK_ZETA:
      {
        /* the ratio in percent at the link's first frequency: eta = 2 zeta / omega_1 */
        double w1 = fx_link_cantilever_omega (m, l);
        l->kelvin_voigt = w1 > 0.0 ? 2.0 * (v / 100.0) / w1 : 0.0;
      }
      break;
    case F_PROFILE_T0: case F_PROFILE_T1: case F_PROFILE_T2:
    case F_PROFILE_FREQUENCY: case F_PROFILE_PHASE:
      {
        FxProfile *p = profile_of (m, i);
        if (p == NULL)
          break;
        if (f == F_PROFILE_T0) p->t0 = v;
        else if (f == F_PROFILE_T1) p->t1 = v;
        else if (f == F_PROFILE_T2) p->t2 = v;
        else if (f == F_PROFILE_FREQUENCY) p->frequency = v;
        else p->phase = v;
      }
      break;
    }
}

static void
on_number_changed (GtkSpinButton *spin, FieldRef *ref)
{
  FlexionInspector *self = ref->self;
  FxModel *m = fx_document_begin_edit (self->doc);
  apply_number (m, ref->field, ref->index, gtk_spin_button_get_value (spin));
  g_autofree char *key = g_strdup_printf ("field:%d:%u", ref->field, ref->index);
  self->applying = TRUE;
  fx_document_end_edit (self->doc, _("Change Value"), key);
  self->applying = FALSE;
}

GtkWidget *
inspector_number_row (FlexionInspector *self, AdwPreferencesGroup *group, const char *title,
            const char *unit, double value, double lo, double hi, Field field, guint index)
{
  double step = value != 0 ? pow (10, floor (log10 (fabs (value)))) / 10 : 0.1;
  gboolean whole = field == F_LINK_ELEMENTS || field == F_LINK_DEGREE;
  if (whole)
    step = 1;
  GtkAdjustment *adj = gtk_adjustment_new (value, lo, hi, step, field == F_LINK_DEGREE ? 1 : step * 10, 0);
  GtkWidget *spin = gtk_spin_button_new (adj, step, whole ? 0 : 6);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 9);
  gtk_widget_set_tooltip_text (spin, title);
  flexion_number_field_attach (GTK_SPIN_BUTTON (spin), TRUE);
  FieldRef *ref = g_new (FieldRef, 1);
  *ref = (FieldRef) { self, field, index };
  g_signal_connect_data (spin, "value-changed", G_CALLBACK (on_number_changed), ref,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  flexion_control_row (group, title, unit, spin);
  return spin;
}

AdwPreferencesGroup *
inspector_add_group (FlexionInspector *self, const char *title, const char *description)
{
  /* group and row texts are Pango markup in libadwaita 1.2, and these
   * quote ids and descriptions from model files: escape them */
  GtkWidget *g = adw_preferences_group_new ();
  g_autofree char *t = title ? g_markup_escape_text (title, -1) : NULL;
  g_autofree char *d = description ? g_markup_escape_text (description, -1) : NULL;
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (g), t);
  if (d)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (g), d);
  gtk_box_append (GTK_BOX (self->box), g);
  return ADW_PREFERENCES_GROUP (g);
}

void
inspector_info_row (AdwPreferencesGroup *group, const char *title, const char *value)
{
  GtkWidget *row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  GtkWidget *label = gtk_label_new (value);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);
}

/* A combo row over `n` labels; `on_selected` gets the index. */
GtkWidget *
inspector_combo_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
           const char *const *labels, guint selected, GCallback on_selected, gpointer data)
{
  GtkWidget *row = adw_combo_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  /* unlike action rows, combo rows show their subtitle as plain text */
  if (subtitle)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  GtkStringList *list = gtk_string_list_new (labels);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (list));
  g_object_unref (list);
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  if (on_selected)
    g_signal_connect (row, "notify::selected", on_selected, data);
  adw_preferences_group_add (group, row);
  return row;
}

GtkWidget *
inspector_switch_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
            gboolean active, GCallback on_toggled, gpointer data)
{
  GtkSwitch *sw = flexion_switch_row (group, title, subtitle, active);
  g_signal_connect (sw, "notify::active", on_toggled, data);
  return GTK_WIDGET (sw);
}

GtkWidget *
inspector_button_row (AdwPreferencesGroup *group, const char *label, const char *action,
            GVariant *target, const char *tooltip)
{
  GtkWidget *b = gtk_button_new_with_label (label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (b), action);
  if (target)
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (b), target);
  if (tooltip)
    gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_set_margin_top (b, 6);
  adw_preferences_group_add (group, b);
  return b;
}

/* A button opening `menu` (taken), like button_row. */
void
inspector_menu_button_row (AdwPreferencesGroup *group, const char *label, GMenuModel *menu,
                 const char *tooltip)
{
  GtkWidget *b = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (b), label);
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (b), menu);
  g_object_unref (menu);
  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_set_margin_top (b, 6);
  adw_preferences_group_add (group, b);
}

/* Structural edits (combos, switches) rebuild: rows may appear or go. */
void
inspector_structural_edit (FlexionInspector *self, FxModel *m, const char *label)
{
  fx_document_end_edit (self->doc, label, NULL);
}

/* ---- time profiles of loads and motors ---- */

static void
on_profile_type (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  guint target = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "target"));
  FxProfileType type = (FxProfileType) adw_combo_row_get_selected (row);
  const FxProfile *now = profile_of (fx_document_get_model (self->doc), target);
  if (now == NULL || now->type == type)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxProfile *p = profile_of (m, target);
  p->type = type;
  /* sensible times for a profile that had none, so it runs at once */
  if (type == FX_PROFILE_RAMP && !(p->t1 > p->t0))
    p->t0 = 0, p->t1 = 1;
  if (type == FX_PROFILE_STEP_OFF && !(p->t1 > 0))
    p->t1 = 0.5;
  if (type == FX_PROFILE_HAT && !(p->t0 < p->t1 && p->t1 < p->t2))
    p->t0 = 0, p->t1 = 0.05, p->t2 = 0.1;
  if (type == FX_PROFILE_SINE && !(p->frequency > 0))
    p->frequency = 1;
  if (type == FX_PROFILE_TABLE && p->n_table < 2)
    {
      /* a table starts as a constant 1 the user then edits in the file */
      g_free (p->table_t);
      g_free (p->table_value);
      p->n_table = 2;
      p->table_t = g_new (double, 2);
      p->table_value = g_new (double, 2);
      p->table_t[0] = 0, p->table_t[1] = 1;
      p->table_value[0] = p->table_value[1] = 1;
    }
  inspector_structural_edit (self, m, _("Set Time Profile"));
}

/* The profile's kind and its times: `target` is a load index, or a motor
 * index with PROFILE_OF_MOTOR. */
void
inspector_profile_rows (FlexionInspector *self, AdwPreferencesGroup *g, const FxProfile *p, guint target)
{
  /* in FxProfileType order */
  const char *kinds[] = { _("Constant"), _("Step off at t₁"), _("Ramp from t₀ to t₁"),
                          _("Hat: t₀, peak at t₁, t₂"), _("Sine"), _("Table (points in the file)"), NULL };
  GtkWidget *row = inspector_combo_row (g, _("Time profile"), NULL, kinds, p->type, NULL, NULL);
  g_object_set_data (G_OBJECT (row), "target", GUINT_TO_POINTER (target));
  g_signal_connect (row, "notify::selected", G_CALLBACK (on_profile_type), self);
  switch (p->type)
    {
    case FX_PROFILE_RAMP:
      inspector_number_row (self, g, _("Ramp starts, t₀"), _("s"), p->t0, 0, 1e6, F_PROFILE_T0, target);
      inspector_number_row (self, g, _("Full at t₁"), _("s"), p->t1, 0, 1e6, F_PROFILE_T1, target);
      break;
    case FX_PROFILE_STEP_OFF:
      inspector_number_row (self, g, _("Off after t₁"), _("s"), p->t1, 0, 1e6, F_PROFILE_T1, target);
      break;
    case FX_PROFILE_HAT:
      inspector_number_row (self, g, _("Starts, t₀"), _("s"), p->t0, 0, 1e6, F_PROFILE_T0, target);
      inspector_number_row (self, g, _("Peak, t₁"), _("s"), p->t1, 0, 1e6, F_PROFILE_T1, target);
      inspector_number_row (self, g, _("Ends, t₂"), _("s"), p->t2, 0, 1e6, F_PROFILE_T2, target);
      break;
    case FX_PROFILE_SINE:
      inspector_number_row (self, g, _("Frequency"), _("Hz"), p->frequency, 0, 1e6, F_PROFILE_FREQUENCY, target);
      inspector_number_row (self, g, _("Phase"), _("rad"), p->phase, -1e3, 1e3, F_PROFILE_PHASE, target);
      break;
    case FX_PROFILE_TABLE:
      {
        g_autofree char *n = g_strdup_printf (g_dngettext (NULL, "%u point", "%u points", p->n_table),
                                              p->n_table);
        inspector_info_row (g, _("Table"), n);
      }
      break;
    case FX_PROFILE_CONSTANT:
    default:
      break;
    }
}

static void
on_motor_kind (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "motor"));
  FxMotorType type = adw_combo_row_get_selected (row) == 1 ? FX_MOTOR_SPEED : FX_MOTOR_TORQUE;
  const FxModel *cm = fx_document_get_model (self->doc);
  if (i >= cm->motors->len || fx_model_motor (cm, i)->type == type)
    return;
  const FxMotor *mo = fx_model_motor (cm, i);
  for (guint k = 0; k < cm->motors->len; k++)
    if (k != i && fx_model_motor (cm, k)->type == type && g_strcmp0 (fx_model_motor (cm, k)->joint, mo->joint) == 0)
      {
        /* one motor of each kind per joint: keep this one as it is */
        adw_combo_row_set_selected (row, mo->type == FX_MOTOR_SPEED);
        gtk_widget_error_bell (GTK_WIDGET (row));
        return;
      }
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_motor (m, i)->type = type;
  inspector_structural_edit (self, m, _("Set Motor Kind"));
}

/* ---- joint ---- */

static void
on_joint_kind (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  fx_document_set_joint_kind (self->doc, self->joint,
                              adw_combo_row_get_selected (row) == 1 ? FX_JOINT_WELD : FX_JOINT_PIN);
}

static void
on_joint_support (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  /* the window's action: a roller gets its guide there */
  const char *name = fx_support_to_string ((FxSupport) adw_combo_row_get_selected (row));
  gtk_widget_activate_action (GTK_WIDGET (row), "win.support", "s", name);
}

static void
on_slider (GtkSwitch *sw, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  FxJoint *j = fx_model_joint (m, self->joint);
  j->slider = gtk_switch_get_active (sw);
  if (j->slider && j->slider_mass <= 0)
    j->slider_mass = 1;
  if (j->slider && j->slider_direction[0] == 0 && j->slider_direction[1] == 0)
    j->slider_direction[0] = 1;
  inspector_structural_edit (self, m, _("Set Slider"));
}

static void
on_driven (GtkSwitch *sw, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_joint (m, self->joint)->driven = gtk_switch_get_active (sw);
  inspector_structural_edit (self, m, _("Set Prescribed Motion"));
}

/* A paragraph that wraps anywhere it must: a long word (German compounds)
 * must not widen the sidebar past the window. */
GtkWidget *
inspector_paragraph (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_bottom (label, 6);
  return label;
}

/* What regularising inertia the assignment added here and why, each with
 * a button that keeps it as the joint's own (one undoable edit). */
static void
regulariser_rows (FlexionInspector *self, const FxModel *m, guint ji)
{
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  if (!fx_assignment_ok (as))
    return;
  for (int c = 0; c < 2; c++)
    {
      const FxRegulariser *r = fx_assignment_regulariser_at (as, ji, (FxChannel) c);
      if (r == NULL)
        continue;
      AdwPreferencesGroup *g = inspector_add_group (self, c == FX_CHANNEL_TRANSLATION ? _("Regularising Mass")
                                                                            : _("Regularising Inertia"),
                                          NULL);
      g_autofree char *why = fx_regulariser_sentence (r);
      GtkWidget *label = inspector_paragraph (why);
      gtk_widget_add_css_class (label, "dim-label");
      adw_preferences_group_add (g, label);
      inspector_button_row (g, c == FX_CHANNEL_TRANSLATION ? _("Keep as Joint Mass") : _("Keep as Joint Inertia"),
                  "win.keep-regulariser", g_variant_new ("(uu)", ji, (guint) c),
                  _("Writes it into the model as this joint's own, to save with it"));
    }
}

static void
show_joint (FlexionInspector *self, const FxModel *m, guint ji)
{
  const FxJoint *j = fx_model_joint (m, ji);
  g_autofree char *title = g_strdup_printf (_("Joint %s"), j->id);
  AdwPreferencesGroup *g = inspector_add_group (self, title, NULL);
  inspector_number_row (self, g, _("Position x"), _("m"), j->at[0], -1e6, 1e6, F_JOINT_X, ji);
  inspector_number_row (self, g, _("Position y"), _("m"), j->at[1], -1e6, 1e6, F_JOINT_Y, ji);
  const char *kinds[] = { _("Pin"), _("Weld"), NULL };
  inspector_combo_row (g, _("Kind"), _("Pin: ends turn freely; weld: ends turn together"), kinds,
             j->kind == FX_JOINT_WELD, G_CALLBACK (on_joint_kind), self);
  /* in FxSupport order */
  const char *supports[] = { _("Free"), _("Pin support"), _("Clamp"), _("Guided"), _("Roller"), NULL };
  inspector_combo_row (g, _("Support"), NULL, supports, j->support, G_CALLBACK (on_joint_support), self);
  if (j->support == FX_SUPPORT_ROLLER)
    {
      double angle = atan2 (j->slider_direction[1], j->slider_direction[0]) * 180 / G_PI;
      inspector_number_row (self, g, _("Roller guide direction"), _("degrees from x"), angle, -360, 360,
                  F_SLIDER_ANGLE, ji);
    }
  FxHolds holds = fx_model_joint_holds (m, ji);
  if (holds != FX_HOLDS_NONE)
    inspector_menu_button_row (g, _("Plot Reaction"), flexion_measure_menu_new (FX_QUANTITY_SUPPORT, ji, holds),
                     _("Plot the force and moment this support exerts during a run"));

  regulariser_rows (self, m, ji);
  AdwPreferencesGroup *inertia = inspector_add_group (self, _("Inertia"), NULL);
  inspector_number_row (self, inertia, _("Point mass"), _("kg"), j->mass, 0, 1e9, F_JOINT_MASS, ji);
  inspector_number_row (self, inertia, _("Rotary inertia"), _("kg m²"), j->inertia, 0, 1e9, F_JOINT_INERTIA, ji);
  if (j->support == FX_SUPPORT_NONE)
    {
      inspector_switch_row (inertia, _("Slider block"), _("Moves along a fixed guide"), j->slider,
                  G_CALLBACK (on_slider), self);
      if (j->slider)
        {
          inspector_number_row (self, inertia, _("Slider mass"), _("kg"), j->slider_mass, 1e-9, 1e9, F_SLIDER_MASS, ji);
          double angle = atan2 (j->slider_direction[1], j->slider_direction[0]) * 180 / G_PI;
          inspector_number_row (self, inertia, _("Guide direction"), _("degrees from x"), angle, -360, 360,
                      F_SLIDER_ANGLE, ji);
        }
    }
  else
    {
      inspector_switch_row (inertia, _("Prescribed motion"), _("The support moves with a set velocity"),
                  j->driven, G_CALLBACK (on_driven), self);
      if (j->driven)
        {
          inspector_number_row (self, inertia, _("Velocity x"), _("m/s"), j->drive_velocity[0], -1e6, 1e6, F_DRIVE_VX, ji);
          inspector_number_row (self, inertia, _("Velocity y"), _("m/s"), j->drive_velocity[1], -1e6, 1e6, F_DRIVE_VY, ji);
        }
    }

  AdwPreferencesGroup *loads = inspector_add_group (self, _("Loads, Motors and Springs"), NULL);
  for (guint i = 0; i < m->loads->len; i++)
    {
      const FxLoad *l = fx_model_load (m, i);
      if (g_strcmp0 (l->joint, j->id) != 0)
        continue;
      inspector_number_row (self, loads, _("Load force x"), _("N"), l->force[0], -1e12, 1e12, F_LOAD_FX, i);
      inspector_number_row (self, loads, _("Load force y"), _("N"), l->force[1], -1e12, 1e12, F_LOAD_FY, i);
      inspector_number_row (self, loads, _("Load moment"), _("N m"), l->moment, -1e12, 1e12, F_LOAD_MOMENT, i);
      inspector_profile_rows (self, loads, &l->profile, i);
      inspector_button_row (loads, _("Remove Load"), "win.remove-item", g_variant_new ("(su)", "load", i), NULL);
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    {
      const FxMotor *mo = fx_model_motor (m, i);
      if (g_strcmp0 (mo->joint, j->id) != 0)
        continue;
      g_autofree char *t = g_strdup_printf (mo->type == FX_MOTOR_SPEED ? _("Speed motor on %s")
                                                                      : _("Torque motor on %s"),
                                            mo->link);
      const char *motor_kinds[] = { _("Torque"), _("Speed"), NULL };
      GtkWidget *kind = inspector_combo_row (loads, _("Motor drives"), _("a torque, or a speed relative to the other link"),
                                   motor_kinds, mo->type == FX_MOTOR_SPEED, NULL, NULL);
      g_object_set_data (G_OBJECT (kind), "motor", GUINT_TO_POINTER (i));
      g_signal_connect (kind, "notify::selected", G_CALLBACK (on_motor_kind), self);
      inspector_number_row (self, loads, t, mo->type == FX_MOTOR_SPEED ? _("rad/s") : _("N m"), mo->value,
                  -1e9, 1e9, F_MOTOR_VALUE, i);
      inspector_profile_rows (self, loads, &mo->profile, i | PROFILE_OF_MOTOR);
      inspector_button_row (loads, _("Remove Motor"), "win.remove-item", g_variant_new ("(su)", "motor", i), NULL);
    }
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    {
      const FxSpring *sp = fx_model_spring (m, i);
      if (g_strcmp0 (sp->joint, j->id) != 0)
        continue;
      inspector_number_row (self, loads, _("Spring stiffness"), _("N m/rad"), sp->stiffness, 0, 1e12, F_SPRING_K, i);
      inspector_number_row (self, loads, _("Spring damping"), _("N m s/rad"), sp->damping, 0, 1e12, F_SPRING_C, i);
      inspector_button_row (loads, _("Remove Spring"), "win.remove-item", g_variant_new ("(su)", "spring", i), NULL);
    }
  inspector_button_row (loads, _("Add Load"), "win.add-load", NULL, _("A force at this joint"));
  inspector_button_row (loads, _("Add Speed Motor"), "win.add-speed-motor", NULL,
              _("Drives a link end at this pin joint at a set speed"));
  inspector_button_row (loads, _("Add Torque Motor"), "win.add-motor", NULL,
              _("A torque on a link end at this pin joint"));
  inspector_button_row (loads, _("Add Spring"), "win.add-spring", NULL,
              _("A torsional spring between link ends at this pin joint"));
  inspector_button_row (loads, _("Delete Joint"), "win.delete", NULL, _("Delete the joint and its links"));
}

/* ---- model and causality ---- */

static void
show_causality (FlexionInspector *self, const FxModel *m)
{
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  if (fx_assignment_ok (as))
    {
      AdwPreferencesGroup *g = inspector_add_group (self, _("Causality"),
        _("Every link end takes force or velocity in; on the canvas, orange F marks a "
          "force-in port and blue V a velocity-in port (translation, then rotation in a ring); "
          "a diamond marks a link split at a weld."));
      g_autofree char *summary = g_strdup_printf (g_dngettext (NULL, "%u link, consistent",
                                                               "%u links, consistent",
                                                               as->n_links), as->n_links);
      inspector_info_row (g, _("Assignment"), summary);
      if (fx_assignment_n_splits (as) > 0)
        {
          g_autofree char *splits = g_strdup_printf ("%u", fx_assignment_n_splits (as));
          inspector_info_row (g, _("Links split at their midpoint"), splits);
        }
      g_autofree char *reg = fx_regularisers_summary (m, as);
      if (reg)
        {
          inspector_info_row (g, _("Regularising inertia"), reg);
          GtkWidget *note = inspector_paragraph (_("Small masses (grey dots) added where the pins would "
                                         "otherwise be inconsistent; select a joint to keep one."));
          gtk_widget_add_css_class (note, "dim-label");
          adw_preferences_group_add (g, note);
        }
      return;
    }
  AdwPreferencesGroup *g = inspector_add_group (self, _("Causality Conflicts"),
                                      _("The model cannot run until these are fixed."));
  inspector_conflict_rows (g, m, TRUE);
}

/* The kinematics lesson's switch: every link rigid (win.all-rigid, one
 * undoable edit), as PMKS+ and Linkage draw links. */
static void
all_rigid_row (AdwPreferencesGroup *g)
{
  GtkWidget *sw = gtk_switch_new ();
  gtk_actionable_set_action_name (GTK_ACTIONABLE (sw), "win.all-rigid");
  flexion_control_row (g, _("All links rigid"), _("For kinematics: no link bends or stretches"), sw);
}

static void
show_model (FlexionInspector *self, const FxModel *m)
{
  g_autoptr (FxAssignment) fits = fx_assignment_compute (m);
  /* the lesson view: the ports only when they do not fit together */
  if (!self->lesson || !fx_assignment_ok (fits))
    show_causality (self, m);
  AdwPreferencesGroup *t = inspector_add_group (self, _("Simulation"), NULL);
  inspector_number_row (self, t, _("Time step Δt"), _("s"), m->dt, 1e-7, 10, F_DT, 0);
  inspector_number_row (self, t, _("End time"), _("s (for exports and the command line)"), m->t_end, 0, 1e6, F_T_END, 0);
  AdwPreferencesGroup *gr = inspector_add_group (self, _("Gravity"), NULL);
  inspector_number_row (self, gr, _("Gravity x"), _("m/s²"), m->gravity[0], -1e4, 1e4, F_GRAVITY_X, 0);
  inspector_number_row (self, gr, _("Gravity y"), _("m/s²"), m->gravity[1], -1e4, 1e4, F_GRAVITY_Y, 0);
  AdwPreferencesGroup *s = inspector_add_group (self, _("Model"), m->description);
  /* each count with its own plural form */
  g_autofree char *joints = g_strdup_printf (g_dngettext (NULL, "%u joint", "%u joints", m->joints->len), m->joints->len);
  g_autofree char *links = g_strdup_printf (g_dngettext (NULL, "%u link", "%u links", m->links->len), m->links->len);
  g_autofree char *loads = g_strdup_printf (g_dngettext (NULL, "%u load", "%u loads", m->loads->len), m->loads->len);
  g_autofree char *probes = g_strdup_printf (g_dngettext (NULL, "%u probe", "%u probes", m->probes->len), m->probes->len);
  /* Translators: the model's contents: joints, links, loads, probes */
  g_autofree char *counts = g_strdup_printf (_("%s, %s, %s, %s"), joints, links, loads, probes);
  inspector_info_row (s, _("Contents"), counts);
  if (m->links->len > 0)
    all_rigid_row (s);
  /* its own row, so that new counts update one label and not the sidebar */
  self->modes_row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->modes_row), _("Modes"));
  self->modes_label = gtk_label_new (self->modes_summary);
  gtk_label_set_wrap (GTK_LABEL (self->modes_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->modes_label), 1);
  gtk_widget_add_css_class (self->modes_label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (self->modes_row), self->modes_label);
  gtk_widget_set_visible (self->modes_row, self->modes_summary && *self->modes_summary);
  adw_preferences_group_add (s, self->modes_row);
  if (m->links->len == 0)
    {
      GtkWidget *hint = gtk_label_new (_("Drag on the canvas to draw a link; joints appear at its "
                                         "ends. Right-click a joint or link for more."));
      gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
      gtk_widget_add_css_class (hint, "dim-label");
      gtk_widget_set_margin_top (hint, 6);
      adw_preferences_group_add (s, hint);
    }
}

void
rebuild (FlexionInspector *self)
{
  GtkWidget *child;
  self->modes_row = self->modes_label = NULL;
  while ((child = gtk_widget_get_first_child (self->box)))
    gtk_box_remove (GTK_BOX (self->box), child);
  if (self->doc == NULL)
    return;
  const FxModel *m = fx_document_get_model (self->doc);
  if (self->joint >= (int) m->joints->len)
    self->joint = -1;
  if (self->link >= (int) m->links->len)
    self->link = -1;
  if (self->joint >= 0)
    show_joint (self, m, self->joint);
  else if (self->link >= 0)
    inspector_show_link (self, m, self->link);
  else
    show_model (self, m);
}

static gboolean
rebuild_idle (gpointer data)
{
  FlexionInspector *self = data;
  self->rebuild_id = 0;
  rebuild (self);
  return G_SOURCE_REMOVE;
}

static void
on_doc_changed (FlexionInspector *self)
{
  if (self->applying)
    return;
  /* not from inside a row's own signal handler: that row is about to go;
   * and once per burst of edits (a drag sends one per pointer motion) */
  if (self->rebuild_id == 0)
    self->rebuild_id = g_idle_add (rebuild_idle, self);
}

static void
flexion_inspector_dispose (GObject *object)
{
  FlexionInspector *self = FLEXION_INSPECTOR (object);
  if (self->doc)
    g_clear_signal_handler (&self->changed_id, self->doc);
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_clear_object (&self->doc);
  g_clear_pointer (&self->modes_summary, g_free);
  G_OBJECT_CLASS (flexion_inspector_parent_class)->dispose (object);
}

void
flexion_inspector_set_modes_summary (FlexionInspector *self, const char *summary)
{
  g_return_if_fail (FLEXION_IS_INSPECTOR (self));
  if (g_strcmp0 (self->modes_summary, summary) == 0)
    return;
  g_free (self->modes_summary);
  self->modes_summary = g_strdup (summary);
  /* only the model section shows it; a rebuild picks it up anyway */
  if (self->modes_label)
    {
      gtk_label_set_text (GTK_LABEL (self->modes_label), summary ? summary : "");
      gtk_widget_set_visible (self->modes_row, summary && *summary);
    }
}

static void
flexion_inspector_class_init (FlexionInspectorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = flexion_inspector_dispose;
}

static void
flexion_inspector_init (FlexionInspector *self)
{
  self->joint = self->link = -1;
  GtkWidget *scroll = gtk_scrolled_window_new ();
  /* horizontally automatic, so the sidebar asks for min-content-width and
   * not for the natural width of its longest (wrapping) text */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_width (GTK_SCROLLED_WINDOW (scroll), 360);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroll), FALSE);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  /* the clamp keeps long descriptions from widening the sidebar */
  GtkWidget *clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 340);
  adw_clamp_set_child (ADW_CLAMP (clamp), self->box);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), clamp);
  adw_bin_set_child (ADW_BIN (self), scroll);
}

GtkWidget *
flexion_inspector_new (void)
{
  return g_object_new (FLEXION_TYPE_INSPECTOR, NULL);
}

void
flexion_inspector_set_document (FlexionInspector *self, FxDocument *doc)
{
  if (self->doc)
    g_clear_signal_handler (&self->changed_id, self->doc);
  g_set_object (&self->doc, doc);
  self->changed_id = g_signal_connect_swapped (doc, "changed", G_CALLBACK (on_doc_changed), self);
  self->joint = self->link = -1;
  rebuild (self);
}

void
flexion_inspector_set_lesson (FlexionInspector *self, gboolean lesson)
{
  if (self->lesson == lesson)
    return;
  self->lesson = lesson;
  rebuild (self);
}

void
flexion_inspector_show (FlexionInspector *self, int joint, int link)
{
  gboolean other = joint != self->joint || (joint < 0 && link != self->link);
  self->joint = joint;
  self->link = joint >= 0 ? -1 : link;
  rebuild (self);
  /* a new selection is read from its top, not where the last one was scrolled */
  GtkWidget *sw = gtk_widget_get_ancestor (self->box, GTK_TYPE_SCROLLED_WINDOW);
  if (other && sw)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw)), 0);
}
