/* flexion-simulation.h: a model stepped in time. */
#pragma once

#if !defined (FLEXION_INSIDE) && !defined (FLEXION_COMPILATION)
#error "Only <flexion.h> can be included directly."
#endif

#include <gio/gio.h>
#include "flexion-model.h"
#include "flexion-types.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_SIMULATION (flexion_simulation_get_type ())
G_DECLARE_FINAL_TYPE (FlexionSimulation, flexion_simulation, FLEXION, SIMULATION, GObject)

FlexionSimulation *flexion_simulation_new       (FlexionModel *model, GCancellable *cancellable,
                                                 GError **error);
FlexionModel      *flexion_simulation_get_model (FlexionSimulation *self);
char              *flexion_simulation_describe_solver (FlexionSimulation *self);
void               flexion_simulation_set_newton (FlexionSimulation *self, FlexionNewton newton);
void               flexion_simulation_set_keep_history (FlexionSimulation *self, gboolean keep);

gboolean flexion_simulation_step      (FlexionSimulation *self, GCancellable *cancellable,
                                       GError **error);
gboolean flexion_simulation_run_until (FlexionSimulation *self, double t,
                                       GCancellable *cancellable, GError **error);
gboolean flexion_simulation_run       (FlexionSimulation *self, GCancellable *cancellable,
                                       GError **error);
gboolean flexion_simulation_settle    (FlexionSimulation *self, double t,
                                       GCancellable *cancellable, GError **error);

guint    flexion_simulation_get_n_frames     (FlexionSimulation *self);
double   flexion_simulation_get_time         (FlexionSimulation *self);
double   flexion_simulation_get_energy       (FlexionSimulation *self);
double   flexion_simulation_get_kinetic_energy      (FlexionSimulation *self);
double   flexion_simulation_get_elastic_energy      (FlexionSimulation *self);
double   flexion_simulation_get_gravity_energy      (FlexionSimulation *self);
double   flexion_simulation_get_supplied     (FlexionSimulation *self);
double   flexion_simulation_get_dissipated   (FlexionSimulation *self);
double   flexion_simulation_get_balance      (FlexionSimulation *self);
guint    flexion_simulation_get_newton_iterations (FlexionSimulation *self);

double  *flexion_simulation_get_series       (FlexionSimulation *self, const char *name,
                                              gsize *n_values, GError **error);

double   flexion_simulation_get_probe        (FlexionSimulation *self, const char *probe,
                                              FlexionProbeValue value, GError **error);
double  *flexion_simulation_get_probe_series (FlexionSimulation *self, const char *probe,
                                              FlexionProbeValue value, gsize *n_values,
                                              GError **error);
double   flexion_simulation_get_reaction     (FlexionSimulation *self, const char *joint,
                                              FlexionReaction value, GError **error);
double  *flexion_simulation_get_reaction_series (FlexionSimulation *self, const char *joint,
                                                 FlexionReaction value, gsize *n_values,
                                                 GError **error);
gboolean flexion_simulation_joint_holds      (FlexionSimulation *self, const char *joint,
                                              FlexionReaction value, GError **error);
double  *flexion_simulation_get_link_nodes   (FlexionSimulation *self, const char *link,
                                              FlexionNodeValue value, gsize *n_values,
                                              GError **error);

G_END_DECLS
