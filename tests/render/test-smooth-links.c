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

/* The last frame of a run of `m` to `horizon` (a new reference). */
static FxStepFrame *
run_to (const FxModel *m, double horizon)
{
  g_autoptr (FxRunner) r = fx_runner_new (m, NULL);
  g_assert_nonnull (r);
  fx_runner_set_horizon (r, horizon);
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
  return last;
}

static void
test_magnified_angles (void)
{
  g_autoptr (FxModel) m = test_load_example ("cantilever.flexion");
  FxStepFrame *last = run_to (m, 0.05);
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

/* A floating-frame link is magnified from its mean line (physics.md 12.8):
 * each node keeps its foot on the frame's axis and its distance from the
 * axis grows k times; with mean axes the blade bends to both sides of it.
 * A geometrically exact link has no axis. */
static void
test_floating_mean_line (void)
{
  g_autoptr (FxModel) m = test_load_example ("spin-up.flexion");
  int fl = fx_model_find_link (m, "floating"), ge = fx_model_find_link (m, "exact");
  g_assert_cmpint (fl, >=, 0);
  g_assert_cmpint (ge, >=, 0);
  fx_model_link (m, fl)->frame = FX_LINK_FRAME_MEAN_AXIS;
  g_autoptr (FxStepFrame) last = run_to (m, 3.0);
  g_assert_nonnull (last->link_axis);
  g_assert_true (isnan (last->link_axis[3 * ge]));
  const double *axis = &last->link_axis[3 * fl];
  g_assert_true (isfinite (axis[0]) && isfinite (axis[1]) && isfinite (axis[2]));

  double scale = 20, e[2] = { cos (axis[2]), sin (axis[2]) };
  g_autoptr (FxStepFrame) big = fx_deflection_magnify (m, last, scale);
  double lo = 0, hi = 0, worst_foot = 0, worst_ratio = 0, largest = 0;
  for (guint i = last->node_offset[fl]; i < last->node_offset[fl + 1]; i++)
    {
      double a = (last->x[i] - axis[0]) * e[0] + (last->y[i] - axis[1]) * e[1];
      double w = -(last->x[i] - axis[0]) * e[1] + (last->y[i] - axis[1]) * e[0];
      double A = (big->x[i] - axis[0]) * e[0] + (big->y[i] - axis[1]) * e[1];
      double W = -(big->x[i] - axis[0]) * e[1] + (big->y[i] - axis[1]) * e[0];
      lo = MIN (lo, w), hi = MAX (hi, w), largest = MAX (largest, fabs (w));
      worst_foot = MAX (worst_foot, fabs (A - a));
      worst_ratio = MAX (worst_ratio, fabs (W - scale * w));
    }
  g_test_message ("floating blade at t = %.2f s: deflection from the mean line %.3e .. %.3e m; "
                  "magnified x%g: feet moved %.1e m, offsets off by %.1e m",
                  last->t, lo, hi, scale, worst_foot, worst_ratio);
  g_assert_cmpfloat (lo, <, -1e-3);
  g_assert_cmpfloat (hi, >, 1e-3);
  g_assert_cmpfloat (worst_foot, <, 1e-9);
  g_assert_cmpfloat (worst_ratio, <, 1e-9 * scale * MAX (largest, 1));
  /* the auto scale is measured the same way: at least this blade's deflection */
  g_assert_cmpfloat (fx_deflection_max (m, last), >=, largest - 1e-12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/magnified-angles", test_magnified_angles);
  g_test_add_func ("/render/floating-mean-line", test_floating_mean_line);
  return g_test_run ();
}
