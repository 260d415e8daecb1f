/* fx-plot.h: the plots of a run, drawn with cairo: one function behind the
 * live plot widgets and the plot exports (PNG, SVG, PDF). */
#pragma once

#include <cairo.h>
#include "fx-series.h"

G_BEGIN_DECLS

typedef enum {
  FX_PLOT_ENERGY,   /* H, kinetic, elastic, gravity, supplied work W vs t     */
  FX_PLOT_BALANCE,  /* |per-step balance residual| vs t, log scale            */
  FX_PLOT_NEWTON,   /* Newton iterations per step vs t                        */
  FX_PLOT_PROBES,   /* probe trajectories, y vs x at equal scales             */
} FxPlotKind;

typedef struct {
  gboolean dark;
  gboolean transparent;  /* no background fill                               */
  double t_window;       /* s shown, ending at the newest point; <= 0: all    */
  double hover_x;        /* device x of the read-out cursor; < 0: none        */
  double font_scale;     /* 1 normally                                        */
  gboolean show_title;
} FxPlotStyle;

void        fx_plot_style_init (FxPlotStyle *style);
void        fx_plot_draw       (cairo_t *cr, FxPlotKind kind, const FxSeries *series,
                                const FxPlotStyle *style, double w, double h);
const char *fx_plot_title      (FxPlotKind kind);

/* For tests and read-outs: the data area (x, y, w, h) the plot would use. */
void        fx_plot_area       (FxPlotKind kind, const FxPlotStyle *style, double w, double h,
                                double area[4]);

G_END_DECLS
