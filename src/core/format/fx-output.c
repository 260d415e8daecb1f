/* fx-output.c: outputs written beside their target and renamed over it,
 * devices and FIFOs written in place (see fx-output.h). */
#define _POSIX_C_SOURCE 200809L  /* fchmod, fsync */
#include "fx-output.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct _FxOutput {
  char *target;
  char *tmp;  /* NULL: the target is written directly */
};

void
fx_output_set_error (GError **error, const char *target, int errnum)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errnum), _("cannot write %s: %s"),
               target, g_strerror (errnum));
}

FxOutput *
fx_output_new (const char *path, GError **error)
{
  GStatBuf st;

  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      if (S_ISDIR (st.st_mode))
        {
          fx_output_set_error (error, path, EISDIR);
          return NULL;
        }
      /* a device or a FIFO: renaming over it would replace the node */
      FxOutput *out = g_new0 (FxOutput, 1);
      out->target = g_strdup (path);
      return out;
    }

  g_autofree char *tmp = g_strconcat (path, ".part-XXXXXX", NULL);
  int fd = g_mkstemp (tmp);
  if (fd < 0)
    {
      fx_output_set_error (error, path, errno);
      return NULL;
    }
  /* mkstemp makes it private; an output is an ordinary file */
  mode_t mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
  close (fd);

  FxOutput *out = g_new0 (FxOutput, 1);
  out->target = g_strdup (path);
  out->tmp = g_steal_pointer (&tmp);
  return out;
}

const char *
fx_output_file (const FxOutput *out)
{
  return out->tmp ? out->tmp : out->target;
}

const char *
fx_output_target (const FxOutput *out)
{
  return out->target;
}

gboolean
fx_output_is_direct (const FxOutput *out)
{
  return out->tmp == NULL;
}

static void
output_free (FxOutput *out)
{
  g_free (out->target);
  g_free (out->tmp);
  g_free (out);
}

void
fx_output_remove (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);

  if (dir == NULL)
    {
      g_unlink (path);
      return;
    }
  const char *name;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      g_unlink (child);
    }
  g_dir_close (dir);
  g_rmdir (path);
}

void
fx_output_abort (FxOutput *out)
{
  if (out == NULL)
    return;
  if (out->tmp)
    fx_output_remove (out->tmp);
  output_free (out);
}

gboolean
fx_output_commit (FxOutput *out, GError **error)
{
  if (out->tmp && g_rename (out->tmp, out->target) != 0)
    {
      fx_output_set_error (error, out->target, errno);
      fx_output_abort (out);
      return FALSE;
    }
  output_free (out);
  return TRUE;
}

static int
write_all (int fd, const char *data, gsize length)
{
  while (length > 0)
    {
      ssize_t n = write (fd, data, length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return n < 0 ? errno : EIO;
      data += n;
      length -= (gsize) n;
    }
  return 0;
}

gboolean
fx_output_set_contents (const char *path, const char *data, gsize length, GError **error)
{
  FxOutput *out = fx_output_new (path, error);

  if (out == NULL)
    return FALSE;
  int fd = g_open (fx_output_file (out), O_WRONLY | (out->tmp ? O_TRUNC : 0), 0);
  int saved = fd < 0 ? errno : write_all (fd, data, length);
  /* the data reaches the disk before the rename makes it the target (a
   * device or a FIFO has nothing to sync) */
  if (fd >= 0 && saved == 0 && out->tmp && fsync (fd) != 0)
    saved = errno;
  if (fd >= 0 && close (fd) != 0 && saved == 0)
    saved = errno;
  if (saved != 0)
    {
      fx_output_set_error (error, path, saved);
      fx_output_abort (out);
      return FALSE;
    }
  return fx_output_commit (out, error);
}
