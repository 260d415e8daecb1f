/* flexion-application.h */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLEXION_TYPE_APPLICATION (flexion_application_get_type ())
G_DECLARE_FINAL_TYPE (FlexionApplication, flexion_application, FLEXION, APPLICATION, AdwApplication)

FlexionApplication *flexion_application_new          (void);
/* The settings (NULL when the schema is not installed: defaults apply). */
GSettings          *flexion_application_get_settings (FlexionApplication *app);
/* What Help (F1) opens: "help:flexion" (yelp), or the bundled HTML page. */
char               *flexion_application_help_uri     (void);
/* The bundled help in a window of the application (when yelp is missing). */
GtkWidget          *flexion_application_show_help_window (GtkWindow *parent);
/* Where the bundled example models are. */
const char         *flexion_application_get_examples_dir (FlexionApplication *app);

G_END_DECLS
