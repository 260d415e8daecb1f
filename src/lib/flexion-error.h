/* flexion-error.h: the error domain of libflexion. */
#pragma once

#if !defined (FLEXION_INSIDE) && !defined (FLEXION_COMPILATION)
#error "Only <flexion.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/**
 * FLEXION_ERROR:
 *
 * The error domain of libflexion: its codes are the values of
 * [enum@Flexion.Error]. A cancelled call gives `G_IO_ERROR_CANCELLED`
 * instead.
 */
#define FLEXION_ERROR (flexion_error_quark ())

/**
 * FlexionError:
 * @FLEXION_ERROR_IO: a file could not be read or written
 * @FLEXION_ERROR_PARSE: the text is not JSON
 * @FLEXION_ERROR_INVALID: the model breaks a rule of the format or of the
 *   checker; the message has one "JSON.path: reason" line per problem, as
 *   `flexion-cli` prints them
 * @FLEXION_ERROR_NOT_FOUND: no joint, link, load, motor, probe or mode has
 *   the id or name given
 * @FLEXION_ERROR_SOLVER: the solver failed (a step Newton could not solve
 *   even at its finest substep, or energies that are no longer finite)
 * @FLEXION_ERROR_TOO_LARGE: the model needs more memory than the limit, or
 *   more unknowns than the eigensolver takes
 *
 * What went wrong, for programs that act on it; the message says it to a
 * person, in the same words as `flexion-cli`.
 */
typedef enum {
  FLEXION_ERROR_IO,
  FLEXION_ERROR_PARSE,
  FLEXION_ERROR_INVALID,
  FLEXION_ERROR_NOT_FOUND,
  FLEXION_ERROR_SOLVER,
  FLEXION_ERROR_TOO_LARGE,
} FlexionError;

GQuark flexion_error_quark (void);

G_END_DECLS
