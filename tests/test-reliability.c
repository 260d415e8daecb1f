#define _POSIX_C_SOURCE 200809L  /* setrlimit, SIGXFSZ */
/* test-reliability.c: the pieces behind "nothing lost, nothing hangs"
 * (issue 14) that the CLI's tests cannot reach directly:
 *
 * - RFC 4180 fields (fx_csv_append_field), read back by a small RFC 4180
 *   reader here;
 * - FxCsvFile: a commit replaces the target, an abort or a failed write
 *   leaves it as it was, and no temporary stays behind either way;
 * - the memory limit: sizes parse, fx_memory_check names the size, and a
 *   model whose Newton matrix passes the limit is refused by
 *   fx_integrator_prepare (before the first step) and by fx_runner_new
 *   (what Play calls), with the size, never by an abort;
 * - a model without unknowns steps (no memset on NULL under UBSan).
 */
#include "fx-csv.h"
#include "fx-integrator.h"
#include "fx-memory.h"
#include "fx-model-io.h"
#include "fx-runner.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

/* --------------------------------------------------------------- fields */

/* Splits one CSV record (RFC 4180) into its fields. */
static GPtrArray *
read_record (const char *text)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text;; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == '\0' || (!quoted && *p == ','))
        {
          g_ptr_array_add (fields, g_strdup (field->str));
          g_string_truncate (field, 0);
          if (*p == '\0')
            break;
        }
      else
        g_string_append_c (field, *p);
    }
  g_string_free (field, TRUE);
  return fields;
}

static void
test_csv_fields (void)
{
  static const char *const ids[] = {
    "plain", "a,b", "say \"hi\"", "two\nlines", "cr\rlf", "", "ü€", "\"", ",", "trailing ",
  };
  g_autoptr (GString) row = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      if (i > 0)
        g_string_append_c (row, ',');
      fx_csv_append_field (row, ids[i]);
    }
  g_string_append_c (row, ',');
  fx_csv_append_field2 (row, "tip, 1", ".x");

  g_autoptr (GPtrArray) back = read_record (row->str);
  g_assert_cmpuint (back->len, ==, G_N_ELEMENTS (ids) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_cmpstr (g_ptr_array_index (back, i), ==, ids[i]);
  g_assert_cmpstr (g_ptr_array_index (back, G_N_ELEMENTS (ids)), ==, "tip, 1.x");
  /* a plain id stays unquoted, so ordinary files read as before */
  g_assert_true (g_str_has_prefix (row->str, "plain,\"a,b\",\"say \"\"hi\"\"\","));
}

/* ---------------------------------------------------------------- files */

static char *
new_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("flexion-csv-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

static guint
n_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static char *
contents (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_csv_file (void)
{
  g_autofree char *dir = new_dir ();
  g_autofree char *target = g_build_filename (dir, "out.csv", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (target, "old\n", -1, NULL));

  /* aborted: the old file stays, the temporary goes */
  FxCsvFile *f = fx_csv_file_new (target, &error);
  g_assert_no_error (error);
  g_assert_true (fx_csv_file_printf (f, "t,x\n%g,%g\n", 0.5, 1.0));
  g_assert_cmpuint (n_entries (dir), ==, 2);
  fx_csv_file_abort (f);
  g_autofree char *kept = contents (target);
  g_assert_cmpstr (kept, ==, "old\n");
  g_assert_cmpuint (n_entries (dir), ==, 1);

  /* committed: replaced whole */
  f = fx_csv_file_new (target, &error);
  g_assert_no_error (error);
  g_assert_true (fx_csv_file_write (f, "t,x\n", 4));
  g_assert_false (fx_csv_file_failed (f));
  g_assert_true (fx_csv_file_commit (f, &error));
  g_assert_no_error (error);
  g_autofree char *replaced = contents (target);
  g_assert_cmpstr (replaced, ==, "t,x\n");
  g_assert_cmpuint (n_entries (dir), ==, 1);

  /* a target that cannot be written: an error naming it */
  g_autofree char *nowhere = g_build_filename (dir, "missing", "out.csv", NULL);
  g_assert_null (fx_csv_file_new (nowhere, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, nowhere));

  g_unlink (target);
  g_rmdir (dir);
}

/* A write that fails (a full disk; here a file size limit, EFBIG) is
 * kept, and the commit refuses: the target is not replaced. */
static void
test_csv_file_full (void)
{
  g_autofree char *dir = new_dir ();
  g_autofree char *target = g_build_filename (dir, "out.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_set_contents (target, "old\n", -1, NULL));

  FxCsvFile *f = fx_csv_file_new (target, &error);
  g_assert_no_error (error);
  struct rlimit saved, small;
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  small = saved;
  small.rlim_cur = 4096;
  signal (SIGXFSZ, SIG_IGN);  /* a write past the limit fails instead of killing */
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);

  g_autofree char *big = g_strnfill (1 << 16, 'x');
  for (guint i = 0; i < 4; i++)
    fx_csv_file_write (f, big, strlen (big));
  gboolean ok = fx_csv_file_commit (f, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  g_assert_false (ok);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_autofree char *kept = contents (target);
  g_assert_cmpstr (kept, ==, "old\n");
  g_assert_cmpuint (n_entries (dir), ==, 1);
  g_unlink (target);
  g_rmdir (dir);
}

/* --------------------------------------------------------------- memory */

static void
test_memory_sizes (void)
{
  static const struct { const char *text; guint64 bytes; } good[] = {
    { "1000", 1000 }, { "2G", 2ull << 30 }, { "512M", 512ull << 20 }, { "1.5G", 3ull << 29 },
    { "800000k", 800000ull << 10 }, { "1T", 1ull << 40 }, { "2g", 2ull << 30 },
  };
  /* issue 31, item 9: hexadecimal, exponents and a "B" were taken */
  static const char *const bad[] = { "", "0", "-1G", "lots", "1X", "nan", "inf", "1e30", "G",
                                     "0x10", "1e3", "1GB", "1.5GB", "512MB", " 2G", "+2G", "2G ",
                                     "1.5", "1.G", ".5G", "2GG", "0.0001K" };
  guint64 bytes;

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_assert_true (fx_memory_parse_size (good[i].text, &bytes));
      g_assert_cmpuint (bytes, ==, good[i].bytes);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (fx_memory_parse_size (bad[i], &bytes));

  g_autoptr (GError) error = NULL;
  fx_memory_limit_set (1000);
  g_assert_true (fx_memory_check (1000, "x", "y", &error));
  g_assert_false (fx_memory_check (1001, "A record", "keep less", &error));
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  g_assert_true (g_str_has_prefix (error->message, "A record would need "));
  g_assert_true (g_str_has_suffix (error->message, ": keep less"));
  fx_memory_limit_set (0);
}

/* The welded triangle truss with 10,000 elements per link: its Newton
 * matrix used to need tens of GB, which g_malloc aborted on. Under a small
 * limit it is refused when the integrator is prepared (before the first
 * step) and by the runner that Play creates, never by an abort; under a
 * tiny one its system is refused before its arrays grow. */
static FxModel *
big_truss (void)
{
  const char *dir = g_getenv ("FLEXION_EXAMPLES");
  g_autofree char *path = g_build_filename (dir ? dir : "data/examples", "triangle-truss.flexion",
                                            NULL);
  g_autoptr (GError) error = NULL;
  FxModel *m = fx_model_load_file (path, NULL, &error);
  g_assert_no_error (error);
  for (guint l = 0; l < m->links->len; l++)
    g_array_index (m->links, FxLink, l).elements = 10000;
  return m;
}

static void
test_memory_refused (void)
{
  g_autoptr (FxModel) m = big_truss ();
  g_autoptr (GError) error = NULL;

  /* 1 MB: the system's own arrays (45 MB) are refused before they grow */
  fx_memory_limit_set (1u << 20);
  g_assert_null (fx_system_new (m, &error));
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "elements"));
  g_clear_error (&error);

  /* 64 MB: the system fits, its Newton matrix beside it does not */
  fx_memory_limit_set (64u << 20);
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  g_assert_false (fx_integrator_prepare (integ, &error));
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  FxStepReport report;
  g_assert_false (fx_integrator_step (integ, m->dt, &report, &error));
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  g_clear_error (&error);

  /* Play: the runner refuses it at once, with the message for the window */
  g_autoptr (FxRunner) runner = fx_runner_new (m, &error);
  g_assert_null (runner);
  g_assert_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE);
  fx_memory_limit_set (0);
}

/* ------------------------------------------------------------ no unknowns */

static void
test_no_unknowns (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FxModel) m = fx_model_load_data (
    "{\"format\": \"flexion-model\", \"version\": 1, "
    "\"joints\": [{\"id\": \"A\", \"at\": [0, 0], \"support\": \"clamp\"}]}", -1, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (FxSystem) sys = fx_system_new (m, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fx_system_n_unknowns (sys), ==, 0);
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, m->tolerance, m->max_iterations);
  FxStepReport report;
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (fx_integrator_step (integ, m->dt, &report, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpfloat (report.H, ==, 0.0);
  g_assert_cmpfloat (report.balance, ==, 0.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/reliability/csv-fields", test_csv_fields);
  g_test_add_func ("/reliability/csv-file", test_csv_file);
  g_test_add_func ("/reliability/csv-file-full", test_csv_file_full);
  g_test_add_func ("/reliability/memory-sizes", test_memory_sizes);
  g_test_add_func ("/reliability/memory-refused", test_memory_refused);
  g_test_add_func ("/reliability/no-unknowns", test_no_unknowns);
  return g_test_run ();
}
