/* fx-band.h: banded matrices and their LU factorisation with partial pivoting.
 *
 * The Newton matrix of a mechanism is banded when the unknowns are numbered
 * along the links (see fx-system.c), so the solve costs O(n lb (lb + ub)).
 * Storage is LAPACK's general band layout (column-major, kl extra rows for the
 * fill-in that row interchanges create), so the algorithm reads like dgbtf2.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint n;       /* order                                        */
  guint kl, ku;  /* sub- and super-diagonals of the matrix        */
  guint ldab;    /* 2 kl + ku + 1: rows of the band array         */
  double *ab;    /* ldab * n, column j at ab + j * ldab            */
  guint *piv;    /* row interchanges of the factorisation (n)      */
} FxBand;

FxBand  *fx_band_new        (guint n, guint kl, guint ku);
void     fx_band_free       (FxBand *band);
void     fx_band_zero       (FxBand *band);

/* A(i, j) += value; (i, j) must lie inside the band (checked in debug builds). */
static inline void
fx_band_add (FxBand *band, guint i, guint j, double value)
{
  g_assert (i <= j + band->kl && j <= i + band->ku);
  band->ab[(gsize) j * band->ldab + band->kl + band->ku + i - j] += value;
}

double   fx_band_get        (const FxBand *band, guint i, guint j);

/* Factorise in place. Returns FALSE (and leaves the band unusable) when a
 * pivot is exactly zero: the matrix is singular. */
gboolean fx_band_factorize  (FxBand *band);

/* Solve A x = b with the factors, overwriting b by x. */
void     fx_band_solve      (const FxBand *band, double *b);

/* y = A x for an unfactorised band (used by tests). */
void     fx_band_mul        (const FxBand *band, const double *x, double *y);

G_END_DECLS
