/* flexion-private.h: what the classes of libflexion share and do not
 * publish: the model inside a FlexionModel, the cancel scope, the core's
 * errors as FLEXION_ERRORs. */
#pragma once

#include "flexion.h"
#include "fx-model.h"

G_BEGIN_DECLS

/* The model inside (borrowed: valid while `model` is and is not changed). */
const FxModel *flexion_model_peek (FlexionModel *model);

/* The model's elements that have ids, for flexion_model_find. */
typedef enum {
  FLEXION_KIND_JOINT,
  FLEXION_KIND_LINK,
  FLEXION_KIND_LOAD,
  FLEXION_KIND_MOTOR,
  FLEXION_KIND_PROBE,
} FlexionKind;

/* The index of the element of `kind` with `id`, or -1 with
 * FLEXION_ERROR_NOT_FOUND ("the model has no link \"x\""). */
int      flexion_model_find        (FlexionModel *model, FlexionKind kind, const char *id,
                                    GError **error);
/* A copy of the model to change; commit puts it in place if the checker
 * (fx_model_validate) takes it, else frees it and raises the checker's
 * sentence: a refused value leaves the model as it was. */
FxModel *flexion_model_begin_edit  (FlexionModel *model);
gboolean flexion_model_commit_edit (FlexionModel *model, FxModel *copy, GError **error);
/* FALSE with FLEXION_ERROR_INVALID naming `what` when `value` is not finite. */
gboolean flexion_check_finite      (double value, const char *what, GError **error);

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
