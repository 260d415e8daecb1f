/* test-ui-floating.c: floating-frame links in the app (issue 22), under
 * Xvfb. The link inspector switches a link's model to the floating frame
 * (its rows change: frame, ends, at most the checker's elements, a
 * Kelvin–Voigt damping row instead of the GE damping rows); the damping is
 * a number like the others: refused when negative, saved, undone. */
#include "ui-harness.h"
#include "flexion-canvas.h"
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
  g_assert_nonnull (adw_action_row_get_subtitle (ADW_ACTION_ROW (model_row)));
  adw_combo_row_set_selected (ADW_COMBO_ROW (model_row), 1);
  ui_spin (0.3);
  g_assert_cmpint (link0 (win)->kind, ==, FX_LINK_FLOATING_FRAME);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Set Link Model");
  model_row = ui_find_row (GTK_WIDGET (win), "Model");
  const char *why = adw_action_row_get_subtitle (ADW_ACTION_ROW (model_row));
  g_test_message ("floating frame: %s", why);
  g_assert_nonnull (strstr (why, "stiffening"));
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

int
main (int argc, char **argv)
{
  app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_test_add_func ("/ui/floating/model-and-damping", test_model_row_and_damping);
  int status = g_test_run ();
  g_object_unref (app);
  return status;
}
