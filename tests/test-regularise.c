/* test-regularise.c: every drawing gets an assignment (docs/theory.md,
 * "Regularising inertia").
 *
 * - the fewest regularising inertias for the five drawings of the theory's
 *   list, and the engine builds each;
 * - big models (ten thousand welded squares, a welded 100 x 100 lattice) get
 *   their assignment by matching, not by a search that copies itself;
 * - physics: the V of two bars deflects F L / (2 EA sin^2 alpha); a
 *   speed-driven stiff four-bar follows the rigid four-bar's kinematics with
 *   the motor's work in the books; a triple pendulum converges as epsilon
 *   shrinks;
 * - the roller support, and advice that is checked before it is offered.
 */
#include "fx-causality.h"
#include "fx-advice.h"
#include "fx-matching.h"
#include "test-models.h"

#include <stdlib.h>
#include <string.h>

#define STEEL_E 2.1e11
#define STEEL_RHO 7850.0

/* A steel bar of square section `side`. */
static FxLink *
steel_bar (FxModel *m, const char *id, const char *from, const char *to, guint n, double side)
{
  FxLink *l = fx_model_add_link (m, id, from, to, n);
  l->section.E = STEEL_E;
  l->section.nu = 0.3;
  l->section.rho = STEEL_RHO;
  l->section.shape = FX_SHAPE_SQUARE;
  l->section.width = side;
  fx_section_derive (&l->section);
  return l;
}

static FxJoint *
pin (FxModel *m, const char *id, double x, double y, FxSupport support)
{
  FxJoint *j = fx_model_add_joint (m, id, x, y);
  j->support = support;
  return j;
}

/* The assignment is valid, the engine builds it, and it adds `inertias`. */
static FxAssignment *
expect_inertias (const FxModel *m, const char *what, guint inertias)
{
  FxAssignment *a = fx_assignment_compute (m);
  for (guint i = 0; i < a->conflicts->len; i++)
    g_test_message ("%s: conflict: %s", what, (char *) g_ptr_array_index (a->conflicts, i));
  g_assert_true (fx_assignment_ok (a));
  double total = fx_model_total_mass (m);
  g_test_message ("%s: %u regularising inertias, %u splits, %.3g %% of the mass", what,
                  a->regularisers->len, fx_assignment_n_splits (a),
                  100 * fx_assignment_regularising_mass (a) / total);
  for (guint i = 0; i < a->regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (a->regularisers, FxRegulariser, i);
      g_test_message ("  at joint %s: %s %.4g kg, %.4g kg m^2 (members %.4g kg)",
                      fx_model_joint (m, r->joint)->id,
                      r->channel == FX_CHANNEL_TRANSLATION ? "point mass" : "rotary inertia",
                      r->mass, r->inertia, r->member_mass);
      g_assert_cmpfloat (r->mass, >, 0.0);
      if (i > 0)
        g_assert_cmpuint (g_array_index (a->regularisers, FxRegulariser, i - 1).joint, <=, r->joint);
    }
  g_assert_cmpuint (a->regularisers->len, ==, inertias);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  return a;
}

/* ------------------------------------------------------------ drawings */

/* A chain of three pinned links pinned at one end (a triple pendulum). */
static FxModel *
triple_pendulum (double eps)
{
  FxModel *m = fx_model_new ();
  m->regularisation_mass_fraction = eps;
  pin (m, "A", 0, 0, FX_SUPPORT_PIN);
  pin (m, "B", 0.5, 0, FX_SUPPORT_NONE);
  pin (m, "C", 1.0, 0, FX_SUPPORT_NONE);
  pin (m, "D", 1.5, 0, FX_SUPPORT_NONE);
  test_add_link (m, "l1", "A", "B", 4, 1.0, 1e-4, 1e6, 1e6, 1e3);
  test_add_link (m, "l2", "B", "C", 4, 1.0, 1e-4, 1e6, 1e6, 1e3);
  test_add_link (m, "l3", "C", "D", 4, 1.0, 1e-4, 1e6, 1e6, 1e3);
  return m;
}

/* Two steel bars of length L at alpha to the horizontal, on two ground
 * pins, meeting at a free pin C on top. */
static FxModel *
v_of_two_bars (double L, double alpha, guint n)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  pin (m, "A", -L * cos (alpha), 0, FX_SUPPORT_PIN);
  pin (m, "B", L * cos (alpha), 0, FX_SUPPORT_PIN);
  pin (m, "C", 0, L * sin (alpha), FX_SUPPORT_NONE);
  steel_bar (m, "left", "A", "C", n, 0.02);
  steel_bar (m, "right", "B", "C", n, 0.02);
  return m;
}

static FxModel *
pin_triangle (void)
{
  FxModel *m = fx_model_new ();
  pin (m, "A", 0, 0, FX_SUPPORT_PIN);
  pin (m, "B", 2, 0, FX_SUPPORT_PIN);
  pin (m, "C", 1, 1.5, FX_SUPPORT_NONE);
  steel_bar (m, "AB", "A", "B", 4, 0.02);
  steel_bar (m, "AC", "A", "C", 4, 0.02);
  steel_bar (m, "BC", "B", "C", 4, 0.02);
  return m;
}

/* A pin-jointed Warren truss: bottom chord B0..Bn (pins at both ends), top
 * chord T0..Tn-1. */
static FxModel *
pin_warren (guint panels)
{
  FxModel *m = fx_model_new ();
  char a[32], b[32], id[32];
  guint count = 0;
  for (guint i = 0; i <= panels; i++)
    {
      g_snprintf (a, sizeof a, "B%u", i);
      pin (m, a, i, 0, (i == 0 || i == panels) ? FX_SUPPORT_PIN : FX_SUPPORT_NONE);
    }
  for (guint i = 0; i < panels; i++)
    {
      g_snprintf (a, sizeof a, "T%u", i);
      pin (m, a, i + 0.5, 0.866, FX_SUPPORT_NONE);
    }
  for (guint i = 0; i < panels; i++)
    {
      const char *pairs[4][2];
      char t[32], t2[32];
      g_snprintf (a, sizeof a, "B%u", i);
      g_snprintf (b, sizeof b, "B%u", i + 1);
      g_snprintf (t, sizeof t, "T%u", i);
      g_snprintf (t2, sizeof t2, "T%u", i + 1);
      pairs[0][0] = a, pairs[0][1] = b;
      pairs[1][0] = a, pairs[1][1] = t;
      pairs[2][0] = t, pairs[2][1] = b;
      pairs[3][0] = t, pairs[3][1] = t2;
      for (guint k = 0; k < (i + 1 < panels ? 4u : 3u); k++)
        {
          g_snprintf (id, sizeof id, "L%u", count++);
          steel_bar (m, id, pairs[k][0], pairs[k][1], 2, 0.02);
        }
    }
  return m;
}

/* A four-bar (crank-rocker, Grashof): ground pins O and D, crank O-B,
 * coupler B-C, rocker D-C, speed motor at O on the crank. */
#define FB_A 0.2
#define FB_B 0.6
#define FB_C 0.5
#define FB_D 0.5

/* The rigid four-bar's rocker angle for crank angle theta (the open
 * branch: C above the line B-D). */
static double
rocker_angle (double theta)
{
  double bx = FB_A * cos (theta), by = FB_A * sin (theta);
  double ex = FB_D - bx, ey = -by, f = hypot (ex, ey);
  /* C on the circle (B, b) and the circle (D, c): from B along e, then across */
  double x = (FB_B * FB_B - FB_C * FB_C + f * f) / (2 * f);
  double h = sqrt (FB_B * FB_B - x * x);
  double cx = bx + (x * ex - h * ey) / f, cy = by + (x * ey + h * ex) / f;
  return atan2 (cy, cx - FB_D);
}

static FxModel *
speed_four_bar (double omega, double ramp)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  double th4 = rocker_angle (0.0);
  pin (m, "O", 0, 0, FX_SUPPORT_PIN);
  pin (m, "B", FB_A, 0, FX_SUPPORT_NONE);
  pin (m, "C", FB_D + FB_C * cos (th4), FB_C * sin (th4), FX_SUPPORT_NONE);
  pin (m, "D", FB_D, 0, FX_SUPPORT_PIN);
  steel_bar (m, "crank", "O", "B", 2, 0.02);
  steel_bar (m, "coupler", "B", "C", 4, 0.02);
  steel_bar (m, "rocker", "D", "C", 4, 0.02);
  FxMotor *mo = fx_model_add_motor (m, "motor", "O", "crank", NULL, FX_MOTOR_SPEED, omega);
  if (ramp > 0)
    {
      mo->profile.type = FX_PROFILE_RAMP;
      mo->profile.t0 = 0.0;
      mo->profile.t1 = ramp;
    }
  return m;
}

static void
test_drawings (void)
{
  {
    g_autoptr (FxModel) m = triple_pendulum (0.01);
    g_autoptr (FxAssignment) a = expect_inertias (m, "chain of three pinned links", 1);
    /* ties go to the lowest joint index: the free pin next to the support */
    g_assert_cmpstr (fx_model_joint (m, g_array_index (a->regularisers, FxRegulariser, 0).joint)->id, ==, "B");
    g_assert_cmpfloat_with_epsilon (g_array_index (a->regularisers, FxRegulariser, 0).mass,
                                    0.01 * 0.5, 1e-12);
  }
  {
    g_autoptr (FxModel) m = v_of_two_bars (1.0, G_PI / 6, 4);
    g_autoptr (FxAssignment) a = expect_inertias (m, "V of two bars", 1);
    g_assert_cmpstr (fx_model_joint (m, g_array_index (a->regularisers, FxRegulariser, 0).joint)->id, ==, "C");
  }
  {
    g_autoptr (FxModel) m = pin_triangle ();
    g_autoptr (FxAssignment) a = expect_inertias (m, "pin-jointed triangle on two pins", 1);
  }
  /* The 3-panel pin-jointed Warren truss has 5 free pins (B1, B2, T0, T1,
   * T2). In translation every force-causal bar covers two of them, so an
   * odd count cannot be covered exactly: at least one inertia; the chord
   * B1-B2 and T0-T1 cover four, so exactly one. In rotation every bar is
   * pinned at both ends and covers its own two ends: none. */
  {
    g_autoptr (FxModel) m = pin_warren (3);
    g_autoptr (FxAssignment) a = expect_inertias (m, "3-panel pin-jointed Warren truss", 1);
    g_assert_cmpint (g_array_index (a->regularisers, FxRegulariser, 0).channel, ==, FX_CHANNEL_TRANSLATION);
    /* the tie goes to the lowest joint index among the free pins */
    g_assert_cmpstr (fx_model_joint (m, g_array_index (a->regularisers, FxRegulariser, 0).joint)->id, ==, "B1");
  }
  /* The speed motor fixes the crank's turning at O, so the crank cannot
   * take the moment at B unless it is split; split, its outer half takes
   * the force at B, the coupler can no longer cover C, and one point mass
   * at C (the coupler-rocker pin) closes it. */
  {
    g_autoptr (FxModel) m = speed_four_bar (1.0, 0.0);
    g_autoptr (FxAssignment) a = expect_inertias (m, "four-bar with a speed motor", 1);
    g_assert_cmpstr (fx_model_joint (m, g_array_index (a->regularisers, FxRegulariser, 0).joint)->id, ==, "C");
    g_assert_true (a->links[0].split);
  }
}

/* Tier 1 and 2 models are not touched: no regularisers in the examples. */
static void
test_examples_unchanged (void)
{
  const char *examples[] = { "four-bar.flexion", "double-pendulum.flexion", "slider-crank.flexion",
                             "l-frame-soft.flexion", "triangle-truss.flexion", NULL };
  for (guint i = 0; examples[i]; i++)
    {
      g_autoptr (FxModel) m = test_load_example (examples[i]);
      g_autoptr (FxAssignment) a = fx_assignment_compute (m);
      g_assert_true (fx_assignment_ok (a));
      g_assert_cmpuint (a->regularisers->len, ==, 0);
      for (guint l = 0; l < a->n_links; l++)
        {
          const FxLinkAssignment *la = &a->links[l];
          g_assert_cmpint (la->T_end[0], ==, la->segment[0].T);
          g_assert_cmpint (la->R_end[1], ==, la->segment[la->n_segments - 1].R);
        }
    }
}

/* ------------------------------------------------------------ big models */

static void
welded (FxModel *m, const char *id, double x, double y)
{
  fx_model_add_joint (m, id, x, y)->kind = FX_JOINT_WELD;
}

static void
test_big_squares (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  const guint n_sq = 10000;
  char a[4][32], id[32];
  for (guint s = 0; s < n_sq; s++)
    {
      double x = 2.0 * (s % 100), y = 2.0 * (s / 100);
      for (guint k = 0; k < 4; k++)
        {
          g_snprintf (a[k], sizeof a[k], "s%u_%u", s, k);
          welded (m, a[k], x + (k == 1 || k == 2), y + (k >= 2));
        }
      for (guint k = 0; k < 4; k++)
        {
          g_snprintf (id, sizeof id, "l%u_%u", s, k);
          test_add_link (m, id, a[k], a[(k + 1) % 4], 1, 1, 1e-4, 1e6, 1e6, 1e3);
        }
    }
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  g_test_message ("10,000 separate welded squares: assignment in %.3f s",
                  (g_get_monotonic_time () - t0) * 1e-6);
  g_assert_true (fx_assignment_ok (as));
  g_assert_cmpuint (fx_assignment_n_splits (as), ==, 0);
  g_assert_cmpuint (as->regularisers->len, ==, 0);
  /* each square: two opposite links free-free in each channel */
  for (guint s = 0; s < n_sq; s++)
    {
      guint nf = 0;
      for (guint k = 0; k < 4; k++)
        nf += as->links[4 * s + k].T == FX_CAUSAL_F;
      g_assert_cmpuint (nf, ==, 2);
    }
}

/* A welded cells x cells lattice of joints; clamped along its bottom row
 * when `clamped`. */
static FxModel *
welded_lattice (guint cells, gboolean clamped)
{
  FxModel *m = fx_model_new ();
  char a[32], b[32], id[32];
  for (guint r = 0; r < cells; r++)
    for (guint c = 0; c < cells; c++)
      {
        g_snprintf (a, sizeof a, "j%u_%u", r, c);
        welded (m, a, c, r);
        if (clamped && r == 0)
          fx_model_joint (m, m->joints->len - 1)->support = FX_SUPPORT_CLAMP;
      }
  for (guint r = 0; r < cells; r++)
    for (guint c = 0; c < cells; c++)
      {
        g_snprintf (a, sizeof a, "j%u_%u", r, c);
        for (guint dir = 0; dir < 2; dir++)
          {
            if ((dir == 0 && c + 1 == cells) || (dir == 1 && r + 1 == cells))
              continue;
            g_snprintf (b, sizeof b, "j%u_%u", r + dir, c + 1 - dir);
            g_snprintf (id, sizeof id, "l%u_%u_%u", r, c, dir);
            test_add_link (m, id, a, b, 1, 1, 1e-4, 1e6, 1e6, 1e3);
          }
      }
  return m;
}

/* Count the force-causal members per junction of a channel through the
 * assignment: every free joint exactly one, supported ones none (welded
 * lattice: one junction per joint and channel). */
static void
check_cover (const FxModel *m, const FxAssignment *as)
{
  g_autofree guint *count_t = g_new0 (guint, m->joints->len);
  g_autofree guint *count_r = g_new0 (guint, m->joints->len);
  for (guint l = 0; l < m->links->len; l++)
    for (guint side = 0; side < 2; side++)
      {
        const FxLink *link = fx_model_link (m, l);
        int j = fx_model_find_joint (m, side ? link->to : link->from);
        count_t[j] += as->links[l].T_end[side] == FX_CAUSAL_F;
        count_r[j] += as->links[l].R_end[side] == FX_CAUSAL_F;
      }
  for (guint j = 0; j < m->joints->len; j++)
    {
      guint want = fx_model_joint (m, j)->support == FX_SUPPORT_NONE ? 1 : 0;
      g_assert_cmpuint (count_t[j], ==, want);
      g_assert_cmpuint (count_r[j], ==, want);
    }
}

static void
test_big_lattice (void)
{
  for (int clamped = 0; clamped < 2; clamped++)
    {
      g_autoptr (FxModel) m = welded_lattice (100, clamped);
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr (FxAssignment) as = fx_assignment_compute (m);
      g_test_message ("welded 100 x 100 lattice%s: assignment in %.3f s",
                      clamped ? ", bottom row clamped" : ", free", (g_get_monotonic_time () - t0) * 1e-6);
      g_assert_true (fx_assignment_ok (as));
      g_assert_cmpuint (fx_assignment_n_splits (as), ==, 0);
      g_assert_cmpuint (as->regularisers->len, ==, 0);
      check_cover (m, as);
    }
  /* odd: 101 x 101 free welded joints cannot be paired; one inertia per channel */
  {
    g_autoptr (FxModel) m = welded_lattice (101, FALSE);
    gint64 t0 = g_get_monotonic_time ();
    g_autoptr (FxAssignment) as = fx_assignment_compute (m);
    g_test_message ("welded 101 x 101 lattice, free: assignment in %.3f s, %u splits, %u inertias",
                    (g_get_monotonic_time () - t0) * 1e-6, fx_assignment_n_splits (as),
                    as->regularisers->len);
    g_assert_true (fx_assignment_ok (as));
    g_assert_cmpuint (fx_assignment_n_splits (as) + as->regularisers->len, >, 0);
  }
}

/* ------------------------------------------------------------ physics */

typedef struct {
  double E_scale, worst_balance, worst_books, supplied, dissipated, H0;
} Books;

static void
books_step (Books *b, const FxStepReport *rep)
{
  b->supplied += rep->supplied;
  b->dissipated += rep->dissipated;
  b->worst_balance = MAX (b->worst_balance, fabs (rep->balance));
  b->worst_books = MAX (b->worst_books, fabs (rep->H - b->H0 - b->supplied + b->dissipated));
  b->E_scale = MAX (b->E_scale, MAX (fabs (rep->H), MAX (fabs (b->supplied),
                    MAX (rep->kinetic, MAX (fabs (rep->elastic), fabs (rep->gravity))))));
}

/* An integrator at the usual tolerance, with the books opened. */
static FxIntegrator *
books_open (FxSystem *sys, Books *b)
{
  FxIntegrator *it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  memset (b, 0, sizeof *b);
  fx_integrator_report (it, &rep);
  b->H0 = rep.H;
  return it;
}

static void
step_ok (FxIntegrator *it, double dt, FxStepReport *rep)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = fx_integrator_step (it, dt, rep, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

/* V of two bars, apex load ramped slowly with light damping: the apex
 * goes down by F L / (2 EA sin^2 alpha) (each bar carries F / (2 sin alpha)
 * and shortens by that over EA/L; the apex moves 1/sin alpha of it). */
static void
test_v_deflection (void)
{
  const double L = 1.0, alpha = G_PI / 6, F = 2000.0;
  g_autoptr (FxModel) m = v_of_two_bars (L, alpha, 4);
  for (guint l = 0; l < 2; l++)
    fx_model_link (m, l)->damping = 200.0;  /* about 10 % of critical in the first bending mode */
  FxLoad *ld = fx_model_add_joint_load (m, "C");
  ld->force[1] = -F;
  ld->profile.type = FX_PROFILE_RAMP;
  ld->profile.t0 = 0.0;
  ld->profile.t1 = 1.0;
  const FxSection *sec = &fx_model_link (m, 0)->section;
  double euler = G_PI * G_PI * sec->EI / (L * L), bar_force = F / (2 * sin (alpha));
  g_assert_cmpfloat (bar_force, <, 0.1 * euler);

  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  double x0, y0, x, y;
  fx_system_point (sys, 0, 1.0, &x0, &y0);
  while (fx_system_time (sys) < 2.0 - 1e-9)
    step_ok (it, 1e-3, &rep);
  fx_system_point (sys, 0, 1.0, &x, &y);
  double expected = F * L / (2 * sec->EA * sin (alpha) * sin (alpha));
  g_test_message ("V of two bars: apex deflection %.6e m, F L/(2 EA sin^2 alpha) = %.6e m, "
                  "error %.3g %%; bar force %.0f N, Euler load %.0f N",
                  y0 - y, expected, 100 * ((y0 - y) / expected - 1), bar_force, euler);
  g_assert_cmpfloat (fabs ((y0 - y) / expected - 1), <, 5e-3);
  g_assert_cmpfloat (fabs (x - x0), <, 1e-3 * expected);
}

/* A stiff steel crank-rocker driven at 1 rad/s (ramped in over 0.5 s) by a
 * speed motor: the rocker follows the rigid four-bar, and the motor's work
 * is what H gained plus what the damping took. */
static void
test_speed_four_bar (void)
{
  g_autoptr (FxModel) m = speed_four_bar (1.0, 0.5);
  for (guint l = 0; l < 3; l++)
    fx_model_link (m, l)->damping = 1.0;
  g_autoptr (FxSystem) sys = test_system (m);
  Books b;
  g_autoptr (FxIntegrator) it = books_open (sys, &b);
  FxStepReport rep;
  double worst = 0.0, theta_prev = 0.0, turns = 0.0, crank = 0.0;
  while (crank < 4 * G_PI)
    {
      step_ok (it, 0.01, &rep);
      books_step (&b, &rep);
      double bx, by, cx, cy;
      fx_system_point (sys, 0, 1.0, &bx, &by);
      fx_system_point (sys, 2, 1.0, &cx, &cy);
      double theta = atan2 (by, bx);
      if (theta - theta_prev < -G_PI)
        turns += 2 * G_PI;
      theta_prev = theta;
      crank = theta + turns;
      double rocker = atan2 (cy, cx - FB_D);
      double d = remainder (rocker - rocker_angle (theta), 2 * G_PI);
      worst = MAX (worst, fabs (d));
    }
  g_test_message ("speed-driven four-bar, two crank turns (t = %.2f s): max |rocker - rigid| = %.3g rad; "
                  "motor work %.6g J, dissipated %.6g J, H - H0 %.6g J; max |balance| %.3g E_scale, "
                  "max |H - H0 - supplied + dissipated| %.3g E_scale",
                  fx_system_time (sys), worst, b.supplied, b.dissipated, rep.H - b.H0,
                  b.worst_balance / b.E_scale, b.worst_books / b.E_scale);
  g_assert_cmpfloat (worst, <, 1e-3);
  g_assert_cmpfloat (b.supplied, >, 0.0);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
  g_assert_cmpfloat (b.worst_books, <, 1e-10 * b.E_scale);
}

/* The triple pendulum falling from the horizontal, regularised with
 * epsilon = 1e-2, 1e-3, 1e-4: the tip paths converge. */
static void
test_triple_pendulum_converges (void)
{
  const double eps[3] = { 1e-2, 1e-3, 1e-4 };
  const guint n_steps = 500;
  g_autofree double *tip = g_new (double, 3 * 2 * n_steps);
  for (guint k = 0; k < 3; k++)
    {
      g_autoptr (FxModel) m = triple_pendulum (eps[k]);
      g_autoptr (FxSystem) sys = test_system (m);
      Books b;
      g_autoptr (FxIntegrator) it = books_open (sys, &b);
      FxStepReport rep;
      for (guint i = 0; i < n_steps; i++)
        {
          step_ok (it, 1e-3, &rep);
          books_step (&b, &rep);
          fx_system_point (sys, 2, 1.0, &tip[(k * n_steps + i) * 2], &tip[(k * n_steps + i) * 2 + 1]);
        }
      g_test_message ("triple pendulum, epsilon %.0e: tip at (%.6f, %.6f) m after %.2f s, "
                      "max |balance| %.3g E_scale", eps[k], tip[(k * n_steps + n_steps - 1) * 2],
                      tip[(k * n_steps + n_steps - 1) * 2 + 1], fx_system_time (sys),
                      b.worst_balance / b.E_scale);
      g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
    }
  double d[2] = { 0, 0 };
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < n_steps; i++)
      d[k] = MAX (d[k], hypot (tip[(k * n_steps + i) * 2] - tip[((k + 1) * n_steps + i) * 2],
                               tip[(k * n_steps + i) * 2 + 1] - tip[((k + 1) * n_steps + i) * 2 + 1]));
  g_test_message ("triple pendulum tip paths: max distance 1e-2 vs 1e-3: %.3g m, 1e-3 vs 1e-4: %.3g m",
                  d[0], d[1]);
  g_assert_cmpfloat (d[1], <, d[0]);
  g_assert_cmpfloat (d[0], <, 0.05);
}

/* ------------------------------------------------------------ file keys */

static void
test_round_trip (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  m->regularisation_mass_fraction = 1e-3;
  pin (m, "P", 0, 0, FX_SUPPORT_PIN);
  FxJoint *r = pin (m, "R", 2, 0, FX_SUPPORT_ROLLER);
  r->slider_direction[0] = 0.6;
  r->slider_direction[1] = 0.8;
  steel_bar (m, "beam", "P", "R", 4, 0.02);
  gsize len;
  g_autofree char *data = fx_model_to_data (m, &len);
  g_test_message ("%s", data);
  g_assert_nonnull (strstr (data, "\"roller\""));
  g_assert_nonnull (strstr (data, "\"mass_fraction\""));
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) back = fx_model_load_data (data, (gssize) len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (back->regularisation_mass_fraction, ==, 1e-3);
  const FxJoint *rb = fx_model_joint (back, 1);
  g_assert_cmpint (rb->support, ==, FX_SUPPORT_ROLLER);
  g_assert_cmpfloat_with_epsilon (rb->slider_direction[0], 0.6, 1e-15);
  g_assert_cmpfloat_with_epsilon (rb->slider_direction[1], 0.8, 1e-15);
  g_autofree char *again = fx_model_to_data (back, NULL);
  g_assert_cmpstr (again, ==, data);

  /* the roller rolls on its regularising mass (1e-3 of the beam's half) */
  g_autoptr (FxAssignment) a = expect_inertias (back, "pin + roller", 1);
  const FxRegulariser *rr = &g_array_index (a->regularisers, FxRegulariser, 0);
  g_assert_cmpuint (rr->joint, ==, 1);
  g_assert_cmpfloat_with_epsilon (rr->mass, 1e-3 * rr->member_mass, 1e-15);
  g_autoptr (FxModel) e = fx_assignment_expand (a, back);
  g_assert_true (fx_model_joint (e, 1)->slider);
  g_assert_cmpfloat (fx_model_joint (e, 1)->slider_mass, ==, rr->mass);
  g_assert_cmpfloat (fx_model_joint (e, 1)->regularising_mass, ==, rr->mass);

  /* refused: a fraction out of (0, 1], a direction without a roller */
  const char *bad[] = {
    "{\"format\":\"flexion-model\",\"version\":1,\"regularisation\":{\"mass_fraction\":0}}",
    "{\"format\":\"flexion-model\",\"version\":1,\"regularisation\":{\"mass_fraction\":2}}",
    "{\"format\":\"flexion-model\",\"version\":1,\"joints\":[{\"id\":\"a\",\"at\":[0,0],\"direction\":[1,0]}]}",
    "{\"format\":\"flexion-model\",\"version\":1,\"joints\":[{\"id\":\"a\",\"at\":[0,0],\"support\":\"roller\",\"direction\":[0,0]}]}",
    NULL };
  for (guint i = 0; bad[i]; i++)
    {
      g_autoptr (GError) err = NULL;
      g_autoptr (FxModel) no = fx_model_load_data (bad[i], -1, NULL, &err);
      g_assert_null (no);
      g_assert_nonnull (err);
      g_test_message ("refused: %s", err->message);
    }
}

/* The regularised engine model: inertias flagged, books exact. */
static void
test_expanded_flags (void)
{
  g_autoptr (FxModel) m = triple_pendulum (0.01);
  g_autoptr (FxAssignment) a = fx_assignment_compute (m);
  g_autoptr (FxModel) e = fx_assignment_expand (a, m);
  double flagged = 0;
  for (guint j = 0; j < e->joints->len; j++)
    {
      const FxJoint *jt = fx_model_joint (e, j);
      flagged += jt->regularising_mass;
      g_assert_cmpfloat (jt->mass, >=, jt->regularising_mass);
    }
  g_assert_cmpfloat (flagged, ==, fx_assignment_regularising_mass (a));
  /* the user's model is untouched */
  for (guint j = 0; j < m->joints->len; j++)
    g_assert_cmpfloat (fx_model_joint (m, j)->mass, ==, 0.0);
}

/* ------------------------------------------------------------ advice */

/* Every offered fix is valid, and there is at least one. */
static void
expect_fixes (const FxModel *m, const char *what)
{
  g_autoptr (FxAssignment) a = fx_assignment_compute (m);
  g_assert_false (fx_assignment_ok (a));
  g_assert_cmpuint (a->plain_conflicts->len, ==, a->conflicts->len);
  for (guint i = 0; i < a->plain_conflicts->len; i++)
    {
      const char *plain = g_ptr_array_index (a->plain_conflicts, i);
      g_test_message ("%s: %s", what, plain);
      g_assert_null (strstr (plain, "(root)"));
      g_assert_null (strstr (plain, "links["));
      g_assert_null (strstr (plain, "joints["));
      g_assert_null (strstr (plain, "causal"));
    }
  g_autoptr (GPtrArray) fixes = fx_advice_fixes (m, 0);
  g_assert_cmpuint (fixes->len, >, 0);
  gboolean some_not_auto = FALSE;
  for (guint l = 0; l < m->links->len; l++)
    some_not_auto |= fx_model_link (m, l)->formulation != FX_FORMULATION_AUTO;
  for (guint i = 0; i < fixes->len; i++)
    {
      const FxFix *f = g_ptr_array_index (fixes, i);
      g_test_message ("  fix %u (%u change%s): %s", i + 1, f->changes, f->changes == 1 ? "" : "s", f->label);
      if (i > 0)
        g_assert_cmpuint (((FxFix *) g_ptr_array_index (fixes, i - 1))->changes, <=, f->changes);
      if (f->kind == FX_FIX_SET_ALL_AUTO)
        g_assert_true (some_not_auto);
      g_autoptr (FxModel) fixed = fx_fix_apply (m, f);
      g_autoptr (FxAssignment) fa = fx_assignment_compute (fixed);
      g_assert_true (fx_assignment_ok (fa));
      g_autoptr (GError) error = NULL;
      g_autoptr (FxSystem) sys = fx_system_new (fixed, &error);
      g_assert_no_error (error);
    }
}

static FxModel *
bare_model (void)
{
  FxModel *m = fx_model_new ();
  return m;
}

static FxLink *
bar (FxModel *m, const char *id, const char *from, const char *to, FxFormulation f)
{
  FxLink *l = test_add_link (m, id, from, to, 2, 1, 1e-4, 1e6, 1e6, 1e3);
  l->formulation = f;
  return l;
}

/* The conflict models of the suite (test-multibody, test-runner,
 * test-cli.sh, the app's formulation test), each with checked fixes. */
static void
test_advice (void)
{
  for (int kind = FX_JOINT_PIN; kind <= FX_JOINT_WELD; kind++)
    {
      g_autoptr (FxModel) m = bare_model ();
      fx_model_add_joint (m, "A", 0, 0);
      fx_model_add_joint (m, "B", 1, 0)->kind = (FxJointKind) kind;
      fx_model_add_joint (m, "C", 2, 0);
      bar (m, "l1", "A", "B", FX_FORMULATION_FREE_FREE);
      bar (m, "l2", "B", "C", FX_FORMULATION_FREE_FREE);
      expect_fixes (m, kind == FX_JOINT_WELD ? "two fixed free-free links at a weld"
                                             : "two fixed free-free links at a pin");
    }
  {
    g_autoptr (FxModel) m = bare_model ();
    fx_model_add_joint (m, "P", 0, 0);
    fx_model_add_joint (m, "Q", 1, 1);
    bar (m, "bar", "P", "Q", FX_FORMULATION_PINNED);
    expect_fixes (m, "pinned link between free ends");
  }
  {
    g_autoptr (FxModel) m = bare_model ();
    fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
    fx_model_add_joint (m, "M", 1, 0)->mass = 1.0;
    bar (m, "bar", "O", "M", FX_FORMULATION_FREE_FREE);
    expect_fixes (m, "free-free link on a pin support");
  }
  {
    g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
    fx_model_link (m, (guint) fx_model_find_link (m, "crank"))->formulation = FX_FORMULATION_FREE_FREE;
    expect_fixes (m, "four-bar, crank forced free-free");
  }
  for (int f = FX_FORMULATION_FREE_FREE; f <= FX_FORMULATION_CLAMPED_CLAMPED; f++)
    {
      g_autoptr (FxModel) m = bare_model ();
      fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_CLAMP;
      fx_model_add_joint (m, "B", 1, 0);
      bar (m, "L", "A", "B", (FxFormulation) f);
      expect_fixes (m, "cantilever with a forced formulation");
    }
  /* a valid model needs no fix */
  {
    g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
    g_autoptr (GPtrArray) fixes = fx_advice_fixes (m, 0);
    g_assert_cmpuint (fixes->len, ==, 0);
  }
}

/* A long chain with every link forced clamped-clamped (1000 links, about
 * 3000 conflicts): the advice's budget of tries runs out on single-link
 * fixes that cannot work, and "Set all links to Auto", the fix with the
 * most changes, is still tried and offered (it was not, after 400 tries). */
static void
test_advice_big_chain (void)
{
  g_autoptr (FxModel) m = bare_model ();
  const guint n = 1000;
  for (guint j = 0; j <= n; j++)
    {
      g_autofree char *id = g_strdup_printf ("J%u", j);
      FxJoint *jt = fx_model_add_joint (m, id, 0.1 * j, 0.0);
      if (j == 0)
        jt->support = FX_SUPPORT_PIN;
    }
  for (guint l = 0; l < n; l++)
    {
      g_autofree char *id = g_strdup_printf ("L%u", l);
      g_autofree char *from = g_strdup_printf ("J%u", l);
      g_autofree char *to = g_strdup_printf ("J%u", l + 1);
      bar (m, id, from, to, FX_FORMULATION_CLAMPED_CLAMPED);
    }
  g_autoptr (GPtrArray) fixes = fx_advice_fixes (m, 0);
  g_assert_cmpuint (fixes->len, >, 0);
  const FxFix *last = g_ptr_array_index (fixes, fixes->len - 1);
  g_assert_cmpint (last->kind, ==, FX_FIX_SET_ALL_AUTO);
}

/* The command line's conflicts say what is wrong in the channel's words and
 * name the link when one link end is alone there (issue 25: a pinned joint
 * was called free, rotation conflicts spoke of a force and a mass, and the
 * same line came once per link at a pin): a four-bar with every link
 * clamped-clamped, and one with every link free-free and a mass at B. */
static void
test_advice_words (void)
{
  for (int f = FX_FORMULATION_FREE_FREE; f <= FX_FORMULATION_CLAMPED_CLAMPED;
       f += FX_FORMULATION_CLAMPED_CLAMPED - FX_FORMULATION_FREE_FREE)
    {
      g_autoptr (FxModel) m = speed_four_bar (6.0, 0.0);
      for (guint l = 0; l < m->links->len; l++)
        fx_model_link (m, l)->formulation = (FxFormulation) f;
      fx_model_joint (m, (guint) fx_model_find_joint (m, "B"))->mass = 0.5;
      g_autoptr (FxAssignment) a = fx_assignment_compute (m);
      g_assert_false (fx_assignment_ok (a));
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < a->conflicts->len; i++)
        {
          const char *c = g_ptr_array_index (a->conflicts, i);
          g_test_message ("%s", c);
          g_assert_false (g_hash_table_contains (seen, c));
          g_hash_table_add (seen, (gpointer) c);
          g_assert_null (strstr (c, "it is free"));
          g_assert_null (strstr (c, "add an inertia (mass)"));
          /* two links named: "are", not "is" */
          if (strstr (c, "\", \"") != NULL)
            g_assert_null (strstr (c, " is. "));
          if (strstr (c, "(rotation)"))
            {
              g_assert_null (strstr (c, "force"));
              g_assert_null (strstr (c, "mass"));
            }
        }
    }
}

/* ------------------------------------------------------------ matching */

/* The largest matching of a small graph, by trying every edge set. */
static guint
brute_max_matching (guint n, guint n_edges, const guint *eu, const guint *ev, guint e, guint64 used)
{
  if (e == n_edges)
    return 0;
  guint best = brute_max_matching (n, n_edges, eu, ev, e + 1, used);
  guint64 bits = (G_GUINT64_CONSTANT (1) << eu[e]) | (G_GUINT64_CONSTANT (1) << ev[e]);
  if (eu[e] != ev[e] && !(used & bits))
    best = MAX (best, 1 + brute_max_matching (n, n_edges, eu, ev, e + 1, used | bits));
  return best;
}

/* Whether some matching covers every vertex of `need` (a bit set). */
static gboolean
brute_covers (guint n_edges, const guint *eu, const guint *ev, guint e, guint64 used, guint64 need)
{
  if ((used & need) == need)
    return TRUE;
  if (e == n_edges)
    return FALSE;
  if (brute_covers (n_edges, eu, ev, e + 1, used, need))
    return TRUE;
  guint64 bits = (G_GUINT64_CONSTANT (1) << eu[e]) | (G_GUINT64_CONSTANT (1) << ev[e]);
  return eu[e] != ev[e] && !(used & bits) && brute_covers (n_edges, eu, ev, e + 1, used | bits, need);
}

/* Edmonds' algorithm against brute force on random small graphs (odd
 * cycles included), in random priority orders: a maximum matching, and a
 * consistent one. */
static void
test_matching_random (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (21);
  for (guint trial = 0; trial < 3000; trial++)
    {
      guint n = (guint) g_rand_int_range (rng, 1, 11), n_edges = (guint) g_rand_int_range (rng, 0, 15);
      guint eu[16], ev[16], order[12];
      int mate[12];
      for (guint e = 0; e < n_edges; e++)
        {
          eu[e] = (guint) g_rand_int_range (rng, 0, (gint32) n);
          ev[e] = (guint) g_rand_int_range (rng, 0, (gint32) n);
        }
      for (guint v = 0; v < n; v++)
        order[v] = v;
      for (guint v = n; v > 1; v--)
        {
          guint k = (guint) g_rand_int_range (rng, 0, (gint32) v), t = order[v - 1];
          order[v - 1] = order[k];
          order[k] = t;
        }
      fx_matching_solve (n, n_edges, eu, ev, order, mate);
      guint matched = 0;
      for (guint v = 0; v < n; v++)
        if (mate[v] >= 0)
          {
            guint e = (guint) mate[v];
            g_assert_true (eu[e] == v || ev[e] == v);
            guint w = eu[e] == v ? ev[e] : eu[e];
            g_assert_cmpint (mate[w], ==, (int) e);
            matched++;
          }
      g_assert_cmpuint (matched, ==, 2 * brute_max_matching (n, n_edges, eu, ev, 0, 0));
      if (trial % 10 != 0)
        continue;
      /* the covered set is the greedy one in the priority order */
      guint64 greedy = 0;
      for (guint i = 0; i < n; i++)
        {
          guint64 with = greedy | (G_GUINT64_CONSTANT (1) << order[i]);
          if (brute_covers (n_edges, eu, ev, 0, 0, with))
            greedy = with;
        }
      for (guint v = 0; v < n; v++)
        g_assert_cmpint (mate[v] >= 0, ==, (greedy >> v) & 1);
    }
}

/* The simply supported example: a pin and a roller, 100 N ramped in at
 * mid-span; the roller rolls on its regularising mass, the books close and
 * mid-span comes down by about F L^3 / (48 EI). */
static void
test_simply_supported (void)
{
  g_autoptr (FxModel) m = test_load_example ("simply-supported.flexion");
  g_autoptr (FxAssignment) a = expect_inertias (m, "simply supported example", 1);
  g_autoptr (FxSystem) sys = test_system (m);
  Books b;
  g_autoptr (FxIntegrator) it = books_open (sys, &b);
  FxStepReport rep;
  double x0, y0, x, y;
  fx_system_point (sys, 0, 0.5, &x0, &y0);
  while (fx_system_time (sys) < m->t_end - 1e-9)
    {
      step_ok (it, m->dt, &rep);
      books_step (&b, &rep);
    }
  fx_system_point (sys, 0, 0.5, &x, &y);
  const FxLink *beam = fx_model_link (m, 0);
  double L = fx_link_length (m, beam), F = 100.0;
  double expected = F * L * L * L / (48 * beam->section.EI);
  g_test_message ("simply supported: mid-span deflection %.5g m, F L^3/(48 EI) = %.5g m; "
                  "max |balance| %.3g E_scale", y0 - y, expected, b.worst_balance / b.E_scale);
  g_assert_cmpfloat (fabs ((y0 - y) / expected - 1), <, 0.03);
  g_assert_cmpfloat (b.worst_balance, <, 1e-10 * b.E_scale);
}

/* Random small drawings, every link on Auto: each gets an assignment, and
 * the engine builds what it says (no inertia where a junction cannot take
 * one, every free junction covered once). */
static void
test_random_drawings (void)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (2121);
  const FxSupport supports[] = { FX_SUPPORT_NONE, FX_SUPPORT_NONE, FX_SUPPORT_NONE, FX_SUPPORT_PIN,
                                 FX_SUPPORT_CLAMP, FX_SUPPORT_GUIDED, FX_SUPPORT_ROLLER };
  guint n_ok = 0, n_reg = 0;
  guint n_trials = g_getenv ("FX_RANDOM_DRAWINGS") ? (guint) atoi (g_getenv ("FX_RANDOM_DRAWINGS")) : 400;
  for (guint trial = 0; trial < n_trials; trial++)
    {
      g_autoptr (FxModel) m = fx_model_new ();
      guint nj = (guint) g_rand_int_range (rng, 2, 7), nl = (guint) g_rand_int_range (rng, 1, 9);
      char id[32], a[32], b[32];
      for (guint j = 0; j < nj; j++)
        {
          g_snprintf (id, sizeof id, "J%u", j);
          FxJoint *jt = fx_model_add_joint (m, id, g_rand_double_range (rng, -1, 1) + 3.0 * j,
                                            g_rand_double_range (rng, -1, 1));
          jt->support = supports[g_rand_int_range (rng, 0, G_N_ELEMENTS (supports))];
          jt->kind = g_rand_boolean (rng) ? FX_JOINT_WELD : FX_JOINT_PIN;
          if (g_rand_int_range (rng, 0, 6) == 0 && jt->support == FX_SUPPORT_NONE)
            jt->mass = 0.1;
        }
      for (guint l = 0; l < nl; l++)
        {
          guint ja = (guint) g_rand_int_range (rng, 0, (gint32) nj);
          guint jb = (ja + 1 + (guint) g_rand_int_range (rng, 0, (gint32) nj - 1)) % nj;
          g_snprintf (id, sizeof id, "L%u", l);
          g_snprintf (a, sizeof a, "J%u", ja);
          g_snprintf (b, sizeof b, "J%u", jb);
          test_add_link (m, id, a, b, 2, 1, 1e-4, 1e6, 1e6, 1e3);
          /* now and then a speed motor on a link's end at a ground pin */
          const FxJoint *ground = fx_model_joint (m, ja);
          if (ground->support == FX_SUPPORT_PIN && g_rand_int_range (rng, 0, 3) == 0)
            {
              gboolean taken = FALSE;
              for (guint k = 0; k < fx_model_n_motors (m); k++)
                taken |= g_strcmp0 (fx_model_motor (m, k)->joint, a) == 0
                         && g_strcmp0 (fx_model_motor (m, k)->link, id) == 0;
              if (!taken)
                {
                  g_autofree char *mid = g_strdup_printf ("M%u", l);
                  fx_model_add_motor (m, mid, a, id, NULL, FX_MOTOR_SPEED, 1.0);
                }
            }
        }
      g_autoptr (GError) invalid = NULL;
      if (!fx_model_validate (m, &invalid))
        continue;
      /* a free joint no link reaches is a question for the joint setup,
       * not for the assignment: leave those drawings out */
      gboolean lonely = FALSE;
      for (guint j = 0; j < nj; j++)
        {
          double mm;
          fx_regularising_mass_at (m, j, &mm);
          lonely |= mm == 0.0;
        }
      if (lonely)
        continue;
      g_autoptr (FxAssignment) as = fx_assignment_compute (m);
      if (!fx_assignment_ok (as))
        {
          g_autofree char *data = fx_model_to_data (m, NULL);
          g_test_message ("no assignment: %s\n%s", (char *) g_ptr_array_index (as->conflicts, 0), data);
          g_assert_true (fx_assignment_ok (as));
        }
      n_ok++;
      n_reg += as->regularisers->len + as->split_regularisers->len > 0;
      g_autoptr (GError) error = NULL;
      g_autoptr (FxSystem) sys = fx_system_new (m, &error);
      if (error)
        {
          g_autofree char *data = fx_model_to_data (m, NULL);
          g_test_message ("%s\n%s", error->message, data);
        }
      g_assert_no_error (error);
      /* and it steps, with its books closed */
      Books bk;
      g_autoptr (FxIntegrator) it = books_open (sys, &bk);
      FxStepReport rep;
      for (guint i = 0; i < 5; i++)
        {
          step_ok (it, 1e-3, &rep);
          books_step (&bk, &rep);
        }
      g_assert_cmpfloat (bk.worst_balance, <=, 1e-10 * bk.E_scale);
    }
  g_test_message ("random drawings: %u valid, all with an assignment that builds and steps, "
                  "%u regularised", n_ok, n_reg);
  g_assert_cmpuint (n_reg, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/regularise/matching/random", test_matching_random);
  g_test_add_func ("/regularise/drawings", test_drawings);
  g_test_add_func ("/regularise/examples-unchanged", test_examples_unchanged);
  g_test_add_func ("/regularise/random-drawings", test_random_drawings);
  g_test_add_func ("/regularise/big/squares", test_big_squares);
  g_test_add_func ("/regularise/big/lattice", test_big_lattice);
  g_test_add_func ("/regularise/round-trip", test_round_trip);
  g_test_add_func ("/regularise/expanded-flags", test_expanded_flags);
  g_test_add_func ("/regularise/advice", test_advice);
  g_test_add_func ("/regularise/advice/words", test_advice_words);
  g_test_add_func ("/regularise/advice/big-chain", test_advice_big_chain);
  g_test_add_func ("/regularise/physics/v-deflection", test_v_deflection);
  g_test_add_func ("/regularise/physics/simply-supported", test_simply_supported);
  g_test_add_func ("/regularise/physics/speed-four-bar", test_speed_four_bar);
  g_test_add_func ("/regularise/physics/triple-pendulum", test_triple_pendulum_converges);
  return g_test_run ();
}
