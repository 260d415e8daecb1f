/* fx-csv.c: RFC 4180 fields and CSV files written beside their target. */
#define _POSIX_C_SOURCE 200809L  /* fsync, fileno */
#include "fx-csv.h"
#include "fx-output.h"

#include <glib/gstdio.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
append_quoted (GString *out, const char *prefix, const char *suffix)
{
  const char *parts[2] = { prefix, suffix };
  const char *first = prefix && *prefix ? prefix : suffix;
  /* a cell that starts like a formula would run as one in a spreadsheet:
   * it is quoted and starts with an apostrophe (OWASP's CSV injection) */
  gboolean formula = first && *first && strchr ("=+-@\t\r", *first) != NULL;
  gboolean quote = formula;

  for (guint k = 0; k < 2; k++)
    quote = quote || (parts[k] && strpbrk (parts[k], ",\"\r\n") != NULL);
  if (!quote)
    {
      g_string_append (out, prefix ? prefix : "");
      g_string_append (out, suffix ? suffix : "");
      return;
    }
  g_string_append_c (out, '"');
  if (formula)
    g_string_append_c (out, '\'');
  for (guint k = 0; k < 2; k++)
    for (const char *p = parts[k]; p && *p; p++)
      {
        if (*p == '"')
          g_string_append_c (out, '"');
        g_string_append_c (out, *p);
      }
  g_string_append_c (out, '"');
}

void
fx_csv_append_field (GString *out, const char *text)
{
  append_quoted (out, text, NULL);
}

void
fx_csv_append_field2 (GString *out, const char *prefix, const char *suffix)
{
  append_quoted (out, prefix, suffix);
}

struct _FxCsvFile {
  FxOutput *out;    /* the temporary beside the target, or a device written in place */
  FILE *f;
  int saved_errno;  /* of the first failed write, 0 if none */
};

FxCsvFile *
fx_csv_file_new (const char *path, GError **error)
{
  FxOutput *out = fx_output_new (path, error);

  if (out == NULL)
    return NULL;
  FILE *f = g_fopen (fx_output_file (out), "w");
  if (f == NULL)
    {
      fx_output_set_error (error, path, errno);
      fx_output_abort (out);
      return NULL;
    }
  FxCsvFile *file = g_new0 (FxCsvFile, 1);
  file->out = out;
  file->f = f;
  return file;
}

gboolean
fx_csv_file_write (FxCsvFile *file, const char *data, gsize length)
{
  if (file->saved_errno == 0 && length > 0 && fwrite (data, 1, length, file->f) != length)
    file->saved_errno = errno ? errno : EIO;
  return file->saved_errno == 0;
}

gboolean
fx_csv_file_printf (FxCsvFile *file, const char *format, ...)
{
  va_list args;

  if (file->saved_errno != 0)
    return FALSE;
  va_start (args, format);
  int n = vfprintf (file->f, format, args);
  va_end (args);
  if (n < 0)
    file->saved_errno = errno ? errno : EIO;
  return file->saved_errno == 0;
}

gboolean
fx_csv_file_failed (const FxCsvFile *file)
{
  return file->saved_errno != 0;
}

void
fx_csv_file_abort (FxCsvFile *file)
{
  if (file == NULL)
    return;
  if (file->f)
    fclose (file->f);
  fx_output_abort (file->out);
  g_free (file);
}

gboolean
fx_csv_file_commit (FxCsvFile *file, GError **error)
{
  int saved = file->saved_errno;

  /* the data reaches the disk before the rename makes it the target (a
   * device or a FIFO has nothing to sync) */
  if (saved == 0 && fflush (file->f) != 0)
    saved = errno ? errno : EIO;
  if (saved == 0 && !fx_output_is_direct (file->out) && fsync (fileno (file->f)) != 0)
    saved = errno ? errno : EIO;
  if (fclose (file->f) != 0 && saved == 0)
    saved = errno ? errno : EIO;
  file->f = NULL;
  if (saved != 0)
    {
      fx_output_set_error (error, fx_output_target (file->out), saved);
      fx_csv_file_abort (file);
      return FALSE;
    }
  gboolean ok = fx_output_commit (g_steal_pointer (&file->out), error);
  g_free (file);
  return ok;
}

void
fx_csv_append_number (GString *out, double value)
{
  if (isfinite (value))
    g_string_append_printf (out, ",%.17g", value);
  else
    g_string_append_c (out, ',');
}
