/* fx-configuration.c: after a step, the configuration that rides along:
 * angles and positions advanced with the converged midpoint velocities, with
 * the same quadrature as the gravity power (so U balances exactly).
 */
#include "fx-kernel.h"

#include <math.h>
#include <string.h>

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
  fx_reactions_accumulate (sys, sys->x_mid, dt);

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

