/* fx-ensemble.c: samples on worker threads, folded in sample order into
 * mergeable statistics (see fx-ensemble.h). */
#include "fx-ensemble-private.h"
#include "fx-output.h"
#include "fx-csv.h"
#include "fx-exact-sum.h"
#include "fx-integrator.h"
#include "fx-model-io.h"
#include "fx-noise.h"
#include "fx-system.h"
#include "fx-measure.h"
#include "fx-memory.h"
#include "fx-cancel.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif
#include <stdio.h>

static const char *const energy_names[FX_ENSEMBLE_N_ENERGY] = {
  "H", "kinetic", "elastic", "gravity", "supplied", "dissipated"
};


/* ------------------------------------------------------------ basics */

FxEnsemble *
fx_ensemble_new (guint n_times, const double *times, GPtrArray *cols)
{
  FxEnsemble *e = g_new0 (FxEnsemble, 1);

  e->n_times = n_times;
  e->times = g_memdup2 (times, sizeof (double) * MAX (n_times, 1));
  e->cols = g_ptr_array_new_with_free_func (g_free);
  for (guint c = 0; c < cols->len; c++)
    g_ptr_array_add (e->cols, g_strdup (g_ptr_array_index (cols, c)));
  e->n_cols = cols->len;
  e->s1 = g_new0 (FxExactSum, MAX (n_times * e->n_cols, 1));
  e->s2 = g_new0 (FxExactSum, MAX (n_times * e->n_cols, 1));
  e->mean = g_new0 (double, MAX (n_times * e->n_cols, 1));
  e->m2 = g_new0 (double, MAX (n_times * e->n_cols, 1));
  e->n_parts = 1;
  e->q_index = g_array_new (FALSE, FALSE, sizeof (guint));
  e->q_values = g_array_new (FALSE, FALSE, sizeof (double));
  e->failures = g_array_new (FALSE, TRUE, sizeof (FxEnsembleFailure));
  e->path_index = g_array_new (FALSE, FALSE, sizeof (guint));
  e->path_values = g_array_new (FALSE, FALSE, sizeof (double));
  return e;
}

void
fx_ensemble_free (FxEnsemble *e)
{
  if (e == NULL)
    return;
  g_free (e->times);
  g_ptr_array_unref (e->cols);
  g_free (e->model_sum);
  g_free (e->source);
  for (gsize k = 0; k < (gsize) e->n_times * e->n_cols; k++)
    {
      fx_exact_sum_clear (&e->s1[k]);
      fx_exact_sum_clear (&e->s2[k]);
    }
  g_free (e->s1);
  g_free (e->s2);
  g_free (e->mean);
  g_free (e->m2);
  g_array_unref (e->q_index);
  g_array_unref (e->q_values);
  for (guint i = 0; i < e->failures->len; i++)
    g_free (g_array_index (e->failures, FxEnsembleFailure, i).message);
  g_array_unref (e->failures);
  g_array_unref (e->path_index);
  g_array_unref (e->path_values);
  g_free (e->q_cache);
  g_free (e);
}

static guint
n_probe_cols (const FxEnsemble *e)
{
  return e->n_cols - FX_ENSEMBLE_N_ENERGY;
}

guint fx_ensemble_n_times (const FxEnsemble *e) { return e->n_times; }
guint fx_ensemble_n_columns (const FxEnsemble *e) { return e->n_cols; }
const char *fx_ensemble_column_name (const FxEnsemble *e, guint c) { return g_ptr_array_index (e->cols, c); }
double fx_ensemble_time (const FxEnsemble *e, guint i) { return e->times[i]; }
guint fx_ensemble_n_samples (const FxEnsemble *e) { return e->n_samples; }
guint fx_ensemble_n_ok (const FxEnsemble *e) { return (guint) e->n_ok; }
guint fx_ensemble_n_failed (const FxEnsemble *e) { return e->failures->len; }
double fx_ensemble_worst_balance (const FxEnsemble *e) { return e->worst_balance; }

guint
fx_ensemble_n_paths (const FxEnsemble *e)
{
  return e->path_index->len;
}

guint
fx_ensemble_path_sample (const FxEnsemble *e, guint k)
{
  return g_array_index (e->path_index, guint, k);
}

double
fx_ensemble_path_value (const FxEnsemble *e, guint k, guint i, guint c)
{
  return g_array_index (e->path_values, double, ((gsize) k * e->n_times + i) * e->n_cols + c);
}

const FxEnsembleFailure *
fx_ensemble_failure (const FxEnsemble *e, guint i)
{
  return &g_array_index (e->failures, FxEnsembleFailure, i);
}

/* Mean and M2 (the sum of squared deviations) of every cell from the exact
 * sums, each rounded once: n M2 = n S2 - S1^2 exactly, then rounded. */
static void
update_moments (FxEnsemble *e)
{
  gsize cells = (gsize) e->n_times * e->n_cols;
  double n = (double) e->n_ok;

  if (!e->moments_stale)
    return;
  for (gsize k = 0; k < cells; k++)
    {
      e->mean[k] = e->n_ok > 0 ? fx_exact_sum_value (&e->s1[k]) / n : 0.0;
      e->m2[k] = e->n_ok > 0 ? fx_exact_sum_spread (&e->s1[k], &e->s2[k], n) / n : 0.0;
    }
  e->moments_stale = FALSE;
}

double
fx_ensemble_mean (const FxEnsemble *e, guint i, guint c)
{
  update_moments ((FxEnsemble *) e);
  return e->mean[i * e->n_cols + c];
}

/* The sample standard deviation (divisor n - 1). */
double
fx_ensemble_std (const FxEnsemble *e, guint i, guint c)
{
  update_moments ((FxEnsemble *) e);
  return e->n_ok > 1 ? sqrt (MAX (e->m2[i * e->n_cols + c], 0.0) / (double) (e->n_ok - 1)) : 0.0;
}

static void
sorted_cell (const FxEnsemble *e, guint cell, double *v)
{
  guint n = e->q_index->len, stride = e->n_times * e->n_cols;

  for (guint k = 0; k < n; k++)
    v[k] = g_array_index (e->q_values, double, (gsize) k * stride + cell);
  gsl_sort (v, 1, n);
}

/* The quantiles the CSV and the plots ask for, sorted once per cell (a
 * plot redraws every frame). Computed on first use, after the run. */
static const double *
quantile_cache (FxEnsemble *e)
{
  guint n = e->q_index->len, cells = e->n_times * e->n_cols;

  if (e->q_cache == NULL && n > 0)
    {
      g_autofree double *v = g_new (double, n);

      e->q_cache = g_new (double, (gsize) 4 * cells);
      for (guint k = 0; k < cells; k++)
        {
          sorted_cell (e, k, v);
          e->q_cache[4 * k] = v[0];
          e->q_cache[4 * k + 1] = gsl_stats_quantile_from_sorted_data (v, 1, n, 0.05);
          e->q_cache[4 * k + 2] = gsl_stats_quantile_from_sorted_data (v, 1, n, 0.95);
          e->q_cache[4 * k + 3] = v[n - 1];
        }
    }
  return e->q_cache;
}

double
fx_ensemble_quantile (const FxEnsemble *e, guint i, guint c, double p)
{
  guint n = e->q_index->len, cell = i * e->n_cols + c;

  if (n == 0)
    return NAN;
  const double *q = quantile_cache ((FxEnsemble *) e);
  if (p == 0.0 || p == 0.05 || p == 0.95 || p == 1.0)
    return q[4 * cell + (p == 0.0 ? 0 : p == 0.05 ? 1 : p == 0.95 ? 2 : 3)];
  g_autofree double *v = g_new (double, n);
  sorted_cell (e, cell, v);
  return gsl_stats_quantile_from_sorted_data (v, 1, n, p);
}

/* ------------------------------------------------------------ options */

static guint
n_steps_of (const FxModel *model)
{
  return (guint) ceil (model->t_end / model->dt - 1e-9);
}

void
fx_ensemble_options_init (FxEnsembleOptions *o, const FxModel *model)
{
  memset (o, 0, sizeof *o);
  o->n_samples = 20;
  o->n_parts = 1;
  o->seed = model ? model->seed : 0;
  o->quantile_samples = FX_ENSEMBLE_DEFAULT_QUANTILE_SAMPLES;
}

static guint
every_of (const FxModel *model, const FxEnsembleOptions *o)
{
  guint n_steps = n_steps_of (model);

  if (o->every > 0)
    return o->every;
  return MAX (1u, (n_steps + FX_ENSEMBLE_MAX_TIMES - 2) / (FX_ENSEMBLE_MAX_TIMES - 1));
}

/* Output rows: t = 0, every `every` steps, and the last step. */
static guint
output_times (const FxModel *model, guint every, double **times)
{
  guint n_steps = n_steps_of (model), n = 1;

  *times = g_new (double, n_steps / every + 2);
  (*times)[0] = 0.0;
  for (guint s = 1; s <= n_steps; s++)
    if (s % every == 0 || s == n_steps)
      (*times)[n++] = s * model->dt;
  return n;
}

static GPtrArray *
column_names (const FxModel *model)
{
  GPtrArray *cols = g_ptr_array_new_with_free_func (g_free);

  for (guint c = 0; c < FX_ENSEMBLE_N_ENERGY; c++)
    g_ptr_array_add (cols, g_strdup (energy_names[c]));
  for (guint p = 0; p < model->probes->len; p++)
    for (guint k = 0; k < FX_PROBE_N_VALUES; k++)
      g_ptr_array_add (cols, g_strconcat (fx_model_probe (model, p)->id, fx_probe_suffix[k], NULL));
  return cols;
}

static char *
model_checksum (const FxModel *model)
{
  gsize length = 0;
  g_autoptr (FxModel) copy = fx_model_copy (model);
  g_autofree char *data = NULL;

  copy->seed = 0;  /* the seed is stored on its own */
  data = fx_model_to_data (copy, &length);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
}

/* ------------------------------------------------------------ one sample */

typedef struct {
  guint sample;
  gboolean ok;
  double *values;        /* n_times * n_cols */
  double worst_balance;  /* |balance| / E_scale */
  FxEnsembleFailure failure;
} SampleResult;

typedef struct {
  const FxModel *model;
  const FxEnsembleOptions *options;
  FxEnsemble *e;
  guint every, n_steps;
  int *probe_link;
  gint next;          /* atomic: next share index to run      */
  GMutex lock;
  GHashTable *pending;/* share index -> SampleResult, out of order */
  guint next_fold, done;
} Run;

static void
record (const Run *run, FxSystem *sys, const FxStepReport *rep, double supplied,
        double dissipated, double *row)
{
  const FxModel *model = run->model;

  row[FX_ENSEMBLE_H] = rep->H;
  row[FX_ENSEMBLE_KINETIC] = rep->kinetic;
  row[FX_ENSEMBLE_ELASTIC] = rep->elastic;
  row[FX_ENSEMBLE_GRAVITY] = rep->gravity;
  row[FX_ENSEMBLE_SUPPLIED] = supplied;
  row[FX_ENSEMBLE_DISSIPATED] = dissipated;
  for (guint p = 0; p < model->probes->len; p++)
    fx_system_probe_values (sys, (guint) run->probe_link[p], fx_model_probe (model, p)->s,
                            &row[FX_ENSEMBLE_PROBE_COLUMN (p, 0)]);
}

static void
sample_failed (SampleResult *res, double t, double residual, const char *message)
{
  res->ok = FALSE;
  res->failure.sample = res->sample;
  res->failure.t = t;
  res->failure.residual = residual;
  res->failure.message = g_strdup (message);
}

/* Runs sample `res->sample` over the model's span. The energy scale of the
 * balance is docs/theory.md §4's: the largest |H|, |work supplied| and
 * kinetic or potential energy of the path. */
static void
run_sample (const Run *run, SampleResult *res)
{
  g_autoptr (GError) error = NULL;
  const FxModel *model = run->model;
  guint n_cols = run->e->n_cols, row = 0;
  g_autoptr (FxSystem) sys = fx_system_new (model, &error);

  if (sys == NULL)
    {
      sample_failed (res, 0.0, 0.0, error->message);
      return;
    }
  fx_system_set_noise (sys, run->options->seed, res->sample);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, model->tolerance, model->max_iterations);
  FxStepReport rep;
  double supplied = 0.0, dissipated = 0.0, worst = 0.0, scale;

  fx_integrator_report (it, &rep);
  scale = fabs (rep.H);
  record (run, sys, &rep, 0.0, 0.0, res->values);
  for (guint step = 1; step <= run->n_steps; step++)
    {
      double t_good = fx_system_time (sys);

      if (!fx_integrator_step (it, model->dt, &rep, &error))
        {
          sample_failed (res, t_good, rep.residual, error->message);
          return;
        }
      supplied += rep.supplied;
      dissipated += rep.dissipated;
      worst = MAX (worst, fabs (rep.balance));
      scale = MAX (scale, MAX (fabs (rep.H), fabs (supplied)));
      scale = MAX (scale, MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))));
      scale = MAX (scale, rep.scale);
      if (step % run->every == 0 || step == run->n_steps)
        record (run, sys, &rep, supplied, dissipated, res->values + (gsize) (++row) * n_cols);
    }
  res->ok = TRUE;
  res->worst_balance = scale > 0.0 ? worst / scale : worst;
}

/* ------------------------------------------------------------ folding */

/* The sample's values into the exact sums, cell by cell. */
static void
fold (const Run *run, SampleResult *res)
{
  FxEnsemble *e = run->e;
  guint cells = e->n_times * e->n_cols;

  if (!res->ok)
    {
      g_array_append_val (e->failures, res->failure);
      res->failure.message = NULL;  /* now owned by e */
      return;
    }
  e->n_ok++;
  g_clear_pointer (&e->q_cache, g_free);
  e->moments_stale = TRUE;
  for (guint k = 0; k < cells; k++)
    {
      fx_exact_sum_add (&e->s1[k], res->values[k]);
      fx_exact_sum_add_square (&e->s2[k], res->values[k]);
    }
  e->worst_balance = MAX (e->worst_balance, res->worst_balance);
  if (res->sample < e->quantile_samples)
    {
      g_array_append_val (e->q_index, res->sample);
      g_array_append_vals (e->q_values, res->values, cells);
    }
  if (res->sample < e->keep)
    {
      g_array_append_val (e->path_index, res->sample);
      g_array_append_vals (e->path_values, res->values, cells);
    }
}

static void
result_free (gpointer data)
{
  SampleResult *res = data;

  g_free (res->values);
  g_free (res->failure.message);
  g_free (res);
}

/* Hands a finished sample over; folds every sample now in order. */
static void
deliver (Run *run, guint index, SampleResult *res)
{
  g_mutex_lock (&run->lock);
  g_hash_table_insert (run->pending, GUINT_TO_POINTER (index), res);
  while ((res = g_hash_table_lookup (run->pending, GUINT_TO_POINTER (run->next_fold))))
    {
      fold (run, res);
      g_hash_table_remove (run->pending, GUINT_TO_POINTER (run->next_fold));
      run->next_fold++;
    }
  run->done++;
  if (run->options->progress)
    run->options->progress (run->done, run->e->count, run->options->progress_data);
  g_mutex_unlock (&run->lock);
}

static gpointer
worker (gpointer data)
{
  Run *run = data;

#ifdef __linux__
  /* on Linux the niceness is per thread: only this worker yields */
  if (run->options->nice > 0)
    setpriority (PRIO_PROCESS, 0, run->options->nice);
#endif
  /* a sample under way stops within a Newton iteration, not at its end */
  gint *before = fx_cancel_attach (run->options->cancel);

  for (;;)
    {
      guint index = (guint) g_atomic_int_add (&run->next, 1);
      SampleResult *res;

      if (index >= run->e->count
          || (run->options->cancel && g_atomic_int_get (run->options->cancel)))
        break;
      res = g_new0 (SampleResult, 1);
      res->sample = run->e->first + index;
      res->values = g_new0 (double, (gsize) run->e->n_times * run->e->n_cols);
      run_sample (run, res);
      deliver (run, index, res);
    }
  fx_cancel_attach (before);
  return NULL;
}

/* The process's resident bytes (Linux; 0 elsewhere). */
static guint64
resident_bytes (void)
{
#ifdef __linux__
  g_autofree char *statm = NULL;
  unsigned long long size = 0, resident = 0;
  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL)
      && sscanf (statm, "%llu %llu", &size, &resident) == 2)
    return resident * (guint64) sysconf (_SC_PAGESIZE);
#endif
  return 0;
}

static gboolean
check_options (const FxModel *model, const FxEnsembleOptions *o, GError **error)
{
  if (o->n_samples < 1 || o->n_samples > FX_NOISE_MAX_SAMPLES)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("the number of samples must be from 1 to %u, got %u"),
                   FX_NOISE_MAX_SAMPLES, o->n_samples);
      return FALSE;
    }
  if (o->n_parts < 1 || o->part >= o->n_parts || o->n_parts > o->n_samples)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("part %u of %u: parts are numbered 1 to K, K at most the number of samples"),
                   o->part + 1, o->n_parts);
      return FALSE;
    }
  if (!(model->dt > 0) || !(model->t_end > 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("the model needs a positive time step and end time"));
      return FALSE;
    }
  return TRUE;
}

FxEnsemble *
fx_ensemble_run (const FxModel *model, const FxEnsembleOptions *o, GError **error)
{
  g_autoptr (GPtrArray) cols = NULL;
  g_autofree double *times = NULL;
  g_autoptr (FxSystem) probe_sys = NULL;
  Run run = { 0 };
  guint threads;

  if (!check_options (model, o, error))
    return NULL;
  /* a model that cannot be built fails once here, not once per sample;
   * its system and Newton matrix are what each worker books in the memory
   * ledger (fx-memory.h) */
  guint64 booked = fx_memory_reserved (), resident = resident_bytes ();
  fx_memory_mark_peak ();
  if (!(probe_sys = fx_system_new (model, error)))
    return NULL;
  g_autoptr (FxIntegrator) probe_it = fx_integrator_new (probe_sys, model->tolerance,
                                                         model->max_iterations);
  if (!fx_integrator_prepare (probe_it, error))
    return NULL;
  /* the most it booked on the way, not what it keeps: the pattern's
   * recording and analysis are booked while they last, and two workers
   * may be in them at once */
  guint64 per_worker = MAX (fx_memory_peak () - MIN (booked, fx_memory_peak ()), 1);
  /* what a worker really takes, where the ledger's estimates fall short (2
   * workers of a 20,000-element link reached 158 MB under --max-memory
   * 100M; issue 31, item 4): after a step, since a build alone no longer
   * touches all a stepping worker does (the pattern's recording is freed
   * at once: the same 2 workers then reached 128 MB) */
  {
    FxStepReport rep;
    g_autoptr (GError) ignored = NULL;
    fx_integrator_step (probe_it, model->dt, &rep, &ignored);
  }
  guint64 grown = resident_bytes ();
  per_worker = MAX (per_worker, grown > resident ? grown - resident : 0);
  g_clear_pointer (&probe_it, fx_integrator_free);
  g_clear_pointer (&probe_sys, fx_system_free);

  run.model = model;
  run.options = o;
  run.every = every_of (model, o);
  run.n_steps = n_steps_of (model);
  cols = column_names (model);
  guint n_times = output_times (model, run.every, &times);
  FxEnsemble *e = run.e = fx_ensemble_new (n_times, times, cols);

  e->seed = o->seed;
  e->n_samples = o->n_samples;
  e->part = o->part;
  e->n_parts = o->n_parts;
  e->first = (guint) ((guint64) o->part * o->n_samples / o->n_parts);
  e->count = (guint) ((guint64) (o->part + 1) * o->n_samples / o->n_parts) - e->first;
  e->quantile_samples = o->quantile_samples;
  e->keep = o->keep;
  e->model_sum = model_checksum (model);

  g_autofree int *probe_link = g_new0 (int, MAX (model->probes->len, 1));
  for (guint p = 0; p < model->probes->len; p++)
    probe_link[p] = fx_model_find_link (model, fx_model_probe (model, p)->link);
  run.probe_link = probe_link;
  g_mutex_init (&run.lock);
  run.pending = g_hash_table_new_full (NULL, NULL, NULL, result_free);

  /* no more workers than samples or processors: more only cost memory
   * (a thread per sample of 10^6 samples exhausted the process) */
  threads = o->threads > 0 ? o->threads : g_get_num_processors ();
  threads = MIN (threads, MIN (e->count, g_get_num_processors ()));
  /* nor more than the memory limit holds (one always does: the probe did) */
  guint64 limit = fx_memory_limit_get (), used = fx_memory_reserved ();
  guint64 fit = limit > used ? (limit - used) / per_worker : 0;
  threads = (guint) MAX (MIN ((guint64) threads, fit), 1);
  if (threads <= 1 && o->nice <= 0)
    worker (&run);
  else
    {
      g_autoptr (GPtrArray) pool = g_ptr_array_new ();

      /* a thread that cannot be created is one worker fewer, not an abort */
      for (guint i = 0; i < threads; i++)
        {
          GThread *t = g_thread_try_new ("flexion-sample", worker, &run, NULL);
          if (t == NULL)
            break;
          g_ptr_array_add (pool, t);
        }
      if (pool->len == 0)
        worker (&run);
      for (guint i = 0; i < pool->len; i++)
        g_thread_join (g_ptr_array_index (pool, i));
    }
  g_hash_table_unref (run.pending);
  g_mutex_clear (&run.lock);
  return e;
}

/* ------------------------------------------------------------ merging */

/* "FILE" for a loaded partial, "a partial" for one run here */
static const char *
name_of (const FxEnsemble *e)
{
  return e->source ? e->source : _("a partial");
}

/* The first thing two partials disagree on, or NULL when they are of one
 * study (a partial of another model, seed or size is foreign). */
static const char *
study_difference (const FxEnsemble *a, const FxEnsemble *b)
{
  if (g_strcmp0 (a->model_sum, b->model_sum) != 0)
    return _("the model");
  if (a->seed != b->seed)
    return _("the seed");
  if (a->n_samples != b->n_samples)
    return _("the number of samples");
  if (a->quantile_samples != b->quantile_samples || a->keep != b->keep)
    return _("the options (--quantile-samples, --keep)");
  gboolean same = a->n_times == b->n_times && a->n_cols == b->n_cols;
  for (guint i = 0; same && i < a->n_times; i++)
    same = a->times[i] == b->times[i];
  if (!same)
    return _("the output times or columns");
  for (guint c = 0; c < a->n_cols; c++)
    if (strcmp (g_ptr_array_index (a->cols, c), g_ptr_array_index (b->cols, c)) != 0)
      return _("the output times or columns");
  return NULL;
}

static gboolean
same_study (const FxEnsemble *a, const FxEnsemble *b, GError **error)
{
  const char *difference = study_difference (a, b);

  if (difference != NULL)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                 _("%s is not of the study of %s: %s differs (model, seed, samples, times and "
                   "options must agree)"), name_of (b), name_of (a), difference);
  return difference == NULL;
}

static int
by_first (gconstpointer a, gconstpointer b)
{
  const FxEnsemble *x = *(FxEnsemble *const *) a, *y = *(FxEnsemble *const *) b;

  return x->first < y->first ? -1 : x->first > y->first;
}

/* The exact sums add up exactly: any order of parts gives the same bytes. */
static void
merge_into (FxEnsemble *m, const FxEnsemble *p)
{
  guint cells = m->n_times * m->n_cols;

  for (guint k = 0; k < cells; k++)
    {
      fx_exact_sum_add_sum (&m->s1[k], &p->s1[k]);
      fx_exact_sum_add_sum (&m->s2[k], &p->s2[k]);
    }
  m->moments_stale = TRUE;
  m->n_ok += p->n_ok;
  m->count += p->count;
  g_clear_pointer (&m->q_cache, g_free);
  m->worst_balance = MAX (m->worst_balance, p->worst_balance);
  g_array_append_vals (m->q_index, p->q_index->data, p->q_index->len);
  g_array_append_vals (m->q_values, p->q_values->data, p->q_values->len);
  g_array_append_vals (m->path_index, p->path_index->data, p->path_index->len);
  g_array_append_vals (m->path_values, p->path_values->data, p->path_values->len);
  for (guint i = 0; i < p->failures->len; i++)
    {
      FxEnsembleFailure f = g_array_index (p->failures, FxEnsembleFailure, i);

      f.message = g_strdup (f.message);
      g_array_append_val (m->failures, f);
    }
}

FxEnsemble *
fx_ensemble_merge (FxEnsemble *const *parts, guint n_parts, GError **error)
{
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();

  g_return_val_if_fail (n_parts > 0, NULL);
  for (guint i = 0; i < n_parts; i++)
    {
      if (i > 0 && !same_study (parts[0], parts[i], error))
        return NULL;
      g_ptr_array_add (sorted, parts[i]);
    }
  g_ptr_array_sort (sorted, by_first);
  for (guint i = 1; i < n_parts; i++)
    {
      const FxEnsemble *a = g_ptr_array_index (sorted, i - 1), *b = g_ptr_array_index (sorted, i);

      if (b->first < a->first + a->count)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       _("%s and %s both hold samples %u to %u"), name_of (a), name_of (b),
                       b->first, MIN (a->first + a->count, b->first + b->count) - 1);
          return NULL;
        }
    }

  const FxEnsemble *first = g_ptr_array_index (sorted, 0);
  FxEnsemble *m = fx_ensemble_new (first->n_times, first->times, first->cols);

  m->seed = first->seed;
  m->n_samples = first->n_samples;
  m->first = first->first;
  m->quantile_samples = first->quantile_samples;
  m->keep = first->keep;
  m->model_sum = g_strdup (first->model_sum);
  for (guint i = 0; i < n_parts; i++)
    merge_into (m, g_ptr_array_index (sorted, i));
  return m;
}

/* ------------------------------------------------------------ CSV */


gboolean
fx_ensemble_write_stats (const FxEnsemble *e, const char *path, GError **error)
{
  g_autoptr (GString) s = g_string_new ("t");

  for (guint c = 0; c < e->n_cols; c++)
    {
      const char *name = g_ptr_array_index (e->cols, c);
      static const char *const stats[] = { ".mean", ".std", ".q05", ".q95" };

      /* probe ids are user text: RFC 4180 quoting keeps the columns */
      for (guint k = 0; k < G_N_ELEMENTS (stats); k++)
        {
          g_string_append_c (s, ',');
          fx_csv_append_field2 (s, name, stats[k]);
        }
    }
  g_string_append_c (s, '\n');
  for (guint i = 0; i < e->n_times; i++)
    {
      g_string_append_printf (s, "%.17g", e->times[i]);
      for (guint c = 0; c < e->n_cols; c++)
        {
          fx_csv_append_number (s, e->n_ok > 0 ? fx_ensemble_mean (e, i, c) : NAN);
          fx_csv_append_number (s, e->n_ok > 0 ? fx_ensemble_std (e, i, c) : NAN);
          fx_csv_append_number (s, fx_ensemble_quantile (e, i, c, 0.05));
          fx_csv_append_number (s, fx_ensemble_quantile (e, i, c, 0.95));
        }
      g_string_append_c (s, '\n');
    }
  /* a temporary file beside the target, renamed over it (fx-output.h) */
  return fx_output_set_contents (path, s->str, s->len, error);
}

gboolean
fx_ensemble_write_paths (const FxEnsemble *e, const char *path, GError **error)
{
  g_autoptr (GString) s = g_string_new ("sample,t");
  guint np = n_probe_cols (e);

  for (guint c = FX_ENSEMBLE_N_ENERGY; c < e->n_cols; c++)
    {
      g_string_append_c (s, ',');
      fx_csv_append_field (s, g_ptr_array_index (e->cols, c));
    }
  g_string_append_c (s, '\n');
  for (guint k = 0; k < e->path_index->len; k++)
    for (guint i = 0; i < e->n_times; i++)
      {
        g_string_append_printf (s, "%u,%.17g", g_array_index (e->path_index, guint, k), e->times[i]);
        for (guint c = 0; c < np; c++)
          fx_csv_append_number (s, fx_ensemble_path_value (e, k, i, FX_ENSEMBLE_N_ENERGY + c));
        g_string_append_c (s, '\n');
      }
  return fx_output_set_contents (path, s->str, s->len, error);
}

char *
fx_ensemble_missing (FxEnsemble *const *parts, guint n_parts)
{
  g_autoptr (GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr (GString) ranges = g_string_new (NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  guint next = 0, n_missing = 0, k_parts = n_parts > 0 ? parts[0]->n_parts : 0;
  gboolean one_split = TRUE;

  for (guint i = 0; i < n_parts; i++)
    {
      g_ptr_array_add (sorted, parts[i]);
      one_split = one_split && parts[i]->n_parts == k_parts;
    }
  g_ptr_array_sort (sorted, by_first);
  for (guint i = 0; i <= sorted->len; i++)
    {
      const FxEnsemble *p = i < sorted->len ? g_ptr_array_index (sorted, i) : NULL;
      guint start = p ? p->first : (n_parts > 0 ? parts[0]->n_samples : 0);
      if (start > next)
        {
          g_string_append_printf (ranges, "%s%u to %u", ranges->len ? ", " : "", next, start - 1);
          n_missing += start - next;
        }
      if (p)
        next = MAX (next, p->first + p->count);
    }
  if (n_missing == 0)
    return NULL;
  /* with one split k/K throughout, the parts that are not there by name */
  if (one_split)
    for (guint k = 0; k < k_parts; k++)
      {
        gboolean present = FALSE;
        for (guint i = 0; i < n_parts && !present; i++)
          present = parts[i]->part == k;
        if (!present)
          g_string_append_printf (names, "%s%u/%u", names->len ? ", " : "", k + 1, k_parts);
      }
  if (names->len > 0)
    return g_strdup_printf (_("parts %s are missing (%u samples: %s)"), names->str, n_missing,
                            ranges->str);
  return g_strdup_printf (_("%u samples are missing: %s"), n_missing, ranges->str);
}
