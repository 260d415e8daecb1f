/* fx-configuration.c: after a step, the configuration that rides along:
 * angles and positions advanced with the converged midpoint velocities, with
 * the same quadrature as the gravity power (so U balances exactly).
 */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------------- commit */

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

/* Lumped masses, sliders, bodies and spring twists: linear in the
 * velocities, advanced with x_mid (Gauss: sum_i b_i X_i). */
static void
commit_lumped (FxSystem *sys, const double *x_mid, double dt)
{
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      {
        FxJunction *j = &g_array_index (arrs[c], FxJunction, i);
        if (j->inertia_dof < 0)
          continue;
        if (j->slider)
          {
            j->pos[0] += dt * j->direction[0] * x_mid[j->inertia_dof];
            j->pos[1] += dt * j->direction[1] * x_mid[j->inertia_dof];
            continue;
          }
        j->pos[0] += dt * x_mid[j->inertia_dof];
        if (c == 0)
          j->pos[1] += dt * x_mid[j->inertia_dof + 1];
      }
  for (guint i = 0; i < sys->bodies->len; i++)
    {
      FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, i);
      b->c[0] += dt * x_mid[b->dof];
      b->c[1] += dt * x_mid[b->dof + 1];
      b->phi += dt * x_mid[b->dof + 2];
    }
  body_attachments_place (sys);
  for (guint i = 0; i < sys->springs->len; i++)
    {
      FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      double rel = x_mid[sp->dof_a] - (sp->dof_b >= 0 ? x_mid[sp->dof_b] : 0.0);
      sp->phi += dt * rel;
    }
}

/* After a two-stage Gauss step (physics.md §16): the links' positions per
 * stage (their model's commit_stages), everything linear in the velocities
 * with x_bar = sum_i b_i X_i, speed motors' ends with sum_i b_i Omega(t_i).
 * The reactions take x_bar as their step's mean state. */
void
fx_system_commit_stages (FxSystem *sys, const double *X, const double *x_new, double dt)
{
  const guint S = FX_GAUSS_STAGES, n = sys->n;
  g_autofree double *buf = g_new (double, (2 * S + 1) * MAX (n, 1));
  const double *Xs[FX_GAUSS_STAGES], *Xc[FX_GAUSS_STAGES];
  double *x_bar = buf + 2 * S * n;

  for (guint i = 0; i < S; i++)
    {
      fx_gauss_stage_states (n, X, i, buf + 2 * i * n, buf + (2 * i + 1) * n);
      Xs[i] = buf + 2 * i * n;
      Xc[i] = buf + (2 * i + 1) * n;
    }
  for (guint c = 0; c < n; c++)
    x_bar[c] = 0.5 * (X[c * S] + X[c * S + 1]);
  fx_reactions_accumulate (sys, x_bar, dt);
  fx_system_stage_drives (sys, dt);
  for (guint li = 0; li < sys->n_links; li++)
    {
      FxLinkSys *l = &sys->links[li];
      l->model->commit_stages (l, Xs, Xc, S, x_bar, dt);
    }
  commit_lumped (sys, x_bar, dt);
  memcpy (sys->x, x_new, sizeof (double) * n);
  sys->t += dt;
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
      l->model->commit (l, sys->x_mid, dt);
    }
  commit_lumped (sys, sys->x_mid, dt);
  memcpy (sys->x, x, sizeof (double) * sys->n);
  sys->t += dt;
}

