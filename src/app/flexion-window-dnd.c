/* flexion-window-dnd.c: a .flexion file dropped on the window opens in
 * it (after asking about unsaved changes). */
#include "flexion-window-private.h"

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, FlexionWindow *self)
{
  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  GSList *files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;
  _flexion_window_maybe_discard (self, _flexion_window_open_file_continuation, g_object_ref (files->data), g_object_unref);
  return TRUE;
}

void
_flexion_window_dnd_init (FlexionWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
