/* test-ui-integrator.c: the model inspector's Integrator row (physics.md
 * §16), under Xvfb. On a drawn pendulum it switches to the two-stage Gauss
 * method as one undoable edit, the run goes on with it (books at round-off)
 * and the file keeps it; undo brings the midpoint rule back. With a
 * floating-frame link the row is greyed. */
#include "ui-harness.h"
#include "flexion-window-private.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"
#include "fx-model-io.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static FlexionApplication *app;

static const FxModel *
model_of (FlexionWindow *win)
{
  return fx_document_get_model (flexion_window_get_document (win));
}

static AdwComboRow *
integrator_row (FlexionWindow *win)
{
  GtkWidget *row = ui_find_row (GTK_WIDGET (win), "Integrator");
  g_assert_nonnull (row);
  g_assert_true (ADW_IS_COMBO_ROW (row));
  return ADW_COMBO_ROW (row);
}

static void
test_integrator_row (void)
{
  FlexionWindow *win = ui_window_shown (app, 1280, 800);
  GActionGroup *actions = G_ACTION_GROUP (win);
  FxDocument *doc = flexion_window_get_document (win);
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  /* a pendulum: a link on a pin support, released horizontally */
  g_action_group_activate_action (actions, "add-link", g_variant_new ("(dddd)", 0.0, 0.0, 0.5, 0.0));
  flexion_canvas_select (canvas, 0, -1);
  g_action_group_activate_action (actions, "support", g_variant_new_string ("pin"));
  flexion_canvas_select (canvas, -1, -1);  /* the model's own inspector */
  ui_spin (0.3);

  AdwComboRow *row = integrator_row (win);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (row)));
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
  g_assert_cmpint (model_of (win)->integrator, ==, FX_INTEGRATOR_MIDPOINT);
  adw_combo_row_set_selected (row, 1);
  ui_spin (0.3);
  g_assert_cmpint (model_of (win)->integrator, ==, FX_INTEGRATOR_GAUSS4);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Set Integrator");
  g_assert_cmpuint (adw_combo_row_get_selected (integrator_row (win)), ==, 1);

  /* it runs, its books at round-off */
  FlexionSimulation *sim = flexion_window_get_simulation (win);
  UiRunWait w = { sim, 0.2, FALSE };
  g_signal_connect (sim, "failed", G_CALLBACK (ui_on_run_failed), &w);
  g_action_group_activate_action (actions, "play", NULL);
  g_assert_true (ui_wait_until (ui_run_done, &w, 120));
  g_action_group_activate_action (actions, "play", NULL);
  g_assert_false (w.failed);
  FxStepFrame *f = flexion_simulation_get_frame (sim);
  g_test_message ("gauss4 in the app: t = %.3f s, H = %.6g J, balance %.3g J", f->t,
                  f->report.H, f->report.balance);
  g_assert_cmpfloat (fabs (f->report.balance), <, 1e-10 * MAX (1.0, fabs (f->report.kinetic)
                                                                    + fabs (f->report.gravity)));

  /* saved: the file has it */
  g_autofree char *dir = g_dir_make_tmp ("flexion-ui-integrator-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_autofree char *path = g_build_filename (dir, "pendulum.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (fx_document_save (doc, file, NULL));
  g_autoptr (FxModel) back = fx_model_load_file (path, NULL, NULL);
  g_assert_nonnull (back);
  g_assert_cmpint (back->integrator, ==, FX_INTEGRATOR_GAUSS4);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);

  /* undo: the midpoint rule again */
  g_action_group_activate_action (actions, "undo", NULL);
  ui_spin (0.3);
  g_assert_cmpint (model_of (win)->integrator, ==, FX_INTEGRATOR_MIDPOINT);
  g_assert_cmpuint (adw_combo_row_get_selected (integrator_row (win)), ==, 0);

  /* a floating-frame link: the row is greyed (the reason is its tooltip) */
  flexion_canvas_select (canvas, -1, 0);
  ui_spin (0.3);
  GtkWidget *model_row = ui_find_row (GTK_WIDGET (win), "Model");
  g_assert_nonnull (model_row);
  adw_combo_row_set_selected (ADW_COMBO_ROW (model_row), 1);
  ui_spin (0.3);
  g_assert_cmpint (fx_model_link (model_of (win), 0)->kind, ==, FX_LINK_FLOATING_FRAME);
  flexion_canvas_select (canvas, -1, -1);
  ui_spin (0.3);
  row = integrator_row (win);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (row)));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (row)), "not quadratic"));
  gtk_window_destroy (GTK_WINDOW (win));
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/integrator-row", test_integrator_row);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
