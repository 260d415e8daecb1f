/* fx-model-io.c: the `.flexion` file format; see fx-model-io.h and
 * docs/model-format.md.
 *
 * Loading runs in two passes. The reader walks the JSON and fills an FxModel,
 * reporting what the model cannot hold (wrong JSON types, missing required
 * values, unknown names). The checker then looks at the model alone (ranges,
 * references, duplicates), which is also what fx_model_validate() runs for
 * models built in code. Both report through one Report, which remembers the
 * paths that already have an error so that a bad value is reported once, by
 * whichever pass saw it first.
 */
#include "fx-model-io-private.h"
#include "fx-output.h"
#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (fx-model-error-quark, fx_model_error)

/* ======================================================================== */
/* Public API                                                               */
/* ======================================================================== */

FxModel *
fx_model_load_data (const char *data, gssize length, GPtrArray **warnings, GError **error)
{
  g_autoptr (JsonNode) root = NULL;
  FxModel *model = NULL;
  Report r;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fx_io_report_init (&r);
  if (data == NULL)
    data = "", length = 0;
  if (length < 0)
    length = (gssize) strlen (data);

  root = fx_io_parse_json (&r, data, (gsize) length);
  if (root != NULL)
    model = fx_io_read_model (&r, root);
  /* Past the cap the checker would only add noise to a hopeless file. */
  if (model != NULL && r.n_errors < MAX_MESSAGES)
    fx_io_check_model (&r, model);
  if (!fx_io_report_finish (&r, warnings, error))
    g_clear_pointer (&model, fx_model_free);
  return model;
}

/* Reads a model file: a regular file (a FIFO or a device such as /dev/zero
 * would block or never end) of at most FX_MODEL_MAX_FILE_SIZE bytes. The
 * file is opened without blocking, then checked on its descriptor, so that
 * nothing swapped in between is read. */
static gboolean
read_model_file (const char *filename, char **data, gsize *length, GError **error)
{
  struct stat st;
  int fd = g_open (filename, O_RDONLY | O_NONBLOCK, 0);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO, _("Cannot open “%s”: %s"),
                   filename, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                   _("“%s” is not a regular file (a model is read from an ordinary file)"),
                   filename);
      close (fd);
      return FALSE;
    }
  if (st.st_size > FX_MODEL_MAX_FILE_SIZE)
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                   _("“%s” is %.0f MB; model files are limited to %d MB"), filename,
                   st.st_size / 1048576.0, FX_MODEL_MAX_FILE_SIZE >> 20);
      close (fd);
      return FALSE;
    }

  /* one byte more than the limit shows a file that grew meanwhile */
  gsize cap = (gsize) st.st_size + 1, n = 0;
  g_autofree char *buf = g_malloc (cap + 1);
  for (;;)
    {
      gssize got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;
          g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO, _("Cannot read “%s”: %s"),
                       filename, g_strerror (saved));
          close (fd);
          return FALSE;
        }
      if (got == 0)
        break;
      n += (gsize) got;
      if (n == cap)
        {
          if (cap > FX_MODEL_MAX_FILE_SIZE)
            {
              g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                           _("“%s” is larger than %d MB, the limit for model files"), filename,
                           FX_MODEL_MAX_FILE_SIZE >> 20);
              close (fd);
              return FALSE;
            }
          cap = MIN (2 * cap, (gsize) FX_MODEL_MAX_FILE_SIZE + 1);
          buf = g_realloc (buf, cap + 1);
        }
    }
  close (fd);
  buf[n] = '\0';
  *data = g_steal_pointer (&buf);
  *length = n;
  return TRUE;
}

FxModel *
fx_model_load_file (const char *filename, GPtrArray **warnings, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_model_file (filename, &data, &length, error))
    {
      if (warnings != NULL)
        *warnings = g_ptr_array_new_with_free_func (g_free);
      return NULL;
    }
  return fx_model_load_data (data, length, warnings, error);
}

char *
fx_model_to_data (const FxModel *model, gsize *length)
{
  g_autoptr (JsonNode) root = NULL;
  GString *out;

  g_return_val_if_fail (model != NULL, NULL);

  root = fx_io_model_node (model);
  out = g_string_new (NULL);
  fx_io_write_pretty (out, root, 0, TRUE);
  g_string_append_c (out, '\n');
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

gboolean
fx_model_save_file (const FxModel *model, const char *filename, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize length;

  g_return_val_if_fail (model != NULL && filename != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = fx_model_to_data (model, &length);
  /* fx_output_set_contents() writes a temporary file beside the target and
   * renames it over, so a failed save leaves the old file whole. */
  if (!fx_output_set_contents (filename, data, length, &local))
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO, _("Cannot save “%s”: %s"),
                   filename, local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
fx_model_validate (const FxModel *model, GError **error)
{
  Report r;

  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  fx_io_report_init (&r);
  fx_io_check_model (&r, model);
  return fx_io_report_finish (&r, NULL, error);
}

