/* fx-modes-frame.h: modes of links whose model gives its own blocks (a
 * floating-frame link), the hook of fx-modes.c. */
#pragma once

#include "fx-modes.h"
#include "fx-system.h"

G_BEGIN_DECLS

/* Whether a link of the system gives its own modes blocks. */
gboolean fx_modes_frame_applies (const FxSystem *system);
/* Modes of a system whose one link gives its blocks (refused otherwise). */
FxModes *fx_modes_frame_compute (FxSystem *system, guint max_vibrations, GError **error);

G_END_DECLS
