/* test-libflexion.c: libflexion-1's C API on its own, so that the sanitizer
 * builds (which cannot load it into Python) check it for leaks and undefined
 * behaviour too; tests/python holds it to flexion-cli's numbers. */
#include <flexion.h>
#include <math.h>
#include <string.h>

static char *
example (const char *name)
{
  return g_build_filename (g_getenv ("FLEXION_EXAMPLES"), name, NULL);
}

static FlexionModel *
load (const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = example (name);
  FlexionModel *model = flexion_model_new_from_file (path, &error);

  g_assert_no_error (error);
  return model;
}

static void
test_model_values (void)
{
  g_autoptr (FlexionModel) model = load ("cantilever.flexion");
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) links = flexion_model_list_links (model);
  g_autofree char *json = NULL, *support = NULL;
  double x, y;

  g_assert_cmpstrv (links, ((const char *[]) { "beam", NULL }));
  g_assert_cmpuint (flexion_model_get_link_elements (model, "beam", &error), ==, 20);
  /* rectangle 0.02 x 0.01 of E = 7e10: EI = E w h^3 / 12 */
  g_assert_cmpfloat_with_epsilon (flexion_model_get_link_value (model, "beam", "EI", &error),
                                  7e10 * 0.02 * 1e-6 / 12, 1e-9);
  g_assert_no_error (error);

  g_assert_false (flexion_model_set_link_elements (model, "beam", 0, &error));
  g_assert_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "links[0].elements"));
  g_clear_error (&error);
  g_assert_cmpuint (flexion_model_get_link_elements (model, "beam", NULL), ==, 20);

  g_assert_false (flexion_model_get_joint_position (model, "nowhere", &x, &y, &error));
  g_assert_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_assert_true (flexion_model_set_joint_position (model, "tip", 2.0, 0.0, &error));
  g_assert_cmpfloat (flexion_model_get_link_length (model, "beam", NULL), ==, 2.0);
  g_assert_true (flexion_model_set_joint_support (model, "tip", "pin", &error));
  support = flexion_model_get_joint_support (model, "tip", &error);
  g_assert_cmpstr (support, ==, "pin");
  g_assert_no_error (error);

  {
    g_autofree char *profile = flexion_model_get_load_profile (model, "pluck", &error);
    g_assert_cmpstr (profile, ==, "hat");
    g_assert_false (flexion_model_set_load_profile_value (model, "pluck", "t2", 0.005, &error));
    g_assert_error (error, FLEXION_ERROR, FLEXION_ERROR_INVALID);
    g_clear_error (&error);
    g_assert_true (flexion_model_set_load_profile_value (model, "pluck", "t2", 0.03, &error));
    g_assert_cmpfloat (flexion_model_get_load_profile_value (model, "pluck", "t2", NULL), ==, 0.03);
  }

  json = flexion_model_to_json (model);
  {
    g_autoptr (FlexionModel) again = flexion_model_new_from_json (json, &error);
    g_autofree char *json2 = NULL;
    g_assert_no_error (error);
    json2 = flexion_model_to_json (again);
    g_assert_cmpstr (json, ==, json2);
  }
}

static void
test_simulation (void)
{
  g_autoptr (FlexionModel) model = load ("double-pendulum.flexion");
  g_autoptr (GError) error = NULL;
  g_autoptr (FlexionSimulation) sim = flexion_simulation_new (model, NULL, &error);
  g_autofree double *H = NULL, *balance = NULL, *nodes = NULL;
  g_auto (GStrv) links = flexion_model_list_links (model);
  gsize n, n_balance, n_nodes;
  double worst = 0, scale = 0;

  g_assert_no_error (error);
  g_assert_true (flexion_simulation_run_until (sim, 0.1, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (flexion_simulation_get_n_frames (sim), >, 1);
  H = flexion_simulation_get_series (sim, "H", &n, &error);
  balance = flexion_simulation_get_series (sim, "balance", &n_balance, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, flexion_simulation_get_n_frames (sim));
  g_assert_cmpuint (n_balance, ==, n);
  for (gsize i = 0; i < n; i++)
    {
      worst = MAX (worst, fabs (balance[i]));
      scale = MAX (scale, fabs (H[i]));
    }
  scale = MAX (scale, flexion_simulation_get_kinetic_energy (sim));
  g_assert_cmpfloat (worst, <, 1e-10 * scale);

  nodes = flexion_simulation_get_link_nodes (sim, links[0], FLEXION_NODE_VALUE_X, &n_nodes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_nodes, ==, flexion_model_get_link_elements (model, links[0], NULL) + 1);

  g_assert_null (flexion_simulation_get_series (sim, "nonsense", &n, &error));
  g_assert_error (error, FLEXION_ERROR, FLEXION_ERROR_NOT_FOUND);
}

static void
test_cancelled (void)
{
  g_autoptr (FlexionModel) model = load ("cantilever.flexion");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FlexionSimulation) sim = flexion_simulation_new (model, NULL, &error);

  g_assert_no_error (error);
  g_cancellable_cancel (cancellable);
  g_assert_false (flexion_simulation_run (sim, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (flexion_simulation_get_n_frames (sim), ==, 1);
}

static void
test_modes_and_ensemble (void)
{
  g_autoptr (FlexionModel) model = load ("cantilever.flexion");
  g_autoptr (FlexionModel) noisy = load ("stochastic-spaghetti.flexion");
  g_autoptr (GError) error = NULL;
  g_autoptr (FlexionModes) modes = flexion_modes_new (model, 2, NULL, &error);
  g_autoptr (FlexionEnsemble) ensemble = NULL;
  g_autofree double *f = NULL, *mean = NULL;
  gsize n;

  g_assert_no_error (error);
  f = flexion_modes_get_frequencies (modes, FLEXION_MODE_KIND_VIBRATION, &n);
  g_assert_cmpuint (n, ==, 2);
  /* Euler-Bernoulli's first cantilever mode, 8.225 Hz: within a mesh's error */
  g_assert_cmpfloat (fabs (f[0] - 8.2252) / 8.2252, <, 1e-3);

  g_assert_true (flexion_model_set_end_time (noisy, 0.05, &error));
  ensemble = flexion_ensemble_new (noisy, 3, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (flexion_ensemble_get_n_ok (ensemble), ==, 3);
  mean = flexion_ensemble_get_mean (ensemble, "H", &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, >, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/libflexion/model-values", test_model_values);
  g_test_add_func ("/libflexion/simulation", test_simulation);
  g_test_add_func ("/libflexion/cancelled", test_cancelled);
  g_test_add_func ("/libflexion/modes-and-ensemble", test_modes_and_ensemble);
  return g_test_run ();
}
