/* flexion-busy-bar.h: a bar above the canvas while work that takes seconds
 * runs on another thread (preparing the solver of a big model, opening a
 * big file): what is being done, a progress bar that keeps moving, and
 * Cancel. The window stays usable meanwhile; the bar only reports. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FLEXION_TYPE_BUSY_BAR (flexion_busy_bar_get_type ())
G_DECLARE_FINAL_TYPE (FlexionBusyBar, flexion_busy_bar, FLEXION, BUSY_BAR, GtkBox)

/* What is being done in detail now ("analysing the Newton matrix"), or
 * NULL. The bar pulses: the work's phases are too uneven for a fraction. */
typedef const char *(*FlexionBusyDetail) (gpointer data);

GtkWidget *flexion_busy_bar_new  (void);

/* Shows the bar with `text` ("Preparing the solver…"); every tenth of a
 * second it asks `detail` (may be NULL) and moves the progress bar. */
void       flexion_busy_bar_show (FlexionBusyBar *bar, const char *text,
                                  FlexionBusyDetail detail, gpointer data);
void       flexion_busy_bar_hide (FlexionBusyBar *bar);
gboolean   flexion_busy_bar_get_busy (FlexionBusyBar *bar);

/* Signal "cancel": the user pressed Cancel (the bar stays until hidden). */

G_END_DECLS
