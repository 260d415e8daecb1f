/* fx-model-io-private.h: what the reader, the checker and the writer of
 * the file format share: the report of problems (each "path: message"),
 * numbers as text, and the passes' entry points. Private to src/core. */
#pragma once

#include "fx-model-io.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MAX_MESSAGES  100        /* shown; the rest are only counted          */
#define MAX_MESSAGE   400        /* bytes; longer ones (huge ids) are cut     */
#define MAX_DEPTH     64         /* JSON nesting; the format needs 7          */
#define MAX_TOLERANCE 0.1
#define MAX_ITERATIONS 1000u
#define WIDTH         80         /* the writer keeps compact values this short */

typedef struct {
  GPtrArray *errors;
  GPtrArray *warnings;
  guint n_errors, n_warnings;  /* including those beyond MAX_MESSAGES      */
  GHashTable *bad;             /* paths that have an error                 */
  FxModelError code;           /* PARSE once the text itself is refused    */
} Report;

void fx_io_check_model (Report *r, const FxModel *m);
void fx_io_format_double (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v);
JsonNode * fx_io_model_node (const FxModel *m);
const char * fx_io_num (double v);
JsonNode * fx_io_parse_json (Report *r, const char *data, gsize length);
char * fx_io_path_join (const char *prefix, const char *key);
FxModel * fx_io_read_model (Report *r, JsonNode *root);
void fx_io_report_error (Report *r, const char *prefix, const char *key, const char *format, ...) G_GNUC_PRINTF (4, 5);
gboolean fx_io_report_finish (Report *r, GPtrArray **warnings, GError **error);
void fx_io_report_init (Report *r);
gboolean fx_io_report_is_bad (const Report *r, const char *path);
void fx_io_report_mark_bad (Report *r, const char *path);
void fx_io_report_warning (Report *r, const char *prefix, const char *key, const char *format, ...) G_GNUC_PRINTF (4, 5);
void fx_io_write_pretty (GString *out, JsonNode *node, guint indent, gboolean top);

/* fx-model-reader-json.c: typed access to members, problems reported with
 * their path */
const char * fx_io_node_kind (JsonNode *node);
gboolean fx_io_node_is_string (JsonNode *node);
JsonNode * fx_io_member (Report *r, JsonObject *o, const char *path, const char *key, gboolean required);
gboolean fx_io_number_from_node (Report *r, JsonNode *node, const char *path, const char *key, double *out);
gboolean fx_io_read_number (Report *r, JsonObject *o, const char *path, const char *key, gboolean required, double *out);
gboolean fx_io_read_uint (Report *r, JsonObject *o, const char *path, const char *key, gboolean required, guint min, guint max, guint *out);
gboolean fx_io_read_string (Report *r, JsonObject *o, const char *path, const char *key, gboolean required, char **out);
const char * fx_io_read_name (Report *r, JsonObject *o, const char *path, const char *key, gboolean required);
void fx_io_report_bad_name (Report *r, const char *path, const char *key, const char *name, const char *choices);
gboolean fx_io_read_bool (Report *r, JsonObject *o, const char *path, const char *key, gboolean *out);
gboolean fx_io_pair_from_node (Report *r, JsonNode *node, const char *path, const char *key, const char *what, double out[2]);
gboolean fx_io_read_vector (Report *r, JsonObject *o, const char *path, const char *key, gboolean required, double out[2]);
JsonObject * fx_io_read_object (Report *r, JsonObject *o, const char *path, const char *key, gboolean required);
void fx_io_check_keys (Report *r, JsonObject *o, const char *path, const char *const *allowed);
gboolean fx_io_has_any (JsonObject *o, const char *const *keys);

G_END_DECLS
