/* fx-causality.h: which formulation each link takes, and why.
 *
 * Per channel (translation, rotation) every junction is a power-conserving
 * 1-junction. A free junction must be fed its force by exactly one F-causal
 * member end; a ground junction (support) by none. A link has the same
 * causality at both its ends, so choosing T and R per link is a small
 * constraint problem. This module answers it and explains conflicts; the
 * assembler (fx-system.c), the CLI and the canvas consume the answer.
 */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

typedef enum {
  FX_CAUSAL_F = 0,  /* force (moment) in, velocity (angular velocity) out */
  FX_CAUSAL_V = 1,  /* velocity (angular velocity) in, force (moment) out */
} FxCausality;

typedef enum {
  FX_CHANNEL_TRANSLATION = 0,
  FX_CHANNEL_ROTATION = 1,
} FxChannel;

typedef struct {
  FxCausality T, R;
  FxFormulation formulation;  /* never AUTO                                */
  guint elements;
} FxSegmentAssignment;

typedef struct {
  FxCausality T, R;           /* of the first (or only) segment            */
  /* per end (0: `from`, 1: `to`): the causality of the segment that ends
   * there; equal to T, R for a link that is not split. A link whose ends
   * are independent (fx_link_ends_independent) may have different ones. */
  FxCausality T_end[2], R_end[2];
  FxFormulation formulation;  /* of the first (or only) segment; never AUTO */
  gboolean fixed_by_user;     /* the model named the formulation           */
  gboolean split;             /* split at its midpoint at a welded joint    */
  guint n_segments;           /* 1, or 2 when split                        */
  FxSegmentAssignment segment[2];
} FxLinkAssignment;

/* A regularising inertia (docs/theory.md, "Regularising inertia"): where
 * no assignment exists as drawn or with splits, the junctions a maximum
 * matching leaves exposed get a small inertia from the members' own mass;
 * it is derived like a split, never written to the file. */
typedef struct {
  guint joint;          /* model joint index */
  FxChannel channel;    /* TRANSLATION: point mass; ROTATION: rotary inertia (welded) */
  double mass;          /* kg, translation (and the mass a rotary one was made from) */
  double inertia;       /* kg m^2, rotation (0 for a point mass) */
  double member_mass;   /* sum of 1/2 rhoA L of the links meeting there (kg), for "1 % of ..." */
  int link;             /* -1; in split_regularisers: the model link at whose
                         * split midpoint it sits (joint is then the expanded
                         * model's joint index, past the model's own) */
} FxRegulariser;

typedef struct {
  guint n_links;
  FxLinkAssignment *links;  /* one per model link, same order               */
  GPtrArray *conflicts;     /* char*: one explanation per conflict, with fixes,
                             * each starting with the JSON path it is about */
  GPtrArray *plain_conflicts; /* char*: conflicts[i] in plain words for the app
                               * (no JSON paths, no causality jargon), one each */
  GArray *regularisers;     /* FxRegulariser, never NULL, sorted by joint   */
  GArray *split_regularisers; /* FxRegulariser at the midpoints of split links
                               * (rare: a link held at one end whose other end
                               * is one of several at a pin on a roller or mass),
                               * never NULL, usually empty */
} FxAssignment;

/* The total regularising mass, kg: the point masses (a rotary inertia adds
 * no mass). */
double        fx_assignment_regularising_mass (const FxAssignment *a);
/* The regularising mass at a joint of `model` for channel (kg), as the
 * assignment would add it: epsilon sum 1/2 rhoA L of the links there. */
double        fx_regularising_mass_at (const FxModel *model, guint joint, double *member_mass);
/* The mechanism's total mass: links, joint masses, slider blocks, bodies (kg). */
double        fx_model_total_mass (const FxModel *model);

FxAssignment *fx_assignment_compute (const FxModel *model);
guint         fx_assignment_n_splits (const FxAssignment *assignment);

/* The model the engine builds: every split link replaced by two links
 * ("<id>~a" from `from` to the midpoint joint "<id>~mid", welded, and
 * "<id>~b" from there to `to`), formulations fixed to the assignment, loads
 * and probes on split links moved to the half they fall on. */
FxModel      *fx_assignment_expand   (const FxAssignment *assignment, const FxModel *model);
/* ... and every regulariser added as joint mass or inertia (flagged in the
 * joint's regularising_mass / regularising_inertia), every roller support a
 * slider block. fx_assignment_expand does all of it. */

/* Whether a link's two ends take their causality independently (a
 * floating-frame link, fx-link-ends.c): each is a wildcard in the matching,
 * an edge to a private vertex of its own. */
gboolean      fx_link_ends_independent (const FxModel *model, guint link);

/* Whether a junction needs no force-causal link: a support fixes the channel,
 * or an inertia (lumped mass, slider block, rigid body) takes the force. */
gboolean      fx_joint_is_covered    (const FxModel *model, guint joint, FxChannel channel);

/* The speed motor driving link's end at joint against the ground, if any: it
 * prescribes that end's angular velocity, so the end needs no moment-causal link. */
const FxMotor *fx_speed_motor_to_ground (const FxModel *model, const char *joint, const char *link);
/* The speed motor between `link` and another link at a pin joint, if any
 * (link is its `link` or its `link_b`): it joins the two ends' rotation in
 * one junction, so together they need exactly one moment-causal end. */
const FxMotor *fx_speed_motor_between (const FxModel *model, const char *joint, const char *link);
void          fx_assignment_free    (FxAssignment *assignment);
gboolean      fx_assignment_ok      (const FxAssignment *assignment);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxAssignment, fx_assignment_free)

FxFormulation fx_formulation_from_causality (FxCausality T, FxCausality R);
void          fx_formulation_causality      (FxFormulation f, FxCausality *T, FxCausality *R);

/* Whether a support fixes the channel (a ground junction) at a joint. */
gboolean      fx_support_grounds            (FxSupport support, FxChannel channel);

G_END_DECLS
