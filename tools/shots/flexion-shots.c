/* flexion-shots.c: the app in a given state, for before/after screenshots
 * (not a test; tools/shots/shots.sh drives it under Xvfb).
 *   flexion-shots MODEL WIDTH HEIGHT STEP...
 * Steps, in order: play:SECONDS  action:win.NAME  ensemble  export
 *   scale:N (deflection scale, 0 auto)  scrub:SECONDS (timeline)  wait:SECONDS
 *   set:KEY=GVARIANT (a setting)  toast:TEXT  dt:SECONDS (the model's step)
 *   speed:X (playback speed)  link:INDEX / joint:INDEX (select, -1 none)
 *   plot:SOURCE:INDEX:VALUE / against:SOURCE:INDEX:VALUE (the Measurements
 *   plot; SOURCE probe, support or time)  help (F1)  pointer:X,Y (metres)
 *   tear-off (the Measurements plot in its own window)
 *   shot:PATH (import -window root) */
#include "../../tests/ui/ui-harness.h"
#include "flexion-window.h"
#include "flexion-canvas.h"
#include "flexion-simulation.h"
#include "flexion-modes-panel.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

static GtkWidget *
find_named (GtkWidget *w, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (w), name) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);
      if (found)
        return found;
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc < 5)
    {
      g_printerr ("usage: flexion-shots MODEL WIDTH HEIGHT STEP...\n");
      return 2;
    }
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, SHOTS_PO_DIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  FlexionApplication *app = ui_harness_start (&argc, &argv);
  if (app == NULL)
    return 0;
  g_log_set_always_fatal (G_LOG_FATAL_MASK);
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), atoi (argv[2]), atoi (argv[3]));
  gtk_window_present (GTK_WINDOW (win));
  ui_spin (0.5);
  g_autoptr (GFile) file = g_file_new_for_path (argv[1]);
  if (!flexion_window_load_file (win, file))
    return 1;
  ui_spin (0.5);
  for (int i = 4; i < argc; i++)
    {
      const char *s = argv[i];
      FlexionSimulation *sim = flexion_window_get_simulation (win);
      if (g_str_has_prefix (s, "play:"))
        {
          g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
          ui_spin (g_ascii_strtod (s + 5, NULL));
          g_action_group_activate_action (G_ACTION_GROUP (win), "play", NULL);
        }
      else if (g_str_has_prefix (s, "action:"))
        {
          const char *name = s + 7;
          const char *dot = strchr (name, '.');
          GtkWidget *w = GTK_WIDGET (win);
          gtk_widget_activate_action (w, name, NULL);
          (void) dot;
        }
      else if (strcmp (s, "ensemble") == 0)
        {
          GtkWidget *t = find_named (GTK_WIDGET (win), "ensemble_toggle");
          gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (t), TRUE);
        }
      else if (strcmp (s, "export") == 0)
        flexion_window_show_export (win);
      else if (g_str_has_prefix (s, "scrub:"))
        flexion_simulation_seek (sim, g_ascii_strtod (s + 6, NULL));
      else if (g_str_has_prefix (s, "wait:"))
        ui_spin (g_ascii_strtod (s + 5, NULL));
      else if (g_str_has_prefix (s, "set:"))
        {
          /* set:KEY=VALUE, VALUE in GVariant text (10.0, true, 'x') */
          g_autoptr (GSettings) settings = g_settings_new ("io.github.flexion.Flexion");
          g_auto (GStrv) kv = g_strsplit (s + 4, "=", 2);
          g_autoptr (GVariant) v = g_variant_parse (NULL, kv[1], NULL, NULL, NULL);
          if (v == NULL || !g_settings_set_value (settings, kv[0], v))
            g_printerr ("cannot set %s\n", s);
        }
      else if (g_str_has_prefix (s, "dt:"))
        {
          FxDocument *doc = flexion_window_get_document (win);
          FxModel *m = fx_document_begin_edit (doc);
          m->dt = g_ascii_strtod (s + 3, NULL);
          fx_document_end_edit (doc, "dt", "model:dt");
        }
      else if (g_str_has_prefix (s, "scale:"))
        flexion_canvas_set_deflection_scale (FLEXION_CANVAS (flexion_window_get_canvas (win)),
                                             g_ascii_strtod (s + 6, NULL));
      else if (g_str_has_prefix (s, "speed:"))
        flexion_simulation_set_speed (sim, g_ascii_strtod (s + 6, NULL));
      else if (g_str_has_prefix (s, "link:") || g_str_has_prefix (s, "joint:"))
        {
          int k = atoi (strchr (s, ':') + 1), is_link = s[0] == 'l';
          flexion_canvas_select (FLEXION_CANVAS (flexion_window_get_canvas (win)),
                                 is_link ? -1 : k, is_link ? k : -1);
        }
      else if (g_str_has_prefix (s, "plot:") || g_str_has_prefix (s, "against:"))
        {
          g_auto (GStrv) p = g_strsplit (s, ":", 4);
          if (g_strv_length (p) == 4)
            gtk_widget_activate_action (GTK_WIDGET (win), p[0][0] == 'p' ? "measure.plot" : "measure.against",
                                        "(suu)", p[1], (guint) atoi (p[2]), (guint) atoi (p[3]));
        }
      else if (g_str_has_prefix (s, "mode:"))
        {
          /* mode:N: the Modes panel's row N (once the modes are computed) */
          FlexionModesPanel *panel = FLEXION_MODES_PANEL (ui_find_type (GTK_WIDGET (win), FLEXION_TYPE_MODES_PANEL));
          for (guint t = 0; t < 200 && flexion_modes_panel_get_modes (panel) == NULL; t++)
            ui_spin (0.1);
          flexion_modes_panel_show_mode (panel, atoi (s + 5));
        }
      else if (strcmp (s, "help") == 0)
        g_action_group_activate_action (G_ACTION_GROUP (app), "help", NULL);
      else if (strcmp (s, "tear-off") == 0)
        gtk_widget_activate_action (GTK_WIDGET (win), "measure.tear-off", NULL);
      else if (g_str_has_prefix (s, "pointer:"))
        g_signal_emit_by_name (flexion_window_get_canvas (win), "pointer-moved",
                               g_ascii_strtod (s + 8, NULL), g_ascii_strtod (strchr (s, ',') + 1, NULL));
      else if (g_str_has_prefix (s, "toast:"))
        flexion_window_toast (win, s + 6);
      else if (g_str_has_prefix (s, "shot:"))
        {
          ui_spin (0.4);
          g_autofree char *cmd = g_strdup_printf ("import -window root '%s'", s + 5);
          if (system (cmd) != 0)
            g_printerr ("import failed\n");
        }
      else
        g_printerr ("unknown step %s\n", s);
    }
  gtk_window_destroy (GTK_WINDOW (win));
  ui_spin (0.2);
  g_object_unref (app);
  return 0;
}
