/* test-statics.c: static equilibrium, "Settle" (physics.md §14), against
 * exact and textbook values: the cantilever elastica under a tip force and
 * a tip moment, the simply supported beam, a pin-jointed Warren truss
 * against the method of joints, a pendulum held by a torque (and refused
 * beyond what gravity can hold), a hanging chain, and Play after a settle
 * staying at rest. Each also with rigid links where that makes sense. */
#include "test-models.h"
#include "fx-statics.h"
#include "fx-measure.h"
#include "fx-runner.h"

#include <gsl/gsl_linalg.h>

#define G 9.81

static void
settle_ok (FxSystem *sys, double t, FxStaticsReport *rep)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = fx_statics_settle (sys, t, rep, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_test_message ("settled: %u increments, %u iterations (%u pseudo-steps), balance %.2g, "
                  "U %.6g J, 1/2 F.u %.6g J", rep->increments, rep->iterations,
                  rep->pseudo_steps, rep->balance, rep->strain_energy, rep->clapeyron_work);
}

/* --------------------------------------------------------- elastica */

/* The inextensible elastica under a tip force (0, -P), clamped at s = 0
 * along +x: theta'' = (P/EI) cos theta, theta(0) = 0, theta'(L) = 0, by
 * shooting on theta'(0) with RK4 (an independent reference). */
static void
elastica_tip (double P, double EI, double L, double tip[2])
{
  double lo = -10.0, hi = 0.0, k = P / EI;
  const guint n = 20000;
  for (guint it = 0; it < 80; it++)
    {
      double c = 0.5 * (lo + hi), y[4] = { 0, c, 0, 0 }, h = L / n;
      for (guint i = 0; i < n; i++)
        {
          double kk[4][4], tmp[4];
          for (guint s = 0; s < 4; s++)
            {
              const double *src = y;
              if (s > 0)
                {
                  double f = s == 3 ? 1.0 : 0.5;
                  for (guint q = 0; q < 4; q++)
                    tmp[q] = y[q] + f * h * kk[s - 1][q];
                  src = tmp;
                }
              kk[s][0] = src[1];
              kk[s][1] = k * cos (src[0]);
              kk[s][2] = cos (src[0]);
              kk[s][3] = sin (src[0]);
            }
          for (guint q = 0; q < 4; q++)
            y[q] += h / 6 * (kk[0][q] + 2 * kk[1][q] + 2 * kk[2][q] + kk[3][q]);
        }
      tip[0] = y[2];
      tip[1] = y[3];
      if (y[1] > 0)
        hi = c;  /* too little curvature at the root */
      else
        lo = c;
    }
}

static FxModel *
cantilever (gboolean rigid_unused)
{
  FxModel *m = fx_model_new ();
  (void) rigid_unused;
  m->gravity[0] = m->gravity[1] = 0;
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", 1, 0);
  test_add_link (m, "beam", "A", "B", 32, 1.0, 0.01, 1e5, 1e5, 1.0);
  return m;
}

static void
test_elastica_force (void)
{
  g_autoptr (FxModel) m = cantilever (FALSE);
  const double P = 2.0;
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->force[1] = -P;
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  double exact[2], x, y;

  settle_ok (sys, 0.0, &rep);
  elastica_tip (P, 1.0, 1.0, exact);
  fx_system_point (sys, 0, 1.0, &x, &y);
  g_test_message ("elastica P L^2/EI = 2: tip (%.6f, %.6f), exact (%.6f, %.6f), error %.2g L",
                  x, y, exact[0], exact[1], hypot (x - exact[0], y - exact[1]));
  g_assert_cmpfloat (hypot (x - exact[0], y - exact[1]), <, 1e-3);
  /* the root moment is P times the tip's lever arm */
  g_assert_cmpfloat (fabs (rep.links[0].M[0] + P * x), <, 1e-3 * P);
  fx_statics_report_clear (&rep);
}

static void
test_elastica_moment (void)
{
  g_autoptr (FxModel) m = cantilever (FALSE);
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->moment = G_PI / 2;
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  double x, y;

  settle_ok (sys, 0.0, &rep);
  fx_system_point (sys, 0, 1.0, &x, &y);
  g_test_message ("tip moment: tip (%.6f, %.6f), arc (%.6f, %.6f)", x, y, 2 / G_PI, 2 / G_PI);
  g_assert_cmpfloat (hypot (x - 2 / G_PI, y - 2 / G_PI), <, 1e-3);
  g_assert_cmpfloat (fabs (rep.extreme[2] - G_PI / 2), <, 1e-9);
  fx_statics_report_clear (&rep);
}

/* ------------------------------------------------ simply supported */

static FxModel *
simply_supported (double F, gboolean rigid)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0;
  fx_model_add_joint (m, "pin", 0, 0)->support = FX_SUPPORT_PIN;
  FxJoint *r = fx_model_add_joint (m, "roller", 2, 0);
  r->support = FX_SUPPORT_ROLLER;
  r->slider_direction[0] = 1;
  FxLink *l = test_add_link (m, "beam", "pin", "roller", 32, 10.0, 0.01, 1e8, 1e6, 1e4);
  l->rigid = rigid;
  FxLoad *ld = fx_model_add_link_load (m, "beam", 0.5);
  ld->force[1] = -F;
  return m;
}

static void
check_simply_supported (gboolean rigid)
{
  const double F = 10.0, L = 2.0, EI = 1e4, kGA = 1e6;
  g_autoptr (FxModel) m = simply_supported (F, rigid);
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  double r[2 * FX_REACTION_N_VALUES], x, y;

  settle_ok (sys, 0.0, &rep);
  fx_system_reactions (sys, r);
  /* what run reads from the state agrees with the solve's multipliers */
  for (guint k = 0; k < 2 * FX_REACTION_N_VALUES; k++)
    g_assert_cmpfloat (fabs (r[k] - rep.reactions[k]), <, 1e-9 * F);
  memcpy (r, rep.reactions, sizeof r);
  fx_system_point (sys, 0, 0.5, &x, &y);
  const FxStaticsLink *bl = &rep.links[0];
  double M_mid = bl->M[bl->n / 2];
  double w = F * L * L * L / (48 * EI) + F * L / (4 * kGA);
  g_test_message ("%s: reactions %.12g %.12g (F/2 = %g), horizontal %.3g; deflection %.6g vs "
                  "%.6g; mid moment %.6g vs %.6g", rigid ? "rigid" : "elastic",
                  r[FX_REACTION_FY], r[FX_REACTION_N_VALUES + FX_REACTION_FY], F / 2,
                  r[FX_REACTION_FX], -y, w, M_mid, F * L / 4);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FY] - F / 2), <, 1e-9 * F / 2);
  g_assert_cmpfloat (fabs (r[FX_REACTION_N_VALUES + FX_REACTION_FY] - F / 2), <, 1e-9 * F / 2);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FX]), <, 1e-9 * F);
  if (rigid)
    g_assert_cmpfloat (fabs (y), <, 1e-12);
  else
    {
      g_assert_cmpfloat (fabs (-y - w), <, 5e-3 * w);
      /* Clapeyron: a linear problem loaded from rest stores half the work */
      g_assert_cmpfloat (fabs (rep.strain_energy - rep.clapeyron_work), <, 1e-3 * rep.strain_energy);
    }
  g_assert_cmpfloat (fabs (M_mid - F * L / 4), <, 1e-2 * F * L / 4);
  fx_statics_report_clear (&rep);
}

static void
test_simply_supported (void)
{
  check_simply_supported (FALSE);
}

static void
test_simply_supported_rigid (void)
{
  check_simply_supported (TRUE);
}

/* ------------------------------------------------------ Warren truss */

static const double truss_joint[7][2] = {
  { 0, 0 }, { 2, 0 }, { 4, 0 }, { 6, 0 }, { 1, 1.7320508075688772 },
  { 3, 1.7320508075688772 }, { 5, 1.7320508075688772 },
};
static const guint truss_member[11][2] = {
  { 0, 1 }, { 1, 2 }, { 2, 3 }, { 4, 5 }, { 5, 6 },
  { 0, 4 }, { 4, 1 }, { 1, 5 }, { 5, 2 }, { 2, 6 }, { 6, 3 },
};
static const double truss_load[7][2] = {
  { 0, 0 }, { 0, -1000 }, { 1500, -2000 }, { 0, 0 }, { 0, 0 }, { 0, -500 }, { 0, 0 },
};

static FxModel *
warren_truss (gboolean rigid)
{
  FxModel *m = fx_model_new ();
  char id[8];
  m->gravity[0] = m->gravity[1] = 0;
  for (guint j = 0; j < 7; j++)
    {
      g_snprintf (id, sizeof id, "J%u", j);
      FxJoint *jt = fx_model_add_joint (m, id, truss_joint[j][0], truss_joint[j][1]);
      jt->kind = FX_JOINT_PIN;
      if (truss_load[j][0] != 0 || truss_load[j][1] != 0)
        {
          FxLoad *ld = fx_model_add_joint_load (m, id);
          ld->force[0] = truss_load[j][0];
          ld->force[1] = truss_load[j][1];
        }
    }
  fx_model_joint (m, 0)->support = FX_SUPPORT_PIN;
  fx_model_joint (m, 3)->support = FX_SUPPORT_ROLLER;
  fx_model_joint (m, 3)->slider_direction[0] = 1;
  for (guint k = 0; k < 11; k++)
    {
      char a[8], b[8], lid[8];
      g_snprintf (a, sizeof a, "J%u", truss_member[k][0]);
      g_snprintf (b, sizeof b, "J%u", truss_member[k][1]);
      g_snprintf (lid, sizeof lid, "M%u", k);
      /* a steel tube, 40 mm, 3 mm wall */
      test_add_link (m, lid, a, b, 4, 2.7, 1e-4, 7.3e7, 2.8e7, 1.3e4)->rigid = rigid;
    }
  return m;
}

/* The method of joints: member forces (tension > 0) and the reactions
 * (pin x, y; roller y) from the 14 joint balances. */
static void
method_of_joints (double N[11], double reaction[3])
{
  gsl_matrix *A = gsl_matrix_calloc (14, 14);
  gsl_vector *b = gsl_vector_alloc (14), *x = gsl_vector_alloc (14);
  gsl_permutation *p = gsl_permutation_alloc (14);
  int sign;

  for (guint k = 0; k < 11; k++)
    {
      guint a = truss_member[k][0], c = truss_member[k][1];
      double d[2] = { truss_joint[c][0] - truss_joint[a][0], truss_joint[c][1] - truss_joint[a][1] };
      double len = hypot (d[0], d[1]);
      for (guint q = 0; q < 2; q++)
        {
          /* tension pulls joint a towards c and c towards a */
          gsl_matrix_set (A, 2 * a + q, k, d[q] / len);
          gsl_matrix_set (A, 2 * c + q, k, -d[q] / len);
        }
    }
  gsl_matrix_set (A, 0, 11, 1);
  gsl_matrix_set (A, 1, 12, 1);
  gsl_matrix_set (A, 2 * 3 + 1, 13, 1);
  for (guint j = 0; j < 7; j++)
    for (guint q = 0; q < 2; q++)
      gsl_vector_set (b, 2 * j + q, -truss_load[j][q]);
  gsl_linalg_LU_decomp (A, p, &sign);
  gsl_linalg_LU_solve (A, p, b, x);
  for (guint k = 0; k < 11; k++)
    N[k] = gsl_vector_get (x, k);
  for (guint k = 0; k < 3; k++)
    reaction[k] = gsl_vector_get (x, 11 + k);
  gsl_matrix_free (A);
  gsl_vector_free (b);
  gsl_vector_free (x);
  gsl_permutation_free (p);
}

static void
check_truss (gboolean rigid)
{
  g_autoptr (FxModel) m = warren_truss (rigid);
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  double N[11], reaction[3], r[7 * FX_REACTION_N_VALUES], worst = 0, scale = 0;

  method_of_joints (N, reaction);
  settle_ok (sys, 0.0, &rep);
  for (guint k = 0; k < 11; k++)
    scale = MAX (scale, fabs (N[k]));
  for (guint k = 0; k < 11; k++)
    {
      double v[FX_PROBE_N_VALUES];
      fx_system_probe_values (sys, k, 0.5, v);
      worst = MAX (worst, fabs (v[FX_PROBE_N] - N[k]) / scale);
      if (k < 3)
        g_test_message ("member %u: N %.6f, method of joints %.6f", k, v[FX_PROBE_N], N[k]);
    }
  fx_system_reactions (sys, r);
  for (guint k = 0; k < 7 * FX_REACTION_N_VALUES; k++)
    g_assert_cmpfloat (fabs (r[k] - rep.reactions[k]), <, 1e-6 * scale);
  memcpy (r, rep.reactions, sizeof r);
  double rx = r[FX_REACTION_FX], ry = r[FX_REACTION_FY], rd = r[3 * FX_REACTION_N_VALUES + FX_REACTION_FY];
  double total[2] = { rx, ry + rd };
  for (guint j = 0; j < 7; j++)
    for (guint q = 0; q < 2; q++)
      total[q] += truss_load[j][q];
  g_test_message ("%s truss: worst member force error %.3g of the largest; reactions (%.9g, %.9g), "
                  "%.9g vs (%.9g, %.9g), %.9g; force balance (%.3g, %.3g)",
                  rigid ? "rigid" : "elastic", worst, rx, ry, rd, reaction[0], reaction[1],
                  reaction[2], total[0], total[1]);
  g_assert_cmpfloat (worst, <, rigid ? 1e-9 : 1e-2);
  /* the reactions balance the loads exactly; an elastic truss's lever arms
   * move with its deflection (strains ~1e-4), a rigid one's do not */
  g_assert_cmpfloat (hypot (total[0], total[1]), <, 1e-9 * scale);
  double tol = rigid ? 1e-9 : 1e-3;
  g_assert_cmpfloat (fabs (rx - reaction[0]), <, tol * scale);
  g_assert_cmpfloat (fabs (ry - reaction[1]), <, tol * scale);
  g_assert_cmpfloat (fabs (rd - reaction[2]), <, tol * scale);
  fx_statics_report_clear (&rep);
}

static void
test_truss (void)
{
  check_truss (FALSE);
}

static void
test_truss_rigid (void)
{
  check_truss (TRUE);
}

/* ------------------------------------------- pendulum held by torque */

static FxModel *
torque_pendulum (double M, gboolean rigid)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 0, -1.0)->mass = 2.0;
  test_add_link (m, "arm", "O", "B", 4, 0.0, 0.0, 1e9, 1e9, 1e7)->rigid = rigid;
  fx_model_add_motor (m, "motor", "O", "arm", NULL, FX_MOTOR_TORQUE, M);
  return m;
}

static void
check_torque_pendulum (gboolean rigid)
{
  const double mass = 2.0, l = 1.0, M = 0.6 * mass * G * l;
  g_autoptr (FxModel) m = torque_pendulum (M, rigid);
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  double x, y;

  settle_ok (sys, 0.0, &rep);
  fx_system_point (sys, 0, 1.0, &x, &y);
  double phi = atan2 (x, -y);
  g_test_message ("torque pendulum: sin phi %.9f, M/(m g l) %.9f", sin (phi), M / (mass * G * l));
  g_assert_cmpfloat (fabs (sin (phi) - M / (mass * G * l)), <, 1e-6);
  fx_statics_report_clear (&rep);
}

static void
test_torque_pendulum (void)
{
  check_torque_pendulum (FALSE);
}

static void
test_torque_pendulum_rigid (void)
{
  check_torque_pendulum (TRUE);
}

static void
test_torque_too_large (void)
{
  g_autoptr (FxModel) m = torque_pendulum (1.5 * 2.0 * G * 1.0, FALSE);
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GError) error = NULL;
  double x0, y0, x, y;

  fx_system_point (sys, 0, 1.0, &x0, &y0);
  g_assert_false (fx_statics_settle (sys, 0.0, NULL, &error));
  g_assert_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_EQUILIBRIUM);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "no static equilibrium"));
  /* the system is left as it was */
  fx_system_point (sys, 0, 1.0, &x, &y);
  g_assert_cmpfloat (hypot (x - x0, y - y0), ==, 0.0);
}

/* ------------------------------------------------------- the chain */

static void
test_hanging_chain (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 1, 0);
  fx_model_add_joint (m, "C", 2, 0);
  fx_model_add_joint (m, "D", 3, 0);
  const char *j[4] = { "A", "B", "C", "D" };
  for (guint k = 0; k < 3; k++)
    {
      char id[4] = { 'L', (char) ('1' + k), 0 };
      test_add_link (m, id, j[k], j[k + 1], 4, 1.0, 0.01, 1e8, 1e8, 1e5);
    }
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  double worst = 0;

  settle_ok (sys, 0.0, &rep);
  for (guint k = 0; k < 3; k++)
    for (guint q = 0; q <= 4; q++)
      {
        double x, y, s = (double) q / 4;
        fx_system_point (sys, k, s, &x, &y);
        worst = MAX (worst, hypot (x, y + k + s));
      }
  g_test_message ("chain: largest distance from hanging straight %.3g m", worst);
  g_assert_cmpfloat (worst, <, 1e-6);
  fx_statics_report_clear (&rep);
}

/* ------------------------------------------------ Play after settle */

static void
play_after_settle (guint degree)
{
  g_autoptr (FxModel) m = simply_supported (10.0, FALSE);
  m->dt = 0.01;
  for (guint l = 0; l < m->links->len; l++)
    fx_model_link (m, l)->degree = degree;
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;
  FxStepReport step;
  const guint N = fx_system_link_elements (sys, 0);
  double settled[N + 1][2], worst = 0, y_mid;

  settle_ok (sys, 0.0, &rep);
  for (guint i = 0; i <= N; i++)
    fx_system_node (sys, 0, i, &settled[i][0], &settled[i][1], NULL, NULL);
  y_mid = fabs (settled[N / 2][1]);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  while (fx_system_time (sys) < 1.0 - 1e-9)
    {
      g_assert_true (fx_integrator_step (it, m->dt, &step, NULL));
      for (guint i = 0; i <= N; i++)
        {
          double x, y;
          fx_system_node (sys, 0, i, &x, &y, NULL, NULL);
          worst = MAX (worst, hypot (x - settled[i][0], y - settled[i][1]));
        }
    }
  g_test_message ("play after settle, degree %u: largest motion %.3g m, %.3g of the deflection %.3g m",
                  degree, worst, worst / y_mid, y_mid);
  g_assert_cmpfloat (worst, <, 1e-6 * y_mid);
  fx_statics_report_clear (&rep);
}

static void
test_play_after_settle (void)
{
  play_after_settle (1);
}

/* Degree-k links settle on the static mesh of their drawn points, and the
 * written state is an equilibrium of their own dynamics too. */
static void
test_play_after_settle_degree (void)
{
  play_after_settle (2);
  play_after_settle (3);
}

/* ------------------------------------------------------- no load */

static void
test_no_load (void)
{
  g_autoptr (FxModel) m = simply_supported (10.0, FALSE);
  FxLoad *ld = fx_model_load (m, 0);
  ld->profile.type = FX_PROFILE_RAMP;
  ld->profile.t0 = 0;
  ld->profile.t1 = 1;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GError) error = NULL;

  g_assert_false (fx_statics_settle (sys, 0.0, NULL, &error));
  g_assert_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_LOAD);
  g_assert_nonnull (strstr (error->message, "settle at a later time"));
  /* at t = 0.5 half the load acts */
  FxStaticsReport rep;
  settle_ok (sys, 0.5, &rep);
  double r[2 * FX_REACTION_N_VALUES];
  fx_system_reactions (sys, r);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FY] - 2.5), <, 1e-9);
  g_assert_cmpfloat (fx_system_time (sys), ==, 0.5);
  fx_statics_report_clear (&rep);
}

/* A rigid link pinned at both ends between two fixed pins carries an
 * axial force that equilibrium cannot find: refused, naming the link. */
static void
test_over_constrained (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 2, 0)->support = FX_SUPPORT_PIN;
  test_add_link (m, "bar", "A", "B", 4, 1.0, 0.01, 1e8, 1e6, 1e4)->rigid = TRUE;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GError) error = NULL;

  g_assert_false (fx_statics_settle (sys, 0.0, NULL, &error));
  g_assert_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_OVER_CONSTRAINED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "\"bar\""));
}

/* Issue 30.4: structures of rigid links with mobility 0 run (at rest,
 * carrying their loads, the reactions exact) and settle alike; a rigid link
 * that is over-constrained is refused before a step, by name. */
static void
test_rigid_examples_run (void)
{
  g_autoptr (FxModel) m = test_load_example ("simply-supported.flexion");
  for (guint l = 0; l < m->links->len; l++)
    fx_model_link (m, l)->rigid = TRUE;
  m->t_end = 1.2;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GError) error = NULL;
  g_assert_true (fx_statics_check_rigid (sys, &error));
  g_assert_no_error (error);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  FxStepReport step;
  double x0, y0, x, y, r[2 * FX_REACTION_N_VALUES];
  fx_system_point (sys, 0, 0.5, &x0, &y0);
  while (fx_system_time (sys) < m->t_end - 1e-9)
    {
      g_assert_true (fx_integrator_step (it, m->dt, &step, &error));
      g_assert_no_error (error);
    }
  fx_system_point (sys, 0, 0.5, &x, &y);
  fx_system_reactions (sys, r);
  g_test_message ("rigid simply supported beam after %.2g s: moved %.3g m, reactions %.15g, %.15g",
                  fx_system_time (sys), hypot (x - x0, y - y0), r[FX_REACTION_FY],
                  r[FX_REACTION_N_VALUES + FX_REACTION_FY]);
  g_assert_cmpfloat (hypot (x - x0, y - y0), <, 1e-12);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FY] - 50.0), <, 1e-9 * 50.0);
  g_assert_cmpfloat (fabs (r[FX_REACTION_N_VALUES + FX_REACTION_FY] - 50.0), <, 1e-9 * 50.0);

  /* the all-rigid truss, loads held: at rest, the reactions of the joints */
  g_autoptr (FxModel) t = warren_truss (TRUE);
  t->dt = 1e-3;
  g_autoptr (FxSystem) ts = test_system (t);
  g_assert_true (fx_statics_check_rigid (ts, NULL));
  g_autoptr (FxIntegrator) ti = fx_integrator_new (ts, 1e-12, 20);
  for (guint k = 0; k < 50; k++)
    g_assert_true (fx_integrator_step (ti, t->dt, &step, NULL));
  double N[11], reaction[3], tr[7 * FX_REACTION_N_VALUES];
  method_of_joints (N, reaction);
  fx_system_reactions (ts, tr);
  g_test_message ("rigid truss after 50 steps: reactions %.12g %.12g vs %.12g %.12g", tr[1],
                  tr[3 * FX_REACTION_N_VALUES + 1], reaction[1], reaction[2]);
  g_assert_cmpfloat (fabs (tr[1] - reaction[1]), <, 1e-9 * reaction[1]);
  g_assert_cmpfloat (fabs (tr[3 * FX_REACTION_N_VALUES + 1] - reaction[2]), <, 1e-9 * reaction[2]);
}

static void
test_rigid_over_constrained_check (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 2, 0)->support = FX_SUPPORT_PIN;
  test_add_link (m, "bar", "A", "B", 4, 1.0, 0.01, 1e8, 1e6, 1e4)->rigid = TRUE;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (GError) error = NULL;

  g_assert_false (fx_statics_check_rigid (sys, &error));
  g_assert_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_OVER_CONSTRAINED);
  g_assert_nonnull (strstr (error->message, "links[0]: rigid link \"bar\""));
  /* the same bar flexible is fine: its force follows from its stretch */
  fx_model_link (m, 0)->rigid = FALSE;
  g_autoptr (FxSystem) elastic = test_system (m);
  g_assert_true (fx_statics_check_rigid (elastic, NULL));
}

/* The app's Settle: on the solver thread, the settled state as the next
 * frame (at t, at rest, reactions F/2), then Play on from it stays there;
 * a settle that cannot succeed leaves the run going and says why. */
static FxStepFrame *
wait_settled (FxRunner *r)
{
  FxStepFrame *last = NULL;
  for (guint i = 0; i < 20000 && fx_runner_settling (r); i++)
    g_usleep (500);
  g_assert_false (fx_runner_settling (r));
  FxStepFrame *f;
  while ((f = fx_runner_pop_frame (r)) != NULL)
    {
      if (last)
        fx_step_frame_unref (last);
      last = f;
    }
  return last;
}

/* The triangle a student draws (steel 20 x 10 mm, 4 elements of degree 2
 * per member, gravity on): a pin, a roller and 10 N at the apex. The
 * assignment puts regularising masses at the apex and in the roller's block
 * (physics.md §6.1); they are inertial terms, not loads (§14: "they carry no
 * load at rest"), so the reactions are the hand calculation's exactly. With
 * weight on them the roller carried its block's 0.42 N: 66.80 and 67.22 N
 * on a symmetric truss. */
static void
test_triangle_reactions (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  const double rhoA = 7850 * 2e-4, F = 10.0, g = 9.81;
  fx_model_add_joint (m, "J1", -1.5, -1)->support = FX_SUPPORT_PIN;
  FxJoint *roller = fx_model_add_joint (m, "J2", 1.5, -1);
  roller->support = FX_SUPPORT_ROLLER;
  roller->slider_direction[0] = 1;
  fx_model_add_joint (m, "J3", 0, 1);
  const char *ends[3][2] = { { "J1", "J2" }, { "J2", "J3" }, { "J3", "J1" } };
  for (guint k = 0; k < 3; k++)
    {
      char id[4];
      g_snprintf (id, sizeof id, "L%u", k + 1);
      FxLink *l = test_add_link (m, id, ends[k][0], ends[k][1], 4, rhoA,
                                 7850 * 2e-4 * (0.02 * 0.02 + 0.01 * 0.01) / 12, 2.1e11 * 2e-4,
                                 8.1e10 * 2e-4 * 5.0 / 6.0, 2.1e11 * 0.02 * 1e-6 / 12);
      l->degree = 2;
    }
  FxLoad *ld = fx_model_add_joint_load (m, "J3");
  ld->force[1] = -F;
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;

  settle_ok (sys, 0.0, &rep);
  double half = 0.5 * (F + rhoA * g * (3.0 + 2.0 * hypot (1.5, 2.0)));
  g_test_message ("reactions %.9g and %.9g N, hand calculation %.9g N each",
                  rep.reactions[FX_REACTION_FY], rep.reactions[FX_REACTION_N_VALUES + FX_REACTION_FY],
                  half);
  for (guint j = 0; j < 2; j++)
    g_assert_cmpfloat (fabs (rep.reactions[j * FX_REACTION_N_VALUES + FX_REACTION_FY] - half), <,
                       1e-9 * half);
  fx_statics_report_clear (&rep);
}

/* A settled pin-jointed truss carries no bending: its members' moments are
 * round-off (1e-21 N m), which the frame's colour range must not take for
 * bending (it drew every member in full colour, with a colour bar of
 * +-3e-21 N m). */
/* A runner on m (dt 0.01 s) settled at t = 0, and its settled frame. */
static FxRunner *
runner_settled (FxModel *m, FxStepFrame **settled)
{
  g_autoptr (GError) error = NULL;
  m->dt = 0.01;
  FxRunner *r = fx_runner_new (m, &error);
  g_assert_no_error (error);
  fx_runner_settle (r, 0.0);
  *settled = wait_settled (r);
  g_assert_nonnull (*settled);
  return r;
}

static void
test_truss_no_bending (void)
{
  g_autoptr (FxModel) m = warren_truss (FALSE);
  g_autoptr (FxStepFrame) settled = NULL;
  g_autoptr (FxRunner) r = runner_settled (m, &settled);
  double m_abs = 0.0, n_abs = 0.0;
  for (guint i = 0; i < settled->n_nodes; i++)
    {
      m_abs = MAX (m_abs, fabs (settled->moment[i]));
      n_abs = MAX (n_abs, fabs (settled->diagram[2 * FX_DIAGRAM_N_VALUES * i + FX_DIAGRAM_N]));
    }
  g_test_message ("settled truss: max |M| %.3g N m, max |N| %.6g N, colour range %.3g",
                  m_abs, n_abs, settled->moment_max_abs);
  g_assert_cmpfloat (n_abs, >, 1000.0);
  g_assert_cmpfloat (m_abs, <, 1e-12 * n_abs);
  g_assert_cmpfloat (settled->moment_max_abs, ==, 0.0);
}

static void
test_runner_settle (void)
{
  g_autoptr (FxModel) m = simply_supported (10.0, FALSE);
  fx_model_add_probe (m, "mid", "beam", 0.5);
  g_autoptr (FxStepFrame) settled = NULL;
  g_autoptr (FxRunner) r = runner_settled (m, &settled);
  g_assert_false (fx_runner_settle_failed (r, NULL));
  g_assert_cmpfloat (settled->t, ==, 0.0);
  g_assert_cmpfloat (fabs (settled->reaction[FX_REACTION_FY] - 5.0), <, 1e-9 * 5.0);
  guint mid = settled->node_offset[0] + 16;
  double w = -settled->y[mid];
  g_assert_cmpfloat (w, >, 1.6e-4);
  /* the probe at mid-span reads the diagram's F L/4 (physics.md §14), not
   * the mean of the two elements' moments there (46.6 of the 50 N m a
   * teacher expects on the app's plot, on a coarser beam) */
  double M_probe = settled->probe_values[FX_PROBE_M];
  g_test_message ("settled probe at mid-span: M = %.9g N m (F L/4 = 5)", M_probe);
  g_assert_cmpfloat (fabs (fabs (M_probe) - 5.0), <, 1e-6 * 5.0);
  /* the colour range is the beam's bending: its largest nodal moment (the
   * mean of the two elements' at mid-span) */
  double m_abs = 0.0;
  for (guint i = 0; i < settled->n_nodes; i++)
    m_abs = MAX (m_abs, fabs (settled->moment[i]));
  g_assert_cmpfloat (m_abs, >, 4.5);
  g_assert_cmpfloat (settled->moment_max_abs, ==, m_abs);

  /* play on for 0.2 s: it stays where it settled */
  fx_runner_set_horizon (r, 0.2);
  FxStepFrame *f = NULL, *last = NULL;
  for (guint i = 0; i < 20000 && (last == NULL || last->t < 0.2 - 1e-9); i++)
    {
      while ((f = fx_runner_pop_frame (r)) != NULL)
        {
          g_assert_cmpfloat (fabs (f->y[mid] - settled->y[mid]), <, 1e-6 * w);
          if (last)
            fx_step_frame_unref (last);
          last = f;
        }
      g_usleep (500);
    }
  g_assert_nonnull (last);
  g_assert_cmpfloat (last->t, >=, 0.2 - 1e-9);
  fx_step_frame_unref (last);

  /* no load at t = 0 of a ramp: the settle fails, said so, nothing breaks */
  g_autoptr (FxModel) ramp = simply_supported (10.0, FALSE);
  fx_model_load (ramp, 0)->profile.type = FX_PROFILE_RAMP;
  fx_model_load (ramp, 0)->profile.t1 = 1.0;
  g_autoptr (FxRunner) r2 = fx_runner_new (ramp, NULL);
  fx_runner_settle (r2, 0.0);
  g_autoptr (FxStepFrame) none = wait_settled (r2);
  g_autoptr (GError) why = NULL;
  g_assert_true (fx_runner_settle_failed (r2, &why));
  g_assert_error (why, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_LOAD);
  g_assert_false (fx_runner_failed (r2, NULL));
}

/* The settled state is an equilibrium of the discrete dynamics to
 * round-off (its stresses corrected by the least change) at any size and
 * with material damping: the correction was dense, skipped past 1500
 * unknowns (a 400-element beam kept the projection's imbalance), and
 * stalled at 2.2 % on a damped link, whose eta / dt it saw in the
 * Jacobian but not in the residual. */
static void
check_balanced (guint elements, double kelvin_voigt)
{
  g_autoptr (FxModel) m = simply_supported (10.0, FALSE);
  FxLink *l = fx_model_link (m, 0);
  l->elements = elements;
  l->kelvin_voigt = kelvin_voigt;
  g_autoptr (FxSystem) sys = test_system (m);
  FxStaticsReport rep;

  settle_ok (sys, 0.0, &rep);
  g_test_message ("%u elements (%u unknowns), eta %g s: balance %.3g", elements,
                  fx_system_n_unknowns (sys), kelvin_voigt, rep.balance);
  g_assert_cmpfloat (rep.balance, <, 1e-12);
  double r[2 * FX_REACTION_N_VALUES];
  fx_system_reactions (sys, r);
  g_assert_cmpfloat (fabs (r[FX_REACTION_FY] - 5.0), <, 1e-9 * 5.0);
  fx_statics_report_clear (&rep);
}

static void
test_balance_large (void)
{
  check_balanced (400, 0.0);
}

static void
test_balance_damped (void)
{
  check_balanced (32, 0.01);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/statics/elastica-force", test_elastica_force);
  g_test_add_func ("/statics/elastica-moment", test_elastica_moment);
  g_test_add_func ("/statics/simply-supported", test_simply_supported);
  g_test_add_func ("/statics/simply-supported-rigid", test_simply_supported_rigid);
  g_test_add_func ("/statics/truss", test_truss);
  g_test_add_func ("/statics/play-after-settle-degree", test_play_after_settle_degree);
  g_test_add_func ("/statics/truss-rigid", test_truss_rigid);
  g_test_add_func ("/statics/torque-pendulum", test_torque_pendulum);
  g_test_add_func ("/statics/torque-pendulum-rigid", test_torque_pendulum_rigid);
  g_test_add_func ("/statics/torque-too-large", test_torque_too_large);
  g_test_add_func ("/statics/hanging-chain", test_hanging_chain);
  g_test_add_func ("/statics/play-after-settle", test_play_after_settle);
  g_test_add_func ("/statics/no-load", test_no_load);
  g_test_add_func ("/statics/over-constrained", test_over_constrained);
  g_test_add_func ("/statics/rigid-examples-run", test_rigid_examples_run);
  g_test_add_func ("/statics/rigid-over-constrained-check", test_rigid_over_constrained_check);
  g_test_add_func ("/statics/runner-settle", test_runner_settle);
  g_test_add_func ("/statics/truss-no-bending", test_truss_no_bending);
  g_test_add_func ("/statics/triangle-reactions", test_triangle_reactions);
  g_test_add_func ("/statics/balance-large", test_balance_large);
  g_test_add_func ("/statics/balance-damped", test_balance_damped);
  return g_test_run ();
}
