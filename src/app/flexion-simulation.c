/* flexion-simulation.c */
#include "flexion-simulation.h"
#include "fx-deflection.h"
#include "fx-model-io.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

struct _FlexionSimulation {
  GObject parent_instance;

  FxModel *model;        /* what a run starts from          */
  FxRunner *runner;      /* NULL: no run                    */
  GQueue pending;        /* FxStepFrame*: taken, not yet due */
  FxStepFrame *frame;    /* on screen                       */
  FxSeries *series;
  FxTrails *trails;
  double moment_range;
  /* the largest moment over the links whose gauges hold (no link_warning):
   * a floating-frame blade that runs away to 1e8 N m would otherwise turn
   * every other link grey, in the run and its replay (issue 32) */
  double sane_range;
  GArray *warn_since;    /* double per link: t its warning came on; NaN: never */
  double deflection_max; /* m, the largest seen in the run */
  double deflection_ratio; /* the largest over its link's length (fx_deflection_max_ratio) */

  /* replay: every shown frame is kept (thinned to every stride-th step
   * beyond the memory budget), so the run can be scrubbed and replayed
   * without recomputing */
  GPtrArray *history;    /* FxStepFrame*, in time order */
  gsize history_bytes;
  guint history_stride;  /* keep frames whose step is a multiple of this */
  int replay;            /* index into history on screen; -1: live */

  gboolean playing;
  gboolean preparing;    /* the runner builds its solver (a big model) */
  gboolean step_pending;
  double display_time;   /* s of simulated time on screen   */
  gint64 last_tick;      /* us; 0: none since play          */
  double speed;          /* simulated s per wall s          */
  double dt;             /* 0: the model's                  */

  /* the speed achieved on screen: simulated s per wall s over the last
   * half second or more of play (0: not measured yet) */
  double achieved;
  gint64 measure_wall;   /* us at the reference; 0: none    */
  double measure_t;      /* frame time at the reference     */
};

G_DEFINE_FINAL_TYPE (FlexionSimulation, flexion_simulation, G_TYPE_OBJECT)

enum { PROP_0, PROP_PLAYING, PROP_RUNNING, PROP_PREPARING, PROP_TIME, PROP_SPEED, PROP_DT, N_PROPS };
enum { FRAME, FAILED, CANNOT_RUN, N_SIGNALS };
static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

#define TRAIL_POINTS 400
#define HISTORY_BUDGET (256u << 20)  /* bytes of recorded frames */

/* Models up to this size (elements plus links) have their solver prepared
 * at once, in milliseconds, and a failure answers Play itself; bigger ones
 * on the solver thread (fx_runner_start: seconds to minutes for 10^5 to
 * 10^6 elements), the UI staying responsive, with "preparing" set. */
#define PREPARE_AT_ONCE_SIZE 20000

static void show_recorded (FlexionSimulation *sim, guint i);

static void
clear_run (FlexionSimulation *sim)
{
  g_clear_pointer (&sim->runner, fx_runner_free);
  g_queue_clear_full (&sim->pending, (GDestroyNotify) fx_step_frame_unref);
  g_clear_pointer (&sim->frame, fx_step_frame_unref);
  fx_series_clear (sim->series);
  g_clear_pointer (&sim->trails, fx_trails_free);
  sim->moment_range = 0;
  sim->sane_range = 0;
  if (sim->warn_since)
    g_array_set_size (sim->warn_since, 0);
  sim->deflection_max = 0;
  sim->deflection_ratio = 0;
  if (sim->history)
    g_ptr_array_set_size (sim->history, 0);
  sim->history_bytes = 0;
  sim->history_stride = 1;
  sim->replay = -1;
  sim->display_time = 0;
  sim->step_pending = FALSE;
  sim->last_tick = 0;
}

static void
set_preparing (FlexionSimulation *sim, gboolean preparing)
{
  if (sim->preparing == preparing)
    return;
  sim->preparing = preparing;
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_PREPARING]);
}

static void
set_playing (FlexionSimulation *sim, gboolean playing)
{
  if (sim->playing == playing)
    return;
  sim->playing = playing;
  sim->last_tick = 0;
  sim->measure_wall = 0;
  sim->achieved = 0;
  if (sim->runner && !playing)
    fx_runner_set_horizon (sim->runner, fx_runner_time (sim->runner));
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_PLAYING]);
}

static void
flexion_simulation_finalize (GObject *object)
{
  FlexionSimulation *sim = FLEXION_SIMULATION (object);
  sim->preparing = FALSE;
  clear_run (sim);
  fx_series_free (sim->series);
  g_clear_pointer (&sim->model, fx_model_free);
  g_clear_pointer (&sim->history, g_ptr_array_unref);
  g_clear_pointer (&sim->warn_since, g_array_unref);
  G_OBJECT_CLASS (flexion_simulation_parent_class)->finalize (object);
}

static void
flexion_simulation_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  FlexionSimulation *sim = FLEXION_SIMULATION (object);
  switch (id)
    {
    case PROP_PLAYING: g_value_set_boolean (value, sim->playing); break;
    case PROP_RUNNING: g_value_set_boolean (value, sim->runner != NULL); break;
    case PROP_PREPARING: g_value_set_boolean (value, sim->preparing); break;
    case PROP_TIME: g_value_set_double (value, flexion_simulation_get_time (sim)); break;
    case PROP_SPEED: g_value_set_double (value, sim->speed); break;
    case PROP_DT: g_value_set_double (value, flexion_simulation_get_dt (sim)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
flexion_simulation_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  FlexionSimulation *sim = FLEXION_SIMULATION (object);
  switch (id)
    {
    case PROP_SPEED: flexion_simulation_set_speed (sim, g_value_get_double (value)); break;
    case PROP_DT: flexion_simulation_set_dt (sim, g_value_get_double (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
flexion_simulation_class_init (FlexionSimulationClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  oc->finalize = flexion_simulation_finalize;
  oc->get_property = flexion_simulation_get_property;
  oc->set_property = flexion_simulation_set_property;

  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, FALSE, ro);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  properties[PROP_PREPARING] = g_param_spec_boolean ("preparing", NULL, NULL, FALSE, ro);
  properties[PROP_TIME] = g_param_spec_double ("time", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  properties[PROP_SPEED] = g_param_spec_double ("speed", NULL, NULL, 0.1, 10, 1, rw);
  properties[PROP_DT] = g_param_spec_double ("dt", NULL, NULL, 0, 1, 0.01, rw);
  g_object_class_install_properties (oc, N_PROPS, properties);

  /* a new frame is on screen */
  signals[FRAME] = g_signal_new ("frame", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* the solver failed: the message says when and why; the run is paused */
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* a big model's solver could not be prepared (invalid, a causality
   * conflict, too large): the error Play gives for a small one; no run */
  signals[CANNOT_RUN] = g_signal_new ("cannot-run", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
flexion_simulation_init (FlexionSimulation *sim)
{
  g_queue_init (&sim->pending);
  sim->series = fx_series_new ();
  sim->speed = 1;
  sim->model = fx_model_new ();
  sim->history = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  sim->warn_since = g_array_new (FALSE, FALSE, sizeof (double));
  sim->history_stride = 1;
  sim->replay = -1;
}

FlexionSimulation *
flexion_simulation_new (void)
{
  return g_object_new (FLEXION_TYPE_SIMULATION, NULL);
}

void
flexion_simulation_set_model (FlexionSimulation *sim, const FxModel *model)
{
  gboolean had_run = sim->runner != NULL;
  set_playing (sim, FALSE);
  clear_run (sim);
  set_preparing (sim, FALSE);
  fx_model_free (sim->model);
  sim->model = fx_model_copy (model);
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_DT]);
  if (had_run)
    {
      g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_RUNNING]);
      g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_TIME]);
      g_signal_emit (sim, signals[FRAME], 0);
    }
}

/* `next` with its live settings (time step, gravity, load and motor
 * magnitudes, damping) taken from `now`; NULL when the two differ in how
 * many loads, motors, springs or links they have. */
static FxModel *
without_live_changes (const FxModel *now, const FxModel *next)
{
  if (now->loads->len != next->loads->len || now->motors->len != next->motors->len
      || now->springs->len != next->springs->len || now->links->len != next->links->len)
    return NULL;
  FxModel *same = fx_model_copy (next);
  same->dt = now->dt;
  same->gravity[0] = now->gravity[0];
  same->gravity[1] = now->gravity[1];
  for (guint i = 0; i < now->loads->len; i++)
    {
      fx_model_load (same, i)->force[0] = fx_model_load (now, i)->force[0];
      fx_model_load (same, i)->force[1] = fx_model_load (now, i)->force[1];
      fx_model_load (same, i)->moment = fx_model_load (now, i)->moment;
    }
  for (guint i = 0; i < now->motors->len; i++)
    fx_model_motor (same, i)->value = fx_model_motor (now, i)->value;
  for (guint i = 0; i < now->springs->len; i++)
    fx_model_spring (same, i)->damping = fx_model_spring (now, i)->damping;
  for (guint i = 0; i < now->links->len; i++)
    {
      fx_model_link (same, i)->damping = fx_model_link (now, i)->damping;
      fx_model_link (same, i)->rotational_damping = fx_model_link (now, i)->rotational_damping;
    }
  return same;
}

/* Whether `next` differs from `now` only in settings a run takes from its
 * next step on (flexion_simulation_update_model). */
static gboolean
only_live_changes (const FxModel *now, const FxModel *next)
{
  g_autoptr (FxModel) same = without_live_changes (now, next);
  if (same == NULL)
    return FALSE;
  g_autofree char *a = fx_model_to_data (same, NULL);
  g_autofree char *b = fx_model_to_data (now, NULL);
  return g_strcmp0 (a, b) == 0;
}

gboolean
flexion_simulation_update_model (FlexionSimulation *sim, const FxModel *model)
{
  if (sim->runner == NULL || fx_runner_failed (sim->runner, NULL)
      || !only_live_changes (sim->model, model))
    {
      flexion_simulation_set_model (sim, model);
      return FALSE;
    }
  double dt = model->dt;
  /* anything but the time step goes to the solver as a new system */
  g_autoptr (FxModel) dt_only = fx_model_copy (model);
  dt_only->dt = sim->model->dt;
  g_autofree char *a = fx_model_to_data (dt_only, NULL);
  g_autofree char *b = fx_model_to_data (sim->model, NULL);
  if (g_strcmp0 (a, b) != 0)
    fx_runner_set_live_model (sim->runner, model);
  fx_model_free (sim->model);
  sim->model = fx_model_copy (model);
  if (dt != fx_runner_dt (sim->runner))
    {
      sim->dt = dt;
      fx_runner_set_dt (sim->runner, dt);
      g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_DT]);
    }
  return TRUE;
}

/* Elements plus links: what the build and the matrix analysis grow with. */
static guint64
model_size (const FxModel *model)
{
  guint64 n = model->links->len;
  for (guint l = 0; l < model->links->len; l++)
    n += fx_model_link (model, l)->elements;
  return n;
}

static gboolean
ensure_runner (FlexionSimulation *sim, GError **error)
{
  if (sim->runner)
    return TRUE;
  if (sim->model->links->len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Draw at least one link before running"));
      return FALSE;
    }
  if (model_size (sim->model) <= PREPARE_AT_ONCE_SIZE)
    {
      sim->runner = fx_runner_new (sim->model, error);
      if (sim->runner == NULL)
        return FALSE;
    }
  else
    sim->runner = fx_runner_start (sim->model);
  if (sim->dt > 0)
    fx_runner_set_dt (sim->runner, sim->dt);
  sim->trails = fx_trails_new (sim->model->probes->len, TRAIL_POINTS);
  g_autofree const char **ids = g_new0 (const char *, sim->model->probes->len + 1);
  for (guint p = 0; p < sim->model->probes->len; p++)
    ids[p] = fx_model_probe (sim->model, p)->id;
  fx_series_set_probes (sim->series, sim->model->probes->len, ids);
  fx_series_set_supports (sim->series, sim->model);
  sim->display_time = 0;
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_RUNNING]);
  set_preparing (sim, !fx_runner_prepared (sim->runner));
  return TRUE;
}

gboolean
flexion_simulation_play (FlexionSimulation *sim, GError **error)
{
  if (!ensure_runner (sim, error))
    return FALSE;
  if (fx_runner_failed (sim->runner, NULL) && sim->replay < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The solver stopped on this run; press Reset to start again"));
      return FALSE;
    }
  if (sim->replay >= 0)
    sim->display_time = sim->frame->t;
  set_playing (sim, TRUE);
  return TRUE;
}

void
flexion_simulation_pause (FlexionSimulation *sim)
{
  set_playing (sim, FALSE);
}

gboolean
flexion_simulation_step (FlexionSimulation *sim, GError **error)
{
  set_playing (sim, FALSE);
  if (!ensure_runner (sim, error))
    return FALSE;
  if (sim->replay >= 0)
    {
      show_recorded (sim, sim->replay + 1);
      return TRUE;
    }
  if (fx_runner_failed (sim->runner, NULL))
    return TRUE;  /* nothing more to compute; the toast was shown already */
  fx_runner_step_once (sim->runner);
  sim->step_pending = TRUE;
  return TRUE;
}

gboolean
flexion_simulation_cancel (FlexionSimulation *sim)
{
  if (!sim->preparing)
    return FALSE;
  flexion_simulation_reset (sim);
  return TRUE;
}

gboolean
flexion_simulation_get_preparing (FlexionSimulation *sim)
{
  return sim->preparing;
}

const char *
flexion_simulation_get_phase (FlexionSimulation *sim)
{
  return sim->preparing ? fx_runner_phase (sim->runner) : NULL;
}

void
flexion_simulation_reset (FlexionSimulation *sim)
{
  set_playing (sim, FALSE);
  clear_run (sim);
  set_preparing (sim, FALSE);
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_RUNNING]);
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_TIME]);
  g_signal_emit (sim, signals[FRAME], 0);
}

gboolean
flexion_simulation_get_playing (FlexionSimulation *sim)
{
  return sim->playing;
}

gboolean
flexion_simulation_get_running (FlexionSimulation *sim)
{
  return sim->runner != NULL;
}

gboolean
flexion_simulation_wants_ticks (FlexionSimulation *sim)
{
  return sim->runner != NULL && (sim->playing || sim->step_pending || sim->pending.length > 0
                                 || sim->frame == NULL);
}

static gsize
frame_bytes (const FxStepFrame *f)
{
  return fx_step_frame_bytes (f);
}

/* Keeps `frame` for replay; beyond the budget, every other frame goes and
 * later ones are kept at twice the stride, so a long run still replays
 * from start to end, more coarsely. */
static void
record_frame (FlexionSimulation *sim, FxStepFrame *frame)
{
  if (frame->step % sim->history_stride != 0 && frame->step > 0)
    return;
  g_ptr_array_add (sim->history, fx_step_frame_ref (frame));
  sim->history_bytes += frame_bytes (frame);
  if (sim->history_bytes <= HISTORY_BUDGET || sim->history->len < 4)
    return;
  GPtrArray *thinned = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  sim->history_bytes = 0;
  for (guint i = 0; i < sim->history->len; i++)
    if (i % 2 == 0 || i == sim->history->len - 1)
      {
        FxStepFrame *f = sim->history->pdata[i];
        g_ptr_array_add (thinned, fx_step_frame_ref (f));
        sim->history_bytes += frame_bytes (f);
      }
  g_ptr_array_unref (sim->history);
  sim->history = thinned;
  sim->history_stride *= 2;
}

/* The run's warnings, per link: when each came on, and the moment range
 * of the links that still make sense. */
static void
note_warnings (FlexionSimulation *sim, const FxStepFrame *f)
{
  if (sim->warn_since->len < f->n_links)
    {
      guint old = sim->warn_since->len;
      g_array_set_size (sim->warn_since, f->n_links);
      for (guint l = old; l < f->n_links; l++)
        g_array_index (sim->warn_since, double, l) = NAN;
    }
  for (guint l = 0; l < f->n_links; l++)
    {
      gboolean warned = f->link_warning && f->link_warning[l];
      double *since = &g_array_index (sim->warn_since, double, l);
      if (warned && isnan (*since))
        *since = f->t;
      if (warned)
        continue;
      for (guint n = f->node_offset[l]; n < f->node_offset[l + 1]; n++)
        if (isfinite (f->moment[n]))
          sim->sane_range = MAX (sim->sane_range, fabs (f->moment[n]));
    }
}

double
flexion_simulation_get_warning_since (FlexionSimulation *sim, guint link)
{
  return link < sim->warn_since->len ? g_array_index (sim->warn_since, double, link) : NAN;
}

/* Show `frame` (taking it) and record it in the series, trails and history. */
static void
show_frame (FlexionSimulation *sim, FxStepFrame *frame)
{
  record_frame (sim, frame);
  fx_series_add (sim->series, frame);
  if (sim->trails)
    fx_trails_add (sim->trails, frame);
  if (isfinite (frame->moment_max_abs))
    sim->moment_range = MAX (sim->moment_range, frame->moment_max_abs);
  note_warnings (sim, frame);
  sim->deflection_max = MAX (sim->deflection_max, fx_deflection_max (sim->model, frame));
  sim->deflection_ratio = MAX (sim->deflection_ratio, fx_deflection_max_ratio (sim->model, frame));
  g_clear_pointer (&sim->frame, fx_step_frame_unref);
  sim->frame = frame;
}

/* Shows recorded frame i (the newest: back to live). */
static void
show_recorded (FlexionSimulation *sim, guint i)
{
  i = MIN (i, sim->history->len - 1);
  sim->replay = i + 1 < sim->history->len ? (int) i : -1;
  FxStepFrame *f = sim->history->pdata[i];
  if (f != sim->frame)
    {
      g_clear_pointer (&sim->frame, fx_step_frame_unref);
      sim->frame = fx_step_frame_ref (f);
    }
  sim->display_time = f->t;
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_TIME]);
  g_signal_emit (sim, signals[FRAME], 0);
}

/* A replaying tick: the recorded frame due at display time. TRUE while
 * still replaying; FALSE once the end is reached, where the run goes on
 * computing in the same tick. */
static gboolean
replay_tick (FlexionSimulation *sim)
{
  guint i = (guint) sim->replay;
  while (i + 1 < sim->history->len
         && ((FxStepFrame *) sim->history->pdata[i + 1])->t <= sim->display_time)
    i++;
  double t = sim->display_time;
  if (i != (guint) sim->replay)
    show_recorded (sim, i);
  sim->display_time = t;
  return sim->replay >= 0;
}

/* The link that ran away by the last frame computed: the one reaching
 * farthest from where the rest of the mechanism is, and why it likely did
 * (issue 32: the stop blamed the loads when a floating-frame blade, which
 * leaves out geometric stiffening, diverged as its model must); explained:
 * the cause is known. NULL when no link stands out. */
static char *
runaway_note (FlexionSimulation *sim, const FxStepFrame *f, gboolean *explained)
{
  *explained = FALSE;
  int worst = -1;
  double far = 0;
  for (guint l = 0; l < f->n_links && l < sim->model->links->len; l++)
    for (guint n = f->node_offset[l]; n < f->node_offset[l + 1]; n++)
      {
        double d = isfinite (f->x[n]) && isfinite (f->y[n]) ? hypot (f->x[n], f->y[n]) : INFINITY;
        if (d > far)
          far = d, worst = (int) l;
      }
  if (worst < 0)
    return NULL;
  const FxLink *link = fx_model_link (sim->model, (guint) worst);
  double since = flexion_simulation_get_warning_since (sim, (guint) worst);
  if (link->kind == FX_LINK_FLOATING_FRAME)
    {
      g_autofree char *gamma = f->link_gamma ? g_strdup_printf (", \u03b3 = %.2g", f->link_gamma[worst])
                                             : g_strdup ("");
      *explained = TRUE;
      if (!isnan (since))
        return g_strdup_printf (_("Link %s ran away: it is a floating-frame link, which leaves out "
                                  "geometric stiffening (its warning held from t = %.3g s%s). "
                                  "Make it geometrically exact to follow it further."),
                                link->id, since, gamma);
      return g_strdup_printf (_("Link %s ran away: it is a floating-frame link, which leaves out "
                                "geometric stiffening%s. Make it geometrically exact to follow it further."),
                              link->id, gamma);
    }
  return g_strdup_printf (_("Link %s ran away first: are its loads or motors far too large, or "
                            "the time step too long?"), link->id);
}

static void
check_failure (FlexionSimulation *sim)
{
  g_autoptr (GError) error = NULL;
  if (!fx_runner_failed (sim->runner, &error) || fx_runner_n_frames (sim->runner) > 0
      || sim->pending.length > 0)
    return;
  if (!sim->playing && !sim->step_pending)
    return;
  sim->step_pending = FALSE;
  set_playing (sim, FALSE);
  g_autofree char *message = flexion_stop_message (sim->frame ? sim->frame->t : 0.0, error);
  gboolean explained = FALSE;
  g_autofree char *culprit = sim->frame ? runaway_note (sim, sim->frame, &explained) : NULL;
  if (explained)
    {
      /* the integrator's guess at the loads, a question in brackets at
       * the end, would mislead */
      char *q = g_strrstr (message, " (");
      if (q && g_str_has_suffix (q, "?)"))
        q[0] = '.', q[1] = '\0';
    }
  if (culprit)
    {
      g_autofree char *both = g_strdup_printf ("%s\n%s", message, culprit);
      g_signal_emit (sim, signals[FAILED], 0, both);
    }
  else
    g_signal_emit (sim, signals[FAILED], 0, message);
}

char *
flexion_stop_message (double t, const GError *error)
{
  const char *why = error ? error->message : _("unknown error");

  /* the integrator's messages say when ("solver failed at t = ..."): say
   * it once, as a sentence */
  if (strstr (why, " at t = ") != NULL)
    {
      g_autofree char *first = g_utf8_strup (why, g_utf8_next_char (why) - why);
      return g_strconcat (first, g_utf8_next_char (why), NULL);
    }
  return g_strdup_printf (_("The solver stopped at t = %.4g s: %s"), t, why);
}

/* The achieved speed: simulated time shown per wall second, measured over
 * windows of at least half a second (a new measurement replaces the last). */
#define MEASURE_WINDOW_US 500000

static void
measure_speed (FlexionSimulation *sim, gint64 frame_time)
{
  if (sim->measure_wall == 0 || sim->frame->t < sim->measure_t)
    {
      sim->measure_wall = frame_time;
      sim->measure_t = sim->frame->t;
      return;
    }
  gint64 elapsed = frame_time - sim->measure_wall;
  if (elapsed < MEASURE_WINDOW_US)
    return;
  sim->achieved = (sim->frame->t - sim->measure_t) / (elapsed / 1e6);
  sim->measure_wall = frame_time;
  sim->measure_t = sim->frame->t;
}

/* While the solver is prepared: FALSE until it is. A failure ends the
 * run that never started and is said as Play says it for a small model. */
static gboolean
preparation_done (FlexionSimulation *sim)
{
  g_autoptr (GError) error = NULL;
  if (fx_runner_prepared (sim->runner))
    {
      set_preparing (sim, FALSE);
      return TRUE;
    }
  if (!fx_runner_failed (sim->runner, &error))
    return FALSE;
  g_object_ref (sim);
  flexion_simulation_reset (sim);
  g_signal_emit (sim, signals[CANNOT_RUN], 0, error);
  g_object_unref (sim);
  return FALSE;
}

void
flexion_simulation_tick (FlexionSimulation *sim, gint64 frame_time)
{
  if (sim->runner == NULL || (sim->preparing && !preparation_done (sim)))
    return;
  double dt = fx_runner_dt (sim->runner);

  if (sim->playing)
    {
      double wall = sim->last_tick ? (frame_time - sim->last_tick) / 1e6 : 0;
      sim->last_tick = frame_time;
      /* a stalled clock (window hidden, debugger) must not make a jump */
      wall = CLAMP (wall, 0, 0.1);
      sim->display_time += wall * sim->speed;
      if (sim->replay >= 0 && replay_tick (sim))
        return;
      double lookahead = MAX (0.15 * sim->speed, 3 * dt);
      fx_runner_set_horizon (sim->runner, sim->display_time + lookahead);
    }

  g_autoptr (GPtrArray) ready = g_ptr_array_new ();
  fx_runner_pop_all (sim->runner, ready);
  for (guint i = 0; i < ready->len; i++)
    g_queue_push_tail (&sim->pending, ready->pdata[i]);

  gboolean shown = FALSE;
  while (sim->pending.length > 0 && sim->replay < 0)
    {
      FxStepFrame *next = g_queue_peek_head (&sim->pending);
      gboolean due = sim->frame == NULL || sim->step_pending
                     || next->t <= sim->display_time + 1e-9 * MAX (1, fabs (next->t));
      if (!due)
        break;
      show_frame (sim, g_queue_pop_head (&sim->pending));
      shown = TRUE;
      if (sim->step_pending && sim->frame->step > 0)
        {
          sim->step_pending = FALSE;
          sim->display_time = sim->frame->t;
        }
    }
  /* the solver is behind: let the display wait for it, not run away */
  if (sim->playing && sim->frame && sim->pending.length == 0
      && sim->display_time > sim->frame->t + 2 * dt)
    sim->display_time = sim->frame->t + 2 * dt;

  if (sim->playing && sim->frame && sim->replay < 0)
    measure_speed (sim, frame_time);
  if (shown)
    {
      g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_TIME]);
      g_signal_emit (sim, signals[FRAME], 0);
    }
  check_failure (sim);
}

/* ---- replay ---- */

guint
flexion_simulation_get_n_recorded (FlexionSimulation *sim)
{
  return sim->history->len;
}

const FxStepFrame *
flexion_simulation_get_recorded (FlexionSimulation *sim, guint i)
{
  return i < sim->history->len ? sim->history->pdata[i] : NULL;
}

double
flexion_simulation_get_recorded_end (FlexionSimulation *sim)
{
  return sim->history->len ? ((FxStepFrame *) sim->history->pdata[sim->history->len - 1])->t : 0;
}

GPtrArray *
flexion_simulation_dup_recorded (FlexionSimulation *sim)
{
  GPtrArray *copy = g_ptr_array_new_full (sim->history->len, (GDestroyNotify) fx_step_frame_unref);
  for (guint i = 0; i < sim->history->len; i++)
    g_ptr_array_add (copy, fx_step_frame_ref (sim->history->pdata[i]));
  return copy;
}

gboolean
flexion_simulation_get_replaying (FlexionSimulation *sim)
{
  return sim->replay >= 0;
}

void
flexion_simulation_seek (FlexionSimulation *sim, double t)
{
  if (sim->history->len == 0)
    return;
  set_playing (sim, FALSE);
  /* the last recorded frame not after t */
  guint lo = 0, hi = sim->history->len;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (((FxStepFrame *) sim->history->pdata[mid])->t <= t)
        lo = mid;
      else
        hi = mid;
    }
  show_recorded (sim, lo);
}

FxStepFrame *
flexion_simulation_get_frame (FlexionSimulation *sim)
{
  return sim->frame;
}

double
flexion_simulation_get_time (FlexionSimulation *sim)
{
  return sim->frame ? sim->frame->t : 0;
}

const FxSeries *
flexion_simulation_get_series (FlexionSimulation *sim)
{
  return sim->series;
}

const FxTrails *
flexion_simulation_get_trails (FlexionSimulation *sim)
{
  return sim->trails;
}

double
flexion_simulation_get_moment_range (FlexionSimulation *sim)
{
  return sim->sane_range > 0 ? sim->sane_range : sim->moment_range;
}

double
flexion_simulation_get_deflection_ratio (FlexionSimulation *sim)
{
  return sim->deflection_ratio;
}

double
flexion_simulation_get_deflection_max (FlexionSimulation *sim)
{
  return sim->deflection_max;
}

double
flexion_simulation_get_achieved_speed (FlexionSimulation *sim)
{
  return sim->playing ? sim->achieved : 0.0;
}

/* The solver part of the bar: Newton's work on the step on screen, the
 * substep level when above 0, and, while playing, the speed measured on
 * screen, saying so when the solver cannot keep up with real time. */
char *
flexion_simulation_describe_solver (FlexionSimulation *sim)
{
  const FxStepFrame *f = sim->frame;
  GString *s = g_string_new (NULL);

  if (f == NULL || f->step == 0)
    return g_string_free (s, FALSE);
  g_string_printf (s, _("Newton %u (%u factorisations) · residual %.1e"), f->report.newton_iters,
                   f->report.factorisations, f->report.residual);
  if (f->report.level > 0)
    g_string_append_printf (s, _(" · substep level %u (%u substeps)"), f->report.level,
                            f->report.substeps);
  double achieved = flexion_simulation_get_achieved_speed (sim);
  if (achieved > 0 && achieved < 0.9 * MIN (sim->speed, 1.0))
    g_string_append_printf (s, _(" · slower than real time (%.2g×)"), achieved);
  else if (achieved > 0)
    g_string_append_printf (s, " · %.2g×", achieved);
  return g_string_free (s, FALSE);
}

double
flexion_simulation_get_speed (FlexionSimulation *sim)
{
  return sim->speed;
}

void
flexion_simulation_set_speed (FlexionSimulation *sim, double speed)
{
  speed = CLAMP (speed, 0.1, 10);
  if (speed == sim->speed)
    return;
  sim->speed = speed;
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_SPEED]);
}

double
flexion_simulation_get_dt (FlexionSimulation *sim)
{
  if (sim->runner)
    return fx_runner_dt (sim->runner);
  return sim->dt > 0 ? sim->dt : sim->model->dt;
}

void
flexion_simulation_set_dt (FlexionSimulation *sim, double dt)
{
  if (!(dt > 0) || dt == flexion_simulation_get_dt (sim))
    return;
  sim->dt = dt;
  if (sim->runner)
    fx_runner_set_dt (sim->runner, dt);
  g_object_notify_by_pspec (G_OBJECT (sim), properties[PROP_DT]);
}

void
flexion_simulation_set_pull (FlexionSimulation *sim, guint link, double s, double x, double y)
{
  if (sim->runner)
    fx_runner_set_pull (sim->runner, link, s, x, y);
}

void
flexion_simulation_clear_pull (FlexionSimulation *sim)
{
  if (sim->runner)
    fx_runner_clear_pull (sim->runner);
}
