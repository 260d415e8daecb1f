/* test-matrix.c: the Newton matrix's three solvers agree, find singular
 * matrices, and notice an entry outside the recorded pattern. */
#include "fx-matrix.h"
#include "fx-memory.h"
#include "test-models.h"

#include <math.h>
#include <sys/resource.h>

/* A random matrix with a chain (band) part and long-range couplings, made
 * diagonally dominant so that it is safely regular. */
static void
fill (FxMatrix *m, guint n, guint seed, gboolean wide)
{
  GRand *r = g_rand_new_with_seed (seed);
  fx_matrix_zero (m);
  for (guint i = 0; i < n; i++)
    {
      fx_matrix_add (m, i, i, 10.0 + g_rand_double (r));
      for (guint d = 1; d <= 3; d++)
        if (i + d < n)
          {
            fx_matrix_add (m, i, i + d, g_rand_double_range (r, -1, 1));
            fx_matrix_add (m, i + d, i, g_rand_double_range (r, -1, 1));
          }
      if (wide && i % 7 == 0)
        {
          guint j = (i * 37 + 11) % n;
          fx_matrix_add (m, i, j, g_rand_double_range (r, -1, 1));
          fx_matrix_add (m, j, i, g_rand_double_range (r, -1, 1));
        }
    }
  g_rand_free (r);
}

static void
solve_with (FxMatrixKind kind, guint n, gboolean wide, double *x)
{
  g_autoptr (FxMatrix) m = fx_matrix_new (n, kind);
  fill (m, n, 7, wide);                   /* records the pattern */
  g_assert_true (fx_matrix_analyze (m, NULL));
  if (kind != FX_MATRIX_AUTO && kind != FX_MATRIX_DENSE)
    g_assert_cmpint (fx_matrix_kind (m), ==, kind);
  for (guint round = 0; round < 2; round++)  /* the second one refactorises */
    {
      fill (m, n, 7, wide);
      g_assert_cmpint (fx_matrix_factorize (m), ==, FX_MATRIX_OK);
      for (guint i = 0; i < n; i++)
        x[i] = sin (i + 1.0);
      fx_matrix_solve (m, x);
    }
}

static void
test_paths_agree (void)
{
  const guint n = 300;
  for (int wide = 0; wide < 2; wide++)
    {
      g_autofree double *xd = g_new (double, n), *xb = g_new (double, n), *xs = g_new (double, n);
      solve_with (FX_MATRIX_DENSE, n, wide, xd);
      solve_with (FX_MATRIX_BANDED, n, wide, xb);
      solve_with (FX_MATRIX_SPARSE, n, wide, xs);
      /* the dense solution satisfies the system: check it directly */
      g_autoptr (FxMatrix) m = fx_matrix_new (n, FX_MATRIX_DENSE);
      g_assert_true (fx_matrix_analyze (m, NULL));
      fill (m, n, 7, wide);
      for (guint i = 0; i < n; i++)
        {
          double r = -sin (i + 1.0);
          for (guint j = 0; j < n; j++)
            r += fx_matrix_get (m, i, j) * xd[j];
          g_assert_cmpfloat (fabs (r), <, 1e-12);
          g_assert_cmpfloat (fabs (xb[i] - xd[i]), <, 1e-13);
          g_assert_cmpfloat (fabs (xs[i] - xd[i]), <, 1e-13);
        }
    }
}

/* A band of 4 + 4 whose diagonal is tiny (1e-8) against its neighbours. */
static void
fill_weak_diagonal (FxMatrix *m, guint n)
{
  GRand *r = g_rand_new_with_seed (11);
  fx_matrix_zero (m);
  for (guint i = 0; i < n; i++)
    {
      fx_matrix_add (m, i, i, 1e-8 * g_rand_double_range (r, -1, 1));
      for (guint d = 1; d <= 4; d++)
        if (i + d < n)
          {
            fx_matrix_add (m, i, i + d, g_rand_double_range (r, -1, 1));
            fx_matrix_add (m, i + d, i, g_rand_double_range (r, -1, 1));
          }
    }
  g_rand_free (r);
}

/* The banded LU must exchange rows (partial pivoting, fill-in above the
 * band) to solve a weak-diagonal band to round-off; without the exchanges
 * the residual is 1e-8 of the terms. */
static void
test_band_pivoting (void)
{
  const guint n = 200;
  g_autoptr (FxMatrix) m = fx_matrix_new (n, FX_MATRIX_BANDED);
  g_autoptr (FxMatrix) a = fx_matrix_new (n, FX_MATRIX_DENSE);
  g_autofree double *x = g_new (double, n);

  fill_weak_diagonal (m, n);  /* records the pattern */
  g_assert_true (fx_matrix_analyze (m, NULL));
  fill_weak_diagonal (m, n);
  g_assert_cmpint (fx_matrix_kind (m), ==, FX_MATRIX_BANDED);
  g_assert_cmpint (fx_matrix_factorize (m), ==, FX_MATRIX_OK);
  for (guint i = 0; i < n; i++)
    x[i] = cos (i + 0.5);
  fx_matrix_solve (m, x);
  /* the factorisation overwrote the band: the matrix again, dense */
  g_assert_true (fx_matrix_analyze (a, NULL));
  fill_weak_diagonal (a, n);
  double worst = 0.0;
  for (guint i = 0; i < n; i++)
    {
      double res = -cos (i + 0.5), size = 1.0;
      for (guint j = 0; j < n; j++)
        {
          res += fx_matrix_get (a, i, j) * x[j];
          size += fabs (fx_matrix_get (a, i, j) * x[j]);
        }
      worst = MAX (worst, fabs (res) / size);
    }
  g_test_message ("banded LU with pivoting: residual %.3g of the terms", worst);
  g_assert_cmpfloat (worst, <, 1e-13);
}

/* Wide couplings make the band span the matrix: AUTO must pick KLU; a chain
 * stays banded. */
static void
test_auto_choice (void)
{
  g_autoptr (FxMatrix) chain = fx_matrix_new (2000, FX_MATRIX_AUTO);
  fill (chain, 2000, 3, FALSE);
  g_assert_true (fx_matrix_analyze (chain, NULL));
  g_assert_cmpint (fx_matrix_kind (chain), ==, FX_MATRIX_BANDED);

  g_autoptr (FxMatrix) wide = fx_matrix_new (2000, FX_MATRIX_AUTO);
  fill (wide, 2000, 3, TRUE);
  g_assert_true (fx_matrix_analyze (wide, NULL));
  g_assert_cmpint (fx_matrix_kind (wide), ==, FX_MATRIX_SPARSE);
}

static void
test_singular (void)
{
  for (FxMatrixKind k = FX_MATRIX_BANDED; k <= FX_MATRIX_DENSE; k++)
    {
      g_autoptr (FxMatrix) m = fx_matrix_new (3, k);
      fx_matrix_add (m, 0, 0, 1);
      fx_matrix_add (m, 1, 1, 1);
      fx_matrix_add (m, 2, 1, 1);
      g_assert_true (fx_matrix_analyze (m, NULL));
      fx_matrix_zero (m);
      fx_matrix_add (m, 0, 0, 1);
      fx_matrix_add (m, 1, 1, 1);  /* row and column 2 are empty */
      g_assert_cmpint (fx_matrix_factorize (m), ==, FX_MATRIX_SINGULAR);
    }
}

static void
test_pattern_grows (void)
{
  for (FxMatrixKind k = FX_MATRIX_BANDED; k <= FX_MATRIX_SPARSE; k++)
    {
      g_autoptr (FxMatrix) m = fx_matrix_new (50, k);
      fill (m, 50, 1, FALSE);
      g_assert_true (fx_matrix_analyze (m, NULL));
      fill (m, 50, 1, FALSE);
      fx_matrix_add (m, 0, 49, 0.5);  /* outside the recorded pattern */
      g_assert_cmpint (fx_matrix_factorize (m), ==, FX_MATRIX_PATTERN_CHANGED);
      g_assert_true (fx_matrix_analyze (m, NULL));
      g_assert_true (fx_matrix_in_pattern (m, 0, 49));
      g_assert_true (fx_matrix_in_pattern (m, 3, 4));  /* the old pattern is kept */
      fill (m, 50, 1, FALSE);
      fx_matrix_add (m, 0, 49, 0.5);
      g_assert_cmpint (fx_matrix_factorize (m), ==, FX_MATRIX_OK);
    }
}

static void
test_memory_limit (void)
{
  GError *error = NULL;
  fx_memory_limit_set (1000);
  g_autoptr (FxMatrix) m = fx_matrix_new (500, FX_MATRIX_AUTO);
  fill (m, 500, 1, TRUE);
  g_assert_false (fx_matrix_analyze (m, &error));
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "limit"));
  g_clear_error (&error);
  fx_memory_limit_set (0);
  g_assert_cmpuint (fx_memory_limit_get (), >, 1000);
}

/* Every byte the matrix takes is booked before it is allocated and given
 * back when it is freed (issue 31, item 4): the pattern's recording is
 * refused on its way, within the limit, and the analysis then says so; a
 * matrix that fits books its pattern and path (KLU's analysis block by
 * block) and the ledger is back where it was after fx_matrix_free. */
static void
test_memory_ledger (void)
{
  const guint n = 20000;
  guint64 before = fx_memory_reserved ();

  for (FxMatrixKind k = FX_MATRIX_AUTO; k <= FX_MATRIX_SPARSE; k++)
    {
      fx_memory_mark_peak ();
      FxMatrix *m = fx_matrix_new (n, k);
      fill (m, n, 1, FALSE);
      g_assert_true (fx_matrix_analyze (m, NULL));
      fill (m, n, 1, FALSE);
      g_assert_cmpint (fx_matrix_factorize (m), ==, FX_MATRIX_OK);
      /* the pattern (7 entries a row) and the path at least */
      g_assert_cmpuint (fx_memory_reserved () - before, >, (guint64) n * 7 * sizeof (int));
      g_assert_cmpuint (fx_memory_peak (), >=, fx_memory_reserved ());
      fx_matrix_free (m);
      g_assert_cmpuint (fx_memory_reserved (), ==, before);
    }

  /* room for a tenth of the recording: refused while it records */
  GError *error = NULL;
  fx_memory_limit_set (before + 100000);
  fx_memory_mark_peak ();
  FxMatrix *m = fx_matrix_new (n, FX_MATRIX_AUTO);
  fill (m, n, 1, TRUE);
  g_assert_cmpuint (fx_memory_peak (), <=, before + 100000);
  g_assert_false (fx_matrix_analyze (m, &error));
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "pattern"));
  g_clear_error (&error);
  fx_matrix_free (m);
  g_assert_cmpuint (fx_memory_reserved (), ==, before);
  fx_memory_limit_set (0);
}

/* The frame-earthquake example with its upper left column at 5000
 * elements: KLU is predicted cheaper than the band (1.5e7 against 2.6e7),
 * but its pivots leave the diagonal once per element and the fill, left to
 * run, reaches 1.5e8 entries (1.8 GB, 18 s). The factorisation must stop at
 * its bound and move to the band, whose solve agrees with a matrix banded
 * from the start. */
static FxMatrix *
frame_jacobian (FxSystem *sys, FxMatrixKind kind, double dt, double *x, double *R)
{
  FxMatrix *J = fx_system_new_jacobian (sys, kind, NULL);
  g_assert_nonnull (J);
  fx_system_residual (sys, x, dt, R, NULL, J);
  return J;
}

static void
test_klu_fill_bound (void)
{
  g_autoptr (FxModel) m = test_load_example ("frame-earthquake.flexion");
  int k = fx_model_find_link (m, "column-left-2");
  g_assert_cmpint (k, >=, 0);
  fx_model_link (m, (guint) k)->elements = 5000;
  g_autoptr (FxSystem) sys = test_system (m);
  guint n = fx_system_n_unknowns (sys);
  g_autofree double *x = g_memdup2 (fx_system_state (sys), sizeof (double) * n);
  g_autofree double *R = g_new (double, n), *b = g_new (double, n), *c = g_new (double, n);

  g_autoptr (FxMatrix) J = frame_jacobian (sys, FX_MATRIX_AUTO, m->dt, x, R);
  double band, sparse;
  fx_matrix_predicted_costs (J, &band, &sparse);
  g_assert_cmpfloat (sparse, <, band);
  g_assert_cmpint (fx_matrix_kind (J), ==, FX_MATRIX_SPARSE);
  g_assert_cmpint (fx_matrix_factorize (J), ==, FX_MATRIX_OK);
  g_assert_cmpint (fx_matrix_kind (J), ==, FX_MATRIX_BANDED);
  struct rusage use;
  getrusage (RUSAGE_SELF, &use);
  g_assert_cmpint (use.ru_maxrss, <, 600 * 1024);  /* KB; unbounded: 1.8 GB */

  g_autoptr (FxMatrix) B = frame_jacobian (sys, FX_MATRIX_BANDED, m->dt, x, R);
  g_assert_cmpint (fx_matrix_factorize (B), ==, FX_MATRIX_OK);
  double scale = 0.0, diff = 0.0;
  for (guint i = 0; i < n; i++)
    b[i] = c[i] = sin (i + 1.0);
  fx_matrix_solve (J, b);
  fx_matrix_solve (B, c);
  for (guint i = 0; i < n; i++)
    {
      scale = MAX (scale, fabs (c[i]));
      diff = MAX (diff, fabs (b[i] - c[i]));
    }
  g_assert_cmpfloat (diff, <=, 1e-12 * scale);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/matrix/paths-agree", test_paths_agree);
  g_test_add_func ("/matrix/auto-choice", test_auto_choice);
  g_test_add_func ("/matrix/band-pivoting", test_band_pivoting);
  g_test_add_func ("/matrix/singular", test_singular);
  g_test_add_func ("/matrix/pattern-grows", test_pattern_grows);
  g_test_add_func ("/matrix/memory-limit", test_memory_limit);
  g_test_add_func ("/matrix/memory-ledger", test_memory_ledger);
  g_test_add_func ("/matrix/klu-fill-bound", test_klu_fill_bound);
  return g_test_run ();
}
