/* flexion-measure-view.h: the Measurements plot beside the run plots: what
 * the user picked from a probe or a support (position, velocity, section
 * angle, N, V, M; a reaction), live during a run, against time or against
 * another such quantity. Hidden until something is plotted.
 *
 * Its actions, on the window it is installed on:
 *   measure.plot ((suu): "probe"/"support", probe or joint index, value)
 *   measure.against ((suu)): the same as the horizontal axis ("time" for t)
 *   measure.close: empty the plot and hide it
 *   measure.tear-off: the plot, large, in a window of its own
 */
#pragma once

#include <gtk/gtk.h>
#include "flexion-simulation.h"
#include "fx-measure-plot.h"
#include "fx-document.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_MEASURE_VIEW (flexion_measure_view_get_type ())
G_DECLARE_FINAL_TYPE (FlexionMeasureView, flexion_measure_view, FLEXION, MEASURE_VIEW, GtkWidget)

GtkWidget *flexion_measure_view_new        (void);
/* The run whose series it draws (it redraws on each of its frames). */
void       flexion_measure_view_set_simulation (FlexionMeasureView *view, FlexionSimulation *sim);
/* The document the plot belongs to: a new one starts the plot empty,
 * against time; curves follow their probes and supports through its edits
 * and go when they are deleted (undo brings them back). */
void       flexion_measure_view_set_document (FlexionMeasureView *view, FxDocument *doc);
/* The plot, copied, in a window of its own (measure.tear-off): returned. */
GtkWidget *flexion_measure_view_tear_off   (FlexionMeasureView *view);
/* Pinned (the lesson view): shown even with nothing plotted, with its hint. */
void       flexion_measure_view_set_pinned (FlexionMeasureView *view, gboolean pinned);
/* Adds the measure.* actions to `widget` (the window). */
void       flexion_measure_view_install_actions (FlexionMeasureView *view, GtkWidget *widget);

void       flexion_measure_view_plot       (FlexionMeasureView *view, const FxQuantity *q);
void       flexion_measure_view_against    (FlexionMeasureView *view, const FxQuantity *x);
void       flexion_measure_view_close      (FlexionMeasureView *view);
const FxMeasurePlot *flexion_measure_view_get_plot (FlexionMeasureView *view);
/* The series drawn (the simulation's), for tests. */
const FxSeries *flexion_measure_view_get_series (FlexionMeasureView *view);

void       flexion_measure_view_set_window (FlexionMeasureView *view, double seconds);
void       flexion_measure_view_set_font_scale (FlexionMeasureView *view, double scale);

/* The "Plot" menu of a probe (index into the model's probes) or of a
 * supported joint holding `holds`: each value to plot against time, and
 * the same as the horizontal axis. */
GMenuModel *flexion_measure_menu_new       (FxQuantitySource source, guint index, FxHolds holds);

G_END_DECLS
