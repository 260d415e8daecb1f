/* fx-scene-private.h: what the scene's drawing files share: the scene
 * being drawn and the geometry helpers that place things on it. */
#pragma once

#include "fx-scene.h"
#include "fx-render-private.h"

G_BEGIN_DECLS

/* One drawing in progress. */
typedef struct {
  cairo_t *cr;
  const FxModel *model;
  const FxStepFrame *frame;
  const FxView *view;
  const FxSceneStyle *style;
  const FxPalette *pal;
  double ls;  /* line scale */
  gboolean model_matches;  /* the frame belongs to this model */
} Scene;

/* model -> device coordinates */
void     scene_dev                (const Scene *sc, double x, double y, double *dx, double *dy);
void     scene_joint_device       (const Scene *sc, guint j, double *dx, double *dy);
gboolean scene_link_has_nodes     (const FxStepFrame *f, guint l);
/* The unit direction (device) of link l leaving its end (at_to: the `to` end). */
void     scene_link_end_direction (const Scene *sc, guint l, gboolean at_to, double *ux, double *uy);
/* The point at fraction s along link l, in model coordinates. */
void     scene_link_point         (const FxStepFrame *f, guint l, double s, double *x, double *y);
/* A filled arrow head at (x, y) pointing along (ux, uy). */
void     scene_arrow_head         (cairo_t *cr, double x, double y, double ux, double uy, double size);

/* layers, fx-scene-symbols.c */
void     scene_draw_joints          (const Scene *sc);
void     scene_draw_motors_springs  (const Scene *sc);
void     scene_draw_loads           (const Scene *sc);
void     scene_draw_probes          (const Scene *sc);
/* layers, fx-scene-causality.c */
void     scene_draw_causality       (const Scene *sc);
void     scene_draw_joint_gaps      (const Scene *sc);

/* the N, V, M diagrams, fx-diagram.c: the curves and their labels, and
 * the legend card at the top right of an area_w x area_h picture */
void     scene_draw_diagram         (const Scene *sc, FxDiagramView view);
void     scene_draw_diagram_legend  (const Scene *sc, FxDiagramView view, double area_w,
                                     double area_h);

G_END_DECLS
