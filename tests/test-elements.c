/* test-elements.c: the lumped elements of docs/theory.md §3 in the energy
 * books: torsional springs and dampers, torque and speed motors, slider
 * blocks, driven supports and link damping; and their Jacobians. */
#include "test-models.h"
#include "test-jacobian-check.h"

typedef struct {
  double E_scale, worst_balance, supplied, dissipated, H0, H;
  gboolean dissipation_nonnegative;
} Books;

/* Run and keep the books: the per-step balance against E_scale (section 5). */
static Books
run (FxSystem *sys, double dt, double t_end)
{
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  Books b = { 0, 0, 0, 0, 0, 0, TRUE };
  FxStepReport rep;

  fx_integrator_report (it, &rep);
  b.H0 = rep.H;
  b.E_scale = MAX (fabs (rep.H), MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))));
  while (fx_system_time (sys) < t_end - 1e-9)
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (fx_integrator_step (it, dt, &rep, &error));
      b.supplied += rep.supplied;
      b.dissipated += rep.dissipated;
      if (rep.dissipated < 0)
        b.dissipation_nonnegative = FALSE;
      b.worst_balance = MAX (b.worst_balance, fabs (rep.balance));
      b.E_scale = MAX (b.E_scale, MAX (fabs (rep.H), MAX (fabs (b.supplied),
                       MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))))));
    }
  b.H = rep.H;
  return b;
}

/* A stiff massless bar on a ground pin with a tip mass: a torsional spring
 * at the pivot makes it a rotary oscillator of period 2 pi sqrt(m L^2 / k). */
static FxModel *
spring_pendulum (double k, double c)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0;
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "M", 1, 0)->mass = 2.0;
  test_add_link (m, "bar", "O", "M", 2, 0.0, 0.0, 1e9, 1e9, 1e8);
  fx_model_add_spring (m, "spring", "O", "bar", NULL, k, c);
  FxLoad *kick = fx_model_add_joint_load (m, "M");
  kick->force[1] = 10.0;
  kick->profile.type = FX_PROFILE_HAT;
  kick->profile.t1 = 0.01;
  kick->profile.t2 = 0.02;
  return m;
}

static void
test_spring (void)
{
  g_autoptr (FxModel) m = spring_pendulum (50.0, 0.0);
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  const double T_exact = 2 * G_PI * sqrt (2.0 * 1.0 / 50.0), dt = T_exact / 400;
  double prev_y = 0, t_first = -1, t_last = -1, H_after = NAN, drift = 0;
  guint crossings = 0;
  FxStepReport rep;

  while (fx_system_time (sys) < 6 * T_exact)
    {
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      double x, y;
      fx_system_point (sys, 0, 1.0, &x, &y);
      if (rep.t > 0.02 && prev_y < 0 && y >= 0)
        {
          double tc = rep.t - dt * y / (y - prev_y);
          t_first = t_first < 0 ? tc : t_first;
          t_last = tc;
          crossings++;
        }
      prev_y = y;
      if (rep.t > 0.021)
        {
          if (isnan (H_after))
            H_after = rep.H;
          drift = MAX (drift, fabs (rep.H - H_after) / H_after);
        }
    }
  double T = (t_last - t_first) / (crossings - 1);
  g_test_message ("torsional oscillator: period %.6f s (exact %.6f s), energy drift %.3g, "
                  "elastic share at the end %.3g", T, T_exact, drift, rep.elastic / rep.H);
  g_assert_cmpuint (crossings, >=, 4);
  g_assert_cmpfloat (fabs (T / T_exact - 1), <, 0.005);
  g_assert_cmpfloat (drift, <, 1e-10);
}

static void
test_damper (void)
{
  g_autoptr (FxModel) m = spring_pendulum (50.0, 0.5);
  g_autoptr (FxSystem) sys = test_system (m);
  Books b = run (sys, 0.005, 3.0);
  g_test_message ("damped oscillator: supplied %.6g J, dissipated %.6g J, H %.6g J, "
                  "max |balance| %.3g of %.3g", b.supplied, b.dissipated, b.H, b.worst_balance, b.E_scale);
  g_assert_true (b.dissipation_nonnegative);
  g_assert_cmpfloat (b.dissipated, >, 0.5 * b.supplied);  /* most of the kick is gone by t = 3 */
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
  g_assert_cmpfloat (fabs (b.H - b.H0 - b.supplied + b.dissipated), <, 1e-9 * b.E_scale);
}

/* A flexible crank on a ground pin, turned by a motor at the pivot. */
static FxModel *
motor_crank (FxMotorType type, double value)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  FxJoint *a = fx_model_add_joint (m, "A", 0.5, 0);
  test_add_link (m, "crank", "O", "A", 6, 2.0, 0.01, 1e6, 5e5, 200);
  if (type == FX_MOTOR_TORQUE)
    {
      m->gravity[1] = 0.0;  /* the motor alone does work: it must be positive */
      fx_model_add_joint (m, "B", 1.0, 0);
      test_add_link (m, "arm", "A", "B", 6, 2.0, 0.01, 1e6, 5e5, 200);
    }
  else
    {
      /* a driven end is velocity-causal in rotation: the crank's other end
       * then needs an inertia to take its force and moment (docs/theory.md §3) */
      a->mass = 0.5;
      a->inertia = 0.01;
    }
  FxMotor *mo = fx_model_add_motor (m, "drive", "O", "crank", NULL, type, value);
  mo->profile.type = FX_PROFILE_RAMP;
  mo->profile.t1 = 0.2;
  return m;
}

static void
test_torque_motor (void)
{
  g_autoptr (FxModel) m = motor_crank (FX_MOTOR_TORQUE, 5.0);
  g_autoptr (FxSystem) sys = test_system (m);
  Books b = run (sys, 0.002, 1.0);
  g_test_message ("torque motor: supplied %.6g J, H - H0 %.6g J, max |balance| %.3g of %.3g",
                  b.supplied, b.H - b.H0, b.worst_balance, b.E_scale);
  g_assert_cmpfloat (b.supplied, >, 0.0);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
}

static void
test_speed_motor (void)
{
  const double w = 3.0;
  g_autoptr (FxModel) m = motor_crank (FX_MOTOR_SPEED, w);
  g_autoptr (FxSystem) sys = test_system (m);
  FxLinkSys *crank = &sys->links[0];
  g_assert_cmpint (crank->R, ==, FX_CAUSAL_V);  /* its pivot end is given an angular velocity */
  Books b = run (sys, 0.002, 1.0);
  /* ramp to w over 0.2 s, then w: the pivot end has turned w (1 - 0.1) */
  double turned = crank->theta_end[0] - 0.0;
  g_test_message ("speed motor: pivot end turned %.9f rad (prescribed %.9f), supplied %.6g J, "
                  "max |balance| %.3g of %.3g", turned, w * 0.9, b.supplied, b.worst_balance, b.E_scale);
  g_assert_cmpfloat (fabs (turned - w * 0.9), <, 1e-9);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
}

/* An arm hanging from a ground pin with a forearm at a free pin A, a speed
 * motor at A turning the forearm against the arm (the two links, not the
 * ground): both swing under gravity while their relative angle at A follows
 * the drive exactly, and the motor's work is in the books. */
static FxModel *
elbow_motor (double w)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "A", 1, 0);
  fx_model_add_joint (m, "B", 1.8, 0)->mass = 0.3;
  test_add_link (m, "arm", "O", "A", 6, 2.0, 0.01, 1e6, 5e5, 200);
  test_add_link (m, "forearm", "A", "B", 6, 1.5, 0.01, 1e6, 5e5, 150);
  FxMotor *mo = fx_model_add_motor (m, "elbow", "A", "forearm", "arm", FX_MOTOR_SPEED, w);
  mo->profile.type = FX_PROFILE_RAMP;
  mo->profile.t1 = 0.2;
  return m;
}

static double
end_angle (FxSystem *sys, guint link, guint node)
{
  double x, y, theta, moment;
  fx_system_node (sys, link, node, &x, &y, &theta, &moment);
  return theta;
}

static void
test_speed_motor_between_links (void)
{
  const double w = 2.0;
  g_autoptr (FxModel) m = elbow_motor (w);
  g_autoptr (FxSystem) sys = test_system (m);
  const FxAssignment *as = fx_system_assignment (sys);
  double rel0 = end_angle (sys, 1, 0) - end_angle (sys, 0, 6);
  Books b = run (sys, 0.002, 1.0);
  double turned = end_angle (sys, 1, 0) - end_angle (sys, 0, 6) - rel0;
  double arm_turned = end_angle (sys, 0, 0);
  g_test_message ("speed motor between links (%s, %s): forearm turned %.12f rad against the "
                  "arm (prescribed %.12f), the arm itself %.4f rad; supplied %.6g J, "
                  "max |balance| %.3g of %.3g",
                  fx_formulation_to_string (as->links[0].formulation),
                  fx_formulation_to_string (as->links[1].formulation),
                  turned, w * 0.9, arm_turned, b.supplied, b.worst_balance, b.E_scale);
  g_assert_cmpfloat (fabs (turned - w * 0.9), <, 1e-9);
  g_assert_cmpfloat (fabs (arm_turned), >, 0.05);  /* the arm swings: the drive is relative */
  g_assert_cmpfloat (fabs (b.supplied), >, 1e-3);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
}

/* A pendulum hanging from a slider block on a horizontal guide. */
static void
test_slider (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  FxJoint *s = fx_model_add_joint (m, "S", 0, 0);
  s->slider = TRUE;
  s->slider_mass = 1.0;
  s->slider_direction[0] = 1;
  s->slider_direction[1] = 0;
  fx_model_add_joint (m, "T", 0.8, -0.6)->mass = 0.5;
  test_add_link (m, "rod", "S", "T", 4, 0.3, 1e-4, 1e6, 5e5, 500);
  g_autoptr (FxSystem) sys = test_system (m);
  Books b = run (sys, 0.002, 2.0);
  double p[2];
  fx_system_momentum (sys, p, NULL);
  const FxJunction *js = &g_array_index (sys->tjunctions, FxJunction, 0);
  g_test_message ("slider pendulum: block at (%.6f, %.6f), horizontal momentum %.3g, "
                  "max |balance| %.3g of %.3g", js->pos[0], js->pos[1], p[0], b.worst_balance, b.E_scale);
  g_assert_true (js->slider);
  g_assert_cmpfloat (js->pos[1], ==, 0.0);         /* stays on its guide */
  g_assert_cmpfloat (fabs (js->pos[0]), >, 1e-3);  /* and moves along it */
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
  /* no horizontal force on the system: its momentum stays small (not exact) */
  g_assert_cmpfloat (fabs (p[0]), <, 1e-2 * sqrt (2 * b.E_scale * 1.8));
}

/* A pendulum whose pivot is shaken sideways: the drive does work. */
static void
test_driven_support (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  FxJoint *o = fx_model_add_joint (m, "O", 0, 0);
  o->support = FX_SUPPORT_PIN;
  o->driven = TRUE;
  o->drive_velocity[0] = 0.5;
  o->drive_profile.type = FX_PROFILE_SINE;
  o->drive_profile.frequency = 1.5;
  fx_model_add_joint (m, "M", 0, -1)->mass = 1.0;
  test_add_link (m, "bar", "O", "M", 3, 0.2, 1e-4, 1e6, 5e5, 300);
  g_autoptr (FxSystem) sys = test_system (m);
  Books b = run (sys, 0.002, 2.0);
  g_test_message ("driven pivot: supplied %.6g J, H - H0 %.6g J, max |balance| %.3g of %.3g",
                  b.supplied, b.H - b.H0, b.worst_balance, b.E_scale);
  /* net work of a sine drive over whole periods is small (measured 4e-5 J) but not 0 */
  g_assert_cmpfloat (fabs (b.supplied), >, 1e-6);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
}

static void
test_link_damping (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 1, 0)->support = FX_SUPPORT_PIN;
  FxLink *l = test_add_link (m, "beam", "A", "B", 10, 1.0, 1e-4, 1e5, 5e4, 10);
  l->damping = 0.5;
  l->rotational_damping = 1e-3;
  g_autoptr (FxSystem) sys = test_system (m);
  Books b = run (sys, 0.001, 1.0);
  g_test_message ("damped sagging beam: dissipated %.6g J, H - H0 %.6g J, max |balance| %.3g of %.3g",
                  b.dissipated, b.H - b.H0, b.worst_balance, b.E_scale);
  g_assert_true (b.dissipation_nonnegative);
  g_assert_cmpfloat (b.dissipated, >, 0.0);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
}

static void
check_jacobian (FxModel *m)
{
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GRand) rng = g_rand_new_with_seed (7);
  g_autofree double *x = g_new (double, sys->n);
  double *xn = fx_system_state (sys);

  for (guint i = 0; i < sys->n; i++)
    {
      xn[i] = g_rand_double_range (rng, -1, 1);
      x[i] = xn[i] + g_rand_double_range (rng, -0.3, 0.3);
    }
  for (guint i = 0; i < sys->springs->len; i++)
    g_array_index (sys->springs, FxSpringSys, i).phi = 0.3;
  sys->t = 0.05;
  JacobianCheck c = test_jacobian_check (sys, x, 0.1);
  g_test_message ("max |J - J_fd| = %.3g (max |J| = %.3g)", c.worst, c.jmax);
  g_assert_cmpfloat (c.worst, <, 1e-7 * MAX (1.0, c.jmax));
  fx_model_free (m);
}

static void
test_jacobians (void)
{
  FxModel *m = spring_pendulum (5.0, 0.3);
  fx_model_joint (m, 1)->mass = 0.7;
  check_jacobian (m);
  check_jacobian (motor_crank (FX_MOTOR_TORQUE, 2.0));
  check_jacobian (motor_crank (FX_MOTOR_SPEED, 2.0));
  check_jacobian (elbow_motor (1.5));

  FxModel *s = fx_model_new ();
  FxJoint *js = fx_model_add_joint (s, "S", 0, 0);
  js->slider = TRUE;
  js->slider_mass = 1.3;
  js->slider_direction[0] = 0.6;
  js->slider_direction[1] = 0.8;
  fx_model_add_joint (s, "T", 0.8, -0.6)->mass = 0.5;
  FxLink *l = test_add_link (s, "rod", "S", "T", 3, 0.7, 0.2, 9, 6, 4);
  l->damping = 0.3;
  l->rotational_damping = 0.2;
  FxLoad *ld = fx_model_add_joint_load (s, "S");
  ld->force[0] = 0.4;
  ld->force[1] = 1.1;
  ld->frame = FX_FRAME_MATERIAL;
  ld->frame_link = g_strdup ("rod");
  check_jacobian (s);

  FxModel *d = fx_model_new ();
  FxJoint *o = fx_model_add_joint (d, "O", 0, 0);
  o->support = FX_SUPPORT_PIN;
  o->driven = TRUE;
  o->drive_velocity[0] = 0.5;
  o->drive_velocity[1] = -0.2;
  fx_model_add_joint (d, "M", 0.3, -1)->mass = 1.0;
  test_add_link (d, "bar", "O", "M", 3, 0.7, 0.2, 9, 6, 4);
  check_jacobian (d);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/elements/jacobians", test_jacobians);
  g_test_add_func ("/elements/torsional-spring", test_spring);
  g_test_add_func ("/elements/damper", test_damper);
  g_test_add_func ("/elements/torque-motor", test_torque_motor);
  g_test_add_func ("/elements/speed-motor", test_speed_motor);
  g_test_add_func ("/elements/speed-motor/between-links", test_speed_motor_between_links);
  g_test_add_func ("/elements/slider", test_slider);
  g_test_add_func ("/elements/driven-support", test_driven_support);
  g_test_add_func ("/elements/link-damping", test_link_damping);
  return g_test_run ();
}
