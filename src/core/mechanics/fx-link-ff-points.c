/* fx-link-ff-points.c: the floating-frame link's material points
 * (docs/theory.md, "Floating-frame links"): where a point at fraction s is,
 * its midpoint velocity as rows in the link's unknowns (B(s): the frame's
 * motion plus the displacement's shape), the rows of a force applied
 * there, and the stress resultants N, V a probe reads. */
#include "fx-link-ff-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------ material points */

/* Where the point at fraction s sits: its element's shape, the body-frame
 * position xi(q_mid) and the frame angle theta_mid, for the midpoint of a
 * step dt with unknowns x_mid (dt = 0: now). */
typedef struct {
  FfShape sh;
  double xi[2], cs[2], theta;
} FfPoint;

static void
ff_point_at (const FxLinkSys *l, double s, const double *x_mid, double dt, FfPoint *pt)
{
  const FfData *d = l->impl;
  const double *nu = x_mid + l->offset, *q = l->theta + 1;
  double u = CLAMP (s, 0.0, 1.0) * l->N;
  guint e = (guint) MIN (floor (u), (double) (l->N - 1));
  double xi = u - e;

  ff_shape (e, l->h, xi, &pt->sh);
  pt->xi[0] = (e + xi) * l->h - d->sP;
  pt->xi[1] = 0.0;
  for (guint i = 0; i < 6; i++)
    {
      guint k = pt->sh.dof[i];
      double qb = q[k] + 0.5 * dt * nu[I_VF + k];
      pt->xi[0] += pt->sh.u[i] * qb;
      pt->xi[1] += pt->sh.w[i] * qb;
    }
  pt->theta = l->theta[0] + 0.5 * dt * nu[I_W];
  rot (pt->theta, pt->cs);
}

/* v = Lambda(theta_mid) (v_P + omega J xi + N v_f), omega_s = omega + N_phi v_f:
 * B = [I; (J xi)^T; N^T] of physics.md 12.3 at s, turned into the plane. */
void
ff_point (const FxLinkSys *l, double s, const double *x_mid, double dt, FxPointKinematics *k)
{
  const double *nu = x_mid + l->offset, *q = l->theta + 1;
  const double w = nu[I_W];
  FfPoint pt;
  double Jxi[2], V[2], JV[2], col[2];

  ff_point_at (l, s, x_mid, dt, &pt);
  jrot (pt.xi, Jxi);
  V[0] = nu[0] + w * Jxi[0];
  V[1] = nu[1] + w * Jxi[1];
  k->omega = w;
  k->theta = pt.theta;
  k->n = 9;
  for (guint c = 0; c < 2; c++)
    {
      double unit[2] = { c == 0, c == 1 };
      lam (pt.cs, unit, k->b[c]);
      k->dof[c] = l->offset + c;
      k->br[c] = 0.0;
      k->dtheta[c] = 0.0;
      memcpy (k->dv[c], k->b[c], sizeof k->b[c]);
    }
  k->dof[2] = l->offset + I_W;
  lam (pt.cs, Jxi, k->b[2]);
  k->br[2] = 1.0;
  k->dtheta[2] = 0.5 * dt;
  for (guint i = 0; i < 6; i++)
    {
      guint j = 3 + i, kq = pt.sh.dof[i];
      double N[2] = { pt.sh.u[i], pt.sh.w[i] }, JN[2];
      double vf = nu[I_VF + kq];
      V[0] += N[0] * vf;
      V[1] += N[1] * vf;
      k->omega += pt.sh.wp[i] * vf;
      k->theta += pt.sh.wp[i] * (q[kq] + 0.5 * dt * vf);
      k->dof[j] = l->offset + I_VF + kq;
      lam (pt.cs, N, k->b[j]);
      k->br[j] = pt.sh.wp[i];
      k->dtheta[j] = 0.5 * dt * pt.sh.wp[i];
      /* xi moves with q_mid: omega Lambda J N dt/2 */
      jrot (N, JN);
      lam (pt.cs, JN, col);
      k->dv[j][0] = k->b[j][0] + 0.5 * dt * w * col[0];
      k->dv[j][1] = k->b[j][1] + 0.5 * dt * w * col[1];
    }
  lam (pt.cs, V, k->v);
  /* the frame turns with omega: dLambda/dtheta V = Lambda J V */
  jrot (V, JV);
  lam (pt.cs, JV, col);
  k->dv[2][0] = k->b[2][0] + 0.5 * dt * col[0];
  k->dv[2][1] = k->b[2][1] + 0.5 * dt * col[1];
  /* the position at the step's start */
  FfPoint now;
  ff_point_at (l, s, x_mid, 0.0, &now);
  lam (now.cs, now.xi, col);
  k->p[0] = l->r[0] + col[0];
  k->p[1] = l->r[1] + col[1];
}

/* dt B(q_mid)^T... : the rows dt (f_b, (J xi) . f_b, N^T f_b) + dt ell (0, 1,
 * N_phi^T), f_b = Lambda(theta_mid)^T f, and their Jacobian at fixed f. */
void
ff_point_force (const FxLinkSys *l, double s, const double *x_mid, double dt,
                const double f[2], double ell, FxAcc *a)
{
  const guint off = l->offset;
  FfPoint pt;
  double fb[2], Sfb[2], Jxi[2];

  ff_point_at (l, s, x_mid, dt, &pt);
  lam_t (pt.cs, f, fb);
  srot (fb, Sfb);  /* d f_b / d theta */
  jrot (pt.xi, Jxi);
  for (guint c = 0; c < 2; c++)
    {
      acc_G (a, off + c, dt * fb[c], fabs (dt * fb[c]));
      acc_K (a, off + c, off + I_W, dt * Sfb[c] * 0.5 * dt);
    }
  double tq = Jxi[0] * fb[0] + Jxi[1] * fb[1] + ell;
  acc_G (a, off + I_W, dt * tq, dt * (fabs (Jxi[0] * fb[0]) + fabs (Jxi[1] * fb[1]) + fabs (ell)));
  acc_K (a, off + I_W, off + I_W, dt * (Jxi[0] * Sfb[0] + Jxi[1] * Sfb[1]) * 0.5 * dt);
  for (guint i = 0; i < 6; i++)
    {
      guint row = off + I_VF + pt.sh.dof[i];
      double N[2] = { pt.sh.u[i], pt.sh.w[i] }, JN[2];
      double g = N[0] * fb[0] + N[1] * fb[1] + pt.sh.wp[i] * ell;
      acc_G (a, row, dt * g, dt * (fabs (N[0] * fb[0]) + fabs (N[1] * fb[1]) + fabs (pt.sh.wp[i] * ell)));
      acc_K (a, row, off + I_W, dt * (N[0] * Sfb[0] + N[1] * Sfb[1]) * 0.5 * dt);
      /* the torque row's (J xi) moves with q_mid */
      jrot (N, JN);
      acc_K (a, off + I_W, row, dt * (JN[0] * fb[0] + JN[1] * fb[1]) * 0.5 * dt);
    }
}

/* N = EA u', V = -dM/ds = -EI w''' (physics.md 12.2: u linear and w cubic,
 * so both are constant in an element; at a node between two elements, their
 * mean, as a probe reads a piecewise-constant field). */
void
ff_resultants (const FxLinkSys *l, double s, double *N, double *V)
{
  const FfData *d = l->impl;
  const double *q = l->theta + 1, h = l->h;
  double u = CLAMP (s, 0.0, 1.0) * l->N;
  guint e = (guint) MIN (floor (u), (double) (l->N - 1));
  guint first = (u - e == 0.0 && e > 0) ? e - 1 : e;

  *N = *V = 0.0;
  for (guint k = first; k <= e; k++)
    {
      const double *qe = q + 3 * k, weight = 1.0 / (e - first + 1);
      double up = (qe[3] - qe[0]) / h;
      double wppp = (12.0 * (qe[1] - qe[4]) / h + 6.0 * (qe[2] + qe[5])) / (h * h);
      *N += weight * d->EA * up;
      *V -= weight * d->EI * wppp;
    }
}
