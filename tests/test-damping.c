/* test-damping.c: Kelvin-Voigt material damping of geometrically exact
 * links (physics.md §13): the logarithmic decrement of a cantilever at
 * zeta_1 = 0.5 % and 5 %, its static deflection after the ring-down, the
 * books in free decay, and the formulations damping alike. */
#include "test-models.h"
#include "test-modes-common.h"
#include "fx-measure.h"

/* A steel strip 30 x 10 mm, L = 1, clamped at x = 0, N = 20, with a tip
 * load of the given profile. */
static FxModel *
steel_cantilever (guint degree)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  m->dt = 1e-3;
  fx_model_add_joint (m, "wall", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "tip", 1, 0);
  FxLink *l = fx_model_add_link (m, "strip", "wall", "tip", 20);
  l->degree = degree;
  l->section.shape = FX_SHAPE_RECTANGLE;
  l->section.E = 210e9;
  l->section.nu = 0.3;
  l->section.rho = 7850;
  l->section.width = 0.03;
  l->section.height = 0.01;
  fx_section_derive (&l->section);
  return m;
}

static double
first_omega (const FxModel *m)
{
  g_autoptr (FxModes) modes = modes_of (m, 1);
  return 2.0 * G_PI * nth_vibration (modes, 1)->frequency;
}

typedef struct {
  double worst_balance, E_scale, min_dissipated;
  double dissipated_after, supplied_after, H_at, H_end;  /* from t_free on */
} Books;

/* Runs to t_end sampling `signal` (tip y, or a free beam's sag) per step. */
static GArray *
run_signal (const FxModel *m, double t_end, double t_free, gboolean sag, Books *b)
{
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  GArray *y = g_array_new (FALSE, FALSE, sizeof (double));
  FxStepReport rep;
  double supplied = 0.0;

  *b = (Books) { 0, 0, INFINITY, 0, 0, NAN, 0 };
  fx_integrator_report (it, &rep);
  while (fx_system_time (sys) < t_end - 1e-9)
    {
      g_autoptr (GError) error = NULL;
      double v0[FX_PROBE_N_VALUES], v1[FX_PROBE_N_VALUES], vm[FX_PROBE_N_VALUES];
      double H_before = rep.H;
      g_assert_true (fx_integrator_step (it, m->dt, &rep, &error));
      supplied += rep.supplied;
      b->worst_balance = MAX (b->worst_balance, fabs (rep.balance));
      b->E_scale = MAX (b->E_scale, MAX (fabs (rep.H), MAX (fabs (supplied), MAX (rep.kinetic, rep.elastic))));
      b->min_dissipated = MIN (b->min_dissipated, rep.dissipated);
      if (fx_system_time (sys) > t_free + 1e-9)
        {
          if (isnan (b->H_at))
            b->H_at = H_before;
          b->dissipated_after += rep.dissipated;
          b->supplied_after += rep.supplied;
          b->H_end = rep.H;
        }
      fx_system_probe_values (sys, 0, 1.0, v1);
      double s = v1[FX_PROBE_Y];
      if (sag)
        {
          fx_system_probe_values (sys, 0, 0.0, v0);
          fx_system_probe_values (sys, 0, 0.5, vm);
          s = vm[FX_PROBE_Y] - 0.5 * (v0[FX_PROBE_Y] + v1[FX_PROBE_Y]);
        }
      g_array_append_val (y, s);
    }
  return y;
}

/* zeta from the logarithmic decrement of the positive peaks after step
 * `from`: delta = ln(A_1 / A_n) / (n - 1), zeta = delta / sqrt(4 pi^2 + delta^2). */
static double
zeta_from_peaks (GArray *y, guint from)
{
  double first = 0, last = 0;
  guint n = 0;
  for (guint i = MAX (from, 1); i + 1 < y->len; i++)
    {
      double a = g_array_index (y, double, i - 1), b = g_array_index (y, double, i),
             c = g_array_index (y, double, i + 1);
      if (b > a && b >= c && b > 0)
        {
          /* the parabola's vertex through the three samples */
          double peak = b + 0.125 * (a - c) * (a - c) / (2 * b - a - c);
          if (n == 0)
            first = peak;
          last = peak;
          n++;
        }
    }
  g_assert_cmpuint (n, >=, 4);
  double delta = log (first / last) / (n - 1);
  return delta / sqrt (4 * G_PI * G_PI + delta * delta);
}

static void
check_decrement (double zeta1)
{
  g_autoptr (FxModel) m = steel_cantilever (1);
  const double w1 = first_omega (m), T1 = 2 * G_PI / w1;
  fx_model_link (m, 0)->kelvin_voigt = 2.0 * zeta1 / w1;
  /* a half-period hat at the tip: mostly the first mode */
  FxLoad *ld = fx_model_add_joint_load (m, "tip");
  ld->force[1] = 5.0;
  ld->profile.type = FX_PROFILE_HAT;
  ld->profile.t0 = 0.0;
  ld->profile.t1 = 0.25 * T1;
  ld->profile.t2 = 0.5 * T1;
  Books b;
  double t_end = (zeta1 < 0.01 ? 12 : 6) * T1;
  g_autoptr (GArray) y = run_signal (m, t_end, 0.6 * T1, FALSE, &b);
  double zeta = zeta_from_peaks (y, (guint) (2 * T1 / m->dt));
  g_test_message ("zeta_1 = %.4f: measured %.5f (%+.2f %%); max |balance| %.3g of %.3g; free decay: "
                  "dissipated %.6g J, H dropped %.6g J", zeta1, zeta, 100 * (zeta / zeta1 - 1),
                  b.worst_balance, b.E_scale, b.dissipated_after, b.H_at - b.H_end);
  g_assert_cmpfloat (fabs (zeta / zeta1 - 1), <, 0.03);
  g_assert_cmpfloat (b.worst_balance, <, 1e-12 * b.E_scale);
  g_assert_cmpfloat (b.min_dissipated, >=, 0.0);
  /* after the load: what was dissipated is what H lost (the load's last
   * step may still supply a little) */
  g_assert_cmpfloat (b.supplied_after, <, 1e-3 * b.dissipated_after);
  g_assert_cmpfloat (fabs (b.dissipated_after - b.supplied_after - (b.H_at - b.H_end)), <, 1e-10 * b.E_scale);
}

/* The same with elements of degree 2 and the two-stage Gauss step: the
 * damping reads each stage's stress rate, and the books stay exact. */
static void
test_degree_gauss4 (void)
{
  g_autoptr (FxModel) m = steel_cantilever (2);
  fx_model_link (m, 0)->elements = 8;
  const double w1 = first_omega (m), T1 = 2 * G_PI / w1, zeta1 = 0.05;
  m->integrator = FX_INTEGRATOR_GAUSS4;
  m->dt = T1 / 40;
  fx_model_link (m, 0)->kelvin_voigt = 2.0 * zeta1 / w1;
  FxLoad *ld = fx_model_add_joint_load (m, "tip");
  ld->force[1] = 5.0;
  ld->profile.type = FX_PROFILE_HAT;
  ld->profile.t0 = 0.0;
  ld->profile.t1 = 0.25 * T1;
  ld->profile.t2 = 0.5 * T1;
  Books b;
  g_autoptr (GArray) y = run_signal (m, 6 * T1, 0.6 * T1, FALSE, &b);
  double zeta = zeta_from_peaks (y, (guint) (2 * T1 / m->dt));
  g_test_message ("degree 2, gauss4, dt = T1/40: zeta_1 %.5f (%+.2f %%); max |balance| %.3g of %.3g",
                  zeta, 100 * (zeta / zeta1 - 1), b.worst_balance, b.E_scale);
  g_assert_cmpfloat (fabs (zeta / zeta1 - 1), <, 0.03);
  g_assert_cmpfloat (b.worst_balance, <, 1e-12 * b.E_scale);
  g_assert_cmpfloat (b.min_dissipated, >=, 0.0);
  g_assert_cmpfloat (fabs (b.dissipated_after - b.supplied_after - (b.H_at - b.H_end)), <, 1e-10 * b.E_scale);
}

static void
test_decrement_half_percent (void)
{
  check_decrement (0.005);
}

static void
test_decrement_five_percent (void)
{
  check_decrement (0.05);
}

/* Under a tip load ramped over 0.05 s, zeta_1 = 5 %: after 3 s the tip rests
 * at F L^3 / (3 EI) + F L / (k G A). */
static void
test_settles_to_static (void)
{
  g_autoptr (FxModel) m = steel_cantilever (1);
  const double w1 = first_omega (m), F = 1.5;
  const FxSection *sec = &fx_model_link (m, 0)->section;
  const double expected = F / (3 * sec->EI) + F / sec->GA;
  fx_model_link (m, 0)->kelvin_voigt = 2.0 * 0.05 / w1;
  FxLoad *ld = fx_model_add_joint_load (m, "tip");
  ld->force[1] = -F;
  ld->profile.type = FX_PROFILE_RAMP;
  ld->profile.t1 = 0.05;
  Books b;
  g_autoptr (GArray) y = run_signal (m, 3.0, 0.05, FALSE, &b);
  double tip = -g_array_index (y, double, y->len - 1);
  g_test_message ("tip after 3 s: %.6e m, static %.6e m (%+.3f %%)", tip, expected,
                  100 * (tip / expected - 1));
  g_assert_cmpfloat (fabs (tip / expected - 1), <, 0.005);
  g_assert_cmpfloat (b.worst_balance, <, 1e-12 * b.E_scale);
}

/* A free beam with small end inertias in each formulation (and split),
 * struck at mid-span: its sag (mode 1) decays alike. */
static double
free_beam_zeta (FxFormulation form, gboolean split)
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  fx_model_add_joint (m, "A", 0, 0);
  fx_model_add_joint (m, "B", 2, 0);
  FxLink *l = test_add_link (m, "beam", "A", "B", 12, 1.0, 1e-5, 1e6, 4e5, 10.0);
  l->formulation = split ? FX_FORMULATION_AUTO : form;
  l->degree = 2;
  /* a velocity-causal end needs an inertia to take its force */
  gboolean tv = form == FX_FORMULATION_CLAMPED_CLAMPED || form == FX_FORMULATION_PINNED;
  gboolean rv = form == FX_FORMULATION_CLAMPED_CLAMPED || form == FX_FORMULATION_GUIDED;
  for (guint i = 0; i < 2 && !split; i++)
    {
      fx_model_joint (m, i)->mass = tv ? 1e-4 : 0.0;
      fx_model_joint (m, i)->inertia = rv ? 1e-7 : 0.0;
    }
  if (split)
    fx_model_joint (m, 0)->support = FX_SUPPORT_CLAMP;  /* a cantilever: CC + FF halves */
  double w1 = first_omega (m), T1 = 2 * G_PI / w1;
  m->dt = T1 / 200;
  l = fx_model_link (m, 0);
  l->kelvin_voigt = 2.0 * 0.02 / w1;
  FxLoad *ld = fx_model_add_link_load (m, "beam", split ? 1.0 : 0.5);
  ld->force[1] = 0.1;
  ld->profile.type = FX_PROFILE_HAT;
  ld->profile.t0 = 0.0;
  ld->profile.t1 = 0.25 * T1;
  ld->profile.t2 = 0.5 * T1;
  Books b;
  g_autoptr (GArray) y = run_signal (m, 8 * T1, 0.5 * T1, !split, &b);
  g_assert_cmpfloat (b.worst_balance, <, 1e-12 * b.E_scale);
  g_assert_cmpfloat (b.min_dissipated, >=, 0.0);
  return zeta_from_peaks (y, (guint) (2 * T1 / m->dt));
}

static void
test_formulations_alike (void)
{
  static const FxFormulation forms[] = { FX_FORMULATION_FREE_FREE, FX_FORMULATION_CLAMPED_CLAMPED,
                                         FX_FORMULATION_PINNED, FX_FORMULATION_GUIDED };
  double z0 = free_beam_zeta (forms[0], FALSE);
  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      double z = free_beam_zeta (forms[f], FALSE);
      g_test_message ("formulation %u: zeta_1 %.5f (free-free %.5f)", f, z, z0);
      g_assert_cmpfloat (fabs (z / z0 - 1), <, 0.01);
    }
  double zs = free_beam_zeta (FX_FORMULATION_AUTO, TRUE);
  g_test_message ("split cantilever: zeta_1 %.5f (target 0.02)", zs);
  g_assert_cmpfloat (fabs (zs / 0.02 - 1), <, 0.03);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/damping/decrement-0.5%", test_decrement_half_percent);
  g_test_add_func ("/damping/decrement-5%", test_decrement_five_percent);
  g_test_add_func ("/damping/settles-to-static", test_settles_to_static);
  g_test_add_func ("/damping/formulations-alike", test_formulations_alike);
  g_test_add_func ("/damping/degree-2-gauss4", test_degree_gauss4);
  return g_test_run ();
}
