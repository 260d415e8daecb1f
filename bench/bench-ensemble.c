/* bench-ensemble.c: ensemble throughput.
 *
 * 200 samples of the stochastic spaghetti (data/examples/
 * stochastic-spaghetti.flexion, 150 steps each) with 1 and with 2 worker
 * threads, three times each: best samples per second, the two-thread
 * speed-up (target >= 1.7x on 2 idle cores), and a check that both thread
 * counts give the same statistics to the last bit.
 *
 * Not a test: run `build/bench/bench-ensemble [MODEL] [SAMPLES]` (or
 * `meson test -C build --benchmark`). */
#include "fx-ensemble.h"
#include "fx-model-io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FX_EXAMPLES_DIR
#define FX_EXAMPLES_DIR "data/examples"
#endif

static double
best_rate (const FxModel *model, guint samples, guint threads, FxEnsemble **out)
{
  double best = 0.0;

  for (guint rep = 0; rep < 3; rep++)
    {
      FxEnsembleOptions o;
      g_autoptr (GError) error = NULL;

      fx_ensemble_options_init (&o, model);
      o.n_samples = samples;
      o.threads = threads;
      gint64 t0 = g_get_monotonic_time ();
      FxEnsemble *e = fx_ensemble_run (model, &o, &error);
      double wall = (g_get_monotonic_time () - t0) / 1e6;
      if (e == NULL)
        {
          fprintf (stderr, "ensemble failed: %s\n", error->message);
          exit (1);
        }
      best = MAX (best, samples / wall);
      if (*out == NULL)
        *out = e;
      else
        fx_ensemble_free (e);
    }
  return best;
}

int
main (int argc, char **argv)
{
  g_autofree char *path = argc > 1 ? g_strdup (argv[1])
                                   : g_build_filename (FX_EXAMPLES_DIR, "stochastic-spaghetti.flexion", NULL);
  guint samples = argc > 2 ? (guint) atoi (argv[2]) : 200;
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) model = fx_model_load_file (path, NULL, &error);
  FxEnsemble *one = NULL, *two = NULL;

  if (model == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return 1;
    }
  double r1 = best_rate (model, samples, 1, &one);
  double r2 = best_rate (model, samples, 2, &two);
  gboolean same = fx_ensemble_n_ok (one) == fx_ensemble_n_ok (two);
  for (guint i = 0; same && i < fx_ensemble_n_times (one); i++)
    for (guint c = 0; same && c < fx_ensemble_n_columns (one); c++)
      same = fx_ensemble_mean (one, i, c) == fx_ensemble_mean (two, i, c)
             && fx_ensemble_std (one, i, c) == fx_ensemble_std (two, i, c);

  printf ("ensemble of %u samples of %s (%u output times, %u processors):\n", samples, path,
          fx_ensemble_n_times (one), g_get_num_processors ());
  printf ("  1 thread:  %8.1f samples/s\n", r1);
  printf ("  2 threads: %8.1f samples/s  (speed-up %.2fx, target >= 1.7x on 2 idle cores)\n",
          r2, r2 / r1);
  printf ("  statistics identical for 1 and 2 threads: %s; failed samples %u; "
          "max |balance| / E_scale %.2g\n", same ? "yes" : "NO", fx_ensemble_n_failed (one),
          fx_ensemble_worst_balance (one));
  fx_ensemble_free (one);
  fx_ensemble_free (two);
  return same ? 0 : 1;
}
