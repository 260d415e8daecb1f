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

static void
label (cairo_t *cr, double x, double y, const char *unit, double value, double ls)
{
  char number[48], text[64];

  fx_format_value (number, sizeof number, value);
  snprintf (text, sizeof text, "%s %s", number, unit);
  fx_text_font (cr, 11 * ls, TRUE);
  fx_text_draw (cr, x, y, text, FX_ALIGN_CENTER, FX_ALIGN_CENTER);
}

/* The force (fx, fy) onto the device point (x, y): the tail ARROW_PX share
 * away, against the force, the head at the joint's rim. */
static void
force_arrow (cairo_t *cr, double x, double y, const double F[2], double F_max, double ls)
{
  double size = hypot (F[0], F[1]);
  if (!(size > 1e-9 * F_max))
    return;
  double ux = F[0] / size, uy = -F[1] / size;  /* device y grows down */
  double len = (14 + ARROW_PX * size / F_max) * ls;
  cairo_set_line_width (cr, 3 * ls);
  cairo_move_to (cr, x - len * ux, y - len * uy);
  cairo_line_to (cr, x - 10 * ls * ux, y - 10 * ls * uy);
  cairo_stroke (cr);
  head (cr, x - 4 * ls * ux, y - 4 * ls * uy, ux, uy, 10 * ls);
  label (cr, x - (len + 14 * ls) * ux, y - (len + 10 * ls) * uy, "N", size, ls);
}

/* A moment as an arc around the joint, its head turning the moment's way. */
static void
moment_arc (cairo_t *cr, double x, double y, double M, double ls)
{
  double r = 24 * ls, from = G_PI * 0.15, to = G_PI * 1.35;  /* device angles */
  /* counter-clockwise in the model is against the device's angles */
  double end = M > 0 ? from : to, dir = M > 0 ? -1 : 1;
  cairo_set_line_width (cr, 2.5 * ls);
  cairo_arc (cr, x, y, r, from, to);
  cairo_stroke (cr);
  double tx = -sin (end) * dir, ty = cos (end) * dir;
  head (cr, x + r * cos (end) + 5 * ls * tx, y + r * sin (end) + 5 * ls * ty, tx, ty, 8 * ls);
  label (cr, x + (r + 30 * ls), y + r, "N m", M, ls);
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
  cairo_save (cr);
  fx_set_rgba (cr, pal->accent, 0.9);
  for (guint j = 0; j < frame->n_joints; j++)
    {
      const double *r = &frame->reaction[FX_REACTION_N_VALUES * j];
      double x, y;
      fx_view_to_device (view, frame->joint_xy[2 * j], frame->joint_xy[2 * j + 1], &x, &y);
      if (frame->holds[j] & FX_HOLDS_FORCE)
        force_arrow (cr, x, y, &r[FX_REACTION_FX], F_max, ls);
      if ((frame->holds[j] & FX_HOLDS_MOMENT) && r[FX_REACTION_M] != 0.0)
        moment_arc (cr, x, y, r[FX_REACTION_M], ls);
    }
  cairo_restore (cr);
}
