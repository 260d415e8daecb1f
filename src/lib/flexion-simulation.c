/* flexion-simulation.c: FlexionSimulation, a model stepped in time on the
 * caller's thread (flexion-simulation.h).
 *
 * It builds and steps exactly as `flexion-cli run` does (src/cli,
 * flexion-cli-run.c): fx_system_new, fx_integrator_new with the model's
 * tolerance and iteration limit, fx_integrator_prepare, then
 * fx_integrator_step with the model's dt, ceil(t_end / dt - 1e-9) steps;
 * the probes, reactions and nodes are read with the same calls. So every
 * number is, bit for bit, what the CLI's CSV files hold. */
#include "flexion-private.h"
#include "fx-advice.h"
#include "fx-frame.h"
#include "fx-integrator.h"
#include "fx-matrix.h"
#include "fx-measure.h"
#include "fx-statics.h"
#include "fx-system.h"

#include <math.h>
#include <string.h>

/**
 * FlexionSimulation:
 *
 * A model run in time: the implicit midpoint rule with Newton, energy
 * conserved to round-off, as `flexion-cli run` runs it and with the same
 * numbers, bit for bit.
 *
 * Frame 0 is the initial state; each [method@Flexion.Simulation.step]
 * adds one. The simulation keeps every frame's energies (the columns of
 * `flexion-cli run --energy`), probe values and reactions, to read back as
 * arrays of doubles; the nodes of a link are those of the newest frame.
 * A simulation is used from one thread at a time; two simulations in two
 * threads run independently.
 *
 * ```python
 * sim = Flexion.Simulation.new(model, None)
 * sim.run_until(1.0, None)
 * print(sim.get_time(), sim.get_energy(), sim.get_balance())
 * tip_y = sim.get_probe_series("tip", Flexion.ProbeValue.Y)
 * ```
 */
struct _FlexionSimulation {
  GObject parent_instance;
  FlexionModel *model;      /* a copy of the caller's, never changed */
  const FxModel *fx;        /* inside `model` */
  FxSystem *system;
  FxIntegrator *integrator;
  guint8 *holds;            /* FxHolds per joint */
  GArray *reports;          /* FxStepReport per frame */
  GArray *probes;           /* FX_PROBE_N_VALUES per probe per frame */
  GArray *reactions;        /* FX_REACTION_N_VALUES per joint per frame */
  guint n_frames;           /* frames so far; the arrays hold the kept ones */
  double t_origin;          /* steps count from here: 0, or the last settle's t */
  guint frames_at_origin;   /* n_frames then */
  gboolean keep_history;    /* FALSE: the arrays hold the newest frame only */
  GError *failure;          /* a step failed: no more steps */
};

G_DEFINE_FINAL_TYPE (FlexionSimulation, flexion_simulation, G_TYPE_OBJECT)

static void
flexion_simulation_finalize (GObject *object)
{
  FlexionSimulation *self = FLEXION_SIMULATION (object);

  /* the integrator borrows the system */
  g_clear_pointer (&self->integrator, fx_integrator_free);
  g_clear_pointer (&self->system, fx_system_free);
  g_clear_object (&self->model);
  g_clear_pointer (&self->holds, g_free);
  g_clear_pointer (&self->reports, g_array_unref);
  g_clear_pointer (&self->probes, g_array_unref);
  g_clear_pointer (&self->reactions, g_array_unref);
  g_clear_error (&self->failure);
  G_OBJECT_CLASS (flexion_simulation_parent_class)->finalize (object);
}

static void
flexion_simulation_class_init (FlexionSimulationClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flexion_simulation_finalize;
}

static void
flexion_simulation_init (FlexionSimulation *self)
{
  self->reports = g_array_new (FALSE, FALSE, sizeof (FxStepReport));
  self->probes = g_array_new (FALSE, FALSE, sizeof (double));
  self->reactions = g_array_new (FALSE, FALSE, sizeof (double));
  self->keep_history = TRUE;
}

/* The CLI's sentences for a model that cannot be built (flexion-cli-solver.c:
 * the matrix's message is about the whole model, "(root): ...", and a
 * causality conflict comes with the fixes that work), without its
 * "FILE: invalid model:" heading and indent. Takes `src`. */
static void
build_error (GError **error, GError *src, const FxModel *model)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;
  FlexionError code = FLEXION_ERROR_INVALID;

  if (g_error_matches (src, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, src);
      return;
    }
  if (src->domain == FX_MATRIX_ERROR)
    code = FLEXION_ERROR_TOO_LARGE;
  lines = g_strsplit (src->message, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (*g_strstrip (lines[i]) != '\0')
      g_string_append_printf (text, "%s%s%s", text->len ? "\n" : "",
                              src->domain == FX_MATRIX_ERROR ? "(root): " : "", lines[i]);
  if (g_error_matches (src, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY))
    {
      g_autoptr (GPtrArray) fixes = fx_advice_fixes (model, 5);
      for (guint i = 0; i < fixes->len; i++)
        g_string_append_printf (text, "\n(root): a fix that works: %s",
                                ((FxFix *) g_ptr_array_index (fixes, i))->label);
    }
  g_set_error_literal (error, FLEXION_ERROR, code, text->str);
  g_error_free (src);
}

/* Appends the current state's report, probe values and reactions; a
 * settled state's probes read the diagram's N, V, M (physics.md §14). */
static void
record_frame (FlexionSimulation *self, const FxStepReport *report, gboolean settled)
{
  const FxModel *m = self->fx;
  guint n_probes = m->probes->len, n_joints = m->joints->len;
  guint p0, r0;

  if (!self->keep_history)
    {
      g_array_set_size (self->reports, 0);
      g_array_set_size (self->probes, 0);
      g_array_set_size (self->reactions, 0);
    }
  p0 = self->probes->len;
  r0 = self->reactions->len;
  self->n_frames++;
  g_array_append_vals (self->reports, report, 1);
  g_array_set_size (self->probes, p0 + FX_PROBE_N_VALUES * n_probes);
  for (guint p = 0; p < n_probes; p++)
    {
      const FxProbe *probe = fx_model_probe (m, p);
      guint link = (guint) fx_model_find_link (m, probe->link);
      double *v = &g_array_index (self->probes, double, p0 + FX_PROBE_N_VALUES * p);
      if (settled)
        fx_system_settled_probe_values (self->system, link, probe->s, v);
      else
        fx_system_probe_values (self->system, link, probe->s, v);
    }
  g_array_set_size (self->reactions, r0 + FX_REACTION_N_VALUES * n_joints);
  if (n_joints > 0)
    fx_system_reactions (self->system, &g_array_index (self->reactions, double, r0));
}

/**
 * flexion_simulation_new:
 * @model: the model to run (copied: later changes to it do not reach the run)
 * @cancellable: (nullable): stops the build of a big model
 * @error: return location for an error
 *
 * Builds the model's system and its Newton matrix: every check before
 * the first step (the file's rules, the causality assignment, the memory
 * the matrix needs). A model that cannot run raises the sentences
 * `flexion-cli run` prints for it, one per line.
 *
 * Returns: (transfer full): the simulation at frame 0, or %NULL with @error set
 */
FlexionSimulation *
flexion_simulation_new (FlexionModel *model, GCancellable *cancellable, GError **error)
{
  g_autoptr (FlexionSimulation) self = NULL;
  FlexionCancel scope;
  GError *local = NULL;
  FxStepReport report;

  g_return_val_if_fail (FLEXION_IS_MODEL (model), NULL);
  if (flexion_cancel_check (cancellable, error))
    return NULL;
  self = g_object_new (FLEXION_TYPE_SIMULATION, NULL);
  self->model = flexion_model_copy (model);
  self->fx = flexion_model_peek (self->model);

  flexion_cancel_begin (&scope, cancellable);
  self->system = fx_system_new (self->fx, &local);
  if (self->system != NULL)
    {
      self->integrator = fx_integrator_new (self->system, self->fx->tolerance,
                                            self->fx->max_iterations);
      fx_integrator_prepare (self->integrator, &local);
    }
  flexion_cancel_end (&scope);
  if (local != NULL)
    {
      build_error (error, local, self->fx);
      return NULL;
    }
  self->holds = g_new (guint8, MAX (self->fx->joints->len, 1));
  fx_system_holds (self->system, self->holds);
  fx_integrator_report (self->integrator, &report);
  record_frame (self, &report, FALSE);
  self->frames_at_origin = 1;
  return g_steal_pointer (&self);
}

/**
 * flexion_simulation_get_model:
 * @self: a simulation
 *
 * Gets the model the simulation runs.
 *
 * Returns: (transfer none): the simulation's copy of its model
 */
FlexionModel *
flexion_simulation_get_model (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), NULL);
  return self->model;
}

/**
 * flexion_simulation_describe_solver:
 * @self: a simulation
 *
 * Names the linear solver the run's Newton iterations use.
 *
 * Returns: (transfer full): the linear solver in use, as `flexion-cli run`
 *   says it ("banded LU (GSL), ..." or "sparse LU (KLU), ...")
 */
char *
flexion_simulation_describe_solver (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), NULL);
  return g_strdup (fx_integrator_describe_solver (self->integrator));
}

/**
 * flexion_simulation_set_newton:
 * @self: a simulation
 * @newton: the Newton variant
 *
 * Chooses how Newton treats its matrix, as `flexion-cli run --newton`
 * does; set it before the first step to get that command's numbers.
 */
void
flexion_simulation_set_newton (FlexionSimulation *self, FlexionNewton newton)
{
  g_return_if_fail (FLEXION_IS_SIMULATION (self));
  g_return_if_fail (newton <= FLEXION_NEWTON_SIMPLIFIED);
  G_STATIC_ASSERT ((int) FLEXION_NEWTON_FULL == (int) FX_NEWTON_FULL);
  G_STATIC_ASSERT ((int) FLEXION_NEWTON_SIMPLIFIED == (int) FX_NEWTON_SIMPLIFIED);
  fx_integrator_set_newton (self->integrator, (FxNewtonKind) newton);
}

/**
 * flexion_simulation_set_keep_history:
 * @self: a simulation
 * @keep: %TRUE (the default) to keep every frame's energies, probe values
 *   and reactions; %FALSE to keep the newest frame's only
 *
 * A frame kept costs about 100 bytes, plus 64 per probe and 24 per joint: a
 * run of millions of steps may rather read what it needs as it goes. The
 * series then start at the newest frame; frames already kept are dropped
 * at the next step.
 */
void
flexion_simulation_set_keep_history (FlexionSimulation *self, gboolean keep)
{
  g_return_if_fail (FLEXION_IS_SIMULATION (self));
  self->keep_history = keep;
}

static gboolean
report_is_finite (const FxStepReport *r)
{
  const double v[] = { r->t, r->H, r->kinetic, r->elastic, r->gravity, r->supplied,
                       r->dissipated, r->balance, r->residual, r->joint_gap };
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

/* One step on the calling thread, its cancel flag already attached. */
static gboolean
step_once (FlexionSimulation *self, GError **error)
{
  FxStepReport report;
  GError *local = NULL;

  if (self->failure != NULL)
    {
      g_propagate_error (error, g_error_copy (self->failure));
      return FALSE;
    }
  if (!fx_integrator_step (self->integrator, self->fx->dt, &report, &local))
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* the step's start is restored: the run may go on */
          g_propagate_error (error, local);
          return FALSE;
        }
      self->failure = g_error_new_literal (FLEXION_ERROR, FLEXION_ERROR_SOLVER, local->message);
      g_error_free (local);
      g_propagate_error (error, g_error_copy (self->failure));
      return FALSE;
    }
  if (!report_is_finite (&report))
    {
      self->failure = g_error_new (FLEXION_ERROR, FLEXION_ERROR_SOLVER,
                                   "the energies are no longer finite numbers at t = %g s "
                                   "(H = %g J); the model's numbers are too large or too small "
                                   "for the solver", report.t, report.H);
      g_propagate_error (error, g_error_copy (self->failure));
      return FALSE;
    }
  record_frame (self, &report, FALSE);
  return TRUE;
}

/**
 * flexion_simulation_step:
 * @self: a simulation
 * @cancellable: (nullable): stops the step within a Newton iteration
 * @error: return location for an error
 *
 * Advances one time step Δt of the model. A step the solver cannot take
 * raises [error@Flexion.Error.SOLVER] with the message `flexion-cli run`
 * prints, and the simulation takes no more steps; a cancelled step is
 * undone (`G_IO_ERROR_CANCELLED`) and may be taken again.
 *
 * Returns: %TRUE if a frame was added
 */
gboolean
flexion_simulation_step (FlexionSimulation *self, GCancellable *cancellable, GError **error)
{
  FlexionCancel scope;
  gboolean ok;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), FALSE);
  if (flexion_cancel_check (cancellable, error))
    return FALSE;
  flexion_cancel_begin (&scope, cancellable);
  ok = step_once (self, error);
  flexion_cancel_end (&scope);
  return ok;
}

/**
 * flexion_simulation_run_until:
 * @self: a simulation
 * @t: the time to reach, s
 * @cancellable: (nullable): stops the run within a step
 * @error: return location for an error
 *
 * Steps until the run has taken ceil(@t / Δt) steps in all, as
 * `flexion-cli run --until` @t does (nothing when it has already).
 * Cancelling stops within a step: the frames before stay, and the run may
 * go on with another call.
 *
 * Returns: %TRUE if @t was reached
 */
gboolean
flexion_simulation_run_until (FlexionSimulation *self, double t, GCancellable *cancellable,
                              GError **error)
{
  FlexionCancel scope;
  double steps;
  gboolean ok = TRUE;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), FALSE);
  steps = ceil ((t - self->t_origin) / self->fx->dt - 1e-9);
  if (!isfinite (t) || steps > FX_MAX_STEPS)
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID,
                   "end %g s / dt %g s gives %.3g steps; the limit is %g", t, self->fx->dt,
                   steps, FX_MAX_STEPS);
      return FALSE;
    }
  flexion_cancel_begin (&scope, cancellable);
  while (ok && (double) (self->n_frames - self->frames_at_origin) < steps)
    ok = !flexion_cancel_check (cancellable, error) && step_once (self, error);
  flexion_cancel_end (&scope);
  return ok;
}

/**
 * flexion_simulation_run:
 * @self: a simulation
 * @cancellable: (nullable): stops the run within a step
 * @error: return location for an error
 *
 * Runs to the model's end time, as `flexion-cli run` does.
 *
 * Returns: %TRUE if the end time was reached
 */
gboolean
flexion_simulation_run (FlexionSimulation *self, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), FALSE);
  return flexion_simulation_run_until (self, self->fx->t_end, cancellable, error);
}

/**
 * flexion_simulation_settle:
 * @self: a simulation
 * @t: the time whose loads are held, s (0 to the model's end time)
 * @cancellable: (nullable): stops the settle between its iterations
 * @error: return location for an error
 *
 * Settles the structure: the static equilibrium near the current state
 * with the loads frozen at their values at @t (physics.md §14), as
 * `flexion-cli statics --at` @t finds it from the drawn state, with the
 * same numbers, bit for bit, when the simulation has not stepped. The
 * settled state is added as a frame at time @t: at rest, its probes read
 * N, V and M as the diagram does (element end forces), its reactions are
 * the supports' at rest. Steps after it go on from the settled state, Δt
 * by Δt from @t (a preloaded structure, then released or struck).
 *
 * A model without an equilibrium near the state raises
 * [error@Flexion.Error.SOLVER] with the sentence `flexion-cli statics`
 * prints ("no static equilibrium: …"); nothing to settle (no load at @t,
 * or a model statics does not take) and @t outside the model's time
 * range raise [error@Flexion.Error.INVALID]. A failed or cancelled settle
 * leaves the simulation as it was.
 *
 * ```python
 * sim = Flexion.Simulation.new(model, None)
 * sim.settle(1.0, None)
 * print(sim.get_probe("AE", Flexion.ProbeValue.N), sim.get_reaction("A", Flexion.Reaction.FY))
 * ```
 *
 * Returns: %TRUE if the settled state was added as a frame
 */
gboolean
flexion_simulation_settle (FlexionSimulation *self, double t, GCancellable *cancellable,
                           GError **error)
{
  FlexionCancel scope;
  FxStepReport report;
  FxStaticsReport settled;
  GError *local = NULL;
  gboolean ok;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), FALSE);
  if (!(t >= 0.0 && t <= self->fx->t_end))
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID,
                   "the settle time %g s is outside the model's time range, 0 to %g s", t,
                   self->fx->t_end);
      return FALSE;
    }
  if (flexion_cancel_check (cancellable, error))
    return FALSE;
  flexion_cancel_begin (&scope, cancellable);
  ok = fx_statics_settle (self->system, t, &settled, &local);
  flexion_cancel_end (&scope);
  if (!ok)
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, local);
      else if (g_error_matches (local, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_LOAD)
               || g_error_matches (local, FX_STATICS_ERROR, FX_STATICS_ERROR_UNSUPPORTED))
        {
          g_set_error_literal (error, FLEXION_ERROR, FLEXION_ERROR_INVALID, local->message);
          g_error_free (local);
        }
      else
        {
          g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_SOLVER, "%s%s",
                       g_str_has_prefix (local->message, "no static equilibrium")
                         ? "" : "no static equilibrium: ", local->message);
          g_error_free (local);
        }
      return FALSE;
    }
  /* the dynamics go on from here with a fresh integrator: the old one's
   * predictor and substep level belong to the motion before (as Play
   * after Settle in the app) */
  fx_integrator_free (self->integrator);
  self->integrator = fx_integrator_new (self->system, self->fx->tolerance,
                                        self->fx->max_iterations);
  g_clear_error (&self->failure);
  fx_integrator_report (self->integrator, &report);
  record_frame (self, &report, TRUE);
  /* the reactions of the static solve's own multipliers, which balance
   * the loads to round-off (those `flexion-cli statics` writes) */
  memcpy (&g_array_index (self->reactions, double,
                          self->reactions->len - FX_REACTION_N_VALUES * settled.n_joints),
          settled.reactions, sizeof (double) * FX_REACTION_N_VALUES * settled.n_joints);
  fx_statics_report_clear (&settled);
  self->t_origin = t;
  self->frames_at_origin = self->n_frames;
  return TRUE;
}

/* ------------------------------------------------------------ frames */

static const FxStepReport *
last_report (FlexionSimulation *self)
{
  return &g_array_index (self->reports, FxStepReport, self->reports->len - 1);
}

/**
 * flexion_simulation_get_n_frames:
 * @self: a simulation
 *
 * Gets the number of frames so far.
 *
 * Returns: the frames so far: the steps taken plus one (frame 0)
 */
guint
flexion_simulation_get_n_frames (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0);
  return self->n_frames;
}

/**
 * flexion_simulation_get_time:
 * @self: a simulation
 *
 * Gets the time of the newest frame.
 *
 * Returns: the newest frame's time, s
 */
double
flexion_simulation_get_time (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->t;
}

/**
 * flexion_simulation_get_energy:
 * @self: a simulation
 *
 * Gets the Hamiltonian, the total energy, of the newest frame.
 *
 * Returns: the newest frame's Hamiltonian H (kinetic + elastic + gravity), J
 */
double
flexion_simulation_get_energy (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->H;
}

/**
 * flexion_simulation_get_kinetic_energy:
 * @self: a simulation
 *
 * Gets the kinetic energy of the newest frame.
 *
 * Returns: the newest frame's kinetic energy, J
 */
double
flexion_simulation_get_kinetic_energy (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->kinetic;
}

/**
 * flexion_simulation_get_elastic_energy:
 * @self: a simulation
 *
 * Gets the elastic energy of the newest frame.
 *
 * Returns: the newest frame's elastic energy, J
 */
double
flexion_simulation_get_elastic_energy (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->elastic;
}

/**
 * flexion_simulation_get_gravity_energy:
 * @self: a simulation
 *
 * Gets the potential energy of gravity of the newest frame.
 *
 * Returns: the newest frame's potential energy of gravity, J
 */
double
flexion_simulation_get_gravity_energy (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->gravity;
}

/**
 * flexion_simulation_get_supplied:
 * @self: a simulation
 *
 * Gets the work supplied during the newest step.
 *
 * Returns: the work supplied during the newest frame's step, J (0 at frame 0)
 */
double
flexion_simulation_get_supplied (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->supplied;
}

/**
 * flexion_simulation_get_dissipated:
 * @self: a simulation
 *
 * Gets the energy dissipated during the newest step.
 *
 * Returns: the energy dissipated during the newest frame's step, J
 */
double
flexion_simulation_get_dissipated (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->dissipated;
}

/**
 * flexion_simulation_get_balance:
 * @self: a simulation
 *
 * Gets the energy balance of the newest step.
 *
 * Returns: the newest step's energy balance H(n+1) − H(n) − supplied +
 *   dissipated, J: round-off
 */
double
flexion_simulation_get_balance (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  return last_report (self)->balance;
}

/**
 * flexion_simulation_get_newton_iterations:
 * @self: a simulation
 *
 * Gets the Newton iterations of the newest step.
 *
 * Returns: the Newton iterations of the newest step, over its substeps
 */
guint
flexion_simulation_get_newton_iterations (FlexionSimulation *self)
{
  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0);
  return last_report (self)->newton_iters;
}

/* The energy CSV's columns, in its order. */
static gboolean
report_value (const FxStepReport *r, const char *name, double *out)
{
  const struct { const char *name; double value; } v[] = {
    { "t", r->t }, { "H", r->H }, { "kinetic", r->kinetic }, { "elastic", r->elastic },
    { "gravity", r->gravity }, { "supplied", r->supplied }, { "dissipated", r->dissipated },
    { "balance", r->balance }, { "newton_iters", r->newton_iters },
    { "factorisations", r->factorisations }, { "residual", r->residual },
    { "joint_gap", r->joint_gap }, { "substeps", MAX (r->substeps, 1u) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    if (g_strcmp0 (v[i].name, name) == 0)
      {
        *out = v[i].value;
        return TRUE;
      }
  return FALSE;
}

/**
 * flexion_simulation_get_series:
 * @self: a simulation
 * @name: a column of `flexion-cli run --energy`: "t", "H", "kinetic",
 *   "elastic", "gravity", "supplied", "dissipated", "balance",
 *   "newton_iters", "factorisations", "residual", "joint_gap", "substeps"
 * @n_values: (out): the number of frames
 * @error: return location for an error
 *
 * Every kept frame's value of one column, frame 0 first (all frames
 * unless [method@Flexion.Simulation.set_keep_history] said otherwise).
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the values,
 *   or %NULL with @error set for an unknown name
 */
double *
flexion_simulation_get_series (FlexionSimulation *self, const char *name, gsize *n_values,
                               GError **error)
{
  double *out, probe;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), NULL);
  *n_values = 0;
  if (!report_value (last_report (self), name, &probe))
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND,
                   "no series \"%s\" (t, H, kinetic, elastic, gravity, supplied, dissipated, "
                   "balance, newton_iters, factorisations, residual, joint_gap, substeps)",
                   name ? name : "(null)");
      return NULL;
    }
  out = g_new (double, self->reports->len);
  for (guint i = 0; i < self->reports->len; i++)
    report_value (&g_array_index (self->reports, FxStepReport, i), name, &out[i]);
  *n_values = self->reports->len;
  return out;
}

static int
find_id (FlexionSimulation *self, gboolean probe, const char *id, GError **error)
{
  const FxModel *m = self->fx;
  guint n = probe ? m->probes->len : m->joints->len;

  for (guint i = 0; id != NULL && i < n; i++)
    if (g_strcmp0 (probe ? fx_model_probe (m, i)->id : fx_model_joint (m, i)->id, id) == 0)
      return (int) i;
  g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND, "the model has no %s \"%s\"",
               probe ? "probe" : "joint", id ? id : "(null)");
  return -1;
}

static gboolean
check_enum (int value, int n, const char *what, GError **error)
{
  if (value >= 0 && value < n)
    return TRUE;
  g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND, "no %s %d", what, value);
  return FALSE;
}

/* Column `column` of a per-frame table with `stride` values per frame. */
static double *
series (GArray *table, guint frames, guint stride, guint column, gsize *n_values)
{
  double *out = g_new (double, MAX (frames, 1));

  for (guint i = 0; i < frames; i++)
    out[i] = g_array_index (table, double, (gsize) stride * i + column);
  *n_values = frames;
  return out;
}

/**
 * flexion_simulation_get_probe:
 * @self: a simulation
 * @probe: a probe's id
 * @value: what to read
 * @error: return location for an error
 *
 * Gets a probe's value in the newest frame.
 *
 * Returns: the probe's value in the newest frame (0 with @error set)
 */
double
flexion_simulation_get_probe (FlexionSimulation *self, const char *probe,
                              FlexionProbeValue value, GError **error)
{
  guint stride, frame;
  int p;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  p = find_id (self, TRUE, probe, error);
  if (p < 0 || !check_enum ((int) value, FX_PROBE_N_VALUES, "probe value", error))
    return 0.0;
  stride = FX_PROBE_N_VALUES * self->fx->probes->len;
  frame = self->reports->len - 1;
  return g_array_index (self->probes, double, (gsize) stride * frame + FX_PROBE_N_VALUES * p + value);
}

/**
 * flexion_simulation_get_probe_series:
 * @self: a simulation
 * @probe: a probe's id
 * @value: what to read
 * @n_values: (out): the number of frames
 * @error: return location for an error
 *
 * Gets a probe's value in every frame.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the probe's
 *   value in every kept frame, frame 0 first
 */
double *
flexion_simulation_get_probe_series (FlexionSimulation *self, const char *probe,
                                     FlexionProbeValue value, gsize *n_values, GError **error)
{
  int p;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), NULL);
  *n_values = 0;
  p = find_id (self, TRUE, probe, error);
  if (p < 0 || !check_enum ((int) value, FX_PROBE_N_VALUES, "probe value", error))
    return NULL;
  return series (self->probes, self->reports->len, FX_PROBE_N_VALUES * self->fx->probes->len,
                 FX_PROBE_N_VALUES * (guint) p + value, n_values);
}

/**
 * flexion_simulation_joint_holds:
 * @self: a simulation
 * @joint: a joint's id
 * @value: a reaction channel
 * @error: return location for an error
 *
 * Whether the joint is held in that channel (a support, a slider's guide,
 * a speed motor to the ground): the reactions `flexion-cli run
 * --reactions` writes a column for.
 *
 * Returns: %TRUE if it is
 */
gboolean
flexion_simulation_joint_holds (FlexionSimulation *self, const char *joint,
                                FlexionReaction value, GError **error)
{
  int j;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), FALSE);
  j = find_id (self, FALSE, joint, error);
  if (j < 0 || !check_enum ((int) value, FX_REACTION_N_VALUES, "reaction", error))
    return FALSE;
  return fx_holds_value (self->holds[j], (FxReactionValue) value);
}

/**
 * flexion_simulation_get_reaction:
 * @self: a simulation
 * @joint: a joint's id
 * @value: the channel
 * @error: return location for an error
 *
 * Gets a support's reaction in the newest frame.
 *
 * Returns: the joint's reaction in the newest frame: the mean over the
 *   step that ended there (0 where the joint holds nothing)
 */
double
flexion_simulation_get_reaction (FlexionSimulation *self, const char *joint,
                                 FlexionReaction value, GError **error)
{
  guint stride, frame;
  int j;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), 0.0);
  j = find_id (self, FALSE, joint, error);
  if (j < 0 || !check_enum ((int) value, FX_REACTION_N_VALUES, "reaction", error))
    return 0.0;
  stride = FX_REACTION_N_VALUES * self->fx->joints->len;
  frame = self->reports->len - 1;
  return g_array_index (self->reactions, double,
                        (gsize) stride * frame + FX_REACTION_N_VALUES * j + value);
}

/**
 * flexion_simulation_get_reaction_series:
 * @self: a simulation
 * @joint: a joint's id
 * @value: the channel
 * @n_values: (out): the number of frames
 * @error: return location for an error
 *
 * Gets a support's reaction in every frame.
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the joint's
 *   reaction in every kept frame, frame 0 first
 */
double *
flexion_simulation_get_reaction_series (FlexionSimulation *self, const char *joint,
                                        FlexionReaction value, gsize *n_values, GError **error)
{
  int j;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), NULL);
  *n_values = 0;
  j = find_id (self, FALSE, joint, error);
  if (j < 0 || !check_enum ((int) value, FX_REACTION_N_VALUES, "reaction", error))
    return NULL;
  return series (self->reactions, self->reports->len, FX_REACTION_N_VALUES * self->fx->joints->len,
                 FX_REACTION_N_VALUES * (guint) j + value, n_values);
}

/**
 * flexion_simulation_get_link_nodes:
 * @self: a simulation
 * @link: a link's id
 * @value: what to read at each node
 * @n_values: (out): the link's nodes: its elements plus one
 * @error: return location for an error
 *
 * A link's nodes in the newest frame, from its `from` joint to its `to`
 * joint (the rows of `flexion-cli run --trace`).
 *
 * Returns: (array length=n_values) (transfer full) (nullable): the values
 */
double *
flexion_simulation_get_link_nodes (FlexionSimulation *self, const char *link,
                                   FlexionNodeValue value, gsize *n_values, GError **error)
{
  guint n;
  double *out;
  int l;

  g_return_val_if_fail (FLEXION_IS_SIMULATION (self), NULL);
  *n_values = 0;
  l = fx_model_find_link (self->fx, link ? link : "");
  if (l < 0)
    {
      g_set_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND, "the model has no link \"%s\"",
                   link ? link : "(null)");
      return NULL;
    }
  if (!check_enum ((int) value, 4, "node value", error))
    return NULL;
  n = fx_system_link_elements (self->system, (guint) l) + 1;
  out = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      double v[4];
      fx_system_node (self->system, (guint) l, i, &v[0], &v[1], &v[2], &v[3]);
      out[i] = v[value];
    }
  *n_values = n;
  return out;
}
