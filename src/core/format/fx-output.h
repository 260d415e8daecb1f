/* fx-output.h: every output file of Flexion (CSV, pictures, animations,
 * partials, modes, models) goes through here, so that each writer treats a
 * target alike.
 *
 * A regular file (or a path that does not exist yet) is written into a fresh
 * temporary file beside it, renamed over it only when everything was written,
 * synced and closed: a full disk, a file-size limit (EFBIG), a failure or
 * Ctrl+C leaves the old target as it was and no temporary behind.
 *
 * A target that exists and is not a regular file (a character or block
 * device such as /dev/null or /dev/full, a FIFO, a socket) is written
 * directly: renaming over it would replace the device node itself. A folder
 * is refused. Every message names the target, never the temporary.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FxOutput FxOutput;

/* Prepares writing `path`: creates the temporary beside it (empty, with the
 * permissions an ordinary new file gets), or chooses the target itself when
 * it is a device or a FIFO. NULL with a G_FILE_ERROR naming `path`. */
FxOutput   *fx_output_new       (const char *path, GError **error);
/* The file name to write to: the temporary, or the target when direct. */
const char *fx_output_file      (const FxOutput *out);
/* The target given to fx_output_new(). */
const char *fx_output_target    (const FxOutput *out);
/* TRUE when the target is written directly (a device, a FIFO). */
gboolean    fx_output_is_direct (const FxOutput *out);
/* Renames the written temporary over the target (nothing to do when
 * direct). On failure the temporary is removed and `error` names the
 * target. Frees `out`. */
gboolean    fx_output_commit    (FxOutput *out, GError **error);
/* Removes the temporary (a file or a folder of files) and frees `out`; the
 * target stays as it was. NULL is fine. */
void        fx_output_abort     (FxOutput *out);

/* Removes a temporary: a file, or a folder of files (an animation's frames). */
void        fx_output_remove    (const char *path);

/* A G_FILE_ERROR "cannot write TARGET: strerror(errnum)". */
void        fx_output_set_error (GError **error, const char *target, int errnum);

/* `length` bytes to `path` as above (g_file_set_contents that leaves devices
 * and FIFOs in place and names the target in its messages). */
gboolean    fx_output_set_contents (const char *path, const char *data, gsize length,
                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxOutput, fx_output_abort)

G_END_DECLS
