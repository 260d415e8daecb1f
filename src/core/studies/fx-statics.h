/* fx-statics.h: static equilibrium ("Settle", physics.md §14).
 *
 * Every time profile is frozen at t* (loads, torques, gravity); speed
 * motors and moving supports lock where they are; drags hold their anchors
 * where they are now; noise is left out (its mean is zero). The settled
 * configuration and stresses are found by a static Newton solve of the same
 * beams in displacement form (per node r and theta, per element the strains
 * gamma = Lambda(theta)^T r' - b1, kappa = theta'), the stresses kept as
 * unknowns beside them so that a rigid link (zero compliance) is an exact
 * constraint whose stresses are its multipliers. Loads go on in increments,
 * and mechanisms or singular starts take pseudo-transient continuation in
 * this displacement form. The result is written into the system: velocities
 * zero, angles, positions and stresses on each link's own spaces, the
 * stresses then corrected so that the dynamics' momentum rows balance
 * exactly, so that Play continues from an equilibrium.
 */
#pragma once

#include "fx-system.h"

G_BEGIN_DECLS

#define FX_STATICS_ERROR (fx_statics_error_quark ())
typedef enum {
  FX_STATICS_ERROR_NO_LOAD,          /* every load is zero at t*          */
  FX_STATICS_ERROR_NO_EQUILIBRIUM,   /* no increment converged / runaway   */
  FX_STATICS_ERROR_OVER_CONSTRAINED, /* rigid links with a self-stress     */
  FX_STATICS_ERROR_UNSUPPORTED,      /* a link model statics cannot settle */
} FxStaticsError;
GQuark fx_statics_error_quark (void);

/* The resultants along one model link of the settled state, at its drawn
 * nodes (every segment's nodes, shared ends once): N (tension > 0), V
 * (along the section's b2) and M (positive bending to the left), as a frame
 * code reads them, from the element end forces; s in [0, 1] along the link. */
typedef struct {
  guint n;
  double *s, *N, *V, *M;
} FxStaticsLink;

typedef struct {
  double t;                  /* the settle time t*                          */
  guint increments;          /* load increments taken                       */
  guint iterations;          /* Newton iterations (pseudo-steps included)   */
  guint pseudo_steps;        /* of them, pseudo-transient steps             */
  double strain_energy;      /* J: links, springs and drags at rest         */
  double clapeyron_work;     /* J: 1/2 sum F . u from the starting state     */
  double extreme[3];         /* largest |N|, |V|, |M|                       */
  guint extreme_link[3];     /* model link where                            */
  double extreme_s[3];       /* fraction along it                           */
  double balance;            /* largest momentum-row residual left, relative */
  gboolean noise_left_out;   /* the model has noise, left out here          */
  guint n_links;
  FxStaticsLink *links;      /* per model link                              */
  /* Per model joint, FX_REACTION_N_VALUES each (fx-measure.h): the force
   * (spatial) and moment its support exerts on the mechanism, from the
   * static solve's own multipliers, so that they balance the loads to
   * round-off; 0 in the channels the joint does not hold. */
  guint n_joints;
  double *reactions;
} FxStaticsReport;

/* Settles `system` at time t (its loads frozen there) and leaves the settled
 * state in it at time t. FALSE with an FX_STATICS_ERROR (or a cancellation,
 * or a memory-limit error) and the system unchanged. `report` may be NULL;
 * else free it with fx_statics_report_clear. */
gboolean fx_statics_settle (FxSystem *system, double t, FxStaticsReport *report, GError **error);
void     fx_statics_report_clear (FxStaticsReport *report);

/* FALSE with FX_STATICS_ERROR_OVER_CONSTRAINED, naming a link, when rigid
 * links of the drawn state are held so that a force in them is free (a
 * self-stress of rigid links: the Newton matrix of the dynamics is then
 * singular too). Models of more than 1500 static unknowns are not
 * examined. `check`, `run` and the app's Play ask it before stepping. */
gboolean fx_statics_check_rigid (FxSystem *system, GError **error);

G_END_DECLS
