/* fx-measure.c: probe values and support reactions (fx-measure.h).
 *
 * A reaction is read off the junctions without any new unknown: at a
 * grounded channel every member is velocity-causal, and its output is the
 * force (moment) applied ON the link at that end (docs/theory.md §3), so
 * the support exerts sum_k Lambda_k y_k on the mechanism. These outputs
 * enter the momentum balance at the step midpoint, x_mid = (x_n + x_{n+1})/2
 * with the angles at t_n + dt/2, so that is where they are read: at each
 * accepted (sub)step, as fx_system_commit accepts it, weighted by its
 * length.
 */
#include "fx-measure.h"
#include "fx-link-model.h"
#include "fx-kernel.h"

#include <string.h>

const char *const fx_probe_suffix[FX_PROBE_N_VALUES] = {
  ".x", ".y", ".vx", ".vy", ".angle", ".N", ".V", ".M",
};

const char *const fx_reaction_suffix[FX_REACTION_N_VALUES] = { ".fx", ".fy", ".m" };

/* ------------------------------------------------------------- probes */

/* A rigid link's stress is a multiplier: its state values swing about the
 * value that balances the step (0, twice it, 0 ... for a body at rest), so
 * once a step was taken it is read as the step's mean midpoint value. */
const double *
fx_field_values (const FxSystem *sys, const FxLinkSys *l, int f, double *scale)
{
  gboolean stress = f == F_NX || f == F_NY || f == F_M;

  if (stress && field_mass (l, f) == 0.0 && sys->reaction_span > 0.0 && sys->n_step_sum == sys->n)
    {
      *scale = 1.0 / sys->reaction_span;
      return sys->step_sum;
    }
  *scale = 1.0;
  return sys->x;
}

/* A link of another model (floating frame) has no mixed fields to sample:
 * the section angle and bending moment come from its nodes (linear between
 * them), the velocity from its material point, N and V from its strain. */
static void
other_model_probe (const FxLinkSys *l, const double *x, double s, double values[FX_PROBE_N_VALUES])
{
  double u = CLAMP (s, 0.0, 1.0) * l->N, th[2], m[2], p[2];
  guint e = (guint) MIN (floor (u), (double) (l->N - 1));
  double xi = u - e;
  FxPointKinematics k;

  for (guint j = 0; j < 2; j++)
    l->model->node (l, x, e + j, p, &th[j], &m[j]);
  l->model->point (l, s, x, 0.0, &k);
  values[FX_PROBE_VX] = k.v[0];
  values[FX_PROBE_VY] = k.v[1];
  values[FX_PROBE_ANGLE] = (1.0 - xi) * th[0] + xi * th[1];
  l->model->resultants (l, s, &values[FX_PROBE_N], &values[FX_PROBE_V]);
  values[FX_PROBE_M] = (1.0 - xi) * m[0] + xi * m[1];
}

void
fx_system_probe_values (const FxSystem *sys, guint link, double s_fraction,
                        double values[FX_PROBE_N_VALUES])
{
  g_return_if_fail (link < sys->n_model_links);
  double s = CLAMP (s_fraction, 0.0, 1.0), q[F_N_FIELDS] = { 0 }, theta = 0.0, cs[2];
  guint seg = fx_system_point_segment (sys, link, &s);
  const FxLinkSys *l = &sys->links[seg];
  FxPointSample at[2];

  fx_system_point (sys, link, s_fraction, &values[FX_PROBE_X], &values[FX_PROBE_Y]);
  if (!l->model->mixed_fields)
    {
      other_model_probe (l, sys->x, s, values);
      return;
    }
  guint n_at = point_samples (l, s, at);
  /* a DG0 field at an element boundary: the mean of its two elements */
  for (guint k = 0; k < n_at; k++)
    {
      for (int f = 0; f < F_N_FIELDS; f++)
        {
          Shape sh;
          double scale;
          const double *source = fx_field_values (sys, l, f, &scale);
          field_shape (l, f, at[k].element, at[k].xi, &sh);
          q[f] += at[k].weight * scale * shape_eval (&sh, source);
        }
      theta += at[k].weight * theta_n_at (l, at[k].element, at[k].xi);
    }
  /* an R = V link keeps its end angles apart from the element angles */
  if (l->R == FX_CAUSAL_V && (s <= 0.0 || s >= 1.0))
    theta = l->theta_end[s <= 0.0 ? 0 : 1];

  const double v_hat[2] = { q[F_VX], q[F_VY] };
  double v[2];
  rot (theta, cs);
  lam (cs, v_hat, v);
  values[FX_PROBE_VX] = v[0];
  values[FX_PROBE_VY] = v[1];
  values[FX_PROBE_ANGLE] = theta;
  values[FX_PROBE_N] = q[F_NX];
  values[FX_PROBE_V] = q[F_NY];
  values[FX_PROBE_M] = q[F_M];
}

/* ---------------------------------------------------------- reactions */

/* The model joint of a junction: the engine's expanded model keeps the
 * model's joints first, in order, and appends the ones it makes (split
 * points), which no reaction is about: -1. */
static int
model_joint (const FxSystem *sys, const FxJunction *j)
{
  const FxModel *model = sys->model;

  if (j->joint < model->joints->len
      && g_strcmp0 (fx_model_joint (model, j->joint)->id, fx_model_joint (sys->built, j->joint)->id) == 0)
    return (int) j->joint;
  return fx_model_find_joint (model, fx_model_joint (sys->built, j->joint)->id);
}

static gboolean
holds_force (const FxJunction *j)
{
  return j->ground || j->slider;
}

/* sum_k Lambda_k y_k over the velocity-causal members of a translation
 * junction: the force the junction applies on the links (spatial). */
static void
members_force (const FxSystem *sys, const FxJunction *j, const double *xm, double dt, double F[2])
{
  F[0] = F[1] = 0.0;
  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *p = &g_array_index (j->ports, FxPort, k);
      const FxLinkSys *l = &sys->links[p->link];
      double y[2] = { p->sigma * xm[p->dof], p->sigma * xm[p->dof + 1] }, cs[2], Ly[2];

      if (l->T_end[p->side] != FX_CAUSAL_V)
        continue;  /* its output is a velocity; a grounded junction has none */
      rot (fx_end_theta_mid (l, p->side, dt, xm), cs);
      lam (cs, y, Ly);
      F[0] += Ly[0];
      F[1] += Ly[1];
    }
}

/* The external loads on a junction at time t (spatial), as its kernel
 * applies them (fx-junction.c). */
static void
loads_force (const FxSystem *sys, const FxJunction *j, const double *xm, double dt, double t,
             double F[2])
{
  F[0] = F[1] = 0.0;
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double s = fx_profile_at (sys, ld->profile, t);
      double Fi[2] = { s * ld->force[0], s * ld->force[1] }, Fs[2] = { Fi[0], Fi[1] };

      if (ld->frame_member >= 0)
        {
          const FxPort *q = &g_array_index (j->ports, FxPort, ld->frame_member);
          double cs[2];
          rot (fx_end_theta_mid (&sys->links[q->link], q->side, dt, xm), cs);
          lam (cs, Fi, Fs);
        }
      F[0] += Fs[0];
      F[1] += Fs[1];
    }
}

/* A slider block (or a roller) of mass m on the guide t: m s'' t = P_t G,
 * G = F_ext + m g - sum_k Lambda_k y_k, so the guide adds the normal part
 * N = -(G - (t . G) t), what keeps the block on it. */
static void
guide_force (const FxSystem *sys, const FxJunction *j, const double *xm, double dt, double t_mid,
             double N[2])
{
  double on_links[2], ext[2], G[2];
  const double *t = j->direction;

  members_force (sys, j, xm, dt, on_links);
  loads_force (sys, j, xm, dt, t_mid, ext);
  for (guint c = 0; c < 2; c++)
    G[c] = ext[c] + j->weight * sys->gravity[c] - on_links[c];
  double along = t[0] * G[0] + t[1] * G[1];
  N[0] = -(G[0] - along * t[0]);
  N[1] = -(G[1] - along * t[1]);
}

/* weight * the reactions at the midpoint state xm of a step dt, added to r */
static void
reactions_add (const FxSystem *sys, const double *xm, double dt, double weight, double *r)
{
  const double t_mid = sys->t + 0.5 * dt;

  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      int jt = holds_force (j) ? model_joint (sys, j) : -1;
      double F[2];

      if (jt < 0)
        continue;
      if (j->ground)
        members_force (sys, j, xm, dt, F);
      else
        guide_force (sys, j, xm, dt, t_mid, F);
      r[FX_REACTION_N_VALUES * jt + FX_REACTION_FX] += weight * F[0];
      r[FX_REACTION_N_VALUES * jt + FX_REACTION_FY] += weight * F[1];
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      int jt = j->ground ? model_joint (sys, j) : -1;

      if (jt < 0)
        continue;
      for (guint k = 0; k < j->ports->len; k++)
        {
          const FxPort *p = &g_array_index (j->ports, FxPort, k);
          if (sys->links[p->link].R_end[p->side] == FX_CAUSAL_V)
            r[FX_REACTION_N_VALUES * jt + FX_REACTION_M] += weight * p->sigma * xm[p->dof];
        }
    }
}

void
fx_system_holds (const FxSystem *sys, guint8 *holds)
{
  memset (holds, 0, sys->model->joints->len);
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      int jt = holds_force (j) ? model_joint (sys, j) : -1;
      if (jt >= 0)
        holds[jt] |= FX_HOLDS_FORCE;
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      int jt = j->ground ? model_joint (sys, j) : -1;
      if (jt >= 0)
        holds[jt] |= FX_HOLDS_MOMENT;
    }
}

FxHolds
fx_system_joint_holds (const FxSystem *sys, guint joint)
{
  g_autofree guint8 *holds = g_new (guint8, MAX (sys->model->joints->len, 1));

  g_return_val_if_fail (joint < sys->model->joints->len, FX_HOLDS_NONE);
  fx_system_holds (sys, holds);
  return (FxHolds) holds[joint];
}

FxHolds
fx_model_joint_holds (const FxModel *model, guint joint)
{
  const FxJoint *jt = fx_model_joint (model, joint);
  FxHolds holds = FX_HOLDS_NONE;

  /* every support but the guided one holds the point, at least across a guide */
  if ((jt->support != FX_SUPPORT_NONE && jt->support != FX_SUPPORT_GUIDED) || jt->slider)
    holds |= FX_HOLDS_FORCE;
  if (fx_support_grounds (jt->support, FX_CHANNEL_ROTATION))
    holds |= FX_HOLDS_MOMENT;
  for (guint i = 0; i < fx_model_n_motors (model); i++)
    {
      const FxMotor *mo = fx_model_motor (model, i);
      if (mo->type == FX_MOTOR_SPEED && mo->link_b == NULL && g_strcmp0 (mo->joint, jt->id) == 0)
        holds |= FX_HOLDS_MOMENT;
    }
  return holds;
}

gboolean
fx_holds_value (FxHolds holds, FxReactionValue value)
{
  return (holds & (value == FX_REACTION_M ? FX_HOLDS_MOMENT : FX_HOLDS_FORCE)) != 0;
}

static guint
n_reaction_values (const FxSystem *sys)
{
  return FX_REACTION_N_VALUES * sys->model->joints->len;
}

void
fx_system_reactions (const FxSystem *sys, double *reactions)
{
  guint n = n_reaction_values (sys);

  if (sys->reaction_span > 0.0)
    {
      for (guint i = 0; i < n; i++)
        reactions[i] = sys->reaction_sum[i] / sys->reaction_span;
      return;
    }
  /* no step yet: the state's own outputs, an instant (dt = 0) */
  memset (reactions, 0, sizeof (double) * n);
  reactions_add (sys, sys->x, 0.0, 1.0, reactions);
}

void
fx_system_reactions_reset (FxSystem *sys)
{
  if (sys->reaction_sum == NULL)
    sys->reaction_sum = g_new0 (double, MAX (n_reaction_values (sys), 1));
  else
    memset (sys->reaction_sum, 0, sizeof (double) * n_reaction_values (sys));
  /* a grab adds unknowns between steps */
  if (sys->n_step_sum != sys->n)
    {
      g_free (sys->step_sum);
      sys->step_sum = g_new0 (double, MAX (sys->n, 1));
      sys->n_step_sum = sys->n;
    }
  else if (sys->n > 0)
    memset (sys->step_sum, 0, sizeof (double) * sys->n);
  sys->reaction_span = 0.0;
}

void
fx_reactions_accumulate (FxSystem *sys, const double *x_mid, double dt)
{
  if (sys->reaction_sum == NULL || sys->n_step_sum != sys->n)
    fx_system_reactions_reset (sys);
  reactions_add (sys, x_mid, dt, dt, sys->reaction_sum);
  for (guint i = 0; i < sys->n; i++)
    sys->step_sum[i] += dt * x_mid[i];
  sys->reaction_span += dt;
}
