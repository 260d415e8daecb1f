/* test-ui-floating.c: floating-frame links in the app (issue 22), under
 * Xvfb. The link inspector switches a link's model to the floating frame
 * (its rows change: frame, ends, at most the checker's elements, a
 * Kelvin–Voigt damping row instead of the GE damping rows); the damping is
 * a number like the others: refused when negative, saved, undone. A blade
 * spun past its limit stops the solver: the run so far stays (frames,
 * plots, replay) with the message on screen. A pull on a floating-frame
 * link during a run does no harm. */
#include "ui-harness.h"
#include "flexion-window-private.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"
#include "flexion-number-field.h"
#include "fx-model-io.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static FlexionApplication *app;

/* The spin button of the row titled `title`, or NULL. */
static GtkSpinButton *
row_spin (FlexionWindow *win, const char *title)
{
  GtkWidget *row = ui_find_row (GTK_WIDGET (win), title);
  return row ? GTK_SPIN_BUTTON (ui_find_type (row, GTK_TYPE_SPIN_BUTTON)) : NULL;
}

/* The text of the first label under `widget` that contains `part`, or NULL. */
static const char *
label_with (GtkWidget *widget, const char *part)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), part))
    return gtk_label_get_text (GTK_LABEL (widget));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      const char *t = label_with (c, part);
      if (t)
        return t;
    }
  return NULL;
}

static const FxLink *
link0 (FlexionWindow *win)
{
  return fx_model_link (fx_document_get_model (flexion_window_get_document (win)), 0);
}

static void
test_model_row_and_damping (void)
{
  FlexionWindow *win = ui_window_shown (app, 1280, 800);
  GActionGroup *actions = G_ACTION_GROUP (win);
  FxDocument *doc = flexion_window_get_document (win);
  FlexionCanvas *canvas = FLEXION_CANVAS (flexion_window_get_canvas (win));
  /* a cantilever: a link clamped at its first end */
  g_action_group_activate_action (actions, "add-link", g_variant_new ("(dddd)", 0.0, 0.0, 1.0, 0.0));
  flexion_canvas_select (canvas, 0, -1);
  g_action_group_activate_action (actions, "support", g_variant_new_string ("clamp"));
  flexion_canvas_select (canvas, -1, 0);
  ui_spin (0.3);
  g_assert_cmpint (link0 (win)->kind, ==, FX_LINK_GEOMETRICALLY_EXACT);
  g_assert_nonnull (row_spin (win, "Viscous damping"));
  g_assert_null (row_spin (win, "Kelvin–Voigt damping η"));

  /* the Model row, with its one-line explanation */
  GtkWidget *model_row = ui_find_row (GTK_WIDGET (win), "Model");
  g_assert_true (ADW_IS_COMBO_ROW (model_row));
  g_assert_null (label_with (GTK_WIDGET (win), "stiffening"));
  adw_combo_row_set_selected (ADW_COMBO_ROW (model_row), 1);
  ui_spin (0.3);
  g_assert_cmpint (link0 (win)->kind, ==, FX_LINK_FLOATING_FRAME);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Set Link Model");
  /* what the model is, in one line under the link's title */
  const char *why = label_with (GTK_WIDGET (win), "stiffening");
  g_assert_nonnull (why);
  g_test_message ("floating frame: %s", why);
  g_assert_nonnull (ui_find_row (GTK_WIDGET (win), "Frame"));
  g_assert_nonnull (ui_find_row (GTK_WIDGET (win), "Ends"));
  g_assert_null (row_spin (win, "Viscous damping"));
  /* the checker takes at most FX_MAX_FLOATING_ELEMENTS: so does the row */
  GtkSpinButton *elements = row_spin (win, "Elements");
  g_assert_nonnull (elements);
  double lo, hi;
  gtk_spin_button_get_range (elements, &lo, &hi);
  g_assert_cmpfloat (hi, ==, FX_MAX_FLOATING_ELEMENTS);

  /* Kelvin–Voigt damping: a number row, undoable, refused below 0 */
  GtkSpinButton *kv = row_spin (win, "Kelvin–Voigt damping η");
  g_assert_nonnull (kv);
  g_assert_cmpfloat (gtk_spin_button_get_value (kv), ==, 0);
  ui_type_into (kv, "0.002");
  g_assert_cmpfloat (link0 (win)->kelvin_voigt, ==, 0.002);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Change Value");
  kv = row_spin (win, "Kelvin–Voigt damping η");
  ui_type_into (kv, "-1");
  g_assert_cmpfloat (link0 (win)->kelvin_voigt, ==, 0.002);
  g_assert_nonnull (flexion_number_field_get_error (kv));
  g_assert_true (fx_model_validate (fx_document_get_model (doc), NULL));

  /* saved: the file has it back */
  g_autofree char *dir = g_dir_make_tmp ("flexion-ui-floating-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_autofree char *path = g_build_filename (dir, "blade.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (fx_document_save (doc, file, NULL));
  g_autoptr (FxModel) back = fx_model_load_file (path, NULL, NULL);
  g_assert_nonnull (back);
  g_assert_cmpint (fx_model_link (back, 0)->kind, ==, FX_LINK_FLOATING_FRAME);
  g_assert_cmpfloat (fx_model_link (back, 0)->kelvin_voigt, ==, 0.002);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);

  /* undo: the damping, then the model */
  g_action_group_activate_action (actions, "undo", NULL);
  ui_spin (0.3);
  g_assert_cmpfloat (link0 (win)->kelvin_voigt, ==, 0);
  g_assert_cmpint (link0 (win)->kind, ==, FX_LINK_FLOATING_FRAME);
  g_action_group_activate_action (actions, "undo", NULL);
  ui_spin (0.3);
  g_assert_cmpint (link0 (win)->kind, ==, FX_LINK_GEOMETRICALLY_EXACT);
  g_assert_null (row_spin (win, "Kelvin–Voigt damping η"));
  g_assert_nonnull (row_spin (win, "Viscous damping"));
  gtk_window_destroy (GTK_WINDOW (win));
}

/* Two 1 m blades on a pinned hub driven to `omega`, a geometrically exact
 * one and a floating-frame one attached at the hub, whose first bending
 * frequency is 37.8 rad/s: above it, it diverges within about a second
 * (physics.md 12.6), a small spin-up. */
static FxDocument *
two_blades (double omega)
{
  g_autofree char *json = g_strdup_printf (
    "{ \"format\": \"flexion-model\", \"version\": 1, \"gravity\": [0, 0],"
    "  \"time\": { \"dt\": 0.01, \"end\": 5 },"
    "  \"joints\": [ { \"id\": \"H\", \"at\": [0, 0], \"support\": \"pin\" },"
    "    { \"id\": \"T\", \"at\": [1, 0] }, { \"id\": \"F\", \"at\": [-1, 0] } ],"
    "  \"links\": [ { \"id\": \"exact\", \"from\": \"H\", \"to\": \"T\", \"elements\": 4,"
    "      \"section\": { \"rhoA\": 1.2, \"rhoI\": 6e-4, \"EA\": 2.8e7, \"GA\": 1e7, \"EI\": 140 } },"
    "    { \"id\": \"floating\", \"from\": \"H\", \"to\": \"F\", \"elements\": 4,"
    "      \"model\": \"floating-frame\", \"frame\": \"attached\","
    "      \"section\": { \"rhoA\": 1.2, \"rhoI\": 6e-4, \"EA\": 2.8e7, \"GA\": 1e7, \"EI\": 140 } } ],"
    "  \"motors\": [ { \"id\": \"hub-exact\", \"joint\": \"H\", \"link\": \"exact\", \"type\": \"speed\","
    "      \"value\": %g, \"profile\": { \"type\": \"ramp\", \"t0\": 0, \"t1\": 0.2 } },"
    "    { \"id\": \"hub-floating\", \"joint\": \"H\", \"link\": \"floating\", \"type\": \"speed\","
    "      \"value\": %g, \"profile\": { \"type\": \"ramp\", \"t0\": 0, \"t1\": 0.2 } } ] }",
    omega, omega);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_data (json, -1, NULL, &error);
  g_assert_no_error (error);
  return fx_document_new_for_model (m);
}

/* A window playing two_blades (omega) at 10x until w->t or a failure (its
 * handler's id in *id); fills w->sim. */
static FlexionWindow *
play_blades (double omega, UiRunWait *w, gulong *id)
{
  FlexionWindow *win = ui_window_shown (app, 1280, 800);
  g_autoptr (FxDocument) doc = two_blades (omega);
  flexion_window_set_document (win, doc);
  w->sim = flexion_window_get_simulation (win);
  flexion_simulation_set_speed (w->sim, 10);
  *id = g_signal_connect (w->sim, "failed", G_CALLBACK (ui_on_run_failed), w);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_true (ui_wait_until (ui_run_done, w, 120));
  return win;
}

static void
test_stop_keeps_the_run (void)
{
  UiRunWait w = { NULL, 1e9, FALSE };
  gulong id;
  FlexionWindow *win = play_blades (40, &w, &id);
  FlexionSimulation *sim = w.sim;
  g_assert_true (w.failed);

  /* what was computed stays, and the message with it */
  double end = flexion_simulation_get_recorded_end (sim);
  guint n = flexion_simulation_get_n_recorded (sim);
  g_test_message ("stopped at t = %.3f s with %u frames kept", end, n);
  g_assert_cmpfloat (end, >, 0.5);
  g_assert_cmpuint (n, >, 10);
  g_assert_cmpuint (fx_series_len (flexion_simulation_get_series (sim)), >, 10);
  g_autoptr (GPtrArray) kept = flexion_simulation_dup_recorded (sim);  /* what an export draws */
  g_assert_cmpuint (kept->len, ==, n);
  /* the replayed frames still know the blade's frame, to draw its mean line */
  const FxStepFrame *first = flexion_simulation_get_recorded (sim, 1);
  g_assert_true (isnan (first->link_axis[0]) && isfinite (first->link_axis[3]));
  g_assert_true (flexion_simulation_get_running (sim));
  g_assert_false (flexion_simulation_get_playing (sim));
  g_assert_true (win->run_stopped);
  g_assert_nonnull (win->stopped);
  ui_screenshot (GTK_WIDGET (win), "ui-floating-stopped.png");

  /* Play replays it from the start, not "Cannot run" (at 1x, so that it
   * is still replaying when paused) */
  flexion_simulation_set_speed (sim, 1);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_null (win->cannot_run);
  g_assert_true (flexion_simulation_get_playing (sim));
  g_assert_true (flexion_simulation_get_replaying (sim));
  g_assert_cmpfloat (flexion_simulation_get_time (sim), <, 0.1);
  ui_spin (0.2);
  g_assert_cmpfloat (flexion_simulation_get_time (sim), <=, end);
  if (flexion_simulation_get_playing (sim))
    g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_false (flexion_simulation_get_playing (sim));
  /* still stopped: the next Play replays again */
  g_assert_true (win->run_stopped);

  /* Reset: the run and its stop go */
  g_action_group_activate_action (G_ACTION_GROUP (win), "reset", NULL);
  ui_spin (0.2);
  g_assert_false (win->run_stopped);
  g_assert_null (win->stopped);
  g_signal_handler_disconnect (sim, id);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* The core cannot hold a floating-frame link by hand yet (fx-drag.c): a
 * pull on one, or on its free end's joint, while the blades turn below
 * their limit must neither stop the run nor stay on once let go. */
static void
test_pull_on_floating_link (void)
{
  UiRunWait w = { NULL, 0.3, FALSE };
  gulong id;
  FlexionWindow *win = play_blades (10, &w, &id);
  FlexionSimulation *sim = w.sim;
  flexion_simulation_set_pull (sim, 1, 1.0, -0.5, 0.8);
  w.t = 0.6;
  g_assert_true (ui_wait_until (ui_run_done, &w, 120));
  flexion_simulation_set_pull (sim, 1, 0.5, 0.3, -0.2);
  w.t = 0.8;
  g_assert_true (ui_wait_until (ui_run_done, &w, 120));
  flexion_simulation_clear_pull (sim);
  w.t = 1.0;
  g_assert_true (ui_wait_until (ui_run_done, &w, 120));
  g_assert_false (w.failed);
  g_assert_true (flexion_simulation_get_playing (sim));
  const FxStepFrame *f = flexion_simulation_get_frame (sim);
  for (guint i = 0; i < f->n_nodes; i++)
    g_assert_true (isfinite (f->x[i]) && isfinite (f->y[i]));
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_signal_handler_disconnect (sim, id);
  gtk_window_destroy (GTK_WINDOW (win));
}

/* A solver stop says when once: the engine's messages carry the time
 * ("solver stopped at t = 12.6 s: ..."), so the app does not prefix
 * another "The solver stopped at t = 12.59 s:" to them. */
static void
test_stop_message_once (void)
{
  g_autoptr (GError) engine = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                   "solver stopped at t = 12.6 s: the mechanism "
                                                   "reached 1e+06 m from the origin");
  g_autofree char *a = flexion_stop_message (12.59, engine);
  g_assert_cmpstr (a, ==, "Solver stopped at t = 12.6 s: the mechanism reached 1e+06 m from the origin");
  g_autoptr (GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "out of memory");
  g_autofree char *b = flexion_stop_message (2.5, other);
  g_assert_nonnull (strstr (b, "2.5"));
  g_assert_nonnull (strstr (b, "out of memory"));
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/floating/model-and-damping", test_model_row_and_damping);
  g_test_add_func ("/ui/floating/stop-keeps-the-run", test_stop_keeps_the_run);
  g_test_add_func ("/ui/floating/pull-on-floating-link", test_pull_on_floating_link);
  g_test_add_func ("/ui/floating/stop-message-once", test_stop_message_once);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
