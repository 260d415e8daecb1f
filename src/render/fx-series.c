/* fx-series.c */
#include "fx-series.h"

#include <stdio.h>

struct _FxSeries {
  GArray *points;  /* FxSeriesPoint */
  double supplied, dissipated;
};

FxSeries *
fx_series_new (void)
{
  FxSeries *s = g_new0 (FxSeries, 1);
  s->points = g_array_new (FALSE, FALSE, sizeof (FxSeriesPoint));
  return s;
}

void
fx_series_free (FxSeries *s)
{
  if (s == NULL)
    return;
  g_array_unref (s->points);
  g_free (s);
}

FxSeries *
fx_series_copy (const FxSeries *s)
{
  FxSeries *c = fx_series_new ();
  g_array_append_vals (c->points, s->points->data, s->points->len);
  c->supplied = s->supplied;
  c->dissipated = s->dissipated;
  return c;
}

void
fx_series_clear (FxSeries *s)
{
  g_array_set_size (s->points, 0);
  s->supplied = s->dissipated = 0;
}

void
fx_series_add (FxSeries *s, const FxStepFrame *f)
{
  fx_series_add_report (s, &f->report, f->step);
}

void
fx_series_add_report (FxSeries *s, const FxStepReport *r, guint step)
{
  gboolean first = step == 0;
  if (!first)
    {
      s->supplied += r->supplied;
      s->dissipated += r->dissipated;
    }
  FxSeriesPoint p = {
    .t = r->t, .H = r->H, .kinetic = r->kinetic, .elastic = r->elastic,
    .gravity = r->gravity, .supplied = s->supplied, .dissipated = s->dissipated,
    .balance = first ? 0 : r->balance, .newton = first ? 0 : r->newton_iters,
    .residual = first ? 0 : r->residual, .joint_gap = r->joint_gap,
  };
  g_array_append_val (s->points, p);
}

guint
fx_series_len (const FxSeries *s)
{
  return s->points->len;
}

const FxSeriesPoint *
fx_series_get (const FxSeries *s, guint i)
{
  return &g_array_index (s->points, FxSeriesPoint, i);
}

guint
fx_series_find (const FxSeries *s, double t0)
{
  guint lo = 0, hi = s->points->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (fx_series_get (s, mid)->t < t0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
fx_series_write_csv (const FxSeries *s, const char *path, GError **error)
{
  GString *out = g_string_new ("t_s,H_J,kinetic_J,elastic_J,gravity_J,supplied_J,"
                               "dissipated_J,balance_J,newton_iterations,residual,joint_gap_m\n");
  for (guint i = 0; i < s->points->len; i++)
    {
      const FxSeriesPoint *p = fx_series_get (s, i);
      g_string_append_printf (out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%g,%.6g,%.6g\n",
                              p->t, p->H, p->kinetic, p->elastic, p->gravity, p->supplied,
                              p->dissipated, p->balance, p->newton, p->residual, p->joint_gap);
    }
  gboolean ok = g_file_set_contents (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}
