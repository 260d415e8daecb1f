/* fx-measure-plot.h: the Measurements plot: quantities a probe or a support
 * measures (fx-measure.h), recorded in a run's series, against time or
 * against another such quantity (a rocker's angle against the crank's).
 * Drawn with cairo like the other plots (fx-plot.h). */
#pragma once

#include <cairo.h>
#include "fx-plot.h"
#include "fx-series.h"

G_BEGIN_DECLS

typedef enum {
  FX_QUANTITY_TIME,     /* t                                             */
  FX_QUANTITY_PROBE,    /* a probe's FxProbeValue; index: the probe        */
  FX_QUANTITY_SUPPORT,  /* a support's FxReactionValue; index: its model joint */
} FxQuantitySource;

typedef struct {
  FxQuantitySource source;
  guint index;
  guint value;  /* FxProbeValue or FxReactionValue */
} FxQuantity;

/* The value at point i of the series, in the unit shown (angles in
 * degrees, everything else SI); NaN when the series does not know it. */
double      fx_quantity_value (const FxSeries *series, guint i, const FxQuantity *q);
/* "tip: vx", "A: Fy", "Time" (newly allocated): the symbols of the CSV
 * columns, short enough for a legend. */
char       *fx_quantity_name  (const FxSeries *series, const FxQuantity *q);
/* "m/s", "N", "°", "s" */
const char *fx_quantity_unit  (const FxQuantity *q);
gboolean    fx_quantity_equal (const FxQuantity *a, const FxQuantity *b);
/* A value's name alone: "velocity x", "reaction moment" (translated). */
const char *fx_probe_value_name    (FxProbeValue value);
const char *fx_reaction_value_name (FxReactionValue value);

#define FX_MEASURE_MAX_CURVES 6

typedef struct {
  FxQuantity x;                        /* TIME: a time plot            */
  guint n_curves;
  FxQuantity y[FX_MEASURE_MAX_CURVES];
} FxMeasurePlot;

void     fx_measure_plot_init  (FxMeasurePlot *plot);
/* Adds a curve. One axis has one unit: a quantity of another unit than the
 * curves there replaces them; past FX_MEASURE_MAX_CURVES the oldest goes.
 * FALSE if it was there already. */
gboolean fx_measure_plot_add   (FxMeasurePlot *plot, const FxQuantity *q);
/* Draws the curves against time (style->t_window as the run plots) or
 * against plot->x, as a path with a dot where it is now. */
void     fx_measure_plot_draw  (cairo_t *cr, const FxMeasurePlot *plot, const FxSeries *series,
                                const FxPlotStyle *style, double w, double h);

G_END_DECLS
