/* flexion-plot-view.h: a live plot of the run (energy, balance residual or
 * Newton iterations), drawn by fx_plot_draw, with a hover read-out. */
#pragma once

#include <gtk/gtk.h>
#include "fx-plot.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_PLOT_VIEW (flexion_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (FlexionPlotView, flexion_plot_view, FLEXION, PLOT_VIEW, GtkWidget)

GtkWidget *flexion_plot_view_new        (FxPlotKind kind);
/* The series drawn (borrowed: it must outlive the view or be reset). */
void       flexion_plot_view_set_series (FlexionPlotView *view, const FxSeries *series);
void       flexion_plot_view_set_dark   (FlexionPlotView *view, gboolean dark);
void       flexion_plot_view_set_window (FlexionPlotView *view, double seconds);
void       flexion_plot_view_set_font_scale (FlexionPlotView *view, double scale);
FxPlotKind flexion_plot_view_get_kind   (FlexionPlotView *view);
/* The energy plot's view (also the "energy-view" property, as a nick). */
void       flexion_plot_view_set_energy_view (FlexionPlotView *view, FxEnergyView energy_view);
FxEnergyView flexion_plot_view_get_energy_view (FlexionPlotView *view);
/* A time cursor at t seconds (the timeline while scrubbing); NaN: none. */
void       flexion_plot_view_set_cursor (FlexionPlotView *view, double t);
/* The style it draws with (for tests and exports). */
void       flexion_plot_view_get_style  (FlexionPlotView *view, FxPlotStyle *style);

G_END_DECLS
