/* fx-csv.c: RFC 4180 fields and CSV files written beside their target. */
#define _POSIX_C_SOURCE 200809L  /* fchmod, fsync, fileno */
#include "fx-csv.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
append_quoted (GString *out, const char *prefix, const char *suffix)
{
  const char *parts[2] = { prefix, suffix };
  gboolean quote = FALSE;

  for (guint k = 0; k < 2; k++)
    quote = quote || (parts[k] && strpbrk (parts[k], ",\"\r\n") != NULL);
  if (!quote)
    {
      g_string_append (out, prefix ? prefix : "");
      g_string_append (out, suffix ? suffix : "");
      return;
    }
  g_string_append_c (out, '"');
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
  char *path;
  char *tmp;
  FILE *f;
  int saved_errno;  /* of the first failed write, 0 if none */
};

FxCsvFile *
fx_csv_file_new (const char *path, GError **error)
{
  g_autofree char *tmp = g_strconcat (path, ".part-XXXXXX", NULL);
  int fd = g_mkstemp (tmp);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot write %s: %s"), path, g_strerror (saved));
      return NULL;
    }
  /* mkstemp makes it private; a CSV file is an ordinary file */
  mode_t mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);

  FxCsvFile *file = g_new0 (FxCsvFile, 1);
  file->path = g_strdup (path);
  file->tmp = g_steal_pointer (&tmp);
  file->f = fdopen (fd, "w");
  if (file->f == NULL)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot write %s: %s"), path, g_strerror (saved));
      fx_csv_file_abort (file);
      return NULL;
    }
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

static void
file_free (FxCsvFile *file)
{
  g_free (file->path);
  g_free (file->tmp);
  g_free (file);
}

void
fx_csv_file_abort (FxCsvFile *file)
{
  if (file == NULL)
    return;
  if (file->f)
    fclose (file->f);
  g_unlink (file->tmp);
  file_free (file);
}

gboolean
fx_csv_file_commit (FxCsvFile *file, GError **error)
{
  int saved = file->saved_errno;

  /* the data reaches the disk before the rename makes it the target */
  if (saved == 0 && (fflush (file->f) != 0 || fsync (fileno (file->f)) != 0))
    saved = errno ? errno : EIO;
  if (fclose (file->f) != 0 && saved == 0)
    saved = errno ? errno : EIO;
  file->f = NULL;
  if (saved == 0 && g_rename (file->tmp, file->path) != 0)
    saved = errno;
  if (saved != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("cannot write %s: %s"), file->path, g_strerror (saved));
      fx_csv_file_abort (file);
      return FALSE;
    }
  file_free (file);
  return TRUE;
}
