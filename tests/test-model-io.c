/* test-model-io.c: the model data (fx-model.c) and its file format
 * (fx-model-io.c): defaults, derivations, profiles, round trips, atomic
 * saving, warnings, error collection and robustness on broken input. */
#include "fx-model-io.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define HEADER "\"format\": \"flexion-model\", \"version\": 1"

/* ---- helpers ----------------------------------------------------------- */

/* Bit-for-bit equality is what "round-trips exactly" means (even -0.0). */
static void
assert_same_double (double a, double b, const char *what)
{
  if (memcmp (&a, &b, sizeof a) != 0)
    g_error ("%s: %.17g != %.17g", what, a, b);
}

static void
assert_same_doubles (const double *a, const double *b, guint n, const char *what)
{
  for (guint i = 0; i < n; i++)
    assert_same_double (a[i], b[i], what);
}

static void
assert_same_section (const FxSection *a, const FxSection *b)
{
  g_assert_cmpint (a->form, ==, b->form);
  assert_same_double (a->rhoA, b->rhoA, "rhoA");
  assert_same_double (a->rhoI, b->rhoI, "rhoI");
  assert_same_double (a->EA, b->EA, "EA");
  assert_same_double (a->GA, b->GA, "GA");
  assert_same_double (a->EI, b->EI, "EI");
  assert_same_double (a->E, b->E, "E");
  assert_same_double (a->nu, b->nu, "nu");
  assert_same_double (a->rho, b->rho, "rho");
  assert_same_double (a->shear_factor, b->shear_factor, "shear_factor");
  g_assert_cmpint (a->shape, ==, b->shape);
  assert_same_double (a->width, b->width, "width");
  assert_same_double (a->height, b->height, "height");
  assert_same_double (a->diameter, b->diameter, "diameter");
  assert_same_double (a->inner_diameter, b->inner_diameter, "inner_diameter");
}

static void
assert_same_profile (const FxProfile *a, const FxProfile *b)
{
  g_assert_cmpint (a->type, ==, b->type);
  assert_same_double (a->t0, b->t0, "t0");
  assert_same_double (a->t1, b->t1, "t1");
  assert_same_double (a->t2, b->t2, "t2");
  assert_same_double (a->frequency, b->frequency, "frequency");
  assert_same_double (a->phase, b->phase, "phase");
  g_assert_cmpuint (a->n_table, ==, b->n_table);
  assert_same_doubles (a->table_t, b->table_t, a->n_table, "table_t");
  assert_same_doubles (a->table_value, b->table_value, a->n_table, "table_value");
}

static void
assert_same_joints (const FxModel *a, const FxModel *b)
{
  g_assert_cmpuint (a->joints->len, ==, b->joints->len);
  for (guint i = 0; i < a->joints->len; i++)
    {
      const FxJoint *x = fx_model_joint (a, i), *y = fx_model_joint (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      assert_same_doubles (x->at, y->at, 2, "at");
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->support, ==, y->support);
      assert_same_double (x->mass, y->mass, "mass");
      assert_same_double (x->inertia, y->inertia, "inertia");
      g_assert_cmpint (x->driven, ==, y->driven);
      assert_same_doubles (x->drive_velocity, y->drive_velocity, 2, "drive velocity");
      assert_same_profile (&x->drive_profile, &y->drive_profile);
      g_assert_cmpint (x->slider, ==, y->slider);
      assert_same_double (x->slider_mass, y->slider_mass, "slider mass");
      assert_same_doubles (x->slider_direction, y->slider_direction, 2, "slider direction");
    }
}

static void
assert_same_links (const FxModel *a, const FxModel *b)
{
  g_assert_cmpuint (a->links->len, ==, b->links->len);
  for (guint i = 0; i < a->links->len; i++)
    {
      const FxLink *x = fx_model_link (a, i), *y = fx_model_link (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->from, ==, y->from);
      g_assert_cmpstr (x->to, ==, y->to);
      g_assert_cmpuint (x->elements, ==, y->elements);
      assert_same_section (&x->section, &y->section);
      g_assert_cmpint (x->formulation, ==, y->formulation);
      g_assert_cmpint (x->rigid, ==, y->rigid);
      assert_same_doubles (x->initial_velocity, y->initial_velocity, 2, "initial velocity");
      assert_same_double (x->initial_omega, y->initial_omega, "initial omega");
      assert_same_double (x->damping, y->damping, "damping");
      assert_same_double (x->rotational_damping, y->rotational_damping, "rotational damping");
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->frame, ==, y->frame);
      assert_same_double (x->kelvin_voigt, y->kelvin_voigt, "kelvin_voigt");
      g_assert_cmpmem (x->ends, sizeof x->ends, y->ends, sizeof y->ends);
    }
}

static void
assert_same_loads (const FxModel *a, const FxModel *b)
{
  g_assert_cmpuint (a->loads->len, ==, b->loads->len);
  for (guint i = 0; i < a->loads->len; i++)
    {
      const FxLoad *x = fx_model_load (a, i), *y = fx_model_load (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->joint, ==, y->joint);
      g_assert_cmpstr (x->link, ==, y->link);
      assert_same_double (x->s, y->s, "s");
      assert_same_doubles (x->force, y->force, 2, "force");
      g_assert_cmpint (x->frame, ==, y->frame);
      g_assert_cmpstr (x->frame_link, ==, y->frame_link);
      assert_same_double (x->moment, y->moment, "moment");
      assert_same_profile (&x->profile, &y->profile);
    }
}

static void
assert_same_motors (const FxModel *a, const FxModel *b)
{
  g_assert_cmpuint (a->motors->len, ==, b->motors->len);
  for (guint i = 0; i < a->motors->len; i++)
    {
      const FxMotor *x = fx_model_motor (a, i), *y = fx_model_motor (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->joint, ==, y->joint);
      g_assert_cmpstr (x->link, ==, y->link);
      g_assert_cmpstr (x->link_b, ==, y->link_b);
      g_assert_cmpint (x->type, ==, y->type);
      assert_same_double (x->value, y->value, "motor value");
      assert_same_profile (&x->profile, &y->profile);
    }
}

static void
assert_same_springs (const FxModel *a, const FxModel *b)
{
  g_assert_cmpuint (a->springs->len, ==, b->springs->len);
  for (guint i = 0; i < a->springs->len; i++)
    {
      const FxSpring *x = fx_model_spring (a, i), *y = fx_model_spring (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->joint, ==, y->joint);
      g_assert_cmpstr (x->link, ==, y->link);
      g_assert_cmpstr (x->link_b, ==, y->link_b);
      assert_same_double (x->stiffness, y->stiffness, "spring stiffness");
      assert_same_double (x->damping, y->damping, "spring damping");
      assert_same_double (x->rest_angle, y->rest_angle, "rest angle");
    }
}

static void
assert_same_model (const FxModel *a, const FxModel *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->description, ==, b->description);
  assert_same_doubles (a->gravity, b->gravity, 2, "gravity");
  assert_same_double (a->dt, b->dt, "dt");
  assert_same_double (a->t_end, b->t_end, "t_end");
  assert_same_double (a->tolerance, b->tolerance, "tolerance");
  g_assert_cmpuint (a->max_iterations, ==, b->max_iterations);
  assert_same_joints (a, b);
  assert_same_links (a, b);
  assert_same_loads (a, b);
  assert_same_motors (a, b);
  assert_same_springs (a, b);
  g_assert_cmpuint (a->probes->len, ==, b->probes->len);
  for (guint i = 0; i < a->probes->len; i++)
    {
      const FxProbe *x = fx_model_probe (a, i), *y = fx_model_probe (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->link, ==, y->link);
      assert_same_double (x->s, y->s, "probe s");
    }
}

static FxModel *
load_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  FxModel *model = fx_model_load_data (text, -1, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

/* Loads text that must fail; returns the message. */
static char *
load_error (const char *text, FxModelError code)
{
  g_autoptr (GError) error = NULL;
  FxModel *model = fx_model_load_data (text, -1, NULL, &error);

  g_assert_null (model);
  g_assert_error (error, FX_MODEL_ERROR, (int) code);
  return g_strdup (error->message);
}

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("\"%s\" not found in:\n%s", needle, haystack);
}

/* Saves, loads and compares; and the second save is the same text. */
static void
assert_round_trip (const FxModel *model)
{
  g_autofree char *text = NULL, *again = NULL;
  g_autoptr (FxModel) loaded = NULL;
  gsize length;

  text = fx_model_to_data (model, &length);
  g_assert_cmpuint (length, ==, strlen (text));
  g_assert_true (g_str_has_suffix (text, "}\n"));
  loaded = load_ok (text);
  assert_same_model (model, loaded);
  again = fx_model_to_data (loaded, NULL);
  g_assert_cmpstr (text, ==, again);
}

/* A model with every feature the format has, in code. */
static FxModel *
build_full_model (void)
{
  FxModel *m = fx_model_new ();
  FxJoint *j;
  FxLink *l;
  FxLoad *load;
  FxMotor *motor;
  FxSpring *spring;
  static const double table_t[] = { 0.0, 0.1, 0.25, 1.0 / 3.0 };
  static const double table_v[] = { 0.0, 1.0, -0.5, 1e-300 };

  m->name = g_strdup ("Everything \"quoted\" \\ ünïcode");
  m->description = g_strdup ("tab\tand newline\n and \x01 control");
  m->gravity[0] = 0.1;
  m->gravity[1] = -9.80665;
  m->dt = 1e-4;
  m->t_end = 2.5;
  m->tolerance = 1e-9;
  m->max_iterations = 50;

  /* A driven clamp at a constant velocity (the profile is left out). */
  j = fx_model_add_joint (m, "A", 0.0, 0.0);
  j->support = FX_SUPPORT_CLAMP;
  j->driven = TRUE;
  j->drive_velocity[0] = 0.0;
  j->drive_velocity[1] = -0.125;
  j = fx_model_add_joint (m, "B", 1.0 / 3.0, -0.0);
  j->kind = FX_JOINT_WELD;
  j->mass = 0.25;
  j->inertia = 1e-6;
  /* A driven pin following a table. */
  j = fx_model_add_joint (m, "C", 1.0, 0.5);
  j->support = FX_SUPPORT_PIN;
  j->driven = TRUE;
  j->drive_velocity[0] = 1.0 / 3.0;
  fx_profile_set_table (&j->drive_profile, G_N_ELEMENTS (table_t), table_t, table_v);
  fx_model_add_joint (m, "D", 2.0, 123456.789125)->support = FX_SUPPORT_GUIDED;
  fx_model_add_joint (m, "E", 5e-324, -FX_MAX_COORDINATE);
  /* A slider block along a unit direction: it must come back bit for bit. */
  j = fx_model_add_joint (m, "F", 3.0, 0.0);
  j->slider = TRUE;
  j->slider_mass = 0.033;
  j->slider_direction[0] = cos (0.3);
  j->slider_direction[1] = sin (0.3);
  j->inertia = 1e-7;

  l = fx_model_add_link (m, "canonical", "A", "B", 10);
  fx_section_set_canonical (&l->section, 2.7, 1e-7, 2.1e11 * 0.0025, 3e9, 123.456);
  l->formulation = FX_FORMULATION_CLAMPED_CLAMPED;

  l = fx_model_add_link (m, "rect", "B", "C", 7);
  l->section = (FxSection) { .E = 7e10, .nu = 0.33, .rho = 2710, .shape = FX_SHAPE_RECTANGLE,
                             .width = 0.02, .height = 0.003 };
  fx_section_derive (&l->section);
  l->formulation = FX_FORMULATION_PINNED;
  l->initial_velocity[0] = 0.5;
  l->initial_velocity[1] = -1.25;
  l->initial_omega = 3.0;
  l->damping = 0.5;
  l->rotational_damping = 1e-4;

  l = fx_model_add_link (m, "square", "C", "D", 1);
  l->section = (FxSection) { .E = 2.1e11, .nu = 0.3, .rho = 7850, .shape = FX_SHAPE_SQUARE,
                             .width = 0.05, .shear_factor = 1.0 };
  fx_section_derive (&l->section);
  l->formulation = FX_FORMULATION_GUIDED;

  l = fx_model_add_link (m, "circle", "D", "E", 3);
  l->section = (FxSection) { .E = 1e9, .nu = 0.45, .rho = 1000, .shape = FX_SHAPE_CIRCLE,
                             .diameter = 0.01 };
  fx_section_derive (&l->section);
  l->formulation = FX_FORMULATION_FREE_FREE;
  l->rotational_damping = 2.5e-3;  /* only one of the two */

  l = fx_model_add_link (m, "tube", "A", "C", FX_MAX_ELEMENTS_PER_LINK);
  l->section = (FxSection) { .E = 2e11, .nu = 0.5, .rho = 0, .shape = FX_SHAPE_TUBE,
                             .diameter = 0.04, .inner_diameter = 0.03, .shear_factor = 0.5 };
  fx_section_derive (&l->section);

  l = fx_model_add_link (m, "rigid", "A", "D", 2);
  l->rigid = TRUE;
  fx_section_set_canonical (&l->section, 1.5, 0.0, 0.0, 0.0, 0.0);
  l->initial_omega = -2.0;

  l = fx_model_add_link (m, "rigid-material", "B", "D", 2);
  l->rigid = TRUE;
  l->section = (FxSection) { .rho = 500, .shape = FX_SHAPE_CIRCLE, .diameter = 0.1 };
  fx_section_derive (&l->section);

  load = fx_model_add_joint_load (m, "B");
  load->id = g_strdup ("kick");
  load->force[1] = -10.0;
  load->profile.type = FX_PROFILE_STEP_OFF;
  load->profile.t1 = 0.1;

  load = fx_model_add_link_load (m, "rect", 0.75);
  load->force[0] = 1.0;
  load->frame = FX_FRAME_MATERIAL;
  load->profile.type = FX_PROFILE_RAMP;
  load->profile.t0 = 0.2;
  load->profile.t1 = 0.7;

  load = fx_model_add_joint_load (m, "C");
  load->frame = FX_FRAME_MATERIAL;
  load->frame_link = g_strdup ("rect");
  load->moment = 2.5;
  load->profile.type = FX_PROFILE_HAT;
  load->profile.t0 = 0.01;
  load->profile.t1 = 0.02;
  load->profile.t2 = 0.05;

  load = fx_model_add_link_load (m, "canonical", 0.0);
  load->force[1] = 3.0;
  load->profile.type = FX_PROFILE_SINE;
  load->profile.frequency = 50.0;
  load->profile.phase = -G_PI / 2;

  load = fx_model_add_link_load (m, "square", 1.0);
  load->moment = -1.0;
  fx_profile_set_table (&load->profile, G_N_ELEMENTS (table_t), table_t, table_v);

  fx_model_add_joint_load (m, "E");  /* a load of zero: still a load */
  load = fx_model_add_joint_load (m, "E");  /* the extremes of a double, in a table: */
  load->force[0] = 1e12;                    /* forces are limited (FX_MAX_LOAD) */
  load->force[1] = -2.2250738585072014e-308;
  {
    const double extreme_t[] = { 0.0, 1.0 };
    const double extreme_v[] = { 1.7976931348623157e308, -2.2250738585072014e-308 };
    fx_profile_set_table (&load->profile, 2, extreme_t, extreme_v);
  }

  /* At the pin C end the links rect, square and tube. */
  motor = fx_model_add_motor (m, "drive", "C", "rect", NULL, FX_MOTOR_TORQUE, -0.75);
  motor->profile.type = FX_PROFILE_HAT;
  motor->profile.t1 = 0.35;
  motor->profile.t2 = 0.7;
  motor = fx_model_add_motor (m, "spin", "C", "square", "tube", FX_MOTOR_SPEED, 2.0 * G_PI);
  fx_profile_set_table (&motor->profile, G_N_ELEMENTS (table_t), table_t, table_v);
  fx_model_add_motor (m, "still", "C", "tube", NULL, FX_MOTOR_SPEED, 0.0);  /* a lock */

  spring = fx_model_add_spring (m, "hinge", "C", "rect", "square", 12.5, 0.01);
  spring->rest_angle = -G_PI / 6;
  fx_model_add_spring (m, "to-ground", "C", "tube", NULL, 3.0, 0.0);
  fx_model_add_spring (m, "damper", "C", "square", "rect", 0.0, 1e-3);

  fx_model_add_probe (m, "tip", "rect", 1.0);
  fx_model_add_probe (m, "root", "canonical", 0.0);
  fx_model_add_probe (m, "mid", "tube", 0.5);
  return m;
}

/* ---- model data -------------------------------------------------------- */

/* Floating-frame links: model, frame and damping.kelvin_voigt read, written
 * back the same, defaults left out, and misuse refused with its path. */
static void
test_floating_frame (void)
{
  static const char *const text =
    "{\"format\": \"flexion-model\", \"version\": 1,"
    " \"joints\": [{\"id\": \"H\", \"at\": [0, 0], \"support\": \"clamp\"},"
    "              {\"id\": \"T\", \"at\": [10, 0]}, {\"id\": \"U\", \"at\": [0, 5]}],"
    " \"links\": [{\"id\": \"blade\", \"from\": \"H\", \"to\": \"T\", \"elements\": 10,"
    "  \"model\": \"floating-frame\", \"frame\": \"attached\", \"damping\": {\"kelvin_voigt\": 0.25},"
    "  \"section\": {\"rhoA\": 1.2, \"rhoI\": 6e-4, \"EA\": 2.8e7, \"GA\": 1e7, \"EI\": 1.4e4}},"
    "  {\"id\": \"arm\", \"from\": \"H\", \"to\": \"U\", \"elements\": 4, \"model\": \"floating-frame\","
    "  \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1e6, \"GA\": 1e6, \"EI\": 10}}]}";
  g_autoptr (FxModel) m = load_ok (text);
  const FxLink *blade = fx_model_link (m, 0), *arm = fx_model_link (m, 1);

  g_assert_cmpint (blade->kind, ==, FX_LINK_FLOATING_FRAME);
  g_assert_cmpint (blade->frame, ==, FX_LINK_FRAME_ATTACHED);
  g_assert_cmpfloat (blade->kelvin_voigt, ==, 0.25);
  g_assert_cmpint (arm->kind, ==, FX_LINK_FLOATING_FRAME);
  g_assert_cmpint (arm->frame, ==, FX_LINK_FRAME_MEAN_AXIS);
  assert_round_trip (m);
  g_autofree char *saved = fx_model_to_data (m, NULL);
  g_assert_null (strstr (saved, "mean-axis"));  /* the default is left out */

  g_autofree char *bad_model = load_error (
    "{\"format\": \"flexion-model\", \"version\": 1, \"joints\": [{\"id\": \"A\", \"at\": [0, 0]},"
    " {\"id\": \"B\", \"at\": [1, 0]}], \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\","
    " \"elements\": 2, \"model\": \"floating\", \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1,"
    " \"GA\": 1, \"EI\": 1}}]}", FX_MODEL_ERROR_INVALID);
  assert_contains (bad_model, "links[0].model");
  g_autofree char *bad_frame = load_error (
    "{\"format\": \"flexion-model\", \"version\": 1, \"joints\": [{\"id\": \"A\", \"at\": [0, 0]},"
    " {\"id\": \"B\", \"at\": [1, 0]}], \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\","
    " \"elements\": 2, \"frame\": \"attached\", \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1,"
    " \"GA\": 1, \"EI\": 1}}]}", FX_MODEL_ERROR_INVALID);
  assert_contains (bad_frame, "links[0].frame");
  g_autofree char *too_many = load_error (
    "{\"format\": \"flexion-model\", \"version\": 1, \"joints\": [{\"id\": \"A\", \"at\": [0, 0]},"
    " {\"id\": \"B\", \"at\": [1, 0]}], \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\","
    " \"elements\": 201, \"model\": \"floating-frame\", \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1,"
    " \"GA\": 1, \"EI\": 1}}]}", FX_MODEL_ERROR_INVALID);
  assert_contains (too_many, "links[0].elements");
}

/* "ends": each end's causality of a floating-frame link, by hand. */
static void
test_floating_ends (void)
{
  static const char *const text =
    "{\"format\": \"flexion-model\", \"version\": 1,"
    " \"joints\": [{\"id\": \"H\", \"at\": [0, 0], \"support\": \"pin\"}, {\"id\": \"T\", \"at\": [1, 0]}],"
    " \"links\": [{\"id\": \"arm\", \"from\": \"H\", \"to\": \"T\", \"elements\": 4,"
    "  \"model\": \"floating-frame\", \"ends\": {\"from\": \"VF\", \"to\": \"FF\"},"
    "  \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1e6, \"GA\": 1e6, \"EI\": 10}}]}";
  g_autoptr (FxModel) m = load_ok (text);
  const FxLink *arm = fx_model_link (m, 0);

  g_assert_cmpint (arm->ends[0][0], ==, FX_END_VELOCITY);
  g_assert_cmpint (arm->ends[0][1], ==, FX_END_FORCE);
  g_assert_cmpint (arm->ends[1][0], ==, FX_END_FORCE);
  g_assert_cmpint (arm->ends[1][1], ==, FX_END_FORCE);
  assert_round_trip (m);
  g_autofree char *saved = fx_model_to_data (m, NULL);
  assert_contains (saved, "\"ends\": { \"from\": \"VF\", \"to\": \"FF\" }");

  /* one end left to the matcher is left out */
  g_autoptr (FxModel) half = fx_model_copy (m);
  memset (fx_model_link (half, 0)->ends[1], 0, sizeof arm->ends[1]);
  assert_round_trip (half);
  g_autofree char *saved_half = fx_model_to_data (half, NULL);
  assert_contains (saved_half, "\"ends\": { \"from\": \"VF\" }");

  g_autofree char *bad_letters = load_error (
    "{\"format\": \"flexion-model\", \"version\": 1, \"joints\": [{\"id\": \"A\", \"at\": [0, 0]},"
    " {\"id\": \"B\", \"at\": [1, 0]}], \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\","
    " \"elements\": 2, \"model\": \"floating-frame\", \"ends\": {\"from\": \"VX\"},"
    " \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1, \"GA\": 1, \"EI\": 1}}]}", FX_MODEL_ERROR_INVALID);
  assert_contains (bad_letters, "links[0].ends.from");
  g_autofree char *on_ge = load_error (
    "{\"format\": \"flexion-model\", \"version\": 1, \"joints\": [{\"id\": \"A\", \"at\": [0, 0]},"
    " {\"id\": \"B\", \"at\": [1, 0]}], \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\","
    " \"elements\": 2, \"ends\": {\"from\": \"VV\"},"
    " \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1, \"GA\": 1, \"EI\": 1}}]}", FX_MODEL_ERROR_INVALID);
  assert_contains (on_ge, "links[0].ends");
  /* half an end in memory is refused before it could be written */
  g_autoptr (FxModel) odd = fx_model_copy (m);
  fx_model_link (odd, 0)->ends[1][1] = FX_END_AUTO;
  g_autoptr (GError) error = NULL;
  g_assert_false (fx_model_validate (odd, &error));
  assert_contains (error->message, "links[0].ends.to");
}

static void
test_defaults (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  g_autoptr (FxModel) loaded = NULL;
  FxJoint *joint;
  FxLink *link;
  FxLoad *load;
  FxProbe *probe;

  assert_same_double (m->gravity[0], 0.0, "gx");
  assert_same_double (m->gravity[1], -9.81, "gy");
  assert_same_double (m->dt, 0.01, "dt");
  assert_same_double (m->t_end, 1.0, "t_end");
  assert_same_double (m->tolerance, 1e-12, "tolerance");
  g_assert_cmpuint (m->max_iterations, ==, 20);
  g_assert_null (m->name);
  g_assert_null (m->description);
  g_assert_cmpuint (m->joints->len + m->links->len + m->loads->len + m->probes->len, ==, 0);
  g_assert_cmpuint (fx_model_n_motors (m) + fx_model_n_springs (m), ==, 0);

  loaded = load_ok ("{" HEADER "}");
  assert_same_model (m, loaded);

  joint = fx_model_add_joint (m, "A", 1.0, 2.0);
  g_assert_cmpstr (joint->id, ==, "A");
  g_assert_cmpint (joint->kind, ==, FX_JOINT_PIN);
  g_assert_cmpint (joint->support, ==, FX_SUPPORT_NONE);
  g_assert_cmpfloat (joint->mass, ==, 0.0);
  g_assert_false (joint->driven);
  g_assert_cmpfloat (joint->drive_velocity[0], ==, 0.0);
  g_assert_cmpfloat (joint->drive_velocity[1], ==, 0.0);
  g_assert_cmpint (joint->drive_profile.type, ==, FX_PROFILE_CONSTANT);
  g_assert_false (joint->slider);
  g_assert_cmpfloat (joint->slider_mass, ==, 0.0);
  g_assert_cmpfloat (joint->slider_direction[0], ==, 1.0);
  g_assert_cmpfloat (joint->slider_direction[1], ==, 0.0);
  fx_model_add_joint (m, "B", 4.0, 6.0);

  link = fx_model_add_link (m, "L", "A", "B", 5);
  g_assert_cmpuint (link->elements, ==, 5);
  g_assert_cmpint (link->formulation, ==, FX_FORMULATION_AUTO);
  g_assert_cmpint (link->section.form, ==, FX_SECTION_CANONICAL);
  g_assert_cmpfloat (link->section.EA, ==, 0.0);
  g_assert_false (link->rigid);
  g_assert_cmpfloat (link->damping, ==, 0.0);
  g_assert_cmpfloat (link->rotational_damping, ==, 0.0);
  g_assert_cmpfloat (fx_link_length (m, link), ==, 5.0);
  g_assert_cmpint (fx_model_find_joint (m, "B"), ==, 1);
  g_assert_cmpint (fx_model_find_joint (m, "X"), ==, -1);
  g_assert_cmpint (fx_model_find_link (m, "L"), ==, 0);
  g_assert_cmpint (fx_model_find_link (m, NULL), ==, -1);

  load = fx_model_add_link_load (m, "L", 0.5);
  g_assert_cmpstr (load->link, ==, "L");
  g_assert_null (load->joint);
  g_assert_cmpint (load->frame, ==, FX_FRAME_SPATIAL);
  g_assert_cmpint (load->profile.type, ==, FX_PROFILE_CONSTANT);
  load = fx_model_add_joint_load (m, "A");
  g_assert_cmpstr (load->joint, ==, "A");
  g_assert_null (load->link);

  probe = fx_model_add_probe (m, "p", "L", 0.25);
  g_assert_cmpstr (probe->link, ==, "L");
  g_assert_cmpfloat (probe->s, ==, 0.25);

  {
    FxMotor *motor = fx_model_add_motor (m, "m", "A", "L", NULL, FX_MOTOR_SPEED, 2.0);
    FxSpring *spring;

    g_assert_cmpstr (motor->id, ==, "m");
    g_assert_cmpstr (motor->joint, ==, "A");
    g_assert_cmpstr (motor->link, ==, "L");
    g_assert_null (motor->link_b);
    g_assert_cmpint (motor->type, ==, FX_MOTOR_SPEED);
    g_assert_cmpfloat (motor->value, ==, 2.0);
    g_assert_cmpint (motor->profile.type, ==, FX_PROFILE_CONSTANT);
    g_assert_cmpuint (motor->profile.n_table, ==, 0);
    motor = fx_model_add_motor (m, "n", "A", "L", "K", FX_MOTOR_TORQUE, -1.0);
    g_assert_cmpstr (motor->link_b, ==, "K");
    g_assert_cmpuint (fx_model_n_motors (m), ==, 2);
    g_assert_true (fx_model_motor (m, 1) == motor);

    spring = fx_model_add_spring (m, "k", "B", "L", NULL, 10.0, 0.5);
    g_assert_cmpstr (spring->id, ==, "k");
    g_assert_cmpstr (spring->joint, ==, "B");
    g_assert_cmpstr (spring->link, ==, "L");
    g_assert_null (spring->link_b);
    g_assert_cmpfloat (spring->stiffness, ==, 10.0);
    g_assert_cmpfloat (spring->damping, ==, 0.5);
    g_assert_cmpfloat (spring->rest_angle, ==, 0.0);
    g_assert_cmpuint (fx_model_n_springs (m), ==, 1);
    g_assert_true (fx_model_spring (m, 0) == spring);
  }

  /* A link without stiffness is not a valid elastic link. */
  g_assert_false (fx_model_validate (m, NULL));
}

static void
test_defaults_from_file (void)
{
  g_autoptr (FxModel) m = load_ok (
    "{" HEADER ",\n"
    " \"joints\": [{\"id\": \"A\", \"at\": [0, 0]}, {\"id\": \"B\", \"at\": [1, 0]},\n"
    "   {\"id\": \"P\", \"at\": [0, 1], \"support\": \"pin\", \"motion\": {\"velocity\": [1, 2]}},\n"
    "   {\"id\": \"S\", \"at\": [3, 0], \"slider\": {\"direction\": [-3, 4], \"mass\": 2}}],\n"
    " \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\", \"elements\": 4,\n"
    "   \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1, \"GA\": 1, \"EI\": 1}},\n"
    "  {\"id\": \"K\", \"from\": \"P\", \"to\": \"S\", \"elements\": 1, \"damping\": {\"velocity\": 3},\n"
    "   \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1, \"GA\": 1, \"EI\": 1}},\n"
    "  {\"id\": \"J\", \"from\": \"P\", \"to\": \"A\", \"elements\": 1, \"damping\": {},\n"
    "   \"section\": {\"rhoA\": 1, \"rhoI\": 0, \"EA\": 1, \"GA\": 1, \"EI\": 1}}],\n"
    " \"loads\": [{\"joint\": \"B\"}, {\"link\": \"L\", \"s\": 0.5}],\n"
    " \"motors\": [{\"id\": \"m\", \"joint\": \"P\", \"link\": \"K\", \"type\": \"speed\", \"value\": 1}],\n"
    " \"springs\": [{\"id\": \"k\", \"joint\": \"P\", \"link\": \"K\", \"stiffness\": 5},\n"
    "               {\"id\": \"d\", \"joint\": \"P\", \"link\": \"J\", \"against\": \"K\", \"damping\": 0.5}],\n"
    " \"time\": {}, \"solver\": {}}");
  const FxLink *link = fx_model_link (m, 0);
  const FxLoad *load = fx_model_load (m, 1);
  const FxJoint *driven = fx_model_joint (m, 2), *slider = fx_model_joint (m, 3);
  const FxMotor *motor = fx_model_motor (m, 0);
  const FxSpring *spring = fx_model_spring (m, 0), *damper = fx_model_spring (m, 1);
  g_autofree char *text = NULL;

  g_assert_cmpint (fx_model_joint (m, 0)->kind, ==, FX_JOINT_PIN);
  g_assert_cmpint (fx_model_joint (m, 0)->support, ==, FX_SUPPORT_NONE);
  g_assert_cmpint (link->formulation, ==, FX_FORMULATION_AUTO);
  g_assert_false (link->rigid);
  g_assert_cmpfloat (link->initial_omega, ==, 0.0);
  g_assert_cmpint (load->frame, ==, FX_FRAME_SPATIAL);
  g_assert_cmpint (load->profile.type, ==, FX_PROFILE_CONSTANT);
  g_assert_cmpfloat (load->force[0], ==, 0.0);
  g_assert_cmpfloat (load->moment, ==, 0.0);
  g_assert_cmpfloat (m->dt, ==, 0.01);
  g_assert_cmpuint (m->max_iterations, ==, 20);
  g_assert_cmpfloat (m->gravity[1], ==, -9.81);

  /* The new parts: a motion without a profile is constant; a slider's
   * direction is normalised; damping defaults per key; motors act against
   * the ground without "against"; springs rest at the drawn angle. */
  g_assert_false (fx_model_joint (m, 0)->driven);
  g_assert_false (fx_model_joint (m, 0)->slider);
  g_assert_true (driven->driven);
  g_assert_cmpfloat (driven->drive_velocity[0], ==, 1.0);
  g_assert_cmpfloat (driven->drive_velocity[1], ==, 2.0);
  g_assert_cmpint (driven->drive_profile.type, ==, FX_PROFILE_CONSTANT);
  g_assert_false (driven->slider);
  g_assert_true (slider->slider);
  g_assert_false (slider->driven);
  g_assert_cmpfloat (slider->slider_mass, ==, 2.0);
  g_assert_cmpfloat (slider->mass, ==, 0.0);
  g_assert_cmpfloat_with_epsilon (slider->slider_direction[0], -0.6, 1e-16);
  g_assert_cmpfloat_with_epsilon (slider->slider_direction[1], 0.8, 1e-16);
  g_assert_cmpfloat (link->damping, ==, 0.0);
  g_assert_cmpfloat (link->rotational_damping, ==, 0.0);
  g_assert_cmpfloat (fx_model_link (m, 1)->damping, ==, 3.0);
  g_assert_cmpfloat (fx_model_link (m, 1)->rotational_damping, ==, 0.0);
  g_assert_cmpfloat (fx_model_link (m, 2)->damping, ==, 0.0);
  g_assert_null (motor->link_b);
  g_assert_cmpint (motor->type, ==, FX_MOTOR_SPEED);
  g_assert_cmpint (motor->profile.type, ==, FX_PROFILE_CONSTANT);
  g_assert_null (spring->link_b);
  g_assert_cmpfloat (spring->stiffness, ==, 5.0);
  g_assert_cmpfloat (spring->damping, ==, 0.0);
  g_assert_cmpfloat (spring->rest_angle, ==, 0.0);
  g_assert_cmpstr (damper->link_b, ==, "K");
  g_assert_cmpfloat (damper->stiffness, ==, 0.0);

  /* Saving leaves the defaults out again. */
  text = fx_model_to_data (m, NULL);
  g_assert_null (strstr (text, "profile"));
  g_assert_true (strstr (text, "against") == g_strrstr (text, "against"));  /* once */
  g_assert_null (strstr (text, "rotation"));
  g_assert_null (strstr (text, "rest_angle"));
  g_assert_null (strstr (text, "\"damping\": {}"));
  assert_contains (text, "\"damping\": { \"velocity\": 3 }");
  assert_contains (text, "\"motion\": { \"velocity\": [1, 2] }");
  assert_contains (text, "\"slider\": { \"direction\": [-0.6, 0.8], \"mass\": 2 }");
  assert_contains (text, "\"stiffness\": 5 }");
  assert_contains (text, "\"against\": \"K\", \"damping\": 0.5 }");
  assert_round_trip (m);
}

static void
test_strings (void)
{
  FxFormulation f;
  FxSupport s;
  FxJointKind k;
  FxProfileType p;
  FxFrame fr;
  FxShapeType sh;
  FxMotorType mt;

  g_assert_cmpstr (fx_motor_type_to_string (FX_MOTOR_TORQUE), ==, "torque");
  g_assert_cmpstr (fx_motor_type_to_string (FX_MOTOR_SPEED), ==, "speed");
  g_assert_null (fx_motor_type_to_string ((FxMotorType) 2));
  g_assert_true (fx_motor_type_from_string ("speed", &mt) && mt == FX_MOTOR_SPEED);
  g_assert_true (fx_motor_type_from_string ("torque", &mt) && mt == FX_MOTOR_TORQUE);
  g_assert_false (fx_motor_type_from_string ("Torque", &mt));
  g_assert_false (fx_motor_type_from_string ("velocity", &mt));
  g_assert_false (fx_motor_type_from_string (NULL, &mt));
  g_assert_true (fx_motor_type_from_string ("speed", NULL));
  g_assert_cmpstr (fx_formulation_to_string (FX_FORMULATION_AUTO), ==, "auto");
  g_assert_cmpstr (fx_formulation_to_string (FX_FORMULATION_CLAMPED_CLAMPED), ==, "clamped-clamped");
  g_assert_null (fx_formulation_to_string ((FxFormulation) 99));
  g_assert_true (fx_formulation_from_string ("guided", &f) && f == FX_FORMULATION_GUIDED);
  g_assert_true (fx_formulation_from_string ("free-free", &f) && f == FX_FORMULATION_FREE_FREE);
  g_assert_true (fx_formulation_from_string ("pinned", &f) && f == FX_FORMULATION_PINNED);
  g_assert_false (fx_formulation_from_string ("Guided", &f));
  g_assert_false (fx_formulation_from_string (NULL, &f));
  g_assert_true (fx_support_from_string ("clamp", &s) && s == FX_SUPPORT_CLAMP);
  g_assert_cmpstr (fx_support_to_string (FX_SUPPORT_GUIDED), ==, "guided");
  g_assert_cmpstr (fx_support_to_string (FX_SUPPORT_NONE), ==, "none");
  g_assert_true (fx_joint_kind_from_string ("weld", &k) && k == FX_JOINT_WELD);
  g_assert_cmpstr (fx_joint_kind_to_string (FX_JOINT_PIN), ==, "pin");
  g_assert_true (fx_profile_type_from_string ("step-off", &p) && p == FX_PROFILE_STEP_OFF);
  g_assert_cmpstr (fx_profile_type_to_string (FX_PROFILE_TABLE), ==, "table");
  g_assert_true (fx_frame_from_string ("material", &fr) && fr == FX_FRAME_MATERIAL);
  g_assert_cmpstr (fx_frame_to_string (FX_FRAME_SPATIAL), ==, "spatial");
  g_assert_true (fx_shape_type_from_string ("tube", &sh) && sh == FX_SHAPE_TUBE);
  g_assert_cmpstr (fx_shape_type_to_string (FX_SHAPE_SQUARE), ==, "square");
  g_assert_true (fx_shape_type_from_string ("circle", NULL));
}

static void
test_copy (void)
{
  g_autoptr (FxModel) m = build_full_model ();
  g_autoptr (FxModel) copy = fx_model_copy (m);

  assert_same_model (m, copy);
  /* Deep: changing the copy leaves the original alone. */
  fx_model_joint (copy, 0)->id[0] = 'Z';
  fx_model_load (copy, 4)->profile.table_value[1] = 42.0;
  g_assert_cmpstr (fx_model_joint (m, 0)->id, ==, "A");
  g_assert_cmpfloat (fx_model_load (m, 4)->profile.table_value[1], ==, 1.0);

  /* The drive and motor profiles' tables and the motor and spring strings too. */
  g_assert_true (fx_model_joint (copy, 2)->drive_profile.table_t
                 != fx_model_joint (m, 2)->drive_profile.table_t);
  fx_model_joint (copy, 2)->drive_profile.table_value[1] = 42.0;
  g_assert_cmpfloat (fx_model_joint (m, 2)->drive_profile.table_value[1], ==, 1.0);
  fx_model_motor (copy, 1)->profile.table_t[0] = -1.0;
  g_assert_cmpfloat (fx_model_motor (m, 1)->profile.table_t[0], ==, 0.0);
  fx_model_motor (copy, 1)->link_b[0] = 'Z';
  fx_model_motor (copy, 0)->joint[0] = 'Z';
  fx_model_spring (copy, 0)->link_b[0] = 'Z';
  fx_model_spring (copy, 1)->id[0] = 'Z';
  g_assert_cmpstr (fx_model_motor (m, 1)->link_b, ==, "tube");
  g_assert_cmpstr (fx_model_motor (m, 0)->joint, ==, "C");
  g_assert_cmpstr (fx_model_spring (m, 0)->link_b, ==, "square");
  g_assert_cmpstr (fx_model_spring (m, 1)->id, ==, "to-ground");
  /* Freeing the copy leaves the original whole (checked under ASan). */
  g_clear_pointer (&copy, fx_model_free);
  assert_round_trip (m);
}

/* A slider direction is stored as a unit vector: normalised when loading,
 * whatever the scale of the numbers; one already of unit length (to a few
 * ulps) is kept bit for bit, so that loading is idempotent. */
static void
test_slider_direction (void)
{
  static const struct {
    const char *direction;
    double x, y;
  } cases[] = {
    { "[3, 4]", 0.6, 0.8 },
    { "[0, -2]", 0.0, -1.0 },
    { "[-1e-310, 0]", -1.0, 0.0 },
    { "[5e-324, 5e-324]", G_SQRT2 / 2, G_SQRT2 / 2 },
    { "[1.7e308, -1.7e308]", G_SQRT2 / 2, -G_SQRT2 / 2 },
    { "[1e300, 1]", 1.0, 1e-300 },
    { "[1, 0]", 1.0, 0.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (
        "{" HEADER ", \"joints\": [{\"id\": \"S\", \"at\": [0, 0], "
        "\"slider\": {\"direction\": %s, \"mass\": 1}}]}", cases[i].direction);
      g_autoptr (FxModel) m = load_ok (text);
      const double *t = fx_model_joint (m, 0)->slider_direction;
      g_autofree char *saved = fx_model_to_data (m, NULL);
      g_autoptr (FxModel) again = load_ok (saved);

      g_assert_cmpfloat_with_epsilon (t[0], cases[i].x, 1e-15);
      g_assert_cmpfloat_with_epsilon (t[1], cases[i].y, 1e-15);
      g_assert_cmpfloat_with_epsilon (hypot (t[0], t[1]), 1.0, 4 * DBL_EPSILON);
      assert_same_model (m, again);
    }

  /* Unit vectors in every direction: none is touched. */
  for (guint k = 0; k < 3600; k++)
    {
      g_autoptr (FxModel) m = fx_model_new ();
      FxJoint *j = fx_model_add_joint (m, "S", 0, 0);

      j->slider = TRUE;
      j->slider_mass = 1;
      j->slider_direction[0] = cos (k * G_PI / 1800);
      j->slider_direction[1] = sin (k * G_PI / 1800);
      assert_round_trip (m);
    }
}

static void
test_derive (void)
{
  FxSection s = { .E = 2.1e11, .nu = 0.3, .rho = 2710, .shape = FX_SHAPE_SQUARE,
                  .width = 0.05, .shear_factor = 1.0 };
  double a = 0.05, area = a * a, inertia = a * a * a * a / 12.0;

  fx_section_derive (&s);
  g_assert_cmpint (s.form, ==, FX_SECTION_MATERIAL);
  g_assert_cmpfloat_with_epsilon (s.rhoA, 2710 * area, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.rhoI / (2710 * inertia), 1.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (s.EA / (2.1e11 * area), 1.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (s.GA / (2.1e11 * area / (2 * 1.3)), 1.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (s.EI / (2.1e11 * inertia), 1.0, 1e-14);

  /* Rectangle: the height is in the bending plane. */
  s = (FxSection) { .E = 1, .nu = 0, .rho = 1, .shape = FX_SHAPE_RECTANGLE,
                    .width = 0.2, .height = 0.01 };
  fx_section_derive (&s);
  g_assert_cmpfloat_with_epsilon (s.EA, 0.2 * 0.01, 1e-15);
  g_assert_cmpfloat_with_epsilon (s.EI / (0.2 * 1e-6 / 12), 1.0, 1e-14);
  g_assert_cmpfloat (s.shear_factor, ==, 5.0 / 6.0);
  g_assert_cmpfloat_with_epsilon (s.GA / (5.0 / 6.0 * 0.5 * 0.002), 1.0, 1e-14);

  s = (FxSection) { .E = 1, .nu = 0, .rho = 1, .shape = FX_SHAPE_CIRCLE, .diameter = 0.1 };
  fx_section_derive (&s);
  g_assert_cmpfloat (s.shear_factor, ==, 0.9);
  g_assert_cmpfloat_with_epsilon (s.rhoA / (G_PI * 0.01 / 4), 1.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (s.EI / (G_PI * 1e-4 / 64), 1.0, 1e-14);

  s = (FxSection) { .E = 1, .nu = 0, .rho = 1, .shape = FX_SHAPE_TUBE, .diameter = 0.1,
                    .inner_diameter = 0.08 };
  fx_section_derive (&s);
  g_assert_cmpfloat (s.shear_factor, ==, 0.9);
  g_assert_cmpfloat_with_epsilon (s.EA / (G_PI * (0.01 - 0.0064) / 4), 1.0, 1e-13);
  g_assert_cmpfloat_with_epsilon (s.EI / (G_PI * (1e-4 - 0.08 * 0.08 * 0.0064) / 64), 1.0, 1e-13);

  g_assert_cmpfloat (fx_shape_default_shear_factor (FX_SHAPE_SQUARE), ==, 5.0 / 6.0);
  g_assert_cmpfloat (fx_shape_default_shear_factor (FX_SHAPE_TUBE), ==, 0.9);
}

static void
test_derive_from_file (void)
{
  g_autoptr (FxModel) m = load_ok (
    "{" HEADER ",\n"
    " \"joints\": [{\"id\": \"A\", \"at\": [0, 0]}, {\"id\": \"B\", \"at\": [1, 0]}],\n"
    " \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\", \"elements\": 4,\n"
    "   \"section\": {\"E\": 2.1e11, \"nu\": 0.3, \"rho\": 2710, \"shear_factor\": 1,\n"
    "                 \"shape\": {\"type\": \"square\", \"side\": 0.05}}},\n"
    "  {\"id\": \"M\", \"from\": \"A\", \"to\": \"B\", \"elements\": 4,\n"
    "   \"section\": {\"E\": 2.1e11, \"nu\": 0.3, \"rho\": 2710,\n"
    "                 \"shape\": {\"type\": \"circle\", \"diameter\": 0.05}}}]}");
  const FxSection *s = &fx_model_link (m, 0)->section;
  FxSection expected = { .E = 2.1e11, .nu = 0.3, .rho = 2710, .shape = FX_SHAPE_SQUARE,
                         .width = 0.05, .shear_factor = 1.0 };

  fx_section_derive (&expected);
  assert_same_section (s, &expected);
  g_assert_cmpfloat_with_epsilon (s->GA / (2.1e11 * 0.0025 / 2.6), 1.0, 1e-14);
  /* Omitted shear factor: the shape's default, and saving leaves it out again. */
  g_assert_cmpfloat (fx_model_link (m, 1)->section.shear_factor, ==, 0.9);
  assert_round_trip (m);
}

static void
test_profiles (void)
{
  FxProfile p = { .type = FX_PROFILE_CONSTANT };
  static const double t[] = { 0.0, 1.0, 3.0 };
  static const double v[] = { 2.0, 4.0, -4.0 };

  g_assert_cmpfloat (fx_profile_eval (&p, -5.0), ==, 1.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 1e9), ==, 1.0);

  p = (FxProfile) { .type = FX_PROFILE_STEP_OFF, .t1 = 0.5 };
  g_assert_cmpfloat (fx_profile_eval (&p, 0.0), ==, 1.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 0.5), ==, 1.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 0.500001), ==, 0.0);

  p = (FxProfile) { .type = FX_PROFILE_RAMP, .t0 = 1.0, .t1 = 3.0 };
  g_assert_cmpfloat (fx_profile_eval (&p, 0.0), ==, 0.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 1.0), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 1.5), 0.25, 1e-15);
  g_assert_cmpfloat (fx_profile_eval (&p, 3.0), ==, 1.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 30.0), ==, 1.0);

  p = (FxProfile) { .type = FX_PROFILE_HAT, .t0 = 0.0, .t1 = 1.0, .t2 = 3.0 };
  g_assert_cmpfloat (fx_profile_eval (&p, -1.0), ==, 0.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 0.0), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 0.25), 0.25, 1e-15);
  g_assert_cmpfloat (fx_profile_eval (&p, 1.0), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 2.5), 0.25, 1e-15);
  g_assert_cmpfloat (fx_profile_eval (&p, 3.0), ==, 0.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 4.0), ==, 0.0);

  p = (FxProfile) { .type = FX_PROFILE_SINE, .frequency = 2.0, .phase = 0.5 };
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 0.0), sin (0.5), 1e-15);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 0.125), sin (G_PI / 2 + 0.5), 1e-15);

  p = (FxProfile) { .type = FX_PROFILE_CONSTANT };
  fx_profile_set_table (&p, G_N_ELEMENTS (t), t, v);
  g_assert_cmpint (p.type, ==, FX_PROFILE_TABLE);
  g_assert_cmpfloat (fx_profile_eval (&p, -1.0), ==, 2.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 0.0), ==, 2.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 0.5), ==, 3.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 1.0), ==, 4.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 2.0), ==, 0.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 3.0), ==, -4.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 99.0), ==, -4.0);
  /* Replacing the table frees the old one (checked under ASan). */
  fx_profile_set_table (&p, 2, t, v);
  g_assert_cmpfloat (fx_profile_eval (&p, 0.25), ==, 2.5);
  fx_profile_set_table (&p, 0, NULL, NULL);
  g_assert_cmpuint (p.n_table, ==, 0);
}

/* ---- round trips ------------------------------------------------------- */

static void
test_round_trip_data (void)
{
  g_autoptr (FxModel) m = build_full_model ();
  g_autoptr (GError) error = NULL;

  fx_model_validate (m, &error);
  g_assert_no_error (error);
  assert_round_trip (m);
}

static void
test_round_trip_default_model (void)
{
  g_autoptr (FxModel) m = fx_model_new ();

  assert_round_trip (m);
}

/* Random bit patterns: every finite double must come back bit for bit. */
static void
test_round_trip_numbers (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (20240601);
  static const double special[] = {
    0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, 1e-12, 1e15, 1e16, 123456789012345678.0,
    -1e-320, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 9007199254740993.0,
    -0.0, 100, 1e21, 0.1 + 0.2,
  };

  for (guint i = 0; i < 4000; i++)
    {
      double v[2];
      char id[16];

      for (guint k = 0; k < 2; k++)
        {
          guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);

          memcpy (&v[k], &bits, sizeof v[k]);
          if (!isfinite (v[k]))
            v[k] = (double) bits;
        }
      if (i < G_N_ELEMENTS (special))
        v[0] = special[i];
      /* joint positions (FX_MAX_COORDINATE) and forces (FX_MAX_LOAD) are
       * limited; the values of a table profile are not */
      const double t[2] = { 0.0, 1.0 };
      g_snprintf (id, sizeof id, "j%u", i);
      fx_model_add_joint (m, id, 0.0, 0.0);
      FxLoad *load = fx_model_add_joint_load (m, id);
      load->force[0] = 1.0;
      fx_profile_set_table (&load->profile, 2, t, v);
    }
  assert_round_trip (m);
}

static gboolean
dir_is_only (const char *dir, const char *name)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;
  guint n = 0;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_strcmp0 (entry, name) != 0 || ++n > 1)
      return FALSE;
  return n == (name != NULL ? 1u : 0u);
}

static void
test_round_trip_file (void)
{
  g_autoptr (FxModel) m = build_full_model ();
  g_autoptr (FxModel) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flexion-io-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.flexion", NULL);
  g_autofree char *text = NULL, *expected = fx_model_to_data (m, NULL);

  g_assert_true (fx_model_save_file (m, path, &error));
  g_assert_no_error (error);
  g_assert_true (dir_is_only (dir, "model.flexion"));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, expected);

  loaded = fx_model_load_file (path, &warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  assert_same_model (m, loaded);

  /* Saving over an existing file replaces it and leaves nothing else. */
  fx_model_link (loaded, 0)->elements = 3;
  g_assert_true (fx_model_save_file (loaded, path, &error));
  g_assert_true (dir_is_only (dir, "model.flexion"));
  g_clear_pointer (&loaded, fx_model_free);
  loaded = fx_model_load_file (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_model_link (loaded, 0)->elements, ==, 3);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_save_failure (void)
{
  g_autoptr (FxModel) m = build_full_model ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flexion-io-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "model.flexion", NULL);
  g_autofree char *target = g_build_filename (dir, "target", NULL);
  g_autofree char *inside = g_build_filename (target, "keep", NULL);
  g_autofree char *kept = NULL;

  /* Into a directory that does not exist. */
  g_assert_false (fx_model_save_file (m, missing, &error));
  g_assert_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO);
  assert_contains (error->message, "model.flexion");
  g_clear_error (&error);
  g_assert_true (dir_is_only (dir, NULL));

  /* Over something that cannot be replaced (a non-empty directory): the
   * rename fails, the target is untouched and no temporary file remains. */
  g_assert_cmpint (g_mkdir (target, 0700), ==, 0);
  g_assert_true (g_file_set_contents (inside, "precious", -1, NULL));
  g_assert_false (fx_model_save_file (m, target, &error));
  g_assert_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO);
  g_clear_error (&error);
  g_assert_true (dir_is_only (dir, "target"));
  g_assert_true (g_file_get_contents (inside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "precious");

  g_assert_cmpint (g_remove (inside), ==, 0);
  g_assert_cmpint (g_rmdir (target), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_load_missing_file (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  FxModel *m = fx_model_load_file ("/nonexistent/dir/model.flexion", &warnings, &error);

  g_assert_null (m);
  g_assert_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO);
  assert_contains (error->message, "/nonexistent/dir/model.flexion");
  g_assert_nonnull (warnings);
}

/* ---- warnings and errors ----------------------------------------------- */

static const char *const valid_model =
  "{" HEADER ",\n"
  " \"name\": \"valid\",\n"
  " \"joints\": [{\"id\": \"A\", \"at\": [0, 0], \"support\": \"clamp\"},\n"
  "             {\"id\": \"B\", \"at\": [1, 0], \"mass\": 1, \"inertia\": 0.1},\n"
  "             {\"id\": \"C\", \"at\": [2, 0], \"kind\": \"weld\"},\n"
  "             {\"id\": \"P\", \"at\": [0, 1], \"support\": \"pin\",\n"
  "              \"motion\": {\"velocity\": [0, 0.5], \"profile\": {\"type\": \"ramp\", \"t1\": 0.1}}},\n"
  "             {\"id\": \"S\", \"at\": [1, 1], \"slider\": {\"direction\": [1, 0], \"mass\": 0.5}}],\n"
  " \"links\": [{\"id\": \"L1\", \"from\": \"A\", \"to\": \"B\", \"elements\": 8,\n"
  "             \"formulation\": \"clamped-clamped\", \"initial\": {\"velocity\": [1, 0], \"omega\": 2},\n"
  "             \"section\": {\"rhoA\": 2.7, \"rhoI\": 1e-6, \"EA\": 5e8, \"GA\": 2e8, \"EI\": 1e3}},\n"
  "            {\"id\": \"L2\", \"from\": \"B\", \"to\": \"C\", \"elements\": 2, \"rigid\": true,\n"
  "             \"section\": {\"E\": 7e10, \"nu\": 0.3, \"rho\": 2700,\n"
  "                           \"shape\": {\"type\": \"tube\", \"diameter\": 0.02, \"inner_diameter\": 0.01}}},\n"
  "            {\"id\": \"L3\", \"from\": \"P\", \"to\": \"S\", \"elements\": 2,\n"
  "             \"damping\": {\"velocity\": 0.1, \"rotation\": 0.01},\n"
  "             \"section\": {\"rhoA\": 1, \"rhoI\": 1e-6, \"EA\": 1e7, \"GA\": 1e7, \"EI\": 10}},\n"
  "            {\"id\": \"L4\", \"from\": \"P\", \"to\": \"B\", \"elements\": 2,\n"
  "             \"section\": {\"rhoA\": 1, \"rhoI\": 1e-6, \"EA\": 1e7, \"GA\": 1e7, \"EI\": 10}}],\n"
  " \"loads\": [{\"id\": \"push\", \"joint\": \"B\", \"force\": [0, -1], \"frame\": \"material\",\n"
  "             \"frame_link\": \"L1\", \"profile\": {\"type\": \"hat\", \"t1\": 0.1, \"t2\": 0.2}},\n"
  "            {\"link\": \"L2\", \"s\": 0.5, \"moment\": 1,\n"
  "             \"profile\": {\"type\": \"table\", \"points\": [[0, 0], [1, 1]]}},\n"
  "            {\"link\": \"L1\", \"s\": 1, \"profile\": {\"type\": \"sine\", \"frequency\": 3}},\n"
  "            {\"joint\": \"C\", \"profile\": {\"type\": \"ramp\", \"t1\": 1}},\n"
  "            {\"joint\": \"C\", \"profile\": {\"type\": \"step-off\", \"t1\": 1}}],\n"
  " \"motors\": [{\"id\": \"M1\", \"joint\": \"P\", \"link\": \"L3\", \"type\": \"torque\", \"value\": 0.5,\n"
  "              \"profile\": {\"type\": \"hat\", \"t1\": 0.1, \"t2\": 0.2}},\n"
  "             {\"id\": \"M2\", \"joint\": \"P\", \"link\": \"L4\", \"against\": \"L3\", \"type\": \"speed\",\n"
  "              \"value\": -1}],\n"
  " \"springs\": [{\"id\": \"K1\", \"joint\": \"P\", \"link\": \"L4\", \"against\": \"L3\", \"stiffness\": 20,\n"
  "               \"damping\": 0.1, \"rest_angle\": 0.25},\n"
  "              {\"id\": \"K2\", \"joint\": \"P\", \"link\": \"L3\", \"damping\": 0.2}],\n"
  " \"probes\": [{\"id\": \"tip\", \"link\": \"L1\", \"s\": 1}],\n"
  " \"gravity\": [0, -9.81], \"time\": {\"dt\": 0.001, \"end\": 0.5},\n"
  " \"solver\": {\"tolerance\": 1e-10, \"max_iterations\": 30}}\n";

static void
test_warnings (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (FxModel) m = NULL;
  static const char *const expected[] = {
    "colour: unknown key, ignored",
    "time.steps: unknown key, ignored",
    "joints[0].label: unknown key, ignored",
    "links[0].section.shape.height: unknown key, ignored",
    "links[0].initial.spin: unknown key, ignored",
    "loads[0].s: only used by loads on a link, ignored",
    "loads[0].frame_link: only used by joint loads in the material frame, ignored",
    "loads[0].profile.t2: unknown key, ignored",
  };

  m = fx_model_load_data (valid_model, -1, &warnings, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (warnings->len, ==, 0);
  g_clear_pointer (&warnings, g_ptr_array_unref);
  g_clear_pointer (&m, fx_model_free);

  m = fx_model_load_data (
    "{" HEADER ", \"colour\": \"red\",\n"
    " \"joints\": [{\"id\": \"A\", \"at\": [0, 0], \"label\": 1}, {\"id\": \"B\", \"at\": [1, 0]}],\n"
    " \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\", \"elements\": 1,\n"
    "   \"initial\": {\"spin\": 1},\n"
    "   \"section\": {\"E\": 1, \"nu\": 0, \"rho\": 1,\n"
    "                 \"shape\": {\"type\": \"square\", \"side\": 1, \"height\": 2}}}],\n"
    " \"loads\": [{\"joint\": \"A\", \"s\": 0.5, \"frame_link\": \"L\",\n"
    "             \"profile\": {\"type\": \"ramp\", \"t1\": 1, \"t2\": 3}}],\n"
    " \"time\": {\"steps\": 3}}", -1, &warnings, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_assert_cmpuint (warnings->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (warnings->pdata[i], ==, expected[i]);
  /* The ignored frame_link is not kept. */
  g_assert_null (fx_model_load (m, 0)->frame_link);
  g_clear_pointer (&warnings, g_ptr_array_unref);

  /* Warnings are handed out even when loading fails. */
  g_clear_pointer (&m, fx_model_free);
  m = fx_model_load_data ("{" HEADER ", \"colour\": 1, \"joints\": 3}", -1, &warnings, &error);
  g_assert_null (m);
  g_assert_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_INVALID);
  g_assert_cmpuint (warnings->len, ==, 1);
}

static void
test_warnings_new_parts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (FxModel) m = NULL;
  static const char *const expected[] = {
    "joints[0].motion.speed: unknown key, ignored",
    "joints[0].motion.profile.t2: unknown key, ignored",
    "joints[1].slider.friction: unknown key, ignored",
    "links[0].damping.axial: unknown key, ignored",
    "motors[0].gear: unknown key, ignored",
    "springs[0].preload: unknown key, ignored",
  };

  m = fx_model_load_data (
    "{" HEADER ",\n"
    " \"joints\": [{\"id\": \"A\", \"at\": [0, 0], \"support\": \"pin\",\n"
    "   \"motion\": {\"velocity\": [1, 0], \"speed\": 2, \"profile\": {\"type\": \"ramp\", \"t1\": 1, \"t2\": 2}}},\n"
    "  {\"id\": \"B\", \"at\": [1, 0], \"slider\": {\"direction\": [1, 0], \"mass\": 1, \"friction\": 0.3}}],\n"
    " \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"B\", \"elements\": 1,\n"
    "   \"damping\": {\"velocity\": 1, \"axial\": 2},\n"
    "   \"section\": {\"rhoA\": 1, \"rhoI\": 1, \"EA\": 1, \"GA\": 1, \"EI\": 1}}],\n"
    " \"motors\": [{\"id\": \"m\", \"joint\": \"A\", \"link\": \"L\", \"type\": \"torque\", \"value\": 1,\n"
    "   \"gear\": 10}],\n"
    " \"springs\": [{\"id\": \"k\", \"joint\": \"A\", \"link\": \"L\", \"stiffness\": 1, \"preload\": 1}]}",
    -1, &warnings, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  g_assert_cmpuint (warnings->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (warnings->pdata[i], ==, expected[i]);
}

/* The new parts' rules, all in one file: each problem once, with its path. */
static void
test_all_errors_new_parts (void)
{
  g_autofree char *message = load_error (
    "{" HEADER ",\n"
    " \"joints\": [{\"id\": \"O\", \"at\": [0, 0], \"support\": \"pin\"},\n"
    "   {\"id\": \"A\", \"at\": [1, 0], \"motion\": {\"velocity\": [1, 0]}},\n"
    "   {\"id\": \"B\", \"at\": [2, 0], \"mass\": 1, \"slider\": {\"direction\": [0, 0], \"mass\": 0}},\n"
    "   {\"id\": \"C\", \"at\": [3, 0], \"support\": \"clamp\", \"slider\": {\"direction\": [1, 0], \"mass\": 1}},\n"
    "   {\"id\": \"W\", \"at\": [4, 0], \"kind\": \"weld\", \"support\": \"pin\",\n"
    "    \"motion\": {\"velocity\": \"fast\", \"profile\": {\"type\": \"hat\", \"t1\": 1, \"t2\": 0.5}}}],\n"
    " \"links\": [{\"id\": \"L1\", \"from\": \"O\", \"to\": \"A\", \"elements\": 1,\n"
    "   \"damping\": {\"velocity\": -1, \"rotation\": -2},\n"
    "   \"section\": {\"rhoA\": 1, \"rhoI\": 1, \"EA\": 1, \"GA\": 1, \"EI\": 1}},\n"
    "  {\"id\": \"L2\", \"from\": \"A\", \"to\": \"W\", \"elements\": 1,\n"
    "   \"section\": {\"rhoA\": 1, \"rhoI\": 1, \"EA\": 1, \"GA\": 1, \"EI\": 1}}],\n"
    " \"motors\": [{\"id\": \"m\", \"joint\": \"A\", \"link\": \"L1\", \"type\": \"torque\", \"value\": 1},\n"
    "   {\"id\": \"m\", \"joint\": \"O\", \"link\": \"L2\", \"against\": \"X\", \"type\": \"power\", \"value\": 1},\n"
    "   {\"joint\": \"W\", \"link\": \"L2\", \"type\": \"speed\"},\n"
    "   {\"id\": \"n\", \"joint\": \"A\", \"link\": \"L1\", \"against\": \"L1\", \"type\": \"speed\", \"value\": 1,\n"
    "    \"profile\": {\"type\": \"sine\", \"frequency\": 0}}],\n"
    " \"springs\": [{\"id\": \"k\", \"joint\": \"A\", \"link\": \"L1\", \"against\": \"L2\"},\n"
    "   {\"id\": \"k\", \"joint\": \"O\", \"link\": \"L1\", \"stiffness\": -1, \"damping\": 1, \"rest_angle\": \"up\"},\n"
    "   {\"id\": \"j\", \"joint\": \"Q\", \"link\": \"L1\", \"stiffness\": 1}]}", FX_MODEL_ERROR_INVALID);
  static const char *const expected[] = {
    /* the reader: types and names */
    "joints[4].motion.velocity: expected an array of 2 numbers, got a string",
    "motors[1].type: unknown value \"power\"; expected one of \"torque\", \"speed\"",
    "motors[2].value: required",
    "springs[1].rest_angle: expected a number, got a string",
    /* the checker: ranges and references */
    "joints[1].motion: only a pin or clamp support can be driven; this joint's support is \"none\"",
    "joints[2].slider.direction: must not be [0, 0]: give the direction the block slides along",
    "joints[2].slider.mass: must be > 0, got 0",
    "joints[2].mass: a joint with a slider has no mass of its own: put the mass in the slider "
    "(\"slider\": { \"mass\": 1 })",
    "joints[3].slider: a slider needs support \"none\" (its guide holds the joint), not \"clamp\"",
    "joints[4].motion.profile.t2: must be > t1 (1), got 0.5",
    "links[0].damping.velocity: must be >= 0, got -1",
    "links[0].damping.rotation: must be >= 0, got -2",
    "motors[0].joint: a motor against the ground needs a pin support at joint \"A\" (its support "
    "is \"none\"); or give \"against\": the id of another link ending there",
    "motors[1].id: duplicate id \"m\", already used by motors[0]",
    "motors[1].against: no link with id \"X\"",
    "motors[1].link: link \"L2\" does not end at joint \"O\"",
    "motors[2].id: required",
    "motors[2].joint: joint \"W\" is a weld: a motor needs a pin joint, where the link ends turn "
    "on their own",
    "motors[3].against: same link as \"link\" (\"L1\"): a motor acts between two different links, "
    "or against the ground when \"against\" is left out",
    "motors[3].profile.frequency: must be > 0, got 0",
    "springs[0]: stiffness and damping are both 0: give at least one of them > 0",
    "springs[1].id: duplicate id \"k\", already used by springs[0]",
    "springs[1].stiffness: must be >= 0, got -1",
    "springs[2].joint: no joint with id \"Q\"",
  };
  g_auto (GStrv) lines = g_strsplit (message, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    g_test_message ("%s", lines[i]);
  for (guint i = 0; i < MIN (g_strv_length (lines), G_N_ELEMENTS (expected)); i++)
    g_assert_cmpstr (lines[i], ==, expected[i]);
  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (expected));
}

/* Models built in code: the same rules, and NaN and infinity anywhere. */
static void
test_validate_code_new_parts (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  g_autoptr (GError) error = NULL;
  FxJoint *j;
  FxLink *link;
  FxMotor *motor;
  FxSpring *spring;

  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "A", 1, 0);
  link = fx_model_add_link (m, "L", "O", "A", 2);
  fx_section_set_canonical (&link->section, 1, 1, 1, 1, 1);
  link = fx_model_add_link (m, "K", "A", "O", 2);
  fx_section_set_canonical (&link->section, 1, 1, 1, 1, 1);
  fx_model_add_motor (m, "m", "O", "L", NULL, FX_MOTOR_TORQUE, 1);
  fx_model_add_motor (m, "s", "A", "L", "K", FX_MOTOR_SPEED, 1);
  fx_model_add_spring (m, "k", "O", "K", "L", 1, 0);
  g_assert_true (fx_model_validate (m, &error));
  g_assert_no_error (error);

  j = fx_model_joint (m, 0);
  j->driven = TRUE;
  j->drive_velocity[1] = NAN;
  j->drive_profile.type = (FxProfileType) 12;
  j = fx_model_joint (m, 1);
  j->slider = TRUE;
  j->slider_mass = INFINITY;
  j->slider_direction[0] = NAN;
  link->damping = -INFINITY;
  link->rotational_damping = NAN;
  motor = fx_model_motor (m, 0);
  motor->type = (FxMotorType) 7;
  motor->value = NAN;
  fx_model_motor (m, 1)->value = -INFINITY;
  spring = fx_model_spring (m, 0);
  spring->stiffness = NAN;
  spring->damping = INFINITY;
  spring->rest_angle = NAN;
  fx_model_add_spring (m, NULL, "O", NULL, NULL, 1, 1);

  g_assert_false (fx_model_validate (m, &error));
  g_assert_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_INVALID);
  assert_contains (error->message, "joints[0].motion.velocity[1]: must be a finite number, got NaN");
  assert_contains (error->message, "joints[0].motion.profile.type: invalid value 12");
  assert_contains (error->message, "joints[1].slider.direction[0]: must be a finite number, got NaN");
  assert_contains (error->message, "joints[1].slider.mass: must be a finite number, got inf");
  assert_contains (error->message, "links[1].damping.velocity: must be a finite number, got -inf");
  assert_contains (error->message, "links[1].damping.rotation: must be a finite number, got NaN");
  assert_contains (error->message, "motors[0].type: invalid value 7");
  assert_contains (error->message, "motors[0].value: must be a finite number, got NaN");
  assert_contains (error->message, "motors[1].value: must be a finite number, got -inf");
  assert_contains (error->message, "springs[0].stiffness: must be a finite number, got NaN");
  assert_contains (error->message, "springs[0].damping: must be a finite number, got inf");
  assert_contains (error->message, "springs[0].rest_angle: must be a finite number, got NaN");
  assert_contains (error->message, "springs[1].id: required");
  assert_contains (error->message, "springs[1].link: required");
}

static void
test_valid_file_round_trip (void)
{
  g_autoptr (FxModel) m = load_ok (valid_model);
  const FxLoad *push = fx_model_load (m, 0);

  g_assert_cmpstr (m->name, ==, "valid");
  g_assert_cmpint (push->frame, ==, FX_FRAME_MATERIAL);
  g_assert_cmpstr (push->frame_link, ==, "L1");
  g_assert_cmpfloat (push->profile.t0, ==, 0.0);
  g_assert_cmpfloat (push->profile.t2, ==, 0.2);
  g_assert_true (fx_model_link (m, 1)->rigid);
  g_assert_cmpfloat (fx_model_link (m, 0)->initial_omega, ==, 2.0);
  g_assert_cmpuint (m->max_iterations, ==, 30);
  g_assert_true (fx_model_joint (m, 3)->driven);
  g_assert_cmpint (fx_model_joint (m, 3)->drive_profile.type, ==, FX_PROFILE_RAMP);
  g_assert_true (fx_model_joint (m, 4)->slider);
  g_assert_cmpfloat (fx_model_link (m, 2)->rotational_damping, ==, 0.01);
  g_assert_cmpstr (fx_model_motor (m, 1)->link_b, ==, "L3");
  g_assert_cmpfloat (fx_model_motor (m, 0)->profile.t2, ==, 0.2);
  g_assert_cmpfloat (fx_model_spring (m, 0)->rest_angle, ==, 0.25);
  g_assert_null (fx_model_spring (m, 1)->link_b);
  assert_round_trip (m);
}

/* All problems at once, each on its own line with its path. */
static void
test_all_errors (void)
{
  g_autofree char *message = load_error (
    "{" HEADER ",\n"
    " \"joints\": [{\"id\": \"A\", \"at\": [0, 0]}, {\"id\": \"A\", \"at\": [1, 0]},\n"
    "             {\"at\": \"here\"}, 5, {\"id\": \"D\", \"at\": [0, 0, 0], \"mass\": -1}],\n"
    " \"links\": [{\"id\": \"L\", \"from\": \"A\", \"to\": \"X\", \"elements\": 0,\n"
    "             \"section\": {\"rhoA\": 1, \"rhoI\": 1, \"EA\": -5, \"GA\": 1, \"EI\": 1}}],\n"
    " \"probes\": [{\"id\": \"p\", \"link\": \"L\", \"s\": 1.5}],\n"
    " \"time\": {\"dt\": 0}}", FX_MODEL_ERROR_INVALID);
  static const char *const expected[] = {
    "joints[2].at: expected an array of 2 numbers, got a string",
    "joints[3]: expected an object, got a number",
    "joints[4].at: expected an array of 2 numbers, got 3 elements",
    "links[0].elements: must be an integer from 1 to 1000000, got 0",
    "time.dt: must be > 0, got 0",
    "joints[1].id: duplicate id \"A\", already used by joints[0]",
    "joints[2].id: required",
    "joints[4].mass: must be >= 0, got -1",
    "links[0].to: no joint with id \"X\"",
    "links[0].section.EA: must be > 0, got -5",
    "probes[0].s: must be between 0 and 1, got 1.5",
  };
  g_auto (GStrv) lines = g_strsplit (message, "\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (lines[i], ==, expected[i]);
}

static void
test_too_many_errors (void)
{
  GString *text = g_string_new ("{" HEADER ", \"joints\": [");
  g_autofree char *message = NULL;
  g_auto (GStrv) lines = NULL;

  for (guint i = 0; i < 5000; i++)
    g_string_append (text, i ? ", {\"at\": 1}" : "{\"at\": 1}");
  g_string_append (text, "]}");
  message = load_error (text->str, FX_MODEL_ERROR_INVALID);
  lines = g_strsplit (message, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 101);
  g_assert_cmpstr (lines[100], ==, "(and 4900 more errors)");
  g_string_free (text, TRUE);
}

static void
test_validate_code (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  g_autoptr (GError) error = NULL;
  FxLink *link;
  FxLoad *load;

  fx_model_add_joint (m, "A", 0, 0);
  fx_model_add_joint (m, "B", 0, 1);
  link = fx_model_add_link (m, "L", "A", "B", 2);
  fx_section_set_canonical (&link->section, 1, 1, 1, 1, 1);
  g_assert_true (fx_model_validate (m, &error));
  g_assert_no_error (error);

  fx_model_add_joint (m, NULL, NAN, 0);
  link->section.GA = -1;
  link->formulation = (FxFormulation) 17;
  load = fx_model_add_joint_load (m, "B");
  load->frame = FX_FRAME_MATERIAL;
  load->profile.type = FX_PROFILE_HAT;
  load->profile.t1 = 2;
  load->profile.t2 = 1;
  fx_model_add_link_load (m, "L", 2)->link[0] = 'M';
  fx_model_add_probe (m, "p", "L", 0.5);
  fx_model_add_probe (m, "p", "L", 0.5);
  m->tolerance = 0.5;
  m->max_iterations = 0;

  g_assert_false (fx_model_validate (m, &error));
  g_assert_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_INVALID);
  assert_contains (error->message, "solver.tolerance: must be > 0 and < 0.1, got 0.5");
  assert_contains (error->message, "solver.max_iterations: must be an integer from 1 to 1000");
  assert_contains (error->message, "joints[2].id: required");
  assert_contains (error->message, "joints[2].at[0]: must be a finite number, got NaN");
  assert_contains (error->message, "links[0].section.GA: must be > 0, got -1");
  assert_contains (error->message, "links[0].formulation: invalid value 17");
  assert_contains (error->message, "loads[0].frame_link: required");
  assert_contains (error->message, "loads[0].profile.t2: must be > t1 (2), got 1");
  assert_contains (error->message, "loads[1].link: no link with id \"M\"");
  assert_contains (error->message, "loads[1].s: must be between 0 and 1, got 2");
  assert_contains (error->message, "probes[1].id: duplicate id \"p\"");
}

/* Saving does not validate, but what it writes is still JSON that loads to
 * the same errors rather than to something else. */
static void
test_save_invalid_model (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  g_autofree char *text = NULL, *message = NULL;

  fx_model_add_joint (m, NULL, INFINITY, NAN);
  fx_model_add_link (m, "L", NULL, NULL, 0)->section.form = FX_SECTION_CANONICAL;
  fx_model_add_joint_load (m, NULL)->frame = (FxFrame) 9;
  text = fx_model_to_data (m, NULL);
  message = load_error (text, FX_MODEL_ERROR_INVALID);
  assert_contains (message, "joints[0].at[0]: expected a number, got null");
  assert_contains (message, "loads[0].frame: expected a string, got null");
}

/* ---- robustness -------------------------------------------------------- */

/* Whatever happens, a failed load is one GError whose every line names a path. */
static void
load_anything (const char *data, gssize length)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (FxModel) m = fx_model_load_data (data, length, &warnings, &error);

  g_assert_nonnull (warnings);
  if (m == NULL)
    {
      g_auto (GStrv) lines = NULL;

      g_assert_nonnull (error);
      g_assert_true (error->domain == FX_MODEL_ERROR);
      g_assert_true (error->code == FX_MODEL_ERROR_PARSE || error->code == FX_MODEL_ERROR_INVALID);
      lines = g_strsplit (error->message, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        g_assert_nonnull (strstr (lines[i], ": ") ? lines[i] : NULL);
    }
  else
    {
      g_assert_no_error (error);
      g_assert_true (fx_model_validate (m, NULL));
      assert_round_trip (m);
    }
}

static void
test_odd_documents (void)
{
  static const char *const documents[] = {
    "", " \n\t ", "[]", "null", "0", "\"flexion-model\"", "{}", "{", "}", "[[[]]]",
    "{\"format\": null}", "{\"format\": \"flexion-model\"}", "{" HEADER ", \"joints\": null}",
    "{" HEADER ", \"joints\": [null, [], \"x\", true]}", "{\"version\": 1}",
    "{" HEADER "} trailing", "/* only a comment */", "{" HEADER ", \"version\": 1.5}",
    "{\"format\": \"flexion-model\", \"version\": 1e999}",
    "{\"format\": \"flexion-model\", \"version\": -99999999999999999999}",
    "{\"format\": \"flexion-model\", \"version\": 0x1}",
    "{" HEADER ", \"joints\": [{\"id\": \"\\u0000\", \"at\": [0, 0]}]}",
    "{" HEADER ", \"name\": \"\\ud800\"}", "\xef\xbb\xbf{" HEADER "}",
    "{" HEADER ", \"loads\": [{\"profile\": {\"type\": \"table\", \"points\": "
    "[[0, 0], [0, 1], \"x\", [2], [3, 1], [1, 1]]}}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (documents); i++)
    load_anything (documents[i], -1);
  load_anything (NULL, 0);
  load_anything ("{\"a\": 1}\0junk", 13);
  load_anything ("\xff\xfe\x00\x01garbage", 11);
}

static void
test_deep_nesting (void)
{
  gsize n = 200000;
  char *text = g_malloc (2 * n + 1);
  g_autofree char *message = NULL;

  memset (text, '[', n);
  memset (text + n, ']', n);
  text[2 * n] = '\0';
  message = load_error (text, FX_MODEL_ERROR_PARSE);
  assert_contains (message, "nested more than");
  /* Inside strings brackets do not count. */
  g_free (text);
  text = g_strdup_printf ("{" HEADER ", \"name\": \"%s%s\"}", "[[[[[[[[[[[[[[[[[[[[[[[["
                          "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
                          "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{");
  g_clear_pointer (&message, g_free);
  fx_model_free (load_ok (text));
  g_free (text);
}

/* json-glib reads these; the format is strict JSON and refuses them, each
 * with its reason. */
static void
test_lenient_json_refused (void)
{
  static const struct { const char *text, *reason; } cases[] = {
    { "{" HEADER ", \"version\": $1}", "hexadecimal" },
    { "{" HEADER ", \"version\": 0x1}", "hexadecimal" },
    { "{" HEADER ", \"version\": 010}", "leading zeros" },
    { "{" HEADER ", \"version\": 1.}", "digits around a decimal point" },
    { "{" HEADER ", \"version\": .5}", "unexpected `.'" },
    { "{" HEADER ", \"version\": +1}", "unexpected `+'" },
    { "{" HEADER " /* a comment */}", "JSON has no comments" },
    { "{" HEADER " // a comment\n}", "JSON has no comments" },
    { "{" HEADER ", 'name': \"x\"}", "need double quotes" },
    { "{" HEADER ", \"name\": 'x'}", "need double quotes" },
    { "{" HEADER ", \"name\": NaN}", "no NaN or Infinity" },
    { "{" HEADER ", \"name\": \"a\tb\"}", "control character" },
    { "{" HEADER ", \"name\": \"a\\qb\"}", "invalid escape" },
    { "{" HEADER ", \"name\": \"ab}", "closing quote" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *message = load_error (cases[i].text, FX_MODEL_ERROR_PARSE);
      assert_contains (message, cases[i].reason);
    }
  /* what JSON allows still loads: escapes, exponents, negative zero, true */
  fx_model_free (load_ok ("{" HEADER ", \"name\": \"a\\n\\u00e9\\\"\\/\", "
                          "\"gravity\": [-0.0, -9.81e+0], \"time\": {\"dt\": 1E-3}}"));
}

/* Every prefix of a valid file, and random byte damage. */
static void
test_damage (void)
{
  g_autoptr (FxModel) full = build_full_model ();
  g_autofree char *text = fx_model_to_data (full, NULL);
  gsize length = strlen (text);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autofree char *copy = g_malloc (length + 1);
  static const char bytes[] = "{}[]\",:0-.e \\\x80\xff";

  for (gsize n = 0; n < length; n += 1 + n / 400)
    load_anything (text, (gssize) n);
  for (guint round = 0; round < 2000; round++)
    {
      memcpy (copy, text, length + 1);
      for (guint k = 0; k < 1 + round % 4; k++)
        copy[g_rand_int_range (rand, 0, (gint32) length)]
          = bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)];
      load_anything (copy, (gssize) length);
    }
}

/* Replaces each value of a valid document in turn with values of every type. */
typedef struct {
  JsonNode *root;
  guint n_loads;
} Mutation;

static JsonNode *
alternative (guint k)
{
  static const char *const values[] = {
    "null", "true", "\"NaN\"", "1e308", "-1", "0", "2.5", "1e9", "[]", "{}", "[1, 2, 3]",
    "[\"A\", \"B\"]", "{\"type\": \"square\"}", "\"A\"", "\"material\"", "-1e-300",
  };
  g_autoptr (JsonParser) parser = json_parser_new ();

  if (k >= G_N_ELEMENTS (values))
    return NULL;
  g_assert_true (json_parser_load_from_data (parser, values[k], -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

static void
load_root (Mutation *mutation)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (generator, mutation->root);
  text = json_generator_to_data (generator, NULL);
  load_anything (text, -1);
  mutation->n_loads++;
}

static void mutate_node (Mutation *mutation, JsonNode *node);
static void mutate_array (Mutation *mutation, JsonNode *node);

static void
mutate_member (Mutation *mutation, JsonObject *object, const char *key)
{
  JsonNode *original = json_node_copy (json_object_get_member (object, key));
  JsonNode *value;

  for (guint k = 0; (value = alternative (k)) != NULL; k++)
    {
      json_object_set_member (object, key, value);
      load_root (mutation);
    }
  json_object_remove_member (object, key);
  load_root (mutation);
  json_object_set_member (object, key, original);
  mutate_node (mutation, original);
}

static void
mutate_node (Mutation *mutation, JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr (GList) keys = json_object_get_members (object);
      g_auto (GStrv) names = g_new0 (char *, g_list_length (keys) + 1);
      guint i = 0;

      /* Copies: setting members invalidates the list's strings. */
      for (GList *l = keys; l != NULL; l = l->next)
        names[i++] = g_strdup (l->data);
      for (i = 0; names[i] != NULL; i++)
        mutate_member (mutation, object, names[i]);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    mutate_array (mutation, node);
}

/* json-glib has no insertion, so each variant is a fresh array put in
 * place of the original, which comes back afterwards. */
static void
mutate_array (Mutation *mutation, JsonNode *node)
{
  JsonArray *original = json_array_ref (json_node_get_array (node));
  guint n = json_array_get_length (original);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *value;

      for (guint k = 0; (value = alternative (k)) != NULL; k++)
        {
          JsonArray *changed = json_array_sized_new (n);

          for (guint j = 0; j < n; j++)
            json_array_add_element (changed, j == i ? value
                                    : json_node_copy (json_array_get_element (original, j)));
          json_node_take_array (node, changed);
          load_root (mutation);
        }
    }
  json_node_set_array (node, original);
  for (guint i = 0; i < n; i++)
    mutate_node (mutation, json_array_get_element (original, i));
  json_array_unref (original);
}

static void
test_wrong_types_everywhere (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  Mutation mutation = { NULL, 0 };

  g_assert_true (json_parser_load_from_data (parser, valid_model, -1, NULL));
  mutation.root = json_node_copy (json_parser_get_root (parser));
  mutate_node (&mutation, mutation.root);
  g_assert_cmpuint (mutation.n_loads, >, 1000);
  json_node_unref (mutation.root);
}

/* fx_model_find_joint's table (issue 31, item 8) answers as the linear
 * search did while the joints are renamed, added and removed in place, as
 * the editor does, and from several threads at once. */
static gpointer
find_many (gpointer data)
{
  const FxModel *m = data;
  guint wrong = 0;
  for (guint round = 0; round < 20; round++)
    for (guint i = 0; i < m->joints->len; i++)
      wrong += fx_model_find_joint (m, fx_model_joint (m, i)->id) != (int) i;
  return GUINT_TO_POINTER (wrong);
}

static void
test_joint_lookup (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  char id[32];

  for (guint i = 0; i < 1000; i++)
    {
      g_snprintf (id, sizeof id, "J%u", i);
      fx_model_add_joint (m, id, i, 0);
    }
  g_assert_cmpint (fx_model_find_joint (m, "J0"), ==, 0);
  g_assert_cmpint (fx_model_find_joint (m, "J999"), ==, 999);
  g_assert_cmpint (fx_model_find_joint (m, "J1000"), ==, -1);
  g_assert_cmpint (fx_model_find_joint (m, NULL), ==, -1);
  /* renamed in place: the old id is gone, the new one found */
  FxJoint *j = fx_model_joint (m, 500);
  g_free (j->id);
  j->id = g_strdup ("renamed");
  g_assert_cmpint (fx_model_find_joint (m, "J500"), ==, -1);
  g_assert_cmpint (fx_model_find_joint (m, "renamed"), ==, 500);
  /* removed: the indices after it move down */
  g_array_remove_index (m->joints, 10);
  g_assert_cmpint (fx_model_find_joint (m, "J10"), ==, -1);
  g_assert_cmpint (fx_model_find_joint (m, "J11"), ==, 10);
  g_assert_cmpint (fx_model_find_joint (m, "J999"), ==, 998);
  /* added after the table was made */
  fx_model_add_joint (m, "late", 0, 1);
  g_assert_cmpint (fx_model_find_joint (m, "late"), ==, (int) m->joints->len - 1);
  /* a copy has a table of its own */
  g_autoptr (FxModel) c = fx_model_copy (m);
  g_assert_cmpint (fx_model_find_joint (c, "late"), ==, (int) c->joints->len - 1);
  /* threads sharing the model (an ensemble's workers) */
  GThread *t[4];
  for (guint k = 0; k < G_N_ELEMENTS (t); k++)
    t[k] = g_thread_new ("find", find_many, m);
  for (guint k = 0; k < G_N_ELEMENTS (t); k++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (t[k])), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/defaults", test_defaults);
  g_test_add_func ("/model/floating-frame", test_floating_frame);
  g_test_add_func ("/model/joint-lookup", test_joint_lookup);
  g_test_add_func ("/model/floating-frame-ends", test_floating_ends);
  g_test_add_func ("/model/defaults-from-file", test_defaults_from_file);
  g_test_add_func ("/model/strings", test_strings);
  g_test_add_func ("/model/copy", test_copy);
  g_test_add_func ("/model/slider-direction", test_slider_direction);
  g_test_add_func ("/model/derive", test_derive);
  g_test_add_func ("/model/derive-from-file", test_derive_from_file);
  g_test_add_func ("/model/profiles", test_profiles);
  g_test_add_func ("/model-io/round-trip/data", test_round_trip_data);
  g_test_add_func ("/model-io/round-trip/default-model", test_round_trip_default_model);
  g_test_add_func ("/model-io/round-trip/numbers", test_round_trip_numbers);
  g_test_add_func ("/model-io/round-trip/file", test_round_trip_file);
  g_test_add_func ("/model-io/round-trip/valid-file", test_valid_file_round_trip);
  g_test_add_func ("/model-io/save-failure", test_save_failure);
  g_test_add_func ("/model-io/load-missing-file", test_load_missing_file);
  g_test_add_func ("/model-io/warnings", test_warnings);
  g_test_add_func ("/model-io/warnings-new-parts", test_warnings_new_parts);
  g_test_add_func ("/model-io/all-errors-new-parts", test_all_errors_new_parts);
  g_test_add_func ("/model-io/validate-code-new-parts", test_validate_code_new_parts);
  g_test_add_func ("/model-io/all-errors", test_all_errors);
  g_test_add_func ("/model-io/too-many-errors", test_too_many_errors);
  g_test_add_func ("/model-io/validate-code", test_validate_code);
  g_test_add_func ("/model-io/save-invalid-model", test_save_invalid_model);
  g_test_add_func ("/model-io/robust/odd-documents", test_odd_documents);
  g_test_add_func ("/model-io/robust/lenient-json-refused", test_lenient_json_refused);
  g_test_add_func ("/model-io/robust/deep-nesting", test_deep_nesting);
  g_test_add_func ("/model-io/robust/damage", test_damage);
  g_test_add_func ("/model-io/robust/wrong-types", test_wrong_types_everywhere);
  return g_test_run ();
}
