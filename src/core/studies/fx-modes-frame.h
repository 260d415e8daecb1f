/* fx-modes-frame.h: what the modes study needs for links whose elastic
 * forces come through their configuration (a floating frame: K q, with q
 * integrated from the velocities) rather than through stress unknowns. */
#pragma once

#include "fx-modes.h"
#include "fx-system-private.h"

G_BEGIN_DECLS

/* Whether a link of the system has such a configuration stiffness (its
 * model gives modes blocks). */
gboolean fx_modes_frame_applies     (const FxSystem *system);

/* The linear pencil of such a system about the drawn state: E and A
 * (n x n, row-major, allocated here) as the dense path expects them, and
 * the configuration stiffness as n_q extra compliant stresses: rows D
 * (n_q x n) with K_q = D^T D, each of unit compliance. */
gboolean fx_modes_frame_pencil      (FxSystem *system, double **E, double **A, double **D,
                                     guint *n_q, GError **error);

/* A floating frame's configuration stiffness as rows: K = D^T D over its
 * `width` velocities from unknown `first` (D: rows x width). */
typedef struct {
  guint first, width, rows;
  double *D;
} FxModesFrameBlock;

/* Every floating frame's block, from its own modes blocks (GArray of
 * FxModesFrameBlock, which frees them); n_q: the rows in all. */
GArray  *fx_modes_frame_blocks      (const FxSystem *system, guint *n_q, GError **error);

/* Is unknown i (0 .. n_unknowns - 1) of such a link a velocity in the
 * linear model? Its model's own answer plus the F ends' port velocities. */
gboolean fx_modes_frame_is_velocity (const FxLinkSys *link, guint i);

/* Node velocities (spatial, 2 per node), moment and axial force rates (1
 * per node each) of segment `seg` under the unknowns `state` (length n),
 * from its configuration update by central differences; `size` sets the
 * step. */
void     fx_modes_frame_node_rates  (FxSystem *system, guint seg, const double *state,
                                     double size, double *v, double *moment_rate,
                                     double *axial_rate);

G_END_DECLS
