/* flexion-canvas-menu.c: the right-click menu of a joint, a link or the
 * empty canvas. */
#include "flexion-canvas-private.h"

#include <glib/gi18n.h>

/* ---- context menu ---- */

static GMenu *
section (GMenu *menu, const char *label)
{
  GMenu *sec = g_menu_new ();
  g_menu_append_section (menu, label, G_MENU_MODEL (sec));
  g_object_unref (sec);
  return sec;
}

static GMenuModel *
context_menu_for (FlexionCanvas *self, int joint, int link)
{
  GMenu *menu = g_menu_new ();
  if (joint >= 0)
    {
      GMenu *kind = section (menu, _("Joint"));
      g_menu_append (kind, _("Pin (Ends Turn Freely)"), "win.joint-kind::pin");
      g_menu_append (kind, _("Weld (Ends Turn Together)"), "win.joint-kind::weld");
      GMenu *sup = section (menu, _("Support"));
      g_menu_append (sup, _("Free"), "win.support::none");
      g_menu_append (sup, _("Pin Support"), "win.support::pin");
      g_menu_append (sup, _("Clamp"), "win.support::clamp");
      g_menu_append (sup, _("Guided (Sliding Clamp)"), "win.support::guided");
      g_menu_append (sup, _("Roller (Pin on a Guide)"), "win.support::roller");
      GMenu *add = section (menu, NULL);
      g_menu_append (add, _("Add Point Mass"), "win.add-mass");
      g_menu_append (add, _("Add Load"), "win.add-load");
      g_menu_append (add, _("Add Speed Motor"), "win.add-speed-motor");
      g_menu_append (add, _("Add Torque Motor"), "win.add-motor");
      g_menu_append (add, _("Add Spring"), "win.add-spring");
      g_menu_append (section (menu, NULL), _("Delete Joint"), "win.delete");
    }
  else if (link >= 0)
    {
      GMenu *f = section (menu, _("Formulation"));
      g_menu_append (f, _("Auto"), "win.formulation::auto");
      g_menu_append (f, _("Free–Free"), "win.formulation::free-free");
      g_menu_append (f, _("Clamped–Clamped"), "win.formulation::clamped-clamped");
      g_menu_append (f, _("Pinned"), "win.formulation::pinned");
      g_menu_append (f, _("Guided"), "win.formulation::guided");
      GMenu *add = section (menu, NULL);
      g_menu_append (add, _("Add Probe Here"), "win.add-probe");
      g_menu_append (add, _("Add Load Here"), "win.add-link-load");
      g_menu_append (section (menu, NULL), _("Delete Link"), "win.delete");
    }
  else
    {
      GMenu *view = section (menu, NULL);
      g_menu_append (view, _("Fit to View"), "win.fit");
      g_menu_append (view, _("Select Tool"), "win.tool::select");
      g_menu_append (view, _("Draw Link Tool"), "win.tool::link");
    }
  return G_MENU_MODEL (menu);
}

static void
on_context_pressed (GtkGestureClick *gesture, int n_press, double x, double y, FlexionCanvas *self)
{
  self->view_moved = TRUE;  /* in use: a new size keeps the view */
  if (self->presentation || canvas_playing (self))
    return;
  int joint, link;
  double s = 0.5;
  canvas_pick (self, x, y, &joint, &link, &s);
  flexion_canvas_select (self, joint, link);
  self->context_link = link;
  self->context_s = s;
  fx_view_to_world (&self->view, x, y, &self->context_xy[0], &self->context_xy[1]);

  g_autoptr (GMenuModel) model = context_menu_for (self, joint, link);
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

/* The right-click menu: a popover parented to the canvas. */
void
canvas_install_context_menu (FlexionCanvas *self)
{
  GtkWidget *w = GTK_WIDGET (self);

  GtkGesture *context = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
  g_signal_connect (context, "pressed", G_CALLBACK (on_context_pressed), self);
  gtk_widget_add_controller (w, GTK_EVENT_CONTROLLER (context));


  self->context_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_widget_set_parent (self->context_menu, w);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
}
