/* fx-trails.h: the recent path of every probe, for trails on the scene. */
#pragma once

#include "fx-frame.h"

G_BEGIN_DECLS

typedef struct _FxTrails FxTrails;
FxTrails *fx_trails_new   (guint n_probes, guint capacity);
void      fx_trails_free  (FxTrails *trails);
void      fx_trails_clear (FxTrails *trails);
void      fx_trails_add   (FxTrails *trails, const FxStepFrame *frame);
guint     fx_trails_n_points (const FxTrails *trails, guint probe);
/* The k-th point (x, y) of probe p's trail, oldest first. */
const double *fx_trails_point (const FxTrails *trails, guint probe, guint k);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxTrails, fx_trails_free)

G_END_DECLS
