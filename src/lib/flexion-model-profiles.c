/* flexion-model-profiles.c: FlexionModel's access to the time profiles of
 * loads and motors (docs/model-format.md, "Profiles" and "Noise
 * profiles"), by the keys the file uses; every change is checked as in
 * flexion-model-values.c. */
#include "flexion-private.h"

typedef struct {
  const char *key;
  gsize offset;   /* in FxProfile */
  guint types;    /* deterministic types that use it (1 << FxProfileType) */
  int noise;      /* the noise kind that uses it, or -1 for deterministic keys */
} ProfileKey;

#define AT(field) G_STRUCT_OFFSET (FxProfile, field)
#define T(type) (1u << (type))

static const ProfileKey profile_keys[] = {
  { "t0", AT (t0), T (FX_PROFILE_RAMP) | T (FX_PROFILE_HAT), -1 },
  { "t1", AT (t1), T (FX_PROFILE_STEP_OFF) | T (FX_PROFILE_RAMP) | T (FX_PROFILE_HAT), -1 },
  { "t2", AT (t2), T (FX_PROFILE_HAT), -1 },
  { "frequency", AT (frequency), T (FX_PROFILE_SINE), -1 },
  { "phase", AT (phase), T (FX_PROFILE_SINE), -1 },
  { "sigma", AT (noise_sigma), 0, FX_NOISE_WHITE },
  { "std", AT (noise_sigma), 0, FX_NOISE_OU },
  { "tau", AT (noise_tau), 0, FX_NOISE_OU },
};

/* Where `key` of `profile` lives, or NULL with a message naming what the
 * profile has (`what`: "load \"gust\""). */
static double *
profile_value (FxProfile *profile, const char *what, const char *key, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (profile_keys); i++)
    {
      const ProfileKey *k = &profile_keys[i];
      if (g_strcmp0 (k->key, key) != 0)
        continue;
      if (k->noise >= 0 ? (int) profile->noise == k->noise : (k->types & T (profile->type)) != 0)
        return (double *) ((char *) profile + k->offset);
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND,
                   "%s: its profile (%s%s%s) has no %s", what,
                   profile->noise != FX_NOISE_NONE ? fx_noise_kind_to_string (profile->noise) : "",
                   profile->noise != FX_NOISE_NONE ? " times " : "",
                   fx_profile_type_to_string (profile->type), key);
      return NULL;
    }
  g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND,
               "a profile has no value \"%s\" (t0, t1, t2, frequency, phase, sigma, std, tau)",
               key ? key : "(null)");
  return NULL;
}

static FxProfile *
profile_of (const FxModel *model, FlexionKind kind, guint i)
{
  return kind == FLEXION_KIND_LOAD ? &fx_model_load (model, i)->profile
                                   : &fx_model_motor (model, i)->profile;
}

static char *
profile_type (FlexionModel *self, FlexionKind kind, const char *id, GError **error)
{
  const FxProfile *p;
  int i = flexion_model_find (self, kind, id, error);

  if (i < 0)
    return NULL;
  p = profile_of (flexion_model_peek (self), kind, (guint) i);
  return g_strdup (p->noise != FX_NOISE_NONE ? fx_noise_kind_to_string (p->noise)
                                              : fx_profile_type_to_string (p->type));
}

static double
get_value (FlexionModel *self, FlexionKind kind, const char *id, const char *key, GError **error)
{
  g_autofree char *what = NULL;
  double *v;
  int i = flexion_model_find (self, kind, id, error);

  if (i < 0)
    return 0.0;
  what = g_strdup_printf ("%s \"%s\"", kind == FLEXION_KIND_LOAD ? "load" : "motor", id);
  v = profile_value (profile_of (flexion_model_peek (self), kind, (guint) i), what,
                     key, error);
  return v ? *v : 0.0;
}

static gboolean
set_value (FlexionModel *self, FlexionKind kind, const char *id, const char *key, double value,
           GError **error)
{
  g_autofree char *what = NULL;
  FxModel *copy;
  double *v;
  int i = flexion_model_find (self, kind, id, error);

  if (i < 0 || !flexion_check_finite (value, key ? key : "value", error))
    return FALSE;
  what = g_strdup_printf ("%s \"%s\"", kind == FLEXION_KIND_LOAD ? "load" : "motor", id);
  copy = flexion_model_begin_edit (self);
  v = profile_value (profile_of (copy, kind, (guint) i), what, key, error);
  if (v == NULL)
    {
      fx_model_free (copy);
      return FALSE;
    }
  *v = value;
  return flexion_model_commit_edit (self, copy, error);
}

/**
 * flexion_model_get_load_profile:
 * @self: a model
 * @load: a load's id
 * @error: return location for an error
 *
 * Gets the type of the time profile that multiplies a load's force and
 * moment.
 *
 * Returns: (transfer full) (nullable): the type as the file names it
 *   ("constant", "step-off", "ramp", "hat", "sine", "table", or for a noise
 *   "white" or "ou"), or %NULL with @error set
 */
char *
flexion_model_get_load_profile (FlexionModel *self, const char *load, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return profile_type (self, FLEXION_KIND_LOAD, load, error);
}

/**
 * flexion_model_get_motor_profile:
 * @self: a model
 * @motor: a motor's id
 * @error: return location for an error
 *
 * Gets the type of the time profile that multiplies a motor's value.
 *
 * Returns: (transfer full) (nullable): the type, as for
 *   [method@Flexion.Model.get_load_profile]
 */
char *
flexion_model_get_motor_profile (FlexionModel *self, const char *motor, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), NULL);
  return profile_type (self, FLEXION_KIND_MOTOR, motor, error);
}

/**
 * flexion_model_get_load_profile_value:
 * @self: a model
 * @load: a load's id
 * @key: a profile value, named as in the file: `t0`, `t1`, `t2` (step-off,
 *   ramp, hat), `frequency`, `phase` (sine), `sigma` (white noise), `std`,
 *   `tau` (Ornstein–Uhlenbeck noise)
 * @error: return location for an error
 *
 * Gets a value of a load's time profile; the profile's type must use it.
 *
 * Returns: the value in SI units (s, Hz, rad), or 0 with @error set
 */
double
flexion_model_get_load_profile_value (FlexionModel *self, const char *load, const char *key,
                                      GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  return get_value (self, FLEXION_KIND_LOAD, load, key, error);
}

/**
 * flexion_model_set_load_profile_value:
 * @self: a model
 * @load: a load's id
 * @key: a profile value, as for [method@Flexion.Model.get_load_profile_value]
 * @value: the new value, SI units
 * @error: return location for an error
 *
 * Sets a value of a load's time profile (a forcing frequency, a pulse's
 * times, a noise's intensity).
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_load_profile_value (FlexionModel *self, const char *load, const char *key,
                                      double value, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  return set_value (self, FLEXION_KIND_LOAD, load, key, value, error);
}

/**
 * flexion_model_get_motor_profile_value:
 * @self: a model
 * @motor: a motor's id
 * @key: a profile value, as for [method@Flexion.Model.get_load_profile_value]
 * @error: return location for an error
 *
 * Gets a value of a motor's time profile.
 *
 * Returns: the value in SI units, or 0 with @error set
 */
double
flexion_model_get_motor_profile_value (FlexionModel *self, const char *motor, const char *key,
                                       GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), 0.0);
  return get_value (self, FLEXION_KIND_MOTOR, motor, key, error);
}

/**
 * flexion_model_set_motor_profile_value:
 * @self: a model
 * @motor: a motor's id
 * @key: a profile value, as for [method@Flexion.Model.get_load_profile_value]
 * @value: the new value, SI units
 * @error: return location for an error
 *
 * Sets a value of a motor's time profile.
 *
 * Returns: %TRUE if the checker accepts it, else %FALSE with its sentence
 */
gboolean
flexion_model_set_motor_profile_value (FlexionModel *self, const char *motor, const char *key,
                                       double value, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_MODEL (self), FALSE);
  return set_value (self, FLEXION_KIND_MOTOR, motor, key, value, error);
}
