/* test-ui-teacher.c: what a class sees first, under Xvfb (GSK_RENDERER=cairo):
 * the energy plot's default view and its legend outside the data, a model
 * opened (and reset) in full view, and the Ensemble panel opening without
 * taking the keyboard. Issue 23, items 2, 5 and 6. */
#include "ui-harness.h"
#include "flexion-window.h"
#include "flexion-window-private.h"
#include "flexion-modes-panel.h"
#include "flexion-canvas.h"
#include "flexion-plot-view.h"
#include "flexion-ensemble-view.h"
#include "flexion-export-dialog.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static FlexionApplication *app;

static GtkWidget *
find_widget (GtkWidget *w, GType type, const char *name)
{
  if ((type == G_TYPE_NONE || G_TYPE_CHECK_INSTANCE_TYPE (w, type))
      && (name == NULL || g_strcmp0 (gtk_widget_get_name (w), name) == 0))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type, name);
      if (found)
        return found;
    }
  return NULL;
}

static FlexionWindow *
open_example (const char *name)
{
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1254, 800);
  gtk_window_present (GTK_WINDOW (win));
  ui_spin (0.3);
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (flexion_window_load_file (win, file));
  ui_spin (0.5);
  return win;
}

/* The joints' extent on the canvas, in its pixels: x0, x1, y0, y1. */
static void
joints_on_canvas (FlexionWindow *win, double box[4])
{
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  const FxModel *m = fx_document_get_model (flexion_window_get_document (win));
  box[0] = box[2] = INFINITY;
  box[1] = box[3] = -INFINITY;
  for (guint j = 0; j < m->joints->len; j++)
    {
      double x, y;
      flexion_canvas_to_widget (canvas, fx_model_joint (m, j)->at[0], fx_model_joint (m, j)->at[1], &x, &y);
      box[0] = MIN (box[0], x), box[1] = MAX (box[1], x);
      box[2] = MIN (box[2], y), box[3] = MAX (box[3], y);
    }
}

/* In full view: every joint on the canvas, and the model spanning at least
 * a third of its width or height (a fit, not a corner of a zoomed view). */
static void
assert_fits (FlexionWindow *win, const char *when)
{
  GtkWidget *canvas = flexion_window_get_canvas (win);
  double w = gtk_widget_get_width (canvas), h = gtk_widget_get_height (canvas), box[4];
  joints_on_canvas (win, box);
  g_test_message ("%s: joints span x %.0f..%.0f, y %.0f..%.0f of a %.0f x %.0f canvas", when,
                  box[0], box[1], box[2], box[3], w, h);
  g_assert_cmpfloat (box[0], >=, 0);
  g_assert_cmpfloat (box[1], <=, w);
  g_assert_cmpfloat (box[2], >=, 0);
  g_assert_cmpfloat (box[3], <=, h);
  g_assert_true (box[1] - box[0] > w / 3 || box[3] - box[2] > h / 3);
}

static void
test_open_and_reset_fit (void)
{
  FlexionWindow *win = open_example ("four-bar.flexion");
  assert_fits (win, "opened");
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  flexion_canvas_zoom (canvas, 8);
  double box[4];
  joints_on_canvas (win, box);
  g_assert_true (box[0] < 0 || box[1] > gtk_widget_get_width (GTK_WIDGET (canvas))
                 || box[2] < 0 || box[3] > gtk_widget_get_height (GTK_WIDGET (canvas)));
  g_action_group_activate_action (G_ACTION_GROUP (win), "step", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (win), "reset", NULL);
  ui_spin (0.2);
  assert_fits (win, "reset");
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static void
test_energy_plot_default (void)
{
  FlexionWindow *win = open_example ("cantilever.flexion");
  GtkWidget *plot = find_widget (GTK_WIDGET (win), FLEXION_TYPE_PLOT_VIEW, NULL);
  g_assert_nonnull (plot);
  g_assert_cmpint (flexion_plot_view_get_kind (FLEXION_PLOT_VIEW (plot)), ==, FX_PLOT_ENERGY);
  /* energies relative to their start, by default */
  g_assert_cmpint (flexion_plot_view_get_energy_view (FLEXION_PLOT_VIEW (plot)), ==, FX_ENERGY_RELATIVE);
  g_assert_nonnull (find_widget (plot, GTK_TYPE_MENU_BUTTON, "energy_view_menu"));
  for (guint i = 0; i < 10; i++)
    g_action_group_activate_action (G_ACTION_GROUP (win), "step", NULL);
  ui_spin (0.3);
  /* the legend between the title and the data, in every view, at the
   * plot's size in a 1254 x 800 window */
  double w = gtk_widget_get_width (plot), h = gtk_widget_get_height (plot);
  g_assert_cmpfloat (w, >, 100);
  for (FxEnergyView v = FX_ENERGY_RELATIVE; v <= FX_ENERGY_ABSOLUTE; v++)
    {
      flexion_plot_view_set_energy_view (FLEXION_PLOT_VIEW (plot), v);
      FxPlotStyle st;
      flexion_plot_view_get_style (FLEXION_PLOT_VIEW (plot), &st);
      double area[4], legend[4];
      fx_plot_area (FX_PLOT_ENERGY, &st, w, h, area);
      fx_plot_legend_box (FX_PLOT_ENERGY, &st, w, h, legend);
      g_test_message ("%s: legend y %.0f..%.0f, data y %.0f..%.0f (plot %.0f x %.0f)",
                      fx_energy_view_name (v), legend[1], legend[1] + legend[3], area[1],
                      area[1] + area[3], w, h);
      g_assert_cmpfloat (legend[2], >, 0);
      g_assert_cmpfloat (legend[1] + legend[3], <=, area[1]);
      g_assert_cmpfloat (area[3], >, h / 3);
    }
  /* the choice is kept in the settings */
  GSettings *settings = flexion_application_get_settings (app);
  g_assert_nonnull (settings);  /* GSETTINGS_SCHEMA_DIR: the build's data/ */
  g_autofree char *kept = g_settings_get_string (settings, "energy-view");
  g_assert_cmpstr (kept, ==, "absolute");
  g_settings_set_string (settings, "energy-view", "books");
  g_assert_cmpint (flexion_plot_view_get_energy_view (FLEXION_PLOT_VIEW (plot)), ==, FX_ENERGY_BOOKS);
  g_settings_reset (settings, "energy-view");
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static void
test_ensemble_keeps_keyboard (void)
{
  FlexionWindow *win = open_example ("stochastic-spaghetti.flexion");
  GtkWidget *toggle = find_widget (GTK_WIDGET (win), G_TYPE_NONE, "ensemble_toggle");
  g_assert_nonnull (toggle);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  ui_spin (0.5);
  GtkWidget *panel = flexion_ensemble_toggle_get_panel (toggle);
  g_assert_true (gtk_widget_get_visible (panel));
  /* no text field has the panel's focus: Space cannot erase the count */
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (panel));
  g_test_message ("panel focus: %s", focus ? G_OBJECT_TYPE_NAME (focus) : "none");
  g_assert_false (focus && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT (focus)));
  /* the window's actions and shortcuts reach it from the panel */
  FlexionSimulation *sim = flexion_window_get_simulation (win);
  double t0 = flexion_simulation_get_time (sim);
  g_assert_true (gtk_widget_activate_action (panel, "win.step", NULL));
  ui_spin (0.2);
  g_assert_cmpfloat (flexion_simulation_get_time (sim), >, t0);
  guint n_shortcuts = 0;
  GListModel *controllers = gtk_widget_observe_controllers (panel);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_SHORTCUT_CONTROLLER (c))
        n_shortcuts += g_list_model_get_n_items (G_LIST_MODEL (c));
    }
  g_object_unref (controllers);
  g_test_message ("the panel knows %u of the window's shortcuts", n_shortcuts);
  g_assert_cmpuint (n_shortcuts, >=, 10);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
  ui_spin (0.2);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static void
collect_spins (GtkWidget *w, GPtrArray *out)
{
  if (GTK_IS_SPIN_BUTTON (w))
    g_ptr_array_add (out, w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    collect_spins (c, out);
}

static GtkWidget *
find_button (GtkWidget *w, const char *label_prefix)
{
  if (GTK_IS_BUTTON (w) && gtk_button_get_label (GTK_BUTTON (w))
      && g_str_has_prefix (gtk_button_get_label (GTK_BUTTON (w)), label_prefix))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label_prefix);
      if (found)
        return found;
    }
  return NULL;
}

static gboolean
has_plot_button (gpointer dialog)
{
  /* the run finished: the button exports the run's plots */
  return find_button (dialog, "Export _Plot") != NULL;
}

/* The Export window keeps "Until" (and the other choices) when it is
 * opened again, and offers to run a model that has not run yet. */
static void
test_export_keeps_choices (void)
{
  FlexionWindow *win = open_example ("four-bar.flexion");
  GtkWidget *dialog = flexion_window_show_export (win);
  ui_spin (0.3);
  g_autoptr (GPtrArray) spins = g_ptr_array_new ();
  collect_spins (dialog, spins);
  g_assert_cmpuint (spins->len, >=, 5);
  GtkSpinButton *until = spins->pdata[4];  /* width, height, fps, from, until */
  g_assert_cmpfloat (gtk_spin_button_get_value (until), ==, 10);
  gtk_spin_button_set_value (until, 3.5);
  /* nothing has run: the plot button runs the model first */
  g_assert_nonnull (find_button (dialog, "_Run and Export"));
  /* what the button does once a file is chosen: the model runs to its
   * end (10 s), then the energy plot is written */
  g_autofree char *dir = g_dir_make_tmp ("flexion-teacher-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "energy.svg", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (svg);
  flexion_export_dialog_export_plot (FLEXION_EXPORT_DIALOG (dialog), file);
  g_assert_true (ui_wait_until (has_plot_button, dialog, 60));
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "</svg>"));
  g_unlink (svg);
  g_rmdir (dir);
  gtk_window_close (GTK_WINDOW (dialog));
  ui_spin (0.3);

  dialog = flexion_window_show_export (win);
  ui_spin (0.3);
  g_ptr_array_set_size (spins, 0);
  collect_spins (dialog, spins);
  g_assert_cmpfloat (gtk_spin_button_get_value (spins->pdata[4]), ==, 3.5);
  GSettings *settings = flexion_application_get_settings (app);
  g_assert_nonnull (settings);
  g_assert_cmpfloat (g_settings_get_double (settings, "export-until"), ==, 3.5);
  gtk_window_close (GTK_WINDOW (dialog));
  g_settings_reset (settings, "export-until");
  ui_spin (0.2);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static gboolean
has_warning_spin (gpointer win)
{
  g_autoptr (GPtrArray) spins = g_ptr_array_new ();
  collect_spins (win, spins);
  for (guint i = 0; i < spins->len; i++)
    if (gtk_widget_has_css_class (spins->pdata[i], "warning"))
      return TRUE;
  return FALSE;
}

/* Δt longer than a tenth of the first period (the cantilever's first
 * bending mode, 8.23 Hz: 12 ms) turns the Δt field amber, and back. */
static void
test_coarse_dt_warns (void)
{
  FlexionWindow *win = open_example ("cantilever.flexion");
  FxDocument *doc = flexion_window_get_document (win);
  ui_spin (2);
  g_assert_false (has_warning_spin (win));
  FxModel *m = fx_document_begin_edit (doc);
  m->dt = 0.05;
  fx_document_end_edit (doc, "dt", "model:dt");
  g_assert_true (ui_wait_until (has_warning_spin, win, 30));
  m = fx_document_begin_edit (doc);
  m->dt = 0.005;
  fx_document_end_edit (doc, "dt", "model:dt");
  ui_spin (0.2);
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (has_warning_spin (win) && g_get_monotonic_time () < end)
    ui_spin (0.1);
  g_assert_false (has_warning_spin (win));
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static gboolean
modes_known (gpointer win)
{
  const FxModes *modes = flexion_modes_panel_get_modes (FLEXION_WINDOW (win)->modes_panel);
  return modes != NULL && modes->n_modes > 0;
}

/* An example opens clean: the four-bar's 2 ms step resolves its first
 * vibration (44.85 Hz, a tenth of the period is 2.23 ms; at its old 20 ms
 * the field was amber from the start), the slider-crank's 0.5 ms its
 * 174 Hz (0.57 ms; it had 1 ms). */
static void
test_examples_open_clean (void)
{
  const char *names[] = { "four-bar.flexion", "slider-crank.flexion" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      FlexionWindow *win = open_example (names[i]);
      g_assert_true (ui_wait_until (modes_known, win, 60));
      ui_spin (0.3);
      g_assert_false (has_warning_spin (win));
      gtk_window_destroy (GTK_WINDOW (win));
      ui_spin (0.1);
    }
}

/* Help (F1) opens yelp's help:flexion, or without yelp (as on a plain
 * Debian 12) the bundled page, which has the getting-started walk and
 * the glossary. */
static void
test_help (void)
{
  g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.help");
  g_assert_cmpstr (accels[0], ==, "F1");
  g_autofree char *uri = flexion_application_help_uri ();
  g_test_message ("help: %s", uri);
  g_autofree char *yelp = g_find_program_in_path ("yelp");
  if (g_str_equal (uri, "help:flexion"))
    {
      g_assert_nonnull (yelp);
      return;
    }
  g_autofree char *path = g_filename_from_uri (uri, NULL, NULL);
  g_assert_nonnull (path);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "id=\"getting-started\""));
  g_assert_nonnull (strstr (text, "id=\"glossary\""));
  g_assert_nonnull (strstr (text, "Regularising mass"));
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/teacher/open-and-reset-fit", test_open_and_reset_fit);
  g_test_add_func ("/teacher/energy-plot-default", test_energy_plot_default);
  g_test_add_func ("/teacher/ensemble-keeps-keyboard", test_ensemble_keeps_keyboard);
  g_test_add_func ("/teacher/export-keeps-choices", test_export_keeps_choices);
  g_test_add_func ("/teacher/coarse-dt-warns", test_coarse_dt_warns);
  g_test_add_func ("/teacher/examples-open-clean", test_examples_open_clean);
  g_test_add_func ("/teacher/help", test_help);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
