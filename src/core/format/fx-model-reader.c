/* fx-model-reader.c: the reader, JSON text to FxModel. The text is checked
 * before json-glib sees it (fx-model-reader-text.c: strict JSON, no comments
 * or hexadecimal), then walked here with typed access to members
 * (fx-model-reader-json.c); what the model cannot hold (wrong types, missing
 * required values, unknown names) is reported with its path. */
#include "fx-model-io-private.h"
#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <string.h>

/* ======================================================================== */
/* Reader: the model                                                        */
/* ======================================================================== */

static void read_profile (Report *r, JsonObject *parent, const char *parent_path,
                          FxProfile *profile);

/* A direction given as any nonzero vector becomes a unit one. One already of
 * unit length to a few ulps is kept as it is, so that saving and loading
 * again gives the same bits. */
static void
normalise_direction (double v[2])
{
  /* Scaled first, so that tiny or huge components neither underflow nor
   * overflow. */
  double m = fmax (fabs (v[0]), fabs (v[1])), x, y, n;

  if (!(m > 0.0) || !isfinite (m) || fabs (hypot (v[0], v[1]) - 1.0) <= 4 * DBL_EPSILON)
    return;
  x = v[0] / m;
  y = v[1] / m;
  n = hypot (x, y);
  v[0] = x / n;
  v[1] = y / n;
}

/* "motion": prescribed velocity of a support. Its presence drives the joint. */
static void
read_motion (Report *r, JsonObject *joint_object, const char *joint_path, FxJoint *joint)
{
  static const char *const keys[] = { "velocity", "profile", NULL };
  g_autofree char *path = fx_io_path_join (joint_path, "motion");
  JsonObject *o = fx_io_read_object (r, joint_object, joint_path, "motion", FALSE);

  if (o == NULL)
    return;
  joint->driven = TRUE;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_vector (r, o, path, "velocity", TRUE, joint->drive_velocity);
  read_profile (r, o, path, &joint->drive_profile);
}

/* "slider": a block sliding along a fixed direction. */
static void
read_slider (Report *r, JsonObject *joint_object, const char *joint_path, FxJoint *joint)
{
  static const char *const keys[] = { "direction", "mass", NULL };
  g_autofree char *path = fx_io_path_join (joint_path, "slider");
  JsonObject *o = fx_io_read_object (r, joint_object, joint_path, "slider", FALSE);

  if (o == NULL)
    return;
  joint->slider = TRUE;
  fx_io_check_keys (r, o, path, keys);
  if (fx_io_read_vector (r, o, path, "direction", TRUE, joint->slider_direction))
    normalise_direction (joint->slider_direction);
  fx_io_read_number (r, o, path, "mass", TRUE, &joint->slider_mass);
}

static void
read_joint (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "at", "kind", "support", "direction", "mass", "inertia", "motion", "slider", NULL
  };
  FxJoint *joint = fx_model_add_joint (model, NULL, 0.0, 0.0);
  const char *name;

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &joint->id);
  fx_io_read_vector (r, o, path, "at", TRUE, joint->at);
  if ((name = fx_io_read_name (r, o, path, "kind", FALSE))
      && !fx_joint_kind_from_string (name, &joint->kind))
    fx_io_report_bad_name (r, path, "kind", name, "\"pin\", \"weld\"");
  if ((name = fx_io_read_name (r, o, path, "support", FALSE))
      && !fx_support_from_string (name, &joint->support))
    fx_io_report_bad_name (r, path, "support", name,
                     "\"none\", \"pin\", \"clamp\", \"guided\", \"roller\"");
  /* a roller's guide: the direction the joint rolls along */
  if (json_object_has_member (o, "direction"))
    {
      if (joint->support != FX_SUPPORT_ROLLER)
        fx_io_report_error (r, path, "direction", "only a roller support has a direction "
                            "(\"support\": \"roller\"); for a sliding block use \"slider\"");
      else if (fx_io_read_vector (r, o, path, "direction", TRUE, joint->slider_direction))
        normalise_direction (joint->slider_direction);
    }
  fx_io_read_number (r, o, path, "mass", FALSE, &joint->mass);
  fx_io_read_number (r, o, path, "inertia", FALSE, &joint->inertia);
  read_motion (r, o, path, joint);
  read_slider (r, o, path, joint);
}

static const char *const canonical_keys[] = { "rhoA", "rhoI", "EA", "GA", "EI", NULL };
static const char *const material_keys[] = { "E", "nu", "rho", "shape", "shear_factor", NULL };

static void
read_canonical (Report *r, JsonObject *o, const char *path, gboolean rigid, FxSection *section)
{
  fx_io_check_keys (r, o, path, canonical_keys);
  section->form = FX_SECTION_CANONICAL;
  fx_io_read_number (r, o, path, "rhoA", TRUE, &section->rhoA);
  fx_io_read_number (r, o, path, "rhoI", TRUE, &section->rhoI);
  /* A rigid link has no compliance, so its stiffness may be left out (0). */
  fx_io_read_number (r, o, path, "EA", !rigid, &section->EA);
  fx_io_read_number (r, o, path, "GA", !rigid, &section->GA);
  fx_io_read_number (r, o, path, "EI", !rigid, &section->EI);
}

static void
read_shape (Report *r, JsonObject *section_object, const char *section_path, FxSection *section)
{
  static const char *const rectangle[] = { "type", "width", "height", NULL };
  static const char *const square[] = { "type", "side", NULL };
  static const char *const circle[] = { "type", "diameter", NULL };
  static const char *const tube[] = { "type", "diameter", "inner_diameter", NULL };
  static const char *const *const keys[] = { rectangle, square, circle, tube };
  g_autofree char *path = fx_io_path_join (section_path, "shape");
  JsonObject *o = fx_io_read_object (r, section_object, section_path, "shape", TRUE);
  const char *type;

  if (o == NULL)
    return;
  /* Without a known type the sizes mean nothing: keep the checker off them. */
  if (!(type = fx_io_read_name (r, o, path, "type", TRUE)))
    {
      fx_io_report_mark_bad (r, path);
      return;
    }
  if (!fx_shape_type_from_string (type, &section->shape))
    {
      fx_io_report_bad_name (r, path, "type", type, "\"rectangle\", \"square\", \"circle\", \"tube\"");
      fx_io_report_mark_bad (r, path);
      return;
    }
  fx_io_check_keys (r, o, path, keys[section->shape]);
  switch (section->shape)
    {
    case FX_SHAPE_RECTANGLE:
      fx_io_read_number (r, o, path, "width", TRUE, &section->width);
      fx_io_read_number (r, o, path, "height", TRUE, &section->height);
      break;
    case FX_SHAPE_SQUARE:
      fx_io_read_number (r, o, path, "side", TRUE, &section->width);
      break;
    case FX_SHAPE_CIRCLE:
      fx_io_read_number (r, o, path, "diameter", TRUE, &section->diameter);
      break;
    case FX_SHAPE_TUBE:
    default:
      fx_io_read_number (r, o, path, "diameter", TRUE, &section->diameter);
      fx_io_read_number (r, o, path, "inner_diameter", TRUE, &section->inner_diameter);
      break;
    }
}

static void
read_material (Report *r, JsonObject *o, const char *path, gboolean rigid, FxSection *section)
{
  fx_io_check_keys (r, o, path, material_keys);
  section->form = FX_SECTION_MATERIAL;
  fx_io_read_number (r, o, path, "E", !rigid, &section->E);
  fx_io_read_number (r, o, path, "nu", !rigid, &section->nu);
  fx_io_read_number (r, o, path, "rho", TRUE, &section->rho);
  read_shape (r, o, path, section);
  fx_io_read_number (r, o, path, "shear_factor", FALSE, &section->shear_factor);
  fx_section_derive (section);
}

static void
read_section (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  g_autofree char *path = fx_io_path_join (link_path, "section");
  JsonObject *o = fx_io_read_object (r, link_object, link_path, "section", TRUE);
  gboolean canonical, material;

  if (o == NULL)
    return;
  canonical = fx_io_has_any (o, canonical_keys);
  material = fx_io_has_any (o, material_keys);
  if (canonical && material)
    fx_io_report_error (r, path, NULL, "mixes the canonical form (rhoA, rhoI, EA, GA, EI) with the "
                  "material form (E, nu, rho, shape, shear_factor); use one of them");
  else if (canonical)
    read_canonical (r, o, path, link->rigid, &link->section);
  else if (material)
    read_material (r, o, path, link->rigid, &link->section);
  else
    fx_io_report_error (r, path, NULL, "needs either rhoA, rhoI, EA, GA, EI or E, nu, rho, shape");
}

static void
read_initial (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  static const char *const keys[] = { "velocity", "omega", NULL };
  g_autofree char *path = fx_io_path_join (link_path, "initial");
  JsonObject *o = fx_io_read_object (r, link_object, link_path, "initial", FALSE);

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_vector (r, o, path, "velocity", FALSE, link->initial_velocity);
  fx_io_read_number (r, o, path, "omega", FALSE, &link->initial_omega);
}

static void
read_damping (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  static const char *const keys[] = { "velocity", "rotation", "kelvin_voigt", NULL };
  g_autofree char *path = fx_io_path_join (link_path, "damping");
  JsonObject *o = fx_io_read_object (r, link_object, link_path, "damping", FALSE);

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_number (r, o, path, "velocity", FALSE, &link->damping);
  fx_io_read_number (r, o, path, "rotation", FALSE, &link->rotational_damping);
  fx_io_read_number (r, o, path, "kelvin_voigt", FALSE, &link->kelvin_voigt);
}

/* "ends": {"from": "VF", "to": "FF"}: each end's causality, translation
 * then rotation; an end left out is the matcher's. */
static void
read_ends (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  static const char *const keys[] = { "from", "to", NULL };
  g_autofree char *path = fx_io_path_join (link_path, "ends");
  JsonObject *o = fx_io_read_object (r, link_object, link_path, "ends", FALSE);

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  for (guint side = 0; side < 2; side++)
    {
      const char *name = fx_io_read_name (r, o, path, keys[side], FALSE);
      if (name != NULL && !fx_link_end_from_string (name, link->ends[side]))
        fx_io_report_error (r, path, keys[side],
                            "expected two letters F or V (translation, then rotation), as \"VF\"; "
                            "got \"%s\"", name);
    }
}

static void
read_link (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "from", "to", "elements", "degree", "section", "formulation", "rigid", "initial", "damping",
    "model", "frame", "ends", NULL
  };
  FxLink *link = fx_model_add_link (model, NULL, NULL, NULL, 0);
  const char *name;

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &link->id);
  fx_io_read_string (r, o, path, "from", FALSE, &link->from);
  fx_io_read_string (r, o, path, "to", FALSE, &link->to);
  fx_io_read_uint (r, o, path, "elements", TRUE, 1, FX_MAX_ELEMENTS_PER_LINK, &link->elements);
  fx_io_read_uint (r, o, path, "degree", FALSE, 1, FX_MAX_DEGREE, &link->degree);
  fx_io_read_bool (r, o, path, "rigid", &link->rigid);  /* before the section: it relaxes it */
  read_section (r, o, path, link);
  if ((name = fx_io_read_name (r, o, path, "formulation", FALSE))
      && !fx_formulation_from_string (name, &link->formulation))
    fx_io_report_bad_name (r, path, "formulation", name,
                     "\"auto\", \"free-free\", \"clamped-clamped\", \"pinned\", \"guided\"");
  if ((name = fx_io_read_name (r, o, path, "model", FALSE))
      && !fx_link_kind_from_string (name, &link->kind))
    fx_io_report_bad_name (r, path, "model", name, "\"geometrically-exact\", \"floating-frame\"");
  if ((name = fx_io_read_name (r, o, path, "frame", FALSE))
      && !fx_link_frame_from_string (name, &link->frame))
    fx_io_report_bad_name (r, path, "frame", name, "\"mean-axis\", \"attached\"");
  read_initial (r, o, path, link);
  read_damping (r, o, path, link);
  read_ends (r, o, path, link);
}

static void
read_table (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  g_autofree char *points_path = fx_io_path_join (path, "points");
  JsonNode *node = fx_io_member (r, o, path, "points", TRUE);
  g_autofree double *t = NULL, *value = NULL;
  JsonArray *array;
  guint n;

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, "points", "expected an array of [t, value] pairs, got %s",
                    fx_io_node_kind (node));
      return;
    }
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  t = g_new0 (double, MAX (n, 1));
  value = g_new0 (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      char key[32];
      double point[2] = { 0.0, 0.0 };

      g_snprintf (key, sizeof key, "[%u]", i);
      if (!fx_io_pair_from_node (r, json_array_get_element (array, i), points_path, key,
                           "2 numbers [t, value]", point))
        {
          g_autofree char *here = fx_io_path_join (points_path, key);

          fx_io_report_mark_bad (r, here);  /* its neighbours are not compared with it */
        }
      t[i] = point[0];
      value[i] = point[1];
    }
  fx_profile_set_table (profile, n, t, value);
}

/* Reads the keys that a profile type uses; the others are warned about. */
static void
read_profile_fields (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  static const char *const constant[] = { "type", NULL };
  static const char *const step_off[] = { "type", "t1", NULL };
  static const char *const ramp[] = { "type", "t0", "t1", NULL };
  static const char *const hat[] = { "type", "t0", "t1", "t2", NULL };
  static const char *const sine[] = { "type", "frequency", "phase", NULL };
  static const char *const table[] = { "type", "points", NULL };
  static const char *const *const keys[] = { constant, step_off, ramp, hat, sine, table };

  fx_io_check_keys (r, o, path, keys[profile->type]);
  switch (profile->type)
    {
    case FX_PROFILE_STEP_OFF:
      fx_io_read_number (r, o, path, "t1", TRUE, &profile->t1);
      break;
    case FX_PROFILE_RAMP:
      fx_io_read_number (r, o, path, "t0", FALSE, &profile->t0);
      fx_io_read_number (r, o, path, "t1", TRUE, &profile->t1);
      break;
    case FX_PROFILE_HAT:
      fx_io_read_number (r, o, path, "t0", FALSE, &profile->t0);
      fx_io_read_number (r, o, path, "t1", TRUE, &profile->t1);
      fx_io_read_number (r, o, path, "t2", TRUE, &profile->t2);
      break;
    case FX_PROFILE_SINE:
      fx_io_read_number (r, o, path, "frequency", TRUE, &profile->frequency);
      fx_io_read_number (r, o, path, "phase", FALSE, &profile->phase);
      break;
    case FX_PROFILE_TABLE:
      read_table (r, o, path, profile);
      break;
    case FX_PROFILE_CONSTANT:
    default:
      break;
    }
}

/* The deterministic profile held by `key` of o (type and its fields). */
static void
read_deterministic (Report *r, JsonObject *parent, const char *parent_path, const char *key,
                    FxProfile *profile)
{
  g_autofree char *path = fx_io_path_join (parent_path, key);
  JsonObject *o = fx_io_read_object (r, parent, parent_path, key, FALSE);
  const char *type;

  if (o == NULL || !(type = fx_io_read_name (r, o, path, "type", TRUE)))
    return;
  FxNoiseKind nested;

  if (fx_noise_kind_from_string (type, &nested) && nested != FX_NOISE_NONE)
    {
      fx_io_report_error (r, path, "type", "a noise multiplies a deterministic profile, not another "
                    "noise, got \"%s\"", type);
      return;
    }
  if (!fx_profile_type_from_string (type, &profile->type))
    {
      fx_io_report_bad_name (r, path, "type", type,
                       "\"constant\", \"step-off\", \"ramp\", \"hat\", \"sine\", \"table\"");
      return;
    }
  read_profile_fields (r, o, path, profile);
}

/* A noise profile: {"type": "white", "sigma": ...} or {"type": "ou", "std":
 * ..., "tau": ...}, optionally "times": a deterministic profile that the
 * noise multiplies (docs/theory.md §9). */
static void
read_noise (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  static const char *const white[] = { "type", "sigma", "times", "stream", NULL };
  static const char *const ou[] = { "type", "std", "tau", "times", "stream", NULL };

  if (profile->noise == FX_NOISE_WHITE)
    {
      fx_io_check_keys (r, o, path, white);
      fx_io_read_number (r, o, path, "sigma", TRUE, &profile->noise_sigma);
    }
  else
    {
      fx_io_check_keys (r, o, path, ou);
      fx_io_read_number (r, o, path, "std", TRUE, &profile->noise_sigma);
      fx_io_read_number (r, o, path, "tau", TRUE, &profile->noise_tau);
    }
  fx_io_read_string (r, o, path, "stream", FALSE, &profile->noise_stream);
  read_deterministic (r, o, path, "times", profile);
}

static void
read_profile (Report *r, JsonObject *parent, const char *parent_path, FxProfile *profile)
{
  g_autofree char *path = fx_io_path_join (parent_path, "profile");
  JsonObject *o = fx_io_read_object (r, parent, parent_path, "profile", FALSE);
  const char *type;

  if (o == NULL || !(type = fx_io_read_name (r, o, path, "type", TRUE)))
    return;
  if (fx_noise_kind_from_string (type, &profile->noise) && profile->noise != FX_NOISE_NONE)
    {
      read_noise (r, o, path, profile);
      return;
    }
  profile->noise = FX_NOISE_NONE;
  if (!fx_profile_type_from_string (type, &profile->type))
    {
      fx_io_report_bad_name (r, path, "type", type,
                       "\"constant\", \"step-off\", \"ramp\", \"hat\", \"sine\", \"table\", "
                       "\"white\", \"ou\"");
      return;
    }
  read_profile_fields (r, o, path, profile);
}

static void
read_load (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "joint", "link", "s", "force", "moment", "frame", "frame_link", "profile", NULL
  };
  FxLoad *load = fx_model_add_joint_load (model, NULL);
  const char *name;

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &load->id);
  fx_io_read_string (r, o, path, "joint", FALSE, &load->joint);
  fx_io_read_string (r, o, path, "link", FALSE, &load->link);
  if (load->link != NULL)
    fx_io_read_number (r, o, path, "s", TRUE, &load->s);
  else if (json_object_has_member (o, "s") && load->joint != NULL)
    fx_io_report_warning (r, path, "s", "only used by loads on a link, ignored");
  fx_io_read_vector (r, o, path, "force", FALSE, load->force);
  fx_io_read_number (r, o, path, "moment", FALSE, &load->moment);
  if ((name = fx_io_read_name (r, o, path, "frame", FALSE))
      && !fx_frame_from_string (name, &load->frame))
    fx_io_report_bad_name (r, path, "frame", name, "\"spatial\", \"material\"");
  /* frame_link only means something for a material-frame load at a joint. */
  if (load->joint != NULL && load->link == NULL && load->frame == FX_FRAME_MATERIAL)
    fx_io_read_string (r, o, path, "frame_link", FALSE, &load->frame_link);
  else if (json_object_has_member (o, "frame_link"))
    fx_io_report_warning (r, path, "frame_link",
                    "only used by joint loads in the material frame, ignored");
  read_profile (r, o, path, &load->profile);
}

static void
read_probe (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = { "id", "link", "s", NULL };
  FxProbe *probe = fx_model_add_probe (model, NULL, NULL, 0.0);

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &probe->id);
  fx_io_read_string (r, o, path, "link", FALSE, &probe->link);
  fx_io_read_number (r, o, path, "s", TRUE, &probe->s);
}

static void
read_motor (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "joint", "link", "against", "type", "value", "profile", NULL
  };
  FxMotor *motor = fx_model_add_motor (model, NULL, NULL, NULL, NULL, FX_MOTOR_TORQUE, 0.0);
  const char *name;

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &motor->id);
  fx_io_read_string (r, o, path, "joint", FALSE, &motor->joint);
  fx_io_read_string (r, o, path, "link", FALSE, &motor->link);
  fx_io_read_string (r, o, path, "against", FALSE, &motor->link_b);
  if ((name = fx_io_read_name (r, o, path, "type", TRUE))
      && !fx_motor_type_from_string (name, &motor->type))
    fx_io_report_bad_name (r, path, "type", name, "\"torque\", \"speed\"");
  fx_io_read_number (r, o, path, "value", TRUE, &motor->value);
  read_profile (r, o, path, &motor->profile);
}

static void
read_spring (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "joint", "link", "against", "stiffness", "damping", "rest_angle", NULL
  };
  FxSpring *spring = fx_model_add_spring (model, NULL, NULL, NULL, NULL, 0.0, 0.0);

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &spring->id);
  fx_io_read_string (r, o, path, "joint", FALSE, &spring->joint);
  fx_io_read_string (r, o, path, "link", FALSE, &spring->link);
  fx_io_read_string (r, o, path, "against", FALSE, &spring->link_b);
  fx_io_read_number (r, o, path, "stiffness", FALSE, &spring->stiffness);
  fx_io_read_number (r, o, path, "damping", FALSE, &spring->damping);
  fx_io_read_number (r, o, path, "rest_angle", FALSE, &spring->rest_angle);
}

/* [t, x, y] of a drag's anchor path. */
static gboolean
triple_from_node (Report *r, JsonNode *node, const char *path, const char *key, double out[3])
{
  g_autofree char *here = fx_io_path_join (path, key);
  gboolean ok = TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != 3)
    {
      fx_io_report_error (r, path, key, "expected an array of 3 numbers [t, x, y], got %s",
                    fx_io_node_kind (node));
      return FALSE;
    }
  for (guint k = 0; k < 3; k++)
    {
      char index[8];
      g_snprintf (index, sizeof index, "[%u]", k);
      ok = fx_io_number_from_node (r, json_array_get_element (json_node_get_array (node), k), here,
                             index, &out[k]) && ok;
    }
  return ok;
}

static void
read_drag_path (Report *r, JsonObject *o, const char *path, FxDrag *drag)
{
  g_autofree char *points_path = fx_io_path_join (path, "path");
  JsonNode *node = fx_io_member (r, o, path, "path", TRUE);

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, "path", "expected an array of [t, x, y] points, got %s",
                    fx_io_node_kind (node));
      return;
    }
  JsonArray *array = json_node_get_array (node);
  guint n = json_array_get_length (array);
  g_autofree double *t = g_new0 (double, MAX (n, 1)), *x = g_new0 (double, MAX (n, 1));
  g_autofree double *y = g_new0 (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      char key[32];
      double p[3] = { 0, 0, 0 };
      g_snprintf (key, sizeof key, "[%u]", i);
      if (!triple_from_node (r, json_array_get_element (array, i), points_path, key, p))
        {
          g_autofree char *here = fx_io_path_join (points_path, key);
          fx_io_report_mark_bad (r, here);
        }
      t[i] = p[0], x[i] = p[1], y[i] = p[2];
    }
  fx_drag_set_path (drag, n, t, x, y);
}

static void
read_drag (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "link", "s", "joint", "path", "frequency", "damping_ratio", "release", NULL
  };
  FxDrag *drag = fx_model_add_drag (model, NULL, NULL, NAN, NULL);  /* NaN: no "s" */

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &drag->id);
  fx_io_read_string (r, o, path, "link", FALSE, &drag->link);
  fx_io_read_number (r, o, path, "s", FALSE, &drag->s);
  fx_io_read_string (r, o, path, "joint", FALSE, &drag->joint);
  read_drag_path (r, o, path, drag);
  fx_io_read_number (r, o, path, "frequency", FALSE, &drag->frequency);
  fx_io_read_number (r, o, path, "damping_ratio", FALSE, &drag->damping_ratio);
  fx_io_read_number (r, o, path, "release", FALSE, &drag->release);
}

static void
read_body (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = { "id", "joints", "mass", "inertia", "center", NULL };
  FxBody *body = fx_model_add_body (model, NULL, NULL, 0.0, 0.0);
  JsonNode *node;

  if (o == NULL)
    return;
  fx_io_check_keys (r, o, path, keys);
  fx_io_read_string (r, o, path, "id", FALSE, &body->id);
  fx_io_read_number (r, o, path, "mass", TRUE, &body->mass);
  fx_io_read_number (r, o, path, "inertia", FALSE, &body->inertia);
  body->has_center = fx_io_read_vector (r, o, path, "center", FALSE, body->center);
  if ((node = fx_io_member (r, o, path, "joints", TRUE)) == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, "joints", "expected an array of joint ids, got %s", fx_io_node_kind (node));
      return;
    }
  JsonArray *array = json_node_get_array (node);
  guint n = json_array_get_length (array);
  g_strfreev (body->joints);
  body->joints = g_new0 (char *, n + 1);
  body->n_joints = n;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      if (!fx_io_node_is_string (item))
        {
          g_autofree char *key = g_strdup_printf ("joints[%u]", i);
          fx_io_report_error (r, path, key, "expected a joint id, got %s", fx_io_node_kind (item));
          body->joints[i] = g_strdup ("");
          continue;
        }
      body->joints[i] = g_strdup (json_node_get_string (item));
    }
}

typedef void (*ItemReader) (Report *r, FxModel *model, JsonObject *o, const char *path);

/* Every entry adds one element, even a broken one, so that the checker's
 * indices (and so its paths) stay those of the file. */
static void
read_list (Report *r, FxModel *model, JsonObject *root, const char *key, ItemReader read_item)
{
  JsonNode *node = fx_io_member (r, root, NULL, key, FALSE);
  JsonArray *array;

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, NULL, key, "expected an array, got %s", fx_io_node_kind (node));
      return;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s[%u]", key, i);
      JsonNode *item = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          fx_io_report_error (r, path, NULL, "expected an object, got %s", fx_io_node_kind (item));
          read_item (r, model, NULL, path);
        }
      else
        read_item (r, model, json_node_get_object (item), path);
    }
}

static void
read_settings (Report *r, FxModel *model, JsonObject *root)
{
  static const char *const time_keys[] = { "dt", "end", "integrator", NULL };
  const char *name;
  static const char *const solver_keys[] = { "tolerance", "max_iterations", NULL };
  JsonObject *o;

  fx_io_read_string (r, root, NULL, "name", FALSE, &model->name);
  fx_io_read_string (r, root, NULL, "description", FALSE, &model->description);
  fx_io_read_vector (r, root, NULL, "gravity", FALSE, model->gravity);
  {
    guint seed = 0;

    if (fx_io_read_uint (r, root, NULL, "seed", FALSE, 0, G_MAXUINT32, &seed))
      model->seed = seed;
  }
  if ((o = fx_io_read_object (r, root, NULL, "time", FALSE)))
    {
      fx_io_check_keys (r, o, "time", time_keys);
      fx_io_read_number (r, o, "time", "dt", FALSE, &model->dt);
      fx_io_read_number (r, o, "time", "end", FALSE, &model->t_end);
      if ((name = fx_io_read_name (r, o, "time", "integrator", FALSE))
          && !fx_integrator_kind_from_string (name, &model->integrator))
        fx_io_report_bad_name (r, "time", "integrator", name, "\"midpoint\", \"gauss4\"");
    }
  if ((o = fx_io_read_object (r, root, NULL, "solver", FALSE)))
    {
      fx_io_check_keys (r, o, "solver", solver_keys);
      fx_io_read_number (r, o, "solver", "tolerance", FALSE, &model->tolerance);
      fx_io_read_uint (r, o, "solver", "max_iterations", FALSE, 1, MAX_ITERATIONS,
                 &model->max_iterations);
    }
  if ((o = fx_io_read_object (r, root, NULL, "regularisation", FALSE)))
    {
      static const char *const regularisation_keys[] = { "mass_fraction", NULL };
      fx_io_check_keys (r, o, "regularisation", regularisation_keys);
      fx_io_read_number (r, o, "regularisation", "mass_fraction", FALSE,
                   &model->regularisation_mass_fraction);
    }
  if ((o = fx_io_read_object (r, root, NULL, "view", FALSE)))
    {
      static const char *const view_keys[] = { "settled", "diagram", NULL };
      fx_io_check_keys (r, o, "view", view_keys);
      fx_io_read_bool (r, o, "view", "settled", &model->view_settled);
      if ((name = fx_io_read_name (r, o, "view", "diagram", FALSE)))
        {
          for (guint k = 0; k < FX_VIEW_DIAGRAMS && model->view_diagram < 0; k++)
            if (g_str_equal (name, fx_view_diagram_names[k]))
              model->view_diagram = (int) k;
          if (model->view_diagram < 0)
            fx_io_report_bad_name (r, "view", "diagram", name, "\"none\", \"N\", \"V\", \"M\"");
        }
    }
}

static void
read_version (Report *r, JsonObject *root)
{
  JsonNode *version = json_object_get_member (root, "version");
  double v;

  if (version == NULL)
    fx_io_report_error (r, NULL, "version", "required (%d for this Flexion)", FX_MODEL_FORMAT_VERSION);
  else if (!fx_io_number_from_node (r, version, NULL, "version", &v))
    return;
  else if (v > FX_MODEL_FORMAT_VERSION)
    fx_io_report_error (r, NULL, "version", "the file was written by a newer Flexion (format "
                  "version %s); this Flexion reads version %d: please update Flexion",
                  fx_io_num (v), FX_MODEL_FORMAT_VERSION);
  else if (v != FX_MODEL_FORMAT_VERSION)
    fx_io_report_error (r, NULL, "version", "must be %d, got %s", FX_MODEL_FORMAT_VERSION, fx_io_num (v));
}

/* format and version decide whether the rest can be read at all. */
static gboolean
read_header (Report *r, JsonObject *root)
{
  JsonNode *format = json_object_get_member (root, "format");

  if (format == NULL)
    fx_io_report_error (r, NULL, "format", "required: a Flexion model starts with "
                  "\"format\": \"" FX_MODEL_FORMAT_NAME "\"");
  else if (!fx_io_node_is_string (format))
    fx_io_report_error (r, NULL, "format", "expected \"" FX_MODEL_FORMAT_NAME "\", got %s",
                  fx_io_node_kind (format));
  else if (strcmp (json_node_get_string (format), FX_MODEL_FORMAT_NAME) != 0)
    fx_io_report_error (r, NULL, "format", "expected \"" FX_MODEL_FORMAT_NAME "\", got \"%s\"",
                  json_node_get_string (format));
  if (r->n_errors > 0)
    return FALSE;
  read_version (r, root);
  return r->n_errors == 0;
}

FxModel *
fx_io_read_model (Report *r, JsonNode *root)
{
  static const char *const keys[] = {
    "format", "version", "name", "description", "joints", "links", "bodies", "loads", "motors",
    "springs", "probes", "drags", "gravity", "time", "solver", "seed", "regularisation", "view", NULL
  };
  JsonObject *o;
  FxModel *model;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      fx_io_report_error (r, NULL, NULL, "expected an object with \"format\": \"" FX_MODEL_FORMAT_NAME
                    "\", got %s", fx_io_node_kind (root));
      return NULL;
    }
  o = json_node_get_object (root);
  if (!read_header (r, o))
    return NULL;

  model = fx_model_new ();
  fx_io_check_keys (r, o, NULL, keys);
  read_settings (r, model, o);
  read_list (r, model, o, "joints", read_joint);
  read_list (r, model, o, "links", read_link);
  read_list (r, model, o, "loads", read_load);
  read_list (r, model, o, "motors", read_motor);
  read_list (r, model, o, "springs", read_spring);
  read_list (r, model, o, "bodies", read_body);
  read_list (r, model, o, "probes", read_probe);
  read_list (r, model, o, "drags", read_drag);
  return model;
}
