/* fx-memory.c */
#include "fx-memory.h"

#include <glib/gi18n-lib.h>
#include <math.h>

gboolean
fx_memory_parse_size (const char *text, guint64 *bytes)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);
  double unit = 1;

  if (end == text || !isfinite (v) || v <= 0)
    return FALSE;
  switch (g_ascii_toupper (*end))
    {
    case '\0': break;
    case 'K': unit = 1024.0; end++; break;
    case 'M': unit = 1024.0 * 1024; end++; break;
    case 'G': unit = 1024.0 * 1024 * 1024; end++; break;
    case 'T': unit = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: return FALSE;
    }
  if (unit > 1 && (*end == 'B' || *end == 'b'))
    end++;
  if (*end != '\0' || v * unit >= 1.8e19 || v * unit < 1)
    return FALSE;
  *bytes = (guint64) (v * unit);
  return TRUE;
}

gboolean
fx_memory_check (guint64 bytes, const char *what, const char *advice, GError **error)
{
  guint64 limit = fx_memory_limit_get ();

  if (bytes <= limit)
    return TRUE;
  g_autofree char *need = NULL, *have = NULL;
  fx_format_bytes_pair (bytes, limit, &need, &have);
  g_set_error (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE,
               _("%s would need %s, more than the limit of %s: %s"), what, need, have, advice);
  return FALSE;
}
