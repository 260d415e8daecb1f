/* fx-link-kernel.c: the element kernel of a link, the four formulations of
 * docs/theory.md as two causality bits (T, R).
 *
 * Per link the co-energy variables are v_hat (2), omega, n_hat (2), m; which
 * of them is CG_k and which DG_{k-1} is set by T and R (k the link's degree,
 * physics.md §15). Every element integral uses the same Gauss rule of the
 * degree for a term and its transposed partner, so the
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

/* What every element of degree k shares, computed once: the basis values at
 * the Gauss points, the derivative coupling D and the CG mass block M. */
typedef struct {
  GaussRule rule;
  double cg[5][FX_SHAPE_MAX], dg[5][FX_SHAPE_MAX];
  double D[FX_SHAPE_MAX][FX_SHAPE_MAX], M[FX_SHAPE_MAX][FX_SHAPE_MAX];
} DegreeTables;

static void derivative_table (guint k, double D[FX_SHAPE_MAX][FX_SHAPE_MAX]);
static void cg_mass_table (guint k, double M[FX_SHAPE_MAX][FX_SHAPE_MAX]);

static const DegreeTables *
degree_tables (guint k)
{
  static DegreeTables tables[FX_MAX_DEGREE + 1];
  static gsize ready[FX_MAX_DEGREE + 1];

  k = CLAMP (k, 1u, FX_MAX_DEGREE);
  if (g_once_init_enter (&ready[k]))
    {
      DegreeTables *t = &tables[k];
      t->rule = gauss_rule (k);
      for (guint g = 0; g < t->rule.n; g++)
        {
          cg_basis (k, t->rule.xi[g], t->cg[g]);
          dg_basis (k, t->rule.xi[g], t->dg[g]);
        }
      derivative_table (k, t->D);
      cg_mass_table (k, t->M);
      g_once_init_leave (&ready[k], 1);
    }
  return &tables[k];
}

/* field_shape at Gauss point g of element e, from the tables. */
static inline void
field_shape_gauss (const FxLinkSys *l, const DegreeTables *t, int f, guint e, guint g, Shape *s)
{
  const guint k = l->k;
  if (field_is_cg (l, f))
    {
      s->n = k + 1;
      for (guint c = 0; c <= k; c++)
        {
          s->w[c] = t->cg[g][c];
          s->dof[c] = field_dof (l, f, k * e + c);
        }
    }
  else
    {
      s->n = k;
      for (guint d = 0; d < k; d++)
        {
          s->w[d] = t->dg[g][d];
          s->dof[d] = field_dof (l, f, k * e + d);
        }
    }
}

/* D_cd = int_0^1 dL_c/dxi P_d dxi: the derivative coupling of a CG_k basis
 * function and a DG_{k-1} one on an element (h cancels: ds = h dxi,
 * d/ds = d/dxi / h). Exact with the element's Gauss rule (degree 2k - 2). */
static void
derivative_table (guint k, double D[FX_SHAPE_MAX][FX_SHAPE_MAX])
{
  const GaussRule q = gauss_rule (k);
  double dL[FX_SHAPE_MAX], P[FX_SHAPE_MAX];

  memset (D, 0, sizeof (double) * FX_SHAPE_MAX * FX_SHAPE_MAX);
  for (guint g = 0; g < q.n; g++)
    {
      cg_basis_d (k, q.xi[g], dL);
      dg_basis (k, q.xi[g], P);
      for (guint c = 0; c <= k; c++)
        for (guint d = 0; d < k; d++)
          D[c][d] += q.w[g] * dL[c] * P[d];
    }
}

/* The derivative pairs (v, n) and (omega, m): the CG member of a pair is
 * tested against the derivative, the DG member against the values:
 *   CG rows c:  -(d_s psi_c, d) = -sum_d D_cd d_d
 *   DG rows d:  (psi_d, d_s c)  =  sum_c D_cd c_c
 * exactly skew. For k = 1, D = (-1, 1)^T. */
static void
element_derivatives (const FxLinkSys *l, guint e, Acc *a)
{
  static const int pairs[3][2] = { { F_VX, F_NX }, { F_VY, F_NY }, { F_W, F_M } };
  const double dt = a->dt;
  const guint k = l->k;
  const double (*D)[FX_SHAPE_MAX] = degree_tables (k)->D;

  for (guint p = 0; p < 3; p++)
    {
      int fa = pairs[p][0], fb = pairs[p][1];
      int fc = field_is_cg (l, fa) ? fa : fb;  /* the CG one */
      int fd = fc == fa ? fb : fa;             /* the DG one */

      if (k == 1)
        {
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
          continue;
        }
      guint cdof[FX_SHAPE_MAX], ddof[FX_SHAPE_MAX];
      for (guint c = 0; c <= k; c++)
        cdof[c] = field_dof (l, fc, k * e + c);
      for (guint d = 0; d < k; d++)
        ddof[d] = field_dof (l, fd, k * e + d);
      for (guint c = 0; c <= k; c++)
        {
          double v = 0.0, mag = 0.0;
          for (guint d = 0; d < k; d++)
            {
              v -= dt * D[c][d] * a->xm[ddof[d]];
              mag += fabs (dt * D[c][d] * a->xm[ddof[d]]);
              acc_K (a, cdof[c], ddof[d], -dt * D[c][d]);
            }
          acc_G (a, cdof[c], v, mag);
        }
      for (guint d = 0; d < k; d++)
        {
          double v = 0.0, mag = 0.0;
          for (guint c = 0; c <= k; c++)
            {
              v += dt * D[c][d] * a->xm[cdof[c]];
              mag += fabs (dt * D[c][d] * a->xm[cdof[c]]);
              acc_K (a, ddof[d], cdof[c], dt * D[c][d]);
            }
          acc_G (a, ddof[d], v, mag);
        }
    }
}

/* M_ab = int_0^1 L_a L_b dxi of CG_k (k = 1: [1/3 1/6; 1/6 1/3]). */
static void
cg_mass_table (guint k, double M[FX_SHAPE_MAX][FX_SHAPE_MAX])
{
  const GaussRule q = gauss_rule (k);
  double L[FX_SHAPE_MAX];

  memset (M, 0, sizeof (double) * FX_SHAPE_MAX * FX_SHAPE_MAX);
  for (guint g = 0; g < q.n; g++)
    {
      cg_basis (k, q.xi[g], L);
      for (guint i = 0; i <= k; i++)
        for (guint j = 0; j <= k; j++)
          M[i][j] += q.w[g] * L[i] * L[j];
    }
}

static void
element_mass (const FxLinkSys *l, guint e, Acc *a)
{
  const double h = l->h;
  const guint k = l->k;
  const double (*M)[FX_SHAPE_MAX] = degree_tables (k)->M;

  for (int f = 0; f < F_N_FIELDS; f++)
    {
      double mu = field_mass (l, f);
      if (mu == 0.0)
        continue;
      if (k == 1 && field_is_cg (l, f))
        {
          guint i0 = field_dof (l, f, e), i1 = field_dof (l, f, e + 1);
          acc_E (a, i0, i0, mu * h / 3.0);
          acc_E (a, i0, i1, mu * h / 6.0);
          acc_E (a, i1, i0, mu * h / 6.0);
          acc_E (a, i1, i1, mu * h / 3.0);
        }
      else if (k == 1)
        {
          guint i = field_dof (l, f, e);
          acc_E (a, i, i, mu * h);
        }
      else if (field_is_cg (l, f))
        {
          for (guint i = 0; i <= k; i++)
            for (guint j = 0; j <= k; j++)
              acc_E (a, field_dof (l, f, k * e + i), field_dof (l, f, k * e + j), mu * h * M[i][j]);
        }
      else
        for (guint d = 0; d < k; d++)
          {
            guint i = field_dof (l, f, k * e + d);
            acc_E (a, i, i, mu * h / (2.0 * d + 1.0));
          }
    }
}

/* Viscous damping along the link: -(psi_v, c v) - (psi_w, c_r omega), with
 * the Gauss rule of the dynamics so its loss is exactly what the balance sees. */
static void
element_damping (const FxLinkSys *l, guint e, Acc *a)
{
  const double dt = a->dt;
  const DegreeTables *t = degree_tables (l->k);
  const GaussRule rule = t->rule;
  const int fields[3] = { F_VX, F_VY, F_W };

  for (guint gp = 0; gp < rule.n; gp++)
    for (guint k = 0; k < 3; k++)
      {
        double c = fields[k] == F_W ? l->rotational_damping : l->damping;
        const double wg = rule.w[gp] * l->h;
        Shape sh;
        if (c == 0.0)
          continue;
        field_shape_gauss (l, t, fields[k], e, gp, &sh);
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
  const double dt = a->dt;
  const DegreeTables *t = degree_tables (l->k);
  const GaussRule rule = t->rule;

  for (guint gp = 0; gp < rule.n; gp++)
    {
      const double xi = rule.xi[gp], wg = rule.w[gp] * l->h;
      Shape sh[F_N_FIELDS];
      double q[F_N_FIELDS], val[F_N_FIELDS], mag[F_N_FIELDS];
      double da[F_N_FIELDS][F_N_FIELDS + 1];

      for (int f = 0; f < F_N_FIELDS; f++)
        {
          field_shape_gauss (l, t, f, e, gp, &sh[f]);
          q[f] = shape_eval (&sh[f], a->xm);
        }
      /* theta lives in the space of omega: omega's weights serve it */
      double theta_n = 0.0;
      if (l->k == 1)
        theta_n = theta_n_at (l, e, xi);
      else
        for (guint i = 0; i < sh[F_W].n; i++)
          theta_n += sh[F_W].w[i] * l->theta[l->k * e + i];
      double theta = theta_n + 0.5 * dt * q[F_W];

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


/* Kelvin-Voigt damping (physics.md §13): in the velocity rows only, every
 * stress that the transposed compatibility operator -A^T acts on becomes
 * the total stress sigma + eta sigma_dot, sigma_dot = (sigma_{n+1} - sigma_n)
 * / dt; the stress rows are unchanged. Those are the derivative pair's
 * velocity rows and, at each Gauss point, kappa S^T n in the v rows and
 * b2^T n + gamma^T S n in the omega rows (kappa and gamma stay the midpoint's:
 * they belong to A). The loss eta sigma_dot^T E_sigma sigma_dot, with the
 * compliance block E_sigma, is exactly what the balance sees. The ports of
 * stress ends output the total stress too (fx-link-ge.c). */
static void
element_kelvin_voigt (const FxLinkSys *l, guint e, Acc *a)
{
  static const int pairs[3][2] = { { F_VX, F_NX }, { F_VY, F_NY }, { F_W, F_M } };
  const double dt = a->dt, eta = l->eta, c = eta / dt;
  const guint k = l->k;
  const DegreeTables *t = degree_tables (k);

  /* the derivative pairs */
  for (guint p = 0; p < 3; p++)
    {
      int fp = pairs[p][0], fs = pairs[p][1];
      gboolean p_cg = field_is_cg (l, fp);
      guint np = p_cg ? k + 1 : k, ns = p_cg ? k : k + 1;
      for (guint i = 0; i < np; i++)
        {
          guint row = field_dof (l, fp, k * e + i);
          double v = 0.0, mag = 0.0;
          for (guint j = 0; j < ns; j++)
            {
              guint col = field_dof (l, fs, k * e + j);
              /* CG velocity rows: -(d_s psi, sigma); DG rows: (psi, d_s sigma) */
              double d = p_cg ? -eta * t->D[i][j] : eta * t->D[j][i];
              double r = acc_rate_dt (a, col);
              v += d * r;
              mag += fabs (d * r);
              acc_K_rate (a, row, col, d);
            }
          acc_G (a, row, v, mag);
        }
    }

  /* the nonlinear terms and the loss, at the Gauss points */
  for (guint g = 0; g < t->rule.n; g++)
    {
      const double wg = t->rule.w[g] * l->h;
      Shape sh[F_N_FIELDS];
      double q[F_N_FIELDS], rate[F_N_FIELDS];
      for (int f = 0; f < F_N_FIELDS; f++)
        {
          field_shape_gauss (l, t, f, e, g, &sh[f]);
          q[f] = shape_eval (&sh[f], a->xm);
          rate[f] = 0.0;
          for (guint i = 0; i < sh[f].n; i++)
            rate[f] += sh[f].w[i] * acc_rate_dt (a, sh[f].dof[i]);
        }
      for (int f = F_NX; f <= F_M; f++)
        a->loss += eta * field_mass (l, f) * wg * (rate[f] / dt) * (rate[f] / dt);

      const double C1 = l->Ct[0], C2 = l->Ct[1], Cr = l->Cr, kappa = Cr * q[F_M];
      const double dnx = c * rate[F_NX], dny = c * rate[F_NY];
      /* extra integrands, their derivatives by the midpoint fields
       * (through kappa and gamma) and by the stress rates */
      const double extra[3] = { -kappa * dny, kappa * dnx, dny + C1 * q[F_NX] * dny - C2 * q[F_NY] * dnx };
      const int rows[3] = { F_VX, F_VY, F_W };
      const struct { int row, col; double mid, per_rate; } d[6] = {
        { F_VX, F_M, -Cr * dny, 0.0 }, { F_VX, F_NY, 0.0, -kappa * c },
        { F_VY, F_M, Cr * dnx, 0.0 },  { F_VY, F_NX, 0.0, kappa * c },
        { F_W, F_NX, C1 * dny, -c * C2 * q[F_NY] }, { F_W, F_NY, -C2 * dnx, c * (1.0 + C1 * q[F_NX]) },
      };
      for (guint r = 0; r < 3; r++)
        for (guint i = 0; i < sh[rows[r]].n; i++)
          {
            double wr = dt * wg * sh[rows[r]].w[i];
            acc_G (a, sh[rows[r]].dof[i], wr * extra[r], fabs (wr * extra[r]));
          }
      if (a->J == NULL)
        continue;
      for (guint m = 0; m < G_N_ELEMENTS (d); m++)
        for (guint i = 0; i < sh[d[m].row].n; i++)
          {
            double wr = dt * wg * sh[d[m].row].w[i];
            for (guint j = 0; j < sh[d[m].col].n; j++)
              {
                guint row = sh[d[m].row].dof[i], col = sh[d[m].col].dof[j];
                double w = wr * sh[d[m].col].w[j];
                acc_K (a, row, col, w * d[m].mid);
                acc_K_rate (a, row, col, w * d[m].per_rate);
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
      /* dt = 0 asks for E alone (modes): no rate to damp */
      if (l->eta != 0.0 && a->dt > 0.0)
        element_kelvin_voigt (l, e, a);
    }
}
