/* fx-link-ff.c: the floating-frame link (docs/theory.md, "Floating-frame
 * links"): a rigid frame (origin P, angle theta, body-frame velocity v_P,
 * angular velocity omega) carrying a small linear-elastic displacement
 * field u_f = u b1 + w b2, u linear and w Hermite cubic per element, nodal
 * q = (u_i, w_i, phi_i = w'_i). The mass matrix M(q) is quadratic in q, so
 * the discrete gradient below balances energy to round-off.
 *
 * Unknowns (from l->offset): v_P (2), omega, v_f (n = 3 (N+1)), the three
 * frame-condition multipliers lambda (step means), then per end and
 * channel the port: an F end has its velocity y and the force f it is fed
 * (junctions see y and write f's value into y's row), a V end its
 * reaction R (junctions see R and write the velocity into R's row).
 * Configuration: theta[0] = theta, theta[1..n] = q, r = r_P.
 */
#include "fx-link-ff-private.h"

#include <math.h>
#include <string.h>


/* Within the flexible unknowns every matrix is banded (an element couples
 * two nodes, six unknowns): the Jacobian's pattern leaves out the rest, so
 * that only the frame's rows and columns, the multipliers and the ports are
 * dense (an arrowhead the sparse solver orders well). */
static inline gboolean
ff_structural (guint r, guint c, guint n_nu)
{
  if (r < I_VF || c < I_VF || r >= n_nu || c >= n_nu)
    return TRUE;
  return (r > c ? r - c : c - r) <= 5;
}

/* ------------------------------------------------------ shape functions */

static const double gauss4_x[4] = { 0.06943184420297371, 0.33000947820757187,
                                    0.66999052179242813, 0.93056815579702629 };
static const double gauss4_w[4] = { 0.17392742256872693, 0.32607257743127307,
                                    0.32607257743127307, 0.17392742256872693 };


void
ff_shape (guint e, double h, double xi, FfShape *sh)
{
  memset (sh, 0, sizeof *sh);
  for (guint k = 0; k < 6; k++)
    sh->dof[k] = 3 * e + k;
  double x2 = xi * xi, x3 = x2 * xi;
  sh->u[0] = 1.0 - xi;
  sh->u[3] = xi;
  sh->up[0] = -1.0 / h;
  sh->up[3] = 1.0 / h;
  sh->w[1] = 1.0 - 3 * x2 + 2 * x3;
  sh->w[2] = h * (xi - 2 * x2 + x3);
  sh->w[4] = 3 * x2 - 2 * x3;
  sh->w[5] = h * (-x2 + x3);
  sh->wp[1] = (-6 * xi + 6 * x2) / h;
  sh->wp[2] = 1.0 - 4 * xi + 3 * x2;
  sh->wp[4] = (6 * xi - 6 * x2) / h;
  sh->wp[5] = -2 * xi + 3 * x2;
  sh->wpp[1] = (-6 + 12 * xi) / (h * h);
  sh->wpp[2] = (-4 + 6 * xi) / h;
  sh->wpp[4] = (6 - 12 * xi) / (h * h);
  sh->wpp[5] = (-2 + 6 * xi) / h;
}

/* ------------------------------------------------------------- layout */

static void
ff_constants (FxLinkSys *l, FfData *d)
{
  const guint n = d->n;
  const double rhoA = l->rhoA, rhoI = l->rhoI, h = l->h;

  d->sP = d->attached ? 0.0 : 0.5 * l->L;
  d->m = rhoA * l->L;
  d->S = g_new0 (double, 2 * n);
  d->a = g_new0 (double, n);
  d->c = g_new0 (double, n);
  d->G = g_new0 (double, n * n);
  d->D = g_new0 (double, n * n);
  d->Mff = g_new0 (double, n * n);
  d->K = g_new0 (double, n * n);
  d->C = g_new0 (double, 3 * n);
  d->s0[0] = d->s0[1] = 0.0;
  d->J0 = rhoI * l->L;
  for (guint e = 0; e < l->N; e++)
    for (guint g = 0; g < 4; g++)
      {
        FfShape sh;
        double wg = gauss4_w[g] * h, X1 = (e + gauss4_x[g]) * h - d->sP;
        ff_shape (e, h, gauss4_x[g], &sh);
        d->s0[0] += wg * rhoA * X1;
        d->J0 += wg * rhoA * X1 * X1;
        for (guint i = 0; i < 6; i++)
          {
            guint I = sh.dof[i];
            d->S[I] += wg * rhoA * sh.u[i];
            d->S[n + I] += wg * rhoA * sh.w[i];
            d->a[I] += wg * rhoA * X1 * sh.u[i];
            d->c[I] += wg * (rhoA * X1 * sh.w[i] + rhoI * sh.wp[i]);
            for (guint j = 0; j < 6; j++)
              {
                guint Jj = sh.dof[j];
                double gij = rhoA * (sh.u[i] * sh.u[j] + sh.w[i] * sh.w[j]);
                d->G[I * n + Jj] += wg * gij;
                d->D[I * n + Jj] += wg * rhoA * (sh.u[i] * sh.w[j] - sh.w[i] * sh.u[j]);
                d->Mff[I * n + Jj] += wg * (gij + rhoI * sh.wp[i] * sh.wp[j]);
                d->K[I * n + Jj] += wg * (d->EA * sh.up[i] * sh.up[j] + d->EI * sh.wpp[i] * sh.wpp[j]);
              }
          }
      }
  if (d->attached)
    for (guint k = 0; k < 3; k++)
      d->C[k * n + k] = 1.0;  /* u = w = w' = 0 at s = 0 */
  else
    for (guint k = 0; k < n; k++)
      {
        d->C[k] = d->S[k];
        d->C[n + k] = d->S[n + k];
        d->C[2 * n + k] = d->c[k];
      }
  double g = 9.81;
  d->F_ref = MAX (d->m * g, d->EI / (l->L * l->L));
}

static void
ff_setup (FxLinkSys *l, const FxLink *ml)
{
  FfData *d = g_new0 (FfData, 1);

  d->attached = ml->frame == FX_LINK_FRAME_ATTACHED;
  d->eta = ml->kelvin_voigt;
  d->EA = ml->section.EA;
  d->EI = ml->section.EI;
  d->n = 3 * (l->N + 1);
  d->n_nu = 3 + d->n;
  d->i_lambda = d->n_nu;
  guint next = d->n_nu + 3;
  for (guint side = 0; side < 2; side++)
    for (guint ch = 0; ch < 2; ch++)
      {
        FxCausality c = ch == 0 ? l->T_end[side] : l->R_end[side];
        guint k = ch == 0 ? 2 : 1;
        d->port[side][ch] = (int) next;
        d->force[side][ch] = (int) next;
        next += k;
        if (c == FX_CAUSAL_F)
          {
            d->force[side][ch] = (int) next;
            next += k;
          }
      }
  l->n_unknowns = next;
  l->impl = d;
  /* R, mag, the Jacobian, and the vectors and matrices of ff_assemble */
  d->scratch = g_new (double, 2 * next + (gsize) next * next + 4 * d->n_nu * d->n_nu
                              + 8 * d->n + 2 * d->n_nu);
  ff_constants (l, d);

  l->n_theta = 1 + d->n;
  l->theta = g_new0 (double, l->n_theta);
  l->theta[0] = l->angle0;
  l->n_r = 1;
  l->r = g_new (double, 2);
  l->r[0] = l->origin[0] + d->sP * cos (l->angle0);
  l->r[1] = l->origin[1] + d->sP * sin (l->angle0);
  l->theta_end[0] = l->theta_end[1] = l->angle0;
  l->omega_source[0] = l->omega_source[1] = -1;
}

static void
ff_clear (FxLinkSys *l)
{
  FfData *d = l->impl;
  if (d == NULL)
    return;
  g_free (d->S);
  g_free (d->a);
  g_free (d->c);
  g_free (d->G);
  g_free (d->D);
  g_free (d->Mff);
  g_free (d->K);
  g_free (d->C);
  g_free (d->scratch);
  g_clear_pointer (&l->impl, g_free);
}

/* A rigid motion V + w J (r - c) about the link's centre c: the frame
 * takes it, the flexible field starts at rest. */
static void
ff_initial_motion (const FxLinkSys *l, const FxLink *ml, double *x)
{
  const FfData *d = l->impl;
  double cs[2], rel[2], Jr[2], v[2], vb[2];

  rot (l->angle0, cs);
  rel[0] = (d->sP - 0.5 * l->L) * cs[0];
  rel[1] = (d->sP - 0.5 * l->L) * cs[1];
  jrot (rel, Jr);
  v[0] = ml->initial_velocity[0] + ml->initial_omega * Jr[0];
  v[1] = ml->initial_velocity[1] + ml->initial_omega * Jr[1];
  lam_t (cs, v, vb);
  x[l->offset + I_VP] = vb[0];
  x[l->offset + I_VP + 1] = vb[1];
  x[l->offset + I_W] = ml->initial_omega;
}

/* ------------------------------------------------------ mass matrix */

/* The columns j of row i where the element matrices (G, D, K, M_ff: an
 * element couples six consecutive unknowns) can be non-zero. */
static inline guint band_lo (guint i) { return i > 5 ? i - 5 : 0; }
static inline guint band_hi (guint i, guint n) { return MIN (i + 6, n); }

/* y = A x for a banded n x n element matrix */
static void
band_matvec (const double *A, guint n, const double *x, double *y)
{
  for (guint i = 0; i < n; i++)
    {
      double s = 0.0;
      for (guint j = band_lo (i); j < band_hi (i, n); j++)
        s += A[i * n + j] * x[j];
      y[i] = s;
    }
}

/* M(q) (n_nu x n_nu, dense) */
static void
ff_mass (const FfData *d, const double *q, double *M)
{
  const guint n = d->n, nn = d->n_nu;
  double su[2] = { d->s0[0], d->s0[1] }, Ju = d->J0;

  memset (M, 0, sizeof (double) * nn * nn);
  for (guint k = 0; k < n; k++)
    {
      su[0] += d->S[k] * q[k];
      su[1] += d->S[n + k] * q[k];
      Ju += 2.0 * d->a[k] * q[k];
      double Gq = 0.0;
      for (guint j = band_lo (k); j < band_hi (k, n); j++)
        Gq += d->G[k * n + j] * q[j];
      Ju += q[k] * Gq;
    }
  M[0 * nn + 0] = M[1 * nn + 1] = d->m;
  M[0 * nn + 2] = M[2 * nn + 0] = -su[1];  /* J s_u */
  M[1 * nn + 2] = M[2 * nn + 1] = su[0];
  M[2 * nn + 2] = Ju;
  for (guint k = 0; k < n; k++)
    {
      double ck = d->c[k];
      for (guint j = band_lo (k); j < band_hi (k, n); j++)
        ck += d->D[j * n + k] * q[j];  /* c(q) = c + D^T q */
      M[0 * nn + I_VF + k] = M[(I_VF + k) * nn + 0] = d->S[k];
      M[1 * nn + I_VF + k] = M[(I_VF + k) * nn + 1] = d->S[n + k];
      M[2 * nn + I_VF + k] = M[(I_VF + k) * nn + 2] = ck;
      for (guint j = band_lo (k); j < band_hi (k, n); j++)
        M[(I_VF + k) * nn + I_VF + j] = d->Mff[k * n + j];
    }
}

/* dp/dq at (q, nu), n_nu x n */
static void
ff_dp_dq (const FfData *d, const double *q, const double *nu, double *P)
{
  const guint n = d->n;
  const double vx = nu[0], vy = nu[1], w = nu[2];
  const double *vf = nu + I_VF;

  memset (P + I_VF * n, 0, sizeof (double) * n * n);
  for (guint k = 0; k < n; k++)
    {
      double Gq = 0.0, Dv = 0.0;
      for (guint j = band_lo (k); j < band_hi (k, n); j++)
        {
          Gq += d->G[k * n + j] * q[j];
          Dv += d->D[k * n + j] * vf[j];
        }
      P[0 * n + k] = -w * d->S[n + k];  /* omega J S */
      P[1 * n + k] = w * d->S[k];
      P[2 * n + k] = -vx * d->S[n + k] + vy * d->S[k] + 2.0 * w * (d->a[k] + Gq) + Dv;
      for (guint r = band_lo (k); r < band_hi (k, n); r++)
        P[(I_VF + r) * n + k] = w * d->D[k * n + r];  /* omega D^T */
    }
}

static void
matvec (const double *M, guint rows, guint cols, const double *x, double *y)
{
  for (guint i = 0; i < rows; i++)
    {
      double s = 0.0;
      for (guint j = 0; j < cols; j++)
        s += M[i * cols + j] * x[j];
      y[i] = s;
    }
}

/* y += |M| |x|: the size of a product's terms, for Newton's scaling (a
 * sum that cancels still carries its terms' round-off). */
static void
matvec_abs_add (const double *M, guint rows, guint cols, const double *x, double scale, double *y)
{
  for (guint i = 0; i < rows; i++)
    {
      double s = 0.0;
      for (guint j = 0; j < cols; j++)
        s += fabs (M[i * cols + j] * x[j]);
      y[i] += scale * s;
    }
}

/* y += |A| |x| for a banded n x n element matrix */
static void
band_abs_add (const double *A, guint n, const double *x, double scale, double *y)
{
  for (guint i = 0; i < n; i++)
    {
      double s = 0.0;
      for (guint j = band_lo (i); j < band_hi (i, n); j++)
        s += fabs (A[i * n + j] * x[j]);
      y[i] += scale * s;
    }
}

/* sin a / a, tan a / a and their derivatives, with series near 0 */
static void
ff_trig (double a, double *sigma, double *dsigma, double *tau, double *dtau)
{
  if (fabs (a) < 1e-3)
    {
      double a2 = a * a;
      *sigma = 1.0 - a2 / 6.0 + a2 * a2 / 120.0;
      *dsigma = -a / 3.0 + a2 * a / 30.0;
      *tau = 1.0 + a2 / 3.0 + 2.0 * a2 * a2 / 15.0;
      *dtau = 2.0 * a / 3.0 + 8.0 * a2 * a / 15.0;
      return;
    }
  double s = sin (a), c = cos (a), t = tan (a);
  *sigma = s / a;
  *dsigma = (a * c - s) / (a * a);
  *tau = t / a;
  *dtau = (a / (c * c) - t) / (a * a);
}

/* ----------------------------------------------------------- residual */

/* The discrete gradient step of docs/theory.md ("Floating-frame links"):
 * rows R(x_n, x_{n+1}) of the link's unknowns and dR/dx_{n+1}, built dense
 * and scattered (the frame rows couple everything in the link). */
static void
ff_assemble (FxSystem *sys, const FxLinkSys *l, FxAcc *acc)
{
  const FfData *d = l->impl;
  const guint n = d->n, nn = d->n_nu, nl = l->n_unknowns, off = l->offset;
  const double dt = acc->dt;
  const double *x1 = acc->x + off, *x0 = acc->xn + off, *xm = acc->xm + off;
  const double *qn = l->theta + 1;
  double *w = d->scratch;
  double *R = w, *mag = R + nl, *Jl = mag + nl;
  double *M0 = Jl + (gsize) nl * nl, *M1 = M0 + nn * nn, *P1 = M1 + nn * nn;
  double *qb = P1 + 2 * nn * n, *q1 = qb + n, *fb = q1 + n, *Kq = fb + n, *Kv = Kq + n;
  double *Gq = Kv + n, *Dv0 = Gq + n, *Dv1 = Dv0 + n, *p0 = Dv1 + n, *p1 = p0 + nn;
  memset (R, 0, sizeof (double) * 2 * nl);
  if (acc->J)
    memset (Jl, 0, sizeof (double) * nl * nl);
  else
    Jl = NULL;
  const double *vb = xm + I_VF;
#define JAC(r, c, v) do { if (Jl) Jl[(gsize) (r) * nl + (c)] += (v); } while (0)

  for (guint k = 0; k < n; k++)
    {
      qb[k] = qn[k] + 0.5 * dt * vb[k];
      q1[k] = qn[k] + dt * vb[k];
    }
  ff_mass (d, qn, M0);
  ff_mass (d, q1, M1);
  matvec (M0, nn, nn, x0, p0);
  matvec (M1, nn, nn, x1, p1);
  ff_dp_dq (d, q1, x1, P1);
  band_matvec (d->K, n, qb, Kq);
  band_matvec (d->K, n, vb, Kv);
  band_matvec (d->G, n, qb, Gq);
  band_matvec (d->D, n, x0 + I_VF, Dv0);
  band_matvec (d->D, n, x1 + I_VF, Dv1);

  const double wb = xm[I_W], w0 = x0[I_W], w1 = x1[I_W];
  const double a = 0.5 * dt * wb, da = 0.25 * dt;  /* da / d omega_{n+1} */
  double sigma, dsigma, tau, dtau;
  ff_trig (a, &sigma, &dsigma, &tau, &dtau);
  const double ca = cos (a), dca = -sin (a);
  double cs[2], gb[2], Jgb[2];
  rot (l->theta[0] + a, cs);
  lam_t (cs, sys->gravity, gb);
  jrot (gb, Jgb);
  const double dgb[2] = { -da * Jgb[0], -da * Jgb[1] };  /* d g_b / d omega_{n+1} */
  double pt[2] = { 0.5 * (p0[0] + p1[0]), 0.5 * (p0[1] + p1[1]) }, Jpt[2];
  jrot (pt, Jpt);
  double su[2] = { d->s0[0], d->s0[1] };
  for (guint k = 0; k < n; k++)
    {
      su[0] += d->S[k] * qb[k];
      su[1] += d->S[n + k] * qb[k];
    }
  double Jsu[2];
  jrot (su, Jsu);

  /* p_{n+1} - p_n and its Jacobian M(q_{n+1}) + dp/dq dt/2 */
  matvec_abs_add (M1, nn, nn, x1, 1.0, mag);
  matvec_abs_add (M0, nn, nn, x0, 1.0, mag);
  band_abs_add (d->K, n, qb, dt, mag + I_VF);
  band_abs_add (d->K, n, vb, dt * d->eta, mag + I_VF);
  for (guint r = 0; r < nn; r++)
    {
      R[r] += p1[r] - p0[r];
      for (guint c = 0; c < nn; c++)
        JAC (r, c, M1[r * nn + c]);
      for (guint k = 0; k < n; k++)
        JAC (r, I_VF + k, 0.5 * dt * P1[r * n + k]);
    }

  /* translation: -dt [ -tau w J p_t + sigma m g_b ] */
  const double vPb[2] = { xm[0], xm[1] };
  for (guint r = 0; r < 2; r++)
    {
      double gyro = -tau * wb * Jpt[r], grav = sigma * d->m * gb[r];
      R[r] -= dt * (gyro + grav);
      mag[r] += dt * (fabs (gyro) + fabs (grav) + d->F_ref);
      if (!Jl)
        continue;
      /* J p_t: d(J pt)_r / dx = J (1/2 dp_t/dx) */
      for (guint c = 0; c < nl; c++)
        {
          double dpt0 = c < nn ? 0.5 * M1[0 * nn + c] : 0.0, dpt1 = c < nn ? 0.5 * M1[1 * nn + c] : 0.0;
          if (c >= I_VF && c < nn)
            {
              dpt0 += 0.25 * dt * P1[0 * n + c - I_VF];
              dpt1 += 0.25 * dt * P1[1 * n + c - I_VF];
            }
          double dJpt = r == 0 ? -dpt1 : dpt0;
          double v = -tau * wb * dJpt;
          if (c == I_W)
            v += -(dtau * da * wb + 0.5 * tau) * Jpt[r]
                 + d->m * (dsigma * da * gb[r] + sigma * dgb[r]);
          JAC (r, c, -dt * v);
        }
    }

  /* rotation: -dt [ tau p_t x v_P + sigma (J s_u) . g_b ] */
  {
    double gyro = tau * (vPb[0] * Jpt[0] + vPb[1] * Jpt[1]);
    double grav = sigma * (Jsu[0] * gb[0] + Jsu[1] * gb[1]);
    R[I_W] -= dt * (gyro + grav);
    mag[I_W] += dt * (fabs (gyro) + fabs (grav) + d->F_ref * l->L);
    if (Jl)
      for (guint c = 0; c < nl; c++)
        {
          double dpt0 = c < nn ? 0.5 * M1[0 * nn + c] : 0.0, dpt1 = c < nn ? 0.5 * M1[1 * nn + c] : 0.0;
          if (c >= I_VF && c < nn)
            {
              dpt0 += 0.25 * dt * P1[0 * n + c - I_VF];
              dpt1 += 0.25 * dt * P1[1 * n + c - I_VF];
            }
          /* v . J p = -v0 p1 + v1 p0 */
          double v = tau * (-vPb[0] * dpt1 + vPb[1] * dpt0);
          if (c < 2)
            v += tau * 0.5 * Jpt[c];
          if (c == I_W)
            v += dtau * da * (vPb[0] * Jpt[0] + vPb[1] * Jpt[1])
                 + dsigma * da * (Jsu[0] * gb[0] + Jsu[1] * gb[1])
                 + sigma * (Jsu[0] * dgb[0] + Jsu[1] * dgb[1]);
          if (c >= I_VF && c < nn)
            {
              /* J S e_k dt/4 . g_b */
              guint k = c - I_VF;
              double dsu[2] = { d->S[k] * 0.25 * dt, d->S[n + k] * 0.25 * dt }, Jd[2];
              jrot (dsu, Jd);
              v += sigma * (Jd[0] * gb[0] + Jd[1] * gb[1]);
            }
          JAC (I_W, c, -dt * v);
        }
  }

  /* flexible rows: -dt [ f - K q - eta K v + c_a S^T g_b + C^T lambda ] */
  const double *lam_ = x1 + d->i_lambda;
  double loss = 0.0;
  for (guint k = 0; k < n; k++)
    {
      guint r = I_VF + k;
      double Sg = d->S[k] * gb[0] + d->S[n + k] * gb[1];
      /* f = 1/2 S^T J^T (w1 vP_n + w0 vP_{n+1}) + w0 w1 (a + G q) + 1/2 D (w0 v_f,{n+1} + w1 v_f,n),
       * J^T v = (v_y, -v_x) */
      double f = 0.5 * (d->S[k] * (w1 * x0[1] + w0 * x1[1]) - d->S[n + k] * (w1 * x0[0] + w0 * x1[0]))
          + w0 * w1 * (d->a[k] + Gq[k]) + 0.5 * (w0 * Dv1[k] + w1 * Dv0[k]);
      fb[k] = f;
      double Cl = d->C[k] * lam_[0] + d->C[n + k] * lam_[1] + d->C[2 * n + k] * lam_[2];
      double rhs = f - Kq[k] - d->eta * Kv[k] + ca * Sg + Cl;
      R[r] -= dt * rhs;
      double ref = (k % 3 == 2) ? d->F_ref * l->L : d->F_ref;
      mag[r] += dt * (fabs (f) + fabs (Kq[k]) + fabs (d->eta * Kv[k]) + fabs (ca * Sg) + fabs (Cl) + ref);
      loss += d->eta * vb[k] * Kv[k];
      if (!Jl)
        continue;
      /* f: d/d vP_{n+1}, d/d omega_{n+1}, d/d v_f,{n+1} */
      JAC (r, 0, -dt * (-0.5 * w0 * d->S[n + k]));
      JAC (r, 1, -dt * (0.5 * w0 * d->S[k]));
      double dfw = 0.5 * (d->S[k] * x0[1] - d->S[n + k] * x0[0]) + w0 * (d->a[k] + Gq[k]) + 0.5 * Dv0[k];
      double dSg = d->S[k] * dgb[0] + d->S[n + k] * dgb[1];
      JAC (r, I_W, -dt * (dfw + dca * da * Sg + ca * dSg));
      for (guint j = band_lo (k); j < band_hi (k, n); j++)
        {
          double v = w0 * w1 * d->G[k * n + j] * 0.25 * dt + 0.5 * w0 * d->D[k * n + j]
                     - d->K[k * n + j] * 0.25 * dt - d->eta * d->K[k * n + j] * 0.5;
          JAC (r, I_VF + j, -dt * v);
        }
      for (guint i = 0; i < 3; i++)
        JAC (r, d->i_lambda + i, -dt * d->C[i * n + k]);
    }
  acc->loss += loss;

  /* frame condition: dt C v_f = 0 */
  for (guint i = 0; i < 3; i++)
    {
      double s = 0.0, sm = 0.0;
      for (guint k = 0; k < n; k++)
        {
          s += d->C[i * n + k] * vb[k];
          sm += fabs (d->C[i * n + k] * vb[k]);
          JAC (d->i_lambda + i, I_VF + k, 0.5 * dt * d->C[i * n + k]);
        }
      R[d->i_lambda + i] += dt * s;
      mag[d->i_lambda + i] += dt * sm;
    }

  /* ports: B(q_mid) u on the nu rows, and the end velocities B^T nu */
  for (guint side = 0; side < 2; side++)
    {
      guint node = side == 0 ? 0 : l->N, iu = 3 * node, iw = iu + 1, ip = iu + 2;
      double xi[2] = { node * l->h - d->sP + qb[iu], qb[iw] };
      /* translation */
      {
        guint fi = (guint) d->force[side][0], yi = (guint) d->port[side][0];
        gboolean F = l->T_end[side] == FX_CAUSAL_F;
        double f[2] = { xm[fi], xm[fi + 1] };
        double Jxi[2];
        jrot (xi, Jxi);
        double tq = Jxi[0] * f[0] + Jxi[1] * f[1];
        double rows_v[4] = { f[0], f[1], f[0], f[1] };
        guint rows[4] = { 0, 1, I_VF + iu, I_VF + iw };
        for (guint k = 0; k < 4; k++)
          {
            R[rows[k]] -= dt * rows_v[k];
            mag[rows[k]] += dt * fabs (rows_v[k]);
            JAC (rows[k], fi + (k % 2), -0.5 * dt);
          }
        R[I_W] -= dt * tq;
        mag[I_W] += dt * fabs (tq);
        JAC (I_W, fi, -0.5 * dt * Jxi[0]);
        JAC (I_W, fi + 1, -0.5 * dt * Jxi[1]);
        /* (J xi) . f = -xi1 f0 + xi0 f1, xi = X + (u, w)(q_mid) */
        JAC (I_W, I_VF + iu, -dt * 0.25 * dt * f[1]);
        JAC (I_W, I_VF + iw, -dt * 0.25 * dt * -f[0]);
        /* end velocity: v_P + omega J xi + (u', w') */
        double y[2] = { xm[0] + wb * Jxi[0] + vb[iu], xm[1] + wb * Jxi[1] + vb[iw] };
        guint vrow = F ? (guint) d->force[side][0] : yi;
        for (guint c = 0; c < 2; c++)
          {
            double s = F ? xm[yi + c] - y[c] : y[c];
            double sg = F ? -1.0 : 1.0;
            R[vrow + c] += dt * s;
            mag[vrow + c] += dt * (fabs (xm[0 + c]) + fabs (wb * Jxi[c]) + fabs (vb[c == 0 ? iu : iw])
                                   + (F ? fabs (xm[yi + c]) : 0.0));
            if (F)
              JAC (vrow + c, yi + c, 0.5 * dt);
            JAC (vrow + c, c, sg * 0.5 * dt);
            JAC (vrow + c, I_W, sg * 0.5 * dt * Jxi[c]);
            JAC (vrow + c, I_VF + (c == 0 ? iu : iw), sg * 0.5 * dt);
          }
        /* omega J xi: d/dq_mid of (-w xi1, w xi0) */
        JAC (vrow + 0, I_VF + iw, (F ? -1.0 : 1.0) * dt * -wb * 0.25 * dt);
        JAC (vrow + 1, I_VF + iu, (F ? -1.0 : 1.0) * dt * wb * 0.25 * dt);
        if (F)
          for (guint c = 0; c < 2; c++)
            {
              /* the row of y takes the junction's force input: dt f = dt u */
              R[yi + c] += dt * f[c];
              mag[yi + c] += dt * fabs (f[c]);
              JAC (yi + c, fi + c, 0.5 * dt);
            }
      }
      /* rotation */
      {
        guint fi = (guint) d->force[side][1], yi = (guint) d->port[side][1];
        gboolean F = l->R_end[side] == FX_CAUSAL_F;
        double M = xm[fi];
        R[I_W] -= dt * M;
        R[I_VF + ip] -= dt * M;
        mag[I_W] += dt * fabs (M);
        mag[I_VF + ip] += dt * fabs (M);
        JAC (I_W, fi, -0.5 * dt);
        JAC (I_VF + ip, fi, -0.5 * dt);
        double y = wb + vb[ip], sg = F ? -1.0 : 1.0;
        guint vrow = F ? fi : yi;
        R[vrow] += dt * (F ? xm[yi] - y : y);
        mag[vrow] += dt * (fabs (wb) + fabs (vb[ip]) + (F ? fabs (xm[yi]) : 0.0));
        if (F)
          JAC (vrow, yi, 0.5 * dt);
        JAC (vrow, I_W, sg * 0.5 * dt);
        JAC (vrow, I_VF + ip, sg * 0.5 * dt);
        if (F)
          {
            R[yi] += dt * M;
            mag[yi] += dt * fabs (M);
            JAC (yi, fi, 0.5 * dt);
          }
      }
    }
#undef JAC

  /* a step that turns the frame by pi/2 or more is refused: substeps */
  gboolean too_far = fabs (2.0 * a) >= G_PI_2;
  for (guint r = 0; r < nl; r++)
    acc_G (acc, off + r, too_far ? NAN : -R[r], mag[r]);
  if (Jl)
    for (guint r = 0; r < nl; r++)
      for (guint c = 0; c < nl; c++)
        if (ff_structural (r, c, nn))
          acc_K (acc, off + r, off + c, -2.0 * Jl[(gsize) r * nl + c]);
}

/* ------------------------------------------------------------ ports */

static FxPort
ff_port (const FxLinkSys *l, guint side, FxChannel channel)
{
  const FfData *d = l->impl;
  FxPort p = { 0, side, l->offset + (guint) d->port[side][channel], 1.0, 0.0, NULL, 0.0 };
  return p;
}

/* Every end port lives in the frame: Lambda(theta_mid). */
static FxThetaRef
ff_end_theta (const FxLinkSys *l, guint side, double dt)
{
  FxThetaRef t = { l->theta[0], 0.5 * dt, (int) (l->offset + I_W) };
  return t;
}

/* --------------------------------------------------------- energies */

static void
ff_energy (const FxSystem *sys, const FxLinkSys *l, const double *x, FxEnergy *en)
{
  const FfData *d = l->impl;
  const guint n = d->n, nn = d->n_nu;
  const double *q = l->theta + 1, *nu = x + l->offset;
  g_autofree double *M = g_new (double, nn * nn), *p = g_new (double, nn), *Kq = g_new (double, n);
  double T = 0.0, V = 0.0, su[2] = { d->s0[0], d->s0[1] }, cs[2], Ls[2];

  ff_mass (d, q, M);
  matvec (M, nn, nn, nu, p);
  band_matvec (d->K, n, q, Kq);
  for (guint i = 0; i < nn; i++)
    T += 0.5 * nu[i] * p[i];
  for (guint k = 0; k < n; k++)
    {
      V += 0.5 * q[k] * Kq[k];
      su[0] += d->S[k] * q[k];
      su[1] += d->S[n + k] * q[k];
    }
  rot (l->theta[0], cs);
  lam (cs, su, Ls);
  en->kinetic += T;
  en->elastic += V;
  en->gravity -= sys->gravity[0] * (d->m * l->r[0] + Ls[0]) + sys->gravity[1] * (d->m * l->r[1] + Ls[1]);
}

/* Spatial position of node i and its velocity, from the frame. */
static void
ff_node_state (const FxLinkSys *l, const double *x, guint i, double p[2], double v[2])
{
  const FfData *d = l->impl;
  const double *q = l->theta + 1, *nu = x + l->offset;
  double cs[2], xi[2] = { i * l->h - d->sP + q[3 * i], q[3 * i + 1] }, Lx[2];

  rot (l->theta[0], cs);
  lam (cs, xi, Lx);
  p[0] = l->r[0] + Lx[0];
  p[1] = l->r[1] + Lx[1];
  if (v)
    {
      double vb[2] = { nu[0] - nu[2] * xi[1] + nu[I_VF + 3 * i], nu[1] + nu[2] * xi[0] + nu[I_VF + 3 * i + 1] };
      lam (cs, vb, v);
    }
}

/* Momenta, lumped at the nodes (a diagnostic, as for GE links). */
static void
ff_momentum (const FxSystem *sys, const FxLinkSys *l, const double *x, double P[2], double *A)
{
  for (guint i = 0; i <= l->N; i++)
    {
      double w = (i == 0 || i == l->N ? 0.5 : 1.0) * l->h * l->rhoA, p[2], v[2];
      ff_node_state (l, x, i, p, v);
      P[0] += w * v[0];
      P[1] += w * v[1];
      *A += w * (p[0] * v[1] - p[1] * v[0]);
    }
  *A += l->rhoI * l->L * x[l->offset + I_W];
}

/* --------------------------------------------------- configuration */

static void
ff_commit (FxLinkSys *l, const double *x_mid, double dt)
{
  FfData *d = l->impl;
  const double *nu = x_mid + l->offset;
  double a = 0.5 * dt * nu[I_W], sigma, ds, tau, dtau, cs[2], dr[2];

  ff_trig (a, &sigma, &ds, &tau, &dtau);
  rot (l->theta[0] + a, cs);
  /* the step-mean forces the ends took, in the plane */
  for (guint side = 0; side < 2; side++)
    {
      lam (cs, nu + d->force[side][0], d->end_force[side]);
      d->end_force[side][2] = nu[d->force[side][1]];
    }
  lam (cs, nu, dr);
  l->r[0] += dt * sigma * dr[0];
  l->r[1] += dt * sigma * dr[1];
  l->theta[0] += dt * nu[I_W];
  for (guint k = 0; k < d->n; k++)
    l->theta[1 + k] += dt * nu[I_VF + k];
}

/* ---------------------------------------------------------- drawing */

static double
ff_curvature (const FxLinkSys *l, guint e, double xi)
{
  FfShape sh;
  double k = 0.0;
  ff_shape (e, l->h, xi, &sh);
  for (guint i = 0; i < 6; i++)
    k += sh.wpp[i] * l->theta[1 + sh.dof[i]];
  return k;
}

static void
ff_node (const FxLinkSys *l, const double *x, guint i, double p[2], double *theta, double *moment)
{
  const FfData *d = l->impl;
  if (p)
    ff_node_state (l, x, i, p, NULL);
  if (theta)
    *theta = l->theta[0] + l->theta[1 + 3 * i + 2];
  if (moment)
    {
      double k = i == 0 ? ff_curvature (l, 0, 0.0)
               : i == l->N ? ff_curvature (l, l->N - 1, 1.0)
               : 0.5 * (ff_curvature (l, i - 1, 1.0) + ff_curvature (l, i, 0.0));
      *moment = d->EI * k;
    }
}

/* At rest: M(0), K on the flexible unknowns, the frame condition C and
 * the end velocities B_e^T at q = 0 (translation of `from`, rotation of
 * `from`, translation of `to`, rotation of `to`: 6 rows). With ends = NULL
 * (or M = NULL) only the size. */
static guint
ff_modes_blocks (const FxLinkSys *l, double *M, double *K, double *constraints, double *ends)
{
  const FfData *d = l->impl;
  const guint n = d->n, nn = d->n_nu;
  if (M == NULL)
    return nn;
  g_autofree double *q0 = g_new0 (double, n);

  ff_mass (d, q0, M);
  memset (K, 0, sizeof (double) * nn * nn);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      K[(I_VF + i) * nn + I_VF + j] = d->K[i * n + j];
  memset (constraints, 0, sizeof (double) * 3 * nn);
  for (guint r = 0; r < 3; r++)
    for (guint k = 0; k < n; k++)
      constraints[r * nn + I_VF + k] = d->C[r * n + k];
  memset (ends, 0, sizeof (double) * 6 * nn);
  for (guint side = 0; side < 2; side++)
    {
      guint node = side == 0 ? 0 : l->N, iu = 3 * node;
      double *t = ends + 3 * side * nn, xi0 = node * l->h - d->sP;
      /* v_P + omega J xi + (u', w'), xi = (xi0, 0); omega + phi' */
      t[0] = 1.0;
      t[I_W] = 0.0;
      t[I_VF + iu] = 1.0;
      t[nn + 1] = 1.0;
      t[nn + I_W] = xi0;
      t[nn + I_VF + iu + 1] = 1.0;
      t[2 * nn + I_W] = 1.0;
      t[2 * nn + I_VF + iu + 2] = 1.0;
    }
  return nn;
}

/* The frame, the tip's deflection from the `from` tangent, gamma and the
 * largest deflection from the frame's axis. */
static void
ff_frame_gauges (const FxLinkSys *l, const double *x, FxFrameGauges *g)
{
  const FfData *d = l->impl;
  const double *q = l->theta + 1;
  const guint N = l->N;

  g->x_P = l->r[0];
  g->y_P = l->r[1];
  g->theta = l->theta[0];
  g->length = l->L;
  double dx = l->L + q[3 * N] - q[0], dy = q[3 * N + 1] - q[1], phi0 = q[2];
  g->tip_deflection = -sin (phi0) * dx + cos (phi0) * dy;
  g->gamma = 0.0;
  g->deflection = 0.0;
  for (guint e = 0; e < N; e++)
    g->gamma = MAX (g->gamma, fabs (d->EA * (q[3 * (e + 1)] - q[3 * e]) / l->h));
  g->gamma *= l->L * l->L / (G_PI * G_PI * d->EI);
  for (guint i = 0; i <= N; i++)
    g->deflection = MAX (g->deflection, fabs (q[3 * i + 1]));
  memcpy (g->end_force, d->end_force, sizeof g->end_force);
}

/* ----------------------------------------------- scaling and modes */

/* Blocks, each of one size: the frame's velocity and angular velocity,
 * the flexible velocities and slopes' rates, the multipliers, the ends'
 * velocities and angular velocities, their forces and moments. */
static guint
ff_blocks (const FxLinkSys *l, guint *block_of, guint nb, GArray *kind, GArray *length)
{
  const FfData *d = l->impl;
  static const guint kinds[9] = { 0, 1, 0, 1, 2, 0, 1, 2, 3 };

  for (guint i = 0; i < l->n_unknowns; i++)
    {
      guint b;
      if (i < 2)
        b = 0;
      else if (i == I_W)
        b = 1;
      else if (i < d->n_nu)
        b = (i - I_VF) % 3 == 2 ? 3 : 2;
      else if (i < d->n_nu + 3)
        b = 4;
      else
        {
          b = 7;
          for (guint side = 0; side < 2; side++)
            for (guint ch = 0; ch < 2; ch++)
              {
                guint k = ch == 0 ? 2 : 1, y = (guint) d->port[side][ch], f = (guint) d->force[side][ch];
                gboolean F = y != f;
                if (i >= y && i < y + k)
                  b = F ? (ch == 0 ? 5 : 6) : (ch == 0 ? 7 : 8);
                if (F && i >= f && i < f + k)
                  b = ch == 0 ? 7 : 8;
              }
        }
      block_of[l->offset + i] = nb + b;
    }
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_array_append_val (kind, kinds[k]);
      g_array_append_val (length, l->L);
    }
  return G_N_ELEMENTS (kinds);
}

static gboolean
ff_unknown_is_velocity (const FxLinkSys *l, guint i)
{
  const FfData *d = l->impl;
  return i < d->n_nu;
}

const FxLinkModel fx_link_model_floating_frame = {
  .name = "floating-frame",
  .mass_moves = TRUE,
  .setup = ff_setup,
  .clear = ff_clear,
  .initial_motion = ff_initial_motion,
  .assemble = ff_assemble,
  .port = ff_port,
  .end_theta = ff_end_theta,
  .energy = ff_energy,
  .momentum = ff_momentum,
  .commit = ff_commit,
  .node = ff_node,
  .point = ff_point,
  .point_force = ff_point_force,
  .resultants = ff_resultants,
  .blocks = ff_blocks,
  .modes_blocks = ff_modes_blocks,
  .frame_gauges = ff_frame_gauges,
  .unknown_is_velocity = ff_unknown_is_velocity,
};
