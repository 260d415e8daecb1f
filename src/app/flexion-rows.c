/* flexion-rows.c */
#include "flexion-rows.h"

GtkWidget *
flexion_control_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
                     GtkWidget *control)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
  if (subtitle && subtitle[0])
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (control, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (control), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), control);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), control);
  adw_preferences_group_add (group, row);
  return row;
}

GtkSwitch *
flexion_switch_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
                    gboolean active)
{
  GtkWidget *sw = gtk_switch_new ();
  gtk_switch_set_active (GTK_SWITCH (sw), active);
  flexion_control_row (group, title, subtitle, sw);
  return GTK_SWITCH (sw);
}

AdwToast *
flexion_toast_new (const char *message, guint timeout)
{
  g_autofree char *escaped = g_markup_escape_text (message, -1);
  AdwToast *toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, timeout);
  /* the whole message, wrapped: a toast's own title is cut off at one line,
   * and an error's reason is usually at its end */
  GtkWidget *label = gtk_label_new (message);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 70);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  adw_toast_set_custom_title (toast, label);
  return toast;
}
