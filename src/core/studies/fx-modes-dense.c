/* fx-modes-dense.c: the dense path of the modes study (docs/theory.md §8):
 * every mode of a model up to FX_MODES_MAX_UNKNOWNS unknowns.
 *
 * Outline. The residual of the implicit midpoint at x = x_n = 0 has the
 * Jacobian dR/dx = E - dt/2 A, so two evaluations give E and A = dF/dx
 * (assemble_dense). Without gravity and loads every rotation and nonlinear
 * term is multiplied by a zero velocity or stress, so A is exactly the
 * structure and the interconnection. Torsional springs store energy in an
 * angle, which is configuration, not an unknown: each spring adds one
 * co-energy unknown, its moment sigma = k phi (compliance 1/k), so that the
 * linear system keeps the form E y' = A y.
 *
 * The unknowns split into velocities v (masses M) and stresses sigma
 * (compliances C), and A = [[0, -D^T], [D, 0]]:
 *     M v' = -D^T sigma,      C sigma' = D v.
 *   motions:        ker D     (the mobility)
 *   self-stresses:  ker D^T   (the degree of static indeterminacy)
 *   vibrations:     with sigma = C^-1 D v / lambda on the compliant stresses
 *                   and D_r v = 0 on the rigid ones (their stresses are
 *                   multipliers), K v = omega^2 M v, K = D_c^T C_c^-1 D_c,
 *                   restricted to ker D_r; velocities without mass are
 *                   condensed out statically (they carry infinite
 *                   eigenvalues, which are not modes); the remaining
 *                   symmetric-definite pencil goes to gsl_eigen_gensymmv.
 * Every matrix is first scaled to unit mass / unit compliance on its
 * diagonal (energy norms), so that rank decisions compare like with like
 * whatever the units of the fields.
 */
#include "fx-modes.h"
#include "fx-modes-private.h"
#include "fx-modes-frame.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

/* A singular value below KERNEL_RTOL times the largest one is zero: the
 * scaled D has entries of order one, its nonzero singular values stay above
 * ~1/N_elements, and round-off puts the kernel's near 1e-15. */
#define KERNEL_RTOL 1e-9
/* An eigenvalue of a unit-diagonal mass (compliance) restricted to a
 * subspace below this is a massless (rigid) direction. */
#define MASS_RTOL 1e-10
/* Pseudo-inverse cut for the stiffness of massless directions. */
#define PINV_RTOL 1e-12

/* ---------------------------------------------------------- assembly */

/* The Jacobian dR/dx of the midpoint residual at x = x_n = 0 for step dt,
 * into J (from fx_system_new_jacobian, reused for both steps), added as
 * a * dR/dx to E and b * dR/dx to A (row-major, leading dimension lda).
 * A banded J is read over its band only (the n^2 reads of fx_matrix_get
 * were a third of a small model's time). FALSE when an entry fell outside
 * the banded pattern: the caller assembles densely instead. */
static gboolean
assemble_dense (FxSystem *sys, FxMatrix *J, double dt, double a, double b, double *E,
                double *A, guint lda)
{
  const guint n = sys->n;
  g_autofree double *x = g_new0 (double, n);
  g_autofree double *R = g_new (double, n);
  FxBandView band;

  fx_system_residual (sys, x, dt, R, NULL, J);
  fx_matrix_band_view (J, &band);
  if (band.data == NULL)
    {
      for (guint i = 0; i < n; i++)
        for (guint j = 0; j < n; j++)
          {
            double v = fx_matrix_get (J, i, j);
            E[(gsize) i * lda + j] += a * v;
            A[(gsize) i * lda + j] += b * v;
          }
      return TRUE;
    }
  g_autofree guint *row = g_new (guint, n);  /* inverse of the band's order */
  for (guint i = 0; i < n; i++)
    row[band.perm[i]] = i;
  for (guint pj = 0; pj < n; pj++)
    for (guint pi = pj > band.ku ? pj - band.ku : 0; pi <= MIN (n - 1, pj + band.kl); pi++)
      {
        double v = band.data[(gsize) pj * band.ldab + band.kl + band.ku + pi - pj];
        gsize ij = (gsize) row[pi] * lda + row[pj];
        E[ij] += a * v;
        A[ij] += b * v;
      }
  /* an entry outside the pattern is only recorded, and said here */
  return fx_matrix_factorize (J) != FX_MATRIX_PATTERN_CHANGED;
}

/* E and A of the system (na x na, zeroed by the caller): banded when the
 * Newton matrix is, else dense. */
static void
assemble_pencil (FxSystem *sys, double *E, double *A, guint na)
{
  const guint n = sys->n;
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_AUTO, NULL);
  FxBandView band = { 0 };
  if (J != NULL)
    fx_matrix_band_view (J, &band);
  /* J1 = E - A/2 at dt = 1, J2 = E - A at dt = 2: E = 2 J1 - J2, A = 2 (J1 - J2) */
  if (band.data != NULL && assemble_dense (sys, J, 1.0, 2.0, 2.0, E, A, na)
      && assemble_dense (sys, J, 2.0, -1.0, -2.0, E, A, na))
    return;
  for (guint i = 0; i < n; i++)
    {
      memset (&E[(gsize) i * na], 0, sizeof (double) * n);
      memset (&A[(gsize) i * na], 0, sizeof (double) * n);
    }
  g_clear_pointer (&J, fx_matrix_free);
  J = fx_system_new_jacobian (sys, FX_MATRIX_DENSE, NULL);
  /* the dense path records every entry: it cannot fail on pattern or size
   * below FX_MODES_MAX_UNKNOWNS */
  g_assert (J != NULL);
  assemble_dense (sys, J, 1.0, 2.0, 2.0, E, A, na);
  assemble_dense (sys, J, 2.0, -1.0, -2.0, E, A, na);
}

/* ------------------------------------------------------- dense helpers */

static gsl_matrix *
submatrix (const double *a, guint lda, const guint *rows, guint nr, const guint *cols, guint nc)
{
  gsl_matrix *m = gsl_matrix_alloc (nr, nc);
  for (guint i = 0; i < nr; i++)
    for (guint j = 0; j < nc; j++)
      gsl_matrix_set (m, i, j, a[(gsize) rows[i] * lda + cols[j]]);
  return m;
}

/* Orthonormal basis (columns) of ker B, B r x c with c > 0 (r may be 0),
 * or NULL when the kernel is {0}. Rows are scaled to unit size first:
 * that leaves the kernel unchanged and makes the rank decision fair. */
static gsl_matrix *
kernel_basis (const gsl_matrix *B, gsize r, gsize c, guint *dim)
{
  gsize m = MAX (r, c);
  gsl_matrix *U = gsl_matrix_calloc (m, c);
  gsl_matrix *V = gsl_matrix_alloc (c, c);
  gsl_vector *s = gsl_vector_alloc (c), *work = gsl_vector_alloc (c);
  gsl_matrix *Z = NULL;

  for (gsize i = 0; i < r; i++)
    {
      double big = 0.0;
      for (gsize j = 0; j < c; j++)
        big = MAX (big, fabs (gsl_matrix_get (B, i, j)));
      for (gsize j = 0; j < c && big > 0.0; j++)
        gsl_matrix_set (U, i, j, gsl_matrix_get (B, i, j) / big);
    }
  gsl_linalg_SV_decomp (U, V, s, work);
  double smax = gsl_vector_get (s, 0);
  guint k = 0;
  for (gsize j = 0; j < c; j++)
    if (gsl_vector_get (s, j) <= KERNEL_RTOL * smax)
      k++;
  if (k > 0)
    {
      Z = gsl_matrix_alloc (c, k);
      guint col = 0;
      for (gsize j = 0; j < c; j++)
        if (gsl_vector_get (s, j) <= KERNEL_RTOL * smax)
          {
            gsl_vector_view vj = gsl_matrix_column (V, j);
            gsl_matrix_set_col (Z, col++, &vj.vector);
          }
    }
  gsl_matrix_free (U);
  gsl_matrix_free (V);
  gsl_vector_free (s);
  gsl_vector_free (work);
  *dim = k;
  return Z;
}

/* P^T A P */
static gsl_matrix *
congruence (const gsl_matrix *A, const gsl_matrix *P)
{
  gsl_matrix *AP = gsl_matrix_alloc (A->size1, P->size2);
  gsl_matrix *out = gsl_matrix_alloc (P->size2, P->size2);
  gsl_blas_dgemm (CblasNoTrans, CblasNoTrans, 1.0, A, P, 0.0, AP);
  gsl_blas_dgemm (CblasTrans, CblasNoTrans, 1.0, P, AP, 0.0, out);
  gsl_matrix_free (AP);
  return out;
}

/* Eigen-decomposition of a symmetric matrix (copied), ascending. */
static void
symmetric_eigen (const gsl_matrix *A, gsl_vector **eval, gsl_matrix **evec)
{
  gsize n = A->size1;
  gsl_matrix *W = gsl_matrix_alloc (n, n);
  gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc (n);
  gsl_matrix_memcpy (W, A);
  *eval = gsl_vector_alloc (n);
  *evec = gsl_matrix_alloc (n, n);
  gsl_eigen_symmv (W, *eval, *evec, ws);
  gsl_eigen_symmv_sort (*eval, *evec, GSL_EIGEN_SORT_VAL_ASC);
  gsl_eigen_symmv_free (ws);
  gsl_matrix_free (W);
}

/* ------------------------------------------------------- the problem */

typedef struct {
  FxSystem *sys;
  guint n;                  /* unknowns of the system                   */
  guint na;                 /* plus one per torsional spring            */
  double *E, *A;            /* na x na, row-major                       */
  guint nv, ns;             /* velocities, stresses                     */
  guint *vel, *str;         /* their unknowns                           */
  double *sv, *ss;          /* scale of each: v = sv v~, sigma = ss s~  */
  gsl_matrix *D;            /* scaled ns x nv: C~ s~' = D v~            */
  gsl_matrix *M, *C;        /* scaled masses and compliances            */
  double *Dq;               /* floating frames' stiffness rows, n_q x n */
  guint n_q, first_q;       /* their stresses: first_q ..               */
} Linear;

static void
linear_clear (Linear *L)
{
  g_free (L->E);
  g_free (L->A);
  g_free (L->vel);
  g_free (L->str);
  g_free (L->sv);
  g_free (L->ss);
  g_free (L->Dq);
  g_clear_pointer (&L->D, gsl_matrix_free);
  g_clear_pointer (&L->M, gsl_matrix_free);
  g_clear_pointer (&L->C, gsl_matrix_free);
}

/* A system with floating-frame links (fx-modes-frame.c): its pencil over
 * the n unknowns goes into the top-left corner, its configuration
 * stiffness K_q = D^T D becomes the last n_q stresses, of unit compliance:
 * C sigma' = D v, M v' = -D^T sigma. */
static gboolean
frame_pencil (Linear *L, guint first_q, GError **error)
{
  const guint n = L->n;
  double *E = NULL, *A = NULL, *D = NULL;
  guint n_q = 0;
  if (!fx_modes_frame_pencil (L->sys, &E, &A, &D, &n_q, error))
    return FALSE;
  L->na = first_q + n_q;
  L->E = g_new0 (double, (gsize) L->na * L->na);
  L->A = g_new0 (double, (gsize) L->na * L->na);
  for (guint i = 0; i < n; i++)
    {
      memcpy (&L->E[(gsize) i * L->na], &E[(gsize) i * n], sizeof (double) * n);
      memcpy (&L->A[(gsize) i * L->na], &A[(gsize) i * n], sizeof (double) * n);
    }
  for (guint q = 0; q < n_q; q++)
    {
      gsize r = first_q + q;
      L->E[r * L->na + r] = 1.0;
      for (guint j = 0; j < n; j++)
        {
          L->A[r * L->na + j] = D[(gsize) q * n + j];
          L->A[(gsize) j * L->na + r] = -D[(gsize) q * n + j];
        }
    }
  g_free (E);
  g_free (A);
  L->Dq = D;
  L->n_q = n_q;
  L->first_q = first_q;
  return TRUE;
}

/* A self-stress state's stresses sigma of floating frames, as the
 * configuration q that carries them (K q = D^T sigma; with D's rows
 * sqrt(mu) u^T, q = sum u sigma / sqrt(mu)): their moments are drawn from
 * it. */
static void
frame_self_stress (const Linear *L, GArray *raw)
{
  for (guint k = 0; k < raw->len && L->n_q > 0; k++)
    {
      RawMode *rm = &g_array_index (raw, RawMode, k);
      if (rm->kind != FX_MODE_SELF_STRESS)
        continue;
      rm->stress = g_new0 (double, L->na);
      for (guint r = 0; r < L->n_q; r++)
        {
          const double *row = &L->Dq[(gsize) r * L->n];
          double sigma = rm->state[L->first_q + r], mu = 0.0;
          for (guint j = 0; j < L->n; j++)
            mu += row[j] * row[j];
          for (guint j = 0; j < L->n && sigma != 0.0; j++)
            rm->stress[j] += row[j] * sigma / mu;
        }
    }
}

/* E and A of the system, with springs (and floating frames' stiffness) as
 * extra stress unknowns. */
static gboolean
linearise (Linear *L, GError **error)
{
  FxSystem *sys = L->sys;
  const guint n = sys->n, ns = sys->springs->len;
  guint na = n + ns;
  g_autofree double *k = g_new0 (double, MAX (ns, 1));

  /* springs: take their stiffness out of the Jacobian (it enters there at
   * order dt^2 through the angle) and put it back as an unknown */
  for (guint s = 0; s < ns; s++)
    {
      FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, s);
      k[s] = sp->k;
      sp->k = sp->c = 0.0;
    }
  memset (sys->x, 0, sizeof (double) * n);
  L->n = n;
  if (fx_modes_frame_applies (sys))
    {
      if (!frame_pencil (L, na, error))
        return FALSE;
      na = L->na;
    }
  else
    {
      L->na = na;
      L->E = g_new0 (double, (gsize) na * na);
      L->A = g_new0 (double, (gsize) na * na);
      assemble_pencil (sys, L->E, L->A, na);
    }
  /* spring s: C sigma' = k^-1 sigma' = w_a - w_b, moment -sigma on a, +sigma on b */
  for (guint s = 0; s < ns; s++)
    {
      const FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, s);
      guint r = n + s;
      L->E[(gsize) r * na + r] = k[s] > 0.0 ? 1.0 / k[s] : 0.0;
      if (k[s] <= 0.0)
        continue;  /* no spring: its "stress" is a free unknown, E = A = 0 */
      L->A[(gsize) r * na + sp->dof_a] = 1.0;
      L->A[(gsize) sp->dof_a * na + r] = -1.0;
      if (sp->dof_b >= 0)
        {
          L->A[(gsize) r * na + sp->dof_b] = -1.0;
          L->A[(gsize) sp->dof_b * na + r] = 1.0;
        }
    }
  for (guint s = 0; s < ns; s++)
    g_array_index (sys->springs, FxSpringSys, s).k = k[s];
  return TRUE;
}

/* A must be skew with no velocity-velocity or stress-stress coupling; else
 * something other than structure (a load, a drive) entered. */
static gboolean
check_structure (const Linear *L, const gboolean *is_vel, GError **error)
{
  const guint na = L->na;
  double big = 0.0, bad = 0.0;

  for (gsize i = 0; i < (gsize) na * na; i++)
    big = MAX (big, fabs (L->A[i]));
  for (guint i = 0; i < na; i++)
    for (guint j = 0; j < na; j++)
      {
        double a = L->A[(gsize) i * na + j], at = L->A[(gsize) j * na + i];
        bad = MAX (bad, fabs (a + at));
        if (is_vel[i] == is_vel[j])
          bad = MAX (bad, fabs (a));
      }
  if (bad > 1e-9 * big)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                   _("the linearised mechanism is not a pure structure (skew defect %.3g of %.3g)"),
                   bad, big);
      return FALSE;
    }
  return TRUE;
}

/* Split the unknowns, scale them to unit diagonal mass / compliance (the
 * massless and rigid ones to unit largest coupling) and extract D, M, C. */
static gboolean
split_and_scale (Linear *L, GError **error)
{
  const guint na = L->na;
  g_autofree gboolean *is_vel = g_new (gboolean, na);

  L->vel = g_new (guint, na);
  L->str = g_new (guint, na);
  L->nv = L->ns = 0;
  for (guint i = 0; i < na; i++)
    {
      is_vel[i] = i < L->n ? fx_modes_unknown_is_velocity (L->sys, i) : FALSE;
      if (is_vel[i])
        L->vel[L->nv++] = i;
      else
        L->str[L->ns++] = i;
    }
  if (!check_structure (L, is_vel, error))
    return FALSE;

  double *scale = g_new (double, na);
  for (guint i = 0; i < na; i++)
    {
      double e = L->E[(gsize) i * na + i], big = 0.0;
      for (guint j = 0; j < na; j++)
        big = MAX (big, fabs (L->A[(gsize) j * na + i]));
      scale[i] = e > 0.0 ? 1.0 / sqrt (e) : big > 0.0 ? 1.0 / big : 1.0;
    }
  for (guint i = 0; i < na; i++)
    for (guint j = 0; j < na; j++)
      {
        L->E[(gsize) i * na + j] *= scale[i] * scale[j];
        L->A[(gsize) i * na + j] *= scale[i] * scale[j];
      }
  L->sv = g_new (double, MAX (L->nv, 1));
  L->ss = g_new (double, MAX (L->ns, 1));
  for (guint i = 0; i < L->nv; i++)
    L->sv[i] = scale[L->vel[i]];
  for (guint i = 0; i < L->ns; i++)
    L->ss[i] = scale[L->str[i]];
  g_free (scale);

  if (L->nv > 0)
    L->M = submatrix (L->E, na, L->vel, L->nv, L->vel, L->nv);
  if (L->ns > 0)
    L->C = submatrix (L->E, na, L->str, L->ns, L->str, L->ns);
  if (L->nv > 0 && L->ns > 0)
    L->D = submatrix (L->A, na, L->str, L->ns, L->vel, L->nv);
  return TRUE;
}

/* Kernel vectors (columns of Z in the scaled unknowns of `idx`), ordered
 * by decreasing E-weight; returns how many have E = 0 (no inertia or no
 * compliance). */
static guint
kernel_modes (const Linear *L, const gsl_matrix *Z, const gsl_matrix *Eblock,
              const guint *idx, const double *scl, FxModeKind kind, GArray *out)
{
  gsl_vector *w;
  gsl_matrix *U;
  gsl_matrix *G = congruence (Eblock, Z);
  guint k = Z->size2, degenerate = 0;

  symmetric_eigen (G, &w, &U);
  double wmax = gsl_vector_get (w, k - 1);
  for (guint c = k; c-- > 0;)
    {
      RawMode rm = { kind, 0.0, g_new0 (double, L->na), NULL };
      if (gsl_vector_get (w, c) <= MASS_RTOL * MAX (wmax, 1e-300))
        degenerate++;
      for (gsize i = 0; i < Z->size1; i++)
        {
          double v = 0.0;
          for (guint j = 0; j < k; j++)
            v += gsl_matrix_get (Z, i, j) * gsl_matrix_get (U, j, c);
          rm.state[idx[i]] = scl[i] * v;
        }
      g_array_append_val (out, rm);
    }
  gsl_matrix_free (G);
  gsl_matrix_free (U);
  gsl_vector_free (w);
  return degenerate;
}

/* An orthonormal basis of the span of the columns of W (r x k), whose
 * singular values are 0 or 1 (rows of an orthonormal basis): column-pivoted
 * QR (GSL) and a rank cut at 1/2, far from both. NULL when the span is {0}. */
static gsl_matrix *
span_basis (const gsl_matrix *W, guint *dim)
{
  gsize r = W->size1, k = W->size2, mn = MIN (r, k);
  gsl_matrix *QR = gsl_matrix_alloc (r, k), *Q = gsl_matrix_alloc (r, r), *R = gsl_matrix_alloc (r, k);
  gsl_vector *tau = gsl_vector_alloc (mn), *norm = gsl_vector_alloc (k);
  gsl_permutation *p = gsl_permutation_alloc (k);
  gsl_matrix *B = NULL;
  int sign;
  guint rank = 0;

  gsl_matrix_memcpy (QR, W);
  gsl_linalg_QRPT_decomp (QR, tau, p, &sign, norm);
  gsl_linalg_QR_unpack (QR, tau, Q, R);
  while (rank < mn && fabs (gsl_matrix_get (R, rank, rank)) > 0.5)
    rank++;
  if (rank > 0)
    {
      gsl_matrix_const_view q = gsl_matrix_const_submatrix (Q, 0, 0, r, rank);
      B = gsl_matrix_alloc (r, rank);
      gsl_matrix_memcpy (B, &q.matrix);
    }
  gsl_matrix_free (QR);
  gsl_matrix_free (Q);
  gsl_matrix_free (R);
  gsl_vector_free (tau);
  gsl_vector_free (norm);
  gsl_permutation_free (p);
  *dim = rank;
  return B;
}

/* Rows 0..rows-1 of the columns `null` of the square orthogonal V, scaled
 * back by `scale`: a basis of the kernel that those rows carry. */
static gsl_matrix *
kernel_part (const gsl_matrix *V, const gboolean *null, gsize rows, const double *scale, guint *dim)
{
  gsize k = 0, m = V->size1;
  for (gsize j = 0; j < m; j++)
    k += null[j];
  *dim = 0;
  if (k == 0)
    return NULL;
  gsl_matrix *W = gsl_matrix_alloc (rows, k);
  for (gsize j = 0, c = 0; j < m; j++)
    if (null[j])
      {
        for (gsize i = 0; i < rows; i++)
          gsl_matrix_set (W, i, c, gsl_matrix_get (V, i, j));
        c++;
      }
  gsl_matrix *B = span_basis (W, dim);
  gsl_matrix_free (W);
  for (gsize i = 0; B && i < rows; i++)
    {
      gsl_vector_view row = gsl_matrix_row (B, i);
      gsl_vector_scale (&row.vector, scale[i]);
    }
  return B;
}

/* D equilibrated, R D C (R, C diagonal: rows, then columns, to unit
 * largest entry), into the top-left ns x nv corner of P (zeros elsewhere). */
static void
equilibrate (const Linear *L, double *R, double *C, gsl_matrix *P)
{
  const gsize ns = L->ns, nv = L->nv;
  for (gsize i = 0; i < ns; i++)
    {
      double big = 0.0;
      for (gsize j = 0; j < nv; j++)
        big = MAX (big, fabs (gsl_matrix_get (L->D, i, j)));
      R[i] = big > 0.0 ? 1.0 / big : 1.0;
    }
  for (gsize j = 0; j < nv; j++)
    {
      double big = 0.0;
      for (gsize i = 0; i < ns; i++)
        big = MAX (big, fabs (R[i] * gsl_matrix_get (L->D, i, j)));
      C[j] = big > 0.0 ? 1.0 / big : 1.0;
    }
  for (gsize i = 0; i < ns; i++)
    for (gsize j = 0; j < nv; j++)
      gsl_matrix_set (P, i, j, R[i] * gsl_matrix_get (L->D, i, j) * C[j]);
}

/* Is the square equilibrated D clearly nonsingular (so that both kernels
 * are {0} and the SVD can be skipped)? Column-pivoted QR and GSL's 1-norm
 * condition estimate, a fraction of the SVD's work. sigma_min / sigma_max
 * >= rcond_1 / n (2-norm against 1-norm), so the cut keeps a factor 10 for
 * the estimator's error above the SVD's own rank decision (KERNEL_RTOL);
 * anything below goes to the SVD. The 40-element cantilever has
 * rcond_1 = 6e-5 against a cut of 1.2e-6. */
static gboolean
clearly_nonsingular (const Linear *L)
{
  const gsize n = L->nv;
  g_autofree double *R = g_new (double, n);
  g_autofree double *C = g_new (double, n);
  gsl_matrix *P = gsl_matrix_alloc (n, n);
  gsl_vector *tau = gsl_vector_alloc (n), *norm = gsl_vector_alloc (n);
  gsl_vector *work = gsl_vector_alloc (3 * n);
  gsl_permutation *perm = gsl_permutation_alloc (n);
  int sign;
  double rcond = 0.0;

  equilibrate (L, R, C, P);
  if (gsl_linalg_QRPT_decomp (P, tau, perm, &sign, norm) == GSL_SUCCESS
      && fabs (gsl_matrix_get (P, n - 1, n - 1)) > 0.0)
    gsl_linalg_QRPT_rcond (P, &rcond, work);
  gsl_matrix_free (P);
  gsl_vector_free (tau);
  gsl_vector_free (norm);
  gsl_vector_free (work);
  gsl_permutation_free (perm);
  return isfinite (rcond) && rcond > 10.0 * (double) n * KERNEL_RTOL;
}

/* Both kernels from one SVD. D is equilibrated and padded to a square P
 * of order m = max(ns, nv): P = U S V^T. The null columns of V, cut to the
 * first nv rows, span ker(R D C) (the padding's coordinates are free), so
 * ker D = C ker(R D C); likewise U gives ker D^T = R ker((R D C)^T). */
static void
structure_kernels (const Linear *L, gsl_matrix **Zm, guint *km, gsl_matrix **Zs, guint *ks)
{
  const gsize ns = L->ns, nv = L->nv, m = MAX (ns, nv);
  g_autofree double *R = g_new (double, ns);
  g_autofree double *C = g_new (double, nv);
  g_autofree gboolean *null = g_new (gboolean, m);
  gsl_matrix *U = gsl_matrix_calloc (m, m), *V = gsl_matrix_alloc (m, m);
  gsl_vector *s = gsl_vector_alloc (m), *work = gsl_vector_alloc (m);

  equilibrate (L, R, C, U);
  gsl_linalg_SV_decomp (U, V, s, work);
  double smax = gsl_vector_get (s, 0);
  for (gsize j = 0; j < m; j++)
    null[j] = gsl_vector_get (s, j) <= KERNEL_RTOL * smax;
  *Zm = kernel_part (V, null, nv, C, km);
  *Zs = kernel_part (U, null, ns, R, ks);
  gsl_matrix_free (U);
  gsl_matrix_free (V);
  gsl_vector_free (s);
  gsl_vector_free (work);
}

static gsl_matrix *
identity (gsize n)
{
  gsl_matrix *I = gsl_matrix_alloc (n, n);
  gsl_matrix_set_identity (I);
  return I;
}

/* Motions: ker D; self-stress states: ker D^T (all velocities when nothing
 * is stressed, all stresses when nothing moves). */
static void
find_kernels (const Linear *L, FxModes *res, GArray *out)
{
  gsl_matrix *Zm = NULL, *Zs = NULL;
  guint km = 0, ks = 0;

  if (L->nv > 0 && L->ns > 0)
    {
      if (!(L->nv == L->ns && clearly_nonsingular (L)))
        structure_kernels (L, &Zm, &km, &Zs, &ks);
    }
  else if (L->nv > 0)
    Zm = identity (L->nv), km = L->nv;
  else if (L->ns > 0)
    Zs = identity (L->ns), ks = L->ns;
  res->mobility = km;
  res->indeterminacy = ks;
  if (km > 0)
    res->n_massless_motions = kernel_modes (L, Zm, L->M, L->vel, L->sv, FX_MODE_MOTION, out);
  if (ks > 0)
    res->n_rigid_self_stress = kernel_modes (L, Zs, L->C, L->str, L->ss, FX_MODE_SELF_STRESS, out);
  g_clear_pointer (&Zm, gsl_matrix_free);
  g_clear_pointer (&Zs, gsl_matrix_free);
}

/* K = D_c^T C_c^-1 D_c over the compliant stresses (scaled: C_c has unit
 * diagonal, so its Cholesky factor is well scaled); *factor (NULL when no
 * stress is compliant) keeps C_c's Cholesky factor. */
static gsl_matrix *
stiffness (const Linear *L, const guint *comp, guint nc, gsl_matrix **factor)
{
  gsl_matrix *K = gsl_matrix_calloc (L->nv, L->nv);
  *factor = NULL;
  if (nc == 0)
    return K;
  gsl_matrix *Cc = gsl_matrix_alloc (nc, nc);
  gsl_matrix *Y = gsl_matrix_alloc (nc, L->nv);
  for (guint i = 0; i < nc; i++)
    {
      for (guint j = 0; j < nc; j++)
        gsl_matrix_set (Cc, i, j, gsl_matrix_get (L->C, comp[i], comp[j]));
      for (guint j = 0; j < L->nv; j++)
        gsl_matrix_set (Y, i, j, gsl_matrix_get (L->D, comp[i], j));
    }
  gsize bw = fx_modes_bandwidth (Cc);
  gsl_linalg_cholesky_decomp1 (Cc);                    /* C_c = G G^T */
  if (bw <= FX_MODES_BAND_MAX)
    fx_modes_banded_gram (Cc, bw, Y, K);
  else
    {
      gsl_blas_dtrsm (CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1.0, Cc, Y);  /* G^-1 D_c */
      gsl_blas_dsyrk (CblasLower, CblasTrans, 1.0, Y, 0.0, K);
      for (guint i = 0; i < L->nv; i++)
        for (guint j = 0; j < i; j++)
          gsl_matrix_set (K, j, i, gsl_matrix_get (K, i, j));
    }
  *factor = Cc;
  gsl_matrix_free (Y);
  return K;
}

/* Velocities allowed by the rigid stresses: ker D_r; NULL (with nz = nv)
 * when there is no rigid stress, meaning the identity. */
static gsl_matrix *
rigid_constraints (const Linear *L, const guint *rigid, guint nr, guint *nz)
{
  if (nr == 0)
    {
      *nz = L->nv;
      return NULL;
    }
  gsl_matrix *Dr = gsl_matrix_alloc (nr, L->nv);
  for (guint i = 0; i < nr; i++)
    for (guint j = 0; j < L->nv; j++)
      gsl_matrix_set (Dr, i, j, gsl_matrix_get (L->D, rigid[i], j));
  gsl_matrix *Z = kernel_basis (Dr, nr, L->nv, nz);
  gsl_matrix_free (Dr);
  return Z;
}

/* The reduced pencil Kc q = omega^2 Mc q on the np directions with inertia,
 * and lift (nz x np): the velocity (in the constrained coordinates) of q. */
typedef struct {
  gsize np;
  gsl_matrix *Kc, *Mc, *lift;
} Reduced;

static void
reduced_clear (Reduced *r)
{
  g_clear_pointer (&r->Kc, gsl_matrix_free);
  g_clear_pointer (&r->Mc, gsl_matrix_free);
  g_clear_pointer (&r->lift, gsl_matrix_free);
}

/* In a basis where the first nq coordinates carry no inertia (K blocks
 * Kqq, Kqp, Kpp of KB), static condensation: Kc = Kpp - Kpq Kqq^+ Kqp, and
 * X = -Kqq^+ Kqp gives the massless coordinates of each q. Directions that
 * have neither mass nor stiffness (Kqq's kernel) are massless motions: they
 * do not move with q. */
static gsl_matrix *
condense_blocks (const gsl_matrix *KB, gsize nq, gsl_matrix *Kc)
{
  gsize np = KB->size1 - nq;
  gsl_matrix_const_view Kpp = gsl_matrix_const_submatrix (KB, nq, nq, np, np);
  gsl_matrix_memcpy (Kc, &Kpp.matrix);
  if (nq == 0)
    return NULL;
  gsl_matrix_const_view Kqq = gsl_matrix_const_submatrix (KB, 0, 0, nq, nq);
  gsl_matrix_const_view Kqp = gsl_matrix_const_submatrix (KB, 0, nq, nq, np);
  gsl_vector *kw;
  gsl_matrix *kv;
  symmetric_eigen (&Kqq.matrix, &kw, &kv);
  double kmax = MAX (fabs (gsl_vector_get (kw, 0)), fabs (gsl_vector_get (kw, nq - 1)));
  gsl_matrix *T = gsl_matrix_alloc (nq, np), *X = gsl_matrix_alloc (nq, np);
  gsl_blas_dgemm (CblasTrans, CblasNoTrans, 1.0, kv, &Kqp.matrix, 0.0, T);
  for (gsize i = 0; i < nq; i++)
    {
      double ki = gsl_vector_get (kw, i);
      gsl_vector_view row = gsl_matrix_row (T, i);
      gsl_vector_scale (&row.vector, fabs (ki) > PINV_RTOL * kmax ? 1.0 / ki : 0.0);
    }
  gsl_blas_dgemm (CblasNoTrans, CblasNoTrans, -1.0, kv, T, 0.0, X);   /* X = -Kqq^+ Kqp */
  gsl_blas_dgemm (CblasTrans, CblasNoTrans, 1.0, &Kqp.matrix, X, 1.0, Kc);  /* Kc += Kpq X */
  gsl_matrix_free (T);
  gsl_matrix_free (kv);
  gsl_vector_free (kw);
  return X;
}

/* No rigid stress: the massless velocities are exactly the zero rows of M
 * (the mass matrix is block diagonal per field), so select instead of
 * diagonalising. */
static void
reduce_by_selection (const gsl_matrix *K, const gsl_matrix *M, Reduced *r)
{
  gsize n = M->size1, nq = 0, np = 0;
  g_autofree gsize *order = g_new (gsize, n);
  for (gsize i = 0; i < n; i++)
    if (!(gsl_matrix_get (M, i, i) > 0.0))
      order[nq++] = i;
  for (gsize i = 0; i < n; i++)
    if (gsl_matrix_get (M, i, i) > 0.0)
      order[nq + np++] = i;
  r->np = np;
  if (np == 0)
    return;
  gsl_matrix *KB = gsl_matrix_alloc (n, n);
  for (gsize i = 0; i < n; i++)
    for (gsize j = 0; j < n; j++)
      gsl_matrix_set (KB, i, j, gsl_matrix_get (K, order[i], order[j]));
  r->Kc = gsl_matrix_alloc (np, np);
  r->Mc = gsl_matrix_alloc (np, np);
  for (gsize i = 0; i < np; i++)
    for (gsize j = 0; j < np; j++)
      gsl_matrix_set (r->Mc, i, j, gsl_matrix_get (M, order[nq + i], order[nq + j]));
  gsl_matrix *X = condense_blocks (KB, nq, r->Kc);
  r->lift = gsl_matrix_calloc (n, np);
  for (gsize i = 0; i < np; i++)
    gsl_matrix_set (r->lift, order[nq + i], i, 1.0);
  for (gsize k = 0; k < nq && X; k++)
    for (gsize i = 0; i < np; i++)
      gsl_matrix_set (r->lift, order[k], i, gsl_matrix_get (X, k, i));
  g_clear_pointer (&X, gsl_matrix_free);
  gsl_matrix_free (KB);
}

/* Constrained coordinates: the massless directions are the near-null
 * eigenvectors of the restricted mass (its diagonal is no guide there). */
static void
reduce_by_eigen (const gsl_matrix *Kz, const gsl_matrix *Mz, Reduced *r)
{
  gsize nz = Kz->size1, nq = 0;
  gsl_vector *w;
  gsl_matrix *U;

  symmetric_eigen (Mz, &w, &U);
  double wmax = gsl_vector_get (w, nz - 1);
  while (nq < nz && gsl_vector_get (w, nq) <= MASS_RTOL * wmax)
    nq++;
  r->np = nz - nq;
  if (r->np > 0)
    {
      gsize np = r->np;
      gsl_matrix *KB = congruence (Kz, U);
      r->Kc = gsl_matrix_alloc (np, np);
      r->Mc = gsl_matrix_calloc (np, np);
      for (gsize i = 0; i < np; i++)
        gsl_matrix_set (r->Mc, i, i, gsl_vector_get (w, nq + i));
      gsl_matrix *X = condense_blocks (KB, nq, r->Kc);
      gsl_matrix *Y = gsl_matrix_calloc (nz, np);   /* [X; I] */
      for (gsize i = 0; i < np; i++)
        gsl_matrix_set (Y, nq + i, i, 1.0);
      if (X)
        {
          gsl_matrix_view Yq = gsl_matrix_submatrix (Y, 0, 0, nq, np);
          gsl_matrix_memcpy (&Yq.matrix, X);
          gsl_matrix_free (X);
        }
      r->lift = gsl_matrix_alloc (nz, np);
      gsl_blas_dgemm (CblasNoTrans, CblasNoTrans, 1.0, U, Y, 0.0, r->lift);
      gsl_matrix_free (Y);
      gsl_matrix_free (KB);
    }
  gsl_matrix_free (U);
  gsl_vector_free (w);
}

/* One vibration mode's state: velocities Z lift q (stresses zero: the
 * mode at its instant of largest velocity). */
static double *
vibration_state (const Linear *L, const gsl_matrix *Z, const Reduced *r, const gsl_vector *q)
{
  double *state = g_new0 (double, L->na);
  gsl_vector *w = gsl_vector_alloc (r->lift->size1);
  gsl_blas_dgemv (CblasNoTrans, 1.0, r->lift, q, 0.0, w);
  for (guint i = 0; i < L->nv; i++)
    {
      double v = 0.0;
      if (Z == NULL)
        v = gsl_vector_get (w, i);
      else
        for (gsize j = 0; j < Z->size2; j++)
          v += gsl_matrix_get (Z, i, j) * gsl_vector_get (w, j);
      state[L->vel[i]] = L->sv[i] * v;
    }
  gsl_vector_free (w);
  return state;
}

/* The compliant stresses when the mode is at its largest displacement:
 * C sigma' = D v with v = state cos(omega t) gives sigma = C^-1 D state
 * sin(omega t) / omega, in phase with the displacement (rigid links' stresses,
 * multipliers, are left at zero: only drawn). */
static double *
vibration_stress (const Linear *L, const guint *comp, guint nc, const gsl_matrix *factor,
                  const double *state, double omega)
{
  double *stress = g_new0 (double, L->na);
  gsl_vector *b = gsl_vector_alloc (nc), *x = gsl_vector_alloc (nc);
  for (guint i = 0; i < nc; i++)
    {
      double d = 0.0;
      for (guint j = 0; j < L->nv; j++)
        d += gsl_matrix_get (L->D, comp[i], j) * state[L->vel[j]] / L->sv[j];
      gsl_vector_set (b, i, d);
    }
  gsl_linalg_cholesky_solve (factor, b, x);
  for (guint i = 0; i < nc; i++)
    stress[L->str[comp[i]]] = L->ss[comp[i]] * gsl_vector_get (x, i) / omega;
  gsl_vector_free (b);
  gsl_vector_free (x);
  return stress;
}

/* Vibration modes: K v = omega^2 M v on the velocities the rigid stresses
 * allow, massless directions condensed. The first `n_zero` eigenvalues are
 * the motions with inertia (omega = 0), found already. */
static void
find_vibrations (const Linear *L, guint n_zero, guint max_keep, FxModes *res, GArray *out)
{
  if (L->nv == 0)
    return;
  g_autofree guint *comp = g_new (guint, MAX (L->ns, 1));
  g_autofree guint *rigid = g_new (guint, MAX (L->ns, 1));
  guint nc = 0, nr = 0, nz = 0;
  for (guint i = 0; i < L->ns; i++)
    {
      if (gsl_matrix_get (L->C, i, i) > 0.0)
        comp[nc++] = i;
      else
        rigid[nr++] = i;
    }
  gsl_matrix *Cfactor;
  gsl_matrix *K = stiffness (L, comp, nc, &Cfactor);
  gsl_matrix *Z = rigid_constraints (L, rigid, nr, &nz);
  Reduced r = { 0 };
  if (Z == NULL && nz > 0)
    reduce_by_selection (K, L->M, &r);
  else if (Z != NULL)
    {
      gsl_matrix *Kz = congruence (K, Z), *Mz = congruence (L->M, Z);
      reduce_by_eigen (Kz, Mz, &r);
      gsl_matrix_free (Kz);
      gsl_matrix_free (Mz);
    }
  gsl_matrix_free (K);
  /* each kept velocity direction pairs with a stress one; the rest of the
   * pencil's directions are infinite eigenvalues (E phi = 0) */
  res->n_dropped = L->na > 2 * r.np ? L->na - 2 * r.np : 0;

  if (r.np > 0)
    {
      gsize np = r.np;
      gsl_matrix *V = gsl_matrix_alloc (np, np);
      gsl_vector *w2 = gsl_vector_alloc (np);
      gsize need = max_keep > 0 ? MIN (np, n_zero + max_keep) : np;
      if (!(need < np / 2 && fx_modes_lowest_pairs (r.Kc, r.Mc, need, w2, V)))
        fx_modes_symmetric_definite (r.Kc, r.Mc, w2, V);
      guint kept = 0;
      for (gsize c = MIN (n_zero, np); c < np && (max_keep == 0 || kept < max_keep); c++, kept++)
        {
          gsl_vector_view q = gsl_matrix_column (V, c);
          RawMode rm = { FX_MODE_VIBRATION, MAX (gsl_vector_get (w2, c), 0.0),
                         vibration_state (L, Z, &r, &q.vector), NULL };
          if (Cfactor && rm.omega2 > 0.0)
            rm.stress = vibration_stress (L, comp, nc, Cfactor, rm.state, sqrt (rm.omega2));
          g_array_append_val (out, rm);
        }
      gsl_matrix_free (V);
      gsl_vector_free (w2);
    }
  reduced_clear (&r);
  g_clear_pointer (&Z, gsl_matrix_free);
  g_clear_pointer (&Cfactor, gsl_matrix_free);
}


gboolean
fx_modes_dense_solve (FxSystem *sys, guint max_vibrations, FxModes *res, GArray *raw,
                      GError **error)
{
  Linear L = { 0 };

  L.sys = sys;
  if (!linearise (&L, error) || !split_and_scale (&L, error))
    {
      linear_clear (&L);
      return FALSE;
    }
  find_kernels (&L, res, raw);
  frame_self_stress (&L, raw);
  find_vibrations (&L, res->mobility - res->n_massless_motions, max_vibrations, res, raw);
  linear_clear (&L);
  return TRUE;
}
