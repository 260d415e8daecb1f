/* fx-junction.c: junctions, the interconnection without Lagrange
 * multipliers (docs/theory.md): free junctions (one force-causal member
 * takes the force, the others the velocity), inertia junctions (lumped
 * masses, rotary inertias, sliders, rigid bodies' attachments), driven and
 * ground junctions, for both channels. Each kernel returns the power its
 * external loads and drives supply at the midpoint.
 */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/* -------------------------------------------------------- end angles */

/* theta at a link end, at the midpoint, as the link's model gives it */
typedef FxThetaRef ThetaRef;

static inline ThetaRef
end_theta (const FxLinkSys *l, guint side, double dt)
{
  return l->model->end_theta (l, side, dt);
}

static inline double
theta_value (const ThetaRef *t, const double *xm)
{
  return t->base + (t->dof >= 0 ? t->coef * xm[t->dof] : 0.0);
}

double
fx_end_theta_mid (const FxLinkSys *l, guint side, double dt, const double *xm)
{
  ThetaRef t = end_theta (l, side, dt);
  return theta_value (&t, xm);
}

/* K[row, theta's unknown] += value * dtheta/dx_mid (every stage's, with Gauss) */
static inline void
acc_K_theta (Acc *a, guint row, const ThetaRef *t, double value)
{
  if (t->dof >= 0)
    acc_K_config (a, row, (guint) t->dof, value * t->coef);
}

/* ---------------------------------------------------- junction kernels */

/* A load's factor at t_mid; a noisy profile also takes the noise's input
 * for the current step piece (fx-system-noise.c). */
double
fx_profile_at (const FxSystem *sys, const FxProfile *p, double t)
{
  if (p == NULL)
    return 1.0;
  if (p->noise != FX_NOISE_NONE)
    return fx_profile_eval (p, t) * fx_system_noise_factor (sys, p);
  return fx_profile_eval (p, t);
}

/* Translation, free junction (docs/theory.md §3):
 *   u_f = Lambda_f^T (F_ext - sum_k Lambda_k y_k),   u_k = Lambda_k^T Lambda_f y_f
 * Returns the external power F_ext . (Lambda_f y_f) at the midpoint. */
double
fx_tjunction_free (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const guint n = j->ports->len;
  const double dt = a->dt;
  g_autofree ThetaRef *th = g_new (ThetaRef, n);
  g_autofree double *cs = g_new (double, 2 * n);
  g_autofree double *y = g_new (double, 2 * n);
  const FxPort *pf = &g_array_index (j->ports, FxPort, j->f);
  double sum[2] = { 0, 0 }, sum_mag[2] = { 0, 0 };
  double F_ext[2] = { 0, 0 };

  for (guint k = 0; k < n; k++)
    {
      const FxPort *p = &g_array_index (j->ports, FxPort, k);
      th[k] = end_theta (&sys->links[p->link], p->side, dt);
      rot (theta_value (&th[k], a->xc), &cs[2 * k]);
      y[2 * k] = p->sigma * port_value (a, p, 0);
      y[2 * k + 1] = p->sigma * port_value (a, p, 1);
    }

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double s = fx_profile_at (sys, ld->profile, sys->t_mid), F[2];
      if (ld->frame_member < 0)
        F[0] = s * ld->force[0], F[1] = s * ld->force[1];
      else
        {
          double Fm[2] = { s * ld->force[0], s * ld->force[1] };
          lam (&cs[2 * ld->frame_member], Fm, F);
        }
      F_ext[0] += F[0];
      F_ext[1] += F[1];
    }
  sum[0] = F_ext[0];
  sum[1] = F_ext[1];
  sum_mag[0] = fabs (F_ext[0]) + fabs (F_ext[1]);
  sum_mag[1] = sum_mag[0];

  for (guint k = 0; k < n; k++)
    {
      if ((int) k == j->f)
        continue;
      double Ly[2];
      lam (&cs[2 * k], &y[2 * k], Ly);
      sum[0] -= Ly[0];
      sum[1] -= Ly[1];
      sum_mag[0] += fabs (y[2 * k]) + fabs (y[2 * k + 1]);
      sum_mag[1] = sum_mag[0];
    }

  /* F-causal member: its force input */
  const double *csf = &cs[2 * j->f];
  double uf[2], Suf[2];
  lam_t (csf, sum, uf);
  srot (uf, Suf);
  for (guint c = 0; c < 2; c++)
    {
      guint row = pf->dof + c;
      acc_G (a, row, dt * pf->sigma * uf[c], dt * sum_mag[c]);
      acc_K_theta (a, row, &th[j->f], dt * pf->sigma * Suf[c]);
    }
  if (a->J)
    {
      for (guint k = 0; k < n; k++)
        {
          if ((int) k == j->f)
            continue;
          const FxPort *pk = &g_array_index (j->ports, FxPort, k);
          /* Lambda_f^T Lambda_k = Lambda(theta_k - theta_f) */
          double c = csf[0] * cs[2 * k] + csf[1] * cs[2 * k + 1];
          double s = csf[0] * cs[2 * k + 1] - csf[1] * cs[2 * k];
          double M[2][2] = { { c, -s }, { s, c } };
          double Jy[2], MJy[2];
          jrot (&y[2 * k], Jy);
          MJy[0] = M[0][0] * Jy[0] + M[0][1] * Jy[1];
          MJy[1] = M[1][0] * Jy[0] + M[1][1] * Jy[1];
          for (guint r = 0; r < 2; r++)
            {
              for (guint cc = 0; cc < 2; cc++)
                acc_K_port (a, pf->dof + r, pk, cc, -dt * pf->sigma * M[r][cc] * pk->sigma);
              acc_K_theta (a, pf->dof + r, &th[k], -dt * pf->sigma * MJy[r]);
            }
        }
      for (guint i = 0; i < j->loads->len; i++)
        {
          const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
          if (ld->frame_member < 0)
            continue;
          int q = ld->frame_member;
          double s = fx_profile_at (sys, ld->profile, sys->t_mid);
          double Fm[2] = { s * ld->force[0], s * ld->force[1] }, JF[2], LJF[2], d[2];
          jrot (Fm, JF);
          lam (&cs[2 * q], JF, LJF);
          lam_t (csf, LJF, d);
          for (guint r = 0; r < 2; r++)
            acc_K_theta (a, pf->dof + r, &th[q], dt * pf->sigma * d[r]);
        }
    }

  /* V-causal members: the F member's velocity, in their own frames */
  double vf[2];
  lam (csf, &y[2 * j->f], vf);
  for (guint k = 0; k < n; k++)
    {
      if ((int) k == j->f)
        continue;
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double uk[2], Suk[2];
      lam_t (&cs[2 * k], vf, uk);
      srot (uk, Suk);
      double mag = dt * (fabs (y[2 * j->f]) + fabs (y[2 * j->f + 1]));
      for (guint r = 0; r < 2; r++)
        {
          acc_G (a, pk->dof + r, dt * pk->sigma * uk[r], mag);
          acc_K_theta (a, pk->dof + r, &th[k], dt * pk->sigma * Suk[r]);
        }
      if (a->J)
        {
          /* Lambda_k^T Lambda_f = Lambda(theta_f - theta_k) */
          double c = csf[0] * cs[2 * k] + csf[1] * cs[2 * k + 1];
          double s = csf[1] * cs[2 * k] - csf[0] * cs[2 * k + 1];
          double M[2][2] = { { c, -s }, { s, c } };
          double Jy[2], MJy[2];
          jrot (&y[2 * j->f], Jy);
          MJy[0] = M[0][0] * Jy[0] + M[0][1] * Jy[1];
          MJy[1] = M[1][0] * Jy[0] + M[1][1] * Jy[1];
          for (guint r = 0; r < 2; r++)
            {
              for (guint cc = 0; cc < 2; cc++)
                acc_K_port (a, pk->dof + r, pf, cc, dt * pk->sigma * M[r][cc] * pf->sigma);
              acc_K_theta (a, pk->dof + r, &th[j->f], dt * pk->sigma * MJy[r]);
            }
        }
    }

  return F_ext[0] * vf[0] + F_ext[1] * vf[1];
}

/* Rotation, free junction: u_f = M_ext - sum_k y_k, u_k = y_f (scalars). */
/* A member's drive at t_mid (speed motors between links), rad/s. */
static inline double
port_drive (const FxSystem *sys, const FxPort *p)
{
  return p->drive != 0.0 ? fx_profile_at (sys, p->drive_profile, sys->t_mid) * p->drive : 0.0;
}

/* The angular velocity the velocity-causal members of a free rotation
 * junction add to the F member's: their drive relative to its drive. */
static double
relative_drive (const FxSystem *sys, const FxJunction *j, const FxPort *pk)
{
  const FxPort *pf = &g_array_index (j->ports, FxPort, j->f);
  return port_drive (sys, pk) - port_drive (sys, pf);
}

/* Angles of R = V ends ride on Omega_end = omega_f + relative drive. */
void
fx_relative_drives_now (FxSystem *sys, const FxJunction *j)
{
  if (j->f < 0 || j->inertia_dof >= 0 || j->ground)
    return;
  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *p = &g_array_index (j->ports, FxPort, k);
      if ((int) k != j->f)
        sys->links[p->link].omega_drive_now[p->side] = relative_drive (sys, j, p);
    }
}

/* Rotation, free junction: u_f = M_ext - sum_k y_k, u_k = y_f + d_k - d_f.
 * The drives d (speed motors between links) supply sum_k (d_k - d_f) y_k. */
double
fx_rjunction_free (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const double dt = a->dt;
  const FxPort *pf = &g_array_index (j->ports, FxPort, j->f);
  double M_ext = 0.0, uf, uf_mag;

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      M_ext += fx_profile_at (sys, ld->profile, sys->t_mid) * ld->moment;
    }
  uf = M_ext;
  uf_mag = fabs (M_ext);
  for (guint k = 0; k < j->ports->len; k++)
    {
      if ((int) k == j->f)
        continue;
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double yk = pk->sigma * port_value (a, pk, 0);
      uf -= yk;
      uf_mag += fabs (yk);
      acc_K_port (a, pf->dof, pk, 0, -dt * pf->sigma * pk->sigma);
    }
  acc_G (a, pf->dof, dt * pf->sigma * uf, dt * uf_mag);

  double yf = pf->sigma * port_value (a, pf, 0), power = M_ext * yf;
  for (guint k = 0; k < j->ports->len; k++)
    {
      if ((int) k == j->f)
        continue;
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double d = relative_drive (sys, j, pk), uk = yf + d;
      acc_G (a, pk->dof, dt * pk->sigma * uk, dt * (fabs (yf) + fabs (d)));
      acc_K_port (a, pk->dof, pf, 0, dt * pk->sigma * pf->sigma);
      power += d * pk->sigma * port_value (a, pk, 0);
    }
  return power;
}

/* Translation, inertia junction (a lumped mass m at the joint):
 *   m v' = F_ext + m g - sum_k Lambda_k y_k,   u_k = Lambda_k^T v
 * Returns the external power F_ext . v at the midpoint. */
double
fx_tjunction_mass (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const guint n = j->ports->len, d = (guint) j->inertia_dof;
  const double dt = a->dt, m = j->inertia;
  const double v[2] = { a->xm[d], a->xm[d + 1] };
  double F_ext[2] = { 0, 0 }, mag = 0.0;

  for (guint c = 0; c < 2; c++)
    acc_E (a, d + c, d + c, m);

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double s = fx_profile_at (sys, ld->profile, sys->t_mid), F[2] = { s * ld->force[0], s * ld->force[1] };
      if (ld->frame_member >= 0)
        {
          const FxPort *pq = &g_array_index (j->ports, FxPort, ld->frame_member);
          ThetaRef tq = end_theta (&sys->links[pq->link], pq->side, dt);
          double cs[2], Fs[2], JF[2], LJF[2];
          rot (theta_value (&tq, a->xc), cs);
          lam (cs, F, Fs);
          jrot (F, JF);
          lam (cs, JF, LJF);
          for (guint r = 0; r < 2; r++)
            acc_K_theta (a, d + r, &tq, dt * LJF[r]);
          F[0] = Fs[0];
          F[1] = Fs[1];
        }
      F_ext[0] += F[0];
      F_ext[1] += F[1];
    }
  for (guint c = 0; c < 2; c++)
    acc_G (a, d + c, dt * (F_ext[c] + j->weight * sys->gravity[c]),
           dt * (fabs (F_ext[c]) + fabs (j->weight * sys->gravity[c])));

  for (guint k = 0; k < n; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], y[2] = { pk->sigma * port_value (a, pk, 0), pk->sigma * port_value (a, pk, 1) };
      double Ly[2], Jy[2], LJy[2], uk[2], Suk[2];
      rot (theta_value (&th, a->xc), cs);
      lam (cs, y, Ly);
      mag = dt * (fabs (y[0]) + fabs (y[1]));
      for (guint r = 0; r < 2; r++)
        acc_G (a, d + r, -dt * Ly[r], mag);
      jrot (y, Jy);
      lam (cs, Jy, LJy);
      /* the mass rows: d(-Lambda_k y_k) */
      double M[2][2] = { { cs[0], -cs[1] }, { cs[1], cs[0] } };
      for (guint r = 0; r < 2; r++)
        {
          for (guint c = 0; c < 2; c++)
            acc_K_port (a, d + r, pk, c, -dt * M[r][c] * pk->sigma);
          acc_K_theta (a, d + r, &th, -dt * LJy[r]);
        }
      /* the member rows: u_k = Lambda_k^T v */
      lam_t (cs, v, uk);
      srot (uk, Suk);
      for (guint r = 0; r < 2; r++)
        {
          acc_G (a, pk->dof + r, dt * pk->sigma * uk[r], dt * (fabs (v[0]) + fabs (v[1])));
          for (guint c = 0; c < 2; c++)
            acc_K (a, pk->dof + r, d + c, dt * pk->sigma * M[c][r]);
          acc_K_theta (a, pk->dof + r, &th, dt * pk->sigma * Suk[r]);
        }
    }
  return F_ext[0] * v[0] + F_ext[1] * v[1];
}

static inline double
cross (const double a[2], const double b[2])
{
  return a[0] * b[1] - a[1] * b[0];
}

/* Translation, a rigid body's attachment at r = Lambda(theta_b) rho from
 * its centre, theta_b = phi + dt/2 omega (docs/theory.md §3):
 *   m v_c' += F_ext - sum_k Lambda_k y_k,
 *   I omega' += r x (F_ext - sum_k Lambda_k y_k),
 *   u_k = Lambda_k^T (v_c + omega J r).
 * The same r on both sides makes the attachment power-conserving. Returns
 * the external power F_ext . (v_c + omega J r). */
double
fx_tjunction_body (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, j->body);
  const guint d = b->dof, dw = b->dof + 2;
  const double dt = a->dt, w = a->xm[dw];
  ThetaRef tb = { .base = b->phi, .coef = 0.5 * dt, .dof = (int) dw };
  double csb[2], r[2], Jr[2], F_ext[2] = { 0, 0 };

  rot (theta_value (&tb, a->xc), csb);
  lam (csb, j->rho, r);
  jrot (r, Jr);
  /* v = v_c + w J r;  dv/dw = J r + w J dr/dw = J r - dt/2 w r;  dr/dw = dt/2 J r */
  const double v[2] = { a->xm[d] + w * Jr[0], a->xm[d + 1] + w * Jr[1] };
  /* (a->fold: with Gauss stages the theta paths -dt/2 w r, dr_dw go through acc_K_config) */
  const double dv_dw[2] = { Jr[0] - 0.5 * dt * w * r[0] * a->fold,
                            Jr[1] - 0.5 * dt * w * r[1] * a->fold };
  const double dr_dw[2] = { 0.5 * dt * Jr[0], 0.5 * dt * Jr[1] };
  const double dv_dth[2] = { -0.5 * dt * w * r[0], -0.5 * dt * w * r[1] };

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double s = fx_profile_at (sys, ld->profile, sys->t_mid);
      F_ext[0] += s * ld->force[0];
      F_ext[1] += s * ld->force[1];
    }
  for (guint c = 0; c < 2; c++)
    acc_G (a, d + c, dt * F_ext[c], fabs (dt * F_ext[c]));
  acc_G (a, dw, dt * cross (r, F_ext), fabs (dt * cross (r, F_ext)));
  acc_K_config (a, dw, dw, dt * cross (dr_dw, F_ext));

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], y[2] = { pk->sigma * port_value (a, pk, 0), pk->sigma * port_value (a, pk, 1) };
      double Ly[2], Jy[2], LJy[2], uk[2], Suk[2], du[2];
      rot (theta_value (&th, a->xc), cs);
      lam (cs, y, Ly);
      jrot (y, Jy);
      lam (cs, Jy, LJy);
      double mag = dt * (fabs (y[0]) + fabs (y[1]));
      const double M[2][2] = { { cs[0], -cs[1] }, { cs[1], cs[0] } };

      /* the body's rows: -Lambda_k y_k and its moment about the centre */
      for (guint rr = 0; rr < 2; rr++)
        {
          acc_G (a, d + rr, -dt * Ly[rr], mag);
          for (guint c = 0; c < 2; c++)
            acc_K_port (a, d + rr, pk, c, -dt * M[rr][c] * pk->sigma);
          acc_K_theta (a, d + rr, &th, -dt * LJy[rr]);
        }
      acc_G (a, dw, -dt * cross (r, Ly), mag * hypot (r[0], r[1]));
      for (guint c = 0; c < 2; c++)
        {
          const double Mc[2] = { M[0][c], M[1][c] };
          acc_K_port (a, dw, pk, c, -dt * cross (r, Mc) * pk->sigma);
        }
      acc_K_theta (a, dw, &th, -dt * cross (r, LJy));
      acc_K_config (a, dw, dw, -dt * cross (dr_dw, Ly));

      /* the member rows: u_k = Lambda_k^T v */
      lam_t (cs, v, uk);
      srot (uk, Suk);
      lam_t (cs, dv_dw, du);
      for (guint rr = 0; rr < 2; rr++)
        {
          acc_G (a, pk->dof + rr, dt * pk->sigma * uk[rr], dt * (fabs (v[0]) + fabs (v[1])));
          for (guint c = 0; c < 2; c++)
            acc_K (a, pk->dof + rr, d + c, dt * pk->sigma * M[c][rr]);
          acc_K (a, pk->dof + rr, dw, dt * pk->sigma * du[rr]);
          if (a->fold == 0.0)
            {
              double dth[2];
              lam_t (cs, dv_dth, dth);
              acc_K_config (a, pk->dof + rr, dw, dt * pk->sigma * dth[rr]);
            }
          acc_K_theta (a, pk->dof + rr, &th, dt * pk->sigma * Suk[rr]);
        }
    }
  return F_ext[0] * v[0] + F_ext[1] * v[1];
}

/* A rigid body's own rows: m v_c' = m g + ..., I omega' = ... */
void
fx_body_kernel (FxSystem *sys, const FxBodySys *b, Acc *a)
{
  const double dt = a->dt;

  for (guint c = 0; c < 2; c++)
    {
      acc_E (a, b->dof + c, b->dof + c, b->m);
      acc_G (a, b->dof + c, dt * b->m * sys->gravity[c], fabs (dt * b->m * sys->gravity[c]));
    }
  acc_E (a, b->dof + 2, b->dof + 2, b->I);
}

/* Rotation, inertia junction (rotary inertia J): J w' = M_ext - sum_k y_k, u_k = w. */
double
fx_rjunction_inertia (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const guint d = (guint) j->inertia_dof;
  const double dt = a->dt, w = a->xm[d];
  double M_ext = 0.0;

  acc_E (a, d, d, j->inertia);
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      M_ext += fx_profile_at (sys, ld->profile, sys->t_mid) * ld->moment;
    }
  acc_G (a, d, dt * M_ext, fabs (dt * M_ext));
  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double yk = pk->sigma * port_value (a, pk, 0);
      acc_G (a, d, -dt * yk, fabs (dt * yk));
      acc_K_port (a, d, pk, 0, -dt * pk->sigma);
      acc_G (a, pk->dof, dt * pk->sigma * w, fabs (dt * w));
      acc_K (a, pk->dof, d, dt * pk->sigma);
    }
  return M_ext * w;
}

/* A driven ground (prescribed motion of a support): every member gets the
 * support's velocity in its own frame, u_k = Lambda_k^T v_p(t); rotation:
 * u_k = Omega_p(t). Returns the power the drive puts in, sum_k y_k . u_k. */
double
fx_junction_driven (FxSystem *sys, const FxJunction *j, gboolean translation, Acc *a)
{
  const double dt = a->dt, s = fx_profile_at (sys, j->drive_profile, sys->t_mid);
  double power = 0.0;

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      if (!translation)
        {
          double u = s * j->drive[0];
          acc_G (a, pk->dof, dt * pk->sigma * u, fabs (dt * u));
          power += pk->sigma * port_value (a, pk, 0) * u;
          continue;
        }
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], vp[2] = { s * j->drive[0], s * j->drive[1] }, u[2], Su[2];
      rot (theta_value (&th, a->xc), cs);
      lam_t (cs, vp, u);
      srot (u, Su);
      for (guint r = 0; r < 2; r++)
        {
          acc_G (a, pk->dof + r, dt * pk->sigma * u[r], fabs (dt * u[r]));
          acc_K_theta (a, pk->dof + r, &th, dt * pk->sigma * Su[r]);
          power += pk->sigma * port_value (a, pk, r) * u[r];
        }
    }
  return power;
}

/* A slider block of mass m moving along the unit direction t:
 *   m s'' = t . (F_ext + m g - sum_k Lambda_k y_k),   u_k = Lambda_k^T t s'
 * the guide takes the normal force (no multiplier). Returns F_ext . t s'. */
double
fx_tjunction_slider (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const guint d = (guint) j->inertia_dof;
  const double dt = a->dt, m = j->inertia, *t = j->direction, w = a->xm[d];
  double F[2] = { 0, 0 };

  acc_E (a, d, d, m);
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double sc = fx_profile_at (sys, ld->profile, sys->t_mid), Fi[2] = { sc * ld->force[0], sc * ld->force[1] };
      if (ld->frame_member >= 0)
        {
          const FxPort *pq = &g_array_index (j->ports, FxPort, ld->frame_member);
          ThetaRef tq = end_theta (&sys->links[pq->link], pq->side, dt);
          double cs[2], Fs[2], JF[2], LJF[2];
          rot (theta_value (&tq, a->xc), cs);
          lam (cs, Fi, Fs);
          jrot (Fi, JF);
          lam (cs, JF, LJF);
          acc_K_theta (a, d, &tq, dt * (t[0] * LJF[0] + t[1] * LJF[1]));
          Fi[0] = Fs[0];
          Fi[1] = Fs[1];
        }
      F[0] += Fi[0];
      F[1] += Fi[1];
    }
  const double wg = j->weight;
  double Ft = t[0] * (F[0] + wg * sys->gravity[0]) + t[1] * (F[1] + wg * sys->gravity[1]);
  acc_G (a, d, dt * Ft, dt * (fabs (F[0]) + fabs (F[1]) + wg * hypot (sys->gravity[0], sys->gravity[1])));

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], y[2] = { pk->sigma * port_value (a, pk, 0), pk->sigma * port_value (a, pk, 1) };
      double Ly[2], Jy[2], LJy[2], Lt_t[2], u[2], Su[2];
      rot (theta_value (&th, a->xc), cs);
      lam (cs, y, Ly);
      jrot (y, Jy);
      lam (cs, Jy, LJy);
      acc_G (a, d, -dt * (t[0] * Ly[0] + t[1] * Ly[1]), dt * (fabs (y[0]) + fabs (y[1])));
      /* d/dx_k of -t . Lambda_k sigma x_k = -sigma (Lambda_k^T t) */
      lam_t (cs, t, Lt_t);
      for (guint c = 0; c < 2; c++)
        acc_K_port (a, d, pk, c, -dt * pk->sigma * Lt_t[c]);
      acc_K_theta (a, d, &th, -dt * (t[0] * LJy[0] + t[1] * LJy[1]));
      /* members: u_k = Lambda_k^T t w */
      u[0] = Lt_t[0] * w;
      u[1] = Lt_t[1] * w;
      srot (u, Su);
      for (guint r = 0; r < 2; r++)
        {
          acc_G (a, pk->dof + r, dt * pk->sigma * u[r], fabs (dt * w));
          acc_K (a, pk->dof + r, d, dt * pk->sigma * Lt_t[r]);
          acc_K_theta (a, pk->dof + r, &th, dt * pk->sigma * Su[r]);
        }
    }
  return (F[0] * t[0] + F[1] * t[1]) * w;
}


/* The bodies' own terms (their unknowns' inertia), after every junction. */
void
fx_bodies_assemble (FxSystem *sys, FxAcc *a, double *power)
{
  for (guint i = 0; i < sys->bodies->len; i++)
    fx_body_kernel (sys, &g_array_index (sys->bodies, FxBodySys, i), a);
}
