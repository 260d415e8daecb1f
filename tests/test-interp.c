/* test-interp.c: tabulated profiles go through GSL's linear interpolation
 * (fx-model.c), held at the table's ends; a repeated time is a jump. */
#include "fx-model.h"

#include <math.h>

static void
test_table_profile (void)
{
  const double t[] = { 0.0, 1.0, 3.0, 3.0, 4.0 };
  const double v[] = { 2.0, 4.0, 0.0, 10.0, 20.0 };
  FxProfile p = { 0 };

  fx_profile_set_table (&p, G_N_ELEMENTS (t), t, v);
  g_assert_cmpfloat (fx_profile_eval (&p, -1.0), ==, 2.0);   /* held before   */
  g_assert_cmpfloat (fx_profile_eval (&p, 0.0), ==, 2.0);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 0.25), 2.5, 1e-15);
  g_assert_cmpfloat (fx_profile_eval (&p, 1.0), ==, 4.0);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 2.5), 1.0, 1e-15);
  g_assert_cmpfloat_with_epsilon (fx_profile_eval (&p, 3.5), 15.0, 1e-15);  /* after the jump */
  g_assert_cmpfloat (fx_profile_eval (&p, 4.0), ==, 20.0);
  g_assert_cmpfloat (fx_profile_eval (&p, 9.0), ==, 20.0);   /* held after    */
  g_assert_cmpfloat (fx_profile_eval (&p, NAN), ==, 2.0);
  g_free (p.table_t);
  g_free (p.table_value);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/table", test_table_profile);
  return g_test_run ();
}
