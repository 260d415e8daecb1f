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
  guint newton_iters;  /* Newton updates (linear solves), summed over substeps,
                        * failed attempts included                             */
  double residual;     /* final scaled residual (largest over accepted sub-steps) */
  double joint_gap;    /* largest distance between member ends at a junction   */
  guint substeps;      /* substeps the step was taken in (1 normally)            */
  guint factorisations;  /* Newton matrices factorised, summed like newton_iters */
  guint level;         /* the finest substep was dt / 2^level (0: none)          */
  double scale;        /* the largest energy scale of its substeps (the energies
                        * before and after each, its work): what the balance's
                        * round-off is relative to. Substeps can pass through
                        * far more energy than the step ends show (a 1e6 N load
                        * on a link 1 um long: 0.07 J within a step, 6e-14 J
                        * at its ends) */
} FxStepReport;

/* How Newton treats its matrix: FULL factorises at every iteration;
 * SIMPLIFIED reuses a factorisation across iterations and steps while it
 * still contracts; AUTO (the default) reuses only where the model's
 * predicted costs say it pays. Every variant ends a step at round-off. */
typedef enum {
  FX_NEWTON_AUTO,
  FX_NEWTON_FULL,
  FX_NEWTON_SIMPLIFIED,
} FxNewtonKind;

/* The finest substep: dt / 2^FX_MAX_SUBSTEP_LEVEL. */
#define FX_MAX_SUBSTEP_LEVEL 12

/* A step is accepted only when its energy balance is below this fraction of
 * its own energy scale (the largest of |H| before and after, the kinetic,
 * elastic and gravity energies, the supplied and dissipated work): round-off
 * is 1e-16 to 1e-14 of it; anything above 1e-10 is a wrong step. A substep
 * of 2^-level of the step has that share of it (at least 1e-13). */
#define FX_BALANCE_ACCEPT 1e-10

/* Coordinates beyond this box (m) stop a run: no model of the format's
 * limits gets there except by a failing solution. */
#define FX_POSITION_LIMIT 1e6

/* A joint gap (physics.md §6) beyond this fraction of the shortest link at
 * the joint stops a run: the gap measures the position reconstruction and
 * shrinks with dt^2, so at half a link the positions mean nothing. */
#define FX_JOINT_GAP_LIMIT 0.5

typedef struct _FxIntegrator FxIntegrator;

/* The integrator steps `system` (borrowed; it must outlive the integrator). */
FxIntegrator *fx_integrator_new    (FxSystem *system, double tolerance, guint max_iterations);
void          fx_integrator_free   (FxIntegrator *integrator);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxIntegrator, fx_integrator_free)

/* The report of the current state (no step: supplied = balance = 0). */
void          fx_integrator_report (FxIntegrator *integrator, FxStepReport *report);

/* Advance by dt. A substep Newton cannot solve (or whose state stops being
 * finite, or whose energy balance is not at round-off) is split in two, on
 * its own, down to dt / 4096 (docs/theory.md §7); the next step starts at the
 * finest level the last one needed and coarsens one level after 4 clean
 * steps. On failure even at dt/4096, when the state leaves the
 * +-FX_POSITION_LIMIT box, or when the ends at a joint come apart by more
 * than FX_JOINT_GAP_LIMIT of a link there, the error names the time, the residual and the
 * smallest substep; no non-finite number is ever reported. */
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

/* The Newton variant (FX_NEWTON_AUTO by default), and whether the model's
 * steps reuse factorisations under it (decided at the first step, from
 * predicted costs, so that a run is the same on every machine). */
void          fx_integrator_set_newton (FxIntegrator *integrator, FxNewtonKind kind);
gboolean      fx_integrator_reuses_factorisations (FxIntegrator *integrator);
/* The time-stepping method: the model's "time.integrator" at creation
 * (midpoint by default); gauss4 solves the stage pair of physics.md §16. */
void          fx_integrator_set_method (FxIntegrator *integrator, FxIntegratorKind kind);
FxIntegratorKind fx_integrator_get_method (FxIntegrator *integrator);

/* TRUE: FX_NEWTON_AUTO, FALSE: FX_NEWTON_FULL. */
void          fx_integrator_set_simplified_newton (FxIntegrator *integrator, gboolean enabled);

G_END_DECLS
