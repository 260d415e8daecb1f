/* fx-modes-private.h: what the three parts of the modes study share
 * (fx-modes.c: the linear model, classification, shapes and the public
 * calls; fx-modes-dense.c: the dense symmetric path; fx-modes-arnoldi.c:
 * shift-invert Arnoldi for large models). Not installed, not for callers
 * outside src/core/studies. */
#pragma once

#include "fx-modes.h"
#include "fx-system-private.h"

G_BEGIN_DECLS

/* One mode as a solver found it, before shapes are drawn from it. */
typedef struct {
  FxModeKind kind;
  double omega2;
  double *state;  /* na */
  double *stress; /* na, vibrations: the stresses at largest displacement */
} RawMode;

void     fx_modes_raw_clear          (gpointer raw_mode);

/* Is unknown i of the system a velocity (else a stress)? */
gboolean fx_modes_unknown_is_velocity (const FxSystem *sys, guint i);

/* Dense path: motions, self-stress states (counted into res) and up to
 * max_vibrations vibrations (0: all), appended to raw (RawMode). */
gboolean fx_modes_dense_solve        (FxSystem *sys, guint max_vibrations, FxModes *res,
                                      GArray *raw, GError **error);

/* Start vectors of the iterative path: eigenvalues of up to this
 * multiplicity show all their copies. */
#define FX_MODES_BLOCK 3

/* Iterative path: the lowest `want` vibrations (at most
 * fx_modes_iterative_cap), appended to raw; fewer when fewer converged. */
gboolean fx_modes_arnoldi_solve      (FxSystem *sys, guint want, GArray *raw, GError **error);

G_END_DECLS
