/* fx-modes-frame.c: modes of a link model that gives its own blocks
 * (fx-link-model.h, modes_blocks): a floating-frame link alone, held or
 * free at its ends (docs/theory.md, "Floating-frame links"). With Z a basis
 * of the null space of its frame condition and of its held ends' velocities,
 * Z^T K Z phi = omega^2 Z^T M Z phi (gsl_eigen_gensymmv); zero eigenvalues
 * are the motions (3 for a free link, none for a clamped one). */
#include "fx-modes-frame.h"
#include "fx-system-private.h"
#include "fx-link-model.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>

gboolean
fx_modes_frame_applies (const FxSystem *sys)
{
  for (guint l = 0; l < sys->n_links; l++)
    if (sys->links[l].model->modes_blocks != NULL)
      return TRUE;
  return FALSE;
}

/* How the end's port is held in the linear model: 1 held (a support, a
 * motor), 0 free (the link alone at a joint without inertia), -1 other. */
static int
end_held (const FxSystem *sys, GArray *junctions, guint side)
{
  for (guint i = 0; i < junctions->len; i++)
    {
      const FxJunction *j = &g_array_index (junctions, FxJunction, i);
      for (guint k = 0; k < j->ports->len; k++)
        {
          const FxPort *p = &g_array_index (j->ports, FxPort, k);
          if (p->link != 0 || p->side != side)
            continue;
          if (j->ground || j->driven)
            return 1;
          return j->ports->len == 1 && j->inertia_dof < 0 && j->body < 0 ? 0 : -1;
        }
    }
  return 0;
}

/* An orthonormal basis (columns) of the null space of the r x c rows B. */
static gsl_matrix *
null_space (const double *B, guint r, guint c, guint *dim)
{
  gsl_matrix *BtB = gsl_matrix_calloc (c, c), *V = gsl_matrix_alloc (c, c);
  gsl_vector *ev = gsl_vector_alloc (c);
  gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc (c);

  for (guint i = 0; i < c; i++)
    for (guint j = 0; j < c; j++)
      {
        double s = 0.0;
        for (guint k = 0; k < r; k++)
          s += B[k * c + i] * B[k * c + j];
        gsl_matrix_set (BtB, i, j, s);
      }
  gsl_eigen_symmv (BtB, ev, V, w);
  double big = 0.0;
  for (guint i = 0; i < c; i++)
    big = MAX (big, fabs (gsl_vector_get (ev, i)));
  *dim = 0;
  for (guint i = 0; i < c; i++)
    *dim += fabs (gsl_vector_get (ev, i)) <= 1e-12 * big;
  gsl_matrix *Z = gsl_matrix_alloc (c, MAX (*dim, 1));
  guint col = 0;
  for (guint i = 0; i < c; i++)
    if (fabs (gsl_vector_get (ev, i)) <= 1e-12 * big)
      {
        for (guint k = 0; k < c; k++)
          gsl_matrix_set (Z, k, col, gsl_matrix_get (V, k, i));
        col++;
      }
  gsl_eigen_symmv_free (w);
  gsl_vector_free (ev);
  gsl_matrix_free (V);
  gsl_matrix_free (BtB);
  return Z;
}

/* Z^T A Z */
static gsl_matrix *
reduce (const double *A, guint c, const gsl_matrix *Z)
{
  gsl_matrix_const_view Av = gsl_matrix_const_view_array (A, c, c);
  gsl_matrix *AZ = gsl_matrix_alloc (c, Z->size2), *R = gsl_matrix_alloc (Z->size2, Z->size2);
  gsl_blas_dgemm (CblasNoTrans, CblasNoTrans, 1.0, &Av.matrix, Z, 0.0, AZ);
  gsl_blas_dgemm (CblasTrans, CblasNoTrans, 1.0, Z, AZ, 0.0, R);
  gsl_matrix_free (AZ);
  return R;
}

/* The drawn nodes and one mode's shape: the spatial velocity of each node
 * for the mode's nu (largest |d| = 1). */
static void
fill_frame_shape (FxSystem *sys, FxModes *res, FxMode *mode)
{
  double big = 0.0;
  FxLinkSys *l = &sys->links[0];

  memcpy (sys->x, mode->state, sizeof (double) * sys->n);
  mode->shape = g_new0 (double, FX_MODE_SHAPE_STRIDE * MAX (res->n_nodes, 1));
  for (guint i = 0; i < res->n_nodes; i++)
    {
      /* the node's velocity: its position under a unit time step of nu */
      double p0[2], p1[2];
      double *saved = g_memdup2 (l->theta, sizeof (double) * l->n_theta);
      double r_saved[2] = { l->r[0], l->r[1] };
      l->model->node (l, sys->x, i, p0, NULL, NULL);
      l->model->commit (l, sys->x, 1e-6);
      l->model->node (l, sys->x, i, p1, NULL, NULL);
      memcpy (l->theta, saved, sizeof (double) * l->n_theta);
      l->r[0] = r_saved[0];
      l->r[1] = r_saved[1];
      g_free (saved);
      double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * i];
      sh[FX_MODE_DX] = (p1[0] - p0[0]) / 1e-6;
      sh[FX_MODE_DY] = (p1[1] - p0[1]) / 1e-6;
      big = MAX (big, hypot (sh[FX_MODE_DX], sh[FX_MODE_DY]));
    }
  memset (sys->x, 0, sizeof (double) * sys->n);
  if (big <= 0.0)
    return;
  for (guint k = 0; k < FX_MODE_SHAPE_STRIDE * res->n_nodes; k++)
    mode->shape[k] /= big;
  for (guint i = 0; i < res->n_unknowns; i++)
    mode->state[i] /= big;
}

FxModes *
fx_modes_frame_compute (FxSystem *sys, guint max_vibrations, GError **error)
{
  if (sys->n_links != 1 || sys->links[0].model->modes_blocks == NULL)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("modes of a floating-frame link joined to other links are not "
                             "supported yet"));
      return NULL;
    }
  FxLinkSys *l = &sys->links[0];
  const guint c = l->model->modes_blocks (l, NULL, NULL, NULL, NULL);
  g_autofree double *M = g_new (double, c * c), *K = g_new (double, c * c);
  g_autofree double *B = g_new0 (double, 9 * c), *ends = g_new (double, 6 * c);
  l->model->modes_blocks (l, M, K, B, ends);

  /* the frame condition, then the held ends' velocity rows */
  guint r = 3;
  for (guint side = 0; side < 2; side++)
    {
      int held = end_held (sys, sys->tjunctions, side), rheld = end_held (sys, sys->rjunctions, side);
      if (held < 0 || rheld < 0)
        {
          g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                               _("modes of a floating-frame link with an inertia at its end are "
                                 "not supported yet"));
          return NULL;
        }
      if (held)
        for (guint k = 0; k < 2; k++)
          memcpy (B + (r++) * c, ends + (3 * side + k) * c, sizeof (double) * c);
      if (rheld)
        memcpy (B + (r++) * c, ends + (3 * side + 2) * c, sizeof (double) * c);
    }

  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  guint dim;
  gsl_matrix *Z = null_space (B, r, c, &dim);
  gsl_matrix *Kz = reduce (K, c, Z), *Mz = reduce (M, c, Z);
  gsl_vector *eval = gsl_vector_alloc (dim);
  gsl_matrix *evec = gsl_matrix_alloc (dim, dim);
  gsl_eigen_gensymmv_workspace *w = gsl_eigen_gensymmv_alloc (dim);
  int status = gsl_eigen_gensymmv (Kz, Mz, eval, evec, w);
  gsl_eigen_gensymmv_sort (eval, evec, GSL_EIGEN_SORT_VAL_ASC);
  gsl_eigen_gensymmv_free (w);
  gsl_set_error_handler (old);

  FxModes *res = g_new0 (FxModes, 1);
  res->n_unknowns = sys->n;
  res->counted = TRUE;
  double top = dim > 0 ? fabs (gsl_vector_get (eval, dim - 1)) : 0.0;
  for (guint i = 0; i < dim; i++)
    res->mobility += gsl_vector_get (eval, i) <= 1e-9 * top;
  guint n_vib = dim - res->mobility;
  if (max_vibrations > 0)
    n_vib = MIN (n_vib, max_vibrations);

  /* the drawn nodes */
  res->n_links = 1;
  res->link_nodes = g_new (guint, 1);
  res->link_first = g_new0 (guint, 1);
  res->n_nodes = res->link_nodes[0] = l->N + 1;
  res->node_xy = g_new0 (double, 2 * res->n_nodes);
  memset (sys->x, 0, sizeof (double) * sys->n);
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  for (guint i = 0; i < res->n_nodes; i++)
    {
      l->model->node (l, sys->x, i, &res->node_xy[2 * i], NULL, NULL);
      for (guint k = 0; k < 2; k++)
        lo[k] = MIN (lo[k], res->node_xy[2 * i + k]), hi[k] = MAX (hi[k], res->node_xy[2 * i + k]);
    }
  res->size = hypot (hi[0] - lo[0], hi[1] - lo[1]);

  res->n_modes = res->mobility + n_vib;
  res->modes = g_new0 (FxMode, MAX (res->n_modes, 1));
  for (guint m = 0; m < res->n_modes; m++)
    {
      FxMode *mode = &res->modes[m];
      double om2 = gsl_vector_get (eval, m);
      mode->kind = m < res->mobility ? FX_MODE_MOTION : FX_MODE_VIBRATION;
      mode->index = m < res->mobility ? m + 1 : m - res->mobility + 1;
      mode->frequency = mode->kind == FX_MODE_VIBRATION ? sqrt (om2) / (2.0 * G_PI) : 0.0;
      mode->state = g_new0 (double, MAX (sys->n, 1));
      for (guint k = 0; k < c; k++)
        {
          double s = 0.0;
          for (guint j = 0; j < dim; j++)
            s += gsl_matrix_get (Z, k, j) * gsl_matrix_get (evec, j, m);
          mode->state[l->offset + k] = s;
        }
      fill_frame_shape (sys, res, mode);
    }
  gsl_vector_free (eval);
  gsl_matrix_free (evec);
  gsl_matrix_free (Kz);
  gsl_matrix_free (Mz);
  gsl_matrix_free (Z);
  if (status != 0)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the eigensolver failed on this model"));
      fx_modes_free (res);
      return NULL;
    }
  return res;
}
