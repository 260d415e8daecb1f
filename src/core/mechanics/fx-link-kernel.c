/* fx-link-kernel.c: the element kernel of a link, the four formulations of
 * docs/theory.md as two causality bits (T, R).
 *
 * Per link the co-energy variables are v_hat (2), omega, n_hat (2), m; which
 * of them is CG1 and which DG0 is set by T and R. Every element integral uses
 * the same 2-point Gauss rule for a term and its transposed partner, so the
 * assembled operator is skew and the midpoint rule balances energy to the
 * Newton tolerance. Angles are not unknowns: with theta in the space of
 * omega, theta_mid = theta_n + dt/2 omega_mid exactly, so they are
 * substituted (and differentiated) wherever a rotation appears.
 */
#include "fx-kernel.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------- element kernel */


/* Integrands of the weak form at one Gauss point (docs/theory.md §2):
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
  /* theta enters only through gravity: without it, cos and sin would
   * multiply zeros (and cost a twentieth of a long weightless link's step) */
  const gboolean weightless = g[0] == 0.0 && g[1] == 0.0;
  const double c = weightless ? 1.0 : cos (theta), s = weightless ? 0.0 : sin (theta);
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
void
fx_link_coupling (FxLinkSys *l)
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
      /* configuration at this evaluation: xc (fx-kernel.h; midpoint: q[F_W]) */
      double theta = theta_n_at (l, e, xi) + 0.5 * dt * shape_eval (&sh[F_W], a->xc);

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
              double dw = da[r][F_W] + 0.5 * dt * da[r][F_N_FIELDS] * a->fold;
              for (int c = 0; c < F_N_FIELDS; c++)
                {
                  double d = c == F_W ? dw : da[r][c];
                  /* skip what is zero by structure, not by value: the
                   * sparse assembly needs the same calls every time */
                  if (!(l->coupling & coupling_bit (r, c)))
                    continue;
                  for (guint kk = 0; kk < sh[c].n; kk++)
                    acc_K (a, sh[r].dof[k], sh[c].dof[kk], wr * d * sh[c].w[kk]);
                  /* Gauss stages: theta's own path, to every stage (fx-kernel.h) */
                  if (c == F_W && a->fold == 0.0)
                    for (guint kk = 0; kk < sh[c].n; kk++)
                      acc_K_config (a, sh[r].dof[k], sh[c].dof[kk],
                                    wr * 0.5 * dt * da[r][F_N_FIELDS] * sh[c].w[kk]);
                }
            }
        }
    }
}


/* Every element of a link: mass, derivative, nonlinear and damping terms. */
void
fx_link_assemble (FxSystem *sys, const FxLinkSys *l, FxAcc *a)
{
  for (guint e = 0; e < l->N; e++)
    {
      element_mass (l, e, a);
      element_derivatives (l, e, a);
      element_nonlinear (sys, l, e, a);
      if (l->damping != 0.0 || l->rotational_damping != 0.0)
        element_damping (l, e, a);
    }
}
