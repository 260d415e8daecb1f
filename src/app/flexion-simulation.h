/* flexion-simulation.h: a run of the drawn model, paced by the frame clock.
 *
 * Wraps FxRunner (the solver thread). The window calls tick() on every
 * frame-clock tick while playing: the display time advances by the wall time
 * times the speed, the solver's horizon is kept a little ahead, and ready
 * frames are taken without waiting. The frame shown is the newest one not
 * ahead of the display time; when the solver is slower than that, the
 * display waits for it (slow motion) instead of the UI waiting.
 */
#pragma once

#include <glib-object.h>
#include "fx-runner.h"
#include "fx-series.h"
#include "fx-scene.h"

G_BEGIN_DECLS

#define FLEXION_TYPE_SIMULATION (flexion_simulation_get_type ())
G_DECLARE_FINAL_TYPE (FlexionSimulation, flexion_simulation, FLEXION, SIMULATION, GObject)

FlexionSimulation *flexion_simulation_new          (void);

/* The model the next run starts from (copied); resets any run. */
void               flexion_simulation_set_model    (FlexionSimulation *sim, const FxModel *model);

/* A new version of the model during a run: when it differs only in what
 * a run can take from its next step (time step, gravity, load and motor
 * magnitudes, link and spring damping), the run goes on with
 * it and TRUE is returned; otherwise as set_model (the run is reset) and
 * FALSE. Reset then starts from the new model either way. */
gboolean           flexion_simulation_update_model (FlexionSimulation *sim, const FxModel *model);

/* Starts or resumes. FALSE with `error` when the model cannot be built
 * (invalid, or a causality conflict). */
gboolean           flexion_simulation_play         (FlexionSimulation *sim, GError **error);
void               flexion_simulation_pause        (FlexionSimulation *sim);
/* One step (pausing first); the frame arrives on a later tick. */
gboolean           flexion_simulation_step         (FlexionSimulation *sim, GError **error);
/* Back to the drawn model: no run, no frames, empty series. */
void               flexion_simulation_reset        (FlexionSimulation *sim);
/* While a big model's solver is prepared ("preparing", below): stops it
 * and returns to the drawn model (TRUE); otherwise does nothing (FALSE). */
gboolean           flexion_simulation_cancel       (FlexionSimulation *sim);
/* Whether a run's solver is being prepared on the solver thread (a model
 * of more than 20,000 elements and links; smaller ones are prepared within
 * Play). Ticks go on meanwhile; a failure is signalled by "cannot-run"
 * (a GError, as Play's). */
gboolean           flexion_simulation_get_preparing (FlexionSimulation *sim);
/* What the preparation does now (fx_runner_phase), or NULL. */
const char        *flexion_simulation_get_phase    (FlexionSimulation *sim);

gboolean           flexion_simulation_get_playing  (FlexionSimulation *sim);
/* Whether a run exists (played or stepped since the last reset). */
gboolean           flexion_simulation_get_running  (FlexionSimulation *sim);
/* Whether a tick would do something (playing, or a step on its way). */
gboolean           flexion_simulation_wants_ticks  (FlexionSimulation *sim);

/* Called on each frame-clock tick, with the frame time in microseconds. */
void               flexion_simulation_tick         (FlexionSimulation *sim, gint64 frame_time);

/* The frame on screen, or NULL before a run. */
FxStepFrame       *flexion_simulation_get_frame    (FlexionSimulation *sim);
double             flexion_simulation_get_time     (FlexionSimulation *sim);
const FxSeries    *flexion_simulation_get_series   (FlexionSimulation *sim);
const FxTrails    *flexion_simulation_get_trails   (FlexionSimulation *sim);
/* The moment range the colours use: the largest |M| seen in the run so far
 * (stable, so colours do not flicker from frame to frame); 0 before a run. */
double             flexion_simulation_get_moment_range (FlexionSimulation *sim);
/* The largest link deflection relative to its rigid motion seen in the run
 * so far (fx_deflection_max), m; 0 before a run. Only grows, so an "auto"
 * deflection scale settles instead of pumping with the vibration. */
double             flexion_simulation_get_deflection_max (FlexionSimulation *sim);
/* The same over its link's length (fx_deflection_max_ratio), the largest so far. */
double             flexion_simulation_get_deflection_ratio (FlexionSimulation *sim);

/* Replay. Every computed frame of the run is kept (thinned to every
 * second, fourth ... step past a memory budget): seek shows the last kept
 * frame not after t (pausing); play from there replays the kept frames at
 * the speed and goes on computing from the end; step shows the next kept
 * frame. */
guint              flexion_simulation_get_n_recorded   (FlexionSimulation *sim);
const FxStepFrame *flexion_simulation_get_recorded     (FlexionSimulation *sim, guint i);
/* The time of the newest computed frame shown, s; 0 before a run. */
double             flexion_simulation_get_recorded_end (FlexionSimulation *sim);
/* A copy of the kept frames (new references), for an export to draw. */
GPtrArray         *flexion_simulation_dup_recorded     (FlexionSimulation *sim);
/* Whether a kept frame before the newest is on screen. */
gboolean           flexion_simulation_get_replaying    (FlexionSimulation *sim);
void               flexion_simulation_seek             (FlexionSimulation *sim, double t);
/* When link's small-deformation warning first held in this run (s), NaN
 * if never: the badge and the stop message say it from then on. */
double             flexion_simulation_get_warning_since (FlexionSimulation *sim, guint link);

double             flexion_simulation_get_speed    (FlexionSimulation *sim);
/* Simulated seconds per wall second achieved on screen (0 while paused or
 * not yet measured): below the requested speed when the solver is slower. */
double             flexion_simulation_get_achieved_speed (FlexionSimulation *sim);
/* "Newton 3 (3 factorisations) · residual 1e-13 · 0.2×...": the bar's solver
 * text for the frame on screen ("" before the first step). */
char              *flexion_simulation_describe_solver (FlexionSimulation *sim);
void               flexion_simulation_set_speed    (FlexionSimulation *sim, double speed);
double             flexion_simulation_get_dt       (FlexionSimulation *sim);
void               flexion_simulation_set_dt       (FlexionSimulation *sim, double dt);

/* The hand pull of a point during a run (fx_runner_set_pull). */
void               flexion_simulation_set_pull     (FlexionSimulation *sim, guint link, double s,
                                                    double x, double y);
void               flexion_simulation_clear_pull   (FlexionSimulation *sim);

/* The sentence a solver stop shows: the engine's message, which says when,
 * or "The solver stopped at t = ...: why" for one that does not. */
char *flexion_stop_message (double t, const GError *error);

G_END_DECLS
