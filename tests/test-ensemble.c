/* test-ensemble.c: ensembles of noisy samples (fx-ensemble.h).
 *
 * The statistics do not depend on the thread count (byte-identical CSV);
 * four partials, saved and loaded, merge to a single run's statistics
 * (means and deviations to 1e-12 relative, quantiles exactly); every
 * sample path balances energy; failed samples are named and left out.
 */
#include "fx-ensemble.h"
#include "test-models.h"

#include <glib/gstdio.h>
#include <string.h>

static char *tmpdir;

static FxEnsemble *
run (const FxModel *model, guint n, guint threads, guint part, guint n_parts, guint q)
{
  FxEnsembleOptions o;
  g_autoptr (GError) error = NULL;

  fx_ensemble_options_init (&o, model);
  o.n_samples = n;
  o.threads = threads;
  o.part = part;
  o.n_parts = n_parts;
  o.quantile_samples = q;
  o.keep = 3;
  FxEnsemble *e = fx_ensemble_run (model, &o, &error);
  g_assert_no_error (error);
  return e;
}

static char *
contents (const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
write_stats (const FxEnsemble *e, const char *name)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (fx_ensemble_write_stats (e, path, &error));
  g_assert_no_error (error);
}

static void
test_threads (void)
{
  g_autoptr (FxModel) model = test_load_example ("stochastic-spaghetti.flexion");
  g_autoptr (FxEnsemble) one = run (model, 10, 1, 0, 1, 1000);
  g_autoptr (FxEnsemble) two = run (model, 10, 2, 0, 1, 1000);

  write_stats (one, "one.csv");
  write_stats (two, "two.csv");
  g_autofree char *a = contents ("one.csv"), *b = contents ("two.csv");
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpuint (fx_ensemble_n_ok (one), ==, 10);
  /* the header: t, then mean, std, q05, q95 of each column */
  g_assert_true (g_str_has_prefix (a, "t,H.mean,H.std,H.q05,H.q95,kinetic.mean,"));
  g_assert_nonnull (strstr (a, ",tip.y.mean,tip.y.std,tip.y.q05,tip.y.q95,tip.vx.mean,"));
  /* every probe value of fx-measure.h, the moment last */
  g_assert_nonnull (strstr (a, ",tip.angle.mean,tip.angle.std,tip.angle.q05,tip.angle.q95,tip.N.mean,"));
  g_assert_nonnull (strstr (a, ",tip.M.mean,tip.M.std,tip.M.q05,tip.M.q95\n"));
  /* every sample path balances energy */
  g_test_message ("worst |balance| / E_scale over 10 samples: %.2g",
                  fx_ensemble_worst_balance (one));
  g_assert_cmpfloat (fx_ensemble_worst_balance (one), <, 1e-10);
  /* the samples differ (the noise is there) */
  guint last = fx_ensemble_n_times (one) - 1;
  g_assert_cmpfloat (fx_ensemble_std (one, last, FX_ENSEMBLE_N_ENERGY), >, 1e-3);
  g_assert_cmpfloat (fx_ensemble_quantile (one, last, FX_ENSEMBLE_H, 0.05), <=,
                     fx_ensemble_quantile (one, last, FX_ENSEMBLE_H, 0.95));
}

static gboolean
close_rel (double a, double b, double rel)
{
  return fabs (a - b) <= rel * MAX (fabs (a), fabs (b));
}

/* A single run against four partials saved, loaded and merged (in a
 * scrambled order); the quantiles use the first 7 of 13 samples. */
static void
test_parts (void)
{
  g_autoptr (FxModel) model = test_load_example ("stochastic-spaghetti.flexion");
  const guint n = 13, q = 7;
  g_autoptr (FxEnsemble) whole = run (model, n, 2, 0, 1, q);
  FxEnsemble *parts[4];
  const guint order[4] = { 2, 0, 3, 1 };

  model->t_end = 5.0;  /* the single run was longer: merged must refuse it */
  for (guint k = 0; k < 4; k++)
    {
      g_autoptr (FxModel) m = test_load_example ("stochastic-spaghetti.flexion");
      g_autoptr (FxEnsemble) p = run (m, n, 1, order[k], 4, q);
      g_autofree char *path = g_strdup_printf ("%s/part%u.bin", tmpdir, k);
      g_autoptr (GError) error = NULL;

      g_assert_true (fx_ensemble_save (p, path, &error));
      parts[k] = fx_ensemble_load (path, &error);
      g_assert_no_error (error);
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (FxEnsemble) merged = fx_ensemble_merge (parts, 4, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (fx_ensemble_n_ok (merged), ==, n);
  g_assert_cmpuint (fx_ensemble_n_times (merged), ==, fx_ensemble_n_times (whole));
  double worst_mean = 0, worst_std = 0;
  for (guint i = 0; i < fx_ensemble_n_times (whole); i++)
    for (guint c = 0; c < fx_ensemble_n_columns (whole); c++)
      {
        double ma = fx_ensemble_mean (whole, i, c), mb = fx_ensemble_mean (merged, i, c);
        double sa = fx_ensemble_std (whole, i, c), sb = fx_ensemble_std (merged, i, c);

        if (ma != mb)
          worst_mean = MAX (worst_mean, fabs (ma - mb) / MAX (fabs (ma), fabs (mb)));
        if (sa != sb)
          worst_std = MAX (worst_std, fabs (sa - sb) / MAX (fabs (sa), fabs (sb)));
        g_assert_true (close_rel (ma, mb, 1e-12));
        g_assert_true (close_rel (sa, sb, 1e-12));
        g_assert_cmpfloat (fx_ensemble_quantile (whole, i, c, 0.05), ==,
                           fx_ensemble_quantile (merged, i, c, 0.05));
        g_assert_cmpfloat (fx_ensemble_quantile (whole, i, c, 0.95), ==,
                           fx_ensemble_quantile (merged, i, c, 0.95));
      }
  g_test_message ("4 parts merged vs one run: largest relative difference of means %.2g, "
                  "of standard deviations %.2g; quantiles identical", worst_mean, worst_std);

  /* a partial of another study, or the same part twice, is refused */
  g_autoptr (FxEnsemble) other = run (model, n, 1, 0, 4, q);
  FxEnsemble *wrong[2] = { parts[0], other };
  g_assert_null (fx_ensemble_merge (wrong, 2, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  FxEnsemble *twice[2] = { parts[0], parts[0] };
  g_assert_null (fx_ensemble_merge (twice, 2, &error));
  g_assert_nonnull (error);
  for (guint k = 0; k < 4; k++)
    fx_ensemble_free (parts[k]);
}

/* A noise far too strong for the step: the samples fail, are named with
 * their time and residual, and are left out of the statistics (the stats
 * file then has empty cells, never NaN). */
static void
test_failures (void)
{
  g_autoptr (FxModel) model = test_load_example ("stochastic-spaghetti.flexion");

  /* the checker's limit (FX_MAX_NOISE), with a Newton allowed few iterations */
  fx_model_load (model, 1)->profile.noise_sigma = FX_MAX_NOISE;
  model->max_iterations = 3;
  g_autoptr (FxEnsemble) e = run (model, 3, 2, 0, 1, 1000);
  g_assert_cmpuint (fx_ensemble_n_ok (e) + fx_ensemble_n_failed (e), ==, 3);
  g_assert_cmpuint (fx_ensemble_n_failed (e), >, 0);
  for (guint i = 0; i < fx_ensemble_n_failed (e); i++)
    {
      const FxEnsembleFailure *f = fx_ensemble_failure (e, i);

      g_test_message ("sample %u failed at t = %g (residual %.3g): %s", f->sample, f->t,
                      f->residual, f->message);
      g_assert_cmpuint (f->sample, <, 3);
      g_assert_true (isfinite (f->t));
      g_assert_nonnull (f->message);
      if (i > 0)
        g_assert_cmpuint (f->sample, >, fx_ensemble_failure (e, i - 1)->sample);
    }
  g_autofree char *path = g_build_filename (tmpdir, "failed.csv", NULL);
  g_assert_true (fx_ensemble_write_stats (e, path, NULL));
  g_autofree char *text = contents ("failed.csv");
  g_assert_null (strstr (text, "nan"));
  g_assert_null (strstr (text, "inf"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("flexion-test-ensemble-XXXXXX", NULL);
  g_test_add_func ("/ensemble/threads", test_threads);
  g_test_add_func ("/ensemble/parts", test_parts);
  g_test_add_func ("/ensemble/failures", test_failures);
  int status = g_test_run ();
  g_autoptr (GDir) dir = g_dir_open (tmpdir, 0, NULL);
  const char *name;
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (tmpdir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (tmpdir);
  return status;
}
