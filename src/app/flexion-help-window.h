/* flexion-help-window.h: the user help inside the application, for when
 * yelp is not installed (a plain Debian 12 without the GNOME desktop) or
 * cannot show it. It renders the bundled HTML page (help/html) with GTK
 * alone: headings, paragraphs, lists, keys, links within the page and to
 * the web, and pictures, in a GtkTextView. No browser is needed: GTK 4.8
 * has no HTML widget, and a classroom PC may have no browser at all. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define FLEXION_TYPE_HELP_WINDOW (flexion_help_window_get_type ())
G_DECLARE_FINAL_TYPE (FlexionHelpWindow, flexion_help_window, FLEXION, HELP_WINDOW, AdwWindow)

/* A help window showing the HTML page `path` (its pictures are looked up
 * beside it); on a page that cannot be read it says so in its text. */
GtkWidget  *flexion_help_window_new        (const char *path);
/* Scrolls to the element with id `anchor` ("glossary"); FALSE if none. */
gboolean    flexion_help_window_show_anchor (FlexionHelpWindow *win, const char *anchor);
/* The page as rendered, for tests: its text and how many links and
 * pictures it holds. */
char       *flexion_help_window_dup_text   (FlexionHelpWindow *win);
guint       flexion_help_window_n_links    (FlexionHelpWindow *win);
guint       flexion_help_window_n_pictures (FlexionHelpWindow *win);

/* The bundled HTML page in the user's language (index.de.html for German,
 * when there is one), installed or, run from the build tree, in the
 * sources; NULL if there is none. */
char       *flexion_help_page_path         (void);

G_END_DECLS
