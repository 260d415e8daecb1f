/* fx-band.c: banded LU with partial pivoting (the unblocked dgbtf2 scheme). */
#include "fx-band.h"

#include <math.h>
#include <string.h>

FxBand *
fx_band_new (guint n, guint kl, guint ku)
{
  FxBand *band = g_new0 (FxBand, 1);

  band->n = n;
  band->kl = kl;
  band->ku = ku;
  band->ldab = 2 * kl + ku + 1;
  band->ab = g_new0 (double, (gsize) band->ldab * MAX (n, 1));
  band->piv = g_new0 (guint, MAX (n, 1));
  return band;
}

void
fx_band_free (FxBand *band)
{
  if (band == NULL)
    return;
  g_free (band->ab);
  g_free (band->piv);
  g_free (band);
}

void
fx_band_zero (FxBand *band)
{
  memset (band->ab, 0, sizeof (double) * band->ldab * band->n);
}

double
fx_band_get (const FxBand *band, guint i, guint j)
{
  if (i > j + band->kl || j > i + band->ku)
    return 0.0;
  return band->ab[(gsize) j * band->ldab + band->kl + band->ku + i - j];
}

/* Entry (i, j) of the factorised array: U may reach kl + ku above the diagonal. */
static inline double *
at (FxBand *band, guint i, guint j)
{
  return &band->ab[(gsize) j * band->ldab + band->kl + band->ku + i - j];
}

gboolean
fx_band_factorize (FxBand *band)
{
  const guint n = band->n, kl = band->kl, kv = band->kl + band->ku;
  guint ju = 0;  /* last column touched by the row interchanges so far */

  for (guint j = 0; j < n; j++)
    {
      guint km = MIN (kl, n - 1 - j);
      guint p = 0;
      double best = fabs (*at (band, j, j));

      for (guint i = 1; i <= km; i++)
        {
          double v = fabs (*at (band, j + i, j));
          if (v > best)
            {
              best = v;
              p = i;
            }
        }
      band->piv[j] = j + p;
      if (best == 0.0)
        return FALSE;

      ju = MAX (ju, MIN (j + band->ku + p, n - 1));

      if (p != 0)
        for (guint c = j; c <= ju; c++)
          {
            double *a = at (band, j, c), *b = at (band, j + p, c);
            double t = *a;
            *a = *b;
            *b = t;
          }

      double inv = 1.0 / *at (band, j, j);
      double *l = at (band, j + 1, j);  /* contiguous: rows j+1 .. j+km of column j */
      for (guint i = 0; i < km; i++)
        l[i] *= inv;

      for (guint c = j + 1; c <= ju; c++)
        {
          double x = *at (band, j, c);
          if (x == 0.0)
            continue;
          double *col = at (band, j + 1, c);
          for (guint i = 0; i < km; i++)
            col[i] -= l[i] * x;
        }
    }
  (void) kv;
  return TRUE;
}

void
fx_band_solve (const FxBand *band, double *b)
{
  const guint n = band->n, kl = band->kl, kv = band->kl + band->ku;
  FxBand *f = (FxBand *) band;

  /* L y = P b */
  for (guint j = 0; j + 1 < n; j++)
    {
      guint lm = MIN (kl, n - 1 - j);
      guint p = band->piv[j];
      if (p != j)
        {
          double t = b[p];
          b[p] = b[j];
          b[j] = t;
        }
      const double *l = at (f, j + 1, j);
      for (guint i = 0; i < lm; i++)
        b[j + 1 + i] -= l[i] * b[j];
    }

  /* U x = y, U with kl + ku super-diagonals */
  for (guint jj = n; jj-- > 0;)
    {
      b[jj] /= *at (f, jj, jj);
      guint i0 = jj > kv ? jj - kv : 0;
      const double *u = at (f, i0, jj);
      double x = b[jj];
      for (guint i = i0; i < jj; i++)
        b[i] -= u[i - i0] * x;
    }
}

void
fx_band_mul (const FxBand *band, const double *x, double *y)
{
  for (guint i = 0; i < band->n; i++)
    {
      guint j0 = i > band->kl ? i - band->kl : 0;
      guint j1 = MIN (band->n - 1, i + band->ku);
      double s = 0.0;
      for (guint j = j0; j <= j1; j++)
        s += fx_band_get (band, i, j) * x[j];
      y[i] = s;
    }
}
