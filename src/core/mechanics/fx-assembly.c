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

/* Speed motors' Omega at time t: into the links' omega_drive_now. */
static void
drives_at (FxSystem *sys, double t)
{
  sys->t_mid = t;
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
}

/* Every kernel once, into the context a; returns the supplied power. */
static double
assemble_all (FxSystem *sys, Acc *a)
{
  double power = 0.0;

  for (guint li = 0; li < sys->n_links; li++)
    sys->links[li].model->assemble (sys, &sys->links[li], a);
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->body >= 0)
        power += fx_tjunction_body (sys, j, a);
      else if (j->slider)
        power += fx_tjunction_slider (sys, j, a);
      else if (j->inertia_dof >= 0)
        power += fx_tjunction_mass (sys, j, a);
      else if (j->driven)
        power += fx_junction_driven (sys, j, TRUE, a);
      else if (!j->ground)
        power += fx_tjunction_free (sys, j, a);
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (j->inertia_dof >= 0)
        power += fx_rjunction_inertia (sys, j, a);
      else if (j->driven)
        power += fx_junction_driven (sys, j, FALSE, a);
      else if (!j->ground)
        power += fx_rjunction_free (sys, j, a);
    }
  for (guint k = 0; k < G_N_ELEMENTS (element_families); k++)
    element_families[k].assemble (sys, a, &power);
  return power;
}

static double
evaluate (FxSystem *sys, const double *x, double dt, double *R, double *mag, FxMatrix *J,
          double *loss)
{
  Acc a = { x, sys->x, sys->x_mid, R, mag, J, dt, 0.0, { NULL, 0, 0, 0, NULL },
            sys->x_mid, 1.0, NULL };
  double power;

  sys->dt = dt;
  drives_at (sys, sys->t + 0.5 * dt);
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

  power = assemble_all (sys, &a);
  if (loss)
    *loss = a.loss;
  return power;
}

/* ------------------------------------------------- two-stage Gauss (§16) */

#define SQRT3 1.73205080756887729353
const double fx_gauss_c[FX_GAUSS_STAGES] = { 0.5 - SQRT3 / 6.0, 0.5 + SQRT3 / 6.0 };
const double fx_gauss_A[FX_GAUSS_STAGES][FX_GAUSS_STAGES] = {
  { 0.25, 0.25 - SQRT3 / 6.0 }, { 0.25 + SQRT3 / 6.0, 0.25 } };
/* A^-1 = [[3, 2 sqrt3 - 3], [-3 - 2 sqrt3, 3]]; d = b^T A^-1 = (-sqrt3, sqrt3) */
static const double gauss_W[FX_GAUSS_STAGES][FX_GAUSS_STAGES] = {
  { 3.0, 2.0 * SQRT3 - 3.0 }, { -3.0 - 2.0 * SQRT3, 3.0 } };
const double fx_gauss_d[FX_GAUSS_STAGES] = { -SQRT3, SQRT3 };

/* Stage i's state X_i and its configuration velocities xc_i = 2 sum_j A_ij X_j,
 * from the interleaved stage unknowns X. */
void
fx_gauss_stage_states (guint n, const double *X, guint i, double *xi, double *xc)
{
  const guint S = FX_GAUSS_STAGES;
  for (guint c = 0; c < n; c++)
    {
      if (xi)
        xi[c] = X[c * S + i];
      if (xc)
        xc[c] = 2.0 * (fx_gauss_A[i][0] * X[c * S] + fx_gauss_A[i][1] * X[c * S + 1]);
    }
}

/* Speed motors' configuration rate for stage weights w_j at the stage
 * times: omega_drive_now = sum_j w_j Omega(t_j). */
static void
drives_combined (FxSystem *sys, const double *w, double dt)
{
  const guint S = FX_GAUSS_STAGES;
  g_autofree double *sum = g_new0 (double, 2 * MAX (sys->n_links, 1));

  for (guint j = 0; j < S; j++)
    {
      drives_at (sys, sys->t + fx_gauss_c[j] * dt);
      for (guint l = 0; l < sys->n_links; l++)
        for (guint side = 0; side < 2; side++)
          sum[2 * l + side] += w[j] * sys->links[l].omega_drive_now[side];
    }
  for (guint l = 0; l < sys->n_links; l++)
    for (guint side = 0; side < 2; side++)
      sys->links[l].omega_drive_now[side] = sum[2 * l + side];
}

/* The stage system R_i = sum_j W_ij E (X_j - x_n) - dt F(X_i, t_n + c_i dt), i = 1, 2,
 * rows and unknowns interleaved (fx-kernel.h); returns dt sum_i b_i (power_i). */
static double
evaluate_stages (FxSystem *sys, const double *X, double dt, double *R, double *mag,
                 FxMatrix *J, double *loss)
{
  const guint S = FX_GAUSS_STAGES, n = sys->n;
  g_autofree double *buf = g_new (double, 4 * MAX (n, 1));
  double *xi = buf, *xc = buf + n, *dxw = buf + 2 * n, *magx = buf + 3 * n;
  double flow = 0.0, lost = 0.0;
  FxBandView band = { NULL, 0, 0, 0, NULL };

  sys->dt = dt;
  if (n > 0)
    memset (R, 0, sizeof (double) * S * n);
  if (mag && n > 0)
    memset (mag, 0, sizeof (double) * S * n);
  if (J)
    {
      fx_matrix_zero (J);
      fx_matrix_band_view (J, &band);
    }
  for (guint i = 0; i < S; i++)
    {
      FxStage st = { S, i, { gauss_W[i][0], gauss_W[i][1] },
                     { 2.0 * fx_gauss_A[i][0], 2.0 * fx_gauss_A[i][1] }, dxw, magx };
      Acc a = { NULL, sys->x, xi, R, mag, J, dt, 0.0, band, xc, 0.0, &st };
      double wsum = gauss_W[i][0] + gauss_W[i][1];

      fx_gauss_stage_states (n, X, i, xi, xc);
      for (guint c = 0; c < n; c++)
        {
          double x0 = X[c * S], x1 = X[c * S + 1], xn = sys->x[c];
          dxw[c] = gauss_W[i][0] * (x0 - xn) + gauss_W[i][1] * (x1 - xn);
          magx[c] = fabs (gauss_W[i][0] * x0) + fabs (gauss_W[i][1] * x1) + fabs (wsum * xn);
        }
      drives_combined (sys, st.A2, dt);
      /* the kernels' loads and velocity drives at the stage time */
      sys->t_mid = sys->t + fx_gauss_c[i] * dt;
      double power = assemble_all (sys, &a);
      flow += 0.5 * dt * power;
      lost += 0.5 * dt * a.loss;
    }
  if (loss)
    *loss = lost;
  return flow;
}

void
fx_system_stage_residual (FxSystem *sys, const double *X, double dt,
                          double *residual, double *mag, FxMatrix *jacobian)
{
  evaluate_stages (sys, X, dt, residual, mag, jacobian, NULL);
}

void
fx_system_stage_flows (FxSystem *sys, const double *X, double dt, double *supplied,
                       double *dissipated)
{
  g_autofree double *R = g_new (double, FX_GAUSS_STAGES * MAX (sys->n, 1));
  *supplied = evaluate_stages (sys, X, dt, R, NULL, NULL, dissipated);
}

/* Speed motors' rate over a whole Gauss step: sum_i b_i Omega(t_i). */
void
fx_system_stage_drives (FxSystem *sys, double dt)
{
  const double b[FX_GAUSS_STAGES] = { 0.5, 0.5 };
  drives_combined (sys, b, dt);
}

FxMatrix *
fx_system_new_stage_jacobian (FxSystem *sys, FxMatrixKind kind, GError **error)
{
  const guint S = FX_GAUSS_STAGES;
  g_autoptr (FxMatrix) J = fx_matrix_new (S * sys->n, kind);
  g_autofree double *R = g_new (double, S * MAX (sys->n, 1));
  g_autofree double *X = g_new (double, S * MAX (sys->n, 1));

  for (guint c = 0; c < sys->n; c++)
    X[c * S] = X[c * S + 1] = sys->x[c];
  evaluate_stages (sys, X, 1.0, R, NULL, J, NULL);
  if (fx_cancel_check (error) || !fx_matrix_analyze (J, error))
    return NULL;
  return g_steal_pointer (&J);
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

