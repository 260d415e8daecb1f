/* fx-matrix.c: the Newton matrix and its three solvers (see fx-matrix.h).
 *
 * The banded path is LAPACK's dgbtf2/dgbtrs scheme on GSL's band storage
 * (gsl_linalg_LU_band_decomp's layout and pivots, written out for speed:
 * see band_lu) after a reverse Cuthill-McKee ordering; neither GSL nor SuiteSparse
 * ships RCM, so it is written here (a breadth-first search, forty lines).
 * The sparse path is SuiteSparse's KLU: symbolic analysis (block triangular
 * form and AMD ordering) once per pattern, a numeric factorisation with
 * partial pivoting the first time and a refactorisation with the same pivots
 * afterwards (the Newton matrix changes slowly from one iteration to the
 * next); fx_matrix_refresh_pivots asks for a fresh choice of pivots.
 */
#include "fx-matrix.h"
#include "fx-memory.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <SuiteSparse_config.h>
#include <klu.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

G_DEFINE_QUARK (fx-matrix-error-quark, fx_matrix_error)

typedef struct { guint i, j; } Entry;

struct _FxMatrix {
  guint n;
  FxMatrixKind requested, kind;
  gboolean analyzed;
  /* the pattern being discovered, or entries outside it: every entry booked
   * in the memory ledger before it grows (a 10^6-element link recorded
   * 1.1 GB before the limit was looked at, issue 31, item 4) */
  Entry *rec;
  gsize rec_len, rec_cap;
  guint64 rec_booked;        /* bytes of rec in the ledger */
  GError *rec_refused;       /* why the limit refused the recording more room */
  guint64 rec_calls;         /* fx_matrix_add calls recorded (before the cache below) */
  Entry *rec_seen;           /* the last entries recorded, hashed (REC_SEEN_BITS) */
  gboolean pattern_changed;

  /* the pattern, compressed by column (rows sorted); the diagonal always in */
  int *Ap, *Ai;
  guint nnz;
  guint64 pattern_booked;    /* Ap and Ai in the ledger */

  /* banded: A(i, j) at row p[j], column kl + ku + p[i] - p[j] of AB */
  guint kl, ku;
  guint *perm;               /* perm[i]: position of unknown i in the band */
  guint plan_kl, plan_ku;    /* the banded path's plan, kept when KLU is chosen */
  guint *plan_perm;          /* (for the switch when KLU's fill explodes)       */
  double *band;              /* AB's data, row pitch ldab: the hot path of fx_matrix_add */
  gsize ldab;
  gsl_matrix *AB;
  gsl_vector_uint *piv;
  double *work;

  /* sparse: values in pattern order; an assembly pass calls fx_matrix_add in
   * the same order every time, so the slot of the k-th call is remembered
   * and only checked (a binary search when it does not match) */
  double *Ax;
  guint *seq_slot;
  guint seq_len, seq_cap, cursor;
  guint64 seq_booked;        /* seq_slot's growth beyond what the path booked */
  klu_common common;
  klu_symbolic *symbolic;
  klu_numeric *numeric;

  /* dense */
  gsl_matrix *D;
  gsl_permutation *dense_perm;

  guint64 reserved;          /* bytes booked in the memory ledger */
  guint n_factorizations;
  double cost;               /* predicted flops of one factorisation */
  double band_cost, sparse_cost;  /* both paths' predictions, as compared */
  char *description;
};

#define MATRIX_ADVICE _("use fewer elements per link or fewer links")

/* ------------------------------------------------------------ memory limit */

static guint64 memory_limit;

void
fx_memory_limit_set (guint64 bytes)
{
  memory_limit = bytes;
}

guint64
fx_memory_limit_get (void)
{
  if (memory_limit > 0)
    return memory_limit;
  long pages = sysconf (_SC_PHYS_PAGES), size = sysconf (_SC_PAGESIZE);
  if (pages <= 0 || size <= 0)
    return G_GUINT64_CONSTANT (4) << 30;
  return (guint64) pages * (guint64) size / 2;
}

char *
fx_format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_DEFAULT);
}

void
fx_format_bytes_pair (guint64 need, guint64 limit, char **need_text, char **limit_text)
{
  *need_text = fx_format_bytes (need);
  *limit_text = fx_format_bytes (limit);
  /* "1.1 GB, more than the limit of 1.1 GB" says nothing: then in bytes */
  if (g_str_equal (*need_text, *limit_text))
    {
      g_free (*need_text);
      g_free (*limit_text);
      *need_text = g_format_size_full (need, G_FORMAT_SIZE_LONG_FORMAT);
      *limit_text = g_format_size_full (limit, G_FORMAT_SIZE_LONG_FORMAT);
    }
}

/* ------------------------------------------------ KLU under a fill bound */

/* klu_analyze's lnz, unz and flops are those of the AMD ordering with every
 * pivot on the diagonal. KLU's partial pivoting may leave the diagonal (a
 * link whose compliance rows are below the pivot tolerance next to their
 * couplings: a 5000-element column of a welded frame pivots off the
 * diagonal once per element), and each such pivot delays a row and merges
 * its pattern into later ones: 1.5e8 entries in the factors against the
 * 4.8e5 predicted, 18 s and 1.8 GB for one factorisation. KLU has no bound
 * of its own, but it gets its memory through SuiteSparse_config and grows
 * its factors by reallocation: while a factorisation runs under a bound
 * (this thread's `klu_bound`, bytes), a larger block is refused, KLU stops
 * with KLU_OUT_OF_MEMORY, and the matrix takes the band it would have cost
 * otherwise. Other threads and unbounded calls pass straight through. */
#define FILL_BOUND 4.0      /* times the predicted fill: past it, the band */
static _Thread_local size_t klu_bound;
static _Thread_local gboolean klu_bound_hit;

static gboolean
over_bound (size_t bytes)
{
  if (klu_bound == 0 || bytes <= klu_bound)
    return FALSE;
  klu_bound_hit = TRUE;
  return TRUE;
}

/* While this thread's `klu_booking` is set (KLU's symbolic analysis), every
 * block KLU asks for is booked in the memory ledger first and refused
 * (NULL: KLU_OUT_OF_MEMORY) when the limit has no room: AMD's workspace on
 * A + A^T is several times the pattern, and it was counted nowhere. Each
 * block carries a header with the bytes it booked, which its free gives
 * back (a symbolic object keeps its bytes until it is freed). */
static _Thread_local gboolean klu_booking;

typedef union { guint64 booked; max_align_t align; } BlockHeader;

static void *
booked_block (void *raw, guint64 booked)
{
  if (raw == NULL)
    {
      fx_memory_release (booked);
      return NULL;
    }
  ((BlockHeader *) raw)->booked = booked;
  return (BlockHeader *) raw + 1;
}

/* The bytes to book for a block of `bytes`, or FALSE if the limit refuses them. */
static gboolean
book_block (size_t bytes, guint64 *booked)
{
  *booked = 0;
  if (over_bound (bytes) || bytes > G_MAXSIZE - sizeof (BlockHeader))
    return FALSE;
  if (!klu_booking)
    return TRUE;
  *booked = bytes + sizeof (BlockHeader);
  return fx_memory_reserve (*booked, "", "", NULL);
}

static void *
bounded_malloc (size_t bytes)
{
  guint64 booked;
  if (!book_block (bytes, &booked))
    return NULL;
  return booked_block (malloc (bytes + sizeof (BlockHeader)), booked);
}

static void *
bounded_calloc (size_t count, size_t size)
{
  size_t bytes = size > 0 && count > G_MAXSIZE / size ? G_MAXSIZE : count * size;
  guint64 booked;
  if (!book_block (bytes, &booked))
    return NULL;
  return booked_block (calloc (1, bytes + sizeof (BlockHeader)), booked);
}

static void
bounded_free (void *p)
{
  if (p == NULL)
    return;
  BlockHeader *h = (BlockHeader *) p - 1;
  fx_memory_release (h->booked);
  free (h);
}

static void *
bounded_realloc (void *p, size_t bytes)
{
  if (p == NULL)
    return bounded_malloc (bytes);
  guint64 booked;
  if (!book_block (bytes, &booked))
    return NULL;
  BlockHeader *h = (BlockHeader *) p - 1;
  guint64 old = h->booked;
  void *raw = realloc (h, bytes + sizeof (BlockHeader));
  if (raw == NULL)
    {
      fx_memory_release (booked);
      return NULL;  /* the old block stays, with its booking */
    }
  /* (during the copy both blocks were booked) */
  fx_memory_release (old);
  ((BlockHeader *) raw)->booked = booked;
  return (BlockHeader *) raw + 1;
}

static void
install_bounded_allocator (void)
{
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
#if SUITESPARSE_MAIN_VERSION >= 7
      /* 7.x hides the struct behind setters (the Flatpak builds 7.3) */
      SuiteSparse_config_malloc_func_set (bounded_malloc);
      SuiteSparse_config_calloc_func_set (bounded_calloc);
      SuiteSparse_config_realloc_func_set (bounded_realloc);
      SuiteSparse_config_free_func_set (bounded_free);
#else
      SuiteSparse_config.malloc_func = bounded_malloc;
      SuiteSparse_config.calloc_func = bounded_calloc;
      SuiteSparse_config.realloc_func = bounded_realloc;
      SuiteSparse_config.free_func = bounded_free;
#endif
      g_once_init_leave (&once, 1);
    }
}

/* -------------------------------------------------------------- recording */

/* A small cache of the entries recorded last: an assembly adds each entry
 * several times (the element's mass and stiffness blocks, the node two
 * neighbouring elements share), and a repeat seen here is not recorded
 * again. That leaves about one record per entry of the pattern where there
 * were 2.5 (a link: 144 calls per element for 58 entries). An empty slot
 * reads as (0, 0), which is on the diagonal and in every pattern anyway. */
#define REC_SEEN_BITS 12

static void
clear_recording (FxMatrix *m)
{
  g_clear_pointer (&m->rec, g_free);
  g_clear_pointer (&m->rec_seen, g_free);
  g_clear_error (&m->rec_refused);
  fx_memory_release (m->rec_booked);
  m->rec_len = m->rec_cap = 0;
  m->rec_booked = m->rec_calls = 0;
}

/* Room for more records, booked before it is allocated (the old and the
 * new block both, while realloc may copy); FALSE, keeping the message, if
 * the limit has no room. */
static gboolean
grow_recording (FxMatrix *m)
{
  gsize cap = MAX (1024, m->rec_cap + m->rec_cap / 2);
  guint64 old = (guint64) m->rec_cap * sizeof (Entry), bytes = (guint64) cap * sizeof (Entry);

  g_autofree char *what = g_strdup_printf (_("the pattern of the Newton matrix of %u unknowns"),
                                           m->n);
  if (!fx_memory_reserve (bytes, what, MATRIX_ADVICE, &m->rec_refused))
    return FALSE;
  m->rec = g_renew (Entry, m->rec, cap);
  m->rec_cap = cap;
  fx_memory_release (old);
  m->rec_booked += bytes - old;
  return TRUE;
}

static void
record (FxMatrix *m, guint i, guint j)
{
  if (m->analyzed)
    m->pattern_changed = TRUE;
  m->rec_calls++;
  if (m->rec_refused != NULL)
    return;  /* fx_matrix_analyze says so */
  if (m->rec_seen == NULL)
    m->rec_seen = g_new0 (Entry, 1u << REC_SEEN_BITS);
  guint h = (i * 0x9E3779B1u ^ j * 0x85EBCA77u) >> (32 - REC_SEEN_BITS);
  Entry *seen = &m->rec_seen[h];
  if (seen->i == i && seen->j == j)
    return;
  *seen = (Entry) { i, j };
  if (m->rec_len == m->rec_cap && !grow_recording (m))
    return;
  m->rec[m->rec_len++] = (Entry) { i, j };
}

/* ------------------------------------------------------------- life cycle */

FxMatrix *
fx_matrix_new (guint n, FxMatrixKind kind)
{
  FxMatrix *m = g_new0 (FxMatrix, 1);

  m->n = n;
  m->requested = kind;
  m->kind = kind;
  install_bounded_allocator ();
  klu_defaults (&m->common);
  /* KLU prefers the diagonal pivot unless it is below tol times the
   * column's largest entry. Finely meshed links have small mass diagonals
   * next to large stiffness terms: at KLU's default 1e-3 it pivots off the
   * diagonal there, the AMD ordering no longer holds, and the fill (a plate
   * linkage with a 5000-element rocker: 30 s a factorisation) explodes.
   * 1e-6 keeps the ordering; Newton, judged on the residual, notices a poor
   * solve, and fx_matrix_factorize checks the fill it got. */
  m->common.tol = 1e-6;
  return m;
}

static void
release_solver (FxMatrix *m)
{
  g_clear_pointer (&m->Ap, g_free);
  g_clear_pointer (&m->Ai, g_free);
  fx_memory_release (m->pattern_booked);
  m->pattern_booked = 0;
  g_clear_pointer (&m->perm, g_free);
  g_clear_pointer (&m->plan_perm, g_free);
  g_clear_pointer (&m->AB, gsl_matrix_free);
  m->band = NULL;
  g_clear_pointer (&m->piv, gsl_vector_uint_free);
  g_clear_pointer (&m->work, g_free);
  g_clear_pointer (&m->Ax, g_free);
  g_clear_pointer (&m->seq_slot, g_free);
  fx_memory_release (m->seq_booked);
  m->seq_booked = 0;
  m->seq_len = m->seq_cap = m->cursor = 0;
  if (m->numeric)
    klu_free_numeric (&m->numeric, &m->common);
  if (m->symbolic)
    klu_free_symbolic (&m->symbolic, &m->common);
  g_clear_pointer (&m->D, gsl_matrix_free);
  g_clear_pointer (&m->dense_perm, gsl_permutation_free);
  g_clear_pointer (&m->description, g_free);
  fx_memory_release (m->reserved);
  m->reserved = 0;
  m->analyzed = FALSE;
}

void
fx_matrix_free (FxMatrix *m)
{
  if (m == NULL)
    return;
  release_solver (m);
  clear_recording (m);
  g_free (m);
}

guint fx_matrix_size (const FxMatrix *m) { return m->n; }
FxMatrixKind fx_matrix_kind (const FxMatrix *m) { return m->kind; }
guint fx_matrix_n_factorizations (const FxMatrix *m) { return m->n_factorizations; }
double fx_matrix_cost (const FxMatrix *m) { return m->cost; }

void
fx_matrix_predicted_costs (const FxMatrix *m, double *band, double *sparse)
{
  *band = m->band_cost;
  *sparse = m->sparse_cost;
}

const char *
fx_matrix_describe (const FxMatrix *m)
{
  return m->description ? m->description : "not analysed";
}

/* ---------------------------------------------------------------- pattern */

static int
compare_int (gconstpointer a, gconstpointer b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return x < y ? -1 : x > y;
}

/* Books a transient's `bytes` before they are allocated, or says why not. */
static gboolean
book (FxMatrix *m, guint64 bytes, GError **error)
{
  g_autofree char *what = g_strdup_printf (_("the analysis of the Newton matrix of %u unknowns"),
                                           m->n);
  return fx_memory_reserve (bytes, what, MATRIX_ADVICE, error);
}

/* The recorded entries (and the diagonal) as a column-compressed pattern:
 * bucketed by column, the recording freed, then each column's rows sorted
 * and made unique in place, and the array trimmed to them. At its peak
 * 12 bytes per record (the records and their rows), where it took 16 and
 * kept them all (a recording of 1.1 GB stayed for the whole run). */
static gboolean
build_pattern (FxMatrix *m, GError **error)
{
  const guint n = m->n;
  const gsize len = m->rec_len;

  if (m->rec_refused != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&m->rec_refused));
      clear_recording (m);
      return FALSE;
    }
  guint64 need = ((guint64) len + n) * sizeof (int) + 3 * ((guint64) n + 1) * sizeof (guint);
  if (!book (m, need, error))
    {
      clear_recording (m);
      return FALSE;
    }
  g_autofree guint *count = g_new0 (guint, n + 1);
  int *rows = g_new (int, MAX (len + n, 1));

  for (gsize k = 0; k < len; k++)
    count[m->rec[k].j + 1]++;
  for (guint j = 0; j < n; j++)
    count[j + 1] += count[j] + 1;  /* + 1: room for the diagonal */
  g_autofree guint *fill = g_memdup2 (count, sizeof (guint) * (n + 1));
  for (guint j = 0; j < n; j++)
    rows[fill[j]++] = (int) j;
  for (gsize k = 0; k < len; k++)
    rows[fill[m->rec[k].j]++] = (int) m->rec[k].i;
  clear_recording (m);
  g_clear_pointer (&fill, g_free);

  m->Ap = g_new0 (int, n + 1);
  guint nnz = 0;
  for (guint j = 0; j < n; j++)
    {
      /* the unique rows move down: never past the ones still to be read */
      int *col = rows + count[j];
      guint c = count[j + 1] - count[j];
      qsort (col, c, sizeof (int), compare_int);
      int prev = -1;
      for (guint k = 0; k < c; k++)
        if (col[k] != prev)
          rows[nnz++] = prev = col[k];
      m->Ap[j + 1] = (int) nnz;
    }
  m->Ai = g_renew (int, rows, MAX (nnz, 1));
  m->nnz = nnz;
  /* Ap and Ai stay booked; the rest goes back */
  m->pattern_booked = ((guint64) MAX (nnz, 1) + n + 1) * sizeof (int);
  fx_memory_release (need - MIN (need, m->pattern_booked));
  return TRUE;
}

/* Slot of (i, j) in the column-compressed pattern, or -1. */
static gssize
find_slot (const FxMatrix *m, guint i, guint j)
{
  int lo = m->Ap[j], hi = m->Ap[j + 1] - 1;
  while (lo <= hi)
    {
      int mid = (lo + hi) / 2;
      if (m->Ai[mid] == (int) i)
        return mid;
      if (m->Ai[mid] < (int) i)
        lo = mid + 1;
      else
        hi = mid - 1;
    }
  return -1;
}

/* ------------------------------------------------ reverse Cuthill-McKee */

/* A bandwidth-reducing order of the symmetric pattern A + A^T: breadth-first
 * from a low-degree node of each component, neighbours by rising degree,
 * the whole order reversed. perm[i] is the new position of unknown i. */
static void
rcm_order (const FxMatrix *m, guint *perm)
{
  const guint n = m->n;
  g_autofree guint *deg = g_new0 (guint, n + 1);
  g_autofree guint *start = g_new0 (guint, n + 1);

  for (guint j = 0; j < n; j++)
    for (int k = m->Ap[j]; k < m->Ap[j + 1]; k++)
      if ((guint) m->Ai[k] != j)
        deg[m->Ai[k]]++, deg[j]++;
  for (guint i = 0; i < n; i++)
    start[i + 1] = start[i] + deg[i];
  g_autofree guint *adj = g_new (guint, MAX (start[n], 1));
  g_autofree guint *fill = g_new0 (guint, n + 1);
  for (guint j = 0; j < n; j++)
    for (int k = m->Ap[j]; k < m->Ap[j + 1]; k++)
      {
        guint i = (guint) m->Ai[k];
        if (i == j)
          continue;
        adj[start[i] + fill[i]++] = j;
        adj[start[j] + fill[j]++] = i;
      }

  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autofree gboolean *seen = g_new0 (gboolean, MAX (n, 1));
  /* the nodes by degree, then index (a counting sort): the roots below are
   * taken from it in one pass, where a scan of all nodes per component was
   * quadratic for a model of many separate parts (issue 31, item 8) */
  guint max_deg = 0;
  for (guint i = 0; i < n; i++)
    max_deg = MAX (max_deg, deg[i]);
  g_autofree guint *by_deg_start = g_new0 (guint, (gsize) max_deg + 2);
  g_autofree guint *by_deg = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    by_deg_start[deg[i] + 1]++;
  for (guint d = 0; d <= max_deg; d++)
    by_deg_start[d + 1] += by_deg_start[d];
  for (guint i = 0; i < n; i++)
    by_deg[by_deg_start[deg[i]]++] = i;
  guint head = 0, tail = 0, next_root = 0;
  for (;;)
    {
      /* the unvisited node of least degree (the lowest index of equals)
       * starts the next component */
      while (next_root < n && seen[by_deg[next_root]])
        next_root++;
      if (next_root == n)
        break;
      guint root = by_deg[next_root];
      seen[root] = TRUE;
      order[tail++] = root;
      while (head < tail)
        {
          guint v = order[head++], first = tail;
          for (guint k = start[v]; k < start[v + 1]; k++)
            if (!seen[adj[k]])
              {
                seen[adj[k]] = TRUE;
                order[tail++] = adj[k];
              }
          /* insertion sort of the new neighbours by degree (few of them) */
          for (guint a = first + 1; a < tail; a++)
            for (guint b = a; b > first && deg[order[b]] < deg[order[b - 1]]; b--)
              {
                guint t = order[b];
                order[b] = order[b - 1];
                order[b - 1] = t;
              }
        }
    }
  for (guint k = 0; k < n; k++)
    perm[order[k]] = n - 1 - k;
}

/* Lower and upper bandwidth of the pattern under `perm` (NULL: identity). */
static void
bandwidths (const FxMatrix *m, const guint *perm, guint *kl, guint *ku)
{
  *kl = *ku = 0;
  for (guint j = 0; j < m->n; j++)
    for (int k = m->Ap[j]; k < m->Ap[j + 1]; k++)
      {
        guint pi = perm ? perm[m->Ai[k]] : (guint) m->Ai[k], pj = perm ? perm[j] : j;
        if (pi > pj)
          *kl = MAX (*kl, pi - pj);
        else
          *ku = MAX (*ku, pj - pi);
      }
}

/* ---------------------------------------------------------------- analyse */

static gboolean
setup_band (FxMatrix *m)
{
  m->AB = gsl_matrix_calloc (MAX (m->n, 1), 2 * m->kl + m->ku + 1);
  m->band = m->AB->data;
  m->ldab = m->AB->tda;
  m->piv = gsl_vector_uint_alloc (MAX (m->n, 1));
  m->work = g_new0 (double, MAX (m->n, 1));
  m->kind = FX_MATRIX_BANDED;
  m->cost = (double) m->n * m->kl * (m->kl + m->ku + 1.0);
  m->description = g_strdup_printf (_("banded LU (GSL), %u unknowns, bandwidth %u + %u"),
                                    m->n, m->kl, m->ku);
  return TRUE;
}

static void
setup_sparse (FxMatrix *m, guint64 calls)
{
  m->Ax = g_new0 (double, MAX (m->nnz, 1));
  /* a slot for each call of the pass that recorded the pattern (booked
   * with the path); more as they come */
  m->seq_cap = (guint) MIN (calls, (guint64) G_MAXUINT);
  m->seq_slot = g_new (guint, MAX (m->seq_cap, 1));
  m->kind = FX_MATRIX_SPARSE;
  /* indirect addressing: a sparse flop costs about four banded ones
   * (bench-topology), as in the choice of path below */
  m->cost = 4.0 * (m->symbolic->est_flops + m->symbolic->lnz + m->symbolic->unz);
  m->description = g_strdup_printf (_("sparse LU (KLU), %u unknowns, %u non-zeros, "
                                      "%.0f in the factors"),
                                    m->n, m->nnz, m->symbolic->lnz + m->symbolic->unz);
}

/* Books the chosen path's bytes in the memory ledger (fx-memory.h), or
 * says why not: TRUE if it does NOT fit. */
static gboolean
too_large (FxMatrix *m, guint64 bytes, const char *what, GError **error)
{
  g_autofree char *whole = g_strdup_printf (_("the Newton matrix (%s)"), what);
  if (!fx_memory_reserve (bytes, whole, MATRIX_ADVICE, error))
    return TRUE;
  m->reserved = bytes;
  return FALSE;
}

/* What the limit leaves beside the ledger, to choose the path. */
static guint64
memory_left (void)
{
  guint64 limit = fx_memory_limit_get (), used = fx_memory_reserved ();
  return limit > used ? limit - used : 0;
}

/* The banded path's bytes: the band with LU's fill-in rows, its order,
 * pivots and solve vector. */
static guint64
band_path_bytes (guint n, guint kl, guint ku)
{
  return (guint64) MAX (n, 1) * ((2 * kl + ku + 1) * sizeof (double) + 2 * sizeof (guint)
                                 + sizeof (double));
}

/* Every transient of the analysis is booked before it is allocated, and a
 * model the limit cannot hold is refused here (or in the recording before
 * it) and not past the limit: a 10^6-element link peaked at 2.18 GB under
 * --max-memory 2G before it was refused, a truss of 10^6 elements at 2.15 GB
 * (issue 31, item 4). */
gboolean
fx_matrix_analyze (FxMatrix *m, GError **error)
{
  const guint n = m->n;

  /* keep the entries of the old pattern when it grows */
  if (m->Ap != NULL)
    for (guint j = 0; j < n; j++)
      for (int k = m->Ap[j]; k < m->Ap[j + 1]; k++)
        record (m, (guint) m->Ai[k], j);
  guint64 calls = m->rec_calls;
  release_solver (m);
  m->pattern_changed = FALSE;
  m->n_factorizations = 0;

  if (m->requested == FX_MATRIX_DENSE)
    {
      clear_recording (m);
      if (too_large (m, (guint64) n * n * 16, _("dense"), error))
        return FALSE;
      m->D = gsl_matrix_calloc (MAX (n, 1), MAX (n, 1));
      m->dense_perm = gsl_permutation_alloc (MAX (n, 1));
      m->kind = FX_MATRIX_DENSE;
      m->cost = (double) n * n * n / 3.0;
      m->band_cost = m->sparse_cost = INFINITY;
      m->description = g_strdup_printf (_("dense LU (GSL), %u unknowns"), n);
      m->analyzed = TRUE;
      return TRUE;
    }

  if (!build_pattern (m, error))
    return FALSE;

  /* banded: the better of the natural order and reverse Cuthill-McKee,
   * whose adjacency lists hold each off-diagonal entry twice */
  guint64 rcm_kept = (guint64) MAX (n, 1) * sizeof (guint);
  guint64 rcm_work = (2 * ((guint64) m->nnz - MIN (m->nnz, n)) + 8 * (guint64) n + 5) * sizeof (guint);
  if (!book (m, rcm_kept + rcm_work, error))
    return FALSE;
  guint kl0, ku0, kl1, ku1;
  g_autofree guint *rcm = g_new (guint, MAX (n, 1));
  bandwidths (m, NULL, &kl0, &ku0);
  rcm_order (m, rcm);
  fx_memory_release (rcm_work);
  bandwidths (m, rcm, &kl1, &ku1);
  gboolean use_rcm = kl1 + ku1 < kl0 + ku0;
  guint kl = use_rcm ? kl1 : kl0, ku = use_rcm ? ku1 : ku0;
  kl = MIN (kl, n > 0 ? n - 1 : 0);
  ku = MIN (ku, n > 0 ? n - 1 : 0);
  guint64 band_bytes = band_path_bytes (n, kl, ku);
  /* dgbtf2 does about kl (kl + ku) multiply-adds per column */
  double band_cost = (double) n * kl * (kl + ku + 1.0);

  /* sparse: KLU's symbolic analysis predicts the fill; its own workspace
   * (AMD's on A + A^T) is booked block by block as KLU asks for it, and if
   * the limit has no room the band is the only path */
  double sparse_cost = INFINITY;
  guint64 sparse_bytes = G_MAXUINT64;
  if (m->requested != FX_MATRIX_BANDED && n > 0)
    {
      klu_booking = TRUE;
      m->symbolic = klu_analyze ((int) n, m->Ap, m->Ai, &m->common);
      klu_booking = FALSE;
      if (m->symbolic != NULL)
        {
          double fill = m->symbolic->lnz + m->symbolic->unz;
          /* the factors and KLU's numeric arrays; the values; a slot per
           * assembly call; the band's order kept aside */
          sparse_bytes = (guint64) ((fill + m->nnz) * (sizeof (double) + sizeof (int)) * 1.5)
                         + calls * sizeof (guint) + (guint64) n * sizeof (guint);
          /* indirect addressing costs several flops a flop: measured by
           * bench-topology, KLU beats the band when it does about 4x fewer */
          sparse_cost = 4.0 * (m->symbolic->est_flops + fill);
        }
    }

  m->band_cost = band_cost;
  m->sparse_cost = sparse_cost;
  g_debug ("Newton matrix: %u unknowns, %u non-zeros; banded %u+%u costs %.3g, "
           "KLU (%.3g flops, fill %.3g) %.3g",
           n, m->nnz, kl, ku, band_cost, m->symbolic ? m->symbolic->est_flops : 0,
           m->symbolic ? m->symbolic->lnz + m->symbolic->unz : 0, sparse_cost);
  gboolean band = m->requested == FX_MATRIX_BANDED
                  || (m->requested == FX_MATRIX_AUTO && band_cost <= sparse_cost)
                  || m->symbolic == NULL;
  guint64 left = memory_left ();
  if (band && band_bytes > left && m->requested == FX_MATRIX_AUTO && m->symbolic != NULL)
    band = FALSE;
  if (!band && sparse_bytes > left && m->requested == FX_MATRIX_AUTO)
    band = TRUE;

  gboolean ok;
  if (band)
    {
      if (m->symbolic)
        klu_free_symbolic (&m->symbolic, &m->common);
      ok = !too_large (m, band_bytes, _("banded"), error);
      if (ok)
        {
          m->kl = kl;
          m->ku = ku;
          m->perm = g_new (guint, MAX (n, 1));
          for (guint i = 0; i < n; i++)
            m->perm[i] = use_rcm ? rcm[i] : i;
          setup_band (m);
        }
    }
  else
    {
      ok = !too_large (m, sparse_bytes, _("sparse"), error);
      if (ok)
        {
          setup_sparse (m, calls);
          if (m->requested == FX_MATRIX_AUTO && band_bytes <= memory_left () + m->reserved)
            {
              m->plan_kl = kl;
              m->plan_ku = ku;
              m->plan_perm = g_new (guint, MAX (n, 1));
              for (guint i = 0; i < n; i++)
                m->plan_perm[i] = use_rcm ? rcm[i] : i;
            }
        }
    }
  fx_memory_release (rcm_kept);
  if (!ok)
    return FALSE;
  m->analyzed = TRUE;
  return TRUE;
}

/* --------------------------------------------------------------- assembly */

void
fx_matrix_zero (FxMatrix *m)
{
  m->cursor = 0;
  switch (m->analyzed ? m->kind : FX_MATRIX_AUTO)
    {
    case FX_MATRIX_BANDED: gsl_matrix_set_zero (m->AB); break;
    case FX_MATRIX_SPARSE: memset (m->Ax, 0, sizeof (double) * m->nnz); break;
    case FX_MATRIX_DENSE:  gsl_matrix_set_zero (m->D); break;
    case FX_MATRIX_AUTO: default: break;
    }
}

/* Room for the k-th call's slot, booked; FALSE if the limit has none
 * (then the calls from there on search, as slowly as they are correct). */
static gboolean
grow_seq (FxMatrix *m, guint k)
{
  guint cap = MAX (MAX (64u, k + 1), m->seq_cap + m->seq_cap / 2);
  guint64 more = (guint64) (cap - m->seq_cap) * sizeof (guint);
  if (!fx_memory_reserve (more, "", "", NULL))
    return FALSE;
  m->seq_booked += more;
  m->seq_slot = g_renew (guint, m->seq_slot, cap);
  m->seq_cap = cap;
  return TRUE;
}

static void
sparse_add (FxMatrix *m, guint i, guint j, double value)
{
  guint k = m->cursor++;
  /* the k-th call's slot, if it still holds (i, j): its row, and within
   * column j (4 bytes a call, where (i, j, slot) took 12: 1.7 GB for a
   * truss of 10^6 elements) */
  if (k < m->seq_len)
    {
      guint slot = m->seq_slot[k];
      if (m->Ai[slot] == (int) i && (int) slot >= m->Ap[j] && (int) slot < m->Ap[j + 1])
        {
          m->Ax[slot] += value;
          return;
        }
    }
  gssize slot = find_slot (m, i, j);
  if (slot < 0)
    {
      record (m, i, j);
      return;
    }
  m->Ax[slot] += value;
  if (k >= m->seq_cap && !grow_seq (m, k))
    return;
  /* remember the k-th call; a pass that calls in another order rewrites it */
  if (k >= m->seq_len)
    {
      /* (calls skipped when the limit refused room read as slot 0) */
      for (guint q = m->seq_len; q < k; q++)
        m->seq_slot[q] = 0;
      m->seq_len = k + 1;
    }
  m->seq_slot[k] = (guint) slot;
}

void
fx_matrix_band_view (FxMatrix *m, FxBandView *view)
{
  *view = (FxBandView) { m->band, m->ldab, m->kl, m->ku, m->perm };
}

/* Called for every term of every assembly: the banded case first and lean. */
void
fx_matrix_add (FxMatrix *m, guint i, guint j, double value)
{
  if (G_LIKELY (m->band != NULL))
    {
      guint pi = m->perm[i], pj = m->perm[j];
      if (G_LIKELY (pi <= pj + m->kl && pj <= pi + m->ku))
        m->band[(gsize) pj * m->ldab + m->kl + m->ku + pi - pj] += value;
      else
        record (m, i, j);
      return;
    }
  g_return_if_fail (i < m->n && j < m->n);
  if (!m->analyzed)
    record (m, i, j);
  else if (m->kind == FX_MATRIX_SPARSE)
    sparse_add (m, i, j, value);
  else if (m->kind == FX_MATRIX_DENSE)
    m->D->data[(gsize) i * m->D->tda + j] += value;
}

double
fx_matrix_get (const FxMatrix *m, guint i, guint j)
{
  g_return_val_if_fail (i < m->n && j < m->n, 0.0);
  if (!m->analyzed)
    return 0.0;
  switch (m->kind)
    {
    case FX_MATRIX_BANDED:
      {
        guint pi = m->perm[i], pj = m->perm[j];
        if (pi > pj + m->kl || pj > pi + m->ku)
          return 0.0;
        return gsl_matrix_get (m->AB, pj, m->kl + m->ku + pi - pj);
      }
    case FX_MATRIX_SPARSE:
      {
        gssize slot = find_slot (m, i, j);
        return slot < 0 ? 0.0 : m->Ax[slot];
      }
    case FX_MATRIX_DENSE:
      return gsl_matrix_get (m->D, i, j);
    case FX_MATRIX_AUTO:
    default:
      return 0.0;
    }
}

gboolean
fx_matrix_pattern (const FxMatrix *m, const int **Ap, const int **Ai)
{
  if (!m->analyzed || m->Ap == NULL)
    return FALSE;
  *Ap = m->Ap;
  *Ai = m->Ai;
  return TRUE;
}

gboolean
fx_matrix_in_pattern (const FxMatrix *m, guint i, guint j)
{
  if (!m->analyzed || i >= m->n || j >= m->n)
    return FALSE;
  if (m->kind == FX_MATRIX_DENSE)
    return TRUE;
  return find_slot (m, i, j) >= 0;
}

/* ---------------------------------------------------------- factorisation */

/* LAPACK's dgbtf2 (unblocked banded LU with partial pivoting) on GSL's
 * band layout (column j of A contiguous: A(i, j) at band[j ldab + kv + i - j],
 * kv = kl + ku, the kl rows above for the fill-in of row exchanges), with
 * the pivots as gsl_linalg_LU_band_decomp stores them. Written out because
 * GSL's version calls BLAS level 1 and 2 per column through vector views:
 * on a band of 7 + 8 the calls cost more than the arithmetic (bench-newton,
 * perf: 35 % of a 1000-element link's step, half of it call overhead). */
/* y -= t x over n entries that do not overlap, two at a time: the same
 * multiply and subtract per entry as the scalar loop (bit for bit; no fused
 * multiply-add under -std=c17), but GCC at -O2 vectorises no loop whose
 * length is only known at run time, and these (7 or 8 long on a link)
 * are the band LU's and solve's whole arithmetic. */
typedef double Pair __attribute__ ((vector_size (16)));

static inline void
sub_scaled (double *restrict y, const double *restrict x, double t, guint n)
{
  const Pair tt = { t, t };
  guint p = 0;
  for (; p + 2 <= n; p += 2)
    {
      Pair a, b;
      memcpy (&a, y + p, sizeof a);
      memcpy (&b, x + p, sizeof b);
      a -= b * tt;
      memcpy (y + p, &a, sizeof a);
    }
  if (p < n)
    y[p] -= x[p] * t;
}

static void
band_lu (guint n, guint kl, guint ku, double *band, gsize ldab, guint *piv)
{
  const guint kv = kl + ku;
  guint ju = 0;

  /* the fill-in rows of the first columns start at zero */
  for (guint j = ku + 1; j < MIN (kv, n); j++)
    for (guint r = kv - j; r < kl; r++)
      band[j * ldab + r] = 0.0;
  for (guint j = 0; j < n; j++)
    {
      double *col = band + j * ldab;
      if (j + kv < n)
        memset (band + (j + kv) * ldab, 0, sizeof (double) * kl);
      guint km = MIN (kl, n - 1 - j), jp = 0;
      double best = fabs (col[kv]);
      for (guint p = 1; p <= km; p++)
        if (fabs (col[kv + p]) > best)
          {
            best = fabs (col[kv + p]);
            jp = p;
          }
      piv[j] = j + jp;
      if (col[kv + jp] == 0.0)
        continue;  /* singular: found on U's diagonal by the caller */
      ju = MAX (ju, MIN (j + ku + jp, n - 1));
      if (jp != 0)
        for (guint c = 0; c <= ju - j; c++)
          {
            double *cc = band + (j + c) * ldab + kv - c;
            double t = cc[jp];
            cc[jp] = cc[0];
            cc[0] = t;
          }
      if (km == 0)
        continue;
      double inv = 1.0 / col[kv];
      for (guint p = 1; p <= km; p++)
        col[kv + p] *= inv;
      for (guint c = 1; c <= ju - j; c++)
        {
          double *cc = band + (j + c) * ldab + kv - c;
          double t = cc[0];
          if (t == 0.0)
            continue;
          sub_scaled (cc + 1, col + kv + 1, t, km);
        }
    }
}

/* LAPACK's dgbtrs after band_lu: L with the row exchanges, then U. */
static void
band_solve (guint n, guint kl, guint ku, const double *band, gsize ldab, const guint *piv,
            double *b)
{
  const guint kv = kl + ku;

  for (guint j = 0; j + 1 < n && kl > 0; j++)
    {
      guint lm = MIN (kl, n - 1 - j), l = piv[j];
      if (l != j)
        {
          double t = b[l];
          b[l] = b[j];
          b[j] = t;
        }
      const double *col = band + j * ldab + kv;
      sub_scaled (b + j + 1, col + 1, b[j], lm);
    }
  for (guint j = n; j-- > 0;)
    {
      const double *col = band + j * ldab + kv;
      b[j] /= col[0];
      guint top = j > kv ? kv : j;
      sub_scaled (b + j - top, col - top, b[j], top);
    }
}

static FxMatrixStatus
factorize_band (FxMatrix *m)
{
  const guint kv = m->kl + m->ku;

  band_lu (m->n, m->kl, m->ku, m->band, m->ldab, m->piv->data);
  /* a zero pivot is left in place: look at U's diagonal (a non-finite
   * entry anywhere reaches it too) */
  for (guint j = 0; j < m->n; j++)
    {
      double u = m->band[(gsize) j * m->ldab + kv];
      if (u == 0.0 || !isfinite (u))
        return FX_MATRIX_SINGULAR;
    }
  return FX_MATRIX_OK;
}

static FxMatrixStatus factorize_band (FxMatrix *m);

/* From KLU to the banded path, keeping this assembly's values. */
static FxMatrixStatus
switch_to_band (FxMatrix *m)
{
  g_autofree double *Ax = g_steal_pointer (&m->Ax);

  klu_free_numeric (&m->numeric, &m->common);
  klu_free_symbolic (&m->symbolic, &m->common);
  g_clear_pointer (&m->description, g_free);
  g_clear_pointer (&m->seq_slot, g_free);
  fx_memory_release (m->seq_booked);
  m->seq_booked = 0;
  m->seq_len = m->seq_cap = m->cursor = 0;
  m->kl = m->plan_kl;
  m->ku = m->plan_ku;
  m->perm = g_steal_pointer (&m->plan_perm);
  setup_band (m);
  /* the band's bytes for the sparse path's in the ledger (they fitted
   * beside it when the plan was kept) */
  fx_memory_release (m->reserved);
  guint64 band_bytes = band_path_bytes (m->n, m->kl, m->ku);
  m->reserved = fx_memory_reserve (band_bytes, "", "", NULL) ? band_bytes : 0;
  for (guint j = 0; j < m->n; j++)
    for (int k = m->Ap[j]; k < m->Ap[j + 1]; k++)
      fx_matrix_add (m, (guint) m->Ai[k], j, Ax[k]);
  g_debug ("KLU's fill went past %g times its prediction (pivots off the diagonal): %s",
           FILL_BOUND, m->description);
  return factorize_band (m);
}

/* A fresh KLU factorisation, bounded when the band is there to take over. */
static klu_numeric *
fresh_klu_factor (FxMatrix *m, gboolean *bound_hit)
{
  double predicted = m->symbolic->lnz + m->symbolic->unz;
  /* the factors keep an int index and a double per entry; the O(n) work
   * arrays are far below this */
  klu_bound = m->plan_perm == NULL ? 0
              : (size_t) ((FILL_BOUND * predicted + 8.0 * m->n) * (sizeof (double) + sizeof (int)));
  klu_bound_hit = FALSE;
  klu_numeric *numeric = klu_factor (m->Ap, m->Ai, m->Ax, m->symbolic, &m->common);
  *bound_hit = klu_bound_hit;
  klu_bound = 0;
  return numeric;
}

static FxMatrixStatus
factorize_sparse (FxMatrix *m)
{
  for (guint k = 0; k < m->nnz; k++)
    if (!isfinite (m->Ax[k]))
      return FX_MATRIX_SINGULAR;
  if (m->numeric != NULL && !klu_refactor (m->Ap, m->Ai, m->Ax, m->symbolic, m->numeric, &m->common))
    klu_free_numeric (&m->numeric, &m->common);
  gboolean fresh = m->numeric == NULL, bound_hit = FALSE;
  if (fresh)
    m->numeric = fresh_klu_factor (m, &bound_hit);
  if (bound_hit && m->plan_perm != NULL)
    {
      if (m->numeric)
        klu_free_numeric (&m->numeric, &m->common);
      return switch_to_band (m);
    }
  if (m->numeric == NULL || m->common.status != KLU_OK)
    {
      if (m->numeric)
        klu_free_numeric (&m->numeric, &m->common);
      return FX_MATRIX_SINGULAR;
    }
  /* pivoting can spoil the predicted fill: far more than predicted (but
   * within the bound's slack), and the band is the cheaper path after all */
  double predicted = m->symbolic->lnz + m->symbolic->unz;
  if (fresh)
    g_debug ("KLU factorisation: %d off-diagonal pivots, %.3g in the factors (predicted %.3g)",
             m->common.noffdiag, (double) m->numeric->lnz + m->numeric->unz, predicted);
  if (fresh && m->plan_perm != NULL && m->numeric->lnz + m->numeric->unz > FILL_BOUND * predicted)
    return switch_to_band (m);
  return FX_MATRIX_OK;
}

static FxMatrixStatus
factorize_dense (FxMatrix *m)
{
  int sign;
  for (guint i = 0; i < m->n; i++)
    for (guint j = 0; j < m->n; j++)
      if (!isfinite (gsl_matrix_get (m->D, i, j)))
        return FX_MATRIX_SINGULAR;
  gsl_linalg_LU_decomp (m->D, m->dense_perm, &sign);
  for (guint i = 0; i < m->n; i++)
    if (gsl_matrix_get (m->D, i, i) == 0.0)
      return FX_MATRIX_SINGULAR;
  return FX_MATRIX_OK;
}

FxMatrixStatus
fx_matrix_factorize (FxMatrix *m)
{
  g_return_val_if_fail (m->analyzed, FX_MATRIX_SINGULAR);
  if (m->pattern_changed)
    return FX_MATRIX_PATTERN_CHANGED;
  m->n_factorizations++;
  if (m->n == 0)
    return FX_MATRIX_OK;
  switch (m->kind)
    {
    case FX_MATRIX_BANDED: return factorize_band (m);
    case FX_MATRIX_SPARSE: return factorize_sparse (m);
    case FX_MATRIX_DENSE:  return factorize_dense (m);
    case FX_MATRIX_AUTO:
    default:               return FX_MATRIX_SINGULAR;
    }
}

void
fx_matrix_refresh_pivots (FxMatrix *m)
{
  if (m->numeric)
    klu_free_numeric (&m->numeric, &m->common);
}

void
fx_matrix_solve (FxMatrix *m, double *b)
{
  if (m->n == 0)
    return;
  switch (m->kind)
    {
    case FX_MATRIX_BANDED:
      {
        for (guint i = 0; i < m->n; i++)
          m->work[m->perm[i]] = b[i];
        band_solve (m->n, m->kl, m->ku, m->band, m->ldab, m->piv->data, m->work);
        for (guint i = 0; i < m->n; i++)
          b[i] = m->work[m->perm[i]];
        break;
      }
    case FX_MATRIX_SPARSE:
      klu_solve (m->symbolic, m->numeric, (int) m->n, 1, b, &m->common);
      break;
    case FX_MATRIX_DENSE:
      {
        gsl_vector_view v = gsl_vector_view_array (b, m->n);
        gsl_linalg_LU_svx (m->D, m->dense_perm, &v.vector);
        break;
      }
    case FX_MATRIX_AUTO:
    default:
      break;
    }
}
