/* test-modes.c: linear modes (docs/theory.md §8) against Euler-Bernoulli,
 * Maxwell's counts on the examples, and the time domain. */
#include "test-modes-common.h"
#include "fx-matrix.h"
#include "fx-system-private.h"

#include <glib/gstdio.h>

#define N_EL 40

/* L = 1, rhoA = 1, EI = 1, slender (r = sqrt(EI/EA) = 1e-3): Euler-Bernoulli
 * and Timoshenko agree to ~1e-4 on the first three modes. */
static FxModel *
slender_beam_n (FxSupport left, FxSupport right, guint n)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = left;
  fx_model_add_joint (m, "B", 1, 0)->support = right;
  test_add_link (m, "beam", "A", "B", n, 1.0, 1e-6, 1e6, 4e5, 1.0);
  return m;
}

static FxModel *
slender_beam (FxSupport left, FxSupport right)
{
  return slender_beam_n (left, right, N_EL);
}

/* f_i = (beta_i L)^2 / (2 pi) sqrt(EI / (rhoA L^4)) with L = rhoA = EI = 1 */
static void
check_euler_bernoulli (const FxModes *modes, const double *betaL, guint n, const char *name)
{
  for (guint i = 0; i < n; i++)
    {
      double f = nth_vibration (modes, i + 1)->frequency;
      double f_eb = betaL[i] * betaL[i] / (2.0 * G_PI);
      double rel = (f - f_eb) / f_eb;
      g_test_message ("%s mode %u: %.6f Hz, Euler-Bernoulli %.6f Hz (%+.3f %%)",
                      name, i + 1, f, f_eb, 100.0 * rel);
      g_assert_cmpfloat (fabs (rel), <, 0.005);
    }
}

static void
test_cantilever (void)
{
  g_autoptr (FxModel) m = slender_beam (FX_SUPPORT_CLAMP, FX_SUPPORT_NONE);
  g_autoptr (FxModes) modes = modes_of (m, 5);
  const double betaL[3] = { 1.8751, 4.6941, 7.8548 };
  g_assert_cmpuint (modes->mobility, ==, 0);
  g_assert_cmpuint (modes->indeterminacy, ==, 0);
  check_euler_bernoulli (modes, betaL, 3, "cantilever");
}

static void
test_pinned_pinned (void)
{
  g_autoptr (FxModel) m = slender_beam (FX_SUPPORT_PIN, FX_SUPPORT_PIN);
  g_autoptr (FxModes) modes = modes_of (m, 5);
  const double betaL[3] = { G_PI, 2 * G_PI, 3 * G_PI };
  /* two ground pins hold the beam's length: one self-stress state, the axial force */
  g_assert_cmpuint (modes->mobility, ==, 0);
  g_assert_cmpuint (modes->indeterminacy, ==, 1);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_SELF_STRESS), ==, 1);
  check_euler_bernoulli (modes, betaL, 3, "pinned-pinned");
}

static void
test_free_free (void)
{
  g_autoptr (FxModel) m = slender_beam (FX_SUPPORT_NONE, FX_SUPPORT_NONE);
  g_autoptr (FxModes) modes = modes_of (m, 5);
  const double betaL[3] = { 4.7300, 7.8532, 10.9956 };
  g_assert_cmpuint (modes->mobility, ==, 3);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_MOTION), ==, 3);
  g_assert_cmpuint (modes->indeterminacy, ==, 0);
  /* physics.md (the numerical contract) states two free-free values at this mesh; the
   * third converges from above as (beta h)^2 (+0.75 % at N = 40, the CG1
   * velocity's consistent mass): checked at N = 60 */
  check_euler_bernoulli (modes, betaL, 2, "free-free");
  g_autoptr (FxModel) fine = slender_beam_n (FX_SUPPORT_NONE, FX_SUPPORT_NONE, 60);
  g_autoptr (FxModes) fine_modes = modes_of (fine, 5);
  check_euler_bernoulli (fine_modes, betaL, 3, "free-free N = 60");
}

/* Mobility / degree of static indeterminacy of the examples */
typedef struct {
  const char *file;
  guint mobility, indeterminacy;
} Count;

static const Count counts[] = {
  { "four-bar.flexion", 1, 0 },
  { "flexible-pendulum.flexion", 1, 0 },
  { "double-pendulum.flexion", 2, 0 },
  { "l-frame-soft.flexion", 3, 0 },
  { "l-frame-rigid.flexion", 3, 0 },
  { "triangle-truss.flexion", 0, 4 },
  { "slider-crank.flexion", 1, 0 },
  { "cantilever.flexion", 0, 0 },
  { "struck-beam.flexion", 0, 1 },
  { "flying-spaghetti.flexion", 3, 0 },
};

static void
check_finite_modes (const FxModes *modes)
{
  double prev = 0.0;
  for (guint k = 0; k < modes->n_modes; k++)
    {
      const FxMode *md = &modes->modes[k];
      g_assert_true (isfinite (md->frequency));
      if (md->kind != FX_MODE_VIBRATION)
        continue;
      /* rising, strictly positive: no zero or infinite eigenvalue slipped in */
      g_assert_cmpfloat (md->frequency, >, 0.0);
      g_assert_cmpfloat (md->frequency, >=, prev);
      prev = md->frequency;
      for (guint i = 0; i < FX_MODE_SHAPE_STRIDE * modes->n_nodes; i++)
        g_assert_true (isfinite (md->shape[i]));
    }
}

static void
test_counts (gconstpointer data)
{
  const Count *c = data;
  g_autoptr (FxModel) m = test_load_example (c->file);
  g_autoptr (FxModes) modes = modes_of (m, 6);
  g_test_message ("%s: mobility %u, indeterminacy %u, first frequency %.4g Hz",
                  c->file, modes->mobility, modes->indeterminacy,
                  fx_modes_count (modes, FX_MODE_VIBRATION) > 0 ? nth_vibration (modes, 1)->frequency : 0.0);
  g_assert_cmpuint (modes->mobility, ==, c->mobility);
  g_assert_cmpuint (modes->indeterminacy, ==, c->indeterminacy);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_MOTION), ==, c->mobility);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_SELF_STRESS), ==, c->indeterminacy);
  /* at most the 6 asked for (the pendulum's massless bar has just one: the
   * tip mass on the bar's axial stiffness) */
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), >=, 1);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), <=, 6);
  check_finite_modes (modes);
}

/* A rigid link and a massless one: a rigid arm pinned at O, a massless
 * flexible bar welded to it, a 2 kg mass at the tip. Masses: the arm's
 * rotation and the tip mass's two directions; one is the swing (a motion),
 * so exactly two vibrations remain, one of them the tip mass on the bar's
 * axial stiffness (the rigid arm cannot move along itself); the massless
 * and rigid directions give no mode (no infinite or spurious frequency). */
static void
test_rigid_and_massless (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "A", 1, 0)->kind = FX_JOINT_WELD;
  fx_model_add_joint (m, "B", 2, 0)->mass = 2.0;
  FxLink *arm = test_add_link (m, "arm", "O", "A", 4, 1.0, 1e-3, 1e6, 4e5, 10.0);
  arm->rigid = TRUE;
  test_add_link (m, "tip", "A", "B", 1, 0.0, 0.0, 1e6, 4e5, 10.0);

  g_autoptr (FxModes) modes = modes_of (m, 0);
  g_assert_cmpuint (modes->mobility, ==, 1);
  g_assert_cmpuint (modes->indeterminacy, ==, 0);
  check_finite_modes (modes);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), ==, 2);
  double f_axial = sqrt (1e6 / 2.0) / (2 * G_PI);
  gboolean found = FALSE;
  for (guint k = 0; k < modes->n_modes; k++)
    if (modes->modes[k].kind == FX_MODE_VIBRATION)
      {
        g_test_message ("rigid + massless: %.6g Hz", modes->modes[k].frequency);
        found |= fabs (modes->modes[k].frequency - f_axial) < 1e-6 * f_axial;
      }
  g_assert_true (found);

  /* the plate-linkage example: a rigid plate coupler (a body); its tail
   * hangs from a pin at C, so it swings on its own: mobility 1 + 1 */
  g_autoptr (FxModel) plate = test_load_example ("plate-linkage.flexion");
  g_autoptr (FxModes) pm = modes_of (plate, 0);
  g_assert_cmpuint (pm->mobility, ==, 2);
  check_finite_modes (pm);
}

/* A massless cantilever (EI = 10, EA = 1e9, L = 1) with a 2 kg tip mass
 * and a tiny rotary inertia at the tip. */
static FxModel *
tip_mass_cantilever (void)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_CLAMP;
  FxJoint *tip = fx_model_add_joint (m, "B", 1, 0);
  tip->mass = 2.0;
  tip->inertia = 1e-6;
  test_add_link (m, "bar", "O", "B", 8, 0.0, 0.0, 1e9, 4e8, 10.0);
  return m;
}

/* A massless cantilever (EI = 10, L = 1) with a 2 kg tip mass: the one
 * bending frequency sqrt(3 EI / (m L^3)) / 2 pi (a massless beam's static
 * deflection, cubic, which the mixed elements represent exactly), the axial
 * one sqrt(EA / (m L)) / 2 pi; a tiny rotary inertia at the tip (the free
 * end's moment needs an inertia or a split) adds one high mode. */
static void
test_tip_mass_cantilever (void)
{
  g_autoptr (FxModel) m = tip_mass_cantilever ();
  g_autoptr (FxModes) modes = modes_of (m, 0);
  double f = nth_vibration (modes, 1)->frequency;
  double f_ref = sqrt (3.0 * 10.0 / (2.0 * 1.0)) / (2 * G_PI);
  g_test_message ("massless cantilever, tip mass: %.6f Hz, 3EI/(mL^3): %.6f Hz", f, f_ref);
  g_assert_cmpfloat (fabs (f - f_ref) / f_ref, <, 1e-3);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), ==, 3);
  /* the tip's rotation against the bar with its translation held by the
   * (much heavier) mass: sqrt(4 EI / (J L)) */
  double f_rot = sqrt (4.0 * 10.0 / 1e-6) / (2 * G_PI), f2 = nth_vibration (modes, 2)->frequency;
  g_test_message ("tip rotation: %.6f Hz, sqrt(4EI/(JL)): %.6f Hz", f2, f_rot);
  g_assert_cmpfloat (fabs (f2 - f_rot) / f_rot, <, 1e-3);
  double f_axial = sqrt (1e9 / 2.0) / (2 * G_PI), f3 = nth_vibration (modes, 3)->frequency;
  g_test_message ("axial: %.6f Hz, sqrt(EA/(mL)): %.6f Hz", f3, f_axial);
  g_assert_cmpfloat (fabs (f3 - f_axial) / f_axial, <, 1e-3);
  check_finite_modes (modes);
}

/* A torsional spring stores energy in an angle, which is not an unknown:
 * the modes give it one of its own. A stiff massless bar pinned at O with a
 * 2 kg tip mass at L = 1.5 and a spring k = 30 N m to the ground swings at
 * sqrt(k / (m L^2)); a speed motor at the pin instead holds it (mobility 0,
 * no swing at all). */
static void
test_spring_and_motor (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 1.5, 0)->mass = 2.0;
  test_add_link (m, "bar", "O", "B", 2, 0.0, 0.0, 1e9, 4e8, 1e7);
  g_autoptr (FxModel) with_spring = fx_model_copy (m);
  fx_model_add_spring (with_spring, "k", "O", "bar", NULL, 30.0, 0.5);
  g_autoptr (FxModes) sm = modes_of (with_spring, 0);
  double f = nth_vibration (sm, 1)->frequency, f_ref = sqrt (30.0 / (2.0 * 1.5 * 1.5)) / (2 * G_PI);
  g_test_message ("spring pendulum: %.6f Hz, sqrt(k/(m L^2)): %.6f Hz", f, f_ref);
  g_assert_cmpfloat (fabs (f - f_ref) / f_ref, <, 1e-4);
  g_assert_cmpuint (sm->mobility, ==, 0);
  check_finite_modes (sm);

  g_autoptr (FxModel) with_motor = fx_model_copy (m);
  /* the driven end takes its angular velocity: the free end's moment needs
   * a rotary inertia to be fed */
  fx_model_joint (with_motor, 1)->inertia = 1e-3;
  fx_model_add_motor (with_motor, "drive", "O", "bar", NULL, FX_MOTOR_SPEED, 2.0);
  g_autoptr (FxModes) mm = modes_of (with_motor, 0);
  g_assert_cmpuint (mm->mobility, ==, 0);
  g_assert_cmpuint (mm->indeterminacy, ==, 0);
  check_finite_modes (mm);
}

/* Started in mode 1's shape at small amplitude, the cantilever oscillates at
 * mode 1's frequency: velocity zero crossings of the tip. */
static void
test_time_domain (void)
{
  g_autoptr (FxModel) m = slender_beam (FX_SUPPORT_CLAMP, FX_SUPPORT_NONE);
  g_autoptr (FxModes) modes = modes_of (m, 1);
  const FxMode *m1 = nth_vibration (modes, 1);
  double T = 1.0 / m1->frequency, period = test_mode_period (m, modes, m1, 0);
  g_test_message ("time domain: period %.6f s, mode 1: %.6f s", period, T);
  g_assert_cmpfloat (fabs (period - T) / T, <, 0.005);
}

/* Beyond the dense limit: shift-invert Arnoldi on the Newton matrix. On
 * every example it finds the dense solver's lowest vibrations. */
static void
test_iterative_matches_dense (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    {
      g_autoptr (FxModel) m = test_load_example (counts[c].file);
      g_autoptr (GError) error = NULL;
      g_autoptr (FxModes) dense = fx_modes_compute_with (m, 6, FX_MODES_DENSE, &error);
      g_assert_no_error (error);
      g_autoptr (FxModes) iter = fx_modes_compute_with (m, 6, FX_MODES_ITERATIVE, &error);
      g_assert_no_error (error);
      g_assert_true (dense->counted);
      g_assert_false (iter->counted);
      g_assert_cmpuint (fx_modes_count (iter, FX_MODE_MOTION), ==, 0);
      g_assert_cmpuint (fx_modes_count (iter, FX_MODE_VIBRATION), ==,
                        fx_modes_count (dense, FX_MODE_VIBRATION));
      double worst = 0.0;
      for (guint i = 1; i <= fx_modes_count (iter, FX_MODE_VIBRATION); i++)
        {
          double a = nth_vibration (iter, i)->frequency, b = nth_vibration (dense, i)->frequency;
          worst = MAX (worst, fabs (a - b) / b);
        }
      g_test_message ("%s: iterative against dense, worst %.2g", counts[c].file, worst);
      g_assert_cmpfloat (worst, <, 1e-7);
      check_finite_modes (iter);
    }
}

/* A cantilever of 400 elements (2406 unknowns) goes to the iterative
 * solver by itself, and still meets Euler-Bernoulli. */
static void
test_large_cantilever (void)
{
  g_autoptr (FxModel) m = slender_beam_n (FX_SUPPORT_CLAMP, FX_SUPPORT_NONE, 400);
  g_autoptr (FxModes) modes = modes_of (m, 3);
  const double betaL[3] = { 1.8751, 4.6941, 7.8548 };
  g_assert_cmpuint (modes->n_unknowns, >, FX_MODES_MAX_UNKNOWNS);
  g_assert_false (modes->counted);
  check_euler_bernoulli (modes, betaL, 3, "cantilever N = 400 (iterative)");
  check_finite_modes (modes);
  g_autofree char *summary = fx_modes_summary (modes);
  g_assert_cmpstr (summary, ==, "lowest vibrations only (2406 unknowns)");
}

/* Two identical slender clamped cantilevers side by side: every frequency
 * is double. */
static FxModel *
twin_cantilevers (guint n)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", 1, 0);
  fx_model_add_joint (m, "C", 0, 1)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "D", 1, 1);
  test_add_link (m, "one", "A", "B", n, 1.0, 1e-6, 1e6, 4e5, 1.0);
  test_add_link (m, "two", "C", "D", n, 1.0, 1e-6, 1e6, 4e5, 1.0);
  return m;
}

/* Two identical clamped cantilevers side by side, 200 elements each (2412
 * unknowns, iterative): every frequency is double, and every copy must be
 * listed (issue 25.4: a single Krylov start vector finds one copy, so
 * "mode 2" was really mode 3). */
static void
test_iterative_multiplicity (void)
{
  g_autoptr (FxModel) m = twin_cantilevers (200);
  g_autoptr (FxModes) modes = modes_of (m, 6);
  g_assert_false (modes->counted);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), ==, 6);
  const double betaL[3] = { 1.8751, 4.6941, 7.8548 };
  for (guint i = 0; i < 6; i++)
    {
      double f = nth_vibration (modes, i + 1)->frequency;
      double f_eb = betaL[i / 2] * betaL[i / 2] / (2.0 * G_PI);
      g_test_message ("twin cantilevers mode %u: %.6f Hz, Euler-Bernoulli %.6f Hz", i + 1, f, f_eb);
      g_assert_cmpfloat (fabs (f - f_eb) / f_eb, <, 0.005);
    }
  /* the copies agree to the solver's accuracy */
  for (guint i = 0; i < 6; i += 2)
    g_assert_cmpfloat (fabs (nth_vibration (modes, i + 1)->frequency - nth_vibration (modes, i + 2)->frequency),
                       <, 1e-7 * nth_vibration (modes, i + 1)->frequency);
  check_finite_modes (modes);
}

/* The dense path lists only the wanted vectors (inverse iteration): on two
 * identical cantilevers (dense, 40 elements each) every frequency is
 * double, and the two shapes of a pair must be independent, not one
 * vector twice. */
static void
test_dense_multiplicity (void)
{
  g_autoptr (FxModel) m = twin_cantilevers (40);
  g_autoptr (FxModes) modes = modes_of (m, 6);
  g_assert_true (modes->counted);
  for (guint i = 1; i <= 6; i += 2)
    {
      const FxMode *a = nth_vibration (modes, i), *b = nth_vibration (modes, i + 1);
      /* symm's eigenvalues are good to eps times the largest (stiff axial) one */
      g_assert_cmpfloat (fabs (a->frequency - b->frequency), <, 1e-6 * a->frequency);
      double ab = 0.0, aa = 0.0, bb = 0.0;
      for (guint k = 0; k < modes->n_nodes; k++)
        for (guint c = FX_MODE_DX; c <= FX_MODE_DY; c++)
          {
            double x = a->shape[FX_MODE_SHAPE_STRIDE * k + c], y = b->shape[FX_MODE_SHAPE_STRIDE * k + c];
            ab += x * y, aa += x * x, bb += y * y;
          }
      double cosine = fabs (ab) / sqrt (aa * bb);
      g_test_message ("pair %u/%u: %.6f Hz, |cos| between shapes %.3g", i, i + 1, a->frequency, cosine);
      g_assert_cmpfloat (cosine, <, 0.9);
    }
}

/* A frame without any mass has no vibration: every direction is an
 * infinite eigenvalue, and the iterative solver must not report what
 * round-off leaves of them (issue 25.4: a spurious 3.57e9 Hz). */
static void
test_iterative_massless (void)
{
  g_autoptr (FxModel) m = slender_beam_n (FX_SUPPORT_CLAMP, FX_SUPPORT_CLAMP, 400);
  fx_section_set_canonical (&fx_model_link (m, 0)->section, 0.0, 0.0, 1e6, 4e5, 1.0);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModes) modes = fx_modes_compute (m, 10, &error);
  if (modes != NULL)
    {
      for (guint i = 0; i < modes->n_modes; i++)
        g_test_message ("massless frame: %s %.6g Hz", fx_mode_kind_to_string (modes->modes[i].kind),
                        modes->modes[i].frequency);
      g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), ==, 0);
    }
  else
    g_assert_error (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED);
}

/* --count has a cap by the model and the memory limit (issue 25.5): never
 * more than half the unknowns, and the Krylov basis fits the limit. */
static void
test_iterative_cap (void)
{
  guint64 old = fx_memory_limit_get ();
  g_assert_cmpuint (fx_modes_iterative_cap (3000), <=, 1500);
  g_assert_cmpuint (fx_modes_iterative_cap (3000), >=, 20);
  /* 50,000 elements: 300,006 unknowns; 1000 modes once asked 9.65 GB */
  fx_memory_limit_set (G_GUINT64_CONSTANT (1) << 30);
  guint cap = fx_modes_iterative_cap (300006);
  g_test_message ("cap at 300006 unknowns, 1 GiB: %u modes", cap);
  g_assert_cmpuint (cap, <, 1000);
  g_assert_cmpuint ((guint64) (4 * cap + 20 + 4) * 300006 * 8, <=, G_GUINT64_CONSTANT (1) << 30);
  fx_memory_limit_set (old);

  /* asking for every mode of an iterative model returns quickly, capped */
  g_autoptr (FxModel) m = slender_beam_n (FX_SUPPORT_CLAMP, FX_SUPPORT_NONE, 400);
  g_autoptr (FxModes) modes = modes_of (m, G_MAXINT);
  g_assert_cmpuint (modes->requested, ==, G_MAXINT);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), <=, fx_modes_iterative_cap (modes->n_unknowns));
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), >=, 20);
  check_finite_modes (modes);
}

/* In a mode's frame the probe rides on the shape: the cantilever's tip
 * probe (s = 1) sits on the displaced tip node (issue 23.8). */
static void
test_frame_probe (void)
{
  g_autoptr (FxModel) m = test_load_example ("cantilever.flexion");
  g_autoptr (FxModes) modes = modes_of (m, 2);
  int first = fx_modes_find (modes, "1", NULL);
  g_assert_cmpint (first, >=, 0);
  g_autoptr (FxStepFrame) f = fx_modes_frame (modes, m, (guint) first, 0.25, 0.1 * modes->size);
  g_assert_cmpuint (f->n_probes, ==, 1);
  guint tip = f->node_offset[1] - 1;
  g_test_message ("tip node (%.6f, %.6f), probe (%.6f, %.6f)", f->x[tip], f->y[tip], f->probe_xy[0],
                  f->probe_xy[1]);
  g_assert_cmpfloat (hypot (f->y[tip] - modes->node_xy[2 * tip + 1], f->x[tip] - modes->node_xy[2 * tip]), >,
                     0.05 * modes->size);
  g_assert_cmpfloat (fabs (f->probe_xy[0] - f->x[tip]), <, 1e-12 * modes->size);
  g_assert_cmpfloat (fabs (f->probe_xy[1] - f->y[tip]), <, 1e-12 * modes->size);
}

/* Stress shapes are normalised by a real moment, not by round-off: the
 * cantilever's axial mode and the pinned truss's self-stress states once
 * came out with axial forces of 1e14..1e16 (moments of 1e-13 as the unit). */
static void
test_stress_shape_scale (void)
{
  const char *files[] = { "cantilever.flexion", "triangle-truss.flexion", "struck-beam.flexion" };
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr (FxModel) m = test_load_example (files[f]);
      g_autoptr (FxModes) modes = modes_of (m, 10);
      double big_m = 0.0, big_n = 0.0;
      for (guint i = 0; i < modes->n_modes; i++)
        for (guint k = 0; k < modes->n_nodes; k++)
          {
            big_m = MAX (big_m, fabs (modes->modes[i].shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_M]));
            big_n = MAX (big_n, fabs (modes->modes[i].shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_N]));
          }
      g_test_message ("%s: largest |m| %.3g, |n| %.3g", files[f], big_m, big_n);
      g_assert_cmpfloat (big_m, <=, 1.0 + 1e-12);
      g_assert_cmpfloat (big_n, <, 1e3);
    }
}

/* A hand-made mask of regularising inertia (issue 26 item 6's hook): the
 * tip-mass cantilever's tip rotary inertia (1e-6 kg m^2) carries the
 * kinetic energy of its second mode (the tip's rotation, 1 kHz); marked
 * regularising, that mode becomes "regularisation mode 1" and moves after
 * the other two vibrations, which keep their frequencies, renumbered. */
static void
test_regularisation_mask (void)
{
  g_autoptr (FxModel) m = tip_mass_cantilever ();
  g_autoptr (FxModes) modes = modes_of (m, 0);
  double f1 = nth_vibration (modes, 1)->frequency, f2 = nth_vibration (modes, 2)->frequency;
  double f3 = nth_vibration (modes, 3)->frequency;

  g_autoptr (FxModel) lin = fx_modes_linear_model (m);
  g_autoptr (FxSystem) sys = fx_system_new (lin, NULL);
  g_assert_nonnull (sys);
  g_autofree gboolean *mask = g_new0 (gboolean, modes->n_unknowns);
  mask[sys->joint_rdof[fx_model_find_joint (lin, "B")]] = TRUE;  /* the tip's omega */
  g_assert_true (fx_modes_classify_regularisation (modes, m, mask));

  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_VIBRATION), ==, 2);
  g_assert_cmpuint (fx_modes_count (modes, FX_MODE_REGULARISATION), ==, 1);
  const FxMode *last = &modes->modes[modes->n_modes - 1];
  g_assert_cmpint (last->kind, ==, FX_MODE_REGULARISATION);
  g_assert_cmpuint (last->index, ==, 1);
  g_assert_cmpfloat (last->frequency, ==, f2);
  g_assert_cmpfloat (nth_vibration (modes, 1)->frequency, ==, f1);
  g_assert_cmpfloat (nth_vibration (modes, 2)->frequency, ==, f3);
  g_autofree char *label = fx_mode_label (modes, last);
  g_test_message ("%s", label);
  g_assert_true (g_str_has_prefix (label, "regularisation mode 1 · "));
  g_assert_cmpint (fx_modes_find (modes, "regularisation:1", NULL), ==, (int) modes->n_modes - 1);

  /* an empty mask changes nothing */
  g_autoptr (FxModes) again = modes_of (m, 0);
  memset (mask, 0, sizeof (gboolean) * again->n_unknowns);
  g_assert_true (fx_modes_classify_regularisation (again, m, mask));
  g_assert_cmpuint (fx_modes_count (again, FX_MODE_REGULARISATION), ==, 0);
}

/* The frequency table: header, kinds, atomically written. */
static void
test_csv (void)
{
  g_autoptr (FxModel) m = test_load_example ("four-bar.flexion");
  g_autoptr (FxModes) modes = modes_of (m, 3);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("flexion-modes-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, "modes.csv", NULL);
  g_assert_true (fx_modes_write_csv (modes, m, path, &error));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "mode,frequency_hz,kind");
  g_assert_cmpstr (lines[1], ==, "1,0,motion");
  g_assert_true (g_str_has_suffix (lines[2], ",vibration"));
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 1 + 3 + 1);
  g_autofree char *summary = fx_modes_summary (modes);
  g_assert_cmpstr (summary, ==, "mobility 1 · statically determinate");
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/modes/cantilever", test_cantilever);
  g_test_add_func ("/modes/pinned-pinned", test_pinned_pinned);
  g_test_add_func ("/modes/free-free", test_free_free);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autofree char *path = g_strdup_printf ("/modes/counts/%s", counts[i].file);
      g_test_add_data_func (path, &counts[i], test_counts);
    }
  g_test_add_func ("/modes/rigid-and-massless", test_rigid_and_massless);
  g_test_add_func ("/modes/tip-mass", test_tip_mass_cantilever);
  g_test_add_func ("/modes/spring-and-motor", test_spring_and_motor);
  g_test_add_func ("/modes/time-domain", test_time_domain);
  g_test_add_func ("/modes/csv", test_csv);
  g_test_add_func ("/modes/frame-probe", test_frame_probe);
  g_test_add_func ("/modes/stress-shape-scale", test_stress_shape_scale);
  g_test_add_func ("/modes/regularisation-mask", test_regularisation_mask);
  g_test_add_func ("/modes/iterative/matches-dense", test_iterative_matches_dense);
  g_test_add_func ("/modes/iterative/large-cantilever", test_large_cantilever);
  g_test_add_func ("/modes/iterative/multiplicity", test_iterative_multiplicity);
  g_test_add_func ("/modes/dense-multiplicity", test_dense_multiplicity);
  g_test_add_func ("/modes/iterative/massless", test_iterative_massless);
  g_test_add_func ("/modes/iterative/cap", test_iterative_cap);
  return g_test_run ();
}
