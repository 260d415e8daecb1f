/* flexion-modes-panel.h: the Modes panel beside the plots.
 *
 * Lists the linear modes of the drawn model (fx-modes.h, docs/theory.md
 * section 10): its motions, self-stress states and vibration frequencies,
 * computed in a worker thread whenever the model changes. Selecting one
 * animates its shape on the canvas with a label ("mode 2 · 13.7 Hz",
 * "mechanism mode 1"); leaving the panel (its back button, Escape, or
 * playing) returns the canvas to the simulation. "computed" is emitted with
 * the summary ("mobility 1 · statically determinate") for the inspector.
 */
#pragma once

#include <adwaita.h>
#include "fx-document.h"
#include "fx-modes.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_MODES_PANEL (flexion_modes_panel_get_type ())
G_DECLARE_FINAL_TYPE (FlexionModesPanel, flexion_modes_panel, FLEXION, MODES_PANEL, AdwBin)

GtkWidget     *flexion_modes_panel_new            (void);
void           flexion_modes_panel_set_document   (FlexionModesPanel *self, FxDocument *doc);
void           flexion_modes_panel_set_canvas     (FlexionModesPanel *self, FlexionCanvas *canvas);
/* Playing leaves the panel. */
void           flexion_modes_panel_set_simulation (FlexionModesPanel *self, FlexionSimulation *sim);

/* The modes of the current model, or NULL (computing, or no modes: see
 * the summary). */
const FxModes *flexion_modes_panel_get_modes      (FlexionModesPanel *self);
/* "mobility 1 · statically determinate", an error, or "" while computing. */
const char    *flexion_modes_panel_get_summary    (FlexionModesPanel *self);

/* Show mode `index` of the modes (animated on the canvas), or -1: leave. */
void           flexion_modes_panel_show_mode      (FlexionModesPanel *self, int index);
int            flexion_modes_panel_get_shown_mode (FlexionModesPanel *self);

/* The frequency table as flexion-cli modes --csv writes it. */
gboolean       flexion_modes_panel_save_table     (FlexionModesPanel *self, const char *path,
                                                   GError **error);

G_END_DECLS
