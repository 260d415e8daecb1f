/* flexion-modes.h: the linear modes of a model. */
#pragma once

#if !defined (FLEXION_INSIDE) && !defined (FLEXION_COMPILATION)
#error "Only <flexion.h> can be included directly."
#endif

#include <gio/gio.h>
#include "flexion-model.h"
#include "flexion-types.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_MODES (flexion_modes_get_type ())
G_DECLARE_FINAL_TYPE (FlexionModes, flexion_modes, FLEXION, MODES, GObject)

FlexionModes   *flexion_modes_new              (FlexionModel *model, guint max_vibrations,
                                                GCancellable *cancellable, GError **error);
guint           flexion_modes_get_n_modes      (FlexionModes *self);
FlexionModeKind flexion_modes_get_kind         (FlexionModes *self, guint mode);
guint           flexion_modes_get_index        (FlexionModes *self, guint mode);
double          flexion_modes_get_frequency    (FlexionModes *self, guint mode);
double         *flexion_modes_get_frequencies  (FlexionModes *self, FlexionModeKind kind,
                                                gsize *n_values);
char           *flexion_modes_get_label        (FlexionModes *self, guint mode);
int             flexion_modes_find             (FlexionModes *self, const char *name,
                                                GError **error);
gboolean        flexion_modes_get_counted      (FlexionModes *self);
guint           flexion_modes_get_mobility     (FlexionModes *self);
guint           flexion_modes_get_self_stress  (FlexionModes *self);
guint           flexion_modes_get_n_unknowns   (FlexionModes *self);
char           *flexion_modes_get_summary      (FlexionModes *self);
double         *flexion_modes_get_shape        (FlexionModes *self, guint mode,
                                                FlexionShapeValue value, gsize *n_values);
double         *flexion_modes_get_link_shape   (FlexionModes *self, guint mode, const char *link,
                                                FlexionShapeValue value, gsize *n_values,
                                                GError **error);
gboolean        flexion_modes_write_csv        (FlexionModes *self, const char *path,
                                                GError **error);
gboolean        flexion_modes_write_shapes     (FlexionModes *self, const char *path,
                                                GError **error);

G_END_DECLS
