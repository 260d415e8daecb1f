/* flexion-private.h: what the classes of libflexion share and do not
 * publish: the model inside a FlexionModel, the cancel scope, the core's
 * errors as FLEXION_ERRORs. */
#pragma once

#include "flexion.h"
#include "fx-model.h"

G_BEGIN_DECLS

/* The model inside (borrowed: valid while `model` is and is not changed). */
const FxModel *flexion_model_peek (FlexionModel *model);

/* `src` (taken) into `dest` with domain FLEXION_ERROR and `code`, its
 * message kept; a cancellation is passed on as it is. NULL src: nothing. */
void flexion_propagate_core_error (GError **dest, GError *src, FlexionError code);

/* For the length of one call, the engine's long loops on this thread stop
 * when `cancellable` (may be NULL) is cancelled (fx-cancel.h). */
typedef struct {
  gint flag;
  gint *previous;
  GCancellable *cancellable;
  gulong handler;
} FlexionCancel;

void     flexion_cancel_begin (FlexionCancel *scope, GCancellable *cancellable);
void     flexion_cancel_end   (FlexionCancel *scope);
/* TRUE, with G_IO_ERROR_CANCELLED, when `cancellable` is cancelled. */
gboolean flexion_cancel_check (GCancellable *cancellable, GError **error);

G_END_DECLS
