/* flexion-cli-ensemble.c: the ensemble and ensemble-merge commands.
 *
 *   flexion-cli ensemble MODEL --samples N [--threads T] [--seed S]
 *                        --stats OUT.csv [--paths OUT.csv --keep K]
 *                        [--every K] [--quantile-samples Q]
 *                        [--part k/K --partial OUT]
 *   flexion-cli ensemble-merge PARTIAL... --stats OUT.csv [--paths OUT.csv]
 */
#include "flexion-cli-ensemble.h"
#include "flexion-cli-common.h"
#include "fx-ensemble.h"
#include "fx-model-io.h"
#include "fx-noise.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


const char *flexion_cli_ensemble_usage =
  "Options of ensemble (N samples of a model with noisy loads; the noise of sample i\n"
  "is drawn with (seed, i), so any thread count or split gives the same numbers):\n"
  "  --samples N     number of samples (required)\n"
  "  --threads T     worker threads (default and at most: the processors, and at\n"
  "                  most one per sample)\n"
  "  --seed S        noise seed (default: the model's seed)\n"
  "  --stats FILE    statistics CSV: t, then for H, kinetic, elastic, gravity,\n"
  "                  supplied, dissipated (accumulated) and every probe's .x, .y,\n"
  "                  .vx, .vy, .angle, .N, .V, .M:\n"
  "                  <col>.mean,<col>.std,<col>.q05,<col>.q95\n"
  "  --paths FILE    probe paths of the first K samples: sample,t,<probe>.x,...\n"
  "  --keep K        samples kept for --paths (default 10 with --paths)\n"
  "  --every K       a row every K steps (default: at most 1000 rows)\n"
  "  --quantile-samples Q  quantiles from samples 0..Q-1 (default 1000)\n"
  "  --part k/K      run only the k-th of K shares of the samples (k = 1..K)\n"
  "  --partial FILE  write the share's mergeable partial\n"
  "Options of ensemble-merge PARTIAL...: --stats FILE, --paths FILE (needs partials\n"
  "made with --keep), --allow-incomplete (merge although parts are missing; without\n"
  "it a missing part is refused with exit 2, naming it). The statistics are the\n"
  "same bytes whatever the parts, threads and merge order.\n"
  "Outputs are checked writable before any sample runs.\n";

static void
progress (guint done, guint total, gpointer data)
{
  g_autofree char *text = g_strdup_printf ("%u/%u samples", done, total);

  flexion_cli_progress_bar ((double) done / MAX (total, 1), text);
}

/* k/K with 1 <= k <= K <= samples, digits only (no sign, no overflow:
 * 4294967297/4294967298 was read as 1/2). */
static gboolean
parse_part (const char *s, guint samples, guint *part, guint *n_parts)
{
  g_auto (GStrv) halves = s ? g_strsplit (s, "/", 3) : NULL;
  guint64 k = 0, n = 0;

  if (halves == NULL || g_strv_length (halves) != 2
      || !g_ascii_string_to_unsigned (halves[1], 10, 1, samples, &n, NULL)
      || !g_ascii_string_to_unsigned (halves[0], 10, 1, n, &k, NULL))
    return FALSE;
  *part = (guint) k - 1;
  *n_parts = (guint) n;
  return TRUE;
}

static void
report_failures (const FxEnsemble *e)
{
  for (guint i = 0; i < fx_ensemble_n_failed (e); i++)
    {
      const FxEnsembleFailure *f = fx_ensemble_failure (e, i);

      g_printerr ("sample %u failed at t = %.6g s (residual %.3g), left out of the "
                  "statistics: %s\n", f->sample, f->t, f->residual, f->message);
    }
}

static int
write_outputs (const char *command, const FxEnsemble *e, const char *stats, const char *paths,
               const char *partial)
{
  g_autoptr (GError) error = NULL;

  if (fx_ensemble_n_ok (e) == 0 && (stats || paths))
    {
      g_printerr ("flexion-cli: every sample failed; no statistics written\n");
      return EXIT_SOLVER;
    }
  if ((stats && !fx_ensemble_write_stats (e, stats, &error))
      || (paths && !fx_ensemble_write_paths (e, paths, &error))
      || (partial && !fx_ensemble_save (e, partial, &error)))
    return flexion_cli_write_failed (command, error);
  return 0;
}

typedef struct {
  int samples, threads, keep, every, quantile_samples;  /* keep, quantile_samples: G_MININT not given */
  gint64 seed;
  const char *stats, *paths, *partial, *part;
} EnsembleArgs;

static int
run_ensemble (const char *path, const EnsembleArgs *a)
{
  g_autoptr (GError) error = NULL;
  FxEnsembleOptions o;
  int status = EXIT_USAGE;

  guint part = 0, n_parts = 1;
  if (a->part && !parse_part (a->part, (guint) a->samples, &part, &n_parts))
    {
      g_printerr ("flexion-cli ensemble: --part expects k/K with 1 <= k <= K <= --samples (%d), "
                  "got \"%s\"\n", a->samples, a->part);
      return status;
    }
  /* an unwritable output is known before hours of samples, not after */
  if (!flexion_cli_check_writable ("ensemble", a->stats)
      || !flexion_cli_check_writable ("ensemble", a->paths)
      || !flexion_cli_check_writable ("ensemble", a->partial))
    return EXIT_WRITE;
  g_autoptr (FxModel) model = flexion_cli_load_model (path);
  if (model == NULL)
    return EXIT_INVALID;
  fx_ensemble_options_init (&o, model);
  o.part = part;
  o.n_parts = n_parts;
  o.n_samples = (guint) a->samples;
  o.threads = (guint) a->threads;
  o.every = (guint) a->every;
  if (a->seed != G_MININT64)
    o.seed = (guint64) a->seed;
  if (a->quantile_samples >= 0)
    o.quantile_samples = (guint) a->quantile_samples;
  o.keep = a->keep >= 0 ? (guint) a->keep : a->paths ? 10 : 0;
  if (!fx_model_has_noise (model))
    g_printerr ("%s: note: the model has no noisy load, so every sample is the same\n", path);

  gboolean tty = isatty (2);
  if (tty)
    {
      o.progress = progress;
      o.progress_data = NULL;
    }
  gint64 start = g_get_monotonic_time ();
  /* SIGINT/SIGTERM: the workers stop within a Newton iteration, nothing is
   * written (a part of the samples is not the study) */
  flexion_cli_catch_signals ();
  o.cancel = flexion_cli_cancel_flag ();
  g_autoptr (FxEnsemble) e = fx_ensemble_run (model, &o, &error);
  if (tty)
    g_printerr ("\n");
  if (flexion_cli_interrupted)
    return flexion_cli_interrupted_status ("ensemble");
  if (e == NULL)
    {
      g_printerr ("flexion-cli ensemble: %s\n", error->message);
      return EXIT_INVALID;
    }
  report_failures (e);
  double wall = (g_get_monotonic_time () - start) / 1e6;
  guint ran = fx_ensemble_n_ok (e) + fx_ensemble_n_failed (e);
  printf ("%u samples (%u failed) in %.3f s wall (%.2f samples/s); "
          "max |balance| %.3g of the energy scale\n", ran, fx_ensemble_n_failed (e), wall,
          wall > 0 ? ran / wall : 0.0, fx_ensemble_worst_balance (e));
  status = write_outputs ("ensemble", e, a->stats, a->paths, a->partial);

  return status;
}

int
flexion_cli_ensemble (int argc, char **argv)
{
  /* G_MININT: not given (-1 given is refused, not taken for the default) */
  int samples = 0, threads = 0, keep = G_MININT, every = 0, quantile_samples = G_MININT;
  gint64 seed = G_MININT64;  /* not given */
  char *stats = NULL, *paths = NULL, *partial = NULL, *part = NULL, *max_memory = NULL;
  GOptionEntry entries[] = {
    { "samples", 0, 0, G_OPTION_ARG_INT, &samples, "Number of samples", "N" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Worker threads", "T" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Noise seed", "S" },
    { "stats", 0, 0, G_OPTION_ARG_FILENAME, &stats, "Statistics CSV", "FILE" },
    { "paths", 0, 0, G_OPTION_ARG_FILENAME, &paths, "Probe paths CSV", "FILE" },
    { "keep", 0, 0, G_OPTION_ARG_INT, &keep, "Samples kept for --paths", "K" },
    { "every", 0, 0, G_OPTION_ARG_INT, &every, "A row every K steps", "K" },
    { "quantile-samples", 0, 0, G_OPTION_ARG_INT, &quantile_samples, "Quantile samples", "Q" },
    { "part", 0, 0, G_OPTION_ARG_STRING, &part, "Share k of K", "k/K" },
    { "partial", 0, 0, G_OPTION_ARG_FILENAME, &partial, "Mergeable partial", "FILE" },
    { "max-memory", 0, 0, G_OPTION_ARG_STRING, &max_memory, "Memory limit", "SIZE" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("MODEL");
  g_autoptr (GError) error = NULL;
  int status = EXIT_USAGE;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("flexion-cli ensemble: %s\n\n%s", error->message, flexion_cli_ensemble_usage);
      goto out;
    }
  if (argc != 2 || samples < 1 || (guint) samples > FX_NOISE_MAX_SAMPLES || threads < 0
      || every < 0 || (keep < 0 && keep != G_MININT)
      || (quantile_samples < 0 && quantile_samples != G_MININT)
      || (seed != G_MININT64 && (seed < 0 || seed > G_MAXUINT32))
      || (stats == NULL && partial == NULL && paths == NULL))
    {
      g_printerr ("flexion-cli ensemble: expected one MODEL, --samples N from 1 to %u and an "
                  "output (--stats, --paths or --partial); --seed from 0 to %u; --threads, "
                  "--every, --keep and --quantile-samples not negative\n\n%s",
                  FX_NOISE_MAX_SAMPLES, G_MAXUINT32, flexion_cli_ensemble_usage);
      goto out;
    }
  if (paths && keep == 0)
    {
      g_printerr ("flexion-cli ensemble: --paths with --keep 0 would write no path\n");
      goto out;
    }
  if (!flexion_cli_apply_max_memory ("ensemble", max_memory))
    goto out;

  EnsembleArgs a = { samples, threads, keep, every, quantile_samples, seed,
                     stats, paths, partial, part };
  status = run_ensemble (argv[1], &a);

out:
  g_free (stats);
  g_free (paths);
  g_free (partial);
  g_free (part);
  g_free (max_memory);
  return status;
}

static int
merge_parts (int n, char **files, const char *stats, const char *paths, gboolean allow_incomplete)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_ensemble_free);

  for (int i = 0; i < n; i++)
    {
      FxEnsemble *p = fx_ensemble_load (files[i], &error);

      if (p == NULL)
        {
          g_printerr ("flexion-cli ensemble-merge: %s\n", error->message);
          return EXIT_INVALID;
        }
      g_ptr_array_add (parts, p);
    }
  g_autoptr (FxEnsemble) e = fx_ensemble_merge ((FxEnsemble *const *) parts->pdata, parts->len,
                                                &error);
  if (e == NULL)
    {
      g_printerr ("flexion-cli ensemble-merge: %s\n", error->message);
      return EXIT_INVALID;
    }
  /* statistics over 70 of 80 samples are not the study's: refused unless
   * asked for (a cluster task that failed must not go unnoticed) */
  g_autofree char *missing = fx_ensemble_missing ((FxEnsemble *const *) parts->pdata, parts->len);
  if (missing && !allow_incomplete)
    {
      g_printerr ("flexion-cli ensemble-merge: %s; merge them all, or pass --allow-incomplete "
                  "for statistics of the samples present\n", missing);
      return EXIT_INVALID;
    }
  if (missing)
    g_printerr ("flexion-cli ensemble-merge: note: %s\n", missing);
  if (paths && fx_ensemble_n_paths (e) == 0)
    {
      g_printerr ("flexion-cli ensemble-merge: --paths: the partials keep no probe paths "
                  "(run ensemble with --keep K)\n");
      return EXIT_USAGE;
    }
  report_failures (e);
  printf ("%u samples merged from %u partials (%u failed)\n",
          fx_ensemble_n_ok (e) + fx_ensemble_n_failed (e), parts->len, fx_ensemble_n_failed (e));
  return write_outputs ("ensemble-merge", e, stats, paths, NULL);
}

int
flexion_cli_ensemble_merge (int argc, char **argv)
{
  char *stats = NULL, *paths = NULL;
  gboolean allow_incomplete = FALSE;
  GOptionEntry entries[] = {
    { "stats", 0, 0, G_OPTION_ARG_FILENAME, &stats, "Statistics CSV", "FILE" },
    { "paths", 0, 0, G_OPTION_ARG_FILENAME, &paths, "Probe paths CSV", "FILE" },
    { "allow-incomplete", 0, 0, G_OPTION_ARG_NONE, &allow_incomplete,
      "Merge even if parts are missing", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("PARTIAL...");
  g_autoptr (GError) error = NULL;
  int status = EXIT_USAGE;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc < 2
      || (stats == NULL && paths == NULL))
    {
      g_printerr ("flexion-cli ensemble-merge: expected PARTIAL files and --stats or --paths\n"
                  "\n%s", flexion_cli_ensemble_usage);
      goto out;
    }
  if (!flexion_cli_check_writable ("ensemble-merge", stats)
      || !flexion_cli_check_writable ("ensemble-merge", paths))
    status = EXIT_WRITE;
  else
    status = merge_parts (argc - 1, argv + 1, stats, paths, allow_incomplete);

out:
  g_free (stats);
  g_free (paths);
  return status;
}
