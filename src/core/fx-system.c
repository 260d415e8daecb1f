/* fx-system.c: assembly of the mixed finite-element port-Hamiltonian system.
 *
 * Notation follows ../shared/design/physics.md. Per link the co-energy
 * variables are v_hat (2), omega, n_hat (2), m; which of them is CG1 and which
 * DG0 is set by the causality bits T and R (section 3). Every element integral
 * uses the same 2-point Gauss rule for a term and its transposed partner, so
 * the assembled operator is skew and the midpoint rule balances energy to the
 * Newton tolerance. The residual is
 *
 *     R(x) = E (x - x_n) - dt F(x_mid, t_mid),   x_mid = (x_n + x) / 2,
 *
 * and its Jacobian dR/dx = E - dt/2 dF/dx_mid. Angles are not unknowns: with
 * theta in the space of omega, theta_mid = theta_n + dt/2 omega_mid exactly,
 * so they are substituted (and differentiated) wherever a rotation appears.
 */
#include "fx-kernel.h"
#include <glib/gi18n-lib.h>
#include "fx-model-io.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (fx-system-error-quark, fx_system_error)

/* --------------------------------------------------------- element kernel */

static const double gauss_xi[2] = { 0.5 - 0.28867513459481288225, 0.5 + 0.28867513459481288225 };

/* Integrands of the weak form at one Gauss point (physics.md section 3):
 *   a_v = S pi omega + kappa S^T n + Lambda^T rhoA g
 *   a_w = b2^T n + gamma^T S n          (pi^T S v = rhoA v x v is identically 0)
 *   a_n = -b2 omega + kappa S^T v + S gamma omega
 *   a_m = 0
 * with pi = rhoA v, gamma = C_t n, kappa = C_r m; `da` gets their derivatives
 * with respect to (vx, vy, omega, nx, ny, m, theta). */
static void
gauss_integrands (const FxLinkSys *l, const double q[F_N_FIELDS], double theta,
                  const double g[2], double a[F_N_FIELDS], double am[F_N_FIELDS],
                  double da[F_N_FIELDS][F_N_FIELDS + 1])
{
  const double vx = q[F_VX], vy = q[F_VY], w = q[F_W];
  const double nx = q[F_NX], ny = q[F_NY], m = q[F_M];
  const double rhoA = l->rhoA, C1 = l->Ct[0], C2 = l->Ct[1], Cr = l->Cr;
  const double kappa = Cr * m, gx_ = C1 * nx, gy_ = C2 * ny;
  const double c = cos (theta), s = sin (theta);
  const double fx = rhoA * (c * g[0] + s * g[1]);
  const double fy = rhoA * (-s * g[0] + c * g[1]);

  a[F_VX] = rhoA * w * vy - kappa * ny + fx;
  a[F_VY] = -rhoA * w * vx + kappa * nx + fy;
  a[F_W] = ny + (C1 - C2) * nx * ny;
  a[F_NX] = -kappa * vy + w * gy_;
  a[F_NY] = -w + kappa * vx - w * gx_;
  a[F_M] = 0.0;

  am[F_VX] = fabs (rhoA * w * vy) + fabs (kappa * ny) + fabs (fx);
  am[F_VY] = fabs (rhoA * w * vx) + fabs (kappa * nx) + fabs (fy);
  am[F_W] = fabs (ny) + fabs ((C1 - C2) * nx * ny);
  am[F_NX] = fabs (kappa * vy) + fabs (w * gy_);
  am[F_NY] = fabs (w) + fabs (kappa * vx) + fabs (w * gx_);
  am[F_M] = 0.0;

  if (da == NULL)
    return;
  memset (da, 0, sizeof (double) * F_N_FIELDS * (F_N_FIELDS + 1));
  da[F_VX][F_VY] = rhoA * w;
  da[F_VX][F_W] = rhoA * vy;
  da[F_VX][F_NY] = -kappa;
  da[F_VX][F_M] = -Cr * ny;
  da[F_VX][F_N_FIELDS] = rhoA * (-s * g[0] + c * g[1]);

  da[F_VY][F_VX] = -rhoA * w;
  da[F_VY][F_W] = -rhoA * vx;
  da[F_VY][F_NX] = kappa;
  da[F_VY][F_M] = Cr * nx;
  da[F_VY][F_N_FIELDS] = rhoA * (-c * g[0] - s * g[1]);

  da[F_W][F_NX] = (C1 - C2) * ny;
  da[F_W][F_NY] = 1.0 + (C1 - C2) * nx;

  da[F_NX][F_VY] = -kappa;
  da[F_NX][F_W] = gy_;
  da[F_NX][F_NY] = w * C2;
  da[F_NX][F_M] = -Cr * vy;

  da[F_NY][F_VX] = kappa;
  da[F_NY][F_W] = -1.0 - gx_;
  da[F_NY][F_NX] = -w * C1;
  da[F_NY][F_M] = Cr * vx;
}

/* The derivative pairs (v, n) and (omega, m): the CG1 member of a pair is
 * tested against the derivative, the DG0 member against the values:
 *   CG1 rows:  +d_e at the left node, -d_e at the right node
 *   DG0 rows:  c_right - c_left
 * which is -(d_s psi, d) and (psi, d_s c), exactly skew. */
static void
element_derivatives (const FxLinkSys *l, guint e, Acc *a)
{
  static const int pairs[3][2] = { { F_VX, F_NX }, { F_VY, F_NY }, { F_W, F_M } };
  const double dt = a->dt;

  for (guint p = 0; p < 3; p++)
    {
      int fa = pairs[p][0], fb = pairs[p][1];
      int fc = field_is_cg (l, fa) ? fa : fb;  /* the CG1 one */
      int fd = fc == fa ? fb : fa;             /* the DG0 one */
      guint cl = field_dof (l, fc, e), cr = field_dof (l, fc, e + 1);
      guint d = field_dof (l, fd, e);
      double xd = a->xm[d], xcl = a->xm[cl], xcr = a->xm[cr];

      acc_G (a, cl, dt * xd, fabs (dt * xd));
      acc_G (a, cr, -dt * xd, fabs (dt * xd));
      acc_G (a, d, dt * (xcr - xcl), fabs (dt * xcr) + fabs (dt * xcl));
      acc_K (a, cl, d, dt);
      acc_K (a, cr, d, -dt);
      acc_K (a, d, cr, dt);
      acc_K (a, d, cl, -dt);
    }
}

static void
element_mass (const FxLinkSys *l, guint e, Acc *a)
{
  const double h = l->h;

  for (int f = 0; f < F_N_FIELDS; f++)
    {
      double mu = field_mass (l, f);
      if (mu == 0.0)
        continue;
      if (field_is_cg (l, f))
        {
          guint i0 = field_dof (l, f, e), i1 = field_dof (l, f, e + 1);
          acc_E (a, i0, i0, mu * h / 3.0);
          acc_E (a, i0, i1, mu * h / 6.0);
          acc_E (a, i1, i0, mu * h / 6.0);
          acc_E (a, i1, i1, mu * h / 3.0);
        }
      else
        {
          guint i = field_dof (l, f, e);
          acc_E (a, i, i, mu * h);
        }
    }
}

/* Viscous damping along the link: -(psi_v, c v) - (psi_w, c_r omega), with
 * the Gauss rule of the dynamics so its loss is exactly what the balance sees. */
static void
element_damping (const FxLinkSys *l, guint e, Acc *a)
{
  const double dt = a->dt, wg = 0.5 * l->h;
  const int fields[3] = { F_VX, F_VY, F_W };

  for (guint gp = 0; gp < 2; gp++)
    for (guint k = 0; k < 3; k++)
      {
        double c = fields[k] == F_W ? l->rotational_damping : l->damping;
        Shape sh;
        if (c == 0.0)
          continue;
        field_shape (l, fields[k], e, gauss_xi[gp], &sh);
        double q = shape_eval (&sh, a->xm);
        a->loss += wg * c * q * q;
        for (guint i = 0; i < sh.n; i++)
          {
            acc_G (a, sh.dof[i], -dt * wg * c * sh.w[i] * q, fabs (dt * wg * c * sh.w[i] * q));
            for (guint j = 0; j < sh.n; j++)
              acc_K (a, sh.dof[i], sh.dof[j], -dt * wg * c * sh.w[i] * sh.w[j]);
          }
      }
}

static inline guint64
coupling_bit (int r, int c)
{
  return G_GUINT64_CONSTANT (1) << (r * F_N_FIELDS + c);
}

/* Which (row field, column field) derivatives of the integrands can be
 * non-zero for this link: those non-zero at a random state (a structural
 * zero is zero at every state). Theta enters through the omega column. */
static void
link_coupling (FxLinkSys *l)
{
  GRand *rng = g_rand_new_with_seed (7);
  double q[F_N_FIELDS], val[F_N_FIELDS], mag[F_N_FIELDS], da[F_N_FIELDS][F_N_FIELDS + 1];
  const double g[2] = { 0.7, -1.3 };

  for (int f = 0; f < F_N_FIELDS; f++)
    q[f] = g_rand_double_range (rng, 0.5, 1.5);
  gauss_integrands (l, q, g_rand_double_range (rng, 0.1, 1.0), g, val, mag, da);
  l->coupling = 0;
  for (int r = 0; r < F_N_FIELDS; r++)
    for (int c = 0; c < F_N_FIELDS; c++)
      if (da[r][c] != 0.0 || (c == F_W && da[r][F_N_FIELDS] != 0.0))
        l->coupling |= coupling_bit (r, c);
  g_rand_free (rng);
}

static void
element_nonlinear (FxSystem *sys, const FxLinkSys *l, guint e, Acc *a)
{
  const double dt = a->dt, wg = 0.5 * l->h;

  for (guint gp = 0; gp < 2; gp++)
    {
      double xi = gauss_xi[gp];
      Shape sh[F_N_FIELDS];
      double q[F_N_FIELDS], val[F_N_FIELDS], mag[F_N_FIELDS];
      double da[F_N_FIELDS][F_N_FIELDS + 1];

      for (int f = 0; f < F_N_FIELDS; f++)
        {
          field_shape (l, f, e, xi, &sh[f]);
          q[f] = shape_eval (&sh[f], a->xm);
        }
      double theta = theta_n_at (l, e, xi) + 0.5 * dt * q[F_W];

      gauss_integrands (l, q, theta, sys->gravity, val, mag, a->J ? da : NULL);

      for (int r = 0; r < F_N_FIELDS; r++)
        {
          if (mag[r] == 0.0 && a->J == NULL)
            continue;
          for (guint k = 0; k < sh[r].n; k++)
            {
              double wr = dt * wg * sh[r].w[k];
              acc_G (a, sh[r].dof[k], wr * val[r], fabs (wr) * mag[r]);
              if (a->J == NULL)
                continue;
              /* theta_mid depends on omega_mid with slope dt/2 */
              double dw = da[r][F_W] + 0.5 * dt * da[r][F_N_FIELDS];
              for (int c = 0; c < F_N_FIELDS; c++)
                {
                  double d = c == F_W ? dw : da[r][c];
                  /* skip what is zero by structure, not by value: the
                   * sparse assembly needs the same calls every time */
                  if (!(l->coupling & coupling_bit (r, c)))
                    continue;
                  for (guint kk = 0; kk < sh[c].n; kk++)
                    acc_K (a, sh[r].dof[k], sh[c].dof[kk], wr * d * sh[c].w[kk]);
                }
            }
        }
    }
}

/* -------------------------------------------------------- end angles */

/* theta at a link end, at the midpoint: theta_mid = base + coef * x_mid[dof]
 * (dof < 0: constant). */
typedef struct {
  double base, coef;
  int dof;
} ThetaRef;

static ThetaRef
end_theta (const FxLinkSys *l, guint side, double dt)
{
  ThetaRef t;

  if (l->R == FX_CAUSAL_F)
    {
      guint node = side == 0 ? 0 : l->N;
      t.base = l->theta[node];
      t.dof = (int) field_dof (l, F_W, node);
      t.coef = 0.5 * dt;
    }
  else
    {
      t.base = l->theta_end[side] + 0.5 * dt * l->omega_drive_now[side];
      t.dof = l->omega_source[side];
      t.coef = 0.5 * dt * l->omega_sign[side];
    }
  return t;
}

static inline double
theta_value (const ThetaRef *t, const double *xm)
{
  return t->base + (t->dof >= 0 ? t->coef * xm[t->dof] : 0.0);
}

/* K[row, theta's unknown] += value * dtheta/dx_mid */
static inline void
acc_K_theta (Acc *a, guint row, const ThetaRef *t, double value)
{
  if (t->dof >= 0)
    acc_K (a, row, (guint) t->dof, value * t->coef);
}

/* ---------------------------------------------------- junction kernels */

/* A load's factor at t_mid; a noisy profile also takes the noise's input
 * for the current step piece (fx-system-noise.c). */
static double
profile_at (const FxSystem *sys, const FxProfile *p, double t)
{
  if (p == NULL)
    return 1.0;
  if (p->noise != FX_NOISE_NONE)
    return fx_profile_eval (p, t) * fx_system_noise_factor (sys, p);
  return fx_profile_eval (p, t);
}

/* Translation, free junction (physics.md section 6):
 *   u_f = Lambda_f^T (F_ext - sum_k Lambda_k y_k),   u_k = Lambda_k^T Lambda_f y_f
 * Returns the external power F_ext . (Lambda_f y_f) at the midpoint. */
static double
tjunction_free (FxSystem *sys, const FxJunction *j, Acc *a)
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
      rot (theta_value (&th[k], a->xm), &cs[2 * k]);
      y[2 * k] = p->sigma * a->xm[p->dof];
      y[2 * k + 1] = p->sigma * a->xm[p->dof + 1];
    }

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double s = profile_at (sys, ld->profile, sys->t_mid), F[2];
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
                acc_K (a, pf->dof + r, pk->dof + cc, -dt * pf->sigma * M[r][cc] * pk->sigma);
              acc_K_theta (a, pf->dof + r, &th[k], -dt * pf->sigma * MJy[r]);
            }
        }
      for (guint i = 0; i < j->loads->len; i++)
        {
          const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
          if (ld->frame_member < 0)
            continue;
          int q = ld->frame_member;
          double s = profile_at (sys, ld->profile, sys->t_mid);
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
                acc_K (a, pk->dof + r, pf->dof + cc, dt * pk->sigma * M[r][cc] * pf->sigma);
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
  return p->drive != 0.0 ? profile_at (sys, p->drive_profile, sys->t_mid) * p->drive : 0.0;
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
static void
relative_drives_now (FxSystem *sys, const FxJunction *j)
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
static double
rjunction_free (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const double dt = a->dt;
  const FxPort *pf = &g_array_index (j->ports, FxPort, j->f);
  double M_ext = 0.0, uf, uf_mag;

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      M_ext += profile_at (sys, ld->profile, sys->t_mid) * ld->moment;
    }
  uf = M_ext;
  uf_mag = fabs (M_ext);
  for (guint k = 0; k < j->ports->len; k++)
    {
      if ((int) k == j->f)
        continue;
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double yk = pk->sigma * a->xm[pk->dof];
      uf -= yk;
      uf_mag += fabs (yk);
      acc_K (a, pf->dof, pk->dof, -dt * pf->sigma * pk->sigma);
    }
  acc_G (a, pf->dof, dt * pf->sigma * uf, dt * uf_mag);

  double yf = pf->sigma * a->xm[pf->dof], power = M_ext * yf;
  for (guint k = 0; k < j->ports->len; k++)
    {
      if ((int) k == j->f)
        continue;
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double d = relative_drive (sys, j, pk), uk = yf + d;
      acc_G (a, pk->dof, dt * pk->sigma * uk, dt * (fabs (yf) + fabs (d)));
      acc_K (a, pk->dof, pf->dof, dt * pk->sigma * pf->sigma);
      power += d * pk->sigma * a->xm[pk->dof];
    }
  return power;
}

/* Translation, inertia junction (a lumped mass m at the joint):
 *   m v' = F_ext + m g - sum_k Lambda_k y_k,   u_k = Lambda_k^T v
 * Returns the external power F_ext . v at the midpoint. */
static double
tjunction_mass (FxSystem *sys, const FxJunction *j, Acc *a)
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
      double s = profile_at (sys, ld->profile, sys->t_mid), F[2] = { s * ld->force[0], s * ld->force[1] };
      if (ld->frame_member >= 0)
        {
          const FxPort *pq = &g_array_index (j->ports, FxPort, ld->frame_member);
          ThetaRef tq = end_theta (&sys->links[pq->link], pq->side, dt);
          double cs[2], Fs[2], JF[2], LJF[2];
          rot (theta_value (&tq, a->xm), cs);
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
    acc_G (a, d + c, dt * (F_ext[c] + m * sys->gravity[c]),
           dt * (fabs (F_ext[c]) + fabs (m * sys->gravity[c])));

  for (guint k = 0; k < n; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], y[2] = { pk->sigma * a->xm[pk->dof], pk->sigma * a->xm[pk->dof + 1] };
      double Ly[2], Jy[2], LJy[2], uk[2], Suk[2];
      rot (theta_value (&th, a->xm), cs);
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
            acc_K (a, d + r, pk->dof + c, -dt * M[r][c] * pk->sigma);
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
 * its centre, theta_b = phi + dt/2 omega (physics.md sections 6-7):
 *   m v_c' += F_ext - sum_k Lambda_k y_k,
 *   I omega' += r x (F_ext - sum_k Lambda_k y_k),
 *   u_k = Lambda_k^T (v_c + omega J r).
 * The same r on both sides makes the attachment power-conserving. Returns
 * the external power F_ext . (v_c + omega J r). */
static double
tjunction_body (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, j->body);
  const guint d = b->dof, dw = b->dof + 2;
  const double dt = a->dt, w = a->xm[dw];
  ThetaRef tb = { .base = b->phi, .coef = 0.5 * dt, .dof = (int) dw };
  double csb[2], r[2], Jr[2], F_ext[2] = { 0, 0 };

  rot (theta_value (&tb, a->xm), csb);
  lam (csb, j->rho, r);
  jrot (r, Jr);
  /* v = v_c + w J r;  dv/dw = J r + w J dr/dw = J r - dt/2 w r;  dr/dw = dt/2 J r */
  const double v[2] = { a->xm[d] + w * Jr[0], a->xm[d + 1] + w * Jr[1] };
  const double dv_dw[2] = { Jr[0] - 0.5 * dt * w * r[0], Jr[1] - 0.5 * dt * w * r[1] };
  const double dr_dw[2] = { 0.5 * dt * Jr[0], 0.5 * dt * Jr[1] };

  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double s = profile_at (sys, ld->profile, sys->t_mid);
      F_ext[0] += s * ld->force[0];
      F_ext[1] += s * ld->force[1];
    }
  for (guint c = 0; c < 2; c++)
    acc_G (a, d + c, dt * F_ext[c], fabs (dt * F_ext[c]));
  acc_G (a, dw, dt * cross (r, F_ext), fabs (dt * cross (r, F_ext)));
  acc_K (a, dw, dw, dt * cross (dr_dw, F_ext));

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], y[2] = { pk->sigma * a->xm[pk->dof], pk->sigma * a->xm[pk->dof + 1] };
      double Ly[2], Jy[2], LJy[2], uk[2], Suk[2], du[2];
      rot (theta_value (&th, a->xm), cs);
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
            acc_K (a, d + rr, pk->dof + c, -dt * M[rr][c] * pk->sigma);
          acc_K_theta (a, d + rr, &th, -dt * LJy[rr]);
        }
      acc_G (a, dw, -dt * cross (r, Ly), mag * hypot (r[0], r[1]));
      for (guint c = 0; c < 2; c++)
        {
          const double Mc[2] = { M[0][c], M[1][c] };
          acc_K (a, dw, pk->dof + c, -dt * cross (r, Mc) * pk->sigma);
        }
      acc_K_theta (a, dw, &th, -dt * cross (r, LJy));
      acc_K (a, dw, dw, -dt * cross (dr_dw, Ly));

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
          acc_K_theta (a, pk->dof + rr, &th, dt * pk->sigma * Suk[rr]);
        }
    }
  return F_ext[0] * v[0] + F_ext[1] * v[1];
}

/* A rigid body's own rows: m v_c' = m g + ..., I omega' = ... */
static void
body_kernel (FxSystem *sys, const FxBodySys *b, Acc *a)
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
static double
rjunction_inertia (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const guint d = (guint) j->inertia_dof;
  const double dt = a->dt, w = a->xm[d];
  double M_ext = 0.0;

  acc_E (a, d, d, j->inertia);
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      M_ext += profile_at (sys, ld->profile, sys->t_mid) * ld->moment;
    }
  acc_G (a, d, dt * M_ext, fabs (dt * M_ext));
  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      double yk = pk->sigma * a->xm[pk->dof];
      acc_G (a, d, -dt * yk, fabs (dt * yk));
      acc_K (a, d, pk->dof, -dt * pk->sigma);
      acc_G (a, pk->dof, dt * pk->sigma * w, fabs (dt * w));
      acc_K (a, pk->dof, d, dt * pk->sigma);
    }
  return M_ext * w;
}

/* A driven ground (prescribed motion of a support): every member gets the
 * support's velocity in its own frame, u_k = Lambda_k^T v_p(t); rotation:
 * u_k = Omega_p(t). Returns the power the drive puts in, sum_k y_k . u_k. */
static double
junction_driven (FxSystem *sys, const FxJunction *j, gboolean translation, Acc *a)
{
  const double dt = a->dt, s = profile_at (sys, j->drive_profile, sys->t_mid);
  double power = 0.0;

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      if (!translation)
        {
          double u = s * j->drive[0];
          acc_G (a, pk->dof, dt * pk->sigma * u, fabs (dt * u));
          power += pk->sigma * a->xm[pk->dof] * u;
          continue;
        }
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], vp[2] = { s * j->drive[0], s * j->drive[1] }, u[2], Su[2];
      rot (theta_value (&th, a->xm), cs);
      lam_t (cs, vp, u);
      srot (u, Su);
      for (guint r = 0; r < 2; r++)
        {
          acc_G (a, pk->dof + r, dt * pk->sigma * u[r], fabs (dt * u[r]));
          acc_K_theta (a, pk->dof + r, &th, dt * pk->sigma * Su[r]);
          power += pk->sigma * a->xm[pk->dof + r] * u[r];
        }
    }
  return power;
}

/* A slider block of mass m moving along the unit direction t:
 *   m s'' = t . (F_ext + m g - sum_k Lambda_k y_k),   u_k = Lambda_k^T t s'
 * the guide takes the normal force (no multiplier). Returns F_ext . t s'. */
static double
tjunction_slider (FxSystem *sys, const FxJunction *j, Acc *a)
{
  const guint d = (guint) j->inertia_dof;
  const double dt = a->dt, m = j->inertia, *t = j->direction, w = a->xm[d];
  double F[2] = { 0, 0 };

  acc_E (a, d, d, m);
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double sc = profile_at (sys, ld->profile, sys->t_mid), Fi[2] = { sc * ld->force[0], sc * ld->force[1] };
      if (ld->frame_member >= 0)
        {
          const FxPort *pq = &g_array_index (j->ports, FxPort, ld->frame_member);
          ThetaRef tq = end_theta (&sys->links[pq->link], pq->side, dt);
          double cs[2], Fs[2], JF[2], LJF[2];
          rot (theta_value (&tq, a->xm), cs);
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
  double Ft = t[0] * (F[0] + m * sys->gravity[0]) + t[1] * (F[1] + m * sys->gravity[1]);
  acc_G (a, d, dt * Ft, dt * (fabs (F[0]) + fabs (F[1]) + m * hypot (sys->gravity[0], sys->gravity[1])));

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *pk = &g_array_index (j->ports, FxPort, k);
      ThetaRef th = end_theta (&sys->links[pk->link], pk->side, dt);
      double cs[2], y[2] = { pk->sigma * a->xm[pk->dof], pk->sigma * a->xm[pk->dof + 1] };
      double Ly[2], Jy[2], LJy[2], Lt_t[2], u[2], Su[2];
      rot (theta_value (&th, a->xm), cs);
      lam (cs, y, Ly);
      jrot (y, Jy);
      lam (cs, Jy, LJy);
      acc_G (a, d, -dt * (t[0] * Ly[0] + t[1] * Ly[1]), dt * (fabs (y[0]) + fabs (y[1])));
      /* d/dx_k of -t . Lambda_k sigma x_k = -sigma (Lambda_k^T t) */
      lam_t (cs, t, Lt_t);
      for (guint c = 0; c < 2; c++)
        acc_K (a, d, pk->dof + c, -dt * pk->sigma * Lt_t[c]);
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

/* Torsional spring-damper: phi_mid = phi_n + dt/2 (w_a - w_b)_mid and the
 * moment M_a = -k (phi_mid - rest) - c (w_a - w_b)_mid on a, -M_a on b. The
 * spring is a quadratic store, so the midpoint balances it exactly. */
static void
spring_kernel (const FxSpringSys *sp, Acc *a)
{
  const double dt = a->dt;
  double rel = a->xm[sp->dof_a] - (sp->dof_b >= 0 ? a->xm[sp->dof_b] : 0.0);
  double phi = sp->phi + 0.5 * dt * rel;
  double Ma = -sp->k * (phi - sp->rest) - sp->c * rel;
  double dMa = -sp->k * 0.5 * dt - sp->c;  /* dM_a / d rel */

  a->loss += sp->c * rel * rel;
  acc_G (a, (guint) sp->dof_a, dt * Ma, fabs (dt * Ma));
  acc_K (a, (guint) sp->dof_a, (guint) sp->dof_a, dt * dMa);
  if (sp->dof_b >= 0)
    {
      acc_K (a, (guint) sp->dof_a, (guint) sp->dof_b, -dt * dMa);
      acc_G (a, (guint) sp->dof_b, -dt * Ma, fabs (dt * Ma));
      acc_K (a, (guint) sp->dof_b, (guint) sp->dof_a, -dt * dMa);
      acc_K (a, (guint) sp->dof_b, (guint) sp->dof_b, dt * dMa);
    }
}

/* ---------------------------------------------------------- point loads */

/* Point load at s_p: adds psi_v(s_p) . f_hat and psi_omega(s_p) l (physics.md
 * section 4); f_hat = Lambda(theta(s_p))^T F for a dead load. */
static double
point_load (FxSystem *sys, const FxPointLoad *pl, Acc *a)
{
  const FxLinkSys *l = &sys->links[pl->link];
  const double dt = a->dt, s = profile_at (sys, pl->profile, sys->t_mid);
  double power = 0.0;

  for (guint k = 0; k < pl->n_at; k++)
    {
      const FxPointSample *ps = &pl->at[k];
      Shape sv[2], sw;
      double F[2] = { s * pl->force[0], s * pl->force[1] }, f[2], Sf[2];
      double ell = s * pl->moment;

      field_shape (l, F_VX, ps->element, ps->xi, &sv[0]);
      field_shape (l, F_VY, ps->element, ps->xi, &sv[1]);
      field_shape (l, F_W, ps->element, ps->xi, &sw);
      double w_mid = shape_eval (&sw, a->xm);
      double theta = theta_n_at (l, ps->element, ps->xi) + 0.5 * dt * w_mid;
      double cs[2];
      rot (theta, cs);

      if (pl->material)
        f[0] = F[0], f[1] = F[1];
      else
        lam_t (cs, F, f);
      srot (f, Sf);  /* d(Lambda^T F)/dtheta */

      for (guint c = 0; c < 2; c++)
        for (guint i = 0; i < sv[c].n; i++)
          {
            double w = ps->weight * sv[c].w[i];
            acc_G (a, sv[c].dof[i], dt * w * f[c], fabs (dt * w * f[c]));
            power += w * a->xm[sv[c].dof[i]] * f[c];
            if (!pl->material)
              for (guint kk = 0; kk < sw.n; kk++)
                acc_K (a, sv[c].dof[i], sw.dof[kk], dt * w * Sf[c] * 0.5 * dt * sw.w[kk]);
          }
      for (guint i = 0; i < sw.n; i++)
        {
          double w = ps->weight * sw.w[i];
          acc_G (a, sw.dof[i], dt * w * ell, fabs (dt * w * ell));
          power += w * a->xm[sw.dof[i]] * ell;
        }
    }
  return power;
}

/* ------------------------------------------------------------- residual */

static double
evaluate (FxSystem *sys, const double *x, double dt, double *R, double *mag, FxMatrix *J,
          double *loss)
{
  Acc a = { x, sys->x, sys->x_mid, R, mag, J, dt, 0.0, { NULL, 0, 0, 0, NULL } };
  double power = 0.0;

  sys->dt = dt;
  sys->t_mid = sys->t + 0.5 * dt;
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (!j->driven)
        {
          relative_drives_now (sys, j);
          continue;
        }
      double w = profile_at (sys, j->drive_profile, sys->t_mid) * j->drive[0];
      for (guint k = 0; k < j->ports->len; k++)
        {
          const FxPort *p = &g_array_index (j->ports, FxPort, k);
          sys->links[p->link].omega_drive_now[p->side] = w;
        }
    }
  for (guint i = 0; i < sys->n; i++)
    sys->x_mid[i] = 0.5 * (sys->x[i] + x[i]);
  memset (R, 0, sizeof (double) * sys->n);
  if (mag)
    memset (mag, 0, sizeof (double) * sys->n);
  if (J)
    {
      fx_matrix_zero (J);
      fx_matrix_band_view (J, &a.band);
    }

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      for (guint e = 0; e < l->N; e++)
        {
          element_mass (l, e, &a);
          element_derivatives (l, e, &a);
          element_nonlinear (sys, l, e, &a);
          if (l->damping != 0.0 || l->rotational_damping != 0.0)
            element_damping (l, e, &a);
        }
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->body >= 0)
        power += tjunction_body (sys, j, &a);
      else if (j->slider)
        power += tjunction_slider (sys, j, &a);
      else if (j->inertia_dof >= 0)
        power += tjunction_mass (sys, j, &a);
      else if (j->driven)
        power += junction_driven (sys, j, TRUE, &a);
      else if (!j->ground)
        power += tjunction_free (sys, j, &a);
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (j->inertia_dof >= 0)
        power += rjunction_inertia (sys, j, &a);
      else if (j->driven)
        power += junction_driven (sys, j, FALSE, &a);
      else if (!j->ground)
        power += rjunction_free (sys, j, &a);
    }
  for (guint i = 0; i < sys->point_loads->len; i++)
    power += point_load (sys, &g_array_index (sys->point_loads, FxPointLoad, i), &a);
  for (guint i = 0; i < sys->drags->len; i++)
    power += fx_drag_kernel (sys, &g_array_index (sys->drags, FxDragSys, i), &a);
  for (guint i = 0; i < sys->bodies->len; i++)
    body_kernel (sys, &g_array_index (sys->bodies, FxBodySys, i), &a);
  for (guint i = 0; i < sys->springs->len; i++)
    spring_kernel (&g_array_index (sys->springs, FxSpringSys, i), &a);
  if (loss)
    *loss = a.loss;
  return power;
}

void
fx_system_residual (FxSystem *sys, const double *x, double dt,
                    double *residual, double *mag, FxMatrix *jacobian)
{
  evaluate (sys, x, dt, residual, mag, jacobian, NULL);
}

void
fx_system_flows (FxSystem *sys, const double *x, double dt, double *supplied, double *dissipated)
{
  g_autofree double *R = g_new (double, sys->n);
  double loss = 0.0;
  *supplied = dt * evaluate (sys, x, dt, R, NULL, NULL, &loss);
  *dissipated = dt * loss;
}

/* The Newton matrix: its pattern is whatever one assembly pass touches. */
FxMatrix *
fx_system_new_jacobian (FxSystem *sys, FxMatrixKind kind, GError **error)
{
  g_autoptr (FxMatrix) J = fx_matrix_new (sys->n, kind);
  g_autofree double *R = g_new (double, MAX (sys->n, 1));

  evaluate (sys, sys->x, 1.0, R, NULL, J, NULL);
  if (!fx_matrix_analyze (J, error))
    return NULL;
  return g_steal_pointer (&J);
}

/* ------------------------------------------------------------ energies */

static void node_position (const FxLinkSys *l, const double *x, guint i, double p[2]);

static double
field_energy (const FxLinkSys *l, int f, const double *x)
{
  double mu = field_mass (l, f), e = 0.0;

  if (mu == 0.0)
    return 0.0;
  if (field_is_cg (l, f))
    for (guint el = 0; el < l->N; el++)
      {
        double a = x[field_dof (l, f, el)], b = x[field_dof (l, f, el + 1)];
        e += l->h / 6.0 * (a * a + a * b + b * b);  /* 1/2 [a b] h/6 [2 1; 1 2] [a b]^T */
      }
  else
    for (guint el = 0; el < l->N; el++)
      {
        double a = x[field_dof (l, f, el)];
        e += 0.5 * l->h * a * a;
      }
  return mu * e;
}

/* (1, r): the integral of the position over the link */
static void
link_position_integral (const FxLinkSys *l, double out[2])
{
  out[0] = out[1] = 0.0;
  if (l->T == FX_CAUSAL_F)
    for (guint i = 0; i <= l->N; i++)
      {
        double w = (i == 0 || i == l->N) ? 0.5 * l->h : l->h;
        out[0] += w * l->r[2 * i];
        out[1] += w * l->r[2 * i + 1];
      }
  else
    for (guint e = 0; e < l->N; e++)
      {
        out[0] += l->h * l->r[2 * e];
        out[1] += l->h * l->r[2 * e + 1];
      }
}

FxEnergy
fx_system_energy (const FxSystem *sys)
{
  FxEnergy en = { 0, 0, 0 };

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      double ir[2];
      en.kinetic += field_energy (l, F_VX, sys->x) + field_energy (l, F_VY, sys->x)
                    + field_energy (l, F_W, sys->x);
      en.elastic += field_energy (l, F_NX, sys->x) + field_energy (l, F_NY, sys->x)
                    + field_energy (l, F_M, sys->x);
      link_position_integral (l, ir);
      en.gravity -= l->rhoA * (sys->gravity[0] * ir[0] + sys->gravity[1] * ir[1]);
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->inertia_dof < 0)
        continue;
      const double *v = &sys->x[j->inertia_dof];
      double v2 = j->slider ? v[0] * v[0] : v[0] * v[0] + v[1] * v[1];
      en.kinetic += 0.5 * j->inertia * v2;
      en.gravity -= j->inertia * (sys->gravity[0] * j->pos[0] + sys->gravity[1] * j->pos[1]);
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (j->inertia_dof >= 0)
        en.kinetic += 0.5 * j->inertia * sys->x[j->inertia_dof] * sys->x[j->inertia_dof];
    }
  for (guint i = 0; i < sys->springs->len; i++)
    {
      const FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      en.elastic += 0.5 * sp->k * (sp->phi - sp->rest) * (sp->phi - sp->rest);
    }
  for (guint i = 0; i < sys->bodies->len; i++)
    {
      const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, i);
      const double *v = &sys->x[b->dof];
      en.kinetic += 0.5 * b->m * (v[0] * v[0] + v[1] * v[1]) + 0.5 * b->I * v[2] * v[2];
      en.gravity -= b->m * (sys->gravity[0] * b->c[0] + sys->gravity[1] * b->c[1]);
    }
  en.elastic += fx_drags_energy (sys);
  return en;
}

void
fx_system_momentum (const FxSystem *sys, double p[2], double *angular)
{
  double P[2] = { 0, 0 }, A = 0.0;

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      for (guint e = 0; e < l->N; e++)
        for (guint gp = 0; gp < 2; gp++)
          {
            double xi = gauss_xi[gp], wg = 0.5 * l->h;
            Shape sx, sy, sw;
            field_shape (l, F_VX, e, xi, &sx);
            field_shape (l, F_VY, e, xi, &sy);
            field_shape (l, F_W, e, xi, &sw);
            double vh[2] = { shape_eval (&sx, sys->x), shape_eval (&sy, sys->x) }, v[2], cs[2];
            rot (theta_n_at (l, e, xi), cs);
            lam (cs, vh, v);
            /* position at the Gauss point: interpolate the node positions */
            double a[2], b[2], r[2];
            node_position (l, sys->x, e, a);
            node_position (l, sys->x, e + 1, b);
            r[0] = (1 - xi) * a[0] + xi * b[0];
            r[1] = (1 - xi) * a[1] + xi * b[1];
            P[0] += wg * l->rhoA * v[0];
            P[1] += wg * l->rhoA * v[1];
            A += wg * (l->rhoA * (r[0] * v[1] - r[1] * v[0]) + l->rhoI * shape_eval (&sw, sys->x));
          }
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->inertia_dof < 0)
        continue;
      const double *v = &sys->x[j->inertia_dof];
      P[0] += j->inertia * v[0];
      P[1] += j->inertia * v[1];
      A += j->inertia * (j->pos[0] * v[1] - j->pos[1] * v[0]);
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (j->inertia_dof >= 0)
        A += j->inertia * sys->x[j->inertia_dof];
    }
  for (guint i = 0; i < sys->bodies->len; i++)
    {
      const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, i);
      const double *v = &sys->x[b->dof];
      P[0] += b->m * v[0];
      P[1] += b->m * v[1];
      A += b->m * (b->c[0] * v[1] - b->c[1] * v[0]) + b->I * v[2];
    }
  p[0] = P[0];
  p[1] = P[1];
  if (angular)
    *angular = A;
}

double
fx_system_hamiltonian (const FxSystem *sys)
{
  FxEnergy e = fx_system_energy (sys);
  return e.kinetic + e.elastic + e.gravity;
}

/* --------------------------------------------------------------- commit */

/* Tridiagonal solve of the CG1 mass matrix h/6 [2 1; 1 4 1; ...; 1 2] (Thomas). */
static void
cg1_mass_solve (guint n_nodes, double h, double *b, guint stride)
{
  g_autofree double *c = g_new (double, n_nodes);
  double diag0 = h / 3.0, off = h / 6.0;

  double d = diag0;
  c[0] = off / d;
  b[0] /= d;
  for (guint i = 1; i < n_nodes; i++)
    {
      double di = (i == n_nodes - 1) ? h / 3.0 : 2.0 * h / 3.0;
      double m = di - off * c[i - 1];
      c[i] = off / m;
      b[i * stride] = (b[i * stride] - off * b[(i - 1) * stride]) / m;
    }
  for (guint i = n_nodes - 1; i-- > 0;)
    b[i * stride] -= c[i] * b[(i + 1) * stride];
}

/* (psi_r, r') = (psi_r, Lambda(theta_h) v_h) with the Gauss rule of the
 * dynamics, so that the gravity potential balances the gravity power exactly. */
static void
link_advance_positions (FxLinkSys *l, const double *xm, double dt)
{
  guint n_r = l->T == FX_CAUSAL_F ? l->N + 1 : l->N;
  g_autofree double *b = g_new0 (double, 2 * n_r);

  for (guint e = 0; e < l->N; e++)
    for (guint gp = 0; gp < 2; gp++)
      {
        double xi = gauss_xi[gp], wg = 0.5 * l->h;
        Shape sx, sy, sw;
        field_shape (l, F_VX, e, xi, &sx);
        field_shape (l, F_VY, e, xi, &sy);
        field_shape (l, F_W, e, xi, &sw);
        double v[2] = { shape_eval (&sx, xm), shape_eval (&sy, xm) };
        double theta = theta_n_at (l, e, xi) + 0.5 * dt * shape_eval (&sw, xm);
        double cs[2], Lv[2];
        rot (theta, cs);
        lam (cs, v, Lv);
        if (l->T == FX_CAUSAL_F)
          {
            b[2 * e] += wg * (1.0 - xi) * Lv[0];
            b[2 * e + 1] += wg * (1.0 - xi) * Lv[1];
            b[2 * (e + 1)] += wg * xi * Lv[0];
            b[2 * (e + 1) + 1] += wg * xi * Lv[1];
          }
        else
          {
            b[2 * e] += wg * Lv[0];
            b[2 * e + 1] += wg * Lv[1];
          }
      }

  if (l->T == FX_CAUSAL_F)
    {
      cg1_mass_solve (n_r, l->h, b, 2);
      cg1_mass_solve (n_r, l->h, b + 1, 2);
    }
  else
    for (guint i = 0; i < 2 * n_r; i++)
      b[i] /= l->h;

  for (guint i = 0; i < 2 * n_r; i++)
    l->r[i] += dt * b[i];
}

/* Attachment points ride with their body: r_k = c + Lambda(phi) rho_k. */
static void
body_attachments_place (FxSystem *sys)
{
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->body < 0)
        continue;
      const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, j->body);
      double cs[2], r[2];
      rot (b->phi, cs);
      lam (cs, j->rho, r);
      j->pos[0] = b->c[0] + r[0];
      j->pos[1] = b->c[1] + r[1];
    }
}

void
fx_system_commit (FxSystem *sys, const double *x, double dt)
{
  for (guint i = 0; i < sys->n; i++)
    sys->x_mid[i] = 0.5 * (sys->x[i] + x[i]);

  for (guint li = 0; li < sys->n_links; li++)
    {
      FxLinkSys *l = &sys->links[li];
      guint n_theta = l->R == FX_CAUSAL_F ? l->N + 1 : l->N;

      link_advance_positions (l, sys->x_mid, dt);
      for (guint i = 0; i < n_theta; i++)
        l->theta[i] += dt * sys->x_mid[field_dof (l, F_W, i)];
      if (l->R == FX_CAUSAL_V)
        for (guint side = 0; side < 2; side++)
          {
            if (l->omega_source[side] >= 0)
              l->theta_end[side] += dt * l->omega_sign[side] * sys->x_mid[l->omega_source[side]];
            l->theta_end[side] += dt * l->omega_drive_now[side];
          }
    }
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      {
        FxJunction *j = &g_array_index (arrs[c], FxJunction, i);
        if (j->inertia_dof < 0)
          continue;
        if (j->slider)
          {
            j->pos[0] += dt * j->direction[0] * sys->x_mid[j->inertia_dof];
            j->pos[1] += dt * j->direction[1] * sys->x_mid[j->inertia_dof];
            continue;
          }
        j->pos[0] += dt * sys->x_mid[j->inertia_dof];
        if (c == 0)
          j->pos[1] += dt * sys->x_mid[j->inertia_dof + 1];
      }
  for (guint i = 0; i < sys->bodies->len; i++)
    {
      FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, i);
      b->c[0] += dt * sys->x_mid[b->dof];
      b->c[1] += dt * sys->x_mid[b->dof + 1];
      b->phi += dt * sys->x_mid[b->dof + 2];
    }
  body_attachments_place (sys);
  for (guint i = 0; i < sys->springs->len; i++)
    {
      FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      double rel = sys->x_mid[sp->dof_a] - (sp->dof_b >= 0 ? sys->x_mid[sp->dof_b] : 0.0);
      sp->phi += dt * rel;
    }
  memcpy (sys->x, x, sizeof (double) * sys->n);
  sys->t += dt;
}

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

static void
node_position (const FxLinkSys *l, const double *x, guint i, double p[2])
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

  node_position (l, sys->x, i, p);
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
      if (l->R == FX_CAUSAL_V)
        *moment = sys->x[field_dof (l, F_M, i)];
      else if (i == 0)
        *moment = sys->x[field_dof (l, F_M, 0)];
      else if (i == l->N)
        *moment = sys->x[field_dof (l, F_M, l->N - 1)];
      else
        *moment = 0.5 * (sys->x[field_dof (l, F_M, i - 1)] + sys->x[field_dof (l, F_M, i)]);
    }
}

static void
segment_point (const FxSystem *sys, guint seg, double s_fraction, double *x, double *y)
{
  const FxLinkSys *l = &sys->links[seg];
  double s = CLAMP (s_fraction, 0.0, 1.0) * l->N;
  guint e = (guint) MIN (floor (s), (double) (l->N - 1));
  double xi = s - e, a[2], b[2];

  node_position (l, sys->x, e, a);
  node_position (l, sys->x, e + 1, b);
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
            node_position (la, sys->x, pa->side ? la->N : 0, ra);
            node_position (lb, sys->x, pb->side ? lb->N : 0, rb);
            gap = MAX (gap, hypot (ra[0] - rb[0], ra[1] - rb[1]));
          }
      if (j->inertia_dof >= 0)
        for (guint a = 0; a < j->ports->len; a++)
          {
            const FxPort *pa = &g_array_index (j->ports, FxPort, a);
            const FxLinkSys *la = &sys->links[pa->link];
            double ra[2];
            node_position (la, sys->x, pa->side ? la->N : 0, ra);
            gap = MAX (gap, hypot (ra[0] - j->pos[0], ra[1] - j->pos[1]));
          }
    }
  return gap;
}

/* ------------------------------------------------------------ building */

static void
link_init (FxSystem *sys, FxLinkSys *l, const FxLink *ml, const FxSegmentAssignment *as)
{
  const FxModel *model = sys->built;
  const FxJoint *a = fx_model_joint (model, fx_model_find_joint (model, ml->from));
  const FxJoint *b = fx_model_joint (model, fx_model_find_joint (model, ml->to));
  double dx = b->at[0] - a->at[0], dy = b->at[1] - a->at[1];

  l->id = ml->id;
  l->N = ml->elements;
  l->L = hypot (dx, dy);
  l->h = l->L / l->N;
  l->rhoA = ml->section.rhoA;
  l->rhoI = ml->section.rhoI;
  if (ml->rigid)
    l->Ct[0] = l->Ct[1] = l->Cr = 0.0;
  else
    {
      l->Ct[0] = 1.0 / ml->section.EA;
      l->Ct[1] = 1.0 / ml->section.GA;
      l->Cr = 1.0 / ml->section.EI;
    }
  l->T = as->T;
  l->R = as->R;
  l->damping = ml->damping;
  l->rotational_damping = ml->rotational_damping;
  l->angle0 = atan2 (dy, dx);
  l->origin[0] = a->at[0];
  l->origin[1] = a->at[1];

  guint n_theta = l->R == FX_CAUSAL_F ? l->N + 1 : l->N;
  guint n_r = l->T == FX_CAUSAL_F ? l->N + 1 : l->N;
  l->theta = g_new (double, n_theta);
  for (guint i = 0; i < n_theta; i++)
    l->theta[i] = l->angle0;
  l->theta_end[0] = l->theta_end[1] = l->angle0;
  l->r = g_new (double, 2 * n_r);
  for (guint i = 0; i < n_r; i++)
    {
      double s = l->T == FX_CAUSAL_F ? i * l->h : (i + 0.5) * l->h;
      l->r[2 * i] = a->at[0] + s * cos (l->angle0);
      l->r[2 * i + 1] = a->at[1] + s * sin (l->angle0);
    }
  l->omega_source[0] = l->omega_source[1] = -1;
  l->omega_sign[0] = l->omega_sign[1] = 0.0;
  link_coupling (l);
}

/* Initial rigid motion about the link centre: v(s) = V + w J (r(s) - c). */
static void
link_initial_motion (FxSystem *sys, const FxLinkSys *l, const FxLink *ml)
{
  double V[2] = { ml->initial_velocity[0], ml->initial_velocity[1] }, w = ml->initial_omega;
  double cs[2];
  rot (l->angle0, cs);

  for (guint i = 0; i <= l->N; i++)
    {
      gboolean cg = field_is_cg (l, F_VX);
      if (!cg && i == l->N)
        break;
      double s = cg ? i * l->h : (i + 0.5) * l->h;
      double rel[2] = { (s - 0.5 * l->L) * cs[0], (s - 0.5 * l->L) * cs[1] }, Jr[2], v[2], vh[2];
      jrot (rel, Jr);
      v[0] = V[0] + w * Jr[0];
      v[1] = V[1] + w * Jr[1];
      lam_t (cs, v, vh);
      sys->x[field_dof (l, F_VX, i)] = vh[0];
      sys->x[field_dof (l, F_VY, i)] = vh[1];
    }
  guint n_w = field_is_cg (l, F_W) ? l->N + 1 : l->N;
  for (guint i = 0; i < n_w; i++)
    sys->x[field_dof (l, F_W, i)] = w;
}

static FxPort
make_port (const FxSystem *sys, guint link, guint side, FxChannel channel)
{
  const FxLinkSys *l = &sys->links[link];
  FxCausality c = channel == FX_CHANNEL_TRANSLATION ? l->T : l->R;
  guint node = side == 0 ? 0 : l->N;
  FxPort p = { link, side, 0, 1.0, 0.0, NULL };

  p.dof = channel == FX_CHANNEL_TRANSLATION ? field_dof (l, c == FX_CAUSAL_F ? F_VX : F_NX, node)
                                            : field_dof (l, c == FX_CAUSAL_F ? F_W : F_M, node);
  /* V-causal outputs are -n(0), n(L): the force applied on the link */
  p.sigma = (c == FX_CAUSAL_V && side == 0) ? -1.0 : 1.0;
  return p;
}

static void
junction_clear (gpointer data)
{
  FxJunction *j = data;
  g_array_unref (j->ports);
  g_array_unref (j->loads);
}

static FxJunction *
junction_new (GArray *arr, guint joint, gboolean ground)
{
  FxJunction j = { joint, ground, g_array_new (FALSE, FALSE, sizeof (FxPort)), -1,
                   g_array_new (FALSE, FALSE, sizeof (FxJointLoad)), -1, 0.0, { 0, 0 }, 0,
                   FALSE, { 0, 0 }, FALSE, { 0, 0 }, NULL, -1, { 0, 0 } };
  g_array_append_val (arr, j);
  return &g_array_index (arr, FxJunction, arr->len - 1);
}

static int
junction_member (const FxJunction *j, guint link)
{
  for (guint k = 0; k < j->ports->len; k++)
    if (g_array_index (j->ports, FxPort, k).link == link)
      return (int) k;
  return -1;
}

/* The rotation junction at joint jt (from index `first`) holding link l's end. */
static FxJunction *
rjunction_of (FxSystem *sys, guint first, guint l, guint *port)
{
  for (guint i = first; i < sys->rjunctions->len; i++)
    {
      FxJunction *rj = &g_array_index (sys->rjunctions, FxJunction, i);
      int k = junction_member (rj, l);
      if (k >= 0)
        {
          *port = (guint) k;
          return rj;
        }
    }
  return NULL;
}

/* The rotation junction (from index `first`) holding the partner of link
 * `ml` across the speed motor `m` between links, or -1. */
static int
rjunction_with_partner (const FxSystem *sys, guint first, const FxModel *model,
                        const FxMotor *m, const FxLink *ml)
{
  int partner = fx_model_find_link (model, g_strcmp0 (m->link, ml->id) == 0 ? m->link_b : m->link);
  for (guint i = first; i < sys->rjunctions->len; i++)
    if (junction_member (&g_array_index (sys->rjunctions, FxJunction, i), (guint) partner) >= 0)
      return (int) i;
  return -1;
}

/* Motors and torsional springs at one joint (physics.md sections 6-7). */
static gboolean
build_joint_drives (FxSystem *sys, guint jt, guint first_r, GError **error)
{
  const FxModel *model = sys->built;
  const FxJoint *joint = fx_model_joint (model, jt);

  for (guint i = 0; i < fx_model_n_motors (model); i++)
    {
      const FxMotor *mo = fx_model_motor (model, i);
      if (g_strcmp0 (mo->joint, joint->id) != 0)
        continue;
      int la = fx_model_find_link (model, mo->link);
      int lb = mo->link_b ? fx_model_find_link (model, mo->link_b) : -1;
      guint pa = 0, pb = 0;
      FxJunction *ja = la >= 0 ? rjunction_of (sys, first_r, (guint) la, &pa) : NULL;
      FxJunction *jb = lb >= 0 ? rjunction_of (sys, first_r, (guint) lb, &pb) : NULL;
      if (ja == NULL || (mo->link_b && jb == NULL))
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("motors[%u]: its links must end at joint \"%s\""), i, joint->id);
          return FALSE;
        }
      if (mo->type == FX_MOTOR_TORQUE)
        {
          FxJointLoad on_a = { { 0, 0 }, -1, mo->value, &mo->profile };
          FxJointLoad on_b = { { 0, 0 }, -1, -mo->value, &mo->profile };
          g_array_append_val (ja->loads, on_a);
          if (jb)
            g_array_append_val (jb->loads, on_b);
          continue;
        }
      if (mo->link_b)
        {
          /* between links: both ends were put in one junction, driven apart */
          if (ja != jb || ja->ground || ja->inertia_dof >= 0)
            {
              g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                           _("motors[%u]: a speed motor between links \"%s\" and \"%s\" needs "
                           "them to turn on their own at pin joint \"%s\" (no clamp, no "
                           "rotary inertia there)"), i, mo->link, mo->link_b, joint->id);
              return FALSE;
            }
          continue;
        }
      /* a speed motor against the ground: its junction was built driven */
      g_assert (ja->driven);
    }

  for (guint i = 0; i < fx_model_n_springs (model); i++)
    {
      const FxSpring *sp = fx_model_spring (model, i);
      if (g_strcmp0 (sp->joint, joint->id) != 0)
        continue;
      int la = fx_model_find_link (model, sp->link);
      int lb = sp->link_b ? fx_model_find_link (model, sp->link_b) : -1;
      guint pa = 0, pb = 0;
      FxJunction *ja = la >= 0 ? rjunction_of (sys, first_r, (guint) la, &pa) : NULL;
      FxJunction *jb = lb >= 0 ? rjunction_of (sys, first_r, (guint) lb, &pb) : NULL;
      if (ja == NULL || (sp->link_b && jb == NULL) || ja == jb)
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("springs[%u]: it needs the ends of two links turning on their own at "
                       "pin joint \"%s\" (or one, and a pin support)"), i, joint->id);
          return FALSE;
        }
      const FxPort *qa = &g_array_index (ja->ports, FxPort, pa);
      const FxPort *qb = jb ? &g_array_index (jb->ports, FxPort, pb) : NULL;
      if (sys->links[qa->link].R != FX_CAUSAL_F || (qb && sys->links[qb->link].R != FX_CAUSAL_F))
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("springs[%u]: the links at joint \"%s\" must take moments there "
                       "(free-free or pinned formulation)"), i, joint->id);
          return FALSE;
        }
      FxSpringSys ss = { (int) qa->dof, qb ? (int) qb->dof : -1, sp->stiffness, sp->damping,
                         sp->rest_angle, 0.0 };
      g_array_append_val (sys->springs, ss);
    }
  return TRUE;
}

/* Build the junctions of both channels at one joint, with its loads. */
static gboolean
build_joint (FxSystem *sys, guint jt, GError **error)
{
  const FxModel *model = sys->built;
  const FxJoint *joint = fx_model_joint (model, jt);
  gboolean tground = fx_support_grounds (joint->support, FX_CHANNEL_TRANSLATION);
  gboolean rground = fx_support_grounds (joint->support, FX_CHANNEL_ROTATION);
  gboolean split_pin = !rground && joint->kind == FX_JOINT_PIN;
  guint first_r = sys->rjunctions->len;
  FxJunction *tj;
  int shared_r = -1;

  guint n_members = 0;
  for (guint l = 0; l < sys->n_links; l++)
    {
      const FxLink *ml = fx_model_link (model, l);
      n_members += (g_strcmp0 (ml->from, joint->id) == 0) + (g_strcmp0 (ml->to, joint->id) == 0);
    }
  gboolean rinertia = !rground && joint->inertia > 0.0;
  if (rinertia && joint->kind == FX_JOINT_PIN && n_members > 1)
    {
      g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                   _("joint \"%s\": a rotary inertia at a pin between several links would "
                   "not know which link it turns with; make the joint a weld"), joint->id);
      return FALSE;
    }
  /* a welded attachment of a rigid body turns with it */
  int body = fx_model_find_body_of_joint (model, joint->id);
  gboolean rbody = body >= 0 && joint->kind == FX_JOINT_WELD;
  if (rinertia || rbody)
    split_pin = FALSE;

  tj = junction_new (sys->tjunctions, jt, tground);
  if (body >= 0)
    {
      const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, body);
      for (guint i = 0; i < model->loads->len; i++)
        {
          const FxLoad *ld = fx_model_load (model, i);
          if (g_strcmp0 (ld->joint, joint->id) == 0 && ld->frame == FX_FRAME_MATERIAL)
            {
              g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                           _("loads[%u]: a load in a link's frame at joint \"%s\" of body \"%s\" "
                           "is not supported; give it in the spatial frame"), i, joint->id,
                           fx_model_body (model, (guint) body)->id);
              return FALSE;
            }
        }
      tj->body = body;
      tj->rho[0] = joint->at[0] - b->c[0];
      tj->rho[1] = joint->at[1] - b->c[1];
      tj->pos[0] = joint->at[0];
      tj->pos[1] = joint->at[1];
    }
  else if (!tground && joint->slider)
    {
      double n = hypot (joint->slider_direction[0], joint->slider_direction[1]);
      tj->inertia_dof = (int) sys->joint_tdof[jt];
      tj->inertia = joint->slider_mass;
      tj->slider = TRUE;
      tj->direction[0] = joint->slider_direction[0] / n;
      tj->direction[1] = joint->slider_direction[1] / n;
      tj->pos[0] = joint->at[0];
      tj->pos[1] = joint->at[1];
    }
  else if (!tground && joint->mass > 0.0)
    {
      tj->inertia_dof = (int) sys->joint_tdof[jt];
      tj->inertia = joint->mass;
      tj->pos[0] = joint->at[0];
      tj->pos[1] = joint->at[1];
    }
  else if (tground && joint->driven)
    {
      tj->driven = TRUE;
      tj->drive[0] = joint->drive_velocity[0];
      tj->drive[1] = joint->drive_velocity[1];
      tj->drive_profile = &joint->drive_profile;
    }
  for (guint l = 0; l < sys->n_links; l++)
    {
      const FxLink *ml = fx_model_link (model, l);
      for (guint side = 0; side < 2; side++)
        {
          if (g_strcmp0 (side == 0 ? ml->from : ml->to, joint->id) != 0)
            continue;
          FxPort tp = make_port (sys, l, side, FX_CHANNEL_TRANSLATION);
          FxPort rp = make_port (sys, l, side, FX_CHANNEL_ROTATION);
          tj = &g_array_index (sys->tjunctions, FxJunction, sys->tjunctions->len - 1);
          g_array_append_val (tj->ports, tp);
          if (sys->links[l].T == FX_CAUSAL_F)
            tj->f = tj->ports->len - 1;

          FxJunction *rj;
          const FxMotor *between = split_pin ? fx_speed_motor_between (model, joint->id, ml->id) : NULL;
          int partner = between ? rjunction_with_partner (sys, first_r, model, between, ml) : -1;
          if (partner >= 0)
            rj = &g_array_index (sys->rjunctions, FxJunction, partner);
          else if (split_pin || shared_r < 0)
            {
              const FxMotor *speed = split_pin ? fx_speed_motor_to_ground (model, joint->id, ml->id) : NULL;
              rj = junction_new (sys->rjunctions, jt, rground || speed != NULL);
              shared_r = sys->rjunctions->len - 1;
              if (speed)
                {
                  rj->driven = TRUE;
                  rj->drive[0] = speed->value;
                  rj->drive_profile = &speed->profile;
                }
              if (rinertia)
                {
                  rj->inertia_dof = (int) sys->joint_rdof[jt];
                  rj->inertia = joint->inertia;
                }
              else if (rbody)
                {
                  /* the body's omega; its inertia is in body_kernel */
                  rj->inertia_dof = (int) g_array_index (sys->bodies, FxBodySys, body).dof + 2;
                  rj->inertia = 0.0;
                }
            }
          else
            rj = &g_array_index (sys->rjunctions, FxJunction, shared_r);
          if (between && g_strcmp0 (between->link, ml->id) == 0)
            {
              rp.drive = between->value;
              rp.drive_profile = &between->profile;
            }
          g_array_append_val (rj->ports, rp);
          if (sys->links[l].R == FX_CAUSAL_F)
            rj->f = rj->ports->len - 1;
        }
    }

  /* R = V ends take Omega from their rotation junction's F member */
  for (guint i = first_r; i < sys->rjunctions->len; i++)
    {
      FxJunction *rj = &g_array_index (sys->rjunctions, FxJunction, i);
      for (guint k = 0; k < rj->ports->len; k++)
        {
          FxPort *p = &g_array_index (rj->ports, FxPort, k);
          FxLinkSys *l = &sys->links[p->link];
          if (l->R != FX_CAUSAL_V || rj->ground)
            continue;
          if (rj->inertia_dof >= 0)
            {
              l->omega_source[p->side] = rj->inertia_dof;
              l->omega_sign[p->side] = 1.0;
              continue;
            }
          const FxPort *pf = &g_array_index (rj->ports, FxPort, rj->f);
          l->omega_source[p->side] = (int) pf->dof;
          l->omega_sign[p->side] = pf->sigma;
        }
    }

  /* Loads at this joint */
  tj = &g_array_index (sys->tjunctions, FxJunction, sys->tjunctions->len - 1);
  for (guint i = 0; i < model->loads->len; i++)
    {
      const FxLoad *ld = fx_model_load (model, i);
      if (ld->joint == NULL || g_strcmp0 (ld->joint, joint->id) != 0)
        continue;
      FxJointLoad jl = { { ld->force[0], ld->force[1] }, -1, ld->moment, &ld->profile };
      if (ld->frame == FX_FRAME_MATERIAL)
        {
          int l = fx_model_find_link (model, ld->frame_link);
          jl.frame_member = l >= 0 ? junction_member (tj, (guint) l) : -1;
          if (jl.frame_member < 0)
            {
              g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                           _("loads[%u].frame_link: link \"%s\" does not end at joint \"%s\""),
                           i, ld->frame_link ? ld->frame_link : "", joint->id);
              return FALSE;
            }
        }
      if (!tj->ground && (ld->force[0] != 0.0 || ld->force[1] != 0.0))
        g_array_append_val (tj->loads, jl);
      /* a moment at a pin goes to the first member end there */
      if (first_r < sys->rjunctions->len && ld->moment != 0.0)
        {
          FxJunction *rj = &g_array_index (sys->rjunctions, FxJunction, first_r);
          if (!rj->ground)
            g_array_append_val (rj->loads, jl);
        }
    }
  if (!build_joint_drives (sys, jt, first_r, error))
    return FALSE;
  return TRUE;
}

static void
build_point_loads (FxSystem *sys)
{
  const FxModel *model = sys->built;

  for (guint i = 0; i < model->loads->len; i++)
    {
      const FxLoad *ld = fx_model_load (model, i);
      if (ld->link == NULL)
        continue;
      int l = fx_model_find_link (model, ld->link);
      if (l < 0)
        continue;
      FxPointLoad pl = { (guint) l, { { 0 } }, 0, { ld->force[0], ld->force[1] },
                         ld->frame == FX_FRAME_MATERIAL, ld->moment, &ld->profile };
      pl.n_at = point_samples (&sys->links[l], ld->s, pl.at);
      g_array_append_val (sys->point_loads, pl);
    }
}

static gboolean
check_single_link_limits (FxSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (!j->ground && j->f < 0 && j->inertia_dof < 0 && j->body < 0)
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY,
                       _("joint \"%s\": no force-causal link takes its force"),
                       fx_model_joint (sys->built, j->joint)->id);
          return FALSE;
        }
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (!j->ground && j->f < 0 && j->inertia_dof < 0)
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY,
                       _("joint \"%s\": no moment-causal link takes its moment"),
                       fx_model_joint (sys->built, j->joint)->id);
          return FALSE;
        }
    }
  return TRUE;
}

FxSystem *
fx_system_new (const FxModel *model, GError **error)
{
  g_autoptr (FxSystem) sys = g_new0 (FxSystem, 1);

  if (!fx_model_validate (model, error))
    return NULL;

  sys->model = fx_model_copy (model);
  sys->n_user_links = model->links->len;
  sys->tjunctions = g_array_new (FALSE, FALSE, sizeof (FxJunction));
  sys->rjunctions = g_array_new (FALSE, FALSE, sizeof (FxJunction));
  g_array_set_clear_func (sys->tjunctions, junction_clear);
  g_array_set_clear_func (sys->rjunctions, junction_clear);
  sys->point_loads = g_array_new (FALSE, FALSE, sizeof (FxPointLoad));
  sys->springs = g_array_new (FALSE, FALSE, sizeof (FxSpringSys));
  sys->gravity[0] = model->gravity[0];
  sys->gravity[1] = model->gravity[1];

  sys->assignment = fx_assignment_compute (sys->model);
  if (!fx_assignment_ok (sys->assignment))
    {
      g_autoptr (GString) msg = g_string_new (_("no valid formulation for this mechanism:"));
      for (guint i = 0; i < sys->assignment->conflicts->len; i++)
        g_string_append_printf (msg, "\n  %s", (char *) g_ptr_array_index (sys->assignment->conflicts, i));
      g_set_error_literal (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY, msg->str);
      return NULL;
    }

  /* the engine builds the expanded model: split links become two segments */
  sys->built = fx_assignment_expand (sys->assignment, sys->model);
  /* noise: sample 0 of the model's seed until fx_system_set_noise says otherwise */
  sys->noise = fx_noise_new_for_model (sys->built, model->seed, 0);
  sys->noise_pieces = 1;
  sys->n_model_links = sys->model->links->len;
  sys->seg_first = g_new0 (guint, MAX (sys->n_model_links, 1));
  sys->seg_count = g_new0 (guint, MAX (sys->n_model_links, 1));
  sys->n_links = sys->built->links->len;
  sys->links = g_new0 (FxLinkSys, MAX (sys->n_links, 1));
  /* inertia unknowns are numbered right after the first segment that ends
   * at their joint, so the band stays narrow */
  guint n_joints = sys->built->joints->len;
  g_autofree int *owner = g_new (int, MAX (n_joints, 1));
  sys->joint_tdof = g_new0 (guint, MAX (n_joints, 1));
  sys->joint_rdof = g_new0 (guint, MAX (n_joints, 1));
  for (guint jt = 0; jt < n_joints; jt++)
    {
      const char *id = fx_model_joint (sys->built, jt)->id;
      owner[jt] = -1;
      for (guint l = 0; l < sys->n_links && owner[jt] < 0; l++)
        {
          const FxLink *ml = fx_model_link (sys->built, l);
          if (g_strcmp0 (ml->from, id) == 0 || g_strcmp0 (ml->to, id) == 0)
            owner[jt] = (int) l;
        }
    }
  sys->bodies = g_array_new (FALSE, TRUE, sizeof (FxBodySys));
  g_autofree int *body_owner = g_new (int, MAX (fx_model_n_bodies (sys->built), 1));
  for (guint b = 0; b < fx_model_n_bodies (sys->built); b++)
    {
      const FxBody *mb = fx_model_body (sys->built, b);
      FxBodySys bs = { 0, mb->mass, mb->inertia, { 0, 0 }, 0.0 };
      fx_body_center (sys->built, mb, bs.c);
      g_array_append_val (sys->bodies, bs);
      body_owner[b] = -1;
      for (guint k = 0; k < mb->n_joints; k++)
        {
          int jt = fx_model_find_joint (sys->built, mb->joints[k]);
          if (jt >= 0 && owner[jt] >= 0 && (body_owner[b] < 0 || owner[jt] < body_owner[b]))
            body_owner[b] = owner[jt];
        }
    }
  guint offset = 0, seg = 0;
  for (guint l = 0; l < sys->n_model_links; l++)
    {
      const FxLinkAssignment *la = &sys->assignment->links[l];
      sys->seg_first[l] = seg;
      sys->seg_count[l] = la->n_segments;
      for (guint k = 0; k < la->n_segments; k++, seg++)
        {
          FxLinkSys *ls = &sys->links[seg];
          link_init (sys, ls, fx_model_link (sys->built, seg), &la->segment[k]);
          ls->model_index = l;
          ls->offset = offset;
          offset += FX_SLOT * (2 * ls->N + 1);
          for (guint jt = 0; jt < n_joints; jt++)
            {
              const FxJoint *joint = fx_model_joint (sys->built, jt);
              if (owner[jt] != (int) seg)
                continue;
              if (joint->slider && joint->support == FX_SUPPORT_NONE)
                {
                  sys->joint_tdof[jt] = offset;
                  offset += 1;
                }
              else if (joint->mass > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_TRANSLATION))
                {
                  sys->joint_tdof[jt] = offset;
                  offset += 2;
                }
              if (joint->inertia > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_ROTATION))
                {
                  sys->joint_rdof[jt] = offset;
                  offset += 1;
                }
            }
          /* a body's unknowns follow the first segment at any of its joints */
          for (guint b = 0; b < sys->bodies->len; b++)
            if (body_owner[b] == (int) seg)
              {
                g_array_index (sys->bodies, FxBodySys, b).dof = offset;
                offset += 3;
              }
        }
    }
  /* a lumped mass no link reaches still falls: give it unknowns too */
  for (guint jt = 0; jt < n_joints; jt++)
    {
      const FxJoint *joint = fx_model_joint (sys->built, jt);
      if (owner[jt] >= 0 || fx_model_find_body_of_joint (sys->built, joint->id) >= 0)
        continue;
      if (joint->slider && joint->support == FX_SUPPORT_NONE)
        sys->joint_tdof[jt] = offset, offset += 1;
      else if (joint->mass > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_TRANSLATION))
        sys->joint_tdof[jt] = offset, offset += 2;
      if (joint->inertia > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_ROTATION))
        sys->joint_rdof[jt] = offset, offset += 1;
    }
  /* a body no link reaches still moves (ballistically) */
  for (guint b = 0; b < sys->bodies->len; b++)
    if (body_owner[b] < 0)
      {
        g_array_index (sys->bodies, FxBodySys, b).dof = offset;
        offset += 3;
      }
  fx_drags_build (sys, &offset);
  sys->n = offset;
  sys->x = g_new0 (double, MAX (sys->n, 1));
  sys->x_mid = g_new0 (double, MAX (sys->n, 1));

  for (guint jt = 0; jt < sys->built->joints->len; jt++)
    if (!build_joint (sys, jt, error))
      return NULL;
  if (!check_single_link_limits (sys, error))
    return NULL;
  build_point_loads (sys);

  for (guint l = 0; l < sys->n_links; l++)
    link_initial_motion (sys, &sys->links[l], fx_model_link (sys->built, l));
  fx_drags_start (sys);

  return g_steal_pointer (&sys);
}

void
fx_system_free (FxSystem *sys)
{
  if (sys == NULL)
    return;
  for (guint l = 0; l < sys->n_links && sys->links; l++)
    {
      g_free (sys->links[l].theta);
      g_free (sys->links[l].r);
    }
  g_free (sys->links);
  if (sys->tjunctions)
    g_array_unref (sys->tjunctions);
  if (sys->rjunctions)
    g_array_unref (sys->rjunctions);
  if (sys->point_loads)
    g_array_unref (sys->point_loads);
  if (sys->springs)
    g_array_unref (sys->springs);
  if (sys->bodies)
    g_array_unref (sys->bodies);
  fx_drags_free (sys);
  fx_assignment_free (sys->assignment);
  if (sys->model)
    fx_model_free (sys->model);
  if (sys->built)
    fx_model_free (sys->built);
  fx_noise_free (sys->noise);
  g_free (sys->seg_first);
  g_free (sys->seg_count);
  g_free (sys->joint_tdof);
  g_free (sys->joint_rdof);
  g_free (sys->x);
  g_free (sys->x_mid);
  g_free (sys);
}

/* ------------------------------------------------------------ accessors */

const FxModel *fx_system_model (const FxSystem *s) { return s->model; }
const FxAssignment *fx_system_assignment (const FxSystem *s) { return s->assignment; }
guint fx_system_n_unknowns (const FxSystem *s) { return s->n; }
double fx_system_time (const FxSystem *s) { return s->t; }
double *fx_system_state (FxSystem *s) { return s->x; }
guint fx_system_n_links (const FxSystem *s) { return s->n_user_links; }
FxCausality fx_system_link_T (const FxSystem *s, guint l) { return s->links[s->seg_first[l]].T; }
FxCausality fx_system_link_R (const FxSystem *s, guint l) { return s->links[s->seg_first[l]].R; }

guint
fx_system_link_elements (const FxSystem *s, guint l)
{
  guint n = 0;
  for (guint k = 0; k < s->seg_count[l]; k++)
    n += s->links[s->seg_first[l] + k].N;
  return n;
}

guint
fx_system_blocks (const FxSystem *sys, guint *block_of, guint **kind_out, double **length_out)
{
  GArray *kind = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *length = g_array_new (FALSE, FALSE, sizeof (double));
  guint nb = 0;

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      /* blocks: v, omega, n, m of this link */
      for (guint slot = 0; slot <= 2 * l->N; slot++)
        {
          gboolean node = slot % 2 == 0;
          guint base = l->offset + FX_SLOT * slot;
          gboolean v_here = node == (l->T == FX_CAUSAL_F);
          gboolean w_here = node == (l->R == FX_CAUSAL_F);
          block_of[base] = block_of[base + 1] = nb + (v_here ? 0 : 2);
          block_of[base + 2] = nb + (w_here ? 1 : 3);
        }
      for (guint k = 0; k < 4; k++)
        {
          g_array_append_val (kind, k);
          g_array_append_val (length, l->L);
        }
      nb += 4;
    }
  /* inertias: one block each, a velocity or an angular velocity */
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      {
        const FxJunction *j = &g_array_index (arrs[c], FxJunction, i);
        if (j->inertia_dof < 0)
          continue;
        block_of[j->inertia_dof] = nb;
        if (c == 0 && !j->slider)
          block_of[j->inertia_dof + 1] = nb;
        guint k = c == 0 ? 0 : 1;
        double L = sys->n_links ? sys->links[0].L : 1.0;
        g_array_append_val (kind, k);
        g_array_append_val (length, L);
        nb++;
      }
  /* bodies: v_c one velocity block, omega one angular-velocity block; the
   * body's size makes omega comparable to velocities */
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      const FxBodySys *bs = &g_array_index (sys->bodies, FxBodySys, b);
      double L = bs->m > 0 && bs->I > 0 ? sqrt (bs->I / bs->m) : (sys->n_links ? sys->links[0].L : 1.0);
      for (guint k = 0; k < 2; k++)
        {
          block_of[bs->dof] = nb;
          if (k == 0)
            block_of[bs->dof + 1] = nb;
          else
            block_of[bs->dof + 2] = nb;
          g_array_append_val (kind, k);
          g_array_append_val (length, L);
          nb++;
        }
    }
  /* drags: the elongation, a length (kind 4) */
  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      guint k = 4;
      double L = sys->links[d->seg].L;
      block_of[d->dof] = block_of[d->dof + 1] = nb++;
      g_array_append_val (kind, k);
      g_array_append_val (length, L);
    }
  *kind_out = (guint *) g_array_free (kind, FALSE);
  *length_out = (double *) g_array_free (length, FALSE);
  return nb;
}

/* ------------------------------------------------------------ snapshots */

struct _FxSystemSnapshot {
  guint n_links;
  GArray *junction_pos;  /* double: pos[0], pos[1] per junction, both channels */
  GArray *spring_phi;    /* double per spring */
  GArray *bodies;        /* FxBodySys */
  double t;
  double *x;
  double **theta, **r;
  double *theta_end;  /* 2 per link */
};

FxSystemSnapshot *
fx_system_snapshot (const FxSystem *sys)
{
  FxSystemSnapshot *s = g_new0 (FxSystemSnapshot, 1);

  s->n_links = sys->n_links;
  s->junction_pos = g_array_new (FALSE, FALSE, sizeof (double));
  s->spring_phi = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < sys->springs->len; i++)
    g_array_append_val (s->spring_phi, g_array_index (sys->springs, FxSpringSys, i).phi);
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      g_array_append_vals (s->junction_pos, g_array_index (arrs[c], FxJunction, i).pos, 2);
  s->bodies = g_array_copy (sys->bodies);
  s->t = sys->t;
  s->x = g_memdup2 (sys->x, sizeof (double) * MAX (sys->n, 1));
  s->theta = g_new0 (double *, MAX (sys->n_links, 1));
  s->r = g_new0 (double *, MAX (sys->n_links, 1));
  s->theta_end = g_new0 (double, 2 * MAX (sys->n_links, 1));
  for (guint l = 0; l < sys->n_links; l++)
    {
      const FxLinkSys *ls = &sys->links[l];
      guint n_theta = ls->R == FX_CAUSAL_F ? ls->N + 1 : ls->N;
      guint n_r = ls->T == FX_CAUSAL_F ? ls->N + 1 : ls->N;
      s->theta[l] = g_memdup2 (ls->theta, sizeof (double) * n_theta);
      s->r[l] = g_memdup2 (ls->r, sizeof (double) * 2 * n_r);
      s->theta_end[2 * l] = ls->theta_end[0];
      s->theta_end[2 * l + 1] = ls->theta_end[1];
    }
  return s;
}

void
fx_system_restore (FxSystem *sys, const FxSystemSnapshot *s)
{
  sys->t = s->t;
  memcpy (sys->x, s->x, sizeof (double) * sys->n);
  for (guint i = 0; i < sys->bodies->len; i++)
    g_array_index (sys->bodies, FxBodySys, i) = g_array_index (s->bodies, FxBodySys, i);
  for (guint i = 0; i < sys->springs->len; i++)
    g_array_index (sys->springs, FxSpringSys, i).phi = g_array_index (s->spring_phi, double, i);
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  guint q = 0;
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++, q += 2)
      memcpy (g_array_index (arrs[c], FxJunction, i).pos, &g_array_index (s->junction_pos, double, q),
              2 * sizeof (double));
  for (guint l = 0; l < sys->n_links; l++)
    {
      FxLinkSys *ls = &sys->links[l];
      guint n_theta = ls->R == FX_CAUSAL_F ? ls->N + 1 : ls->N;
      guint n_r = ls->T == FX_CAUSAL_F ? ls->N + 1 : ls->N;
      memcpy (ls->theta, s->theta[l], sizeof (double) * n_theta);
      memcpy (ls->r, s->r[l], sizeof (double) * 2 * n_r);
      ls->theta_end[0] = s->theta_end[2 * l];
      ls->theta_end[1] = s->theta_end[2 * l + 1];
    }
}

void
fx_system_snapshot_free (FxSystemSnapshot *s)
{
  if (s == NULL)
    return;
  for (guint l = 0; l < s->n_links; l++)
    {
      g_free (s->theta[l]);
      g_free (s->r[l]);
    }
  g_array_unref (s->junction_pos);
  g_array_unref (s->spring_phi);
  g_array_unref (s->bodies);
  g_free (s->x);
  g_free (s->theta_end);
  g_free (s->theta);
  g_free (s->r);
  g_free (s);
}
