/* flexion-canvas-private.h: what the canvas's files share: the object's
 * fields and the helpers its input and menu code call. */
#pragma once

#include "flexion-canvas.h"
#include "fx-scene.h"

G_BEGIN_DECLS

#define PICK_RADIUS 10.0   /* px: joints and links under the pointer */
#define SNAP_RADIUS 12.0   /* px: snapping to an existing joint      */
#define DRAG_THRESHOLD 4.0 /* px: below this a press is a click      */
#define PULL_RADIUS 28.0   /* px: grabbing a moving link is harder    */

typedef enum {
  DRAG_NONE,
  DRAG_MOVE_JOINT,
  DRAG_DRAW_LINK,
  DRAG_PAN,
  DRAG_PULL,
} DragMode;

struct _FlexionCanvas {
  GtkWidget parent_instance;

  FxDocument *doc;
  FlexionSimulation *sim;
  gulong doc_changed_id, sim_frame_id;

  FxStepFrame *model_frame;   /* the drawn model as a frame */
  FxAssignment *assignment;   /* of the drawn model         */
  FxAssignment *given_assignment;  /* computed elsewhere, for the next document */
  /* in a conflict: of the drawn model with the links at fault set to
   * Auto, so the other links keep their glyphs (NULL if none) */
  FxAssignment *relaxed;
  GPtrArray *conflicts;       /* its conflicting ends, when it has none */

  FxView view;
  FlexionCanvasOverlay overlay;  /* flexion_canvas_set_overlay */
  gpointer overlay_data;
  gboolean view_valid;
  gboolean view_moved;  /* used since the document was set (zoomed, panned,
                         * pointed at, edited): until then a new size fits
                         * again (a model opened before the window took its
                         * final size); after, a new size keeps the model
                         * where it is on screen. Only open, Reset and
                         * Ctrl+0 fit then. */
  FxSceneStyle style;
  double deflection_setting;  /* the chosen scale; 0: auto */
  gboolean snap;
  double grid_step;           /* 0: follows the zoom */
  gboolean presentation;
  gboolean follow;            /* keep a running mechanism in view */
  FlexionTool tool;

  int selected_joint, selected_link;
  int hover_joint, hover_link;

  /* the drag in progress */
  DragMode drag;
  double press_dx, press_dy;  /* device */
  double start[2], cur[2];    /* model, snapped */
  gboolean moved;
  int drag_joint;
  int pull_link;
  double pull_s;
  FxView pan_view;

  /* the last context-menu target */
  int context_link;
  double context_s;
  double context_xy[2];

  guint tick_id;
  gint64 last_tick, max_gap, last_tick_end;

  double pointer_x, pointer_y;  /* last pointer position, -1: outside */
  double zoom_last;             /* pinch scale at the last update     */

  GtkWidget *context_menu;

  FxStepFrame *mode_frame;  /* a mode shape shown instead (flexion-modes-panel) */
  char *mode_label;
};

const FxModel *canvas_model        (FlexionCanvas *self);
/* The frame the pointer works on: the run's shown frame, or the drawn model. */
FxStepFrame   *canvas_drawn_frame  (FlexionCanvas *self);
gboolean       canvas_playing      (FlexionCanvas *self);
double         canvas_snap_step    (FlexionCanvas *self);
/* Device point -> model point, snapped to joints and the grid unless
 * shift; the joint it snapped to, or -1. */
int            canvas_snap_point   (FlexionCanvas *self, double dx, double dy, gboolean shift,
                                    double xy[2]);
void           canvas_pick         (FlexionCanvas *self, double dx, double dy, int *joint,
                                    int *link, double *s);
void           canvas_emit_pointer_moved (FlexionCanvas *self, double wx, double wy);

/* flexion-canvas-input.c, flexion-canvas-menu.c */
void           canvas_install_input        (FlexionCanvas *self);
void           canvas_install_context_menu (FlexionCanvas *self);

G_END_DECLS
