/* flexion-cancel.c: a GCancellable as the engine's per-thread cancel flag
 * (fx-cancel.h), for the length of one call. */
#include "flexion-private.h"
#include "fx-cancel.h"

static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  fx_cancel_request (data);
}

void
flexion_cancel_begin (FlexionCancel *scope, GCancellable *cancellable)
{
  scope->flag = 0;
  scope->cancellable = cancellable;
  scope->handler = 0;
  /* attached before connecting: a cancellable that is cancelled already
   * calls back at once, and the engine must see the flag */
  scope->previous = fx_cancel_attach (&scope->flag);
  if (cancellable != NULL)
    scope->handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled),
                                            &scope->flag, NULL);
}

void
flexion_cancel_end (FlexionCancel *scope)
{
  /* waits for a callback running in another thread, so the flag outlives it */
  if (scope->cancellable != NULL && scope->handler != 0)
    g_cancellable_disconnect (scope->cancellable, scope->handler);
  fx_cancel_attach (scope->previous);
}

gboolean
flexion_cancel_check (GCancellable *cancellable, GError **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error);
}
