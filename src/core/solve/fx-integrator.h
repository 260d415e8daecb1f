/* fx-integrator.h: implicit midpoint with Newton, step halving and the
 * per-step energy diagnostics of docs/theory.md §4. */
#pragma once

#include "fx-system.h"

G_BEGIN_DECLS

typedef struct {
  double t;            /* time at the end of the step                          */
  double dt;           /* the step (sum of sub-steps when it had to be halved)  */
  double H, kinetic, elastic, gravity;
  double supplied;     /* external work done during the step                   */
  double dissipated;   /* energy dissipated during the step                    */
  double balance;      /* H_{n+1} - H_n - supplied + dissipated                */
  guint newton_iters;  /* linear solves, summed over sub-steps                  */
  double residual;     /* final scaled residual (largest over sub-steps)        */
  double joint_gap;    /* largest distance between member ends at a junction   */
  guint substeps;      /* 1, 2, 4 ... 64: equal pieces the step was split into  */
} FxStepReport;

typedef struct _FxIntegrator FxIntegrator;

/* The integrator steps `system` (borrowed; it must outlive the integrator). */
FxIntegrator *fx_integrator_new    (FxSystem *system, double tolerance, guint max_iterations);
void          fx_integrator_free   (FxIntegrator *integrator);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxIntegrator, fx_integrator_free)

/* The report of the current state (no step: supplied = balance = 0). */
void          fx_integrator_report (FxIntegrator *integrator, FxStepReport *report);

/* Advance by dt. A step Newton cannot solve (or whose state stops being
 * finite) is recomputed in 2, 4 ... 64 equal substeps (docs/theory.md §7). On
 * failure even at dt/64 the system is left at the last good state and the
 * error names the time, the residual and the smallest substep; no
 * non-finite number is ever reported. */
gboolean      fx_integrator_step   (FxIntegrator *integrator, double dt,
                                    FxStepReport *report, GError **error);

/* Creates the Newton matrix now rather than at the first step, so that a
 * model whose matrix would pass the memory limit is refused before anything
 * runs (FX_MATRIX_ERROR_TOO_LARGE, naming the size). */
gboolean      fx_integrator_prepare (FxIntegrator *integrator, GError **error);

/* The linear solver path (AUTO by default: the cheaper of GSL's banded LU
 * and SuiteSparse's KLU for this model's topology), and a sentence naming the
 * one in use ("sparse LU (KLU), ..."). */
void          fx_integrator_set_matrix_kind (FxIntegrator *integrator, FxMatrixKind kind);
const char   *fx_integrator_describe_solver (FxIntegrator *integrator);

/* Reuse a factorisation while it still converges fast (on by default). */
void          fx_integrator_set_simplified_newton (FxIntegrator *integrator, gboolean enabled);

G_END_DECLS
