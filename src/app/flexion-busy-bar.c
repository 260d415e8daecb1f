/* flexion-busy-bar.c */
#include "flexion-busy-bar.h"

#include <glib/gi18n.h>

struct _FlexionBusyBar {
  GtkBox parent_instance;

  GtkLabel *label;
  GtkProgressBar *progress;
  char *text;
  FlexionBusyDetail detail;
  gpointer data;
  guint timer;  /* the pulse, while shown */
};

G_DEFINE_FINAL_TYPE (FlexionBusyBar, flexion_busy_bar, GTK_TYPE_BOX)

enum { CANCEL, N_SIGNALS };
static guint signals[N_SIGNALS];

#define PULSE_MS 100

static void
refresh (FlexionBusyBar *self)
{
  const char *detail = self->detail ? self->detail (self->data) : NULL;
  /* Translators: what is being done, then the part of it under way */
  g_autofree char *line = detail ? g_strdup_printf (_("%s (%s)"), self->text, detail)
                                 : g_strdup (self->text);
  if (g_strcmp0 (gtk_label_get_text (self->label), line) != 0)
    gtk_label_set_text (self->label, line);
  /* it pulses, so it is seen to be alive however long a phase lasts */
  gtk_progress_bar_pulse (self->progress);
}

static gboolean
on_pulse (gpointer data)
{
  refresh (FLEXION_BUSY_BAR (data));
  return G_SOURCE_CONTINUE;
}

static void
on_cancel_clicked (FlexionBusyBar *self)
{
  g_signal_emit (self, signals[CANCEL], 0);
}

void
flexion_busy_bar_show (FlexionBusyBar *self, const char *text, FlexionBusyDetail detail, gpointer data)
{
  g_free (self->text);
  self->text = g_strdup (text);
  self->detail = detail;
  self->data = data;
  if (self->timer == 0)
    self->timer = g_timeout_add (PULSE_MS, on_pulse, self);
  refresh (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

void
flexion_busy_bar_hide (FlexionBusyBar *self)
{
  g_clear_handle_id (&self->timer, g_source_remove);
  self->detail = NULL;
  self->data = NULL;
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

gboolean
flexion_busy_bar_get_busy (FlexionBusyBar *self)
{
  return self->timer != 0;
}

static void
flexion_busy_bar_dispose (GObject *object)
{
  FlexionBusyBar *self = FLEXION_BUSY_BAR (object);
  g_clear_handle_id (&self->timer, g_source_remove);
  g_clear_pointer (&self->text, g_free);
  G_OBJECT_CLASS (flexion_busy_bar_parent_class)->dispose (object);
}

static void
flexion_busy_bar_class_init (FlexionBusyBarClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = flexion_busy_bar_dispose;
  signals[CANCEL] = g_signal_new ("cancel", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
flexion_busy_bar_init (FlexionBusyBar *self)
{
  GtkBox *box = GTK_BOX (self);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (box, 12);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 6);

  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->label, 0);
  gtk_box_append (box, GTK_WIDGET (self->label));

  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_pulse_step (self->progress, 0.1);
  gtk_widget_set_hexpand (GTK_WIDGET (self->progress), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->progress), GTK_ALIGN_CENTER);
  gtk_box_append (box, GTK_WIDGET (self->progress));

  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_tooltip_text (cancel, _("Stop (Escape)"));
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (on_cancel_clicked), self);
  gtk_box_append (box, cancel);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
flexion_busy_bar_new (void)
{
  return g_object_new (FLEXION_TYPE_BUSY_BAR, NULL);
}
