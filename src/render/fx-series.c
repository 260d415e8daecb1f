/* fx-series.c */
#include "fx-series.h"
#include "fx-output.h"
#include "fx-csv.h"

#include <math.h>
#include <stdio.h>

struct _FxSeries {
  GArray *points;  /* FxSeriesPoint */
  double supplied, dissipated;
  guint n_probes;
  char **probe_ids;  /* n_probes */
  GArray *probe_xy;  /* double, 2 n_probes per point */
};

FxSeries *
fx_series_new (void)
{
  FxSeries *s = g_new0 (FxSeries, 1);
  s->points = g_array_new (FALSE, FALSE, sizeof (FxSeriesPoint));
  s->probe_xy = g_array_new (FALSE, FALSE, sizeof (double));
  return s;
}

void
fx_series_free (FxSeries *s)
{
  if (s == NULL)
    return;
  g_array_unref (s->points);
  g_array_unref (s->probe_xy);
  g_strfreev (s->probe_ids);
  g_free (s);
}

FxSeries *
fx_series_copy (const FxSeries *s)
{
  FxSeries *c = fx_series_new ();
  g_array_append_vals (c->points, s->points->data, s->points->len);
  c->n_probes = s->n_probes;
  c->probe_ids = g_strdupv (s->probe_ids);
  g_array_append_vals (c->probe_xy, s->probe_xy->data, s->probe_xy->len);
  c->supplied = s->supplied;
  c->dissipated = s->dissipated;
  return c;
}

void
fx_series_clear (FxSeries *s)
{
  g_array_set_size (s->points, 0);
  g_array_set_size (s->probe_xy, 0);
  s->supplied = s->dissipated = 0;
}

void
fx_series_add (FxSeries *s, const FxStepFrame *f)
{
  fx_series_add_report (s, &f->report, f->step, f->n_probes == s->n_probes ? f->probe_xy : NULL);
}

void
fx_series_set_probes (FxSeries *s, guint n, const char *const *ids)
{
  g_strfreev (s->probe_ids);
  s->n_probes = n;
  s->probe_ids = g_new0 (char *, n + 1);
  for (guint p = 0; p < n; p++)
    s->probe_ids[p] = g_strdup (ids && ids[p] ? ids[p] : "probe");
  g_array_set_size (s->probe_xy, 2 * n * s->points->len);
  for (guint i = 0; i < s->probe_xy->len; i++)
    g_array_index (s->probe_xy, double, i) = NAN;
}

guint
fx_series_n_probes (const FxSeries *s)
{
  return s->n_probes;
}

const char *
fx_series_probe_id (const FxSeries *s, guint p)
{
  return p < s->n_probes ? s->probe_ids[p] : NULL;
}

void
fx_series_probe_xy (const FxSeries *s, guint i, guint p, double xy[2])
{
  gsize k = ((gsize) i * s->n_probes + p) * 2;
  xy[0] = g_array_index (s->probe_xy, double, k);
  xy[1] = g_array_index (s->probe_xy, double, k + 1);
}

void
fx_series_add_report (FxSeries *s, const FxStepReport *r, guint step, const double *probe_xy)
{
  for (guint p = 0; p < 2 * s->n_probes; p++)
    {
      double v = probe_xy ? probe_xy[p] : NAN;
      g_array_append_val (s->probe_xy, v);
    }
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
    .substeps = first ? 1 : MAX (r->substeps, 1u),
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
  /* the header of `flexion-cli run --energy` (README), so one reader takes
   * both; units are SI throughout (s, J, m) */
  GString *out = g_string_new ("t,H,kinetic,elastic,gravity,supplied,dissipated,balance,"
                               "newton_iters,residual,joint_gap,substeps\n");
  for (guint i = 0; i < s->points->len; i++)
    {
      const FxSeriesPoint *p = fx_series_get (s, i);
      g_string_append_printf (out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%g,%.6g,%.6g,%g\n",
                              p->t, p->H, p->kinetic, p->elastic, p->gravity, p->supplied,
                              p->dissipated, p->balance, p->newton, p->residual, p->joint_gap,
                              p->substeps);
    }
  gboolean ok = fx_output_set_contents (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}

gboolean
fx_series_write_probes_csv (const FxSeries *s, const char *path, GError **error)
{
  GString *out = g_string_new ("t");  /* as `flexion-cli run --probes` */
  for (guint p = 0; p < s->n_probes; p++)
    {
      /* ids are user text: RFC 4180 quoting keeps the columns */
      g_string_append_c (out, ',');
      fx_csv_append_field2 (out, s->probe_ids[p], ".x");
      g_string_append_c (out, ',');
      fx_csv_append_field2 (out, s->probe_ids[p], ".y");
    }
  g_string_append_c (out, '\n');
  for (guint i = 0; i < s->points->len; i++)
    {
      g_string_append_printf (out, "%.17g", fx_series_get (s, i)->t);
      for (guint p = 0; p < s->n_probes; p++)
        {
          double xy[2];
          fx_series_probe_xy (s, i, p, xy);
          g_string_append_printf (out, ",%.17g,%.17g", xy[0], xy[1]);
        }
      g_string_append_c (out, '\n');
    }
  gboolean ok = fx_output_set_contents (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}
