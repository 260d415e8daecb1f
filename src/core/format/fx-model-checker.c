/* fx-model-checker.c: the checker, the semantic rules on the model alone
 * (ranges, references, duplicates, limits), which is also what
 * fx_model_validate() runs for models built in code. */
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
/* Checker: the semantic rules, on the model alone                          */
/* ======================================================================== */

typedef struct {
  Report *r;
  const FxModel *model;
  GHashTable *joints;  /* id -> index + 1 */
  GHashTable *links;   /* id -> index + 1 */
} Check;

static gboolean
check_finite (Report *r, const char *path, const char *key, double v)
{
  if (isfinite (v))
    return TRUE;
  fx_io_report_error (r, path, key, "must be a finite number, got %s", fx_io_num (v));
  return FALSE;
}

/* A mass or stiffness the engine divides by or multiplies with others: 0, or
 * within FX_MIN_MAGNITUDE..FX_MAX_MAGNITUDE in size (call after the sign
 * check, which reports non-finite values). */
static void
check_magnitude (Report *r, const char *path, const char *key, double v)
{
  g_autofree char *here = fx_io_path_join (path, key);

  if (!isfinite (v) || v == 0.0 || fx_io_report_is_bad (r, here))
    return;
  if (fabs (v) > FX_MAX_MAGNITUDE)
    fx_io_report_error (r, path, key, "%s is too large: masses and stiffnesses are limited to %s",
                  fx_io_num (v), fx_io_num (FX_MAX_MAGNITUDE));
  else if (fabs (v) < FX_MIN_MAGNITUDE)
    fx_io_report_error (r, path, key, "%s is too small: write 0, or at least %s", fx_io_num (v),
                  fx_io_num (FX_MIN_MAGNITUDE));
}

/* A joint or body position: |x|, |y| <= FX_MAX_COORDINATE. */
static void
check_position (Report *r, const char *path, const char *key, const double v[2])
{
  g_autofree char *here = fx_io_path_join (path, key);

  for (guint i = 0; i < 2; i++)
    {
      const char *index = i == 0 ? "[0]" : "[1]";

      if (check_finite (r, here, index, v[i]) && fabs (v[i]) > FX_MAX_COORDINATE)
        fx_io_report_error (r, here, index, "%s m is too far out: coordinates are limited to "
                      "%s m (move the mechanism nearer the origin)", fx_io_num (v[i]),
                      fx_io_num (FX_MAX_COORDINATE));
    }
}

/* A section dimension: FX_MIN_LENGTH..FX_MAX_LENGTH metres. */
static void
check_dimension (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && !(v >= FX_MIN_LENGTH && v <= FX_MAX_LENGTH))
    fx_io_report_error (r, path, key, "must be from %s to %s m, got %s", fx_io_num (FX_MIN_LENGTH),
                  fx_io_num (FX_MAX_LENGTH), fx_io_num (v));
}

static void
check_positive (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && !(v > 0.0))
    fx_io_report_error (r, path, key, "must be > 0, got %s", fx_io_num (v));
}

static void
check_non_negative (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && v < 0.0)
    fx_io_report_error (r, path, key, "must be >= 0, got %s", fx_io_num (v));
}

/* Stiffness of a rigid link may be absent (0) but never negative. */
static void
check_stiffness (Report *r, const char *path, const char *key, double v, gboolean rigid)
{
  if (rigid && v == 0.0)
    return;
  check_positive (r, path, key, v);
}

static void
check_fraction (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && !(v >= 0.0 && v <= 1.0))
    fx_io_report_error (r, path, key, "must be between 0 and 1, got %s", fx_io_num (v));
  /* like any non-zero number: a point 1e-300 of the way along is the end
   * itself, and a load there drove the solver into denormal numbers (exit 3
   * after 512 substeps; issue 31, item 6) */
  else if (v > 0.0 && v < FX_MIN_MAGNITUDE)
    fx_io_report_error (r, path, key, "%s is too close to 0: write 0, or at least %s",
                        fx_io_num (v), fx_io_num (FX_MIN_MAGNITUDE));
}

static void
check_vector (Report *r, const char *path, const char *key, const double v[2])
{
  g_autofree char *here = fx_io_path_join (path, key);

  check_finite (r, here, "[0]", v[0]);
  check_finite (r, here, "[1]", v[1]);
}

/* A drag's anchor [t, x, y] stays where joints may be; x and y are the
 * point's [1] and [2] (not [0], the time). */
static void
check_drag_anchor (Report *r, const char *point_path, double x, double y)
{
  const double v[2] = { x, y };

  for (guint i = 0; i < 2; i++)
    if (fabs (v[i]) > FX_MAX_COORDINATE)
      fx_io_report_error (r, point_path, i == 0 ? "[1]" : "[2]", "%s m is too far out: "
                          "coordinates are limited to %s m", fx_io_num (v[i]),
                          fx_io_num (FX_MAX_COORDINATE));
}

/* ---- limits on loads and motion (docs/model-format.md, "Limits") ---- */

/* |v| <= limit for a finite v (a non-finite one was reported already). */
static void
check_bound (Report *r, const char *path, const char *key, double v, double limit,
             const char *unit, const char *what)
{
  g_autofree char *here = fx_io_path_join (path, key);

  const char *space = *unit ? " " : "";

  if (isfinite (v) && fabs (v) > limit && !fx_io_report_is_bad (r, here))
    fx_io_report_error (r, path, key, "%s%s%s is too large: %s are limited to %s%s%s in size",
                        fx_io_num (v), space, unit, what, fx_io_num (limit), space, unit);
}

static void
check_bound_vector (Report *r, const char *path, const char *key, const double v[2],
                    double limit, const char *unit, const char *what)
{
  g_autofree char *here = fx_io_path_join (path, key);

  check_bound (r, here, "[0]", v[0], limit, unit, what);
  check_bound (r, here, "[1]", v[1], limit, unit, what);
}

static void
check_enum (Report *r, const char *path, const char *key, int value, const char *name)
{
  if (name == NULL)
    fx_io_report_error (r, path, key, "invalid value %d", value);
}

/* Registers the item's id in ids, reporting a missing or reused one. */
static void
check_id (Report *r, const char *path, const char *id, GHashTable *ids,
          const char *list, guint index, gboolean required)
{
  gpointer first;

  if (id == NULL)
    {
      if (required)
        fx_io_report_error (r, path, "id", "required");
      return;
    }
  if (*id == '\0')
    fx_io_report_error (r, path, "id", "must not be empty");
  else if ((first = g_hash_table_lookup (ids, id)) != NULL)
    fx_io_report_error (r, path, "id", "duplicate id \"%s\", already used by %s[%u]", id, list,
                  GPOINTER_TO_UINT (first) - 1);
  else
    g_hash_table_insert (ids, (gpointer) id, GUINT_TO_POINTER (index + 1));
}

/* The index of the referenced item, or -1 (reported). */
static int
check_reference (Check *c, const char *path, const char *key, const char *id, gboolean link)
{
  GHashTable *ids = link ? c->links : c->joints;
  gpointer found;

  if (id == NULL)
    {
      fx_io_report_error (c->r, path, key, "required");
      return -1;
    }
  if ((found = g_hash_table_lookup (ids, id)) != NULL)
    return (int) GPOINTER_TO_UINT (found) - 1;
  /* If the list itself is broken, its ids are unknown: say nothing more. */
  if (!fx_io_report_is_bad (c->r, link ? "links" : "joints"))
    fx_io_report_error (c->r, path, key, "no %s with id \"%s\"", link ? "link" : "joint", id);
  return -1;
}

static void
check_settings (Report *r, const FxModel *m)
{
  check_vector (r, NULL, "gravity", m->gravity);
  check_bound_vector (r, NULL, "gravity", m->gravity, FX_MAX_GRAVITY, "m/s²",
                      "gravity's components");
  check_positive (r, "time", "dt", m->dt);
  check_positive (r, "time", "end", m->t_end);
  if (isfinite (m->dt) && m->dt > 0 && isfinite (m->t_end) && m->t_end > 0
      && m->t_end / m->dt > FX_MAX_STEPS)
    fx_io_report_error (r, NULL, "time", "end / dt gives %s steps; the limit is %s",
                  fx_io_num (ceil (m->t_end / m->dt)), fx_io_num (FX_MAX_STEPS));
  if (check_finite (r, "solver", "tolerance", m->tolerance)
      && !(m->tolerance > 0.0 && m->tolerance < MAX_TOLERANCE))
    fx_io_report_error (r, "solver", "tolerance", "must be > 0 and < %s, got %s",
                  fx_io_num (MAX_TOLERANCE), fx_io_num (m->tolerance));
  if (m->max_iterations < 1 || m->max_iterations > MAX_ITERATIONS)
    fx_io_report_error (r, "solver", "max_iterations", "must be an integer from 1 to %u, got %u",
                  MAX_ITERATIONS, m->max_iterations);
  if (check_finite (r, "regularisation", "mass_fraction", m->regularisation_mass_fraction)
      && !(m->regularisation_mass_fraction > 0.0 && m->regularisation_mass_fraction <= 1.0))
    fx_io_report_error (r, "regularisation", "mass_fraction", "must be > 0 and <= 1 (a fraction "
                  "of the links' own mass), got %s", fx_io_num (m->regularisation_mass_fraction));
}

static void check_profile (Report *r, const char *parent_path, const FxProfile *p);

/* Whether the joint's support is known (an unknown one was reported). */
static gboolean
support_is_known (const Report *r, const char *joint_path, const FxJoint *joint)
{
  g_autofree char *path = fx_io_path_join (joint_path, "support");

  return fx_support_to_string (joint->support) != NULL && !fx_io_report_is_bad (r, path);
}

static void
check_motion (Check *c, const char *joint_path, const FxJoint *joint)
{
  g_autofree char *path = fx_io_path_join (joint_path, "motion");

  if (!joint->driven)
    return;
  if (support_is_known (c->r, joint_path, joint)
      && joint->support != FX_SUPPORT_PIN && joint->support != FX_SUPPORT_CLAMP)
    fx_io_report_error (c->r, path, NULL, "only a pin or clamp support can be driven; this joint's "
                  "support is \"%s\"", fx_support_to_string (joint->support));
  check_vector (c->r, path, "velocity", joint->drive_velocity);
  check_bound_vector (c->r, path, "velocity", joint->drive_velocity, FX_MAX_SPEED, "m/s",
                      "velocities");
  check_profile (c->r, path, &joint->drive_profile);
}

static void
check_slider (Check *c, const char *joint_path, const FxJoint *joint)
{
  g_autofree char *path = fx_io_path_join (joint_path, "slider");
  const double *t = joint->slider_direction;

  if (!joint->slider)
    return;
  if (support_is_known (c->r, joint_path, joint) && joint->support != FX_SUPPORT_NONE)
    fx_io_report_error (c->r, path, NULL, "a slider needs support \"none\" (its guide holds the "
                  "joint), not \"%s\"", fx_support_to_string (joint->support));
  /* stored normalised: the file's numbers may have any finite scale */
  if (!isfinite (t[0]) || !isfinite (t[1]))
    check_vector (c->r, path, "direction", t);
  if (t[0] == 0.0 && t[1] == 0.0)
    fx_io_report_error (c->r, path, "direction", "must not be [0, 0]: give the direction the "
                  "block slides along");
  check_positive (c->r, path, "mass", joint->slider_mass);
  check_magnitude (c->r, path, "mass", joint->slider_mass);
  if (joint->mass != 0.0)
    fx_io_report_error (c->r, joint_path, "mass", "a joint with a slider has no mass of its own: "
                  "put the mass in the slider (\"slider\": { \"mass\": %s })",
                  fx_io_num (joint->mass));
}

static void
check_joint (Check *c, guint i, const char *path)
{
  const FxJoint *joint = fx_model_joint (c->model, i);

  check_id (c->r, path, joint->id, c->joints, "joints", i, TRUE);
  check_position (c->r, path, "at", joint->at);
  check_enum (c->r, path, "kind", joint->kind, fx_joint_kind_to_string (joint->kind));
  check_enum (c->r, path, "support", joint->support, fx_support_to_string (joint->support));
  check_non_negative (c->r, path, "mass", joint->mass);
  check_magnitude (c->r, path, "mass", joint->mass);
  check_non_negative (c->r, path, "inertia", joint->inertia);
  check_magnitude (c->r, path, "inertia", joint->inertia);
  check_motion (c, path, joint);
  check_slider (c, path, joint);
  if (joint->support == FX_SUPPORT_ROLLER)
    {
      const double *t = joint->slider_direction;
      if (!isfinite (t[0]) || !isfinite (t[1]))
        check_vector (c->r, path, "direction", t);
      else if (t[0] == 0.0 && t[1] == 0.0)
        fx_io_report_error (c->r, path, "direction", "must not be [0, 0]: give the direction "
                            "the roller rolls along");
    }
}

static void
check_shape (Report *r, const char *section_path, const FxSection *s)
{
  g_autofree char *path = fx_io_path_join (section_path, "shape");

  switch (s->shape)
    {
    case FX_SHAPE_RECTANGLE:
      check_dimension (r, path, "width", s->width);
      check_dimension (r, path, "height", s->height);
      break;
    case FX_SHAPE_SQUARE:
      check_dimension (r, path, "side", s->width);
      break;
    case FX_SHAPE_CIRCLE:
      check_dimension (r, path, "diameter", s->diameter);
      break;
    case FX_SHAPE_TUBE:
      check_dimension (r, path, "diameter", s->diameter);
      if (check_finite (r, path, "inner_diameter", s->inner_diameter)
          && !(s->inner_diameter >= 0.0 && s->inner_diameter < s->diameter)
          && !fx_io_report_is_bad (r, path))
        fx_io_report_error (r, path, "inner_diameter", "must be >= 0 and < diameter (%s), got %s",
                      fx_io_num (s->diameter), fx_io_num (s->inner_diameter));
      break;
    default:
      fx_io_report_error (r, path, "type", "invalid value %d", (int) s->shape);
      break;
    }
}

static void
check_material (Report *r, const char *path, const FxSection *s, gboolean rigid)
{
  check_stiffness (r, path, "E", s->E, rigid);
  if (check_finite (r, path, "nu", s->nu) && !(s->nu > -1.0 && s->nu <= 0.5))
    fx_io_report_error (r, path, "nu", "must be > -1 and <= 0.5, got %s", fx_io_num (s->nu));
  check_magnitude (r, path, "E", s->E);
  check_non_negative (r, path, "rho", s->rho);
  check_magnitude (r, path, "rho", s->rho);
  check_shape (r, path, s);
  check_positive (r, path, "shear_factor", s->shear_factor);
}

static void
check_section (Report *r, const char *link_path, const FxLink *link)
{
  g_autofree char *path = fx_io_path_join (link_path, "section");
  const FxSection *s = &link->section;

  if (s->form == FX_SECTION_MATERIAL)
    {
      check_material (r, path, s, link->rigid);
      return;
    }
  if (s->form != FX_SECTION_CANONICAL)
    {
      fx_io_report_error (r, path, NULL, "invalid form %d", (int) s->form);
      return;
    }
  check_non_negative (r, path, "rhoA", s->rhoA);
  check_non_negative (r, path, "rhoI", s->rhoI);
  check_stiffness (r, path, "EA", s->EA, link->rigid);
  check_stiffness (r, path, "GA", s->GA, link->rigid);
  check_stiffness (r, path, "EI", s->EI, link->rigid);
  check_magnitude (r, path, "rhoA", s->rhoA);
  check_magnitude (r, path, "rhoI", s->rhoI);
  check_magnitude (r, path, "EA", s->EA);
  check_magnitude (r, path, "GA", s->GA);
  check_magnitude (r, path, "EI", s->EI);
}

static gboolean
joint_at_is_bad (const Report *r, guint joint)
{
  g_autofree char *path = g_strdup_printf ("joints[%u].at", joint);

  return fx_io_report_is_bad (r, path);
}

static void
check_link_ends (Check *c, const char *path, const FxLink *link)
{
  int a = check_reference (c, path, "from", link->from, FALSE);
  int b = check_reference (c, path, "to", link->to, FALSE);
  const FxJoint *ja, *jb;
  double length;

  if (a < 0 || b < 0)
    return;
  if (a == b)
    {
      fx_io_report_error (c->r, path, "to", "same joint as from (\"%s\"): a link needs two joints",
                    link->to);
      return;
    }
  ja = fx_model_joint (c->model, (guint) a);
  jb = fx_model_joint (c->model, (guint) b);
  if (joint_at_is_bad (c->r, (guint) a) || joint_at_is_bad (c->r, (guint) b))
    return;
  length = hypot (jb->at[0] - ja->at[0], jb->at[1] - ja->at[1]);
  if (length == 0.0)
    fx_io_report_error (c->r, path, NULL, "zero length: joints \"%s\" and \"%s\" are at the same point",
                  link->from, link->to);
  else if (!isfinite (length))
    fx_io_report_error (c->r, path, NULL, "length is not finite");
  else if (length < FX_MIN_LENGTH)
    fx_io_report_error (c->r, path, NULL, "%s m long: links are at least %s m long (joints \"%s\" "
                  "and \"%s\" nearly coincide)", fx_io_num (length), fx_io_num (FX_MIN_LENGTH),
                  link->from, link->to);
}

static void
check_initial (Report *r, const char *link_path, const FxLink *link)
{
  g_autofree char *path = fx_io_path_join (link_path, "initial");

  check_vector (r, path, "velocity", link->initial_velocity);
  check_finite (r, path, "omega", link->initial_omega);
  check_bound_vector (r, path, "velocity", link->initial_velocity, FX_MAX_SPEED, "m/s",
                      "velocities");
  check_bound (r, path, "omega", link->initial_omega, FX_MAX_OMEGA, "rad/s",
               "angular velocities");
}

/* A floating-frame link is a flexible beam in a frame: never rigid, its
 * ends' causality is the matcher's, and a frame is only its key. */
static void
check_floating_frame (Check *c, const char *path, const FxLink *link)
{
  if (link->kind != FX_LINK_FLOATING_FRAME)
    {
      if (link->frame != FX_LINK_FRAME_MEAN_AXIS)
        fx_io_report_error (c->r, path, "frame", "applies only to a \"floating-frame\" link");
      if (fx_link_has_ends (link))
        fx_io_report_error (c->r, path, "ends",
                            "applies only to a \"floating-frame\" link; set \"formulation\" instead");
      return;
    }
  if (link->rigid)
    fx_io_report_error (c->r, path, "rigid", "a \"floating-frame\" link cannot be rigid");
  if (link->damping != 0.0 || link->rotational_damping != 0.0)
    fx_io_report_error (c->r, path, "damping",
                        "a \"floating-frame\" link takes kelvin_voigt, not velocity or rotation");
  if (link->formulation != FX_FORMULATION_AUTO)
    fx_io_report_error (c->r, path, "formulation",
                        "a \"floating-frame\" link chooses each end's causality itself; leave it "
                        "\"auto\" (\"ends\" sets them one by one)");
  for (guint side = 0; side < 2; side++)
    if ((link->ends[side][0] == FX_END_AUTO) != (link->ends[side][1] == FX_END_AUTO))
      {
        g_autofree char *ends = fx_io_path_join (path, "ends");
        fx_io_report_error (c->r, ends, side == 0 ? "from" : "to",
                            "set both channels (translation, then rotation), as \"VF\"");
      }
  /* its frame couples every element (dense rows, n^2 work): 4 to 10
   * Hermite elements give the first modes */
  if (link->elements > FX_MAX_FLOATING_ELEMENTS)
    fx_io_report_error (c->r, path, "elements", "a \"floating-frame\" link takes at most %u elements, got %u",
                        FX_MAX_FLOATING_ELEMENTS, link->elements);
}

static void
check_link (Check *c, guint i, const char *path, guint64 *total)
{
  const FxLink *link = fx_model_link (c->model, i);

  check_id (c->r, path, link->id, c->links, "links", i, TRUE);
  check_link_ends (c, path, link);
  if (link->elements < 1 || link->elements > FX_MAX_ELEMENTS_PER_LINK)
    fx_io_report_error (c->r, path, "elements", "must be an integer from 1 to %u, got %u",
                  FX_MAX_ELEMENTS_PER_LINK, link->elements);
  else
    *total += (guint64) link->elements * CLAMP (link->degree, 1u, FX_MAX_DEGREE);
  if (link->degree < 1 || link->degree > FX_MAX_DEGREE)
    fx_io_report_error (c->r, path, "degree", "must be an integer from 1 to %u, got %u",
                        FX_MAX_DEGREE, link->degree);
  else if (link->degree != 1 && link->kind == FX_LINK_FLOATING_FRAME)
    fx_io_report_error (c->r, path, "degree",
                        "a \"floating-frame\" link keeps its own Hermite elements; the degree "
                        "applies to geometrically exact links only (leave it out or set 1)");
  check_section (c->r, path, link);
  check_enum (c->r, path, "formulation", link->formulation,
              fx_formulation_to_string (link->formulation));
  check_enum (c->r, path, "model", link->kind, fx_link_kind_to_string (link->kind));
  check_enum (c->r, path, "frame", link->frame, fx_link_frame_to_string (link->frame));
  check_initial (c->r, path, link);
  if (link->damping != 0.0 || link->rotational_damping != 0.0 || link->kelvin_voigt != 0.0)
    {
      g_autofree char *damping = fx_io_path_join (path, "damping");

      check_non_negative (c->r, damping, "velocity", link->damping);
      check_non_negative (c->r, damping, "rotation", link->rotational_damping);
      check_non_negative (c->r, damping, "kelvin_voigt", link->kelvin_voigt);
    }
  check_floating_frame (c, path, link);
}

static void
check_table (Report *r, const char *path, const FxProfile *p)
{
  g_autofree char *points = fx_io_path_join (path, "points");
  gboolean previous_ok = FALSE;

  if (p->n_table < 2 || p->table_t == NULL || p->table_value == NULL)
    {
      fx_io_report_error (r, path, "points", "needs at least 2 points, got %u", p->n_table);
      return;
    }
  for (guint i = 0; i < p->n_table; i++)
    {
      char key[32];
      g_autofree char *here = NULL;
      gboolean finite;

      g_snprintf (key, sizeof key, "[%u]", i);
      here = fx_io_path_join (points, key);
      finite = check_finite (r, here, "[0]", p->table_t[i]);
      finite = check_finite (r, here, "[1]", p->table_value[i]) && finite;
      if (!finite || fx_io_report_is_bad (r, here))
        {
          previous_ok = FALSE;
          continue;
        }
      if (previous_ok && !(p->table_t[i] > p->table_t[i - 1]))
        fx_io_report_error (r, points, key, "times must be strictly increasing, but %s follows %s",
                      fx_io_num (p->table_t[i]), fx_io_num (p->table_t[i - 1]));
      previous_ok = TRUE;
    }
}

/* "must be > t0 (0.5), got 0.2"; quiet when t0 itself is wrong. */
static void
check_after (Report *r, const char *path, const char *key, double v,
             const char *before_key, double before)
{
  g_autofree char *before_path = fx_io_path_join (path, before_key);

  if (check_finite (r, path, key, v) && isfinite (before) && !fx_io_report_is_bad (r, before_path)
      && !(v > before))
    fx_io_report_error (r, path, key, "must be > %s (%s), got %s", before_key, fx_io_num (before), fx_io_num (v));
}

static void check_deterministic (Report *r, const char *path, const FxProfile *p);

/* A noise's parameters, then the deterministic profile it multiplies
 * (under "times"). */
static void
check_profile (Report *r, const char *parent_path, const FxProfile *p)
{
  g_autofree char *path = fx_io_path_join (parent_path, "profile");

  switch (p->noise)
    {
    case FX_NOISE_NONE:
      check_deterministic (r, path, p);
      return;
    case FX_NOISE_WHITE:
      check_non_negative (r, path, "sigma", p->noise_sigma);
      check_bound (r, path, "sigma", p->noise_sigma, FX_MAX_NOISE, "s^(1/2)", "noise intensities");
      break;
    case FX_NOISE_OU:
      check_non_negative (r, path, "std", p->noise_sigma);
      check_bound (r, path, "std", p->noise_sigma, FX_MAX_NOISE, "", "noise deviations");
      check_positive (r, path, "tau", p->noise_tau);
      break;
    default:
      fx_io_report_error (r, path, "type", "invalid noise %d", (int) p->noise);
      return;
    }
  if (p->type != FX_PROFILE_CONSTANT)
    {
      g_autofree char *times = fx_io_path_join (path, "times");

      check_deterministic (r, times, p);
    }
}

static void
check_deterministic (Report *r, const char *path, const FxProfile *p)
{
  switch (p->type)
    {
    case FX_PROFILE_CONSTANT:
      break;
    case FX_PROFILE_STEP_OFF:
      check_finite (r, path, "t1", p->t1);
      break;
    case FX_PROFILE_RAMP:
      check_finite (r, path, "t0", p->t0);
      check_after (r, path, "t1", p->t1, "t0", p->t0);
      break;
    case FX_PROFILE_HAT:
      check_finite (r, path, "t0", p->t0);
      check_after (r, path, "t1", p->t1, "t0", p->t0);
      check_after (r, path, "t2", p->t2, "t1", p->t1);
      break;
    case FX_PROFILE_SINE:
      check_positive (r, path, "frequency", p->frequency);
      check_finite (r, path, "phase", p->phase);
      break;
    case FX_PROFILE_TABLE:
      check_table (r, path, p);
      break;
    default:
      fx_io_report_error (r, path, "type", "invalid value %d", (int) p->type);
      break;
    }
}

/* Where a load acts: exactly one of a joint or a point on a link. */
static void
check_load_target (Check *c, const char *path, const FxLoad *load)
{
  int joint, frame_link;
  const FxLink *link;

  if ((load->joint == NULL) == (load->link == NULL))
    {
      g_autofree char *joint_path = fx_io_path_join (path, "joint");
      g_autofree char *link_path = fx_io_path_join (path, "link");

      /* A joint or link of the wrong type was reported already. */
      if (fx_io_report_is_bad (c->r, joint_path) || fx_io_report_is_bad (c->r, link_path))
        return;
      fx_io_report_error (c->r, path, NULL, load->joint == NULL
                    ? "needs either \"joint\" or \"link\" (with \"s\")"
                    : "has both \"joint\" and \"link\"; give exactly one");
      return;
    }
  if (load->link != NULL)
    {
      check_reference (c, path, "link", load->link, TRUE);
      check_fraction (c->r, path, "s", load->s);
      return;
    }
  joint = check_reference (c, path, "joint", load->joint, FALSE);
  if (load->frame != FX_FRAME_MATERIAL)
    return;
  if (load->frame_link == NULL)
    {
      fx_io_report_error (c->r, path, "frame_link", "required for a joint load in the material "
                    "frame: the id of a link ending at joint \"%s\" whose frame the load "
                    "turns with", load->joint);
      return;
    }
  frame_link = check_reference (c, path, "frame_link", load->frame_link, TRUE);
  if (joint < 0 || frame_link < 0)
    return;
  link = fx_model_link (c->model, (guint) frame_link);
  if (g_strcmp0 (link->from, load->joint) != 0 && g_strcmp0 (link->to, load->joint) != 0)
    fx_io_report_error (c->r, path, "frame_link", "link \"%s\" does not end at joint \"%s\"",
                  load->frame_link, load->joint);
}

static void
check_load (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxLoad *load = fx_model_load (c->model, i);

  check_id (c->r, path, load->id, ids, "loads", i, FALSE);
  check_load_target (c, path, load);
  check_vector (c->r, path, "force", load->force);
  check_finite (c->r, path, "moment", load->moment);
  check_bound_vector (c->r, path, "force", load->force, FX_MAX_LOAD, "N", "forces");
  check_bound (c->r, path, "moment", load->moment, FX_MAX_LOAD, "N m", "moments");
  check_enum (c->r, path, "frame", load->frame, fx_frame_to_string (load->frame));
  check_profile (c->r, path, &load->profile);
}

static void
check_probe (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxProbe *probe = fx_model_probe (c->model, i);

  check_id (c->r, path, probe->id, ids, "probes", i, TRUE);
  check_reference (c, path, "link", probe->link, TRUE);
  check_fraction (c->r, path, "s", probe->s);
}

/* Whether the link ends at the joint. */
static gboolean
link_ends_at (const FxLink *link, const char *joint)
{
  return g_strcmp0 (link->from, joint) == 0 || g_strcmp0 (link->to, joint) == 0;
}

/* The rules that motors and springs share: a pin joint, the end of `link`
 * there, and either the end of another link there (`against`) or the
 * ground through a pin support. what is "motor" or "spring". */
static void
check_rotary (Check *c, const char *path, const char *what, const char *joint_id,
              const char *link_id, const char *against_id)
{
  int jt = check_reference (c, path, "joint", joint_id, FALSE);
  int la = check_reference (c, path, "link", link_id, TRUE);
  int lb = against_id != NULL ? check_reference (c, path, "against", against_id, TRUE) : -1;
  const FxJoint *joint;
  g_autofree char *joint_path = NULL, *kind_path = NULL;

  if (jt < 0)
    return;
  joint = fx_model_joint (c->model, (guint) jt);
  joint_path = g_strdup_printf ("joints[%d]", jt);
  kind_path = fx_io_path_join (joint_path, "kind");
  if (la >= 0 && !link_ends_at (fx_model_link (c->model, (guint) la), joint_id))
    fx_io_report_error (c->r, path, "link", "link \"%s\" does not end at joint \"%s\"",
                  link_id, joint_id);
  if (against_id != NULL && g_strcmp0 (against_id, link_id) == 0)
    fx_io_report_error (c->r, path, "against", "same link as \"link\" (\"%s\"): a %s acts "
                  "between two different links, or against the ground when \"against\" is "
                  "left out", link_id, what);
  else if (lb >= 0 && !link_ends_at (fx_model_link (c->model, (guint) lb), joint_id))
    fx_io_report_error (c->r, path, "against", "link \"%s\" does not end at joint \"%s\"",
                  against_id, joint_id);
  if (joint->kind != FX_JOINT_PIN)
    {
      if (fx_joint_kind_to_string (joint->kind) != NULL && !fx_io_report_is_bad (c->r, kind_path))
        fx_io_report_error (c->r, path, "joint", "joint \"%s\" is a %s: a %s needs a pin joint, "
                      "where the link ends turn on their own", joint_id,
                      fx_joint_kind_to_string (joint->kind), what);
    }
  else if (against_id == NULL && support_is_known (c->r, joint_path, joint)
           && joint->support != FX_SUPPORT_PIN)
    fx_io_report_error (c->r, path, "joint", "a %s against the ground needs a pin support at joint "
                  "\"%s\" (its support is \"%s\"); or give \"against\": the id of another "
                  "link ending there", what, joint_id, fx_support_to_string (joint->support));
}

static void
check_motor (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxMotor *motor = fx_model_motor (c->model, i);

  check_id (c->r, path, motor->id, ids, "motors", i, TRUE);
  check_rotary (c, path, "motor", motor->joint, motor->link, motor->link_b);
  check_enum (c->r, path, "type", motor->type, fx_motor_type_to_string (motor->type));
  check_finite (c->r, path, "value", motor->value);
  check_profile (c->r, path, &motor->profile);
}

static void
check_spring (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxSpring *spring = fx_model_spring (c->model, i);

  check_id (c->r, path, spring->id, ids, "springs", i, TRUE);
  check_rotary (c, path, "spring", spring->joint, spring->link, spring->link_b);
  check_non_negative (c->r, path, "stiffness", spring->stiffness);
  check_non_negative (c->r, path, "damping", spring->damping);
  if (spring->stiffness == 0.0 && spring->damping == 0.0)
    fx_io_report_error (c->r, path, NULL, "stiffness and damping are both 0: give at least one of "
                  "them > 0");
  check_finite (c->r, path, "rest_angle", spring->rest_angle);
}

/* A drag: a link and s, or a joint with a link; a path of rising times. */
static void
check_drag (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxDrag *drag = fx_model_drag (c->model, i);

  check_id (c->r, path, drag->id, ids, "drags", i, FALSE);
  if ((drag->link == NULL) == (drag->joint == NULL))
    fx_io_report_error (c->r, path, NULL, "give either \"link\" (with \"s\") or \"joint\"");
  else if (drag->link != NULL)
    {
      check_reference (c, path, "link", drag->link, TRUE);
      if (isnan (drag->s))
        fx_io_report_error (c->r, path, "s", "required with \"link\"");
      else
        check_fraction (c->r, path, "s", drag->s);
    }
  else
    {
      gboolean linked = FALSE;
      check_reference (c, path, "joint", drag->joint, FALSE);
      for (guint l = 0; l < c->model->links->len && !linked; l++)
        linked = link_ends_at (fx_model_link (c->model, l), drag->joint);
      if (!linked && fx_model_find_joint (c->model, drag->joint) >= 0)
        fx_io_report_error (c->r, path, "joint", "no link ends at joint \"%s\" to pull", drag->joint);
    }
  if (drag->n_path == 0)
    fx_io_report_error (c->r, path, "path", "needs at least one [t, x, y] point");
  for (guint k = 0; k < drag->n_path; k++)
    {
      g_autofree char *here = g_strdup_printf ("%s.path[%u]", path, k);
      if (!isfinite (drag->path_t[k]) || !isfinite (drag->path_x[k]) || !isfinite (drag->path_y[k]))
        fx_io_report_error (c->r, here, NULL, "must be finite numbers");
      else if (k > 0 && !(drag->path_t[k] > drag->path_t[k - 1]))
        fx_io_report_error (c->r, here, NULL, "times must rise: %s after %s", fx_io_num (drag->path_t[k]),
                      fx_io_num (drag->path_t[k - 1]));
      else
        check_drag_anchor (c->r, here, drag->path_x[k], drag->path_y[k]);
    }
  check_positive (c->r, path, "frequency", drag->frequency);
  if (isfinite (drag->frequency) && drag->frequency > FX_MAX_DRAG_FREQUENCY)
    fx_io_report_error (c->r, path, "frequency", "%s Hz is too high: at most %s Hz",
                        fx_io_num (drag->frequency), fx_io_num (FX_MAX_DRAG_FREQUENCY));
  check_non_negative (c->r, path, "damping_ratio", drag->damping_ratio);
  if (!isinf (drag->release) || drag->release < 0)
    check_non_negative (c->r, path, "release", drag->release);
}

/* A rigid body: known, distinct attachment joints, a mass, and a centre
 * apart from every attachment (its spokes need a length). */
static void
check_body (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxBody *body = fx_model_body (c->model, i);
  double center[2], size = 0.0;

  check_id (c->r, path, body->id, ids, "bodies", i, TRUE);
  check_positive (c->r, path, "mass", body->mass);
  check_magnitude (c->r, path, "mass", body->mass);
  check_non_negative (c->r, path, "inertia", body->inertia);
  check_magnitude (c->r, path, "inertia", body->inertia);
  if (body->has_center)
    check_position (c->r, path, "center", body->center);
  if (body->n_joints == 0)
    {
      fx_io_report_error (c->r, path, "joints", "a body needs at least one attachment joint");
      return;
    }
  fx_body_center (c->model, body, center);
  for (guint k = 0; k < body->n_joints; k++)
    {
      g_autofree char *key = g_strdup_printf ("joints[%u]", k);
      int j = check_reference (c, path, key, body->joints[k], FALSE);
      for (guint q = 0; q < k; q++)
        if (g_strcmp0 (body->joints[q], body->joints[k]) == 0)
          fx_io_report_error (c->r, path, key, "joint \"%s\" is listed twice", body->joints[k]);
      if (j >= 0)
        {
          const FxJoint *joint = fx_model_joint (c->model, (guint) j);
          size = MAX (size, hypot (joint->at[0] - center[0], joint->at[1] - center[1]));
          if (joint->support != FX_SUPPORT_NONE || joint->mass > 0 || joint->inertia > 0
              || joint->slider || joint->driven)
            fx_io_report_error (c->r, path, key, "joint \"%s\" moves with the body, so it cannot "
                          "have its own support, mass, inertia or slider; put the mass in the "
                          "body, and hold the body with a link to a supported joint", joint->id);
          int owner = fx_model_find_body_of_joint (c->model, joint->id);
          if (owner >= 0 && owner != (int) i)
            fx_io_report_error (c->r, path, key, "joint \"%s\" is already attached to body \"%s\"; "
                          "join two bodies with a link", joint->id,
                          fx_model_body (c->model, (guint) owner)->id ? fx_model_body (c->model, (guint) owner)->id : "");
        }
    }
  for (guint k = 0; k < body->n_joints; k++)
    {
      int j = fx_model_find_joint (c->model, body->joints[k]);
      if (j < 0)
        continue;
      const FxJoint *joint = fx_model_joint (c->model, (guint) j);
      if (hypot (joint->at[0] - center[0], joint->at[1] - center[1]) <= 1e-9 * MAX (size, 1e-300))
        fx_io_report_error (c->r, path, body->has_center ? "center" : "joints",
                      "the centre (%s, %s) is at attachment joint \"%s\"; give the body a "
                      "\"center\" away from its joints", fx_io_num (center[0]), fx_io_num (center[1]),
                      joint->id);
    }
}

typedef void (*ItemCheck) (Check *c, guint i, const char *path, GHashTable *ids);

static void
check_list (Check *c, const GArray *items, const char *key, ItemCheck check_item)
{
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s[%u]", key, i);

      check_item (c, i, path, ids);
    }
}

/* Noisy profiles that name one stream share one noise: same kind and
 * parameters. The first of a stream is the reference; at most
 * FX_NOISE_MAX_SOURCES (256) noises in a model. */
static void
check_stream (Report *r, GHashTable *streams, const char *parent_path, const FxProfile *p,
              guint *n_sources)
{
  g_autofree char *path = fx_io_path_join (parent_path, "profile");
  const FxProfile *first;

  if (p->noise == FX_NOISE_NONE)
    return;
  if (p->noise_stream == NULL || !(first = g_hash_table_lookup (streams, p->noise_stream)))
    {
      if (++*n_sources == 257)
        fx_io_report_error (r, path, NULL, "more than 256 independent noises in one model");
      if (p->noise_stream != NULL && p->noise_stream[0] == '\0')
        fx_io_report_error (r, path, "stream", "must not be empty");
      else if (p->noise_stream != NULL)
        g_hash_table_insert (streams, p->noise_stream, (gpointer) p);
      return;
    }
  if (first->noise != p->noise || first->noise_sigma != p->noise_sigma
      || (p->noise == FX_NOISE_OU && first->noise_tau != p->noise_tau))
    fx_io_report_error (r, path, "stream", "stream \"%s\" is shared, so its noise must have the "
                  "same type and parameters everywhere it is used", p->noise_stream);
}

static void
check_streams (Report *r, const FxModel *m)
{
  g_autoptr (GHashTable) streams = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  for (guint i = 0; i < m->joints->len; i++)
    if (fx_model_joint (m, i)->driven)
      {
        g_autofree char *path = g_strdup_printf ("joints[%u].motion", i);

        check_stream (r, streams, path, &fx_model_joint (m, i)->drive_profile, &n);
      }
  for (guint i = 0; i < m->loads->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("loads[%u]", i);

      check_stream (r, streams, path, &fx_model_load (m, i)->profile, &n);
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    {
      g_autofree char *path = g_strdup_printf ("motors[%u]", i);

      check_stream (r, streams, path, &fx_model_motor (m, i)->profile, &n);
    }
}

void
fx_io_check_model (Report *r, const FxModel *m)
{
  Check c = { r, m, g_hash_table_new (g_str_hash, g_str_equal),
              g_hash_table_new (g_str_hash, g_str_equal) };
  guint64 total = 0;

  check_settings (r, m);
  for (guint i = 0; i < m->joints->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("joints[%u]", i);

      check_joint (&c, i, path);
    }
  /* Register every link id first: loads and probes may name any of them. */
  for (guint i = 0; i < m->links->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("links[%u]", i);

      check_link (&c, i, path, &total);
    }
  if (total > FX_MAX_ELEMENTS_TOTAL)
    fx_io_report_error (r, NULL, "links", "%.0f elements in total; the limit is %u",
                        (double) total, FX_MAX_ELEMENTS_TOTAL);
  check_list (&c, m->loads, "loads", check_load);
  check_list (&c, m->motors, "motors", check_motor);
  check_list (&c, m->springs, "springs", check_spring);
  check_list (&c, m->bodies, "bodies", check_body);
  check_list (&c, m->probes, "probes", check_probe);
  check_list (&c, m->drags, "drags", check_drag);
  check_streams (r, m);
  g_hash_table_unref (c.joints);
  g_hash_table_unref (c.links);
}

