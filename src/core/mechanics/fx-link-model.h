/* fx-link-model.h: what a link model is to the rest of the engine.
 *
 * A link's model (the geometrically exact beam, the floating-frame beam,
 * ...) is a table of entry points. The assembly, the junctions, the energy
 * report, the configuration update, the drawing and the modes call these,
 * never a model's own fields: a new link model is one new file with its
 * table and one line in link_models[] (fx-link-model.c). Private to
 * src/core/mechanics and the studies built on it.
 */
#pragma once

#include "fx-system-private.h"

G_BEGIN_DECLS

/* The angle of a link end's port frame at the midpoint,
 * theta_mid = base + coef * x_mid[dof] (dof < 0: constant). Junctions rotate
 * the port's material quantities with it. */
typedef struct {
  double base, coef;
  int dof;
} FxThetaRef;

/* A material point of a link at a step's midpoint (physics.md 12.3: point
 * loads and drags use B at s_p). Its spatial velocity and its section's
 * angular velocity are linear in the link's unknowns,
 *
 *     v = sum_k b[k] x_mid[dof[k]],   omega = sum_k br[k] x_mid[dof[k]],
 *
 * with coefficients that move with the configuration (frame angle,
 * deflection). A force f and moment ell at the point enter rows dof[k] as
 * dt (b[k] . f + br[k] ell), so they supply exactly f . v + ell omega: the
 * books of a load or a drag close by construction. */
#define FX_POINT_MAX_DOFS 12
typedef struct {
  double p[2];          /* position at the step's start              */
  double v[2], omega;   /* midpoint velocity and angular velocity    */
  double theta;         /* section angle at the midpoint             */
  guint n;
  guint dof[FX_POINT_MAX_DOFS];
  double b[FX_POINT_MAX_DOFS][2], br[FX_POINT_MAX_DOFS];
  double dv[FX_POINT_MAX_DOFS][2];   /* dv/dx_mid[dof[k]], coefficients' motion included */
  double dtheta[FX_POINT_MAX_DOFS];  /* dtheta/dx_mid[dof[k]] */
} FxPointKinematics;

/* FxLinkModel is declared in fx-system-private.h */
struct _FxLinkModel {
  const char *name;  /* the file's "model" value */

  /* Its unknowns are the mixed fields of fx-kernel.h (v, omega, n, m per
   * element or node): probes and reactions sample them directly, and a
   * rigid link's stresses are read at the last midpoint. FALSE: only node()
   * describes the link to the outside. */
  gboolean mixed_fields;
  /* Its mass matrix moves with the state (a floating frame's M(q)): a
   * reused factorisation contracts too slowly to polish a step to
   * round-off, so Newton refactorises at every iteration. */
  gboolean mass_moves;

  /* State layout: fill the link's own fields from the model link and its
   * segment's causality, allocate its configuration (n_theta angles, n_r
   * position pairs) and set n_unknowns (numbered from l->offset). */
  void (*setup) (FxLinkSys *l, const FxLink *ml);
  /* Free what setup allocated beyond theta and r (may be NULL). */
  void (*clear) (FxLinkSys *l);
  /* The initial velocities of the link's unknowns in x. */
  void (*initial_motion) (const FxLinkSys *l, const FxLink *ml, double *x);

  /* Residual rows R(x_n, x_{n+1}) of the link's unknowns and their Jacobian,
   * through the accumulation context (fx-kernel.h). */
  void (*assemble) (FxSystem *sys, const FxLinkSys *l, FxAcc *a);

  /* Ports per end and channel: the unknown whose midpoint value is the
   * output and whose row takes the input, and the end's frame angle. */
  FxPort     (*port)      (const FxLinkSys *l, guint side, FxChannel channel);
  FxThetaRef (*end_theta) (const FxLinkSys *l, guint side, double dt);

  /* Energy parts (added to en) and momenta (added to P, A) of state x. */
  void (*energy)   (const FxSystem *sys, const FxLinkSys *l, const double *x, FxEnergy *en);
  void (*momentum) (const FxSystem *sys, const FxLinkSys *l, const double *x, double P[2], double *A);

  /* After an accepted step with midpoint state x_mid: advance the configuration. */
  void (*commit) (FxLinkSys *l, const double *x_mid, double dt);
  /* The same after a two-stage Gauss step (physics.md §16): stage states
   * X[i], their configuration velocities Xc[i] (fx-kernel.h), weights 1/S,
   * x_bar = sum_i X[i] / S. NULL: the model refuses gauss4. */
  void (*commit_stages) (FxLinkSys *l, const double *const *X, const double *const *Xc,
                         guint S, const double *x_bar, double dt);

  /* The material point at fraction s of the link, with x_mid the
   * midpoint unknowns of a step dt (dt = 0: the state x_mid at the
   * configuration now). NULL: the model has mixed fields, and points are
   * sampled from them (point_samples). */
  void (*point) (const FxLinkSys *l, double s, const double *x_mid, double dt,
                 FxPointKinematics *k);
  /* Adds dt (b . f + br ell) to the point's rows and their Jacobian at
   * fixed f, ell (the coefficients' motion); the caller adds f's own. */
  void (*point_force) (const FxLinkSys *l, double s, const double *x_mid, double dt,
                       const double f[2], double ell, FxAcc *a);

  /* The stress resultants at fraction s of a model without stress
   * unknowns (NULL: mixed fields give them), in the section frame as a
   * probe reads them: N (tension > 0), V, from the configuration. */
  void (*resultants) (const FxLinkSys *l, double s, double *N, double *V);

  /* Drawing: position, section angle and bending moment at node i (0..N). */
  void (*node) (const FxLinkSys *l, const double *x, guint i, double p[2], double *theta,
                double *moment);

  /* Newton's scaling: the block of each of the link's unknowns, numbered
   * from first; appends each block's kind and length; returns their count. */
  guint (*blocks) (const FxLinkSys *l, guint *block_of, guint first, GArray *kind, GArray *length);

  /* Modes about the drawn state, for a link model whose elastic forces
   * come through its configuration rather than stress unknowns (NULL:
   * the assembled linearisation serves): over the first n_nu unknowns,
   * the mass M and stiffness K (n_nu x n_nu), the rows of the internal
   * constraints (3 x n_nu) and, per end and channel, the end velocity's
   * rows (2 or 1 x n_nu, at held_rows[side][channel] in `ends`, 6 rows in
   * all). Returns n_nu. */
  guint (*modes_blocks) (const FxLinkSys *l, double *M, double *K, double *constraints,
                         double *ends);

  /* A floating frame's gauges (NULL: the link has none). */
  void (*frame_gauges) (const FxLinkSys *l, const double *x, FxFrameGauges *g);

  /* Modes: is the link's unknown i (0 .. n_unknowns - 1) a velocity
   * (else a stress or a multiplier)? */
  gboolean (*unknown_is_velocity) (const FxLinkSys *l, guint i);
};

extern const FxLinkModel fx_link_model_geometrically_exact;  /* fx-link-ge.c */
extern const FxLinkModel fx_link_model_floating_frame;       /* fx-link-ff.c */

/* The model of this name, or NULL. */
const FxLinkModel *fx_link_model_find (const char *name);

G_END_DECLS
