/* test-ui-diagram.c: the N, V, M diagram view under Xvfb (GSK_RENDERER=cairo),
 * issue 30 item 3: the Diagram menu's action switches the canvas's view and
 * remembers it in the settings, Ctrl+D's action steps through the views,
 * and a diagram is drawn while the model plays; item 5: new loads ramp. */
#include "ui-harness.h"
#include "flexion-window.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"

#include <math.h>

static FlexionApplication *app;

static FlexionWindow *
open_example (const char *name)
{
  FlexionWindow *win = ui_window_shown (app, 1254, 800);
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (flexion_window_load_file (win, file));
  ui_spin (0.5);
  return win;
}

static char *
setting (void)
{
  return g_settings_get_string (flexion_application_get_settings (app), "diagram");
}

static void
test_switch_view (void)
{
  FlexionWindow *win = open_example ("simply-supported.flexion");
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  FlexionSimulation *sim = flexion_window_get_simulation (win);
  GActionGroup *actions = G_ACTION_GROUP (win);

  /* load the beam: play past the ramp (1 s), then pause */
  UiRunWait wait = { sim, 1.2, FALSE };
  g_signal_connect (sim, "failed", G_CALLBACK (ui_on_run_failed), &wait);
  g_action_group_activate_action (actions, "play", NULL);
  g_assert_true (ui_wait_until (ui_run_done, &wait, 120));
  g_assert_false (wait.failed);
  g_action_group_activate_action (actions, "play", NULL);
  g_assert_cmpint (flexion_canvas_get_diagram (canvas), ==, FX_DIAGRAM_VIEW_NONE);
  guint colours_none = ui_screenshot (GTK_WIDGET (win), "ui-diagram-none.png");

  /* the menu's radio item: the canvas shows M, and the choice is remembered */
  g_action_group_activate_action (actions, "diagram", g_variant_new_string ("M"));
  g_assert_cmpint (flexion_canvas_get_diagram (canvas), ==, FX_DIAGRAM_VIEW_M);
  g_autofree char *saved = setting ();
  g_assert_cmpstr (saved, ==, "M");
  g_autoptr (GVariant) state = g_action_group_get_action_state (actions, "diagram");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "M");
  /* the filled curve, its label and legend add colours to the picture */
  guint colours_m = ui_screenshot (GTK_WIDGET (win), "ui-diagram-M.png");
  g_assert_cmpuint (colours_m, >, colours_none);

  /* Ctrl+D's action: M, then none, then N */
  g_action_group_activate_action (actions, "next-diagram", NULL);
  g_assert_cmpint (flexion_canvas_get_diagram (canvas), ==, FX_DIAGRAM_VIEW_NONE);
  g_action_group_activate_action (actions, "next-diagram", NULL);
  g_assert_cmpint (flexion_canvas_get_diagram (canvas), ==, FX_DIAGRAM_VIEW_N);
  g_autofree char *saved_n = setting ();
  g_assert_cmpstr (saved_n, ==, "N");

  /* while playing: V, drawn on every frame without stopping the run */
  g_action_group_activate_action (actions, "diagram", g_variant_new_string ("V"));
  double t0 = flexion_simulation_get_time (sim);
  g_action_group_activate_action (actions, "play", NULL);
  ui_spin (0.5);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), "ui-diagram-V-playing.png"), >, colours_none / 2);
  g_assert_cmpfloat (flexion_simulation_get_time (sim), >, t0);
  g_assert_cmpint (flexion_canvas_get_diagram (canvas), ==, FX_DIAGRAM_VIEW_V);
  g_action_group_activate_action (actions, "play", NULL);

  /* a new window opens with the remembered view */
  FlexionWindow *second = ui_window_shown (app, 800, 600);
  g_assert_cmpint (flexion_canvas_get_diagram (FLEXION_CANVAS (flexion_window_get_canvas (second))), ==,
                   FX_DIAGRAM_VIEW_V);
  g_action_group_activate_action (G_ACTION_GROUP (second), "diagram", g_variant_new_string ("none"));
  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.2);
}

/* Issue 30 item 5: a new load, on a joint or a link, is ramped in (over
 * 1 s, or half a shorter run), not switched on as a step. */
static void
test_new_load_ramps (void)
{
  FlexionWindow *win = open_example ("simply-supported.flexion");
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  FxDocument *doc = flexion_window_get_document (win);
  guint before = fx_document_get_model (doc)->loads->len;

  flexion_canvas_select (canvas, 0, -1);
  g_action_group_activate_action (G_ACTION_GROUP (win), "add-load", NULL);
  flexion_canvas_select (canvas, -1, 0);
  g_action_group_activate_action (G_ACTION_GROUP (win), "add-link-load", NULL);
  const FxModel *m = fx_document_get_model (doc);
  g_assert_cmpuint (m->loads->len, ==, before + 2);
  for (guint i = before; i < m->loads->len; i++)
    {
      const FxProfile *p = &fx_model_load (m, i)->profile;
      g_assert_cmpint (p->type, ==, FX_PROFILE_RAMP);
      g_assert_cmpfloat (p->t0, ==, 0);
      /* the example runs 2 s: a ramp over 1 s */
      g_assert_cmpfloat (fabs (p->t1 - MIN (1.0, 0.5 * m->t_end)), <, 1e-12);
    }
  g_assert_nonnull (fx_model_load (m, before)->joint);
  g_assert_nonnull (fx_model_load (m, before + 1)->link);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.2);
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/diagram/switch-view", test_switch_view);
  g_test_add_func ("/ui/new-load-ramps", test_new_load_ramps);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
