/* fx-integrator.c: E (x_{n+1} - x_n) = dt F(x_{n+1/2}, t_{n+1/2}) by Newton,
 * or the two-stage Gauss method (physics.md §16): Newton on the stage pair
 * X_1, X_2 (2n unknowns, interleaved), x_{n+1} = x_n + sum_j d_j (X_j - x_n).
 *
 * Convergence is judged block by block (one block per field and link): the
 * residual of a row block against the size of that block's own terms, the
 * update of an unknown block against the block's magnitude (never smaller
 * than a hundredth of the largest block of the same field kind, so that a
 * field that is zero by symmetry does not chase round-off).
 */
#include "fx-integrator.h"
#include "fx-cancel.h"
#include "fx-measure.h"
#include "fx-memory.h"
#include <glib/gi18n-lib.h>
#include "fx-system-private.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>

struct _FxIntegrator {
  FxSystem *sys;
  double tolerance;
  guint max_iterations;
  /* Newton goes on past the tolerance to its round-off floor: set for a
   * step whose balance failed at the tolerance (fx_integrator_step) */
  gboolean polish;
  guint n, n_blocks;
  guint stages;          /* 1: the midpoint rule; 2: Gauss (FX_GAUSS_STAGES) */
  guint m;               /* Newton's unknowns: stages * n                   */
  double *xn_s;          /* x_n repeated per stage (the update's scale)     */
  double *x_new;         /* x_{n+1} of the last converged (sub)step          */
  guint *block_of;
  guint *block_kind;     /* 0 velocity, 1 angular velocity, 2 stress, 3 moment */
  double *block_length;  /* omega and m are compared across blocks as omega L, m / L */
  FxMatrixKind matrix_kind;  /* the solver path asked for (AUTO by default) */
  FxMatrix *J;               /* created at the first step                  */
  gboolean factors_valid;    /* J holds a factorisation usable for this dt */
  double factors_dt;
  FxNewtonKind newton_kind;
  double factor_cost;        /* predicted flops of a factorisation / of a residual */
  guint level, clean_steps;  /* substep level to start at; clean steps at it */
  double dt_level;           /* the dt that level belongs to */
  double *x, *R, *mag, *x_prev, *scale, *delta, *x_base;
  double dt_prev;
  gboolean *flips;  /* per block: predict with x_{n-1} (see choose_predictor) */
  gboolean have_prev;
  /* the mean mass of an element and the step being solved: they turn the
   * balance rows' scale into a length for the compatibility rows' floor */
  double element_mass, dt_now;
  double impulse;  /* the balance rows' scale at the last residual (kg m/s) */
};

/* Arrays sized by the system's unknowns, (re)made when their number
 * changes (the user's first grab adds the hand's two). */
static void
free_arrays (FxIntegrator *it)
{
  g_clear_pointer (&it->block_of, g_free);
  g_clear_pointer (&it->block_kind, g_free);
  g_clear_pointer (&it->block_length, g_free);
  g_clear_pointer (&it->x, g_free);
  g_clear_pointer (&it->R, g_free);
  g_clear_pointer (&it->mag, g_free);
  g_clear_pointer (&it->x_prev, g_free);
  g_clear_pointer (&it->delta, g_free);
  g_clear_pointer (&it->flips, g_free);
  g_clear_pointer (&it->x_base, g_free);
  g_clear_pointer (&it->scale, g_free);
  g_clear_pointer (&it->xn_s, g_free);
  g_clear_pointer (&it->x_new, g_free);
}

static void
size_arrays (FxIntegrator *it)
{
  guint n = fx_system_n_unknowns (it->sys);

  free_arrays (it);
  it->n = n;
  it->m = it->stages * n;
  guint m = it->m;
  it->block_of = g_new0 (guint, MAX (m, 1));
  it->n_blocks = fx_system_blocks (it->sys, it->block_of, &it->block_kind, &it->block_length);
  /* stage unknown k is unknown k / stages of the system (interleaved) */
  for (guint k = m; k-- > 1;)
    it->block_of[k] = it->block_of[k / it->stages];
  it->x = g_new0 (double, MAX (m, 1));
  it->R = g_new0 (double, MAX (m, 1));
  it->mag = g_new0 (double, MAX (m, 1));
  it->x_prev = g_new0 (double, MAX (n, 1));
  it->delta = g_new0 (double, MAX (m, 1));
  it->flips = g_new0 (gboolean, MAX (it->n_blocks, 1));
  it->x_base = g_new0 (double, MAX (m, 1));
  it->xn_s = g_new0 (double, MAX (m, 1));
  it->x_new = g_new0 (double, MAX (n, 1));
  it->scale = g_new0 (double, MAX (it->n_blocks, 1) * 2);
  it->have_prev = FALSE;
  it->factors_valid = FALSE;
  g_clear_pointer (&it->J, fx_matrix_free);
}

/* Newton's stages for `kind`: a link model without a stage commit
 * (floating frames, which the checker refuses with gauss4) keeps the
 * midpoint rule. */
static guint
stages_for (const FxSystem *sys, FxIntegratorKind kind)
{
  if (kind != FX_INTEGRATOR_GAUSS4)
    return 1;
  for (guint l = 0; l < sys->n_links; l++)
    if (sys->links[l].model->commit_stages == NULL)
      return 1;
  return FX_GAUSS_STAGES;
}

FxIntegrator *
fx_integrator_new (FxSystem *sys, double tolerance, guint max_iterations)
{
  FxIntegrator *it = g_new0 (FxIntegrator, 1);

  it->sys = sys;
  it->tolerance = tolerance > 0 ? tolerance : 1e-12;
  it->max_iterations = max_iterations > 0 ? max_iterations : 20;
  it->matrix_kind = FX_MATRIX_AUTO;
  it->newton_kind = FX_NEWTON_AUTO;
  it->stages = stages_for (sys, sys->model ? sys->model->integrator : FX_INTEGRATOR_MIDPOINT);
  /* developers' switch, for benchmarks and comparisons */
  const char *solver = g_getenv ("FLEXION_SOLVER");
  if (g_strcmp0 (solver, "banded") == 0)
    it->matrix_kind = FX_MATRIX_BANDED;
  else if (g_strcmp0 (solver, "sparse") == 0)
    it->matrix_kind = FX_MATRIX_SPARSE;
  size_arrays (it);
  /* the floors for structures at rest (scaled_residual, substep) are for
   * rigid links' multiplier rows: a model without rigid links keeps the
   * plain tests (the fuzzer found floating-frame runs whose tiny energies
   * the floors let through unbalanced) */
  const FxModel *model = fx_system_model (sys);
  guint64 elements = 0;
  gboolean any_rigid = FALSE;
  for (guint l = 0; l < model->links->len; l++)
    {
      elements += fx_model_link (model, l)->elements;
      any_rigid |= fx_model_link (model, l)->rigid;
    }
  it->element_mass = elements > 0 && any_rigid ? fx_model_total_mass (model) / (double) elements : 0.0;
  return it;
}

void
fx_integrator_free (FxIntegrator *it)
{
  if (it == NULL)
    return;
  fx_matrix_free (it->J);
  free_arrays (it);
  g_free (it);
}

static gboolean
all_finite (const double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

static gboolean
all_zero (const double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (v[i] != 0.0)
      return FALSE;
  return TRUE;
}

/* max over rows of |R_row| / (largest term size in the row's block).
 * A block whose terms all vanish (a massless link's momentum rows, a field
 * that is zero by symmetry) would be judged against its own round-off, so
 * each block's scale is floored at 1e-2 of the largest block of its
 * family: balance rows (momentum, kind 0, and angular momentum, kind 1, as
 * (.)/L) and compatibility rows (strain rate, kind 2, and curvature rate,
 * kind 3, as (.) L), across all links. */
static double
scaled_residual (FxIntegrator *it)
{
  double *sigma = it->scale, kind_max[5] = { 0, 0, 0, 0, 0 };
  double worst = 0.0;

  memset (sigma, 0, sizeof (double) * it->n_blocks);
  for (guint i = 0; i < it->m; i++)
    sigma[it->block_of[i]] = MAX (sigma[it->block_of[i]], it->mag[i]);
  for (guint b = 0; b < it->n_blocks; b++)
    {
      guint k = it->block_kind[b];
      double L = it->block_length[b];
      kind_max[k] = MAX (kind_max[k], k == 1 ? sigma[b] / L : k == 3 ? sigma[b] * L : sigma[b]);
    }
  /* a drag's elongation rows (kind 4) are kinematic, like compatibility */
  double balance = MAX (kind_max[0], kind_max[1]);
  double compat = MAX (MAX (kind_max[2], kind_max[3]), kind_max[4]);
  /* A structure of rigid links at rest has no compatibility terms but
   * round-off (its stress rows are constraints on velocities that stay
   * zero): judged against themselves they never converge (issue 30.4).
   * Their scale is floored at a thousandth of the length a balance-sized
   * impulse moves an element's mass in the step, dt * balance / m_element:
   * a floor that only a structure at rest reaches (at 1e-2 it loosened the
   * floating-frame spin-up's simplified Newton, tests/test-newton.c). */
  if (it->element_mass > 0.0)
    compat = MAX (compat, 1e-3 * it->dt_now * balance / it->element_mass);
  it->impulse = balance;
  for (guint b = 0; b < it->n_blocks; b++)
    {
      guint k = it->block_kind[b];
      double L = it->block_length[b];
      double family = k < 2 ? balance : compat;
      sigma[b] = MAX (sigma[b], 1e-2 * (k == 1 ? family * L : k == 3 ? family / L : family));
    }
  for (guint i = 0; i < it->m; i++)
    {
      double s = sigma[it->block_of[i]];
      if (it->R[i] != 0.0)
        worst = MAX (worst, s > 0.0 ? fabs (it->R[i]) / s : INFINITY);
    }
  return worst;
}

static double
scaled_update (FxIntegrator *it, const double *delta, const double *x, const double *xn)
{
  double *nu = it->scale, kind_max[5] = { 0, 0, 0, 0, 0 }, worst = 0.0;

  memset (nu, 0, sizeof (double) * it->n_blocks);
  for (guint i = 0; i < it->m; i++)
    {
      guint b = it->block_of[i];
      nu[b] = MAX (nu[b], MAX (fabs (x[i]), fabs (xn[i])));
    }
  /* omega and m are compared across links as omega L and m / L */
  for (guint b = 0; b < it->n_blocks; b++)
    {
      guint k = it->block_kind[b];
      double L = it->block_length[b];
      double v = k == 1 ? nu[b] * L : k == 3 ? nu[b] / L : nu[b];
      kind_max[k] = MAX (kind_max[k], v);
    }
  for (guint b = 0; b < it->n_blocks; b++)
    {
      guint k = it->block_kind[b];
      double L = it->block_length[b];
      double floor_ = 1e-2 * (k == 1 ? kind_max[k] / L : k == 3 ? kind_max[k] * L : kind_max[k]);
      nu[b] = MAX (nu[b], floor_);
    }
  for (guint i = 0; i < it->m; i++)
    if (delta[i] != 0.0)
      {
        double s = nu[it->block_of[i]];
        worst = MAX (worst, s > 0.0 ? fabs (delta[i]) / s : INFINITY);
      }
  return worst;
}

/* The predictor, chosen block by block from how the last step went: linear
 * extrapolation 2 x_n - x_{n-1} suits smooth fields; x_{n-1} suits the
 * stresses of a stiff link whose axial vibration the step cannot resolve
 * (the midpoint rule turns it by nearly pi per step, so they alternate).
 * Each block takes the one that would have predicted the last step better
 * (the four-bar at dt = 0.02 needs 3.2 instead of 4.8 Newton iterations).
 * This only picks Newton's starting point; the converged step is the same. */
static void
choose_predictor (FxIntegrator *it, const double *xn, const double *x_new)
{
  double *e_lin = it->scale, *e_flip = it->scale + it->n_blocks;

  memset (it->scale, 0, sizeof (double) * 2 * it->n_blocks);
  for (guint i = 0; i < it->n; i++)
    {
      guint b = it->block_of[i * it->stages];
      e_lin[b] = MAX (e_lin[b], fabs (x_new[i] - (2.0 * xn[i] - it->x_prev[i])));
      e_flip[b] = MAX (e_flip[b], fabs (x_new[i] - it->x_prev[i]));
    }
  for (guint b = 0; b < it->n_blocks; b++)
    it->flips[b] = e_flip[b] < e_lin[b];
}

/* The Newton system's residual (and matrix): the midpoint rule's in x_{n+1},
 * or the Gauss stages' in X. */
static void
newton_residual (FxIntegrator *it, double dt, FxMatrix *J)
{
  if (it->stages > 1)
    fx_system_stage_residual (it->sys, it->x, dt, it->R, it->mag, J);
  else
    fx_system_residual (it->sys, it->x, dt, it->R, it->mag, J);
}

typedef enum {
  STEP_OK, STEP_NO_CONVERGENCE, STEP_SINGULAR, STEP_NOT_FINITE, STEP_TOO_LARGE,
  STEP_BALANCE,     /* converged, but the energy balance is not at round-off */
  STEP_UNRESOLVED,  /* converged, but something turned more than half a turn */
  STEP_CANCELLED    /* fx_cancel_requested: the step's start is restored */
} StepStatus;

/* The Newton matrix at x for step dt, factorised. A pattern that grew (a new
 * coupling, e.g. a drag on another link) is analysed again and assembled
 * again. */
static StepStatus
refresh_factors (FxIntegrator *it, double dt, gboolean assembled, GError **error)
{
  for (guint attempt = 0; attempt < 3; attempt++)
    {
      if (!assembled)
        newton_residual (it, dt, it->J);
      assembled = FALSE;
      FxMatrixStatus ms = fx_matrix_factorize (it->J);
      if (ms == FX_MATRIX_OK)
        {
          it->factors_valid = TRUE;
          it->factors_dt = dt;
          return STEP_OK;
        }
      it->factors_valid = FALSE;
      if (ms == FX_MATRIX_SINGULAR)
        return STEP_SINGULAR;
      if (!fx_matrix_analyze (it->J, error))
        return STEP_TOO_LARGE;
    }
  return STEP_SINGULAR;
}

/* Newton's starting point: x_n, or extrapolated from the last two steps.
 * Gauss stages start on the line from x_n to that prediction of x_{n+1},
 * at their times c_i. */
static void
predict (FxIntegrator *it, gboolean extrapolate)
{
  const double *xn = fx_system_state (it->sys);
  const guint S = it->stages;
  for (guint i = 0; i < it->n; i++)
    {
      double p;
      if (!extrapolate)
        p = xn[i];
      else if (it->flips[it->block_of[i * S]])
        p = it->x_prev[i];
      else
        p = 2.0 * xn[i] - it->x_prev[i];
      if (S == 1)
        it->x[i] = p;
      else
        for (guint j = 0; j < S; j++)
          {
            it->x[i * S + j] = xn[i] + fx_gauss_c[j] * (p - xn[i]);
            it->xn_s[i * S + j] = xn[i];
          }
    }
}

/* A reused factorisation is kept while each iteration divides the residual
 * by at least this much; full Newton does better than 1e-3 near the root. */
#define STALE_CONTRACTION 0.1

/* Reuse factorisations only where one costs at least this many residuals
 * (fx_matrix_cost against the kernel's 60 flops per unknown). A reused
 * factorisation needs about twice the iterations of full Newton (one or two
 * more to reach round-off), so it pays only where a factorisation is
 * dearer than the extra residuals: not on the four-bar (same time, twice
 * the iterations), yes on long links and large frames (bench/). */
#define STALE_MIN_COST 3.0

/* After an update with a reused factorisation, Newton goes on until the
 * update is at round-off: its remaining error (rate / (1 - rate) times the
 * update) below this, or until the residual stops falling (it is at its
 * floor). Full Newton's last update is quadratically small already. Below
 * a unit in the last place, so in practice the floor test ends the step:
 * at 1e-15 the flexible pendulum and the struck beam stopped 3-6x above full
 * Newton's balance (issue 26); here every example is within 1.3x of it, for
 * half an iteration more per step (cheap ones). */
#define ROUNDOFF_UPDATE 1e-17
#define FLOOR_CONTRACTION 0.5

/* Below this scaled residual a full Newton update is expected to be the last. */
#define LIKELY_LAST_RESIDUAL 1e-7

static gboolean
reuse_allowed (FxIntegrator *it)
{
  return it->newton_kind == FX_NEWTON_SIMPLIFIED
         || (it->newton_kind == FX_NEWTON_AUTO && it->factor_cost >= STALE_MIN_COST);
}

/* One midpoint step of size dt from the system's state; on success the
 * converged x_{n+1} is in it->x.
 *
 * Simplified Newton: a factorisation is reused across iterations and steps
 * (same dt) while it still divides the residual by ten per iteration;
 * when it does not, the matrix is assembled and factorised at the current
 * iterate. Either way the step ends at round-off (physics.md §5): a reused
 * factorisation converges linearly and takes its extra cheap iterations. */
static StepStatus
newton (FxIntegrator *it, double dt, gboolean extrapolate, gboolean full,
        guint *iters, guint *factorisations, double *residual, GError **error)
{
  FxSystem *sys = it->sys;
  double upd = INFINITY, upd_prev = INFINITY, error_estimate = INFINITY;

  /* with full Newton every evaluation also assembles the matrix. Whether
   * to reuse factorisations is decided from predicted costs, never from
   * timings, so that a run is the same on every machine. */
  gboolean always_fresh = full || !reuse_allowed (it);
  gboolean assembled;

  predict (it, extrapolate);
  const double *xn = it->stages > 1 ? it->xn_s : fx_system_state (sys);
  it->dt_now = dt;
  *iters = 0;
  if (always_fresh || it->factors_dt != dt)
    it->factors_valid = FALSE;
  assembled = !it->factors_valid;
  newton_residual (it, dt, assembled ? it->J : NULL);
  for (;;)
    {
      if (fx_cancel_requested ())
        return STEP_CANCELLED;  /* a long step stops between iterations */
      if (!all_finite (it->R, it->m))
        return STEP_NOT_FINITE;
      *residual = scaled_residual (it);
      /* the predictor is accepted as it is only when nothing acts on it:
       * a residual below the tolerance can still be all the step's load (a
       * 1 N load on a floating-frame link 1e-7 m long, scaled by its
       * EI / L^2, froze it with exit 0; issue 31, item 3) */
      if (*residual < it->tolerance
          && (upd < it->tolerance || error_estimate < it->tolerance
              || (*residual < 1e-2 * it->tolerance && (*iters > 0 || all_zero (it->R, it->n))))
          && (always_fresh || *iters == 0 || error_estimate < ROUNDOFF_UPDATE)
          && (!it->polish || all_zero (it->R, it->m)))
        return STEP_OK;
      if (*iters >= it->max_iterations)
        {
          /* out of iterations while polishing: the tolerance is met, and
           * the substep's balance test still judges the result */
          gboolean met = *residual < it->tolerance
                         && (upd < it->tolerance || error_estimate < it->tolerance);
          return met ? STEP_OK : STEP_NO_CONVERGENCE;
        }

      gboolean fresh = !it->factors_valid;
      if (fresh)
        {
          StepStatus st = refresh_factors (it, dt, assembled, error);
          if (st != STEP_OK)
            return st;
          (*factorisations)++;
        }
      memcpy (it->delta, it->R, sizeof (double) * it->m);
      fx_matrix_solve (it->J, it->delta);  /* the Newton update */
      memcpy (it->x_base, it->x, sizeof (double) * it->m);
      (*iters)++;

      /* Damped step: where the rotations make Newton overshoot (fast,
       * stiff mechanisms near toggle), halve the step until the residual
       * falls; a full step is taken whenever it already does. A reused
       * factorisation that does not contract well is replaced instead. */
      double lambda = 1.0, res_old = *residual, res_new;
      /* full Newton from a residual this small lands below the tolerance
       * (quadratic convergence): the matrix at the new iterate would be
       * assembled for nothing, so it is left to refresh_factors, should it
       * be needed after all. The iterates are the same either way. */
      gboolean likely_last = res_old < LIKELY_LAST_RESIDUAL;
      for (;;)
        {
          for (guint i = 0; i < it->m; i++)
            it->x[i] = it->x_base[i] - lambda * it->delta[i];
          assembled = always_fresh && !likely_last;
          newton_residual (it, dt, assembled ? it->J : NULL);
          res_new = all_finite (it->R, it->m) ? scaled_residual (it) : INFINITY;
          if (!fresh || res_new < res_old || lambda < 0.1)
            break;
          lambda *= 0.5;
        }
      /* past the tolerance, a factorisation (kept for polishing) whose
       * update no longer halves the residual has reached its floor: done.
       * A polished step (it->polish) does the same with full Newton, and
       * keeps the better of its last two iterates. */
      gboolean polishing = (!always_fresh || it->polish) && res_new < it->tolerance;
      if (polishing && res_old < it->tolerance && !(res_new < FLOOR_CONTRACTION * res_old))
        {
          if (it->polish && !(res_new <= res_old))
            {
              memcpy (it->x, it->x_base, sizeof (double) * it->m);
              newton_residual (it, dt, NULL);
              res_new = res_old;
            }
          *residual = res_new;
          return all_finite (it->x, it->m) ? STEP_OK : STEP_NOT_FINITE;
        }
      if (always_fresh)
        it->factors_valid = FALSE;  /* the next iteration factorises again */
      else if (!fresh && !polishing && !(res_new < STALE_CONTRACTION * res_old))
        {
          it->factors_valid = FALSE;
          if (!(res_new < res_old))
            {
              /* back to the iterate before this update, with a fresh matrix */
              memcpy (it->x, it->x_base, sizeof (double) * it->m);
              assembled = TRUE;
              newton_residual (it, dt, it->J);
              continue;
            }
        }
      for (guint i = 0; i < it->m; i++)
        it->delta[i] *= lambda;
      upd_prev = upd;
      upd = scaled_update (it, it->delta, it->x, xn);
      /* a reused factorisation converges linearly, at the rate the updates
       * shrink: what is left after this update is about rate/(1 - rate)
       * times it (Hairer and Wanner's test for simplified Newton) */
      double rate = upd / upd_prev;
      error_estimate = rate < 1.0 ? rate / (1.0 - rate) * upd : INFINITY;
      if (!all_finite (it->x, it->m))
        return STEP_NOT_FINITE;
    }
}

static void
fill_energy (FxIntegrator *it, FxStepReport *rep)
{
  FxEnergy e = fx_system_energy (it->sys);

  rep->kinetic = e.kinetic;
  rep->elastic = e.elastic;
  rep->gravity = e.gravity;
  rep->H = e.kinetic + e.elastic + e.gravity;
  rep->t = fx_system_time (it->sys);
  rep->joint_gap = fx_system_joint_gap (it->sys);
}

void
fx_integrator_report (FxIntegrator *it, FxStepReport *rep)
{
  memset (rep, 0, sizeof *rep);
  fill_energy (it, rep);
}

/* The energy scale of one substep: the largest of the energies before and
 * after it and of the work that crossed its ports. */
static double
substep_scale (const FxEnergy *before, const FxEnergy *after, double supplied, double dissipated)
{
  const double v[] = { before->kinetic, before->elastic, before->gravity,
                       before->kinetic + before->elastic + before->gravity,
                       after->kinetic, after->elastic, after->gravity,
                       after->kinetic + after->elastic + after->gravity, supplied, dissipated };
  double m = 0.0;
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    m = MAX (m, fabs (v[i]));
  return m;
}

/* The largest angle (rad) any angular velocity turns through in a substep
 * of size h from the state to it->x. Beyond half a turn the midpoint rule
 * aliases the rotation: its energy still balances, but the motion is
 * meaningless (a 1e25 N m moment on the flying spaghetti), so such a
 * substep is split like one Newton cannot solve. */
static double
largest_turn (FxIntegrator *it, double h)
{
  const double *xn = fx_system_state (it->sys);
  double w = 0.0;

  for (guint i = 0; i < it->n; i++)
    if (it->block_kind[it->block_of[i * it->stages]] == 1)
      w = MAX (w, MAX (fabs (xn[i]), fabs (it->x_new[i])));
  for (guint k = 0; it->stages > 1 && k < it->m; k++)
    if (it->block_kind[it->block_of[k]] == 1)
      w = MAX (w, fabs (it->x[k]));  /* the stages' too */
  return w * h;
}

/* The smallest balance budget of a substep, as a fraction of its energy
 * scale: above round-off (1e-16 to 1e-14 of it). */
#define BALANCE_ROUNDOFF 1e-13

/* Where a step's substeps stand: the position in units of dt / 4096 (for
 * the noise's dyadic bridge), the finest level used, the level that failed
 * its balance (the caller restores the step and starts it there). */
typedef struct {
  guint pos;
  guint deepest;
  guint substeps;
  guint bad_level;
  double last_residual;  /* of the last substep tried: the message's */
} Tree;

#define FINEST (1u << FX_MAX_SUBSTEP_LEVEL)

/* One substep of size h at `level`: Newton, the flows, the commit, and its
 * own energy balance. A Newton failure leaves the state untouched; a balance
 * off round-off is found after the commit (STEP_BALANCE: the caller
 * restores). */
static StepStatus
substep (FxIntegrator *it, double h, guint level, gboolean full, Tree *tree,
         FxStepReport *rep, GError **error)
{
  FxSystem *sys = it->sys;
  guint iters = 0, facts = 0;
  double res = 0.0;
  gboolean extrapolate = it->have_prev && it->dt_prev == h;

  /* noise: this piece's input, from the bridge at its level (pieces of
   * more than FX_NOISE_MAX_PIECES take their enclosing piece's) */
  guint noise_level = MIN (level, (guint) g_bit_storage (FX_NOISE_MAX_PIECES) - 1);
  fx_system_noise_piece (sys, tree->pos >> (FX_MAX_SUBSTEP_LEVEL - noise_level), 1u << noise_level);
  StepStatus st = newton (it, h, extrapolate, full, &iters, &facts, &res, error);
  rep->newton_iters += iters;
  rep->factorisations += facts;
  tree->last_residual = res;
  if (st != STEP_OK)
    return st;

  const double *xn = fx_system_state (sys);
  if (it->stages > 1)
    for (guint i = 0; i < it->n; i++)
      {
        /* x_{n+1} = x_n + sum_j d_j (X_j - x_n) */
        double s = 0.0;
        for (guint j = 0; j < it->stages; j++)
          s += fx_gauss_d[j] * (it->x[i * it->stages + j] - xn[i]);
        it->x_new[i] = xn[i] + s;
      }
  else
    memcpy (it->x_new, it->x, sizeof (double) * it->n);
  if (!all_finite (it->x_new, it->n))
    return STEP_NOT_FINITE;
  if (!(largest_turn (it, h) <= G_PI))
    return STEP_UNRESOLVED;
  double supplied, dissipated;
  if (it->stages > 1)
    fx_system_stage_flows (sys, it->x, h, &supplied, &dissipated);
  else
    fx_system_flows (sys, it->x, h, &supplied, &dissipated);
  if (!isfinite (supplied) || !isfinite (dissipated))
    return STEP_NOT_FINITE;
  FxEnergy before = fx_system_energy (sys);
  if (extrapolate)
    choose_predictor (it, fx_system_state (sys), it->x_new);
  else
    memset (it->flips, 0, sizeof (gboolean) * it->n_blocks);
  memcpy (it->x_prev, fx_system_state (sys), sizeof (double) * it->n);
  it->have_prev = TRUE;
  it->dt_prev = h;
  if (it->stages > 1)
    fx_system_commit_stages (sys, it->x, it->x_new, h);
  else
    fx_system_commit (sys, it->x, h);

  FxEnergy after = fx_system_energy (sys);
  double H0 = before.kinetic + before.elastic + before.gravity;
  double H1 = after.kinetic + after.elastic + after.gravity;
  double balance = H1 - H0 - supplied + dissipated;
  double scale = substep_scale (&before, &after, supplied, dissipated);
  /* a rigid structure at rest has no energy but round-off (its supplied
   * work is a load times a velocity of 1e-30): its scale is floored at a
   * round-off fraction of the kinetic energy the step's impulse would give
   * an element, far below the energies of any moving or strained model */
  if (it->element_mass > 0.0)
    scale = MAX (scale, 1e-12 * it->impulse * it->impulse / it->element_mass);
  if (!isfinite (balance) || !isfinite (scale))
    return STEP_NOT_FINITE;
  /* a step's budget, shared by its substeps in proportion to their length
   * (2^-level of it), so that substeps each just under the step's limit do
   * not add up past it (16 substeps at 2e-11 of their scale each ended a
   * welded triangle's step 3.4e-10 off, seed 1979042676); floored at
   * round-off, which a substep of any length has */
  double budget = MAX (ldexp (FX_BALANCE_ACCEPT, -(int) level), BALANCE_ROUNDOFF);
  if (!(fabs (balance) <= budget * scale))
    {
      rep->residual = MAX (rep->residual, fabs (balance) / scale);
      return STEP_BALANCE;
    }
  rep->supplied += supplied;
  rep->dissipated += dissipated;
  rep->scale = MAX (rep->scale, scale);
  /* the accepted substeps' residual only: a failed attempt's 0.9 was
   * reported on steps its halves then solved (issue 31, item 9) */
  rep->residual = MAX (rep->residual, res);
  tree->pos += FINEST >> level;
  tree->deepest = MAX (tree->deepest, level);
  tree->substeps++;
  return STEP_OK;
}

/* A substep that succeeded or cannot be helped by splitting (its error, if
 * any, passed on); FALSE for a failure that a split may cure, after
 * forgetting what the failed attempt left in the solver. */
static gboolean
settled (FxIntegrator *it, StepStatus st, guint level, Tree *tree, GError **local, GError **error)
{
  if (st == STEP_OK || st == STEP_TOO_LARGE || st == STEP_BALANCE || st == STEP_CANCELLED)
    {
      if (*local)
        g_propagate_error (error, g_steal_pointer (local));
      if (st == STEP_BALANCE)
        tree->bad_level = level;
      return TRUE;
    }
  g_clear_error (local);
  it->have_prev = FALSE;
  it->factors_valid = FALSE;
  fx_matrix_refresh_pivots (it->J);
  return FALSE;
}

/* A span h at `level`: one substep, or (when Newton fails) the two halves,
 * each split again on its own, down to FX_MAX_SUBSTEP_LEVEL. A reused
 * factorisation being the likely culprit, a span that reuses them is first
 * tried again with full Newton. */
static StepStatus
advance (FxIntegrator *it, double h, guint level, Tree *tree, FxStepReport *rep, GError **error)
{
  g_autoptr (GError) local = NULL;
  StepStatus st = substep (it, h, level, FALSE, tree, rep, &local);

  if (settled (it, st, level, tree, &local, error))
    return st;
  if (reuse_allowed (it))
    {
      st = substep (it, h, level, TRUE, tree, rep, &local);
      if (settled (it, st, level, tree, &local, error))
        return st;
    }
  if (level >= FX_MAX_SUBSTEP_LEVEL)
    {
      tree->bad_level = level;
      return st;
    }
  for (guint half = 0; half < 2; half++)
    {
      if (fx_cancel_requested ())
        return STEP_CANCELLED;
      st = advance (it, 0.5 * h, level + 1, tree, rep, error);
      if (st != STEP_OK)
        return st;
    }
  return STEP_OK;
}

/* The largest coordinate of any link node, junction or body: the box test. */
static double
largest_coordinate (FxIntegrator *it)
{
  double m = 0.0;
  FxSystem *sys = it->sys;

  for (guint l = 0; l < fx_system_n_links (sys); l++)
    for (guint i = 0; i <= fx_system_link_elements (sys, l); i++)
      {
        double x, y, theta, moment;
        fx_system_node (sys, l, i, &x, &y, &theta, &moment);
        m = MAX (m, MAX (fabs (x), fabs (y)));
        if (!isfinite (x) || !isfinite (y))
          return INFINITY;
      }
  return m;
}

static const char *
status_reason (StepStatus st)
{
  switch (st)
    {
    case STEP_NO_CONVERGENCE: return _("Newton did not converge");
    case STEP_SINGULAR:       return _("the Newton matrix is singular (is part of the mechanism "
                                       "free to move without inertia?)");
    case STEP_NOT_FINITE:     return _("the state stopped being finite");
    case STEP_TOO_LARGE:      return _("the Newton matrix is too large");
    case STEP_BALANCE:        return _("the energy balance is not at round-off");
    case STEP_UNRESOLVED:     return _("the mechanism turns more than half a turn in one substep "
                                       "(are the loads far too large?)");
    case STEP_OK: default:    return "";
    }
}

static gboolean
report_finite (const FxStepReport *rep)
{
  return isfinite (rep->H) && isfinite (rep->kinetic) && isfinite (rep->elastic)
         && isfinite (rep->gravity) && isfinite (rep->supplied) && isfinite (rep->dissipated)
         && isfinite (rep->joint_gap) && isfinite (rep->t);
}

/* Bytes per unknown the Newton matrix needs at the very least, checked
 * before its pattern is recorded, so that a model far beyond the limit is
 * refused before an assembly pass. The recording and the analysis book
 * themselves as they grow (fx-matrix.c), so this only has to stay below
 * what they book: at their peak about 170 bytes per unknown for a single
 * link (the leanest), the finished banded matrix 245. Being a check and
 * not a booking, it must not exceed what an ensemble's probe booked per
 * worker (at 200 the second worker of a 20,000-element link under 100M
 * failed its samples). */
#define MATRIX_MIN_BYTES_PER_UNKNOWN 100

/* Gauss stages reuse factorisations only from this many unknowns per stage. */
#define STAGES_MIN_REUSE 64

/* The Newton matrix, made (and its path chosen) on first use. */
static gboolean
ensure_matrix (FxIntegrator *it, GError **error)
{
  if (it->J != NULL)
    return TRUE;
  /* Gauss's stage pair counts twice (2n unknowns) */
  guint n = it->stages * fx_system_n_unknowns (it->sys);
  g_autofree char *what = g_strdup_printf (_("the Newton matrix of %u unknowns"), n);
  if (!fx_memory_check ((guint64) n * MATRIX_MIN_BYTES_PER_UNKNOWN, what,
                        _("use fewer elements per link or fewer links"), error))
    return FALSE;
  it->J = it->stages > 1 ? fx_system_new_stage_jacobian (it->sys, it->matrix_kind, error)
                         : fx_system_new_jacobian (it->sys, it->matrix_kind, error);
  if (it->J == NULL)
    return FALSE;
  /* a factorisation against a residual, which costs about 60 flops per
   * unknown (the element kernel) */
  it->factor_cost = fx_matrix_cost (it->J) / (60.0 * MAX (it->m, 1));
  /* a floating-frame link's mass matrix moves with its deformation, so a
   * reused factorisation contracts too slowly to polish a step to
   * round-off within max_iter: such models take full Newton */
  for (guint l = 0; l < it->sys->n_links; l++)
    if (it->sys->links[l].model->mass_moves)
      it->factor_cost = 0.0;
  /* The Gauss stage pair follows the same rule (a reused factorisation
   * takes about 7 iterations per step against full Newton's 2-3, and is
   * faster from the cantilever up: 0.96 s against 2.4 s on the triangle
   * truss), except on tiny models, where KLU's fixed costs make the
   * factorisation look dear: there the flexible pendulum's simplified
   * Newton ended 14x above full Newton's balance, for no time saved. */
  if (it->stages > 1 && it->n < STAGES_MIN_REUSE)
    it->factor_cost = 0.0;
  return TRUE;
}

gboolean
fx_integrator_prepare (FxIntegrator *it, GError **error)
{
  return ensure_matrix (it, error);
}

/* The step's substeps from `level` on: 2^level spans, each split as it
 * needs. On failure the caller restores the step's start. */
static StepStatus
advance_step (FxIntegrator *it, double dt, guint level, Tree *tree, FxStepReport *rep,
              GError **error)
{
  guint spans = 1u << level;

  for (guint k = 0; k < spans; k++)
    {
      if (fx_cancel_requested ())
        return STEP_CANCELLED;  /* between substeps */
      StepStatus st = advance (it, dt / spans, level, tree, rep, error);
      if (st != STEP_OK)
        return st;
    }
  return STEP_OK;
}

/* Remember the level (physics.md §5): the next step starts at the finest
 * level this one needed, and a level is left (coarser by one) only after 4
 * clean steps at it. */
static void
remember_level (FxIntegrator *it, guint deepest)
{
  if (deepest > it->level)
    {
      it->level = deepest;
      it->clean_steps = 0;
    }
  else if (it->level > 0 && ++it->clean_steps >= 4)
    {
      it->level--;
      it->clean_steps = 0;
    }
}

/* The joint gap test. A motion far too fast for dt tears the joints apart
 * long before it leaves the box, and each following step needs thousands
 * of substeps: a 1e6 N load on a thin portal frame came 1 m apart at its
 * corner in the first step, then ran for hours to t = 0.01 s. */
static gboolean
joints_together (const FxSystem *sys, double t, GError **error)
{
  double gap, ratio;
  const char *joint = fx_system_joint_gap_worst (sys, &gap, &ratio);

  if (joint == NULL || ratio <= FX_JOINT_GAP_LIMIT)
    return TRUE;
  g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED,
               _("solver stopped at t = %.6g s: the link ends at joint \"%s\" came %.3g m "
                 "apart, %.3g times the shortest link there (the motion is far too fast for "
                 "the time step: use a smaller dt, or are the loads far too large?)"),
               t, joint, gap, ratio);
  return FALSE;
}

static void
set_failure (GError **error, double t0, double dt, StepStatus st, double residual)
{
  g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED,
               _("solver failed at t = %.6g s: %s, even in substeps of %.3g s "
                 "(dt / %u; scaled residual %.3g)"),
               t0, status_reason (st), dt / FINEST, FINEST, residual);
}

gboolean
fx_integrator_step (FxIntegrator *it, double dt, FxStepReport *rep, GError **error)
{
  FxSystem *sys = it->sys;
  g_autoptr (GError) local = NULL;
  double t0 = fx_system_time (sys);

  if (!(dt > 0.0) || !isfinite (dt))
    {
      g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED,
                   _("the time step %g s is not a positive number"), dt);
      return FALSE;
    }
  /* drags let go since the last step: their spring's energy is this step's
   * supplied work, already gone from H (fx_system_take_released) */
  double released = fx_system_take_released (sys);
  if (fx_system_n_unknowns (sys) != it->n)
    size_arrays (it);
  if (!fx_integrator_prepare (it, error))
    return FALSE;
  if (it->dt_level != dt)
    {
      it->level = 0;  /* a new dt starts whole */
      it->clean_steps = 0;
      it->dt_level = dt;
    }

  FxSystemSnapshot *snap = NULL;
  double H0 = fx_system_hamiltonian (sys);
  guint level = it->level;
  guint iters = 0, facts = 0;
  StepStatus st;
  Tree tree;

  fx_system_noise_begin_step (sys, dt);  /* noise: drawn once, reused by retries */
  for (;;)
    {
      memset (rep, 0, sizeof *rep);
      memset (&tree, 0, sizeof tree);
      fx_system_reactions_reset (sys);  /* the reactions are this step's mean */
      g_clear_error (&local);
      /* a Newton failure leaves the state as it was; only a balance off
       * round-off, found after its commit, needs the step's start again */
      if (snap == NULL && level < FX_MAX_SUBSTEP_LEVEL)
        snap = fx_system_snapshot (sys);
      st = advance_step (it, dt, level, &tree, rep, &local);
      iters += rep->newton_iters;
      facts += rep->factorisations;
      if (st == STEP_OK)
        {
          /* on the user's grid exactly, as an unsplit step lands: the sum
           * of 2^level substeps may differ from t0 + dt in its last bit */
          sys->t = t0 + dt;
          fill_energy (it, rep);
          if (report_finite (rep))
            break;
          st = STEP_NOT_FINITE;
        }
      if (snap)
        fx_system_restore (sys, snap);
      it->have_prev = FALSE;
      it->factors_valid = FALSE;
      fx_matrix_refresh_pivots (it->J);
      if (st != STEP_BALANCE)
        break;
      /* A balance off round-off is first the Newton tolerance's: a scaled
       * residual of 1e-12 can still leave 1e-9 of the energy unbooked (a
       * floating-frame link 1e-9 m long welded to a link with Kelvin-Voigt
       * damping of 1e6 s, which then took 512 substeps a step and ended
       * 2.7e-10 off in all). The whole step again, each Newton polished to
       * its floor; only when that fails too, finer. */
      if (!it->polish)
        {
          it->polish = TRUE;
          continue;
        }
      if (tree.bad_level >= FX_MAX_SUBSTEP_LEVEL)
        break;
      level = tree.bad_level + 1;  /* the whole step again, finer from its start */
    }
  it->polish = FALSE;
  fx_system_snapshot_free (snap);

  if (st != STEP_OK)
    {
      if (st == STEP_TOO_LARGE && local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else if (st == STEP_CANCELLED)
        fx_cancel_check (error);
      else
        set_failure (error, t0, dt, st, tree.last_residual);
      return FALSE;
    }

  rep->newton_iters = iters;
  rep->factorisations = facts;
  rep->substeps = tree.substeps;
  rep->level = tree.deepest;
  remember_level (it, tree.deepest);
  rep->dt = dt;
  rep->supplied += released;
  H0 -= released;  /* H before the release */
  rep->balance = rep->H - H0 - rep->supplied + rep->dissipated;
  if (!isfinite (rep->balance))
    {
      g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED,
                   _("solver failed at t = %.6g s: the energy balance is not finite"), t0);
      return FALSE;
    }
  double far = largest_coordinate (it);
  if (!(far <= FX_POSITION_LIMIT))
    {
      g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED,
                   _("solver stopped at t = %.6g s: the mechanism reached %.6g m from the "
                     "origin, beyond the %g m limit (are the loads far too large?)"),
                   rep->t, far, FX_POSITION_LIMIT);
      return FALSE;
    }
  if (!joints_together (sys, rep->t, error))
    return FALSE;
  fx_system_noise_end_step (sys);  /* noise: the next step draws anew */
  return TRUE;
}

void
fx_integrator_set_matrix_kind (FxIntegrator *it, FxMatrixKind kind)
{
  it->matrix_kind = kind;
  g_clear_pointer (&it->J, fx_matrix_free);
  it->factors_valid = FALSE;
}

void
fx_integrator_set_method (FxIntegrator *it, FxIntegratorKind kind)
{
  guint stages = stages_for (it->sys, kind);
  if (stages == it->stages)
    return;
  it->stages = stages;
  size_arrays (it);  /* a new matrix too, at the next step */
}

FxIntegratorKind
fx_integrator_get_method (FxIntegrator *it)
{
  return it->stages > 1 ? FX_INTEGRATOR_GAUSS4 : FX_INTEGRATOR_MIDPOINT;
}

void
fx_integrator_set_newton (FxIntegrator *it, FxNewtonKind kind)
{
  it->newton_kind = kind;
  it->factors_valid = FALSE;
}

void
fx_integrator_set_simplified_newton (FxIntegrator *it, gboolean enabled)
{
  fx_integrator_set_newton (it, enabled ? FX_NEWTON_AUTO : FX_NEWTON_FULL);
}

gboolean
fx_integrator_reuses_factorisations (FxIntegrator *it)
{
  return fx_integrator_prepare (it, NULL) && reuse_allowed (it);
}

const char *
fx_integrator_describe_solver (FxIntegrator *it)
{
  if (!fx_integrator_prepare (it, NULL))
    return _("no solver (the model is too large)");
  return fx_matrix_describe (it->J);
}
