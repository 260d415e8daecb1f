/* flexion-measure-view.c */
#include "flexion-measure-view.h"

#include <adwaita.h>
#include <glib/gi18n.h>

struct _FlexionMeasureView {
  GtkWidget parent_instance;
  GtkWidget *overlay, *area, *buttons;
  FlexionSimulation *sim;  /* its series is drawn */
  FxSeries *empty;         /* drawn before a simulation is set */
  FxMeasurePlot plot;
  FxPlotStyle style;
  /* The plot belongs to the document: its quantities are named by what
   * they measure (a probe's id, a support's joint id), so that an edit
   * that renumbers probes or joints keeps each curve on its item, and a
   * curve whose item is deleted goes with it; undo brings it back. */
  FxDocument *doc;
  char *keys[FX_MEASURE_MAX_CURVES];  /* of plot.y                  */
  char *x_key;                        /* of plot.x; NULL: time       */
  GPtrArray *gone;                    /* Gone: curves of deleted items */
  gboolean pinned;  /* shown even when empty (the lesson view) */
};

typedef struct {
  FxQuantity q;
  char *key;
  gboolean is_x;
} Gone;

static void
gone_free (gpointer data)
{
  Gone *g = data;
  g_free (g->key);
  g_free (g);
}

G_DEFINE_FINAL_TYPE (FlexionMeasureView, flexion_measure_view, GTK_TYPE_WIDGET)

const FxSeries *
flexion_measure_view_get_series (FlexionMeasureView *self)
{
  return self->sim ? flexion_simulation_get_series (self->sim) : self->empty;
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  FlexionMeasureView *self = data;
  const FxSeries *series = flexion_measure_view_get_series (self);

  self->style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  fx_measure_plot_draw (cr, &self->plot, series, &self->style, w, h);
}

static void
on_motion (GtkEventControllerMotion *c, double x, double y, FlexionMeasureView *self)
{
  self->style.hover_x = x;
  self->style.hover_y = y;
  gtk_widget_queue_draw (self->area);
}

static void
on_leave (GtkEventControllerMotion *c, FlexionMeasureView *self)
{
  self->style.hover_x = -1;
  gtk_widget_queue_draw (self->area);
}

static void
redraw (FlexionMeasureView *self)
{
  gtk_widget_queue_draw (self->area);
}

/* ---------------------------------------------------- the document's */

/* What q measures, by name: "probe:P1", "support:O"; NULL for time or an
 * item the model does not have. */
static char *
key_of (const FxModel *m, const FxQuantity *q)
{
  if (m == NULL)
    return NULL;
  if (q->source == FX_QUANTITY_PROBE && q->index < m->probes->len)
    {
      const FxProbe *p = fx_model_probe (m, q->index);
      return p->id ? g_strdup_printf ("probe:%s", p->id)
                   : g_strdup_printf ("probe@%s:%.17g", p->link ? p->link : "", p->s);
    }
  if (q->source == FX_QUANTITY_SUPPORT && q->index < m->joints->len)
    return g_strdup_printf ("support:%s", fx_model_joint (m, q->index)->id);
  return NULL;
}

/* The index of the item named `key` for a quantity of `source`, or -1. */
static int
find_key (const FxModel *m, FxQuantitySource source, const char *key)
{
  FxQuantity q = { source, 0, 0 };
  guint n = source == FX_QUANTITY_PROBE ? m->probes->len : m->joints->len;
  for (q.index = 0; key && q.index < n; q.index++)
    {
      if (source == FX_QUANTITY_SUPPORT && fx_model_joint (m, q.index)->support == FX_SUPPORT_NONE)
        continue;
      g_autofree char *k = key_of (m, &q);
      if (g_strcmp0 (k, key) == 0)
        return (int) q.index;
    }
  return -1;
}

static const FxModel *
doc_model (FlexionMeasureView *self)
{
  return self->doc ? fx_document_get_model (self->doc) : NULL;
}

/* After the curves changed (added, replaced, reordered): their names. */
static void
refresh_keys (FlexionMeasureView *self)
{
  for (guint c = 0; c < FX_MEASURE_MAX_CURVES; c++)
    g_clear_pointer (&self->keys[c], g_free);
  for (guint c = 0; c < self->plot.n_curves; c++)
    self->keys[c] = key_of (doc_model (self), &self->plot.y[c]);
  g_clear_pointer (&self->x_key, g_free);
  self->x_key = key_of (doc_model (self), &self->plot.x);
}

static void
forget (FlexionMeasureView *self)
{
  fx_measure_plot_init (&self->plot);
  refresh_keys (self);
  g_ptr_array_set_size (self->gone, 0);
}

static void
put_back (FlexionMeasureView *self, Gone *g)
{
  if (g->is_x)
    self->plot.x = g->q;
  else
    fx_measure_plot_add (&self->plot, &g->q);
}

/* An edit, undo or redo: each curve follows its item to its new index; a
 * curve whose item went is kept aside, and comes back when its item does
 * by undo or redo. An ordinary edit empties the redo history, so an item
 * of that name appearing then is another one: its curve is dropped. */
static void
on_doc_changed (FlexionMeasureView *self)
{
  const FxModel *m = doc_model (self);
  gboolean had = self->plot.n_curves > 0, back = fx_document_can_redo (self->doc);
  FxMeasurePlot kept;

  fx_measure_plot_init (&kept);
  for (guint c = 0; c < self->plot.n_curves; c++)
    {
      FxQuantity q = self->plot.y[c];
      int i = find_key (m, q.source, self->keys[c]);
      if (i >= 0)
        {
          q.index = (guint) i;
          kept.y[kept.n_curves++] = q;
          continue;
        }
      Gone *g = g_new0 (Gone, 1);
      g->q = q, g->key = g_strdup (self->keys[c]);
      g_ptr_array_add (self->gone, g);
    }
  kept.x = self->plot.x;
  if (self->x_key)
    {
      int i = find_key (m, kept.x.source, self->x_key);
      if (i >= 0)
        kept.x.index = (guint) i;
      else
        {
          Gone *g = g_new0 (Gone, 1);
          g->q = kept.x, g->key = g_strdup (self->x_key), g->is_x = TRUE;
          g_ptr_array_add (self->gone, g);
          kept.x = (FxQuantity) { FX_QUANTITY_TIME, 0, 0 };
        }
    }
  self->plot = kept;
  gboolean revived = FALSE;
  for (guint j = 0; j < self->gone->len;)
    {
      Gone *g = g_ptr_array_index (self->gone, j);
      int i = find_key (m, g->q.source, g->key);
      if (i < 0)
        {
          j++;
          continue;
        }
      g->q.index = (guint) i;
      if (back)
        put_back (self, g), revived = TRUE;
      g_ptr_array_remove_index (self->gone, j);
    }
  refresh_keys (self);
  if (revived)
    gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  else if (had && self->plot.n_curves == 0)
    gtk_widget_set_visible (GTK_WIDGET (self), self->pinned);
  redraw (self);
}

void
flexion_measure_view_set_document (FlexionMeasureView *self, FxDocument *doc)
{
  if (self->doc)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  g_set_object (&self->doc, doc);
  if (doc)
    g_signal_connect_swapped (doc, "changed", G_CALLBACK (on_doc_changed), self);
  /* a new document starts empty, against time */
  forget (self);
  gtk_widget_set_visible (GTK_WIDGET (self), self->pinned);
  redraw (self);
}

/* A copy of the plot in a window of its own, as large as the screen
 * allows: the same run, the same curves, following the same document. */
GtkWidget *
flexion_measure_view_tear_off (FlexionMeasureView *self)
{
  FlexionMeasureView *copy = FLEXION_MEASURE_VIEW (flexion_measure_view_new ());
  gtk_widget_set_visible (copy->buttons, FALSE);
  flexion_measure_view_set_simulation (copy, self->sim);
  flexion_measure_view_set_document (copy, self->doc);
  copy->plot = self->plot;
  copy->style = self->style;
  copy->style.hover_x = -1;
  copy->style.font_scale = 1.3;
  refresh_keys (copy);
  gtk_widget_set_visible (GTK_WIDGET (copy), TRUE);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (copy->area), 400);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (copy->area), 300);

  GtkWidget *win = adw_window_new ();
  g_autofree char *title = self->plot.n_curves == 1
                           ? fx_quantity_name (flexion_measure_view_get_series (self), &self->plot.y[0])
                           : g_strdup (_("Measurements"));
  gtk_window_set_title (GTK_WINDOW (win), title);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  if (GTK_IS_WINDOW (root))
    {
      gtk_window_set_transient_for (GTK_WINDOW (win), GTK_WINDOW (root));
      gtk_window_set_application (GTK_WINDOW (win), gtk_window_get_application (GTK_WINDOW (root)));
    }
  gtk_window_set_default_size (GTK_WINDOW (win), 900, 600);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), adw_window_title_new (title, _("Measurements")));
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (copy));
  adw_window_set_content (ADW_WINDOW (win), box);
  gtk_window_present (GTK_WINDOW (win));
  return win;
}

static void
on_tear_off (GSimpleAction *action, GVariant *param, gpointer data)
{
  flexion_measure_view_tear_off (data);
}

void
flexion_measure_view_set_pinned (FlexionMeasureView *self, gboolean pinned)
{
  self->pinned = pinned;
  if (pinned)
    gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  else if (self->plot.n_curves == 0)
    gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* ------------------------------------------------------------ actions */

static gboolean
quantity_of (GVariant *v, FxQuantity *q)
{
  const char *source;
  guint32 index, value;

  g_variant_get (v, "(&suu)", &source, &index, &value);
  q->index = index;
  q->value = value;
  if (g_str_equal (source, "probe") && value < FX_PROBE_N_ALL)
    q->source = FX_QUANTITY_PROBE;
  else if (g_str_equal (source, "support") && value < FX_REACTION_N_VALUES)
    q->source = FX_QUANTITY_SUPPORT;
  else if (g_str_equal (source, "time"))
    q->source = FX_QUANTITY_TIME;
  else
    return FALSE;
  return TRUE;
}

static void
on_plot (GSimpleAction *action, GVariant *param, gpointer data)
{
  FxQuantity q;
  if (quantity_of (param, &q))
    flexion_measure_view_plot (data, &q);
}

static void
on_against (GSimpleAction *action, GVariant *param, gpointer data)
{
  FxQuantity q;
  if (quantity_of (param, &q))
    flexion_measure_view_against (data, &q);
}

static void
on_close (GSimpleAction *action, GVariant *param, gpointer data)
{
  flexion_measure_view_close (data);
}

void
flexion_measure_view_install_actions (FlexionMeasureView *self, GtkWidget *widget)
{
  const GActionEntry entries[] = {
    { "plot", on_plot, "(suu)", NULL, NULL, { 0 } },
    { "against", on_against, "(suu)", NULL, NULL, { 0 } },
    { "close", on_close, NULL, NULL, NULL, { 0 } },
    { "tear-off", on_tear_off, NULL, NULL, NULL, { 0 } },
  };
  GSimpleActionGroup *group = g_simple_action_group_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (widget, "measure", G_ACTION_GROUP (group));
  g_object_unref (group);
}

static void
menu_item (GMenu *menu, const char *label, const char *action, const char *source, guint index,
           guint value)
{
  GMenuItem *item = g_menu_item_new (label, NULL);
  g_menu_item_set_action_and_target (item, action, "(suu)", source, index, value);
  g_menu_append_item (menu, item);
  g_object_unref (item);
}

GMenuModel *
flexion_measure_menu_new (FxQuantitySource source, guint index, FxHolds holds)
{
  GMenu *menu = g_menu_new ();
  GMenu *plot = g_menu_new (), *against = g_menu_new ();
  const char *name = source == FX_QUANTITY_PROBE ? "probe" : "support";

  for (guint v = 0; source == FX_QUANTITY_PROBE && v < FX_PROBE_N_ALL; v++)
    {
      g_autofree char *label = g_strdup_printf (_("Plot %s"), fx_probe_value_name (v));
      menu_item (plot, label, "measure.plot", name, index, v);
      menu_item (against, fx_probe_value_name (v), "measure.against", name, index, v);
    }
  for (guint v = 0; source == FX_QUANTITY_SUPPORT && v < FX_REACTION_N_VALUES; v++)
    {
      if (!fx_holds_value (holds, v))
        continue;
      g_autofree char *label = g_strdup_printf (_("Plot %s"), fx_reaction_value_name (v));
      menu_item (plot, label, "measure.plot", name, index, v);
      menu_item (against, fx_reaction_value_name (v), "measure.against", name, index, v);
    }
  menu_item (against, _("Time"), "measure.against", "time", 0, 0);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (plot));
  g_menu_append_submenu (menu, _("Horizontal Axis"), G_MENU_MODEL (against));
  g_object_unref (plot);
  g_object_unref (against);
  return G_MENU_MODEL (menu);
}

/* --------------------------------------------------------------- view */

void
flexion_measure_view_plot (FlexionMeasureView *self, const FxQuantity *q)
{
  fx_measure_plot_add (&self->plot, q);
  refresh_keys (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  redraw (self);
}

void
flexion_measure_view_against (FlexionMeasureView *self, const FxQuantity *x)
{
  self->plot.x = *x;
  refresh_keys (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  redraw (self);
}

void
flexion_measure_view_close (FlexionMeasureView *self)
{
  forget (self);
  gtk_widget_set_visible (GTK_WIDGET (self), self->pinned);
}

const FxMeasurePlot *
flexion_measure_view_get_plot (FlexionMeasureView *self)
{
  return &self->plot;
}

void
flexion_measure_view_set_simulation (FlexionMeasureView *self, FlexionSimulation *sim)
{
  if (self->sim)
    g_signal_handlers_disconnect_by_data (self->sim, self);
  g_set_object (&self->sim, sim);
  if (sim)
    g_signal_connect_swapped (sim, "frame", G_CALLBACK (redraw), self);
  redraw (self);
}

void
flexion_measure_view_set_window (FlexionMeasureView *self, double seconds)
{
  self->style.t_window = seconds;
  redraw (self);
}

void
flexion_measure_view_set_font_scale (FlexionMeasureView *self, double scale)
{
  self->style.font_scale = scale;
  redraw (self);
}

static void
flexion_measure_view_dispose (GObject *object)
{
  FlexionMeasureView *self = FLEXION_MEASURE_VIEW (object);

  flexion_measure_view_set_simulation (self, NULL);
  if (self->doc)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  g_clear_object (&self->doc);
  g_clear_pointer (&self->overlay, gtk_widget_unparent);
  G_OBJECT_CLASS (flexion_measure_view_parent_class)->dispose (object);
}

static void
flexion_measure_view_finalize (GObject *object)
{
  FlexionMeasureView *self = FLEXION_MEASURE_VIEW (object);
  fx_series_free (self->empty);
  for (guint c = 0; c < FX_MEASURE_MAX_CURVES; c++)
    g_free (self->keys[c]);
  g_free (self->x_key);
  g_ptr_array_unref (self->gone);
  G_OBJECT_CLASS (flexion_measure_view_parent_class)->finalize (object);
}

static void
flexion_measure_view_class_init (FlexionMeasureViewClass *klass)
{
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = flexion_measure_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = flexion_measure_view_finalize;
  gtk_widget_class_set_layout_manager_type (wc, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (wc, "flexion-measure-plot");
}

static void
flexion_measure_view_init (FlexionMeasureView *self)
{
  fx_measure_plot_init (&self->plot);
  fx_plot_style_init (&self->style);
  self->empty = fx_series_new ();
  self->gone = g_ptr_array_new_with_free_func (gone_free);

  self->area = gtk_drawing_area_new ();
  /* no wider than the Modes panel: the plots row is homogeneous, and a
   * wider one made every plot wider and the window outgrow 1254 px */
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self->area), 150);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area), 140);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Measurements plot: the quantities picked from probes and supports"),
                                  -1);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (self->area, motion);

  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_set_tooltip_text (close, _("Close the Measurements plot"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (close), "measure.close");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  GtkWidget *enlarge = gtk_button_new_from_icon_name ("view-fullscreen-symbolic");
  gtk_widget_set_tooltip_text (enlarge, _("Open the plot in a window of its own, large"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (enlarge), "measure.tear-off");
  gtk_widget_add_css_class (enlarge, "flat");
  gtk_widget_add_css_class (enlarge, "circular");
  self->buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (self->buttons), enlarge);
  gtk_box_append (GTK_BOX (self->buttons), close);
  gtk_widget_set_halign (self->buttons, GTK_ALIGN_END);
  gtk_widget_set_valign (self->buttons, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->buttons, 2);
  gtk_widget_set_margin_end (self->buttons, 2);

  self->overlay = gtk_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (self->overlay), self->area);
  gtk_overlay_add_overlay (GTK_OVERLAY (self->overlay), self->buttons);
  gtk_widget_set_parent (self->overlay, GTK_WIDGET (self));
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
flexion_measure_view_new (void)
{
  return g_object_new (FLEXION_TYPE_MEASURE_VIEW, NULL);
}
