/* test-runner.c: the solver thread and its frames.
 *
 * - frames of the undeformed model (node counts, joints, probes, unfinished
 *   models) and frame 0 of a runner against both it and a system built here;
 * - a four-bar run to a horizon: frames in order, steps consecutive, the
 *   energy balance of every step, the steps identical to stepping here;
 * - step_once and set_dt; the buffer bound (the solver stops when full and
 *   goes on when drained); freeing while running or blocked;
 * - a pull: positive supplied work, balance kept, the point follows;
 * - failures: a diverging solver, a causality conflict;
 * - a runner prepared on its thread (fx_runner_start): the same frames as
 *   one prepared at once, a conflict reported with nothing prepared, freed
 *   while preparing; a step cancelled through fx-cancel's flag leaves the
 *   state as it was and the next step as it would have been.
 *
 * Nothing here asserts on timing: waits poll with a generous deadline that
 * fails the test when exceeded.
 */
#include "fx-runner.h"
#include "fx-cancel.h"
#include "fx-integrator.h"
#include "fx-model-io.h"

#include <math.h>
#include <string.h>

#define DEADLINE_S 240  /* a generous bound for any wait, valgrind included */

/* ----------------------------------------------------------------- helpers */

static FxModel *
load_example (const char *name)
{
  const char *dir = g_getenv ("FLEXION_EXAMPLES");
  g_autofree char *fallback = NULL;
  if (dir == NULL)
    {
      /* run by hand: the examples beside the tests' source directory */
      const char *src = g_getenv ("G_TEST_SRCDIR");
      fallback = g_build_filename (src ? src : ".", "..", "data", "examples", NULL);
      dir = fallback;
    }
  g_autofree char *file = g_strconcat (name, ".flexion", NULL);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autoptr (GError) error = NULL;
  FxModel *m = fx_model_load_file (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

static FxRunner *
new_runner (const FxModel *model)
{
  g_autoptr (GError) error = NULL;
  FxRunner *r = fx_runner_new (model, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  return r;
}

static GPtrArray *
frame_array (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
}

static gint64
deadline (void)
{
  return g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
}

static void
check_deadline (gint64 end, const char *what)
{
  if (g_get_monotonic_time () > end)
    {
      g_test_message ("gave up waiting for %s after %d s", what, DEADLINE_S);
      g_assert_not_reached ();
    }
}

/* Pops into `frames` until the solver is idle: once it is, every frame it
 * made is in the buffer, so the last pop gets them all. */
static void
drain_until_idle (FxRunner *r, GPtrArray *frames)
{
  gint64 end = deadline ();
  for (;;)
    {
      gboolean busy = fx_runner_is_busy (r);
      fx_runner_pop_all (r, frames);
      if (!busy)
        return;
      check_deadline (end, "the solver to reach its horizon");
      g_usleep (1000);
    }
}

static void
wait_for_full_buffer (FxRunner *r)
{
  gint64 end = deadline ();
  while (fx_runner_n_frames (r) < fx_runner_capacity (r))
    {
      check_deadline (end, "the buffer to fill");
      g_usleep (1000);
    }
}

static void
check_balance (const FxStepFrame *f)
{
  double tol = 1e-10 * MAX (fabs (f->report.H), 1.0);
  if (fabs (f->report.balance) > tol)
    g_test_message ("step %u, t = %g: balance %.3g, H %.6g", f->step, f->t,
                    f->report.balance, f->report.H);
  g_assert_cmpfloat (fabs (f->report.balance), <=, tol);
}

/* Frames in step order from `first_step`, time increasing, every balance
 * kept; returns the total supplied work. */
static double
check_sequence (GPtrArray *frames, guint first_step)
{
  double supplied = 0.0;

  g_assert_cmpuint (frames->len, >, 0);
  for (guint k = 0; k < frames->len; k++)
    {
      const FxStepFrame *f = g_ptr_array_index (frames, k);
      g_assert_cmpuint (f->step, ==, first_step + k);
      g_assert_cmpfloat (f->t, ==, f->report.t);
      if (k > 0)
        g_assert_cmpfloat (f->t, >, ((FxStepFrame *) g_ptr_array_index (frames, k - 1))->t);
      check_balance (f);
      supplied += f->report.supplied;
    }
  return supplied;
}

/* The same frame, bit for bit: the runner's thread computes what stepping
 * here computes. */
static void
assert_frames_equal (const FxStepFrame *a, const FxStepFrame *b)
{
  g_assert_cmpuint (a->step, ==, b->step);
  g_assert_cmpfloat (a->t, ==, b->t);
  g_assert_true (memcmp (&a->report, &b->report, sizeof a->report) == 0);
  g_assert_cmpuint (a->n_links, ==, b->n_links);
  g_assert_cmpuint (a->n_nodes, ==, b->n_nodes);
  g_assert_cmpuint (a->n_joints, ==, b->n_joints);
  g_assert_cmpuint (a->n_probes, ==, b->n_probes);
  g_assert_true (memcmp (a->node_offset, b->node_offset, sizeof (guint) * (a->n_links + 1)) == 0);
  g_assert_true (memcmp (a->x, b->x, sizeof (double) * a->n_nodes) == 0);
  g_assert_true (memcmp (a->y, b->y, sizeof (double) * a->n_nodes) == 0);
  g_assert_true (memcmp (a->theta, b->theta, sizeof (double) * a->n_nodes) == 0);
  g_assert_true (memcmp (a->moment, b->moment, sizeof (double) * a->n_nodes) == 0);
  g_assert_true (memcmp (a->joint_xy, b->joint_xy, sizeof (double) * 2 * a->n_joints) == 0);
  g_assert_true (memcmp (a->probe_xy, b->probe_xy, sizeof (double) * 2 * a->n_probes) == 0);
  g_assert_cmpfloat (a->moment_max_abs, ==, b->moment_max_abs);
}

static double
angle_diff (double a, double b)
{
  return fabs (remainder (a - b, 2.0 * G_PI));
}

/* ------------------------------------------------------------ model frames */

static void
test_frame_from_model (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxStepFrame) f = fx_step_frame_new_from_model (m);

  g_assert_cmpfloat (f->t, ==, 0.0);
  g_assert_cmpuint (f->step, ==, 0);
  g_assert_cmpfloat (f->report.H, ==, 0.0);
  g_assert_cmpfloat (f->moment_max_abs, ==, 0.0);
  g_assert_cmpuint (f->n_links, ==, m->links->len);
  g_assert_cmpuint (f->n_joints, ==, m->joints->len);
  g_assert_cmpuint (f->n_probes, ==, m->probes->len);

  guint n_nodes = 0;
  for (guint l = 0; l < m->links->len; l++)
    {
      const FxLink *link = fx_model_link (m, l);
      const FxJoint *a = fx_model_joint (m, fx_model_find_joint (m, link->from));
      const FxJoint *b = fx_model_joint (m, fx_model_find_joint (m, link->to));
      guint first = f->node_offset[l], last = f->node_offset[l + 1] - 1;
      double angle = atan2 (b->at[1] - a->at[1], b->at[0] - a->at[0]);

      /* k points per element of degree k, as a run draws them */
      guint points = link->degree * link->elements;
      g_assert_cmpuint (f->node_offset[l + 1] - f->node_offset[l], ==, points + 1);
      n_nodes += points + 1;
      g_assert_cmpfloat (f->x[first], ==, a->at[0]);
      g_assert_cmpfloat (f->y[first], ==, a->at[1]);
      g_assert_cmpfloat (f->x[last], ==, b->at[0]);
      g_assert_cmpfloat (f->y[last], ==, b->at[1]);
      for (guint i = first; i <= last; i++)
        {
          /* evenly spaced along the straight link */
          double s = (double) (i - first) / points;
          g_assert_cmpfloat_with_epsilon (f->x[i], a->at[0] + s * (b->at[0] - a->at[0]), 1e-14);
          g_assert_cmpfloat_with_epsilon (f->y[i], a->at[1] + s * (b->at[1] - a->at[1]), 1e-14);
          g_assert_cmpfloat (f->theta[i], ==, angle);
          g_assert_cmpfloat (f->moment[i], ==, 0.0);
        }
    }
  g_assert_cmpuint (f->n_nodes, ==, n_nodes);
  for (guint j = 0; j < m->joints->len; j++)
    {
      g_assert_cmpfloat (f->joint_xy[2 * j], ==, fx_model_joint (m, j)->at[0]);
      g_assert_cmpfloat (f->joint_xy[2 * j + 1], ==, fx_model_joint (m, j)->at[1]);
    }
  /* probe P at the middle of the coupler, A (2, 1) to B (3.5, 1) */
  g_assert_cmpfloat_with_epsilon (f->probe_xy[0], 2.75, 1e-14);
  g_assert_cmpfloat_with_epsilon (f->probe_xy[1], 1.0, 1e-14);
}

/* A model being drawn: a link to a joint not yet placed gets no nodes and
 * its probe no place; a link of 0 elements still draws. */
static void
test_frame_from_unfinished_model (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0);
  fx_model_add_joint (m, "B", 1, 1);
  fx_model_add_link (m, "ab", "A", "B", 0);
  fx_model_add_link (m, "dangling", "B", "nowhere", 4);
  fx_model_add_link (m, "bc", "B", "A", 2);
  fx_model_add_probe (m, "p", "dangling", 0.5);
  fx_model_add_probe (m, "q", "bc", 0.25);

  g_autoptr (FxStepFrame) f = fx_step_frame_new_from_model (m);
  g_assert_cmpuint (f->n_links, ==, 3);
  g_assert_cmpuint (f->node_offset[1] - f->node_offset[0], ==, 2);
  g_assert_cmpuint (f->node_offset[2] - f->node_offset[1], ==, 0);
  g_assert_cmpuint (f->node_offset[3] - f->node_offset[2], ==, 3);
  g_assert_cmpuint (f->n_nodes, ==, 5);
  g_assert_true (isnan (f->probe_xy[0]) && isnan (f->probe_xy[1]));
  g_assert_cmpfloat_with_epsilon (f->probe_xy[2], 0.75, 1e-15);
  g_assert_cmpfloat_with_epsilon (f->probe_xy[3], 0.75, 1e-15);
  g_assert_cmpfloat (f->x[f->node_offset[2]], ==, 1.0);
  g_assert_cmpfloat_with_epsilon (f->theta[f->node_offset[2]], -0.75 * G_PI, 1e-15);

  /* a reference of its own, released by either holder */
  FxStepFrame *g = fx_step_frame_ref (f);
  g_assert_true (g == f);
  fx_step_frame_unref (g);
  g_assert_cmpuint (f->n_nodes, ==, 5);
}

/* Frame 0 of a runner is the initial state: what a system built here
 * reports, and the drawn model itself (the four-bar starts undeformed and
 * at rest). */
static void
test_frame_zero (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxRunner) r = new_runner (m);
  g_autoptr (FxStepFrame) f0 = fx_runner_pop_frame (r);

  g_assert_nonnull (f0);
  g_assert_null (fx_runner_pop_frame (r));  /* idle: horizon 0 */
  g_assert_cmpfloat (fx_runner_time (r), ==, 0.0);
  g_assert_false (fx_runner_is_busy (r));

  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  g_autoptr (FxStepFrame) here = fx_step_frame_new (sys, NULL, 0);
  assert_frames_equal (f0, here);
  g_assert_cmpfloat (f0->report.supplied, ==, 0.0);
  g_assert_cmpfloat (f0->report.balance, ==, 0.0);

  g_autoptr (FxStepFrame) drawn = fx_step_frame_new_from_model (m);
  g_assert_cmpuint (f0->n_nodes, ==, drawn->n_nodes);
  for (guint i = 0; i < f0->n_nodes; i++)
    {
      g_assert_cmpfloat_with_epsilon (f0->x[i], drawn->x[i], 1e-12);
      g_assert_cmpfloat_with_epsilon (f0->y[i], drawn->y[i], 1e-12);
      g_assert_cmpfloat (angle_diff (f0->theta[i], drawn->theta[i]), <=, 1e-12);
      g_assert_cmpfloat (f0->moment[i], ==, 0.0);
    }
  for (guint j = 0; j < 2 * f0->n_joints; j++)
    g_assert_cmpfloat_with_epsilon (f0->joint_xy[j], drawn->joint_xy[j], 1e-12);
  for (guint p = 0; p < 2 * f0->n_probes; p++)
    g_assert_cmpfloat_with_epsilon (f0->probe_xy[p], drawn->probe_xy[p], 1e-12);
}

/* ------------------------------------------------------------------- runs */

static void
test_run_to_horizon (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxRunner) r = new_runner (m);
  g_autoptr (GPtrArray) frames = frame_array ();
  double dt = fx_runner_dt (r);

  g_assert_cmpfloat (dt, ==, m->dt);
  fx_runner_set_horizon (r, 2.0);
  g_assert_cmpfloat (fx_runner_horizon (r), ==, 2.0);
  drain_until_idle (r, frames);
  g_assert_false (fx_runner_failed (r, NULL));

  double supplied = check_sequence (frames, 0);
  const FxStepFrame *last = g_ptr_array_index (frames, frames->len - 1);
  g_test_message ("%u frames, last t = %.9g, H %.6g -> %.6g", frames->len, last->t,
                  ((FxStepFrame *) g_ptr_array_index (frames, 0))->report.H, last->report.H);
  g_assert_cmpfloat (last->t, >=, 2.0 - dt);
  g_assert_cmpfloat (last->t, <, 2.0 + dt);  /* it stops at the horizon */
  g_assert_cmpfloat (fx_runner_time (r), ==, last->t);
  g_assert_cmpfloat (fabs (supplied), <=, 1e-12 * MAX (fabs (last->report.H), 1.0));  /* no loads */

  /* it moved: released under gravity, the coupler's probe falls */
  const FxStepFrame *first = g_ptr_array_index (frames, 0);
  g_assert_cmpfloat (last->probe_xy[1], <, first->probe_xy[1] - 1e-3);
  g_assert_cmpfloat (last->moment_max_abs, >, 0.0);

  /* the thread's steps are the steps of an integrator driven here */
  g_autoptr (FxSystem) sys = fx_system_new (m, NULL);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  for (guint k = 1; k <= 10; k++)
    {
      FxStepReport rep;
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      g_autoptr (FxStepFrame) here = fx_step_frame_new (sys, &rep, k);
      assert_frames_equal (g_ptr_array_index (frames, k), here);
    }
}

static void
test_step_once_and_dt (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxRunner) r = new_runner (m);
  g_autoptr (GPtrArray) frames = frame_array ();

  for (guint k = 0; k < 3; k++)
    fx_runner_step_once (r);
  drain_until_idle (r, frames);
  g_assert_cmpuint (frames->len, ==, 4);
  check_sequence (frames, 0);

  fx_runner_set_dt (r, 0.005);
  g_assert_cmpfloat (fx_runner_dt (r), ==, 0.005);
  fx_runner_step_once (r);
  drain_until_idle (r, frames);
  g_assert_cmpuint (frames->len, ==, 5);
  check_sequence (frames, 0);

  const FxStepFrame *f3 = g_ptr_array_index (frames, 3), *f4 = g_ptr_array_index (frames, 4);
  g_assert_cmpfloat (f3->report.dt, ==, m->dt);
  g_assert_cmpfloat (f4->report.dt, ==, 0.005);
  g_assert_cmpfloat_with_epsilon (f4->t, f3->t + 0.005, 1e-15);
  g_assert_cmpfloat (fx_runner_time (r), ==, f4->t);

  /* a horizon below the solver's time asks for nothing */
  fx_runner_set_horizon (r, 0.01);
  drain_until_idle (r, frames);
  g_assert_cmpuint (frames->len, ==, 5);
}

/* The solver stops when the UI does not read, and goes on when it does. */
static void
test_bounded_buffer (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxRunner) r = new_runner (m);
  guint capacity = fx_runner_capacity (r);

  g_assert_cmpuint (capacity, ==, FX_RUNNER_MAX_FRAMES);  /* small frames */
  fx_runner_set_horizon (r, 1e9);
  wait_for_full_buffer (r);

  double t_full = fx_runner_time (r);
  g_usleep (50 * 1000);
  g_assert_cmpuint (fx_runner_n_frames (r), ==, capacity);
  g_assert_cmpfloat (fx_runner_time (r), ==, t_full);
  g_assert_true (fx_runner_is_busy (r));  /* it has work, waiting for room */
  /* capacity frames: frame 0 and capacity - 1 steps */
  g_assert_cmpfloat_with_epsilon (t_full, (capacity - 1) * m->dt, 1e-9);

  /* reading one frame makes room for exactly one more step */
  g_autoptr (FxStepFrame) f0 = fx_runner_pop_frame (r);
  g_assert_cmpuint (f0->step, ==, 0);
  wait_for_full_buffer (r);
  g_usleep (50 * 1000);
  g_assert_cmpuint (fx_runner_n_frames (r), ==, capacity);
  g_assert_cmpfloat (fx_runner_time (r), >, t_full);
  g_assert_cmpfloat_with_epsilon (fx_runner_time (r), capacity * m->dt, 1e-9);

  g_autoptr (GPtrArray) frames = frame_array ();
  g_assert_cmpuint (fx_runner_pop_all (r, frames), ==, capacity);
  check_sequence (frames, 1);
  g_assert_cmpuint (fx_runner_n_frames (r), <=, capacity);
  /* freed while blocked on a full buffer, or stepping: must not hang */
}

static void
test_free_while_running (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");

  for (guint round = 0; round < 20; round++)
    {
      FxRunner *r = new_runner (m);
      g_autoptr (GPtrArray) frames = frame_array ();
      gint64 end = deadline ();

      fx_runner_set_horizon (r, 1e9);
      fx_runner_set_pull (r, 0, 1.0, 2.0, 2.0);
      /* from freeing at once to freeing after a few steps */
      while (frames->len < round)
        {
          fx_runner_pop_all (r, frames);
          check_deadline (end, "a few frames");
          g_usleep (1000);
        }
      fx_runner_free (r);
    }
}

/* Dragging the crank's tip along its circle: the pull does positive work,
 * every step still balances, the tip comes towards the target; on release
 * the hand takes its spring's energy along (negative work in the first step
 * after it, docs/theory.md §6) and then no work is supplied. */
static void
test_pull (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxRunner) r = new_runner (m);
  g_autoptr (GPtrArray) frames = frame_array ();
  guint crank = (guint) fx_model_find_link (m, "crank");
  const FxJoint *A = fx_model_joint (m, fx_model_find_joint (m, "A"));
  double tangent[2] = { -A->at[1], A->at[0] }, len = hypot (tangent[0], tangent[1]);
  double target[2] = { A->at[0] + 0.2 * tangent[0] / len, A->at[1] + 0.2 * tangent[1] / len };

  fx_runner_set_pull (r, crank, 1.0, target[0], target[1]);
  fx_runner_set_horizon (r, 1.0);
  drain_until_idle (r, frames);
  g_assert_false (fx_runner_failed (r, NULL));

  double supplied = check_sequence (frames, 0);
  const FxStepFrame *last = g_ptr_array_index (frames, frames->len - 1);
  guint tip = last->node_offset[crank + 1] - 1;
  double miss = hypot (last->x[tip] - target[0], last->y[tip] - target[1]);
  g_test_message ("pulled: supplied %.6g J, H %.6g J, tip %.3g m from the target",
                  supplied, last->report.H, miss);
  g_assert_cmpfloat (supplied, >, 1e-3 * MAX (fabs (last->report.H), 1.0));
  g_assert_cmpfloat (miss, <, 0.2);

  guint next_step = last->step + 1;
  fx_runner_clear_pull (r);
  g_ptr_array_set_size (frames, 0);
  fx_runner_set_horizon (r, 1.5);
  drain_until_idle (r, frames);
  check_sequence (frames, next_step);
  const FxStepFrame *after = g_ptr_array_index (frames, 0);
  g_assert_cmpfloat (after->report.supplied, <, 0.0);
  for (guint k = 1; k < frames->len; k++)
    g_assert_cmpfloat (((FxStepFrame *) g_ptr_array_index (frames, k))->report.supplied, ==, 0.0);
}

/* ---------------------------------------------------------------- failures */

static void
test_diverged (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  m->max_iterations = 1;
  m->tolerance = 1e-300;  /* Newton cannot get there in one iteration */
  g_autoptr (FxRunner) r = new_runner (m);
  g_autoptr (GPtrArray) frames = frame_array ();

  g_assert_false (fx_runner_failed (r, NULL));
  fx_runner_set_horizon (r, 1.0);
  drain_until_idle (r, frames);

  g_autoptr (GError) error = NULL;
  g_assert_true (fx_runner_failed (r, &error));
  g_assert_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED);
  g_assert_nonnull (strstr (error->message, "t = 0"));
  g_test_message ("%s", error->message);

  /* the frames before the failure stay; nothing more is computed */
  g_assert_cmpuint (frames->len, ==, 1);
  g_assert_cmpuint (((FxStepFrame *) g_ptr_array_index (frames, 0))->step, ==, 0);
  g_assert_cmpfloat (fx_runner_time (r), ==, 0.0);
  fx_runner_step_once (r);
  g_assert_false (fx_runner_is_busy (r));
  drain_until_idle (r, frames);
  g_assert_cmpuint (frames->len, ==, 1);
}

static void
test_causality_conflict (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  /* force-causal in translation on the ground pin O: nothing can take it */
  fx_model_link (m, fx_model_find_link (m, "crank"))->formulation = FX_FORMULATION_FREE_FREE;

  g_autoptr (GError) error = NULL;
  g_autoptr (FxRunner) r = fx_runner_new (m, &error);
  g_assert_null (r);
  g_assert_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY);
  g_assert_nonnull (strstr (error->message, "joint \"O\""));
}

/* ------------------------------------------------- prepared on the thread */

static void
wait_prepared_or_failed (FxRunner *r)
{
  gint64 end = deadline ();
  while (!fx_runner_prepared (r) && !fx_runner_failed (r, NULL))
    {
      g_assert_nonnull (fx_runner_phase (r));
      check_deadline (end, "the solver to be prepared");
      g_usleep (1000);
    }
}

static void
test_start (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxRunner) now = new_runner (m);
  g_autoptr (FxRunner) later = fx_runner_start (m);
  g_autoptr (GPtrArray) a = frame_array ();
  g_autoptr (GPtrArray) b = frame_array ();

  g_assert_true (fx_runner_prepared (now));
  g_assert_null (fx_runner_phase (now));
  /* a horizon set while preparing is served once prepared */
  fx_runner_set_horizon (later, 0.5);
  fx_runner_set_horizon (now, 0.5);
  wait_prepared_or_failed (later);
  g_assert_true (fx_runner_prepared (later));
  g_assert_null (fx_runner_phase (later));
  drain_until_idle (now, a);
  drain_until_idle (later, b);
  g_assert_cmpuint (a->len, >, 10);
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint k = 0; k < a->len; k++)
    assert_frames_equal (g_ptr_array_index (a, k), g_ptr_array_index (b, k));
}

static void
test_start_conflict (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  fx_model_link (m, fx_model_find_link (m, "crank"))->formulation = FX_FORMULATION_FREE_FREE;
  g_autoptr (FxRunner) r = fx_runner_start (m);
  g_autoptr (GError) error = NULL;

  wait_prepared_or_failed (r);
  g_assert_true (fx_runner_failed (r, &error));
  g_assert_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY);
  g_assert_false (fx_runner_prepared (r));
  g_assert_null (fx_runner_phase (r));
  g_assert_cmpuint (fx_runner_n_frames (r), ==, 0);
  g_assert_false (fx_runner_is_busy (r));
}

/* Freed while it prepares or computes its first step: returns without
 * waiting for either (the thread stops at its next check and frees). */
static void
test_free_while_preparing (void)
{
  g_autoptr (FxModel) m = load_example ("cantilever");
  fx_model_link (m, 0)->elements = 20000;
  for (guint k = 0; k < 2; k++)
    {
      FxRunner *r = fx_runner_start (m);
      fx_runner_set_horizon (r, 1.0);
      g_usleep (k == 0 ? 0 : 200000);
      fx_runner_free (r);
    }
}

/* A step cancelled through the thread's flag: FALSE with
 * G_IO_ERROR_CANCELLED, the state untouched; without the flag the same
 * integrator then takes the step a fresh one takes, bit for bit. */
static void
test_cancelled_step (void)
{
  g_autoptr (FxModel) m = load_example ("four-bar");
  g_autoptr (FxSystem) sys = fx_system_new (m, NULL);
  g_autoptr (FxSystem) fresh = fx_system_new (m, NULL);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  g_autoptr (FxIntegrator) fit = fx_integrator_new (fresh, m->tolerance, m->max_iterations);
  guint n = fx_system_n_unknowns (sys);
  g_autofree double *x0 = g_memdup2 (fx_system_state (sys), sizeof (double) * n);
  gint flag = 0;
  FxStepReport rep, frep;
  g_autoptr (GError) error = NULL;

  g_assert_null (fx_cancel_attach (&flag));
  g_assert_false (fx_cancel_requested ());
  fx_cancel_request (&flag);
  g_assert_true (fx_cancel_requested ());
  g_assert_false (fx_integrator_step (it, m->dt, &rep, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat (fx_system_time (sys), ==, 0.0);
  g_assert_true (memcmp (x0, fx_system_state (sys), sizeof (double) * n) == 0);
  /* the system build stops on it too */
  g_clear_error (&error);
  g_assert_null (fx_system_new (m, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (fx_cancel_attach (NULL) == &flag);

  for (guint k = 1; k <= 3; k++)
    {
      g_assert_true (fx_integrator_step (it, m->dt, &rep, NULL));
      g_assert_true (fx_integrator_step (fit, m->dt, &frep, NULL));
      g_autoptr (FxStepFrame) a = fx_step_frame_new (sys, &rep, k);
      g_autoptr (FxStepFrame) b = fx_step_frame_new (fresh, &frep, k);
      assert_frames_equal (a, b);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runner/frame/from-model", test_frame_from_model);
  g_test_add_func ("/runner/frame/from-unfinished-model", test_frame_from_unfinished_model);
  g_test_add_func ("/runner/frame/zero", test_frame_zero);
  g_test_add_func ("/runner/run-to-horizon", test_run_to_horizon);
  g_test_add_func ("/runner/step-once-and-dt", test_step_once_and_dt);
  g_test_add_func ("/runner/bounded-buffer", test_bounded_buffer);
  g_test_add_func ("/runner/free-while-running", test_free_while_running);
  g_test_add_func ("/runner/pull", test_pull);
  g_test_add_func ("/runner/diverged", test_diverged);
  g_test_add_func ("/runner/causality-conflict", test_causality_conflict);
  g_test_add_func ("/runner/start", test_start);
  g_test_add_func ("/runner/start-conflict", test_start_conflict);
  g_test_add_func ("/runner/free-while-preparing", test_free_while_preparing);
  g_test_add_func ("/runner/cancelled-step", test_cancelled_step);
  return g_test_run ();
}
