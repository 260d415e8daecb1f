/* fx-exact-sum.c: exact sums of doubles (see fx-exact-sum.h). The additions
 * are Shewchuk's "grow expansion" with Knuth's two-sum, the rounding at the
 * end Python's math.fsum (with its half-way correction). */
#include "fx-exact-sum.h"

#include <math.h>

void
fx_exact_sum_clear (FxExactSum *s)
{
  g_free (s->p);
  *s = (FxExactSum) { 0 };
}

void
fx_exact_sum_add (FxExactSum *s, double x)
{
  guint i = 0;

  if (!isfinite (x))
    {
      s->special += x;
      return;
    }
  for (guint j = 0; j < s->n; j++)
    {
      double y = s->p[j];
      if (fabs (x) < fabs (y))
        {
          double t = x;
          x = y;
          y = t;
        }
      double hi = x + y, lo = y - (hi - x);
      if (lo != 0.0)
        s->p[i++] = lo;
      x = hi;
    }
  if (i + 1 > s->cap)
    {
      s->cap = MAX (4u, 2 * s->cap);
      s->p = g_renew (double, s->p, s->cap);
    }
  s->p[i++] = x;
  s->n = i;
}

void
fx_exact_sum_add_square (FxExactSum *s, double x)
{
  double hi = x * x;

  fx_exact_sum_add (s, hi);
  if (isfinite (hi))
    fx_exact_sum_add (s, fma (x, x, -hi));
}

void
fx_exact_sum_add_sum (FxExactSum *s, const FxExactSum *t)
{
  for (guint j = 0; j < t->n; j++)
    fx_exact_sum_add (s, t->p[j]);
  if (t->special != 0.0 || isnan (t->special))
    s->special += t->special;
}

double
fx_exact_sum_value (const FxExactSum *s)
{
  if (s->special != 0.0 || isnan (s->special))
    return s->special;
  if (s->n == 0)
    return 0.0;
  guint n = s->n;
  double hi = s->p[--n], lo = 0.0;
  while (n > 0)
    {
      double x = hi, y = s->p[--n];
      hi = x + y;
      lo = y - (hi - x);
      if (lo != 0.0)
        break;
    }
  /* the rest would round the other way only at an exact half-way point */
  if (n > 0 && ((lo < 0.0 && s->p[n - 1] < 0.0) || (lo > 0.0 && s->p[n - 1] > 0.0)))
    {
      double y = lo * 2.0, x = hi + y;
      if (y == x - hi)
        hi = x;
    }
  return hi;
}

static void
add_product (FxExactSum *d, double a, double b)
{
  double p = a * b;

  fx_exact_sum_add (d, p);
  if (isfinite (p))
    fx_exact_sum_add (d, fma (a, b, -p));
}

double
fx_exact_sum_spread (const FxExactSum *s1, const FxExactSum *s2, double n)
{
  FxExactSum d = { 0 };

  for (guint j = 0; j < s2->n; j++)
    add_product (&d, n, s2->p[j]);
  for (guint i = 0; i < s1->n; i++)
    for (guint j = 0; j < s1->n; j++)
      add_product (&d, -s1->p[i], s1->p[j]);
  d.special = s2->special * n - s1->special * s1->special;
  double v = fx_exact_sum_value (&d);
  fx_exact_sum_clear (&d);
  return v;
}
