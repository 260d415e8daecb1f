/* fx-conflicts.h: where a hand-chosen formulation conflicts, in plain words.
 *
 * When the formulations chosen by hand admit no consistent assignment, the
 * user needs to see which link ends are at fault, on the canvas and in the
 * inspector, not a paragraph about junctions. Each junction (a joint's
 * translation, or the rotation of a weld or of one pinned end) needs
 * exactly one link end that takes force in, or none where a support or an
 * inertia takes it. From the ends whose causality the chosen formulations
 * fix, this finds junctions that already break that rule: too many
 * force-taking ends, or none left to take it.
 */
#pragma once

#include "fx-causality.h"

G_BEGIN_DECLS

typedef struct {
  guint link;        /* model link                        */
  gboolean at_to;    /* the link's `to` end (else `from`) */
  FxChannel channel;
  char *why;         /* plain words, for this end         */
} FxConflictEnd;

/* The conflicting ends (FxConflictEnd*, owned by the array); empty when
 * nothing is known to conflict (all AUTO, or consistent). */
GPtrArray *fx_conflict_ends (const FxModel *model);

/* Whether `link` has an end in `ends`. */
gboolean   fx_conflict_ends_involve (const GPtrArray *ends, guint link);

G_END_DECLS
