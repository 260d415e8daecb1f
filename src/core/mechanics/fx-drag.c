/* fx-drag.c: drags, springs to a moving anchor (docs/theory.md §6).
 *
 * A drag joins the point P at fraction s of a link to an anchor a(t). Its
 * own state is the spring's elongation delta (spatial), a Newton unknown:
 *
 *     delta' = a' - v_P,     f = k delta + c (a' - v_P)   (force on the link at P)
 *
 * Midpoint: delta_{n+1} - delta_n = dt (a'_{n+1/2} - v_P,mid) with
 * a'_{n+1/2} = (a(t_{n+1}) - a(t_n)) / dt, f at the midpoint. Then
 * 1/2 k |delta_{n+1}|^2 - 1/2 k |delta_n|^2 = k delta_mid . (delta_{n+1} - delta_n),
 * the link receives dt v_P . f, and the books close exactly: the anchor
 * supplies dt f . a', the damper dissipates dt c |a' - v_P|^2. Because delta
 * is implicit, the drag is stable for any stiffness and step (the explicit
 * pull it replaces was not, on slender links).
 *
 * The user's hand is a drag like the others, whose path the app moves one
 * step ahead; the scripted drags of a file follow their tabulated path.
 */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <gsl/gsl_interp.h>
#include <string.h>

/* The anchor at time t: the path interpolated linearly (GSL), held at its
 * ends. */
static void
anchor_at (const FxDragSys *d, double t, double a[2])
{
  const guint n = d->n_path;
  if (n == 1 || t <= d->path_t[0])
    {
      a[0] = d->path_x[0];
      a[1] = d->path_y[0];
      return;
    }
  if (t >= d->path_t[n - 1])
    {
      a[0] = d->path_x[n - 1];
      a[1] = d->path_y[n - 1];
      return;
    }
  size_t i = gsl_interp_bsearch (d->path_t, t, 0, n - 1);
  double u = (t - d->path_t[i]) / (d->path_t[i + 1] - d->path_t[i]);
  a[0] = (1.0 - u) * d->path_x[i] + u * d->path_x[i + 1];
  a[1] = (1.0 - u) * d->path_y[i] + u * d->path_y[i + 1];
}

static void
set_path (FxDragSys *d, guint n, const double *t, const double *x, const double *y)
{
  g_free (d->path_t);
  g_free (d->path_x);
  g_free (d->path_y);
  d->n_path = n;
  d->path_t = g_memdup2 (t, sizeof (double) * n);
  d->path_x = g_memdup2 (x, sizeof (double) * n);
  d->path_y = g_memdup2 (y, sizeof (double) * n);
}

static double
joint_mass (const FxJoint *joint)
{
  return joint->mass + (joint->slider ? joint->slider_mass : 0.0);
}

/* The mass a drag of this link moves: the link's own (rho A L), plus the
 * lumped masses at its ends; a massless link falls back on the whole
 * mechanism's mass, and a massless mechanism on 1 kg, so k is never 0. */
static double
grabbed_mass (const FxSystem *sys, guint link)
{
  const FxModel *m = sys->model;
  const FxLink *ml = fx_model_link (m, link);
  double mass = ml->section.rhoA * fx_link_length (m, ml);
  const char *ends[2] = { ml->from, ml->to };

  for (guint k = 0; k < 2; k++)
    {
      int j = fx_model_find_joint (m, ends[k]);
      if (j >= 0)
        mass += joint_mass (fx_model_joint (m, (guint) j));
    }
  if (mass > 0.0)
    return mass;
  for (guint l = 0; l < m->links->len; l++)
    mass += fx_model_link (m, l)->section.rhoA * fx_link_length (m, fx_model_link (m, l));
  for (guint j = 0; j < m->joints->len; j++)
    mass += joint_mass (fx_model_joint (m, j));
  for (guint b = 0; b < fx_model_n_bodies (m); b++)
    mass += fx_model_body (m, b)->mass;
  return mass > 0.0 ? mass : 1.0;
}

/* Where the drag holds its link, and how stiff it is. */
static void
attach (FxSystem *sys, FxDragSys *d, guint link, double s, double frequency, double zeta)
{
  double s_seg = s, m = grabbed_mass (sys, link), omega = 2.0 * G_PI * frequency;

  d->link = link;
  d->s = s;
  d->seg = fx_system_point_segment (sys, link, &s_seg);
  d->s_seg = s_seg;
  d->n_at = point_samples (&sys->links[d->seg], s_seg, d->at);
  d->k = m * omega * omega;
  d->c = 2.0 * zeta * sqrt (d->k * m);
}

/* The model link and fraction a drag of `joint` holds: the end of the first
 * geometrically exact link there, else of the first floating-frame one (a
 * GE link's end is the joint's own velocity where it is V-causal; an FF
 * link's end is a material point like any other). */
static gboolean
joint_end (const FxModel *m, const char *joint, guint *link, double *s)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint l = 0; l < m->links->len; l++)
      {
        const FxLink *ml = fx_model_link (m, l);
        if ((ml->kind == FX_LINK_FLOATING_FRAME) != (pass == 1))
          continue;
        if (g_strcmp0 (ml->from, joint) == 0 || g_strcmp0 (ml->to, joint) == 0)
          {
            *link = l;
            *s = g_strcmp0 (ml->from, joint) == 0 ? 0.0 : 1.0;
            return TRUE;
          }
      }
  return FALSE;
}

void
fx_drags_build (FxSystem *sys, guint *offset)
{
  const FxModel *m = sys->model;

  sys->drags = g_array_new (FALSE, TRUE, sizeof (FxDragSys));
  sys->hand = -1;
  for (guint i = 0; i < m->drags->len; i++)
    {
      const FxDrag *md = fx_model_drag (m, i);
      FxDragSys d = { 0 };
      guint link = 0;
      double s = md->s;

      if (md->link != NULL)
        link = (guint) MAX (fx_model_find_link (m, md->link), 0);
      else if (!joint_end (m, md->joint, &link, &s))
        continue;  /* the checker refuses it */
      d.model_drag = (int) i;
      attach (sys, &d, link, s, md->frequency, md->damping_ratio);
      d.release = md->release;
      d.active = TRUE;
      d.dof = *offset;
      *offset += 2;
      set_path (&d, md->n_path, md->path_t, md->path_x, md->path_y);
      g_array_append_val (sys->drags, d);
    }
}

/* delta(0) = a(0) - r_P(0): a path that starts away from the point starts
 * with a stretched spring. */
void
fx_drags_start (FxSystem *sys)
{
  for (guint i = 0; i < sys->drags->len; i++)
    {
      FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      double a[2], p[2];
      anchor_at (d, sys->t, a);
      fx_system_point (sys, d->link, d->s, &p[0], &p[1]);
      sys->x[d->dof] = a[0] - p[0];
      sys->x[d->dof + 1] = a[1] - p[1];
    }
}

void
fx_drags_free (FxSystem *sys)
{
  if (sys->drags == NULL)
    return;
  for (guint i = 0; i < sys->drags->len; i++)
    {
      FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      g_free (d->path_t);
      g_free (d->path_x);
      g_free (d->path_y);
    }
  g_array_unref (sys->drags);
}

double
fx_drags_energy (const FxSystem *sys)
{
  double e = 0.0;
  for (guint i = 0; sys->drags && i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      const double *delta = &sys->x[d->dof];
      e += 0.5 * d->k * (delta[0] * delta[0] + delta[1] * delta[1]);
    }
  return e;
}

/* A drag of a link whose model gives its points (fx-link-model.h): the
 * same rows as below, with v_P = sum b x_mid and the force entering as
 * dt B^T f. */
static double
model_drag_kernel (const FxLinkSys *l, const FxDragSys *d, const double adot[2], FxAcc *a)
{
  const double dt = a->dt;
  const guint dx = d->dof;
  FxPointKinematics k;

  l->model->point (l, d->s_seg, a->xm, dt, &k);
  const double *delta_mid = &a->xm[dx];
  double rel[2] = { adot[0] - k.v[0], adot[1] - k.v[1] };
  double f[2] = { d->k * delta_mid[0] + d->c * rel[0], d->k * delta_mid[1] + d->c * rel[1] };

  for (guint i = 0; i < 2; i++)
    {
      acc_G (a, dx + i, dt * rel[i], fabs (dt * adot[i]) + fabs (dt * k.v[i]));
      for (guint q = 0; q < k.n; q++)
        acc_K (a, dx + i, k.dof[q], -dt * k.dv[q][i]);
    }
  l->model->point_force (l, d->s_seg, a->xm, dt, f, 0.0, a);
  /* f's own motion: k through delta_mid, -c through v_P */
  for (guint r = 0; r < k.n; r++)
    {
      for (guint j = 0; j < 2; j++)
        acc_K (a, k.dof[r], dx + j, dt * d->k * k.b[r][j]);
      for (guint q = 0; q < k.n; q++)
        acc_K (a, k.dof[r], k.dof[q],
               -dt * d->c * (k.b[r][0] * k.dv[q][0] + k.b[r][1] * k.dv[q][1]));
    }
  a->loss += d->c * (rel[0] * rel[0] + rel[1] * rel[1]);
  return f[0] * adot[0] + f[1] * adot[1];
}

/* How v_P at the midpoint depends on one unknown. */
typedef struct {
  guint dof;
  double dv[2];
  gboolean config;  /* through theta (acc_K_config: every Gauss stage) */
} Dependence;

static inline void
acc_K_dep (Acc *a, guint row, const Dependence *dep, double value)
{
  if (dep->config)
    acc_K_config (a, row, dep->dof, value);
  else
    acc_K (a, row, dep->dof, value);
}

double
fx_drag_kernel (FxSystem *sys, const FxDragSys *d, FxAcc *a)
{
  const double dt = a->dt;
  const guint dx = d->dof;

  acc_E (a, dx, dx, 1.0);
  acc_E (a, dx + 1, dx + 1, 1.0);
  if (!d->active)
    return 0.0;

  const FxLinkSys *l = &sys->links[d->seg];
  double a0[2], a1[2], adot[2], vP[2] = { 0.0, 0.0 };
  double cs[2][2], vhat[2][2];
  Shape sv[2][2], sw[2];
  Dependence dep[12];
  guint n_dep = 0;

  anchor_at (d, sys->t, a0);
  anchor_at (d, sys->t + dt, a1);
  adot[0] = (a1[0] - a0[0]) / dt;
  adot[1] = (a1[1] - a0[1]) / dt;
  if (l->model->point != NULL)
    return model_drag_kernel (l, d, adot, a);

  /* v_P = sum_k W_k Lambda(theta_k) v_hat_k at the midpoint, with
   * theta_k = theta_n + dt/2 omega_mid at the sample */
  for (guint k = 0; k < d->n_at; k++)
    {
      const FxPointSample *ps = &d->at[k];
      double Lv[2], JLv[2], Jv[2];

      field_shape (l, F_VX, ps->element, ps->xi, &sv[k][0]);
      field_shape (l, F_VY, ps->element, ps->xi, &sv[k][1]);
      field_shape (l, F_W, ps->element, ps->xi, &sw[k]);
      vhat[k][0] = shape_eval (&sv[k][0], a->xm);
      vhat[k][1] = shape_eval (&sv[k][1], a->xm);
      rot (theta_n_at (l, ps->element, ps->xi) + 0.5 * dt * shape_eval (&sw[k], a->xc), cs[k]);
      lam (cs[k], vhat[k], Lv);
      vP[0] += ps->weight * Lv[0];
      vP[1] += ps->weight * Lv[1];

      for (guint c = 0; c < 2; c++)
        for (guint i = 0; i < sv[k][c].n; i++)
          {
            double unit[2] = { c == 0, c == 1 }, col[2];
            lam (cs[k], unit, col);  /* column c of Lambda */
            dep[n_dep++] = (Dependence) { sv[k][c].dof[i],
              { ps->weight * sv[k][c].w[i] * col[0], ps->weight * sv[k][c].w[i] * col[1] }, FALSE };
          }
      jrot (vhat[k], Jv);
      lam (cs[k], Jv, JLv);  /* d(Lambda v)/dtheta = Lambda J v */
      for (guint j = 0; j < sw[k].n; j++)
        {
          double g = ps->weight * 0.5 * dt * sw[k].w[j];
          dep[n_dep++] = (Dependence) { sw[k].dof[j], { g * JLv[0], g * JLv[1] }, TRUE };
        }
    }

  const double *delta_mid = &a->xm[dx];
  double rel[2] = { adot[0] - vP[0], adot[1] - vP[1] };
  double f[2] = { d->k * delta_mid[0] + d->c * rel[0], d->k * delta_mid[1] + d->c * rel[1] };

  /* delta rows: (delta - delta_n) - dt (a' - v_P) */
  for (guint i = 0; i < 2; i++)
    {
      acc_G (a, dx + i, dt * rel[i], fabs (dt * adot[i]) + fabs (dt * vP[i]));
      for (guint q = 0; q < n_dep; q++)
        acc_K_dep (a, dx + i, &dep[q], -dt * dep[q].dv[i]);
    }

  /* link rows: the point force f, in each sample's material frame */
  for (guint k = 0; k < d->n_at; k++)
    {
      const FxPointSample *ps = &d->at[k];
      double fm[2], Sfm[2];
      lam_t (cs[k], f, fm);
      srot (fm, Sfm);  /* d(Lambda^T f)/dtheta */
      for (guint c = 0; c < 2; c++)
        for (guint i = 0; i < sv[k][c].n; i++)
          {
            guint row = sv[k][c].dof[i];
            double w = dt * ps->weight * sv[k][c].w[i];
            acc_G (a, row, w * fm[c], fabs (w * fm[c]));
            /* through delta_mid: k Lambda^T (d delta_mid / d delta = 1/2, in acc_K) */
            for (guint j = 0; j < 2; j++)
              {
                double unit[2] = { j == 0, j == 1 }, col[2];
                lam_t (cs[k], unit, col);
                acc_K (a, row, dx + j, w * d->k * col[c]);
              }
            /* through v_P in the damper: -c Lambda^T dv_P */
            for (guint q = 0; q < n_dep; q++)
              {
                double dfm[2];
                lam_t (cs[k], dep[q].dv, dfm);
                acc_K_dep (a, row, &dep[q], -w * d->c * dfm[c]);
              }
            /* through this sample's own rotation */
            for (guint j = 0; j < sw[k].n; j++)
              acc_K_config (a, row, sw[k].dof[j], w * Sfm[c] * 0.5 * dt * sw[k].w[j]);
          }
    }

  a->loss += d->c * (rel[0] * rel[0] + rel[1] * rel[1]);
  return f[0] * adot[0] + f[1] * adot[1];
}

void
fx_drags_assemble (FxSystem *sys, FxAcc *a, double *power)
{
  for (guint i = 0; i < sys->drags->len; i++)
    *power += fx_drag_kernel (sys, &g_array_index (sys->drags, FxDragSys, i), a);
}

/* ----------------------------------------------------------- the hand */

static FxDragSys *
hand (FxSystem *sys)
{
  return sys->hand >= 0 ? &g_array_index (sys->drags, FxDragSys, sys->hand) : NULL;
}

static void
let_go (FxSystem *sys, FxDragSys *d)
{
  double *delta = &sys->x[d->dof];
  /* the spring's energy leaves with the hand: supplied work of the next step */
  sys->released -= 0.5 * d->k * (delta[0] * delta[0] + delta[1] * delta[1]);
  delta[0] = delta[1] = 0.0;
  d->active = FALSE;
}

void
fx_system_hand_grab (FxSystem *sys, guint link, double s)
{
  g_return_if_fail (link < sys->n_model_links);
  FxDragSys *d = hand (sys);

  if (d == NULL)
    {
      /* the hand's two unknowns come after all others, once per system */
      FxDragSys fresh = { 0 };
      fresh.model_drag = -1;
      fresh.dof = sys->n;
      fresh.release = INFINITY;
      sys->n += 2;
      sys->x = g_renew (double, sys->x, sys->n);
      sys->x_mid = g_renew (double, sys->x_mid, sys->n);
      sys->x[fresh.dof] = sys->x[fresh.dof + 1] = 0.0;
      g_array_append_val (sys->drags, fresh);
      sys->hand = (int) sys->drags->len - 1;
      d = hand (sys);
    }
  else if (d->active)
    let_go (sys, d);
  attach (sys, d, link, CLAMP (s, 0.0, 1.0), FX_DRAG_DEFAULT_FREQUENCY,
          FX_DRAG_DEFAULT_DAMPING_RATIO);
  double p[2];
  fx_system_point (sys, link, d->s, &p[0], &p[1]);
  double t[2] = { sys->t, sys->t + 1.0 }, x[2] = { p[0], p[0] }, y[2] = { p[1], p[1] };
  set_path (d, 2, t, x, y);
  sys->x[d->dof] = sys->x[d->dof + 1] = 0.0;
  d->active = TRUE;
}

void
fx_system_hand_move (FxSystem *sys, const double anchor[2], double dt)
{
  FxDragSys *d = hand (sys);
  g_return_if_fail (d != NULL && d->active && dt > 0.0);
  g_return_if_fail (isfinite (anchor[0]) && isfinite (anchor[1]));

  double now[2];
  anchor_at (d, sys->t, now);
  double t[2] = { sys->t, sys->t + dt }, x[2] = { now[0], anchor[0] }, y[2] = { now[1], anchor[1] };
  set_path (d, 2, t, x, y);
}

void
fx_system_hand_release (FxSystem *sys)
{
  FxDragSys *d = hand (sys);
  if (d != NULL && d->active)
    let_go (sys, d);
}

gboolean
fx_system_hand_active (const FxSystem *sys)
{
  return sys->hand >= 0 && g_array_index (sys->drags, FxDragSys, sys->hand).active;
}

gboolean
fx_system_hand_anchor (const FxSystem *sys, double anchor[2], double point[2])
{
  if (!fx_system_hand_active (sys))
    return FALSE;
  const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, sys->hand);
  anchor_at (d, sys->t, anchor);
  fx_system_point (sys, d->link, d->s, &point[0], &point[1]);
  return TRUE;
}

double
fx_system_take_released (FxSystem *sys)
{
  /* scripted drags let go at their release time (within a hair of a step end) */
  for (guint i = 0; i < sys->drags->len; i++)
    {
      FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      if (d->active && sys->t >= d->release - 1e-9 * MAX (1.0, fabs (d->release)))
        let_go (sys, d);
    }
  double w = sys->released;
  sys->released = 0.0;
  return w;
}
