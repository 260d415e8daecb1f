/* test-ui-lesson.c: the first lesson, round two (issue 32), under Xvfb:
 * help that opens with no yelp and no browser (item 1), plots that belong
 * to their document (item 2), a view that stays put while editing (item 3),
 * the spin-up's stop (item 5) and the lesson view (item 6). Screenshots:
 * ui-lesson-*.png in the build folder. */
#include "ui-harness.h"
#include "flexion-window.h"
#include "flexion-window-private.h"
#include "flexion-canvas.h"
#include "flexion-measure-view.h"
#include "flexion-help-window.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

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

static FlexionHelpWindow *
find_help_window (void)
{
  GListModel *tops = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr (GObject) w = g_list_model_get_item (tops, i);
      if (FLEXION_IS_HELP_WINDOW (w))
        return FLEXION_HELP_WINDOW (w);
    }
  return NULL;
}

static gboolean
help_shown (gpointer data)
{
  FlexionHelpWindow *help = find_help_window ();
  return help && gtk_widget_get_mapped (GTK_WIDGET (help));
}

/* Item 1: F1 with neither yelp nor a browser on PATH (an empty folder)
 * opens the help window with the bundled page: its sections, its links
 * within the page, and no dialog about a missing program. */
static void
test_help_without_yelp (void)
{
  g_autofree char *dir = g_dir_make_tmp ("flexion-help-XXXXXX", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_setenv ("PATH", dir, TRUE);
  g_assert_null (g_find_program_in_path ("yelp"));
  g_assert_null (g_find_program_in_path ("xdg-open"));

  FlexionWindow *win = ui_window_shown (app, 1254, 800);
  g_action_group_activate_action (G_ACTION_GROUP (app), "help", NULL);
  g_assert_true (ui_wait_until (help_shown, NULL, 10));
  FlexionHelpWindow *help = find_help_window ();
  g_autofree char *text = flexion_help_window_dup_text (help);
  g_assert_nonnull (strstr (text, "Getting started"));
  g_assert_nonnull (strstr (text, "Regularising mass"));
  g_assert_null (strstr (text, "<"));          /* no markup left over */
  g_assert_null (strstr (text, "font-family")); /* nor the style sheet */
  g_assert_cmpuint (flexion_help_window_n_links (help), >=, 4);
  g_assert_true (flexion_help_window_show_anchor (help, "glossary"));
  g_assert_false (flexion_help_window_show_anchor (help, "no-such-section"));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (help)) == GTK_WINDOW (win));
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (help), "ui-lesson-help.png"), >, 20);
  gtk_window_destroy (GTK_WINDOW (help));

  /* a page with a picture and a link to another page, as pages to come */
  g_autoptr (GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, 40, 30);
  gdk_pixbuf_fill (pixbuf, 0x3584e4ff);
  g_autofree char *png = g_build_filename (dir, "figure.png", NULL);
  g_assert_true (gdk_pixbuf_save (pixbuf, png, "png", NULL, NULL));
  g_autofree char *page = g_build_filename (dir, "page.html", NULL);
  g_autofree char *other = g_build_filename (dir, "other.html", NULL);
  g_assert_true (g_file_set_contents (page, "<html><head><title>T</title></head><body>"
                                      "<h1>Page &amp; picture</h1><p>A <img src=\"figure.png\" alt=\"fig\"> "
                                      "and <a href=\"other.html#x\">another page</a>.</p></body></html>",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (other, "<p id=\"x\">Other</p>", -1, NULL));
  help = FLEXION_HELP_WINDOW (flexion_help_window_new (page));
  g_free (text);
  text = flexion_help_window_dup_text (help);
  g_assert_nonnull (strstr (text, "Page & picture"));
  g_assert_cmpuint (flexion_help_window_n_pictures (help), ==, 1);
  g_assert_cmpuint (flexion_help_window_n_links (help), ==, 1);
  gtk_window_destroy (GTK_WINDOW (help));

  g_unlink (png);
  g_unlink (page);
  g_unlink (other);
  g_rmdir (dir);
  g_setenv ("PATH", old_path, TRUE);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static void
plot (FlexionWindow *win, const char *action, const char *source, guint index, guint value)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), action,
                                                     g_variant_new ("(suu)", source, index, value)));
}

/* Item 2: curves follow their probes through edits, go with them when they
 * are deleted and come back on undo; a new document starts empty, against
 * time. */
static void
test_plots_belong_to_document (void)
{
  FlexionWindow *win = open_example ("four-bar.flexion");
  FxDocument *doc = flexion_window_get_document (win);
  FlexionMeasureView *view = FLEXION_MEASURE_VIEW (win->measure);
  const FxMeasurePlot *mp = flexion_measure_view_get_plot (view);

  /* a second probe, on the crank (P is on the coupler) */
  FxModel *m = fx_document_begin_edit (doc);
  fx_model_add_probe (m, "Q", "crank", 0.5);
  fx_document_end_edit (doc, "Add Probe", NULL);
  int pin = fx_model_find_joint (fx_document_get_model (doc), "C");
  g_assert_cmpint (pin, >=, 0);
  plot (win, "measure.plot", "probe", 0, FX_PROBE_ANGLE);
  plot (win, "measure.plot", "probe", 1, FX_PROBE_ANGLE);
  plot (win, "measure.against", "support", (guint) pin, FX_REACTION_FY);
  g_assert_cmpuint (mp->n_curves, ==, 2);

  /* the coupler goes, and P with it: Q's curve moves to probe 0 */
  fx_document_delete_link (doc, (guint) fx_model_find_link (fx_document_get_model (doc), "coupler"));
  g_assert_cmpuint (fx_document_get_model (doc)->probes->len, ==, 1);
  g_assert_cmpuint (mp->n_curves, ==, 1);
  g_assert_cmpuint (mp->y[0].index, ==, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  /* undo brings P's curve back, each on its probe */
  g_action_group_activate_action (G_ACTION_GROUP (win), "undo", NULL);
  g_assert_cmpuint (mp->n_curves, ==, 2);
  const FxModel *now = fx_document_get_model (doc);
  for (guint c = 0; c < 2; c++)
    g_assert_cmpuint (mp->y[c].index, <, now->probes->len);
  g_assert_cmpstr (fx_model_probe (now, mp->y[0].index)->id, !=, fx_model_probe (now, mp->y[1].index)->id);

  /* the support on the horizontal axis goes: time again */
  g_assert_cmpint (mp->x.source, ==, FX_QUANTITY_SUPPORT);
  fx_document_set_support (doc, (guint) pin, FX_SUPPORT_NONE);
  g_assert_cmpint (mp->x.source, ==, FX_QUANTITY_TIME);
  g_action_group_activate_action (G_ACTION_GROUP (win), "undo", NULL);
  g_assert_cmpint (mp->x.source, ==, FX_QUANTITY_SUPPORT);
  g_assert_cmpuint (mp->x.index, ==, (guint) pin);

  /* deleted, then a new probe of the same name by an edit: another probe,
   * whose curve does not come back */
  fx_document_delete_link (doc, (guint) fx_model_find_link (fx_document_get_model (doc), "crank"));
  g_assert_cmpuint (mp->n_curves, ==, 1);
  m = fx_document_begin_edit (doc);
  fx_model_add_probe (m, "Q", "rocker", 0.5);
  fx_document_end_edit (doc, "Add Probe", NULL);
  g_assert_cmpuint (mp->n_curves, ==, 1);

  /* New: an empty plot against time, hidden */
  _flexion_window_new_document (win, NULL);
  g_assert_cmpuint (mp->n_curves, ==, 0);
  g_assert_cmpint (mp->x.source, ==, FX_QUANTITY_TIME);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static void
joint_on_canvas (FlexionWindow *win, const char *id, double *x, double *y)
{
  const FxModel *m = fx_document_get_model (flexion_window_get_document (win));
  const FxJoint *j = fx_model_joint (m, (guint) fx_model_find_joint (m, id));
  flexion_canvas_to_widget (FLEXION_CANVAS (flexion_window_get_canvas (win)), j->at[0], j->at[1], x, y);
}

/* Item 3: after an edit, a panel that opens (the Measurements plot, the
 * inspector growing) keeps the model where it is on screen; Ctrl+0 fits. */
static void
test_no_refit_while_editing (void)
{
  FlexionWindow *win = open_example ("four-bar.flexion");
  GtkWidget *canvas = flexion_window_get_canvas (win);
  FxDocument *doc = flexion_window_get_document (win);
  double x0, y0, x1, y1;
  int w0 = gtk_widget_get_width (canvas), h0 = gtk_widget_get_height (canvas);

  /* a right-click's choice: a roller at B */
  fx_document_set_support (doc, (guint) fx_model_find_joint (fx_document_get_model (doc), "B"),
                           FX_SUPPORT_ROLLER);
  ui_spin (0.3);
  joint_on_canvas (win, "O", &x0, &y0);
  /* the canvas changes size: the inspector is hidden */
  g_action_group_activate_action (G_ACTION_GROUP (win), "toggle-inspector", NULL);
  plot (win, "measure.plot", "probe", 0, FX_PROBE_VX);
  ui_spin (0.5);
  int w1 = gtk_widget_get_width (canvas), h1 = gtk_widget_get_height (canvas);
  g_test_message ("canvas %d x %d -> %d x %d", w0, h0, w1, h1);
  g_assert_true (w1 != w0 || h1 != h0);
  joint_on_canvas (win, "O", &x1, &y1);
  g_test_message ("O at (%.1f, %.1f) -> (%.1f, %.1f)", x0, y0, x1, y1);
  g_assert_cmpfloat (fabs (x1 - x0), <, 0.5);
  g_assert_cmpfloat (fabs (y1 - y0), <, 0.5);

  /* Ctrl+0 fits the new size */
  g_action_group_activate_action (G_ACTION_GROUP (win), "fit", NULL);
  joint_on_canvas (win, "O", &x1, &y1);
  g_assert_true (fabs (x1 - x0) > 1 || fabs (y1 - y0) > 1);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

static gboolean
all_rigid (FlexionWindow *win)
{
  const FxModel *m = fx_document_get_model (flexion_window_get_document (win));
  for (guint i = 0; i < m->links->len; i++)
    if (!fx_model_link (m, i)->rigid)
      return FALSE;
  return m->links->len > 0;
}

static gboolean
action_state (FlexionWindow *win, const char *name)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (win), name);
  return g_variant_get_boolean (state);
}

/* Item 6: the lesson view hides the solver's diagnostics (two run plots,
 * the solver line, the causality glyphs and the inspector's ports) and
 * shows the Measurements plot; it is remembered in the settings. "All
 * links rigid" is one undoable edit. */
static void
test_lesson_view (void)
{
  GSettings *settings = flexion_application_get_settings (app);
  FlexionWindow *win = open_example ("four-bar.flexion");
  FxSceneStyle style;
  flexion_canvas_get_style (FLEXION_CANVAS (flexion_window_get_canvas (win)), &style);
  g_assert_true (style.show_causality);
  g_assert_nonnull (ui_find_row (GTK_WIDGET (win->inspector), "Assignment"));
  int w_measure = 0;

  g_action_group_activate_action (G_ACTION_GROUP (win), "lesson-view", NULL);
  g_assert_true (g_settings_get_boolean (settings, "lesson-view"));
  ui_spin (0.5);
  g_assert_false (gtk_widget_get_visible (win->plots[1]));
  g_assert_false (gtk_widget_get_visible (win->plots[2]));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (win->solver_label)));
  g_assert_true (gtk_widget_get_visible (win->measure));
  w_measure = gtk_widget_get_width (win->measure);
  g_test_message ("lesson view: the Measurements plot is %d px wide", w_measure);
  g_assert_cmpint (w_measure, >, gtk_widget_get_width (win->plots[0]) / 2);
  flexion_canvas_get_style (FLEXION_CANVAS (flexion_window_get_canvas (win)), &style);
  g_assert_false (style.show_causality);
  g_assert_null (ui_find_row (GTK_WIDGET (win->inspector), "Assignment"));
  g_assert_nonnull (ui_find_row (GTK_WIDGET (win->inspector), "All links rigid"));

  /* a window opened later is in the lesson view too */
  FlexionWindow *other = ui_window_shown (app, 800, 600);
  g_assert_false (gtk_widget_get_visible (other->plots[1]));
  gtk_window_destroy (GTK_WINDOW (other));

  /* all links rigid, and back by undo */
  g_assert_false (all_rigid (win));
  g_assert_false (action_state (win, "all-rigid"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "all-rigid", NULL);
  g_assert_true (all_rigid (win));
  g_assert_true (action_state (win, "all-rigid"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "undo", NULL);
  g_assert_false (all_rigid (win));
  g_assert_false (action_state (win, "all-rigid"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "redo", NULL);
  g_assert_true (all_rigid (win));

  /* a rigid four-bar runs, and its rocker is plotted against its crank */
  plot (win, "measure.plot", "probe", 0, FX_PROBE_ANGLE);
  UiRunWait wait = { flexion_window_get_simulation (win), 0.5, FALSE };
  g_signal_connect (wait.sim, "failed", G_CALLBACK (ui_on_run_failed), &wait);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_true (ui_wait_until (ui_run_done, &wait, 60));
  g_assert_false (wait.failed);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_signal_handlers_disconnect_by_data (wait.sim, &wait);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), "ui-lesson-view.png"), >, 50);

  g_action_group_activate_action (G_ACTION_GROUP (win), "lesson-view", NULL);
  g_assert_false (g_settings_get_boolean (settings, "lesson-view"));
  g_assert_true (gtk_widget_get_visible (win->plots[1]));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (win->solver_label)));
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

typedef struct {
  FlexionSimulation *sim;
  char *message;
} StopWait;

static void
on_failed (FlexionSimulation *sim, const char *message, StopWait *w)
{
  g_free (w->message);
  w->message = g_strdup (message);
}

static gboolean
stopped (gpointer data)
{
  return ((StopWait *) data)->message != NULL;
}

/* Item 5: the spin-up's stop names the floating-frame blade and geometric
 * stiffening, not the loads; its warning is known from the frame it first
 * held; the colour range stays that of the links that make sense. */
static void
test_spin_up_stop (void)
{
  FlexionWindow *win = open_example ("spin-up.flexion");
  FlexionSimulation *sim = flexion_window_get_simulation (win);
  const FxModel *m = fx_document_get_model (flexion_window_get_document (win));
  int floating = fx_model_find_link (m, "floating"), exact = fx_model_find_link (m, "exact");
  g_assert_cmpint (floating, >=, 0);
  g_assert_cmpint (exact, >=, 0);
  StopWait w = { sim, NULL };
  gulong id = g_signal_connect (sim, "failed", G_CALLBACK (on_failed), &w);
  flexion_simulation_set_speed (sim, 10);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_true (ui_wait_until (stopped, &w, 120));
  g_signal_handler_disconnect (sim, id);
  g_test_message ("stop: %s", w.message);
  g_assert_nonnull (strstr (w.message, "Link floating ran away"));
  g_assert_nonnull (strstr (w.message, "geometric stiffening"));
  g_assert_nonnull (strstr (w.message, "\u03b3 = "));
  g_assert_null (strstr (w.message, "far too large"));

  /* the warning came on before the stop, in a frame that says so */
  double since = flexion_simulation_get_warning_since (sim, (guint) floating);
  double t_stop = flexion_simulation_get_time (sim);
  g_test_message ("warning from t = %.3f s, stop at t = %.3f s", since, t_stop);
  g_assert_true (isfinite (since));
  g_assert_cmpfloat (since, <, t_stop);
  g_assert_true (isnan (flexion_simulation_get_warning_since (sim, (guint) exact)));
  g_autofree char *held = g_strdup_printf ("t = %.3g s", since);
  g_assert_nonnull (strstr (w.message, held));

  /* the colour range: the exact blade's moments, not the runaway's */
  double range = flexion_simulation_get_moment_range (sim), exact_max = 0;
  guint n = flexion_simulation_get_n_recorded (sim);
  for (guint i = 0; i < n; i++)
    {
      const FxStepFrame *f = flexion_simulation_get_recorded (sim, i);
      for (guint k = f->node_offset[exact]; k < f->node_offset[exact + 1]; k++)
        exact_max = MAX (exact_max, fabs (f->moment[k]));
    }
  g_test_message ("colour range %.4g N m; the exact blade's largest moment %.4g N m", range, exact_max);
  g_assert_cmpfloat (range, >=, exact_max);
  g_assert_cmpfloat (range, <, 10 * exact_max);

  /* the replay at the moment the warning came on: its badge is drawn */
  flexion_simulation_seek (sim, since + 0.05);
  ui_spin (0.3);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), "ui-lesson-spin-up-warning.png"), >, 50);
  flexion_simulation_seek (sim, t_stop);
  ui_spin (0.3);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), "ui-lesson-spin-up-stop.png"), >, 50);
  g_free (w.message);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

/* Item 4: after a run of the four-bar at 1254 x 800 the pointer read-out
 * shows its whole text, signs and all; the reactions' labels are
 * in the screenshot (ui-lesson-reactions.png). */
static void
test_readout_fits (void)
{
  FlexionWindow *win = open_example ("four-bar.flexion");
  g_signal_emit_by_name (flexion_window_get_canvas (win), "pointer-moved", -2.345, -1.25);
  ui_spin (0.5);
  const char *text = gtk_inscription_get_text (win->pointer_label);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (win->pointer_label), text);
  int needed, height;
  pango_layout_get_pixel_size (layout, &needed, &height);
  g_object_unref (layout);
  int given = gtk_widget_get_width (GTK_WIDGET (win->pointer_label));
  g_test_message ("read-out \"%s\": %d px needed, %d px given", text, needed, given);
  /* and the window keeps the size it was given */
  g_test_message ("window %d px wide", gtk_widget_get_width (GTK_WIDGET (win)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (win->pointer_label)));
  g_assert_cmpint (given, >=, needed);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (win)), <=, 1254);
  /* the Measurements plot opens beside the four others: the window keeps
   * its width (the plots had 220 px at least: five outgrew 1254 px) */
  plot (win, "measure.plot", "probe", 0, FX_PROBE_SPEED);
  ui_spin (0.5);
  g_test_message ("with the Measurements plot: window %d px wide", gtk_widget_get_width (GTK_WIDGET (win)));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (win)), <=, 1254);
  UiRunWait wait = { flexion_window_get_simulation (win), 0.3, FALSE };
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_true (ui_wait_until (ui_run_done, &wait, 60));
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), "ui-lesson-reactions.png"), >, 50);
  /* a new document: its Δt is not amber before anything is drawn */
  _flexion_window_new_document (win, NULL);
  ui_spin (0.5);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (win->dt_spin), "warning"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (win->dt_warning)));
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.1);
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/lesson/help-without-yelp", test_help_without_yelp);
  g_test_add_func ("/lesson/plots-belong-to-document", test_plots_belong_to_document);
  g_test_add_func ("/lesson/no-refit-while-editing", test_no_refit_while_editing);
  g_test_add_func ("/lesson/lesson-view", test_lesson_view);
  g_test_add_func ("/lesson/readout-fits", test_readout_fits);
  g_test_add_func ("/lesson/spin-up-stop", test_spin_up_stop);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
