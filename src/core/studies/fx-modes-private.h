/* fx-modes-private.h: what the three parts of the modes study share
 * (fx-modes.c: the linear model, classification, shapes and the public
 * calls; fx-modes-dense.c: the dense symmetric path; fx-modes-arnoldi.c:
 * shift-invert Arnoldi for large models). Not installed, not for callers
 * outside src/core/studies. */
#pragma once

#include "fx-modes.h"
#include "fx-system-private.h"

#include <gsl/gsl_matrix.h>

G_BEGIN_DECLS

/* One mode as a solver found it, before shapes are drawn from it. */
typedef struct {
  FxModeKind kind;
  double omega2;
  double *state;  /* na */
  double *stress; /* na, vibrations: the stresses at largest displacement;
                   * self-stress states: the configuration of floating
                   * frames that carries theirs, in their velocities' slots */
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

/* fx-modes-eigen.c. Banded factors: beyond this bandwidth, dense BLAS is
 * as fast. */
#define FX_MODES_BAND_MAX 8

/* Y <- G^-1 Y, or G^-T Y when transposed, for a Cholesky factor G of
 * bandwidth bw (row operations within the band). */
void     fx_modes_band_solve_rows    (const gsl_matrix *G, gsize bw, gboolean transposed, gsl_matrix *Y);
/* Bandwidth of a symmetric matrix. */
gsize    fx_modes_bandwidth          (const gsl_matrix *A);
/* K = Y^T Y with Y = G^-1 Y (G banded), over the nonzeros of Y's rows. */
void     fx_modes_banded_gram        (const gsl_matrix *G, gsize bw, gsl_matrix *Y, gsl_matrix *K);
/* Every eigenpair of K q = omega^2 M q, ascending (K and M overwritten). */
void     fx_modes_symmetric_definite (gsl_matrix *K, gsl_matrix *M, gsl_vector *w2, gsl_matrix *V);
/* Every eigenvalue and the lowest `need` vectors (banded M only; FALSE
 * when not applicable or a step failed). */
gboolean fx_modes_lowest_pairs       (const gsl_matrix *K, const gsl_matrix *M, gsize need,
                                      gsl_vector *w2, gsl_matrix *V);

G_END_DECLS
