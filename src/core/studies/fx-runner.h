/* fx-runner.h: the solver thread.
 *
 * A runner owns a copy of a model, the FxSystem and FxIntegrator built from
 * it, and one thread that steps them. The thread publishes one FxStepFrame
 * per step into a bounded buffer; the UI thread drains it without ever
 * waiting for the solver. The system is touched by the solver thread only:
 * every other call here is a command or a query under the runner's lock,
 * cheap enough for every UI tick.
 *
 * Pacing: the solver steps while its time is below the horizon (the UI
 * raises it as its display time advances; pausing is not raising it), and
 * waits while the buffer is full. It never waits in a busy loop.
 */
#pragma once

#include "fx-frame.h"

G_BEGIN_DECLS

/* The buffer holds at most FX_RUNNER_MAX_FRAMES frames, and fewer when
 * frames are big: as many as fit in FX_RUNNER_FRAME_BUDGET bytes, never
 * fewer than FX_RUNNER_MIN_FRAMES. */
#define FX_RUNNER_MAX_FRAMES   512u
#define FX_RUNNER_MIN_FRAMES   4u
#define FX_RUNNER_FRAME_BUDGET (256u << 20)

typedef struct _FxRunner FxRunner;

/* Copies `model` and builds its system at once, so that an invalid model or
 * a causality conflict is reported here (NULL and `error`). The buffer then
 * holds frame 0, the initial state; the thread is idle (horizon 0). */
FxRunner      *fx_runner_new         (const FxModel *model, GError **error);

/* Returns at once: the build (the system, its causality, the Newton
 * matrix's analysis: seconds to minutes for a big model) is the solver
 * thread's first work, after which the buffer holds frame 0 and the thread
 * is idle as after fx_runner_new (unless a horizon was set meanwhile).
 * While it lasts fx_runner_phase says what it does; a model that cannot
 * run (invalid, a causality conflict, past the memory limit) is reported by
 * fx_runner_failed with fx_runner_prepared still FALSE. */
FxRunner      *fx_runner_start       (const FxModel *model);
/* Whether the system is built and frame 0 published (always TRUE after
 * fx_runner_new). */
gboolean       fx_runner_prepared    (FxRunner *runner);
/* What the preparation is doing, a translated phrase ("analysing the
 * Newton matrix"); NULL once prepared or failed. */
const char    *fx_runner_phase       (FxRunner *runner);

/* Stops the thread (a step or a preparation stops within a Newton
 * iteration or a build phase: fx-cancel.h) and drops the caller's hold on
 * the runner without waiting: the thread frees it, with its unread frames,
 * when it has stopped. */
void           fx_runner_free        (FxRunner *runner);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxRunner, fx_runner_free)

/* The runner's copy of the model, never changed while the runner lives. */
const FxModel *fx_runner_model       (FxRunner *runner);

/* The solver computes steps while its time < t. */
void           fx_runner_set_horizon (FxRunner *runner, double t);
double         fx_runner_horizon     (FxRunner *runner);
/* One more step, whatever the horizon. */
void           fx_runner_step_once   (FxRunner *runner);

/* The step, s (initially the model's dt); a change applies from the next step. */
double         fx_runner_dt          (FxRunner *runner);
void           fx_runner_set_dt      (FxRunner *runner, double dt);

/* The oldest unread frame (transfer full), or NULL at once when none is
 * ready. Frames come in step order, frame 0 first. */
FxStepFrame   *fx_runner_pop_frame   (FxRunner *runner);
/* Appends every ready frame to `out` (transfer full: give `out` the free
 * function fx_step_frame_unref) and returns how many. */
guint          fx_runner_pop_all     (FxRunner *runner, GPtrArray *out);
/* Frames ready to pop, and the most the buffer holds. */
guint          fx_runner_n_frames    (FxRunner *runner);
guint          fx_runner_capacity    (FxRunner *runner);

/* The time of the solver's newest state (its newest frame's t). */
double         fx_runner_time        (FxRunner *runner);
/* Whether the solver has steps to compute (below the horizon, or a step
 * asked for): computing one, or waiting for room in the buffer. */
gboolean       fx_runner_is_busy     (FxRunner *runner);
/* Whether a step failed (the solver diverged). The thread then stops
 * stepping for good; the frames before the failure stay readable. `error`
 * (may be NULL) receives a copy of the integrator's error. */
gboolean       fx_runner_failed      (FxRunner *runner, GError **error);

/* A pull: the user drags the point at fraction s of model link `link`
 * towards (target_x, target_y). The solver holds the point with an implicit
 * drag (docs/theory.md §6, fx_system_hand_grab): a spring and damper to
 * an anchor that reaches the target at the end of each step, its stiffness
 * from the grabbed link's own mass (k = m (2 pi 2 Hz)^2, damping ratio 0.7),
 * stable for any step. The anchor's work is supplied energy, the damper's
 * dissipated, and on release the spring's energy leaves with the hand. */
void           fx_runner_set_pull    (FxRunner *runner, guint link, double s,
                                      double target_x, double target_y);
void           fx_runner_clear_pull  (FxRunner *runner);

/* Live settings: `model` differs from the run's only in values that do
 * not change the system's unknowns (gravity, load and motor magnitudes,
 * damping); the run takes them from its next step without starting over.
 * A change of H itself (gravity's potential) is booked as work supplied
 * in that step, so H_{n+1} - H_n = supplied - dissipated still holds. A
 * later call before that step replaces the earlier. fx_runner_model stays
 * the model the run started from. */
void           fx_runner_set_live_model (FxRunner *runner, const FxModel *model);

/* Settle (fx-statics.h, physics.md §14) with the loads frozen at time t,
 * on the solver thread, after the step in progress: stepping stops (the
 * horizon drops to the newest frame), unread frames are dropped and the
 * settled state is published as the next frame (at t, every velocity
 * zero, its reactions and probes), and
 * a later horizon plays on from it. A settle that fails (no equilibrium, no
 * load at t) leaves the run as it was and says why in
 * fx_runner_settle_failed; fx_runner_free stops a long one (fx-cancel.h). */
void           fx_runner_settle      (FxRunner *runner, double t);
/* Whether a settle is asked for or being computed. */
gboolean       fx_runner_settling    (FxRunner *runner);
/* Whether the last settle failed, with a copy of its error (may be NULL). */
gboolean       fx_runner_settle_failed (FxRunner *runner, GError **error);
/* Lowers the calling thread's scheduling priority (nice +10 on Linux), so
 * that a worker (the solver thread, an export) gives way to the UI thread
 * on a busy machine. The solver thread does this itself. */
void           fx_runner_lower_thread_priority (void);

G_END_DECLS
