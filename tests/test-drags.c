/* test-drags.c: drags (docs/theory.md §6) and substeps (§7).
 *
 * - a scripted drag at 1 m/s on a slender four-bar drawn as a user would
 *   (steel 20 x 10 mm, 8 elements a link): it runs through, every step
 *   balances to 1e-10 E_scale, and without a damper the supplied work is the
 *   anchor's work k delta_mid . (a_{n+1} - a_n) step by step;
 * - letting go books the spring's energy as (negative) supplied work;
 * - a drag of a massless link takes its stiffness from the masses it carries;
 * - the file format keeps drags;
 * - a step Newton cannot take whole is taken in substeps, balanced; one that
 *   fails even at dt/64 says so.
 */
#include "test-models.h"
#include "fx-system-private.h"

#include <string.h>

static FxModel *
drawn_four_bar (void)
{
  FxModel *m = fx_model_new ();
  fx_model_add_joint (m, "A", 0.0, 0.0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "B", 0.3, 0.4);
  fx_model_add_joint (m, "C", 0.9, 0.5);
  fx_model_add_joint (m, "D", 1.0, 0.0)->support = FX_SUPPORT_PIN;
  const char *ends[3][3] = { { "crank", "A", "B" }, { "coupler", "B", "C" }, { "rocker", "C", "D" } };
  for (guint i = 0; i < 3; i++)
    {
      FxLink *l = fx_model_add_link (m, ends[i][0], ends[i][1], ends[i][2], 8);
      l->section.E = 210e9;
      l->section.nu = 0.3;
      l->section.rho = 7850;
      l->section.shape = FX_SHAPE_RECTANGLE;
      l->section.width = 0.02;
      l->section.height = 0.01;
      fx_section_derive (&l->section);
    }
  m->dt = 0.01;
  return m;
}

/* The coupler's middle pulled straight up by 0.8 m at 1 m/s, then held. */
static FxDrag *
pull_coupler (FxModel *m)
{
  FxDrag *d = fx_model_add_drag (m, "hand", "coupler", 0.5, NULL);
  double t[2] = { 0.0, 0.8 }, x[2] = { 0.6, 0.6 }, y[2] = { 0.45, 1.25 };
  fx_drag_set_path (d, 2, t, x, y);
  return d;
}

typedef struct {
  double e_scale, worst, supplied, anchor_work;
  guint max_substeps;
} RunBooks;

/* Steps the model to t_end, checking the books; with `anchor` the anchor's
 * work of drag 0 is summed from its spring force (valid without a damper). */
static RunBooks
run (FxModel *m, double t_end, gboolean anchor)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  RunBooks b = { 0 };
  FxStepReport rep;

  fx_integrator_report (it, &rep);
  b.e_scale = fabs (rep.H);
  while (fx_system_time (sys) < t_end - 1e-9)
    {
      double t0 = fx_system_time (sys), delta0[2] = { 0, 0 }, a0[2] = { 0, 0 };
      const FxDragSys *d = sys->drags->len ? &g_array_index (sys->drags, FxDragSys, 0) : NULL;
      if (anchor && d)
        {
          memcpy (delta0, &sys->x[d->dof], sizeof delta0);
          a0[0] = d->path_x[0] + (d->path_x[1] - d->path_x[0]) * MIN (t0 / d->path_t[1], 1.0);
          a0[1] = d->path_y[0] + (d->path_y[1] - d->path_y[0]) * MIN (t0 / d->path_t[1], 1.0);
        }
      g_assert_true (fx_integrator_step (it, m->dt, &rep, &error));
      g_assert_no_error (error);
      b.supplied += rep.supplied;
      b.max_substeps = MAX (b.max_substeps, rep.substeps);
      b.e_scale = MAX (b.e_scale, MAX (fabs (rep.H), MAX (fabs (b.supplied), rep.kinetic)));
      b.worst = MAX (b.worst, fabs (rep.balance));
      if (anchor && d)
        {
          double t1 = fx_system_time (sys), a1[2];
          a1[0] = d->path_x[0] + (d->path_x[1] - d->path_x[0]) * MIN (t1 / d->path_t[1], 1.0);
          a1[1] = d->path_y[0] + (d->path_y[1] - d->path_y[0]) * MIN (t1 / d->path_t[1], 1.0);
          for (guint i = 0; i < 2; i++)
            b.anchor_work += d->k * 0.5 * (delta0[i] + sys->x[d->dof + i]) * (a1[i] - a0[i]);
        }
    }
  return b;
}

static void
test_pull_four_bar (void)
{
  g_autoptr (FxModel) m = drawn_four_bar ();
  pull_coupler (m);
  RunBooks b = run (m, 1.5, FALSE);
  g_test_message ("pull: supplied %.6g J, max |balance| %.3g of E_scale %.4g J, substeps <= %u",
                  b.supplied, b.worst / b.e_scale, b.e_scale, b.max_substeps);
  g_assert_cmpfloat (b.supplied, >, 0.0);
  g_assert_cmpfloat (b.worst, <, 1e-10 * b.e_scale);
}

static void
test_anchor_work (void)
{
  g_autoptr (FxModel) m = drawn_four_bar ();
  pull_coupler (m)->damping_ratio = 0.0;
  m->gravity[1] = 0.0;
  RunBooks b = run (m, 1.0, TRUE);
  g_test_message ("supplied %.12g J, anchor's work %.12g J", b.supplied, b.anchor_work);
  g_assert_cmpfloat (b.anchor_work, >, 0.0);
  g_assert_cmpfloat (fabs (b.supplied - b.anchor_work), <, 1e-10 * b.e_scale);
  g_assert_cmpfloat (b.worst, <, 1e-10 * b.e_scale);
}

/* Let go at 0.5 s while the spring is stretched: the next step books
 * -1/2 k |delta|^2 and the books still close. */
static void
test_release (void)
{
  g_autoptr (FxModel) m = drawn_four_bar ();
  pull_coupler (m)->release = 0.5;
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  FxStepReport rep;
  double spring = 0.0;

  for (guint k = 0; k < 80; k++)
    {
      double t0 = fx_system_time (sys);
      gboolean releasing = fabs (t0 - 0.5) < 1e-9;
      if (releasing)
        spring = fx_drags_energy (sys);
      g_assert_true (fx_integrator_step (it, m->dt, &rep, &error));
      if (releasing)
        {
          g_assert_cmpfloat (spring, >, 0.0);
          g_assert_cmpfloat (fabs (rep.supplied + spring), <, 1e-9 * spring);
        }
      else if (t0 > 0.5)
        g_assert_cmpfloat (rep.supplied, ==, 0.0);
      g_assert_cmpfloat (fabs (rep.balance), <, 1e-10 * MAX (fabs (rep.H), 1.0));
    }
  g_assert_cmpfloat (fx_drags_energy (sys), ==, 0.0);
}

/* A massless rigid pendulum rod carrying 2 kg at its tip. */
static void
test_massless_stiffness (void)
{
  g_autoptr (FxModel) m = fx_model_new ();
  fx_model_add_joint (m, "O", 0, 0)->support = FX_SUPPORT_PIN;
  fx_model_add_joint (m, "P", 1, 0)->mass = 2.0;
  FxLink *l = test_add_link (m, "rod", "O", "P", 2, 0.0, 0.0, 1e8, 1e8, 1e6);
  l->formulation = FX_FORMULATION_PINNED;
  FxDrag *d = fx_model_add_drag (m, "hand", "rod", 0.5, NULL);
  double t = 0, x = 0.5, y = 0.3;
  fx_drag_set_path (d, 1, &t, &x, &y);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  const FxDragSys *ds = &g_array_index (sys->drags, FxDragSys, 0);
  double omega = 2 * G_PI * FX_DRAG_DEFAULT_FREQUENCY;
  g_assert_cmpfloat (fabs (ds->k - 2.0 * omega * omega), <, 1e-9 * ds->k);
  g_assert_cmpfloat (ds->c, >, 0.0);
  /* started 0.3 m away from the point: the spring is stretched and pulls */
  g_assert_cmpfloat (fabs (sys->x[ds->dof + 1] - 0.3), <, 1e-12);
  RunBooks b = run (m, 0.3, FALSE);
  g_assert_cmpfloat (b.worst, <, 1e-10 * b.e_scale);
}

static void
test_format (void)
{
  g_autoptr (FxModel) m = drawn_four_bar ();
  FxDrag *d = pull_coupler (m);
  d->frequency = 3.0;
  d->release = 1.25;
  fx_model_add_drag (m, NULL, NULL, 0.0, "C")->n_path = 0;
  fx_drag_set_path (fx_model_drag (m, 1), 1, (double[]) { 0.0 }, (double[]) { 1.0 },
                    (double[]) { 0.6 });
  gsize len;
  g_autofree char *text = fx_model_to_data (m, &len);
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) back = fx_model_load_data (text, (gssize) len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->drags->len, ==, 2);
  const FxDrag *a = fx_model_drag (back, 0), *b = fx_model_drag (back, 1);
  g_assert_cmpstr (a->link, ==, "coupler");
  g_assert_cmpfloat (a->s, ==, 0.5);
  g_assert_cmpuint (a->n_path, ==, 2);
  g_assert_cmpfloat (a->path_y[1], ==, 1.25);
  g_assert_cmpfloat (a->frequency, ==, 3.0);
  g_assert_cmpfloat (a->damping_ratio, ==, FX_DRAG_DEFAULT_DAMPING_RATIO);
  g_assert_cmpfloat (a->release, ==, 1.25);
  g_assert_cmpstr (b->joint, ==, "C");
  g_assert_null (b->link);
  g_assert_true (isinf (b->release));

  /* refused: both link and joint, times not rising, no path */
  static const char *bad[] = {
    "\"drags\": [{\"link\": \"coupler\", \"s\": 0.5, \"joint\": \"C\", \"path\": [[0, 1, 1]]}]",
    "\"drags\": [{\"link\": \"coupler\", \"s\": 0.5, \"path\": [[0, 1, 1], [0, 2, 2]]}]",
    "\"drags\": [{\"joint\": \"C\", \"path\": []}]",
    "\"drags\": [{\"joint\": \"C\", \"path\": [[0, 1, 1]], \"frequency\": 0}]",
    "\"drags\": [{\"joint\": \"C\", \"path\": [[0, 1, 1]], \"frequency\": 1e30}]",
    "\"drags\": [{\"joint\": \"C\", \"path\": [[0, 1, 1], [1, 1e300, 1]]}]",
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GString) doc = g_string_new (text);
      char *brace = strrchr (doc->str, '}');
      g_string_truncate (doc, (gsize) (brace - doc->str));
      g_string_append_printf (doc, ", %s}", bad[i]);
      /* the written model already has "drags": replace them */
      char *first = strstr (doc->str, "\"drags\"");
      char *second = strstr (first + 1, "\"drags\"");
      g_string_erase (doc, first - doc->str, second - first);
      g_autoptr (GError) e = NULL;
      g_autoptr (FxModel) refused = fx_model_load_data (doc->str, -1, NULL, &e);
      g_assert_null (refused);
      g_assert_nonnull (strstr (e->message, "drags[0]"));
    }
}

/* The flying spaghetti allowed only 2 Newton iterations a step: steps are
 * taken in substeps, each balanced. */
static void
test_substeps (void)
{
  g_autoptr (FxModel) m = test_load_example ("flying-spaghetti.flexion");
  m->max_iterations = 2;
  RunBooks b = run (m, 3.0, FALSE);
  g_test_message ("substeps up to %u, max |balance| %.3g of E_scale", b.max_substeps,
                  b.worst / b.e_scale);
  g_assert_cmpuint (b.max_substeps, >, 1);
  g_assert_cmpfloat (b.worst, <, 1e-10 * b.e_scale);
}

static void
test_substeps_fail (void)
{
  g_autoptr (FxModel) m = test_load_example ("flying-spaghetti.flexion");
  g_autoptr (GError) error = NULL;
  m->dt = 0.1;  /* the published step: its finest substep is 2.44e-5 s */
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-300, 1);
  FxStepReport rep;

  g_assert_false (fx_integrator_step (it, m->dt, &rep, &error));
  g_assert_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_DIVERGED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "t = 0 s"));
  g_assert_nonnull (strstr (error->message, "substeps of 2.44e-05 s (dt / 4096"));
  g_assert_nonnull (strstr (error->message, "residual"));
  g_assert_cmpfloat (fx_system_time (sys), ==, 0.0);  /* left at the last good state */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/drags/pull-four-bar", test_pull_four_bar);
  g_test_add_func ("/drags/anchor-work", test_anchor_work);
  g_test_add_func ("/drags/release", test_release);
  g_test_add_func ("/drags/massless-stiffness", test_massless_stiffness);
  g_test_add_func ("/drags/format", test_format);
  g_test_add_func ("/substeps/run-through", test_substeps);
  g_test_add_func ("/substeps/fail", test_substeps_fail);
  return g_test_run ();
}
