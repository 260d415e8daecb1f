/* bench-topology: what a drawn structure costs per step and element.
 *
 * Warren trusses of 5 to 40 panels (numbered panel by panel, and as a
 * teacher draws them: chords first, then diagonals) and welded square
 * lattices of 3x3 to 12x12 cells (steel, welded joints, two pin supports, a short blow on the
 * top), against single free links with the same number of elements. Reports
 * per model: unknowns, the solver path the engine chose, ms per step,
 * microseconds per step and element, the ratio to the single link of equal
 * size, mean Newton iterations and the worst |balance| / E_scale; then per
 * family the exponent p of step time ~ elements^p from the smallest to the
 * largest. Targets (issue 13): ratio <= 3, p <= 1.2.
 *
 *   bench-topology [--steps N] [--path auto|banded|sparse] [--quick]
 */
#include "fx-integrator.h"
#include "structures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static FxMatrixKind path = FX_MATRIX_AUTO;
static guint n_steps = 20;

typedef struct {
  guint elements, unknowns;
  double ms_per_step, iters, balance;
  char path[16];
} Result;

static gboolean
measure (FxModel *m, Result *res)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  if (sys == NULL)
    {
      fprintf (stderr, "model does not build: %s\n", error->message);
      return FALSE;
    }
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  fx_integrator_set_matrix_kind (it, path);
  const char *what = fx_integrator_describe_solver (it);
  g_strlcpy (res->path, g_str_has_prefix (what, "sparse") ? "KLU" : "band", sizeof res->path);
  res->unknowns = fx_system_n_unknowns (sys);
  res->elements = 0;
  for (guint l = 0; l < m->links->len; l++)
    res->elements += fx_model_link (m, l)->elements;

  FxStepReport rep;
  double e_scale = 0, worst = 0, supplied = 0;
  guint64 iters = 0;
  /* the first step builds the matrix and its first factors: not timed */
  if (!fx_integrator_step (it, m->dt, &rep, &error))
    goto failed;
  /* the best of three runs of n_steps: the machine is shared */
  res->ms_per_step = INFINITY;
  for (guint run = 0; run < 3; run++)
    {
      gint64 t0 = g_get_monotonic_time ();
      for (guint k = 0; k < n_steps; k++)
        {
          if (!fx_integrator_step (it, m->dt, &rep, &error))
            goto failed;
          iters += rep.newton_iters;
          supplied += rep.supplied;
          e_scale = MAX (e_scale, MAX (fabs (rep.H), MAX (fabs (supplied), rep.kinetic)));
          worst = MAX (worst, fabs (rep.balance));
        }
      res->ms_per_step = MIN (res->ms_per_step, (g_get_monotonic_time () - t0) / 1e3 / n_steps);
    }
  res->iters = (double) iters / (3 * n_steps);
  res->balance = e_scale > 0 ? worst / e_scale : 0;
  return TRUE;
failed:
  fprintf (stderr, "run failed: %s\n", error->message);
  return FALSE;
}

static void
row (const char *name, const Result *r, const Result *ref)
{
  double us = 1e3 * r->ms_per_step / r->elements, us_ref = 1e3 * ref->ms_per_step / ref->elements;
  printf ("  %-22s %8u %9u %5s %10.3f %10.3f %8.2f %8.2f %12.1e\n", name, r->elements, r->unknowns,
          r->path, r->ms_per_step, us, us / us_ref, r->iters, r->balance);
}

static gboolean
family (const char *title, FxModel *(*make) (guint, guint), const guint *sizes, guint n_sizes,
        guint elements)
{
  Result first = { 0 }, last = { 0 };
  printf ("\n%s, %u elements per link\n", title, elements);
  printf ("  %-22s %8s %9s %5s %10s %10s %8s %8s %12s\n", "model", "elements", "unknowns",
          "path", "ms/step", "us/st/el", "x single", "Newton", "|bal|/E");
  for (guint k = 0; k < n_sizes; k++)
    {
      g_autoptr (FxModel) m = make (sizes[k], elements);
      Result r, ref;
      if (!measure (m, &r))
        return FALSE;
      g_autoptr (FxModel) s = single (r.elements);
      if (!measure (s, &ref))
        return FALSE;
      g_autofree char *name = g_strdup_printf ("%s %u", title, sizes[k]);
      row (name, &r, &ref);
      g_autofree char *sname = g_strdup_printf ("  single link %u", r.elements);
      row (sname, &ref, &ref);
      if (k == 0)
        first = r;
      last = r;
    }
  if (n_sizes > 1)
    printf ("  growth: step time ~ elements^%.2f from %u to %u elements\n",
            log (last.ms_per_step / first.ms_per_step) / log ((double) last.elements / first.elements),
            first.elements, last.elements);
  return TRUE;
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--steps") == 0 && i + 1 < argc)
        n_steps = (guint) atoi (argv[++i]);
      else if (strcmp (argv[i], "--quick") == 0)
        quick = TRUE;
      else if (strcmp (argv[i], "--path") == 0 && i + 1 < argc)
        {
          const char *p = argv[++i];
          path = strcmp (p, "banded") == 0 ? FX_MATRIX_BANDED
                 : strcmp (p, "sparse") == 0 ? FX_MATRIX_SPARSE : FX_MATRIX_AUTO;
        }
    }
  static const guint panels[] = { 5, 10, 20, 40 }, cells[] = { 3, 6, 9, 12 };
  printf ("bench-topology: best of 3 runs of %u steps of 0.5 ms, after one untimed step; "
          "tolerance 1e-12\n", n_steps);
  if (!family ("Warren truss", warren, panels, quick ? 2 : 4, 6))
    return 1;
  if (!family ("Warren truss as drawn", warren_drawn, panels, quick ? 2 : 4, 6))
    return 1;
  if (!family ("welded lattice", lattice, cells, quick ? 2 : 4, 4))
    return 1;
  return 0;
}
