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

/* Parses the documented forms of --max-memory: a whole number of bytes
 * ("1000000"), or a number with an optional decimal fraction and one of
 * K, M, G, T (either case; powers of 1024): "2G", "512M", "1.5G", "800000k".
 * FALSE for anything else ("0x10", "1e3", "1GB", " 2G", "+2G") and for 0. */
gboolean fx_memory_parse_size (const char *text, guint64 *bytes);

/* TRUE if `bytes` fits in what fx_memory_limit_get() leaves beside the
 * reserved bytes (below); otherwise FALSE with FX_MATRIX_ERROR_TOO_LARGE:
 * "<what> would need <size>, more than the limit of <limit>: <advice>" (or
 * "... more than the <left> that the limit of <limit> leaves beside the
 * <reserved> in use: <advice>"). */
gboolean fx_memory_check      (guint64 bytes, const char *what, const char *advice,
                               GError **error);

/* The process's ledger of its large allocations, so that the limit counts
 * them together (a system's arrays, its Newton matrix, an ensemble's
 * per-thread systems, modes' dense matrices), not each against the whole
 * limit. fx_memory_reserve checks as fx_memory_check does and, if it fits,
 * books the bytes; fx_memory_release gives them back (the owner's free).
 * Thread-safe. */
gboolean fx_memory_reserve    (guint64 bytes, const char *what, const char *advice,
                               GError **error);
void     fx_memory_release    (guint64 bytes);
guint64  fx_memory_reserved   (void);

/* The most the ledger has held since fx_memory_mark_peak (which starts it
 * at what it holds now): transient bookings included, such as the Newton
 * matrix's pattern while it is recorded and analysed, which is released
 * before the matrix is done. What one more ensemble worker needs is this
 * peak, not what its finished matrix keeps. */
void     fx_memory_mark_peak  (void);
guint64  fx_memory_peak       (void);

G_END_DECLS
