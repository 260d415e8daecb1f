/* fx-exact-sum.h: sums of doubles kept exactly (Shewchuk's non-overlapping
 * expansions, as Python's math.fsum), so that a sum does not depend on the
 * order of its terms: an ensemble's statistics are then a pure function of
 * the samples, whatever the parts, threads and merge order (issue 25).
 *
 * A sum's value is its exact value correctly rounded to a double. Terms that
 * are not finite make the value not finite. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint n, cap;
  double *p;       /* non-overlapping partials, increasing magnitude */
  double special;  /* the sum of the non-finite terms (0 if none)    */
} FxExactSum;

void   fx_exact_sum_clear   (FxExactSum *s);
void   fx_exact_sum_add     (FxExactSum *s, double x);
/* Adds x * x exactly (the product split with fma). */
void   fx_exact_sum_add_square (FxExactSum *s, double x);
void   fx_exact_sum_add_sum (FxExactSum *s, const FxExactSum *t);
/* The exact value correctly rounded (round half to even). */
double fx_exact_sum_value   (const FxExactSum *s);
/* n * s2 - s1 * s1, exactly, then correctly rounded: n times the sum of
 * squared deviations from the mean when s1 and s2 are the sums of the
 * values and of their squares. */
double fx_exact_sum_spread  (const FxExactSum *s1, const FxExactSum *s2, double n);

G_END_DECLS
