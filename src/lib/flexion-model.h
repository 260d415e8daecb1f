/* flexion-model.h: a mechanism as a model file holds it. */
#pragma once

#if !defined (FLEXION_INSIDE) && !defined (FLEXION_COMPILATION)
#error "Only <flexion.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

#define FLEXION_TYPE_MODEL (flexion_model_get_type ())
G_DECLARE_FINAL_TYPE (FlexionModel, flexion_model, FLEXION, MODEL, GObject)

FlexionModel *flexion_model_new_from_file  (const char *path, GError **error);
FlexionModel *flexion_model_new_from_json  (const char *json, GError **error);
FlexionModel *flexion_model_copy           (FlexionModel *self);
gboolean      flexion_model_save           (FlexionModel *self, const char *path, GError **error);
char         *flexion_model_to_json        (FlexionModel *self);
gboolean      flexion_model_check          (FlexionModel *self, GError **error);
char        **flexion_model_get_warnings   (FlexionModel *self);
const char   *flexion_model_get_name       (FlexionModel *self);

char        **flexion_model_list_joints    (FlexionModel *self);
char        **flexion_model_list_links     (FlexionModel *self);
char        **flexion_model_list_loads     (FlexionModel *self);
char        **flexion_model_list_motors    (FlexionModel *self);
char        **flexion_model_list_probes    (FlexionModel *self);

double        flexion_model_get_link_value (FlexionModel *self, const char *link, const char *key,
                                            GError **error);
gboolean      flexion_model_set_link_value (FlexionModel *self, const char *link, const char *key,
                                            double value, GError **error);
guint         flexion_model_get_link_elements (FlexionModel *self, const char *link, GError **error);
gboolean      flexion_model_set_link_elements (FlexionModel *self, const char *link, guint elements,
                                               GError **error);
guint         flexion_model_get_link_degree   (FlexionModel *self, const char *link, GError **error);
gboolean      flexion_model_set_link_degree   (FlexionModel *self, const char *link, guint degree,
                                               GError **error);
double        flexion_model_get_link_length (FlexionModel *self, const char *link, GError **error);

gboolean      flexion_model_get_joint_position (FlexionModel *self, const char *joint, double *x,
                                                double *y, GError **error);
gboolean      flexion_model_set_joint_position (FlexionModel *self, const char *joint, double x,
                                                double y, GError **error);
double        flexion_model_get_joint_mass     (FlexionModel *self, const char *joint, GError **error);
gboolean      flexion_model_set_joint_mass     (FlexionModel *self, const char *joint, double mass,
                                                GError **error);
char         *flexion_model_get_joint_support  (FlexionModel *self, const char *joint, GError **error);
gboolean      flexion_model_set_joint_support  (FlexionModel *self, const char *joint,
                                                const char *support, GError **error);

gboolean      flexion_model_get_load_force  (FlexionModel *self, const char *load, double *fx,
                                             double *fy, GError **error);
gboolean      flexion_model_set_load_force  (FlexionModel *self, const char *load, double fx,
                                             double fy, GError **error);
double        flexion_model_get_load_moment (FlexionModel *self, const char *load, GError **error);
gboolean      flexion_model_set_load_moment (FlexionModel *self, const char *load, double moment,
                                             GError **error);
double        flexion_model_get_motor_value (FlexionModel *self, const char *motor, GError **error);
gboolean      flexion_model_set_motor_value (FlexionModel *self, const char *motor, double value,
                                             GError **error);

char         *flexion_model_get_load_profile  (FlexionModel *self, const char *load, GError **error);
char         *flexion_model_get_motor_profile (FlexionModel *self, const char *motor, GError **error);
double        flexion_model_get_load_profile_value  (FlexionModel *self, const char *load,
                                                     const char *key, GError **error);
gboolean      flexion_model_set_load_profile_value  (FlexionModel *self, const char *load,
                                                     const char *key, double value, GError **error);
double        flexion_model_get_motor_profile_value (FlexionModel *self, const char *motor,
                                                     const char *key, GError **error);
gboolean      flexion_model_set_motor_profile_value (FlexionModel *self, const char *motor,
                                                     const char *key, double value, GError **error);

void          flexion_model_get_gravity     (FlexionModel *self, double *gx, double *gy);
gboolean      flexion_model_set_gravity     (FlexionModel *self, double gx, double gy, GError **error);
double        flexion_model_get_time_step   (FlexionModel *self);
gboolean      flexion_model_set_time_step   (FlexionModel *self, double dt, GError **error);
double        flexion_model_get_end_time    (FlexionModel *self);
gboolean      flexion_model_set_end_time    (FlexionModel *self, double t_end, GError **error);
guint64       flexion_model_get_seed        (FlexionModel *self);
void          flexion_model_set_seed        (FlexionModel *self, guint64 seed);

G_END_DECLS
