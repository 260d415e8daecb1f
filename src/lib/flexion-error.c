/* flexion-error.c: the error domain of libflexion (flexion-error.h). */
#include "flexion-private.h"

/**
 * flexion_error_quark:
 *
 * The error domain of libflexion, [error@Flexion.Error].
 *
 * Returns: the quark of "flexion-error-quark"
 */
G_DEFINE_QUARK (flexion-error-quark, flexion_error)

/* The core's errors keep their message; the domain becomes FLEXION_ERROR
 * (a cancellation stays G_IO_ERROR_CANCELLED, as GIO programs expect). */
void
flexion_propagate_core_error (GError **dest, GError *src, FlexionError code)
{
  if (src == NULL)
    return;
  if (g_error_matches (src, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (dest, src);
      return;
    }
  g_set_error_literal (dest, FLEXION_ERROR, code, src->message);
  g_error_free (src);
}
