/* fx-runner.c: one solver thread per run, and the bounded frame buffer
 * between it and the UI.
 *
 * Everything shared lives under `lock`. The solver thread takes an order
 * (dt, pull) under the lock, computes the step and its frame outside it, and
 * publishes the frame under it again; it sleeps on `wake` when it has no
 * step to do or no room for the frame. Every command signals `wake`.
 */
#define _GNU_SOURCE  /* syscall (SYS_gettid), for per-thread priority */
#include "fx-runner.h"
#include "fx-statics.h"
#include "fx-cancel.h"
#include "fx-system-private.h"  /* snapshot and restore, for live settings */

#include <glib/gi18n-lib.h>

#include <errno.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <math.h>
#include <string.h>


struct _FxRunner {
  gint ref;                  /* the owner's and the running thread's          */
  gint cancel;               /* fx-cancel.h: set when the owner lets go        */
  FxModel *model;            /* the copy; immutable                          */
  gboolean held;             /* solver thread: the hand holds held_link/s    */
  guint held_link;
  double held_s;
  FxSystem *system;          /* the solver thread's alone once it runs        */
  FxIntegrator *integrator;  /* likewise                                      */
  GThread *thread;

  GMutex lock;               /* guards everything below                       */
  GCond wake;                /* to the solver: a command, or room for a frame */
  GQueue frames;             /* FxStepFrame*, oldest first                    */
  guint capacity;
  double horizon;
  double dt;
  double time;               /* t of the newest frame                         */
  guint step;                /* step index of the newest frame                */
  guint steps_asked;         /* fx_runner_step_once calls not yet served      */
  gboolean stepping;         /* a step is being computed, outside the lock    */
  gboolean quit;
  GError *failure;
  gboolean prepared;         /* system built, frame 0 published               */
  guint phase;               /* of the preparation: PHASE_*                   */

  gboolean pull_active;
  guint pull_link;
  double pull_s, pull_target[2];

  FxModel *live_model;       /* live settings waiting for the next step       */
  GPtrArray *live_models;    /* models of the systems built for live settings */

  gboolean settle_asked;     /* fx_runner_settle: waiting for the solver      */
  gboolean settling;         /* being computed, outside the lock              */
  double settle_t;
  GError *settle_error;      /* the last settle's failure, NULL: it succeeded */
};

/* What the solver needs for one step, copied out of the lock. */
typedef struct {
  double dt;
  guint step;
  gboolean pull_active;
  guint pull_link;
  double pull_s, pull_target[2];
  FxModel *live_model;       /* (transfer full) new live settings, or NULL */
} StepOrder;

/* ------------------------------------------------------------ solver side */

static gboolean
step_wanted (const FxRunner *r)
{
  return r->failure == NULL && (r->time < r->horizon || r->steps_asked > 0);
}

static StepOrder
take_order (FxRunner *r)
{
  StepOrder o = { r->dt, r->step + 1, r->pull_active, r->pull_link,
                  r->pull_s, { r->pull_target[0], r->pull_target[1] },
                  g_steal_pointer (&r->live_model) };

  /* a step asked for is one beyond the horizon, so it is served only there */
  if (r->time >= r->horizon && r->steps_asked > 0)
    r->steps_asked--;
  return o;
}

/* The user's hand as an implicit drag (docs/theory.md §6): grab the
 * point when a pull starts (or moves to another point), lead its anchor to
 * the pointer over the coming step, let go when the pull ends. */
static void
apply_pull (FxRunner *r, const StepOrder *o)
{
  if (!o->pull_active)
    {
      if (r->held)
        fx_system_hand_release (r->system);
      r->held = FALSE;
      return;
    }
  if (!r->held || r->held_link != o->pull_link || r->held_s != o->pull_s)
    {
      fx_system_hand_grab (r->system, o->pull_link, o->pull_s);
      /* a link whose model has no material points cannot be held: no pull */
      r->held = fx_system_hand_active (r->system);
      r->held_link = o->pull_link;
      r->held_s = o->pull_s;
    }
  if (r->held)
    fx_system_hand_move (r->system, o->pull_target, o->dt);
}

/* Live settings (fx_runner_set_live_model): the system is rebuilt from the
 * new model, which differs only in values, so it has the same unknowns,
 * and the state is carried over. What that does to H (gravity's potential)
 * is returned, to be booked as work supplied in this step. */
/* The unknowns without the user's hand: once grabbed it keeps two of its
 * own at the end (zero when let go), which a rebuilt system has not. */
static guint
unknowns_without_hand (const FxSystem *system)
{
  return fx_system_n_unknowns (system) - (system->hand >= 0 ? 2 : 0);
}

static double
apply_live_model (FxRunner *r, FxModel *model)
{
  g_autoptr (GError) error = NULL;
  FxSystem *next = fx_system_new (model, &error);
  if (next == NULL || unknowns_without_hand (next) != unknowns_without_hand (r->system)
      || fx_system_n_links (next) != fx_system_n_links (r->system))
    {
      /* cannot happen for values alone; keep running on the old settings */
      g_warning ("live settings not applied: %s", error ? error->message : "the system changed shape");
      g_clear_pointer (&next, fx_system_free);
      fx_model_free (model);
      return 0;
    }
  double H_before = fx_system_hamiltonian (r->system);
  FxSystemSnapshot *state = fx_system_snapshot (r->system);
  fx_system_restore (next, state);
  fx_system_snapshot_free (state);
  fx_integrator_free (r->integrator);
  fx_system_free (r->system);
  r->system = next;
  r->integrator = fx_integrator_new (next, model->tolerance, model->max_iterations);
  g_ptr_array_add (r->live_models, model);  /* the system borrows it */
  return fx_system_hamiltonian (next) - H_before;
}

static FxStepFrame *
solver_step (FxRunner *r, const StepOrder *o, GError **error)
{
  FxStepReport report;
  double jump = 0;
  if (o->live_model && r->held)
    {
      /* the hand's drag lives in the system: new settings wait until it
       * lets go, unless newer ones came meanwhile */
      g_mutex_lock (&r->lock);
      if (r->live_model == NULL)
        r->live_model = o->live_model;
      else
        fx_model_free (o->live_model);
      g_mutex_unlock (&r->lock);
    }
  else if (o->live_model)
    jump = apply_live_model (r, o->live_model);

  apply_pull (r, o);
  if (!fx_integrator_step (r->integrator, o->dt, &report, error))
    return NULL;
  /* H_{n+1} - H_n(old settings) = supplied + jump - dissipated: the jump is
   * work done on the system by whoever changed gravity, so the books close */
  report.supplied += jump;
  return fx_step_frame_new (r->system, &report, o->step);
}

static void publish (FxRunner *r, FxStepFrame *frame);
static void runner_clear_frames (FxRunner *r);

/* A settle (fx_runner_settle) on the solver thread: the settled state at
 * settle_t becomes the next frame, and a fresh integrator continues from it
 * (the old one's predictor and substep level belong to the motion before).
 * A failure leaves the system as it was. Called with the lock held. */
static void
solver_settle (FxRunner *r)
{
  double t = r->settle_t;
  guint step = r->step + 1;
  GError *error = NULL;

  r->settle_asked = FALSE;
  r->settling = TRUE;
  g_mutex_unlock (&r->lock);
  if (r->held)
    {
      fx_system_hand_release (r->system);
      r->held = FALSE;
    }
  FxStaticsReport settled;
  gboolean ok = fx_statics_settle (r->system, t, &settled, &error);
  FxStepFrame *frame = NULL;
  if (ok)
    {
      fx_integrator_free (r->integrator);
      r->integrator = fx_integrator_new (r->system, r->model->tolerance, r->model->max_iterations);
      FxStepReport report;
      fx_integrator_report (r->integrator, &report);
      frame = fx_step_frame_new (r->system, &report, step);
      /* a probe on a settled state reads what the diagram shows, and the
       * reactions are the static solve's (as flexion-cli statics writes) */
      fx_step_frame_settled_probes (frame, r->system);
      memcpy (frame->reaction, settled.reactions,
              sizeof (double) * FX_REACTION_N_VALUES * settled.n_joints);
      fx_statics_report_clear (&settled);
    }
  g_mutex_lock (&r->lock);
  r->settling = FALSE;
  g_clear_error (&r->settle_error);
  r->settle_error = error;
  if (frame)
    {
      /* unread frames are the motion the settle replaces: the settled
       * frame is the next one the reader gets */
      runner_clear_frames (r);
      publish (r, frame);
      /* play on from the settled state only when asked again */
      r->horizon = MIN (r->horizon, r->time);
    }
}

static void
publish (FxRunner *r, FxStepFrame *frame)
{
  g_queue_push_tail (&r->frames, frame);
  r->time = frame->t;
  r->step = frame->step;
}

void
fx_runner_lower_thread_priority (void)
{
#ifdef __linux__
  /* Linux schedules threads as tasks: this nices the calling thread only */
  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10) != 0)
    g_debug ("could not lower the priority of a worker thread: %s", g_strerror (errno));
#endif
}

/* --------------------------------------------------------------- set-up */

enum { PHASE_SYSTEM, PHASE_MATRIX, PHASE_FRAME };

/* Enough frames to ride out a slow UI tick, but bounded in bytes, so a
 * million-element link does not buffer gigabytes. */
static guint
capacity_for (const FxStepFrame *f)
{
  gsize bytes = fx_step_frame_bytes (f);
  gsize n = FX_RUNNER_FRAME_BUDGET / MAX (bytes, 1);

  return (guint) CLAMP (n, FX_RUNNER_MIN_FRAMES, FX_RUNNER_MAX_FRAMES);
}

static void
runner_clear_frames (FxRunner *r)
{
  FxStepFrame *f;
  while ((f = g_queue_pop_head (&r->frames)) != NULL)
    fx_step_frame_unref (f);
}

static void
set_phase (FxRunner *r, guint phase)
{
  g_mutex_lock (&r->lock);
  r->phase = phase;
  g_mutex_unlock (&r->lock);
}

/* The system, its integrator and frame 0, on whichever thread builds them
 * (the caller's for fx_runner_new, the solver's for fx_runner_start). */
static gboolean
runner_prepare (FxRunner *r, GError **error)
{
  r->system = fx_system_new (r->model, error);
  if (r->system == NULL)
    return FALSE;
  /* over-constrained rigid links: said with the link's name, as check does */
  if (!fx_statics_check_rigid (r->system, error))
    return FALSE;
  set_phase (r, PHASE_MATRIX);
  r->integrator = fx_integrator_new (r->system, r->model->tolerance, r->model->max_iterations);
  /* a model whose Newton matrix passes the memory limit is refused here,
   * with its size, rather than failing at the first step */
  if (!fx_integrator_prepare (r->integrator, error))
    return FALSE;
  set_phase (r, PHASE_FRAME);

  FxStepReport report;
  fx_integrator_report (r->integrator, &report);
  FxStepFrame *frame0 = fx_step_frame_new (r->system, &report, 0);
  g_mutex_lock (&r->lock);
  r->capacity = capacity_for (frame0);
  publish (r, frame0);
  r->prepared = TRUE;
  g_mutex_unlock (&r->lock);
  return TRUE;
}

static void
runner_unref (FxRunner *r)
{
  if (!g_atomic_int_dec_and_test (&r->ref))
    return;
  runner_clear_frames (r);
  g_clear_error (&r->failure);
  g_clear_error (&r->settle_error);
  g_clear_pointer (&r->integrator, fx_integrator_free);
  g_clear_pointer (&r->system, fx_system_free);
  g_clear_pointer (&r->model, fx_model_free);
  g_clear_pointer (&r->live_model, fx_model_free);
  g_clear_pointer (&r->live_models, g_ptr_array_unref);
  g_cond_clear (&r->wake);
  g_mutex_clear (&r->lock);
  g_free (r);
}

static gpointer
solver_main (gpointer data)
{
  FxRunner *r = data;

  fx_runner_lower_thread_priority ();
  /* fx_runner_free stops a long step or build through this flag */
  fx_cancel_attach (&r->cancel);

  GError *error = NULL;
  if (!r->prepared && !runner_prepare (r, &error))
    {
      g_mutex_lock (&r->lock);
      r->failure = error;
      r->quit = TRUE;
      g_mutex_unlock (&r->lock);
    }

  g_mutex_lock (&r->lock);
  while (!r->quit)
    {
      if (r->settle_asked && r->failure == NULL && r->frames.length < r->capacity)
        {
          solver_settle (r);
          continue;
        }
      if (!step_wanted (r) || r->frames.length >= r->capacity)
        {
          g_cond_wait (&r->wake, &r->lock);
          continue;
        }

      StepOrder order = take_order (r);
      error = NULL;
      r->stepping = TRUE;
      g_mutex_unlock (&r->lock);

      FxStepFrame *frame = solver_step (r, &order, &error);

      g_mutex_lock (&r->lock);
      r->stepping = FALSE;
      if (frame != NULL)
        publish (r, frame);
      else
        r->failure = error;
    }
  g_mutex_unlock (&r->lock);
  fx_cancel_attach (NULL);
  runner_unref (r);  /* the thread's hold */
  return NULL;
}

static FxRunner *
runner_alloc (const FxModel *model)
{
  FxRunner *r = g_new0 (FxRunner, 1);
  r->ref = 1;
  g_mutex_init (&r->lock);
  g_cond_init (&r->wake);
  g_queue_init (&r->frames);
  r->model = fx_model_copy (model);
  r->live_models = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_model_free);
  r->dt = r->model->dt;
  r->capacity = FX_RUNNER_MIN_FRAMES;
  return r;
}

static gboolean
runner_spawn (FxRunner *r, GError **error)
{
  g_atomic_int_inc (&r->ref);
  r->thread = g_thread_try_new ("flexion-solver", solver_main, r, error);
  if (r->thread == NULL)
    g_atomic_int_dec_and_test (&r->ref);
  return r->thread != NULL;
}

FxRunner *
fx_runner_new (const FxModel *model, GError **error)
{
  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  FxRunner *r = runner_alloc (model);
  if (!runner_prepare (r, error))
    {
      fx_runner_free (r);
      return NULL;
    }
  r->horizon = r->time;
  if (!runner_spawn (r, error))
    {
      fx_runner_free (r);
      return NULL;
    }
  return r;
}

FxRunner *
fx_runner_start (const FxModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);

  FxRunner *r = runner_alloc (model);
  g_autoptr (GError) error = NULL;
  if (!runner_spawn (r, &error))
    r->failure = g_steal_pointer (&error);  /* reported like a failed build */
  return r;
}

gboolean
fx_runner_prepared (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, FALSE);

  g_mutex_lock (&r->lock);
  gboolean prepared = r->prepared;
  g_mutex_unlock (&r->lock);
  return prepared;
}

const char *
fx_runner_phase (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  g_mutex_lock (&r->lock);
  gboolean busy = !r->prepared && r->failure == NULL;
  guint phase = r->phase;
  g_mutex_unlock (&r->lock);
  if (!busy)
    return NULL;
  switch (phase)
    {
    case PHASE_SYSTEM: return _("building the system and its causality");
    case PHASE_MATRIX: return _("analysing the Newton matrix");
    default:           return _("the first frame");
    }
}

void
fx_runner_free (FxRunner *r)
{
  if (r == NULL)
    return;

  if (r->thread != NULL)
    {
      g_mutex_lock (&r->lock);
      r->quit = TRUE;
      fx_cancel_request (&r->cancel);
      g_cond_signal (&r->wake);
      g_mutex_unlock (&r->lock);
      /* no join: a big model's step or analysis may take seconds to reach
       * its next check, and the UI must not wait for it */
      g_thread_unref (r->thread);
    }
  runner_unref (r);
}

/* ------------------------------------------------------------- commands */

void
fx_runner_settle (FxRunner *r, double t)
{
  g_return_if_fail (r != NULL && isfinite (t));

  g_mutex_lock (&r->lock);
  r->settle_asked = TRUE;
  r->settle_t = t;
  r->horizon = MIN (r->horizon, r->time);  /* stop stepping: settle next */
  g_cond_signal (&r->wake);
  g_mutex_unlock (&r->lock);
}

gboolean
fx_runner_settling (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, FALSE);

  g_mutex_lock (&r->lock);
  gboolean busy = r->settle_asked || r->settling;
  g_mutex_unlock (&r->lock);
  return busy;
}

gboolean
fx_runner_settle_failed (FxRunner *r, GError **error)
{
  g_return_val_if_fail (r != NULL, FALSE);

  g_mutex_lock (&r->lock);
  gboolean failed = r->settle_error != NULL;
  if (failed && error)
    *error = g_error_copy (r->settle_error);
  g_mutex_unlock (&r->lock);
  return failed;
}

const FxModel *
fx_runner_model (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, NULL);
  return r->model;
}

void
fx_runner_set_horizon (FxRunner *r, double t)
{
  g_return_if_fail (r != NULL && !isnan (t));

  g_mutex_lock (&r->lock);
  r->horizon = t;
  g_cond_signal (&r->wake);
  g_mutex_unlock (&r->lock);
}

double
fx_runner_horizon (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, 0.0);

  g_mutex_lock (&r->lock);
  double t = r->horizon;
  g_mutex_unlock (&r->lock);
  return t;
}

void
fx_runner_step_once (FxRunner *r)
{
  g_return_if_fail (r != NULL);

  g_mutex_lock (&r->lock);
  r->steps_asked++;
  g_cond_signal (&r->wake);
  g_mutex_unlock (&r->lock);
}

double
fx_runner_dt (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, 0.0);

  g_mutex_lock (&r->lock);
  double dt = r->dt;
  g_mutex_unlock (&r->lock);
  return dt;
}

void
fx_runner_set_dt (FxRunner *r, double dt)
{
  g_return_if_fail (r != NULL && dt > 0.0 && isfinite (dt));

  g_mutex_lock (&r->lock);
  r->dt = dt;
  g_mutex_unlock (&r->lock);
}

void
fx_runner_set_pull (FxRunner *r, guint link, double s, double target_x, double target_y)
{
  g_return_if_fail (r != NULL && link < r->model->links->len);
  g_return_if_fail (isfinite (s) && isfinite (target_x) && isfinite (target_y));

  g_mutex_lock (&r->lock);
  r->pull_active = TRUE;
  r->pull_link = link;
  r->pull_s = CLAMP (s, 0.0, 1.0);
  r->pull_target[0] = target_x;
  r->pull_target[1] = target_y;
  g_mutex_unlock (&r->lock);
}

void
fx_runner_set_live_model (FxRunner *r, const FxModel *model)
{
  g_return_if_fail (r != NULL && model != NULL);
  FxModel *copy = fx_model_copy (model);
  g_mutex_lock (&r->lock);
  g_clear_pointer (&r->live_model, fx_model_free);
  r->live_model = copy;
  g_cond_signal (&r->wake);
  g_mutex_unlock (&r->lock);
}

void
fx_runner_clear_pull (FxRunner *r)
{
  g_return_if_fail (r != NULL);

  g_mutex_lock (&r->lock);
  r->pull_active = FALSE;
  g_mutex_unlock (&r->lock);
}

/* --------------------------------------------------------------- frames */

FxStepFrame *
fx_runner_pop_frame (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  g_mutex_lock (&r->lock);
  gboolean was_full = r->frames.length >= r->capacity;
  FxStepFrame *f = g_queue_pop_head (&r->frames);
  if (f != NULL && was_full)
    g_cond_signal (&r->wake);
  g_mutex_unlock (&r->lock);
  return f;
}

guint
fx_runner_pop_all (FxRunner *r, GPtrArray *out)
{
  g_return_val_if_fail (r != NULL && out != NULL, 0);

  g_mutex_lock (&r->lock);
  guint n = r->frames.length;
  FxStepFrame *f;
  while ((f = g_queue_pop_head (&r->frames)) != NULL)
    g_ptr_array_add (out, f);
  if (n > 0)
    g_cond_signal (&r->wake);
  g_mutex_unlock (&r->lock);
  return n;
}

guint
fx_runner_n_frames (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, 0);

  g_mutex_lock (&r->lock);
  guint n = r->frames.length;
  g_mutex_unlock (&r->lock);
  return n;
}

guint
fx_runner_capacity (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, 0);

  g_mutex_lock (&r->lock);
  guint capacity = r->capacity;  /* fixed once frame 0 is made */
  g_mutex_unlock (&r->lock);
  return capacity;
}

/* -------------------------------------------------------------- queries */

double
fx_runner_time (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, 0.0);

  g_mutex_lock (&r->lock);
  double t = r->time;
  g_mutex_unlock (&r->lock);
  return t;
}

gboolean
fx_runner_is_busy (FxRunner *r)
{
  g_return_val_if_fail (r != NULL, FALSE);

  g_mutex_lock (&r->lock);
  gboolean busy = r->stepping || step_wanted (r);
  g_mutex_unlock (&r->lock);
  return busy;
}

gboolean
fx_runner_failed (FxRunner *r, GError **error)
{
  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_mutex_lock (&r->lock);
  gboolean failed = r->failure != NULL;
  if (failed && error != NULL)
    *error = g_error_copy (r->failure);
  g_mutex_unlock (&r->lock);
  return failed;
}
