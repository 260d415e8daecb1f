/* bench-modes.c: time of fx_modes_compute (docs/theory.md §8, dense GSL).
 *
 * 1. The four-bar example: the app shows its modes in a worker thread and
 *    they must appear in < 0.2 s.
 * 2. A 10-panel truss of pinned steel tubes (41 links, 4 elements each).
 * 3. Steel cantilevers of 100, 250 and 330 elements (up to the dense limit,
 *    FX_MODES_MAX_UNKNOWNS), and of 1000 and 5000 elements beyond it, where
 *    shift-invert Arnoldi finds the lowest vibrations only.
 * 4. Cantilevers of 10, 20 and 40 elements (issue 26: the peer takes 3 ms
 *    at 40), best of 20 runs.
 *
 * Not a test: run `build/bench/bench-modes [four-bar.flexion]` (or
 * `meson test -C build --benchmark`). */
#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-modes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef FX_EXAMPLES_DIR
#define FX_EXAMPLES_DIR "data/examples"
#endif

static void
steel_tube (FxLink *l)
{
  l->section.form = FX_SECTION_MATERIAL;
  l->section.E = 2.1e11;
  l->section.nu = 0.3;
  l->section.rho = 7850;
  l->section.shape = FX_SHAPE_TUBE;
  l->section.diameter = 0.04;
  l->section.inner_diameter = 0.034;
  l->section.shear_factor = 0;
  fx_section_derive (&l->section);
}

/* Pratt-like truss: bottom and top chords, verticals and diagonals, pinned
 * everywhere, pin supports at both bottom ends; a 0.5 kg gusset plate at
 * every free joint (an inertia junction takes the force, so no search for
 * a causality matching is needed). */
static FxModel *
truss (guint panels, guint elements)
{
  FxModel *m = fx_model_new ();
  for (guint i = 0; i <= panels; i++)
    {
      g_autofree char *b = g_strdup_printf ("b%u", i), *t = g_strdup_printf ("t%u", i);
      FxJoint *jb = fx_model_add_joint (m, b, i * 1.0, 0.0);
      if (i == 0 || i == panels)
        jb->support = FX_SUPPORT_PIN;
      else
        jb->mass = 0.5;
      fx_model_add_joint (m, t, i * 1.0, 1.0)->mass = 0.5;
    }
  for (guint i = 0; i <= panels; i++)
    {
      g_autofree char *b = g_strdup_printf ("b%u", i), *t = g_strdup_printf ("t%u", i);
      g_autofree char *v = g_strdup_printf ("v%u", i);
      steel_tube (fx_model_add_link (m, v, b, t, elements));
      if (i == panels)
        break;
      g_autofree char *b1 = g_strdup_printf ("b%u", i + 1), *t1 = g_strdup_printf ("t%u", i + 1);
      g_autofree char *lb = g_strdup_printf ("bottom%u", i), *lt = g_strdup_printf ("top%u", i);
      g_autofree char *ld = g_strdup_printf ("diagonal%u", i);
      steel_tube (fx_model_add_link (m, lb, b, b1, elements));
      steel_tube (fx_model_add_link (m, lt, t, t1, elements));
      steel_tube (fx_model_add_link (m, ld, b, t1, elements));
    }
  return m;
}

static FxModel *
cantilever (guint elements)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "root", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "tip", 2, 0);
  steel_tube (fx_model_add_link (m, "beam", "root", "tip", elements));
  return m;
}

/* Best of `repeat` runs of fx_modes_compute (10 vibration modes), CPU s. */
static void
time_modes (const char *name, const FxModel *model, guint repeat)
{
  double best = INFINITY;
  g_autoptr (FxModes) keep = NULL;
  g_autoptr (GError) error = NULL;

  for (guint r = 0; r < repeat; r++)
    {
      g_clear_error (&error);
      /* CPU time of this thread: on a shared machine, wall time measures
       * the neighbours */
      struct timespec t0, t1;
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t0);
      FxModes *modes = fx_modes_compute (model, 10, &error);
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t1);
      best = MIN (best, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
      g_clear_pointer (&keep, fx_modes_free);
      keep = modes;
    }
  if (keep == NULL)
    {
      printf ("%-28s refused in %.3f s: %s\n", name, best, error->message);
      return;
    }
  double f1 = 0.0;
  for (guint i = 0; i < keep->n_modes; i++)
    if (keep->modes[i].kind == FX_MODE_VIBRATION)
      {
        f1 = keep->modes[i].frequency;
        break;
      }
  if (keep->counted)
    printf ("%-28s %6u unknowns  %8.4f s   mobility %u, indeterminacy %u, f1 = %.5g Hz\n",
            name, keep->n_unknowns, best, keep->mobility, keep->indeterminacy, f1);
  else
    printf ("%-28s %6u unknowns  %8.3f s   iterative, %u vibrations, f1 = %.5g Hz\n",
            name, keep->n_unknowns, best, fx_modes_count (keep, FX_MODE_VIBRATION), f1);
}

int
main (int argc, char **argv)
{
  const char *fourbar = argc > 1 ? argv[1] : FX_EXAMPLES_DIR "/four-bar.flexion";
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) fb = fx_model_load_file (fourbar, NULL, &error);
  if (fb == NULL)
    {
      fprintf (stderr, "%s: %s\n", fourbar, error->message);
      return 1;
    }
  const char *only = g_getenv ("BENCH_MODES_CANTILEVER");  /* N: that one, 200 runs (for perf; BENCH_MODES_REPEAT for valgrind) */
  if (only != NULL)
    {
      g_autoptr (FxModel) c = cantilever ((guint) atoi (only));
      const char *repeat = g_getenv ("BENCH_MODES_REPEAT");
      time_modes ("cantilever", c, repeat ? (guint) MAX (atoi (repeat), 1) : 200);
      return 0;
    }
  printf ("fx_modes_compute, best CPU time of several runs (dense limit %u unknowns)\n", FX_MODES_MAX_UNKNOWNS);
  time_modes ("four-bar (target < 0.2 s)", fb, 5);
  g_autoptr (FxModel) tr = truss (10, 4);
  time_modes ("10-panel truss", tr, 3);
  /* the peer comparison (issue 26): Exudyn's dense modes of the N = 40
   * cantilever take 3 ms on this machine */
  const guint small[] = { 10, 20, 40 };
  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    {
      g_autoptr (FxModel) c = cantilever (small[i]);
      g_autofree char *name = g_strdup_printf ("cantilever, %u elements", small[i]);
      time_modes (name, c, 20);
    }
  const guint sizes[] = { 100, 250, 330, 1000, 5000 };
  if (g_getenv ("BENCH_MODES_QUICK"))  /* the small models only */
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr (FxModel) c = cantilever (sizes[i]);
      g_autofree char *name = g_strdup_printf ("cantilever, %u elements", sizes[i]);
      time_modes (name, c, sizes[i] > 100 ? 1 : 3);
    }
  return 0;
}
