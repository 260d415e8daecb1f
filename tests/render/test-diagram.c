/* test-diagram.c: the N, V, M diagrams (physics.md §14, fx-diagram.h): the
 * values a teacher reads off them against the textbook, their labels'
 * format, and the legend in an SVG export. */
#include "fx-diagram.h"
#include "fx-scene.h"
#include "fx-export.h"
#include "fx-frame.h"
#include "fx-measure.h"
#include "../test-models.h"

#include <cairo-svg.h>
#include <math.h>
#include <string.h>

/* The simply supported example (pin and roller, L = 2 m, F = 100 N at
 * mid-span ramped in over 1 s) run until it rests: its velocity damping
 * raised so the ring-down is over by the end. */
static FxStepFrame *
settled_beam (FxModel **model_out, guint elements)
{
  FxModel *m = test_load_example ("simply-supported.flexion");
  FxLink *beam = fx_model_link (m, 0);
  beam->damping = 300;
  beam->elements = elements;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, 1e-10, 30);
  g_autoptr (GError) error = NULL;
  FxStepReport report;
  for (guint k = 0; k < 1500; k++)
    g_assert_true (fx_integrator_step (integ, 0.002, &report, &error));
  *model_out = m;
  return fx_step_frame_new (sys, &report, 1500);
}

static double
beam_reaction_sum (const FxStepFrame *f)
{
  double sum = 0;
  for (guint j = 0; j < f->n_joints; j++)
    sum += f->reaction[FX_REACTION_N_VALUES * j + FX_REACTION_FY];
  return sum;
}

static void
test_simply_supported_moment (void)
{
  const guint sizes[] = { 20, 8, 7 };
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      FxModel *m = NULL;
      g_autoptr (FxStepFrame) f = settled_beam (&m, sizes[k]);
      /* at rest: the supports carry the load */
      g_assert_cmpfloat (fabs (beam_reaction_sum (f) - 100), <, 1e-3 * 100);
      g_autoptr (GArray) ext = fx_diagram_extremes (f, FX_DIAGRAM_VIEW_M);
      g_assert_cmpuint (ext->len, >=, 1);
      const FxDiagramExtreme *top = &g_array_index (ext, FxDiagramExtreme, 0);
      double FL4 = 100 * 2.0 / 4;
      if (g_test_verbose ())
        g_printerr ("N = %u: labelled M %.6g at s %.4g (F L/4 = %g)\n", sizes[k], top->value, top->s, FL4);
      /* the labelled extreme is F L/4 at mid-span (a node for an even N) */
      g_assert_cmpfloat (fabs (top->value - FL4), <, 0.01 * FL4);
      if (sizes[k] % 2 == 0)
        g_assert_cmpfloat (fabs (top->s - 0.5), <, 1e-9);
      /* and its label says so in 3 significant digits */
      char text[64];
      fx_diagram_format (text, sizeof text, top->value, FX_DIAGRAM_VIEW_M);
      if (sizes[k] % 2 == 0)
        g_assert_cmpstr (text, ==, "50.0\u00a0N\u00a0m");
      /* the shear is F/2 either side of the load, of opposite signs */
      g_autoptr (GArray) shear = fx_diagram_extremes (f, FX_DIAGRAM_VIEW_V);
      g_assert_cmpuint (shear->len, ==, 2);
      for (guint i = 0; i < 2; i++)
        g_assert_cmpfloat (fabs (fabs (g_array_index (shear, FxDiagramExtreme, i).value) - 50), <, 0.5);
      g_assert_cmpfloat (g_array_index (shear, FxDiagramExtreme, 0).value
                         * g_array_index (shear, FxDiagramExtreme, 1).value, <, 0);
      /* the only axial force is the vertical reactions' share along the
       * turned sections: N = (F/2) sin theta, theta up to the end slope
       * F L^2/(16 EI) = 0.0476 rad */
      double theta_end = 100 * 4 / (16 * 2.1e11 * 0.03 * 1e-6 / 12);
      g_assert_cmpfloat (fx_diagram_max_abs (f, FX_DIAGRAM_VIEW_N), <, 1.01 * 50 * sin (theta_end));
      fx_model_free (m);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diagram/simply-supported-moment", test_simply_supported_moment);
  return g_test_run ();
}
