/* fx-modes.c: linear modes about the drawn configuration (docs/theory.md §8).
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
#include "fx-modes-frame.h"
#include "fx-csv.h"
#include "fx-system-private.h"
#include "fx-link-model.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (fx-modes-error-quark, fx_modes_error)

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
 * dense, row-major n x n. The one place that knows the Jacobian container. */
static void
assemble_dense (FxSystem *sys, double dt, double *out)
{
  const guint n = sys->n;
  g_autofree double *x = g_new0 (double, n);
  g_autofree double *R = g_new (double, n);
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_DENSE, NULL);

  /* the dense path records every entry: it cannot fail on pattern or size
   * below FX_MODES_MAX_UNKNOWNS */
  g_assert (J != NULL);
  fx_system_residual (sys, x, dt, R, NULL, J);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      out[(gsize) i * n + j] = fx_matrix_get (J, i, j);
}

FxModel *
fx_modes_linear_model (const FxModel *model)
{
  FxModel *m = fx_model_copy (model);

  m->gravity[0] = m->gravity[1] = 0.0;
  g_array_set_size (m->loads, 0);
  g_array_set_size (m->drags, 0);  /* a hand is a load, not part of the structure */
  for (guint i = 0; i < m->links->len; i++)
    {
      FxLink *l = fx_model_link (m, i);
      l->damping = l->rotational_damping = 0.0;
      l->initial_velocity[0] = l->initial_velocity[1] = 0.0;
      l->initial_omega = 0.0;
    }
  for (guint i = 0; i < m->joints->len; i++)
    {
      FxJoint *j = fx_model_joint (m, i);
      j->drive_velocity[0] = j->drive_velocity[1] = 0.0;
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    fx_model_motor (m, i)->value = 0.0;
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    {
      /* the rest angle would be a preload: modes are about the drawn state */
      fx_model_spring (m, i)->damping = 0.0;
      fx_model_spring (m, i)->rest_angle = 0.0;
    }
  return m;
}

/* Is unknown i a velocity (else a stress)? Slots alternate node / element;
 * a node slot holds the CG1 fields, an element slot the DG0 ones. Unknowns
 * outside every link are inertias' velocities. */
static gboolean
unknown_is_velocity (const FxSystem *sys, guint i)
{
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      if (i < l->offset || i >= l->offset + l->n_unknowns)
        continue;
      return l->model->unknown_is_velocity (l, i - l->offset);
    }
  return TRUE;
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
  g_clear_pointer (&L->D, gsl_matrix_free);
  g_clear_pointer (&L->M, gsl_matrix_free);
  g_clear_pointer (&L->C, gsl_matrix_free);
}

/* E and A of the system, with springs as extra stress unknowns. */
static void
linearise (Linear *L)
{
  FxSystem *sys = L->sys;
  const guint n = sys->n, ns = sys->springs->len, na = n + ns;
  g_autofree double *J1 = g_new (double, (gsize) n * n);
  g_autofree double *J2 = g_new (double, (gsize) n * n);
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
  assemble_dense (sys, 1.0, J1);   /* E - A/2 */
  assemble_dense (sys, 2.0, J2);   /* E - A   */

  L->n = n;
  L->na = na;
  L->E = g_new0 (double, (gsize) na * na);
  L->A = g_new0 (double, (gsize) na * na);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      {
        gsize ij = (gsize) i * n + j;
        L->E[(gsize) i * na + j] = 2.0 * J1[ij] - J2[ij];
        L->A[(gsize) i * na + j] = 2.0 * (J1[ij] - J2[ij]);
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
      is_vel[i] = i < L->n ? unknown_is_velocity (L->sys, i) : FALSE;
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

/* ------------------------------------------------------------ results */

typedef struct {
  FxModeKind kind;
  double omega2;
  double *state;  /* na */
  double *stress; /* na, vibrations: the stresses at largest displacement */
} RawMode;

static void
raw_mode_clear (gpointer p)
{
  g_free (((RawMode *) p)->state);
  g_free (((RawMode *) p)->stress);
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

/* Both kernels from one SVD. D is equilibrated, R D C (R, C diagonal:
 * rows, then columns, to unit largest entry), and padded to a square P of
 * order m = max(ns, nv): P = U S V^T. The null columns of V, cut to the
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
      gsl_matrix_set (U, i, j, R[i] * gsl_matrix_get (L->D, i, j) * C[j]);
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
    structure_kernels (L, &Zm, &km, &Zs, &ks);
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
  gsl_linalg_cholesky_decomp1 (Cc);                    /* C_c = G G^T */
  gsl_blas_dtrsm (CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1.0, Cc, Y);  /* G^-1 D_c */
  gsl_blas_dsyrk (CblasLower, CblasTrans, 1.0, Y, 0.0, K);
  for (guint i = 0; i < L->nv; i++)
    for (guint j = 0; j < i; j++)
      gsl_matrix_set (K, j, i, gsl_matrix_get (K, i, j));
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
      gsl_eigen_gensymmv_workspace *ws = gsl_eigen_gensymmv_alloc (np);
      gsl_eigen_gensymmv (r.Kc, r.Mc, w2, V, ws);
      gsl_eigen_gensymmv_sort (w2, V, GSL_EIGEN_SORT_VAL_ASC);
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
      gsl_eigen_gensymmv_free (ws);
      gsl_matrix_free (V);
      gsl_vector_free (w2);
    }
  reduced_clear (&r);
  g_clear_pointer (&Z, gsl_matrix_free);
  g_clear_pointer (&Cfactor, gsl_matrix_free);
}

/* ------------------------------------------------------------- shapes */

static void
drawn_nodes (FxSystem *sys, FxModes *res, double **theta)
{
  res->n_links = fx_system_n_links (sys);
  res->link_nodes = g_new0 (guint, MAX (res->n_links, 1));
  res->link_first = g_new0 (guint, MAX (res->n_links, 1));
  res->n_nodes = 0;
  for (guint l = 0; l < res->n_links; l++)
    {
      res->link_first[l] = res->n_nodes;
      res->link_nodes[l] = fx_system_link_elements (sys, l) + 1;
      res->n_nodes += res->link_nodes[l];
    }
  res->node_xy = g_new0 (double, 2 * MAX (res->n_nodes, 1));
  *theta = g_new0 (double, MAX (res->n_nodes, 1));
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  memset (sys->x, 0, sizeof (double) * sys->n);
  for (guint l = 0; l < res->n_links; l++)
    for (guint i = 0; i < res->link_nodes[l]; i++)
      {
        guint k = res->link_first[l] + i;
        double *p = &res->node_xy[2 * k];
        fx_system_node (sys, l, i, &p[0], &p[1], &(*theta)[k], NULL);
        for (guint c = 0; c < 2; c++)
          lo[c] = MIN (lo[c], p[c]), hi[c] = MAX (hi[c], p[c]);
      }
  res->size = res->n_nodes > 0 ? hypot (hi[0] - lo[0], hi[1] - lo[1]) : 0.0;
}

/* Model-link fraction of point xi (0..1) of element e of segment k of a
 * link in nseg segments (a split link's halves have equal length). */
static double
segment_fraction (guint nseg, guint k, guint N, double e_xi)
{
  double local = e_xi / N;
  return nseg == 2 ? 0.5 * k + 0.5 * local : local;
}

typedef struct {
  double v[2], m, n;
} NodeFields;

static void
sample (const FxSystem *sys, guint l, double s, NodeFields *out)
{
  double nh[2];
  fx_system_fields_at (sys, l, s, out->v, NULL, nh, &out->m);
  out->n = nh[0];
}

/* Fields at local node j of segment k of model link l. CG1 fields are
 * nodal; a DG0 field (piecewise constant) is drawn as the mean of the two
 * elements at an interior node and extrapolated linearly at an end, so that
 * a rigid rotation about a pin shows zero at the pin. */
static void
node_fields (const FxSystem *sys, guint l, guint k, guint j, NodeFields *out)
{
  const FxLinkSys *ls = &sys->links[sys->seg_first[l] + k];
  const guint nseg = sys->seg_count[l], N = ls->N;
  const gboolean dg_v = ls->T == FX_CAUSAL_V, dg_n = ls->T == FX_CAUSAL_F, dg_m = ls->R == FX_CAUSAL_F;
  NodeFields at_node, a, b;
  double wa, wb;

  sample (sys, l, segment_fraction (nseg, k, N, j), &at_node);
  if (N == 1)
    {
      sample (sys, l, segment_fraction (nseg, k, N, 0.5), &a);
      b = a, wa = 1.0, wb = 0.0;
    }
  else
    {
      guint ea = j == 0 ? 0 : j == N ? N - 1 : j - 1;
      guint eb = j == 0 ? 1 : j == N ? N - 2 : j;
      wa = j == 0 || j == N ? 1.5 : 0.5;
      wb = j == 0 || j == N ? -0.5 : 0.5;
      sample (sys, l, segment_fraction (nseg, k, N, ea + 0.5), &a);
      sample (sys, l, segment_fraction (nseg, k, N, eb + 0.5), &b);
    }
  *out = at_node;
  if (dg_v)
    for (guint c = 0; c < 2; c++)
      out->v[c] = wa * a.v[c] + wb * b.v[c];
  if (dg_n)
    out->n = wa * a.n + wb * b.n;
  if (dg_m)
    out->m = wa * a.m + wb * b.m;
}

/* Node i of model link l as (segment, local node): the shared midpoint of
 * a split link is the first half's end. */
static guint
local_node (const FxSystem *sys, guint l, guint i, guint *j)
{
  guint na = sys->links[sys->seg_first[l]].N;
  if (sys->seg_count[l] == 2 && i > na)
    {
      *j = i - na;
      return 1;
    }
  *j = i;
  return 0;
}

/* A vibration's moment and axial force, from its stresses: largest |m| = 1
 * (the colours show where it bends, not how much). */
static void
fill_stress_shape (FxSystem *sys, const FxModes *res, const double *stress, FxMode *mode)
{
  double big_m = 0.0, big_n = 0.0;
  memcpy (sys->x, stress, sizeof (double) * sys->n);
  for (guint l = 0; l < res->n_links; l++)
    for (guint i = 0; i < res->link_nodes[l]; i++)
      {
        double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * (res->link_first[l] + i)];
        NodeFields f;
        guint j, seg = local_node (sys, l, i, &j);
        node_fields (sys, l, seg, j, &f);
        sh[FX_MODE_M] = f.m;
        sh[FX_MODE_N] = f.n;
        big_m = MAX (big_m, fabs (f.m));
        big_n = MAX (big_n, fabs (f.n));
      }
  memset (sys->x, 0, sizeof (double) * sys->n);
  double unit = big_m > 0.0 ? big_m : big_n;
  for (guint k = 0; k < res->n_nodes && unit > 0.0; k++)
    {
      mode->shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_M] /= unit;
      mode->shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_N] /= unit;
    }
}

static void
fill_shape (FxSystem *sys, const FxModes *res, const double *theta, FxMode *mode)
{
  double big_d = 0.0, big_m = 0.0, big_n = 0.0;

  memcpy (sys->x, mode->state, sizeof (double) * sys->n);
  mode->shape = g_new0 (double, FX_MODE_SHAPE_STRIDE * MAX (res->n_nodes, 1));
  for (guint l = 0; l < res->n_links; l++)
    for (guint i = 0; i < res->link_nodes[l]; i++)
      {
        guint k = res->link_first[l] + i;
        double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * k];
        double c = cos (theta[k]), s = sin (theta[k]);
        NodeFields f;
        guint j, seg = local_node (sys, l, i, &j);
        node_fields (sys, l, seg, j, &f);
        sh[FX_MODE_DX] = c * f.v[0] - s * f.v[1];   /* Lambda(theta*) v_hat */
        sh[FX_MODE_DY] = s * f.v[0] + c * f.v[1];
        sh[FX_MODE_M] = f.m;
        sh[FX_MODE_N] = f.n;
        big_d = MAX (big_d, hypot (sh[FX_MODE_DX], sh[FX_MODE_DY]));
        big_m = MAX (big_m, fabs (sh[FX_MODE_M]));
        big_n = MAX (big_n, fabs (sh[FX_MODE_N]));
      }
  memset (sys->x, 0, sizeof (double) * sys->n);
  double unit = mode->kind == FX_MODE_SELF_STRESS ? (big_m > 0.0 ? big_m : big_n) : big_d;
  if (unit <= 0.0)
    return;
  for (guint k = 0; k < FX_MODE_SHAPE_STRIDE * res->n_nodes; k++)
    mode->shape[k] /= unit;
  for (guint i = 0; i < res->n_unknowns; i++)
    mode->state[i] /= unit;
}

/* ------------------------------------------------------------- public */

static void
results_from_raw (FxSystem *sys, FxModes *res, GArray *raw)
{
  g_autofree double *theta = NULL;
  guint counter[3] = { 0, 0, 0 };

  drawn_nodes (sys, res, &theta);
  res->n_modes = raw->len;
  res->modes = g_new0 (FxMode, MAX (raw->len, 1));
  for (guint i = 0; i < raw->len; i++)
    {
      RawMode *rm = &g_array_index (raw, RawMode, i);
      FxMode *m = &res->modes[i];
      m->kind = rm->kind;
      m->index = ++counter[rm->kind];
      m->frequency = rm->kind == FX_MODE_VIBRATION ? sqrt (rm->omega2) / (2.0 * G_PI) : 0.0;
      m->state = g_new (double, MAX (res->n_unknowns, 1));
      memcpy (m->state, rm->state, sizeof (double) * res->n_unknowns);
      fill_shape (sys, res, theta, m);
      if (rm->stress)
        fill_stress_shape (sys, res, rm->stress, m);
    }
}

/* --------------------------------------- large models: Arnoldi */

/* The lowest vibrations of a model beyond the dense limit. The Cayley
 * transform T = (E - dt/2 A)^-1 E of the pencil has the eigenvalues
 * mu = 1 / (1 - i omega dt / 2): 1 for motions and self-stress states, 0
 * for massless and rigid directions, and in between a modulus that falls
 * as omega rises, so Arnoldi's iteration on T finds the lowest vibrations
 * first. E - dt/2 A is the midpoint's own Newton matrix at rest (banded or
 * sparse, FxMatrix); E x is the residual at dt = 0. */
#define ARNOLDI_MIN 60       /* Krylov vectors, at least                */
#define ARNOLDI_MAX_N 400000 /* unknowns: (m + 1) n doubles of storage   */
#define RITZ_RTOL 1e-8       /* accepted Ritz pairs: residual / |mu|     */
#define MU_MIN 1e-9          /* |mu| below: an infinite eigenvalue       */

static void
apply_T (FxSystem *sys, FxMatrix *J, const double *v, double *out)
{
  fx_system_residual (sys, v, 0.0, out, NULL, NULL);  /* E v */
  fx_matrix_solve (J, out);
}

static double
normalise (double *v, gsize n)
{
  double s = 0.0;
  for (gsize i = 0; i < n; i++)
    s += v[i] * v[i];
  s = sqrt (s);
  for (gsize i = 0; i < n && s > 0.0; i++)
    v[i] /= s;
  return s;
}

/* Arnoldi with twice-repeated Gram-Schmidt: V (m + 1 rows of n), H
 * (m + 1) x m. Returns the dimension reached (less than m on breakdown). */
static guint
arnoldi (FxSystem *sys, FxMatrix *J, guint m, double *V, gsl_matrix *H)
{
  const gsize n = sys->n;
  g_autoptr (GRand) rand = g_rand_new_with_seed (17);
  g_autofree double *w = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    w[i] = g_rand_double_range (rand, -1.0, 1.0);
  apply_T (sys, J, w, V);  /* one application removes the infinite directions */
  normalise (V, n);
  for (guint j = 0; j < m; j++)
    {
      apply_T (sys, J, &V[(gsize) j * n], w);
      for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i <= j; i++)
          {
            const double *vi = &V[(gsize) i * n];
            double h = 0.0;
            for (gsize k = 0; k < n; k++)
              h += vi[k] * w[k];
            for (gsize k = 0; k < n; k++)
              w[k] -= h * vi[k];
            gsl_matrix_set (H, i, j, gsl_matrix_get (H, i, j) + h);
          }
      double beta = normalise (w, n);
      gsl_matrix_set (H, j + 1, j, beta);
      if (!(beta > 1e-14 * fabs (gsl_matrix_get (H, 0, 0))))
        return j + 1;
      memcpy (&V[(gsize) (j + 1) * n], w, sizeof (double) * n);
    }
  return m;
}

typedef struct {
  double omega;
  guint k;  /* Ritz pair */
} Ritz;

static int
ritz_by_omega (gconstpointer a, gconstpointer b)
{
  double x = ((const Ritz *) a)->omega, y = ((const Ritz *) b)->omega;
  return (x > y) - (x < y);
}

/* A converged Ritz pair's state (velocities, real at their largest) and
 * stresses (at the largest displacement, a quarter period later). */
static void
ritz_mode (FxSystem *sys, const double *V, guint m, const gsl_matrix_complex *Y, guint k,
           const gboolean *is_vel, RawMode *rm)
{
  const gsize n = sys->n;
  g_autofree gsl_complex *phi = g_new0 (gsl_complex, n);
  for (guint j = 0; j < m; j++)
    {
      gsl_complex y = gsl_matrix_complex_get (Y, j, k);
      const double *vj = &V[(gsize) j * n];
      for (gsize i = 0; i < n; i++)
        phi[i] = gsl_complex_add (phi[i], gsl_complex_mul_real (y, vj[i]));
    }
  gsl_complex sq = GSL_COMPLEX_ZERO;
  for (gsize i = 0; i < n; i++)
    if (is_vel[i])
      sq = gsl_complex_add (sq, gsl_complex_mul (phi[i], phi[i]));
  gsl_complex turn = gsl_complex_polar (1.0, -0.5 * gsl_complex_arg (sq));
  rm->state = g_new0 (double, n);
  rm->stress = g_new0 (double, n);
  for (gsize i = 0; i < n; i++)
    {
      gsl_complex p = gsl_complex_mul (turn, phi[i]);
      if (is_vel[i])
        rm->state[i] = GSL_REAL (p);
      else
        rm->stress[i] = -GSL_IMAG (p);  /* Re(p e^{i pi/2}) */
    }
}

static gboolean
iterative_vibrations (FxSystem *sys, guint want, GArray *raw, GError **error)
{
  const gsize n = sys->n;
  if (sys->springs->len > 0)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("this model has %u unknowns, beyond the %u of the dense eigensolver, and "
                     "torsional springs, which the iterative one does not take: use fewer "
                     "elements per link"), (guint) n, FX_MODES_MAX_UNKNOWNS);
      return FALSE;
    }
  if (n > ARNOLDI_MAX_N || n < 2)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("this model has %u unknowns: modes are computed for up to %u"), (guint) n,
                   ARNOLDI_MAX_N);
      return FALSE;
    }
  /* the step sets the shift: the model's own step puts its audible
   * frequencies (omega dt ~ 1) where the iteration separates them best */
  const double dt = sys->model->dt > 0.0 ? sys->model->dt : 0.01;
  memset (sys->x, 0, sizeof (double) * n);
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_AUTO, error);
  if (J == NULL)
    return FALSE;
  g_autofree double *x0 = g_new0 (double, n), *R = g_new (double, n);
  FxMatrixStatus st = FX_MATRIX_PATTERN_CHANGED;
  for (guint attempt = 0; attempt < 3 && st == FX_MATRIX_PATTERN_CHANGED; attempt++)
    {
      fx_system_residual (sys, x0, dt, R, NULL, J);
      st = fx_matrix_factorize (J);
      if (st == FX_MATRIX_PATTERN_CHANGED && !fx_matrix_analyze (J, error))
        return FALSE;
    }
  if (st != FX_MATRIX_OK)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the shifted matrix of the iterative eigensolver is singular"));
      return FALSE;
    }

  guint m = (guint) MIN (n - 1, MAX ((gsize) ARNOLDI_MIN, 4 * (gsize) want + 20));
  g_autofree double *V = g_new0 (double, (gsize) (m + 1) * n);
  gsl_matrix *H = gsl_matrix_calloc (m + 1, m);
  guint reached = arnoldi (sys, J, m, V, H);
  double h_next = gsl_matrix_get (H, reached, reached - 1);

  gsl_matrix *Hm = gsl_matrix_alloc (reached, reached);
  gsl_matrix_const_view sub = gsl_matrix_const_submatrix (H, 0, 0, reached, reached);
  gsl_matrix_memcpy (Hm, &sub.matrix);
  gsl_vector_complex *mu = gsl_vector_complex_alloc (reached);
  gsl_matrix_complex *Y = gsl_matrix_complex_alloc (reached, reached);
  gsl_eigen_nonsymmv_workspace *ws = gsl_eigen_nonsymmv_alloc (reached);
  int status = gsl_eigen_nonsymmv (Hm, mu, Y, ws);
  gsl_eigen_nonsymmv_free (ws);

  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (Ritz));
  double unconverged = INFINITY;  /* the lowest frequency not yet converged */
  for (guint k = 0; k < reached && status == GSL_SUCCESS; k++)
    {
      gsl_complex mk = gsl_vector_complex_get (mu, k);
      double amu = gsl_complex_abs (mk);
      if (!(amu > MU_MIN))
        continue;  /* an infinite eigenvalue: what round-off leaves of E phi = 0 */
      double resid = fabs (h_next) * gsl_complex_abs (gsl_matrix_complex_get (Y, reached - 1, k));
      /* lambda = (2 / dt)(1 - 1 / mu) */
      gsl_complex lambda = gsl_complex_mul_real (gsl_complex_sub (GSL_COMPLEX_ONE, gsl_complex_inverse (mk)),
                                                 2.0 / dt);
      double omega = GSL_IMAG (lambda);
      if (!(omega > 1e-9 * (2.0 / dt)))
        continue;  /* the other of a conjugate pair, or a zero mode (mu = 1) */
      if (resid > RITZ_RTOL * amu)
        unconverged = MIN (unconverged, omega);
      else if (fabs (GSL_REAL (lambda)) <= 1e-6 * omega)  /* on the imaginary axis */
        g_array_append_val (found, ((Ritz) { omega, k }));
    }
  g_array_sort (found, ritz_by_omega);
  /* no gaps: only the modes below the lowest one still moving */
  while (found->len > 0 && g_array_index (found, Ritz, found->len - 1).omega > unconverged)
    g_array_set_size (found, found->len - 1);
  g_autofree gboolean *is_vel = g_new (gboolean, n);
  for (gsize i = 0; i < n; i++)
    is_vel[i] = unknown_is_velocity (sys, (guint) i);
  for (guint i = 0; i < found->len && (want == 0 || i < want); i++)
    {
      const Ritz *r = &g_array_index (found, Ritz, i);
      RawMode rm = { FX_MODE_VIBRATION, r->omega * r->omega, NULL, NULL };
      ritz_mode (sys, V, reached, Y, r->k, is_vel, &rm);
      g_array_append_val (raw, rm);
    }
  gsl_matrix_free (H);
  gsl_matrix_free (Hm);
  gsl_vector_complex_free (mu);
  gsl_matrix_complex_free (Y);
  if (found->len == 0)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the iterative eigensolver found no vibration mode"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
results_finite (const FxModes *res)
{
  for (guint i = 0; i < res->n_modes; i++)
    {
      const FxMode *m = &res->modes[i];
      if (!isfinite (m->frequency))
        return FALSE;
      for (guint k = 0; k < FX_MODE_SHAPE_STRIDE * res->n_nodes; k++)
        if (!isfinite (m->shape[k]))
          return FALSE;
      for (guint k = 0; k < res->n_unknowns; k++)
        if (!isfinite (m->state[k]))
          return FALSE;
    }
  return TRUE;
}

FxModes *
fx_modes_compute (const FxModel *model, guint max_vibrations, GError **error)
{
  return fx_modes_compute_with (model, max_vibrations, FX_MODES_AUTO, error);
}

static FxModes *
compute_iterative (FxSystem *sys, guint max_vibrations, GError **error)
{
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (RawMode));
  g_array_set_clear_func (raw, raw_mode_clear);
  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  gboolean ok = iterative_vibrations (sys, max_vibrations ? max_vibrations : 20, raw, error);
  gsl_set_error_handler (old);
  if (!ok)
    return NULL;
  FxModes *res = g_new0 (FxModes, 1);
  res->n_unknowns = sys->n;
  res->counted = FALSE;
  results_from_raw (sys, res, raw);
  return res;
}

FxModes *
fx_modes_compute_with (const FxModel *model, guint max_vibrations, FxModesMethod method,
                       GError **error)
{
  g_autoptr (FxModel) lin = fx_modes_linear_model (model);
  g_autoptr (FxSystem) sys = fx_system_new (lin, error);
  Linear L = { 0 };

  if (sys == NULL)
    return NULL;
  /* a link model with its own blocks (floating frame): fx-modes-frame.c */
  if (fx_modes_frame_applies (sys))
    return fx_modes_frame_compute (sys, max_vibrations, error);
  guint n = fx_system_n_unknowns (sys);
  FxModes *iter = NULL;
  if (method == FX_MODES_ITERATIVE || (method == FX_MODES_AUTO && n > FX_MODES_MAX_UNKNOWNS))
    {
      iter = compute_iterative (sys, max_vibrations, error);
      if (iter && !results_finite (iter))
        {
          g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                               _("the eigensolver failed on this model (a non-finite result)"));
          g_clear_pointer (&iter, fx_modes_free);
        }
      return iter;
    }
  if (n > FX_MODES_MAX_UNKNOWNS)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("this model has %u unknowns; modes use a dense eigensolver limited to %u "
                     "(use fewer elements per link)"), n, FX_MODES_MAX_UNKNOWNS);
      return NULL;
    }
  /* GSL's default handler aborts the program; here a failed decomposition
   * shows up as a non-finite result, which is reported instead */
  gsl_error_handler_t *old = gsl_set_error_handler_off ();

  FxModes *res = g_new0 (FxModes, 1);
  res->n_unknowns = n;
  res->counted = TRUE;
  L.sys = sys;
  linearise (&L);
  if (!split_and_scale (&L, error))
    {
      linear_clear (&L);
      gsl_set_error_handler (old);
      fx_modes_free (res);
      return NULL;
    }
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (RawMode));
  g_array_set_clear_func (raw, raw_mode_clear);
  find_kernels (&L, res, raw);
  find_vibrations (&L, res->mobility - res->n_massless_motions, max_vibrations, res, raw);
  linear_clear (&L);
  gsl_set_error_handler (old);

  results_from_raw (sys, res, raw);
  if (!results_finite (res))
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the eigensolver failed on this model (a non-finite result)"));
      fx_modes_free (res);
      return NULL;
    }
  return res;
}

void
fx_modes_free (FxModes *modes)
{
  if (modes == NULL)
    return;
  for (guint i = 0; i < modes->n_modes; i++)
    {
      g_free (modes->modes[i].shape);
      g_free (modes->modes[i].state);
    }
  g_free (modes->modes);
  g_free (modes->link_nodes);
  g_free (modes->link_first);
  g_free (modes->node_xy);
  g_free (modes);
}

guint
fx_modes_count (const FxModes *modes, FxModeKind kind)
{
  guint n = 0;
  for (guint i = 0; i < modes->n_modes; i++)
    n += modes->modes[i].kind == kind;
  return n;
}

const char *
fx_mode_kind_to_string (FxModeKind kind)
{
  switch (kind)
    {
    case FX_MODE_MOTION: return "motion";
    case FX_MODE_SELF_STRESS: return "self-stress";
    case FX_MODE_VIBRATION: default: return "vibration";
    }
}

char *
fx_modes_summary (const FxModes *modes)
{
  if (!modes->counted)
    return g_strdup_printf (_("lowest vibrations only (%u unknowns)"), modes->n_unknowns);
  if (modes->indeterminacy == 0)
    return g_strdup_printf (_("mobility %u · statically determinate"), modes->mobility);
  return g_strdup_printf (_("mobility %u · indeterminate to degree %u"),
                          modes->mobility, modes->indeterminacy);
}

char *
fx_mode_label (const FxModes *modes, const FxMode *mode)
{
  (void) modes;
  switch (mode->kind)
    {
    case FX_MODE_MOTION:
      return g_strdup_printf (_("mechanism mode %u"), mode->index);
    case FX_MODE_SELF_STRESS:
      return g_strdup_printf (_("self-stress state %u"), mode->index);
    case FX_MODE_VIBRATION:
    default:
      if (mode->frequency >= 100.0)
        return g_strdup_printf (_("mode %u · %.0f Hz"), mode->index, mode->frequency);
      return g_strdup_printf (_("mode %u · %.3g Hz"), mode->index, mode->frequency);
    }
}

/* CSV numbers: %.10g, always finite (a mode's values are finite by
 * construction; a non-finite one is an error, never written). */
static gboolean
finite_or_error (double v, GError **error)
{
  if (isfinite (v))
    return TRUE;
  g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                       _("a mode has a non-finite value; nothing written"));
  return FALSE;
}

static gboolean
write_atomically (const char *path, GString *text, GError **error)
{
  /* g_file_set_contents writes a temporary file beside the target and renames it */
  return g_file_set_contents (path, text->str, (gssize) text->len, error);
}

gboolean
fx_modes_write_csv (const FxModes *modes, const FxModel *model, const char *path, GError **error)
{
  g_autoptr (GString) s = g_string_new ("mode,frequency_hz,kind\n");
  (void) model;
  for (guint i = 0; i < modes->n_modes; i++)
    {
      const FxMode *m = &modes->modes[i];
      if (!finite_or_error (m->frequency, error))
        return FALSE;
      g_string_append_printf (s, "%u,%.10g,%s\n", m->index, m->frequency,
                              fx_mode_kind_to_string (m->kind));
    }
  return write_atomically (path, s, error);
}

gboolean
fx_modes_write_shapes (const FxModes *modes, const FxModel *model, const char *path, GError **error)
{
  g_autoptr (GString) s = g_string_new ("mode,kind,link,node,x,y,dx,dy,moment,axial\n");
  for (guint i = 0; i < modes->n_modes; i++)
    {
      const FxMode *m = &modes->modes[i];
      for (guint l = 0; l < modes->n_links; l++)
        for (guint k = 0; k < modes->link_nodes[l]; k++)
          {
            guint node = modes->link_first[l] + k;
            const double *sh = &m->shape[FX_MODE_SHAPE_STRIDE * node];
            const double *p = &modes->node_xy[2 * node];
            for (guint c = 0; c < FX_MODE_SHAPE_STRIDE; c++)
              if (!finite_or_error (sh[c], error))
                return FALSE;
            g_string_append_printf (s, "%u,%s,", m->index, fx_mode_kind_to_string (m->kind));
            /* the link id is user text: RFC 4180 quoting keeps the columns */
            fx_csv_append_field (s, fx_model_link (model, l)->id);
            g_string_append_printf (s, ",%u,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", k, p[0],
                                    p[1], sh[FX_MODE_DX], sh[FX_MODE_DY], sh[FX_MODE_M],
                                    sh[FX_MODE_N]);
          }
    }
  return write_atomically (path, s, error);
}

/* ------------------------------------------------------------ drawing */

FxStepFrame *
fx_modes_frame (const FxModes *modes, const FxModel *model, guint index, double phase,
                double amplitude)
{
  FxStepFrame *f = fx_step_frame_new_from_model (model);
  g_return_val_if_fail (index < modes->n_modes, f);
  const FxMode *m = &modes->modes[index];
  const double a = m->kind == FX_MODE_SELF_STRESS ? 0.0 : amplitude * sin (2.0 * G_PI * phase);
  double big = 0.0;

  for (guint l = 0; l < MIN (f->n_links, modes->n_links); l++)
    {
      guint k0 = f->node_offset[l], nk = f->node_offset[l + 1] - k0;
      if (nk != modes->link_nodes[l])
        continue;  /* the model changed since the modes were computed */
      for (guint i = 0; i < nk; i++)
        {
          const double *sh = &m->shape[FX_MODE_SHAPE_STRIDE * (modes->link_first[l] + i)];
          f->x[k0 + i] += a * sh[FX_MODE_DX];
          f->y[k0 + i] += a * sh[FX_MODE_DY];
          /* a vibration bends in phase with its displacement */
          f->moment[k0 + i] = m->kind == FX_MODE_SELF_STRESS ? sh[FX_MODE_M]
                            : m->kind == FX_MODE_VIBRATION ? sh[FX_MODE_M] * sin (2.0 * G_PI * phase)
                            : 0.0;
          big = MAX (big, fabs (f->moment[k0 + i]));
        }
    }
  /* joints follow the link ends that meet there */
  for (guint l = 0; l < MIN (f->n_links, model->links->len); l++)
    {
      const FxLink *ln = fx_model_link (model, l);
      int ends[2] = { fx_model_find_joint (model, ln->from), fx_model_find_joint (model, ln->to) };
      guint nodes[2] = { f->node_offset[l], f->node_offset[l + 1] - 1 };
      for (guint e = 0; e < 2; e++)
        if (ends[e] >= 0 && (guint) ends[e] < f->n_joints && f->node_offset[l + 1] > f->node_offset[l])
          {
            f->joint_xy[2 * ends[e]] = f->x[nodes[e]];
            f->joint_xy[2 * ends[e] + 1] = f->y[nodes[e]];
          }
    }
  f->moment_max_abs = big;
  return f;
}

GPtrArray *
fx_modes_cycle (const FxModes *modes, const FxModel *model, guint index, guint n_frames,
                double amplitude)
{
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  for (guint i = 0; i < n_frames; i++)
    {
      FxStepFrame *f = fx_modes_frame (modes, model, index, (double) i / n_frames, amplitude);
      f->step = i;
      g_ptr_array_add (frames, f);
    }
  return frames;
}

int
fx_modes_find (const FxModes *modes, const char *name, GError **error)
{
  FxModeKind kind = FX_MODE_VIBRATION;
  const char *number = name;
  if (g_str_has_prefix (name, "motion:"))
    kind = FX_MODE_MOTION, number = name + strlen ("motion:");
  else if (g_str_has_prefix (name, "self-stress:"))
    kind = FX_MODE_SELF_STRESS, number = name + strlen ("self-stress:");
  guint64 k = 0;
  if (g_ascii_string_to_unsigned (number, 10, 1, G_MAXUINT, &k, NULL))
    for (guint i = 0; i < modes->n_modes; i++)
      if (modes->modes[i].kind == kind && modes->modes[i].index == k)
        return (int) i;
  g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
               _("no mode \"%s\": this model has %u motions, %u self-stress states and %u "
                 "vibration modes listed (name one as 2, motion:1 or self-stress:1)"),
               name, fx_modes_count (modes, FX_MODE_MOTION), fx_modes_count (modes, FX_MODE_SELF_STRESS),
               fx_modes_count (modes, FX_MODE_VIBRATION));
  return -1;
}
