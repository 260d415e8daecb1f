/* test-vibration.c: small-amplitude vibration at N = 40 against the beam's
 * first eigenfrequency (slender, so Euler-Bernoulli and Timoshenko agree to
 * 0.01%): pinned-pinned (pinned formulation) and free-free. */
#include "test-models.h"
#include "fx-system-private.h"

#define N_EL 40

/* Period from the upward zero crossings of a signal sampled at spacing dt. */
static double
measure_period (FxSystem *sys, FxIntegrator *it, double dt, double t_end,
                double (*probe) (FxSystem *))
{
  double prev = probe (sys), t_first = -1, t_last = -1;
  guint crossings = 0;
  FxStepReport rep;

  while (fx_system_time (sys) < t_end)
    {
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      double cur = probe (sys);
      if (prev < 0 && cur >= 0)
        {
          double tc = fx_system_time (sys) - dt * cur / (cur - prev);
          if (t_first < 0)
            t_first = tc;
          t_last = tc;
          crossings++;
        }
      prev = cur;
    }
  g_assert_cmpuint (crossings, >=, 3);
  return (t_last - t_first) / (crossings - 1);
}

static FxModel *
slender_link (FxSupport support)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0;
  fx_model_add_joint (m, "A", 0, 0)->support = support;
  fx_model_add_joint (m, "B", 1, 0)->support = support;
  /* L = 1, rhoA = 1, EI = 1; stiff in shear and axially, tiny rotary inertia */
  test_add_link (m, "beam", "A", "B", N_EL, 1.0, 1e-7, 1e6, 1e6, 1.0);
  return m;
}

/* the material transverse velocity at mid-span */
static double
mid_velocity (FxSystem *sys)
{
  double v[2];
  /* DG0 velocity (pinned): the element just left of mid-span */
  fx_system_fields_at (sys, 0, 0.5 - 0.25 / N_EL, v, NULL, NULL, NULL);
  return v[1];
}

static void
test_pinned_pinned (void)
{
  g_autoptr (FxModel) m = slender_link (FX_SUPPORT_PIN);
  g_autoptr (FxSystem) sys = test_system (m);
  FxLinkSys *l = &sys->links[0];
  double *x = fx_system_state (sys);
  const double omega_exact = G_PI * G_PI;  /* (pi / L)^2 sqrt(EI / rhoA) */

  g_assert_cmpint (fx_system_assignment (sys)->links[0].formulation, ==, FX_FORMULATION_PINNED);
  for (guint e = 0; e < N_EL; e++)  /* v is DG0: element means of the mode */
    {
      double s0 = (double) e / N_EL, s1 = (e + 1.0) / N_EL;
      x[l->offset + FX_SLOT * (2 * e + 1) + 1] = 1e-6 * (cos (G_PI * s0) - cos (G_PI * s1)) / (G_PI * (s1 - s0));
    }
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  double T_exact = 2 * G_PI / omega_exact, dt = T_exact / 400;
  double T = measure_period (sys, it, dt, 5.2 * T_exact, mid_velocity);
  g_test_message ("pinned-pinned: period %.6f s, Euler-Bernoulli %.6f s, error %.3f%%",
                  T, T_exact, 100 * (T / T_exact - 1));
  g_assert_cmpfloat (fabs (T / T_exact - 1), <, 0.01);
}

static double
mid_velocity_node (FxSystem *sys)
{
  double v[2];
  fx_system_fields_at (sys, 0, 0.5, v, NULL, NULL, NULL);
  return v[1];
}

static void
test_free_free (void)
{
  g_autoptr (FxModel) m = slender_link (FX_SUPPORT_NONE);
  g_autoptr (FxSystem) sys = test_system (m);
  FxLinkSys *l = &sys->links[0];
  double *x = fx_system_state (sys);
  const double beta = 4.730040744862704;  /* cos(bL) cosh(bL) = 1 */
  const double sigma = (cosh (beta) - cos (beta)) / (sinh (beta) - sin (beta));
  const double omega_exact = beta * beta;

  g_assert_cmpint (fx_system_assignment (sys)->links[0].formulation, ==, FX_FORMULATION_FREE_FREE);
  for (guint i = 0; i <= N_EL; i++)  /* v is CG1: the mode at the nodes */
    {
      double b = beta * i / N_EL;
      x[l->offset + FX_SLOT * 2 * i + 1] = 1e-6 * (cosh (b) + cos (b) - sigma * (sinh (b) + sin (b)));
    }
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  double T_exact = 2 * G_PI / omega_exact, dt = T_exact / 400;
  double T = measure_period (sys, it, dt, 5.2 * T_exact, mid_velocity_node);
  g_test_message ("free-free: period %.6f s, Euler-Bernoulli %.6f s, error %.3f%%",
                  T, T_exact, 100 * (T / T_exact - 1));
  g_assert_cmpfloat (fabs (T / T_exact - 1), <, 0.01);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vibration/pinned-pinned", test_pinned_pinned);
  g_test_add_func ("/vibration/free-free", test_free_free);
  return g_test_run ();
}
