/* test-labels.c: what the canvas writes and draws for a lesson (issue 32):
 * values beside its arrows with three significant digits and an SI prefix,
 * never "5.433e+03" (item 4); mode shapes drawn without a ripple per
 * element (item 9). */
#include "fx-render-private.h"
#include "fx-deflection.h"
#include "fx-modes.h"
#include "fx-model-io.h"

#include <glib.h>
#include <math.h>

static void
test_engineering (void)
{
  static const struct { double v; const char *unit, *text; } cases[] = {
    { 16.83, "N", "16.8 N" },
    { 5433.0, "N m", "5.43 kN m" },
    { 101.8, "N", "102 N" },
    { 999.7, "N", "1.00 kN" },   /* rounded first: no "1e+03", no "1000 N" */
    { 0.1204, "N", "120 mN" },
    { -2.5e6, "N", "\u22122.50 MN" },
    { 1.0, "N", "1.00 N" },
    { 0.0, "N", "0 N" },
    { 6.3e8, "N m", "630 MN m" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[64];
      fx_format_engineering (buf, sizeof buf, cases[i].v, cases[i].unit);
      g_test_message ("%g %s -> %s", cases[i].v, cases[i].unit, buf);
      g_assert_cmpstr (buf, ==, cases[i].text);
    }
  char buf[64];
  fx_format_engineering (buf, sizeof buf, NAN, "N");
  g_assert_cmpstr (buf, ==, "? N");
}

/* How many elements of link l the drawing's Bezier bends into an S: both
 * end tangents turned the same way off the chord (a bow turns them
 * opposite ways), by more than half a degree. */
static guint
s_shaped (const FxStepFrame *f, guint l)
{
  guint n = 0;
  for (guint i = f->node_offset[l]; i + 1 < f->node_offset[l + 1]; i++)
    {
      double chord = atan2 (f->y[i + 1] - f->y[i], f->x[i + 1] - f->x[i]);
      double d0 = remainder (f->theta[i] - chord, 2 * G_PI), d1 = remainder (f->theta[i + 1] - chord, 2 * G_PI);
      if (d0 * d1 > 0 && MIN (fabs (d0), fabs (d1)) > G_PI / 360)
        n++;
    }
  return n;
}

/* The four-bar's mode 1 is one smooth bow of the crank (its nodal values
 * have no change of curvature's sign): drawn with the drawn model's section
 * angles, its elements turned into an S each; with angles along the
 * displaced centreline, none does. */
static void
test_mode_shape_smooth (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), "four-bar.flexion", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_file (path, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (FxModes) modes = fx_modes_compute (m, 3, &error);
  g_assert_no_error (error);
  int one = fx_modes_find (modes, "1", &error);
  g_assert_cmpint (one, >=, 0);
  int crank = fx_model_find_link (m, "crank");
  g_autoptr (FxStepFrame) f = fx_modes_frame (modes, m, (guint) one, 0.25, 0.1 * modes->size);
  guint before = s_shaped (f, (guint) crank), n = f->node_offset[crank + 1] - f->node_offset[crank] - 1;
  fx_mode_frame_smooth_angles (f);
  guint after = s_shaped (f, (guint) crank);
  g_test_message ("crank: %u of %u elements drawn as an S before, %u after", before, n, after);
  g_assert_cmpuint (before, >=, n / 2);
  g_assert_cmpuint (after, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/labels/engineering", test_engineering);
  g_test_add_func ("/labels/mode-shape-smooth", test_mode_shape_smooth);
  return g_test_run ();
}
