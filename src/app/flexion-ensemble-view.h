/* flexion-ensemble-view.h: the Ensemble toggle beside Play. On: N noisy
 * samples of the document's model (default 20) run in background threads
 * and a panel shows their statistics (mean, 5-95 % band, thin sample lines,
 * probe paths), following the main run's time; Export writes the statistics
 * CSV and the two plots. Off: the computation stops and the panel hides. */
#pragma once

#include "flexion-window.h"
#include "fx-ensemble.h"

G_BEGIN_DECLS

#define FLEXION_ENSEMBLE_DEFAULT_SAMPLES 20

/* A toggle button for `window`'s simulation bar. */
GtkWidget *flexion_ensemble_toggle_new   (FlexionWindow *window);
/* Puts the toggle right after the Play button. */
void       flexion_ensemble_toggle_attach (FlexionWindow *window, GtkWidget *play_button);

/* For tests: the panel (NULL before the first toggle), the finished
 * ensemble (NULL while it runs) and whether it runs. */
GtkWidget          *flexion_ensemble_toggle_get_panel    (GtkWidget *toggle);
const FxEnsemble   *flexion_ensemble_toggle_get_ensemble (GtkWidget *toggle);
gboolean            flexion_ensemble_toggle_is_running   (GtkWidget *toggle);
/* Writes the statistics CSV at `csv_path` and the plots beside it
 * (<name>-energy.png, <name>-probes.png). */
gboolean            flexion_ensemble_toggle_export       (GtkWidget *toggle, const char *csv_path,
                                                          GError **error);

G_END_DECLS
