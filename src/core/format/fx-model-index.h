/* fx-model-index.h: the model's id look-up, a hash table kept beside the
 * joints (issue 31, item 8: a linear search per fx_model_find_joint made
 * `check` on 6,000 welded squares spend 46 % of its time in strcmp).
 *
 * The model's arrays are public and the editor renames, adds and removes
 * joints in place, so the table is a cache that checks itself: a hit is
 * confirmed by comparing the joint's id (one strcmp), and a miss falls back
 * to the linear search, which rebuilds the table when it finds the joint
 * (the table was stale). A look-up is thus always what the linear search
 * gives for a model with distinct ids, at O(1) for a model that is not
 * being edited. The table is guarded by a lock: ensemble workers look up
 * joints of one shared model. */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

typedef struct _FxModelIndex FxModelIndex;

/* The index of the joint with this id, or -1. */
int  fx_model_index_find_joint (const FxModel *model, const char *id);
/* Frees the model's table (fx_model_free). */
void fx_model_index_free       (FxModelIndex *index);

G_END_DECLS
