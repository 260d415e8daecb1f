/* flexion-canvas.h: the drawing area where mechanisms are drawn and run.
 *
 * Draws with fx_scene_draw (the same code as exports), edits through the
 * FxDocument (so every edit can be undone), and during a run turns drags on
 * links into hand pulls on the solver.
 */
#pragma once

#include <gtk/gtk.h>
#include "fx-document.h"
#include "flexion-simulation.h"
#include "fx-scene.h"

G_BEGIN_DECLS

typedef enum {
  FLEXION_TOOL_SELECT,  /* click selects, drag moves joints (or draws from empty space) */
  FLEXION_TOOL_LINK,    /* every drag draws a link                                     */
} FlexionTool;

#define FLEXION_TYPE_CANVAS (flexion_canvas_get_type ())
G_DECLARE_FINAL_TYPE (FlexionCanvas, flexion_canvas, FLEXION, CANVAS, GtkWidget)

GtkWidget   *flexion_canvas_new             (void);
void         flexion_canvas_set_document    (FlexionCanvas *canvas, FxDocument *doc);
/* The causality of the document set next, already computed (taken): the
 * thread that opened a big file did it, so the canvas need not. */
void         flexion_canvas_give_assignment (FlexionCanvas *canvas, FxAssignment *assignment);
void         flexion_canvas_set_simulation  (FlexionCanvas *canvas, FlexionSimulation *sim);

void         flexion_canvas_set_tool        (FlexionCanvas *canvas, FlexionTool tool);
FlexionTool  flexion_canvas_get_tool        (FlexionCanvas *canvas);

/* Selection: at most one joint or one link (-1: none). "selection-changed". */
int          flexion_canvas_get_selected_joint (FlexionCanvas *canvas);
int          flexion_canvas_get_selected_link  (FlexionCanvas *canvas);
void         flexion_canvas_select          (FlexionCanvas *canvas, int joint, int link);

void         flexion_canvas_fit             (FlexionCanvas *canvas);
void         flexion_canvas_zoom            (FlexionCanvas *canvas, double factor);

/* Appearance and snapping, from the preferences. */
void         flexion_canvas_set_dark        (FlexionCanvas *canvas, gboolean dark);
void         flexion_canvas_set_colormap    (FlexionCanvas *canvas, const char *name);
void         flexion_canvas_set_show        (FlexionCanvas *canvas, const char *what, gboolean show);
/* The N, V or M diagram over the links (fx-diagram.h), or none. */
void         flexion_canvas_set_diagram     (FlexionCanvas *canvas, FxDiagramView view);
FxDiagramView flexion_canvas_get_diagram    (FlexionCanvas *canvas);
void         flexion_canvas_set_snap        (FlexionCanvas *canvas, gboolean snap, double grid_step);
/* Whether the view follows a running mechanism that leaves it (default on). */
void         flexion_canvas_set_follow      (FlexionCanvas *canvas, gboolean follow);
/* Presentation: thicker strokes and larger text, no editing. */
void         flexion_canvas_set_presentation (FlexionCanvas *canvas, gboolean on);

/* Where the last context menu was opened: the link under it (-1: none),
 * the fraction along it, and the model point. */
int          flexion_canvas_get_context_point (FlexionCanvas *canvas, double *s, double xy[2]);
/* Makes sure ticks run when the simulation has work (after a step). */
void         flexion_canvas_wake            (FlexionCanvas *canvas);

/* A mode shape (fx_modes_frame) drawn instead of the model or the run, with
 * the drawn model as a ghost and `label` at the top ("mode 2 · 13.7 Hz");
 * NULL returns to the model or the run. The canvas keeps a reference. */
void         flexion_canvas_set_mode_frame  (FlexionCanvas *canvas, FxStepFrame *frame,
                                             const char *label);

/* The style the canvas draws with now (colours, options, moment range),
 * for exports that should look the same. */
void         flexion_canvas_get_style       (FlexionCanvas *canvas, FxSceneStyle *style);

/* Where model point (x, y) is drawn, in widget pixels. */
void         flexion_canvas_to_widget       (FlexionCanvas *canvas, double x, double y,
                                             double *wx, double *wy);

/* The deflection scale (fx-deflection.h): 1 to 1000, or 0 for auto (the
 * run's largest deflection drawn as a tenth of the model's size). The
 * getter gives the scale drawn now. */
void         flexion_canvas_set_deflection_scale (FlexionCanvas *canvas, double scale);
double       flexion_canvas_get_deflection_scale (FlexionCanvas *canvas);
double       flexion_canvas_get_deflection_setting (FlexionCanvas *canvas);

/* The section and element count new links get. */
void         flexion_canvas_default_section (FxSection *section, guint *elements);

/* An extra layer over the running mechanism (the ensemble's sample
 * trails, flexion-ensemble-view.c): called at the end of each draw of a run
 * with the view and the shown time. NULL removes it. */
typedef void (*FlexionCanvasOverlay) (cairo_t *cr, const FxView *view, double t, gpointer data);
void         flexion_canvas_set_overlay     (FlexionCanvas *canvas, FlexionCanvasOverlay draw,
                                             gpointer data);

/* The longest gap between two frame-clock ticks seen since the last call,
 * in microseconds (for the responsiveness test and diagnostics). */
gint64       flexion_canvas_take_max_tick_gap (FlexionCanvas *canvas);

G_END_DECLS
