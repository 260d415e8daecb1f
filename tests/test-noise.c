/* test-noise.c: stochastic load profiles (docs/theory.md §9, fx-noise.h).
 *
 * Statistical checks use fixed seeds and a tolerance of 4 standard errors:
 * the OU source's variance and lag-one autocorrelation, the bridge's
 * consistency under refinement, the energy a white force pumps into a free
 * mass, and the stationary energies of a rotary oscillator under a white
 * torque. Also the file format of noisy profiles and the seed.
 */
#include "fx-noise.h"
#include "test-models.h"

#include <string.h>

/* ------------------------------------------------------------ sources */

static void
test_ou_statistics (void)
{
  const double s = 2.0, tau = 0.5, dt = 0.35, rho = exp (-dt / tau);
  const guint n = 200000;
  g_autoptr (FxNoise) noise = fx_noise_new (7, 0);
  g_autofree double *eta = g_new (double, n), *u = g_new (double, n);
  double var = 0, lag = 0, var_u = 0;

  fx_noise_add_source (noise, FX_NOISE_OU, s, tau, NULL);
  for (guint i = 0; i < n; i++)
    {
      fx_noise_begin_step (noise, i, dt);
      eta[i] = fx_noise_state (noise, 0);
      u[i] = fx_noise_value (noise, 0, 0, 1);
    }
  for (guint i = 0; i < n; i++)
    {
      var += eta[i] * eta[i] / n;
      var_u += u[i] * u[i] / n;
      if (i + 1 < n)
        lag += eta[i] * eta[i + 1] / (n - 1);
    }
  double r1 = lag / var;
  /* an AR(1) series: Var(s^2 estimate) = 2 s^4 (1 + rho^2) / (n (1 - rho^2)),
   * Var(r1 estimate) = (1 - rho^2) / n */
  double se_var = s * s * sqrt (2.0 * (1 + rho * rho) / (n * (1 - rho * rho)));
  double se_r1 = sqrt ((1 - rho * rho) / n);
  /* the input (eta_n + eta_{n+1})/2 has variance s^2 (1 + rho) / 2 */
  double var_u_exact = s * s * (1 + rho) / 2;
  g_test_message ("OU: variance %.5f (s^2 = %.5f, se %.2g), lag-1 %.5f (e^-dt/tau = %.5f, "
                  "se %.2g), input variance %.5f (%.5f)", var, s * s, se_var, r1, rho, se_r1,
                  var_u, var_u_exact);
  g_assert_cmpfloat (fabs (var - s * s), <, 4 * se_var);
  g_assert_cmpfloat (fabs (r1 - rho), <, 4 * se_r1);
  g_assert_cmpfloat (fabs (var_u - var_u_exact), <, 4 * se_var);
}

/* White noise: the pieces' increments sum to the step's, and a level's
 * increments are sums of the next finer level's. */
static void
test_white_bridge (void)
{
  const double sigma = 1.5, dt = 0.02;
  g_autoptr (FxNoise) noise = fx_noise_new (3, 5);
  double sum_sq = 0.0;
  const guint steps = 4000;

  fx_noise_add_source (noise, FX_NOISE_WHITE, sigma, 0.0, NULL);
  for (guint n = 0; n < steps; n++)
    {
      fx_noise_begin_step (noise, n, dt);
      double whole = fx_noise_value (noise, 0, 0, 1) * dt;  /* sigma dW */

      for (guint P = 2; P <= FX_NOISE_MAX_PIECES; P *= 2)
        {
          double total = 0.0, h = dt / P;

          for (guint k = 0; k < P; k++)
            {
              double coarse = fx_noise_value (noise, 0, k, P) * h;

              total += coarse;
              if (2 * P <= FX_NOISE_MAX_PIECES)
                {
                  double fine = (fx_noise_value (noise, 0, 2 * k, 2 * P)
                                 + fx_noise_value (noise, 0, 2 * k + 1, 2 * P)) * h / 2;
                  g_assert_cmpfloat (fabs (coarse - fine), <=, 1e-13 * sigma * sqrt (dt));
                }
            }
          g_assert_cmpfloat (fabs (total - whole), <=, 1e-13 * sigma * sqrt (dt));
        }
      for (guint k = 0; k < FX_NOISE_MAX_PIECES; k++)
        {
          double inc = fx_noise_value (noise, 0, k, FX_NOISE_MAX_PIECES) * dt / FX_NOISE_MAX_PIECES;

          sum_sq += inc * inc;
        }
    }
  /* the finest increments have variance sigma^2 dt / 64 */
  double m = steps * (double) FX_NOISE_MAX_PIECES, var = sum_sq / m;
  double exact = sigma * sigma * dt / FX_NOISE_MAX_PIECES, se = exact * sqrt (2.0 / m);
  g_test_message ("white bridge: finest variance %.4g (exact %.4g, se %.2g)", var, exact, se);
  g_assert_cmpfloat (fabs (var - exact), <, 4 * se);
}

/* OU: recover the path at the 65 points from the finest inputs and the
 * step's start; coarser inputs and the step's end must agree with it. */
static void
test_ou_bridge (void)
{
  const double s = 0.7, tau = 0.05, dt = 0.04;
  g_autoptr (FxNoise) noise = fx_noise_new (11, 2);
  double e[FX_NOISE_MAX_PIECES + 1];

  fx_noise_add_source (noise, FX_NOISE_OU, s, tau, NULL);
  for (guint n = 0; n < 50; n++)
    {
      fx_noise_begin_step (noise, n, dt);
      e[0] = fx_noise_state (noise, 0);
      for (guint k = 0; k < FX_NOISE_MAX_PIECES; k++)
        e[k + 1] = 2.0 * fx_noise_value (noise, 0, k, FX_NOISE_MAX_PIECES) - e[k];
      for (guint P = 1; P < FX_NOISE_MAX_PIECES; P *= 2)
        for (guint k = 0; k < P; k++)
          {
            guint L = FX_NOISE_MAX_PIECES / P;
            double expect = 0.5 * (e[k * L] + e[(k + 1) * L]);
            g_assert_cmpfloat (fabs (fx_noise_value (noise, 0, k, P) - expect), <=, 1e-12 * s);
          }
      double end = e[FX_NOISE_MAX_PIECES];
      fx_noise_begin_step (noise, n + 1, dt);
      g_assert_cmpfloat (fabs (fx_noise_state (noise, 0) - end), <=, 1e-12 * s);
    }
}

/* Values are a pure function of (seed, sample, source, step): retries,
 * refinements and the order of calls change nothing. */
static void
test_reproducible (void)
{
  g_autoptr (FxNoise) a = fx_noise_new (42, 9);
  g_autoptr (FxNoise) b = fx_noise_new (42, 9);
  g_autoptr (FxNoise) c = fx_noise_new (42, 10);
  double va[20], vb;

  for (guint i = 0; i < 2; i++)
    {
      fx_noise_add_source (a, i ? FX_NOISE_OU : FX_NOISE_WHITE, 1.0, 0.3, NULL);
      fx_noise_add_source (b, i ? FX_NOISE_OU : FX_NOISE_WHITE, 1.0, 0.3, NULL);
      fx_noise_add_source (c, i ? FX_NOISE_OU : FX_NOISE_WHITE, 1.0, 0.3, NULL);
    }
  for (guint n = 0; n < 20; n++)
    {
      fx_noise_begin_step (a, n, 0.01);
      va[n] = fx_noise_value (a, 1, 0, 1) + 3 * fx_noise_value (a, 0, 0, 1);
    }
  /* b: steps refined, retried, and visited out of order */
  for (guint n = 0; n < 20; n++)
    {
      fx_noise_begin_step (b, n, 0.01);
      fx_noise_value (b, 0, 3, 8);
      fx_noise_value (b, 1, 17, 64);
      fx_noise_begin_step (b, n, 0.01);
      vb = fx_noise_value (b, 1, 0, 1) + 3 * fx_noise_value (b, 0, 0, 1);
      g_assert_cmpfloat (vb, ==, va[n]);
    }
  fx_noise_begin_step (b, 4, 0.01);
  g_assert_cmpfloat (fx_noise_value (b, 1, 0, 1) + 3 * fx_noise_value (b, 0, 0, 1), ==, va[4]);
  /* another sample draws other numbers */
  fx_noise_begin_step (c, 4, 0.01);
  g_assert_cmpfloat (fx_noise_value (c, 0, 0, 1), !=, fx_noise_value (b, 0, 0, 1));
}

/* ------------------------------------------------------------ the engine */

/* A rigid bar of mass m, free, no gravity, pushed along its axis at its
 * centre by a white force of intensity sigma. */
static FxModel *
free_mass (double m, double sigma, double dt)
{
  FxModel *model = fx_model_new ();

  model->gravity[0] = model->gravity[1] = 0.0;
  model->dt = dt;
  fx_model_add_joint (model, "A", 0, 0);
  fx_model_add_joint (model, "B", 1, 0);
  FxLink *l = test_add_link (model, "bar", "A", "B", 2, m, 1e-3, 1e4, 1e4, 1e2);
  l->rigid = TRUE;
  FxLoad *ld = fx_model_add_link_load (model, "bar", 0.5);
  ld->force[0] = 1.0;
  ld->profile.noise = FX_NOISE_WHITE;
  ld->profile.noise_sigma = sigma;
  return model;
}

static void
test_free_mass (void)
{
  const double m = 2.0, sigma = 3.0, dt = 0.01;
  const guint samples = 1500, steps = 10;
  g_autoptr (FxModel) model = free_mass (m, sigma, dt);
  g_autofree double *H = g_new0 (double, samples);
  double mean = 0, var = 0, worst = 0;

  for (guint i = 0; i < samples; i++)
    {
      g_autoptr (FxSystem) sys = test_system (model);
      fx_system_set_noise (sys, 5, i);
      g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
      FxStepReport rep;
      double supplied = 0, scale = 0, worst_here = 0;

      for (guint n = 0; n < steps; n++)
        {
          g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
          supplied += rep.supplied;
          /* E_scale of docs/theory.md §4, over the whole path */
          scale = MAX (scale, MAX (fabs (rep.H), fabs (supplied)));
          worst_here = MAX (worst_here, fabs (rep.balance));
        }
      worst = MAX (worst, worst_here / scale);
      H[i] = rep.H;
      mean += H[i] / samples;
    }
  for (guint i = 0; i < samples; i++)
    var += (H[i] - mean) * (H[i] - mean) / (samples - 1);
  double exact = steps * sigma * sigma * dt / (2 * m), se = sqrt (var / samples);
  g_test_message ("free mass: mean H %.5g after %u steps (n sigma^2 dt / 2m = %.5g, se %.2g); "
                  "worst |balance| / E_scale %.2g", mean, steps, exact, se, worst);
  g_assert_cmpfloat (fabs (mean - exact), <, 4 * se);
  g_assert_cmpfloat (worst, <, 1e-10);
}

/* A rigid bar with a tip mass, pinned to the ground with a torsional
 * spring k and damper c there, and a white torque of intensity sigma (a torque motor): the
 * stationary mean kinetic and spring energies are sigma^2 / (4 c) each. */
static void
test_rotary_oscillator (void)
{
  const double k = 10.0, c = 0.5, sigma = 1.0, dt = 0.005;
  const double t_burn = 4.0, t_end = 14.0;  /* energy relaxes as e^{-c t / I}, I = 0.3 */
  const guint samples = 150;
  g_autoptr (FxModel) model = fx_model_new ();

  model->gravity[0] = model->gravity[1] = 0.0;
  fx_model_add_joint (model, "G", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (model, "T", 1, 0)->mass = 0.2;  /* I = 0.2 + 0.3/3 = 0.3 */
  FxLink *l = test_add_link (model, "bar", "G", "T", 1, 0.3, 1e-6, 1e4, 1e4, 1e2);
  l->rigid = TRUE;
  fx_model_add_spring (model, "s", "G", "bar", NULL, k, c);
  FxMotor *mo = fx_model_add_motor (model, "kick", "G", "bar", NULL, FX_MOTOR_TORQUE, 1.0);
  mo->profile.noise = FX_NOISE_WHITE;
  mo->profile.noise_sigma = sigma;

  g_autofree double *kin = g_new0 (double, samples), *pot = g_new0 (double, samples);
  double worst = 0;
  guint n_burn = (guint) lround (t_burn / dt), n_end = (guint) lround (t_end / dt);
  for (guint i = 0; i < samples; i++)
    {
      g_autoptr (FxSystem) sys = test_system (model);
      fx_system_set_noise (sys, 17, i);
      g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
      FxStepReport rep;
      double supplied = 0, dissipated = 0, scale = 0;

      for (guint n = 1; n <= n_end; n++)
        {
          g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
          supplied += rep.supplied;
          dissipated += rep.dissipated;
          scale = MAX (scale, MAX (rep.H, MAX (fabs (supplied), dissipated)));
          worst = MAX (worst, fabs (rep.balance) / scale);
          if (n > n_burn)
            {
              kin[i] += rep.kinetic / (n_end - n_burn);
              pot[i] += rep.elastic / (n_end - n_burn);
            }
        }
    }
  double mk = 0, mp = 0, vk = 0, vp = 0, exact = sigma * sigma / (4 * c);
  for (guint i = 0; i < samples; i++)
    mk += kin[i] / samples, mp += pot[i] / samples;
  for (guint i = 0; i < samples; i++)
    vk += (kin[i] - mk) * (kin[i] - mk) / (samples - 1),
    vp += (pot[i] - mp) * (pot[i] - mp) / (samples - 1);
  double sek = sqrt (vk / samples), sep = sqrt (vp / samples);
  g_test_message ("rotary oscillator (dt %g, %u samples x %g s, %.0f correlation times "
                  "each): kinetic %.5f (se %.2g), spring %.5f (se %.2g), sigma^2/4c = %.5f; "
                  "worst |balance| / E_scale %.2g", dt, samples, t_end - t_burn,
                  (t_end - t_burn) * c / 0.3, mk, sek, mp, sep, exact, worst);
  g_assert_cmpfloat (fabs (mk - exact), <, 4 * sek);
  g_assert_cmpfloat (fabs (mp - exact), <, 4 * sep);
  g_assert_cmpfloat (worst, <, 1e-10);
}

/* Every step of a noisy path balances energy, the noise's work in
 * `supplied`. */
static void
test_pieces_balance (void)
{
  g_autoptr (FxModel) model = test_load_example ("stochastic-spaghetti.flexion");
  g_autoptr (FxSystem) sys = test_system (model);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, model->tolerance, model->max_iterations);
  FxStepReport rep;
  double supplied = 0, worst = 0, scale = 0;

  g_assert_true (fx_system_has_noise (sys));
  for (guint n = 0; n < 40; n++)
    {
      g_assert_true (fx_integrator_step (it, model->dt, &rep, NULL));
      supplied += rep.supplied;
      scale = MAX (scale, MAX (fabs (rep.H), fabs (supplied)));
      worst = MAX (worst, fabs (rep.balance) / scale);
    }
  g_test_message ("stochastic spaghetti: worst |balance| / E_scale %.2g", worst);
  g_assert_cmpfloat (worst, <, 1e-10);
  g_assert_cmpfloat (fabs (supplied), >, 0.0);
}

/* Steps that the integrator splits into substeps take the bridge's pieces
 * and still balance. Substeps are forced by a long step (0.5 s) and few
 * Newton iterations: the first iteration limit that needs them is used. */
static gboolean
run_with_limit (const FxModel *model, guint max_iterations, guint *most, double *worst)
{
  g_autoptr (FxSystem) sys = test_system (model);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, max_iterations);
  FxStepReport rep;
  double supplied = 0, scale = 0, balance = 0;

  *most = 0;
  for (guint n = 0; n < 10; n++)
    {
      if (!fx_integrator_step (it, 0.5, &rep, NULL))
        return FALSE;
      supplied += rep.supplied;
      *most = MAX (*most, rep.substeps);
      scale = MAX (scale, MAX (fabs (rep.H), fabs (supplied)));
      balance = MAX (balance, fabs (rep.balance));
    }
  *worst = balance / scale;
  return TRUE;
}

static void
test_substeps (void)
{
  g_autoptr (FxModel) model = test_load_example ("stochastic-spaghetti.flexion");
  gboolean found = FALSE;

  for (guint limit = 1; limit <= 10 && !found; limit++)
    {
      guint most;
      double worst;

      if (!run_with_limit (model, limit, &most, &worst) || most < 2)
        continue;
      found = TRUE;
      g_test_message ("at most %u Newton iterations: substeps up to %u; worst |balance| / "
                      "E_scale %.2g", limit, most, worst);
      g_assert_cmpfloat (worst, <, 1e-10);
    }
  g_assert_true (found);
}

/* ------------------------------------------------------------ the file */

static char *
model_text (const char *profile, const char *extra)
{
  return g_strdup_printf (
    "{ \"format\": \"flexion-model\", \"version\": 1, %s"
    "  \"joints\": [ { \"id\": \"A\", \"at\": [0, 0], \"support\": \"clamp\" },"
    "                { \"id\": \"B\", \"at\": [1, 0] } ],"
    "  \"links\": [ { \"id\": \"l\", \"from\": \"A\", \"to\": \"B\", \"elements\": 4,"
    "    \"section\": { \"rhoA\": 1, \"rhoI\": 0.01, \"EA\": 1e4, \"GA\": 1e4, \"EI\": 10 } } ],"
    "  \"loads\": [ { \"joint\": \"B\", \"force\": [0, 1], \"profile\": %s } ] }",
    extra, profile);
}

static void
expect_refused (const char *profile, const char *path)
{
  g_autofree char *text = model_text (profile, "");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_data (text, -1, NULL, &error);

  g_assert_null (m);
  g_assert_nonnull (error);
  g_test_message ("%s -> %s", profile, error->message);
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_file_refused (void)
{
  expect_refused ("{ \"type\": \"white\", \"sigma\": -1 }", "loads[0].profile.sigma");
  expect_refused ("{ \"type\": \"white\" }", "loads[0].profile.sigma");
  expect_refused ("{ \"type\": \"ou\", \"std\": 1, \"tau\": 0 }", "loads[0].profile.tau");
  expect_refused ("{ \"type\": \"ou\", \"std\": 1, \"tau\": -2 }", "loads[0].profile.tau");
  expect_refused ("{ \"type\": \"ou\", \"std\": -0.5, \"tau\": 1 }", "loads[0].profile.std");
  expect_refused ("{ \"type\": \"ou\", \"std\": 1, \"tau\": 1, "
                  "\"times\": { \"type\": \"white\", \"sigma\": 1 } }",
                  "loads[0].profile.times.type");
  expect_refused ("{ \"type\": \"white\", \"sigma\": 1, "
                  "\"times\": { \"type\": \"hat\", \"t1\": 1, \"t2\": 0.5 } }",
                  "loads[0].profile.times.t2");
  /* the seed: a non-negative integer */
  {
    g_autofree char *text = model_text ("{ \"type\": \"white\", \"sigma\": 1 }", "\"seed\": -3,");
    g_autoptr (GError) error = NULL;
    g_autoptr (FxModel) m = fx_model_load_data (text, -1, NULL, &error);
    g_assert_null (m);
    g_assert_nonnull (strstr (error->message, "seed"));
  }
}

static void
test_file_round_trip (void)
{
  g_autofree char *text = model_text (
    "{ \"type\": \"ou\", \"std\": 0.5, \"tau\": 0.2, \"times\": "
    "{ \"type\": \"sine\", \"frequency\": 2 } }", "\"seed\": 12345,");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_data (text, -1, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->seed, ==, 12345);
  const FxProfile *p = &fx_model_load (m, 0)->profile;
  g_assert_cmpint (p->noise, ==, FX_NOISE_OU);
  g_assert_cmpfloat (p->noise_sigma, ==, 0.5);
  g_assert_cmpfloat (p->noise_tau, ==, 0.2);
  g_assert_cmpint (p->type, ==, FX_PROFILE_SINE);
  g_assert_cmpfloat (p->frequency, ==, 2);
  g_assert_true (fx_model_has_noise (m));

  gsize length;
  g_autofree char *saved = fx_model_to_data (m, &length);
  g_autoptr (FxModel) back = fx_model_load_data (saved, (gssize) length, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->seed, ==, 12345);
  const FxProfile *q = &fx_model_load (back, 0)->profile;
  g_assert_cmpint (q->noise, ==, FX_NOISE_OU);
  g_assert_cmpfloat (q->noise_sigma, ==, 0.5);
  g_assert_cmpfloat (q->noise_tau, ==, 0.2);
  g_assert_cmpint (q->type, ==, FX_PROFILE_SINE);
  gsize length2;
  g_autofree char *saved2 = fx_model_to_data (back, &length2);
  g_assert_cmpstr (saved, ==, saved2);

  /* white alone: no "times" written */
  g_autofree char *white = model_text ("{ \"type\": \"white\", \"sigma\": 2 }", "");
  g_autoptr (FxModel) w = fx_model_load_data (white, -1, NULL, &error);
  g_assert_no_error (error);
  g_autofree char *wsaved = fx_model_to_data (w, &length);
  g_assert_nonnull (strstr (wsaved, "\"white\""));
  g_assert_null (strstr (wsaved, "times"));
  g_assert_null (strstr (wsaved, "seed"));
}

/* Profiles naming one stream share one noise; their parameters must agree. */
static void
test_streams (void)
{
  g_autoptr (FxModel) m = test_load_example ("frame-earthquake.flexion");
  g_autoptr (FxNoise) noise = fx_noise_new_for_model (m, m->seed, 0);
  const FxProfile *a = &fx_model_joint (m, 0)->drive_profile;
  const FxProfile *b = &fx_model_joint (m, 1)->drive_profile;

  g_assert_cmpstr (a->noise_stream, ==, "ground");
  g_assert_cmpuint (fx_noise_n_sources (noise), ==, 1);
  g_assert_cmpint (fx_noise_find (noise, a), ==, 0);
  g_assert_cmpint (fx_noise_find (noise, b), ==, 0);

  /* the two bases move as one ground: their distance stays 4 m */
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, 20);
  FxStepReport rep;
  for (guint n = 0; n < 100; n++)
    g_assert_true (fx_integrator_step (it, m->dt, &rep, NULL));
  double xl, yl, xr, yr;
  fx_system_node (sys, 0, 0, &xl, &yl, NULL, NULL);
  fx_system_node (sys, 1, 0, &xr, &yr, NULL, NULL);
  /* (independent noises would part them by centimetres; positions are
   * projections of the velocity field, exact only to the mesh) */
  g_test_message ("bases moved %.4g m, their distance changed by %.2g m", xl, xr - xl - 4.0);
  g_assert_cmpfloat (fabs (xl), >, 1e-3);
  g_assert_cmpfloat (fabs (xr - xl - 4.0), <, 1e-6);

  g_autofree char *text = g_strdup_printf (
    "{ \"format\": \"flexion-model\", \"version\": 1,"
    "  \"joints\": [ { \"id\": \"A\", \"at\": [0, 0], \"support\": \"clamp\" },"
    "                { \"id\": \"B\", \"at\": [1, 0] } ],"
    "  \"links\": [ { \"id\": \"l\", \"from\": \"A\", \"to\": \"B\", \"elements\": 4,"
    "    \"section\": { \"rhoA\": 1, \"rhoI\": 0.01, \"EA\": 1e4, \"GA\": 1e4, \"EI\": 10 } } ],"
    "  \"loads\": [ { \"joint\": \"B\", \"force\": [0, 1], \"profile\": "
    "      { \"type\": \"white\", \"sigma\": 1, \"stream\": \"w\" } },"
    "    { \"joint\": \"B\", \"force\": [1, 0], \"profile\": "
    "      { \"type\": \"white\", \"sigma\": 2, \"stream\": \"w\" } } ] }");
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) bad = fx_model_load_data (text, -1, NULL, &error);
  g_assert_null (bad);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "loads[1].profile.stream"));
}

/* run --seed: the same seed gives the same path, another seed another. */
static void
test_seed_changes_path (void)
{
  g_autoptr (FxModel) model = test_load_example ("stochastic-spaghetti.flexion");
  double tip[3][2];

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr (FxSystem) sys = test_system (model);
      fx_system_set_noise (sys, k == 2 ? 99 : model->seed, 0);
      g_autoptr (FxIntegrator) it = fx_integrator_new (sys, model->tolerance, 20);
      FxStepReport rep;
      for (guint n = 0; n < 20; n++)
        g_assert_true (fx_integrator_step (it, model->dt, &rep, NULL));
      fx_system_point (sys, 0, 1.0, &tip[k][0], &tip[k][1]);
    }
  g_assert_cmpfloat (tip[0][0], ==, tip[1][0]);
  g_assert_cmpfloat (tip[0][1], ==, tip[1][1]);
  g_assert_cmpfloat (fabs (tip[0][0] - tip[2][0]) + fabs (tip[0][1] - tip[2][1]), >, 1e-6);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/noise/ou-statistics", test_ou_statistics);
  g_test_add_func ("/noise/white-bridge", test_white_bridge);
  g_test_add_func ("/noise/ou-bridge", test_ou_bridge);
  g_test_add_func ("/noise/reproducible", test_reproducible);
  g_test_add_func ("/noise/free-mass", test_free_mass);
  g_test_add_func ("/noise/rotary-oscillator", test_rotary_oscillator);
  g_test_add_func ("/noise/balance", test_pieces_balance);
  g_test_add_func ("/noise/substeps", test_substeps);
  g_test_add_func ("/noise/seed", test_seed_changes_path);
  g_test_add_func ("/noise/streams", test_streams);
  g_test_add_func ("/noise/file-refused", test_file_refused);
  g_test_add_func ("/noise/file-round-trip", test_file_round_trip);
  return g_test_run ();
}
