/* fx-geometry.c: where things are: link nodes and points, end positions,
 * velocities at a point, joint gaps.
 *
 * It reads the system's arrays (fx-system-private.h) and calls nothing in
 * fx-system.c, so the element families that fx-system.c builds (drags ask
 * where their grabbed point is) can use it without a circle. */
#include "fx-kernel.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- geometry */

/* gamma_hat of element e (strain, material), from its mean stress */
static void
element_strain (const FxLinkSys *l, const double *x, guint e, double gam[2])
{
  Shape sx, sy;
  field_shape (l, F_NX, e, 0.5, &sx);
  field_shape (l, F_NY, e, 0.5, &sy);
  gam[0] = l->Ct[0] * shape_eval (&sx, x);
  gam[1] = l->Ct[1] * shape_eval (&sy, x);
}

/* End of element e on `side` (0 left, 1 right) when r is DG0: the element's
 * mean position plus the half-element tangent (h/2) Lambda(theta)(b1 + gamma). */
static void
dg0_element_end (const FxLinkSys *l, const double *x, guint e, guint side, double p[2])
{
  double gam[2], t[2], cs[2], Lt[2];
  double theta = l->R == FX_CAUSAL_F ? 0.5 * (l->theta[e] + l->theta[e + 1]) : l->theta[e];

  element_strain (l, x, e, gam);
  t[0] = 1.0 + gam[0];
  t[1] = gam[1];
  rot (theta, cs);
  lam (cs, t, Lt);
  double sgn = side == 0 ? -0.5 : 0.5;
  p[0] = l->r[2 * e] + sgn * l->h * Lt[0];
  p[1] = l->r[2 * e + 1] + sgn * l->h * Lt[1];
}

void
fx_node_position (const FxLinkSys *l, const double *x, guint i, double p[2])
{
  if (l->T == FX_CAUSAL_F)
    {
      p[0] = l->r[2 * i];
      p[1] = l->r[2 * i + 1];
      return;
    }
  if (i == 0)
    dg0_element_end (l, x, 0, 0, p);
  else if (i == l->N)
    dg0_element_end (l, x, l->N - 1, 1, p);
  else
    {
      double a[2], b[2];
      dg0_element_end (l, x, i - 1, 1, a);
      dg0_element_end (l, x, i, 0, b);
      p[0] = 0.5 * (a[0] + b[0]);
      p[1] = 0.5 * (a[1] + b[1]);
    }
}

static void
segment_node (const FxSystem *sys, guint seg, guint i,
              double *x, double *y, double *theta, double *moment)
{
  const FxLinkSys *l = &sys->links[seg];
  double p[2];

  fx_node_position (l, sys->x, i, p);
  if (x) *x = p[0];
  if (y) *y = p[1];

  if (theta)
    {
      if (l->R == FX_CAUSAL_F)
        *theta = l->theta[i];
      else if (i == 0 || i == l->N)
        *theta = l->theta_end[i == 0 ? 0 : 1];
      else
        *theta = 0.5 * (l->theta[i - 1] + l->theta[i]);
    }
  if (moment)
    {
      double k;
      const double *m = fx_field_values (sys, l, F_M, &k);  /* a rigid link's: at the midpoint */
      if (l->R == FX_CAUSAL_V)
        *moment = k * m[field_dof (l, F_M, i)];
      else if (i == 0)
        *moment = k * m[field_dof (l, F_M, 0)];
      else if (i == l->N)
        *moment = k * m[field_dof (l, F_M, l->N - 1)];
      else
        *moment = 0.5 * k * (m[field_dof (l, F_M, i - 1)] + m[field_dof (l, F_M, i)]);
    }
}

static void
segment_point (const FxSystem *sys, guint seg, double s_fraction, double *x, double *y)
{
  const FxLinkSys *l = &sys->links[seg];
  double s = CLAMP (s_fraction, 0.0, 1.0) * l->N;
  guint e = (guint) MIN (floor (s), (double) (l->N - 1));
  double xi = s - e, a[2], b[2];

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
  if (sys->seg_count[link] == 2 && *i > sys->links[seg].N)
    {
      *i -= sys->links[seg].N;
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

/* The elements of a model link, over its segments (two when it is split). */
guint
fx_system_link_elements (const FxSystem *s, guint l)
{
  guint n = 0;
  for (guint k = 0; k < s->seg_count[l]; k++)
    n += s->links[s->seg_first[l] + k].N;
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

  segment_fields_at (sys, seg, s_fraction, v_hat, &omega, n_hat, &m);
  /* v = Lambda(theta) v_hat, theta at the point (the mean over samples) */
  double theta = 0.0;
  for (guint k = 0; k < n_at; k++)
    theta += at[k].weight * theta_n_at (l, at[k].element, at[k].xi);
  rot (theta, cs);
  v[0] = cs[0] * v_hat[0] - cs[1] * v_hat[1];
  v[1] = cs[1] * v_hat[0] + cs[0] * v_hat[1];
}

double
fx_system_joint_gap (const FxSystem *sys)
{
  double gap = 0.0;

  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      for (guint a = 0; a < j->ports->len; a++)
        for (guint b = a + 1; b < j->ports->len; b++)
          {
            const FxPort *pa = &g_array_index (j->ports, FxPort, a);
            const FxPort *pb = &g_array_index (j->ports, FxPort, b);
            const FxLinkSys *la = &sys->links[pa->link], *lb = &sys->links[pb->link];
            double ra[2], rb[2];
            fx_node_position (la, sys->x, pa->side ? la->N : 0, ra);
            fx_node_position (lb, sys->x, pb->side ? lb->N : 0, rb);
            gap = MAX (gap, hypot (ra[0] - rb[0], ra[1] - rb[1]));
          }
      if (j->inertia_dof >= 0)
        for (guint a = 0; a < j->ports->len; a++)
          {
            const FxPort *pa = &g_array_index (j->ports, FxPort, a);
            const FxLinkSys *la = &sys->links[pa->link];
            double ra[2];
            fx_node_position (la, sys->x, pa->side ? la->N : 0, ra);
            gap = MAX (gap, hypot (ra[0] - j->pos[0], ra[1] - j->pos[1]));
          }
    }
  return gap;
}

