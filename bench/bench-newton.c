/* bench-newton.c: the Newton variants' cost (issue 26). The four-bar example
 * over 10 s with --newton auto (the default), full and simplified: wall
 * time, Newton iterations and factorisations per step, max |balance| /
 * E_scale; then a 1000-element link (the flying spaghetti's section) at
 * dt = 1e-3: ms per step (target <= 1 ms). CPU time (not wall) so that a
 * shared machine disturbs it less. Not a test: `build/bench/bench-newton
 * [FOUR-BAR.flexion]`. */
#include "test-models.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#ifndef FX_EXAMPLES_DIR
#define FX_EXAMPLES_DIR "data/examples"
#endif

static const char *kind_names[] = { "auto", "full", "simplified" };

static double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Runs `steps` steps of m->dt; prints one row. FALSE on a solver failure. */
static gboolean
run (const char *label, FxModel *m, FxNewtonKind kind, guint steps)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  if (sys == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return FALSE;
    }
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  fx_integrator_set_newton (it, kind);
  if (!fx_integrator_prepare (it, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return FALSE;
    }
  FxStepReport rep;
  fx_integrator_report (it, &rep);
  double e_scale = fabs (rep.H), worst = 0.0, supplied = 0.0;
  guint64 iters = 0, facts = 0;
  double c0 = cpu_seconds ();
  for (guint s = 0; s < steps; s++)
    {
      if (!fx_integrator_step (it, m->dt, &rep, &error))
        {
          fprintf (stderr, "%s: %s\n", label, error->message);
          return FALSE;
        }
      iters += rep.newton_iters;
      facts += rep.factorisations;
      supplied += rep.supplied;
      worst = MAX (worst, fabs (rep.balance));
      e_scale = MAX (e_scale, MAX (fabs (rep.H), fabs (supplied)));
      e_scale = MAX (e_scale, MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))));
    }
  double cpu = cpu_seconds () - c0;
  printf ("%-22s %-11s %5s %9.3f %9.3f %8.2f %8.2f %12.2g\n", label, kind_names[kind],
          fx_integrator_reuses_factorisations (it) ? "yes" : "no", cpu, 1e3 * cpu / steps,
          (double) iters / steps, (double) facts / steps, worst / e_scale);
  return TRUE;
}

int
main (int argc, char **argv)
{
  const char *four_bar = argc > 1 ? argv[1] : FX_EXAMPLES_DIR "/four-bar.flexion";
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) fb = fx_model_load_file (four_bar, NULL, &error);
  if (fb == NULL)
    {
      fprintf (stderr, "%s: %s\n", four_bar, error->message);
      return 1;
    }
  printf ("%-22s %-11s %5s %9s %9s %8s %8s %12s\n", "model", "--newton", "reuse", "CPU s",
          "ms/step", "iter", "factor", "max|bal|/E");
  for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
    if (!run ("four-bar 10 s", fb, (FxNewtonKind) k, (guint) lround (10.0 / fb->dt)))
      return 1;

  /* the flying spaghetti's free beam, 1000 elements, dt = 1e-3, 300 steps */
  g_autoptr (FxModel) link = test_flying_spaghetti (1000);
  link->dt = 1e-3;
  for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
    if (!run ("1000-element link", link, (FxNewtonKind) k, 300))
      return 1;
  return 0;
}
