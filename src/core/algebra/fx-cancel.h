/* fx-cancel.h: stopping long work from outside, within a step's time.
 *
 * A thread attaches a flag (a gint it owns, or shares with whoever may ask
 * it to stop); the engine's long loops (the system build, the causality
 * search, Newton's iterations, the substeps) poll it with
 * fx_cancel_requested() and give up with FX_CANCEL_ERROR's G_IO_ERROR_CANCELLED.
 * The flag is per thread, so a run being cancelled does not stop another
 * thread's run; setting it is one atomic store, safe in a signal handler
 * (flexion-cli's SIGINT/SIGTERM) and from any thread (the app's Cancel).
 * With no flag attached nothing is ever cancelled.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The flag the calling thread's long loops watch from now on (NULL: none);
 * it must outlive its attachment. Returns the flag attached before. */
gint     *fx_cancel_attach    (gint *flag);

/* Whether the calling thread's flag is set. */
gboolean  fx_cancel_requested (void);

/* Sets `flag` (async-signal-safe). */
void      fx_cancel_request   (gint *flag);

/* TRUE (and G_IO_ERROR_CANCELLED in `error`) if the calling thread's flag is
 * set: the polling loops' one line. */
gboolean  fx_cancel_check     (GError **error);

G_END_DECLS
