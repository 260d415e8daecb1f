/* fx-scene-symbols.c: the model's symbols on the scene: supports, joints,
 * motors and springs, loads (as long as their force now) and probes with
 * their trails. */
#include "fx-scene-private.h"
#include "fx-render-private.h"

#include <math.h>

static void
hatch_ground (const Scene *sc, double x, double y, double half)
{
  /* a ground line of half width `half` at y, hatched below */
  cairo_t *cr = sc->cr;
  cairo_set_line_width (cr, 1.5 * sc->ls);
  cairo_move_to (cr, x - half, y);
  cairo_line_to (cr, x + half, y);
  cairo_stroke (cr);
  cairo_set_line_width (cr, 1 * sc->ls);
  /* counted, not `hx += 4 ls` up to x + half: far out (a joint flung to
   * 1e308) the sum stops growing and the loop would never end */
  double pitch = 4 * sc->ls, span = 2 * half - 3 * sc->ls;
  int n = isfinite (x) && isfinite (y) && pitch > 0 && span >= 0
          ? (int) MIN (floor (span / pitch) + 1, 64.0) : 0;
  for (int k = 0; k < n; k++)
    {
      double hx = x - half + 3 * sc->ls + k * pitch;
      cairo_move_to (cr, hx, y);
      cairo_line_to (cr, hx - 4 * sc->ls, y + 5 * sc->ls);
    }
  cairo_stroke (cr);
}

/* The current path filled with the ground colour at `alpha`, then outlined. */
static void
fill_and_outline (const Scene *sc, double alpha)
{
  fx_set_rgba (sc->cr, sc->pal->ground, alpha);
  cairo_fill_preserve (sc->cr);
  fx_set_rgb (sc->cr, sc->pal->ground);
  cairo_set_line_width (sc->cr, 1.5 * sc->ls);
  cairo_stroke (sc->cr);
}

/* Two small wheels centred at (x, y): a support that rolls. */
static void
draw_wheels (const Scene *sc, double x, double y)
{
  for (int k = -1; k <= 1; k += 2)
    {
      cairo_new_sub_path (sc->cr);
      cairo_arc (sc->cr, x + k * 5 * sc->ls, y, 3 * sc->ls, 0, 2 * G_PI);
      cairo_stroke (sc->cr);
    }
}

/* A roller support: a pin on two wheels that run on a ground line along
 * the guide (slider_direction; horizontal if unset). */
static void
draw_roller (const Scene *sc, const FxJoint *joint, double x, double y)
{
  cairo_t *cr = sc->cr;
  double ls = sc->ls;
  double dx = joint->slider_direction[0], dy = -joint->slider_direction[1];
  if (!isfinite (x) || !isfinite (y))
    return;
  cairo_save (cr);
  cairo_translate (cr, x, y);
  if (hypot (dx, dy) > 0 && isfinite (dx) && isfinite (dy))
    cairo_rotate (cr, atan2 (dy, dx));
  cairo_move_to (cr, 0, 0);
  cairo_line_to (cr, -8 * ls, 10 * ls);
  cairo_line_to (cr, 8 * ls, 10 * ls);
  cairo_close_path (cr);
  fill_and_outline (sc, 0.25);
  draw_wheels (sc, 0, 13 * ls);
  hatch_ground (sc, 0, 16 * ls, 12 * ls);
  cairo_restore (cr);
}

static void
draw_support (const Scene *sc, const FxJoint *joint, double x, double y)
{
  cairo_t *cr = sc->cr;
  double ls = sc->ls;
  fx_set_rgb (cr, sc->pal->ground);
  switch (joint->support)
    {
    case FX_SUPPORT_PIN:
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x - 8 * ls, y + 13 * ls);
      cairo_line_to (cr, x + 8 * ls, y + 13 * ls);
      cairo_close_path (cr);
      fill_and_outline (sc, 0.25);
      hatch_ground (sc, x, y + 13 * ls, 12 * ls);
      break;
    case FX_SUPPORT_CLAMP:
      cairo_rectangle (cr, x - 10 * ls, y - 10 * ls, 20 * ls, 20 * ls);
      fill_and_outline (sc, 0.35);
      hatch_ground (sc, x, y + 10 * ls, 13 * ls);
      break;
    case FX_SUPPORT_GUIDED:
      cairo_rectangle (cr, x - 9 * ls, y - 6 * ls, 18 * ls, 12 * ls);
      fill_and_outline (sc, 0.35);
      draw_wheels (sc, x, y + 9 * ls);
      hatch_ground (sc, x, y + 12 * ls, 13 * ls);
      break;
    case FX_SUPPORT_ROLLER:
      draw_roller (sc, joint, x, y);
      break;
    case FX_SUPPORT_NONE:
      break;
    }

  if (joint->driven)
    {
      double v = hypot (joint->drive_velocity[0], joint->drive_velocity[1]);
      if (v > 0)
        {
          double ux = joint->drive_velocity[0] / v, uy = -joint->drive_velocity[1] / v;
          fx_set_rgb (cr, sc->pal->motor);
          cairo_set_line_width (cr, 2 * ls);
          cairo_move_to (cr, x + 8 * ls * ux, y + 8 * ls * uy);
          cairo_line_to (cr, x + 30 * ls * ux, y + 30 * ls * uy);
          cairo_stroke (cr);
          scene_arrow_head (cr, x + 36 * ls * ux, y + 36 * ls * uy, ux, uy, 8 * ls);
        }
    }

  if (joint->slider)
    {
      double dxn = joint->slider_direction[0], dyn = -joint->slider_direction[1];
      double n = hypot (dxn, dyn);
      if (n > 0)
        {
          dxn /= n;
          dyn /= n;
          double dash[] = { 6 * ls, 4 * ls };
          cairo_save (cr);
          cairo_set_dash (cr, dash, 2, 0);
          fx_set_rgba (cr, sc->pal->ground, 0.8);
          cairo_set_line_width (cr, 1.5 * ls);
          cairo_move_to (cr, x - 60 * ls * dxn, y - 60 * ls * dyn);
          cairo_line_to (cr, x + 60 * ls * dxn, y + 60 * ls * dyn);
          cairo_stroke (cr);
          cairo_restore (cr);
          cairo_save (cr);
          cairo_translate (cr, x, y);
          cairo_rotate (cr, atan2 (dyn, dxn));
          cairo_rectangle (cr, -11 * ls, -7 * ls, 22 * ls, 14 * ls);
          fill_and_outline (sc, 0.45);
          cairo_restore (cr);
        }
    }
}

void
scene_draw_joints (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  const FxStepFrame *f = sc->frame;
  double ls = sc->ls;
  guint n = MIN (m->joints->len, f->n_joints);

  for (guint j = 0; j < n; j++)
    {
      const FxJoint *joint = fx_model_joint (m, j);
      double x, y;
      scene_joint_device (sc, j, &x, &y);
      draw_support (sc, joint, x, y);
    }

  for (guint j = 0; j < n; j++)
    {
      const FxJoint *joint = fx_model_joint (m, j);
      double x, y;
      scene_joint_device (sc, j, &x, &y);
      double mass = joint->mass + (joint->slider ? 0 : 0);
      if (mass > 0)
        {
          double r = (6 + 2.5 * log10 (1 + mass)) * ls;
          cairo_arc (cr, x, y, r, 0, 2 * G_PI);
          fx_set_rgb (cr, sc->pal->fg);
          cairo_fill (cr);
        }
      gboolean sel = (int) j == sc->style->selected_joint;
      gboolean hov = (int) j == sc->style->hover_joint;
      if (sel || hov)
        {
          cairo_arc (cr, x, y, 10 * ls, 0, 2 * G_PI);
          fx_set_rgba (cr, sel ? sc->pal->accent : sc->pal->fg, sel ? 0.5 : 0.18);
          cairo_fill (cr);
        }
      cairo_set_line_width (cr, 1.5 * ls);
      if (joint->kind == FX_JOINT_WELD)
        {
          cairo_rectangle (cr, x - 4 * ls, y - 4 * ls, 8 * ls, 8 * ls);
          fx_set_rgb (cr, sc->pal->fg);
          cairo_fill (cr);
        }
      else
        {
          cairo_arc (cr, x, y, 4 * ls, 0, 2 * G_PI);
          fx_set_rgb (cr, sc->pal->card);
          cairo_fill_preserve (cr);
          fx_set_rgb (cr, sc->pal->fg);
          cairo_stroke (cr);
        }
    }
}

static void
draw_arc_arrow (const Scene *sc, double x, double y, double r, double sign, const double rgb[3])
{
  cairo_t *cr = sc->cr;
  double a0 = -G_PI * 0.75, a1 = G_PI * 0.5;  /* device angles (y down) */
  fx_set_rgb (cr, rgb);
  cairo_set_line_width (cr, 2 * sc->ls);
  cairo_arc (cr, x, y, r, a0, a1);
  cairo_stroke (cr);
  /* counter-clockwise in the model (sign > 0) is clockwise on the device's
   * y-down raster only in appearance: the head goes at the arc's end */
  double ae = sign > 0 ? a0 : a1;
  double tx = -sin (ae), ty = cos (ae);  /* tangent along increasing angle */
  if (sign > 0)
    tx = -tx, ty = -ty;
  scene_arrow_head (cr, x + r * cos (ae) + 4 * sc->ls * tx, y + r * sin (ae) + 4 * sc->ls * ty,
              tx, ty, 7 * sc->ls);
}

static int
joint_of (const FxModel *m, const char *id)
{
  return id ? fx_model_find_joint (m, id) : -1;
}

void
scene_draw_motors_springs (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  double ls = sc->ls;
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    {
      const FxMotor *mo = fx_model_motor (m, i);
      int j = joint_of (m, mo->joint);
      if (j < 0 || (guint) j >= sc->frame->n_joints)
        continue;
      double x, y;
      scene_joint_device (sc, j, &x, &y);
      draw_arc_arrow (sc, x, y, 15 * ls, mo->value >= 0 ? 1 : -1, sc->pal->motor);
      fx_text_font (cr, 10 * ls, TRUE);
      fx_text_draw (cr, x + 17 * ls, y - 17 * ls, "M", FX_ALIGN_START, FX_ALIGN_CENTER);
    }
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    {
      const FxSpring *sp = fx_model_spring (m, i);
      int j = joint_of (m, sp->joint);
      if (j < 0 || (guint) j >= sc->frame->n_joints)
        continue;
      double x, y;
      scene_joint_device (sc, j, &x, &y);
      /* a torsion spring: a spiral of 2.5 turns */
      fx_set_rgb (cr, sc->pal->spring);
      cairo_set_line_width (cr, 1.5 * ls);
      for (int k = 0; k <= 60; k++)
        {
          double a = k / 60.0 * 5 * G_PI, r = (6 + 6 * k / 60.0) * ls;
          if (k == 0)
            cairo_move_to (cr, x + r * cos (a), y + r * sin (a));
          else
            cairo_line_to (cr, x + r * cos (a), y + r * sin (a));
        }
      cairo_stroke (cr);
    }
}

/* A frame of the drawn model (step 0) shows loads as defined, not as
 * their profile is at t = 0 (a ramp would hide them). */
static gboolean
frame_has_time (const FxStepFrame *f)
{
  return f->step > 0;
}

void
scene_draw_loads (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  const FxStepFrame *f = sc->frame;
  double ls = sc->ls;
  /* arrows are as long as their force now, the model's largest at 64 px */
  double F_max = 0;
  for (guint i = 0; i < m->loads->len; i++)
    F_max = MAX (F_max, hypot (fx_model_load (m, i)->force[0], fx_model_load (m, i)->force[1]));
  for (guint i = 0; i < m->loads->len; i++)
    {
      const FxLoad *load = fx_model_load (m, i);
      double px, py;
      if (load->joint)
        {
          int j = fx_model_find_joint (m, load->joint);
          if (j < 0 || (guint) j >= f->n_joints)
            continue;
          px = f->joint_xy[2 * j];
          py = f->joint_xy[2 * j + 1];
        }
      else
        {
          int l = fx_model_find_link (m, load->link);
          if (l < 0 || !scene_link_has_nodes (f, l))
            continue;
          scene_link_point (f, l, load->s, &px, &py);
        }
      double x, y;
      scene_dev (sc, px, py, &x, &y);
      /* a load whose profile is off now is drawn faint, and a negative
       * profile turns the arrow around */
      double amp = frame_has_time (f) ? fx_profile_eval (&load->profile, f->t) : 1;
      double sign = amp < 0 ? -1 : 1;
      fx_set_rgba (cr, sc->pal->load, fabs (amp) > 1e-9 ? 1.0 : 0.25);
      double F = hypot (load->force[0], load->force[1]);
      if (F > 0)
        {
          double ux = sign * load->force[0] / F, uy = -sign * load->force[1] / F;
          /* an off profile keeps its full-size faint arrow, so it stays findable */
          double share = (fabs (amp) > 1e-9 ? MIN (fabs (amp), 1.5) : 1) * F / F_max;
          double len = (16 + 48 * share) * ls;
          cairo_set_line_width (cr, 2.5 * ls);
          cairo_move_to (cr, x - len * ux, y - len * uy);
          cairo_line_to (cr, x - 9 * ls * ux, y - 9 * ls * uy);
          cairo_stroke (cr);
          scene_arrow_head (cr, x - 3 * ls * ux, y - 3 * ls * uy, ux, uy, 9 * ls);
        }
      if (load->moment != 0)
        {
          double rgb[3] = { sc->pal->load[0], sc->pal->load[1], sc->pal->load[2] };
          if (fabs (amp) <= 1e-9)  /* faint: blended with the background */
            for (int c = 0; c < 3; c++)
              rgb[c] = 0.25 * rgb[c] + 0.75 * sc->pal->bg[c];
          draw_arc_arrow (sc, x, y, 20 * ls, sign * load->moment > 0 ? 1 : -1, rgb);
        }
    }
}

void
scene_draw_probes (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxStepFrame *f = sc->frame;
  const FxSceneStyle *st = sc->style;
  double ls = sc->ls;
  for (guint p = 0; p < f->n_probes; p++)
    {
      double rgb[3];
      fx_series_color (p + 3, st->dark, rgb);
      if (st->show_trails && st->trails && fx_trails_n_points (st->trails, p) > 1)
        {
          guint n = fx_trails_n_points (st->trails, p);
          cairo_set_line_width (cr, 1.5 * ls);
          /* fade the tail in a few bands: cheap and readable */
          const guint bands = 4;
          for (guint b = 0; b < bands; b++)
            {
              guint k0 = n * b / bands, k1 = MIN (n - 1, n * (b + 1) / bands);
              for (guint k = k0; k <= k1; k++)
                {
                  const double *q = fx_trails_point (st->trails, p, k);
                  double x, y;
                  scene_dev (sc, q[0], q[1], &x, &y);
                  if (k == k0)
                    cairo_move_to (cr, x, y);
                  else
                    cairo_line_to (cr, x, y);
                }
              fx_set_rgba (cr, rgb, 0.2 + 0.6 * (b + 1) / bands);
              cairo_stroke (cr);
            }
        }
      double px = f->probe_xy[2 * p], py = f->probe_xy[2 * p + 1];
      if (!isfinite (px) || !isfinite (py))
        continue;
      double x, y;
      scene_dev (sc, px, py, &x, &y);
      /* a target (ring and cross hair), not the diamond that marks where a
       * link is split: the two often sit at the same midpoint */
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, 6 * ls, 0, 2 * G_PI);
      fx_set_rgb (cr, sc->pal->card);
      cairo_fill_preserve (cr);
      fx_set_rgb (cr, rgb);
      cairo_set_line_width (cr, 2 * ls);
      cairo_stroke (cr);
      cairo_move_to (cr, x - 9 * ls, y);
      cairo_line_to (cr, x + 9 * ls, y);
      cairo_move_to (cr, x, y - 9 * ls);
      cairo_line_to (cr, x, y + 9 * ls);
      cairo_set_line_width (cr, 1.2 * ls);
      cairo_stroke (cr);
    }
}
