/* fx-ensemble-plot.h: the plots of an ensemble (fx-ensemble.h), drawn with
 * cairo: means with a shaded 5-95 % band and thin sample lines. */
#pragma once

#include <cairo.h>
#include "fx-ensemble.h"
#include "fx-plot.h"
#include "fx-view.h"

G_BEGIN_DECLS

typedef enum {
  FX_ENSEMBLE_PLOT_ENERGY,  /* H, kinetic, elastic, supplied: mean, band; H of each kept sample */
  FX_ENSEMBLE_PLOT_PROBES,  /* probe paths y vs x of the kept samples and their mean, as
                             * displacements from the start, on equal scales fitted to them */
} FxEnsemblePlotKind;

/* t_now >= 0 marks the current time (a cursor, and each probe's position
 * then); style->t_window is ignored (the whole span is shown). */
void fx_ensemble_plot_draw (cairo_t *cr, FxEnsemblePlotKind kind, const FxEnsemble *e,
                            double t_now, const FxPlotStyle *style, double w, double h);

/* The axes' ranges (m) of the probe plot at w x h pixels, for tests. */
void fx_ensemble_plot_probe_axes (const FxEnsemble *e, double w, double h, double x[2], double y[2]);

/* Over the mechanism drawn with `view`: each kept sample's probe trails up
 * to time t, faint, with a dot where the probe is at t, and the mean trail. */
void fx_ensemble_draw_trails (cairo_t *cr, const FxEnsemble *e, const FxView *view, double t,
                              gboolean dark);

/* Writes the plot as a PNG of w x h pixels (a temporary file renamed). */
gboolean fx_ensemble_plot_write_png (FxEnsemblePlotKind kind, const FxEnsemble *e, gboolean dark,
                                     int w, int h, const char *path, GError **error);

G_END_DECLS
