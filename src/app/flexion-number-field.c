/* flexion-number-field.c: locale-aware, refusing, wheel-proof number
 * fields (flexion-number-field.h). */
#include "flexion-number-field.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ERROR_KEY "flexion-number-error"
#define TOOLTIP_KEY "flexion-number-tooltip"
#define KEPT_KEY "flexion-number-kept"

static gboolean
parse_whole (const char *text, double *value, gboolean c_locale)
{
  char *end = NULL;
  errno = 0;
  double v = c_locale ? g_ascii_strtod (text, &end) : strtod (text, &end);
  if (end == text || errno == ERANGE || !isfinite (v))
    return FALSE;
  while (*end == ' ' || *end == '\t')
    end++;
  if (*end != '\0')
    return FALSE;
  *value = v;
  return TRUE;
}

gboolean
flexion_parse_number (const char *text, double *value)
{
  if (text == NULL)
    return FALSE;
  while (*text == ' ' || *text == '\t')
    text++;
  if (*text == '\0')
    return FALSE;
  /* the locale's form first, so "1,5" in German is 1.5; then the C form,
   * which a German user also types and which pasted values use */
  return parse_whole (text, value, FALSE) || parse_whole (text, value, TRUE);
}

const char *
flexion_number_field_get_error (GtkSpinButton *spin)
{
  return g_object_get_data (G_OBJECT (spin), ERROR_KEY);
}

static void
clear_error (GtkSpinButton *spin)
{
  if (g_object_get_data (G_OBJECT (spin), ERROR_KEY) == NULL)
    return;
  g_object_set_data (G_OBJECT (spin), ERROR_KEY, NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (spin), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), g_object_get_data (G_OBJECT (spin), TOOLTIP_KEY));
  gtk_accessible_reset_state (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_STATE_INVALID);
}

static void
mark_error (GtkSpinButton *spin, char *reason)
{
  if (g_object_get_data (G_OBJECT (spin), ERROR_KEY) == NULL)
    g_object_set_data_full (G_OBJECT (spin), TOOLTIP_KEY,
                            gtk_widget_get_tooltip_text (GTK_WIDGET (spin))
                              ? g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (spin))) : NULL,
                            g_free);
  g_object_set_data_full (G_OBJECT (spin), ERROR_KEY, reason, g_free);
  double *kept = g_new (double, 1);
  *kept = gtk_spin_button_get_value (spin);
  g_object_set_data_full (G_OBJECT (spin), KEPT_KEY, kept, g_free);
  gtk_widget_add_css_class (GTK_WIDGET (spin), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin), reason);
  gtk_accessible_update_state (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_STATE_INVALID,
                               GTK_ACCESSIBLE_INVALID_TRUE, -1);
  gtk_widget_error_bell (GTK_WIDGET (spin));
}

/* A refusal re-shows the kept value, which also says "value-changed":
 * only another value (a step, an accepted entry, an undo) clears the mark. */
static void
on_value_changed (GtkSpinButton *spin, gpointer data)
{
  const double *kept = g_object_get_data (G_OBJECT (spin), KEPT_KEY);
  if (kept == NULL || *kept != gtk_spin_button_get_value (spin))
    clear_error (spin);
}

static int
on_input (GtkSpinButton *spin, double *value, gpointer data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);
  double lo = gtk_adjustment_get_lower (adj), hi = gtk_adjustment_get_upper (adj), v;
  if (!flexion_parse_number (text, &v))
    {
      /* Translators: a number field refused the text typed into it */
      mark_error (spin, g_strdup_printf (_("“%s” is not a number; the value stays %g"), text,
                                         gtk_adjustment_get_value (adj)));
      return GTK_INPUT_ERROR;
    }
  if (v < lo || v > hi)
    {
      mark_error (spin, g_strdup_printf (_("%g is outside %g … %g; the value stays %g"), v, lo, hi,
                                         gtk_adjustment_get_value (adj)));
      return GTK_INPUT_ERROR;
    }
  clear_error (spin);
  *value = v;
  return TRUE;
}

/* Values the way engineers write them (2.1e+11, 0.005), in the locale. */
static gboolean
on_output (GtkSpinButton *spin, gpointer data)
{
  char buf[64];
  g_snprintf (buf, sizeof buf, "%.6g", gtk_spin_button_get_value (spin));
  if (!g_str_equal (buf, gtk_editable_get_text (GTK_EDITABLE (spin))))
    gtk_editable_set_text (GTK_EDITABLE (spin), buf);
  return TRUE;
}

/* The wheel scrolls the page the field is on (as if the field were not
 * there), and never changes the value under the pointer. */
static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, gpointer data)
{
  GtkWidget *spin = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkWidget *sw = gtk_widget_get_ancestor (spin, GTK_TYPE_SCROLLED_WINDOW);
  if (sw)
    {
      GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
      double page = gtk_adjustment_get_page_size (v);
      /* GtkScrolledWindow's step for a wheel notch */
      double step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
                    ? pow (page, 2.0 / 3.0) : 1;
      gtk_adjustment_set_value (v, gtk_adjustment_get_value (v) + dy * step);
    }
  return TRUE;
}

void
flexion_number_field_attach (GtkSpinButton *spin, gboolean engineering)
{
  gtk_spin_button_set_update_policy (spin, GTK_UPDATE_IF_VALID);
  gtk_spin_button_set_numeric (spin, FALSE);  /* numeric would drop the locale's comma */
  g_signal_connect (spin, "input", G_CALLBACK (on_input), NULL);
  if (engineering)
    g_signal_connect (spin, "output", G_CALLBACK (on_output), NULL);
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_value_changed), NULL);
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), NULL);
  gtk_widget_add_controller (GTK_WIDGET (spin), scroll);
}
