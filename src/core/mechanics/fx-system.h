/* fx-system.h: a mechanism as one port-Hamiltonian system E x' = F(x, t).
 *
 * The system owns the numbering of unknowns (banded along each link), the
 * configuration (angles, positions) that rides along, and the evaluation of
 * the implicit-midpoint residual with its analytic Jacobian. Time stepping is
 * in fx-integrator.h; this header is what the integrator, the CLI and the
 * tests read.
 */
#pragma once

#include "fx-model.h"
#include "fx-causality.h"
#include "fx-matrix.h"

G_BEGIN_DECLS

#define FX_SYSTEM_ERROR (fx_system_error_quark ())
typedef enum {
  FX_SYSTEM_ERROR_CAUSALITY,    /* no valid assignment of formulations        */
  FX_SYSTEM_ERROR_UNSUPPORTED,  /* a model feature this engine cannot build    */
  FX_SYSTEM_ERROR_DIVERGED,     /* Newton failed even with the smallest step   */
} FxSystemError;
GQuark fx_system_error_quark (void);

typedef struct _FxSystem FxSystem;

/* Energy terms of a state (J). */
typedef struct {
  double kinetic;  /* 1/2 (v, rhoA v) + 1/2 (omega, rhoI omega), plus lumped inertias */
  double elastic;  /* 1/2 (n, C_t n) + 1/2 (m, C_r m), plus springs                  */
  double gravity;  /* -integral rhoA g . r, plus lumped masses                       */
} FxEnergy;

/* NULL with a message (FX_MATRIX_ERROR_TOO_LARGE) when the system's arrays,
 * fx_system_estimate_bytes(), do not fit beside the memory ledger
 * (fx-memory.h); they stay booked there until fx_system_free. */
FxSystem  *fx_system_new          (const FxModel *model, GError **error);
guint64    fx_system_estimate_bytes (const FxModel *model);
void       fx_system_free         (FxSystem *system);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxSystem, fx_system_free)

const FxModel      *fx_system_model      (const FxSystem *system);
const FxAssignment *fx_system_assignment (const FxSystem *system);
guint      fx_system_n_unknowns   (const FxSystem *system);
double     fx_system_time         (const FxSystem *system);
double    *fx_system_state        (FxSystem *system);  /* e-variables x; writable for set-up */
FxEnergy   fx_system_energy       (const FxSystem *system);

/* A floating-frame link's frame and its small-deformation gauges
 * (docs/theory.md, "Floating-frame links"); FALSE for other links. */
typedef struct {
  double x_P, y_P, theta;  /* the frame's origin (m) and angle (rad)             */
  double tip_deflection;   /* the `to` end from the `from` end's tangent, m      */
  double gamma;            /* max |EA u'| L^2 / (pi^2 EI): > 0.1, stiffening matters */
  double deflection;       /* largest |w| from the frame's axis, m               */
  double length;           /* L, m                                               */
  double end_force[2][3];  /* per end (`from`, `to`): the force (x, y, spatial, N)
                            * and moment (N m) applied on the link over the last
                            * step: the reaction of a velocity-causal end      */
} FxFrameGauges;
gboolean   fx_system_link_frame   (const FxSystem *system, guint link, FxFrameGauges *gauges);
/* Whether the gauges say that geometric stiffening matters (gamma > 0.1 or a
 * deflection over 0.1 L): the link's answers are then off. */
gboolean   fx_frame_gauges_warn   (const FxFrameGauges *gauges);
double     fx_system_hamiltonian  (const FxSystem *system);  /* kinetic + elastic + gravity */

/* Linear momentum (spatial, kg m/s) and angular momentum about the origin
 * (kg m^2/s) of the whole mechanism, lumped inertias included. The scheme
 * conserves neither exactly (docs/theory.md §5): they are diagnostics. */
void       fx_system_momentum     (const FxSystem *system, double p[2], double *angular);

/* Geometry of the current state, for frames and traces. */
guint      fx_system_n_links      (const FxSystem *system);
guint      fx_system_link_elements (const FxSystem *system, guint link);
FxCausality fx_system_link_T      (const FxSystem *system, guint link);
FxCausality fx_system_link_R      (const FxSystem *system, guint link);
void       fx_system_node         (const FxSystem *system, guint link, guint node,
                                   double *x, double *y, double *theta, double *moment);
/* The fraction s along the link of its drawn node i (0 ..
 * fx_system_link_elements: element nodes, and on a degree-k link the k - 1
 * points between them): where a probe at s reads the node; uniform except
 * on a link split unevenly. */
double     fx_system_node_fraction (const FxSystem *system, guint link, guint node);
void       fx_system_point        (const FxSystem *system, guint link, double s_fraction,
                                   double *x, double *y);
double     fx_system_joint_gap    (const FxSystem *system);
/* The junction whose gap is largest against its shortest member link: its
 * joint's id (NULL: no junction), its gap (m) and that ratio. */
const char *fx_system_joint_gap_worst (const FxSystem *system, double *gap, double *ratio);

/* Spatial velocity (m/s) of the point at fraction s of a model link. */
void       fx_system_point_velocity (const FxSystem *system, guint link, double s_fraction,
                                     double v[2]);

/* The user's hand (docs/theory.md §6): a drag whose anchor starts at the
 * point at fraction s of model link `link` and which the caller moves one
 * step ahead with fx_system_hand_move (the anchor reaches `anchor` at
 * t + dt, linearly). Its spring's elongation is a Newton unknown, so the
 * first grab adds two unknowns to the system (the integrator follows).
 * Release books the spring's energy as supplied work of the next step.
 * Call between steps only. */
void       fx_system_hand_grab    (FxSystem *system, guint link, double s_fraction);
void       fx_system_hand_move    (FxSystem *system, const double anchor[2], double dt);
void       fx_system_hand_release (FxSystem *system);
gboolean   fx_system_hand_active  (const FxSystem *system);
/* The hand's anchor and the grabbed point now (FALSE if nothing is held). */
gboolean   fx_system_hand_anchor  (const FxSystem *system, double anchor[2], double point[2]);

/* Work done by drags let go since the last call (<= 0: the spring's energy
 * leaves with the hand), after letting go of scripted drags whose release
 * time has come. The integrator books it at the start of each step. */
double     fx_system_take_released (FxSystem *system);

/* Stochastic loads (docs/theory.md §9): draw sample `sample` of the
 * noise seeded by `seed` (a new system draws sample 0 of the model's seed).
 * Restarts the noise at step 0; call before the first step. */
void       fx_system_set_noise    (FxSystem *system, guint64 seed, guint sample);
gboolean   fx_system_has_noise    (const FxSystem *system);

/* Field values, for tests and plots: material velocity (2), omega, stress (2),
 * moment, each evaluated at fraction s of the link (DG0 fields piecewise). */
void       fx_system_fields_at    (const FxSystem *system, guint link, double s_fraction,
                                   double v_hat[2], double *omega, double n_hat[2], double *m);

/* The implicit-midpoint residual R(x) = E (x - x_n) - dt F((x_n + x)/2, t_n + dt/2)
 * at the current state x_n and a trial x. `mag` (may be NULL) receives, row by
 * row, the sum of the magnitudes of the terms (for scaling); `jacobian`
 * (an FxMatrix from fx_system_new_jacobian, may be NULL) receives dR/dx. */
void       fx_system_residual     (FxSystem *system, const double *x, double dt,
                                   double *residual, double *mag, FxMatrix *jacobian);

/* A Newton matrix with this system's pattern, on the path `kind` (AUTO:
 * the cheaper of banded and sparse). NULL with a message when it would not
 * fit in fx_memory_limit_get(). */
FxMatrix  *fx_system_new_jacobian (FxSystem *system, FxMatrixKind kind, GError **error);

G_END_DECLS
