/* flexion-ensemble.h: samples of a noisy model and their statistics. */
#pragma once

#if !defined (FLEXION_INSIDE) && !defined (FLEXION_COMPILATION)
#error "Only <flexion.h> can be included directly."
#endif

#include <gio/gio.h>
#include "flexion-model.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_ENSEMBLE (flexion_ensemble_get_type ())
G_DECLARE_FINAL_TYPE (FlexionEnsemble, flexion_ensemble, FLEXION, ENSEMBLE, GObject)

FlexionEnsemble *flexion_ensemble_new          (FlexionModel *model, guint n_samples,
                                                guint threads, GCancellable *cancellable,
                                                GError **error);
guint            flexion_ensemble_get_n_samples (FlexionEnsemble *self);
guint            flexion_ensemble_get_n_ok      (FlexionEnsemble *self);
guint            flexion_ensemble_get_n_failed  (FlexionEnsemble *self);
double           flexion_ensemble_get_worst_balance (FlexionEnsemble *self);
char           **flexion_ensemble_list_columns  (FlexionEnsemble *self);
double          *flexion_ensemble_get_times     (FlexionEnsemble *self, gsize *n_values);
double          *flexion_ensemble_get_mean      (FlexionEnsemble *self, const char *column,
                                                 gsize *n_values, GError **error);
double          *flexion_ensemble_get_std       (FlexionEnsemble *self, const char *column,
                                                 gsize *n_values, GError **error);
double          *flexion_ensemble_get_quantile  (FlexionEnsemble *self, const char *column,
                                                 double p, gsize *n_values, GError **error);
gboolean         flexion_ensemble_write_stats   (FlexionEnsemble *self, const char *path,
                                                 GError **error);

G_END_DECLS
