/* flexion-inspector.h: the sidebar that shows and edits the selected item
 * (joint, link) or, with nothing selected, the model: its time settings,
 * gravity and the causality assignment with its conflicts and fixes.
 * Every change is one FxDocument edit, so it can be undone. */
#pragma once

#include <adwaita.h>
#include "fx-document.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_INSPECTOR (flexion_inspector_get_type ())
G_DECLARE_FINAL_TYPE (FlexionInspector, flexion_inspector, FLEXION, INSPECTOR, AdwBin)

GtkWidget *flexion_inspector_new          (void);
void       flexion_inspector_set_document (FlexionInspector *self, FxDocument *doc);
/* Shows the joint or link (-1, -1: the model). */
void       flexion_inspector_show         (FlexionInspector *self, int joint, int link);
/* The lesson view: causality ports are not shown while they fit together. */
void       flexion_inspector_set_lesson   (FlexionInspector *self, gboolean lesson);

/* The model section's modes line ("mobility 1 · statically determinate"),
 * from the Modes panel; NULL or "" hides it. */
void       flexion_inspector_set_modes_summary (FlexionInspector *self, const char *summary);

G_END_DECLS
