/* flexion-preferences.h: the preferences window, a view of the
 * io.github.flexion.Flexion settings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLEXION_TYPE_PREFERENCES (flexion_preferences_get_type ())
G_DECLARE_FINAL_TYPE (FlexionPreferences, flexion_preferences, FLEXION, PREFERENCES,
                      AdwPreferencesWindow)

/* A modal preferences window for `settings` (of the schema
 * io.github.flexion.Flexion), transient for `parent`. Changes apply at once. */
GtkWidget *flexion_preferences_new (GtkWindow *parent,
                                    GSettings *settings);

G_END_DECLS
