/* fx-energy.c: the Hamiltonian and its parts, and the momenta (diagnostics). */
#include "fx-kernel.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ energies */


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
            fx_node_position (l, sys->x, e, a);
            fx_node_position (l, sys->x, e + 1, b);
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

