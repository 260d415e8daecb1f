/* bench-render: what one frame of the canvas costs the UI thread.
 *
 * Draws a clamped link of N elements (bent, moments along it) with
 * fx_scene_draw at the canvas's usual size, and a GIF frame's worth of the
 * same, to show the drawing leaves room in a 16.7 ms frame; and the same
 * with the bending-moment diagram over it (the canvas's M view).
 *   build/bench/bench-render [N ...]   (default 10 100 1000 10000)
 */
#include "fx-scene.h"
#include "fx-plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double
ms_per_draw (guint elements, int w, int h, FxDiagramView diagram)
{
  g_autoptr (FxModel) m = fx_model_new ();
  FxJoint *a = fx_model_add_joint (m, "A", 0, 0);
  a->support = FX_SUPPORT_CLAMP;
  fx_model_add_joint (m, "B", 1, 0);
  FxLink *l = fx_model_add_link (m, "L", "A", "B", elements);
  fx_section_set_canonical (&l->section, 1, 1e-4, 1e6, 1e6, 10);
  g_autoptr (FxStepFrame) f = fx_step_frame_new_from_model (m);
  for (guint i = 0; i < f->n_nodes; i++)
    {
      f->y[i] = 0.2 * f->x[i] * f->x[i];
      f->moment[i] = sin (6 * f->x[i]);
    }
  /* the diagram's samples (two per node slot, fx-frame.h): the same moments */
  for (guint k = 0; k + 1 < 2 * f->n_nodes; k++)
    f->diagram[FX_DIAGRAM_N_VALUES * k + FX_DIAGRAM_M] = sin (3 * k / (double) f->n_nodes);
  f->moment_max_abs = 1;
  FxSceneStyle st;
  fx_scene_style_init (&st);
  st.diagram = diagram;
  FxView v;
  double box[4];
  fx_scene_bounds (f, box);
  fx_view_fit (&v, box, w, h, 60);
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  fx_scene_draw (cr, m, f, f, &v, &st, w, h);  /* warm the font caches */
  int reps = elements > 5000 ? 10 : 40;
  gint64 t0 = g_get_monotonic_time ();
  for (int k = 0; k < reps; k++)
    fx_scene_draw (cr, m, f, f, &v, &st, w, h);
  double ms = (g_get_monotonic_time () - t0) / 1e3 / reps;
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return ms;
}

int
main (int argc, char **argv)
{
  guint sizes[] = { 10, 100, 1000, 10000 };
  guint n = G_N_ELEMENTS (sizes);
  if (argc > 1)
    {
      n = MIN ((guint) argc - 1, n);
      for (guint i = 0; i < n; i++)
        sizes[i] = (guint) atoi (argv[i + 1]);
    }
  printf ("%-10s %14s %14s %18s\n", "elements", "1040x470 ms", "1920x1080 ms", "1040x470 + M ms");
  for (guint i = 0; i < n; i++)
    printf ("%-10u %14.2f %14.2f %18.2f\n", sizes[i],
            ms_per_draw (sizes[i], 1040, 470, FX_DIAGRAM_VIEW_NONE),
            ms_per_draw (sizes[i], 1920, 1080, FX_DIAGRAM_VIEW_NONE),
            ms_per_draw (sizes[i], 1040, 470, FX_DIAGRAM_VIEW_M));
  return 0;
}
