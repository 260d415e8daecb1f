/* fx-deflection.c: magnified deflection relative to each link's rigid
 * motion (fx-deflection.h). */
#include "fx-deflection.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* For every link, the end (0: from, 1: to) whose tangent carries its rigid
 * motion, or -1 for the chord. An end is free when its joint has no
 * support and no other link. One pass over the links: chains of thousands
 * of links are drawn at 60 frames a second. */
static int *
tangent_ends (const FxModel *model)
{
  g_autoptr (GHashTable) members = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      const char *ids[2] = { link->from, link->to };
      for (guint k = 0; k < 2; k++)
        if (ids[k])
          g_hash_table_insert (members, (gpointer) ids[k],
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (members, ids[k])) + 1));
    }
  g_autoptr (GHashTable) supported = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint j = 0; j < model->joints->len; j++)
    {
      const FxJoint *joint = fx_model_joint (model, j);
      if (joint->id && joint->support != FX_SUPPORT_NONE)
        g_hash_table_add (supported, (gpointer) joint->id);
    }
  int *ends = g_new (int, MAX (model->links->len, 1u));
  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      const char *ids[2] = { link->from, link->to };
      gboolean free_end[2];
      for (guint k = 0; k < 2; k++)
        free_end[k] = ids[k] && !g_hash_table_contains (supported, ids[k])
                      && GPOINTER_TO_UINT (g_hash_table_lookup (members, ids[k])) == 1;
      ends[l] = free_end[0] == free_end[1] ? -1 : free_end[1] ? 0 : 1;
    }
  return ends;
}

static gboolean
frame_matches (const FxModel *model, const FxStepFrame *frame)
{
  return model->links->len == frame->n_links && model->joints->len == frame->n_joints;
}

/* A floating-frame link's axis (fx-frame.h): its origin and unit direction;
 * FALSE for other links. */
static gboolean
link_axis (const FxStepFrame *f, guint l, double o[2], double e[2])
{
  if (f->link_axis == NULL || !isfinite (f->link_axis[3 * l]) || !isfinite (f->link_axis[3 * l + 1])
      || !isfinite (f->link_axis[3 * l + 2]))
    return FALSE;
  o[0] = f->link_axis[3 * l], o[1] = f->link_axis[3 * l + 1];
  e[0] = cos (f->link_axis[3 * l + 2]), e[1] = sin (f->link_axis[3 * l + 2]);
  return TRUE;
}

/* The rigid-motion position r_i of every node of link l into rx, ry. A
 * floating-frame link's rigid motion is its frame (physics.md 12.8): r_i is
 * node i's foot on the frame's axis, so what is magnified is the deflection
 * from the mean line, to both sides of it. */
static void
link_reference (const FxStepFrame *f, guint l, int end, double *rx, double *ry)
{
  guint a = f->node_offset[l], n = f->node_offset[l + 1] - a;
  if (n == 0)
    return;
  double o[2], e[2];
  if (link_axis (f, l, o, e))
    {
      for (guint i = a; i < a + n; i++)
        {
          double along = (f->x[i] - o[0]) * e[0] + (f->y[i] - o[1]) * e[1];
          rx[i] = o[0] + along * e[0];
          ry[i] = o[1] + along * e[1];
        }
      return;
    }
  /* arc length from the reference end, node by node */
  g_autofree double *s = g_new0 (double, n);
  for (guint k = 1; k < n; k++)
    {
      guint i = end == 1 ? a + n - 1 - k : a + k, prev = end == 1 ? i + 1 : i - 1;
      s[k] = s[k - 1] + hypot (f->x[i] - f->x[prev], f->y[i] - f->y[prev]);
    }
  for (guint k = 0; k < n; k++)
    {
      guint i = end == 1 ? a + n - 1 - k : a + k;
      if (end >= 0)
        {
          guint root = end == 1 ? a + n - 1 : a;
          /* the tangent points along the link, from `from` to `to` */
          double sign = end == 1 ? -1 : 1;
          rx[i] = f->x[root] + sign * s[k] * cos (f->theta[root]);
          ry[i] = f->y[root] + sign * s[k] * sin (f->theta[root]);
        }
      else
        {
          guint b = a + n - 1;
          double u = s[n - 1] > 0 ? s[k] / s[n - 1] : 0;
          rx[i] = f->x[a] + u * (f->x[b] - f->x[a]);
          ry[i] = f->y[a] + u * (f->y[b] - f->y[a]);
        }
    }
}

double
fx_deflection_max (const FxModel *model, const FxStepFrame *frame)
{
  if (!frame_matches (model, frame) || frame->n_nodes == 0)
    return 0;
  g_autofree double *rx = g_new0 (double, frame->n_nodes);
  g_autofree double *ry = g_new0 (double, frame->n_nodes);
  g_autofree int *ends = tangent_ends (model);
  double worst = 0;
  for (guint l = 0; l < frame->n_links; l++)
    {
      link_reference (frame, l, ends[l], rx, ry);
      for (guint i = frame->node_offset[l]; i < frame->node_offset[l + 1]; i++)
        {
          double d = hypot (frame->x[i] - rx[i], frame->y[i] - ry[i]);
          if (isfinite (d))
            worst = MAX (worst, d);
        }
    }
  return worst;
}

double
fx_deflection_max_ratio (const FxModel *model, const FxStepFrame *frame)
{
  if (!frame_matches (model, frame) || frame->n_nodes == 0)
    return 0;
  g_autofree double *rx = g_new0 (double, frame->n_nodes);
  g_autofree double *ry = g_new0 (double, frame->n_nodes);
  g_autofree int *ends = tangent_ends (model);
  double worst = 0;
  for (guint l = 0; l < frame->n_links; l++)
    {
      guint a = frame->node_offset[l], b = frame->node_offset[l + 1];
      double length = 0, d_max = 0;
      if (b < a + 2)
        continue;
      link_reference (frame, l, ends[l], rx, ry);
      for (guint i = a; i < b; i++)
        {
          if (i > a)
            length += hypot (frame->x[i] - frame->x[i - 1], frame->y[i] - frame->y[i - 1]);
          double d = hypot (frame->x[i] - rx[i], frame->y[i] - ry[i]);
          if (isfinite (d))
            d_max = MAX (d_max, d);
        }
      if (length > 0 && isfinite (length))
        worst = MAX (worst, d_max / length);
    }
  return worst;
}

double
fx_deflection_auto_scale_members (double max_deflection, double model_size, double max_ratio)
{
  double scale = fx_deflection_auto_scale (max_deflection, model_size);
  if (max_ratio > 0)
    {
      /* the same ladder, with the member's length for the model's size
       * and the member fraction for the tenth */
      double member = fx_deflection_auto_scale (max_ratio, FX_DEFLECTION_MEMBER_FRACTION / 0.1);
      scale = MIN (scale, member);
    }
  return scale;
}

double
fx_deflection_auto_scale (double max_deflection, double model_size)
{
  if (!(max_deflection > 0) || !(model_size > 0) || !isfinite (max_deflection))
    return 1;
  double want = 0.1 * model_size / max_deflection;
  if (want <= 1)
    return 1;
  if (want >= 1000)
    return 1000;
  double decade = pow (10, floor (log10 (want)));
  double m = want / decade;
  /* 1e-9: a ratio that is exactly 2 or 5 in decimal stays on its rung */
  return decade * (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1);
}

/* The point at fraction s along link l by node index, as the scene places
 * probes and loads. */
static void
point_on_link (const FxStepFrame *f, guint l, double s, double *x, double *y)
{
  guint a = f->node_offset[l], n = f->node_offset[l + 1] - a - 1;
  double u = CLAMP (s, 0, 1) * n;
  guint k = MIN ((guint) floor (u), n - 1);
  double t = u - k;
  *x = (1 - t) * f->x[a + k] + t * f->x[a + k + 1];
  *y = (1 - t) * f->y[a + k] + t * f->y[a + k + 1];
}

/* Free joints sit on their link's end node; probes on their link. */
static void
follow_nodes (const FxModel *model, const int *ends, FxStepFrame *f)
{
  for (guint l = 0; l < f->n_links; l++)
    {
      if (f->node_offset[l + 1] <= f->node_offset[l] + 1)
        continue;
      int end = ends[l];
      if (end < 0)
        continue;
      const FxLink *link = fx_model_link (model, l);
      int j = fx_model_find_joint (model, end == 0 ? link->to : link->from);
      guint i = end == 0 ? f->node_offset[l + 1] - 1 : f->node_offset[l];
      if (j >= 0)
        {
          f->joint_xy[2 * j] = f->x[i];
          f->joint_xy[2 * j + 1] = f->y[i];
        }
    }
  for (guint p = 0; p < f->n_probes && p < model->probes->len; p++)
    {
      int l = fx_model_find_link (model, fx_model_probe (model, p)->link);
      if (l >= 0 && (guint) l < f->n_links && f->node_offset[l + 1] > f->node_offset[l] + 1)
        point_on_link (f, l, fx_model_probe (model, p)->s, &f->probe_xy[2 * p], &f->probe_xy[2 * p + 1]);
    }
}

/* The section angles of the magnified link, so that its drawing (a cubic
 * per element from end positions and angles) follows the magnified shape:
 * the tangent x' = r' + k (x_s - r') with x_s = (cos theta, sin theta) the
 * section's direction and r' the rigid motion's rate along the link (the
 * root tangent, the chord over the arc length, or a floating frame's axis). Angles that do not
 * follow the node order (more than 90 degrees off r') are left as they are. */
static void
magnify_angles (const FxStepFrame *src, guint l, int end, double scale, double *theta)
{
  guint a = src->node_offset[l], n = src->node_offset[l + 1] - a;
  if (n < 2)
    return;
  guint b = a + n - 1;
  double arc = 0, rpx, rpy, o[2], e[2];
  for (guint i = a; i < b; i++)
    arc += hypot (src->x[i + 1] - src->x[i], src->y[i + 1] - src->y[i]);
  if (link_axis (src, l, o, e))
    rpx = e[0], rpy = e[1];
  else if (end >= 0)
    {
      guint root = end == 1 ? b : a;
      rpx = cos (src->theta[root]), rpy = sin (src->theta[root]);
    }
  else if (arc > 0)
    rpx = (src->x[b] - src->x[a]) / arc, rpy = (src->y[b] - src->y[a]) / arc;
  else
    return;
  for (guint i = a; i <= b; i++)
    {
      double cx = cos (src->theta[i]), cy = sin (src->theta[i]);
      if (!(cx * rpx + cy * rpy > 0))
        continue;
      double tx = rpx + scale * (cx - rpx), ty = rpy + scale * (cy - rpy);
      double d = atan2 (ty, tx) - src->theta[i];
      d = atan2 (sin (d), cos (d));  /* the turn nearest the solver's angle */
      if (isfinite (d))
        theta[i] = src->theta[i] + d;
    }
}

FxStepFrame *
fx_deflection_magnify (const FxModel *model, const FxStepFrame *frame, double scale)
{
  if (scale == 1 || !(scale > 0) || !frame_matches (model, frame) || frame->n_nodes == 0)
    return fx_step_frame_ref ((FxStepFrame *) frame);
  FxStepFrame *f = fx_step_frame_copy (frame);
  g_autofree double *rx = g_new0 (double, f->n_nodes);
  g_autofree double *ry = g_new0 (double, f->n_nodes);
  g_autofree int *ends = tangent_ends (model);
  for (guint l = 0; l < f->n_links; l++)
    {
      link_reference (frame, l, ends[l], rx, ry);
      for (guint i = f->node_offset[l]; i < f->node_offset[l + 1]; i++)
        {
          double x = rx[i] + scale * (frame->x[i] - rx[i]);
          double y = ry[i] + scale * (frame->y[i] - ry[i]);
          /* a non-finite node stays as the solver gave it */
          if (isfinite (x) && isfinite (y))
            {
              f->x[i] = x;
              f->y[i] = y;
            }
        }
      magnify_angles (frame, l, ends[l], scale, f->theta);
    }
  follow_nodes (model, ends, f);
  return f;
}

char *
fx_deflection_label (double scale)
{
  if (!(scale > 0) || fabs (scale - 1) < 1e-9)
    return NULL;
  /* Translators: the magnification of drawn bending, e.g. "deflection ×200" */
  return g_strdup_printf (_("deflection ×%g"), scale);
}

void
fx_mode_frame_smooth_angles (FxStepFrame *f)
{
  for (guint l = 0; l < f->n_links; l++)
    {
      guint a = f->node_offset[l], b = f->node_offset[l + 1];
      if (b - a < 2)
        continue;
      for (guint i = a; i < b; i++)
        {
          guint p = i > a ? i - 1 : i, n = i + 1 < b ? i + 1 : i;
          double tx = f->x[n] - f->x[p], ty = f->y[n] - f->y[p];
          if (tx != 0 || ty != 0)
            f->theta[i] = atan2 (ty, tx);
        }
    }
}
