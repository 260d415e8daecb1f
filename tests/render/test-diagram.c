/* test-diagram.c: the N, V, M diagrams (physics.md §14, fx-diagram.h): the
 * values a teacher reads off them against the textbook, their labels'
 * format, and the legend in an SVG export; and the auto deflection scale
 * that never bends a member by more than a tenth of its length. */
#include "fx-diagram.h"
#include "fx-scene.h"
#include "fx-export.h"
#include "fx-frame.h"
#include "fx-measure.h"
#include "fx-deflection.h"
#include "../test-models.h"

#include <cairo-svg.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* The simply supported example (pin and roller, L = 2 m, F = 100 N at
 * mid-span ramped in over 1 s) run until it rests: its velocity damping
 * raised so the ring-down is over by the end. */
static FxStepFrame *
settled_beam (FxModel **model_out, guint elements, guint degree, double mid[FX_DIAGRAM_N_VALUES])
{
  FxModel *m = test_load_example ("simply-supported.flexion");
  FxLink *beam = fx_model_link (m, 0);
  beam->damping = 300;
  beam->elements = elements;
  beam->degree = degree;
  g_autoptr (FxSystem) sys = test_system (m);
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, 1e-10, 30);
  g_autoptr (GError) error = NULL;
  FxStepReport report;
  for (guint k = 0; k < 1500; k++)
    g_assert_true (fx_integrator_step (integ, 0.002, &report, &error));
  *model_out = m;
  if (mid)
    fx_system_diagram_at (sys, 0, 0.5, mid);
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
  /* elements and degree (physics.md §15): the example's 20 linear ones,
   * coarser meshes, an odd one (the load inside an element), degree 2, 3 */
  const guint sizes[] = { 20, 8, 7, 4, 4 }, degrees[] = { 1, 1, 1, 2, 3 };
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      FxModel *m = NULL;
      double mid[FX_DIAGRAM_N_VALUES];
      g_autoptr (FxStepFrame) f = settled_beam (&m, sizes[k], degrees[k], mid);
      /* at rest: the supports carry the load */
      g_assert_cmpfloat (fabs (beam_reaction_sum (f) - 100), <, 1e-3 * 100);
      g_autoptr (GArray) ext = fx_diagram_extremes (f, FX_DIAGRAM_VIEW_M);
      g_assert_cmpuint (ext->len, >=, 1);
      const FxDiagramExtreme *top = &g_array_index (ext, FxDiagramExtreme, 0);
      double FL4 = 100 * 2.0 / 4;
      if (g_test_verbose ())
        g_printerr ("N = %u, k = %u: labelled M %.6g at s %.4g (F L/4 = %g)\n", sizes[k], degrees[k],
                    top->value, top->s, FL4);
      /* the labelled extreme is F L/4 at mid-span (a node for an even N) */
      g_assert_cmpfloat (fabs (top->value - FL4), <, 0.01 * FL4);
      if (sizes[k] % 2 == 0)
        g_assert_cmpfloat (fabs (top->s - 0.5), <, 1e-9);
      /* the same value read at s = 0.5 off the system, for probes */
      g_assert_cmpfloat (fabs (mid[FX_DIAGRAM_M] - top->value), <, 1e-9 * FL4);
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
       * turned sections, N = (F/2) sin theta, theta up to the end slope
       * (about F L^2/(16 EI) = 0.048 rad; read off the frame) */
      double theta_max = 0;
      for (guint i = 0; i < f->n_nodes; i++)
        theta_max = MAX (theta_max, fabs (f->theta[i]));
      g_assert_cmpfloat (theta_max, <, 0.06);
      g_assert_cmpfloat (fx_diagram_max_abs (f, FX_DIAGRAM_VIEW_N), <, 1.01 * 50 * sin (theta_max));
      fx_model_free (m);
    }
}

static void
test_format (void)
{
  char buf[64];
  fx_diagram_format (buf, sizeof buf, 50, FX_DIAGRAM_VIEW_M);
  g_assert_cmpstr (buf, ==, "50.0\u00a0N\u00a0m");
  fx_diagram_format (buf, sizeof buf, -1250, FX_DIAGRAM_VIEW_N);
  g_assert_cmpstr (buf, ==, "\u22121.25\u00a0kN");
  fx_diagram_format (buf, sizeof buf, 0.31249, FX_DIAGRAM_VIEW_M);
  g_assert_cmpstr (buf, ==, "312\u00a0mN\u00a0m");
  /* rounded to 3 digits before the prefix is chosen */
  fx_diagram_format (buf, sizeof buf, 999.7, FX_DIAGRAM_VIEW_V);
  g_assert_cmpstr (buf, ==, "1.00\u00a0kN");
  fx_diagram_format (buf, sizeof buf, 0, FX_DIAGRAM_VIEW_V);
  g_assert_cmpstr (buf, ==, "0\u00a0N");

  FxDiagramView v;
  g_assert_true (fx_diagram_view_parse ("M", &v) && v == FX_DIAGRAM_VIEW_M);
  g_assert_true (fx_diagram_view_parse ("n", &v) && v == FX_DIAGRAM_VIEW_N);
  g_assert_true (fx_diagram_view_parse ("none", &v) && v == FX_DIAGRAM_VIEW_NONE);
  g_assert_false (fx_diagram_view_parse ("moment", &v));
  g_assert_cmpstr (fx_diagram_view_name (FX_DIAGRAM_VIEW_V), ==, "V");
}

/* How many glyphs an SVG of cairo's draws: each is a <use> of a glyph symbol. */
static guint
svg_glyphs (const char *path)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  guint n = 0;
  for (const char *p = text; (p = strstr (p, "xlink:href=\"#glyph")) != NULL; p++)
    n++;
  return n;
}

static void
test_svg_legend (void)
{
  FxModel *m = NULL;
  g_autoptr (FxStepFrame) f = settled_beam (&m, 20, 1, NULL);
  g_autofree char *dir = g_dir_make_tmp ("flexion-diagram-XXXXXX", NULL);
  g_autofree char *with = g_build_filename (dir, "with.svg", NULL);
  g_autofree char *without = g_build_filename (dir, "without.svg", NULL);
  g_autofree char *none = g_build_filename (dir, "none.svg", NULL);
  g_autoptr (GError) error = NULL;
  FxSceneStyle st;
  fx_scene_style_init (&st);
  st.show_causality = FALSE;
  st.diagram = FX_DIAGRAM_VIEW_M;
  g_assert_true (fx_export_scene (m, f, NULL, &st, with, 800, 450, &error));
  st.show_diagram_legend = FALSE;
  g_assert_true (fx_export_scene (m, f, NULL, &st, without, 800, 450, &error));
  st.diagram = FX_DIAGRAM_VIEW_NONE;
  g_assert_true (fx_export_scene (m, f, NULL, &st, none, 800, 450, &error));

  /* the legend's words are in the picture: at least one glyph per letter
   * of its sign rule, beyond those of the diagram's own labels */
  const char *rule = fx_diagram_legend_text (FX_DIAGRAM_VIEW_M);
  guint letters = 0;
  for (const char *p = rule; *p; p = g_utf8_next_char (p))
    letters += g_utf8_get_char (p) != ' ';
  guint n_with = svg_glyphs (with), n_without = svg_glyphs (without), n_none = svg_glyphs (none);
  if (g_test_verbose ())
    g_printerr ("glyphs: %u with legend, %u without, %u no diagram\n", n_with, n_without, n_none);
  g_assert_cmpuint (n_with, >=, n_without + letters);
  /* the diagram's label ("50.0 N m") is there without the legend too */
  g_assert_cmpuint (n_without, >=, n_none + 5);

  for (const char *const *name = (const char *const[]) { "with.svg", "without.svg", "none.svg", NULL }; *name; name++)
    {
      g_autofree char *path = g_build_filename (dir, *name, NULL);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  fx_model_free (m);
}

/* Issue 30 item 5: the auto deflection scale never draws a member bent by
 * more than a tenth of its length. A 10 m beam with a 0.5 m post bowed by
 * 0.4 mm: the model-size rule alone (a tenth of 10 m) would magnify
 * x1000 and draw the post bent by 40 % of its length. */
static void
test_member_fraction (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "A", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 10, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "C", 10, 0.5);
  test_add_link (m, "beam", "A", "B", 10, 1, 1, 1e6, 1e6, 1e3);
  test_add_link (m, "post", "B", "C", 4, 1, 1, 1e6, 1e6, 1e3);
  g_autoptr (FxStepFrame) f = fx_step_frame_new_from_model (m);
  guint mid = f->node_offset[1] + 2;
  f->x[mid] += 4e-4;

  double worst = fx_deflection_max (m, f), ratio = fx_deflection_max_ratio (m, f);
  /* 4e-4 to second order: the bowed post's arc length grows by ~d^2/h,
   * which moves the reference points along the root tangent */
  g_assert_cmpfloat (fabs (worst - 4e-4), <, 1e-8);
  g_assert_cmpfloat (fabs (ratio - 4e-4 / 0.5), <, 1e-7);
  g_assert_cmpfloat (fx_deflection_auto_scale (worst, 10), ==, 1000);
  double scale = fx_deflection_auto_scale_members (worst, 10, ratio);
  g_assert_cmpfloat (scale, ==, 100);
  /* drawn magnified, the post is bent by 8 % of its length, not 80 % */
  g_autoptr (FxStepFrame) shown = fx_deflection_magnify (m, f, scale);
  double bent = fx_deflection_max_ratio (m, shown);
  g_assert_cmpfloat (bent, <=, FX_DEFLECTION_MEMBER_FRACTION);
  g_assert_cmpfloat (bent, >, 0.5 * FX_DEFLECTION_MEMBER_FRACTION);
  /* the picture says it is magnified */
  g_autofree char *label = fx_deflection_label (scale);
  g_assert_nonnull (label);
  g_assert_nonnull (strstr (label, "100"));
  /* no member limit asked: the model-size rule */
  g_assert_cmpfloat (fx_deflection_auto_scale_members (worst, 10, 0), ==, 1000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diagram/simply-supported-moment", test_simply_supported_moment);
  g_test_add_func ("/diagram/format", test_format);
  g_test_add_func ("/diagram/svg-legend", test_svg_legend);
  g_test_add_func ("/deflection/member-fraction", test_member_fraction);
  return g_test_run ();
}
