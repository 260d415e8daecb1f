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

/* For drawing a conflict: the assignment of `model` with the links that
 * have an end in `ends` set to Auto, so the other links keep their glyphs;
 * NULL if even that has none. */
FxAssignment *fx_conflict_relaxed_assignment (const FxModel *model, const GPtrArray *ends);

/* "Link crank, at joint O: <why>." */
char      *fx_conflict_end_sentence (const FxModel *model, const FxConflictEnd *end);

/* What the model's conflicts are, in plain sentences without JSON paths
 * or words like "moment-causal", one per conflicting end (or, where the
 * simple rule does not reach, the solver's explanations without their
 * paths); empty when the model has a consistent assignment. */
GPtrArray *fx_conflict_sentences    (const FxModel *model);
/* The first of those, or else the first line of `message` (an engine
 * error) without its JSON path: for a toast. */
char      *fx_conflict_first_sentence (const FxModel *model, const char *message);
/* An engine error about `model` for the app: its conflicts' sentences if
 * it has conflicts, else `message` without its JSON paths. */
char      *fx_conflict_plain_message (const FxModel *model, const char *message);
/* `message` with the loader's JSON paths ("(root): ", "links[0]: ") taken
 * off the start of each line. */
char      *fx_conflict_strip_paths  (const char *message);

/* A fix for a conflict (fx_advice_fixes, checked by the assignment
 * solver): a plain label for a button, and its machine form ("all-auto",
 * "formulation <link> <name>", "mass <joint> <kg>", "inertia <joint>
 * <kg m2>", "split <link>") for fx_conflict_fix_model. */
typedef struct {
  char *label;
  char *machine;
  guint changes;  /* how many items it changes */
} FxConflictFix;

/* The fixes the app offers (FxConflictFix*, owned), best first, all from
 * fx_advice_fixes; "Set all links to Auto" only when more than one link is
 * not Auto (with one, it is that link's own fix). Empty when consistent. */
GPtrArray *fx_conflict_fixes        (const FxModel *model);
/* A copy of `model` with the fix of that machine form applied, or NULL if
 * `model` has no such fix. */
FxModel   *fx_conflict_fix_model    (const FxModel *model, const char *machine);

/* The regularising inertia the assignment added at a joint for a channel
 * (docs/theory.md, "Regularising inertia"), or NULL. */
const FxRegulariser *fx_assignment_regulariser_at (const FxAssignment *as, guint joint,
                                                   FxChannel channel);
/* What it is and why, for the tooltip and the joint's inspector:
 * "Regularising mass 12 g (1 % of the links meeting here), added so the
 * pins are consistent; ..." */
char      *fx_regulariser_sentence  (const FxRegulariser *r);
/* For link `link` split with a regularising mass at its midpoint (rare):
 * a sentence saying so; else NULL. */
char      *fx_split_regulariser_note (const FxAssignment *as, guint link);
/* Turns it into the joint's own mass (or rotary inertia) in `model`. */
gboolean   fx_regulariser_keep      (FxModel *model, const FxRegulariser *r);
/* "2 added, 12 g, 0.5 % of the total mass"; NULL when there are none. */
char      *fx_regularisers_summary  (const FxModel *model, const FxAssignment *as);

G_END_DECLS
