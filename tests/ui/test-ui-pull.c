/* test-ui-pull.c: the hand pull that used to stop the solver, under Xvfb.
 *
 * A four-bar drawn with the canvas's default links (steel 20 x 10 mm, 8
 * elements) plays while its coupler is pulled up at 2 m/s by 0.8 m, the way
 * the canvas leads the pull on pointer motion (flexion_simulation_set_pull),
 * then let go. The run must not fail, every step must balance to 1e-10 of
 * the energy scale, the pull must supply work, and the coupler must go up
 * towards the hand. (Before the drag element, the explicit pull zig-zagged the
 * coupler by t = 0.29 s and Newton gave up.) */
#include "ui-harness.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"
#include "flexion-window.h"

#include <adwaita.h>
#include <math.h>

static FlexionApplication *app;

typedef struct {
  FlexionSimulation *sim;
  double t;
} TimeWait;

static gboolean
reached_time (gpointer data)
{
  const TimeWait *w = data;
  return flexion_simulation_get_time (w->sim) >= w->t;
}

static void
spin_until_time (FlexionSimulation *sim, double t, double seconds)
{
  TimeWait w = { sim, t };
  ui_wait_until (reached_time, &w, seconds);
}

static FxModel *
drawn_four_bar (void)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 0.3, 0.4);
  fx_model_add_joint (m, "C", 0.9, 0.5);
  fx_model_add_joint (m, "D", 1.0, 0.0)->support = FX_SUPPORT_PIN;
  const char *ends[3][3] = { { "crank", "A", "B" }, { "coupler", "B", "C" }, { "rocker", "C", "D" } };
  for (guint i = 0; i < 3; i++)
    {
      FxSection section;
      guint elements;
      flexion_canvas_default_section (&section, &elements);
      FxLink *l = fx_model_add_link (m, ends[i][0], ends[i][1], ends[i][2], elements);
      l->section = section;
    }
  return m;
}

typedef struct {
  FlexionSimulation *sim;
  double start[2];
  gboolean done;
} Hand;

/* The pointer at 2 m/s straight up from the coupler's middle, in model
 * time, for 0.4 s (0.8 m), as the canvas would send it on each motion. */
static gboolean
move_hand (gpointer data)
{
  Hand *h = data;
  double t = flexion_simulation_get_time (h->sim);
  double lift = 2.0 * MIN (t, 0.4);
  flexion_simulation_set_pull (h->sim, 1, 0.5, h->start[0], h->start[1] + lift);
  if (t >= 0.6)
    {
      flexion_simulation_clear_pull (h->sim);
      h->done = TRUE;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* The coupler's middle, highest over the frames shown. The hand moves on
 * the wall clock and the run on its own, 0.15 s ahead of the display: how
 * far the coupler has risen at a given simulated time depends on the
 * machine's speed (under the sanitizers its highest point at 0.45 s and at
 * 1 s was 9 mm up, where the pull lifts it 19 mm), so every shown frame
 * counts. */
typedef struct {
  FlexionSimulation *sim;
  double highest;
} Coupler;

static double
coupler_middle_y (const FxStepFrame *f)
{
  guint a = f->node_offset[1], n = f->node_offset[2] - a;
  return f->y[a + n / 2];
}

static void
on_frame (FlexionSimulation *sim, gpointer data)
{
  Coupler *c = data;
  const FxStepFrame *f = flexion_simulation_get_frame (sim);
  if (f != NULL)
    c->highest = MAX (c->highest, coupler_middle_y (f));
}

/* Plays the drawn four-bar to t = 1 s, pulled by the hand or not, and
 * returns how high its coupler's middle went. */
static double
play_four_bar (gboolean pulled)
{
  g_autoptr (FxModel) model = drawn_four_bar ();
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1280, 800);
  gtk_window_present (GTK_WINDOW (win));
  g_autoptr (FxDocument) doc = fx_document_new_for_model (model);
  flexion_window_set_document (win, doc);
  FlexionSimulation *sim = flexion_window_get_simulation (win);

  Hand hand = { sim, { 0.6, 0.45 }, FALSE };
  Coupler coupler = { sim, -INFINITY };
  gulong handler = g_signal_connect (sim, "frame", G_CALLBACK (on_frame), &coupler);
  guint id = 0;
  g_assert_true (flexion_simulation_play (sim, NULL));
  if (pulled)
    {
      flexion_simulation_set_pull (sim, 1, 0.5, hand.start[0], hand.start[1]);
      id = g_timeout_add (10, move_hand, &hand);
    }
  spin_until_time (sim, 1.0, 120);
  if (id != 0 && !hand.done)
    g_source_remove (id);
  g_signal_handler_disconnect (sim, handler);
  g_test_message ("%s: coupler middle up to y = %.4f m (from %.2f m)",
                  pulled ? "pulled" : "free", coupler.highest, hand.start[1]);

  g_assert_true (flexion_simulation_get_running (sim));
  g_assert_cmpfloat (flexion_simulation_get_time (sim), >=, 1.0);  /* it did not stop */
  const FxSeries *series = flexion_simulation_get_series (sim);
  double e_scale = 0.0, worst = 0.0, supplied_max = 0.0;
  for (guint i = 0; i < fx_series_len (series); i++)
    {
      const FxSeriesPoint *p = fx_series_get (series, i);
      g_assert_true (isfinite (p->H) && isfinite (p->balance));
      e_scale = MAX (e_scale, MAX (fabs (p->H), MAX (fabs (p->supplied), p->kinetic)));
      supplied_max = MAX (supplied_max, p->supplied);
      worst = MAX (worst, fabs (p->balance));
    }
  g_test_message ("%u frames; work supplied up to %.4g J; max |balance| %.3g of E_scale %.4g J",
                  fx_series_len (series), supplied_max, worst / e_scale, e_scale);
  if (pulled)
    g_assert_cmpfloat (supplied_max, >, 0.0);
  g_assert_cmpfloat (worst, <, 1e-10 * e_scale);

  flexion_simulation_pause (sim);
  gtk_window_destroy (GTK_WINDOW (win));
  return coupler.highest;
}

static void
test_pull_drawn_four_bar (void)
{
  double pulled = play_four_bar (TRUE), free = play_four_bar (FALSE);
  /* the coupler went up towards the hand, as far as the crank and rocker
   * let it (its middle cannot rise 0.8 m: the links would have to
   * stretch), and higher than it goes by itself under gravity */
  g_assert_cmpfloat (pulled, >, 0.45 + 0.01);
  g_assert_cmpfloat (pulled, >, free + 0.01);
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/pull-drawn-four-bar", test_pull_drawn_four_bar);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
