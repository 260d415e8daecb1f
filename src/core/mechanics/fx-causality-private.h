/* fx-causality-private.h: what the causality search (fx-causality.c) and
 * the regularising inertia of its third tier (fx-regularise.c) share: the
 * junctions of one channel and the matching's answer. */
#pragma once

#include "fx-causality.h"

G_BEGIN_DECLS

typedef struct {
  int joint;        /* model joint index                          */
  gboolean ground;  /* TRUE: needs no F member                    */
  GArray *members;  /* guint: link indices                        */
  GArray *sides;    /* guint: 0 = link's `from` end, 1 = `to` end */
} Junction;

#define NO_JUNCTION G_MAXUINT

typedef guint JunctionPair[2];  /* per link: its junction at each side */
typedef int BitPair[2];         /* per link: a bit at each side       */

typedef struct {
  int *bits;           /* per link (of the model matched): F or V          */
  int (*end_bits)[2];  /* per link and side                                */
  GArray *exposed;     /* guint: joints left exposed, in junction order    */
  gboolean conflict;   /* the user's fixed links cover a junction twice    */
  gboolean stuck;      /* an exposed junction cannot take an inertia       */
  GArray *stuck_links; /* guint: the links whose ends are there            */
} ChannelMatch;

typedef struct {
  gboolean ok;
  guint cost;        /* exposed junctions over both channels */
  ChannelMatch ch[2];
} Tier3;

typedef enum { BIT_UNSET = -1 } BitState;

/* One channel's search: a bit per link, propagated junction by junction. */
typedef struct {
  const FxModel *model;
  FxChannel channel;
  GArray *junctions;  /* Junction */
  int *bit;           /* per link: -1 unset, FX_CAUSAL_F or FX_CAUSAL_V */
  gboolean *fixed;    /* per link: set by the user                   */
  guint budget;       /* search nodes left                            */
  gboolean exhausted; /* the budget ran out: "no" is not a proof      */
  guint (*lj)[2];     /* per link and side: its junction, or NO_JUNCTION */
  guint *trail;       /* links set since the search began, in order  */
  guint trail_len;
  guint *queue;       /* junctions to look at again                  */
  guint queue_len;
  gboolean *queued;
  GPtrArray *plain;   /* conflicts in plain words (may be NULL)      */
} Problem;

/* The junctions of one channel (Junction), in joint order. */
GArray   *cx_build_junctions (const FxModel *model, FxChannel channel);
void      cx_junctions_free  (GArray *junctions);
/* Each link's junction at each side, or NO_JUNCTION. */
guint   (*cx_link_junctions (const FxModel *model, GArray *junctions))[2];
/* The model with the links in `split` split at their midpoints; `fixed`
 * (may be NULL) fixes the formulations. */
FxModel  *cx_expand_model    (const FxModel *model, const gboolean *split,
                              const FxLinkAssignment *fixed);

/* The k-th member (link) of a junction. */
guint     cx_member (const Junction *j, guint k);

/* fx-causality-explain.c: a conflict for the CLI (JSON path `list`[index]) */
void      cx_add_conflict (GPtrArray *conflicts, const char *list, int index, char *message);
void      cx_explain_fixed_conflicts (Problem *p, GPtrArray *conflicts);
void      cx_explain_infeasible      (Problem *p, GPtrArray *conflicts);

/* fx-regularise.c: tier 3 and the regularisers' values */
void      cx_tier3_clear     (Tier3 *t);
gboolean  cx_regularise      (const FxModel *model, gboolean *split, Tier3 *out);
gboolean  cx_exact_tier1     (const FxModel *model, Tier3 *out);
/* Whether the model as drawn has an assignment (cx_exact_tier1's answer). */
gboolean  cx_tier1_possible  (const FxModel *model);
void      cx_add_regulariser (GArray *regs, const FxModel *model, guint joint, FxChannel channel);
void      cx_add_tier3_regularisers (FxAssignment *a, const FxModel *model, const gboolean *split,
                                     const Tier3 *t3);
gint      cx_regulariser_cmp (gconstpointer pa, gconstpointer pb);

G_END_DECLS
