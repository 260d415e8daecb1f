/* test-band.c: the banded LU against a dense solve, with pivoting needed. */
#include "fx-band.h"

#include <gsl/gsl_linalg.h>
#include <math.h>

static void
check_solve (guint n, guint kl, guint ku, gboolean zero_diagonal, guint32 seed)
{
  g_autoptr (GRand) rng = g_rand_new_with_seed (seed);
  FxBand *band = fx_band_new (n, kl, ku);
  gsl_matrix *dense = gsl_matrix_calloc (n, n);
  g_autofree double *b = g_new (double, n), *x = g_new (double, n);

  for (guint i = 0; i < n; i++)
    for (guint j = (i > kl ? i - kl : 0); j <= MIN (n - 1, i + ku); j++)
      {
        double v = (i == j && zero_diagonal) ? 0.0 : g_rand_double_range (rng, -1, 1);
        fx_band_add (band, i, j, v);
        gsl_matrix_set (dense, i, j, v);
      }
  for (guint i = 0; i < n; i++)
    b[i] = x[i] = g_rand_double_range (rng, -1, 1);

  gsl_vector_view bv = gsl_vector_view_array (b, n);
  gsl_vector *ref = gsl_vector_alloc (n);
  gsl_permutation *p = gsl_permutation_alloc (n);
  int sign;
  gsl_linalg_LU_decomp (dense, p, &sign);
  gsl_linalg_LU_solve (dense, p, &bv.vector, ref);

  g_assert_true (fx_band_factorize (band));
  fx_band_solve (band, x);
  double err = 0, scale = 0;
  for (guint i = 0; i < n; i++)
    {
      err = MAX (err, fabs (x[i] - gsl_vector_get (ref, i)));
      scale = MAX (scale, fabs (gsl_vector_get (ref, i)));
    }
  g_assert_cmpfloat (err, <=, 1e-9 * scale);

  gsl_vector_free (ref);
  gsl_permutation_free (p);
  gsl_matrix_free (dense);
  fx_band_free (band);
}

static void
test_random (void)
{
  check_solve (50, 3, 5, FALSE, 1);
  check_solve (200, 8, 8, FALSE, 2);
  check_solve (7, 10, 10, FALSE, 3);  /* band wider than the matrix */
}

static void
test_pivoting (void)
{
  /* zero diagonal: a saddle-point-like matrix only solvable with row swaps */
  check_solve (120, 8, 8, TRUE, 4);
}

static void
test_singular (void)
{
  FxBand *band = fx_band_new (3, 1, 1);
  fx_band_add (band, 0, 0, 1);
  fx_band_add (band, 1, 1, 1);
  g_assert_false (fx_band_factorize (band));  /* row 2 is empty */
  fx_band_free (band);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/band/random", test_random);
  g_test_add_func ("/band/pivoting", test_pivoting);
  g_test_add_func ("/band/singular", test_singular);
  return g_test_run ();
}
