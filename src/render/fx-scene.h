/* fx-scene.h: the mechanism drawn with cairo, the one drawing code behind
 * the canvas, the gallery thumbnails and every picture or animation export.
 *
 * A scene is a model (for supports, loads, motors and the rest) and a frame
 * (for where everything is now): before a run the frame is the drawn model
 * itself (fx_step_frame_new_from_model), during a run the solver's newest.
 * Links are coloured by bending moment with a diverging map symmetric about
 * zero; the colour bar says what the colours mean.
 */
#pragma once

#include <cairo.h>
#include "fx-causality.h"
#include "fx-frame.h"
#include "fx-colormap.h"
#include "fx-view.h"
#include "fx-trails.h"
#include "fx-diagram.h"

G_BEGIN_DECLS

typedef struct {
  gboolean dark;
  gboolean transparent;     /* no background fill (thumbnails on cards)   */
  FxColormap colormap;
  double moment_range;      /* |M| at the map's ends, N m; <= 0: the frame's own max */
  double deflection_scale;  /* bending magnified k times (fx-deflection.h); <= 1: to scale */
  double line_scale;        /* stroke and text scale: 1, 1.7 on a projector */
  double grid_step;         /* m; <= 0: follows the zoom (1-2-5)           */
  gboolean show_grid, show_initial, show_trails, show_joint_gaps;
  gboolean show_causality, show_colorbar, show_time, show_labels;
  const char *time_label;  /* with show_time: said instead of "t = ..." (a mode's
                            * "mode 1 · 45.3 Hz", whose frames have no time) */
  gboolean show_reactions;  /* during a run: the supports' reactions (fx_scene_draw_reactions) */
  FxDiagramView diagram;    /* the N, V or M diagram over the links (fx-diagram.h) */
  gboolean show_diagram_legend;  /* with a diagram: its legend card, top right */
  double diagram_range;     /* |value| the diagram's full span stands for; <= 0: the frame's max */
  int selected_joint, selected_link;  /* -1: none */
  int hover_joint, hover_link;        /* -1: none */
  const FxAssignment *assignment;     /* NULL: no causality glyphs */
  /* in a conflict (non-empty): the links at fault show their hand-chosen
   * formulations' glyphs, with these ends (FxConflictEnd*, fx-conflicts.h)
   * ringed; the others the glyphs of `assignment` (if not NULL), made
   * with the links at fault set to Auto */
  const GPtrArray *conflicts;
  const FxTrails *trails;             /* NULL: no trails           */
  gboolean has_pull;                  /* a drag pulls a point       */
  double pull_from[2], pull_to[2];    /* model coordinates          */
} FxSceneStyle;

/* Defaults: light, cool-warm, line_scale 1, grid, colour bar and time on,
 * no diagram (its legend on when one is chosen), nothing selected. */
void   fx_scene_style_init   (FxSceneStyle *style);

/* Draws the scene into [0, w] x [0, h]. `frame` must not be NULL; `initial`
 * (may be NULL) is drawn as a ghost when show_initial is set. With a
 * deflection scale above 1 the frame is drawn magnified and the scale is
 * written under the time ("deflection ×200"). A diagram is drawn over the
 * links, under the symbols, with its legend card at the top right. */
void   fx_scene_draw         (cairo_t *cr, const FxModel *model, const FxStepFrame *frame,
                              const FxStepFrame *initial, const FxView *view,
                              const FxSceneStyle *style, double w, double h);

/* The supports' reactions of a frame from a run (none for step 0): at each
 * joint that holds a channel, the force it exerts on the mechanism as an
 * arrow pushing onto the joint (the frame's largest 70 px long) with its
 * magnitude, a held moment as an arc with its value. fx_scene_draw calls
 * it with show_reactions (fx-reaction-arrows.c). */
void   fx_scene_draw_reactions (cairo_t *cr, const FxStepFrame *frame, const FxView *view,
                                const FxSceneStyle *style);

/* The colour bar alone, in the box (x, y, w, h): a horizontal gradient with
 * ticks at -range, 0, +range and the label "Bending moment (N m)". */
/* Where fx_scene_draw puts the colour bar on a w x h canvas (x, y, w, h):
 * FALSE when it draws none. */
gboolean fx_scene_colorbar_box (const FxSceneStyle *style, double w, double h, double box[4]);
void   fx_scene_draw_colorbar (cairo_t *cr, const FxSceneStyle *style, double range,
                               double x, double y, double w, double h);

/* The moment range the colours use for `frame` under `style`. */
double fx_scene_moment_range (const FxSceneStyle *style, const FxStepFrame *frame);

/* The box around the frame's nodes and joints: x0, x1, y0, y1. FALSE when
 * there is nothing to bound. */
gboolean fx_scene_bounds     (const FxStepFrame *frame, double bbox[4]);

typedef gboolean (*FxJointFilter) (guint joint, gpointer data);

/* The nearest of the joints within `radius` pixels of device point (dx, dy)
 * that `accept` takes (all when it is NULL); -1 if none. */
int    fx_scene_pick_joint_if (const FxStepFrame *frame, const FxView *view, double dx, double dy,
                               double radius, FxJointFilter accept, gpointer data);
/* The joint within `radius` pixels of device point (dx, dy), the nearest;
 * -1 if none. */
int    fx_scene_pick_joint   (const FxStepFrame *frame, const FxView *view,
                              double dx, double dy, double radius);
/* The link within `radius` pixels, the nearest, with the fraction s along
 * it of the nearest point; -1 if none. */
int    fx_scene_pick_link    (const FxStepFrame *frame, const FxView *view,
                              double dx, double dy, double radius, double *s);

G_END_DECLS
