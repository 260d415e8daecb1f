/* flexion-application.c: the application: settings, style, app actions,
 * command-line files and the first-start gallery. */
#include "flexion-application.h"
#include "flexion-help-window.h"
#include "flexion-window.h"
#include "flexion-preferences.h"

#include <glib/gi18n.h>

struct _FlexionApplication {
  AdwApplication parent_instance;
  GSettings *settings;
  char *examples_dir;
  gboolean play;  /* --play: start the models it opens */
};

G_DEFINE_FINAL_TYPE (FlexionApplication, flexion_application, ADW_TYPE_APPLICATION)

#ifndef FLEXION_PKGDATADIR
#define FLEXION_PKGDATADIR "/usr/share/flexion"
#endif

GSettings *
flexion_application_get_settings (FlexionApplication *self)
{
  return self->settings;
}

const char *
flexion_application_get_examples_dir (FlexionApplication *self)
{
  return self->examples_dir;
}

static char *
find_examples_dir (void)
{
  const char *env = g_getenv ("FLEXION_EXAMPLES_DIR");
  if (env && g_file_test (env, G_FILE_TEST_IS_DIR))
    return g_strdup (env);
  char *installed = g_build_filename (FLEXION_PKGDATADIR, "examples", NULL);
  if (g_file_test (installed, G_FILE_TEST_IS_DIR))
    return installed;
  g_free (installed);
#ifdef FLEXION_SOURCE_EXAMPLES
  return g_strdup (FLEXION_SOURCE_EXAMPLES);
#else
  return g_strdup (".");
#endif
}

static void
apply_style (FlexionApplication *self)
{
  AdwStyleManager *sm = adw_style_manager_get_default ();
  g_autofree char *style = self->settings ? g_settings_get_string (self->settings, "style") : NULL;
  AdwColorScheme scheme = ADW_COLOR_SCHEME_DEFAULT;
  if (g_strcmp0 (style, "light") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_strcmp0 (style, "dark") == 0)
    scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (sm, scheme);
}

static FlexionWindow *
new_window (FlexionApplication *self)
{
  FlexionWindow *win = flexion_window_new (ADW_APPLICATION (self), self->settings,
                                           self->examples_dir);
  return win;
}

static void
flexion_application_activate (GApplication *app)
{
  FlexionApplication *self = FLEXION_APPLICATION (app);
  GtkWindow *win = gtk_application_get_active_window (GTK_APPLICATION (app));
  gboolean first = win == NULL;
  if (win == NULL)
    win = GTK_WINDOW (new_window (self));
  gtk_window_present (win);
  if (first && self->settings && g_settings_get_boolean (self->settings, "show-gallery-on-start"))
    flexion_window_show_gallery (FLEXION_WINDOW (win));
}

static void
flexion_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  FlexionApplication *self = FLEXION_APPLICATION (app);
  for (int i = 0; i < n_files; i++)
    {
      GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
      FlexionWindow *win = active && flexion_window_is_pristine (FLEXION_WINDOW (active))
                           ? FLEXION_WINDOW (active) : new_window (self);
      /* the window at once; a big file is read on a worker thread */
      flexion_window_open_file (win, files[i], self->play);
      gtk_window_present (GTK_WINDOW (win));
    }
}

static void
app_quit (GSimpleAction *a, GVariant *p, gpointer data)
{
  /* close every window: each asks about its unsaved changes */
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (data));
  for (GList *l = g_list_copy (windows); l; l = g_list_delete_link (l, l))
    gtk_window_close (GTK_WINDOW (l->data));
}

static void
app_preferences (GSimpleAction *a, GVariant *p, gpointer data)
{
  FlexionApplication *self = data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (self->settings == NULL)
    {
      if (parent)
        flexion_window_toast (FLEXION_WINDOW (parent),
                              _("Preferences are unavailable: the settings schema is not installed"));
      return;
    }
  gtk_window_present (GTK_WINDOW (flexion_preferences_new (parent, self->settings)));
}

static void
app_about (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  const char *developers[] = { _("The Flexion developers"), NULL };
  GtkWidget *about = adw_about_window_new ();
  g_object_set (about,
                "transient-for", parent,
                "application-name", "Flexion",
                "application-icon", "io.github.flexion.Flexion",
                "developer-name", _("The Flexion developers"),
                "version", FLEXION_VERSION,
                "website", "https://github.com/flexion/flexion",
                "issue-url", "https://github.com/flexion/flexion/issues",
                "license-type", GTK_LICENSE_GPL_3_0,
                "comments", _("Draw flexible mechanisms and watch them move and bend. Every link is "
                              "an intrinsic port-Hamiltonian beam, integrated with the implicit "
                              "midpoint rule, which conserves energy to round-off."),
                "developers", developers,
                /* Translators: put your names here, one per line */
                "translator-credits", _("translator-credits"),
                NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
app_examples (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkWindow *win = gtk_application_get_active_window (GTK_APPLICATION (data));
  if (win)
    flexion_window_show_gallery (FLEXION_WINDOW (win));
}

/* The help: the Mallard pages in yelp ("help:flexion") when yelp and the
 * pages are installed; else the same text, bundled as an HTML page, in a
 * help window of our own (flexion-help-window.c): Debian 12 ships yelp
 * only with the GNOME desktop, and a classroom PC may have no browser. */
char *
flexion_application_help_uri (void)
{
  g_autofree char *yelp = g_find_program_in_path ("yelp");
  g_autofree char *page = g_build_filename (FLEXION_HELPDIR, "C", "flexion", "index.page", NULL);
  if (yelp && g_file_test (page, G_FILE_TEST_IS_REGULAR))
    return g_strdup ("help:flexion");
  g_autofree char *html = flexion_help_page_path ();
  return html ? g_filename_to_uri (html, NULL, NULL) : NULL;
}

/* The help in a window of the application, beside `parent`. */
GtkWidget *
flexion_application_show_help_window (GtkWindow *parent)
{
  g_autofree char *path = flexion_help_page_path ();
  GtkWidget *help = flexion_help_window_new (path);
  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (help), parent);
      gtk_window_set_application (GTK_WINDOW (help), gtk_window_get_application (parent));
    }
  gtk_window_present (GTK_WINDOW (help));
  return help;
}

static void
on_yelp_shown (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  if (!gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      g_debug ("yelp did not show the help (%s): the help window does", error->message);
      flexion_application_show_help_window (GTK_WINDOW (source));
    }
}

static void
app_help (GSimpleAction *a, GVariant *p, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  g_autofree char *uri = flexion_application_help_uri ();
  /* yelp, when it is there; if it fails after all, our own window */
  if (parent && uri && g_str_equal (uri, "help:flexion"))
    gtk_show_uri_full (parent, uri, GDK_CURRENT_TIME, NULL, on_yelp_shown, NULL);
  else
    flexion_application_show_help_window (parent);
}

static const GActionEntry app_entries[] = {
  { .name = "help", .activate = app_help },
  { .name = "quit", .activate = app_quit },
  { .name = "preferences", .activate = app_preferences },
  { .name = "about", .activate = app_about },
  { .name = "examples", .activate = app_examples },
};

static void
set_accels (GtkApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.help", { "F1", NULL } },
    { "win.new", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.examples", { "<Control>e", NULL } },
    { "win.export", { "<Control><Shift>e", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.fit", { "<Control>0", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out", { "<Control>minus", NULL } },
    { "win.reset", { "<Control>r", NULL } },
    { "win.presentation", { "F5", "F11", NULL } },
    { "win.toggle-inspector", { "F9", NULL } },
    { "win.next-diagram", { "<Control>d", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (app, accels[i].action, accels[i].accels);
}

static void
flexion_application_startup (GApplication *app)
{
  FlexionApplication *self = FLEXION_APPLICATION (app);
  G_APPLICATION_CLASS (flexion_application_parent_class)->startup (app);

  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, "io.github.flexion.Flexion", TRUE) : NULL;
  if (schema)
    {
      self->settings = g_settings_new ("io.github.flexion.Flexion");
      g_signal_connect_swapped (self->settings, "changed::style", G_CALLBACK (apply_style), self);
    }
  else
    g_warning ("The settings schema io.github.flexion.Flexion is not installed: using defaults");
  apply_style (self);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  set_accels (GTK_APPLICATION (app));

  GtkCssProvider *css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/flexion/Flexion/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref (css);
}

static int
flexion_application_handle_local_options (GApplication *app, GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("flexion %s\n", FLEXION_VERSION);
      return 0;
    }
  FLEXION_APPLICATION (app)->play = g_variant_dict_contains (options, "play");
  return -1;
}

static void
flexion_application_finalize (GObject *object)
{
  FlexionApplication *self = FLEXION_APPLICATION (object);
  g_clear_object (&self->settings);
  g_free (self->examples_dir);
  G_OBJECT_CLASS (flexion_application_parent_class)->finalize (object);
}

static void
flexion_application_class_init (FlexionApplicationClass *klass)
{
  GApplicationClass *ac = G_APPLICATION_CLASS (klass);
  G_OBJECT_CLASS (klass)->finalize = flexion_application_finalize;
  ac->activate = flexion_application_activate;
  ac->open = flexion_application_open;
  ac->startup = flexion_application_startup;
  ac->handle_local_options = flexion_application_handle_local_options;
}

static void
flexion_application_init (FlexionApplication *self)
{
  self->examples_dir = find_examples_dir ();
  static const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
    { "play", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Start playing the models given"), NULL },
    { NULL },
  };
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

FlexionApplication *
flexion_application_new (void)
{
  return g_object_new (FLEXION_TYPE_APPLICATION,
                       "application-id", "io.github.flexion.Flexion",
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/flexion/Flexion",
                       NULL);
}
