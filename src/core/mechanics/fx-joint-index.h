/* fx-joint-index.h: who meets where, for building a system (fx-system.c).
 *
 * Which link ends meet at each joint, which joints and bodies number their
 * unknowns after each segment, which loads act at each joint: built in one
 * pass over the model, so that setting up a joint does not scan every link
 * (a 200 x 200 lattice took 569 s and 6.5 GB in `check`, issue 25). The
 * orders are those of the scans they replace: members by link then side,
 * joints and bodies by index, loads by index. */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

typedef struct {
  guint *member_start, *member_link, *member_side;  /* per joint: its link ends   */
  guint *owned_start, *owned;                       /* per segment: joints it owns */
  guint *body_start, *body;                         /* per segment: bodies it owns */
  guint *load_start, *load;                         /* per joint: loads there      */
  int *body_of_joint;                               /* the first body at a joint   */
} FxJointIndex;

/* Joint id -> index + 1 (the first of equal ids, as a scan would find). */
GHashTable *fx_joint_ids           (const FxModel *model);
/* The joint's index in `ids`, G_MAXUINT for none or NULL. */
guint       fx_joint_key           (GHashTable *ids, const char *id);
/* The members of every joint, and `owner`: the first link at each joint
 * (-1: none). */
void        fx_joint_index_members (FxJointIndex *x, const FxModel *model, GHashTable *ids,
                                    int *owner);
/* Everything, with the bodies' owning links `body_owner` (may be NULL). */
void        fx_joint_index_build   (FxJointIndex *x, const FxModel *model, int *owner,
                                    const int *body_owner);
void        fx_joint_index_clear   (FxJointIndex *x);

G_END_DECLS
