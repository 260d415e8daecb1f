/* bench-joints: loading, checking and the causality search of models with
 * many joints (issue 31, item 8: `check` on 6,000 welded squares took 4.9x
 * the time of 2,000; a linear search per joint look-up was 46 % of it).
 *
 * A welded strip of squares, 4 cells wide, with 1,000 to 100,000 joints,
 * one element per link, two pins: per size the time to load its JSON text
 * (fx_model_load_data: parse and check), to build the system (the
 * causality search and the assembly, fx_system_new) and to set up the
 * solver (fx_integrator_new: the matrix's analysis). Then, per phase, the
 * exponent p of time ~ joints^p fitted over the sizes (least squares in
 * log-log), and between the two largest sizes. n log n over 1k..100k
 * shows as p of about 1.1. No target is
 * asserted: speed is measured here, never in the suite.
 *
 *   bench-joints [--max JOINTS]
 */
#include "fx-integrator.h"
#include "fx-model-io.h"
#include "fx-system.h"
#include "structures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 4  /* cells across the strip */

static FxModel *
strip (guint n_joints)
{
  FxModel *m = fx_model_new ();
  guint rows = MAX (n_joints / (WIDTH + 1), 2), count = 0;
  char a[32], b[32];

  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c <= WIDTH; c++)
      {
        g_snprintf (a, sizeof a, "N%u_%u", r, c);
        joint (m, a, c, r);
      }
  fx_model_joint (m, 0)->support = FX_SUPPORT_PIN;
  fx_model_joint (m, WIDTH)->support = FX_SUPPORT_PIN;
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c <= WIDTH; c++)
      {
        g_snprintf (a, sizeof a, "N%u_%u", r, c);
        if (c < WIDTH)
          {
            g_snprintf (b, sizeof b, "N%u_%u", r, c + 1);
            link (m, &count, a, b, 1);
          }
        if (r + 1 < rows)
          {
            g_snprintf (b, sizeof b, "N%u_%u", r + 1, c);
            link (m, &count, a, b, 1);
          }
      }
  m->dt = 5e-4;
  m->t_end = 1e-3;
  return m;
}

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

enum { LOAD, BUILD, SOLVER, N_PHASES };
static const char *const phase_names[N_PHASES] = { "load+check", "causality+build", "matrix analysis" };

/* The least-squares slope of log t against log n. */
static double
exponent (const double *n, const double *t, guint k)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (guint i = 0; i < k; i++)
    {
      double x = log (n[i]), y = log (MAX (t[i], 1e-6));
      sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

int
main (int argc, char **argv)
{
  guint max = 100000;
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp (argv[i], "--max") == 0)
      max = (guint) atoi (argv[i + 1]);
  static const guint sizes[] = { 1000, 3000, 10000, 30000, 100000 };
  double n[G_N_ELEMENTS (sizes)], t[N_PHASES][G_N_ELEMENTS (sizes)];
  guint k = 0;

  printf ("%8s %8s %12s %16s %16s\n", "joints", "links", "load+check s", "causality+build s",
          "matrix analysis s");
  for (guint s = 0; s < G_N_ELEMENTS (sizes) && sizes[s] <= max; s++)
    {
      g_autoptr (FxModel) built = strip (sizes[s]);
      gsize length = 0;
      g_autofree char *text = fx_model_to_data (built, &length);
      g_autoptr (GError) error = NULL;

      gint64 start = g_get_monotonic_time ();
      g_autoptr (FxModel) m = fx_model_load_data (text, (gssize) length, NULL, &error);
      t[LOAD][k] = seconds_since (start);
      if (m == NULL)
        {
          fprintf (stderr, "the strip of %u joints does not load: %s\n", sizes[s], error->message);
          return 1;
        }
      start = g_get_monotonic_time ();
      g_autoptr (FxSystem) sys = fx_system_new (m, &error);
      t[BUILD][k] = seconds_since (start);
      if (sys == NULL)
        {
          fprintf (stderr, "the strip of %u joints does not build: %s\n", sizes[s], error->message);
          return 1;
        }
      start = g_get_monotonic_time ();
      g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, m->tolerance, m->max_iterations);
      t[SOLVER][k] = seconds_since (start);
      n[k] = m->joints->len;
      printf ("%8u %8u %12.3f %16.3f %16.3f\n", m->joints->len, m->links->len, t[LOAD][k],
              t[BUILD][k], t[SOLVER][k]);
      fflush (stdout);
      k++;
    }
  /* the fit over all sizes, and the slope between the two largest: a
   * budget that shrinks with size (the split search's) flattens the fit,
   * the top slope shows how the work grows where it is large */
  if (k >= 2)
    for (guint p = 0; p < N_PHASES; p++)
      printf ("exponent of %s: time ~ joints^%.2f (fit); %.2f between the two largest\n",
              phase_names[p], exponent (n, t[p], k), exponent (n + k - 2, t[p] + k - 2, 2));
  return 0;
}
