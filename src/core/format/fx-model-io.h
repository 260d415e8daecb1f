/* fx-model-io.h: reading and writing `.flexion` model files (JSON).
 *
 * The format is described for users in docs/model-format.md. Loading collects
 * every problem it finds rather than stopping at the first, so that a user
 * editing a file by hand can fix them all in one go: each problem is one line
 * "JSON.path: reason" of the GError message.
 */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

#define FX_MODEL_ERROR (fx_model_error_quark ())
typedef enum {
  FX_MODEL_ERROR_IO,       /* the file could not be read or written          */
  FX_MODEL_ERROR_PARSE,    /* not JSON (or JSON this reader refuses to parse) */
  FX_MODEL_ERROR_INVALID,  /* JSON, but not a valid model                     */
} FxModelError;

#define FX_MODEL_FORMAT_NAME    "flexion-model"
#define FX_MODEL_FORMAT_VERSION 1
/* Bytes: a bigger file is refused before it is read (the largest valid
 * model, 2e6 elements over few links, is far smaller). */
#define FX_MODEL_MAX_FILE_SIZE  (64 << 20)

GQuark   fx_model_error_quark (void);

/* Reads regular files only, of at most FX_MODEL_MAX_FILE_SIZE bytes.
 * warnings (may be NULL): receives a new array of g_strdup'ed "path: message"
 * strings (unknown keys and the like), also when loading fails; free it with
 * g_ptr_array_unref(). */
FxModel *fx_model_load_file (const char *filename, GPtrArray **warnings, GError **error);
FxModel *fx_model_load_data (const char *data, gssize length, GPtrArray **warnings,
                             GError **error);

/* Pretty JSON with a trailing newline; numbers round-trip exactly. Saving does
 * not validate (the editor may save a model in progress): call
 * fx_model_validate() first when the file must load again. */
char    *fx_model_to_data   (const FxModel *model, gsize *length);

/* Atomic: writes a temporary file beside the target and renames it over. */
gboolean fx_model_save_file (const FxModel *model, const char *filename, GError **error);

/* The semantic checks of loading alone, for models built in code. */
gboolean fx_model_validate  (const FxModel *model, GError **error);

G_END_DECLS
