/* ui-harness.h: what the application's UI test programs share: running the
 * main loop until a condition holds (or for a while), and starting the
 * application under Xvfb. Each program is its own process, so that one
 * test's windows and settings do not reach another's. */
#pragma once

#include "flexion-application.h"
#include "flexion-window.h"

#include <adwaita.h>

typedef gboolean (*UiCondition) (gpointer data);

static gboolean
ui_wake (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Whether this is a sanitizer build (tools/test --sanitize), which runs
 * several times slower: wall-clock bounds are then not checked, and the
 * deadlines that only catch hangs are longer. */
static inline gboolean
ui_sanitizer_build (void)
{
  return g_getenv ("FLEXION_SANITIZE") != NULL;
}

/* Runs the main loop until cond(data) or `seconds` of wall time pass (five
 * times that in a sanitizer build: the deadline catches hangs, not speed). */
static inline gboolean
ui_wait_until (UiCondition cond, gpointer data, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * (ui_sanitizer_build () ? 5 : 1) * 1e6);
  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      gboolean woke = FALSE;
      guint id = g_timeout_add (10, ui_wake, &woke);
      g_main_context_iteration (NULL, TRUE);
      if (!woke)
        g_source_remove (id);
    }
  return TRUE;
}

static inline gboolean
ui_never (gpointer data)
{
  return FALSE;
}

static inline void
ui_spin (double seconds)
{
  ui_wait_until (ui_never, NULL, seconds);
}

/* Renders `top` (a toplevel) as the screen shows it and saves it as
 * $G_TEST_BUILDDIR/name (nothing is saved without it); returns how many
 * distinct colours it has (every second pixel). */
static inline guint
ui_screenshot (GtkWidget *top, const char *name)
{
  ui_spin (0.5);  /* let the window lay out and draw what changed */
  int w = gtk_widget_get_width (top), h = gtk_widget_get_height (top);
  g_assert_cmpint (w, >, 100);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (top);
  /* a toplevel with a layout pending (the plots follow every frame of a
   * run) draws nothing until its next frame: wait for it, a while */
  GskRenderNode *node = NULL;
  for (guint tries = 0; node == NULL && tries < 40; tries++)
    {
      if (tries > 0)
        ui_spin (0.05);
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, w, h);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (top));
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (renderer, node,
                                                                &GRAPHENE_RECT_INIT (0, 0, w, h));
  gsk_render_node_unref (node);
  if (g_getenv ("G_TEST_BUILDDIR"))
    {
      g_autofree char *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), name, NULL);
      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("screenshot: %s", path);
    }
  gsize stride = (gsize) w * 4;
  g_autofree guint8 *pixels = g_malloc (stride * h);
  gdk_texture_download (texture, pixels, stride);
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);
  for (int y = 0; y < h; y += 2)
    for (int x = 0; x < w; x += 2)
      g_hash_table_add (colours, GUINT_TO_POINTER (*(guint32 *) (pixels + y * stride + 4 * x)));
  return g_hash_table_size (colours);
}

/* GTK and the application for a test program; NULL (after printing the TAP
 * skip line) when there is no display. Criticals are fatal unless a session
 * bus (and its noise) is around. */
static inline FlexionApplication *
ui_harness_start (int *argc, char ***argv)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display: run under xvfb-run\n");
      return NULL;
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  gtk_test_init (argc, argv, NULL);
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  FlexionApplication *app = flexion_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  return app;
}

/* A window of the application, made as the application makes its own. */
static inline FlexionWindow *
ui_window_new (FlexionApplication *app)
{
  return flexion_window_new (ADW_APPLICATION (app), flexion_application_get_settings (app),
                             flexion_application_get_examples_dir (app));
}

/* A window of the application at `width` x `height`, presented and laid out. */
static inline FlexionWindow *
ui_window_shown (FlexionApplication *app, int width, int height)
{
  FlexionWindow *win = ui_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (win), width, height);
  gtk_window_present (GTK_WINDOW (win));
  ui_spin (0.3);
  return win;
}

/* The preferences row titled `title` under `widget` (the first), or NULL. */
static inline GtkWidget *
ui_find_row (GtkWidget *widget, const char *title)
{
  if (ADW_IS_PREFERENCES_ROW (widget)
      && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *r = ui_find_row (c, title);
      if (r)
        return r;
    }
  return NULL;
}

/* The first widget of `type` under `widget` (itself included), or NULL. */
static inline GtkWidget *
ui_find_type (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *r = ui_find_type (c, type);
      if (r)
        return r;
    }
  return NULL;
}

/* Types `text` into `field` and presses Enter, as a user would. */
static inline void
ui_type_into (GtkSpinButton *field, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (field), text);
  gtk_spin_button_update (field);
  ui_spin (0.3);
}

/* Waiting for a run to reach model time t, or to fail (its "failed"
 * signal, connected to ui_on_run_failed): the condition for ui_wait_until. */
typedef struct {
  FlexionSimulation *sim;
  double t;
  gboolean failed;
} UiRunWait;

static inline void
ui_on_run_failed (FlexionSimulation *sim, const char *message, UiRunWait *w)
{
  g_test_message ("failed: %s", message);
  w->failed = TRUE;
}

static inline gboolean
ui_run_done (gpointer data)
{
  UiRunWait *w = data;
  return w->failed || flexion_simulation_get_time (w->sim) >= w->t - 1e-9;
}
