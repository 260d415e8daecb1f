/* test-floating.c: floating-frame links (docs/theory.md, "Floating-frame
 * links"): the analytic Jacobian of the discrete gradient against central
 * differences, the energy books to round-off (free tumbling link,
 * pendulum, pendulum with a tip mass, every end causality, welded to GE
 * links), and the per-end causality of the matcher. */
#include "test-models.h"
#include "test-jacobian-check.h"
#include "fx-integrator.h"
#include "fx-modes.h"
#include "fx-measure.h"

#include <string.h>

static FxLink *
ff_link (FxModel *m, const char *id, const char *from, const char *to, guint n,
         double rhoA, double rhoI, double EA, double EI)
{
  FxLink *l = test_add_link (m, id, from, to, n, rhoA, rhoI, EA, EA, EI);
  l->kind = FX_LINK_FLOATING_FRAME;
  return l;
}

/* A state with every unknown and every configuration value random. */
static void
randomise (FxSystem *sys, GRand *rng, double *x)
{
  for (guint i = 0; i < sys->n; i++)
    {
      sys->x[i] = g_rand_double_range (rng, -1, 1);
      x[i] = sys->x[i] + g_rand_double_range (rng, -0.3, 0.3);
    }
  for (guint l = 0; l < sys->n_links; l++)
    {
      FxLinkSys *ls = &sys->links[l];
      for (guint k = 0; k < ls->n_theta; k++)
        ls->theta[k] += g_rand_double_range (rng, -0.05, 0.05);
    }
}

static void
check_jacobian (FxModel *m, const char *what)
{
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GRand) rng = g_rand_new_with_seed (11);
  g_autofree double *x = g_new (double, sys->n);

  randomise (sys, rng, x);
  JacobianCheck c = test_jacobian_check (sys, x, 0.013);
  g_test_message ("%s: %u unknowns, max |J - J_fd| %.3g (max |J| %.3g), outside pattern %.3g",
                  what, sys->n, c.worst, c.jmax, c.outside);
  g_assert_cmpfloat (c.worst, <, 1e-7 * MAX (c.jmax, 1.0));
  g_assert_cmpfloat (c.outside, ==, 0.0);
}

static FxModel *
free_link_model (FxLinkFrame frame)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = 0.4;
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0.0, 0.0);
  fx_model_add_joint (m, "B", 1.7, 0.6);
  FxLink *l = ff_link (m, "L", "A", "B", 4, 1.3, 2e-3, 50.0, 7.0);
  l->frame = frame;
  l->kelvin_voigt = 0.01;
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->force[0] = 0.7;
  ld->force[1] = -0.4;
  ld->moment = 0.3;
  return m;
}

static void
test_jacobian_free (void)
{
  g_autoptr (FxModel) m = free_link_model (FX_LINK_FRAME_MEAN_AXIS);
  check_jacobian (m, "free link, mean axes");
}

/* Clamped and driven at A (V, V), a tip mass at B (V at B too). */
static FxModel *
held_model (FxLinkFrame frame, gboolean tip_mass)
{
  FxModel *m = fx_model_new ();
  m->gravity[1] = -9.81;
  FxJoint *a = fx_model_add_joint (m, "A", 0.0, 0.0);
  a->support = FX_SUPPORT_CLAMP;
  FxJoint *b = fx_model_add_joint (m, "B", 1.2, 0.3);
  if (tip_mass)
    b->mass = 0.5;
  FxLink *l = ff_link (m, "L", "A", "B", 3, 1.0, 1e-3, 80.0, 9.0);
  l->frame = frame;
  l->kelvin_voigt = 0.02;
  return m;
}

static void
test_jacobian_attached (void)
{
  g_autoptr (FxModel) m = held_model (FX_LINK_FRAME_ATTACHED, TRUE);
  check_jacobian (m, "clamped, attached, tip mass");
}

/* GE - FF - GE welded, pinned to the ground at A. */
static FxModel *
welded_chain (void)
{
  FxModel *m = fx_model_new ();
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 0.8, 0.0)->kind = FX_JOINT_WELD;
  fx_model_add_joint (m, "C", 1.6, 0.4)->kind = FX_JOINT_WELD;
  fx_model_add_joint (m, "D", 2.2, 0.4);
  test_add_link (m, "g1", "A", "B", 4, 1.0, 1e-3, 1e4, 1e4, 20.0);
  ff_link (m, "f", "B", "C", 4, 1.0, 1e-3, 1e4, 20.0);
  test_add_link (m, "g2", "C", "D", 4, 1.0, 1e-3, 1e4, 1e4, 20.0);
  return m;
}

static void
test_jacobian_welded (void)
{
  g_autoptr (FxModel) m = welded_chain ();
  check_jacobian (m, "GE - FF - GE welded");
}

/* ---------------------------------------------------------- energy */

typedef struct {
  double E_scale, worst_balance, H0, H;
  guint steps, iters;
} Books;

static Books
run_books (FxSystem *sys, double dt, double t_end)
{
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  Books b;
  memset (&b, 0, sizeof b);
  /* the default Newton (reused factorisations); FF_FULL_NEWTON for full */
  fx_integrator_set_simplified_newton (it, g_getenv ("FF_FULL_NEWTON") == NULL);
  fx_integrator_report (it, &rep);
  b.H0 = rep.H;
  double supplied = 0.0;
  while (fx_system_time (sys) < t_end - 1e-9)
    {
      g_autoptr (GError) error = NULL;
      gboolean ok = fx_integrator_step (it, dt, &rep, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      b.steps++;
      b.iters += rep.newton_iters;
      supplied += rep.supplied;
      b.worst_balance = MAX (b.worst_balance, fabs (rep.balance));
      double pot = MAX (fabs (rep.elastic), fabs (rep.gravity));
      b.E_scale = MAX (b.E_scale, MAX (fabs (rep.H), MAX (fabs (supplied), MAX (rep.kinetic, pot))));
    }
  b.H = rep.H;
  return b;
}

static void
books_check (const char *what, const Books *b)
{
  g_test_message ("%s: %u steps, mean Newton %.2f, E_scale %.6g J, max |balance| %.3g E_scale, "
                  "H - H0 = %.3g E_scale", what, b->steps, (double) b->iters / b->steps,
                  b->E_scale, b->worst_balance / b->E_scale, (b->H - b->H0) / b->E_scale);
  g_assert_cmpfloat (b->E_scale, >, 0.0);
  g_assert_cmpfloat (b->worst_balance, <=, 1e-12 * b->E_scale);
}

/* 12.7 (a): L = 2, N = 8, spinning at 3 rad/s with a bent start
 * (w = alpha (X^2 - L^2/12): mean axes hold), no gravity: energy and omega. */
static void
test_energy_tumbling (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  fx_model_add_joint (m, "A", 0.0, 0.0);
  fx_model_add_joint (m, "B", 2.0, 0.0);
  FxLink *l = ff_link (m, "L", "A", "B", 8, 1.0, 1e-3, 1e5, 50.0);
  l->initial_omega = 3.0;
  g_autoptr (FxSystem) sys = test_system (m);
  FxLinkSys *ls = &sys->links[0];
  double alpha = 0.05;
  for (guint i = 0; i <= ls->N; i++)
    {
      double X = i * ls->h - 1.0;
      ls->theta[1 + 3 * i + 1] = alpha * (X * X - 4.0 / 12.0);
      ls->theta[1 + 3 * i + 2] = 2.0 * alpha * X;
    }
  Books b = run_books (sys, 0.01, 5.0);
  books_check ("free tumbling link", &b);
  g_assert_cmpfloat (fabs (b.H - b.H0), <, 1e-10 * b.E_scale);
  double w = sys->x[ls->offset + 2];
  g_test_message ("omega after 5 s: %.6f rad/s", w);
  g_assert_cmpfloat (fabs (w - 3.0), <, 0.05);
}

/* 12.7 (a): pendulum L = 1, N = 8, EI = 100, pinned, gravity; and with a
 * 0.5 kg tip mass. */
static void
pendulum (gboolean tip, FxLinkFrame frame)
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  FxJoint *tip_joint = fx_model_add_joint (m, "B", 1.0, 0.0);
  if (tip)
    tip_joint->mass = 0.5;
  ff_link (m, "L", "A", "B", 8, 1.0, 0.0, 1e6, 100.0)->frame = frame;
  g_autoptr (FxSystem) sys = test_system (m);
  const FxAssignment *as = fx_system_assignment (sys);
  g_assert_cmpint (as->links[0].T_end[0], ==, FX_CAUSAL_V);
  g_assert_cmpint (as->links[0].R_end[0], ==, FX_CAUSAL_F);
  g_assert_cmpint (as->links[0].T_end[1], ==, tip ? FX_CAUSAL_V : FX_CAUSAL_F);
  Books b = run_books (sys, 0.005, 2.0);
  books_check (tip ? "pendulum with tip mass" : "pendulum", &b);
}

static void
test_energy_pendulum (void)
{
  pendulum (FALSE, FX_LINK_FRAME_MEAN_AXIS);
  pendulum (TRUE, FX_LINK_FRAME_MEAN_AXIS);
}

/* Clamped at A, damped, tip mass, gravity: both frames. */
static void
test_energy_held (void)
{
  for (int f = 0; f < 2; f++)
    {
      g_autoptr (FxModel) m = held_model (f ? FX_LINK_FRAME_ATTACHED : FX_LINK_FRAME_MEAN_AXIS, TRUE);
      g_autoptr (FxSystem) sys = test_system (m);
      Books b = run_books (sys, 0.005, 1.0);
      books_check (f ? "clamped, attached" : "clamped, mean axes", &b);
    }
}

static void
test_energy_welded (void)
{
  g_autoptr (FxModel) m = welded_chain ();
  g_autoptr (FxSystem) sys = test_system (m);
  Books b = run_books (sys, 0.005, 1.0);
  books_check ("GE - FF - GE welded", &b);
}

/* A scripted drag of joint C, where a FF link and a GE link meet, holds the
 * GE link (the fuzzer's finding 1336478000-829 held the FF link with the GE
 * kernel's samples and wrote outside the matrix); the books close. */
static void
test_drag_joint_shared (void)
{
  g_autoptr (FxModel) m = welded_chain ();
  FxDrag *d = fx_model_add_drag (m, "hand", NULL, 0.0, "C");
  const double t[2] = { 0.0, 1.0 }, x[2] = { 1.6, 1.7 }, y[2] = { 0.4, 0.6 };
  fx_drag_set_path (d, 2, t, x, y);
  g_autoptr (FxSystem) sys = test_system (m);
  g_assert_cmpuint (g_array_index (sys->drags, FxDragSys, 0).link, ==, 2);  /* g2, not f */
  Books b = run_books (sys, 0.005, 0.5);
  books_check ("GE - FF - GE welded, drag at C", &b);
}

/* A drag of a joint that only a floating-frame link meets holds that
 * link's end, a material point like any other; the books close. */
static void
test_drag_joint_floating_only (void)
{
  g_autoptr (FxModel) m = free_link_model (FX_LINK_FRAME_MEAN_AXIS);
  FxDrag *d = fx_model_add_drag (m, "hand", NULL, 0.0, "B");
  const double t[2] = { 0.0, 1.0 }, x[2] = { 1.7, 1.8 }, y[2] = { 0.6, 0.6 };
  fx_drag_set_path (d, 2, t, x, y);
  g_autoptr (FxSystem) sys = test_system (m);
  const FxDragSys *ds = &g_array_index (sys->drags, FxDragSys, 0);
  g_assert_cmpuint (ds->link, ==, 0);
  g_assert_cmpfloat (ds->s, ==, 1.0);
  Books b = run_books (sys, 0.005, 1.0);
  books_check ("free link, drag of its joint B", &b);
}

/* ------------------------------------------------ points of the link */

/* A sine point load at s = 0.37 (a spatial force with a moment, and a
 * material one) on a free link (mean axes) and on a pendulum. */
static void
add_point_loads (FxModel *m, const char *link)
{
  FxLoad *ld = fx_model_add_link_load (m, link, 0.37);
  ld->force[0] = 3.0;
  ld->force[1] = -2.0;
  ld->moment = 0.8;
  ld->profile.type = FX_PROFILE_SINE;
  ld->profile.frequency = 1.7;
  ld = fx_model_add_link_load (m, link, 0.81);
  ld->force[0] = 0.0;
  ld->force[1] = 1.5;
  ld->frame = FX_FRAME_MATERIAL;
  ld->profile.type = FX_PROFILE_SINE;
  ld->profile.frequency = 2.3;
}

static FxModel *
pendulum_model (void)
{
  FxModel *m = fx_model_new ();
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 1.0, 0.0);
  ff_link (m, "L", "A", "B", 8, 1.0, 1e-3, 1e5, 30.0)->kelvin_voigt = 0.002;
  return m;
}

static void
test_point_load (void)
{
  for (int c = 0; c < 2; c++)
    {
      g_autoptr (FxModel) m = c == 0 ? free_link_model (FX_LINK_FRAME_MEAN_AXIS) : pendulum_model ();
      add_point_loads (m, "L");
      g_autoptr (FxSystem) sys = test_system (m);
      Books b = run_books (sys, 0.005, 2.0);
      books_check (c == 0 ? "free link, point loads" : "pendulum, point loads", &b);
    }
}

/* A point load at s = 1 is the same force as a load on the joint there:
 * the end B moves alike to Newton's tolerance. */
static void
test_point_load_at_end (void)
{
  double tip[2][2];
  for (int c = 0; c < 2; c++)
    {
      g_autoptr (FxModel) m = pendulum_model ();
      FxLoad *ld = c == 0 ? fx_model_add_link_load (m, "L", 1.0) : fx_model_add_joint_load (m, "B");
      ld->force[0] = 3.0;
      ld->force[1] = -2.0;
      ld->moment = 0.8;
      ld->profile.type = FX_PROFILE_SINE;
      ld->profile.frequency = 1.7;
      g_autoptr (FxSystem) sys = test_system (m);
      Books b = run_books (sys, 0.005, 0.5);
      books_check (c == 0 ? "pendulum, point load at s = 1" : "pendulum, joint load at B", &b);
      fx_system_point (sys, 0, 1.0, &tip[c][0], &tip[c][1]);
    }
  g_test_message ("tip: (%.12f, %.12f) vs (%.12f, %.12f)", tip[0][0], tip[0][1], tip[1][0], tip[1][1]);
  g_assert_cmpfloat (hypot (tip[0][0] - tip[1][0], tip[0][1] - tip[1][1]), <, 1e-9);
  g_assert_cmpfloat (hypot (tip[0][0] - 1.0, tip[0][1]), >, 0.1);  /* it did move */
}

/* A scripted drag at s = 0.6 pulls the free link one way, then the
 * pendulum, and lets go: spring, damper and anchor's work close the books. */
static void
add_link_drag (FxModel *m, const char *link, double s, double x0, double y0)
{
  FxDrag *d = fx_model_add_drag (m, "pull", link, s, NULL);
  const double t[3] = { 0.0, 0.5, 1.0 }, x[3] = { x0, x0 + 0.3, x0 + 0.1 },
               y[3] = { y0, y0 + 0.4, y0 - 0.2 };
  fx_drag_set_path (d, 3, t, x, y);
  d->release = 0.8;
}

static void
test_drag_link (void)
{
  for (int c = 0; c < 2; c++)
    {
      g_autoptr (FxModel) m = c == 0 ? free_link_model (FX_LINK_FRAME_MEAN_AXIS) : pendulum_model ();
      add_link_drag (m, "L", 0.6, c == 0 ? 1.02 : 0.6, c == 0 ? 0.36 : 0.0);
      g_autoptr (FxSystem) sys = test_system (m);
      Books b = run_books (sys, 0.005, 1.2);
      books_check (c == 0 ? "free link, drag at s = 0.6" : "pendulum, drag at s = 0.6", &b);
    }
}

/* The hand grabs a floating-frame link and pulls it along. */
static void
test_drag_hand (void)
{
  g_autoptr (FxModel) m = pendulum_model ();
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  double worst = 0.0, scale = 0.0, supplied = 0.0, anchor[2], point[2];

  fx_system_hand_grab (sys, 0, 0.5);
  g_assert_true (fx_system_hand_active (sys));
  g_assert_true (fx_system_hand_anchor (sys, anchor, point));
  g_assert_cmpfloat (fabs (point[0] - 0.5) + fabs (point[1]), <, 1e-12);
  for (guint k = 0; k < 200; k++)
    {
      g_autoptr (GError) error = NULL;
      double to[2] = { 0.5 + 0.4 * sin (0.05 * k), 0.3 * (1.0 - cos (0.05 * k)) };
      if (k == 150)
        fx_system_hand_release (sys);
      if (k < 150)
        fx_system_hand_move (sys, to, 0.005);
      g_assert_true (fx_integrator_step (it, 0.005, &rep, &error));
      g_assert_no_error (error);
      supplied += rep.supplied;
      worst = MAX (worst, fabs (rep.balance));
      scale = MAX (scale, MAX (fabs (rep.H), MAX (fabs (supplied), rep.kinetic)));
    }
  fx_system_point (sys, 0, 0.5, &point[0], &point[1]);
  g_test_message ("hand on a floating-frame pendulum: max |balance| %.3g E_scale, point (%.3f, %.3f)",
                  worst / scale, point[0], point[1]);
  g_assert_cmpfloat (worst, <=, 1e-12 * scale);
}

/* Probes: a pendulum with a 0.2 kg bob hanging at rest (damped until
 * quasi-static) reads the tension N of the geometrically exact link with
 * the same section, (rhoA (L - s) + 0.2) g at a node (the bob: a GE
 * pendulum without one would get a regularising mass there); V = 0. */
static void
hanging_probe (gboolean floating, double s, double values[FX_PROBE_N_VALUES])
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 0.0, -1.0)->mass = 0.2;
  FxLink *l = test_add_link (m, "L", "A", "B", 8, 1.0, 1e-3, 1e4, 1e4, 30.0);
  if (floating)
    {
      l->kind = FX_LINK_FLOATING_FRAME;
      l->kelvin_voigt = 0.01;
    }
  else
    l->damping = 30.0;
  g_autoptr (FxSystem) sys = test_system (m);
  run_books (sys, 0.002, 1.5);
  fx_system_probe_values (sys, 0, s, values);
}

static void
test_probe_hanging (void)
{
  const double at[2] = { 0.25, 0.75 };  /* at nodes: the element means average to the exact value */
  for (guint k = 0; k < 2; k++)
    {
      double ff[FX_PROBE_N_VALUES], ge[FX_PROBE_N_VALUES];
      hanging_probe (TRUE, at[k], ff);
      hanging_probe (FALSE, at[k], ge);
      g_test_message ("hanging, s = %.2f: N %.9f (GE %.9f), V %.3g (GE %.3g), |v| %.3g",
                      at[k], ff[FX_PROBE_N], ge[FX_PROBE_N], ff[FX_PROBE_V], ge[FX_PROBE_V],
                      hypot (ff[FX_PROBE_VX], ff[FX_PROBE_VY]));
      g_assert_cmpfloat (fabs (ff[FX_PROBE_N] - ge[FX_PROBE_N]), <, 1e-3 * fabs (ge[FX_PROBE_N]));
      g_assert_cmpfloat (fabs (ff[FX_PROBE_N] - 9.81 * (1.2 - at[k])), <, 1e-6);
      g_assert_cmpfloat (fabs (ff[FX_PROBE_V]), <, 1e-6);
      g_assert_cmpfloat (hypot (ff[FX_PROBE_VX], ff[FX_PROBE_VY]), <, 1e-6);
    }
}

/* A swinging, bending pendulum: the probe's velocity at the two ends of a
 * step averages to the point's displacement over it (midpoint rule). */
static void
test_probe_motion (void)
{
  g_autoptr (FxModel) m = pendulum_model ();
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  double worst = 0.0, vmax = 0.0, p0[FX_PROBE_N_VALUES], p1[FX_PROBE_N_VALUES];
  const double dt = 1e-3;

  for (guint k = 0; k < 400; k++)
    {
      g_autoptr (GError) error = NULL;
      fx_system_probe_values (sys, 0, 0.37, p0);
      g_assert_true (fx_integrator_step (it, dt, &rep, &error));
      fx_system_probe_values (sys, 0, 0.37, p1);
      for (guint c = 0; c < 2; c++)
        {
          double fd = (p1[FX_PROBE_X + c] - p0[FX_PROBE_X + c]) / dt;
          double mean = 0.5 * (p0[FX_PROBE_VX + c] + p1[FX_PROBE_VX + c]);
          worst = MAX (worst, fabs (fd - mean));
          vmax = MAX (vmax, fabs (mean));
        }
    }
  g_test_message ("swinging pendulum, s = 0.37: max |dx/dt - v_mean| %.3g (max |v| %.3g)", worst, vmax);
  g_assert_cmpfloat (vmax, >, 0.5);
  g_assert_cmpfloat (worst, <, 1e-4 * vmax);
}

/* A cantilever drawn from its clamp, damped to rest under a downward tip
 * load F, reads V = -F and M = -F (L - s) (docs/theory.md section 10). */
static void
test_probe_cantilever (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  const double F = 0.02;  /* small deflection: no slope^2 terms in the section frame */
  m->gravity[1] = 0.0;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", 1.0, 0.0);
  ff_link (m, "L", "A", "B", 6, 1.0, 1e-3, 1e5, 30.0)->kelvin_voigt = 0.05;
  fx_model_add_joint_load (m, "B")->force[1] = -F;
  g_autoptr (FxSystem) sys = test_system (m);
  run_books (sys, 0.005, 4.0);
  double p[FX_PROBE_N_VALUES];
  fx_system_probe_values (sys, 0, 0.37, p);
  g_test_message ("cantilever, s = 0.37: V %.9f (-F = %.3f), M %.9f (%.9f), N %.3g",
                  p[FX_PROBE_V], -F, p[FX_PROBE_M], -F * 0.63, p[FX_PROBE_N]);
  g_assert_cmpfloat (fabs (p[FX_PROBE_V] + F), <, 1e-6 * F);
  g_assert_cmpfloat (fabs (p[FX_PROBE_M] + F * 0.63), <, 1e-6 * F);
}

/* "ends" (physics.md 12.8): the user's end causalities. */
static void
ends_of (const FxSystem *sys, guint l, char out[6])
{
  const FxAssignment *as = fx_system_assignment (sys);
  const FxLinkAssignment *la = &as->links[l];
  g_snprintf (out, 6, "%c%c %c%c", la->T_end[0] == FX_CAUSAL_F ? 'F' : 'V',
              la->R_end[0] == FX_CAUSAL_F ? 'F' : 'V', la->T_end[1] == FX_CAUSAL_F ? 'F' : 'V',
              la->R_end[1] == FX_CAUSAL_F ? 'F' : 'V');
}

static void
test_ends_override (void)
{
  char got[6];
  /* two floating-frame links pinned at a free joint B: either may take its
   * force; the matcher gives it to the first, the user to the second; the
   * motion is the same */
  double tip[2][2];
  for (int set = 0; set < 2; set++)
    {
      g_autoptr (FxModel) m = fx_model_new ();
      m->gravity[1] = -9.81;
      fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
      fx_model_add_joint (m, "B", 0.8, 0.0);
      fx_model_add_joint (m, "C", 1.4, 0.5);
      ff_link (m, "a", "A", "B", 4, 1.0, 1e-3, 1e4, 20.0);
      ff_link (m, "b", "B", "C", 4, 1.0, 1e-3, 1e4, 20.0);
      if (set)
        {
          FxLink *a = fx_model_link (m, 0), *b = fx_model_link (m, 1);
          a->ends[1][0] = FX_END_VELOCITY;
          a->ends[1][1] = FX_END_FORCE;
          b->ends[0][0] = b->ends[0][1] = FX_END_FORCE;
        }
      g_autoptr (FxSystem) sys = test_system (m);
      char b_ends[6];
      ends_of (sys, 0, got);
      ends_of (sys, 1, b_ends);
      g_test_message ("double pendulum of FF links%s: a %s, b %s", set ? ", ends set" : "", got, b_ends);
      g_assert_cmpstr (got, ==, set ? "VF VF" : "VF FF");
      g_assert_cmpstr (b_ends, ==, set ? "FF FF" : "VF FF");
      Books b = run_books (sys, 0.005, 0.5);
      books_check (set ? "double pendulum of FF links, ends set" : "double pendulum of FF links", &b);
      fx_system_point (sys, 1, 1.0, &tip[set][0], &tip[set][1]);
    }
  g_test_message ("tip C: (%.12f, %.12f) vs (%.12f, %.12f)", tip[0][0], tip[0][1], tip[1][0], tip[1][1]);
  g_assert_cmpfloat (hypot (tip[0][0] - tip[1][0], tip[0][1] - tip[1][1]), <, 1e-8);
  /* at the weld B of the GE - FF - GE chain the matcher gives f the force
   * (F V); set V V, something else takes it there (a regularising inertia) */
  {
    g_autoptr (FxModel) m = welded_chain ();
    FxLink *f = fx_model_link (m, 1);
    f->ends[0][0] = f->ends[0][1] = FX_END_VELOCITY;
    g_autoptr (FxSystem) sys = test_system (m);
    ends_of (sys, 1, got);
    const FxAssignment *as = fx_system_assignment (sys);
    g_test_message ("GE - FF - GE welded, f's from end set V V: %s, g1 split %d, %u regularisers",
                    got, as->links[0].split, as->regularisers->len);
    g_assert_cmpstr (got, ==, "VV VV");
    g_assert_true (as->links[0].split || as->regularisers->len > 0);
    Books b = run_books (sys, 0.005, 0.5);
    books_check ("GE - FF - GE welded, ends VV", &b);
  }
  /* a force end at a pin support cannot be: refused, naming it (and not
   * the other end, which could be) */
  {
    g_autoptr (FxModel) m = pendulum_model ();
    FxLink *l = fx_model_link (m, 0);
    l->ends[0][0] = l->ends[0][1] = FX_END_FORCE;
    l->ends[1][0] = l->ends[1][1] = FX_END_FORCE;
    g_autoptr (GError) error = NULL;
    g_autoptr (FxSystem) sys = fx_system_new (m, &error);
    g_assert_null (sys);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "links[0].ends.from"));
    g_assert_null (strstr (error->message, "links[0].ends.to"));
  }
  /* a velocity end at a free joint nothing else covers: a regularising
   * mass takes the force there, as at any uncovered joint */
  {
    g_autoptr (FxModel) m = pendulum_model ();
    FxLink *l = fx_model_link (m, 0);
    l->ends[1][0] = FX_END_VELOCITY;
    l->ends[1][1] = FX_END_FORCE;
    g_autoptr (FxSystem) sys = test_system (m);
    ends_of (sys, 0, got);
    g_assert_cmpstr (got, ==, "VF VF");
    g_assert_cmpuint (fx_system_assignment (sys)->regularisers->len, ==, 1);
    Books b = run_books (sys, 0.005, 0.5);
    books_check ("pendulum, V end at the free tip", &b);
  }
  /* the pendulum's own choice, set by hand, runs as without it */
  {
    g_autoptr (FxModel) m = pendulum_model ();
    FxLink *l = fx_model_link (m, 0);
    l->ends[0][0] = FX_END_VELOCITY;
    l->ends[0][1] = FX_END_FORCE;
    g_autoptr (FxSystem) sys = test_system (m);
    ends_of (sys, 0, got);
    g_assert_cmpstr (got, ==, "VF FF");
  }
}

static void
test_jacobian_points (void)
{
  g_autoptr (FxModel) m = free_link_model (FX_LINK_FRAME_MEAN_AXIS);
  add_point_loads (m, "L");
  add_link_drag (m, "L", 0.6, 1.02, 0.36);
  check_jacobian (m, "free link, point loads and a drag");
  g_autoptr (FxModel) p = pendulum_model ();
  add_point_loads (p, "L");
  add_link_drag (p, "L", 0.37, 0.37, 0.0);
  check_jacobian (p, "pendulum, point loads and a drag");
}

/* Inputs at the ports: loads with sine profiles at both ends of a free
 * link (F, F both ends), of a pendulum (V F at the pin) and of a link
 * clamped at A (V V) with a mass at B (V into the inertia), with gravity and
 * Kelvin-Voigt damping: the books close with work supplied and dissipated. */
static void
add_sine_load (FxModel *m, const char *joint, double fx, double fy, double M, double f)
{
  FxLoad *ld = fx_model_add_joint_load (m, joint);
  ld->force[0] = fx;
  ld->force[1] = fy;
  ld->moment = M;
  ld->profile.type = FX_PROFILE_SINE;
  ld->profile.frequency = f;
}

static void
test_energy_inputs (void)
{
  for (int c = 0; c < 3; c++)
    {
      g_autoptr (FxModel) m = fx_model_new ();
      m->gravity[0] = 0.3;
      m->gravity[1] = -9.81;
      fx_model_add_joint (m, "A", 0.0, 0.0);
      fx_model_add_joint (m, "B", 1.1, 0.4);
      /* (after both: adding a joint may move the array) */
      FxJoint *a = fx_model_joint (m, 0), *tip = fx_model_joint (m, 1);
      if (c == 1)
        a->support = FX_SUPPORT_PIN;
      if (c == 2)
        {
          a->support = FX_SUPPORT_CLAMP;
          tip->mass = 0.3;
        }
      FxLink *l = ff_link (m, "L", "A", "B", 6, 1.0, 2e-3, 2e3, 15.0);
      l->kelvin_voigt = 0.005;
      add_sine_load (m, "B", 2.0, -1.5, 0.7, 1.3);
      if (c == 0)
        add_sine_load (m, "A", -0.4, 0.9, -0.5, 2.1);
      if (c == 1)
        add_sine_load (m, "A", 0.0, 0.0, 0.6, 0.9);
      g_autoptr (FxSystem) sys = test_system (m);
      Books b = run_books (sys, 0.004, 1.0);
      books_check (c == 0 ? "free link, loads at both ends" : c == 1 ? "pendulum, loads"
                                                                     : "clamped, mass, loads", &b);
    }
}

/* An attached frame where the `from` end is free is refused, naming it. */
static void
test_attached_needs_held_end (void)
{
  g_autoptr (FxModel) m = free_link_model (FX_LINK_FRAME_ATTACHED);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_null (sys);
  g_assert_nonnull (strstr (error->message, "links[0].frame"));
}

/* ------------------------------------------------------------ spin-up */

static FxModel *
load_spin_up (FxLinkFrame frame)
{
  const char *dir = g_getenv ("FLEXION_EXAMPLES");
  g_autofree char *path = g_build_filename (dir ? dir : "data/examples", "spin-up.flexion", NULL);
  g_autoptr (GError) error = NULL;
  FxModel *m = fx_model_load_file (path, NULL, &error);
  g_assert_no_error (error);
  g_array_index (m->links, FxLink, 1).frame = frame;
  return m;
}

/* Tip deflections of both blades in the hub frame (lag negative): the
 * hub's angle is the exact blade's end angle at the hub. */
static void
hub_deflections (FxSystem *sys, double d[2])
{
  double phi, x, y;
  fx_system_node (sys, 0, 0, NULL, NULL, &phi, NULL);
  fx_system_node (sys, 0, fx_system_link_elements (sys, 0), &x, &y, NULL, NULL);
  d[0] = -sin (phi) * x + cos (phi) * y;
  fx_system_node (sys, 1, fx_system_link_elements (sys, 1), &x, &y, NULL, NULL);
  d[1] = sin (phi) * x - cos (phi) * y;  /* the left blade: normal J(-b1) */
}

/* Steps to t, recording the deflections at 5 and 10 s and the largest
 * |d| after 15 s; FALSE when the solver stops (its message kept). */
static double torque5;  /* the floating blade's root moment at 5 s */

static gboolean
spin (FxSystem *sys, double t_end, double at5[2], double at10[2], double late[2], char **message)
{
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  late[0] = late[1] = 0.0;
  for (guint k = 1; k <= (guint) lround (t_end / 0.01); k++)
    {
      g_autoptr (GError) error = NULL;
      if (!fx_integrator_step (it, 0.01, &rep, &error))
        {
          *message = g_strdup (error->message);
          return FALSE;
        }
      double d[2];
      hub_deflections (sys, d);
      if (k == 500)
        {
          FxFrameGauges g;
          at5[0] = d[0], at5[1] = d[1];
          g_assert_true (fx_system_link_frame (sys, 1, &g));
          torque5 = g.end_force[0][2];
        }
      if (k == 1000)
        at10[0] = d[0], at10[1] = d[1];
      if (k >= 1500)
        for (int b = 0; b < 2; b++)
          late[b] = MAX (late[b], fabs (d[b]));
    }
  return TRUE;
}

/* 12.7 (c): GE -0.468 m at 5 s and millimetres after 15 s; mean axes
 * -0.481 / -0.574 m at 5 / 10 s and bounded. */
static void
test_spin_up_mean_axis (void)
{
  g_autoptr (FxModel) m = load_spin_up (FX_LINK_FRAME_MEAN_AXIS);
  g_autoptr (FxSystem) sys = test_system (m);
  double at5[2], at10[2], late[2];
  g_autofree char *message = NULL;
  g_assert_true (spin (sys, 20.0, at5, at10, late, &message));
  g_test_message ("GE: %.4f m at 5 s, %.4f m at 10 s, max |d| %.4f m after 15 s", at5[0], at10[0], late[0]);
  g_test_message ("mean axes: %.4f m at 5 s, %.4f m at 10 s, max |d| %.4f m after 15 s",
                  at5[1], at10[1], late[1]);
  g_assert_cmpfloat (fabs (at5[0] - -0.4684), <, 1e-3);
  g_assert_cmpfloat (fabs (at10[0] - -0.3627), <, 1e-3);
  g_assert_cmpfloat (late[0], <, 5e-3);
  g_assert_cmpfloat (fabs (at5[1] - -0.4812), <, 1e-3);
  /* root torque at 5 s: 242.5 N m in the reference (rigid J alpha = 240) */
  g_test_message ("mean axes: root torque %.2f N m at 5 s", torque5);
  g_assert_cmpfloat (fabs (torque5 - 242.5), <, 0.1);
  g_assert_cmpfloat (fabs (at10[1] - -0.5742), <, 1e-3);
  g_assert_cmpfloat (late[1], <, 0.02);
}

/* The attached frame softens without bound once omega passes 3.80 rad/s:
 * past 1 m by 10 s (-72 m in the reference), then a solver stop. */
static void
test_spin_up_attached (void)
{
  g_autoptr (FxModel) m = load_spin_up (FX_LINK_FRAME_ATTACHED);
  g_autoptr (FxSystem) sys = test_system (m);
  double at5[2], at10[2], late[2];
  g_autofree char *message = NULL;
  gboolean ok = spin (sys, 20.0, at5, at10, late, &message);
  g_test_message ("attached: %.4f m at 5 s, %.4g m at 10 s; %s", at5[1], at10[1],
                  ok ? "ran to 20 s" : message);
  g_assert_cmpfloat (fabs (at5[1] - -0.5218), <, 1e-3);
  g_test_message ("attached: root torque %.2f N m at 5 s", torque5);
  g_assert_cmpfloat (fabs (torque5 - 241.1), <, 0.1);
  g_assert_cmpfloat (at10[1], <, -1.0);
  g_assert_false (ok);
  g_assert_nonnull (strstr (message, "t = "));
}

/* ------------------------------------------------- small deformation */

/* The tip-mass pendulum of 12.7 (b), released horizontally: the tip's path
 * (1200 steps of 1 ms) of a floating-frame link (N = 8) or a GE link. */
static double *
pendulum_path (double EI, gboolean floating, guint N)
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->gravity[1] = -9.81;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 1.0, 0.0)->mass = 0.25;
  FxLink *l = test_add_link (m, "L", "A", "B", N, 1.0, 0.0, 1e8, 1e8, EI);
  if (floating)
    l->kind = FX_LINK_FLOATING_FRAME;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  double *xy = g_new (double, 2 * 1200);
  FxStepReport rep;
  for (guint k = 0; k < 1200; k++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_true (fx_integrator_step (it, 1e-3, &rep, &error));
      fx_system_point (sys, 0, 1.0, &xy[2 * k], &xy[2 * k + 1]);
    }
  return xy;
}

/* FFRF - GE (Richardson of N = 32, 64: the DG0 velocity's missing rotary
 * inertia goes as 1/N^2): 4.3e-3, 1.7e-4, 5.1e-6 m for EI = 10, 100, 1000,
 * falling like EI^-1.5 (tension stiffening, left out, shifts the phase). */
static void
test_small_deformation (void)
{
  const double EI[3] = { 10, 100, 1000 }, want[3] = { 4.3e-3, 1.7e-4, 5.1e-6 };
  for (guint k = 0; k < 3; k++)
    {
      g_autofree double *f = pendulum_path (EI[k], TRUE, 8);
      g_autofree double *g32 = pendulum_path (EI[k], FALSE, 32);
      g_autofree double *g64 = pendulum_path (EI[k], FALSE, 64);
      double d = 0.0;
      for (guint i = 0; i < 1200; i++)
        {
          double gx = (4 * g64[2 * i] - g32[2 * i]) / 3, gy = (4 * g64[2 * i + 1] - g32[2 * i + 1]) / 3;
          d = MAX (d, hypot (f[2 * i] - gx, f[2 * i + 1] - gy));
        }
      g_test_message ("EI = %g: largest FFRF - GE distance %.3g m (reference %.2g)", EI[k], d, want[k]);
      g_assert_cmpfloat (fabs (d - want[k]), <, 0.15 * want[k]);
    }
}

/* ------------------------------------------------------------- modes */

/* A beam of length L along x, N = 20, clamped at `from` or free. */
static FxModes *
beam_modes (gboolean clamped, FxLinkFrame frame, double L, double rhoA, double rhoI, double EI)
{
  g_autoptr (FxModel) m = fx_model_new ();
  g_autoptr (GError) error = NULL;
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = clamped ? FX_SUPPORT_CLAMP : FX_SUPPORT_NONE;
  fx_model_add_joint (m, "B", L, 0.0);
  ff_link (m, "beam", "A", "B", 20, rhoA, rhoI, 1e3 * EI / (L * L), EI)->frame = frame;
  FxModes *modes = fx_modes_compute (m, 0, &error);
  g_assert_no_error (error);
  return modes;
}

static double
omega_of (const FxModes *modes, guint k)
{
  for (guint i = 0; i < modes->n_modes; i++)
    if (modes->modes[i].kind == FX_MODE_VIBRATION && modes->modes[i].index == k)
      return 2.0 * G_PI * modes->modes[i].frequency;
  g_assert_not_reached ();
}

static void
check_omega (const char *what, double got, double want)
{
  g_test_message ("%s: %.7g rad/s (reference %.7g, %.2g relative)", what, got, want,
                  (got - want) / want);
  g_assert_cmpfloat (fabs (got - want), <, 1e-4 * want);
}

/* 12.7 (b): the spin-up beam and a 1 cm steel bar, FFRF N = 20; a free
 * link has exactly 3 motions, a clamped one none. */
static void
test_modes_reference (void)
{
  const double steel_rhoA = 7850 * 1e-4, steel_rhoI = 7850 * 1e-8 / 12, steel_EI = 2.1e11 * 1e-8 / 12;
  for (int f = 0; f < 2; f++)
    {
      FxLinkFrame frame = f ? FX_LINK_FRAME_ATTACHED : FX_LINK_FRAME_MEAN_AXIS;
      g_autoptr (FxModes) c = beam_modes (TRUE, frame, 10.0, 1.2, 6e-4, 1.4e4);
      g_assert_cmpuint (c->mobility, ==, 0);
      check_omega ("spin-up beam, cantilever 1", omega_of (c, 1), 3.797687);
      check_omega ("spin-up beam, cantilever 2", omega_of (c, 2), 23.79809);
      g_autoptr (FxModes) s = beam_modes (TRUE, frame, 1.0, steel_rhoA, steel_rhoI, steel_EI);
      check_omega ("steel bar, cantilever 1", omega_of (s, 1), 52.49604);
    }
  g_autoptr (FxModes) ff = beam_modes (FALSE, FX_LINK_FRAME_MEAN_AXIS, 10.0, 1.2, 6e-4, 1.4e4);
  g_assert_cmpuint (ff->mobility, ==, 3);
  check_omega ("spin-up beam, free-free 1", omega_of (ff, 1), 24.16297);
  g_autoptr (FxModes) sf = beam_modes (FALSE, FX_LINK_FRAME_MEAN_AXIS, 1.0, steel_rhoA, steel_rhoI, steel_EI);
  g_assert_cmpuint (sf->mobility, ==, 3);
  check_omega ("steel bar, free-free 1", omega_of (sf, 1), 333.9838);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/floating/jacobian/free", test_jacobian_free);
  g_test_add_func ("/floating/jacobian/attached", test_jacobian_attached);
  g_test_add_func ("/floating/jacobian/welded", test_jacobian_welded);
  g_test_add_func ("/floating/energy/tumbling", test_energy_tumbling);
  g_test_add_func ("/floating/energy/pendulum", test_energy_pendulum);
  g_test_add_func ("/floating/energy/held", test_energy_held);
  g_test_add_func ("/floating/energy/welded", test_energy_welded);
  g_test_add_func ("/floating/energy/inputs", test_energy_inputs);
  g_test_add_func ("/floating/attached-needs-held-end", test_attached_needs_held_end);
  g_test_add_func ("/floating/drag/joint-shared", test_drag_joint_shared);
  g_test_add_func ("/floating/drag/joint-floating-only", test_drag_joint_floating_only);
  g_test_add_func ("/floating/point/load", test_point_load);
  g_test_add_func ("/floating/point/load-at-end", test_point_load_at_end);
  g_test_add_func ("/floating/point/drag", test_drag_link);
  g_test_add_func ("/floating/point/hand", test_drag_hand);
  g_test_add_func ("/floating/jacobian/points", test_jacobian_points);
  g_test_add_func ("/floating/probe/hanging", test_probe_hanging);
  g_test_add_func ("/floating/ends", test_ends_override);
  g_test_add_func ("/floating/probe/motion", test_probe_motion);
  g_test_add_func ("/floating/probe/cantilever", test_probe_cantilever);
  g_test_add_func ("/floating/modes", test_modes_reference);
  g_test_add_func ("/floating/small-deformation", test_small_deformation);
  g_test_add_func ("/floating/spin-up/mean-axis", test_spin_up_mean_axis);
  g_test_add_func ("/floating/spin-up/attached", test_spin_up_attached);
  return g_test_run ();
}
