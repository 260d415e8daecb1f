/* fx-trails.c: the recent path of every probe, a ring buffer per probe. */
#include "fx-trails.h"

#include <math.h>
#include <string.h>

struct _FxTrails {
  guint n_probes, capacity;
  guint *start, *count;  /* ring per probe */
  double *xy;            /* n_probes * capacity * 2 */
};

FxTrails *
fx_trails_new (guint n_probes, guint capacity)
{
  FxTrails *t = g_new0 (FxTrails, 1);
  t->n_probes = n_probes;
  t->capacity = MAX (capacity, 2u);
  t->start = g_new0 (guint, MAX (n_probes, 1u));
  t->count = g_new0 (guint, MAX (n_probes, 1u));
  t->xy = g_new0 (double, (gsize) MAX (n_probes, 1u) * t->capacity * 2);
  return t;
}

void
fx_trails_free (FxTrails *t)
{
  if (t == NULL)
    return;
  g_free (t->start);
  g_free (t->count);
  g_free (t->xy);
  g_free (t);
}

void
fx_trails_clear (FxTrails *t)
{
  memset (t->start, 0, sizeof (guint) * MAX (t->n_probes, 1u));
  memset (t->count, 0, sizeof (guint) * MAX (t->n_probes, 1u));
}

void
fx_trails_add (FxTrails *t, const FxStepFrame *frame)
{
  guint n = MIN (t->n_probes, frame->n_probes);
  for (guint p = 0; p < n; p++)
    {
      double x = frame->probe_xy[2 * p], y = frame->probe_xy[2 * p + 1];
      if (!isfinite (x) || !isfinite (y))
        continue;
      guint slot = (t->start[p] + t->count[p]) % t->capacity;
      if (t->count[p] == t->capacity)
        t->start[p] = (t->start[p] + 1) % t->capacity;
      else
        t->count[p]++;
      double *dst = t->xy + ((gsize) p * t->capacity + slot) * 2;
      dst[0] = x;
      dst[1] = y;
    }
}

guint
fx_trails_n_points (const FxTrails *t, guint probe)
{
  return probe < t->n_probes ? t->count[probe] : 0;
}

const double *
fx_trails_point (const FxTrails *t, guint p, guint k)
{
  guint slot = (t->start[p] + k) % t->capacity;
  return t->xy + ((gsize) p * t->capacity + slot) * 2;
}
