/* fx-link-ge.c: the geometrically exact link as a link model
 * (fx-link-model.h): its unknowns and configuration, ports, energies,
 * configuration update and drawing. Its element kernel (the residual rows)
 * is fx-link-kernel.c.
 *
 * Unknowns: slots 0 .. 2kN alternate CG (even) and DG (odd), each
 * [translation x, translation y, rotation]; T and R choose which fields are
 * CG_k and which DG_{k-1} (fx-system-private.h), docs/theory.md §2; k is the
 * link's degree (physics.md §15). Degree 1 keeps its own closed forms
 * (bit for bit the lowest-order scheme); k > 1 goes through the bases of
 * fx-kernel.h.
 */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

/* ----------------------------------------------------------- layout */

static void
ge_setup (FxLinkSys *l, const FxLink *ml)
{
  if (ml->rigid)
    l->Ct[0] = l->Ct[1] = l->Cr = 0.0;
  else
    {
      l->Ct[0] = 1.0 / ml->section.EA;
      l->Ct[1] = 1.0 / ml->section.GA;
      l->Cr = 1.0 / ml->section.EI;
    }
  l->damping = ml->damping;
  l->rotational_damping = ml->rotational_damping;
  /* a rigid link's stresses are multipliers: nothing to damp */
  l->eta = ml->rigid ? 0.0 : ml->kelvin_voigt;
  const guint k = l->k;
  l->n_draw = k * l->N;
  l->n_unknowns = FX_SLOT * (2 * k * l->N + 1);

  l->n_theta = field_count (l, F_W);
  /* k > 1: after the r field, the drawn points' own positions (see
   * advance_drawn_points) */
  l->n_r = field_count (l, F_VX) + (k > 1 ? l->n_draw + 1 : 0);
  l->theta = g_new (double, l->n_theta);
  /* a DG field's higher Legendre coefficients of a straight link are 0 */
  for (guint i = 0; i < l->n_theta; i++)
    l->theta[i] = (l->R == FX_CAUSAL_F || i % k == 0) ? l->angle0 : 0.0;
  l->theta_end[0] = l->theta_end[1] = l->angle0;
  l->r = g_new (double, 2 * l->n_r);
  for (guint i = 0; i < l->n_r; i++)
    {
      /* CG: the node at s = i h / k; DG: the mean (d = 0) and the slope
       * (d = 1: r = mean + (h/2) P_1 t) of the straight element */
      gboolean cg = l->T == FX_CAUSAL_F;
      guint d = cg ? 0 : i % k;
      double s = cg ? (double) i * l->h / k : (i / k + 0.5) * l->h;
      double a = d == 0 ? 1.0 : 0.0, b = d == 0 ? s : d == 1 ? 0.5 * l->h : 0.0;
      if (k == 1)
        s = cg ? i * l->h : (i + 0.5) * l->h, b = s;
      l->r[2 * i] = a * l->origin[0] + b * cos (l->angle0);
      l->r[2 * i + 1] = a * l->origin[1] + b * sin (l->angle0);
      if (i + 1 == field_count (l, F_VX))
        break;
    }
  for (guint i = 0; k > 1 && i <= l->n_draw; i++)
    {
      double s = (double) i * l->h / k;
      double *p = l->r + 2 * (field_count (l, F_VX) + i);
      p[0] = l->origin[0] + s * cos (l->angle0);
      p[1] = l->origin[1] + s * sin (l->angle0);
    }
  l->omega_source[0] = l->omega_source[1] = -1;
  l->omega_sign[0] = l->omega_sign[1] = 0.0;
  fx_link_coupling (l);
}

/* Initial rigid motion about the link centre: v(s) = V + w J (r(s) - c). */
static void
ge_initial_motion (const FxLinkSys *l, const FxLink *ml, double *x)
{
  double V[2] = { ml->initial_velocity[0], ml->initial_velocity[1] }, w = ml->initial_omega;
  double cs[2];
  rot (l->angle0, cs);

  const guint k = l->k, n_v = field_count (l, F_VX);
  const gboolean cg = field_is_cg (l, F_VX);

  for (guint i = 0; i < n_v; i++)
    {
      /* v_hat is linear in s: CG nodal values; DG mean (d = 0) and slope
       * (d = 1, v_hat' h / 2) */
      guint d = cg ? 0 : i % k;
      double s = cg ? (k == 1 ? i * l->h : (double) i * l->h / k)
                    : (k == 1 ? (i + 0.5) * l->h : (i / k + 0.5) * l->h);
      double rel[2] = { (s - 0.5 * l->L) * cs[0], (s - 0.5 * l->L) * cs[1] }, Jr[2], v[2], vh[2];
      jrot (rel, Jr);
      v[0] = V[0] + w * Jr[0];
      v[1] = V[1] + w * Jr[1];
      if (d == 1)
        {
          /* d v / ds = w J t, times h / 2 */
          double t[2] = { 0.5 * l->h * cs[0], 0.5 * l->h * cs[1] };
          jrot (t, Jr);
          v[0] = w * Jr[0];
          v[1] = w * Jr[1];
        }
      else if (d > 1)
        v[0] = v[1] = 0.0;
      lam_t (cs, v, vh);
      x[field_dof (l, F_VX, i)] = vh[0];
      x[field_dof (l, F_VY, i)] = vh[1];
    }
  guint n_w = field_count (l, F_W);
  for (guint i = 0; i < n_w; i++)
    x[field_dof (l, F_W, i)] = (field_is_cg (l, F_W) || i % k == 0) ? w : 0.0;
}

/* ------------------------------------------------------------ ports */

static FxPort
ge_port (const FxLinkSys *l, guint side, FxChannel channel)
{
  FxCausality c = channel == FX_CHANNEL_TRANSLATION ? l->T : l->R;
  guint node = side == 0 ? 0 : l->k * l->N;
  FxPort p = { 0, side, 0, 1.0, 0.0, NULL, 0.0 };

  p.dof = channel == FX_CHANNEL_TRANSLATION ? field_dof (l, c == FX_CAUSAL_F ? F_VX : F_NX, node)
                                            : field_dof (l, c == FX_CAUSAL_F ? F_W : F_M, node);
  /* V-causal outputs are -n(0), n(L): the force applied on the link */
  p.sigma = (c == FX_CAUSAL_V && side == 0) ? -1.0 : 1.0;
  p.eta = c == FX_CAUSAL_V ? l->eta : 0.0;
  return p;
}

/* theta at a link end, at the midpoint: the nodal theta for R = F, the end
 * angle riding on its junction's Omega for R = V. */
static FxThetaRef
ge_end_theta (const FxLinkSys *l, guint side, double dt)
{
  FxThetaRef t;

  if (l->R == FX_CAUSAL_F)
    {
      guint node = side == 0 ? 0 : l->k * l->N;
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

/* --------------------------------------------------------- energies */

/* 1/2 (x, M x) of one field of a degree-k link, by its Gauss rule (exact:
 * degree 2k), the same quadratic form as its mass block. */
static double
field_energy_k (const FxLinkSys *l, int f, const double *x)
{
  const GaussRule q = gauss_rule (l->k);
  double e = 0.0;

  for (guint el = 0; el < l->N; el++)
    for (guint g = 0; g < q.n; g++)
      {
        Shape sh;
        field_shape (l, f, el, q.xi[g], &sh);
        double v = shape_eval (&sh, x);
        e += 0.5 * q.w[g] * l->h * v * v;
      }
  return e;
}

static double
field_energy (const FxLinkSys *l, int f, const double *x)
{
  double mu = field_mass (l, f), e = 0.0;

  if (mu == 0.0)
    return 0.0;
  if (l->k > 1)
    return mu * field_energy_k (l, f, x);
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

/* r as its field (CG_k values or DG_{k-1} coefficients) at xi of element e */
static void
r_field_at (const FxLinkSys *l, guint e, double xi, double p[2])
{
  const guint k = l->k;
  double b[FX_SHAPE_MAX];
  guint n;

  if (l->T == FX_CAUSAL_F)
    cg_basis (k, xi, b), n = k + 1;
  else
    dg_basis (k, xi, b), n = k;
  p[0] = p[1] = 0.0;
  for (guint i = 0; i < n; i++)
    {
      p[0] += b[i] * l->r[2 * (k * e + i)];
      p[1] += b[i] * l->r[2 * (k * e + i) + 1];
    }
}

/* (1, r): the integral of the position over the link */
static void
link_position_integral (const FxLinkSys *l, double out[2])
{
  out[0] = out[1] = 0.0;
  if (l->k > 1)
    {
      /* int r ds with the rule of the dynamics: the gravity potential's
       * rate is then exactly the gravity power (physics.md §4) */
      const GaussRule q = gauss_rule (l->k);
      for (guint e = 0; e < l->N; e++)
        for (guint g = 0; g < q.n; g++)
          {
            double p[2];
            r_field_at (l, e, q.xi[g], p);
            out[0] += q.w[g] * l->h * p[0];
            out[1] += q.w[g] * l->h * p[1];
          }
      return;
    }
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

static void
ge_energy (const FxSystem *sys, const FxLinkSys *l, const double *x, FxEnergy *en)
{
  double ir[2];
  en->kinetic += field_energy (l, F_VX, x) + field_energy (l, F_VY, x) + field_energy (l, F_W, x);
  en->elastic += field_energy (l, F_NX, x) + field_energy (l, F_NY, x) + field_energy (l, F_M, x);
  link_position_integral (l, ir);
  en->gravity -= l->rhoA * (sys->gravity[0] * ir[0] + sys->gravity[1] * ir[1]);
}

static void ge_position_at (const FxLinkSys *l, const double *x, guint e, double xi, double p[2]);

static void
ge_momentum (const FxSystem *sys, const FxLinkSys *l, const double *x, double P[2], double *A)
{
  const GaussRule rule = gauss_rule (l->k);
  for (guint e = 0; e < l->N; e++)
    for (guint gp = 0; gp < rule.n; gp++)
      {
        double xi = rule.xi[gp], wg = rule.w[gp] * l->h;
        Shape sx, sy, sw;
        field_shape (l, F_VX, e, xi, &sx);
        field_shape (l, F_VY, e, xi, &sy);
        field_shape (l, F_W, e, xi, &sw);
        double vh[2] = { shape_eval (&sx, x), shape_eval (&sy, x) }, v[2], cs[2];
        rot (theta_n_at (l, e, xi), cs);
        lam (cs, vh, v);
        /* position at the Gauss point: interpolate the node positions */
        double a[2], b[2], r[2];
        if (l->k > 1)
          ge_position_at (l, x, e, xi, r);
        else
          {
            fx_node_position (l, x, e, a);
            fx_node_position (l, x, e + 1, b);
            r[0] = (1 - xi) * a[0] + xi * b[0];
            r[1] = (1 - xi) * a[1] + xi * b[1];
          }
        P[0] += wg * l->rhoA * v[0];
        P[1] += wg * l->rhoA * v[1];
        *A += wg * (l->rhoA * (r[0] * v[1] - r[1] * v[0]) + l->rhoI * shape_eval (&sw, x));
      }
}

/* --------------------------------------------------- configuration */

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
/* The CG_k mass matrix of the link, h sum_e M_e, in GSL's symmetric band
 * storage (row i: A(i, i), A(i + 1, i), ..., k subdiagonals), factorised. */
static gsl_matrix *
cgk_mass_factor (const FxLinkSys *l)
{
  const guint k = l->k, n = k * l->N + 1;
  const GaussRule q = gauss_rule (k);
  gsl_matrix *A = gsl_matrix_calloc (n, k + 1);
  double L[FX_SHAPE_MAX];

  for (guint e = 0; e < l->N; e++)
    for (guint g = 0; g < q.n; g++)
      {
        cg_basis (k, q.xi[g], L);
        for (guint a = 0; a <= k; a++)
          for (guint b = 0; b <= a; b++)
            *gsl_matrix_ptr (A, k * e + b, a - b) += q.w[g] * l->h * L[a] * L[b];
      }
  gsl_linalg_cholesky_band_decomp (A);
  return A;
}

/* Degree k > 1: (psi_r, r') = (psi_r, Lambda(theta_h) v_h) with the link's
 * Gauss rule; CG_k: the banded mass solve, DG_{k-1}: Legendre's diagonal. */
/* The spatial velocity Lambda(theta_mid) v_hat_mid at xi of element e. */
static void
velocity_mid_at (const FxLinkSys *l, const double *xm, double dt, guint e, double xi, double v[2])
{
  Shape sx, sy, sw;
  double cs[2];

  field_shape (l, F_VX, e, xi, &sx);
  field_shape (l, F_VY, e, xi, &sy);
  field_shape (l, F_W, e, xi, &sw);
  double vh[2] = { shape_eval (&sx, xm), shape_eval (&sy, xm) };
  rot (theta_n_at (l, e, xi) + 0.5 * dt * shape_eval (&sw, xm), cs);
  lam (cs, vh, v);
}

/* Degree k > 1: the drawn points (s = i h / k) ride on the velocity field
 * itself, p_i += dt Lambda(theta_mid(s_i)) v_hat_mid(s_i), the mean of both
 * elements where a DG velocity jumps. The r field is the L2 projection of
 * that motion onto CG_k or DG_{k-1}: exact for the gravity books, but only
 * O(h^{k+1}) at a point, while the fields at the points are as accurate as
 * the dynamics. Drawing, probes and joint gaps read these points. */
static void
advance_drawn_points (FxLinkSys *l, const double *xm, double dt)
{
  const guint k = l->k, n = l->n_draw;
  double *pts = l->r + 2 * field_count (l, F_VX);

  for (guint i = 0; i <= n; i++)
    {
      guint e = MIN (i / k, l->N - 1);
      double xi = (double) (i - k * e) / k, v[2];
      velocity_mid_at (l, xm, dt, e, xi, v);
      if (i % k == 0 && i > 0 && i < n)
        {
          double w[2];
          velocity_mid_at (l, xm, dt, e - 1, 1.0, w);
          v[0] = 0.5 * (v[0] + w[0]);
          v[1] = 0.5 * (v[1] + w[1]);
        }
      pts[2 * i] += dt * v[0];
      pts[2 * i + 1] += dt * v[1];
    }
}

static void
link_advance_positions_k (FxLinkSys *l, const double *xm, double dt)
{
  const guint k = l->k, n_r = field_count (l, F_VX);
  const gboolean cg = l->T == FX_CAUSAL_F;
  const GaussRule q = gauss_rule (k);
  g_autofree double *b = g_new0 (double, 2 * n_r);

  for (guint e = 0; e < l->N; e++)
    for (guint g = 0; g < q.n; g++)
      {
        double xi = q.xi[g], wg = q.w[g] * l->h;
        Shape sx, sy, sw;
        double phi[FX_SHAPE_MAX];
        field_shape (l, F_VX, e, xi, &sx);
        field_shape (l, F_VY, e, xi, &sy);
        field_shape (l, F_W, e, xi, &sw);
        double v[2] = { shape_eval (&sx, xm), shape_eval (&sy, xm) };
        double theta = theta_n_at (l, e, xi) + 0.5 * dt * shape_eval (&sw, xm);
        double cs[2], Lv[2];
        rot (theta, cs);
        lam (cs, v, Lv);
        for (guint i = 0; i < sx.n; i++)
          phi[i] = sx.w[i];
        for (guint i = 0; i < sx.n; i++)
          {
            b[2 * (k * e + i)] += wg * phi[i] * Lv[0];
            b[2 * (k * e + i) + 1] += wg * phi[i] * Lv[1];
          }
      }
  if (cg)
    {
      gsl_matrix *A = cgk_mass_factor (l);
      for (guint c = 0; c < 2; c++)
        {
          gsl_vector_view bv = gsl_vector_view_array_with_stride (b + c, 2, n_r);
          gsl_linalg_cholesky_band_svx (A, &bv.vector);
        }
      gsl_matrix_free (A);
    }
  else
    for (guint i = 0; i < n_r; i++)
      {
        double m = l->h / (2.0 * (i % k) + 1.0);
        b[2 * i] /= m;
        b[2 * i + 1] /= m;
      }
  for (guint i = 0; i < 2 * n_r; i++)
    l->r[i] += dt * b[i];
  advance_drawn_points (l, xm, dt);
}

static void
link_advance_positions (FxLinkSys *l, const double *xm, double dt)
{
  guint n_r = l->T == FX_CAUSAL_F ? l->N + 1 : l->N;

  if (l->k > 1)
    {
      link_advance_positions_k (l, xm, dt);
      return;
    }
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

static void
ge_commit (FxLinkSys *l, const double *x_mid, double dt)
{
  guint n_theta = l->n_theta;

  link_advance_positions (l, x_mid, dt);
  for (guint i = 0; i < n_theta; i++)
    l->theta[i] += dt * x_mid[field_dof (l, F_W, i)];
  if (l->R == FX_CAUSAL_V)
    for (guint side = 0; side < 2; side++)
      {
        if (l->omega_source[side] >= 0)
          l->theta_end[side] += dt * l->omega_sign[side] * x_mid[l->omega_source[side]];
        l->theta_end[side] += dt * l->omega_drive_now[side];
      }
}

/* ---------------------------------------------------------- drawing */

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
ge_node_position (const FxLinkSys *l, const double *x, guint i, double p[2])
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

/* The tangent Lambda(theta)(b1 + gamma_hat) of element e at xi. */
static void
tangent_at (const FxLinkSys *l, const double *x, guint e, double xi, double t[2])
{
  Shape sx, sy;
  double cs[2], g[2];

  field_shape (l, F_NX, e, xi, &sx);
  field_shape (l, F_NY, e, xi, &sy);
  g[0] = 1.0 + l->Ct[0] * shape_eval (&sx, x);
  g[1] = l->Ct[1] * shape_eval (&sy, x);
  rot (theta_n_at (l, e, xi), cs);
  lam (cs, g, t);
}

/* int_a^b t(xi) w(xi) dxi with the 5-point rule, w(xi) = c0 + c1 xi. */
static void
tangent_integral (const FxLinkSys *l, const double *x, guint e, double a, double b,
                  double c0, double c1, double out[2])
{
  out[0] = out[1] = 0.0;
  for (guint g = 0; g < 5; g++)
    {
      double xi = a + (b - a) * gauss_xi5[g], w = (b - a) * gauss_w5[g] * (c0 + c1 * xi), t[2];
      tangent_at (l, x, e, xi, t);
      out[0] += w * t[0];
      out[1] += w * t[1];
    }
}

/* Where the material point at xi of element e is. r in CG_k: its field.
 * r in DG_{k-1} (k > 1): the element's mean position (its P_0 coefficient,
 * the accurate part of the projection) plus the integral of the tangent
 * from there, r(xi) = r_mean + h (int_{1/2}^{xi} t - C), where C, the mean
 * of that integral over the element, keeps r_mean the mean. */
static void
ge_position_at (const FxLinkSys *l, const double *x, guint e, double xi, double p[2])
{
  double up[2], lo[2], run[2];

  if (l->T == FX_CAUSAL_F)
    {
      r_field_at (l, e, xi, p);
      return;
    }
  /* C = int_{1/2}^1 t (1 - xi) dxi - int_0^{1/2} t xi dxi */
  tangent_integral (l, x, e, 0.5, 1.0, 1.0, -1.0, up);
  tangent_integral (l, x, e, 0.0, 0.5, 0.0, 1.0, lo);
  tangent_integral (l, x, e, 0.5, xi, 1.0, 0.0, run);
  for (guint c = 0; c < 2; c++)
    p[c] = l->r[2 * (l->k * e) + c] + l->h * (run[c] - (up[c] - lo[c]));
}

/* A DG field (its values in v, coefficients from dof0 with stride 1 per
 * value: field f) at drawn point i of a degree-k link: the element's
 * polynomial; the mean of both sides at an element boundary. */
static double
dg_at_point (const FxLinkSys *l, const double *v, int f, guint i)
{
  const guint k = l->k;
  guint e = MIN (i / k, l->N - 1);
  double xi = (double) (i - k * e) / k, sum = 0.0;
  Shape sh;

  field_shape (l, f, e, xi, &sh);
  sum = shape_eval (&sh, v);
  if (i % k == 0 && i > 0 && i < k * l->N)
    {
      field_shape (l, f, e - 1, 1.0, &sh);
      sum = 0.5 * (sum + shape_eval (&sh, v));
    }
  return sum;
}

/* Drawn point i (0 .. kN, at s = i h / k) of a link of degree k > 1. */
static void
ge_node_k (const FxLinkSys *l, const double *x, guint i, double p[2], double *theta, double *moment)
{
  const guint k = l->k, n = k * l->N;
  guint e = MIN (i / k, l->N - 1);
  double xi = (double) (i - k * e) / k;

  if (p)
    {
      const double *pts = l->r + 2 * field_count (l, F_VX);
      p[0] = pts[2 * i];
      p[1] = pts[2 * i + 1];
    }
  if (theta)
    {
      if (l->R == FX_CAUSAL_F)
        *theta = l->theta[i];
      else if (i == 0 || i == n)
        *theta = l->theta_end[i == 0 ? 0 : 1];
      else
        {
          *theta = theta_n_at (l, e, xi);
          if (i % k == 0)
            *theta = 0.5 * (*theta + theta_n_at (l, e - 1, 1.0));
        }
    }
  if (moment)
    *moment = l->R == FX_CAUSAL_V ? x[field_dof (l, F_M, i)] : dg_at_point (l, x, F_M, i);
}

static void
ge_node (const FxLinkSys *l, const double *x, guint i, double p[2], double *theta, double *moment)
{
  if (l->k > 1)
    {
      ge_node_k (l, x, i, p, theta, moment);
      return;
    }
  if (p)
    ge_node_position (l, x, i, p);
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
        *moment = x[field_dof (l, F_M, i)];
      else if (i == 0)
        *moment = x[field_dof (l, F_M, 0)];
      else if (i == l->N)
        *moment = x[field_dof (l, F_M, l->N - 1)];
      else
        *moment = 0.5 * (x[field_dof (l, F_M, i - 1)] + x[field_dof (l, F_M, i)]);
    }
}

/* ----------------------------------------------- scaling and modes */

/* Four blocks per link: v, omega, n, m. */
static guint
ge_blocks (const FxLinkSys *l, guint *block_of, guint nb, GArray *kind, GArray *length)
{
  for (guint slot = 0; slot <= 2 * l->k * l->N; slot++)
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
  return 4;
}

/* An even slot holds the CG fields, an odd slot the DG ones. */
static gboolean
ge_unknown_is_velocity (const FxLinkSys *l, guint i)
{
  guint slot = i / FX_SLOT, comp = i % FX_SLOT;
  gboolean node = slot % 2 == 0;
  FxCausality c = comp < 2 ? l->T : l->R;
  return node == (c == FX_CAUSAL_F);
}

const FxLinkModel fx_link_model_geometrically_exact = {
  .name = "geometrically-exact",
  .mixed_fields = TRUE,
  .setup = ge_setup,
  .initial_motion = ge_initial_motion,
  .assemble = fx_link_assemble,
  .port = ge_port,
  .end_theta = ge_end_theta,
  .energy = ge_energy,
  .momentum = ge_momentum,
  .commit = ge_commit,
  .node = ge_node,
  .blocks = ge_blocks,
  .unknown_is_velocity = ge_unknown_is_velocity,
};
