/* fx-link-ge.c: the geometrically exact link as a link model
 * (fx-link-model.h): its unknowns and configuration, ports, energies,
 * configuration update and drawing. Its element kernel (the residual rows)
 * is fx-link-kernel.c.
 *
 * Unknowns: slots 0 .. 2N alternate node (even) and element (odd), each
 * [translation x, translation y, rotation]; T and R choose which fields are
 * CG1 (node slots) and which DG0 (element slots), docs/theory.md §2.
 */
#include "fx-kernel.h"
#include "fx-link-model.h"

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
  l->n_unknowns = FX_SLOT * (2 * l->N + 1);

  l->n_theta = l->R == FX_CAUSAL_F ? l->N + 1 : l->N;
  l->n_r = l->T == FX_CAUSAL_F ? l->N + 1 : l->N;
  l->theta = g_new (double, l->n_theta);
  for (guint i = 0; i < l->n_theta; i++)
    l->theta[i] = l->angle0;
  l->theta_end[0] = l->theta_end[1] = l->angle0;
  l->r = g_new (double, 2 * l->n_r);
  for (guint i = 0; i < l->n_r; i++)
    {
      double s = l->T == FX_CAUSAL_F ? i * l->h : (i + 0.5) * l->h;
      l->r[2 * i] = l->origin[0] + s * cos (l->angle0);
      l->r[2 * i + 1] = l->origin[1] + s * sin (l->angle0);
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
      x[field_dof (l, F_VX, i)] = vh[0];
      x[field_dof (l, F_VY, i)] = vh[1];
    }
  guint n_w = field_is_cg (l, F_W) ? l->N + 1 : l->N;
  for (guint i = 0; i < n_w; i++)
    x[field_dof (l, F_W, i)] = w;
}

/* ------------------------------------------------------------ ports */

static FxPort
ge_port (const FxLinkSys *l, guint side, FxChannel channel)
{
  FxCausality c = channel == FX_CHANNEL_TRANSLATION ? l->T : l->R;
  guint node = side == 0 ? 0 : l->N;
  FxPort p = { 0, side, 0, 1.0, 0.0, NULL };

  p.dof = channel == FX_CHANNEL_TRANSLATION ? field_dof (l, c == FX_CAUSAL_F ? F_VX : F_NX, node)
                                            : field_dof (l, c == FX_CAUSAL_F ? F_W : F_M, node);
  /* V-causal outputs are -n(0), n(L): the force applied on the link */
  p.sigma = (c == FX_CAUSAL_V && side == 0) ? -1.0 : 1.0;
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

/* --------------------------------------------------------- energies */

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

static void
ge_energy (const FxSystem *sys, const FxLinkSys *l, const double *x, FxEnergy *en)
{
  double ir[2];
  en->kinetic += field_energy (l, F_VX, x) + field_energy (l, F_VY, x) + field_energy (l, F_W, x);
  en->elastic += field_energy (l, F_NX, x) + field_energy (l, F_NY, x) + field_energy (l, F_M, x);
  link_position_integral (l, ir);
  en->gravity -= l->rhoA * (sys->gravity[0] * ir[0] + sys->gravity[1] * ir[1]);
}

static void
ge_momentum (const FxSystem *sys, const FxLinkSys *l, const double *x, double P[2], double *A)
{
  for (guint e = 0; e < l->N; e++)
    for (guint gp = 0; gp < 2; gp++)
      {
        double xi = gauss_xi[gp], wg = 0.5 * l->h;
        Shape sx, sy, sw;
        field_shape (l, F_VX, e, xi, &sx);
        field_shape (l, F_VY, e, xi, &sy);
        field_shape (l, F_W, e, xi, &sw);
        double vh[2] = { shape_eval (&sx, x), shape_eval (&sy, x) }, v[2], cs[2];
        rot (theta_n_at (l, e, xi), cs);
        lam (cs, vh, v);
        /* position at the Gauss point: interpolate the node positions */
        double a[2], b[2], r[2];
        fx_node_position (l, x, e, a);
        fx_node_position (l, x, e + 1, b);
        r[0] = (1 - xi) * a[0] + xi * b[0];
        r[1] = (1 - xi) * a[1] + xi * b[1];
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
static void
link_advance_positions (FxLinkSys *l, const double *xm, const double *xc, double dt, double dt_r)
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
        double theta = theta_n_at (l, e, xi) + 0.5 * dt * shape_eval (&sw, xc);
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
    l->r[i] += dt_r * b[i];
}

static void ge_advance_angles (FxLinkSys *l, const double *x_mid, double dt);

static void
ge_commit (FxLinkSys *l, const double *x_mid, double dt)
{
  link_advance_positions (l, x_mid, x_mid, dt, dt);
  ge_advance_angles (l, x_mid, dt);
}

/* Two-stage Gauss (physics.md §16): r_{n+1} = r_n + dt sum_i b_i P(Lambda(theta_i)
 * v(X_i)), b_i = 1/2, sampled exactly as the stages' gravity power; the
 * angles, linear in the velocities, with x_bar = sum_i b_i X_i. */
static void
ge_commit_stages (FxLinkSys *l, const double *const *X, const double *const *Xc, guint S,
                  const double *x_bar, double dt)
{
  for (guint i = 0; i < S; i++)
    link_advance_positions (l, X[i], Xc[i], dt, dt / S);
  ge_advance_angles (l, x_bar, dt);
}

static void
ge_advance_angles (FxLinkSys *l, const double *x_mid, double dt)
{
  guint n_theta = l->R == FX_CAUSAL_F ? l->N + 1 : l->N;

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

static void
ge_node (const FxLinkSys *l, const double *x, guint i, double p[2], double *theta, double *moment)
{
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
  return 4;
}

/* A node slot holds the CG1 fields, an element slot the DG0 ones. */
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
  .commit_stages = ge_commit_stages,
  .node = ge_node,
  .blocks = ge_blocks,
  .unknown_is_velocity = ge_unknown_is_velocity,
};
