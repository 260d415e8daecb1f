/* fx-memory.c */
#include "fx-memory.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

gboolean
fx_memory_parse_size (const char *text, guint64 *bytes)
{
  /* the documented forms only: 0x10 (16 bytes), 1e3 and 1GB (is that 1e9
   * or 2^30?) were taken before (issue 31, item 9) */
  const char *p = text;
  gboolean fraction = FALSE;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.')
    {
      fraction = TRUE;
      if (!g_ascii_isdigit (*++p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  const char *units = "KMGT", *u = *p ? strchr (units, g_ascii_toupper (*p)) : NULL;
  if ((*p != '\0' && (u == NULL || p[1] != '\0')) || (fraction && u == NULL))
    return FALSE;
  double unit = u ? ldexp (1.0, 10 * (int) (u - units + 1)) : 1.0;
  double v = g_ascii_strtod (text, NULL) * unit;
  if (!(v >= 1) || v >= 1.8e19)
    return FALSE;
  *bytes = (guint64) v;
  return TRUE;
}

static GMutex ledger_lock;
static guint64 ledger;  /* bytes reserved */
static guint64 peak;    /* the most `ledger` held since fx_memory_mark_peak */

/* Under ledger_lock: TRUE if `bytes` fits beside the ledger, or the error. */
static gboolean
fits (guint64 bytes, const char *what, const char *advice, GError **error)
{
  guint64 limit = fx_memory_limit_get (), left = limit > ledger ? limit - ledger : 0;

  if (bytes <= left)
    return TRUE;
  g_autofree char *need = NULL, *have = NULL;
  fx_format_bytes_pair (bytes, limit, &need, &have);
  if (ledger == 0)
    {
      g_set_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE,
                   _("%s would need %s, more than the limit of %s: %s"), what, need, have, advice);
      return FALSE;
    }
  g_autofree char *rest = fx_format_bytes (left), *used = fx_format_bytes (ledger);
  g_set_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE,
               _("%s would need %s, more than the %s that the limit of %s leaves beside the "
                 "%s in use: %s"), what, need, rest, have, used, advice);
  return FALSE;
}

gboolean
fx_memory_check (guint64 bytes, const char *what, const char *advice, GError **error)
{
  g_mutex_lock (&ledger_lock);
  gboolean ok = fits (bytes, what, advice, error);
  g_mutex_unlock (&ledger_lock);
  return ok;
}

gboolean
fx_memory_reserve (guint64 bytes, const char *what, const char *advice, GError **error)
{
  g_mutex_lock (&ledger_lock);
  gboolean ok = fits (bytes, what, advice, error);
  if (ok)
    {
      ledger += bytes;
      peak = MAX (peak, ledger);
    }
  g_mutex_unlock (&ledger_lock);
  return ok;
}

void
fx_memory_release (guint64 bytes)
{
  g_mutex_lock (&ledger_lock);
  ledger = ledger > bytes ? ledger - bytes : 0;
  g_mutex_unlock (&ledger_lock);
}

guint64
fx_memory_reserved (void)
{
  g_mutex_lock (&ledger_lock);
  guint64 r = ledger;
  g_mutex_unlock (&ledger_lock);
  return r;
}

void
fx_memory_mark_peak (void)
{
  g_mutex_lock (&ledger_lock);
  peak = ledger;
  g_mutex_unlock (&ledger_lock);
}

guint64
fx_memory_peak (void)
{
  g_mutex_lock (&ledger_lock);
  guint64 r = peak;
  g_mutex_unlock (&ledger_lock);
  return r;
}
