/* fx-spring.c: torsional springs and dampers between pinned member ends
 * (or an end and the ground): a quadratic store and a dissipator.
 */
#include "fx-kernel.h"

#include <math.h>
#include <string.h>

/* Torsional spring-damper: phi_mid = phi_n + dt/2 (w_a - w_b)_mid and the
 * moment M_a = -k (phi_mid - rest) - c (w_a - w_b)_mid on a, -M_a on b. The
 * spring is a quadratic store, so the midpoint balances it exactly. */
static void
spring_kernel (const FxSpringSys *sp, Acc *a)
{
  const double dt = a->dt;
  double rel = a->xm[sp->dof_a] - (sp->dof_b >= 0 ? a->xm[sp->dof_b] : 0.0);
  /* the twist rides on xc (fx-kernel.h): the midpoint's rel, or Gauss's stage sum */
  double rel_c = a->xc[sp->dof_a] - (sp->dof_b >= 0 ? a->xc[sp->dof_b] : 0.0);
  double phi = sp->phi + 0.5 * dt * rel_c;
  double Ma = -sp->k * (phi - sp->rest) - sp->c * rel;
  double dMa = -sp->k * 0.5 * dt * a->fold - sp->c;  /* dM_a / d rel */
  double dMc = -sp->k * 0.5 * dt;                    /* dM_a / d rel_c (stages) */

  a->loss += sp->c * rel * rel;
  acc_G (a, (guint) sp->dof_a, dt * Ma, fabs (dt * Ma));
  acc_K (a, (guint) sp->dof_a, (guint) sp->dof_a, dt * dMa);
  if (sp->dof_b >= 0)
    {
      acc_K (a, (guint) sp->dof_a, (guint) sp->dof_b, -dt * dMa);
      acc_G (a, (guint) sp->dof_b, -dt * Ma, fabs (dt * Ma));
      acc_K (a, (guint) sp->dof_b, (guint) sp->dof_a, -dt * dMa);
      acc_K (a, (guint) sp->dof_b, (guint) sp->dof_b, dt * dMa);
    }
  if (a->fold == 0.0)
    {
      acc_K_config (a, (guint) sp->dof_a, (guint) sp->dof_a, dt * dMc);
      if (sp->dof_b >= 0)
        {
          acc_K_config (a, (guint) sp->dof_a, (guint) sp->dof_b, -dt * dMc);
          acc_K_config (a, (guint) sp->dof_b, (guint) sp->dof_a, -dt * dMc);
          acc_K_config (a, (guint) sp->dof_b, (guint) sp->dof_b, dt * dMc);
        }
    }
}


void
fx_springs_assemble (FxSystem *sys, FxAcc *a, double *power)
{
  for (guint i = 0; i < sys->springs->len; i++)
    spring_kernel (&g_array_index (sys->springs, FxSpringSys, i), a);
}
