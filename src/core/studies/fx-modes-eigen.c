/* fx-modes-eigen.c: the symmetric-definite eigenproblem K q = omega^2 M q
 * of the dense modes path (fx-modes-dense.c), with banded shortcuts: the
 * elements couple neighbouring nodes only, so the mass, the compliance and
 * their Cholesky factors are narrow-banded even where K is not. */
#include "fx-modes-private.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_machine.h>
#include <gsl/gsl_sort_vector.h>
#include <math.h>

/* Y <- G^-1 Y (forward: G lower) or G^-T Y (backward), G a Cholesky
 * factor of fx_modes_bandwidth bw: row operations within the band, O(n bw m)
 * instead of dense O(n^2 m). */
void
fx_modes_band_solve_rows (const gsl_matrix *G, gsize bw, gboolean transposed, gsl_matrix *Y)
{
  const gsize n = Y->size1;
  for (gsize s = 0; s < n; s++)
    {
      gsize i = transposed ? n - 1 - s : s;
      gsl_vector_view yi = gsl_matrix_row (Y, i);
      gsize k0 = transposed ? i + 1 : (i > bw ? i - bw : 0);
      gsize k1 = transposed ? MIN (n, i + bw + 1) : i;
      for (gsize k = k0; k < k1; k++)
        {
          gsl_vector_const_view yk = gsl_matrix_const_row (Y, k);
          double g = transposed ? gsl_matrix_get (G, k, i) : gsl_matrix_get (G, i, k);
          gsl_blas_daxpy (-g, &yk.vector, &yi.vector);
        }
      gsl_vector_scale (&yi.vector, 1.0 / gsl_matrix_get (G, i, i));
    }
}

/* Bandwidth of a symmetric matrix (its Cholesky factor keeps it). */
gsize
fx_modes_bandwidth (const gsl_matrix *A)
{
  gsize bw = 0;
  for (gsize i = 0; i < A->size1; i++)
    for (gsize j = 0; j < i; j++)
      if (gsl_matrix_get (A, i, j) != 0.0)
        bw = MAX (bw, i - j);
  return bw;
}

/* K = Y^T Y with Y = G^-1 D_c, G banded (compliances couple only the
 * stresses of one element): the Gram matrix row by row over the few
 * nonzeros of each row of Y, instead of dense O(n^3) BLAS. */
void
fx_modes_banded_gram (const gsl_matrix *G, gsize bw, gsl_matrix *Y, gsl_matrix *K)
{
  const gsize nc = Y->size1, nv = Y->size2;
  g_autofree gsize *nz = g_new (gsize, nv);
  fx_modes_band_solve_rows (G, bw, FALSE, Y);
  for (gsize i = 0; i < nc; i++)
    {
      gsize k = 0;
      for (gsize j = 0; j < nv; j++)
        if (gsl_matrix_get (Y, i, j) != 0.0)
          nz[k++] = j;
      for (gsize a = 0; a < k; a++)
        for (gsize b = 0; b < k; b++)
          *gsl_matrix_ptr (K, nz[a], nz[b]) += gsl_matrix_get (Y, i, nz[a]) * gsl_matrix_get (Y, i, nz[b]);
    }
}

/* K q = omega^2 M q, ascending, K and M overwritten. For a banded M (the
 * consistent masses of elements, or diagonal) the reduction to standard
 * form C = G^-1 K G^-T (M = G G^T) and the back-transform q = G^-T y are
 * done within the band, leaving gsl_eigen_symmv's own O(n^3); otherwise
 * gsl_eigen_gensymmv. */
void
fx_modes_symmetric_definite (gsl_matrix *K, gsl_matrix *M, gsl_vector *w2, gsl_matrix *V)
{
  const gsize n = K->size1, bw = fx_modes_bandwidth (M);
  if (bw > FX_MODES_BAND_MAX || gsl_linalg_cholesky_decomp1 (M) != GSL_SUCCESS)
    {
      gsl_eigen_gensymmv_workspace *ws = gsl_eigen_gensymmv_alloc (n);
      gsl_eigen_gensymmv (K, M, w2, V, ws);
      gsl_eigen_gensymmv_free (ws);
      gsl_eigen_gensymmv_sort (w2, V, GSL_EIGEN_SORT_VAL_ASC);
      return;
    }
  fx_modes_band_solve_rows (M, bw, FALSE, K);     /* G^-1 K          */
  gsl_matrix_transpose (K);              /* K G^-T, as rows */
  fx_modes_band_solve_rows (M, bw, FALSE, K);     /* G^-1 K G^-T     */
  gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc (n);
  gsl_eigen_symmv (K, w2, V, ws);
  gsl_eigen_symmv_free (ws);
  gsl_eigen_symmv_sort (w2, V, GSL_EIGEN_SORT_VAL_ASC);
  fx_modes_band_solve_rows (M, bw, TRUE, V);      /* q = G^-T y      */
}

/* T - sigma I (T: diagonal d, off-diagonal e) in GSL's LU band storage
 * (A(i, j) at AB(j, 2 + i - j)), factorised with partial pivoting. */
static gboolean
tridiag_factor (const gsl_vector *d, const gsl_vector *e, double sigma, gsl_matrix *AB,
                gsl_vector_uint *piv)
{
  const gsize n = d->size;
  gsl_matrix_set_zero (AB);
  for (gsize j = 0; j < n; j++)
    {
      gsl_matrix_set (AB, j, 2, gsl_vector_get (d, j) - sigma);
      if (j + 1 < n)
        gsl_matrix_set (AB, j, 3, gsl_vector_get (e, j));      /* T(j + 1, j) */
      if (j > 0)
        gsl_matrix_set (AB, j, 1, gsl_vector_get (e, j - 1));  /* T(j - 1, j) */
    }
  return gsl_linalg_LU_band_decomp (n, 1, 1, AB, piv) == GSL_SUCCESS;
}

/* z^T T z for a unit z. */
static double
tridiag_rayleigh (const gsl_vector *d, const gsl_vector *e, const gsl_vector *z)
{
  double s = 0.0;
  for (gsize i = 0; i < d->size; i++)
    {
      double zi = gsl_vector_get (z, i);
      s += gsl_vector_get (d, i) * zi * zi;
      if (i + 1 < d->size)
        s += 2.0 * gsl_vector_get (e, i) * zi * gsl_vector_get (z, i + 1);
    }
  return s;
}

/* The lowest `need` eigenpairs of K q = omega^2 M q for a banded M: the
 * standard form C = G^-1 K G^-T (M = G G^T, banded substitutions), all its
 * eigenvalues without vectors (gsl_eigen_symm), its tridiagonal form
 * C = Q T Q^T (gsl_linalg_symmtd_decomp), and only the wanted vectors, by
 * inverse iteration on T (pivoted band LU of T - sigma I), orthogonal to
 * the earlier ones of the same eigenvalue (a symmetric frame's double
 * modes), then q = G^-T Q z. About a third of gsl_eigen_symmv's work,
 * which forms every vector. Columns of V beyond `need` are zero. FALSE
 * (nothing usable) when M is not narrow-banded or a step fails. */
gboolean
fx_modes_lowest_pairs (const gsl_matrix *K, const gsl_matrix *M, gsize need, gsl_vector *w2, gsl_matrix *V)
{
  const gsize n = K->size1, bw = fx_modes_bandwidth (M);
  if (bw > FX_MODES_BAND_MAX || n < 3)
    return FALSE;
  gsl_matrix *G = gsl_matrix_alloc (n, n), *C = gsl_matrix_alloc (n, n), *Ct = gsl_matrix_alloc (n, n);
  gsl_vector *tau = gsl_vector_alloc (n - 1), *d = gsl_vector_alloc (n), *e = gsl_vector_alloc (n - 1);
  gsl_matrix_memcpy (G, M);
  gsl_matrix_memcpy (C, K);
  gboolean ok = gsl_linalg_cholesky_decomp1 (G) == GSL_SUCCESS;
  if (ok)
    {
      fx_modes_band_solve_rows (G, bw, FALSE, C);     /* G^-1 K          */
      gsl_matrix_transpose (C);
      fx_modes_band_solve_rows (G, bw, FALSE, C);     /* G^-1 K G^-T     */
      gsl_matrix_memcpy (Ct, C);
      gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc (n);
      ok = gsl_eigen_symm (C, w2, ws) == GSL_SUCCESS
           && gsl_linalg_symmtd_decomp (Ct, tau) == GSL_SUCCESS
           && gsl_linalg_symmtd_unpack_T (Ct, d, e) == GSL_SUCCESS;
      gsl_eigen_symm_free (ws);
      gsl_sort_vector (w2);
    }
  gsl_matrix_set_zero (V);
  double scale = MAX (fabs (gsl_vector_get (w2, 0)), fabs (gsl_vector_get (w2, n - 1)));
  gsl_matrix *AB = gsl_matrix_alloc (n, 4);  /* T - sigma I: A(i, j) at AB(j, 2 + i - j) */
  gsl_vector_uint *piv = gsl_vector_uint_alloc (n);
  gsl_vector *z = gsl_vector_alloc (n), *y = gsl_vector_alloc (n);
  for (gsize c = 0; c < need && ok; c++)
    {
      /* just off the eigenvalue, so that the factor is not exactly singular */
      double lambda = gsl_vector_get (w2, c);
      double sigma = lambda - 1e-10 * MAX (fabs (lambda), 1e-6 * scale);
      /* copies of one eigenvalue differ by symm's absolute error, about
       * eps * scale; only those are orthogonalised against (an earlier
       * vector of another eigenvalue, say a zero mode's, is not needed
       * converged and must not bend this one) */
      double cluster = 1e-8 * fabs (lambda) + 1e3 * GSL_DBL_EPSILON * scale;
      for (gsize i = 0; i < n; i++)
        gsl_vector_set (z, i, 1.0 + 0.1 * sin (1.0 + 7.0 * i + 3.0 * c));  /* deterministic start */
      for (guint it = 0; it < 5 && ok; it++)
        {
          /* symm's eigenvalue is good to eps * scale only, which on a soft
           * link beside stiff axial modes is a percent of a low one: from
           * the third step on, the Rayleigh quotient z^T T z sharpens the
           * shift (cubic convergence; the factor is O(n) to redo) */
          if (it >= 2)
            {
              double rq = tridiag_rayleigh (d, e, z);
              sigma = rq - 1e-14 * MAX (fabs (rq), 1e-6 * scale);
            }
          ok = tridiag_factor (d, e, sigma, AB, piv);
          gsl_vector_memcpy (y, z);
          gsl_linalg_LU_band_solve (1, 1, AB, piv, y, z);
          if (it >= 2 && !(gsl_blas_dnrm2 (z) < INFINITY))
            {
              gsl_vector_memcpy (z, y);  /* converged to the last bit: keep it */
              break;
            }
          for (gsize p = c; p-- > 0 && fabs (gsl_vector_get (w2, p) - lambda) <= cluster;)
            {
              gsl_vector_const_view zp = gsl_matrix_const_column (V, p);
              double dot;
              gsl_blas_ddot (&zp.vector, z, &dot);
              gsl_blas_daxpy (-dot, &zp.vector, z);
            }
          double norm = gsl_blas_dnrm2 (z);
          ok = ok && isfinite (norm) && norm > 0.0;
          if (ok)
            gsl_vector_scale (z, 1.0 / norm);
        }
      gsl_matrix_set_col (V, c, z);
    }
  /* y = Q z: Q = H_0 H_1 ... H_{n-3}, the reflectors below C's subdiagonal */
  for (gsize c = 0; c < need && ok; c++)
    {
      gsl_vector_view v = gsl_matrix_column (V, c);
      for (gsize i = n - 2; i-- > 0;)
        {
          gsl_vector_const_view col = gsl_matrix_const_column (Ct, i);
          gsl_vector_const_view h = gsl_vector_const_subvector (&col.vector, i + 1, n - (i + 1));
          gsl_vector_view w = gsl_vector_subvector (&v.vector, i + 1, n - (i + 1));
          gsl_linalg_householder_hv (gsl_vector_get (tau, i), &h.vector, &w.vector);
        }
    }
  if (ok)
    fx_modes_band_solve_rows (G, bw, TRUE, V);      /* q = G^-T y      */
  gsl_matrix_free (AB);
  gsl_vector_uint_free (piv);
  gsl_vector_free (z);
  gsl_vector_free (y);
  gsl_matrix_free (G);
  gsl_matrix_free (C);
  gsl_matrix_free (Ct);
  gsl_vector_free (tau);
  gsl_vector_free (d);
  gsl_vector_free (e);
  return ok;
}
