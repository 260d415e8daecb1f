/* flexion-model.c: FlexionModel, a mechanism as a model file holds it
 * (flexion-model.h), over the core's FxModel.
 *
 * Every change is made on a copy that the checker (fx_model_validate, the
 * rules a file is loaded with) must accept before it replaces the model:
 * a refused value leaves the model as it was and raises the checker's
 * sentence, "JSON.path: reason". */
#include "flexion-private.h"
#include "fx-model-io.h"

#include <math.h>

/**
 * FlexionModel:
 *
 * A mechanism: its joints, links, loads, motors and probes, and the time
 * span to run it over, as a `.flexion` file holds them.
 *
 * Load one with [ctor@Flexion.Model.new_from_file], change what a study
 * varies by id (a link's section, a joint's position, a load's force, the
 * time step...) and hand it to [ctor@Flexion.Simulation.new],
 * [ctor@Flexion.Modes.new] or [ctor@Flexion.Ensemble.new]. A setter that
 * the checker refuses raises [error@Flexion.Error.INVALID] with the same
 * sentence `flexion-cli` prints and leaves the model unchanged.
 *
 * ```python
 * import gi
 * gi.require_version("Flexion", "1.0")
 * from gi.repository import Flexion
 *
 * model = Flexion.Model.new_from_file("four-bar.flexion")
 * model.set_link_elements("crank", 8)
 * model.set_end_time(2.0)
 * ```
 */
struct _FlexionModel {
  GObject parent_instance;
  FxModel *model;
  GPtrArray *warnings;  /* char*, from loading */
};

G_DEFINE_FINAL_TYPE (FlexionModel, flexion_model, G_TYPE_OBJECT)

static void
flexion_model_finalize (GObject *object)
{
  FlexionModel *self = FLEXION_MODEL (object);

  g_clear_pointer (&self->model, fx_model_free);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  G_OBJECT_CLASS (flexion_model_parent_class)->finalize (object);
}

static void
flexion_model_class_init (FlexionModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flexion_model_finalize;
}

static void
flexion_model_init (FlexionModel *self)
{
  self->warnings = g_ptr_array_new_with_free_func (g_free);
}

const FxModel *
flexion_model_peek (FlexionModel *model)
{
  return model->model;
}

static FlexionModel *
wrap (FxModel *model, GPtrArray *warnings)
{
  FlexionModel *self = g_object_new (FLEXION_TYPE_MODEL, NULL);

  self->model = model;
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (warnings, i)));
  return self;
}

static FlexionError
load_code (const GError *error)
{
  if (g_error_matches (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO))
    return FLEXION_ERROR_IO;
  if (g_error_matches (error, FX_MODEL_ERROR, FX_MODEL_ERROR_PARSE))
    return FLEXION_ERROR_PARSE;
  return FLEXION_ERROR_INVALID;
}

/**
 * flexion_model_new_from_file:
 * @path: (type filename): a `.flexion` file
 * @error: return location for an error
 *
 * Loads a model file. Every problem of an invalid file is one line of the
 * error's message ("JSON.path: reason"), as `flexion-cli` prints them; the
 * warnings of a file that loads (unknown keys and the like) are kept for
 * [method@Flexion.Model.get_warnings].
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
FlexionModel *
flexion_model_new_from_file (const char *path, GError **error)
{
  g_autoptr (GPtrArray) warnings = NULL;
  GError *local = NULL;
  FxModel *model;

  g_return_val_if_fail (path != NULL, NULL);
  model = fx_model_load_file (path, &warnings, &local);
  if (model == NULL)
    {
      FlexionError code = load_code (local);
      flexion_propagate_core_error (error, local, code);
      return NULL;
    }
  return wrap (model, warnings);
}

/**
 * flexion_model_new_from_json:
 * @json: a model as JSON text (what a `.flexion` file holds)
 * @error: return location for an error
 *
 * Reads a model from text, with the rules and messages of
 * [ctor@Flexion.Model.new_from_file].
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 */
FlexionModel *
flexion_model_new_from_json (const char *json, GError **error)
{
  g_autoptr (GPtrArray) warnings = NULL;
  GError *local = NULL;
  FxModel *model;

  g_return_val_if_fail (json != NULL, NULL);
  model = fx_model_load_data (json, -1, &warnings, &local);
  if (model == NULL)
    {
      FlexionError code = load_code (local);
      flexion_propagate_core_error (error, local, code);
      return NULL;
    }
  return wrap (model, warnings);
}

/**
 * flexion_model_copy:
 * @self: a model
 *
 * A copy to change independently, for one case of a study.
 *
 * Returns: (transfer full): a new model equal to @self
 */
FlexionModel *
flexion_model_copy (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return wrap (fx_model_copy (self->model), self->warnings);
}

/**
 * flexion_model_save:
 * @self: a model
 * @path: (type filename): where to write
 * @error: return location for an error
 *
 * Writes the model as a `.flexion` file, into a temporary file beside
 * @path renamed over it at the end; numbers round-trip exactly.
 *
 * Returns: %TRUE on success
 */
gboolean
flexion_model_save (FlexionModel *self, const char *path, GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (fx_model_save_file (self->model, path, &local))
    return TRUE;
  flexion_propagate_core_error (error, local, FLEXION_ERROR_IO);
  return FALSE;
}

/**
 * flexion_model_to_json:
 * @self: a model
 *
 * The model as a `.flexion` file holds it.
 *
 * Returns: (transfer full): pretty JSON with a trailing newline
 */
char *
flexion_model_to_json (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return fx_model_to_data (self->model, NULL);
}

/**
 * flexion_model_check:
 * @self: a model
 * @error: return location for an error
 *
 * Runs the checker a file is loaded with. A model made by this library's
 * setters always passes; this is for a program's own confidence.
 *
 * Returns: %TRUE if the model is valid, else %FALSE with one
 *   "JSON.path: reason" line per problem in @error
 */
gboolean
flexion_model_check (FlexionModel *self, GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  if (fx_model_validate (self->model, &local))
    return TRUE;
  flexion_propagate_core_error (error, local, FLEXION_ERROR_INVALID);
  return FALSE;
}

/**
 * flexion_model_get_warnings:
 * @self: a model
 *
 * What loading warned about ("JSON.path: message", e.g. an unknown key),
 * which `flexion-cli` prints as warnings.
 *
 * Returns: (transfer full) (array zero-terminated=1): the warnings, maybe none
 */
char **
flexion_model_get_warnings (FlexionModel *self)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **out;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  for (guint i = 0; i < self->warnings->len; i++)
    g_strv_builder_add (b, g_ptr_array_index (self->warnings, i));
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/**
 * flexion_model_get_name:
 * @self: a model
 *
 * The model's title.
 *
 * Returns: (nullable): the name, or %NULL when the file gives none
 */
const char *
flexion_model_get_name (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return self->model->name;
}

/* ------------------------------------------------------------- ids */

typedef const char *(*IdOf) (const FxModel *model, guint i);

static const char *joint_id (const FxModel *m, guint i) { return fx_model_joint (m, i)->id; }
static const char *link_id (const FxModel *m, guint i) { return fx_model_link (m, i)->id; }
static const char *load_id (const FxModel *m, guint i) { return fx_model_load (m, i)->id; }
static const char *motor_id (const FxModel *m, guint i) { return fx_model_motor (m, i)->id; }
static const char *probe_id (const FxModel *m, guint i) { return fx_model_probe (m, i)->id; }

static guint n_joints (const FxModel *m) { return m->joints->len; }
static guint n_links (const FxModel *m) { return m->links->len; }
static guint n_loads (const FxModel *m) { return m->loads->len; }
static guint n_probes (const FxModel *m) { return m->probes->len; }

typedef struct {
  const char *what;  /* "joint", for messages */
  guint (*count) (const FxModel *m);
  IdOf id;
} Kind;

static const Kind kinds[] = {
  [FLEXION_KIND_JOINT] = { "joint", n_joints, joint_id },
  [FLEXION_KIND_LINK] = { "link", n_links, link_id },
  [FLEXION_KIND_LOAD] = { "load", n_loads, load_id },
  [FLEXION_KIND_MOTOR] = { "motor", fx_model_n_motors, motor_id },
  [FLEXION_KIND_PROBE] = { "probe", n_probes, probe_id },
};

static char **
list_ids (const FxModel *model, const Kind *kind)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **out;

  for (guint i = 0; i < kind->count (model); i++)
    if (kind->id (model, i) != NULL)
      g_strv_builder_add (b, kind->id (model, i));
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

int
flexion_model_find (FlexionModel *self, FlexionKind which, const char *id, GError **error)
{
  const FxModel *model = self->model;
  const Kind *kind = &kinds[which];

  for (guint i = 0; id != NULL && i < kind->count (model); i++)
    if (g_strcmp0 (kind->id (model, i), id) == 0)
      return (int) i;
  g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND, "the model has no %s \"%s\"",
               kind->what, id ? id : "(null)");
  return -1;
}

/**
 * flexion_model_list_joints:
 * @self: a model
 *
 * Lists the joints.
 *
 * Returns: (transfer full) (array zero-terminated=1): the joints' ids, in file order
 */
char **
flexion_model_list_joints (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &kinds[FLEXION_KIND_JOINT]);
}

/**
 * flexion_model_list_links:
 * @self: a model
 *
 * Lists the links.
 *
 * Returns: (transfer full) (array zero-terminated=1): the links' ids, in file order
 */
char **
flexion_model_list_links (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &kinds[FLEXION_KIND_LINK]);
}

/**
 * flexion_model_list_loads:
 * @self: a model
 *
 * Lists the loads that have an id.
 *
 * Returns: (transfer full) (array zero-terminated=1): the ids of the loads
 *   that have one, in file order
 */
char **
flexion_model_list_loads (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &kinds[FLEXION_KIND_LOAD]);
}

/**
 * flexion_model_list_motors:
 * @self: a model
 *
 * Lists the motors.
 *
 * Returns: (transfer full) (array zero-terminated=1): the motors' ids, in file order
 */
char **
flexion_model_list_motors (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &kinds[FLEXION_KIND_MOTOR]);
}

/**
 * flexion_model_list_probes:
 * @self: a model
 *
 * Lists the probes.
 *
 * Returns: (transfer full) (array zero-terminated=1): the probes' ids, in
 *   file order (the order of `flexion-cli run --probes` columns)
 */
char **
flexion_model_list_probes (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &kinds[FLEXION_KIND_PROBE]);
}

/* ------------------------------------------------------------ edits */

FxModel *
flexion_model_begin_edit (FlexionModel *self)
{
  return fx_model_copy (self->model);
}

gboolean
flexion_model_commit_edit (FlexionModel *self, FxModel *copy, GError **error)
{
  GError *local = NULL;

  if (!fx_model_validate (copy, &local))
    {
      fx_model_free (copy);
      flexion_propagate_core_error (error, local, FLEXION_ERROR_INVALID);
      return FALSE;
    }
  fx_model_free (self->model);
  self->model = copy;
  return TRUE;
}

gboolean
flexion_check_finite (double value, const char *what, GError **error)
{
  if (isfinite (value))
    return TRUE;
  g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID, "%s must be a finite number", what);
  return FALSE;
}

/* ------------------------------------------------------ whole model */

/**
 * flexion_model_get_gravity:
 * @self: a model
 * @gx: (out): m/s^2
 * @gy: (out): m/s^2
 *
 * Gets the acceleration of gravity.
 */
void
flexion_model_get_gravity (FlexionModel *self, double *gx, double *gy)
{
  g_return_if_fail (FLEXION_IS_MODEL (self));
  *gx = self->model->gravity[0];
  *gy = self->model->gravity[1];
}

/**
 * flexion_model_set_gravity:
 * @self: a model
 * @gx: m/s^2
 * @gy: m/s^2
 * @error: return location for an error
 *
 * Sets the acceleration of gravity.
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_gravity (FlexionModel *self, double gx, double gy, GError **error)
{
  FxModel *copy;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  if (!flexion_check_finite (gx, "gravity", error) || !flexion_check_finite (gy, "gravity", error))
    return FALSE;
  copy = flexion_model_begin_edit (self);
  copy->gravity[0] = gx;
  copy->gravity[1] = gy;
  return flexion_model_commit_edit (self, copy, error);
}

/**
 * flexion_model_get_time_step:
 * @self: a model
 *
 * Gets the time step.
 *
 * Returns: the time step Δt, s
 */
double
flexion_model_get_time_step (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  return self->model->dt;
}

/**
 * flexion_model_set_time_step:
 * @self: a model
 * @dt: the time step Δt, s (> 0)
 * @error: return location for an error
 *
 * Like `flexion-cli run --dt`.
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_time_step (FlexionModel *self, double dt, GError **error)
{
  FxModel *copy;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  if (!flexion_check_finite (dt, "time.dt", error))
    return FALSE;
  copy = flexion_model_begin_edit (self);
  copy->dt = dt;
  return flexion_model_commit_edit (self, copy, error);
}

/**
 * flexion_model_get_end_time:
 * @self: a model
 *
 * Gets the time a run ends at.
 *
 * Returns: the time a run ends at, s
 */
double
flexion_model_get_end_time (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  return self->model->t_end;
}

/**
 * flexion_model_set_end_time:
 * @self: a model
 * @t_end: s (> 0)
 * @error: return location for an error
 *
 * Like `flexion-cli run --until`.
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_end_time (FlexionModel *self, double t_end, GError **error)
{
  FxModel *copy;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  if (!flexion_check_finite (t_end, "time.end", error))
    return FALSE;
  copy = flexion_model_begin_edit (self);
  copy->t_end = t_end;
  return flexion_model_commit_edit (self, copy, error);
}

/**
 * flexion_model_get_seed:
 * @self: a model
 *
 * Gets the seed of the model's noise.
 *
 * Returns: the seed of the model's noise
 */
guint64
flexion_model_get_seed (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0);
  return self->model->seed;
}

/**
 * flexion_model_set_seed:
 * @self: a model
 * @seed: the seed of the model's noise, like `flexion-cli run --seed`
 *
 * Sets the seed of the model's noise.
 */
void
flexion_model_set_seed (FlexionModel *self, guint64 seed)
{
  g_return_if_fail (FLEXION_IS_MODEL (self));
  self->model->seed = seed;
}
