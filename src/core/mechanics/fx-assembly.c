/* fx-assembly.c: the implicit-midpoint residual and its Jacobian,
 *
 *     R(x) = E (x - x_n) - dt F(x_mid, t_mid),   x_mid = (x_n + x) / 2,
 *     dR/dx = E - dt/2 dF/dx_mid,
 *
 * assembled from the links' element kernels, the junctions and the lumped
 * elements; and the power balance of a step (supplied, dissipated).
 */
#include "fx-cancel.h"
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- residual */

/* The lumped elements, after the links and junctions, in this order. A new
 * kind of element is a file with its kernel and one line here. */
static const FxElementFamily element_families[] = {
  { "point loads", fx_point_loads_assemble },
  { "drags",       fx_drags_assemble },
  { "bodies",      fx_bodies_assemble },
  { "springs",     fx_springs_assemble },
};

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
          fx_relative_drives_now (sys, j);
          continue;
        }
      double w = fx_profile_at (sys, j->drive_profile, sys->t_mid) * j->drive[0];
      for (guint k = 0; k < j->ports->len; k++)
        {
          const FxPort *p = &g_array_index (j->ports, FxPort, k);
          sys->links[p->link].omega_drive_now[p->side] = w;
        }
    }
  for (guint i = 0; i < sys->n; i++)
    sys->x_mid[i] = 0.5 * (sys->x[i] + x[i]);
  /* a model without unknowns may pass NULL vectors: memset must not see them */
  if (sys->n > 0)
    memset (R, 0, sizeof (double) * sys->n);
  if (mag && sys->n > 0)
    memset (mag, 0, sizeof (double) * sys->n);
  if (J)
    {
      fx_matrix_zero (J);
      fx_matrix_band_view (J, &a.band);
    }

  for (guint li = 0; li < sys->n_links; li++)
    sys->links[li].model->assemble (sys, &sys->links[li], &a);
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->body >= 0)
        power += fx_tjunction_body (sys, j, &a);
      else if (j->slider)
        power += fx_tjunction_slider (sys, j, &a);
      else if (j->inertia_dof >= 0)
        power += fx_tjunction_mass (sys, j, &a);
      else if (j->driven)
        power += fx_junction_driven (sys, j, TRUE, &a);
      else if (!j->ground)
        power += fx_tjunction_free (sys, j, &a);
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (j->inertia_dof >= 0)
        power += fx_rjunction_inertia (sys, j, &a);
      else if (j->driven)
        power += fx_junction_driven (sys, j, FALSE, &a);
      else if (!j->ground)
        power += fx_rjunction_free (sys, j, &a);
    }
  for (guint k = 0; k < G_N_ELEMENTS (element_families); k++)
    element_families[k].assemble (sys, &a, &power);
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
  g_autofree double *R = g_new (double, MAX (sys->n, 1));
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
  /* the analysis is the longest part of preparing a big model */
  if (fx_cancel_check (error) || !fx_matrix_analyze (J, error))
    return NULL;
  return g_steal_pointer (&J);
}

