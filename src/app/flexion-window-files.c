/* flexion-window-files.c: the window's files: opening (through the busy
 * worker of flexion-window-busy.c), examples, recent files, the question
 * before discarding changes, saving and Save As. */
#include "flexion-window-private.h"
#include "fx-model-io.h"

#include <glib/gi18n.h>
#include <string.h>

/* ---- files ---- */

static void
add_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .display_name = NULL, .description = NULL, .mime_type = (char *) "application/x-flexion",
    .app_name = (char *) "Flexion", .app_exec = (char *) "flexion %u",
  };
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

void
_flexion_window_rebuild_recent_menu (FlexionWindow *self)
{
  g_menu_remove_all (self->recent_menu);
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n = 0;
  for (GList *l = items; l && n < 8; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      if (!gtk_recent_info_has_application (info, "Flexion"))
        continue;
      const char *uri = gtk_recent_info_get_uri (info);
      if (!g_str_has_suffix (uri, ".flexion"))
        continue;
      /* the folder too: two "model.flexion" in different places must differ */
      g_autoptr (GFile) file = g_file_new_for_uri (uri);
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autofree char *dir = parent ? g_file_get_parse_name (parent) : NULL;
      g_autofree char *home = dir && g_str_has_prefix (dir, g_get_home_dir ())
                              ? g_strconcat ("~", dir + strlen (g_get_home_dir ()), NULL) : NULL;
      /* Translators: a recent file in the menu: its name, then its folder */
      g_autofree char *label = dir ? g_strdup_printf (_("%s — %s"), gtk_recent_info_get_display_name (info),
                                                      home ? home : dir)
                                   : g_strdup (gtk_recent_info_get_display_name (info));
      GMenuItem *item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "win.open-recent", g_variant_new_string (uri));
      g_menu_append_item (self->recent_menu, item);
      g_object_unref (item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  if (n == 0)
    {
      GMenuItem *item = g_menu_item_new (_("No Recent Files"), "win.none");
      g_menu_append_item (self->recent_menu, item);
      g_object_unref (item);
    }
}

static void
report_warnings (FlexionWindow *self, GPtrArray *warnings)
{
  if (warnings && warnings->len > 0)
    {
      g_autofree char *msg = g_strdup_printf (g_dngettext (NULL, "Opened with %u warning: %s",
                                                           "Opened with %u warnings; the first: %s",
                                                           warnings->len),
                                              warnings->len, (char *) warnings->pdata[0]);
      flexion_window_toast (self, msg);
    }
}

gboolean
flexion_window_load_file (FlexionWindow *self, GFile *file)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (FxDocument) doc = fx_document_new_from_file (file, &warnings, &error);
  if (doc == NULL)
    {
      _flexion_window_open_failed (self, file, error);
      return FALSE;
    }
  _flexion_window_show_opened (self, file, doc, warnings);
  return TRUE;
}

/* Why `file` could not be opened. */
void
_flexion_window_open_failed (FlexionWindow *self, GFile *file, const GError *error)
{
  g_autofree char *name = g_file_get_basename (file);
  /* the loader lists every problem, one per line: show the first in the
   * toast, the whole list on the terminal */
  g_auto (GStrv) lines = g_strsplit (error->message, "\n", 2);
  g_autofree char *msg = g_strdup_printf (_("Could not open “%s”: %s"), name, lines[0]);
  flexion_window_toast (self, msg);
  g_warning ("%s", error->message);
}

/* `doc`, just read from `file`, on screen. */
void
_flexion_window_show_opened (FlexionWindow *self, GFile *file, FxDocument *doc, GPtrArray *warnings)
{
  flexion_window_set_document (self, doc);
  report_warnings (self, warnings);
  add_recent (file);
  _flexion_window_rebuild_recent_menu (self);
}

gboolean
flexion_window_load_example (FlexionWindow *self, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_file (path, NULL, &error);
  if (m == NULL)
    {
      flexion_window_toast (self, error->message);
      return FALSE;
    }
  /* an example opens as an untitled copy, so saving never writes into the
   * installed examples */
  g_autoptr (FxDocument) doc = fx_document_new_for_model (m);
  flexion_window_set_document (self, doc);
  return TRUE;
}


static void
pending_free (Pending *p)
{
  if (p->free_data && p->data)
    p->free_data (p->data);
  g_free (p);
}


static void
on_discard_response (AdwMessageDialog *dialog, const char *response, Pending *p)
{
  /* one answer per question: `p` is gone after this */
  g_signal_handlers_disconnect_by_func (dialog, on_discard_response, p);
  if (g_str_equal (response, "discard"))
    p->then (p->self, p->data);
  else if (g_str_equal (response, "save"))
    {
      _flexion_window_save_then (p->self, p);
      return;
    }
  pending_free (p);
}

void
_flexion_window_maybe_discard (FlexionWindow *self, Continuation then, gpointer data, GDestroyNotify free_data)
{
  Pending *p = g_new0 (Pending, 1);
  *p = (Pending) { self, then, data, free_data };
  if (!fx_document_get_modified (self->doc) || model (self)->joints->len == 0)
    {
      then (self, data);
      pending_free (p);
      return;
    }
  g_autofree char *title = fx_document_dup_title (self->doc);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Save Changes?"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("“%s” has unsaved changes. Changes which are not saved will be "
                                    "permanently lost."), title);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "discard", _("_Discard"), "save", _("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_discard_response), p);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
save_to (FlexionWindow *self, GFile *file)
{
  g_autoptr (GError) error = NULL;
  if (!fx_document_save (self->doc, file, &error))
    {
      g_autofree char *msg = g_strdup_printf (_("Could not save: %s"), error->message);
      flexion_window_toast (self, msg);
      return FALSE;
    }
  add_recent (file);
  _flexion_window_rebuild_recent_menu (self);
  return TRUE;
}

static void
on_save_as_response (GtkNativeDialog *dialog, int response, Pending *p)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      if (!g_str_has_suffix (path, ".flexion"))
        {
          g_autofree char *with = g_strconcat (path, ".flexion", NULL);
          g_object_unref (file);
          file = g_file_new_for_path (with);
        }
      if (save_to (p->self, file) && p->then)
        p->then (p->self, p->data);
    }
  g_object_unref (dialog);
  pending_free (p);
}

GtkFileFilter *
_flexion_window_file_filter (void)
{
  GtkFileFilter *f = gtk_file_filter_new ();
  gtk_file_filter_set_name (f, _("Flexion mechanisms"));
  gtk_file_filter_add_pattern (f, "*.flexion");
  gtk_file_filter_add_mime_type (f, "application/x-flexion");
  return f;
}

void
_flexion_window_save_as_then (FlexionWindow *self, Pending *p)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Save Mechanism"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SAVE,
                                                              _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_autoptr (GtkFileFilter) filter = _flexion_window_file_filter ();
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_autofree char *title = fx_document_dup_title (self->doc);
  g_autofree char *name = g_str_has_suffix (title, ".flexion") ? g_strdup (title)
                                                                : g_strconcat (title, ".flexion", NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_as_response), p);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
_flexion_window_save_then (FlexionWindow *self, Pending *p)
{
  GFile *file = fx_document_get_file (self->doc);
  if (file == NULL)
    {
      _flexion_window_save_as_then (self, p);
      return;
    }
  if (save_to (self, file) && p->then)
    p->then (p->self, p->data);
  pending_free (p);
}

/* An empty, unmodified document with the preferred time step. */
FxDocument *
_flexion_window_empty_document (FlexionWindow *self)
{
  g_autoptr (FxModel) fresh = fx_model_new ();
  if (self->settings)
    fresh->dt = g_settings_get_double (self->settings, "default-dt");
  return fx_document_new_for_model (fresh);
}

void
_flexion_window_new_document (FlexionWindow *self, gpointer data)
{
  g_autoptr (FxDocument) doc = _flexion_window_empty_document (self);
  flexion_window_set_document (self, doc);
}

void
_flexion_window_open_file_continuation (FlexionWindow *self, gpointer data)
{
  flexion_window_open_file (self, G_FILE (data), FALSE);
}
