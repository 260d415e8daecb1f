/* test-ensemble-ui.c: the Ensemble toggle under Xvfb (GSK_RENDERER=cairo).
 *
 * On the stochastic spaghetti: the toggle beside Play computes 20 samples in
 * the background while the window keeps drawing (the longest frame-clock gap
 * is reported), the panel shows them, Export writes the statistics CSV and
 * two plots, and switching off hides the panel. */
#include "ui-harness.h"
#include "flexion-window.h"
#include "flexion-canvas.h"
#include "flexion-ensemble-view.h"

#include <glib/gstdio.h>
#include <string.h>

static FlexionApplication *app;


static gboolean
finished (gpointer toggle)
{
  return flexion_ensemble_toggle_get_ensemble (toggle) != NULL;
}

static GtkWidget *
find_named (GtkWidget *w, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (w), name) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);
      if (found)
        return found;
    }
  return NULL;
}


static void
test_ensemble_toggle (void)
{
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1280, 800);
  gtk_window_present (GTK_WINDOW (win));
  ui_spin (0.3);
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"),
                                            "stochastic-spaghetti.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (flexion_window_load_example (win, file));

  GtkWidget *toggle = find_named (GTK_WIDGET (win), "ensemble_toggle");
  g_assert_nonnull (toggle);
  g_assert_true (GTK_IS_TOGGLE_BUTTON (toggle));
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  FlexionSimulation *sim = flexion_window_get_simulation (win);
  /* the main run plays while the samples are computed: the frame clock
   * measures how long the window ever waits */
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  ui_spin (0.3);
  flexion_canvas_take_max_tick_gap (canvas);
  ui_spin (1.0);
  gint64 gap_alone = flexion_canvas_take_max_tick_gap (canvas);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  g_assert_true (flexion_ensemble_toggle_is_running (toggle));
  /* the panel's first frames (a new toplevel) are counted apart */
  ui_spin (0.15);
  gint64 gap_open = flexion_canvas_take_max_tick_gap (canvas);
  g_assert_true (ui_wait_until (finished, toggle, 120));
  gint64 gap = flexion_canvas_take_max_tick_gap (canvas);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);  /* pause */
  g_assert_false (flexion_simulation_get_playing (sim));
  const FxEnsemble *e = flexion_ensemble_toggle_get_ensemble (toggle);
  g_test_message ("longest frame-clock gap while playing: %.1f ms alone, %.1f ms while the "
                  "panel opens, %.1f ms while 20 samples are computed in the background",
                  gap_alone / 1e3, gap_open / 1e3, gap / 1e3);
  g_assert_cmpuint (fx_ensemble_n_ok (e) + fx_ensemble_n_failed (e), ==,
                    FLEXION_ENSEMBLE_DEFAULT_SAMPLES);
  g_assert_cmpuint (fx_ensemble_n_paths (e), ==, fx_ensemble_n_ok (e));
  g_assert_cmpfloat (fx_ensemble_worst_balance (e), <, 1e-10);
  GtkWidget *panel = flexion_ensemble_toggle_get_panel (toggle);
  g_assert_true (gtk_widget_get_visible (panel));

  /* the plots follow the main run */
  double t_before = flexion_simulation_get_time (sim);
  for (guint i = 0; i < 30; i++)
    g_action_group_activate_action (G_ACTION_GROUP (win), "step", NULL);
  ui_spin (0.5);
  g_assert_cmpfloat (flexion_simulation_get_time (sim), >, t_before);
  /* pictures of the panel and the window (sample trails on the canvas) */
  ui_screenshot (panel, "ensemble-panel.png");
  ui_screenshot (GTK_WIDGET (win), "ensemble-window.png");

  g_autofree char *dir = g_dir_make_tmp ("flexion-ensemble-ui-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "stats.csv", NULL);
  g_autofree char *energy = g_build_filename (dir, "stats-energy.png", NULL);
  g_autofree char *probes = g_build_filename (dir, "stats-probes.png", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (flexion_ensemble_toggle_export (toggle, csv, &error));
  g_assert_no_error (error);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "t,H.mean,H.std,H.q05,H.q95,"));
  g_assert_true (g_file_test (energy, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (probes, G_FILE_TEST_IS_REGULAR));
  g_unlink (csv);
  g_unlink (energy);
  g_unlink (probes);
  g_rmdir (dir);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
  ui_spin (0.1);
  g_assert_false (gtk_widget_get_visible (panel));
  g_assert_false (flexion_ensemble_toggle_is_running (toggle));

  /* switched on and at once off: the computation stops, nothing leaks out */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
  g_assert_false (flexion_ensemble_toggle_is_running (toggle));
  ui_spin (0.5);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.2);
}

static gboolean
fatal_filter (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  return strstr (message, "session bus") == NULL && strstr (message, "dbus") == NULL;
}

int
main (int argc, char **argv)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: run under xvfb-run\n");
      return 0;
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (fatal_filter, NULL);
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  app = flexion_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_test_add_func ("/ui/ensemble-toggle", test_ensemble_toggle);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
