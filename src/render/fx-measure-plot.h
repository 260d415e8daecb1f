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

/* Values a class asks for, derived from a probe's recorded ones (issue 32):
 * they follow FxProbeValue as further FxQuantity.value of a probe. */
enum {
  FX_PROBE_SPEED = FX_PROBE_N_VALUES,  /* |v|, m/s                               */
  FX_PROBE_OMEGA,          /* the section's (link's) angular velocity, rad/s   */
  FX_PROBE_ANGLE_WRAPPED,  /* the section angle wrapped to (-180°, 180°]       */
  FX_PROBE_N_ALL
};

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
/* An angle wrapped to ±180°: a jump of a full turn is no motion, and its
 * curve is broken there rather than drawn across the plot. */
gboolean    fx_quantity_wraps (const FxQuantity *q);
/* A value's name alone: "velocity x", "reaction moment" (translated);
 * a probe's value may be one of the derived ones (FX_PROBE_SPEED...). */
const char *fx_probe_value_name    (guint value);
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
