/* test-model-broken.c: every tests/broken/NN-name.flexion must fail to load
 * with a PARSE or INVALID error whose message contains the text of its
 * sibling NN-name.expect (one line; surrounding white space ignored). */
#include "fx-model-io.h"

#include <string.h>

#define MIN_BROKEN_FILES 85  /* so that a lost file shows */

static char *
broken_dir (void)
{
  return g_test_build_filename (G_TEST_DIST, "broken", NULL);
}

static char *
expect_path (const char *flexion)
{
  g_autofree char *stem = g_strndup (flexion, strlen (flexion) - strlen (".flexion"));

  return g_strconcat (stem, ".expect", NULL);
}

/* One g_test_message per line keeps the TAP output well formed. */
static void
log_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    g_test_message ("%s", lines[i]);
}

static void
test_broken_file (gconstpointer data)
{
  const char *path = data;
  g_autofree char *expect_file = expect_path (path);
  g_autofree char *expected = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (GError) read_error = NULL;
  FxModel *model;

  g_assert_true (g_file_get_contents (expect_file, &expected, NULL, &read_error));
  g_assert_no_error (read_error);
  g_strstrip (expected);
  g_assert_cmpstr (expected, !=, "");

  model = fx_model_load_file (path, &warnings, &error);
  g_assert_null (model);
  g_assert_nonnull (error);
  g_assert_true (error->domain == FX_MODEL_ERROR);
  g_assert_true (error->code == FX_MODEL_ERROR_PARSE || error->code == FX_MODEL_ERROR_INVALID);
  log_lines (error->message);
  if (strstr (error->message, expected) == NULL)
    {
      g_test_message ("expected \"%s\" in the error above", expected);
      g_test_fail ();
    }
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The .flexion files of the folder, sorted so that the test order is stable. */
static GPtrArray *
list_broken_files (const char *dir)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".flexion"))
      g_ptr_array_add (files, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (files, compare_strings);
  return files;
}

static void
test_enough_files (gconstpointer data)
{
  const GPtrArray *files = data;

  g_assert_cmpuint (files->len, >=, MIN_BROKEN_FILES);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  g_autoptr (GPtrArray) files = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = broken_dir ();
  files = list_broken_files (dir);

  g_test_add_data_func ("/model-broken/count", files, test_enough_files);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *base = g_path_get_basename (files->pdata[i]);
      g_autofree char *test_path = g_strconcat ("/model-broken/", base, NULL);

      g_test_add_data_func (test_path, files->pdata[i], test_broken_file);
    }
  status = g_test_run ();
  return status;
}
