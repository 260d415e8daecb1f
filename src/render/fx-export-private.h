/* fx-export-private.h: what the exports share: the temporary beside a
 * target, the run of a model whose frames an animation draws (fx-export.c),
 * and the animations themselves (fx-export-animation.c). */
#pragma once

#include "fx-export.h"
#include "fx-output.h"
#include "fx-series.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *frames;    /* FxStepFrame*, at the output times           */
  GArray *reports;      /* FxStepReport, every step (index 0: t = 0)   */
  GArray *probe_values; /* double, FX_PROBE_N_VALUES per probe, every step */
  guint n_probes;
  GArray *frame_steps;  /* guint: the report index of each frame       */
} FxExportRun;

void         fx_export_run_clear        (FxExportRun *r);
/* The probe values recorded at report index `step`. */
const double *fx_export_run_probes      (const FxExportRun *run, guint step);
FxSeries    *fx_export_series_for_model (const FxModel *model);
/* Runs the model to t_until, a frame every 1/fps from t_from; progress
 * over `share` of the whole. */
gboolean     fx_export_run_model        (const FxModel *model, double t_until, double dt,
                                         double t_from, double fps, FxExportProgress progress,
                                         gpointer data, double share, FxExportRun *run,
                                         GError **error);
/* The same from frames recorded by the app (fx_export_recorded_covers). */
gboolean     fx_export_run_from_recorded (const GPtrArray *rec, double t_until, double t_from,
                                          double fps, FxExportRun *run);

/* FX_EXPORT_ERROR versions of fx-output.h's */
FxOutput    *fx_export_output_new       (const char *path, GError **error);
gboolean     fx_export_output_commit    (FxOutput *out, GError **error);
/* A new folder beside `path` for PNG frames. */
char        *fx_export_temp_folder_beside (const char *path, GError **error);
/* FALSE with FX_EXPORT_ERROR_CANCELLED. */
gboolean     fx_export_cancelled        (GError **error);
/* An animation's file name, checked before any work. */
gboolean     fx_export_check_animation_path (const char *path, GError **error);

G_END_DECLS
