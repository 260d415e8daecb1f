/* fx-measure.h: what a probe and a support measure (docs/theory.md,
 * "Measurements").
 *
 * A probe at fraction s of a link reads the state at one instant: its
 * position and spatial velocity, the section angle and the stress
 * resultants there. A support reads the force and moment it exerts on the
 * mechanism through each of its grounded channels: the outputs of the
 * velocity-causal members that meet there (docs/theory.md §3), summed in
 * the spatial frame. Those outputs balance the books at the step
 * midpoint, so a reaction is the step's mean: its impulse over the step
 * divided by the step (the midpoint value, or the weighted mean of the
 * substeps' midpoint values).
 */
#pragma once

#include "fx-system.h"

G_BEGIN_DECLS

/* A probe's values, in CSV column order (suffixes fx_probe_suffix). */
typedef enum {
  FX_PROBE_X,      /* position, m                                            */
  FX_PROBE_Y,
  FX_PROBE_VX,     /* spatial velocity, m/s                                 */
  FX_PROBE_VY,
  FX_PROBE_ANGLE,  /* section angle, rad, counter-clockwise from +x, not
                    * wrapped (a crank that turns twice reads 4 pi more)     */
  FX_PROBE_N,      /* axial force, N: positive in tension                    */
  FX_PROBE_V,      /* shear force, N: the stress resultant along the
                    * section's b2 (the link's tangent turned +90 degrees)  */
  FX_PROBE_M,      /* bending moment, N m: positive where the link bends
                    * to the left of its direction (curvature d theta/ds > 0),
                    * e.g. a beam drawn left to right sagging under load    */
  FX_PROBE_N_VALUES,
} FxProbeValue;

/* ".x", ".y", ".vx", ".vy", ".angle", ".N", ".V", ".M" */
extern const char *const fx_probe_suffix[FX_PROBE_N_VALUES];

/* The values at fraction s of model link `link`, in the state at t. The
 * resultants are those the part of the link beyond s (larger s) exerts on
 * the part before it, in the section's frame; a field that is piecewise
 * constant (DG0) is read as its element's mean, at an element boundary as
 * the mean of the two. A rigid link's resultants are multipliers, which
 * only the step's midpoint gives meaning: there they are the mean over
 * the last step, as reactions are. */
void     fx_system_probe_values (const FxSystem *system, guint link, double s_fraction,
                                 double values[FX_PROBE_N_VALUES]);

/* A support's values, in CSV column order: force on the mechanism (N,
 * spatial) and moment (N m, counter-clockwise). */
typedef enum {
  FX_REACTION_FX,
  FX_REACTION_FY,
  FX_REACTION_M,
  FX_REACTION_N_VALUES,
} FxReactionValue;

/* ".fx", ".fy", ".m" */
extern const char *const fx_reaction_suffix[FX_REACTION_N_VALUES];

/* What a joint holds: its force columns where its translation is grounded
 * (a pin or clamp support, a driven support, a slider's or a roller's
 * guide: there the force is normal to the guide), its moment column where
 * its rotation is (a clamp, a guided support, a speed motor to the ground;
 * a torque motor or a spring to the ground is a load, not a support). */
typedef enum {
  FX_HOLDS_NONE = 0,
  FX_HOLDS_FORCE = 1 << 0,
  FX_HOLDS_MOMENT = 1 << 1,
} FxHolds;

FxHolds  fx_system_joint_holds  (const FxSystem *system, guint joint);
/* Every model joint's FxHolds at once, in one pass over the junctions. */
void     fx_system_holds        (const FxSystem *system, guint8 *holds);
/* The same from the model alone, before an engine is built. */
FxHolds  fx_model_joint_holds   (const FxModel *model, guint joint);
gboolean fx_holds_value         (FxHolds holds, FxReactionValue value);

/* The reactions of every model joint, FX_REACTION_N_VALUES per joint (0 in
 * the channels it does not hold): the mean over the steps since the last
 * fx_system_reactions_reset, or, before any step, the state's own values
 * (the stresses it holds now). */
void     fx_system_reactions    (const FxSystem *system, double *reactions);

/* For the integrator: a new step (or a retry of one) starts. */
void     fx_system_reactions_reset (FxSystem *system);

G_END_DECLS
