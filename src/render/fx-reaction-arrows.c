/* fx-reaction-arrows.c: the supports' reactions drawn over the scene
 * (fx-scene.h, fx_scene_draw_reactions): the force each support exerts on
 * the mechanism as an arrow pushing onto its joint, with its magnitude,
 * and a held moment as an arc. Read from the frame (fx-measure.h): the
 * mean over the step that ended at the frame's time. */
#include "fx-scene.h"
#include "fx-render-private.h"

#include <math.h>
#include <stdio.h>

/* The longest arrow, px (times the line scale), for the frame's largest force. */
#define ARROW_PX 56.0

static void
head (cairo_t *cr, double x, double y, double ux, double uy, double size)
{
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - size * (ux + 0.5 * uy), y - size * (uy - 0.5 * ux));
  cairo_line_to (cr, x - size * (ux - 0.5 * uy), y - size * (uy + 0.5 * ux));
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* ------------------------------------------------------------- labels
 *
 * Every label is placed where it hides the least (issue 32): each has a
 * few candidate spots around its arrow or arc, tried in order, and the
 * first spot that overlaps no label placed before, no link, no arrow and
 * not the colour bar wins; if none is clear, the one that overlaps the
 * least. */

#define MAX_LABELS 64
#define N_SPOTS 8

typedef struct {
  double x, y, w, h;  /* a box, device */
} Box;

typedef struct {
  cairo_t *cr;
  const FxStepFrame *frame;
  const FxView *view;
  double ls;
  Box bounds, colorbar;   /* the canvas; the colour bar (w = 0: none) */
  Box placed[MAX_LABELS];
  guint n_placed;
  double arrows[MAX_LABELS][4];  /* the force arrows' shafts, device */
  guint n_arrows;
} Labels;

static double
overlap (const Box *a, const Box *b)
{
  double w = MIN (a->x + a->w, b->x + b->w) - MAX (a->x, b->x);
  double h = MIN (a->y + a->h, b->y + b->h) - MAX (a->y, b->y);
  return w > 0 && h > 0 ? w * h : 0;
}

/* Whether the segment (x0, y0)-(x1, y1) passes through the box
 * (Liang-Barsky clipping). */
static gboolean
crosses (const Box *b, double x0, double y0, double x1, double y1)
{
  double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
  const double p[4] = { -dx, dx, -dy, dy };
  const double q[4] = { x0 - b->x, b->x + b->w - x0, y0 - b->y, b->y + b->h - y0 };
  for (int i = 0; i < 4; i++)
    {
      if (p[i] == 0)
        {
          if (q[i] < 0)
            return FALSE;
          continue;
        }
      double r = q[i] / p[i];
      if (p[i] < 0)
        t0 = MAX (t0, r);
      else
        t1 = MIN (t1, r);
      if (t0 > t1)
        return FALSE;
    }
  return TRUE;
}

/* How much a label at `b` would hide: labels and the colour bar by area,
 * links and arrows by the segments it covers, leaving the canvas worst. */
static double
cost (const Labels *L, const Box *b)
{
  double c = 0;
  if (b->x < L->bounds.x || b->y < L->bounds.y || b->x + b->w > L->bounds.x + L->bounds.w
      || b->y + b->h > L->bounds.y + L->bounds.h)
    c += 1e6;
  for (guint i = 0; i < L->n_placed; i++)
    c += 10 * overlap (b, &L->placed[i]);
  if (L->colorbar.w > 0)
    c += 10 * overlap (b, &L->colorbar);
  for (guint i = 0; i < L->n_arrows; i++)
    c += crosses (b, L->arrows[i][0], L->arrows[i][1], L->arrows[i][2], L->arrows[i][3]) ? 400 : 0;
  const FxStepFrame *f = L->frame;
  for (guint l = 0; l < f->n_links; l++)
    for (guint n = f->node_offset[l]; n + 1 < f->node_offset[l + 1]; n++)
      {
        double x0, y0, x1, y1;
        fx_view_to_device (L->view, f->x[n], f->y[n], &x0, &y0);
        fx_view_to_device (L->view, f->x[n + 1], f->y[n + 1], &x1, &y1);
        if (crosses (b, x0, y0, x1, y1))
          {
            c += 300;
            break;  /* one link counts once */
          }
      }
  return c;
}

/* The label `text` at the first clear spot of `spots` (centres). */
static void
place_label (Labels *L, const char *text, const double spots[N_SPOTS][2])
{
  fx_text_font (L->cr, 11 * L->ls, TRUE);
  double w = fx_text_width (L->cr, text) + 6 * L->ls, h = fx_text_height (L->cr) + 2 * L->ls;
  double best = INFINITY;
  Box chosen = { 0 };
  for (guint i = 0; i < N_SPOTS && best > 0; i++)
    {
      Box b = { spots[i][0] - w / 2, spots[i][1] - h / 2, w, h };
      double c = cost (L, &b) + i * 1e-3;  /* ties: the first spot */
      if (c < best)
        best = c, chosen = b;
      if (c < 1)
        break;
    }
  if (L->n_placed < MAX_LABELS)
    L->placed[L->n_placed++] = chosen;
  fx_text_draw (L->cr, chosen.x + chosen.w / 2, chosen.y + chosen.h / 2, text, FX_ALIGN_CENTER,
                FX_ALIGN_CENTER);
}

/* The force (fx, fy) onto the device point (x, y): the tail ARROW_PX share
 * away, against the force, the head at the joint's rim. */
static void
force_arrow (Labels *L, double x, double y, const double F[2], double F_max)
{
  cairo_t *cr = L->cr;
  double ls = L->ls, size = hypot (F[0], F[1]);
  if (!(size > 1e-9 * F_max))
    return;
  double ux = F[0] / size, uy = -F[1] / size;  /* device y grows down */
  double len = (14 + ARROW_PX * size / F_max) * ls;
  cairo_set_line_width (cr, 3 * ls);
  cairo_move_to (cr, x - len * ux, y - len * uy);
  cairo_line_to (cr, x - 10 * ls * ux, y - 10 * ls * uy);
  cairo_stroke (cr);
  head (cr, x - 4 * ls * ux, y - 4 * ls * uy, ux, uy, 10 * ls);
  if (L->n_arrows < MAX_LABELS)
    {
      double *a = L->arrows[L->n_arrows++];
      a[0] = x - len * ux, a[1] = y - len * uy, a[2] = x, a[3] = y;
    }
}

static void
force_label (Labels *L, double x, double y, const double F[2], double F_max)
{
  double ls = L->ls, size = hypot (F[0], F[1]);
  if (!(size > 1e-9 * F_max))
    return;
  double ux = F[0] / size, uy = -F[1] / size, len = (14 + ARROW_PX * size / F_max) * ls;
  double tx = x - len * ux, ty = y - len * uy;  /* the tail */
  /* beyond the tail, then beside it either way, then beside the shaft */
  const double spots[N_SPOTS][2] = {
    { tx - 16 * ls * ux, ty - 12 * ls * uy },
    { tx + 30 * ls * uy, ty - 30 * ls * ux },
    { tx - 30 * ls * uy, ty + 30 * ls * ux },
    { tx - 34 * ls * ux, ty - 26 * ls * uy },
    { x - 0.5 * len * ux + 34 * ls * uy, y - 0.5 * len * uy - 34 * ls * ux },
    { x - 0.5 * len * ux - 34 * ls * uy, y - 0.5 * len * uy + 34 * ls * ux },
    { tx + 48 * ls * uy - 20 * ls * ux, ty - 48 * ls * ux - 20 * ls * uy },
    { tx - 48 * ls * uy - 20 * ls * ux, ty + 48 * ls * ux - 20 * ls * uy },
  };
  char text[64];
  fx_format_engineering (text, sizeof text, size, "N");
  place_label (L, text, spots);
}

/* A moment as an arc around the joint, its head turning the moment's way. */
static void
moment_arc (Labels *L, double x, double y, double M)
{
  cairo_t *cr = L->cr;
  double ls = L->ls, r = 24 * ls, from = G_PI * 0.15, to = G_PI * 1.35;  /* device angles */
  /* counter-clockwise in the model is against the device's angles */
  double end = M > 0 ? from : to, dir = M > 0 ? -1 : 1;
  cairo_set_line_width (cr, 2.5 * ls);
  cairo_arc (cr, x, y, r, from, to);
  cairo_stroke (cr);
  double tx = -sin (end) * dir, ty = cos (end) * dir;
  head (cr, x + r * cos (end) + 5 * ls * tx, y + r * sin (end) + 5 * ls * ty, tx, ty, 8 * ls);
}

static void
moment_label (Labels *L, double x, double y, double M)
{
  double ls = L->ls, r = 24 * ls;
  /* around the arc: below right first, as before, then the other corners */
  const double spots[N_SPOTS][2] = {
    { x + r + 34 * ls, y + r }, { x - r - 34 * ls, y + r }, { x + r + 34 * ls, y - r },
    { x - r - 34 * ls, y - r }, { x, y + r + 18 * ls }, { x, y - r - 18 * ls },
    { x + r + 40 * ls, y + r + 20 * ls }, { x - r - 40 * ls, y + r + 20 * ls },
  };
  char text[64];
  fx_format_engineering (text, sizeof text, M, "N\u00a0m");
  place_label (L, text, spots);
}

void
fx_scene_draw_reactions (cairo_t *cr, const FxStepFrame *frame, const FxView *view,
                         const FxSceneStyle *style)
{
  double ls = style->line_scale > 0 ? style->line_scale : 1, F_max = 0;
  const FxPalette *pal = fx_palette_get (style->dark);

  /* before a run nothing holds anything yet: no arrows on a drawing */
  if (frame->step == 0 || frame->reaction == NULL)
    return;
  for (guint j = 0; j < frame->n_joints; j++)
    if (frame->holds[j] & FX_HOLDS_FORCE)
      F_max = MAX (F_max, hypot (frame->reaction[FX_REACTION_N_VALUES * j + FX_REACTION_FX],
                                 frame->reaction[FX_REACTION_N_VALUES * j + FX_REACTION_FY]));
  Labels L = { .cr = cr, .frame = frame, .view = view, .ls = ls };
  double x0, y0, x1, y1;
  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);  /* the canvas (fx_scene_draw clips to it) */
  L.bounds = (Box) { x0, y0, x1 - x0, y1 - y0 };
  double bar[4];
  if (fx_scene_colorbar_box (style, x1 - x0, y1 - y0, bar))
    L.colorbar = (Box) { bar[0], bar[1], bar[2], bar[3] };
  cairo_save (cr);
  fx_set_rgba (cr, pal->accent, 0.9);
  /* the arrows and arcs first, so that every label knows them all */
  for (guint j = 0; j < frame->n_joints; j++)
    {
      const double *r = &frame->reaction[FX_REACTION_N_VALUES * j];
      double x, y;
      fx_view_to_device (view, frame->joint_xy[2 * j], frame->joint_xy[2 * j + 1], &x, &y);
      if (frame->holds[j] & FX_HOLDS_FORCE)
        force_arrow (&L, x, y, &r[FX_REACTION_FX], F_max);
      if ((frame->holds[j] & FX_HOLDS_MOMENT) && r[FX_REACTION_M] != 0.0)
        moment_arc (&L, x, y, r[FX_REACTION_M]);
    }
  for (guint j = 0; j < frame->n_joints; j++)
    {
      const double *r = &frame->reaction[FX_REACTION_N_VALUES * j];
      double x, y;
      fx_view_to_device (view, frame->joint_xy[2 * j], frame->joint_xy[2 * j + 1], &x, &y);
      if (frame->holds[j] & FX_HOLDS_FORCE)
        force_label (&L, x, y, &r[FX_REACTION_FX], F_max);
      if ((frame->holds[j] & FX_HOLDS_MOMENT) && r[FX_REACTION_M] != 0.0)
        moment_label (&L, x, y, r[FX_REACTION_M]);
    }
  cairo_restore (cr);
}
