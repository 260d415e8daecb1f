/* fx-plot.h: the plots of a run, drawn with cairo: one function behind the
 * live plot widgets and the plot exports (PNG, SVG, PDF). */
#pragma once

#include <cairo.h>
#include "fx-series.h"

G_BEGIN_DECLS

typedef enum {
  FX_PLOT_ENERGY,   /* H, kinetic, elastic, gravity, supplied W, dissipated D
                       vs t (FxEnergyView says how)                          */
  FX_PLOT_BALANCE,  /* |per-step balance residual| vs t, log scale            */
  FX_PLOT_NEWTON,   /* Newton iterations per step vs t                        */
  FX_PLOT_PROBES,   /* probe trajectories, y vs x at equal scales             */
} FxPlotKind;

/* How the energy plot shows the energies. Gravity potential is measured
 * from y = 0, so absolute values can dwarf what moves: by default every
 * energy is drawn as its change since the first point. */
typedef enum {
  FX_ENERGY_RELATIVE,  /* each term minus its value at the start (default)      */
  FX_ENERGY_BOOKS,     /* Delta H, supplied W, dissipated D and Delta H - W + D,
                          flat to the balance residuals                        */
  FX_ENERGY_ABSOLUTE,  /* the terms as computed (gravity from y = 0)           */
} FxEnergyView;

typedef struct {
  gboolean dark;
  gboolean transparent;  /* no background fill                               */
  double t_window;       /* s shown, ending at the newest point; <= 0: all    */
  double hover_x;        /* device x of the read-out cursor; < 0: none        */
  double font_scale;     /* 1 normally                                        */
  gboolean show_title;
  FxEnergyView energy_view;  /* FX_PLOT_ENERGY only                         */
  double cursor_t;       /* s: a time cursor (scrubbing the timeline); NaN: none */
  double hover_y;        /* device y of the pointer (plots against a quantity) */
} FxPlotStyle;

void        fx_plot_style_init (FxPlotStyle *style);
void        fx_plot_draw       (cairo_t *cr, FxPlotKind kind, const FxSeries *series,
                                const FxPlotStyle *style, double w, double h);
const char *fx_plot_title      (FxPlotKind kind);
/* The energy views' names, for menus ("Change since start"...). */
const char *fx_energy_view_name (FxEnergyView view);

/* For tests and read-outs: the data area (x, y, w, h) the plot would use;
 * the legend sits above it, between the title and the data. */
void        fx_plot_area       (FxPlotKind kind, const FxPlotStyle *style, double w, double h,
                                double area[4]);
/* The legend's box (x, y, w, h) as drawn; w = 0 when the plot has none. */
void        fx_plot_legend_box (FxPlotKind kind, const FxPlotStyle *style, double w, double h,
                                double box[4]);

G_END_DECLS
