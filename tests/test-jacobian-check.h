/* test-jacobian-check.h: the analytic Newton matrix against central
 * differences of the residual, shared by the Jacobian tests. */
#pragma once

#include "fx-system-private.h"

#include <math.h>

typedef struct {
  double worst;    /* max |J - J_fd|                          */
  double jmax;     /* max |J|                                 */
  double outside;  /* max |J_fd| outside the recorded pattern (must be 0) */
} JacobianCheck;

/* Compare at the system's current state x_n and the trial x (perturbed in
 * place and restored), step dt. */
static inline JacobianCheck
test_jacobian_check (FxSystem *sys, double *x, double dt)
{
  guint n = sys->n;
  g_autofree double *Rp = g_new (double, n), *Rm = g_new (double, n);
  FxMatrix *J = fx_system_new_jacobian (sys, FX_MATRIX_DENSE, NULL);
  FxMatrix *P = fx_system_new_jacobian (sys, FX_MATRIX_SPARSE, NULL);
  JacobianCheck c = { 0, 0, 0 };

  fx_system_residual (sys, x, dt, Rp, NULL, J);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      c.jmax = MAX (c.jmax, fabs (fx_matrix_get (J, i, j)));

  for (guint j = 0; j < n; j++)
    {
      double xj = x[j], eps = 1e-6;
      x[j] = xj + eps;
      fx_system_residual (sys, x, dt, Rp, NULL, NULL);
      x[j] = xj - eps;
      fx_system_residual (sys, x, dt, Rm, NULL, NULL);
      x[j] = xj;
      for (guint i = 0; i < n; i++)
        {
          double fd = (Rp[i] - Rm[i]) / (2 * eps);
          if (!fx_matrix_in_pattern (P, i, j))
            c.outside = MAX (c.outside, fabs (fd));
          double err = fabs (fd - fx_matrix_get (J, i, j));
          if (err > c.worst && g_getenv ("FX_JACOBIAN_DEBUG"))
            g_printerr ("J[%u,%u] = %g, differences %g\n", i, j, fx_matrix_get (J, i, j), fd);
          c.worst = MAX (c.worst, err);
        }
    }
  fx_matrix_free (J);
  fx_matrix_free (P);
  return c;
}

/* The same for the two-stage Gauss system (physics.md §16): the stage
 * unknowns X (2n, interleaved) at X = x + perturbation per stage. */
static inline JacobianCheck
test_jacobian_check_stages (FxSystem *sys, const double *x, double dt, GRand *rng)
{
  guint m = FX_GAUSS_STAGES * sys->n;
  g_autofree double *X = g_new (double, m);
  g_autofree double *Rp = g_new (double, m), *Rm = g_new (double, m);
  FxMatrix *J = fx_system_new_stage_jacobian (sys, FX_MATRIX_DENSE, NULL);
  FxMatrix *P = fx_system_new_stage_jacobian (sys, FX_MATRIX_SPARSE, NULL);
  JacobianCheck c = { 0, 0, 0 };

  for (guint k = 0; k < m; k++)
    X[k] = x[k / FX_GAUSS_STAGES] + g_rand_double_range (rng, -0.2, 0.2);
  fx_system_stage_residual (sys, X, dt, Rp, NULL, J);
  for (guint i = 0; i < m; i++)
    for (guint j = 0; j < m; j++)
      c.jmax = MAX (c.jmax, fabs (fx_matrix_get (J, i, j)));
  for (guint j = 0; j < m; j++)
    {
      double xj = X[j], eps = 1e-6;
      X[j] = xj + eps;
      fx_system_stage_residual (sys, X, dt, Rp, NULL, NULL);
      X[j] = xj - eps;
      fx_system_stage_residual (sys, X, dt, Rm, NULL, NULL);
      X[j] = xj;
      for (guint i = 0; i < m; i++)
        {
          double fd = (Rp[i] - Rm[i]) / (2 * eps);
          if (!fx_matrix_in_pattern (P, i, j))
            c.outside = MAX (c.outside, fabs (fd));
          double err = fabs (fd - fx_matrix_get (J, i, j));
          if (err > c.worst && g_getenv ("FX_JACOBIAN_DEBUG"))
            g_printerr ("stages: J[%u,%u] = %g, differences %g\n", i, j, fx_matrix_get (J, i, j), fd);
          c.worst = MAX (c.worst, err);
        }
    }
  fx_matrix_free (J);
  fx_matrix_free (P);
  return c;
}
