/* flexion-plot-view.c */
#include "flexion-plot-view.h"

#include <glib/gi18n.h>

struct _FlexionPlotView {
  GtkWidget parent_instance;
  FxPlotKind kind;
  const FxSeries *series;
  FxSeries *empty;  /* drawn when no series is set */
  FxPlotStyle style;
};

G_DEFINE_FINAL_TYPE (FlexionPlotView, flexion_plot_view, GTK_TYPE_WIDGET)

static void
flexion_plot_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FlexionPlotView *self = FLEXION_PLOT_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  if (w <= 0 || h <= 0)
    return;
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  fx_plot_draw (cr, self->kind, self->series ? self->series : self->empty, &self->style, w, h);
  cairo_destroy (cr);
}

static void
on_motion (GtkEventControllerMotion *c, double x, double y, FlexionPlotView *self)
{
  self->style.hover_x = x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *c, FlexionPlotView *self)
{
  self->style.hover_x = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
flexion_plot_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 220 : 140;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 360 : 200;
}

static void
flexion_plot_view_finalize (GObject *object)
{
  FlexionPlotView *self = FLEXION_PLOT_VIEW (object);
  fx_series_free (self->empty);
  G_OBJECT_CLASS (flexion_plot_view_parent_class)->finalize (object);
}

static void
flexion_plot_view_class_init (FlexionPlotViewClass *klass)
{
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->finalize = flexion_plot_view_finalize;
  wc->snapshot = flexion_plot_view_snapshot;
  wc->measure = flexion_plot_view_measure;
  gtk_widget_class_set_css_name (wc, "flexion-plot");
  gtk_widget_class_set_accessible_role (wc, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
flexion_plot_view_init (FlexionPlotView *self)
{
  fx_plot_style_init (&self->style);
  self->empty = fx_series_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
flexion_plot_view_new (FxPlotKind kind)
{
  FlexionPlotView *self = g_object_new (FLEXION_TYPE_PLOT_VIEW, NULL);
  self->kind = kind;
  const char *names[] = { N_("Energy plot: total, kinetic, elastic, gravity energy and supplied work against time"),
                          N_("Energy balance residual per step, logarithmic scale"),
                          N_("Newton iterations per time step"),
                          N_("Probe trajectories, y against x") };
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _(names[kind]), -1);
  return GTK_WIDGET (self);
}

void
flexion_plot_view_set_series (FlexionPlotView *self, const FxSeries *series)
{
  self->series = series;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_plot_view_set_dark (FlexionPlotView *self, gboolean dark)
{
  self->style.dark = dark;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_plot_view_set_window (FlexionPlotView *self, double seconds)
{
  self->style.t_window = seconds;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_plot_view_set_font_scale (FlexionPlotView *self, double scale)
{
  self->style.font_scale = scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

FxPlotKind
flexion_plot_view_get_kind (FlexionPlotView *self)
{
  return self->kind;
}
