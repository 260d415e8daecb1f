/* bench-floating.c: a floating-frame link against a geometrically exact
 * link of the same element count: wall time per step, Newton iterations
 * and unknowns. The test: a cantilever clamped at one end, released from a
 * tip load at rest under gravity, 200 steps of 5 ms. Not a test: run
 * `build/bench/bench-floating` (or `meson test -C build --benchmark`). */
#include "fx-model.h"
#include "fx-system.h"
#include "fx-integrator.h"

#include <stdio.h>

static FxModel *
cantilever (guint n, gboolean floating)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", 1, 0);
  FxLink *l = fx_model_add_link (m, "beam", "A", "B", n);
  fx_section_set_canonical (&l->section, 0.785, 6.5e-6, 2.1e7, 8.1e6, 175);
  if (floating)
    l->kind = FX_LINK_FLOATING_FRAME;
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->force[1] = -50;
  ld->profile.type = FX_PROFILE_STEP_OFF;
  ld->profile.t1 = 0.2;
  return m;
}

int
main (int argc, char **argv)
{
  static const guint sizes[] = { 4, 10, 20, 40, 80 };
  const guint steps = 200;

  printf ("%6s %-20s %9s %9s %12s\n", "N", "link", "unknowns", "ms/step", "mean Newton");
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (int f = 0; f < 2; f++)
      {
        g_autoptr (FxModel) m = cantilever (sizes[k], f);
        g_autoptr (GError) error = NULL;
        g_autoptr (FxSystem) sys = fx_system_new (m, &error);
        if (!sys)
          {
            fprintf (stderr, "%s\n", error->message);
            return 1;
          }
        g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
        FxStepReport rep;
        guint iters = 0;
        gint64 t0 = g_get_monotonic_time ();
        for (guint s = 0; s < steps; s++)
          {
            if (!fx_integrator_step (it, 0.005, &rep, &error))
              {
                fprintf (stderr, "N = %u: %s\n", sizes[k], error->message);
                return 1;
              }
            iters += rep.newton_iters;
          }
        double ms = (g_get_monotonic_time () - t0) / 1e3 / steps;
        printf ("%6u %-20s %9u %9.3f %12.2f\n", sizes[k], f ? "floating-frame" : "geometrically exact",
                fx_system_n_unknowns (sys), ms, (double) iters / steps);
      }
  return 0;
}
