/* flexion-inspector.c
 *
 * The rows are rebuilt when the selection or the model changes from
 * elsewhere (canvas, undo); an edit made here does not rebuild, so the
 * spin button being typed into keeps its focus.
 */
#include "flexion-inspector.h"
#include "flexion-number-field.h"
#include "flexion-presets.h"
#include "fx-conflicts.h"
#include "fx-causality.h"
#include "flexion-rows.h"
#include "flexion-measure-view.h"

#include <glib/gi18n.h>
#include <math.h>

struct _FlexionInspector {
  AdwBin parent_instance;
  FxDocument *doc;
  gulong changed_id;
  int joint, link;
  gboolean applying;    /* our own edit: do not rebuild */
  guint rebuild_id;     /* one pending rebuild, however many edits came */
  GtkWidget *box;       /* the groups */
  char *modes_summary;  /* from the Modes panel, shown with the model */
  GtkWidget *modes_row, *modes_label;  /* its row, while the model is shown */
};

G_DEFINE_FINAL_TYPE (FlexionInspector, flexion_inspector, ADW_TYPE_BIN)

/* What a row edits: a numeric field of one item. */
typedef enum {
  F_GRAVITY_X, F_GRAVITY_Y, F_DT, F_T_END,
  F_JOINT_X, F_JOINT_Y, F_JOINT_MASS, F_JOINT_INERTIA, F_SLIDER_MASS, F_SLIDER_ANGLE,
  F_DRIVE_VX, F_DRIVE_VY,
  F_LINK_ELEMENTS, F_LINK_EA, F_LINK_GA, F_LINK_EI, F_LINK_RHOA, F_LINK_RHOI,
  F_LINK_E, F_LINK_RHO, F_LINK_WIDTH, F_LINK_HEIGHT, F_LINK_DAMPING, F_LINK_ROT_DAMPING,
  F_LOAD_FX, F_LOAD_FY, F_LOAD_MOMENT, F_LOAD_S,
  F_MOTOR_VALUE, F_SPRING_K, F_SPRING_C, F_PROBE_S,
  F_LINK_NU, F_LINK_DIAMETER, F_LINK_INNER,
  /* a load's or motor's time profile: the index has PROFILE_OF_MOTOR set
   * for a motor */
  F_PROFILE_T0, F_PROFILE_T1, F_PROFILE_T2, F_PROFILE_FREQUENCY, F_PROFILE_PHASE,
} Field;

#define PROFILE_OF_MOTOR 0x80000000u

/* The profile of load i, or of motor i when PROFILE_OF_MOTOR is set. */
static FxProfile *
profile_of (const FxModel *m, guint target)
{
  guint i = target & ~PROFILE_OF_MOTOR;
  if (target & PROFILE_OF_MOTOR)
    return i < m->motors->len ? &fx_model_motor (m, i)->profile : NULL;
  return i < m->loads->len ? &fx_model_load (m, i)->profile : NULL;
}

typedef struct {
  FlexionInspector *self;
  Field field;
  guint index;
} FieldRef;

static void rebuild (FlexionInspector *self);

/* ---- applying edits ---- */

static void
apply_number (FxModel *m, Field f, guint i, double v)
{
  FxJoint *j = f >= F_JOINT_X && f <= F_DRIVE_VY ? fx_model_joint (m, i) : NULL;
  gboolean link_field = (f >= F_LINK_ELEMENTS && f <= F_LINK_ROT_DAMPING)
                        || (f >= F_LINK_NU && f <= F_LINK_INNER);
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

static GtkWidget *
number_row (FlexionInspector *self, AdwPreferencesGroup *group, const char *title,
            const char *unit, double value, double lo, double hi, Field field, guint index)
{
  double step = value != 0 ? pow (10, floor (log10 (fabs (value)))) / 10 : 0.1;
  if (field == F_LINK_ELEMENTS)
    step = 1;
  GtkAdjustment *adj = gtk_adjustment_new (value, lo, hi, step, step * 10, 0);
  GtkWidget *spin = gtk_spin_button_new (adj, step, field == F_LINK_ELEMENTS ? 0 : 6);
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

static AdwPreferencesGroup *
add_group (FlexionInspector *self, const char *title, const char *description)
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

static void
info_row (AdwPreferencesGroup *group, const char *title, const char *value)
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
static GtkWidget *
combo_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
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

static GtkWidget *
switch_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
            gboolean active, GCallback on_toggled, gpointer data)
{
  GtkSwitch *sw = flexion_switch_row (group, title, subtitle, active);
  g_signal_connect (sw, "notify::active", on_toggled, data);
  return GTK_WIDGET (sw);
}

static GtkWidget *
button_row (AdwPreferencesGroup *group, const char *label, const char *action,
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
static void
menu_button_row (AdwPreferencesGroup *group, const char *label, GMenuModel *menu,
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
static void
structural_edit (FlexionInspector *self, FxModel *m, const char *label)
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
  structural_edit (self, m, _("Set Time Profile"));
}

/* The profile's kind and its times: `target` is a load index, or a motor
 * index with PROFILE_OF_MOTOR. */
static void
profile_rows (FlexionInspector *self, AdwPreferencesGroup *g, const FxProfile *p, guint target)
{
  /* in FxProfileType order */
  const char *kinds[] = { _("Constant"), _("Step off at t₁"), _("Ramp from t₀ to t₁"),
                          _("Hat: t₀, peak at t₁, t₂"), _("Sine"), _("Table (points in the file)"), NULL };
  GtkWidget *row = combo_row (g, _("Time profile"), NULL, kinds, p->type, NULL, NULL);
  g_object_set_data (G_OBJECT (row), "target", GUINT_TO_POINTER (target));
  g_signal_connect (row, "notify::selected", G_CALLBACK (on_profile_type), self);
  switch (p->type)
    {
    case FX_PROFILE_RAMP:
      number_row (self, g, _("Ramp starts, t₀"), _("s"), p->t0, 0, 1e6, F_PROFILE_T0, target);
      number_row (self, g, _("Full at t₁"), _("s"), p->t1, 0, 1e6, F_PROFILE_T1, target);
      break;
    case FX_PROFILE_STEP_OFF:
      number_row (self, g, _("Off after t₁"), _("s"), p->t1, 0, 1e6, F_PROFILE_T1, target);
      break;
    case FX_PROFILE_HAT:
      number_row (self, g, _("Starts, t₀"), _("s"), p->t0, 0, 1e6, F_PROFILE_T0, target);
      number_row (self, g, _("Peak, t₁"), _("s"), p->t1, 0, 1e6, F_PROFILE_T1, target);
      number_row (self, g, _("Ends, t₂"), _("s"), p->t2, 0, 1e6, F_PROFILE_T2, target);
      break;
    case FX_PROFILE_SINE:
      number_row (self, g, _("Frequency"), _("Hz"), p->frequency, 0, 1e6, F_PROFILE_FREQUENCY, target);
      number_row (self, g, _("Phase"), _("rad"), p->phase, -1e3, 1e3, F_PROFILE_PHASE, target);
      break;
    case FX_PROFILE_TABLE:
      {
        g_autofree char *n = g_strdup_printf (g_dngettext (NULL, "%u point", "%u points", p->n_table),
                                              p->n_table);
        info_row (g, _("Table"), n);
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
  structural_edit (self, m, _("Set Motor Kind"));
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
  structural_edit (self, m, _("Set Slider"));
}

static void
on_driven (GtkSwitch *sw, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_joint (m, self->joint)->driven = gtk_switch_get_active (sw);
  structural_edit (self, m, _("Set Prescribed Motion"));
}

/* A paragraph that wraps anywhere it must: a long word (German compounds)
 * must not widen the sidebar past the window. */
static GtkWidget *
paragraph (const char *text)
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
      AdwPreferencesGroup *g = add_group (self, c == FX_CHANNEL_TRANSLATION ? _("Regularising Mass")
                                                                            : _("Regularising Inertia"),
                                          NULL);
      g_autofree char *why = fx_regulariser_sentence (r);
      GtkWidget *label = paragraph (why);
      gtk_widget_add_css_class (label, "dim-label");
      adw_preferences_group_add (g, label);
      button_row (g, c == FX_CHANNEL_TRANSLATION ? _("Keep as Joint Mass") : _("Keep as Joint Inertia"),
                  "win.keep-regulariser", g_variant_new ("(uu)", ji, (guint) c),
                  _("Writes it into the model as this joint's own, to save with it"));
    }
}

static void
show_joint (FlexionInspector *self, const FxModel *m, guint ji)
{
  const FxJoint *j = fx_model_joint (m, ji);
  g_autofree char *title = g_strdup_printf (_("Joint %s"), j->id);
  AdwPreferencesGroup *g = add_group (self, title, NULL);
  number_row (self, g, _("Position x"), _("m"), j->at[0], -1e6, 1e6, F_JOINT_X, ji);
  number_row (self, g, _("Position y"), _("m"), j->at[1], -1e6, 1e6, F_JOINT_Y, ji);
  const char *kinds[] = { _("Pin"), _("Weld"), NULL };
  combo_row (g, _("Kind"), _("Pin: ends turn freely; weld: ends turn together"), kinds,
             j->kind == FX_JOINT_WELD, G_CALLBACK (on_joint_kind), self);
  /* in FxSupport order */
  const char *supports[] = { _("Free"), _("Pin support"), _("Clamp"), _("Guided"), _("Roller"), NULL };
  combo_row (g, _("Support"), NULL, supports, j->support, G_CALLBACK (on_joint_support), self);
  if (j->support == FX_SUPPORT_ROLLER)
    {
      double angle = atan2 (j->slider_direction[1], j->slider_direction[0]) * 180 / G_PI;
      number_row (self, g, _("Roller guide direction"), _("degrees from x"), angle, -360, 360,
                  F_SLIDER_ANGLE, ji);
    }
  FxHolds holds = fx_model_joint_holds (m, ji);
  if (holds != FX_HOLDS_NONE)
    menu_button_row (g, _("Plot Reaction"), flexion_measure_menu_new (FX_QUANTITY_SUPPORT, ji, holds),
                     _("Plot the force and moment this support exerts during a run"));

  regulariser_rows (self, m, ji);
  AdwPreferencesGroup *inertia = add_group (self, _("Inertia"), NULL);
  number_row (self, inertia, _("Point mass"), _("kg"), j->mass, 0, 1e9, F_JOINT_MASS, ji);
  number_row (self, inertia, _("Rotary inertia"), _("kg m²"), j->inertia, 0, 1e9, F_JOINT_INERTIA, ji);
  if (j->support == FX_SUPPORT_NONE)
    {
      switch_row (inertia, _("Slider block"), _("Moves along a fixed guide"), j->slider,
                  G_CALLBACK (on_slider), self);
      if (j->slider)
        {
          number_row (self, inertia, _("Slider mass"), _("kg"), j->slider_mass, 1e-9, 1e9, F_SLIDER_MASS, ji);
          double angle = atan2 (j->slider_direction[1], j->slider_direction[0]) * 180 / G_PI;
          number_row (self, inertia, _("Guide direction"), _("degrees from x"), angle, -360, 360,
                      F_SLIDER_ANGLE, ji);
        }
    }
  else
    {
      switch_row (inertia, _("Prescribed motion"), _("The support moves with a set velocity"),
                  j->driven, G_CALLBACK (on_driven), self);
      if (j->driven)
        {
          number_row (self, inertia, _("Velocity x"), _("m/s"), j->drive_velocity[0], -1e6, 1e6, F_DRIVE_VX, ji);
          number_row (self, inertia, _("Velocity y"), _("m/s"), j->drive_velocity[1], -1e6, 1e6, F_DRIVE_VY, ji);
        }
    }

  AdwPreferencesGroup *loads = add_group (self, _("Loads, Motors and Springs"), NULL);
  for (guint i = 0; i < m->loads->len; i++)
    {
      const FxLoad *l = fx_model_load (m, i);
      if (g_strcmp0 (l->joint, j->id) != 0)
        continue;
      number_row (self, loads, _("Load force x"), _("N"), l->force[0], -1e12, 1e12, F_LOAD_FX, i);
      number_row (self, loads, _("Load force y"), _("N"), l->force[1], -1e12, 1e12, F_LOAD_FY, i);
      number_row (self, loads, _("Load moment"), _("N m"), l->moment, -1e12, 1e12, F_LOAD_MOMENT, i);
      profile_rows (self, loads, &l->profile, i);
      button_row (loads, _("Remove Load"), "win.remove-item", g_variant_new ("(su)", "load", i), NULL);
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
      GtkWidget *kind = combo_row (loads, _("Motor drives"), _("a torque, or a speed relative to the other link"),
                                   motor_kinds, mo->type == FX_MOTOR_SPEED, NULL, NULL);
      g_object_set_data (G_OBJECT (kind), "motor", GUINT_TO_POINTER (i));
      g_signal_connect (kind, "notify::selected", G_CALLBACK (on_motor_kind), self);
      number_row (self, loads, t, mo->type == FX_MOTOR_SPEED ? _("rad/s") : _("N m"), mo->value,
                  -1e9, 1e9, F_MOTOR_VALUE, i);
      profile_rows (self, loads, &mo->profile, i | PROFILE_OF_MOTOR);
      button_row (loads, _("Remove Motor"), "win.remove-item", g_variant_new ("(su)", "motor", i), NULL);
    }
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    {
      const FxSpring *sp = fx_model_spring (m, i);
      if (g_strcmp0 (sp->joint, j->id) != 0)
        continue;
      number_row (self, loads, _("Spring stiffness"), _("N m/rad"), sp->stiffness, 0, 1e12, F_SPRING_K, i);
      number_row (self, loads, _("Spring damping"), _("N m s/rad"), sp->damping, 0, 1e12, F_SPRING_C, i);
      button_row (loads, _("Remove Spring"), "win.remove-item", g_variant_new ("(su)", "spring", i), NULL);
    }
  button_row (loads, _("Add Load"), "win.add-load", NULL, _("A force at this joint"));
  button_row (loads, _("Add Speed Motor"), "win.add-speed-motor", NULL,
              _("Drives a link end at this pin joint at a set speed"));
  button_row (loads, _("Add Torque Motor"), "win.add-motor", NULL,
              _("A torque on a link end at this pin joint"));
  button_row (loads, _("Add Spring"), "win.add-spring", NULL,
              _("A torsional spring between link ends at this pin joint"));
  button_row (loads, _("Delete Joint"), "win.delete", NULL, _("Delete the joint and its links"));
}

/* ---- link ---- */

static const FxFormulation formulation_order[] = {
  FX_FORMULATION_AUTO, FX_FORMULATION_FREE_FREE, FX_FORMULATION_CLAMPED_CLAMPED,
  FX_FORMULATION_PINNED, FX_FORMULATION_GUIDED,
};

static void
on_formulation (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  guint i = adw_combo_row_get_selected (row);
  if (i >= G_N_ELEMENTS (formulation_order))
    return;
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->formulation == formulation_order[i])
    return;
  fx_document_set_formulation (self->doc, self->link, formulation_order[i]);
}

/* The link's model: a floating-frame link chooses each end's causality and
 * is never rigid, so switching to it clears what it cannot take. */
static void
on_link_model (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  FxLinkKind kind = adw_combo_row_get_selected (row) == 1 ? FX_LINK_FLOATING_FRAME
                                                          : FX_LINK_GEOMETRICALLY_EXACT;
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->kind == kind)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxLink *l = fx_model_link (m, self->link);
  l->kind = kind;
  l->frame = FX_LINK_FRAME_MEAN_AXIS;
  l->kelvin_voigt = 0.0;
  if (kind == FX_LINK_FLOATING_FRAME)
    {
      l->formulation = FX_FORMULATION_AUTO;
      l->rigid = FALSE;
      l->damping = l->rotational_damping = 0.0;
    }
  structural_edit (self, m, _("Set Link Model"));
}

static void
on_link_frame (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  FxLinkFrame frame = adw_combo_row_get_selected (row) == 1 ? FX_LINK_FRAME_ATTACHED
                                                            : FX_LINK_FRAME_MEAN_AXIS;
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->frame == frame)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_link (m, self->link)->frame = frame;
  structural_edit (self, m, _("Set Frame"));
}

static void
on_rigid (GtkSwitch *sw, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_link (m, self->link)->rigid = gtk_switch_get_active (sw);
  structural_edit (self, m, _("Set Rigid"));
}

static void
on_material (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  guint n, sel = adw_combo_row_get_selected (row);
  const FlexionMaterial *mat = flexion_materials (&n);
  if (sel == 0 || sel > n)  /* "Custom": the values as they are */
    return;
  mat += sel - 1;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxSection *s = &fx_model_link (m, self->link)->section;
  s->E = mat->E, s->nu = mat->nu, s->rho = mat->rho;
  fx_section_derive (s);
  structural_edit (self, m, _("Set Material"));
}

static void
on_shape (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  FxShapeType shape = (FxShapeType) adw_combo_row_get_selected (row);
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->section.shape == shape)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxSection *s = &fx_model_link (m, self->link)->section;
  /* the new shape about as deep in the plane as the old one */
  double depth = s->shape == FX_SHAPE_RECTANGLE ? s->height
                 : s->shape == FX_SHAPE_SQUARE ? s->width : s->diameter;
  if (!(depth > 0))
    depth = 0.02;
  s->shape = shape;
  s->shear_factor = 0;  /* the shape's own */
  if (shape == FX_SHAPE_RECTANGLE && !(s->width > 0 && s->height > 0))
    s->width = 2 * depth, s->height = depth;
  if (shape == FX_SHAPE_SQUARE)
    s->width = depth;
  if (shape == FX_SHAPE_CIRCLE || shape == FX_SHAPE_TUBE)
    s->diameter = depth;
  if (shape == FX_SHAPE_TUBE && !(s->inner_diameter > 0 && s->inner_diameter < s->diameter))
    s->inner_diameter = 0.8 * depth;
  fx_section_derive (s);
  structural_edit (self, m, _("Set Section Shape"));
}

static void
on_section_form (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  FxSection *s = &fx_model_link (m, self->link)->section;
  if (adw_combo_row_get_selected (row) == 1)
    {
      if (!(s->E > 0))
        s->E = 210e9, s->nu = 0.3, s->rho = 7850;
      if (!(s->width > 0) || !(s->height > 0))
        s->shape = FX_SHAPE_RECTANGLE, s->width = 0.02, s->height = 0.01;
      fx_section_derive (s);
    }
  else
    s->form = FX_SECTION_CANONICAL;
  structural_edit (self, m, _("Set Section Form"));
}

/* The conflicts in plain sentences, then the fixes the solver confirmed,
 * best first; each is one undoable edit (win.apply-fix). */
static void
conflict_rows (AdwPreferencesGroup *g, const FxModel *m, gboolean sentences_too)
{
  g_autoptr (GPtrArray) sentences = fx_conflict_sentences (m);
  for (guint i = 0; sentences_too && i < sentences->len; i++)
    {
      GtkWidget *label = paragraph (sentences->pdata[i]);
      gtk_widget_add_css_class (label, "error");
      adw_preferences_group_add (g, label);
    }
  g_autoptr (GPtrArray) fixes = fx_conflict_fixes (m);
  for (guint i = 0; i < fixes->len; i++)
    {
      const FxConflictFix *f = fixes->pdata[i];
      /* Translators: a button that applies a fix, e.g. "Fix: Set crank to Auto" */
      g_autofree char *label = g_strdup_printf (_("Fix: %s"), f->label);
      GtkWidget *b = button_row (g, label, "win.apply-fix", g_variant_new_string (f->machine),
                                 _("Checked: the model runs after this change"));
      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (b))), TRUE);
    }
}

static const char *
causality_name (FxCausality c)
{
  return c == FX_CAUSAL_F ? _("force in") : _("velocity in");
}

static const char *
formulation_label (FxFormulation f)
{
  switch (f)
    {
    case FX_FORMULATION_AUTO: return _("Auto");
    case FX_FORMULATION_FREE_FREE: return _("Free–free");
    case FX_FORMULATION_CLAMPED_CLAMPED: return _("Clamped–clamped");
    case FX_FORMULATION_PINNED: return _("Pinned");
    case FX_FORMULATION_GUIDED: return _("Guided");
    }
  return "";
}

/* The section, damping, probes and loads of link li. */
static void
show_link_section (FlexionInspector *self, const FxModel *m, guint li)
{
  const FxLink *l = fx_model_link (m, li);

  AdwPreferencesGroup *sec = add_group (self, _("Section"), NULL);
  const char *form_labels[] = { _("Stiffness and inertia"), _("Material and shape"), NULL };
  combo_row (sec, _("Given as"), NULL, form_labels, l->section.form == FX_SECTION_MATERIAL,
             G_CALLBACK (on_section_form), self);
  if (l->section.form == FX_SECTION_MATERIAL)
    {
      guint n_materials;
      const FlexionMaterial *materials = flexion_materials (&n_materials);
      g_autoptr (GPtrArray) material_names = g_ptr_array_new ();
      g_ptr_array_add (material_names, (gpointer) _("Custom"));
      for (guint i = 0; i < n_materials; i++)
        g_ptr_array_add (material_names, (gpointer) _(materials[i].name));
      g_ptr_array_add (material_names, NULL);
      combo_row (sec, _("Material"), _("Fills in E, ν and ρ, which stay editable"),
                 (const char *const *) material_names->pdata, flexion_material_of (&l->section) + 1,
                 G_CALLBACK (on_material), self);
      number_row (self, sec, _("Young's modulus E"), _("Pa"), l->section.E, 1, 1e13, F_LINK_E, li);
      number_row (self, sec, _("Poisson's ratio ν"), NULL, l->section.nu, 0, 0.5, F_LINK_NU, li);
      number_row (self, sec, _("Density ρ"), _("kg/m³"), l->section.rho, 0, 1e6, F_LINK_RHO, li);
      /* in FxShapeType order */
      const char *shapes[] = { _("Rectangle"), _("Square"), _("Round bar"), _("Tube"), NULL };
      combo_row (sec, _("Shape"), NULL, shapes, l->section.shape, G_CALLBACK (on_shape), self);
      switch (l->section.shape)
        {
        case FX_SHAPE_RECTANGLE:
          number_row (self, sec, _("Width (out of plane)"), _("m"), l->section.width, 1e-6, 100, F_LINK_WIDTH, li);
          number_row (self, sec, _("Height (in plane)"), _("m"), l->section.height, 1e-6, 100, F_LINK_HEIGHT, li);
          break;
        case FX_SHAPE_SQUARE:
          number_row (self, sec, _("Side"), _("m"), l->section.width, 1e-6, 100, F_LINK_WIDTH, li);
          break;
        case FX_SHAPE_CIRCLE:
          number_row (self, sec, _("Diameter"), _("m"), l->section.diameter, 1e-6, 100, F_LINK_DIAMETER, li);
          break;
        case FX_SHAPE_TUBE:
          number_row (self, sec, _("Outer diameter"), _("m"), l->section.diameter, 1e-6, 100, F_LINK_DIAMETER, li);
          number_row (self, sec, _("Inner diameter"), _("m"), l->section.inner_diameter, 0, 100, F_LINK_INNER, li);
          break;
        default:
          break;
        }
      g_autofree char *derived = g_strdup_printf ("EA %.4g N, EI %.4g N m², ρA %.4g kg/m",
                                                  l->section.EA, l->section.EI, l->section.rhoA);
      info_row (sec, _("Derived"), derived);
    }
  else
    {
      number_row (self, sec, _("Axial stiffness EA"), _("N"), l->section.EA, 0, 1e15, F_LINK_EA, li);
      number_row (self, sec, _("Shear stiffness GA"), _("N"), l->section.GA, 0, 1e15, F_LINK_GA, li);
      number_row (self, sec, _("Bending stiffness EI"), _("N m²"), l->section.EI, 0, 1e15, F_LINK_EI, li);
      number_row (self, sec, _("Mass per length ρA"), _("kg/m"), l->section.rhoA, 0, 1e9, F_LINK_RHOA, li);
      number_row (self, sec, _("Rotary inertia per length ρI"), _("kg m"), l->section.rhoI, 0, 1e9, F_LINK_RHOI, li);
    }

  AdwPreferencesGroup *more = add_group (self, _("Damping and Probes"), NULL);
  if (l->kind != FX_LINK_FLOATING_FRAME)
    {
      number_row (self, more, _("Viscous damping"), _("N s/m²"), l->damping, 0, 1e12, F_LINK_DAMPING, li);
      number_row (self, more, _("Rotational damping"), _("N m s/m"), l->rotational_damping, 0, 1e12,
                  F_LINK_ROT_DAMPING, li);
    }
  for (guint i = 0; i < m->probes->len; i++)
    {
      const FxProbe *p = fx_model_probe (m, i);
      if (g_strcmp0 (p->link, l->id) != 0)
        continue;
      g_autofree char *t = g_strdup_printf (_("Probe %s at s"), p->id);
      number_row (self, more, t, _("fraction of length"), p->s, 0, 1, F_PROBE_S, i);
      menu_button_row (more, _("Plot"), flexion_measure_menu_new (FX_QUANTITY_PROBE, i, FX_HOLDS_NONE),
                       _("Plot the probe's position, velocity, section angle or stress resultants "
                         "during a run"));
      button_row (more, _("Remove Probe"), "win.remove-item", g_variant_new ("(su)", "probe", i), NULL);
    }
  for (guint i = 0; i < m->loads->len; i++)
    {
      const FxLoad *ld = fx_model_load (m, i);
      if (g_strcmp0 (ld->link, l->id) != 0)
        continue;
      number_row (self, more, _("Load at s"), _("fraction of length"), ld->s, 0, 1, F_LOAD_S, i);
      number_row (self, more, _("Load force x"), _("N"), ld->force[0], -1e12, 1e12, F_LOAD_FX, i);
      number_row (self, more, _("Load force y"), _("N"), ld->force[1], -1e12, 1e12, F_LOAD_FY, i);
      profile_rows (self, more, &ld->profile, i);
      button_row (more, _("Remove Load"), "win.remove-item", g_variant_new ("(su)", "load", i), NULL);
    }
  button_row (more, _("Add Probe at Midpoint"), "win.add-probe", NULL, _("Trace the path of the link's midpoint"));
  button_row (more, _("Delete Link"), "win.delete", NULL, NULL);
}

static void
show_link (FlexionInspector *self, const FxModel *m, guint li)
{
  const FxLink *l = fx_model_link (m, li);
  g_autofree char *title = g_strdup_printf (_("Link %s"), l->id);
  g_autofree char *desc = g_strdup_printf (_("From %s to %s, %.4g m long"), l->from, l->to,
                                           fx_link_length (m, l));
  AdwPreferencesGroup *g = add_group (self, title, desc);

  const char *models[] = { _("Geometrically exact"), _("Floating frame (small deformation)"), NULL };
  gboolean floating = l->kind == FX_LINK_FLOATING_FRAME;
  combo_row (g, _("Model"),
             floating ? _("A rigid frame carrying small linear-elastic bending: cheap, but no "
                          "stiffening under tension or spin")
                      : _("Any rotation and strain: the beam Flexion is built on"),
             models, floating, G_CALLBACK (on_link_model), self);
  if (floating)
    {
      const char *frames[] = { _("Mean axes"), _("Attached at the first end"), NULL };
      combo_row (g, _("Frame"), _("Attached needs its first end clamped or driven"), frames,
                 l->frame == FX_LINK_FRAME_ATTACHED, G_CALLBACK (on_link_frame), self);
      g_autoptr (FxAssignment) fas = fx_assignment_compute (m);
      if (fx_assignment_ok (fas))
        {
          const FxLinkAssignment *la = &fas->links[li];
          g_autofree char *ends = g_strdup_printf (_("at %s: translation %s, rotation %s; at %s: "
                                                     "translation %s, rotation %s"),
                                                   l->from, causality_name (la->T_end[0]),
                                                   causality_name (la->R_end[0]), l->to,
                                                   causality_name (la->T_end[1]),
                                                   causality_name (la->R_end[1]));
          info_row (g, _("Ends"), ends);
        }
      number_row (self, g, _("Elements"), NULL, l->elements, 1, 10000, F_LINK_ELEMENTS, li);
      show_link_section (self, m, li);
      return;
    }

  /* each choice says whether the others leave it a consistent assignment */
  const char *names[] = { _("Auto"), _("Free–free"), _("Clamped–clamped"), _("Pinned"), _("Guided") };
  /* a string vector, freed whole (g_autofree on an array frees only its
   * first element) */
  g_auto (GStrv) marked = g_new0 (char *, G_N_ELEMENTS (names) + 1);
  const char *forms[G_N_ELEMENTS (names) + 1] = { NULL };
  {
    g_autoptr (FxModel) trial = fx_model_copy (m);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        fx_model_link (trial, li)->formulation = formulation_order[i];
        g_autoptr (FxAssignment) t = fx_assignment_compute (trial);
        /* Translators: a formulation in the menu, and whether it fits the others */
        marked[i] = g_strdup_printf (fx_assignment_ok (t) ? _("%s ✓") : _("%s — conflicts"), names[i]);
        forms[i] = marked[i];
      }
  }
  guint sel = 0;
  for (guint i = 0; i < G_N_ELEMENTS (formulation_order); i++)
    if (formulation_order[i] == l->formulation)
      sel = i;
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  g_autofree char *chosen = NULL;
  if (fx_assignment_ok (as))
    {
      const FxLinkAssignment *la = &as->links[li];
      if (la->split)
        chosen = g_strdup_printf (_("Split at its midpoint: %s, then %s"),
                                  formulation_label (la->segment[0].formulation),
                                  formulation_label (la->segment[1].formulation));
      else
        chosen = g_strdup_printf (_("%s: translation %s, rotation %s"),
                                  formulation_label (la->formulation), causality_name (la->T),
                                  causality_name (la->R));
    }
  else
    chosen = g_strdup (_("No consistent assignment: see the conflicts below"));
  GtkWidget *combo = combo_row (g, _("Formulation"), chosen, forms, sel, G_CALLBACK (on_formulation), self);
  g_autofree char *split_note = fx_assignment_ok (as) ? fx_split_regulariser_note (as, li) : NULL;
  if (split_note)
    {
      GtkWidget *note = paragraph (split_note);
      gtk_widget_add_css_class (note, "dim-label");
      adw_preferences_group_add (g, note);
    }
  gtk_widget_set_tooltip_text (combo, _("Which ports of the link take force and which take "
                                        "velocity; Auto lets Flexion choose a consistent set"));
  if (!fx_assignment_ok (as))
    {
      /* in plain words, at the ends of this link; if none of them is at
       * fault, the model's conflicts, so "below" always lists them */
      g_autoptr (GPtrArray) ends = fx_conflict_ends (m);
      guint shown = 0;
      for (guint i = 0; i < ends->len; i++)
        {
          const FxConflictEnd *e = ends->pdata[i];
          if (e->link != li)
            continue;
          g_autofree char *where = g_strdup_printf (e->channel == FX_CHANNEL_ROTATION
                                                    ? _("Rotation at %s") : _("Translation at %s"),
                                                    e->at_to ? l->to : l->from);
          GtkWidget *row = adw_action_row_new ();
          g_autofree char *t = g_markup_escape_text (where, -1);
          g_autofree char *s = g_markup_escape_text (e->why, -1);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), s);
          gtk_widget_add_css_class (row, "error");
          adw_preferences_group_add (g, row);
          shown++;
        }
      AdwPreferencesGroup *c = add_group (self, shown ? _("Fixes") : _("Causality Conflicts"), NULL);
      conflict_rows (c, m, shown == 0);
      g = add_group (self, NULL, NULL);
    }
  number_row (self, g, _("Elements"), NULL, l->elements, 1, 10000, F_LINK_ELEMENTS, li);
  switch_row (g, _("Rigid"), _("No compliance: stresses become multipliers"), l->rigid,
              G_CALLBACK (on_rigid), self);

  show_link_section (self, m, li);
}

/* ---- model and causality ---- */

static void
show_causality (FlexionInspector *self, const FxModel *m)
{
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  if (fx_assignment_ok (as))
    {
      AdwPreferencesGroup *g = add_group (self, _("Causality"),
        _("Every link end takes force or velocity in; on the canvas, orange F marks a "
          "force-in port and blue V a velocity-in port (translation, then rotation in a ring); "
          "a diamond marks a link split at a weld."));
      g_autofree char *summary = g_strdup_printf (g_dngettext (NULL, "%u link, consistent",
                                                               "%u links, consistent",
                                                               as->n_links), as->n_links);
      info_row (g, _("Assignment"), summary);
      if (fx_assignment_n_splits (as) > 0)
        {
          g_autofree char *splits = g_strdup_printf ("%u", fx_assignment_n_splits (as));
          info_row (g, _("Links split at their midpoint"), splits);
        }
      g_autofree char *reg = fx_regularisers_summary (m, as);
      if (reg)
        {
          info_row (g, _("Regularising inertia"), reg);
          GtkWidget *note = paragraph (_("Small masses (grey dots) added where the pins would "
                                         "otherwise be inconsistent; select a joint to keep one."));
          gtk_widget_add_css_class (note, "dim-label");
          adw_preferences_group_add (g, note);
        }
      return;
    }
  AdwPreferencesGroup *g = add_group (self, _("Causality Conflicts"),
                                      _("The model cannot run until these are fixed."));
  conflict_rows (g, m, TRUE);
}

static void
show_model (FlexionInspector *self, const FxModel *m)
{
  show_causality (self, m);
  AdwPreferencesGroup *t = add_group (self, _("Simulation"), NULL);
  number_row (self, t, _("Time step Δt"), _("s"), m->dt, 1e-7, 10, F_DT, 0);
  number_row (self, t, _("End time"), _("s (for exports and the command line)"), m->t_end, 0, 1e6, F_T_END, 0);
  AdwPreferencesGroup *gr = add_group (self, _("Gravity"), NULL);
  number_row (self, gr, _("Gravity x"), _("m/s²"), m->gravity[0], -1e4, 1e4, F_GRAVITY_X, 0);
  number_row (self, gr, _("Gravity y"), _("m/s²"), m->gravity[1], -1e4, 1e4, F_GRAVITY_Y, 0);
  AdwPreferencesGroup *s = add_group (self, _("Model"), m->description);
  /* each count with its own plural form */
  g_autofree char *joints = g_strdup_printf (g_dngettext (NULL, "%u joint", "%u joints", m->joints->len), m->joints->len);
  g_autofree char *links = g_strdup_printf (g_dngettext (NULL, "%u link", "%u links", m->links->len), m->links->len);
  g_autofree char *loads = g_strdup_printf (g_dngettext (NULL, "%u load", "%u loads", m->loads->len), m->loads->len);
  g_autofree char *probes = g_strdup_printf (g_dngettext (NULL, "%u probe", "%u probes", m->probes->len), m->probes->len);
  /* Translators: the model's contents: joints, links, loads, probes */
  g_autofree char *counts = g_strdup_printf (_("%s, %s, %s, %s"), joints, links, loads, probes);
  info_row (s, _("Contents"), counts);
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

static void
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
    show_link (self, m, self->link);
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
