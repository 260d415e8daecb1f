/* fx-scene-causality.c: which port takes force in at each link end
 * (orange F, blue V), the ends at fault ringed in red when the chosen
 * formulations conflict, and the gaps between link ends at a joint. */
#include "fx-scene-private.h"
#include "fx-render-private.h"
#include "fx-conflicts.h"

#include <math.h>

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

/* The hand-chosen formulation's glyphs at both ends of link l. */
static void
draw_fixed_glyphs (const Scene *sc, guint l)
{
  const FxStepFrame *f = sc->frame;
  const FxLink *link = fx_model_link (sc->model, l);
  if (link->formulation == FX_FORMULATION_AUTO)
    return;
  FxCausality T, R;
  fx_formulation_causality (link->formulation, &T, &R);
  for (int k = 0; k < 2; k++)
    {
      guint i = k ? f->node_offset[l + 1] - 1 : f->node_offset[l];
      double x, y, ux, uy;
      scene_dev (sc, f->x[i], f->y[i], &x, &y);
      scene_link_end_direction (sc, l, k == 1, &ux, &uy);
      causality_pair (sc, x, y, ux, uy, T, R);
    }
}

/* The assignment's glyphs at both ends of link l, and a diamond where it
 * is split. */
static void
draw_assigned_glyphs (const Scene *sc, const FxLinkAssignment *la, guint l)
{
  const FxStepFrame *f = sc->frame;
  guint a = f->node_offset[l], b = f->node_offset[l + 1] - 1;
  double x, y, ux, uy;
  scene_dev (sc, f->x[a], f->y[a], &x, &y);
  scene_link_end_direction (sc, l, FALSE, &ux, &uy);
  causality_pair (sc, x, y, ux, uy, la->segment[0].T, la->segment[0].R);
  const FxSegmentAssignment *last = &la->segment[la->split ? 1 : 0];
  scene_dev (sc, f->x[b], f->y[b], &x, &y);
  scene_link_end_direction (sc, l, TRUE, &ux, &uy);
  causality_pair (sc, x, y, ux, uy, last->T, last->R);
  if (!la->split)
    return;
  double mx, my;
  scene_link_point (f, l, 0.5, &mx, &my);
  scene_dev (sc, mx, my, &x, &y);
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

/* The conflicting ends ringed in the error colour, so the fault is on the
 * canvas where the choice was made. */
static void
draw_conflict_rings (const Scene *sc)
{
  const FxStepFrame *f = sc->frame;
  cairo_t *cr = sc->cr;
  double ls = sc->ls;
  for (guint c = 0; c < sc->style->conflicts->len; c++)
    {
      const FxConflictEnd *e = sc->style->conflicts->pdata[c];
      if (e->link >= f->n_links || !scene_link_has_nodes (f, e->link))
        continue;
      guint i = e->at_to ? f->node_offset[e->link + 1] - 1 : f->node_offset[e->link];
      double x, y, ux, uy;
      scene_dev (sc, f->x[i], f->y[i], &x, &y);
      scene_link_end_direction (sc, e->link, e->at_to, &ux, &uy);
      /* around the glyph of the channel at fault (causality_pair's place) */
      double along = (17 + 12 * e->channel) * ls, off = 9 * ls;
      cairo_arc (cr, x + along * ux - off * uy, y + along * uy + off * ux, 9 * ls, 0, 2 * G_PI);
      fx_set_rgb (cr, sc->pal->error);
      cairo_set_line_width (cr, 2.5 * ls);
      cairo_stroke (cr);
    }
}

/* A small grey dot at (x, y). */
static void
regulariser_dot (const Scene *sc, double x, double y)
{
  cairo_t *cr = sc->cr;
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, y, 3.5 * sc->ls, 0, 2 * G_PI);
  fx_set_rgb (cr, sc->pal->dim);
  cairo_fill_preserve (cr);
  fx_set_rgb (cr, sc->pal->bg);
  cairo_set_line_width (cr, 1 * sc->ls);
  cairo_stroke (cr);
}

/* A small grey dot beside each joint where the assignment added a
 * regularising inertia (docs/theory.md), and beside the midpoint of a split
 * link that carries one: derived, not in the file. */
static void
draw_regularisers (const Scene *sc, const FxAssignment *as)
{
  double ls = sc->ls;
  for (guint i = 0; i < as->regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (as->regularisers, FxRegulariser, i);
      if (r->joint >= MIN (sc->frame->n_joints, sc->model->joints->len))
        continue;
      double x, y;
      scene_joint_device (sc, r->joint, &x, &y);
      /* above and left, clear of the joint's ring and the link glyphs */
      regulariser_dot (sc, x - (8 + 7 * r->channel) * ls, y - 8 * ls);
    }
  for (guint i = 0; as->split_regularisers && i < as->split_regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (as->split_regularisers, FxRegulariser, i);
      if (r->link < 0 || (guint) r->link >= sc->frame->n_links || !scene_link_has_nodes (sc->frame, r->link))
        continue;
      double mx, my, x, y;
      scene_link_point (sc->frame, r->link, 0.5, &mx, &my);
      scene_dev (sc, mx, my, &x, &y);
      /* beside the split's diamond */
      regulariser_dot (sc, x - (12 + 7 * r->channel) * ls, y - 8 * ls);
    }
}

void
scene_draw_causality (const Scene *sc)
{
  const FxAssignment *as = sc->style->assignment;
  const FxStepFrame *f = sc->frame;
  const GPtrArray *conflicts = sc->style->conflicts;
  gboolean conflict = conflicts && conflicts->len > 0;
  if (as && as->n_links != f->n_links)
    as = NULL;
  if (as == NULL && !conflict)
    return;
  if (as && !conflict)
    draw_regularisers (sc, as);
  for (guint l = 0; l < MIN (f->n_links, sc->model->links->len); l++)
    {
      if (!scene_link_has_nodes (f, l))
        continue;
      if (conflict && (as == NULL || fx_conflict_ends_involve (conflicts, l)))
        draw_fixed_glyphs (sc, l);
      else
        draw_assigned_glyphs (sc, &as->links[l], l);
    }
  if (conflict)
    draw_conflict_rings (sc);
}

void
scene_draw_joint_gaps (const Scene *sc)
{
  cairo_t *cr = sc->cr;
  const FxModel *m = sc->model;
  const FxStepFrame *f = sc->frame;
  for (guint l = 0; l < MIN (f->n_links, m->links->len); l++)
    {
      if (!scene_link_has_nodes (f, l))
        continue;
      const FxLink *link = fx_model_link (m, l);
      for (int end = 0; end < 2; end++)
        {
          int j = fx_model_find_joint (m, end ? link->to : link->from);
          if (j < 0 || (guint) j >= f->n_joints)
            continue;
          guint i = end ? f->node_offset[l + 1] - 1 : f->node_offset[l];
          double x0, y0, x1, y1;
          scene_joint_device (sc, j, &x0, &y0);
          scene_dev (sc, f->x[i], f->y[i], &x1, &y1);
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
