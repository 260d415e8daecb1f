/* flexion-window-private.h: the window's state, shared by its parts:
 * flexion-window.c (document, files, controls), flexion-window-actions.c
 * (the win.* actions) and flexion-window-dnd.c (files dropped on it). */
#pragma once

#include "flexion-window.h"
#include "flexion-canvas.h"
#include "flexion-inspector.h"
#include "flexion-modes-panel.h"
#include "flexion-busy-bar.h"

G_BEGIN_DECLS

struct _FlexionWindow {
  AdwApplicationWindow parent_instance;

  /* template children */
  AdwHeaderBar *header_bar;
  AdwWindowTitle *window_title;
  GtkWidget *edit_box;
  GtkWidget *open_button;
  GtkWidget *inspector_button;
  GtkWidget *undo_button;
  GtkWidget *redo_button;
  AdwToastOverlay *toast_overlay;
  GtkPaned *hpaned;
  FlexionCanvas *canvas;
  FlexionInspector *inspector;
  GtkWidget *plots_box;
  GtkWidget *play_button;
  /* inscriptions, not labels: new text redraws them without relayout of
   * the whole window, which matters at 60 updates a second */
  GtkInscription *time_label;
  GtkInscription *pointer_label;
  GtkInscription *solver_label;
  GtkAdjustment *speed_adjustment;
  GtkScale *speed_scale;
  GtkAdjustment *dt_adjustment;
  GtkSpinButton *dt_spin;
  GtkLabel *dt_warning;  /* why the Δt field is amber, in view */
  GtkDropDown *deflection_dropdown;
  GtkScale *timeline;
  AdwToast *cannot_run;  /* the "Cannot run" toast on screen, or NULL */
  AdwToast *stopped;     /* the solver's stop message on screen, or NULL */
  gboolean run_stopped;  /* the solver stopped the run now kept (replayable) */
  GtkAdjustment *timeline_adjustment;
  GMenu *recent_menu;

  FxDocument *doc;
  FlexionSimulation *sim;
  GSettings *settings;
  char *examples_dir;         /* the gallery's folder, from the application */
  GtkWidget *plots[3];
  double warned_dt;  /* the time step last warned about as too coarse, or 0 */
  FlexionModesPanel *modes_panel;  /* beside the plots */
  GtkWidget *measure;              /* the Measurements plot, beside them too */
  gboolean presentation;
  gboolean lesson;  /* the lesson view (setting lesson-view) */
  gboolean inspector_before;  /* the inspector's visibility before presenting */
  gboolean close_confirmed;
  gboolean updating_controls;
  double model_dt;  /* the document's time step, to notice when it is edited */
  FlexionBusyBar *busy;  /* above the canvas: preparing a run, opening a file */
  GTask *opening;        /* the file being opened (flexion-window-busy.c), or NULL */
};

/* Continue with `then` once the current document may be dropped: at once
 * when it has no unsaved changes, else after the user says so. */
typedef void (*Continuation) (FlexionWindow *self, gpointer data);

typedef struct {
  FlexionWindow *self;
  Continuation then;
  gpointer data;
  GDestroyNotify free_data;
} Pending;

static inline const FxModel *
model (FlexionWindow *self)
{
  return fx_document_get_model (self->doc);
}

static inline int
selected_joint (FlexionWindow *self)
{
  return flexion_canvas_get_selected_joint (self->canvas);
}

static inline int
selected_link (FlexionWindow *self)
{
  return flexion_canvas_get_selected_link (self->canvas);
}

/* flexion-window.c */
void           _flexion_window_maybe_discard          (FlexionWindow *self, Continuation then,
                                                       gpointer data, GDestroyNotify free_data);
void           _flexion_window_open_file_continuation (FlexionWindow *self, gpointer data);
void           _flexion_window_new_document           (FlexionWindow *self, gpointer data);
void           _flexion_window_save_then              (FlexionWindow *self, Pending *p);
void           _flexion_window_save_as_then           (FlexionWindow *self, Pending *p);
GtkFileFilter *_flexion_window_file_filter            (void);

void           _flexion_window_cannot_run             (FlexionWindow *self, const GError *error);
/* Forgets a solver stop once its run is gone (reset). */
void           _flexion_window_forget_stop            (FlexionWindow *self);
void           _flexion_window_open_failed            (FlexionWindow *self, GFile *file,
                                                       const GError *error);
void           _flexion_window_show_opened            (FlexionWindow *self, GFile *file,
                                                       FxDocument *doc, GPtrArray *warnings);

/* flexion-window-files.c */
void           _flexion_window_rebuild_recent_menu    (FlexionWindow *self);
FxDocument    *_flexion_window_empty_document         (FlexionWindow *self);

/* flexion-window-busy.c: work that takes seconds, off the main thread */
void           _flexion_window_busy_init              (FlexionWindow *self);
/* Stops what the busy bar shows (an opening, a run's preparation): TRUE
 * if there was something to stop. */
gboolean       _flexion_window_cancel_busy            (FlexionWindow *self);

/* flexion-window-actions.c */
void           _flexion_window_actions_init           (FlexionWindow *self);
/* win.all-rigid's state: whether every link of the model is rigid. */
void           _flexion_window_update_all_rigid       (FlexionWindow *self);

/* flexion-window-dnd.c */
void           _flexion_window_dnd_init               (FlexionWindow *self);

G_END_DECLS
