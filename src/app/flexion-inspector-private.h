/* flexion-inspector-private.h: what the inspector's files share: the
 * object's fields, what a number row edits, and the row builders. The link
 * section is in flexion-inspector-link.c. */
#pragma once

#include "flexion-inspector.h"
#include "fx-model.h"

G_BEGIN_DECLS

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
  gboolean lesson;      /* the lesson view: no causality ports while they fit */
};


/* What a row edits: a numeric field of one item. */
typedef enum {
  F_GRAVITY_X, F_GRAVITY_Y, F_DT, F_T_END,
  F_JOINT_X, F_JOINT_Y, F_JOINT_MASS, F_JOINT_INERTIA, F_SLIDER_MASS, F_SLIDER_ANGLE,
  F_DRIVE_VX, F_DRIVE_VY,
  F_LINK_ELEMENTS, F_LINK_DEGREE, F_LINK_EA, F_LINK_GA, F_LINK_EI, F_LINK_RHOA, F_LINK_RHOI,
  F_LINK_E, F_LINK_RHO, F_LINK_WIDTH, F_LINK_HEIGHT, F_LINK_DAMPING, F_LINK_ROT_DAMPING,
  F_LOAD_FX, F_LOAD_FY, F_LOAD_MOMENT, F_LOAD_S,
  F_MOTOR_VALUE, F_SPRING_K, F_SPRING_C, F_PROBE_S,
  F_LINK_NU, F_LINK_DIAMETER, F_LINK_INNER, F_LINK_KELVIN_VOIGT, F_LINK_ZETA,
  /* a load's or motor's time profile: the index has PROFILE_OF_MOTOR set
   * for a motor */
  F_PROFILE_T0, F_PROFILE_T1, F_PROFILE_T2, F_PROFILE_FREQUENCY, F_PROFILE_PHASE,
} Field;

#define PROFILE_OF_MOTOR 0x80000000u


typedef struct {
  FlexionInspector *self;
  Field field;
  guint index;
} FieldRef;

GtkWidget * inspector_number_row (FlexionInspector *self, AdwPreferencesGroup *group, const char *title, const char *unit, double value, double lo, double hi, Field field, guint index);
AdwPreferencesGroup * inspector_add_group (FlexionInspector *self, const char *title, const char *description);
void inspector_info_row (AdwPreferencesGroup *group, const char *title, const char *value);
/* A combo row over `n` labels; `on_selected` gets the index. */
GtkWidget * inspector_combo_row (AdwPreferencesGroup *group, const char *title, const char *subtitle, const char *const *labels, guint selected, GCallback on_selected, gpointer data);
GtkWidget * inspector_switch_row (AdwPreferencesGroup *group, const char *title, const char *subtitle, gboolean active, GCallback on_toggled, gpointer data);
GtkWidget * inspector_button_row (AdwPreferencesGroup *group, const char *label, const char *action, GVariant *target, const char *tooltip);
/* A button opening `menu` (taken), like button_row. */
void inspector_menu_button_row (AdwPreferencesGroup *group, const char *label, GMenuModel *menu, const char *tooltip);
/* Structural edits (combos, switches) rebuild: rows may appear or go. */
void inspector_structural_edit (FlexionInspector *self, FxModel *m, const char *label);
/* The profile's kind and its times: `target` is a load index, or a motor
 * index with PROFILE_OF_MOTOR. */
void inspector_profile_rows (FlexionInspector *self, AdwPreferencesGroup *g, const FxProfile *p, guint target);
/* A paragraph that wraps anywhere it must: a long word (German compounds)
 * must not widen the sidebar past the window. */
GtkWidget * inspector_paragraph (const char *text);
/* The conflicts in plain sentences, then the fixes the solver confirmed,
 * best first; each is one undoable edit (win.apply-fix). */
void inspector_conflict_rows (AdwPreferencesGroup *g, const FxModel *m, gboolean sentences_too);
void inspector_show_link (FlexionInspector *self, const FxModel *m, guint li);

G_END_DECLS
