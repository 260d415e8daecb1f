/* fx-memory.h: sizes for the memory limit, and checks against it.
 *
 * The limit itself lives with the Newton matrix (fx_memory_limit_get/set in
 * fx-matrix.h: by default half the machine's memory; flexion-cli's
 * --max-memory sets it). Other big, growing records (an export keeps every
 * step) check their estimate here before they grow, so that g_malloc never
 * aborts on a model that is merely too large.
 */
#pragma once

#include "fx-matrix.h"

G_BEGIN_DECLS

/* Parses "2G", "512M", "1.5GB", "800000K" or plain bytes (K, M, G, T are
 * powers of 1024). FALSE if `text` is none of those or is 0. */
gboolean fx_memory_parse_size (const char *text, guint64 *bytes);

/* TRUE if `bytes` fits in fx_memory_limit_get(); otherwise FALSE with
 * FX_MATRIX_ERROR_TOO_LARGE: "<what> would need <size>, more than the limit
 * of <limit>: <advice>". */
gboolean fx_memory_check      (guint64 bytes, const char *what, const char *advice,
                               GError **error);

G_END_DECLS
