/* fx-scene.c: drawing the mechanism.
 *
 * Sizes are in device pixels times style->line_scale, so a picture reads
 * the same at any zoom; only geometry follows the view.
 */
#include "fx-scene.h"
#include "fx-render-private.h"
#include "fx-deflection.h"
#include "fx-conflicts.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- trails ---- */

struct _FxTrails {
  guint n_probes, capacity;
  guint *start, *count;  /* ring per probe */
  double *xy;            /* n_probes * capacity * 2 */
};

FxTrails *
fx_trails_new (guint n_probes, guint capacity)
{
  FxTrails *t = g_new0 (FxTrails, 1);
  t->n_probes = n_probes;
  t->capacity = MAX (capacity, 2u);
  t->start = g_new0 (guint, MAX (n_probes, 1u));
  t->count = g_new0 (guint, MAX (n_probes, 1u));
  t->xy = g_new0 (double, (gsize) MAX (n_probes, 1u) * t->capacity * 2);
  return t;
}

void
fx_trails_free (FxTrails *t)
{
  if (t == NULL)
    return;
  g_free (t->start);
  g_free (t->count);
  g_free (t->xy);
  g_free (t);
}

void
fx_trails_clear (FxTrails *t)
{
  memset (t->start, 0, sizeof (guint) * MAX (t->n_probes, 1u));
  memset (t->count, 0, sizeof (guint) * MAX (t->n_probes, 1u));
}

void
fx_trails_add (FxTrails *t, const FxStepFrame *frame)
{
  guint n = MIN (t->n_probes, frame->n_probes);
  for (guint p = 0; p < n; p++)
    {
      double x = frame->probe_xy[2 * p], y = frame->probe_xy[2 * p + 1];
      if (!isfinite (x) || !isfinite (y))
        continue;
      guint slot = (t->start[p] + t->count[p]) % t->capacity;
      if (t->count[p] == t->capacity)
        t->start[p] = (t->start[p] + 1) % t->capacity;
      else
        t->count[p]++;
      double *dst = t->xy + ((gsize) p * t->capacity + slot) * 2;
      dst[0] = x;
      dst[1] = y;
    }
}

guint
fx_trails_n_points (const FxTrails *t, guint probe)
{
  return probe < t->n_probes ? t->count[probe] : 0;
}

static const double *
trail_point (const FxTrails *t, guint p, guint k)
{
  guint slot = (t->start[p] + k) % t->capacity;
  return t->xy + ((gsize) p * t->capacity + slot) * 2;
}

/* ---- style ---- */

void
fx_scene_style_init (FxSceneStyle *s)
{
  memset (s, 0, sizeof *s);
  s->colormap = FX_COLORMAP_COOL_WARM;
  s->line_scale = 1;
  s->show_grid = TRUE;
  s->show_colorbar = TRUE;
  s->show_time = TRUE;
  s->show_causality = TRUE;
  s->show_initial = TRUE;
  s->show_trails = TRUE;
  s->selected_joint = s->selected_link = -1;
  s->hover_joint = s->hover_link = -1;
}

double
fx_scene_moment_range (const FxSceneStyle *style, const FxStepFrame *frame)
{
  double r = style->moment_range > 0 ? style->moment_range : frame->moment_max_abs;
  return r > 0 && isfinite (r) ? r : 1.0;
}

/* ---- geometry helpers ---- */

typedef struct {
  cairo_t *cr;
  const FxModel *model;
  const FxStepFrame *frame;
  const FxView *view;
  const FxSceneStyle *style;
  const FxPalette *pal;
  double ls;  /* line scale */
  gboolean model_matches;  /* the frame belongs to this model */
} Scene;

static void
dev (const Scene *sc, double x, double y, double *dx, double *dy)
{
  fx_view_to_device (sc->view, x, y, dx, dy);
}

static void
joint_device (const Scene *sc, guint j, double *dx, double *dy)
{
  dev (sc, sc->frame->joint_xy[2 * j], sc->frame->joint_xy[2 * j + 1], dx, dy);
}

static gboolean
link_has_nodes (const FxStepFrame *f, guint l)
{
  return l < f->n_links && f->node_offset[l + 1] > f->node_offset[l] + 1;
}

/* The unit direction (device) of link l leaving its end (at_to: the `to` end). */
static void
link_end_direction (const Scene *sc, guint l, gboolean at_to, double *ux, double *uy)
{
  const FxStepFrame *f = sc->frame;
  guint a = f->node_offset[l], b = f->node_offset[l + 1] - 1;
  guint i0 = at_to ? b : a, i1 = at_to ? b - 1 : a + 1;
  double x0, y0, x1, y1;
  dev (sc, f->x[i0], f->y[i0], &x0, &y0);
  dev (sc, f->x[i1], f->y[i1], &x1, &y1);
  double len = hypot (x1 - x0, y1 - y0);
  *ux = len > 0 ? (x1 - x0) / len : 1;
  *uy = len > 0 ? (y1 - y0) / len : 0;
}

/* The point at fraction s along link l (by node index, which is arc length
 * for uniform elements), in model coordinates. */
static void
link_point (const FxStepFrame *f, guint l, double s, double *x, double *y)
{
  guint a = f->node_offset[l], n = f->node_offset[l + 1] - a - 1;
  double u = CLAMP (s, 0, 1) * n;
  guint k = MIN ((guint) floor (u), n - 1);
  double t = u - k;
  *x = (1 - t) * f->x[a + k] + t * f->x[a + k + 1];
  *y = (1 - t) * f->y[a + k] + t * f->y[a + k + 1];
}

static void
arrow_head (cairo_t *cr, double x, double y, double ux, double uy, double size)
{
  /* (ux, uy): the direction the arrow points */
  double px = -uy, py = ux;
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - size * ux + 0.5 * size * px, y - size * uy + 0.5 * size * py);
  cairo_line_to (cr, x - size * ux - 0.5 * size * px, y - size * uy - 0.5 * size * py);
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* ---- layers ---- */

static void
draw_grid (const Scene *sc, double w, double h)
{
  cairo_t *cr = sc->cr;
  double step = sc->style->grid_step > 0 ? sc->style->grid_step
                                         : fx_view_grid_step (sc->view, 24);
  if (step * sc->view->scale < 6)  /* a fixed step zoomed far out: thin it */
    step *= ceil (6 / (step * sc->view->scale));
  double x0, y0, x1, y1;
  fx_view_to_world (sc->view, 0, h, &x0, &y0);
  fx_view_to_world (sc->view, w, 0, &x1, &y1);
  long i0 = (long) floor (x0 / step), i1 = (long) ceil (x1 / step);
  long k0 = (long) floor (y0 / step), k1 = (long) ceil (y1 / step);
  if (i1 - i0 > 2000 || k1 - k0 > 2000)
    return;

  cairo_set_line_width (cr, 1);
  for (int pass = 0; pass < 3; pass++)
    {
      double alpha = pass == 0 ? 0.05 : pass == 1 ? 0.10 : 0.22;
      fx_set_rgba (cr, sc->pal->fg, alpha);
      for (long i = i0; i <= i1; i++)
        {
          int kind = i == 0 ? 2 : (i % 5 == 0 ? 1 : 0);
          if (kind != pass)
            continue;
          double dx, dy;
          dev (sc, i * step, 0, &dx, &dy);
          dx = floor (dx) + 0.5;
          cairo_move_to (cr, dx, 0);
          cairo_line_to (cr, dx, h);
        }
      for (long k = k0; k <= k1; k++)
        {
          int kind = k == 0 ? 2 : (k % 5 == 0 ? 1 : 0);
          if (kind != pass)
            continue;
          double dx, dy;
          dev (sc, 0, k * step, &dx, &dy);
          dy = floor (dy) + 0.5;
          cairo_move_to (cr, 0, dy);
          cairo_line_to (cr, w, dy);
        }
      cairo_stroke (cr);
    }
}

static void
link_path (const Scene *sc, const FxStepFrame *f, guint l)
{
  /* points under half a pixel from the last drawn one are skipped; the
   * last node always is drawn */
  cairo_t *cr = sc->cr;
  double lx = 0, ly = 0;
  guint a = f->node_offset[l], b = f->node_offset[l + 1];
  for (guint i = a; i < b; i++)
    {
      double dx, dy;
      dev (sc, f->x[i], f->y[i], &dx, &dy);
      if (i == a)
        cairo_move_to (cr, dx, dy);
      else if (i + 1 == b || fabs (dx - lx) + fabs (dy - ly) >= 0.5)
        cairo_line_to (cr, dx, dy);
      else
        continue;
      lx = dx, ly = dy;
    }
}

static void
draw_initial (const Scene *sc, const FxStepFrame *initial)
{
  cairo_t *cr = sc->cr;
  double dash[] = { 4 * sc->ls, 4 * sc->ls };
  cairo_save (cr);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_set_line_width (cr, 1.5 * sc->ls);
  fx_set_rgba (cr, sc->pal->dim, 0.6);
  for (guint l = 0; l < initial->n_links; l++)
    if (link_has_nodes (initial, l))
      link_path (sc, initial, l);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_bodies (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  for (guint b = 0; b < fx_model_n_bodies (m); b++)
    {
      const FxBody *body = fx_model_body (m, b);
      guint drawn = 0;
      for (guint k = 0; k < body->n_joints; k++)
        {
          int j = fx_model_find_joint (m, body->joints[k]);
          if (j < 0)
            continue;
          double dx, dy;
          joint_device (sc, j, &dx, &dy);
          if (drawn++ == 0)
            cairo_move_to (cr, dx, dy);
          else
            cairo_line_to (cr, dx, dy);
        }
      if (drawn == 0)
        continue;
      cairo_close_path (cr);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      fx_set_rgba (cr, sc->pal->accent, 0.18);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, (drawn > 2 ? 2.0 : 10.0) * sc->ls);
      fx_set_rgba (cr, sc->pal->accent, drawn > 2 ? 0.7 : 0.35);
      cairo_stroke (cr);
    }
}

static void
draw_links (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxStepFrame *f = sc->frame;
  const FxSceneStyle *st = sc->style;
  double range = fx_scene_moment_range (st, f);
  double width = 5 * sc->ls;
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  /* halos first, so the coloured strokes sit on top */
  for (guint l = 0; l < f->n_links; l++)
    {
      if (!link_has_nodes (f, l))
        continue;
      gboolean sel = (int) l == st->selected_link, hov = (int) l == st->hover_link;
      link_path (sc, f, l);
      if (sel || hov)
        {
          cairo_set_line_width (cr, width + (sel ? 8 : 6) * sc->ls);
          fx_set_rgba (cr, sel ? sc->pal->accent : sc->pal->fg, sel ? 0.45 : 0.15);
          cairo_stroke_preserve (cr);
        }
      cairo_set_line_width (cr, width + 2);
      fx_set_rgba (cr, sc->pal->fg, st->dark ? 0.35 : 0.55);
      cairo_stroke (cr);
    }

  /* one stroke per colour level rather than per segment: a 1000-element
   * link then costs a few dozen strokes, not a thousand */
  enum { LEVELS = 65 };
  cairo_set_line_width (cr, width);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  g_autofree guint8 *level = g_new (guint8, MAX (f->n_nodes, 1u));
  gboolean used[LEVELS] = { FALSE };
  for (guint l = 0; l < f->n_links; l++)
    {
      if (!link_has_nodes (f, l))
        continue;
      for (guint i = f->node_offset[l]; i + 1 < f->node_offset[l + 1]; i++)
        {
          double u = 0.5 * (f->moment[i] + f->moment[i + 1]) / range;
          if (!isfinite (u))
            u = 0;
          int k = (int) lround ((CLAMP (u, -1, 1) + 1) / 2 * (LEVELS - 1));
          level[i] = (guint8) k;
          used[k] = TRUE;
        }
    }
  for (int k = 0; k < LEVELS; k++)
    {
      if (!used[k])
        continue;
      for (guint l = 0; l < f->n_links; l++)
        {
          if (!link_has_nodes (f, l))
            continue;
          /* runs of the same level become one polyline, and points less
           * than half a pixel from the last one drawn are skipped (the
           * run's end is always drawn): a 10000-element link then costs
           * about its length in pixels */
          gboolean open = FALSE, pending = FALSE;
          double lx = 0, ly = 0, px = 0, py = 0;
          for (guint i = f->node_offset[l]; i + 1 < f->node_offset[l + 1]; i++)
            {
              if (level[i] != k)
                {
                  if (pending)
                    cairo_line_to (cr, px, py);
                  open = pending = FALSE;
                  continue;
                }
              double x1, y1;
              dev (sc, f->x[i + 1], f->y[i + 1], &x1, &y1);
              if (!open)
                {
                  double x0, y0;
                  dev (sc, f->x[i], f->y[i], &x0, &y0);
                  cairo_move_to (cr, x0, y0);
                  cairo_line_to (cr, x1, y1);
                  lx = x1, ly = y1;
                  open = TRUE;
                  pending = FALSE;
                }
              else if (fabs (x1 - lx) + fabs (y1 - ly) >= 0.5)
                {
                  cairo_line_to (cr, x1, y1);
                  lx = x1, ly = y1;
                  pending = FALSE;
                }
              else
                {
                  px = x1, py = y1;
                  pending = TRUE;
                }
            }
          if (pending)
            cairo_line_to (cr, px, py);
        }
      double rgb[3];
      fx_colormap_eval (st->colormap, -1 + 2.0 * k / (LEVELS - 1), rgb);
      fx_set_rgb (cr, rgb);
      cairo_stroke (cr);
    }
}

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
      for (int k = -1; k <= 1; k += 2)
        {
          cairo_arc (cr, x + k * 5 * ls, y + 9 * ls, 3 * ls, 0, 2 * G_PI);
          cairo_stroke (cr);
        }
      hatch_ground (sc, x, y + 12 * ls, 13 * ls);
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
          arrow_head (cr, x + 36 * ls * ux, y + 36 * ls * uy, ux, uy, 8 * ls);
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

static void
draw_joints (const Scene *sc)
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
      joint_device (sc, j, &x, &y);
      draw_support (sc, joint, x, y);
    }

  for (guint j = 0; j < n; j++)
    {
      const FxJoint *joint = fx_model_joint (m, j);
      double x, y;
      joint_device (sc, j, &x, &y);
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
  arrow_head (cr, x + r * cos (ae) + 4 * sc->ls * tx, y + r * sin (ae) + 4 * sc->ls * ty,
              tx, ty, 7 * sc->ls);
}

static int
joint_of (const FxModel *m, const char *id)
{
  return id ? fx_model_find_joint (m, id) : -1;
}

static void
draw_motors_springs (const Scene *sc)
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
      joint_device (sc, j, &x, &y);
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
      joint_device (sc, j, &x, &y);
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

static void
draw_loads (const Scene *sc)
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
          if (l < 0 || !link_has_nodes (f, l))
            continue;
          link_point (f, l, load->s, &px, &py);
        }
      double x, y;
      dev (sc, px, py, &x, &y);
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
          arrow_head (cr, x - 3 * ls * ux, y - 3 * ls * uy, ux, uy, 9 * ls);
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

static void
draw_probes (const Scene *sc)
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
                  const double *q = trail_point (st->trails, p, k);
                  double x, y;
                  dev (sc, q[0], q[1], &x, &y);
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
      dev (sc, px, py, &x, &y);
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

/* Two small discs at a link end, translation then rotation: orange "F"
 * when that port takes force in (force in, velocity out), blue "V" when it
 * takes velocity in. */
static void
causality_pair (const Scene *sc, double x, double y, double ux, double uy,
                FxCausality T, FxCausality R)
{
  /* along the link, just off its centre line: translation first, then
   * rotation (ringed), so glyphs of links meeting at a joint stay apart */
  cairo_t *cr = sc->cr;
  double ls = sc->ls, r = 5 * ls;
  double px = -uy, py = ux;
  fx_text_font (cr, 7.5 * ls, TRUE);
  for (int c = 0; c < 2; c++)
    {
      FxCausality k = c == 0 ? T : R;
      double along = (17 + 12 * c) * ls, off = 9 * ls;
      double gx = x + along * ux + off * px, gy = y + along * uy + off * py;
      cairo_arc (cr, gx, gy, r, 0, 2 * G_PI);
      fx_set_rgb (cr, k == FX_CAUSAL_F ? sc->pal->load : sc->pal->accent);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      fx_text_draw (cr, gx, gy, k == FX_CAUSAL_F ? "F" : "V", FX_ALIGN_CENTER, FX_ALIGN_CENTER);
      if (c == 1)
        {
          cairo_arc (cr, gx, gy, r + 1.5 * ls, 0, 2 * G_PI);
          fx_set_rgb (cr, sc->pal->fg);
          cairo_set_line_width (cr, 1 * ls);
          cairo_stroke (cr);
        }
    }
}

/* No consistent assignment: the glyphs the user's choices fix, and the
 * conflicting ends ringed in the error colour, so the fault is on the
 * canvas where the choice was made. */
static void
draw_conflicts (const Scene *sc)
{
  const FxStepFrame *f = sc->frame;
  const FxModel *m = sc->model;
  cairo_t *cr = sc->cr;
  double ls = sc->ls;
  for (guint l = 0; l < MIN (f->n_links, m->links->len); l++)
    {
      const FxLink *link = fx_model_link (m, l);
      if (!link_has_nodes (f, l) || link->formulation == FX_FORMULATION_AUTO)
        continue;
      FxCausality T, R;
      fx_formulation_causality (link->formulation, &T, &R);
      for (int k = 0; k < 2; k++)
        {
          guint i = k ? f->node_offset[l + 1] - 1 : f->node_offset[l];
          double x, y, ux, uy;
          dev (sc, f->x[i], f->y[i], &x, &y);
          link_end_direction (sc, l, k == 1, &ux, &uy);
          causality_pair (sc, x, y, ux, uy, T, R);
        }
    }
  for (guint c = 0; c < sc->style->conflicts->len; c++)
    {
      const FxConflictEnd *e = sc->style->conflicts->pdata[c];
      if (e->link >= f->n_links || !link_has_nodes (f, e->link))
        continue;
      guint i = e->at_to ? f->node_offset[e->link + 1] - 1 : f->node_offset[e->link];
      double x, y, ux, uy;
      dev (sc, f->x[i], f->y[i], &x, &y);
      link_end_direction (sc, e->link, e->at_to, &ux, &uy);
      /* around the glyph of the channel at fault (causality_pair's place) */
      double along = (17 + 12 * e->channel) * ls, off = 9 * ls;
      cairo_arc (cr, x + along * ux - off * uy, y + along * uy + off * ux, 9 * ls, 0, 2 * G_PI);
      fx_set_rgb (cr, sc->pal->error);
      cairo_set_line_width (cr, 2.5 * ls);
      cairo_stroke (cr);
    }
}

static void
draw_causality (const Scene *sc)
{
  const FxAssignment *as = sc->style->assignment;
  const FxStepFrame *f = sc->frame;
  if (as == NULL && sc->style->conflicts && sc->style->conflicts->len > 0)
    {
      draw_conflicts (sc);
      return;
    }
  if (as == NULL || as->n_links != f->n_links)
    return;
  for (guint l = 0; l < f->n_links; l++)
    {
      if (!link_has_nodes (f, l))
        continue;
      const FxLinkAssignment *la = &as->links[l];
      guint a = f->node_offset[l], b = f->node_offset[l + 1] - 1;
      double x, y, ux, uy;
      dev (sc, f->x[a], f->y[a], &x, &y);
      link_end_direction (sc, l, FALSE, &ux, &uy);
      causality_pair (sc, x, y, ux, uy, la->segment[0].T, la->segment[0].R);
      const FxSegmentAssignment *last = &la->segment[la->split ? 1 : 0];
      dev (sc, f->x[b], f->y[b], &x, &y);
      link_end_direction (sc, l, TRUE, &ux, &uy);
      causality_pair (sc, x, y, ux, uy, last->T, last->R);
      if (la->split)
        {
          double mx, my;
          link_point (f, l, 0.5, &mx, &my);
          dev (sc, mx, my, &x, &y);
          cairo_t *cr = sc->cr;
          double s = 7 * sc->ls;
          cairo_move_to (cr, x, y - s);
          cairo_line_to (cr, x + s, y);
          cairo_line_to (cr, x, y + s);
          cairo_line_to (cr, x - s, y);
          cairo_close_path (cr);
          fx_set_rgb (cr, sc->pal->card);
          cairo_fill_preserve (cr);
          fx_set_rgb (cr, sc->pal->fg);
          cairo_set_line_width (cr, 1.5 * sc->ls);
          cairo_stroke (cr);
        }
    }
}

static void
draw_joint_gaps (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  const FxStepFrame *f = sc->frame;
  for (guint l = 0; l < MIN (f->n_links, m->links->len); l++)
    {
      if (!link_has_nodes (f, l))
        continue;
      const FxLink *link = fx_model_link (m, l);
      for (int end = 0; end < 2; end++)
        {
          int j = fx_model_find_joint (m, end ? link->to : link->from);
          if (j < 0 || (guint) j >= f->n_joints)
            continue;
          guint i = end ? f->node_offset[l + 1] - 1 : f->node_offset[l];
          double x0, y0, x1, y1;
          joint_device (sc, j, &x0, &y0);
          dev (sc, f->x[i], f->y[i], &x1, &y1);
          if (hypot (x1 - x0, y1 - y0) < 0.75)
            continue;
          fx_set_rgb (cr, sc->pal->error);
          cairo_set_line_width (cr, 2 * sc->ls);
          cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
          cairo_stroke (cr);
          cairo_arc (cr, x1, y1, 3 * sc->ls, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
}

/* A badge at the middle of each floating-frame link whose gauges say that
 * geometric stiffening matters (docs/theory.md §10): its answers are off. */
static void
draw_link_warnings (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxStepFrame *f = sc->frame;
  if (f->link_warning == NULL)
    return;
  for (guint l = 0; l < f->n_links; l++)
    {
      if (!f->link_warning[l] || !link_has_nodes (f, l))
        continue;
      double mx, my, x, y, r = 8 * sc->ls;
      link_point (f, l, 0.5, &mx, &my);
      dev (sc, mx, my, &x, &y);
      fx_set_rgb (cr, sc->pal->error);
      cairo_arc (cr, x, y - 2 * r, r, 0, 2 * G_PI);
      cairo_fill (cr);
      fx_text_font (cr, 12 * sc->ls, TRUE);
      fx_set_rgb (cr, sc->pal->bg);
      fx_text_draw (cr, x, y - 2 * r, "!", FX_ALIGN_CENTER, FX_ALIGN_CENTER);
    }
}

static void
draw_labels (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  const FxStepFrame *f = sc->frame;
  fx_text_font (cr, 10 * sc->ls, FALSE);
  fx_set_rgb (cr, sc->pal->dim);
  for (guint j = 0; j < MIN (m->joints->len, f->n_joints); j++)
    {
      double x, y;
      joint_device (sc, j, &x, &y);
      fx_text_draw (cr, x + 8 * sc->ls, y + 6 * sc->ls, fx_model_joint (m, j)->id,
                    FX_ALIGN_START, FX_ALIGN_START);
    }
  for (guint l = 0; l < MIN (m->links->len, f->n_links); l++)
    {
      if (!link_has_nodes (f, l))
        continue;
      double mx, my, x, y;
      link_point (f, l, 0.5, &mx, &my);
      dev (sc, mx, my, &x, &y);
      fx_text_draw (cr, x + 6 * sc->ls, y - 8 * sc->ls, fx_model_link (m, l)->id,
                    FX_ALIGN_START, FX_ALIGN_END);
    }
}

static void
draw_pull (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxSceneStyle *st = sc->style;
  double x0, y0, x1, y1;
  dev (sc, st->pull_from[0], st->pull_from[1], &x0, &y0);
  dev (sc, st->pull_to[0], st->pull_to[1], &x1, &y1);
  double dash[] = { 5 * sc->ls, 3 * sc->ls };
  cairo_save (cr);
  cairo_set_dash (cr, dash, 2, 0);
  fx_set_rgb (cr, sc->pal->load);
  cairo_set_line_width (cr, 2 * sc->ls);
  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, x1, y1);
  cairo_stroke (cr);
  cairo_restore (cr);
  cairo_arc (cr, x1, y1, 6 * sc->ls, 0, 2 * G_PI);
  fx_set_rgba (cr, sc->pal->load, 0.35);
  cairo_fill_preserve (cr);
  fx_set_rgb (cr, sc->pal->load);
  cairo_set_line_width (cr, 1.5 * sc->ls);
  cairo_stroke (cr);
}

void
fx_scene_draw_colorbar (cairo_t *cr, const FxSceneStyle *style, double range,
                        double x, double y, double w, double h)
{
  const FxPalette *pal = fx_palette_get (style->dark);
  double ls = style->line_scale > 0 ? style->line_scale : 1;
  cairo_save (cr);
  fx_rounded_rect (cr, x, y, w, h, 8 * ls);
  fx_set_rgba (cr, pal->card, 0.92);
  cairo_fill_preserve (cr);
  fx_set_rgba (cr, pal->fg, 0.12);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);

  double pad = 10 * ls;
  double bx = x + pad, bw = w - 2 * pad;
  fx_text_font (cr, 10.5 * ls, FALSE);
  double th = fx_text_height (cr);
  double by = y + pad + th + 3 * ls, bh = MAX (h - 2 * pad - 2 * th - 8 * ls, 4);
  fx_set_rgb (cr, pal->fg);
  fx_text_draw (cr, bx, y + pad, _("Bending moment (N\u00a0m)"), FX_ALIGN_START, FX_ALIGN_START);

  cairo_pattern_t *grad = cairo_pattern_create_linear (bx, 0, bx + bw, 0);
  for (int k = 0; k <= 16; k++)
    {
      double rgb[3], u = -1 + k / 8.0;
      fx_colormap_eval (style->colormap, u, rgb);
      cairo_pattern_add_color_stop_rgb (grad, k / 16.0, rgb[0], rgb[1], rgb[2]);
    }
  cairo_rectangle (cr, bx, by, bw, bh);
  cairo_set_source (cr, grad);
  cairo_fill (cr);
  cairo_pattern_destroy (grad);

  char buf[48];
  fx_set_rgb (cr, pal->dim);
  for (int k = -1; k <= 1; k++)
    {
      double tx = bx + (k + 1) / 2.0 * bw;
      fx_format_value (buf, sizeof buf, k * range);
      if (k == 0)
        g_strlcpy (buf, "0", sizeof buf);
      cairo_move_to (cr, tx, by + bh);
      cairo_line_to (cr, tx, by + bh + 3 * ls);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      fx_text_draw (cr, tx, by + bh + 4 * ls, buf,
                    k < 0 ? FX_ALIGN_START : k > 0 ? FX_ALIGN_END : FX_ALIGN_CENTER,
                    FX_ALIGN_START);
    }
  cairo_restore (cr);
}

void
fx_scene_draw (cairo_t *cr, const FxModel *model, const FxStepFrame *frame,
               const FxStepFrame *initial, const FxView *view,
               const FxSceneStyle *style, double w, double h)
{
  g_return_if_fail (frame != NULL);
  g_autoptr (FxStepFrame) magnified = fx_deflection_magnify (model, frame, MAX (style->deflection_scale, 1));
  frame = magnified;
  Scene sc = {
    .cr = cr, .model = model, .frame = frame, .view = view, .style = style,
    .pal = fx_palette_get (style->dark),
    .ls = style->line_scale > 0 ? style->line_scale : 1,
  };
  sc.model_matches = model->joints->len == frame->n_joints
                     && model->links->len == frame->n_links;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_clip (cr);
  if (!style->transparent)
    {
      fx_set_rgb (cr, sc.pal->bg);
      cairo_paint (cr);
    }
  if (style->show_grid)
    draw_grid (&sc, w, h);
  if (style->show_initial && initial != NULL && initial != frame)
    draw_initial (&sc, initial);
  if (sc.model_matches)
    draw_bodies (&sc);
  draw_links (&sc);
  if (sc.model_matches)
    {
      if (style->show_joint_gaps)
        draw_joint_gaps (&sc);
      draw_motors_springs (&sc);
      draw_joints (&sc);
      draw_loads (&sc);
      if (style->show_causality)
        draw_causality (&sc);
      if (style->show_labels)
        draw_labels (&sc);
      draw_link_warnings (&sc);
    }
  draw_probes (&sc);
  if (style->has_pull)
    draw_pull (&sc);

  double ls = sc.ls;
  if (style->show_colorbar && frame->n_links > 0)
    {
      double cw = 220 * ls, ch = 62 * ls;
      if (cw < w - 24 && ch < h - 24)
        fx_scene_draw_colorbar (cr, style, fx_scene_moment_range (style, frame),
                                w - cw - 12, h - ch - 12, cw, ch);
    }
  if (style->show_time)
    {
      char buf[64];
      snprintf (buf, sizeof buf, "t = %.3f s", frame->t);
      fx_text_font (cr, 13 * ls, TRUE);
      fx_set_rgb (cr, sc.pal->fg);
      fx_text_draw (cr, 14, 12, buf, FX_ALIGN_START, FX_ALIGN_START);
    }
  g_autofree char *scale_label = fx_deflection_label (MAX (style->deflection_scale, 1));
  if (scale_label)
    {
      /* said wherever it applies: a magnified bend must never pass for a real one */
      fx_text_font (cr, 13 * ls, TRUE);
      fx_set_rgb (cr, sc.pal->accent);
      fx_text_draw (cr, 14, style->show_time ? 12 + 20 * ls : 12, scale_label, FX_ALIGN_START,
                    FX_ALIGN_START);
    }
  cairo_restore (cr);
}

gboolean
fx_scene_bounds (const FxStepFrame *frame, double bbox[4])
{
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (guint i = 0; i < frame->n_nodes; i++)
    if (isfinite (frame->x[i]) && isfinite (frame->y[i]))
      {
        x0 = MIN (x0, frame->x[i]);
        x1 = MAX (x1, frame->x[i]);
        y0 = MIN (y0, frame->y[i]);
        y1 = MAX (y1, frame->y[i]);
      }
  for (guint j = 0; j < frame->n_joints; j++)
    {
      double x = frame->joint_xy[2 * j], y = frame->joint_xy[2 * j + 1];
      if (!isfinite (x) || !isfinite (y))
        continue;
      x0 = MIN (x0, x);
      x1 = MAX (x1, x);
      y0 = MIN (y0, y);
      y1 = MAX (y1, y);
    }
  if (!(x0 <= x1))
    return FALSE;
  bbox[0] = x0;
  bbox[1] = x1;
  bbox[2] = y0;
  bbox[3] = y1;
  return TRUE;
}

int
fx_scene_pick_joint (const FxStepFrame *frame, const FxView *view,
                     double dx, double dy, double radius)
{
  int best = -1;
  double best_d = radius;
  for (guint j = 0; j < frame->n_joints; j++)
    {
      double x, y;
      fx_view_to_device (view, frame->joint_xy[2 * j], frame->joint_xy[2 * j + 1], &x, &y);
      double d = hypot (x - dx, y - dy);
      if (d <= best_d)
        {
          best_d = d;
          best = (int) j;
        }
    }
  return best;
}

int
fx_scene_pick_link (const FxStepFrame *frame, const FxView *view,
                    double dx, double dy, double radius, double *s)
{
  int best = -1;
  double best_d = radius, best_s = 0;
  for (guint l = 0; l < frame->n_links; l++)
    {
      guint a = frame->node_offset[l], b = frame->node_offset[l + 1];
      if (b < a + 2)
        continue;
      guint n = b - a - 1;
      for (guint i = a; i + 1 < b; i++)
        {
          double x0, y0, x1, y1;
          fx_view_to_device (view, frame->x[i], frame->y[i], &x0, &y0);
          fx_view_to_device (view, frame->x[i + 1], frame->y[i + 1], &x1, &y1);
          double ex = x1 - x0, ey = y1 - y0, len2 = ex * ex + ey * ey;
          double t = len2 > 0 ? ((dx - x0) * ex + (dy - y0) * ey) / len2 : 0;
          t = CLAMP (t, 0, 1);
          double d = hypot (x0 + t * ex - dx, y0 + t * ey - dy);
          if (d <= best_d)
            {
              best_d = d;
              best = (int) l;
              best_s = ((i - a) + t) / n;
            }
        }
    }
  if (s)
    *s = best_s;
  return best;
}
