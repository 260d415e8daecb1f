/* flexion-canvas-input.c: what the pointer and keys do on the canvas:
 * select, move joints, draw links, pull a running link, pan and zoom. */
#include "flexion-canvas-private.h"
#include "fx-conflicts.h"

#include <math.h>
#include <string.h>

/* ---- primary drag: select, move, draw, pull ---- */

static gboolean
shift_held (GtkGesture *gesture)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  return (mods & GDK_SHIFT_MASK) != 0;
}

static gboolean
can_take_dragged (guint joint, gpointer data)
{
  FlexionCanvas *self = data;
  return fx_document_can_merge_joints (self->doc, (guint) self->drag_joint, joint);
}

/* The joint within snapping reach of the pointer at (dx, dy) that the
 * dragged joint could merge into, or -1. */
static int
merge_target_near (FlexionCanvas *self, double dx, double dy)
{
  return fx_scene_pick_joint_if (self->model_frame, &self->view, dx, dy, SNAP_RADIUS,
                                 can_take_dragged, self);
}

/* Dropped exactly on another joint (snapped there): the two become one. */
static void
merge_dropped_joint (FlexionCanvas *self)
{
  const FxModel *m = canvas_model (self);
  const double *at = fx_model_joint (m, self->drag_joint)->at;
  for (guint j = 0; j < m->joints->len; j++)
    {
      const double *other = fx_model_joint (m, j)->at;
      if ((int) j != self->drag_joint && other[0] == at[0] && other[1] == at[1]
          && fx_document_merge_joints (self->doc, (guint) self->drag_joint, j))
        {
          /* the joints after the removed one moved down by one */
          flexion_canvas_select (self, (int) j - ((int) j > self->drag_joint), -1);
          return;
        }
    }
}

static void
on_drag_begin (GtkGestureDrag *gesture, double dx, double dy, FlexionCanvas *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->view_moved = TRUE;  /* in use: a new size keeps the view */
  self->press_dx = dx;
  self->press_dy = dy;
  self->moved = FALSE;
  self->drag = DRAG_NONE;

  int joint, link;
  double s = 0;
  canvas_pick (self, dx, dy, &joint, &link, &s);
  g_debug ("press at (%.0f, %.0f): joint %d, link %d (s %.2f)", dx, dy, joint, link, s);

  if (canvas_playing (self))
    {
      /* a drag on a running mechanism pulls the point under the pointer */
      if (joint < 0 && link < 0)
        {
          g_autoptr (FxStepFrame) f = canvas_drawn_frame (self);
          joint = fx_scene_pick_joint (f, &self->view, dx, dy, PULL_RADIUS * 0.5);
          if (joint < 0)
            link = fx_scene_pick_link (f, &self->view, dx, dy, PULL_RADIUS, &s);
        }
      if (link < 0 && joint >= 0)
        {
          /* a joint: pull the end of one of its links */
          const FxModel *m = canvas_model (self);
          const char *id = fx_model_joint (m, joint)->id;
          for (guint l = 0; l < m->links->len && link < 0; l++)
            if (g_str_equal (fx_model_link (m, l)->from, id))
              link = l, s = 0;
            else if (g_str_equal (fx_model_link (m, l)->to, id))
              link = l, s = 1;
        }
      if (link >= 0)
        {
          self->drag = DRAG_PULL;
          self->pull_link = link;
          self->pull_s = s;
          fx_view_to_world (&self->view, dx, dy, &self->cur[0], &self->cur[1]);
          flexion_simulation_set_pull (self->sim, link, s, self->cur[0], self->cur[1]);
          gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
        }
      return;
    }
  if (self->presentation)
    return;

  if (self->tool == FLEXION_TOOL_SELECT && joint >= 0)
    {
      self->drag = DRAG_MOVE_JOINT;
      self->drag_joint = joint;
    }
  else if (self->tool == FLEXION_TOOL_LINK || (joint < 0 && link < 0))
    {
      self->drag = DRAG_DRAW_LINK;
      canvas_snap_point (self, dx, dy, shift_held (GTK_GESTURE (gesture)), self->start);
      self->cur[0] = self->start[0];
      self->cur[1] = self->start[1];
    }
}

static void
on_drag_update (GtkGestureDrag *gesture, double ox, double oy, FlexionCanvas *self)
{
  double dx = self->press_dx + ox, dy = self->press_dy + oy;
  if (!self->moved && hypot (ox, oy) < DRAG_THRESHOLD)
    return;
  self->moved = TRUE;
  gboolean shift = shift_held (GTK_GESTURE (gesture));

  switch (self->drag)
    {
    case DRAG_PULL:
      fx_view_to_world (&self->view, dx, dy, &self->cur[0], &self->cur[1]);
      flexion_simulation_set_pull (self->sim, self->pull_link, self->pull_s,
                                   self->cur[0], self->cur[1]);
      break;
    case DRAG_MOVE_JOINT:
      {
        double xy[2];
        fx_view_to_world (&self->view, dx, dy, &xy[0], &xy[1]);
        int target = shift ? -1 : merge_target_near (self, dx, dy);
        if (target >= 0)
          memcpy (xy, fx_model_joint (canvas_model (self), target)->at, sizeof xy);
        else if (self->snap && !shift)
          fx_snap_to_grid (canvas_snap_step (self), &xy[0], &xy[1]);
        const FxJoint *j = fx_model_joint (canvas_model (self), self->drag_joint);
        if (xy[0] != j->at[0] || xy[1] != j->at[1])
          fx_document_move_joint (self->doc, self->drag_joint, xy[0], xy[1]);
        if (self->selected_joint != self->drag_joint)
          flexion_canvas_select (self, self->drag_joint, -1);
      }
      break;
    case DRAG_DRAW_LINK:
      canvas_snap_point (self, dx, dy, shift, self->cur);
      break;
    case DRAG_PAN:
    case DRAG_NONE:
      break;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
finish_link (FlexionCanvas *self)
{
  FxSection section;
  guint elements;
  flexion_canvas_default_section (&section, &elements);
  int l = fx_document_add_link_at (self->doc, self->start[0], self->start[1],
                                   self->cur[0], self->cur[1], 1e-9, elements, &section);
  if (l >= 0)
    flexion_canvas_select (self, -1, l);
}

static void
on_drag_end (GtkGestureDrag *gesture, double ox, double oy, FlexionCanvas *self)
{
  DragMode mode = self->drag;
  self->drag = DRAG_NONE;
  if (mode == DRAG_PULL)
    flexion_simulation_clear_pull (self->sim);
  else if (mode == DRAG_MOVE_JOINT)
    {
      if (self->moved)
        merge_dropped_joint (self);
      fx_document_break_merge (self->doc);
    }
  else if (mode == DRAG_DRAW_LINK && self->moved)
    {
      double dx0, dy0, dx1, dy1;
      fx_view_to_device (&self->view, self->start[0], self->start[1], &dx0, &dy0);
      fx_view_to_device (&self->view, self->cur[0], self->cur[1], &dx1, &dy1);
      if (hypot (dx1 - dx0, dy1 - dy0) >= DRAG_THRESHOLD)
        finish_link (self);
    }

  if (!self->moved && mode != DRAG_PULL)
    {
      int joint, link;
      double s;
      canvas_pick (self, self->press_dx, self->press_dy, &joint, &link, &s);
      flexion_canvas_select (self, joint, link);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- pan, zoom, hover, keys ---- */

static void
on_pan_begin (GtkGestureDrag *gesture, double dx, double dy, FlexionCanvas *self)
{
  self->pan_view = self->view;
}

static void
on_pan_update (GtkGestureDrag *gesture, double ox, double oy, FlexionCanvas *self)
{
  self->view.ox = self->pan_view.ox + ox;
  self->view.oy = self->pan_view.oy + oy;
  self->view_moved = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, FlexionCanvas *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (controller);
  double px = self->pointer_x >= 0 ? self->pointer_x : gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
  double py = self->pointer_y >= 0 ? self->pointer_y : gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
  if (unit == GDK_SCROLL_UNIT_WHEEL || (mods & GDK_CONTROL_MASK))
    /* a wheel (or Ctrl + two fingers) zooms about the pointer */
    fx_view_zoom_at (&self->view, px, py, pow (1.15, -dy));
  else
    {
      /* two fingers on a touchpad pan */
      self->view.ox -= dx;
      self->view.oy -= dy;
    }
  self->view_moved = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
on_zoom_begin (GtkGesture *gesture, GdkEventSequence *seq, FlexionCanvas *self)
{
  self->zoom_last = 1;
}

static void
on_zoom_changed (GtkGestureZoom *gesture, double scale, FlexionCanvas *self)
{
  double cx, cy;
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  fx_view_zoom_at (&self->view, cx, cy, scale / self->zoom_last);
  self->zoom_last = scale;
  self->view_moved = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, FlexionCanvas *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->drag != DRAG_NONE)
    return;
  int joint, link;
  double s;
  canvas_pick (self, x, y, &joint, &link, &s);
  if (joint != self->hover_joint || link != self->hover_link)
    {
      self->hover_joint = joint;
      self->hover_link = link;
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self),
                                       joint >= 0 || link >= 0 ? "pointer" : "crosshair");
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  double wx, wy;
  fx_view_to_world (&self->view, x, y, &wx, &wy);
  canvas_emit_pointer_moved (self, wx, wy);
}

static void
on_leave (GtkEventControllerMotion *controller, FlexionCanvas *self)
{
  self->pointer_x = self->pointer_y = -1;
  self->hover_joint = self->hover_link = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_key (GtkEventControllerKey *controller, guint keyval, guint keycode,
        GdkModifierType state, FlexionCanvas *self)
{
  if (keyval == GDK_KEY_Escape && self->drag == DRAG_DRAW_LINK)
    {
      self->drag = DRAG_NONE;
      self->moved = FALSE;
      gtk_event_controller_reset (GTK_EVENT_CONTROLLER (controller));
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    }
  if (keyval == GDK_KEY_Escape && (self->selected_joint >= 0 || self->selected_link >= 0))
    {
      flexion_canvas_select (self, -1, -1);
      return TRUE;
    }
  /* arrow keys move the selected joint by a grid step (Shift: a tenth),
   * so a drawing can be finished without a pointer */
  double ux = keyval == GDK_KEY_Left ? -1 : keyval == GDK_KEY_Right ? 1 : 0;
  double uy = keyval == GDK_KEY_Down ? -1 : keyval == GDK_KEY_Up ? 1 : 0;
  if ((ux != 0 || uy != 0) && self->selected_joint >= 0 && !self->presentation && !canvas_playing (self))
    {
      double step = canvas_snap_step (self) * ((state & GDK_SHIFT_MASK) ? 0.1 : 1);
      const FxJoint *j = fx_model_joint (canvas_model (self), self->selected_joint);
      fx_document_move_joint (self->doc, self->selected_joint, j->at[0] + ux * step,
                              j->at[1] + uy * step);
      return TRUE;
    }
  return FALSE;
}

/* Over a joint where the assignment added regularising inertia: what it
 * is and why (the grey dot's explanation). */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  FlexionCanvas *self)
{
  if (keyboard || self->doc == NULL || self->assignment == NULL)
    return FALSE;
  int joint, link;
  double s;
  canvas_pick (self, x, y, &joint, &link, &s);
  if (joint < 0)
    return FALSE;
  g_autoptr (GString) text = g_string_new (NULL);
  for (int c = 0; c < 2; c++)
    {
      const FxRegulariser *r = fx_assignment_regulariser_at (self->assignment, joint, (FxChannel) c);
      if (r == NULL)
        continue;
      g_autofree char *why = fx_regulariser_sentence (r);
      g_string_append_printf (text, "%s%s", text->len ? "\n" : "", why);
    }
  if (text->len == 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* The gestures and controllers of the canvas: primary drag, middle-button
 * pan, wheel and pinch zoom, hover and keys. */
void
canvas_install_input (FlexionCanvas *self)
{
  GtkWidget *w = GTK_WIDGET (self);

  GtkGesture *drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (w, GTK_EVENT_CONTROLLER (drag));

  GtkGesture *pan = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (pan), GDK_BUTTON_MIDDLE);
  g_signal_connect (pan, "drag-begin", G_CALLBACK (on_pan_begin), self);
  g_signal_connect (pan, "drag-update", G_CALLBACK (on_pan_update), self);
  gtk_widget_add_controller (w, GTK_EVENT_CONTROLLER (pan));

  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (w, scroll);

  GtkGesture *zoom = gtk_gesture_zoom_new ();
  g_signal_connect (zoom, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (on_zoom_changed), self);
  gtk_widget_add_controller (w, GTK_EVENT_CONTROLLER (zoom));

  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (w, motion);

  GtkEventController *key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  gtk_widget_add_controller (w, key);

  gtk_widget_set_has_tooltip (w, TRUE);
  g_signal_connect (w, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
}
