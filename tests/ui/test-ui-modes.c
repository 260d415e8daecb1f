/* test-ui-modes.c: the Modes panel under Xvfb. Opening the four-bar lists
 * its modes (computed in a worker thread), the summary reaches the panel,
 * selecting a mode animates it on the canvas with its label, an edit
 * recomputes them, and playing leaves the shape. Screenshot:
 * ui-four-bar-mode.png (ui-four-bar-mode-gl.png). The suite runs it twice: with the cairo renderer
 * and with GSK_RENDERER=gl (ui-modes-gl), the default on a machine without
 * a GPU, whose slow software frames once starved the result (issue 23.1). */
#include "ui-harness.h"
#include "flexion-window.h"
#include "flexion-modes-panel.h"

#include <adwaita.h>
#include <math.h>

static FlexionApplication *app;

static gboolean
has_modes (gpointer panel)
{
  return flexion_modes_panel_get_modes (panel) != NULL;
}

static gboolean
has_summary (gpointer panel)
{
  return *flexion_modes_panel_get_summary (panel) != '\0';
}

static FlexionModesPanel *
find_panel (GtkWidget *w)
{
  if (FLEXION_IS_MODES_PANEL (w))
    return FLEXION_MODES_PANEL (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      FlexionModesPanel *p = find_panel (c);
      if (p)
        return p;
    }
  return NULL;
}


static void
test_four_bar_modes (void)
{
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1280, 800);
  gtk_window_present (GTK_WINDOW (win));
  ui_wait_until (ui_never, NULL, 0.3);
  FlexionModesPanel *panel = find_panel (GTK_WIDGET (win));
  g_assert_nonnull (panel);

  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), "four-bar.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_test_message ("renderer: %s",
                  G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (win))));
  gint64 t0 = g_get_monotonic_time ();
  g_assert_true (flexion_window_load_file (win, file));
  g_assert_true (ui_wait_until (has_modes, panel, 10));
  /* the app's target is 0.2 s (bench-modes times the computation alone) */
  g_test_message ("four-bar modes listed %.3f s after opening", (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpstr (flexion_modes_panel_get_summary (panel), ==, "mobility 1 · statically determinate");
  const FxModes *modes = flexion_modes_panel_get_modes (panel);
  g_assert_cmpuint (modes->mobility, ==, 1);

  /* the first vibration mode, animated on the canvas */
  int first_vibration = -1;
  for (guint i = 0; i < modes->n_modes && first_vibration < 0; i++)
    if (modes->modes[i].kind == FX_MODE_VIBRATION)
      first_vibration = (int) i;
  g_assert_cmpint (first_vibration, >=, 0);
  flexion_modes_panel_show_mode (panel, first_vibration);
  g_assert_cmpint (flexion_modes_panel_get_shown_mode (panel), ==, first_vibration);
  ui_wait_until (ui_never, NULL, 0.5);
  gboolean gl = g_strcmp0 (g_getenv ("GSK_RENDERER"), "gl") == 0;
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), gl ? "ui-four-bar-mode-gl.png" : "ui-four-bar-mode.png"), >, 50);

  /* an edit recomputes them: with joint B moved 0.3 m up the linkage has
   * other proportions, so its first frequency changes; the shape is left */
  double f1 = modes->modes[first_vibration].frequency;
  FxDocument *doc = flexion_window_get_document (win);
  int b = fx_model_find_joint (fx_document_get_model (doc), "B");
  g_assert_cmpint (b, >=, 0);
  const FxJoint *jb = fx_model_joint (fx_document_get_model (doc), (guint) b);
  fx_document_move_joint (doc, (guint) b, jb->at[0], jb->at[1] + 0.3);
  g_assert_cmpint (flexion_modes_panel_get_shown_mode (panel), ==, -1);
  g_assert_null (flexion_modes_panel_get_modes (panel));  /* stale ones are gone at once */
  g_assert_true (ui_wait_until (has_summary, panel, 10));
  g_assert_cmpstr (flexion_modes_panel_get_summary (panel), ==, "mobility 1 · statically determinate");
  modes = flexion_modes_panel_get_modes (panel);
  g_assert_nonnull (modes);
  double f1_moved = modes->modes[first_vibration].frequency;
  g_test_message ("first frequency %.4g Hz, with B moved %.4g Hz", f1, f1_moved);
  g_assert_cmpfloat (fabs (f1_moved - f1), >, 1e-3 * f1);
  flexion_modes_panel_show_mode (panel, first_vibration);

  /* playing returns to the simulation */
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  g_assert_cmpint (flexion_modes_panel_get_shown_mode (panel), ==, -1);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_wait_until (ui_never, NULL, 0.2);
}

static GtkListBox *
find_list (GtkWidget *w)
{
  if (GTK_IS_LIST_BOX (w))
    return GTK_LIST_BOX (w);
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkListBox *l = find_list (c);
      if (l)
        return l;
    }
  return NULL;
}

static const char *
row_text (GtkListBox *list, int i)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, i);
  g_assert_nonnull (row);
  return gtk_label_get_text (GTK_LABEL (gtk_list_box_row_get_child (row)));
}

/* A welded truss on two pins (4 self-stress states): the list starts with
 * frequencies, the kernel is one summary row, closed, that opens when a
 * self-stress state is shown (issue 23.8). */
static void
test_truss_frequencies_first (void)
{
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1280, 800);
  gtk_window_present (GTK_WINDOW (win));
  ui_wait_until (ui_never, NULL, 0.3);
  FlexionModesPanel *panel = find_panel (GTK_WIDGET (win));
  GtkListBox *list = find_list (GTK_WIDGET (panel));
  g_assert_nonnull (list);
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), "triangle-truss.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (flexion_window_load_file (win, file));
  g_assert_true (ui_wait_until (has_modes, panel, 10));
  const FxModes *modes = flexion_modes_panel_get_modes (panel);
  g_assert_cmpuint (modes->indeterminacy, ==, 4);
  guint n_vib = fx_modes_count (modes, FX_MODE_VIBRATION);
  g_assert_cmpuint (n_vib, >, 0);
  g_test_message ("first row: %s; kernel row: %s", row_text (list, 0), row_text (list, (int) n_vib));
  g_assert_true (g_str_has_prefix (row_text (list, 0), "mode 1 · "));
  g_assert_true (g_str_has_suffix (row_text (list, 0), "Hz"));
  g_assert_cmpstr (row_text (list, (int) n_vib), ==, "mobility 0 · 4 self-stress states");
  GtkListBoxRow *first_state = gtk_list_box_get_row_at_index (list, (int) n_vib + 1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (first_state)));

  int state = -1;
  for (guint i = 0; i < modes->n_modes && state < 0; i++)
    if (modes->modes[i].kind == FX_MODE_SELF_STRESS)
      state = (int) i;
  flexion_modes_panel_show_mode (panel, state);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (first_state)));
  g_assert_true (gtk_list_box_row_is_selected (first_state));
  g_assert_cmpstr (row_text (list, (int) n_vib + 1), ==, "self-stress state 1");
  flexion_modes_panel_show_mode (panel, -1);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_wait_until (ui_never, NULL, 0.2);
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/four-bar-modes", test_four_bar_modes);
  g_test_add_func ("/ui/truss-frequencies-first", test_truss_frequencies_first);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
