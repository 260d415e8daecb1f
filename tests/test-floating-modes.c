/* test-floating-modes.c: modes of mechanisms that mix floating-frame links
 * with geometrically exact links, junctions and end inertias (physics.md
 * 12.5 and §10): in the linear limit both models describe the same beam,
 * so their frequencies agree up to each one's discretisation and shear;
 * a floating-frame link welded to another is the same finite-element space
 * as one link; Maxwell's counts hold; a mode is a free vibration. */
#include "test-modes-common.h"

#include <string.h>

/* slender: shear and rotary inertia change the first modes by < 1e-5 */
#define RHOA 1.0
#define RHOI 1e-6
#define EA 1e6
#define EI 10.0

static FxLink *
add_link (FxModel *m, const char *id, const char *from, const char *to, guint n, gboolean floating)
{
  FxLink *l = test_add_link (m, id, from, to, n, RHOA, RHOI, EA, EA, EI);
  if (floating)
    l->kind = FX_LINK_FLOATING_FRAME;
  return l;
}

static double
omega_of (const FxModes *modes, guint k)
{
  return 2.0 * G_PI * nth_vibration (modes, k)->frequency;
}

static void
check_close (const char *what, double got, double want, double rtol)
{
  g_test_message ("%s: %.7g rad/s against %.7g (%.2g relative)", what, got, want,
                  (got - want) / want);
  g_assert_cmpfloat (fabs (got - want), <=, rtol * fabs (want));
}

/* ------------------------------------------------------- cantilevers */

/* A cantilever of length 2 along x, clamped at A: one link of 2n elements,
 * or two of n welded at the middle B, each geometrically exact or
 * floating-frame as asked. */
static FxModel *
cantilever (guint n, int halves, gboolean first_ff, gboolean second_ff)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_CLAMP;
  if (halves == 1)
    {
      fx_model_add_joint (m, "C", 2.0, 0.0);
      add_link (m, "beam", "A", "C", 2 * n, first_ff);
      return m;
    }
  fx_model_add_joint (m, "B", 1.0, 0.0)->kind = FX_JOINT_WELD;
  fx_model_add_joint (m, "C", 2.0, 0.0);
  add_link (m, "first", "A", "B", n, first_ff);
  add_link (m, "second", "B", "C", n, second_ff);
  return m;
}

/* (a) A floating-frame half welded to a geometrically exact half, either
 * one clamped, against the all-GE cantilever of the same element size:
 * the first three bending frequencies to 1e-3 (what is left is the GE
 * link's own O(h^2) error, 6.3e-4 on mode 3 at n = 32). */
static void
test_cantilever_welded (void)
{
  const guint n = 32;
  g_autoptr (FxModel) ge = cantilever (n, 1, FALSE, FALSE);
  g_autoptr (FxModes) mg = modes_of (ge, 3);
  for (int clamped_ff = 0; clamped_ff < 2; clamped_ff++)
    {
      g_autoptr (FxModel) mix = cantilever (n, 2, clamped_ff, !clamped_ff);
      g_autoptr (FxModes) mm = modes_of (mix, 3);
      g_assert_cmpuint (mm->mobility, ==, 0);
      g_assert_cmpuint (mm->indeterminacy, ==, 0);
      for (guint k = 1; k <= 3; k++)
        {
          g_autofree char *what = g_strdup_printf ("%s clamped, mode %u",
                                                   clamped_ff ? "FF" : "GE", k);
          check_close (what, omega_of (mm, k), omega_of (mg, k), 1e-3);
        }
    }
}

/* Two floating-frame links welded span the same Hermite space as one link
 * of both their elements (the weld ties displacement and slope): the
 * frequencies are the same up to round-off, which for the lowest one is
 * eps times omega_max^2 / omega_1^2 (axial against first bending here:
 * 1e7), measured 1.3e-9. */
static void
test_cantilever_ff_ff (void)
{
  g_autoptr (FxModel) one = cantilever (8, 1, TRUE, TRUE);
  g_autoptr (FxModel) two = cantilever (8, 2, TRUE, TRUE);
  g_autoptr (FxModes) m1 = modes_of (one, 5);
  g_autoptr (FxModes) m2 = modes_of (two, 5);
  g_assert_cmpuint (m2->mobility, ==, 0);
  g_assert_cmpuint (m2->indeterminacy, ==, 0);
  for (guint k = 1; k <= 5; k++)
    {
      g_autofree char *what = g_strdup_printf ("FF + FF welded, mode %u", k);
      check_close (what, omega_of (m2, k), omega_of (m1, k), 1e-8);
    }
  /* Euler-Bernoulli, beta L = 1.8751: the Hermite link is within 1e-5 */
  double eb = 1.8751 * 1.8751 * sqrt (EI / (RHOA * 16.0));
  check_close ("FF + FF welded against Euler-Bernoulli", omega_of (m2, 1), eb, 1e-4);
}

/* The same two halves, free at both ends: 3 rigid motions, no more. */
static void
test_free_free_welded (void)
{
  g_autoptr (FxModel) m = cantilever (32, 2, TRUE, FALSE);
  fx_model_joint (m, 0)->support = FX_SUPPORT_NONE;
  g_autoptr (FxModes) modes = modes_of (m, 2);
  g_assert_cmpuint (modes->mobility, ==, 3);
  g_assert_cmpuint (modes->indeterminacy, ==, 0);
  /* free-free, beta L = 4.7300 (the GE half's h^2 error: 2e-4) */
  double eb = 4.7300 * 4.7300 * sqrt (EI / (RHOA * 16.0));
  check_close ("free-free FF + GE, mode 1", omega_of (modes, 1), eb, 1e-3);
}

/* A mode of the welded cantilever is a free vibration: started in mode 1's
 * velocities (small), the integrator rings at its period. */
static void
test_time_domain (void)
{
  g_autoptr (FxModel) m = cantilever (8, 2, TRUE, FALSE);
  g_autoptr (FxModes) modes = modes_of (m, 1);
  const FxMode *m1 = nth_vibration (modes, 1);
  double T = 1.0 / m1->frequency, period = test_mode_period (m, modes, m1, 1);  /* the GE tip */
  g_test_message ("time domain: period %.6f s, mode 1: %.6f s", period, T);
  g_assert_cmpfloat (fabs (period - T) / T, <, 1e-3);
}

/* -------------------------------------------------------- pendulums */

/* 12.7 (b)'s pendulum: L = 1, pinned at A, a 0.25 kg tip mass at B (and a
 * rotary inertia there when asked); stiff axially. */
static FxModel *
pendulum (guint n, gboolean floating, double tip_inertia)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  FxJoint *b = fx_model_add_joint (m, "B", 1.0, 0.0);
  b->mass = 0.25;
  b->inertia = tip_inertia;
  FxLink *l = test_add_link (m, "p", "A", "B", n, 1.0, 1e-6, 1e8, 1e8, 100.0);
  if (floating)
    l->kind = FX_LINK_FLOATING_FRAME;
  return m;
}

/* (b) The floating-frame pendulum with its tip mass against the same GE
 * model, Richardson-extrapolated from 16 and 32 elements (its velocity
 * field converges like h^2): three frequencies to 1e-3 (measured: 7e-6,
 * 4e-5, 1.5e-4), one motion (the swing: gravity is left out). */
static void
test_pendulum_tip_mass (void)
{
  for (int with_inertia = 0; with_inertia < 2; with_inertia++)
    {
      double J = with_inertia ? 2e-3 : 0.0;
      g_autoptr (FxModel) ff = pendulum (16, TRUE, J);
      g_autoptr (FxModel) g16 = pendulum (16, FALSE, J);
      g_autoptr (FxModel) g32 = pendulum (32, FALSE, J);
      g_autoptr (FxModes) mf = modes_of (ff, 3);
      g_autoptr (FxModes) m16 = modes_of (g16, 3);
      g_autoptr (FxModes) m32 = modes_of (g32, 3);
      g_assert_cmpuint (mf->mobility, ==, 1);
      g_assert_cmpuint (mf->indeterminacy, ==, 0);
      for (guint k = 1; k <= 3; k++)
        {
          double rich = (4.0 * omega_of (m32, k) - omega_of (m16, k)) / 3.0;
          g_autofree char *what = g_strdup_printf ("pendulum, tip mass%s, mode %u",
                                                   with_inertia ? " and inertia" : "", k);
          check_close (what, omega_of (mf, k), rich, 1e-3);
        }
    }
}

/* ------------------------------------------------------------ examples */

/* Largest displacement of a mode over one model link's nodes. */
static double
link_motion (const FxModes *modes, const FxMode *mode, guint l)
{
  double big = 0.0;
  for (guint i = 0; i < modes->link_nodes[l]; i++)
    {
      const double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * (modes->link_first[l] + i)];
      big = MAX (big, hypot (sh[FX_MODE_DX], sh[FX_MODE_DY]));
    }
  return big;
}

/* (c) The spin-up at rest: both blades are cantilevers held by their
 * motors (mobility 0, determinate); each has its first bending at 3.80 rad/s
 * (0.605 Hz: GE 3.7976, FF 3.7977, 12.7 b), one mode per blade. */
static void
test_spin_up (void)
{
  g_autoptr (FxModel) m = test_load_example ("spin-up.flexion");
  g_autoptr (FxModes) modes = modes_of (m, 4);
  int exact = fx_model_find_link (m, "exact"), floating = fx_model_find_link (m, "floating");
  g_assert_cmpint (exact, >=, 0);
  g_assert_cmpint (floating, >=, 0);
  g_assert_cmpuint (modes->mobility, ==, 0);
  g_assert_cmpuint (modes->indeterminacy, ==, 0);
  gboolean seen[2] = { FALSE, FALSE };
  for (guint k = 1; k <= 2; k++)
    {
      const FxMode *mode = nth_vibration (modes, k);
      check_close ("spin-up, first bending", omega_of (modes, k), 3.7977, 1e-4);
      double de = link_motion (modes, mode, exact), df = link_motion (modes, mode, floating);
      g_test_message ("mode %u: largest displacement %.3g on the GE blade, %.3g on the FF one", k,
                      de, df);
      g_assert_cmpfloat (MIN (de, df), <, 1e-3 * MAX (de, df));
      seen[df > de] = TRUE;
    }
  g_assert_true (seen[0] && seen[1]);
  /* the second bending, 23.79 rad/s, next (12.7 b) */
  check_close ("spin-up, second bending", omega_of (modes, 3), 23.79, 1e-3);
}

/* The four-bar example with every link floating-frame: mobility 1, and its
 * lowest vibration close to the GE model's (44.85 Hz at the example's 3-5
 * elements of degree 2, 45.30 Hz at 6-10 of degree 1, 44.835 Hz converged;
 * floating frame 44.86 at any count). A floating-frame link keeps its own
 * Hermite elements, so the example's degree goes. */
static void
test_four_bar (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  for (guint i = 0; i < m->links->len; i++)
    {
      fx_model_link (m, i)->kind = FX_LINK_FLOATING_FRAME;
      fx_model_link (m, i)->degree = 1;
    }
  g_autoptr (FxModes) modes = modes_of (m, 2);
  g_assert_cmpuint (modes->mobility, ==, 1);
  g_assert_cmpuint (modes->indeterminacy, ==, 0);
  g_test_message ("four-bar, all floating frame: %.5g Hz", nth_vibration (modes, 1)->frequency);
  g_assert_cmpfloat (fabs (nth_vibration (modes, 1)->frequency - 44.86), <, 0.01);
}

/* Maxwell's counts do not depend on the beam model: every example with its
 * flexible links made floating-frame has the motions and self-stress states
 * of the GE model (the latter now carried by the links' configuration
 * stresses: the welded truss's 4, the frame's 6). */
static void
test_examples_counts (void)
{
  static const char *const examples[] = { "triangle-truss.flexion", "frame-earthquake.flexion",
                                          "hand-pull.flexion", "l-frame-soft.flexion",
                                          "double-pendulum.flexion", "slider-crank.flexion",
                                          "plate-linkage.flexion", "simply-supported.flexion" };
  for (guint e = 0; e < G_N_ELEMENTS (examples); e++)
    {
      g_autoptr (FxModel) m = test_load_example (examples[e]);
      g_autoptr (FxModes) ge = modes_of (m, 1);
      guint changed = 0;
      for (guint i = 0; i < m->links->len; i++)
        {
          FxLink *l = fx_model_link (m, i);
          if (l->rigid || l->formulation != FX_FORMULATION_AUTO)
            continue;
          l->kind = FX_LINK_FLOATING_FRAME;
          l->damping = l->rotational_damping = 0.0;
          changed++;
        }
      g_autoptr (FxModes) ff = modes_of (m, 1);
      g_test_message ("%s, %u links floating-frame: mobility %u, indeterminacy %u (GE %u, %u)",
                      examples[e], changed, ff->mobility, ff->indeterminacy, ge->mobility,
                      ge->indeterminacy);
      g_assert_cmpuint (changed, >, 0);
      g_assert_cmpuint (ff->mobility, ==, ge->mobility);
      g_assert_cmpuint (ff->indeterminacy, ==, ge->indeterminacy);
    }
}

/* Largest |moment| (FX_MODE_M) or |axial force| (FX_MODE_N) of a mode's
 * shape over all nodes. */
static double
largest (const FxModes *modes, const FxMode *mode, guint which)
{
  double big = 0.0;
  for (guint k = 0; k < modes->n_nodes; k++)
    big = MAX (big, fabs (mode->shape[FX_MODE_SHAPE_STRIDE * k + which]));
  return big;
}

/* Shapes' stresses: the welded triangle of floating-frame links shows its
 * self-stress states' bending (scaled to 1, the same at both sides of
 * each welded corner), and a free bar's axial vibration shows its axial
 * force and no moment (its bending is round-off, not to be scaled up to
 * colours). */
static void
test_shape_moments (void)
{
  g_autoptr (FxModel) m = test_load_example ("triangle-truss.flexion");
  for (guint i = 0; i < m->links->len; i++)
    fx_model_link (m, i)->kind = FX_LINK_FLOATING_FRAME;
  g_autoptr (FxModes) modes = modes_of (m, 1);
  guint bending = 0;
  for (guint k = 0; k < modes->n_modes; k++)
    {
      const FxMode *mode = &modes->modes[k];
      if (mode->kind != FX_MODE_SELF_STRESS || largest (modes, mode, FX_MODE_M) < 0.5)
        continue;
      bending++;
      /* each link's last node meets the next link's first (a closed loop) */
      for (guint l = 0; l < modes->n_links; l++)
        {
          guint last = modes->link_first[l] + modes->link_nodes[l] - 1;
          double m_end = mode->shape[FX_MODE_SHAPE_STRIDE * last + FX_MODE_M];
          double p[2] = { modes->node_xy[2 * last], modes->node_xy[2 * last + 1] };
          for (guint o = 0; o < modes->n_links; o++)
            for (guint e = 0; e < 2; e++)
              {
                guint node = modes->link_first[o] + (e ? modes->link_nodes[o] - 1 : 0);
                if (node == last || hypot (modes->node_xy[2 * node] - p[0],
                                           modes->node_xy[2 * node + 1] - p[1]) > 1e-9)
                  continue;
                double m_other = mode->shape[FX_MODE_SHAPE_STRIDE * node + FX_MODE_M];
                g_assert_cmpfloat (fabs (fabs (m_end) - fabs (m_other)), <, 0.02);
              }
        }
    }
  g_test_message ("welded FF triangle: %u of %u self-stress states bend", bending,
                  modes->indeterminacy);
  g_assert_cmpuint (bending, >, 0);

  g_autoptr (FxModel) bar = fx_model_new ();
  fx_model_add_joint (bar, "A", 0.0, 0.0);
  fx_model_add_joint (bar, "B", 1.0, 0.0);
  test_add_link (bar, "b", "A", "B", 10, 1.0, 1e-4, 1e4, 1e4, 10.0)->kind = FX_LINK_FLOATING_FRAME;
  g_autoptr (FxModes) bm = modes_of (bar, 8);
  guint axial = 0;
  for (guint k = 1; k <= 8; k++)
    {
      const FxMode *mode = nth_vibration (bm, k);
      double f_axial = 0.5 * sqrt (1e4);  /* free-free: c / 2L = 50 Hz (50.2 at 10 elements) */
      if (fabs (mode->frequency - f_axial) > 1e-2 * f_axial)
        continue;
      axial++;
      g_assert_cmpfloat (largest (bm, mode, FX_MODE_M), ==, 0.0);
      /* its axial force is drawn: largest in the middle, tension where the
       * ends move apart (A moves along -x when B moves along +x) */
      const double *mid = &mode->shape[FX_MODE_SHAPE_STRIDE * 5], *a = &mode->shape[0];
      g_assert_cmpfloat (fabs (mid[FX_MODE_N]), ==, largest (bm, mode, FX_MODE_N));
      g_assert_cmpfloat (mid[FX_MODE_N] * -a[FX_MODE_DX], >, 0.0);
    }
  g_assert_cmpuint (axial, ==, 1);
}

/* The iterative path (shift-invert Arnoldi, over 2,000 unknowns) extends
 * the unknowns by the floating frames' stiffness stresses: on models the
 * dense path also solves, the same vibrations. The dense solve's round-off
 * grows with omega_max^2 / omega_1^2 (the slopes' tiny masses here):
 * measured <= 1.3e-7 on these. */
static void
test_iterative_matches_dense (void)
{
  FxModel *models[3] = { cantilever (8, 2, TRUE, FALSE), pendulum (16, TRUE, 2e-3),
                         test_load_example ("spin-up.flexion") };
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (FxModes) dense = fx_modes_compute_with (models[i], 4, FX_MODES_DENSE, &error);
      g_assert_no_error (error);
      g_autoptr (FxModes) iter = fx_modes_compute_with (models[i], 4, FX_MODES_ITERATIVE, &error);
      g_assert_no_error (error);
      g_assert_false (iter->counted);
      g_assert_cmpuint (fx_modes_count (iter, FX_MODE_VIBRATION), ==, 4);
      for (guint k = 1; k <= 4; k++)
        {
          g_autofree char *what = g_strdup_printf ("model %u, mode %u, iterative", i, k);
          check_close (what, omega_of (iter, k), omega_of (dense, k), 1e-6);
        }
      fx_model_free (models[i]);
    }
}

/* The spin-up with a 400-element GE blade (2454 unknowns) takes the
 * iterative path: both blades' first bending, the GE one nearer its
 * converged 3.797563 rad/s (12.7 b). */
static void
test_iterative_spin_up (void)
{
  g_autoptr (FxModel) m = test_load_example ("spin-up.flexion");
  fx_model_link (m, (guint) fx_model_find_link (m, "exact"))->elements = 400;
  g_autoptr (FxModes) modes = modes_of (m, 2);
  g_assert_false (modes->counted);
  g_assert_cmpuint (modes->n_unknowns, >, FX_MODES_MAX_UNKNOWNS);
  check_close ("spin-up at 2454 unknowns, GE blade", omega_of (modes, 1), 3.797563, 1e-5);
  check_close ("spin-up at 2454 unknowns, FF blade", omega_of (modes, 2), 3.797687, 1e-6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/floating-modes/cantilever-welded", test_cantilever_welded);
  g_test_add_func ("/floating-modes/cantilever-ff-ff", test_cantilever_ff_ff);
  g_test_add_func ("/floating-modes/free-free-welded", test_free_free_welded);
  g_test_add_func ("/floating-modes/time-domain", test_time_domain);
  g_test_add_func ("/floating-modes/pendulum-tip-mass", test_pendulum_tip_mass);
  g_test_add_func ("/floating-modes/spin-up", test_spin_up);
  g_test_add_func ("/floating-modes/four-bar", test_four_bar);
  g_test_add_func ("/floating-modes/examples-counts", test_examples_counts);
  g_test_add_func ("/floating-modes/shape-moments", test_shape_moments);
  g_test_add_func ("/floating-modes/iterative-matches-dense", test_iterative_matches_dense);
  g_test_add_func ("/floating-modes/iterative-spin-up", test_iterative_spin_up);
  return g_test_run ();
}
