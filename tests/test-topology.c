/* test-topology.c: drawn structures whose junctions join distant links.
 *
 * A 10-panel Warren truss and a 6 x 6 welded lattice, struck: every step
 * balances to 1e-10 E_scale, and the banded and the sparse solver paths give
 * the same trajectories (to 1e-9 m), whichever the engine would choose. */
#include "fx-integrator.h"
#include "structures.h"

#include <math.h>

enum { STEPS = 30 };

/* Positions of every node after STEPS steps on one solver path. */
static GArray *
run_on (FxModel *m, FxMatrixKind kind, double *worst_balance)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  fx_integrator_set_matrix_kind (it, kind);
  g_test_message ("%s", fx_integrator_describe_solver (it));
  FxStepReport rep;
  double e_scale = 0, supplied = 0;

  *worst_balance = 0;
  for (guint k = 0; k < STEPS; k++)
    {
      g_assert_true (fx_integrator_step (it, m->dt, &rep, &error));
      supplied += rep.supplied;
      e_scale = MAX (e_scale, MAX (fabs (rep.H), MAX (fabs (supplied), rep.kinetic)));
      *worst_balance = MAX (*worst_balance, fabs (rep.balance));
    }
  g_assert_cmpfloat (e_scale, >, 0.0);
  *worst_balance /= e_scale;

  GArray *xy = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint l = 0; l < fx_system_n_links (sys); l++)
    for (guint i = 0; i <= fx_system_link_elements (sys, l); i++)
      {
        double x, y, theta, moment;
        fx_system_node (sys, l, i, &x, &y, &theta, &moment);
        g_array_append_val (xy, x);
        g_array_append_val (xy, y);
      }
  return xy;
}

static void
check_paths_agree (FxModel *m)
{
  double bal_band, bal_sparse, moved = 0, differ = 0;
  g_autoptr (FxModel) ref = fx_model_copy (m);
  g_autoptr (GArray) band = run_on (m, FX_MATRIX_BANDED, &bal_band);
  g_autoptr (GArray) sparse = run_on (m, FX_MATRIX_SPARSE, &bal_sparse);

  for (guint i = 0; i < band->len; i++)
    differ = MAX (differ, fabs (g_array_index (band, double, i) - g_array_index (sparse, double, i)));
  /* the blow must have moved something, or the comparison says nothing */
  g_autoptr (GError) error = NULL;
  g_autoptr (FxSystem) rest = fx_system_new (ref, &error);
  guint k = 0;
  for (guint l = 0; l < fx_system_n_links (rest); l++)
    for (guint i = 0; i <= fx_system_link_elements (rest, l); i++, k += 2)
      {
        double x, y, theta, moment;
        fx_system_node (rest, l, i, &x, &y, &theta, &moment);
        moved = MAX (moved, hypot (x - g_array_index (band, double, k),
                                   y - g_array_index (band, double, k + 1)));
      }
  g_test_message ("balance/E_scale: banded %.2g, sparse %.2g; paths differ by %.2g m; "
                  "the blow moved a node %.3g m", bal_band, bal_sparse, differ, moved);
  g_assert_cmpfloat (bal_band, <, 1e-10);
  g_assert_cmpfloat (bal_sparse, <, 1e-10);
  g_assert_cmpfloat (moved, >, 1e-7);
  g_assert_cmpfloat (differ, <, 1e-9);
}

static void
test_truss (void)
{
  g_autoptr (FxModel) m = warren (10, 4);
  check_paths_agree (m);
}

static void
test_lattice (void)
{
  g_autoptr (FxModel) m = lattice (6, 4);
  check_paths_agree (m);
}

/* AUTO takes the sparse path for the lattice and the band for a chain. */
static void
test_auto_path (void)
{
  g_autoptr (FxModel) lat = lattice (6, 4), chain = single (200);
  g_autoptr (FxSystem) a = fx_system_new (lat, NULL), b = fx_system_new (chain, NULL);
  g_autoptr (FxIntegrator) ia = fx_integrator_new (a, 1e-12, 20), ib = fx_integrator_new (b, 1e-12, 20);
  g_assert_true (g_str_has_prefix (fx_integrator_describe_solver (ia), "sparse"));
  g_assert_true (g_str_has_prefix (fx_integrator_describe_solver (ib), "banded"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topology/warren-truss", test_truss);
  g_test_add_func ("/topology/welded-lattice", test_lattice);
  g_test_add_func ("/topology/auto-path", test_auto_path);
  return g_test_run ();
}
