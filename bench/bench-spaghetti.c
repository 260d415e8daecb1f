/* bench-spaghetti.c: flying spaghetti (physics.md section 8) at growing mesh
 * sizes: wall time per step and Newton iterations, 150 steps of 0.1 s.
 * Cost per step must grow linearly with N (banded solve). Not a test: run
 * `build/bench/bench-spaghetti` (or `meson test -C build --benchmark`). */
#include "fx-model.h"
#include "fx-system.h"
#include "fx-integrator.h"

#include <stdio.h>
#include <stdlib.h>

static FxModel *
spaghetti (guint n)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  fx_model_add_joint (m, "A", 0, 8);
  fx_model_add_joint (m, "B", 6, 0);
  FxLink *l = fx_model_add_link (m, "beam", "A", "B", n);
  fx_section_set_canonical (&l->section, 1, 10, 1e4, 1e4, 100);
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->force[0] = 8;
  ld->moment = -80;
  ld->profile.type = FX_PROFILE_STEP_OFF;
  ld->profile.t1 = 2.5;
  return m;
}

int
main (int argc, char **argv)
{
  static const guint sizes[] = { 10, 100, 1000, 10000 };
  const guint steps = 150;
  double t_prev = 0;

  printf ("%8s %10s %14s %12s %12s %10s %12s\n", "N", "unknowns", "150 steps (s)",
          "ms/step", "mean Newton", "max Newton", "t(N)/t(N/10)");
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autoptr (FxModel) m = spaghetti (sizes[k]);
      g_autoptr (GError) error = NULL;
      g_autoptr (FxSystem) sys = fx_system_new (m, &error);
      if (!sys)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
      FxStepReport rep;
      guint iters = 0, max_iters = 0;
      gint64 t0 = g_get_monotonic_time ();
      for (guint s = 0; s < steps; s++)
        {
          if (!fx_integrator_step (it, 0.1, &rep, &error))
            {
              fprintf (stderr, "N = %u: %s\n", sizes[k], error->message);
              return 1;
            }
          iters += rep.newton_iters;
          max_iters = MAX (max_iters, rep.newton_iters);
        }
      double wall = (g_get_monotonic_time () - t0) / 1e6;
      printf ("%8u %10u %14.4f %12.4f %12.2f %10u", sizes[k], fx_system_n_unknowns (sys), wall,
              1e3 * wall / steps, (double) iters / steps, max_iters);
      if (k > 0)
        printf (" %12.2f", wall / t_prev);
      printf ("\n");
      t_prev = wall;
    }
  return 0;
}
