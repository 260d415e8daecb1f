/* test-ui-settle.c: the Settle action (physics.md §14, issue 30): on the
 * Warren truss example, which opens settled with its N diagram (its
 * "view"), Settle (Ctrl+T) finds the static equilibrium at the time every
 * ramp is full, shows it (the reactions and member forces of the method
 * of joints), and Play continues from it at rest. */
#include "ui-harness.h"
#include "flexion-window-private.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"
#include "fx-measure.h"
#include "fx-diagram.h"

#include <math.h>

static FlexionApplication *app;

static gboolean
settled (gpointer data)
{
  FlexionSimulation *sim = data;
  return !flexion_simulation_get_settling (sim) && flexion_simulation_get_frame (sim) != NULL
         && flexion_simulation_get_frame (sim)->step > 0;
}

static void
screenshot (FlexionWindow *win, const char *name)
{
  flexion_canvas_fit (FLEXION_CANVAS (flexion_window_get_canvas (win)));
  ui_spin (0.5);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), name), >, 5);
}

static void
test_settle_truss (void)
{
  FlexionWindow *win = ui_window_shown (app, 1254, 800);
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), "warren-truss.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (flexion_window_load_example (win, file));
  FlexionSimulation *sim = flexion_window_get_simulation (win);
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));

  /* the example opens settled, its member forces shown ("view") */
  g_assert_null (win->cannot_run);
  g_assert_true (ui_wait_until (settled, sim, 60));
  g_assert_cmpint (flexion_canvas_get_diagram (canvas), ==, FX_DIAGRAM_VIEW_N);
  const FxStepFrame *f = flexion_simulation_get_frame (sim);
  g_assert_cmpfloat (f->t, ==, 1.0);
  /* probe AE (the sixth) reads the diagram's N: 1.83 kN compression */
  double ae = f->probe_values[5 * FX_PROBE_N_VALUES + FX_PROBE_N];
  g_test_message ("opened settled: AE N = %.6g N (method of joints -1828.3)", ae);
  g_assert_cmpfloat (fabs (ae + 4750.0 / 3 / sin (G_PI / 3)), <, 1e-3 * 1828.3);

  /* Settle (Ctrl+T) again from there: the same equilibrium */
  g_action_group_activate_action (G_ACTION_GROUP (win), "settle", NULL);
  g_assert_null (win->cannot_run);
  g_assert_true (ui_wait_until (settled, sim, 60));
  f = flexion_simulation_get_frame (sim);
  /* the ramps are full at 1 s: the method of joints' reactions */
  g_test_message ("settled at t = %g s: A.fy %.9g N, D.fy %.9g N", f->t,
                  f->reaction[FX_REACTION_FY], f->reaction[3 * FX_REACTION_N_VALUES + FX_REACTION_FY]);
  g_assert_cmpfloat (f->t, ==, 1.0);
  g_assert_cmpfloat (fabs (f->reaction[FX_REACTION_FY] - 4750.0 / 3), <, 1e-3);
  g_assert_cmpfloat (fabs (f->reaction[3 * FX_REACTION_N_VALUES + FX_REACTION_FY] - 5750.0 / 3), <, 1e-3);
  g_assert_false (flexion_simulation_get_preparing (sim));
  screenshot (win, "ui-settle-truss.png");
  double cx = f->joint_xy[4], cy = f->joint_xy[5];

  /* Play continues from the settled state: the joints stay put */
  flexion_simulation_set_speed (sim, 10);
  UiRunWait w = { sim, 1.2, FALSE };
  gulong id = g_signal_connect (sim, "failed", G_CALLBACK (ui_on_run_failed), &w);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_true (ui_wait_until (ui_run_done, &w, 120));
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_signal_handler_disconnect (sim, id);
  g_assert_false (w.failed);
  f = flexion_simulation_get_frame (sim);
  g_test_message ("after play to t = %g s: joint C moved %.3g m", f->t,
                  hypot (f->joint_xy[4] - cx, f->joint_xy[5] - cy));
  g_assert_cmpfloat (hypot (f->joint_xy[4] - cx, f->joint_xy[5] - cy), <, 1e-8);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.2);
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/settle/truss", test_settle_truss);
  return g_test_run ();
}
