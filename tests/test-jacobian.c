/* test-jacobian.c: the analytic Newton matrix against central differences of
 * the residual, for every formulation, with gravity, dead and follower loads,
 * at a random state and random angles, and for junctions of several links. */
#include "test-models.h"
#include "test-jacobian-check.h"

#include <string.h>

static FxModel *
base_model (void)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = 1.3;
  m->gravity[1] = -9.81;
  return m;
}

/* Loads everywhere the formulation lets them act. */
static void
add_point_loads (FxModel *m, const char *link)
{
  FxLoad *a = fx_model_add_link_load (m, link, 0.37);
  a->force[0] = 0.7;
  a->force[1] = -1.1;
  a->moment = 0.4;
  a->frame = FX_FRAME_SPATIAL;
  FxLoad *b = fx_model_add_link_load (m, link, 0.5);  /* on a node: DG0 fields split */
  b->force[0] = -0.3;
  b->force[1] = 0.9;
  b->frame = FX_FRAME_MATERIAL;
  b->profile.type = FX_PROFILE_SINE;
  b->profile.frequency = 0.7;
}

static void
add_joint_loads (FxModel *m, const char *joint, const char *frame_link)
{
  FxLoad *a = fx_model_add_joint_load (m, joint);
  a->force[0] = 1.5;
  a->force[1] = 0.5;
  a->moment = -0.8;
  FxLoad *b = fx_model_add_joint_load (m, joint);
  b->force[0] = -0.4;
  b->force[1] = 1.2;
  b->frame = FX_FRAME_MATERIAL;
  b->frame_link = g_strdup (frame_link);
}

static FxModel *
single_link (FxSupport support)
{
  FxModel *m = base_model ();
  fx_model_add_joint (m, "A", 0.1, 0.2)->support = support;
  fx_model_add_joint (m, "B", 1.6, 1.0)->support = support;
  test_add_link (m, "L", "A", "B", 5, 2.0, 0.5, 10.0, 7.0, 5.0);
  add_point_loads (m, "L");
  if (!fx_support_grounds (support, FX_CHANNEL_TRANSLATION))
    {
      add_joint_loads (m, "A", "L");
      add_joint_loads (m, "B", "L");
    }
  return m;
}

/* crank (pinned) - coupler (free-free) - rocker (pinned), pins everywhere */
static FxModel *
four_bar (void)
{
  FxModel *m = base_model ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "A", 2, 1);
  fx_model_add_joint (m, "B", 3.5, 1);
  fx_model_add_joint (m, "C", 2.5, 0)->support = FX_SUPPORT_PIN;
  test_add_link (m, "crank", "O", "A", 4, 2.0, 0.5, 10.0, 7.0, 5.0);
  test_add_link (m, "coupler", "A", "B", 3, 1.0, 0.3, 8.0, 6.0, 4.0);
  test_add_link (m, "rocker", "B", "C", 3, 1.5, 0.4, 9.0, 5.0, 3.0);
  add_joint_loads (m, "A", "coupler");
  add_joint_loads (m, "B", "rocker");
  add_point_loads (m, "coupler");
  return m;
}

/* free-free beam welded to a clamped-clamped one that is clamped at its far end */
static FxModel *
welded_pair (void)
{
  FxModel *m = base_model ();
  fx_model_add_joint (m, "A", 0, 0);
  fx_model_add_joint (m, "B", 1, 0.5)->kind = FX_JOINT_WELD;
  fx_model_add_joint (m, "C", 1.5, 1.5)->support = FX_SUPPORT_CLAMP;
  test_add_link (m, "free", "A", "B", 3, 2.0, 0.5, 10.0, 7.0, 5.0)->formulation = FX_FORMULATION_FREE_FREE;
  test_add_link (m, "clamped", "B", "C", 4, 1.0, 0.3, 8.0, 6.0, 4.0)->formulation = FX_FORMULATION_CLAMPED_CLAMPED;
  add_joint_loads (m, "A", "free");
  add_joint_loads (m, "B", "clamped");
  return m;
}

static void
randomize (FxSystem *sys, GRand *rng, double *x)
{
  double *xn = fx_system_state (sys);
  for (guint i = 0; i < sys->n; i++)
    {
      xn[i] = g_rand_double_range (rng, -1, 1);
      x[i] = xn[i] + g_rand_double_range (rng, -0.3, 0.3);
    }
  for (guint l = 0; l < sys->n_links; l++)
    {
      FxLinkSys *ls = &sys->links[l];
      guint n_theta = ls->R == FX_CAUSAL_F ? ls->N + 1 : ls->N;
      for (guint i = 0; i < n_theta; i++)
        ls->theta[i] += g_rand_double_range (rng, -1, 1);
      ls->theta_end[0] += g_rand_double_range (rng, -1, 1);
      ls->theta_end[1] += g_rand_double_range (rng, -1, 1);
    }
  sys->t = 0.3;
}

static void
check_jacobian (FxModel *m)
{
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GRand) rng = g_rand_new_with_seed (42);
  g_autofree double *x = g_new (double, sys->n);

  randomize (sys, rng, x);
  JacobianCheck c = test_jacobian_check (sys, x, 0.1);
  g_test_message ("max |J - J_fd| = %.3g (max |J| = %.3g), %u unknowns",
                  c.worst, c.jmax, sys->n);
  /* entries outside the recorded pattern must be zero */
  g_assert_cmpfloat (c.outside, <, 1e-9);
  g_assert_cmpfloat (c.worst, <, 1e-7 * MAX (1.0, c.jmax));

  /* the two-stage Gauss system's matrix (physics.md §16), same state */
  JacobianCheck s = test_jacobian_check_stages (sys, x, 0.1, rng);
  g_test_message ("gauss4: max |J - J_fd| = %.3g (max |J| = %.3g)", s.worst, s.jmax);
  g_assert_cmpfloat (s.outside, <, 1e-9);
  g_assert_cmpfloat (s.worst, <, 1e-7 * MAX (1.0, s.jmax));
  fx_model_free (m);
}

static void test_free_free (void)       { check_jacobian (single_link (FX_SUPPORT_NONE)); }
static void test_clamped_clamped (void) { check_jacobian (single_link (FX_SUPPORT_CLAMP)); }
static void test_pinned (void)          { check_jacobian (single_link (FX_SUPPORT_PIN)); }
static void test_guided (void)          { check_jacobian (single_link (FX_SUPPORT_GUIDED)); }
static void test_four_bar (void)        { check_jacobian (four_bar ()); }

/* Drags on a DG0-velocity link (at a node: two samples) and a CG1 one. */
static void
test_drags (void)
{
  FxModel *m = four_bar ();
  double t[3] = { 0.0, 0.35, 1.0 }, x[3] = { 2.5, 2.7, 3.1 }, y[3] = { 1.0, 1.4, 1.2 };
  FxDrag *a = fx_model_add_drag (m, "a", "coupler", 0.37, NULL);
  fx_drag_set_path (a, 3, t, x, y);
  FxDrag *b = fx_model_add_drag (m, "b", "crank", 0.5, NULL);
  fx_drag_set_path (b, 3, t, y, x);
  b->damping_ratio = 2.0;
  check_jacobian (m);
}
static void test_welded (void)          { check_jacobian (welded_pair ()); }

/* The residual must see every term: a change of any unknown changes it. */
static void
test_formulations_assigned (void)
{
  const struct { FxSupport s; FxFormulation f; } cases[] = {
    { FX_SUPPORT_NONE, FX_FORMULATION_FREE_FREE },
    { FX_SUPPORT_CLAMP, FX_FORMULATION_CLAMPED_CLAMPED },
    { FX_SUPPORT_PIN, FX_FORMULATION_PINNED },
    { FX_SUPPORT_GUIDED, FX_FORMULATION_GUIDED },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (FxModel) m = single_link (cases[i].s);
      g_autoptr (FxSystem) sys = test_system (m);
      g_assert_cmpint (fx_system_assignment (sys)->links[0].formulation, ==, cases[i].f);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/jacobian/assignment", test_formulations_assigned);
  g_test_add_func ("/jacobian/free-free", test_free_free);
  g_test_add_func ("/jacobian/clamped-clamped", test_clamped_clamped);
  g_test_add_func ("/jacobian/pinned", test_pinned);
  g_test_add_func ("/jacobian/guided", test_guided);
  g_test_add_func ("/jacobian/four-bar", test_four_bar);
  g_test_add_func ("/jacobian/drags", test_drags);
  g_test_add_func ("/jacobian/welded", test_welded);
  return g_test_run ();
}
