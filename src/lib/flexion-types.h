/* flexion-types.h: the enumerations of libflexion's results. */
#pragma once

#if !defined (FLEXION_INSIDE) && !defined (FLEXION_COMPILATION)
#error "Only <flexion.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/**
 * FlexionProbeValue:
 * @FLEXION_PROBE_VALUE_X: position x, m
 * @FLEXION_PROBE_VALUE_Y: position y, m
 * @FLEXION_PROBE_VALUE_VX: spatial velocity x, m/s
 * @FLEXION_PROBE_VALUE_VY: spatial velocity y, m/s
 * @FLEXION_PROBE_VALUE_ANGLE: section angle, rad, counter-clockwise from +x,
 *   not wrapped
 * @FLEXION_PROBE_VALUE_N: axial force, N, positive in tension
 * @FLEXION_PROBE_VALUE_V: shear force, N
 * @FLEXION_PROBE_VALUE_M: bending moment, N m
 *
 * What a probe reads, in the order of `flexion-cli run --probes` columns
 * (`.x`, `.y`, `.vx`, `.vy`, `.angle`, `.N`, `.V`, `.M`).
 */
typedef enum {
  FLEXION_PROBE_VALUE_X,
  FLEXION_PROBE_VALUE_Y,
  FLEXION_PROBE_VALUE_VX,
  FLEXION_PROBE_VALUE_VY,
  FLEXION_PROBE_VALUE_ANGLE,
  FLEXION_PROBE_VALUE_N,
  FLEXION_PROBE_VALUE_V,
  FLEXION_PROBE_VALUE_M,
} FlexionProbeValue;

/**
 * FlexionReaction:
 * @FLEXION_REACTION_FX: force on the mechanism, x, N
 * @FLEXION_REACTION_FY: force on the mechanism, y, N
 * @FLEXION_REACTION_M: moment on the mechanism, N m, counter-clockwise
 *
 * A support's reaction, the mean over the step that ended at the frame's
 * time (`flexion-cli run --reactions` columns `.fx`, `.fy`, `.m`).
 */
typedef enum {
  FLEXION_REACTION_FX,
  FLEXION_REACTION_FY,
  FLEXION_REACTION_M,
} FlexionReaction;

/**
 * FlexionNodeValue:
 * @FLEXION_NODE_VALUE_X: position x, m
 * @FLEXION_NODE_VALUE_Y: position y, m
 * @FLEXION_NODE_VALUE_THETA: section angle, rad
 * @FLEXION_NODE_VALUE_MOMENT: bending moment, N m
 *
 * What the nodes of a link give (`flexion-cli run --trace` columns).
 */
typedef enum {
  FLEXION_NODE_VALUE_X,
  FLEXION_NODE_VALUE_Y,
  FLEXION_NODE_VALUE_THETA,
  FLEXION_NODE_VALUE_MOMENT,
} FlexionNodeValue;

/**
 * FlexionModeKind:
 * @FLEXION_MODE_KIND_MOTION: zero frequency: a rigid-body or mechanism motion
 * @FLEXION_MODE_KIND_SELF_STRESS: stresses in equilibrium with no load
 * @FLEXION_MODE_KIND_VIBRATION: a vibration, frequency > 0
 * @FLEXION_MODE_KIND_REGULARISATION: a vibration whose kinetic energy is
 *   mostly in regularising inertia: an artefact, listed last
 *
 * What a linear mode is.
 */
typedef enum {
  FLEXION_MODE_KIND_MOTION,
  FLEXION_MODE_KIND_SELF_STRESS,
  FLEXION_MODE_KIND_VIBRATION,
  FLEXION_MODE_KIND_REGULARISATION,
} FlexionModeKind;

/**
 * FlexionShapeValue:
 * @FLEXION_SHAPE_VALUE_DX: displacement x (largest |d| = 1)
 * @FLEXION_SHAPE_VALUE_DY: displacement y
 * @FLEXION_SHAPE_VALUE_MOMENT: bending moment (largest |m| = 1)
 * @FLEXION_SHAPE_VALUE_AXIAL: axial force
 *
 * What a mode's shape gives per node (`flexion-cli modes --shapes`).
 */
typedef enum {
  FLEXION_SHAPE_VALUE_DX,
  FLEXION_SHAPE_VALUE_DY,
  FLEXION_SHAPE_VALUE_MOMENT,
  FLEXION_SHAPE_VALUE_AXIAL,
} FlexionShapeValue;

/**
 * FlexionNewton:
 * @FLEXION_NEWTON_AUTO: reuse factorisations where the model's predicted
 *   costs say it pays (the default)
 * @FLEXION_NEWTON_FULL: factorise the Newton matrix at every iteration
 * @FLEXION_NEWTON_SIMPLIFIED: reuse a factorisation across iterations and
 *   steps while it still contracts
 *
 * How Newton treats its matrix, as `flexion-cli run --newton` chooses it.
 * Every variant ends a step at round-off.
 */
typedef enum {
  FLEXION_NEWTON_AUTO,
  FLEXION_NEWTON_FULL,
  FLEXION_NEWTON_SIMPLIFIED,
} FlexionNewton;

G_END_DECLS
