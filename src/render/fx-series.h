/* fx-series.h: the time series of a run, one point per published frame,
 * that the live plots draw and the exporters write. Supplied work and
 * dissipated energy are accumulated from the per-step report, so
 * H(t) - H(0) = W(t) - D(t) up to the per-step balance residuals. */
#pragma once

#include <gio/gio.h>
#include "fx-frame.h"
#include "fx-integrator.h"

G_BEGIN_DECLS

typedef struct {
  double t;
  double H, kinetic, elastic, gravity;  /* J                                  */
  double supplied;    /* work supplied since the start of the run, J           */
  double dissipated;  /* energy dissipated since the start of the run, J      */
  double balance;     /* this step's H_{n+1} - H_n - W + D, J (0 for frame 0)   */
  double newton;      /* Newton iterations of this step (0 for frame 0)         */
  double residual;    /* final scaled residual of this step                     */
  double joint_gap;   /* m                                                      */
  double substeps;    /* substeps the step was taken in (1 for frame 0)         */
  double factorisations;  /* Newton matrices factorised in this step (0 for frame 0) */
} FxSeriesPoint;

typedef struct _FxSeries FxSeries;

FxSeries            *fx_series_new      (void);
void                 fx_series_free     (FxSeries *series);
FxSeries            *fx_series_copy     (const FxSeries *series);
void                 fx_series_clear    (FxSeries *series);
void                 fx_series_add      (FxSeries *series, const FxStepFrame *frame);
/* The same from a report alone (step 0: the initial state), with the
 * probes' values (FX_PROBE_N_VALUES per probe, the count set by
 * fx_series_set_probes; NULL: not known, stored as NaN). */
void                 fx_series_add_report (FxSeries *series, const FxStepReport *report, guint step,
                                           const double *probe_values);
/* Names the probes whose paths the series records (from the first add on). */
void                 fx_series_set_probes (FxSeries *series, guint n, const char *const *ids);
guint                fx_series_n_probes   (const FxSeries *series);
const char          *fx_series_probe_id   (const FxSeries *series, guint probe);
/* Probe `probe` at point i: xy[0], xy[1] (NaN when unknown). */
void                 fx_series_probe_xy   (const FxSeries *series, guint i, guint probe, double xy[2]);
/* Probe `probe`'s value (fx-measure.h) at point i (NaN when unknown). */
double               fx_series_probe_value (const FxSeries *series, guint i, guint probe,
                                            FxProbeValue value);
/* Names the supports whose reactions the series records: the joints of
 * `model` that hold a channel (fx_model_joint_holds), in model order. */
void                 fx_series_set_supports (FxSeries *series, const FxModel *model);
guint                fx_series_n_supports  (const FxSeries *series);
const char          *fx_series_support_id  (const FxSeries *series, guint support);
guint                fx_series_support_joint (const FxSeries *series, guint support);
FxHolds              fx_series_support_holds (const FxSeries *series, guint support);
/* The support `support` of the model joint `joint`, or -1. */
int                  fx_series_find_support (const FxSeries *series, guint joint);
/* Support `support`'s reaction (fx-measure.h) at point i: the mean over the
 * step that ended there (NaN when unknown). */
double               fx_series_reaction    (const FxSeries *series, guint i, guint support,
                                            FxReactionValue value);
/* t, then <id>.x, <id>.y per probe, one row per point. */
gboolean             fx_series_write_probes_csv (const FxSeries *series, const char *path, GError **error);
guint                fx_series_len      (const FxSeries *series);
const FxSeriesPoint *fx_series_get      (const FxSeries *series, guint i);
/* The first point with t >= t0 (binary search; len when none). */
guint                fx_series_find     (const FxSeries *series, double t0);
/* Writes every point as CSV with a header of names and units. */
gboolean             fx_series_write_csv (const FxSeries *series, const char *path, GError **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxSeries, fx_series_free)

G_END_DECLS
