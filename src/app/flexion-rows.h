/* flexion-rows.h: small builders shared by the inspector, the export
 * window and the main window, so rows and toasts look and behave alike. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* An action row titled `title` (plain text: escaped, since row titles are
 * markup in libadwaita 1.2), with `subtitle` (markup, may be NULL) and
 * `control` as its activatable suffix, labelled for assistive technology
 * by the title; added to `group`. Returns the row. */
GtkWidget *flexion_control_row   (AdwPreferencesGroup *group, const char *title,
                                  const char *subtitle, GtkWidget *control);
/* A switch in such a row. */
GtkSwitch *flexion_switch_row    (AdwPreferencesGroup *group, const char *title,
                                  const char *subtitle, gboolean active);
/* A toast showing `message` as plain text (toast titles are markup in
 * libadwaita 1.2, and messages quote file names and model text). */
AdwToast  *flexion_toast_new     (const char *message, guint timeout);

G_END_DECLS
