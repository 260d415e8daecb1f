/* test-measure.c: what probes and supports measure (fx-measure.h) against
 * statics, and the reactions' books against the work the drives supply.
 */
#include "test-models.h"
#include "fx-measure.h"

#define G 9.81

/* Steel, a 20 mm square bar: EI = 2800 N m^2, first bending mode of a 1 m
 * span on two pins about 47 Hz. */
#define RHOA 3.14
#define RHOI 1.05e-4
#define EA 8.4e7
#define GA 2.7e7
#define EI 2800.0

static const double *
reaction_of (const double *r, const FxModel *m, const char *joint)
{
  int j = fx_model_find_joint (m, joint);
  g_assert_cmpint (j, >=, 0);
  return &r[FX_REACTION_N_VALUES * j];
}

/* Run to t_end; returns the integrator's summed supplied work. */
static double
run (FxSystem *sys, double dt, double t_end)
{
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  double supplied = 0.0;

  while (fx_system_time (sys) < t_end - 1e-9)
    {
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      supplied += rep.supplied;
    }
  return supplied;
}

/* A beam on two pin supports (span L, N elements) under a central load F
 * ramped over 1 s, with damping so that it settles: statics says each
 * support carries F/2 and the moment at midspan is F L / 4. The load is
 * small, so that the tension the fixed pins add as the beam sags (second
 * order in the deflection) stays negligible. */
static void
test_beam_two_pins (void)
{
  const double L = 1.0, F = 10.0;
  const guint N = 51;
  g_autoptr (FxModel) m = fx_model_new ();

  m->gravity[0] = m->gravity[1] = 0.0;
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", L, 0)->support = FX_SUPPORT_PIN;
  FxLink *beam = test_add_link (m, "beam", "A", "B", N, RHOA, RHOI, EA, GA, EI);
  beam->damping = 200.0;  /* about 10 % of critical in the first mode */
  FxLoad *ld = fx_model_add_link_load (m, "beam", 0.5);
  ld->force[1] = -F;
  ld->profile.type = FX_PROFILE_RAMP;
  ld->profile.t0 = 0.0;
  ld->profile.t1 = 1.0;
  fx_model_add_probe (m, "mid", "beam", 0.5);

  g_autoptr (FxSystem) sys = test_system (m);
  g_assert_cmpint (fx_system_joint_holds (sys, 0), ==, FX_HOLDS_FORCE);
  run (sys, 1e-3, 1.5);

  g_autofree double *r = g_new (double, FX_REACTION_N_VALUES * m->joints->len);
  double probe[FX_PROBE_N_VALUES];
  fx_system_reactions (sys, r);
  fx_system_probe_values (sys, 0, 0.5, probe);
  const double *ra = reaction_of (r, m, "A"), *rb = reaction_of (r, m, "B");
  g_test_message ("A: (%.6g, %.6g) N, B: (%.6g, %.6g) N, midspan M = %.6g N m (F L/4 = %.6g), "
                  "N = %.3g N, V = %.3g N",
                  ra[0], ra[1], rb[0], rb[1], probe[FX_PROBE_M], F * L / 4, probe[FX_PROBE_N],
                  probe[FX_PROBE_V]);
  g_assert_cmpfloat (fabs (ra[FX_REACTION_FY] - F / 2) / (F / 2), <, 0.01);
  g_assert_cmpfloat (fabs (rb[FX_REACTION_FY] - F / 2) / (F / 2), <, 0.01);
  /* the pins pull the sagging beam's ends together only a little */
  g_assert_cmpfloat (fabs (ra[FX_REACTION_FX] + rb[FX_REACTION_FX]), <, 1e-3 * F);
  g_assert_cmpfloat (fabs (ra[FX_REACTION_M]), ==, 0.0);
  /* drawn left to right, a sagging beam has a positive moment; the DG0
   * moment at midspan is its element's mean, (1 - h/(2L)) of the peak */
  g_assert_cmpfloat (fabs (probe[FX_PROBE_M] - F * L / 4) / (F * L / 4), <, 0.02);
  /* the midspan is at rest and level */
  g_assert_cmpfloat (hypot (probe[FX_PROBE_VX], probe[FX_PROBE_VY]), <, 1e-4);
  g_assert_cmpfloat (fabs (probe[FX_PROBE_ANGLE]), <, 1e-6);
}

/* A steel cantilever of length L clamped at A, without gravity, with a
 * downward load F at its tip B (returned). */
static FxLoad *
cantilever (FxModel *m, double L, double F, guint elements)
{
  m->gravity[0] = m->gravity[1] = 0.0;
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", L, 0);
  test_add_link (m, "beam", "A", "B", elements, RHOA, RHOI, EA, GA, EI);
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->force[1] = -F;
  return ld;
}

/* A clamped cantilever under a tip load: the clamp carries the load and
 * its moment F L. */
static void
test_cantilever_clamp (void)
{
  const double L = 1.0, F = 10.0;
  g_autoptr (FxModel) m = fx_model_new ();
  FxLoad *ld = cantilever (m, L, F, 20);

  fx_model_link (m, 0)->damping = 100.0;
  ld->profile.type = FX_PROFILE_RAMP;
  ld->profile.t1 = 0.5;
  fx_model_add_probe (m, "root", "beam", 0.0);

  g_autoptr (FxSystem) sys = test_system (m);
  g_assert_cmpint (fx_system_joint_holds (sys, 0), ==, FX_HOLDS_FORCE | FX_HOLDS_MOMENT);
  g_assert_cmpint (fx_system_joint_holds (sys, 1), ==, FX_HOLDS_NONE);
  run (sys, 1e-3, 1.5);

  double r[2 * FX_REACTION_N_VALUES], probe[FX_PROBE_N_VALUES];
  fx_system_reactions (sys, r);
  fx_system_probe_values (sys, 0, 0.0, probe);
  g_test_message ("clamp: (%.6g, %.6g) N, %.6g N m; root M = %.6g, V = %.6g",
                  r[0], r[1], r[2], probe[FX_PROBE_M], probe[FX_PROBE_V]);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FY] - F) / F, <, 0.01);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FX]), <, 1e-3 * F);
  g_assert_cmpfloat (fabs (r[FX_REACTION_M] - F * L) / (F * L), <, 0.01);
  /* hogging: negative moment at the root, shear along -b2 ... */
  g_assert_cmpfloat (fabs (probe[FX_PROBE_M] + F * L) / (F * L), <, 0.01);
  /* the part beyond the root pulls it down: V = n . b2 = -F */
  g_assert_cmpfloat (fabs (probe[FX_PROBE_V] + F) / F, <, 0.01);
  /* nothing is reported for the free end */
  g_assert_cmpfloat (r[FX_REACTION_N_VALUES + FX_REACTION_FY], ==, 0.0);
}

/* A rigid pendulum hanging at rest from a pin: the pin carries the weight
 * at every step. The stress of a rigid link is a multiplier: its state
 * values alternate about the static value (0, then twice it, ...) while
 * the midpoint values, which balance the momentum, are the static value
 * itself; so reactions are read at the midpoint. */
static void
test_pendulum_at_rest (void)
{
  const double L = 1.0, rhoA = 2.0, tip = 0.5;
  g_autoptr (FxModel) m = fx_model_new ();

  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "T", 0, -L)->mass = tip;
  FxLink *rod = test_add_link (m, "rod", "O", "T", 8, rhoA, 0.01, 1e9, 1e9, 1e6);
  rod->rigid = TRUE;

  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  const double weight = (rhoA * L + tip) * G, below = (rhoA * L / 2 + tip) * G;
  double r[2 * FX_REACTION_N_VALUES], worst = 0.0, worst_n = 0.0, probe[FX_PROBE_N_VALUES];
  FxStepReport rep;

  /* before any step: the state's stresses, none yet */
  fx_system_reactions (sys, r);
  g_assert_cmpfloat (r[FX_REACTION_FY], ==, 0.0);
  for (guint step = 0; step < 20; step++)
    {
      g_assert_true (fx_integrator_step (it, 0.01, &rep, NULL));
      fx_system_reactions (sys, r);
      worst = MAX (worst, fabs (r[FX_REACTION_FY] - weight) / weight);
      worst = MAX (worst, fabs (r[FX_REACTION_FX]) / weight);
      /* the rod's middle holds the weight below it, and so does a probe there */
      fx_system_probe_values (sys, 0, 0.5, probe);
      worst_n = MAX (worst_n, fabs (probe[FX_PROBE_N] - below) / below);
    }
  g_test_message ("pin reaction against the weight %.6g N: worst relative error %.3g; "
                  "tension at the middle: %.3g", weight, worst, worst_n);
  g_assert_cmpfloat (worst, <, 1e-9);
  g_assert_cmpfloat (worst_n, <, 1e-9);
}

/* A rigid cantilever under a constant tip load stays put: its root moment,
 * a multiplier, is -F L at every step's midpoint, and that is what the
 * node's moment (the trace, the colours) and the clamp report. */
static void
test_rigid_cantilever (void)
{
  const double L = 1.0, F = 10.0;
  g_autoptr (FxModel) m = fx_model_new ();

  cantilever (m, L, F, 8);
  fx_model_link (m, 0)->rigid = TRUE;
  /* the tip's mass and inertia take the force and the moment there (a
   * rigid free-free half with a bare tip does not step: see notes) */
  FxJoint *b = fx_model_joint (m, 1);
  b->mass = 0.5;
  b->inertia = 1e-3;
  b->kind = FX_JOINT_WELD;

  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  double worst = 0.0, r[2 * FX_REACTION_N_VALUES];
  FxStepReport rep;
  for (guint step = 0; step < 10; step++)
    {
      double moment;
      g_assert_true (fx_integrator_step (it, 0.01, &rep, NULL));
      fx_system_node (sys, 0, 0, NULL, NULL, NULL, &moment);
      fx_system_reactions (sys, r);
      worst = MAX (worst, fabs (moment + F * L) / (F * L));
      worst = MAX (worst, fabs (r[FX_REACTION_M] - F * L) / (F * L));
    }
  g_test_message ("rigid cantilever: root moment and clamp moment against F L, worst %.3g", worst);
  g_assert_cmpfloat (worst, <, 1e-9);
}

/* A slider block on a horizontal guide with a rigid pendulum hanging from
 * it, at rest: the guide holds up everything, and pushes only across. */
static void
test_slider_guide (void)
{
  const double L = 1.0, rhoA = 2.0, tip = 0.5, block = 0.3;
  g_autoptr (FxModel) m = fx_model_new ();

  FxJoint *s = fx_model_add_joint (m, "S", 0, 0);
  s->slider = TRUE;
  s->slider_mass = block;
  s->slider_direction[0] = 1.0;
  fx_model_add_joint (m, "T", 0, -L)->mass = tip;
  test_add_link (m, "rod", "S", "T", 8, rhoA, 0.01, 1e9, 1e9, 1e6)->rigid = TRUE;

  g_autoptr (FxSystem) sys = test_system (m);
  g_assert_cmpint (fx_system_joint_holds (sys, 0), ==, FX_HOLDS_FORCE);
  run (sys, 0.01, 0.2);
  double r[2 * FX_REACTION_N_VALUES], weight = (rhoA * L + tip + block) * G;
  fx_system_reactions (sys, r);
  g_test_message ("guide: (%.6g, %.6g) N against the weight %.6g N", r[0], r[1], weight);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FY] - weight) / weight, <, 1e-9);
  g_assert_cmpfloat (r[FX_REACTION_FX], ==, 0.0);
}

/* The books: where a speed motor to the ground is the only source, its
 * moment (the support's m) times the speed, summed over steps, is the work
 * the integrator reports as supplied, to round-off. The same for a driven
 * support's force times its velocity. This holds only for midpoint values. */
static void
test_drive_books (void)
{
  const double w = 2.0, v = 0.3;
  g_autoptr (FxModel) m = fx_model_new ();

  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  FxJoint *t = fx_model_add_joint (m, "T", 0.5, 0);
  t->mass = 0.2;
  t->inertia = 1e-3;  /* the crank's far end turns with an inertia */
  test_add_link (m, "crank", "O", "T", 6, RHOA, RHOI, EA, GA, EI);
  fx_model_add_motor (m, "drive", "O", "crank", NULL, FX_MOTOR_SPEED, w);
  FxJoint *p = fx_model_add_joint (m, "P", 2, 0);
  p->support = FX_SUPPORT_PIN;
  p->driven = TRUE;
  p->drive_velocity[0] = v;
  fx_model_add_joint (m, "Q", 2, -0.5)->mass = 0.2;
  test_add_link (m, "hanger", "P", "Q", 6, RHOA, RHOI, EA, GA, EI);

  g_autoptr (FxSystem) sys = test_system (m);
  g_assert_cmpint (fx_system_joint_holds (sys, 0), ==, FX_HOLDS_FORCE | FX_HOLDS_MOMENT);
  g_assert_cmpint (fx_system_joint_holds (sys, 2), ==, FX_HOLDS_FORCE);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  double r[4 * FX_REACTION_N_VALUES], supplied = 0.0, work = 0.0, scale = 0.0;
  const double dt = 0.002;
  FxStepReport rep;

  for (guint step = 0; step < 500; step++)
    {
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      fx_system_reactions (sys, r);
      supplied += rep.supplied;
      work += dt * (r[FX_REACTION_M] * w + r[2 * FX_REACTION_N_VALUES + FX_REACTION_FX] * v);
      scale = MAX (scale, fabs (rep.H));
    }
  g_test_message ("supplied %.12g J, reactions' work %.12g J (H up to %.3g J)", supplied, work, scale);
  g_assert_cmpfloat (fabs (supplied), >, 1e-3 * scale);
  g_assert_cmpfloat (fabs (work - supplied), <, 1e-10 * MAX (scale, fabs (supplied)));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/measure/beam-two-pins", test_beam_two_pins);
  g_test_add_func ("/measure/cantilever-clamp", test_cantilever_clamp);
  g_test_add_func ("/measure/pendulum-at-rest", test_pendulum_at_rest);
  g_test_add_func ("/measure/slider-guide", test_slider_guide);
  g_test_add_func ("/measure/rigid-cantilever", test_rigid_cantilever);
  g_test_add_func ("/measure/drive-books", test_drive_books);
  return g_test_run ();
}
