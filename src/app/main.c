/* main.c: the flexion program. */
#include "flexion-application.h"

#include <glib/gi18n.h>
#include <locale.h>

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

#ifdef FLEXION_BUILD_SCHEMA_DIR
  /* Run from the build tree (not installed): use the schema compiled there,
   * ahead of any the environment names. Decided before anything asks for
   * the default schema source, which GLib caches. */
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = exe ? g_path_get_dirname (exe) : NULL;
  if (exe_dir && g_str_equal (exe_dir, FLEXION_BUILD_APP_DIR)
      && g_file_test (FLEXION_BUILD_SCHEMA_DIR "/gschemas.compiled", G_FILE_TEST_EXISTS))
    {
      const char *old = g_getenv ("GSETTINGS_SCHEMA_DIR");
      g_autofree char *dirs = old && *old ? g_strconcat (FLEXION_BUILD_SCHEMA_DIR, ":", old, NULL)
                                          : g_strdup (FLEXION_BUILD_SCHEMA_DIR);
      g_setenv ("GSETTINGS_SCHEMA_DIR", dirs, TRUE);
      /* and the translations compiled there (build/po/<lang>/LC_MESSAGES),
       * so LANGUAGE=de works before installing */
      bindtextdomain (GETTEXT_PACKAGE, FLEXION_BUILD_PO_DIR);
    }
#endif

  g_autoptr (FlexionApplication) app = flexion_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
