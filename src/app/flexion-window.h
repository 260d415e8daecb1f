/* flexion-window.h: the main window: canvas, inspector, simulation bar,
 * live plots, and the file and edit actions. One document per window. */
#pragma once

#include <adwaita.h>
#include "fx-document.h"
#include "flexion-simulation.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_WINDOW (flexion_window_get_type ())
G_DECLARE_FINAL_TYPE (FlexionWindow, flexion_window, FLEXION, WINDOW, AdwApplicationWindow)

/* A window of `app`. `settings` (may be NULL: defaults, nothing kept) and
 * `examples_dir` (the gallery's folder) come from the application, which
 * the window does not otherwise know. */
FlexionWindow     *flexion_window_new            (AdwApplication *app, GSettings *settings,
                                                  const char *examples_dir);
/* Replaces the document (no prompt: see flexion_window_open). */
void               flexion_window_set_document   (FlexionWindow *self, FxDocument *doc);
FxDocument        *flexion_window_get_document   (FlexionWindow *self);
FlexionSimulation *flexion_window_get_simulation (FlexionWindow *self);
GtkWidget         *flexion_window_get_canvas     (FlexionWindow *self);
/* Loads `file` into this window, with a toast on failure (the current
 * document stays). TRUE when loaded. */
gboolean           flexion_window_load_file      (FlexionWindow *self, GFile *file);
/* Opens `file` on a worker thread (reading, checking, causality: seconds
 * for a 100x100 lattice), the window usable meanwhile, with progress and
 * Cancel; then as flexion_window_load_file, and Play if `play`. Edits made
 * to the document on screen meanwhile are asked about before it goes. */
void               flexion_window_open_file      (FlexionWindow *self, GFile *file, gboolean play);
/* Opens an example as a new untitled document. */
gboolean           flexion_window_load_example   (FlexionWindow *self, GFile *file);
/* Whether the window holds an empty, unmodified, untitled document. */
gboolean           flexion_window_is_pristine    (FlexionWindow *self);
void               flexion_window_toast          (FlexionWindow *self, const char *message);
void               flexion_window_show_gallery   (FlexionWindow *self);
/* Opens the Export window on the current document and run; returns it. */
GtkWidget         *flexion_window_show_export    (FlexionWindow *self);
/* `other` (a panel of this window) takes this window's shortcuts. */
void               flexion_window_share_keys     (FlexionWindow *self, GtkWindow *other);

G_END_DECLS
