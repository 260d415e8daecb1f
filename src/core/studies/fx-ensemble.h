/* fx-ensemble.h: N independent samples of a stochastic model and their
 * statistics per output time (docs/theory.md §9).
 *
 * Sample i draws its noise with (seed, i) (fx-noise.h), so a sample is the
 * same whichever run, part or thread computes it. Means and spreads come from
 * exact sums of the values and of their squares (fx-exact-sum.h), rounded once
 * at the end: the statistics, to the last bit, are a pure function of (model,
 * seed, samples), whatever the parts, threads and merge order.
 * Columns: H, kinetic, elastic, gravity, supplied, dissipated (the last two
 * accumulated since t = 0), then for every probe its FX_PROBE_N_VALUES
 * values (fx-measure.h): <probe>.x, .y, .vx, .vy, .angle, .N, .V, .M.
 *
 * Quantiles (5 % and 95 %, GSL's linear interpolation between order
 * statistics) are computed from the samples with index below
 * quantile_samples (all of them when N <= quantile_samples): exact for those
 * samples, and the same set whether the study ran in one piece or in merged
 * parts, so merged quantiles equal a single run's exactly. Means and
 * standard deviations use every successful sample.
 */
#pragma once

#include "fx-model.h"
#include "fx-measure.h"

G_BEGIN_DECLS

typedef enum {
  FX_ENSEMBLE_H,
  FX_ENSEMBLE_KINETIC,
  FX_ENSEMBLE_ELASTIC,
  FX_ENSEMBLE_GRAVITY,
  FX_ENSEMBLE_SUPPLIED,
  FX_ENSEMBLE_DISSIPATED,
  FX_ENSEMBLE_N_ENERGY,  /* probe columns follow */
} FxEnsembleColumn;

/* The column of value `value` (FxProbeValue) of probe p. */
#define FX_ENSEMBLE_PROBE_COLUMN(p, value) (FX_ENSEMBLE_N_ENERGY + FX_PROBE_N_VALUES * (p) + (value))
/* The number of probes an ensemble's columns are about. */
#define FX_ENSEMBLE_N_PROBES(n_columns) (((n_columns) - FX_ENSEMBLE_N_ENERGY) / FX_PROBE_N_VALUES)

/* Called after each finished sample, from a worker thread. */
typedef void (*FxEnsembleProgress) (guint done, guint total, gpointer data);

typedef struct {
  guint n_samples;         /* N of the study                                   */
  guint part, n_parts;     /* run share `part` (0-based) of n_parts (1: all)    */
  guint threads;           /* worker threads (0, or more than the processors or
                            * samples: one per processor, at most one per sample) */
  guint64 seed;            /* the noise seed (the model's unless overridden)    */
  guint every;             /* an output time every `every` steps (0: automatic) */
  guint quantile_samples;  /* quantiles from samples 0 .. this - 1             */
  guint keep;              /* keep the probe paths of samples 0 .. keep - 1     */
  FxEnsembleProgress progress;
  gpointer progress_data;
  int nice;               /* > 0: workers run in threads of their own at this
                            * niceness (Linux), so that a window stays smooth */
  gint *cancel;            /* may be NULL; set (atomically) to stop early: the
                            * samples not started are left out             */
} FxEnsembleOptions;

#define FX_ENSEMBLE_DEFAULT_QUANTILE_SAMPLES 1000u
#define FX_ENSEMBLE_MAX_TIMES 1000u  /* the automatic `every` keeps rows below this */

typedef struct {
  guint sample;
  double t;         /* the last good time   */
  double residual;  /* Newton's residual there */
  char *message;
} FxEnsembleFailure;

typedef struct _FxEnsemble FxEnsemble;

void         fx_ensemble_options_init (FxEnsembleOptions *options, const FxModel *model);

/* Runs this part's samples over the model's span. NULL (with error) only for
 * bad options or a model that cannot be built; failed samples are recorded. */
FxEnsemble  *fx_ensemble_run          (const FxModel *model, const FxEnsembleOptions *options,
                                       GError **error);
void         fx_ensemble_free         (FxEnsemble *ensemble);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxEnsemble, fx_ensemble_free)

/* Combines the partials of one study (same model, seed, N, times), in any
 * order, parts that do not overlap. */
FxEnsemble  *fx_ensemble_merge        (FxEnsemble *const *parts, guint n_parts, GError **error);
/* NULL if the parts cover every sample of their study; else which parts
 * (k/K, when they come from one split) and which samples are missing. */
char        *fx_ensemble_missing      (FxEnsemble *const *parts, guint n_parts);

guint        fx_ensemble_n_times      (const FxEnsemble *e);
guint        fx_ensemble_n_columns    (const FxEnsemble *e);
const char  *fx_ensemble_column_name  (const FxEnsemble *e, guint column);
double       fx_ensemble_time         (const FxEnsemble *e, guint time);
guint        fx_ensemble_n_samples    (const FxEnsemble *e);  /* N of the study */
guint        fx_ensemble_n_ok         (const FxEnsemble *e);  /* samples in the statistics */
double       fx_ensemble_mean         (const FxEnsemble *e, guint time, guint column);
double       fx_ensemble_std          (const FxEnsemble *e, guint time, guint column);
/* p in [0, 1], over the quantile samples; NAN when there are none. The 0,
 * 5, 95 and 100 % quantiles are sorted once and kept (the first call after
 * the run fills them in: call from one thread at a time). */
double       fx_ensemble_quantile     (const FxEnsemble *e, guint time, guint column, double p);
guint        fx_ensemble_n_failed     (const FxEnsemble *e);
const FxEnsembleFailure *fx_ensemble_failure (const FxEnsemble *e, guint i);
/* The kept samples (0 .. keep - 1, in sample order): every column. */
guint        fx_ensemble_n_paths      (const FxEnsemble *e);
guint        fx_ensemble_path_sample  (const FxEnsemble *e, guint k);
double       fx_ensemble_path_value   (const FxEnsemble *e, guint k, guint time, guint column);
/* The largest |balance| / E_scale over every step of every sample. */
double       fx_ensemble_worst_balance (const FxEnsemble *e);

/* CSV outputs, written to a temporary file and renamed. Stats: t, then
 * <col>.mean,<col>.std,<col>.q05,<col>.q95 per column. Paths: sample,t,
 * then the probe columns, for the kept samples. */
gboolean     fx_ensemble_write_stats  (const FxEnsemble *e, const char *path, GError **error);
gboolean     fx_ensemble_write_paths  (const FxEnsemble *e, const char *path, GError **error);

/* A partial: everything merging needs, as a little-endian GVariant after a
 * line with its length and SHA-256 (fx-ensemble-partial.c). Loading reads
 * regular files only and refuses, naming the file, a partial that is
 * truncated, doubled, damaged or of an older format. */
gboolean     fx_ensemble_save         (const FxEnsemble *e, const char *path, GError **error);
FxEnsemble  *fx_ensemble_load         (const char *path, GError **error);

G_END_DECLS
