/* test-smooth-links.c: links drawn smooth under a deflection scale (issue
 * 23, item 8). Links are drawn as a cubic per element from the end
 * positions and section angles (fx-scene.c), so a magnified frame must
 * carry magnified angles: the angle at each inner node should follow the
 * direction of the magnified centreline there, as the solver's angles
 * follow the true one; the unmagnified angles, kept before, do not. */
#include "fx-deflection.h"
#include "fx-runner.h"
#include "../test-models.h"

#include <math.h>

/* The largest gap between node i's angle and the direction of the chord
 * from node i - 1 to node i + 1, over the inner nodes. */
static double
angle_gap (const FxStepFrame *f)
{
  double worst = 0;
  for (guint l = 0; l < f->n_links; l++)
    for (guint i = f->node_offset[l] + 1; i + 1 < f->node_offset[l + 1]; i++)
      {
        double dir = atan2 (f->y[i + 1] - f->y[i - 1], f->x[i + 1] - f->x[i - 1]);
        double d = dir - f->theta[i];
        worst = MAX (worst, fabs (atan2 (sin (d), cos (d))));
      }
  return worst;
}

static void
test_magnified_angles (void)
{
  g_autoptr (FxModel) m = test_load_example ("cantilever.flexion");
  g_autoptr (FxRunner) r = fx_runner_new (m, NULL);
  fx_runner_set_horizon (r, 0.05);
  FxStepFrame *last = NULL, *f;
  while (fx_runner_is_busy (r) || fx_runner_n_frames (r) > 0)
    {
      while ((f = fx_runner_pop_frame (r)))
        {
          g_clear_pointer (&last, fx_step_frame_unref);
          last = f;
        }
      g_usleep (1000);
    }
  g_assert_nonnull (last);
  g_assert_cmpuint (last->n_nodes, >, 4);
  double scale = 50;
  g_autoptr (FxStepFrame) big = fx_deflection_magnify (m, last, scale);
  /* the old angles on the magnified nodes: what a kinked drawing showed */
  FxStepFrame old = *big;
  old.theta = last->theta;
  double gap_true = angle_gap (last), gap_big = angle_gap (big), gap_old = angle_gap (&old);
  g_test_message ("angle against centreline: %.2e rad true, %.2e rad magnified x%g, "
                  "%.2e rad with the unmagnified angles", gap_true, gap_big, scale, gap_old);
  g_assert_cmpfloat (gap_old, >, 0.01);
  g_assert_cmpfloat (gap_big, <, 0.25 * gap_old);
  fx_step_frame_unref (last);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/magnified-angles", test_magnified_angles);
  return g_test_run ();
}
