/* fx-series.c */
#include "fx-series.h"
#include "fx-output.h"
#include "fx-csv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct _FxSeries {
  GArray *points;  /* FxSeriesPoint */
  double supplied, dissipated;
  guint n_probes;
  char **probe_ids;  /* n_probes */
  GArray *probe_xy;  /* double, 2 n_probes per point */
  GArray *probe_values;  /* double, FX_PROBE_N_VALUES n_probes per point */
  guint n_supports;
  char **support_ids;    /* n_supports */
  guint *support_joint;  /* model joint of each support */
  guint8 *support_holds; /* FxHolds */
  GArray *reactions;     /* double, FX_REACTION_N_VALUES n_supports per point */
};

FxSeries *
fx_series_new (void)
{
  FxSeries *s = g_new0 (FxSeries, 1);
  s->points = g_array_new (FALSE, FALSE, sizeof (FxSeriesPoint));
  s->probe_xy = g_array_new (FALSE, FALSE, sizeof (double));
  s->probe_values = g_array_new (FALSE, FALSE, sizeof (double));
  s->reactions = g_array_new (FALSE, FALSE, sizeof (double));
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
  g_array_unref (s->probe_values);
  g_array_unref (s->reactions);
  g_strfreev (s->support_ids);
  g_free (s->support_joint);
  g_free (s->support_holds);
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
  g_array_append_vals (c->probe_values, s->probe_values->data, s->probe_values->len);
  c->n_supports = s->n_supports;
  c->support_ids = g_strdupv (s->support_ids);
  c->support_joint = g_memdup2 (s->support_joint, sizeof (guint) * MAX (s->n_supports, 1));
  c->support_holds = g_memdup2 (s->support_holds, MAX (s->n_supports, 1));
  g_array_append_vals (c->reactions, s->reactions->data, s->reactions->len);
  c->supplied = s->supplied;
  c->dissipated = s->dissipated;
  return c;
}

void
fx_series_clear (FxSeries *s)
{
  g_array_set_size (s->points, 0);
  g_array_set_size (s->probe_xy, 0);
  g_array_set_size (s->probe_values, 0);
  g_array_set_size (s->reactions, 0);
  s->supplied = s->dissipated = 0;
}

/* A point's probe values and reactions: from the frame, else unknown. */
static void
add_measurements (FxSeries *s, const FxStepFrame *f)
{
  gboolean probes = f && f->n_probes == s->n_probes;

  for (guint k = 0; k < FX_PROBE_N_VALUES * s->n_probes; k++)
    {
      double v = probes ? f->probe_values[k] : NAN;
      g_array_append_val (s->probe_values, v);
    }
  for (guint k = 0; k < s->n_supports; k++)
    for (guint c = 0; c < FX_REACTION_N_VALUES; c++)
      {
        guint j = s->support_joint[k];
        double v = f && j < f->n_joints ? f->reaction[FX_REACTION_N_VALUES * j + c] : NAN;
        g_array_append_val (s->reactions, v);
      }
}

static void add_point (FxSeries *s, const FxStepReport *r, guint step, const double *probe_xy,
                       const FxStepFrame *f);

void
fx_series_add (FxSeries *s, const FxStepFrame *f)
{
  add_point (s, &f->report, f->step, f->n_probes == s->n_probes ? f->probe_xy : NULL, f);
}

/* Unknown values for the points so far, for a record (re)named mid-run. */
static void
fill_unknown (GArray *values, gsize n)
{
  g_array_set_size (values, n);
  for (gsize i = 0; i < n; i++)
    g_array_index (values, double, i) = NAN;
}

void
fx_series_set_supports (FxSeries *s, const FxModel *model)
{
  GPtrArray *ids = g_ptr_array_new ();

  g_free (s->support_joint);
  g_free (s->support_holds);
  s->support_joint = g_new0 (guint, MAX (model->joints->len, 1));
  s->support_holds = g_new0 (guint8, MAX (model->joints->len, 1));
  s->n_supports = 0;
  for (guint j = 0; j < model->joints->len; j++)
    {
      FxHolds holds = fx_model_joint_holds (model, j);
      if (holds == FX_HOLDS_NONE)
        continue;
      s->support_joint[s->n_supports] = j;
      s->support_holds[s->n_supports++] = (guint8) holds;
      g_ptr_array_add (ids, g_strdup (fx_model_joint (model, j)->id));
    }
  g_ptr_array_add (ids, NULL);
  g_strfreev (s->support_ids);
  s->support_ids = (char **) g_ptr_array_free (ids, FALSE);
  fill_unknown (s->reactions, (gsize) FX_REACTION_N_VALUES * s->n_supports * s->points->len);
}

guint fx_series_n_supports (const FxSeries *s) { return s->n_supports; }
const char *fx_series_support_id (const FxSeries *s, guint k) { return k < s->n_supports ? s->support_ids[k] : NULL; }
guint fx_series_support_joint (const FxSeries *s, guint k) { return s->support_joint[k]; }
FxHolds fx_series_support_holds (const FxSeries *s, guint k) { return (FxHolds) s->support_holds[k]; }

int
fx_series_find_support (const FxSeries *s, guint joint)
{
  for (guint k = 0; k < s->n_supports; k++)
    if (s->support_joint[k] == joint)
      return (int) k;
  return -1;
}

double
fx_series_reaction (const FxSeries *s, guint i, guint k, FxReactionValue v)
{
  return g_array_index (s->reactions, double, ((gsize) i * s->n_supports + k) * FX_REACTION_N_VALUES + v);
}

double
fx_series_probe_value (const FxSeries *s, guint i, guint p, FxProbeValue v)
{
  return g_array_index (s->probe_values, double, ((gsize) i * s->n_probes + p) * FX_PROBE_N_VALUES + v);
}

void
fx_series_set_probes (FxSeries *s, guint n, const char *const *ids)
{
  g_strfreev (s->probe_ids);
  s->n_probes = n;
  s->probe_ids = g_new0 (char *, n + 1);
  for (guint p = 0; p < n; p++)
    s->probe_ids[p] = g_strdup (ids && ids[p] ? ids[p] : "probe");
  fill_unknown (s->probe_xy, (gsize) 2 * n * s->points->len);
  fill_unknown (s->probe_values, (gsize) FX_PROBE_N_VALUES * n * s->points->len);
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
fx_series_add_report (FxSeries *s, const FxStepReport *r, guint step, const double *probe_values)
{
  g_autofree double *xy = probe_values ? g_new (double, 2 * MAX (s->n_probes, 1)) : NULL;
  for (guint p = 0; probe_values && p < s->n_probes; p++)
    {
      xy[2 * p] = probe_values[FX_PROBE_N_VALUES * p + FX_PROBE_X];
      xy[2 * p + 1] = probe_values[FX_PROBE_N_VALUES * p + FX_PROBE_Y];
    }
  add_point (s, r, step, xy, NULL);
  if (probe_values)
    memcpy (&g_array_index (s->probe_values, double,
                            (gsize) (s->points->len - 1) * s->n_probes * FX_PROBE_N_VALUES),
            probe_values, sizeof (double) * FX_PROBE_N_VALUES * s->n_probes);
}

/* A point from a step's report; its measurements from frame f (NULL:
 * unknown, but for the probes' positions in probe_xy). */
static void
add_point (FxSeries *s, const FxStepReport *r, guint step, const double *probe_xy,
           const FxStepFrame *f)
{
  for (guint p = 0; p < 2 * s->n_probes; p++)
    {
      double v = probe_xy ? probe_xy[p] : NAN;
      g_array_append_val (s->probe_xy, v);
    }
  add_measurements (s, f);
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
    .factorisations = first ? 0 : r->factorisations,
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
                               "newton_iters,factorisations,residual,joint_gap,substeps\n");
  for (guint i = 0; i < s->points->len; i++)
    {
      const FxSeriesPoint *p = fx_series_get (s, i);
      g_string_append_printf (out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%g,%g,%.6g,%.6g,%g\n",
                              p->t, p->H, p->kinetic, p->elastic, p->gravity, p->supplied,
                              p->dissipated, p->balance, p->newton, p->factorisations,
                              p->residual, p->joint_gap, p->substeps);
    }
  gboolean ok = fx_output_set_contents (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}

gboolean
fx_series_write_probes_csv (const FxSeries *s, const char *path, GError **error)
{
  GString *out = g_string_new ("t");  /* the columns of `flexion-cli run --probes` */
  for (guint p = 0; p < s->n_probes; p++)
    for (guint v = 0; v < FX_PROBE_N_VALUES; v++)
      {
        /* ids are user text: RFC 4180 quoting keeps the columns */
        g_string_append_c (out, ',');
        fx_csv_append_field2 (out, s->probe_ids[p], fx_probe_suffix[v]);
      }
  g_string_append_c (out, '\n');
  for (guint i = 0; i < s->points->len; i++)
    {
      g_string_append_printf (out, "%.17g", fx_series_get (s, i)->t);
      for (guint p = 0; p < s->n_probes; p++)
        {
          double xy[2];
          fx_series_probe_xy (s, i, p, xy);
          fx_csv_append_number (out, xy[0]);
          fx_csv_append_number (out, xy[1]);
          for (guint v = FX_PROBE_VX; v < FX_PROBE_N_VALUES; v++)
            fx_csv_append_number (out, fx_series_probe_value (s, i, p, (FxProbeValue) v));
        }
      g_string_append_c (out, '\n');
    }
  gboolean ok = fx_output_set_contents (path, out->str, out->len, error);
  g_string_free (out, TRUE);
  return ok;
}
