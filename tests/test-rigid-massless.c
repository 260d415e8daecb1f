/* test-rigid-massless.c: zero compliance and zero mass (docs/theory.md Notation).
 *
 * A rigid link thrown spinning under gravity stays straight, keeps its
 * uniform spacing and angular velocity, and its centre follows the parabola;
 * a massless clamped-clamped link under a slowly ramped mid-span load stores
 * exactly the work done on it, with the static Timoshenko compliance. */
#include "test-models.h"
#include "fx-system-private.h"

static void
test_rigid_link (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  const guint N = 8;
  const double w0 = 3.0, V[2] = { 1.0, 4.0 }, g = -9.81, dt = 0.01;
  fx_model_add_joint (m, "A", 0, 0);
  fx_model_add_joint (m, "B", 2, 0);
  FxLink *l = test_add_link (m, "bar", "A", "B", N, 1.5, 0.2, 1, 1, 1);
  l->rigid = TRUE;
  l->initial_omega = w0;
  l->initial_velocity[0] = V[0];
  l->initial_velocity[1] = V[1];
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxLinkSys *ls = &sys->links[0];
  double *x = fx_system_state (sys);
  double H0 = fx_system_hamiltonian (sys), worst_w = 0, worst_shape = 0, worst_H = 0;
  FxStepReport rep;

  while (fx_system_time (sys) < 1.0 - 1e-9)
    {
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      double p[9][2];
      for (guint i = 0; i <= N; i++)
        {
          fx_system_node (sys, 0, i, &p[i][0], &p[i][1], NULL, NULL);
          worst_w = MAX (worst_w, fabs (x[ls->offset + FX_SLOT * 2 * i + 2] - w0) / w0);
        }
      /* straight and evenly spaced: every node on the chord at its own fraction */
      for (guint i = 1; i < N; i++)
        {
          double f = (double) i / N;
          double ex = p[0][0] + f * (p[N][0] - p[0][0]) - p[i][0];
          double ey = p[0][1] + f * (p[N][1] - p[0][1]) - p[i][1];
          worst_shape = MAX (worst_shape, hypot (ex, ey) / 2.0);
        }
      worst_H = MAX (worst_H, fabs (rep.H - H0) / fabs (H0));
    }
  double cx, cy;
  fx_system_point (sys, 0, 0.5, &cx, &cy);
  double len = 0;
  {
    double ax, ay, bx, by;
    fx_system_node (sys, 0, 0, &ax, &ay, NULL, NULL);
    fx_system_node (sys, 0, N, &bx, &by, NULL, NULL);
    len = hypot (bx - ax, by - ay);
  }
  double t = fx_system_time (sys);
  g_test_message ("rigid: max |dw|/w %.3g, max shape error %.3g, length %.9f, "
                  "centre (%.6f, %.6f) vs (%.6f, %.6f), max energy drift %.3g",
                  worst_w, worst_shape, len, cx, cy, 1 + V[0] * t, V[1] * t + 0.5 * g * t * t, worst_H);
  g_assert_cmpfloat (worst_w, <, 1e-10);
  g_assert_cmpfloat (worst_shape, <, 1e-10);
  /* the midpoint rule's chord for a turn of w dt: the length grows ~ (w dt)^2 / 24 */
  g_assert_cmpfloat (fabs (len - 2.0) / 2.0, <, 1e-4);
  /* momentum is not an exact invariant (docs/theory.md §5): the material
   * velocity turns by 2 atan(w dt / 2) per step while the frame turns by w dt,
   * so the centre strays by O((w dt)^2 |V| t) (measured 9e-4 m here) */
  double stray = hypot (cx - (1 + V[0] * t), cy - (V[1] * t + 0.5 * g * t * t));
  g_assert_cmpfloat (stray, <, 0.5 * (w0 * dt) * (w0 * dt) * hypot (V[0], V[1]) * t);
  g_assert_cmpfloat (worst_H, <, 1e-10);
}

static void
test_massless_link (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  const guint N = 40;
  const double L = 1.0, EI = 1.0, GA = 1e3, F = 1e-3;
  m->gravity[0] = m->gravity[1] = 0;
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", L, 0)->support = FX_SUPPORT_CLAMP;
  test_add_link (m, "beam", "A", "B", N, 0.0, 0.0, 1e5, GA, EI);
  FxLoad *ld = fx_model_add_link_load (m, "beam", 0.5);
  ld->force[1] = -F;
  ld->profile.type = FX_PROFILE_RAMP;
  ld->profile.t0 = 0;
  ld->profile.t1 = 1;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  double supplied = 0, worst_balance = 0;
  FxStepReport rep;

  g_assert_cmpint (fx_system_assignment (sys)->links[0].formulation, ==,
                   FX_FORMULATION_CLAMPED_CLAMPED);
  while (fx_system_time (sys) < 1.0 - 1e-9)
    {
      g_assert_true (fx_integrator_step (it, 0.05, &rep, NULL));
      supplied += rep.supplied;
      worst_balance = MAX (worst_balance, fabs (rep.balance));
    }
  /* static mid-span deflection of a clamped-clamped Timoshenko beam */
  double compliance = L * L * L / (192 * EI) + L / (4 * GA);
  double elastic_exact = 0.5 * F * F * compliance;
  g_test_message ("massless: elastic %.6g J (Timoshenko %.6g J), supplied %.6g J, "
                  "kinetic %.3g J, max |balance| %.3g J",
                  rep.elastic, elastic_exact, supplied, rep.kinetic, worst_balance);
  g_assert_cmpfloat (rep.kinetic, ==, 0.0);
  g_assert_cmpfloat (fabs (rep.elastic - supplied), <, 1e-10 * rep.elastic);
  g_assert_cmpfloat (worst_balance, <, 1e-10 * rep.elastic);
  g_assert_cmpfloat (fabs (rep.elastic / elastic_exact - 1), <, 0.01);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rigid/thrown", test_rigid_link);
  g_test_add_func ("/massless/ramp", test_massless_link);
  return g_test_run ();
}
