/* flexion-canvas.c: the canvas object, its model and frames, the ticks
 * that pace a run, the view and the drawing. Input is in
 * flexion-canvas-input.c, the context menu in flexion-canvas-menu.c. */
#include "flexion-canvas-private.h"
#include "fx-deflection.h"
#include "fx-conflicts.h"

#include <glib/gi18n.h>
#include <math.h>

G_DEFINE_FINAL_TYPE (FlexionCanvas, flexion_canvas, GTK_TYPE_WIDGET)

enum { SELECTION_CHANGED, POINTER_MOVED, N_SIGNALS };
static guint signals[N_SIGNALS];

void
canvas_emit_pointer_moved (FlexionCanvas *self, double wx, double wy)
{
  g_signal_emit (self, signals[POINTER_MOVED], 0, wx, wy);
}

/* ---- model and frames ---- */

const FxModel *
canvas_model (FlexionCanvas *self)
{
  return fx_document_get_model (self->doc);
}

/* The frame on screen: the run's, or the drawn model. */
static const FxStepFrame *
shown_frame (FlexionCanvas *self)
{
  FxStepFrame *f = self->sim ? flexion_simulation_get_frame (self->sim) : NULL;
  return f ? f : self->model_frame;
}

/* The shown frame as drawn, with its deflection magnified: what picks and
 * the pull's rubber band must match (a new reference). */
FxStepFrame *
canvas_drawn_frame (FlexionCanvas *self)
{
  const FxStepFrame *f = shown_frame (self);
  if (f == self->model_frame)
    return fx_step_frame_ref (self->model_frame);
  return fx_deflection_magnify (canvas_model (self), f, flexion_canvas_get_deflection_scale (self));
}

gboolean
canvas_playing (FlexionCanvas *self)
{
  return self->sim && flexion_simulation_get_playing (self->sim);
}

static void
rebuild_model_frame (FlexionCanvas *self)
{
  g_clear_pointer (&self->model_frame, fx_step_frame_unref);
  g_clear_pointer (&self->assignment, fx_assignment_free);
  g_clear_pointer (&self->relaxed, fx_assignment_free);
  self->model_frame = fx_step_frame_new_from_model (canvas_model (self));
  /* a big model's causality (seconds) comes from the thread that opened it */
  self->assignment = self->given_assignment ? g_steal_pointer (&self->given_assignment)
                                            : fx_assignment_compute (canvas_model (self));
  g_clear_pointer (&self->conflicts, g_ptr_array_unref);
  if (!fx_assignment_ok (self->assignment))
    {
      self->conflicts = fx_conflict_ends (canvas_model (self));
      self->relaxed = fx_conflict_relaxed_assignment (canvas_model (self), self->conflicts);
    }
}

static void
clamp_selection (FlexionCanvas *self)
{
  const FxModel *m = canvas_model (self);
  gboolean changed = FALSE;
  if (self->selected_joint >= (int) m->joints->len)
    self->selected_joint = -1, changed = TRUE;
  if (self->selected_link >= (int) m->links->len)
    self->selected_link = -1, changed = TRUE;
  self->hover_joint = self->hover_link = -1;
  if (changed)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
on_document_changed (FlexionCanvas *self)
{
  rebuild_model_frame (self);
  clamp_selection (self);
  /* an edit is made on the view as it is: a panel that opens or closes
   * after it must not re-fit the model under the pointer (issue 32) */
  self->view_moved = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- ticks: the frame clock paces the run ---- */

static gboolean
on_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  FlexionCanvas *self = FLEXION_CANVAS (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  if (self->last_tick)
    self->max_gap = MAX (self->max_gap, now - self->last_tick);
  if (self->last_tick && now - self->last_tick > 40000)
    g_debug ("tick gap %.1f ms (wall %.1f ms since last tick end)", (now - self->last_tick) / 1e3,
             (g_get_monotonic_time () - self->last_tick_end) / 1e3);
  self->last_tick = now;

  gint64 t0 = g_get_monotonic_time ();
  if (self->sim)
    flexion_simulation_tick (self->sim, now);
  if (g_get_monotonic_time () - t0 > 10000)
    g_debug ("slow tick: %.1f ms", (g_get_monotonic_time () - t0) / 1e3);
  self->last_tick_end = g_get_monotonic_time ();
  if (self->sim == NULL || !flexion_simulation_wants_ticks (self->sim))
    {
      self->tick_id = 0;
      self->last_tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
ensure_ticking (FlexionCanvas *self)
{
  if (self->tick_id == 0 && self->sim && flexion_simulation_wants_ticks (self->sim))
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, NULL, NULL);
}

/* During a run, keep the mechanism on screen: follow it with the least
 * pan that brings it back inside a margin, and zoom out only when it has
 * grown bigger than the canvas (a thrown beam then stays its size). Not
 * during a pan or a pull, where the view must stay under the pointer. */
/* The box the view follows: every link's nodes but those of a link whose
 * small-deformation gauges are off (a floating-frame blade spun past its
 * limit runs away to kilometres: the view stays on the rest of the
 * mechanism, which goes on making sense). */
static gboolean
followed_bounds (const FxStepFrame *f, double box[4])
{
  box[0] = box[2] = INFINITY, box[1] = box[3] = -INFINITY;
  for (guint l = 0; l < f->n_links; l++)
    {
      if (f->link_warning && f->link_warning[l])
        continue;
      for (guint i = f->node_offset[l]; i < f->node_offset[l + 1]; i++)
        if (isfinite (f->x[i]) && isfinite (f->y[i]))
          {
            box[0] = MIN (box[0], f->x[i]), box[1] = MAX (box[1], f->x[i]);
            box[2] = MIN (box[2], f->y[i]), box[3] = MAX (box[3], f->y[i]);
          }
    }
  return box[0] <= box[1];
}

static void
keep_in_view (FlexionCanvas *self, const FxStepFrame *f)
{
  if (!self->follow || self->drag == DRAG_PAN || self->drag == DRAG_PULL)
    return;
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  double box[4], m = 40;
  if (w < 4 * m || h < 4 * m || !followed_bounds (f, box))
    return;
  double x0, y0, x1, y1;
  fx_view_to_device (&self->view, box[0], box[3], &x0, &y0);
  fx_view_to_device (&self->view, box[1], box[2], &x1, &y1);
  double room_w = w - 2 * m, room_h = h - 2 * m;
  if (x1 - x0 > room_w || y1 - y0 > room_h)
    {
      double factor = 0.8 * MIN (room_w / MAX (x1 - x0, 1), room_h / MAX (y1 - y0, 1));
      fx_view_zoom_at (&self->view, (x0 + x1) / 2, (y0 + y1) / 2, factor);
      fx_view_to_device (&self->view, box[0], box[3], &x0, &y0);
      fx_view_to_device (&self->view, box[1], box[2], &x1, &y1);
    }
  double dx = x0 < m ? m - x0 : x1 > w - m ? (w - m) - x1 : 0;
  double dy = y0 < m ? m - y0 : y1 > h - m ? (h - m) - y1 : 0;
  self->view.ox += dx;
  self->view.oy += dy;
}

static void
on_sim_frame (FlexionCanvas *self)
{
  FxStepFrame *f = self->sim ? flexion_simulation_get_frame (self->sim) : NULL;
  if (f && canvas_playing (self))
    keep_in_view (self, f);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_follow (FlexionCanvas *self, gboolean follow)
{
  self->follow = follow;
}

static void
on_sim_state (FlexionCanvas *self)
{
  ensure_ticking (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_overlay (FlexionCanvas *self, FlexionCanvasOverlay draw, gpointer data)
{
  self->overlay = draw;
  self->overlay_data = data;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gint64
flexion_canvas_take_max_tick_gap (FlexionCanvas *self)
{
  gint64 gap = self->max_gap;
  self->max_gap = 0;
  return gap;
}

/* ---- view ---- */

void
flexion_canvas_fit (FlexionCanvas *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  if (w <= 0 || h <= 0 || self->model_frame == NULL)
    return;
  double bbox[4];
  if (fx_scene_bounds (self->model_frame, bbox))
    {
      /* leave room for supports and glyphs, and for some swing */
      double pad = 0.08 * MAX (bbox[1] - bbox[0], bbox[3] - bbox[2]);
      bbox[0] -= pad, bbox[1] += pad, bbox[2] -= pad, bbox[3] += pad;
      fx_view_fit (&self->view, bbox, w, h, 60);
    }
  else
    {
      self->view.scale = 100;
      self->view.ox = w / 2.0;
      self->view.oy = h / 2.0;
    }
  self->view_valid = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_zoom (FlexionCanvas *self, double factor)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));
  fx_view_zoom_at (&self->view, w / 2.0, h / 2.0, factor);
  self->view_moved = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
canvas_snap_step (FlexionCanvas *self)
{
  return self->grid_step > 0 ? self->grid_step : fx_view_grid_step (&self->view, 24);
}

/* Where a pointer at (dx, dy) lands: on a joint within reach, else on the
 * grid, unless snapping is off or Shift is held. */
int
canvas_snap_point (FlexionCanvas *self, double dx, double dy, gboolean shift, double xy[2])
{
  fx_view_to_world (&self->view, dx, dy, &xy[0], &xy[1]);
  if (shift)
    return -1;
  int j = fx_scene_pick_joint (self->model_frame, &self->view, dx, dy, SNAP_RADIUS);
  if (j >= 0)
    {
      xy[0] = self->model_frame->joint_xy[2 * j];
      xy[1] = self->model_frame->joint_xy[2 * j + 1];
      return j;
    }
  if (self->snap)
    fx_snap_to_grid (canvas_snap_step (self), &xy[0], &xy[1]);
  return -1;
}

/* ---- drawing ---- */

static void
draw_link_preview (FlexionCanvas *self, cairo_t *cr)
{
  double x0, y0, x1, y1;
  fx_view_to_device (&self->view, self->start[0], self->start[1], &x0, &y0);
  fx_view_to_device (&self->view, self->cur[0], self->cur[1], &x1, &y1);
  double ls = self->style.line_scale;
  GdkRGBA accent = { 0.21, 0.52, 0.89, 1 };
  double dash[] = { 6 * ls, 4 * ls };
  cairo_save (cr);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 4 * ls);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  gdk_cairo_set_source_rgba (cr, &accent);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  cairo_stroke (cr);
  cairo_restore (cr);
  for (int k = 0; k < 2; k++)
    {
      cairo_arc (cr, k ? x1 : x0, k ? y1 : y0, 5 * ls, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &accent);
      cairo_fill (cr);
    }
  double len = hypot (self->cur[0] - self->start[0], self->cur[1] - self->start[1]);
  char buf[64];
  g_snprintf (buf, sizeof buf, "%.4g m", len);
  cairo_select_font_face (cr, "Cantarell", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 12 * ls);
  cairo_move_to (cr, x1 + 10 * ls, y1 - 10 * ls);
  cairo_show_text (cr, buf);
}

/* An empty canvas says how to begin. */
/* The select tool moves a joint it drags; the hint says how to draw a
 * link from it instead, so a drag that meant a link is not a mystery. */
static void
draw_move_hint (FlexionCanvas *self, cairo_t *cr, int w, int h)
{
  const char *text = _("Moving the joint: to draw a link from it, use the Draw Link tool (L)");
  cairo_select_font_face (cr, "Cantarell", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 13);
  cairo_text_extents_t e;
  cairo_text_extents (cr, text, &e);
  double v = self->style.dark ? 1.0 : 0.18;
  cairo_set_source_rgba (cr, v, v, v, 0.7);
  cairo_move_to (cr, (w - e.x_advance) / 2, h - 16);
  cairo_show_text (cr, text);
}

static void
draw_empty_hint (FlexionCanvas *self, cairo_t *cr, int w, int h)
{
  const char *lines[] = { _("Drag to draw a link"),
                          _("Right-click a joint or a link for more, or open an example with Ctrl+E") };
  double sizes[] = { 20, 13 };
  cairo_select_font_face (cr, "Cantarell", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  double alpha = 0.55;
  double y = h / 2.0 - 12;
  for (int i = 0; i < 2; i++)
    {
      cairo_set_font_size (cr, sizes[i]);
      if (i == 1)
        cairo_select_font_face (cr, "Cantarell", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
      cairo_text_extents_t e;
      cairo_text_extents (cr, lines[i], &e);
      double v = self->style.dark ? 1.0 : 0.18;
      cairo_set_source_rgba (cr, v, v, v, alpha);
      cairo_move_to (cr, (w - e.x_advance) / 2, y);
      cairo_show_text (cr, lines[i]);
      y += 30;
    }
}

void
flexion_canvas_set_mode_frame (FlexionCanvas *self, FxStepFrame *frame, const char *label)
{
  g_return_if_fail (FLEXION_IS_CANVAS (self));
  g_clear_pointer (&self->mode_frame, fx_step_frame_unref);
  g_clear_pointer (&self->mode_label, g_free);
  if (frame)
    {
      self->mode_frame = fx_step_frame_ref (frame);
      self->mode_label = g_strdup (label);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
flexion_canvas_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  FlexionCanvas *self = FLEXION_CANVAS (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  if (self->doc == NULL || w <= 0 || h <= 0)
    return;
  if (!self->view_valid)
    flexion_canvas_fit (self);

  gint64 t_draw = g_get_monotonic_time ();
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  FxSceneStyle style = self->style;
  const FxStepFrame *frame = self->mode_frame ? self->mode_frame : shown_frame (self);
  gboolean run = frame != self->model_frame;
  style.selected_joint = self->selected_joint;
  style.selected_link = self->selected_link;
  style.hover_joint = self->hover_joint;
  style.hover_link = self->hover_link;
  style.assignment = fx_assignment_ok (self->assignment) ? self->assignment : self->relaxed;
  style.conflicts = self->conflicts;
  style.trails = run && self->sim ? flexion_simulation_get_trails (self->sim) : NULL;
  style.moment_range = run && !self->mode_frame ? flexion_simulation_get_moment_range (self->sim) : 1;
  /* a mode shape is scaled by the Modes panel already */
  style.deflection_scale = run && !self->mode_frame ? flexion_canvas_get_deflection_scale (self) : 1;
  style.show_colorbar = style.show_colorbar && run && !self->mode_frame;  /* mode moments are normalised */
  style.grid_step = self->grid_step;
  /* a mode's frame has no time: the corner names the mode instead of
   * "t = 0.000 s" beside a bar at 21 s (issue 23.8) */
  style.time_label = self->mode_frame ? self->mode_label : NULL;
  if (self->presentation)
    style.show_causality = FALSE;
  if (self->drag == DRAG_PULL)
    {
      g_autoptr (FxStepFrame) f = canvas_drawn_frame (self);
      guint a = f->node_offset[self->pull_link], n = f->node_offset[self->pull_link + 1] - a - 1;
      double u = self->pull_s * n;
      guint k = MIN ((guint) u, n - 1);
      double t = u - k;
      style.has_pull = TRUE;
      style.pull_from[0] = (1 - t) * f->x[a + k] + t * f->x[a + k + 1];
      style.pull_from[1] = (1 - t) * f->y[a + k] + t * f->y[a + k + 1];
      style.pull_to[0] = self->cur[0];
      style.pull_to[1] = self->cur[1];
    }
  fx_scene_draw (cr, canvas_model (self), frame, run ? self->model_frame : NULL,
                 &self->view, &style, w, h);
  if (self->overlay && run && !self->mode_frame)
    self->overlay (cr, &self->view, frame->t, self->overlay_data);
  if (self->drag == DRAG_DRAW_LINK && self->moved)
    draw_link_preview (self, cr);
  else if (self->drag == DRAG_MOVE_JOINT && self->moved)
    draw_move_hint (self, cr, w, h);
  else if (canvas_model (self)->joints->len == 0 && !self->presentation)
    draw_empty_hint (self, cr, w, h);
  cairo_destroy (cr);
  if (g_get_monotonic_time () - t_draw > 10000)
    g_debug ("slow canvas draw: %.1f ms", (g_get_monotonic_time () - t_draw) / 1e3);
}

/* ---- selection ---- */

void
flexion_canvas_select (FlexionCanvas *self, int joint, int link)
{
  if (joint == self->selected_joint && link == self->selected_link)
    return;
  self->selected_joint = joint;
  self->selected_link = joint >= 0 ? -1 : link;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
flexion_canvas_get_selected_joint (FlexionCanvas *self)
{
  return self->selected_joint;
}

int
flexion_canvas_get_selected_link (FlexionCanvas *self)
{
  return self->selected_link;
}

void
canvas_pick (FlexionCanvas *self, double dx, double dy, int *joint, int *link, double *s)
{
  g_autoptr (FxStepFrame) f = canvas_drawn_frame (self);
  *joint = fx_scene_pick_joint (f, &self->view, dx, dy, PICK_RADIUS);
  *link = *joint >= 0 ? -1 : fx_scene_pick_link (f, &self->view, dx, dy, PICK_RADIUS, s);
}

/* ---- object ---- */

static void
flexion_canvas_size_allocate (GtkWidget *widget, int w, int h, int baseline)
{
  FlexionCanvas *self = FLEXION_CANVAS (widget);
  gtk_popover_present (GTK_POPOVER (self->context_menu));
  if (!self->view_valid || !self->view_moved)
    flexion_canvas_fit (self);
}

static void
flexion_canvas_dispose (GObject *object)
{
  FlexionCanvas *self = FLEXION_CANVAS (object);
  if (self->doc)
    g_clear_signal_handler (&self->doc_changed_id, self->doc);
  if (self->sim)
    {
      g_signal_handlers_disconnect_by_data (self->sim, self);
    }
  g_clear_object (&self->doc);
  g_clear_object (&self->sim);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->model_frame, fx_step_frame_unref);
  g_clear_pointer (&self->assignment, fx_assignment_free);
  g_clear_pointer (&self->relaxed, fx_assignment_free);
  g_clear_pointer (&self->given_assignment, fx_assignment_free);
  g_clear_pointer (&self->mode_frame, fx_step_frame_unref);
  g_clear_pointer (&self->mode_label, g_free);
  g_clear_pointer (&self->conflicts, g_ptr_array_unref);
  G_OBJECT_CLASS (flexion_canvas_parent_class)->dispose (object);
}

static void
flexion_canvas_class_init (FlexionCanvasClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GtkWidgetClass *wc = GTK_WIDGET_CLASS (klass);
  oc->dispose = flexion_canvas_dispose;
  wc->snapshot = flexion_canvas_snapshot;
  wc->size_allocate = flexion_canvas_size_allocate;
  gtk_widget_class_set_css_name (wc, "flexion-canvas");
  gtk_widget_class_set_accessible_role (wc, GTK_ACCESSIBLE_ROLE_IMG);

  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
  /* the pointer's model coordinates (m), for the status read-out */
  signals[POINTER_MOVED] = g_signal_new ("pointer-moved", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
}

static void
flexion_canvas_init (FlexionCanvas *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  fx_scene_style_init (&self->style);
  self->snap = TRUE;
  self->follow = TRUE;
  self->selected_joint = self->selected_link = -1;
  self->hover_joint = self->hover_link = -1;
  self->context_link = -1;
  self->pointer_x = self->pointer_y = -1;
  self->zoom_last = 1;
  gtk_widget_set_focusable (w, TRUE);
  gtk_widget_set_hexpand (w, TRUE);
  gtk_widget_set_vexpand (w, TRUE);
  gtk_widget_set_cursor_from_name (w, "crosshair");
  gtk_accessible_update_property (GTK_ACCESSIBLE (w), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Mechanism canvas"), -1);

  canvas_install_input (self);
  canvas_install_context_menu (self);
}

GtkWidget *
flexion_canvas_new (void)
{
  return g_object_new (FLEXION_TYPE_CANVAS, NULL);
}

void
flexion_canvas_give_assignment (FlexionCanvas *self, FxAssignment *assignment)
{
  g_clear_pointer (&self->given_assignment, fx_assignment_free);
  self->given_assignment = assignment;
}

void
flexion_canvas_set_document (FlexionCanvas *self, FxDocument *doc)
{
  if (self->doc)
    g_clear_signal_handler (&self->doc_changed_id, self->doc);
  g_set_object (&self->doc, doc);
  self->doc_changed_id = g_signal_connect_swapped (doc, "changed", G_CALLBACK (on_document_changed), self);
  rebuild_model_frame (self);
  self->selected_joint = self->selected_link = -1;
  self->view_valid = FALSE;
  self->view_moved = FALSE;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  flexion_canvas_fit (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_simulation (FlexionCanvas *self, FlexionSimulation *sim)
{
  g_set_object (&self->sim, sim);
  g_signal_connect_swapped (sim, "frame", G_CALLBACK (on_sim_frame), self);
  g_signal_connect_swapped (sim, "notify::playing", G_CALLBACK (on_sim_state), self);
  g_signal_connect_swapped (sim, "notify::running", G_CALLBACK (on_sim_state), self);
}

int
flexion_canvas_get_context_point (FlexionCanvas *self, double *s, double xy[2])
{
  *s = self->context_s;
  xy[0] = self->context_xy[0];
  xy[1] = self->context_xy[1];
  return self->context_link;
}

void
flexion_canvas_wake (FlexionCanvas *self)
{
  ensure_ticking (self);
}

void
flexion_canvas_set_tool (FlexionCanvas *self, FlexionTool tool)
{
  self->tool = tool;
}

FlexionTool
flexion_canvas_get_tool (FlexionCanvas *self)
{
  return self->tool;
}

void
flexion_canvas_set_dark (FlexionCanvas *self, gboolean dark)
{
  self->style.dark = dark;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_colormap (FlexionCanvas *self, const char *name)
{
  fx_colormap_from_string (name, &self->style.colormap);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_show (FlexionCanvas *self, const char *what, gboolean show)
{
  if (g_str_equal (what, "grid"))
    self->style.show_grid = show;
  else if (g_str_equal (what, "initial"))
    self->style.show_initial = show;
  else if (g_str_equal (what, "trails"))
    self->style.show_trails = show;
  else if (g_str_equal (what, "joint-gaps"))
    self->style.show_joint_gaps = show;
  else if (g_str_equal (what, "causality"))
    self->style.show_causality = show;
  else if (g_str_equal (what, "labels"))
    self->style.show_labels = show;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_diagram (FlexionCanvas *self, FxDiagramView view)
{
  self->style.diagram = view;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

FxDiagramView
flexion_canvas_get_diagram (FlexionCanvas *self)
{
  return self->style.diagram;
}

void
flexion_canvas_set_snap (FlexionCanvas *self, gboolean snap, double grid_step)
{
  self->snap = snap;
  self->grid_step = grid_step > 0 ? grid_step : 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_set_presentation (FlexionCanvas *self, gboolean on)
{
  self->presentation = on;
  self->style.line_scale = on ? 1.7 : 1.0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
flexion_canvas_get_style (FlexionCanvas *self, FxSceneStyle *style)
{
  *style = self->style;
  style->grid_step = self->grid_step;
  style->moment_range = self->sim ? flexion_simulation_get_moment_range (self->sim) : 0;
  style->deflection_scale = flexion_canvas_get_deflection_scale (self);
  if (self->presentation)
    style->show_causality = FALSE;
}

void
flexion_canvas_to_widget (FlexionCanvas *self, double x, double y, double *wx, double *wy)
{
  if (!self->view_valid)
    flexion_canvas_fit (self);
  fx_view_to_device (&self->view, x, y, wx, wy);
}

void
flexion_canvas_set_deflection_scale (FlexionCanvas *self, double scale)
{
  self->deflection_setting = scale > 0 ? MAX (scale, 1) : 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
flexion_canvas_get_deflection_setting (FlexionCanvas *self)
{
  return self->deflection_setting;
}

double
flexion_canvas_get_deflection_scale (FlexionCanvas *self)
{
  if (self->deflection_setting > 0)
    return self->deflection_setting;
  double box[4];
  if (self->sim == NULL || !fx_scene_bounds (self->model_frame, box))
    return 1;
  return fx_deflection_auto_scale_members (flexion_simulation_get_deflection_max (self->sim),
                                           MAX (box[1] - box[0], box[3] - box[2]),
                                           flexion_simulation_get_deflection_ratio (self->sim));
}

void
flexion_canvas_default_section (FxSection *section, guint *elements)
{
  /* a steel bar of 20 mm x 10 mm: stiff enough to read as a linkage, soft
   * enough that its bending shows when shaken */
  *section = (FxSection) { 0 };
  section->E = 210e9;
  section->nu = 0.3;
  section->rho = 7850;
  section->shape = FX_SHAPE_RECTANGLE;
  section->width = 0.02;
  section->height = 0.01;
  section->shear_factor = 0;
  fx_section_derive (section);
  /* of degree FX_NEW_LINK_DEGREE: as many unknowns as 8 linear elements,
   * its first modes some six times more accurate */
  *elements = 4;
}
