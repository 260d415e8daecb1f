/* fx-csv.h: CSV output that is never cut short and never breaks its columns.
 *
 * Fields follow RFC 4180: a field holding a comma, a double quote, a
 * carriage return or a newline is written between double quotes, with its
 * quotes doubled. Ids are user text and may hold any of those. A field that
 * starts with = + - @, a tab or a carriage return is quoted and starts with an
 * apostrophe, so that a spreadsheet does not run it as a formula.
 *
 * An FxCsvFile writes into a temporary file beside the target and renames it
 * over the target only when everything was written and closed without an
 * error: a full disk, a solver failure or Ctrl+C leaves the old target as it
 * was (and no temporary behind). A device or a FIFO is written in place
 * (fx-output.h).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends `text` to `out` as one CSV field. */
void fx_csv_append_field (GString *out, const char *text);
/* `prefix` followed by `suffix` as one CSV field ("id" ".x" -> id.x). */
void fx_csv_append_field2 (GString *out, const char *prefix, const char *suffix);

/* ",value" with all 17 digits, or an empty cell "," where `value` is not
 * finite: never a NaN or an infinity in a file. */
void fx_csv_append_number (GString *out, double value);

typedef struct _FxCsvFile FxCsvFile;

/* Creates the temporary file beside `path`; NULL with `error` if it cannot. */
FxCsvFile *fx_csv_file_new    (const char *path, GError **error);
/* Appends a row (or part of one); FALSE once a write failed (the error is
 * kept for fx_csv_file_commit). */
gboolean   fx_csv_file_write  (FxCsvFile *file, const char *data, gsize length);
gboolean   fx_csv_file_printf (FxCsvFile *file, const char *format, ...) G_GNUC_PRINTF (2, 3);
gboolean   fx_csv_file_failed (const FxCsvFile *file);
/* Flushes, syncs, closes and renames over the target; on any failure the
 * temporary is removed and `error` names the target. Frees `file`. */
gboolean   fx_csv_file_commit (FxCsvFile *file, GError **error);
/* Removes the temporary and frees `file`; the target stays as it was. */
void       fx_csv_file_abort  (FxCsvFile *file);

G_END_DECLS
