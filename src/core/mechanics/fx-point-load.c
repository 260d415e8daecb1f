/* fx-point-load.c: loads at a point of a link (docs/theory.md, loads). */
#include "fx-kernel.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------- point loads */

/* A point load through the link model's point (fx-link-model.h): the
 * force enters as dt B^T f and supplies f . v + ell omega; a material
 * force turns with the section, f = Lambda(theta_s) F. */
static double
model_point_load (const FxLinkSys *l, const FxPointLoad *pl, double scale, Acc *a)
{
  const double dt = a->dt;
  FxPointKinematics k;
  double F[2] = { scale * pl->force[0], scale * pl->force[1] }, f[2], Jf[2];
  double ell = scale * pl->moment;

  l->model->point (l, pl->s, a->xm, dt, &k);
  if (pl->material)
    {
      double cs[2];
      rot (k.theta, cs);
      lam (cs, F, f);
    }
  else
    f[0] = F[0], f[1] = F[1];
  l->model->point_force (l, pl->s, a->xm, dt, f, ell, a);
  if (pl->material)
    {
      /* d(Lambda F)/dtheta = J Lambda F, through the section angle */
      jrot (f, Jf);
      for (guint r = 0; r < k.n; r++)
        for (guint c = 0; c < k.n; c++)
          acc_K (a, k.dof[r], k.dof[c], dt * (k.b[r][0] * Jf[0] + k.b[r][1] * Jf[1]) * k.dtheta[c]);
    }
  return f[0] * k.v[0] + f[1] * k.v[1] + ell * k.omega;
}

/* Point load at s_p: adds psi_v(s_p) . f_hat and psi_omega(s_p) l (docs/theory.md
 * section 4); f_hat = Lambda(theta(s_p))^T F for a dead load. */
static double
point_load (FxSystem *sys, const FxPointLoad *pl, Acc *a)
{
  const FxLinkSys *l = &sys->links[pl->link];
  const double dt = a->dt, s = fx_profile_at (sys, pl->profile, sys->t_mid);
  double power = 0.0;

  if (l->model->point != NULL)
    return model_point_load (l, pl, s, a);

  for (guint k = 0; k < pl->n_at; k++)
    {
      const FxPointSample *ps = &pl->at[k];
      Shape sv[2], sw;
      double F[2] = { s * pl->force[0], s * pl->force[1] }, f[2], Sf[2];
      double ell = s * pl->moment;

      field_shape (l, F_VX, ps->element, ps->xi, &sv[0]);
      field_shape (l, F_VY, ps->element, ps->xi, &sv[1]);
      field_shape (l, F_W, ps->element, ps->xi, &sw);
      double w_mid = shape_eval (&sw, a->xc);  /* configuration velocity (fx-kernel.h) */
      double theta = theta_n_at (l, ps->element, ps->xi) + 0.5 * dt * w_mid;
      double cs[2];
      rot (theta, cs);

      if (pl->material)
        f[0] = F[0], f[1] = F[1];
      else
        lam_t (cs, F, f);
      srot (f, Sf);  /* d(Lambda^T F)/dtheta */

      for (guint c = 0; c < 2; c++)
        for (guint i = 0; i < sv[c].n; i++)
          {
            double w = ps->weight * sv[c].w[i];
            acc_G (a, sv[c].dof[i], dt * w * f[c], fabs (dt * w * f[c]));
            power += w * a->xm[sv[c].dof[i]] * f[c];
            if (!pl->material)
              for (guint kk = 0; kk < sw.n; kk++)
                acc_K_config (a, sv[c].dof[i], sw.dof[kk], dt * w * Sf[c] * 0.5 * dt * sw.w[kk]);
          }
      for (guint i = 0; i < sw.n; i++)
        {
          double w = ps->weight * sw.w[i];
          acc_G (a, sw.dof[i], dt * w * ell, fabs (dt * w * ell));
          power += w * a->xm[sw.dof[i]] * ell;
        }
    }
  return power;
}


void
fx_point_loads_assemble (FxSystem *sys, FxAcc *a, double *power)
{
  for (guint i = 0; i < sys->point_loads->len; i++)
    *power += point_load (sys, &g_array_index (sys->point_loads, FxPointLoad, i), a);
}
