/* test-ui-measure.c: the Measurements plot under Xvfb. On the four-bar,
 * the coupler's probe offers its "Plot" menu in the inspector and a pin
 * support its "Plot Reaction"; a plotted velocity and reaction get values
 * while the run goes, a rocker-like plot against another quantity draws,
 * and closing hides the plot. Screenshot: ui-measure-plot.png. */
#include "ui-harness.h"
#include "flexion-window.h"
#include "flexion-inspector.h"
#include "flexion-measure-view.h"

#include <adwaita.h>
#include <math.h>

static FlexionApplication *app;

static GtkWidget *
find_widget (GtkWidget *w, GType type, const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type)
      && (label == NULL || g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (w)), label) == 0))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type, label);
      if (found)
        return found;
    }
  return NULL;
}

/* Whether the menu has an item for `action` with a target naming `source`. */
static gboolean
menu_offers (GMenuModel *menu, const char *action, const char *source)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *a = NULL;
      g_autoptr (GVariant) target = g_menu_model_get_item_attribute_value (menu, i, "target", G_VARIANT_TYPE ("(suu)"));
      if (g_menu_model_get_item_attribute (menu, i, "action", "s", &a) && g_str_equal (a, action)
          && target && g_str_equal (g_variant_get_string (g_variant_get_child_value (target, 0), NULL), source))
        return TRUE;
      GMenuModel *sub = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      if (sub == NULL)
        sub = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SUBMENU);
      gboolean found = sub && menu_offers (sub, action, source);
      g_clear_object (&sub);
      if (found)
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  const FxSeries *series;
  FxQuantity q;
  guint points;
} Wait;

/* The series has `points` points and the quantity a finite, non-zero value at the newest. */
static gboolean
has_values (gpointer data)
{
  Wait *w = data;
  guint n = fx_series_len (w->series);
  if (n < w->points)
    return FALSE;
  double v = fx_quantity_value (w->series, n - 1, &w->q);
  return isfinite (v) && v != 0.0;
}

static void
plot (FlexionWindow *win, const char *action, const char *source, guint index, guint value)
{
  /* through the widget, as a menu item does: measure.* is a group of its own */
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), action,
                                                     g_variant_new ("(suu)", source, index, value)));
}

static void
test_measure_plot (void)
{
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), 1254, 800);
  gtk_window_present (GTK_WINDOW (win));
  ui_spin (0.3);
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), "four-bar.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_assert_true (flexion_window_load_file (win, file));
  const FxModel *m = fx_document_get_model (flexion_window_get_document (win));
  int coupler = fx_model_find_link (m, "coupler"), pin = fx_model_find_joint (m, "O");
  g_assert_cmpint (coupler, >=, 0);
  g_assert_cmpint (pin, >=, 0);

  /* the inspector offers the plots: a probe's on its link, a reaction on a support */
  FlexionInspector *inspector = FLEXION_INSPECTOR (find_widget (GTK_WIDGET (win), FLEXION_TYPE_INSPECTOR, NULL));
  g_assert_nonnull (inspector);
  flexion_inspector_show (inspector, -1, coupler);
  GtkWidget *button = find_widget (GTK_WIDGET (inspector), GTK_TYPE_MENU_BUTTON, "Plot");
  g_assert_nonnull (button);
  g_assert_true (menu_offers (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), "measure.plot", "probe"));
  g_assert_true (menu_offers (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), "measure.against", "time"));
  flexion_inspector_show (inspector, pin, -1);
  button = find_widget (GTK_WIDGET (inspector), GTK_TYPE_MENU_BUTTON, "Plot Reaction");
  g_assert_nonnull (button);
  g_assert_true (menu_offers (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), "measure.plot", "support"));

  FlexionMeasureView *view = FLEXION_MEASURE_VIEW (find_widget (GTK_WIDGET (win), FLEXION_TYPE_MEASURE_VIEW, NULL));
  g_assert_nonnull (view);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  plot (win, "measure.plot", "probe", 0, FX_PROBE_VY);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (flexion_measure_view_get_plot (view)->n_curves, ==, 1);

  /* a run fills the series the plot reads: the coupler's middle falls */
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  Wait w = { flexion_measure_view_get_series (view), { FX_QUANTITY_PROBE, 0, FX_PROBE_VY }, 20 };
  g_assert_true (ui_wait_until (has_values, &w, 20));
  g_test_message ("P.vy after %u points: %.4g m/s", fx_series_len (w.series),
                  fx_quantity_value (w.series, fx_series_len (w.series) - 1, &w.q));

  /* the pin's reaction: another unit, so it takes the axis over */
  plot (win, "measure.plot", "support", (guint) pin, FX_REACTION_FY);
  g_assert_cmpuint (flexion_measure_view_get_plot (view)->n_curves, ==, 1);
  w.q = (FxQuantity) { FX_QUANTITY_SUPPORT, (guint) pin, FX_REACTION_FY };
  w.points = fx_series_len (w.series) + 5;
  g_assert_true (ui_wait_until (has_values, &w, 20));
  plot (win, "measure.plot", "support", (guint) pin, FX_REACTION_FX);
  g_assert_cmpuint (flexion_measure_view_get_plot (view)->n_curves, ==, 2);
  ui_spin (0.5);

  /* the probe's height against its own x: its path */
  plot (win, "measure.plot", "probe", 0, FX_PROBE_Y);
  plot (win, "measure.against", "probe", 0, FX_PROBE_X);
  g_assert_cmpint (flexion_measure_view_get_plot (view)->x.source, ==, FX_QUANTITY_PROBE);
  ui_spin (0.5);
  g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
  ui_spin (0.2);

  plot (win, "measure.against", "time", 0, 0);
  plot (win, "measure.plot", "probe", 0, FX_PROBE_M);
  ui_spin (0.3);
  g_assert_cmpuint (ui_screenshot (GTK_WIDGET (win), "ui-measure-plot.png"), >, 50);

  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (win), "measure.close", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (flexion_measure_view_get_plot (view)->n_curves, ==, 0);
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.2);
}

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/measure-plot", test_measure_plot);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
