/* fx-deflection.h: bending made visible.
 *
 * A steel link bends by a fraction of a millimetre: drawn to scale, only
 * its colour changes. A deflection scale k magnifies each link's
 * deflection relative to its rigid motion, so a mechanism still moves
 * correctly while its bending is exaggerated:
 *
 *   x'_i = r_i + k (x_i - r_i)
 *
 * where r_i is node i carried by the link's rigid motion. For a link with
 * one free end (a cantilever) the rigid motion is the attached end's
 * position and tangent: r_i = x_a + s_i t_a, s_i the arc length from that
 * end. For every other link it is the chord between its ends,
 * r_i = x_a + (s_i / s_n)(x_b - x_a), so both ends stay on their joints.
 * A floating-frame link's rigid motion is its frame (physics.md 12.8): r_i
 * is node i's foot on the frame's axis (the mean line), and its ends move
 * off their joints by the magnified deflection there.
 */
#pragma once

#include "fx-frame.h"

G_BEGIN_DECLS

/* The largest |x_i - r_i| over all links of `frame`, m (0 when the frame
 * does not belong to `model`). */
double       fx_deflection_max        (const FxModel *model, const FxStepFrame *frame);

/* The largest |x_i - r_i| of a link over its length (its nodes' arc
 * length), over all links of `frame` (0 when the frame does not belong to
 * `model`): how bent the most bent member is. */
double       fx_deflection_max_ratio  (const FxModel *model, const FxStepFrame *frame);

/* A magnified member is never drawn bent by more than this fraction of
 * its length (issue 30: a truss at x200 looked like ropes). */
#define FX_DEFLECTION_MEMBER_FRACTION 0.1

/* The scale that makes a deflection of `max_deflection` a tenth of
 * `model_size`: on the 1-2-5 ladder, rounded down, within [1, 1000]. */
double       fx_deflection_auto_scale (double max_deflection, double model_size);

/* The auto scale of a picture: fx_deflection_auto_scale, lowered so that no
 * member is drawn bent by more than FX_DEFLECTION_MEMBER_FRACTION of its
 * length, `max_ratio` being fx_deflection_max_ratio (<= 0: no limit). */
double       fx_deflection_auto_scale_members (double max_deflection, double model_size,
                                               double max_ratio);

/* A copy of `frame` with every link's deflection magnified by `scale` (free
 * joints and probes follow their nodes). A new reference to `frame` itself
 * when scale is 1 or the frame does not belong to `model`. */
FxStepFrame *fx_deflection_magnify    (const FxModel *model, const FxStepFrame *frame,
                                       double scale);

/* "deflection ×200", or NULL when the scale is 1. */
char        *fx_deflection_label      (double scale);

/* A mode shape's frame (fx_modes_frame) has its nodes displaced but its
 * section angles left at the drawn model's: drawn with those tangents, each
 * element bends into an S and a smooth mode looks rippled, one ripple per
 * element (issue 32). This sets each node's angle along the displaced
 * centreline (central differences, one-sided at the ends), so the shape is
 * drawn as smoothly as a moving beam. */
void         fx_mode_frame_smooth_angles (FxStepFrame *frame);

G_END_DECLS
