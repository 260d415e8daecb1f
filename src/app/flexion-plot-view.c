/* flexion-plot-view.c */
#include "flexion-plot-view.h"

#include <glib/gi18n.h>
#include <math.h>

struct _FlexionPlotView {
  GtkWidget parent_instance;
  FxPlotKind kind;
  const FxSeries *series;
  FxSeries *empty;  /* drawn when no series is set */
  FxPlotStyle style;
  GtkWidget *menu_button;  /* the energy plot's view menu, top right */
  GSimpleActionGroup *actions;  /* borrowed: inserted in the widget */
};

enum { PROP_0, PROP_ENERGY_VIEW, N_PROPS };
static GParamSpec *props[N_PROPS];

static const char *const view_nicks[] = { "relative", "books", "absolute" };

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
  if (self->menu_button)
    gtk_widget_snapshot_child (widget, self->menu_button, snapshot);
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

static FxEnergyView
view_of_nick (const char *nick)
{
  for (guint v = 0; v < G_N_ELEMENTS (view_nicks); v++)
    if (g_strcmp0 (nick, view_nicks[v]) == 0)
      return v;
  return FX_ENERGY_RELATIVE;
}

static void
on_view_action (GSimpleAction *action, GVariant *value, FlexionPlotView *self)
{
  flexion_plot_view_set_energy_view (self, view_of_nick (g_variant_get_string (value, NULL)));
}

/* The energy plot's views (fx_energy_view_name), as a menu at its top
 * right: a radio action "plot.energy-view" on the widget. */
static void
add_view_menu (FlexionPlotView *self)
{
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GSimpleAction) action = g_simple_action_new_stateful (
    "energy-view", G_VARIANT_TYPE_STRING, g_variant_new_string (view_nicks[self->style.energy_view]));
  g_signal_connect (action, "change-state", G_CALLBACK (on_view_action), self);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "plot", G_ACTION_GROUP (group));
  self->actions = group;

  g_autoptr (GMenu) menu = g_menu_new ();
  for (guint v = 0; v < G_N_ELEMENTS (view_nicks); v++)
    {
      g_autofree char *detailed = g_strdup_printf ("plot.energy-view::%s", view_nicks[v]);
      g_menu_append (menu, fx_energy_view_name (v), detailed);
    }
  self->menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->menu_button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (self->menu_button, _("How to show the energies"));
  gtk_widget_add_css_class (self->menu_button, "flat");
  gtk_widget_set_name (self->menu_button, "energy_view_menu");
  gtk_widget_set_parent (self->menu_button, GTK_WIDGET (self));
}

static void
flexion_plot_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FlexionPlotView *self = FLEXION_PLOT_VIEW (widget);
  if (self->menu_button == NULL)
    return;
  int min_w, min_h;
  gtk_widget_measure (self->menu_button, GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
  gtk_widget_measure (self->menu_button, GTK_ORIENTATION_VERTICAL, -1, &min_h, NULL, NULL, NULL);
  gtk_widget_size_allocate (self->menu_button,
                            &(GtkAllocation) { MAX (width - min_w, 0), 0, min_w, min_h }, -1);
}

static void
flexion_plot_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  /* 150 px at least: with the Modes panel and the Measurements plot, five
   * of the row's equal shares must fit beside the inspector at 1254 px
   * (at 220 the window outgrew the screen when a measurement was plotted,
   * issue 32) */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 150 : 140;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 360 : 200;
}

static void
flexion_plot_view_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  FlexionPlotView *self = FLEXION_PLOT_VIEW (object);
  if (id == PROP_ENERGY_VIEW)
    g_value_set_string (value, view_nicks[self->style.energy_view]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
flexion_plot_view_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  FlexionPlotView *self = FLEXION_PLOT_VIEW (object);
  if (id == PROP_ENERGY_VIEW)
    flexion_plot_view_set_energy_view (self, view_of_nick (g_value_get_string (value)));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
flexion_plot_view_dispose (GObject *object)
{
  FlexionPlotView *self = FLEXION_PLOT_VIEW (object);
  g_clear_pointer (&self->menu_button, gtk_widget_unparent);
  G_OBJECT_CLASS (flexion_plot_view_parent_class)->dispose (object);
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
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  oc->finalize = flexion_plot_view_finalize;
  oc->dispose = flexion_plot_view_dispose;
  oc->get_property = flexion_plot_view_get_property;
  oc->set_property = flexion_plot_view_set_property;
  /* "relative", "books" or "absolute" (FxEnergyView), as the settings key */
  props[PROP_ENERGY_VIEW] = g_param_spec_string ("energy-view", NULL, NULL, "relative",
                                                 G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                                                 | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (oc, N_PROPS, props);
  wc->snapshot = flexion_plot_view_snapshot;
  wc->size_allocate = flexion_plot_view_size_allocate;
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
  if (kind == FX_PLOT_ENERGY)
    add_view_menu (self);
  const char *names[] = { N_("Energy plot: total, kinetic, elastic, gravity energy, supplied work and dissipated energy against time"),
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

void
flexion_plot_view_set_energy_view (FlexionPlotView *self, FxEnergyView view)
{
  if (view == self->style.energy_view)
    return;
  self->style.energy_view = view;
  GAction *action = self->actions ? g_action_map_lookup_action (G_ACTION_MAP (self->actions), "energy-view")
                                  : NULL;
  if (action)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (view_nicks[view]));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ENERGY_VIEW]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

FxEnergyView
flexion_plot_view_get_energy_view (FlexionPlotView *self)
{
  return self->style.energy_view;
}

void
flexion_plot_view_set_cursor (FlexionPlotView *self, double t)
{
  if (t == self->style.cursor_t || (isnan (t) && isnan (self->style.cursor_t)))
    return;
  self->style.cursor_t = t;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_plot_view_get_style (FlexionPlotView *self, FxPlotStyle *style)
{
  *style = self->style;
}

FxPlotKind
flexion_plot_view_get_kind (FlexionPlotView *self)
{
  return self->kind;
}
