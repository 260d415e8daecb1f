/* flexion-model-values.c: FlexionModel's typed access by id to what
 * studies vary: a link's section, mesh and damping, a joint's position,
 * mass and support, a load's force and moment, a motor's value. Every
 * setter changes a copy that the checker must accept (flexion-model.c). */
#include "flexion-private.h"

#include <math.h>

/* ---------------------------------------- typed fields, read and set */

/* The joint, link, load or motor at index i of m. */
static void *
item_at (const FxModel *m, FlexionKind kind, guint i)
{
  switch (kind)
    {
    case FLEXION_KIND_JOINT: return fx_model_joint (m, i);
    case FLEXION_KIND_LINK: return fx_model_link (m, i);
    case FLEXION_KIND_LOAD: return fx_model_load (m, i);
    case FLEXION_KIND_MOTOR: return fx_model_motor (m, i);
    default: g_return_val_if_reached (NULL);
    }
}

#define FIELD(item, offset, type) ((type *) ((char *) (item) + (offset)))

/* Reads the n doubles at `offset` in the item named `id` into out (zeros
 * and FALSE with @error set when there is no such item). */
static gboolean
get_doubles (FlexionModel *self, FlexionKind kind, const char *id, gsize offset, guint n,
             double *out, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  for (guint k = 0; k < n; k++)
    out[k] = 0.0;
  int i = flexion_model_find (self, kind, id, error);
  if (i < 0)
    return FALSE;
  const double *v = FIELD (item_at (flexion_model_peek (self), kind, (guint) i), offset, double);
  for (guint k = 0; k < n; k++)
    out[k] = v[k];
  return TRUE;
}

/* Sets the n doubles at `offset` in the item named `id` (each finite,
 * called names[k] in a message) on a copy the checker must accept. */
static gboolean
set_doubles (FlexionModel *self, FlexionKind kind, const char *id, gsize offset, guint n,
             const double *values, const char *const *names, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  int i = flexion_model_find (self, kind, id, error);
  if (i < 0)
    return FALSE;
  for (guint k = 0; k < n; k++)
    if (!flexion_check_finite (values[k], names[k], error))
      return FALSE;
  FxModel *copy = flexion_model_begin_edit (self);
  double *v = FIELD (item_at (copy, kind, (guint) i), offset, double);
  for (guint k = 0; k < n; k++)
    v[k] = values[k];
  return flexion_model_commit_edit (self, copy, error);
}

static double
get_double (FlexionModel *self, FlexionKind kind, const char *id, gsize offset, GError **error)
{
  double v;
  get_doubles (self, kind, id, offset, 1, &v, error);
  return v;
}

static gboolean
set_double (FlexionModel *self, FlexionKind kind, const char *id, gsize offset, double value,
            const char *name, GError **error)
{
  return set_doubles (self, kind, id, offset, 1, &value, &name, error);
}

/* A link's count (elements, degree): 0 with @error set when there is no such link */
static guint
get_link_count (FlexionModel *self, const char *link, gsize offset, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0);
  int l = flexion_model_find (self, FLEXION_KIND_LINK, link, error);
  return l < 0 ? 0 : *FIELD (fx_model_link (flexion_model_peek (self), (guint) l), offset, guint);
}

static gboolean
set_link_count (FlexionModel *self, const char *link, gsize offset, guint value, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  int l = flexion_model_find (self, FLEXION_KIND_LINK, link, error);
  if (l < 0)
    return FALSE;
  FxModel *copy = flexion_model_begin_edit (self);
  *FIELD (fx_model_link (copy, (guint) l), offset, guint) = value;
  return flexion_model_commit_edit (self, copy, error);
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
 * Gets one of a link's section or damping values.
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
  l = flexion_model_find (self, FLEXION_KIND_LINK, link, error);
  if (l < 0)
    return 0.0;
  v = link_value (fx_model_link (flexion_model_peek (self), (guint) l), key, error);
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
  i = flexion_model_find (self, FLEXION_KIND_LINK, link, error);
  if (i < 0 || !flexion_check_finite (value, key, error))
    return FALSE;
  copy = flexion_model_begin_edit (self);
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
  return flexion_model_commit_edit (self, copy, error);
}

/**
 * flexion_model_get_link_elements:
 * @self: a model
 * @link: a link's id
 * @error: return location for an error
 *
 * Gets a link's number of finite elements.
 *
 * Returns: the link's number of finite elements, or 0 with @error set
 */
guint
flexion_model_get_link_elements (FlexionModel *self, const char *link, GError **error)
{
  return get_link_count (self, link, G_STRUCT_OFFSET (FxLink, elements), error);
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
  return set_link_count (self, link, G_STRUCT_OFFSET (FxLink, elements), elements, error);
}

/**
 * flexion_model_get_link_degree:
 * @self: a model
 * @link: a link's id
 * @error: return location for an error
 *
 * Gets the polynomial degree k of a link's elements (1, 2 or 3).
 *
 * Returns: the degree, or 0 with @error set
 */
guint
flexion_model_get_link_degree (FlexionModel *self, const char *link, GError **error)
{
  return get_link_count (self, link, G_STRUCT_OFFSET (FxLink, degree), error);
}

/**
 * flexion_model_set_link_degree:
 * @self: a model
 * @link: a link's id
 * @degree: the polynomial degree k of its elements: 1, 2 or 3 (a
 *   floating-frame link keeps 1)
 * @error: return location for an error
 *
 * Sets a link's element degree; an element of degree k counts k times
 * towards the model's element limit.
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_link_degree (FlexionModel *self, const char *link, guint degree,
                               GError **error)
{
  return set_link_count (self, link, G_STRUCT_OFFSET (FxLink, degree), degree, error);
}

/**
 * flexion_model_get_link_length:
 * @self: a model
 * @link: a link's id
 * @error: return location for an error
 *
 * Gets a link's drawn length.
 *
 * Returns: the drawn distance between the link's joints, m (0 with @error set)
 */
double
flexion_model_get_link_length (FlexionModel *self, const char *link, GError **error)
{
  int l;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  l = flexion_model_find (self, FLEXION_KIND_LINK, link, error);
  return l < 0 ? 0.0 : fx_link_length (flexion_model_peek (self), fx_model_link (flexion_model_peek (self), (guint) l));
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
 * Gets where a joint is drawn.
 *
 * Returns: (skip): %TRUE, or %FALSE with @error set if there is no such joint
 */
gboolean
flexion_model_get_joint_position (FlexionModel *self, const char *joint, double *x, double *y,
                                  GError **error)
{
  double at[2];
  gboolean found = get_doubles (self, FLEXION_KIND_JOINT, joint, G_STRUCT_OFFSET (FxJoint, at), 2,
                                at, error);
  *x = at[0];
  *y = at[1];
  return found;
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
  static const char *const names[2] = { "x", "y" };
  double at[2] = { x, y };
  return set_doubles (self, FLEXION_KIND_JOINT, joint, G_STRUCT_OFFSET (FxJoint, at), 2, at,
                      names, error);
}

/**
 * flexion_model_get_joint_mass:
 * @self: a model
 * @joint: a joint's id
 * @error: return location for an error
 *
 * Gets the mass lumped at a joint.
 *
 * Returns: the mass lumped at the joint, kg (0: none)
 */
double
flexion_model_get_joint_mass (FlexionModel *self, const char *joint, GError **error)
{
  return get_double (self, FLEXION_KIND_JOINT, joint, G_STRUCT_OFFSET (FxJoint, mass), error);
}

/**
 * flexion_model_set_joint_mass:
 * @self: a model
 * @joint: a joint's id
 * @mass: kg, >= 0
 * @error: return location for an error
 *
 * Sets the mass lumped at a joint.
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_joint_mass (FlexionModel *self, const char *joint, double mass, GError **error)
{
  return set_double (self, FLEXION_KIND_JOINT, joint, G_STRUCT_OFFSET (FxJoint, mass), mass,
                     "mass", error);
}

/**
 * flexion_model_get_joint_support:
 * @self: a model
 * @joint: a joint's id
 * @error: return location for an error
 *
 * Gets how a joint is supported.
 *
 * Returns: (transfer full) (nullable): the support as the file names it:
 *   "none", "pin", "clamp", "guided" or "roller"; %NULL with @error set
 */
char *
flexion_model_get_joint_support (FlexionModel *self, const char *joint, GError **error)
{
  int j;

  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  j = flexion_model_find (self, FLEXION_KIND_JOINT, joint, error);
  return j < 0 ? NULL : g_strdup (fx_support_to_string (fx_model_joint (flexion_model_peek (self), (guint) j)->support));
}

/**
 * flexion_model_set_joint_support:
 * @self: a model
 * @joint: a joint's id
 * @support: "none", "pin", "clamp", "guided" or "roller"
 * @error: return location for an error
 *
 * Sets how a joint is supported.
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
  j = flexion_model_find (self, FLEXION_KIND_JOINT, joint, error);
  if (j < 0)
    return FALSE;
  if (support == NULL || !fx_support_from_string (support, &value))
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID,
                   "joints[%d].support: \"%s\" is not one of none, pin, clamp, guided, roller",
                   j, support ? support : "(null)");
      return FALSE;
    }
  copy = flexion_model_begin_edit (self);
  fx_model_joint (copy, (guint) j)->support = value;
  return flexion_model_commit_edit (self, copy, error);
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
 * Gets a load's force.
 *
 * Returns: (skip): %TRUE, or %FALSE with @error set if there is no such load
 */
gboolean
flexion_model_get_load_force (FlexionModel *self, const char *load, double *fx, double *fy,
                              GError **error)
{
  double f[2];
  gboolean found = get_doubles (self, FLEXION_KIND_LOAD, load, G_STRUCT_OFFSET (FxLoad, force), 2,
                                f, error);
  *fx = f[0];
  *fy = f[1];
  return found;
}

/**
 * flexion_model_set_load_force:
 * @self: a model
 * @load: a load's id
 * @fx: the force's amplitude, N
 * @fy: the force's amplitude, N
 * @error: return location for an error
 *
 * Sets a load's force (its amplitude: the profile multiplies it).
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_load_force (FlexionModel *self, const char *load, double fx, double fy,
                              GError **error)
{
  static const char *const names[2] = { "fx", "fy" };
  double f[2] = { fx, fy };
  return set_doubles (self, FLEXION_KIND_LOAD, load, G_STRUCT_OFFSET (FxLoad, force), 2, f,
                      names, error);
}

/**
 * flexion_model_get_load_moment:
 * @self: a model
 * @load: a load's id
 * @error: return location for an error
 *
 * Gets a load's moment.
 *
 * Returns: the moment's amplitude, N m (times the load's profile)
 */
double
flexion_model_get_load_moment (FlexionModel *self, const char *load, GError **error)
{
  return get_double (self, FLEXION_KIND_LOAD, load, G_STRUCT_OFFSET (FxLoad, moment), error);
}

/**
 * flexion_model_set_load_moment:
 * @self: a model
 * @load: a load's id
 * @moment: the moment's amplitude, N m
 * @error: return location for an error
 *
 * Sets a load's moment (its amplitude: the profile multiplies it).
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_load_moment (FlexionModel *self, const char *load, double moment,
                               GError **error)
{
  return set_double (self, FLEXION_KIND_LOAD, load, G_STRUCT_OFFSET (FxLoad, moment), moment,
                     "moment", error);
}

/**
 * flexion_model_get_motor_value:
 * @self: a model
 * @motor: a motor's id
 * @error: return location for an error
 *
 * Gets a motor's torque or speed.
 *
 * Returns: a torque motor's torque (N m) or a speed motor's speed
 *   (rad/s), times its profile
 */
double
flexion_model_get_motor_value (FlexionModel *self, const char *motor, GError **error)
{
  return get_double (self, FLEXION_KIND_MOTOR, motor, G_STRUCT_OFFSET (FxMotor, value), error);
}

/**
 * flexion_model_set_motor_value:
 * @self: a model
 * @motor: a motor's id
 * @value: torque (N m) or speed (rad/s)
 * @error: return location for an error
 *
 * Sets a motor's torque or speed (times its profile).
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_motor_value (FlexionModel *self, const char *motor, double value,
                               GError **error)
{
  return set_double (self, FLEXION_KIND_MOTOR, motor, G_STRUCT_OFFSET (FxMotor, value), value,
                     "value", error);
}

