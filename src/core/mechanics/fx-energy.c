/* fx-energy.c: the Hamiltonian and its parts, and the momenta (diagnostics). */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ energies */


FxEnergy
fx_system_energy (const FxSystem *sys)
{
  FxEnergy en = { 0, 0, 0 };

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      l->model->energy (sys, l, sys->x, &en);
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->inertia_dof < 0)
        continue;
      const double *v = &sys->x[j->inertia_dof];
      double v2 = j->slider ? v[0] * v[0] : v[0] * v[0] + v[1] * v[1];
      en.kinetic += 0.5 * j->inertia * v2;
      en.gravity -= j->weight * (sys->gravity[0] * j->pos[0] + sys->gravity[1] * j->pos[1]);
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
      l->model->momentum (sys, l, sys->x, P, &A);
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

