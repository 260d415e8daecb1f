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

static const Kind joints = { "joint", n_joints, joint_id };
static const Kind links = { "link", n_links, link_id };
static const Kind loads = { "load", n_loads, load_id };
static const Kind motors = { "motor", fx_model_n_motors, motor_id };
static const Kind probes = { "probe", n_probes, probe_id };

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

/* The index of the element with `id`, or -1 with FLEXION_ERROR_NOT_FOUND. */
static int
find (const FxModel *model, const Kind *kind, const char *id, GError **error)
{
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
 * Returns: (transfer full) (array zero-terminated=1): the joints' ids, in file order
 */
char **
flexion_model_list_joints (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &joints);
}

/**
 * flexion_model_list_links:
 * @self: a model
 *
 * Returns: (transfer full) (array zero-terminated=1): the links' ids, in file order
 */
char **
flexion_model_list_links (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &links);
}

/**
 * flexion_model_list_loads:
 * @self: a model
 *
 * Returns: (transfer full) (array zero-terminated=1): the ids of the loads
 *   that have one, in file order
 */
char **
flexion_model_list_loads (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &loads);
}

/**
 * flexion_model_list_motors:
 * @self: a model
 *
 * Returns: (transfer full) (array zero-terminated=1): the motors' ids, in file order
 */
char **
flexion_model_list_motors (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &motors);
}

/**
 * flexion_model_list_probes:
 * @self: a model
 *
 * Returns: (transfer full) (array zero-terminated=1): the probes' ids, in
 *   file order (the order of `flexion-cli run --probes` columns)
 */
char **
flexion_model_list_probes (FlexionModel *self)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return list_ids (self->model, &probes);
}

/* ------------------------------------------------------------ edits */

/* A copy to change; commit() puts it in place if the checker takes it. */
static FxModel *
begin_edit (FlexionModel *self)
{
  return fx_model_copy (self->model);
}

static gboolean
commit_edit (FlexionModel *self, FxModel *copy, GError **error)
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

static gboolean
check_finite (double value, const char *what, GError **error)
{
  if (isfinite (value))
    return TRUE;
  g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID, "%s must be a finite number", what);
  return FALSE;
}

/* ------------------------------------------------------- link values */

typedef enum { CANONICAL, MATERIAL, SHAPE, DAMPING } KeyGroup;

typedef struct {
  const char *key;   /* as in the file */
  KeyGroup group;
  gsize offset;      /* in FxSection (CANONICAL, MATERIAL, SHAPE) or FxLink (DAMPING) */
  int shape;         /* SHAPE: the shape that has it (-1: rectangle or square) */
} LinkKey;

#define SECTION(field) G_STRUCT_OFFSET (FxSection, field)
#define LINK(field) G_STRUCT_OFFSET (FxLink, field)

static const LinkKey link_keys[] = {
  { "rhoA", CANONICAL, SECTION (rhoA), 0 },
  { "rhoI", CANONICAL, SECTION (rhoI), 0 },
  { "EA", CANONICAL, SECTION (EA), 0 },
  { "GA", CANONICAL, SECTION (GA), 0 },
  { "EI", CANONICAL, SECTION (EI), 0 },
  { "E", MATERIAL, SECTION (E), 0 },
  { "nu", MATERIAL, SECTION (nu), 0 },
  { "rho", MATERIAL, SECTION (rho), 0 },
  { "shear_factor", MATERIAL, SECTION (shear_factor), 0 },
  { "shape.width", SHAPE, SECTION (width), FX_SHAPE_RECTANGLE },
  { "shape.height", SHAPE, SECTION (height), FX_SHAPE_RECTANGLE },
  { "shape.side", SHAPE, SECTION (width), FX_SHAPE_SQUARE },
  { "shape.diameter", SHAPE, SECTION (diameter), -1 },
  { "shape.inner_diameter", SHAPE, SECTION (inner_diameter), FX_SHAPE_TUBE },
  { "damping.velocity", DAMPING, LINK (damping), 0 },
  { "damping.rotation", DAMPING, LINK (rotational_damping), 0 },
  { "damping.kelvin_voigt", DAMPING, LINK (kelvin_voigt), 0 },
};

/* Where `key` of `link` lives, or NULL with a message that says why not. */
static double *
link_value (FxLink *link, const char *key, GError **error)
{
  const LinkKey *k = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (link_keys); i++)
    if (g_strcmp0 (link_keys[i].key, key) == 0)
      k = &link_keys[i];
  if (k == NULL)
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND,
                   "a link has no value \"%s\" (rhoA, rhoI, EA, GA, EI, E, nu, rho, "
                   "shear_factor, shape.width, shape.height, shape.side, shape.diameter, "
                   "shape.inner_diameter, damping.velocity, damping.rotation, "
                   "damping.kelvin_voigt)", key ? key : "(null)");
      return NULL;
    }
  if (k->group == DAMPING)
    return (double *) ((char *) link + k->offset);
  if (k->group != CANONICAL && link->section.form != FX_SECTION_MATERIAL)
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND,
                   "link \"%s\": its section is given as rhoA, rhoI, EA, GA and EI, "
                   "so it has no %s", link->id, key);
      return NULL;
    }
  if (k->group == SHAPE
      && !(k->shape == -1 ? (link->section.shape == FX_SHAPE_CIRCLE
                             || link->section.shape == FX_SHAPE_TUBE)
                          : (int) link->section.shape == k->shape))
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND,
                   "link \"%s\": its section's shape is a %s, which has no %s", link->id,
                   fx_shape_type_to_string (link->section.shape), key);
      return NULL;
    }
  return (double *) ((char *) &link->section + k->offset);
}

/**
 * flexion_model_get_link_value:
 * @self: a model
 * @link: a link's id
 * @key: a section or damping value, named as in the file: `rhoA`, `rhoI`,
 *   `EA`, `GA`, `EI` (always there: derived from the material form when
 *   the file gives that), `E`, `nu`, `rho`, `shear_factor`,
 *   `shape.width`, `shape.height`, `shape.side`, `shape.diameter`,
 *   `shape.inner_diameter` (a section given in its material form, with
 *   that shape), `damping.velocity`, `damping.rotation`,
 *   `damping.kelvin_voigt`
 * @error: return location for an error
 *
 * Returns: the value in SI units, or 0 with @error set
 */
double
flexion_model_get_link_value (FlexionModel *self, const char *link, const char *key,
                              GError **error)
{
  double *v;
  int l;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  l = find (self->model, &links, link, error);
  if (l < 0)
    return 0.0;
  v = link_value (fx_model_link (self->model, (guint) l), key, error);
  return v ? *v : 0.0;
}

/**
 * flexion_model_set_link_value:
 * @self: a model
 * @link: a link's id
 * @key: a value's name, as for [method@Flexion.Model.get_link_value]
 * @value: the new value, SI units
 * @error: return location for an error
 *
 * Sets a section or damping value. A material value (`E`, `shape.height`
 * ...) derives the section's rhoA ... EI again; a canonical one (`EI` ...)
 * set on a section given in material form turns it into the canonical
 * form, with the other four values as they were derived.
 *
 * Returns: %TRUE if the checker accepts the value, else %FALSE with its
 *   sentence in @error and the model unchanged
 */
gboolean
flexion_model_set_link_value (FlexionModel *self, const char *link, const char *key,
                              double value, GError **error)
{
  FxModel *copy;
  FxLink *l;
  double *v;
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  i = find (self->model, &links, link, error);
  if (i < 0 || !check_finite (value, key, error))
    return FALSE;
  copy = begin_edit (self);
  l = fx_model_link (copy, (guint) i);
  v = link_value (l, key, error);
  if (v == NULL)
    {
      fx_model_free (copy);
      return FALSE;
    }
  *v = value;
  if (v >= &l->section.rhoA && v <= &l->section.EI)
    fx_section_set_canonical (&l->section, l->section.rhoA, l->section.rhoI, l->section.EA,
                              l->section.GA, l->section.EI);
  else if (l->section.form == FX_SECTION_MATERIAL
           && (char *) v >= (char *) &l->section && (char *) v < (char *) (&l->section + 1))
    fx_section_derive (&l->section);
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_link_elements:
 * @self: a model
 * @link: a link's id
 * @error: return location for an error
 *
 * Returns: the link's number of finite elements, or 0 with @error set
 */
guint
flexion_model_get_link_elements (FlexionModel *self, const char *link, GError **error)
{
  int l;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0);
  l = find (self->model, &links, link, error);
  return l < 0 ? 0 : fx_model_link (self->model, (guint) l)->elements;
}

/**
 * flexion_model_set_link_elements:
 * @self: a model
 * @link: a link's id
 * @elements: the number of finite elements
 * @error: return location for an error
 *
 * Sets a link's mesh (within the format's limits per link, per
 * floating-frame link and per model).
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_link_elements (FlexionModel *self, const char *link, guint elements,
                                 GError **error)
{
  FxModel *copy;
  int l;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  l = find (self->model, &links, link, error);
  if (l < 0)
    return FALSE;
  copy = begin_edit (self);
  fx_model_link (copy, (guint) l)->elements = elements;
  return commit_edit (self, copy, error);
}

/* TODO(degree): when FxLink gains its polynomial degree ("degree" in the
 * file, another branch's work), add flexion_model_get_link_degree and
 * flexion_model_set_link_degree here, checked like the element count. */

/**
 * flexion_model_get_link_length:
 * @self: a model
 * @link: a link's id
 * @error: return location for an error
 *
 * Returns: the drawn distance between the link's joints, m (0 with @error set)
 */
double
flexion_model_get_link_length (FlexionModel *self, const char *link, GError **error)
{
  int l;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  l = find (self->model, &links, link, error);
  return l < 0 ? 0.0 : fx_link_length (self->model, fx_model_link (self->model, (guint) l));
}

/* ------------------------------------------------------------ joints */

/**
 * flexion_model_get_joint_position:
 * @self: a model
 * @joint: a joint's id
 * @x: (out): where it is drawn, m
 * @y: (out): where it is drawn, m
 * @error: return location for an error
 *
 * Returns: (skip): %TRUE, or %FALSE with @error set if there is no such joint
 */
gboolean
flexion_model_get_joint_position (FlexionModel *self, const char *joint, double *x, double *y,
                                  GError **error)
{
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  *x = *y = 0.0;
  j = find (self->model, &joints, joint, error);
  if (j < 0)
    return FALSE;
  *x = fx_model_joint (self->model, (guint) j)->at[0];
  *y = fx_model_joint (self->model, (guint) j)->at[1];
  return TRUE;
}

/**
 * flexion_model_set_joint_position:
 * @self: a model
 * @joint: a joint's id
 * @x: where to draw it, m
 * @y: where to draw it, m
 * @error: return location for an error
 *
 * Moves a joint of the drawn configuration (the links meeting there get
 * longer or shorter).
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_joint_position (FlexionModel *self, const char *joint, double x, double y,
                                  GError **error)
{
  FxModel *copy;
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  j = find (self->model, &joints, joint, error);
  if (j < 0 || !check_finite (x, "x", error) || !check_finite (y, "y", error))
    return FALSE;
  copy = begin_edit (self);
  fx_model_joint (copy, (guint) j)->at[0] = x;
  fx_model_joint (copy, (guint) j)->at[1] = y;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_joint_mass:
 * @self: a model
 * @joint: a joint's id
 * @error: return location for an error
 *
 * Returns: the mass lumped at the joint, kg (0: none)
 */
double
flexion_model_get_joint_mass (FlexionModel *self, const char *joint, GError **error)
{
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  j = find (self->model, &joints, joint, error);
  return j < 0 ? 0.0 : fx_model_joint (self->model, (guint) j)->mass;
}

/**
 * flexion_model_set_joint_mass:
 * @self: a model
 * @joint: a joint's id
 * @mass: kg, >= 0
 * @error: return location for an error
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_joint_mass (FlexionModel *self, const char *joint, double mass, GError **error)
{
  FxModel *copy;
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  j = find (self->model, &joints, joint, error);
  if (j < 0 || !check_finite (mass, "mass", error))
    return FALSE;
  copy = begin_edit (self);
  fx_model_joint (copy, (guint) j)->mass = mass;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_joint_support:
 * @self: a model
 * @joint: a joint's id
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the support as the file names it:
 *   "none", "pin", "clamp", "guided" or "roller"; %NULL with @error set
 */
char *
flexion_model_get_joint_support (FlexionModel *self, const char *joint, GError **error)
{
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  j = find (self->model, &joints, joint, error);
  return j < 0 ? NULL : g_strdup (fx_support_to_string (fx_model_joint (self->model, (guint) j)->support));
}

/**
 * flexion_model_set_joint_support:
 * @self: a model
 * @joint: a joint's id
 * @support: "none", "pin", "clamp", "guided" or "roller"
 * @error: return location for an error
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_joint_support (FlexionModel *self, const char *joint, const char *support,
                                 GError **error)
{
  FxSupport value;
  FxModel *copy;
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  j = find (self->model, &joints, joint, error);
  if (j < 0)
    return FALSE;
  if (support == NULL || !fx_support_from_string (support, &value))
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID,
                   "joints[%d].support: \"%s\" is not one of none, pin, clamp, guided, roller",
                   j, support ? support : "(null)");
      return FALSE;
    }
  copy = begin_edit (self);
  fx_model_joint (copy, (guint) j)->support = value;
  return commit_edit (self, copy, error);
}

/* ------------------------------------------------- loads and motors */

/**
 * flexion_model_get_load_force:
 * @self: a model
 * @load: a load's id
 * @fx: (out): the force's amplitude, N (times the load's profile)
 * @fy: (out): the force's amplitude, N
 * @error: return location for an error
 *
 * Returns: (skip): %TRUE, or %FALSE with @error set if there is no such load
 */
gboolean
flexion_model_get_load_force (FlexionModel *self, const char *load, double *fx, double *fy,
                              GError **error)
{
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  *fx = *fy = 0.0;
  i = find (self->model, &loads, load, error);
  if (i < 0)
    return FALSE;
  *fx = fx_model_load (self->model, (guint) i)->force[0];
  *fy = fx_model_load (self->model, (guint) i)->force[1];
  return TRUE;
}

/**
 * flexion_model_set_load_force:
 * @self: a model
 * @load: a load's id
 * @fx: the force's amplitude, N
 * @fy: the force's amplitude, N
 * @error: return location for an error
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_load_force (FlexionModel *self, const char *load, double fx, double fy,
                              GError **error)
{
  FxModel *copy;
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  i = find (self->model, &loads, load, error);
  if (i < 0 || !check_finite (fx, "fx", error) || !check_finite (fy, "fy", error))
    return FALSE;
  copy = begin_edit (self);
  fx_model_load (copy, (guint) i)->force[0] = fx;
  fx_model_load (copy, (guint) i)->force[1] = fy;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_load_moment:
 * @self: a model
 * @load: a load's id
 * @error: return location for an error
 *
 * Returns: the moment's amplitude, N m (times the load's profile)
 */
double
flexion_model_get_load_moment (FlexionModel *self, const char *load, GError **error)
{
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  i = find (self->model, &loads, load, error);
  return i < 0 ? 0.0 : fx_model_load (self->model, (guint) i)->moment;
}

/**
 * flexion_model_set_load_moment:
 * @self: a model
 * @load: a load's id
 * @moment: the moment's amplitude, N m
 * @error: return location for an error
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_load_moment (FlexionModel *self, const char *load, double moment,
                               GError **error)
{
  FxModel *copy;
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  i = find (self->model, &loads, load, error);
  if (i < 0 || !check_finite (moment, "moment", error))
    return FALSE;
  copy = begin_edit (self);
  fx_model_load (copy, (guint) i)->moment = moment;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_motor_value:
 * @self: a model
 * @motor: a motor's id
 * @error: return location for an error
 *
 * Returns: a torque motor's torque (N m) or a speed motor's speed
 *   (rad/s), times its profile
 */
double
flexion_model_get_motor_value (FlexionModel *self, const char *motor, GError **error)
{
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  i = find (self->model, &motors, motor, error);
  return i < 0 ? 0.0 : fx_model_motor (self->model, (guint) i)->value;
}

/**
 * flexion_model_set_motor_value:
 * @self: a model
 * @motor: a motor's id
 * @value: torque (N m) or speed (rad/s)
 * @error: return location for an error
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_motor_value (FlexionModel *self, const char *motor, double value,
                               GError **error)
{
  FxModel *copy;
  int i;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  i = find (self->model, &motors, motor, error);
  if (i < 0 || !check_finite (value, "value", error))
    return FALSE;
  copy = begin_edit (self);
  fx_model_motor (copy, (guint) i)->value = value;
  return commit_edit (self, copy, error);
}

/* ------------------------------------------------------ whole model */

/**
 * flexion_model_get_gravity:
 * @self: a model
 * @gx: (out): m/s^2
 * @gy: (out): m/s^2
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
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_gravity (FlexionModel *self, double gx, double gy, GError **error)
{
  FxModel *copy;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  if (!check_finite (gx, "gravity", error) || !check_finite (gy, "gravity", error))
    return FALSE;
  copy = begin_edit (self);
  copy->gravity[0] = gx;
  copy->gravity[1] = gy;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_time_step:
 * @self: a model
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
  if (!check_finite (dt, "time.dt", error))
    return FALSE;
  copy = begin_edit (self);
  copy->dt = dt;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_end_time:
 * @self: a model
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
  if (!check_finite (t_end, "time.end", error))
    return FALSE;
  copy = begin_edit (self);
  copy->t_end = t_end;
  return commit_edit (self, copy, error);
}

/**
 * flexion_model_get_seed:
 * @self: a model
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
 */
void
flexion_model_set_seed (FlexionModel *self, guint64 seed)
{
  g_return_if_fail (FLEXION_IS_MODEL (self));
  self->model->seed = seed;
}
