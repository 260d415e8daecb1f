/* flexion-export-dialog.h: the Export window: an animation of the model
 * (GIF, WebM, MP4, PNG frames), the plots of the run (PNG, SVG, PDF, CSV)
 * and a picture of the canvas (PNG, SVG, PDF). Long exports run in a
 * worker thread with a progress bar and Cancel; the window never waits. */
#pragma once

#include <adwaita.h>
#include "fx-document.h"
#include "fx-scene.h"
#include "fx-series.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_EXPORT_DIALOG (flexion_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (FlexionExportDialog, flexion_export_dialog, FLEXION, EXPORT_DIALOG, AdwWindow)

/* `series` (may be empty) and `frame` (the frame on screen; may be NULL for
 * the drawn model) are copied or referenced; `style` is the canvas's. */
GtkWidget *flexion_export_dialog_new (GtkWindow *parent, FxDocument *doc, const FxSeries *series,
                                      FxStepFrame *frame, const FxSceneStyle *style);

/* The deflection scale of animations (1 to 1000, 0: auto over the run);
 * the picture uses the style's. By default the style's. */
void       flexion_export_dialog_set_deflection_scale (FlexionExportDialog *self, double scale);
/* The run on screen (FxStepFrame*, every step from 0, not changed
 * afterwards; a reference is kept): animations it covers draw its frames
 * instead of simulating again. */
void       flexion_export_dialog_set_recorded (FlexionExportDialog *self, GPtrArray *frames);
/* Starts an animation export to `file` without asking (what the Export
 * button does after its file chooser; also for tests). "finished" is
 * emitted with (gboolean ok, const char *message). */
void       flexion_export_dialog_export_animation (FlexionExportDialog *self, GFile *file);
void       flexion_export_dialog_cancel (FlexionExportDialog *self);
/* Writes the plot chosen in the window to `file` without asking (what
 * Export Plot does after its file chooser; also for tests); with nothing
 * run yet, the model is first run to its end time in the background. */
void       flexion_export_dialog_export_plot (FlexionExportDialog *self, GFile *file);

G_END_DECLS
