/* fx-scene.c: drawing the mechanism: the view, the grid, the links
 * coloured by bending moment, labels and the colour bar, and the order of
 * the layers. The model's symbols (supports, joints, motors, loads, probes)
 * are in fx-scene-symbols.c, the causality glyphs in fx-scene-causality.c.
 *
 * Sizes are in device pixels times style->line_scale, so a picture reads
 * the same at any zoom; only geometry follows the view.
 */
#include "fx-scene-private.h"
#include "fx-render-private.h"
#include "fx-deflection.h"
#include "fx-conflicts.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

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
  s->show_reactions = TRUE;
  s->show_diagram_legend = TRUE;
  s->selected_joint = s->selected_link = -1;
  s->hover_joint = s->hover_link = -1;
}

double
fx_scene_moment_range (const FxSceneStyle *style, const FxStepFrame *frame)
{
  double r = style->moment_range > 0 ? style->moment_range : frame->moment_max_abs;
  return r > 0 && isfinite (r) ? r : 1.0;
}

/* ---- geometry helpers (fx-scene-private.h) ---- */

/* Device coordinates past this many pixels from the view's corner are
 * pulled in along the ray from it: cairo's fixed-point paths wrap around
 * near 8e6 px, and a diverged link (a floating-frame blade spun past its
 * limit) lies a million metres away. Within the view, a segment towards such
 * a point turns by under 1e-2 rad. */
#define SCENE_FAR_PX 1e5

void
scene_dev (const Scene *sc, double x, double y, double *dx, double *dy)
{
  fx_view_to_device (sc->view, x, y, dx, dy);
  double r = hypot (*dx, *dy);
  if (r > SCENE_FAR_PX && isfinite (r))
    {
      *dx *= SCENE_FAR_PX / r;
      *dy *= SCENE_FAR_PX / r;
    }
}

void
scene_joint_device (const Scene *sc, guint j, double *dx, double *dy)
{
  scene_dev (sc, sc->frame->joint_xy[2 * j], sc->frame->joint_xy[2 * j + 1], dx, dy);
}

gboolean
scene_link_has_nodes (const FxStepFrame *f, guint l)
{
  return l < f->n_links && f->node_offset[l + 1] > f->node_offset[l] + 1;
}

/* The unit direction (device) of link l leaving its end (at_to: the `to` end). */
void
scene_link_end_direction (const Scene *sc, guint l, gboolean at_to, double *ux, double *uy)
{
  const FxStepFrame *f = sc->frame;
  guint a = f->node_offset[l], b = f->node_offset[l + 1] - 1;
  guint i0 = at_to ? b : a, i1 = at_to ? b - 1 : a + 1;
  double x0, y0, x1, y1;
  scene_dev (sc, f->x[i0], f->y[i0], &x0, &y0);
  scene_dev (sc, f->x[i1], f->y[i1], &x1, &y1);
  double len = hypot (x1 - x0, y1 - y0);
  *ux = len > 0 ? (x1 - x0) / len : 1;
  *uy = len > 0 ? (y1 - y0) / len : 0;
}

/* The point at fraction s along link l (by node index, which is arc length
 * for uniform elements), in model coordinates. */
void
scene_link_point (const FxStepFrame *f, guint l, double s, double *x, double *y)
{
  guint a = f->node_offset[l], n = f->node_offset[l + 1] - a - 1;
  double u = CLAMP (s, 0, 1) * n;
  guint k = MIN ((guint) floor (u), n - 1);
  double t = u - k;
  *x = (1 - t) * f->x[a + k] + t * f->x[a + k + 1];
  *y = (1 - t) * f->y[a + k] + t * f->y[a + k + 1];
}

void
scene_arrow_head (cairo_t *cr, double x, double y, double ux, double uy, double size)
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
          scene_dev (sc, i * step, 0, &dx, &dy);
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
          scene_dev (sc, 0, k * step, &dx, &dy);
          dy = floor (dy) + 0.5;
          cairo_move_to (cr, 0, dy);
          cairo_line_to (cr, w, dy);
        }
      cairo_stroke (cr);
    }
}

/* The element from node i to i + 1 (the current point must be node i)
 * as the cubic Hermite its end positions and section angles give: a
 * Bezier with control points a third of the chord along each end's
 * section direction. At x50 a beam of a few elements is then drawn
 * smooth rather than kinked. Where an end's angle is more than 60 degrees
 * off the chord (a member whose angles do not follow its centreline), or
 * the element is shorter than a few pixels, the chord is drawn. */
static void
element_to (const Scene *sc, const FxStepFrame *f, guint i)
{
  double x0, y0, x1, y1;
  scene_dev (sc, f->x[i], f->y[i], &x0, &y0);
  scene_dev (sc, f->x[i + 1], f->y[i + 1], &x1, &y1);
  double cx = f->x[i + 1] - f->x[i], cy = f->y[i + 1] - f->y[i], h = hypot (cx, cy);
  double c0x = cos (f->theta[i]), c0y = sin (f->theta[i]);
  double c1x = cos (f->theta[i + 1]), c1y = sin (f->theta[i + 1]);
  if (!(h > 0) || fabs (x1 - x0) + fabs (y1 - y0) < 3 || !((c0x * cx + c0y * cy) > 0.5 * h)
      || !((c1x * cx + c1y * cy) > 0.5 * h))
    {
      cairo_line_to (sc->cr, x1, y1);
      return;
    }
  double ax, ay, bx, by;
  scene_dev (sc, f->x[i] + h / 3 * c0x, f->y[i] + h / 3 * c0y, &ax, &ay);
  scene_dev (sc, f->x[i + 1] - h / 3 * c1x, f->y[i + 1] - h / 3 * c1y, &bx, &by);
  cairo_curve_to (sc->cr, ax, ay, bx, by, x1, y1);
}

static void
link_path (const Scene *sc, const FxStepFrame *f, guint l)
{
  /* points under half a pixel from the last drawn one are skipped; the
   * last node always is drawn; an element from a drawn node is a cubic */
  cairo_t *cr = sc->cr;
  double lx = 0, ly = 0;
  gboolean at_node = FALSE;  /* the current point is node i - 1 */
  guint a = f->node_offset[l], b = f->node_offset[l + 1];
  for (guint i = a; i < b; i++)
    {
      double dx, dy;
      scene_dev (sc, f->x[i], f->y[i], &dx, &dy);
      if (i == a)
        cairo_move_to (cr, dx, dy);
      else if (at_node && fabs (dx - lx) + fabs (dy - ly) >= 0.5)
        element_to (sc, f, i - 1);
      else if (i + 1 == b || fabs (dx - lx) + fabs (dy - ly) >= 0.5)
        cairo_line_to (cr, dx, dy);
      else
        {
          at_node = FALSE;
          continue;
        }
      lx = dx, ly = dy;
      at_node = TRUE;
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
    if (scene_link_has_nodes (initial, l))
      link_path (sc, initial, l);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A floating-frame link's mean line, thin and dash-dotted as a drawing's
 * centre line (the initial configuration's ghost is dashed): the frame its
 * deformation rides on and is measured from (fx-deflection.h), from the
 * foot of its first node to the foot of its last. */
static void
draw_mean_lines (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxStepFrame *f = sc->frame;
  if (f->link_axis == NULL)
    return;
  double dash[] = { 10 * sc->ls, 3 * sc->ls, 2 * sc->ls, 3 * sc->ls };
  cairo_save (cr);
  cairo_set_dash (cr, dash, 4, 0);
  cairo_set_line_width (cr, 1.2 * sc->ls);
  fx_set_rgba (cr, sc->pal->fg, 0.75);
  for (guint l = 0; l < f->n_links; l++)
    {
      const double *axis = &f->link_axis[3 * l];
      if (!scene_link_has_nodes (f, l) || !isfinite (axis[0] + axis[1] + axis[2]))
        continue;
      double e[2] = { cos (axis[2]), sin (axis[2]) };
      guint ends[2] = { f->node_offset[l], f->node_offset[l + 1] - 1 };
      double dev[2][2];
      for (guint k = 0; k < 2; k++)
        {
          guint i = ends[k];
          double along = (f->x[i] - axis[0]) * e[0] + (f->y[i] - axis[1]) * e[1];
          scene_dev (sc, axis[0] + along * e[0], axis[1] + along * e[1], &dev[k][0], &dev[k][1]);
        }
      if (!isfinite (dev[0][0] + dev[0][1] + dev[1][0] + dev[1][1]))
        continue;
      cairo_move_to (cr, dev[0][0], dev[0][1]);
      cairo_line_to (cr, dev[1][0], dev[1][1]);
    }
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
          scene_joint_device (sc, j, &dx, &dy);
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
      if (!scene_link_has_nodes (f, l))
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
      if (!scene_link_has_nodes (f, l))
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
          if (!scene_link_has_nodes (f, l))
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
              scene_dev (sc, f->x[i + 1], f->y[i + 1], &x1, &y1);
              if (!open)
                {
                  double x0, y0;
                  scene_dev (sc, f->x[i], f->y[i], &x0, &y0);
                  cairo_move_to (cr, x0, y0);
                  element_to (sc, f, i);
                  lx = x1, ly = y1;
                  open = TRUE;
                  pending = FALSE;
                }
              else if (fabs (x1 - lx) + fabs (y1 - ly) >= 0.5)
                {
                  /* from node i when it was drawn, else from the last drawn */
                  if (pending)
                    cairo_line_to (cr, x1, y1);
                  else
                    element_to (sc, f, i);
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

/* A badge at the middle of each floating-frame link whose gauges say that
 * geometric stiffening matters (docs/theory.md, floating-frame links): its
 * answers are off. */
/* A link running away leaves the canvas, its middle first: its badge then
 * goes to the node nearest the middle that is still on the canvas, so the
 * warning shows for as long as any of the link does (issue 32). */
static void
badge_on_canvas (const Scene *sc, guint l, double *x, double *y, double margin)
{
  double x0, y0, x1, y1;
  cairo_clip_extents (sc->cr, &x0, &y0, &x1, &y1);
  x0 += margin, y0 += margin, x1 -= margin, y1 -= margin;
  if (*x >= x0 && *x <= x1 && *y >= y0 && *y <= y1)
    return;
  const FxStepFrame *f = sc->frame;
  guint a = f->node_offset[l], b = f->node_offset[l + 1], mid = (a + b) / 2, best = G_MAXUINT;
  for (guint n = a; n < b; n++)
    {
      double nx, ny;
      scene_dev (sc, f->x[n], f->y[n], &nx, &ny);
      if (nx >= x0 && nx <= x1 && ny >= y0 && ny <= y1
          && (best == G_MAXUINT || (n > mid ? n - mid : mid - n) < (best > mid ? best - mid : mid - best)))
        best = n;
    }
  if (best != G_MAXUINT)
    scene_dev (sc, f->x[best], f->y[best], x, y);
}

static void
draw_link_warnings (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxStepFrame *f = sc->frame;
  if (f->link_warning == NULL)
    return;
  for (guint l = 0; l < f->n_links; l++)
    {
      if (!f->link_warning[l] || !scene_link_has_nodes (f, l))
        continue;
      double mx, my, x, y, r = 8 * sc->ls;
      scene_link_point (f, l, 0.5, &mx, &my);
      scene_dev (sc, mx, my, &x, &y);
      badge_on_canvas (sc, l, &x, &y, 3 * r);
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
      scene_joint_device (sc, j, &x, &y);
      fx_text_draw (cr, x + 8 * sc->ls, y + 6 * sc->ls, fx_model_joint (m, j)->id,
                    FX_ALIGN_START, FX_ALIGN_START);
    }
  for (guint l = 0; l < MIN (m->links->len, f->n_links); l++)
    {
      if (!scene_link_has_nodes (f, l))
        continue;
      double mx, my, x, y;
      scene_link_point (f, l, 0.5, &mx, &my);
      scene_dev (sc, mx, my, &x, &y);
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
  scene_dev (sc, st->pull_from[0], st->pull_from[1], &x0, &y0);
  scene_dev (sc, st->pull_to[0], st->pull_to[1], &x1, &y1);
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

gboolean
fx_scene_colorbar_box (const FxSceneStyle *style, double w, double h, double box[4])
{
  double ls = style->line_scale > 0 ? style->line_scale : 1, cw = 220 * ls, ch = 62 * ls;
  if (!style->show_colorbar || !(cw < w - 24 && ch < h - 24))
    return FALSE;
  box[0] = w - cw - 12, box[1] = h - ch - 12, box[2] = cw, box[3] = ch;
  return TRUE;
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
  draw_mean_lines (&sc);
  if (style->diagram != FX_DIAGRAM_VIEW_NONE)
    scene_draw_diagram (&sc, style->diagram);
  if (sc.model_matches)
    {
      if (style->show_joint_gaps)
        scene_draw_joint_gaps (&sc);
      scene_draw_motors_springs (&sc);
      scene_draw_joints (&sc);
      scene_draw_loads (&sc);
      if (style->show_reactions)
        fx_scene_draw_reactions (cr, frame, view, style);
      if (style->show_causality)
        scene_draw_causality (&sc);
      if (style->show_labels)
        draw_labels (&sc);
      draw_link_warnings (&sc);
    }
  scene_draw_probes (&sc);
  if (style->has_pull)
    draw_pull (&sc);

  double ls = sc.ls, bar[4];
  if (frame->n_links > 0 && fx_scene_colorbar_box (style, w, h, bar))
    fx_scene_draw_colorbar (cr, style, fx_scene_moment_range (style, frame), bar[0], bar[1], bar[2], bar[3]);
  if (style->diagram != FX_DIAGRAM_VIEW_NONE && style->show_diagram_legend && frame->n_links > 0)
    scene_draw_diagram_legend (&sc, style->diagram, w, h);
  if (style->show_time)
    {
      char buf[64];
      snprintf (buf, sizeof buf, "t = %.3f s", frame->t);
      fx_text_font (cr, 13 * ls, TRUE);
      fx_set_rgb (cr, sc.pal->fg);
      fx_text_draw (cr, 14, 12, style->time_label ? style->time_label : buf, FX_ALIGN_START,
                    FX_ALIGN_START);
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
  return fx_scene_pick_joint_if (frame, view, dx, dy, radius, NULL, NULL);
}

int
fx_scene_pick_joint_if (const FxStepFrame *frame, const FxView *view, double dx, double dy,
                        double radius, FxJointFilter accept, gpointer data)
{
  int best = -1;
  double best_d = radius;
  for (guint j = 0; j < frame->n_joints; j++)
    {
      double x, y;
      fx_view_to_device (view, frame->joint_xy[2 * j], frame->joint_xy[2 * j + 1], &x, &y);
      double d = hypot (x - dx, y - dy);
      if (d <= best_d && (accept == NULL || accept (j, data)))
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
