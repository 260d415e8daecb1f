/* fx-cancel.c: the per-thread cancel flag (see fx-cancel.h). */
#include "fx-cancel.h"

#include <glib/gi18n-lib.h>

static _Thread_local gint *attached;

gint *
fx_cancel_attach (gint *flag)
{
  gint *before = attached;
  attached = flag;
  return before;
}

gboolean
fx_cancel_requested (void)
{
  return attached != NULL && g_atomic_int_get (attached) != 0;
}

void
fx_cancel_request (gint *flag)
{
  /* a lock-free atomic store: allowed in a signal handler */
  g_atomic_int_set (flag, 1);
}

gboolean
fx_cancel_check (GError **error)
{
  if (!fx_cancel_requested ())
    return FALSE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("cancelled"));
  return TRUE;
}
