/* fx-model.c: the mechanism as plain data; see fx-model.h. */
#include "fx-model.h"
#include "fx-model-index.h"

#include <gsl/gsl_interp.h>
#include <math.h>
#include <string.h>

/* ---- element life cycle ------------------------------------------------ */

static void
table_clear (FxProfile *profile)
{
  g_clear_pointer (&profile->table_t, g_free);
  g_clear_pointer (&profile->table_value, g_free);
  profile->n_table = 0;
}

static void
profile_clear (FxProfile *profile)
{
  table_clear (profile);
  g_clear_pointer (&profile->noise_stream, g_free);
}

static void
joint_clear (gpointer data)
{
  FxJoint *joint = data;

  g_clear_pointer (&joint->id, g_free);
  profile_clear (&joint->drive_profile);
}

static void
link_clear (gpointer data)
{
  FxLink *link = data;

  g_clear_pointer (&link->id, g_free);
  g_clear_pointer (&link->from, g_free);
  g_clear_pointer (&link->to, g_free);
}

static void
load_clear (gpointer data)
{
  FxLoad *load = data;

  g_clear_pointer (&load->id, g_free);
  g_clear_pointer (&load->joint, g_free);
  g_clear_pointer (&load->link, g_free);
  g_clear_pointer (&load->frame_link, g_free);
  profile_clear (&load->profile);
}

static void
probe_clear (gpointer data)
{
  FxProbe *probe = data;

  g_clear_pointer (&probe->id, g_free);
  g_clear_pointer (&probe->link, g_free);
}

static void
motor_clear (gpointer data)
{
  FxMotor *motor = data;

  g_clear_pointer (&motor->id, g_free);
  g_clear_pointer (&motor->joint, g_free);
  g_clear_pointer (&motor->link, g_free);
  g_clear_pointer (&motor->link_b, g_free);
  profile_clear (&motor->profile);
}

static void
spring_clear (gpointer data)
{
  FxSpring *spring = data;

  g_clear_pointer (&spring->id, g_free);
  g_clear_pointer (&spring->joint, g_free);
  g_clear_pointer (&spring->link, g_free);
  g_clear_pointer (&spring->link_b, g_free);
}

static void
drag_clear (gpointer data)
{
  FxDrag *drag = data;

  g_clear_pointer (&drag->id, g_free);
  g_clear_pointer (&drag->link, g_free);
  g_clear_pointer (&drag->joint, g_free);
  g_clear_pointer (&drag->path_t, g_free);
  g_clear_pointer (&drag->path_x, g_free);
  g_clear_pointer (&drag->path_y, g_free);
  drag->n_path = 0;
}

static void
body_clear (gpointer data)
{
  FxBody *body = data;

  g_clear_pointer (&body->id, g_free);
  g_clear_pointer (&body->joints, g_strfreev);
  body->n_joints = 0;
}

static GArray *
new_array (gsize element_size, GDestroyNotify clear)
{
  /* Cleared, so that g_array_set_size() hands out zeroed elements. */
  GArray *array = g_array_new (FALSE, TRUE, element_size);

  g_array_set_clear_func (array, clear);
  return array;
}

const char *const fx_view_diagram_names[FX_VIEW_DIAGRAMS] = { "none", "N", "V", "M" };

FxModel *
fx_model_new (void)
{
  FxModel *model = g_new0 (FxModel, 1);

  model->joints = new_array (sizeof (FxJoint), joint_clear);
  model->links = new_array (sizeof (FxLink), link_clear);
  model->loads = new_array (sizeof (FxLoad), load_clear);
  model->probes = new_array (sizeof (FxProbe), probe_clear);
  model->motors = new_array (sizeof (FxMotor), motor_clear);
  model->springs = new_array (sizeof (FxSpring), spring_clear);
  model->bodies = new_array (sizeof (FxBody), body_clear);
  model->drags = new_array (sizeof (FxDrag), drag_clear);
  model->gravity[0] = 0.0;
  model->gravity[1] = -9.81;
  model->dt = 0.01;
  model->t_end = 1.0;
  model->tolerance = 1e-12;
  model->max_iterations = 20;
  model->regularisation_mass_fraction = FX_DEFAULT_REGULARISATION;
  model->view_diagram = -1;
  return model;
}

void
fx_model_free (FxModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->description);
  g_array_unref (model->joints);
  g_array_unref (model->links);
  g_array_unref (model->loads);
  g_array_unref (model->probes);
  g_array_unref (model->motors);
  g_array_unref (model->springs);
  g_array_unref (model->bodies);
  g_array_unref (model->drags);
  fx_model_index_free (model->index);
  g_free (model);
}

static double *
dup_doubles (const double *values, guint n)
{
  return n > 0 && values != NULL ? g_memdup2 (values, sizeof (double) * n) : NULL;
}

/* A profile copied wholesale gets its own table and stream name. */
static void
profile_own_table (FxProfile *profile)
{
  profile->table_t = dup_doubles (profile->table_t, profile->n_table);
  profile->table_value = dup_doubles (profile->table_value, profile->n_table);
  profile->noise_stream = g_strdup (profile->noise_stream);
}

/* Each copier duplicates the structs wholesale, then every owned pointer. */
static void
copy_joints (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxJoint *joint = &g_array_index (to, FxJoint, i);

      joint->id = g_strdup (joint->id);
      profile_own_table (&joint->drive_profile);
    }
}

static void
copy_links (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxLink *link = &g_array_index (to, FxLink, i);

      link->id = g_strdup (link->id);
      link->from = g_strdup (link->from);
      link->to = g_strdup (link->to);
    }
}

static void
copy_loads (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxLoad *load = &g_array_index (to, FxLoad, i);

      load->id = g_strdup (load->id);
      load->joint = g_strdup (load->joint);
      load->link = g_strdup (load->link);
      load->frame_link = g_strdup (load->frame_link);
      profile_own_table (&load->profile);
    }
}

static void
copy_probes (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxProbe *probe = &g_array_index (to, FxProbe, i);

      probe->id = g_strdup (probe->id);
      probe->link = g_strdup (probe->link);
    }
}

static void
copy_motors (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxMotor *motor = &g_array_index (to, FxMotor, i);

      motor->id = g_strdup (motor->id);
      motor->joint = g_strdup (motor->joint);
      motor->link = g_strdup (motor->link);
      motor->link_b = g_strdup (motor->link_b);
      profile_own_table (&motor->profile);
    }
}

static void
copy_springs (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxSpring *spring = &g_array_index (to, FxSpring, i);

      spring->id = g_strdup (spring->id);
      spring->joint = g_strdup (spring->joint);
      spring->link = g_strdup (spring->link);
      spring->link_b = g_strdup (spring->link_b);
    }
}

static void
copy_bodies (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxBody *body = &g_array_index (to, FxBody, i);

      body->id = g_strdup (body->id);
      body->joints = g_strdupv (body->joints);
    }
}

static void
copy_drags (GArray *to, const GArray *from)
{
  g_array_append_vals (to, from->data, from->len);
  for (guint i = 0; i < to->len; i++)
    {
      FxDrag *drag = &g_array_index (to, FxDrag, i);

      drag->id = g_strdup (drag->id);
      drag->link = g_strdup (drag->link);
      drag->joint = g_strdup (drag->joint);
      drag->path_t = g_memdup2 (drag->path_t, sizeof (double) * drag->n_path);
      drag->path_x = g_memdup2 (drag->path_x, sizeof (double) * drag->n_path);
      drag->path_y = g_memdup2 (drag->path_y, sizeof (double) * drag->n_path);
    }
}

FxModel *
fx_model_copy (const FxModel *model)
{
  FxModel *copy;

  g_return_val_if_fail (model != NULL, NULL);

  copy = fx_model_new ();
  copy->name = g_strdup (model->name);
  copy->description = g_strdup (model->description);
  memcpy (copy->gravity, model->gravity, sizeof copy->gravity);
  copy->dt = model->dt;
  copy->integrator = model->integrator;
  copy->t_end = model->t_end;
  copy->tolerance = model->tolerance;
  copy->max_iterations = model->max_iterations;
  copy->seed = model->seed;
  copy->regularisation_mass_fraction = model->regularisation_mass_fraction;
  copy->view_settled = model->view_settled;
  copy->view_diagram = model->view_diagram;
  copy_joints (copy->joints, model->joints);
  copy_links (copy->links, model->links);
  copy_loads (copy->loads, model->loads);
  copy_probes (copy->probes, model->probes);
  copy_motors (copy->motors, model->motors);
  copy_springs (copy->springs, model->springs);
  copy_bodies (copy->bodies, model->bodies);
  copy_drags (copy->drags, model->drags);
  return copy;
}

/* ---- adders ------------------------------------------------------------ */

/* Grows the array by one zeroed element and returns it. */
static gpointer
append_zeroed (GArray *array)
{
  g_array_set_size (array, array->len + 1);
  return array->data + (gsize) (array->len - 1) * g_array_get_element_size (array);
}

FxJoint *
fx_model_add_joint (FxModel *model, const char *id, double x, double y)
{
  FxJoint *joint;

  g_return_val_if_fail (model != NULL, NULL);

  joint = append_zeroed (model->joints);
  joint->id = g_strdup (id);
  joint->at[0] = x;
  joint->at[1] = y;
  joint->kind = FX_JOINT_PIN;
  joint->support = FX_SUPPORT_NONE;
  joint->driven = FALSE;
  joint->drive_profile.type = FX_PROFILE_CONSTANT;
  joint->slider = FALSE;
  joint->slider_direction[0] = 1.0;
  joint->slider_direction[1] = 0.0;
  return joint;
}

FxLink *
fx_model_add_link (FxModel *model, const char *id, const char *from,
                   const char *to, guint elements)
{
  FxLink *link;

  g_return_val_if_fail (model != NULL, NULL);

  link = append_zeroed (model->links);
  link->id = g_strdup (id);
  link->from = g_strdup (from);
  link->to = g_strdup (to);
  link->elements = elements;
  link->degree = 1;
  link->section.form = FX_SECTION_CANONICAL;
  link->formulation = FX_FORMULATION_AUTO;
  link->rigid = FALSE;
  link->damping = 0.0;
  link->rotational_damping = 0.0;
  return link;
}

static FxLoad *
add_load (FxModel *model)
{
  FxLoad *load = append_zeroed (model->loads);

  load->frame = FX_FRAME_SPATIAL;
  load->profile.type = FX_PROFILE_CONSTANT;
  return load;
}

FxLoad *
fx_model_add_joint_load (FxModel *model, const char *joint)
{
  FxLoad *load;

  g_return_val_if_fail (model != NULL, NULL);

  load = add_load (model);
  load->joint = g_strdup (joint);
  return load;
}

FxLoad *
fx_model_add_link_load (FxModel *model, const char *link, double s)
{
  FxLoad *load;

  g_return_val_if_fail (model != NULL, NULL);

  load = add_load (model);
  load->link = g_strdup (link);
  load->s = s;
  return load;
}

FxProbe *
fx_model_add_probe (FxModel *model, const char *id, const char *link, double s)
{
  FxProbe *probe;

  g_return_val_if_fail (model != NULL, NULL);

  probe = append_zeroed (model->probes);
  probe->id = g_strdup (id);
  probe->link = g_strdup (link);
  probe->s = s;
  return probe;
}

FxMotor *
fx_model_add_motor (FxModel *model, const char *id, const char *joint,
                    const char *link, const char *link_b, FxMotorType type, double value)
{
  FxMotor *motor;

  g_return_val_if_fail (model != NULL, NULL);

  motor = append_zeroed (model->motors);
  motor->id = g_strdup (id);
  motor->joint = g_strdup (joint);
  motor->link = g_strdup (link);
  motor->link_b = g_strdup (link_b);
  motor->type = type;
  motor->value = value;
  motor->profile.type = FX_PROFILE_CONSTANT;
  return motor;
}

FxSpring *
fx_model_add_spring (FxModel *model, const char *id, const char *joint,
                     const char *link, const char *link_b, double stiffness, double damping)
{
  FxSpring *spring;

  g_return_val_if_fail (model != NULL, NULL);

  spring = append_zeroed (model->springs);
  spring->id = g_strdup (id);
  spring->joint = g_strdup (joint);
  spring->link = g_strdup (link);
  spring->link_b = g_strdup (link_b);
  spring->stiffness = stiffness;
  spring->damping = damping;
  spring->rest_angle = 0.0;
  return spring;
}

FxDrag *
fx_model_add_drag (FxModel *model, const char *id, const char *link, double s, const char *joint)
{
  FxDrag *drag;

  g_return_val_if_fail (model != NULL, NULL);

  drag = append_zeroed (model->drags);
  drag->id = g_strdup (id);
  drag->link = g_strdup (link);
  drag->s = s;
  drag->joint = g_strdup (joint);
  drag->frequency = FX_DRAG_DEFAULT_FREQUENCY;
  drag->damping_ratio = FX_DRAG_DEFAULT_DAMPING_RATIO;
  drag->release = INFINITY;
  return drag;
}

void
fx_drag_set_path (FxDrag *drag, guint n, const double *t, const double *x, const double *y)
{
  g_free (drag->path_t);
  g_free (drag->path_x);
  g_free (drag->path_y);
  drag->n_path = n;
  drag->path_t = g_memdup2 (t, sizeof (double) * n);
  drag->path_x = g_memdup2 (x, sizeof (double) * n);
  drag->path_y = g_memdup2 (y, sizeof (double) * n);
}

FxBody *
fx_model_add_body (FxModel *model, const char *id, const char *const *joints,
                   double mass, double inertia)
{
  FxBody *body;

  g_return_val_if_fail (model != NULL, NULL);

  body = append_zeroed (model->bodies);
  body->id = g_strdup (id);
  body->joints = g_strdupv ((char **) (joints ? joints : (const char *const[]) { NULL }));
  body->n_joints = g_strv_length (body->joints);
  body->mass = mass;
  body->inertia = inertia;
  return body;
}

void
fx_body_center (const FxModel *model, const FxBody *body, double c[2])
{
  guint n = 0;

  if (body->has_center)
    {
      c[0] = body->center[0];
      c[1] = body->center[1];
      return;
    }
  c[0] = c[1] = 0.0;
  for (guint k = 0; k < body->n_joints; k++)
    {
      int j = fx_model_find_joint (model, body->joints[k]);
      if (j < 0)
        continue;
      c[0] += fx_model_joint (model, (guint) j)->at[0];
      c[1] += fx_model_joint (model, (guint) j)->at[1];
      n++;
    }
  if (n > 0)
    c[0] /= n, c[1] /= n;
}

int
fx_model_find_body_of_joint (const FxModel *model, const char *id)
{
  for (guint b = 0; b < fx_model_n_bodies (model); b++)
    {
      const FxBody *body = fx_model_body (model, b);
      for (guint k = 0; k < body->n_joints; k++)
        if (g_strcmp0 (body->joints[k], id) == 0)
          return (int) b;
    }
  return -1;
}

/* ---- look-ups ---------------------------------------------------------- */

int
fx_model_find_joint (const FxModel *model, const char *id)
{
  g_return_val_if_fail (model != NULL, -1);

  if (id == NULL)
    return -1;
  return fx_model_index_find_joint (model, id);
}

int
fx_model_find_link (const FxModel *model, const char *id)
{
  g_return_val_if_fail (model != NULL, -1);

  if (id == NULL)
    return -1;
  for (guint i = 0; i < model->links->len && i <= G_MAXINT; i++)
    if (g_strcmp0 (fx_model_link (model, i)->id, id) == 0)
      return (int) i;
  return -1;
}

double
fx_link_cantilever_omega (const FxModel *model, const FxLink *link)
{
  const double beta = 1.8751040687119611;  /* cos b cosh b = -1 */
  double L = fx_link_length (model, link);

  if (link->rigid || !(L > 0.0) || !(link->section.rhoA > 0.0) || !(link->section.EI > 0.0))
    return 0.0;
  return beta * beta * sqrt (link->section.EI / (link->section.rhoA * L * L * L * L));
}

guint
fx_link_degree (const FxLink *link)
{
  return link->kind == FX_LINK_GEOMETRICALLY_EXACT ? CLAMP (link->degree, 1u, FX_MAX_DEGREE) : 1;
}

double
fx_link_length (const FxModel *model, const FxLink *link)
{
  int a, b;
  const FxJoint *ja, *jb;

  g_return_val_if_fail (model != NULL && link != NULL, 0.0);

  a = fx_model_find_joint (model, link->from);
  b = fx_model_find_joint (model, link->to);
  if (a < 0 || b < 0)
    return 0.0;
  ja = fx_model_joint (model, (guint) a);
  jb = fx_model_joint (model, (guint) b);
  return hypot (jb->at[0] - ja->at[0], jb->at[1] - ja->at[1]);
}

/* ---- sections ---------------------------------------------------------- */

double
fx_shape_default_shear_factor (FxShapeType shape)
{
  /* Timoshenko's usual values: 5/6 for solid rectangles, 0.9 for round ones
   * (the exact circle value depends on nu and stays close to 0.9). */
  switch (shape)
    {
    case FX_SHAPE_CIRCLE:
    case FX_SHAPE_TUBE:
      return 0.9;
    case FX_SHAPE_RECTANGLE:
    case FX_SHAPE_SQUARE:
    default:
      return 5.0 / 6.0;
    }
}

/* Area and second moment of area about the axis normal to the plane. */
static void
shape_area_inertia (const FxSection *section, double *area, double *inertia)
{
  double d, di;

  switch (section->shape)
    {
    case FX_SHAPE_RECTANGLE:
      *area = section->width * section->height;
      *inertia = section->width * pow (section->height, 3) / 12.0;
      break;
    case FX_SHAPE_SQUARE:
      *area = section->width * section->width;
      *inertia = pow (section->width, 4) / 12.0;
      break;
    case FX_SHAPE_CIRCLE:
      d = section->diameter;
      *area = G_PI * d * d / 4.0;
      *inertia = G_PI * pow (d, 4) / 64.0;
      break;
    case FX_SHAPE_TUBE:
      d = section->diameter;
      di = section->inner_diameter;
      *area = G_PI * (d * d - di * di) / 4.0;
      *inertia = G_PI * (pow (d, 4) - pow (di, 4)) / 64.0;
      break;
    default:
      *area = *inertia = 0.0;
      break;
    }
}

void
fx_section_derive (FxSection *section)
{
  double area, inertia, shear_modulus;

  g_return_if_fail (section != NULL);

  section->form = FX_SECTION_MATERIAL;
  if (!(section->shear_factor > 0.0))
    section->shear_factor = fx_shape_default_shear_factor (section->shape);

  shape_area_inertia (section, &area, &inertia);
  shear_modulus = section->E / (2.0 * (1.0 + section->nu));
  section->rhoA = section->rho * area;
  section->rhoI = section->rho * inertia;
  section->EA = section->E * area;
  section->GA = section->shear_factor * shear_modulus * area;
  section->EI = section->E * inertia;
}

void
fx_section_set_canonical (FxSection *section, double rhoA, double rhoI,
                          double EA, double GA, double EI)
{
  g_return_if_fail (section != NULL);

  section->form = FX_SECTION_CANONICAL;
  section->rhoA = rhoA;
  section->rhoI = rhoI;
  section->EA = EA;
  section->GA = GA;
  section->EI = EI;
}

/* ---- profiles ---------------------------------------------------------- */

/* Linear from 0 at a to 1 at b (a < b), clamped to [0, 1] outside. */
static double
rise (double a, double b, double t)
{
  if (t <= a)
    return 0.0;
  if (t >= b)
    return 1.0;
  return (t - a) / (b - a);
}

/* Piecewise linear through the table, held at its ends: GSL's linear
 * interpolation (gsl_interp_linear keeps no state, so the per-call set-up
 * is two small allocations; tables are sampled once per step). Files
 * guarantee strictly increasing times; a table built in code that repeats
 * a time is a jump there, taken at its later value. */
static double
table_eval (const FxProfile *profile, double t)
{
  const double *x = profile->table_t, *y = profile->table_value;
  const guint n = profile->n_table;

  if (n == 0 || x == NULL || y == NULL)
    return 0.0;
  if (!(t > x[0]))  /* also a NaN time */
    return y[0];
  if (t >= x[n - 1])
    return y[n - 1];
  /* x[lo] <= t < x[lo + 1], inside the strictly increasing run around it */
  guint lo = (guint) gsl_interp_bsearch (x, t, 0, n - 1), first = lo, last = lo + 1;
  while (first > 0 && x[first - 1] < x[first])
    first--;
  while (last + 1 < n && x[last + 1] > x[last])
    last++;
  gsl_interp *interp = gsl_interp_alloc (gsl_interp_linear, last - first + 1);
  gsl_interp_init (interp, x + first, y + first, last - first + 1);
  double v = gsl_interp_eval (interp, x + first, y + first, t, NULL);
  gsl_interp_free (interp);
  return v;
}

double
fx_profile_eval (const FxProfile *profile, double t)
{
  g_return_val_if_fail (profile != NULL, 0.0);

  switch (profile->type)
    {
    case FX_PROFILE_CONSTANT:
      return 1.0;
    case FX_PROFILE_STEP_OFF:
      return t <= profile->t1 ? 1.0 : 0.0;
    case FX_PROFILE_RAMP:
      return rise (profile->t0, profile->t1, t);
    case FX_PROFILE_HAT:
      if (t <= profile->t0 || t >= profile->t2)
        return 0.0;
      if (t <= profile->t1)
        return rise (profile->t0, profile->t1, t);
      return 1.0 - rise (profile->t1, profile->t2, t);
    case FX_PROFILE_SINE:
      return sin (2.0 * G_PI * profile->frequency * t + profile->phase);
    case FX_PROFILE_TABLE:
      return table_eval (profile, t);
    default:
      return 0.0;
    }
}

gboolean
fx_model_has_noise (const FxModel *m)
{
  for (guint i = 0; i < m->joints->len; i++)
    if (fx_model_joint (m, i)->driven && fx_model_joint (m, i)->drive_profile.noise != FX_NOISE_NONE)
      return TRUE;
  for (guint i = 0; i < m->loads->len; i++)
    if (fx_model_load (m, i)->profile.noise != FX_NOISE_NONE)
      return TRUE;
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    if (fx_model_motor (m, i)->profile.noise != FX_NOISE_NONE)
      return TRUE;
  return FALSE;
}

void
fx_profile_set_table (FxProfile *profile, guint n, const double *t, const double *value)
{
  g_return_if_fail (profile != NULL);
  g_return_if_fail (n == 0 || (t != NULL && value != NULL));

  table_clear (profile);
  profile->type = FX_PROFILE_TABLE;
  profile->n_table = n;
  profile->table_t = dup_doubles (t, n);
  profile->table_value = dup_doubles (value, n);
}

/* ---- names ------------------------------------------------------------- */

/* Each enum's names, indexed by value; the tables are the single source. */
static const char *const formulation_names[] = {
  "auto", "free-free", "clamped-clamped", "pinned", "guided",
};
static const char *const link_kind_names[] = { "geometrically-exact", "floating-frame" };
static const char *const link_frame_names[] = { "mean-axis", "attached" };
static const char *const support_names[] = { "none", "pin", "clamp", "guided", "roller" };
static const char *const joint_kind_names[] = { "pin", "weld" };
static const char *const profile_names[] = {
  "constant", "step-off", "ramp", "hat", "sine", "table",
};
static const char *const frame_names[] = { "spatial", "material" };
static const char *const noise_kind_names[] = { "none", "white", "ou" };
static const char *const motor_type_names[] = { "torque", "speed" };
static const char *const shape_names[] = { "rectangle", "square", "circle", "tube" };
static const char *const integrator_names[] = { "midpoint", "gauss4" };

gboolean
fx_link_end_from_string (const char *s, FxEndCausality out[2])
{
  if (s == NULL || strlen (s) != 2)
    return FALSE;
  for (guint k = 0; k < 2; k++)
    {
      if (s[k] != 'F' && s[k] != 'V')
        return FALSE;
      out[k] = s[k] == 'F' ? FX_END_FORCE : FX_END_VELOCITY;
    }
  return TRUE;
}

void
fx_link_end_to_string (const FxEndCausality end[2], char out[3])
{
  for (guint k = 0; k < 2; k++)
    out[k] = end[k] == FX_END_FORCE ? 'F' : end[k] == FX_END_VELOCITY ? 'V' : '?';
  out[2] = '\0';
}

gboolean
fx_link_has_ends (const FxLink *link)
{
  for (guint side = 0; side < 2; side++)
    if (link->ends[side][0] != FX_END_AUTO || link->ends[side][1] != FX_END_AUTO)
      return TRUE;
  return FALSE;
}

static const char *
name_of (const char *const *names, guint n, int value)
{
  return value >= 0 && (guint) value < n ? names[value] : NULL;
}

static gboolean
value_of (const char *const *names, guint n, const char *s, int *out)
{
  if (s == NULL)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (strcmp (names[i], s) == 0)
      {
        *out = (int) i;
        return TRUE;
      }
  return FALSE;
}

/* One pair of converters per enum, all through the tables above. */
#define FX_DEFINE_NAMES(Type, prefix, names)                              \
  const char *                                                            \
  prefix##_to_string (Type v)                                             \
  {                                                                       \
    return name_of (names, G_N_ELEMENTS (names), (int) v);                \
  }                                                                       \
  gboolean                                                                \
  prefix##_from_string (const char *s, Type *out)                         \
  {                                                                       \
    int v;                                                                \
    if (!value_of (names, G_N_ELEMENTS (names), s, &v))                   \
      return FALSE;                                                       \
    if (out != NULL)                                                      \
      *out = (Type) v;                                                    \
    return TRUE;                                                          \
  }

FX_DEFINE_NAMES (FxFormulation, fx_formulation, formulation_names)
FX_DEFINE_NAMES (FxLinkKind, fx_link_kind, link_kind_names)
FX_DEFINE_NAMES (FxLinkFrame, fx_link_frame, link_frame_names)
FX_DEFINE_NAMES (FxSupport, fx_support, support_names)
FX_DEFINE_NAMES (FxJointKind, fx_joint_kind, joint_kind_names)
FX_DEFINE_NAMES (FxProfileType, fx_profile_type, profile_names)
FX_DEFINE_NAMES (FxFrame, fx_frame, frame_names)
FX_DEFINE_NAMES (FxMotorType, fx_motor_type, motor_type_names)
FX_DEFINE_NAMES (FxNoiseKind, fx_noise_kind, noise_kind_names)
FX_DEFINE_NAMES (FxShapeType, fx_shape_type, shape_names)
FX_DEFINE_NAMES (FxIntegratorKind, fx_integrator_kind, integrator_names)
