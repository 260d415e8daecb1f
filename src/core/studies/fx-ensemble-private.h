/* fx-ensemble-private.h: the ensemble's insides, shared by its runs and
 * merges (fx-ensemble.c) and its partial files (fx-ensemble-partial.c). */
#pragma once

#include "fx-ensemble.h"
#include "fx-exact-sum.h"

G_BEGIN_DECLS

struct _FxEnsemble {
  guint64 seed;
  guint n_samples;          /* N of the study                      */
  guint first, count;       /* the share of samples this covers    */
  guint quantile_samples, keep;
  guint n_times, n_cols;
  double *times;
  GPtrArray *cols;          /* char *                              */
  char *model_sum;          /* SHA-256 of the model as saved        */
  char *source;             /* the partial's file (NULL: run here)  */

  guint part, n_parts;      /* k - 1 and K of --part k/K (0, 1: all) */

  guint64 n_ok;
  /* per cell (n_times * n_cols): the exact sums of the values and of their
   * squares over the successful samples, so that the statistics do not
   * depend on how the samples were split, threaded or merged */
  FxExactSum *s1, *s2;
  double *mean, *m2;        /* per cell, from s1 and s2 (lazy)      */
  gboolean moments_stale;
  GArray *q_index;          /* guint: samples kept for quantiles   */
  GArray *q_values;         /* n_times * n_cols doubles per sample */
  GArray *failures;         /* FxEnsembleFailure                   */
  GArray *path_index;       /* guint: kept probe paths             */
  GArray *path_values;      /* n_times * n_cols doubles per path     */
  double worst_balance;
  double *q_cache;          /* per cell: min, q05, q95, max (lazy)  */
};

/* An empty ensemble of n_times output times and the columns `cols` (copied). */
FxEnsemble *fx_ensemble_new (guint n_times, const double *times, GPtrArray *cols);

G_END_DECLS
