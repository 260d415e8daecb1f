/* fx-matrix.h: the Newton matrix, assembled entry by entry and factorised by
 * whichever solver suits the model's topology.
 *
 * A chain of links couples each unknown only to its neighbours, so its matrix
 * is banded and GSL's banded LU is the cheapest solver. A truss, a lattice or
 * a hub joins distant links: numbered link after link, the band would span
 * most of the matrix. There a sparse LU with a fill-reducing ordering
 * (SuiteSparse's KLU) costs what the fill costs, not what the band costs.
 *
 * Life of a matrix: create it, record its pattern with one assembly pass
 * (every fx_matrix_add is remembered, zero or not), fx_matrix_analyze picks
 * the solver from the predicted cost and memory (a bandwidth-reducing
 * reverse Cuthill-McKee ordering for the band, KLU's own ordering for the
 * sparse path); then per Newton iteration: fx_matrix_zero, fx_matrix_add ...,
 * fx_matrix_factorize, fx_matrix_solve. An entry outside the recorded pattern
 * is kept aside and fx_matrix_factorize answers FX_MATRIX_PATTERN_CHANGED:
 * analyse again and assemble again (rare: a drag that grabs a new link).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  FX_MATRIX_AUTO,     /* choose from the predicted cost (the default)    */
  FX_MATRIX_BANDED,   /* banded LU (GSL storage) after a bandwidth-reducing order */
  FX_MATRIX_SPARSE,   /* SuiteSparse KLU                                  */
  FX_MATRIX_DENSE,    /* dense storage (tests, modes); solved by GSL LU   */
} FxMatrixKind;

typedef enum {
  FX_MATRIX_OK,
  FX_MATRIX_SINGULAR,
  FX_MATRIX_PATTERN_CHANGED,  /* assemble again after fx_matrix_analyze */
} FxMatrixStatus;

#define FX_MATRIX_ERROR (fx_matrix_error_quark ())
typedef enum {
  FX_MATRIX_ERROR_TOO_LARGE,  /* the factorisation would exceed the memory limit */
} FxMatrixError;
GQuark fx_matrix_error_quark (void);

typedef struct _FxMatrix FxMatrix;

FxMatrix      *fx_matrix_new        (guint n, FxMatrixKind kind);
void           fx_matrix_free       (FxMatrix *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxMatrix, fx_matrix_free)

/* Choose the solver for the recorded pattern and allocate it. FALSE (with a
 * message naming the size) if no path fits in the memory limit. */
gboolean       fx_matrix_analyze    (FxMatrix *m, GError **error);

void           fx_matrix_zero       (FxMatrix *m);
void           fx_matrix_add        (FxMatrix *m, guint i, guint j, double value);
FxMatrixStatus fx_matrix_factorize  (FxMatrix *m);
void           fx_matrix_solve      (FxMatrix *m, double *b);  /* in place: b <- A^-1 b */

/* The sparse path refactorises with the pivots of its last full
 * factorisation; this makes the next one choose them afresh. */
void           fx_matrix_refresh_pivots (FxMatrix *m);

/* The banded path's storage, for the assembly's inner loops: A(i, j) is at
 * data[p[j] ldab + kl + ku + p[i] - p[j]] when inside the band. data is NULL
 * on the other paths (and fx_matrix_add serves). */
typedef struct {
  double *data;
  gsize ldab;
  guint kl, ku;
  const guint *perm;
} FxBandView;
void           fx_matrix_band_view  (FxMatrix *m, FxBandView *view);

static inline void
fx_matrix_add_fast (FxMatrix *m, const FxBandView *v, guint i, guint j, double value)
{
  if (v->data != NULL)
    {
      guint pi = v->perm[i], pj = v->perm[j];
      if (G_LIKELY (pi <= pj + v->kl && pj <= pi + v->ku))
        {
          v->data[(gsize) pj * v->ldab + v->kl + v->ku + pi - pj] += value;
          return;
        }
    }
  fx_matrix_add (m, i, j, value);
}

/* Entry (i, j) as assembled (before fx_matrix_factorize; 0 outside the pattern). */
double         fx_matrix_get        (const FxMatrix *m, guint i, guint j);

/* Is (i, j) in the recorded pattern? (Every entry, for the dense path.) */
gboolean       fx_matrix_in_pattern (const FxMatrix *m, guint i, guint j);

guint          fx_matrix_size       (const FxMatrix *m);
/* The recorded pattern, by column with rows sorted: the entries
 * (Ai[k], j) for Ap[j] <= k < Ap[j + 1]. FALSE before fx_matrix_analyze. */
gboolean       fx_matrix_pattern    (const FxMatrix *m, const int **Ap, const int **Ai);
FxMatrixKind   fx_matrix_kind       (const FxMatrix *m);  /* the path in use */
const char    *fx_matrix_describe   (const FxMatrix *m);  /* "sparse LU (KLU), 4 210 non-zeros" */
guint          fx_matrix_n_factorizations (const FxMatrix *m);
/* Predicted cost of a factorisation, in banded multiply-adds (a sparse one
 * counted at four: its indirect addressing). */
double         fx_matrix_cost       (const FxMatrix *m);
/* Both paths' predictions as fx_matrix_analyze compared them (same units;
 * INFINITY for a path not considered). KLU's assumes diagonal pivots: a
 * factorisation that fills far beyond it is stopped and moved to the band. */
void           fx_matrix_predicted_costs (const FxMatrix *m, double *band, double *sparse);

/* The largest number of bytes one matrix may ask for (default: half the
 * machine's memory). 0 restores the default. */
void           fx_memory_limit_set  (guint64 bytes);
guint64        fx_memory_limit_get  (void);

/* "1.2 GB", for messages. */
char          *fx_format_bytes      (guint64 bytes);
/* Both sizes of a "need ..., more than the limit of ..." message: in bytes
 * as well when the short forms would read the same. */
void           fx_format_bytes_pair (guint64 need, guint64 limit, char **need_text,
                                     char **limit_text);

G_END_DECLS
