/* bench-multibody.c: multibody speed.
 *
 * 1. The four-bar example (data/examples/four-bar.flexion) over its own
 *    t_end and dt at tolerance 1e-12, five times: best and median wall time,
 *    real-time factor, Newton iterations per step and max |balance| / E_scale
 *    (E_scale as in docs/theory.md §4 and flexion-cli run). Targets:
 *    >= 100x real time, <= 4 Newton iterations per step on average.
 * 2. A chain of pinned steel links (10 elements each) falling under gravity
 *    from the horizontal, hinged to the ground at one end: 10 links against
 *    100 links, per-step time, unknowns and the linear solver used.
 *    Multibody cost must grow linearly: target t(100) / t(10) <= 12.
 *
 * Not a test: run `build/bench/bench-multibody [four-bar.flexion]` (or
 * `meson test -C build --benchmark`). The model file defaults to the source
 * tree's examples directory, given by meson at compile time. */
#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-system.h"
#include "fx-integrator.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FX_EXAMPLES_DIR
#define FX_EXAMPLES_DIR "data/examples"
#endif

typedef struct {
  double wall;          /* s, stepping only (system built beforehand) */
  double build;         /* s, fx_system_new + fx_integrator_new        */
  guint steps;
  guint64 iters;
  guint max_iters;
  guint substeps;       /* steps that had to be halved                 */
  double max_balance;
  double e_scale;
  double t_end;         /* simulated time reached                      */
  guint n_unknowns;
  char solver[160];
  double tip[2];        /* end of the last link at the end of the run  */
} RunStats;

/* Step `model` n_steps times of dt; FALSE (message printed) on failure. */
static gboolean
run (const FxModel *model, double dt, guint n_steps, double tolerance, guint max_iterations,
     RunStats *st)
{
  g_autoptr (GError) error = NULL;
  gint64 b0 = g_get_monotonic_time ();
  g_autoptr (FxSystem) sys = fx_system_new (model, &error);
  if (!sys)
    {
      fprintf (stderr, "model does not build: %s\n", error->message);
      return FALSE;
    }
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, tolerance, max_iterations);
  st->build = (g_get_monotonic_time () - b0) / 1e6;
  st->n_unknowns = fx_system_n_unknowns (sys);

  g_strlcpy (st->solver, fx_integrator_describe_solver (it), sizeof st->solver);
  FxStepReport rep;
  fx_integrator_report (it, &rep);
  /* E_scale: the largest of |H|, the total supplied work and any kinetic or
   * potential energy of the run (H itself may be ~0) */
  double e_scale = fabs (rep.H), supplied = 0.0, max_balance = 0.0;
  guint64 iters = 0;
  guint max_iters = 0, halved = 0;

  gint64 t0 = g_get_monotonic_time ();
  for (guint s = 0; s < n_steps; s++)
    {
      if (!fx_integrator_step (it, dt, &rep, &error))
        {
          fprintf (stderr, "step %u: %s\n", s + 1, error->message);
          return FALSE;
        }
      iters += rep.newton_iters;
      max_iters = MAX (max_iters, rep.newton_iters);
      halved += rep.substeps > 1;
      max_balance = MAX (max_balance, fabs (rep.balance));
      supplied += rep.supplied;
      e_scale = MAX (e_scale, MAX (fabs (rep.H), fabs (supplied)));
      e_scale = MAX (e_scale, MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))));
    }
  st->wall = (g_get_monotonic_time () - t0) / 1e6;
  st->steps = n_steps;
  st->iters = iters;
  st->max_iters = max_iters;
  st->substeps = halved;
  st->max_balance = max_balance;
  st->e_scale = e_scale;
  st->t_end = fx_system_time (sys);
  guint last = fx_system_n_links (sys) - 1;
  fx_system_point (sys, last, 1.0, &st->tip[0], &st->tip[1]);
  return TRUE;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static const char *
verdict (gboolean ok)
{
  return ok ? "met" : "MISSED";
}

/* ---- 1. four-bar ------------------------------------------------------- */

static gboolean
bench_four_bar (const char *path)
{
  enum { REPEATS = 5 };
  const double tolerance = 1e-12;
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_file (path, NULL, &error);
  if (!m)
    {
      fprintf (stderr, "%s: %s\n", path, error->message);
      return FALSE;
    }
  guint n_steps = (guint) ceil (m->t_end / m->dt - 1e-9);
  double walls[REPEATS];
  RunStats st = { 0 };

  printf ("1. Four-bar: %s\n", path);
  printf ("   T = %g s, dt = %g s (%u steps), tolerance %g, max iterations %u\n\n",
          m->t_end, m->dt, n_steps, tolerance, m->max_iterations);
  printf ("   %3s %10s %10s %12s %11s %10s %8s %16s\n", "run", "wall (s)", "build (s)",
          "x real time", "mean Newton", "max Newton", "halved", "max|bal|/E_scale");
  for (guint r = 0; r < REPEATS; r++)
    {
      if (!run (m, m->dt, n_steps, tolerance, m->max_iterations, &st))
        return FALSE;
      walls[r] = st.wall;
      printf ("   %3u %10.4f %10.4f %12.1f %11.2f %10u %8u %16.2e\n", r + 1, st.wall, st.build,
              st.t_end / st.wall, (double) st.iters / st.steps, st.max_iters, st.substeps,
              st.e_scale > 0 ? st.max_balance / st.e_scale : 0.0);
    }
  qsort (walls, REPEATS, sizeof walls[0], cmp_double);
  double best = walls[0], median = walls[REPEATS / 2];
  double mean_newton = (double) st.iters / st.steps;

  printf ("\n   unknowns %u, %s, E_scale %.4g J, max |balance| %.3g J\n",
          st.n_unknowns, st.solver, st.e_scale, st.max_balance);
  printf ("   best   %.4f s wall = %7.1fx real time   (target >= 100x: %s)\n", best,
          st.t_end / best, verdict (st.t_end / best >= 100.0));
  printf ("   median %.4f s wall = %7.1fx real time   (target >= 100x: %s)\n", median,
          st.t_end / median, verdict (st.t_end / median >= 100.0));
  printf ("   mean Newton iterations %.2f per step      (target <= 4: %s)\n\n", mean_newton,
          verdict (mean_newton <= 4.0));
  return TRUE;
}

/* ---- 2. chains --------------------------------------------------------- */

/* n_links steel links of 1 m (square 0.02 m), joint i at (i, 0), pin joints,
 * joint 0 a pin support, the rest free: a chain falling from the horizontal. */
static FxModel *
chain (guint n_links, guint elements)
{
  FxModel *m = fx_model_new ();
  for (guint i = 0; i <= n_links; i++)
    {
      g_autofree char *id = g_strdup_printf ("J%u", i);
      FxJoint *j = fx_model_add_joint (m, id, (double) i, 0.0);
      if (i == 0)
        j->support = FX_SUPPORT_PIN;
    }
  for (guint i = 0; i < n_links; i++)
    {
      g_autofree char *id = g_strdup_printf ("L%u", i);
      g_autofree char *from = g_strdup_printf ("J%u", i);
      g_autofree char *to = g_strdup_printf ("J%u", i + 1);
      FxLink *l = fx_model_add_link (m, id, from, to, elements);
      l->formulation = FX_FORMULATION_AUTO;
      l->section.E = 2.1e11;
      l->section.nu = 0.3;
      l->section.rho = 7850;
      l->section.shape = FX_SHAPE_SQUARE;
      l->section.width = 0.02;
      l->section.shear_factor = 0;  /* the shape's default */
      fx_section_derive (&l->section);
    }
  return m;
}

static gboolean
bench_chains (void)
{
  static const guint links[] = { 10, 100 };
  enum { ELEMENTS = 10, STEPS = 100, REPEATS = 3 };
  const double dt = 0.01, tolerance = 1e-12;
  double per_step[G_N_ELEMENTS (links)];

  printf ("2. Chain of pinned steel links (1 m, square 0.02 m, %u elements each), pin support\n"
          "   at joint 0, falling from the horizontal under gravity; formulation auto;\n"
          "   %u steps of %g s, tolerance %g; best of %u runs\n\n",
          ELEMENTS, STEPS, dt, tolerance, REPEATS);
  printf ("   %6s %9s %10s %6s %10s %11s %11s %10s %8s %16s %10s %8s\n", "links", "elements",
          "unknowns", "path", "build (s)", "100 st (s)", "ms/step", "mean Newt", "max Newt",
          "max|bal|/E_scale", "tip y (m)", "t/t(10)");
  for (guint k = 0; k < G_N_ELEMENTS (links); k++)
    {
      g_autoptr (FxModel) m = chain (links[k], ELEMENTS);
      RunStats best = { 0 }, st;
      for (guint r = 0; r < REPEATS; r++)
        {
          if (!run (m, dt, STEPS, tolerance, 20, &st))
            {
              fprintf (stderr, "   chain of %u links failed\n", links[k]);
              return FALSE;
            }
          if (r == 0 || st.wall < best.wall)
            best = st;
        }
      per_step[k] = best.wall / STEPS;
      printf ("   %6u %9u %10u %6s %10.4f %11.4f %11.4f %10.2f %8u %16.2e %10.3f", links[k],
              links[k] * ELEMENTS, best.n_unknowns, best.solver[0] == 's' ? "KLU" : "band", best.build, best.wall,
              1e3 * per_step[k], (double) best.iters / best.steps, best.max_iters,
              best.e_scale > 0 ? best.max_balance / best.e_scale : 0.0, best.tip[1]);
      if (k > 0)
        printf (" %8.2f", per_step[k] / per_step[0]);
      printf ("\n");
    }
  double ratio = per_step[1] / per_step[0];
  printf ("\n   per-step ratio 100 / 10 links: %.2f   (target <= 12: %s)\n", ratio,
          verdict (ratio <= 12.0));
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autofree char *path = argc > 1 ? g_strdup (argv[1])
                                   : g_build_filename (FX_EXAMPLES_DIR, "four-bar.flexion", NULL);
  if (!bench_four_bar (path))
    return 1;
  if (!bench_chains ())
    return 1;
  return 0;
}
