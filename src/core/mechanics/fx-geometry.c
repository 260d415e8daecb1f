/* fx-geometry.c: where things are: link nodes and points, end positions,
 * velocities at a point, joint gaps.
 *
 * It reads the system's arrays (fx-system-private.h) and calls nothing in
 * fx-system.c, so the element families that fx-system.c builds (drags ask
 * where their grabbed point is) can use it without a circle. */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- geometry */

/* Where node i of a link is, as its model draws it. */
void
fx_node_position (const FxLinkSys *l, const double *x, guint i, double p[2])
{
  l->model->node (l, x, i, p, NULL, NULL);
}

static void
segment_node (const FxSystem *sys, guint seg, guint i,
              double *x, double *y, double *theta, double *moment)
{
  const FxLinkSys *l = &sys->links[seg];
  double p[2];

  l->model->node (l, sys->x, i, p, theta, moment);
  if (x) *x = p[0];
  if (y) *y = p[1];
  /* a rigid geometrically exact link's moment is a multiplier: the last
   * step's midpoint value, not the state's (fx_field_values) */
  if (moment && l->model->mixed_fields)
    {
      double k;
      const double *m = fx_field_values (sys, l, F_M, &k);
      l->model->node (l, m, i, NULL, NULL, moment);
      *moment *= k;
    }
}

static void
segment_point (const FxSystem *sys, guint seg, double s_fraction, double *x, double *y)
{
  const FxLinkSys *l = &sys->links[seg];
  /* between the drawn points: kN of them on a degree-k link */
  double s = CLAMP (s_fraction, 0.0, 1.0) * l->n_draw;
  guint e = (guint) MIN (floor (s), (double) (l->n_draw - 1));
  double xi = s - e, a[2], b[2];

  if (l->model->point != NULL)
    {
      /* the material point itself, where the model knows it */
      FxPointKinematics k;
      l->model->point (l, s_fraction, sys->x, 0.0, &k);
      if (x) *x = k.p[0];
      if (y) *y = k.p[1];
      return;
    }
  fx_node_position (l, sys->x, e, a);
  fx_node_position (l, sys->x, e + 1, b);
  if (x) *x = (1.0 - xi) * a[0] + xi * b[0];
  if (y) *y = (1.0 - xi) * a[1] + xi * b[1];
}

static void
segment_fields_at (const FxSystem *sys, guint seg, double s_fraction,
                   double v_hat[2], double *omega, double n_hat[2], double *m)
{
  const FxLinkSys *l = &sys->links[seg];
  double s = CLAMP (s_fraction, 0.0, 1.0) * l->N;
  guint e = (guint) MIN (floor (s), (double) (l->N - 1));
  double xi = s - e;
  double q[F_N_FIELDS];

  for (int f = 0; f < F_N_FIELDS; f++)
    {
      Shape sh;
      field_shape (l, f, e, xi, &sh);
      q[f] = shape_eval (&sh, sys->x);
    }
  if (v_hat) { v_hat[0] = q[F_VX]; v_hat[1] = q[F_VY]; }
  if (omega) *omega = q[F_W];
  if (n_hat) { n_hat[0] = q[F_NX]; n_hat[1] = q[F_NY]; }
  if (m) *m = q[F_M];
}

/* A model link's node i or fraction s, in its segments (split links: two
 * halves of equal length; the shared midpoint node is the first half's end). */
static guint
node_segment (const FxSystem *sys, guint link, guint *i)
{
  guint seg = sys->seg_first[link];
  if (sys->seg_count[link] == 2 && *i > sys->links[seg].n_draw)
    {
      *i -= sys->links[seg].n_draw;
      seg++;
    }
  return seg;
}

guint
fx_system_point_segment (const FxSystem *sys, guint link, double *s)
{
  guint seg = sys->seg_first[link];
  if (sys->seg_count[link] == 2)
    {
      if (*s > 0.5)
        {
          *s = 2.0 * *s - 1.0;
          return seg + 1;
        }
      *s = 2.0 * *s;
    }
  return seg;
}

/* The drawn intervals of a model link, over its segments (two when it is
 * split): its elements, times k on a degree-k link (points at s = i h / k). */
guint
fx_system_link_elements (const FxSystem *s, guint l)
{
  guint n = 0;
  for (guint k = 0; k < s->seg_count[l]; k++)
    n += s->links[s->seg_first[l] + k].n_draw;
  return n;
}

void
fx_system_node (const FxSystem *sys, guint link, guint i,
                double *x, double *y, double *theta, double *moment)
{
  g_return_if_fail (link < sys->n_model_links && i <= fx_system_link_elements (sys, link));
  guint seg = node_segment (sys, link, &i);
  segment_node (sys, seg, i, x, y, theta, moment);
}

double
fx_system_node_fraction (const FxSystem *sys, guint link, guint i)
{
  g_return_val_if_fail (link < sys->n_model_links, 0.0);
  guint seg = sys->seg_first[link], n = sys->links[seg].n_draw;

  if (sys->seg_count[link] == 2)
    {
      /* two halves of equal length: the first's nodes, then the second's */
      if (i <= n)
        return 0.5 * i / MAX (n, 1u);
      guint n2 = sys->links[seg + 1].n_draw;
      return 0.5 + 0.5 * MIN (i - n, n2) / MAX (n2, 1u);
    }
  return (double) MIN (i, n) / MAX (n, 1u);
}

void
fx_system_point (const FxSystem *sys, guint link, double s_fraction, double *x, double *y)
{
  g_return_if_fail (link < sys->n_model_links);
  guint seg = fx_system_point_segment (sys, link, &s_fraction);
  segment_point (sys, seg, s_fraction, x, y);
}

void
fx_system_fields_at (const FxSystem *sys, guint link, double s_fraction,
                     double v_hat[2], double *omega, double n_hat[2], double *m)
{
  g_return_if_fail (link < sys->n_model_links);
  guint seg = fx_system_point_segment (sys, link, &s_fraction);
  segment_fields_at (sys, seg, s_fraction, v_hat, omega, n_hat, m);
}

void
fx_system_point_velocity (const FxSystem *sys, guint link, double s_fraction, double v[2])
{
  g_return_if_fail (link < sys->n_model_links);
  double v_hat[2], omega, n_hat[2], m, cs[2];
  guint seg = fx_system_point_segment (sys, link, &s_fraction);
  const FxLinkSys *l = &sys->links[seg];
  FxPointSample at[2];
  guint n_at = point_samples (l, s_fraction, at);

  if (l->model->point != NULL)
    {
      FxPointKinematics k;
      l->model->point (l, s_fraction, sys->x, 0.0, &k);
      v[0] = k.v[0];
      v[1] = k.v[1];
      return;
    }

  segment_fields_at (sys, seg, s_fraction, v_hat, &omega, n_hat, &m);
  /* v = Lambda(theta) v_hat, theta at the point (the mean over samples) */
  double theta = 0.0;
  for (guint k = 0; k < n_at; k++)
    theta += at[k].weight * theta_n_at (l, at[k].element, at[k].xi);
  rot (theta, cs);
  v[0] = cs[0] * v_hat[0] - cs[1] * v_hat[1];
  v[1] = cs[1] * v_hat[0] + cs[0] * v_hat[1];
}

gboolean
fx_system_link_frame (const FxSystem *sys, guint link, FxFrameGauges *gauges)
{
  g_return_val_if_fail (link < sys->n_model_links, FALSE);
  const FxLinkSys *l = &sys->links[sys->seg_first[link]];
  if (l->model->frame_gauges == NULL)
    return FALSE;
  l->model->frame_gauges (l, sys->x, gauges);
  return TRUE;
}

gboolean
fx_frame_gauges_warn (const FxFrameGauges *g)
{
  return g->gamma > 0.1 || g->deflection > 0.1 * g->length;
}

/* The joint gap (physics.md §6), and where it is worst against the size of
 * the links that meet: `ratio` is a junction's gap over its shortest
 * member's length, `joint` that junction's joint (in the built model). */
static double
joint_gap_worst (const FxSystem *sys, double *ratio, double *worst_gap, int *joint)
{
  double gap = 0.0;

  *ratio = *worst_gap = 0.0;
  *joint = -1;
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      double worst = 0.0, shortest = INFINITY;
      for (guint a = 0; a < j->ports->len; a++)
        {
          const FxPort *pa = &g_array_index (j->ports, FxPort, a);
          const FxLinkSys *la = &sys->links[pa->link];
          double ra[2];
          fx_node_position (la, sys->x, pa->side ? la->n_draw : 0, ra);
          shortest = MIN (shortest, la->L);
          for (guint b = a + 1; b < j->ports->len; b++)
            {
              const FxPort *pb = &g_array_index (j->ports, FxPort, b);
              const FxLinkSys *lb = &sys->links[pb->link];
              double rb[2];
              fx_node_position (lb, sys->x, pb->side ? lb->n_draw : 0, rb);
              worst = MAX (worst, hypot (ra[0] - rb[0], ra[1] - rb[1]));
            }
          if (j->inertia_dof >= 0)
            worst = MAX (worst, hypot (ra[0] - j->pos[0], ra[1] - j->pos[1]));
        }
      gap = MAX (gap, worst);
      if (worst > *ratio * shortest)
        {
          *ratio = worst / shortest;
          *worst_gap = worst;
          *joint = (int) j->joint;
        }
    }
  return gap;
}

double
fx_system_joint_gap (const FxSystem *sys)
{
  double ratio, worst_gap;
  int joint;
  return joint_gap_worst (sys, &ratio, &worst_gap, &joint);
}

const char *
fx_system_joint_gap_worst (const FxSystem *sys, double *gap, double *ratio)
{
  int joint;
  joint_gap_worst (sys, ratio, gap, &joint);
  return joint < 0 ? NULL : fx_model_joint (sys->built, (guint) joint)->id;
}

