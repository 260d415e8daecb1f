/* flexion-ensemble.c: FlexionEnsemble, N samples of a noisy model and
 * their statistics (flexion-ensemble.h), run by fx_ensemble_run as
 * `flexion-cli ensemble` runs them. */
#include "flexion-private.h"
#include "fx-cancel.h"
#include "fx-ensemble.h"

/**
 * FlexionEnsemble:
 *
 * N independent samples of a model with noisy loads, and per output time
 * the mean, standard deviation and quantiles of the energies and of every
 * probe value, as `flexion-cli ensemble` computes them: sample i draws its
 * noise with (seed, i), so the statistics are the same, to the last bit,
 * whatever the number of threads.
 *
 * Columns are named as in the statistics CSV: "H", "kinetic", "elastic",
 * "gravity", "supplied", "dissipated", then "<probe>.x", "<probe>.y",
 * "<probe>.vx", "<probe>.vy", "<probe>.angle", "<probe>.N", "<probe>.V",
 * "<probe>.M".
 *
 * ```python
 * e = Flexion.Ensemble.new(model, 100, 0, None)
 * mean = e.get_mean("tip.y")
 * ```
 */
struct _FlexionEnsemble {
  GObject parent_instance;
  FxEnsemble *ensemble;
};

G_DEFINE_FINAL_TYPE (FlexionEnsemble, flexion_ensemble, G_TYPE_OBJECT)

static void
flexion_ensemble_finalize (GObject *object)
{
  g_clear_pointer (&FLEXION_ENSEMBLE (object)->ensemble, fx_ensemble_free);
  G_OBJECT_CLASS (flexion_ensemble_parent_class)->finalize (object);
}

static void
flexion_ensemble_class_init (FlexionEnsembleClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flexion_ensemble_finalize;
}

static void
flexion_ensemble_init (FlexionEnsemble *self)
{
}

static void
on_cancelled (GCancellable *cancellable, gpointer flag)
{
  fx_cancel_request (flag);
}

/**
 * flexion_ensemble_new:
 * @model: the model (its seed is the noise's: [method@Flexion.Model.set_seed])
 * @n_samples: N, at least 1
 * @threads: worker threads (0: one per processor, at most one per sample)
 * @cancellable: (nullable): stops the study: the samples running stop
 *   within a step
 * @error: return location for an error
 *
 * Runs the samples over the model's time span, with an output time every
 * so many steps that there are at most 1000. Samples whose solver fails
 * are left out of the statistics ([method@Flexion.Ensemble.get_n_failed]).
 *
 * Returns: (transfer full): the statistics, or %NULL with @error set
 */
FlexionEnsemble *
flexion_ensemble_new (FlexionModel *model, guint n_samples, guint threads,
                      GCancellable *cancellable, GError **error)
{
  const FxModel *fx;
  FxEnsembleOptions options;
  FlexionEnsemble *self;
  GError *local = NULL;
  FxEnsemble *e;
  gint flag = 0;
  gulong handler = 0;

  g_return_val_if_fail (FLEXION_IS_MODEL (model), NULL);
  if (flexion_cancel_check (cancellable, error))
    return NULL;
  fx = flexion_model_peek (model);
  fx_ensemble_options_init (&options, fx);
  options.n_samples = n_samples;
  options.threads = threads;
  options.cancel = &flag;
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), &flag, NULL);
  e = fx_ensemble_run (fx, &options, &local);
  if (cancellable != NULL && handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  if (e == NULL)
    {
      flexion_propagate_core_error (error, local, FLEXION_ERROR_INVALID);
      return NULL;
    }
  /* a cancelled study leaves samples out: it is not the study asked for */
  if (flexion_cancel_check (cancellable, error))
    {
      fx_ensemble_free (e);
      return NULL;
    }
  self = g_object_new (FLEXION_TYPE_ENSEMBLE, NULL);
  self->ensemble = e;
  return self;
}

/**
 * flexion_ensemble_get_n_samples:
 * @self: an ensemble
 *
 * Gets the number of samples of the study.
 *
 * Returns: N, the samples of the study
 */
guint
flexion_ensemble_get_n_samples (FlexionEnsemble *self)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), 0);
  return fx_ensemble_n_samples (self->ensemble);
}

/**
 * flexion_ensemble_get_n_ok:
 * @self: an ensemble
 *
 * Gets the number of samples in the statistics.
 *
 * Returns: the samples in the statistics
 */
guint
flexion_ensemble_get_n_ok (FlexionEnsemble *self)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), 0);
  return fx_ensemble_n_ok (self->ensemble);
}

/**
 * flexion_ensemble_get_n_failed:
 * @self: an ensemble
 *
 * Gets the number of samples that failed.
 *
 * Returns: the samples whose solver failed, left out of the statistics
 */
guint
flexion_ensemble_get_n_failed (FlexionEnsemble *self)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), 0);
  return fx_ensemble_n_failed (self->ensemble);
}

/**
 * flexion_ensemble_get_worst_balance:
 * @self: an ensemble
 *
 * Gets the worst relative energy balance of the study.
 *
 * Returns: the largest |energy balance| / energy scale over every step of
 *   every sample: round-off
 */
double
flexion_ensemble_get_worst_balance (FlexionEnsemble *self)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), 0.0);
  return fx_ensemble_worst_balance (self->ensemble);
}

/**
 * flexion_ensemble_list_columns:
 * @self: an ensemble
 *
 * Lists the columns of the statistics.
 *
 * Returns: (transfer full) (array zero-terminated=1): the columns' names
 */
char **
flexion_ensemble_list_columns (FlexionEnsemble *self)
{
  GStrvBuilder *b;
  char **out;

  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), NULL);
  b = g_strv_builder_new ();
  for (guint c = 0; c < fx_ensemble_n_columns (self->ensemble); c++)
    g_strv_builder_add (b, fx_ensemble_column_name (self->ensemble, c));
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/**
 * flexion_ensemble_get_times:
 * @self: an ensemble
 * @n_values: (out): the output times
 *
 * Gets the times the statistics are given at.
 *
 * Returns: (array length=n_values) (transfer full): the output times, s
 */
double *
flexion_ensemble_get_times (FlexionEnsemble *self, gsize *n_values)
{
  guint n;
  double *out;

  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), NULL);
  n = fx_ensemble_n_times (self->ensemble);
  out = g_new (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    out[i] = fx_ensemble_time (self->ensemble, i);
  *n_values = n;
  return out;
}

typedef double (*Statistic) (const FxEnsemble *e, guint time, guint column, double p);

static double mean_of (const FxEnsemble *e, guint t, guint c, double p) { return fx_ensemble_mean (e, t, c); }
static double std_of (const FxEnsemble *e, guint t, guint c, double p) { return fx_ensemble_std (e, t, c); }

static double *
column_values (FlexionEnsemble *self, const char *column, Statistic statistic, double p,
               gsize *n_values, GError **error)
{
  const FxEnsemble *e = self->ensemble;
  guint n = fx_ensemble_n_times (e);
  double *out;
  int c = -1;

  *n_values = 0;
  for (guint i = 0; i < fx_ensemble_n_columns (e); i++)
    if (g_strcmp0 (fx_ensemble_column_name (e, i), column) == 0)
      c = (int) i;
  if (c < 0)
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND, "the ensemble has no column \"%s\"",
                   column ? column : "(null)");
      return NULL;
    }
  out = g_new (double, MAX (n, 1));
  for (guint t = 0; t < n; t++)
    out[t] = statistic (e, t, (guint) c, p);
  *n_values = n;
  return out;
}

/**
 * flexion_ensemble_get_mean:
 * @self: an ensemble
 * @column: a column's name
 * @n_values: (out): the output times
 * @error: return location for an error
 *
 * Gets a column's mean over the samples.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the column's
 *   mean at every output time
 */
double *
flexion_ensemble_get_mean (FlexionEnsemble *self, const char *column, gsize *n_values,
                           GError **error)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), NULL);
  return column_values (self, column, mean_of, 0.0, n_values, error);
}

/**
 * flexion_ensemble_get_std:
 * @self: an ensemble
 * @column: a column's name
 * @n_values: (out): the output times
 * @error: return location for an error
 *
 * Gets a column's standard deviation over the samples.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the column's
 *   standard deviation at every output time
 */
double *
flexion_ensemble_get_std (FlexionEnsemble *self, const char *column, gsize *n_values,
                          GError **error)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), NULL);
  return column_values (self, column, std_of, 0.0, n_values, error);
}

/**
 * flexion_ensemble_get_quantile:
 * @self: an ensemble
 * @column: a column's name
 * @p: the probability, 0 .. 1
 * @n_values: (out): the output times
 * @error: return location for an error
 *
 * Quantiles come from the first 1000 samples (all when fewer), as the CLI's.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the column's
 *   @p-quantile at every output time
 */
double *
flexion_ensemble_get_quantile (FlexionEnsemble *self, const char *column, double p,
                               gsize *n_values, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), NULL);
  if (!(p >= 0.0 && p <= 1.0))
    {
      *n_values = 0;
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID,
                   "a quantile's probability is from 0 to 1, not %g", p);
      return NULL;
    }
  return column_values (self, column, fx_ensemble_quantile, p, n_values, error);
}

/**
 * flexion_ensemble_write_stats:
 * @self: an ensemble
 * @path: (type filename): where to write
 * @error: return location for an error
 *
 * Writes the statistics CSV of `flexion-cli ensemble --stats`.
 *
 * Returns: %TRUE on success
 */
gboolean
flexion_ensemble_write_stats (FlexionEnsemble *self, const char *path, GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (FLEXION_IS_ENSEMBLE (self), FALSE);
  if (fx_ensemble_write_stats (self->ensemble, path, &local))
    return TRUE;
  flexion_propagate_core_error (error, local, FLEXION_ERROR_IO);
  return FALSE;
}
