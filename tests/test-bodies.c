/* test-bodies.c: rigid bodies with several attachment points (docs/theory.md
 * section 7), an inertia junction spread over its attachments: a compound
 * pendulum against its analytic period, a rigid plate as the coupler of a
 * flexible four-bar in the energy books, its Jacobian, and the file format. */
#include "test-models.h"
#include "test-jacobian-check.h"
#include "fx-system-private.h"
#include "fx-causality.h"

#include <string.h>

typedef struct {
  double E_scale, worst_balance, worst_drift;
} Books;

static Books
run (FxSystem *sys, double dt, double t_end, void (*each) (FxSystem *, gpointer), gpointer data)
{
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  Books b = { 0, 0, 0 };

  fx_integrator_report (it, &rep);
  double H0 = rep.H;
  b.E_scale = MAX (fabs (rep.H), MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))));
  while (fx_system_time (sys) < t_end - 1e-9)
    {
      g_autoptr (GError) error = NULL;
      if (!fx_integrator_step (it, dt, &rep, &error))
        g_error ("step from t = %g failed: %s", fx_system_time (sys), error->message);
      b.E_scale = MAX (b.E_scale, MAX (fabs (rep.H), MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity)))));
      b.worst_balance = MAX (b.worst_balance, fabs (rep.balance));
      b.worst_drift = MAX (b.worst_drift, fabs (rep.H - H0));
      if (each)
        each (sys, data);
    }
  return b;
}

/* A plate hanging from a ground pin O through a short, stiff, massless
 * link welded to it at A; its centre of mass at distance d from O. The
 * link is clamped-clamped (velocity in at both ends, from the ground and the
 * body), so O carries a small rotary inertia J_O to take its moment (a
 * rigid link between a support and a body cannot be split to fit a free
 * pin: both halves would be velocity-causal). For small swings
 * T = 2 pi sqrt ((I + m d^2 + J_O) / (m g d)). Q is a second, unused
 * attachment. */
static const double J_O = 1e-3;

static FxModel *
compound_pendulum (double d, double theta0, double mass, double inertia)
{
  FxModel *m = fx_model_new ();
  FxJoint *o = fx_model_add_joint (m, "O", 0, 0);
  o->support = FX_SUPPORT_PIN;
  o->inertia = J_O;
  fx_model_add_joint (m, "A", 0.05 * sin (theta0), -0.05 * cos (theta0))->kind = FX_JOINT_WELD;
  fx_model_add_joint (m, "Q", 0.4, 0.1);
  test_add_link (m, "hanger", "O", "A", 2, 0.0, 0.0, 1e12, 1e12, 1e12);
  FxBody *b = fx_model_add_body (m, "plate", (const char *const[]) { "A", "Q", NULL }, mass, inertia);
  b->has_center = TRUE;
  b->center[0] = d * sin (theta0);
  b->center[1] = -d * cos (theta0);
  return m;
}

typedef struct {
  double x_prev, t_prev;
  double up[16];
  guint n_up;
} Crossings;

static void
count_crossings (FxSystem *sys, gpointer data)
{
  Crossings *c = data;
  double x = g_array_index (sys->bodies, FxBodySys, 0).c[0], t = fx_system_time (sys);
  if (c->x_prev < 0 && x >= 0 && c->n_up < G_N_ELEMENTS (c->up))
    c->up[c->n_up++] = c->t_prev + (t - c->t_prev) * (0 - c->x_prev) / (x - c->x_prev);
  c->x_prev = x;
  c->t_prev = t;
}

static void
test_compound_pendulum (void)
{
  const double d = 0.3, theta0 = 0.02, mass = 2.0, inertia = 0.05, g = 9.81, dt = 0.002;
  g_autoptr (FxModel) m = compound_pendulum (d, theta0, mass, inertia);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  Crossings c = { g_array_index (sys->bodies, FxBodySys, 0).c[0], 0, { 0 }, 0 };
  double T = 2 * G_PI * sqrt ((inertia + mass * d * d + J_O) / (mass * g * d));
  double T_amp = T * (1 + theta0 * theta0 / 16);                  /* finite amplitude */
  double w = 2 * G_PI / T, T_mid = T_amp * (1 + (w * dt) * (w * dt) / 12);  /* midpoint lag */
  Books b = run (sys, dt, 3.2 * T, count_crossings, &c);
  g_assert_cmpuint (c.n_up, >=, 3);
  double period = (c.up[c.n_up - 1] - c.up[0]) / (c.n_up - 1);
  g_test_message ("compound pendulum: period %.6f s, analytic %.6f s (with amplitude and "
                  "midpoint corrections %.6f s), error %.2e; drift %.2e E_scale, balance %.2e",
                  period, T, T_mid, period / T_mid - 1, b.worst_drift / b.E_scale,
                  b.worst_balance / b.E_scale);
  g_assert_cmpfloat (fabs (period / T_mid - 1), <, 1e-3);
  g_assert_cmpfloat (b.worst_drift, <, 1e-10 * b.E_scale);
}

/* A four-bar whose coupler is a rigid triangular plate A-B-C (a drawn
 * mechanism with three attachment points, one of them carrying a flexible
 * tail link), released under gravity. */
static FxModel *
plate_four_bar (void)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "A", 0, 0.5);
  fx_model_add_joint (m, "B", 1.0, 0.6);
  fx_model_add_joint (m, "C", 0.5, 1.0);
  fx_model_add_joint (m, "D", 1.0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "T", 0.9, 1.4)->mass = 0.1;  /* a pinned-free tail needs a tip inertia */
  test_add_link (m, "crank", "O", "A", 6, 0.5, 1e-4, 2e6, 8e5, 60);
  test_add_link (m, "rocker", "D", "B", 6, 0.5, 1e-4, 2e6, 8e5, 60);
  test_add_link (m, "tail", "C", "T", 6, 0.2, 1e-5, 1e6, 4e5, 8);
  FxBody *plate = fx_model_add_body (m, "plate", (const char *const[]) { "A", "B", "C", NULL }, 1.5, 0.04);
  (void) plate;
  return m;
}

static void
test_plate_four_bar_energy (void)
{
  g_autoptr (FxModel) m = plate_four_bar ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_system_n_links (sys), ==, 3);

  /* the plate keeps its shape: attachment distances stay put */
  double ab0 = 0, ab = 0;
  {
    double xa, ya, xb, yb, th, mo;
    fx_system_node (sys, 0, 6, &xa, &ya, &th, &mo);
    fx_system_node (sys, 1, 6, &xb, &yb, &th, &mo);
    ab0 = hypot (xb - xa, yb - ya);
  }
  Books b = run (sys, 0.005, 1.5, NULL, NULL);
  double xa, ya, xb, yb, xc, yc, th, mo;
  fx_system_node (sys, 0, 6, &xa, &ya, &th, &mo);
  fx_system_node (sys, 1, 6, &xb, &yb, &th, &mo);
  fx_system_node (sys, 2, 0, &xc, &yc, &th, &mo);
  ab = hypot (xb - xa, yb - ya);
  g_test_message ("plate four-bar: drift %.2e E_scale (E_scale %.4g J), max balance %.2e J, "
                  "|AB| %.9f -> %.9f m, joint gap %.2e m, A now (%.3f, %.3f)",
                  b.worst_drift / b.E_scale, b.E_scale, b.worst_balance, ab0, ab,
                  fx_system_joint_gap (sys), xa, ya);
  g_assert_cmpfloat (b.worst_drift, <, 1e-10 * b.E_scale);
  g_assert_cmpfloat (fabs (ab - ab0), <, 1e-3 * ab0);
  g_assert_cmpfloat (hypot (xa, ya - 0.5), >, 1e-2);  /* it did move */
}

static void
check_jacobian (FxModel *m)
{
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GRand) rng = g_rand_new_with_seed (11);
  g_autofree double *x = g_new (double, sys->n);
  double *xn = fx_system_state (sys);
  for (guint i = 0; i < sys->n; i++)
    {
      xn[i] = g_rand_double_range (rng, -1, 1);
      x[i] = xn[i] + g_rand_double_range (rng, -0.3, 0.3);
    }
  JacobianCheck c = test_jacobian_check (sys, x, 0.05);
  g_test_message ("max |J - J_fd| = %.3g (max |J| = %.3g)", c.worst, c.jmax);
  g_assert_cmpfloat (c.worst, <, 1e-7 * MAX (1.0, c.jmax));
  fx_model_free (m);
}

static void
test_jacobians (void)
{
  FxModel *p = compound_pendulum (0.3, 0.4, 2.0, 0.05);
  fx_model_link (p, 0)->section.rhoA = 0.3;  /* moderate numbers for differences */
  fx_model_link (p, 0)->section.EA = fx_model_link (p, 0)->section.GA = 50;
  fx_model_link (p, 0)->section.EI = 5;
  check_jacobian (p);
  FxModel *q = plate_four_bar ();
  FxLoad *ld = fx_model_add_joint_load (q, "B");
  ld->force[0] = 0.7;
  ld->force[1] = -0.4;
  check_jacobian (q);
}

static void
test_body_file_format (void)
{
  g_autoptr (FxModel) m = plate_four_bar ();
  FxBody *b = fx_model_body (m, 0);
  b->has_center = TRUE;
  b->center[0] = 0.45;
  b->center[1] = 0.7;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = fx_model_to_data (m, NULL);
  g_autoptr (FxModel) back = fx_model_load_data (text, -1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_model_n_bodies (back), ==, 1);
  FxBody *bb = fx_model_body (back, 0);
  g_assert_cmpstr (bb->id, ==, "plate");
  g_assert_cmpuint (bb->n_joints, ==, 3);
  g_assert_cmpstr (bb->joints[2], ==, "C");
  g_assert_cmpfloat (bb->mass, ==, 1.5);
  g_assert_cmpfloat (bb->inertia, ==, 0.04);
  g_assert_true (bb->has_center);
  g_assert_cmpfloat (bb->center[1], ==, 0.7);

  /* broken bodies: each gives a message naming the problem */
  const char *base = "{\"format\":\"flexion-model\",\"version\":1,"
                     "\"joints\":[{\"id\":\"A\",\"at\":[0,0]},{\"id\":\"B\",\"at\":[1,0]}],"
                     "\"links\":[{\"id\":\"l\",\"from\":\"A\",\"to\":\"B\",\"elements\":2,"
                     "\"section\":{\"rhoA\":1,\"rhoI\":1,\"EA\":1,\"GA\":1,\"EI\":1}}],";
  struct { const char *bodies, *expect; } cases[] = {
    { "\"bodies\":[{\"id\":\"p\",\"joints\":[\"A\",\"Z\"],\"mass\":1}]}", "no joint with id \"Z\"" },
    { "\"bodies\":[{\"id\":\"p\",\"joints\":[\"A\",\"B\"],\"mass\":0}]}", "bodies[0].mass" },
    { "\"bodies\":[{\"id\":\"p\",\"joints\":[\"A\",\"A\"],\"mass\":1}]}", "listed twice" },
    { "\"bodies\":[{\"id\":\"p\",\"joints\":[],\"mass\":1}]}", "at least one attachment" },
    { "\"bodies\":[{\"id\":\"p\",\"joints\":[\"A\",\"B\"],\"mass\":1,\"center\":[1,0]}]}", "is at attachment joint \"B\"" },
    { "\"bodies\":[{\"id\":\"p\",\"joints\":\"A\",\"mass\":1}]}", "expected an array of joint ids" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *doc = g_strconcat (base, cases[i].bodies, NULL);
      g_autoptr (GError) e = NULL;
      g_autoptr (FxModel) bad = fx_model_load_data (doc, -1, NULL, &e);
      g_assert_null (bad);
      g_assert_nonnull (e);
      g_test_message ("%s", e->message);
      g_assert_nonnull (strstr (e->message, cases[i].expect));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bodies/compound-pendulum", test_compound_pendulum);
  g_test_add_func ("/bodies/plate-four-bar/energy", test_plate_four_bar_energy);
  g_test_add_func ("/bodies/jacobians", test_jacobians);
  g_test_add_func ("/bodies/file-format", test_body_file_format);
  return g_test_run ();
}
