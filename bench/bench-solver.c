/* bench-solver.c: the Newton matrix's choice of path, and what it costs.
 * For every example, and for big frames (a 5000-element link in the
 * frame-earthquake and plate-linkage examples): unknowns, the path
 * predicted cheaper (banded LU against KLU, both predictions), the path
 * in use after the first factorisation (KLU moves to the band when its
 * pivots leave the diagonal and its fill runs past the bound), that first
 * factorisation's CPU time, then ms per step (CPU) over a few steps.
 * Not a test: `build/bench/bench-solver [EXAMPLES-DIR]`. */
#include "fx-integrator.h"
#include "fx-model-io.h"
#include "fx-system.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef FX_EXAMPLES_DIR
#define FX_EXAMPLES_DIR "data/examples"
#endif

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static const char *
path_name (FxMatrixKind kind)
{
  switch (kind)
    {
    case FX_MATRIX_BANDED: return "banded";
    case FX_MATRIX_SPARSE: return "KLU";
    case FX_MATRIX_DENSE:  return "dense";
    case FX_MATRIX_AUTO:
    default:               return "?";
    }
}

/* The matrix at the initial state: predictions, then one timed factorisation. */
static gboolean
first_factorisation (FxSystem *sys, double dt, double *band, double *sparse,
                     FxMatrixKind *chosen, FxMatrixKind *used, double *seconds)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_AUTO, &error);
  if (J == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return FALSE;
    }
  guint n = fx_system_n_unknowns (sys);
  g_autofree double *x = g_memdup2 (fx_system_state (sys), sizeof (double) * MAX (n, 1));
  g_autofree double *R = g_new (double, MAX (n, 1));
  fx_matrix_predicted_costs (J, band, sparse);
  *chosen = fx_matrix_kind (J);
  fx_system_residual (sys, x, dt, R, NULL, J);
  double c0 = cpu_seconds ();
  FxMatrixStatus st = fx_matrix_factorize (J);
  *seconds = cpu_seconds () - c0;
  *used = fx_matrix_kind (J);
  return st == FX_MATRIX_OK;
}

static gboolean
bench (const char *label, FxModel *m, guint steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  if (sys == NULL)
    {
      fprintf (stderr, "%s: %s\n", label, error->message);
      return FALSE;
    }
  double band, sparse, first;
  FxMatrixKind chosen, used;
  if (!first_factorisation (sys, m->dt, &band, &sparse, &chosen, &used, &first))
    {
      fprintf (stderr, "%s: the first factorisation failed\n", label);
      return FALSE;
    }

  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  if (!fx_integrator_prepare (it, &error))
    {
      fprintf (stderr, "%s: %s\n", label, error->message);
      return FALSE;
    }
  FxStepReport rep;
  double c0 = cpu_seconds ();
  for (guint s = 0; s < steps; s++)
    if (!fx_integrator_step (it, m->dt, &rep, &error))
      {
        fprintf (stderr, "%s: %s\n", label, error->message);
        return FALSE;
      }
  double cpu = cpu_seconds () - c0;
  printf ("%-34s %7u %-7s %10.3g %10.3g %-7s %10.2f %9.3f\n", label, fx_system_n_unknowns (sys),
          path_name (chosen), band, sparse, path_name (used), 1e3 * first, 1e3 * cpu / steps);
  return TRUE;
}

/* An example with one link refined to `elements`, NULL if it has no such link. */
static FxModel *
refined (const char *dir, const char *example, const char *link, guint elements)
{
  g_autofree char *path = g_build_filename (dir, example, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_file (path, NULL, &error);
  if (m == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return NULL;
    }
  int k = link ? fx_model_find_link (m, link) : -1;
  if (k >= 0)
    fx_model_link (m, (guint) k)->elements = elements;
  return g_steal_pointer (&m);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : FX_EXAMPLES_DIR;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
  if (d == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (name, ".flexion"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  printf ("%-34s %7s %-7s %10s %10s %-7s %10s %9s\n", "model", "unknown", "chosen",
          "band cost", "KLU cost", "used", "first ms", "ms/step");
  gboolean ok = TRUE;
  for (guint k = 0; k < names->len; k++)
    {
      g_autoptr (FxModel) m = refined (dir, names->pdata[k], NULL, 0);
      ok = m != NULL && bench (names->pdata[k], m, 50) && ok;
    }
  /* the big frames: one link at 5000 elements (about 30 000 unknowns) */
  static const struct { const char *example, *link; } big[] = {
    { "frame-earthquake.flexion", "column-left-2" },
    { "frame-earthquake.flexion", "column-left-1" },
    { "plate-linkage.flexion", "rocker" },
  };
  for (guint k = 0; k < G_N_ELEMENTS (big); k++)
    {
      g_autoptr (FxModel) m = refined (dir, big[k].example, big[k].link, 5000);
      g_autofree char *label = g_strdup_printf ("%.*s, %s 5000", (int) strcspn (big[k].example, "."),
                                                big[k].example, big[k].link);
      ok = m != NULL && bench (label, m, 5) && ok;
    }
  return ok ? 0 : 1;
}
