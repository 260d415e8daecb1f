/* fx-modes-arnoldi.c: the iterative path of the modes study
 * (docs/theory.md §8): the lowest vibrations of a model beyond the dense
 * limit, by shift-invert Arnoldi on the midpoint's own Newton matrix. */
#include "fx-modes-private.h"
#include "fx-modes-frame.h"
#include "fx-memory.h"
#include "fx-cancel.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include <math.h>
#include <string.h>

/* --------------------------------------- large models: Arnoldi */

/* The lowest vibrations of a model beyond the dense limit. The Cayley
 * transform T = (E - dt/2 A)^-1 E of the pencil has the eigenvalues
 * mu = 1 / (1 - i omega dt / 2): 1 for motions and self-stress states, 0
 * for massless and rigid directions, and in between a modulus that falls
 * as omega rises, so Arnoldi's iteration on T finds the lowest vibrations
 * first. E - dt/2 A is the midpoint's own Newton matrix at rest (banded or
 * sparse, FxMatrix); E x is the residual at dt = 0. */
#define ARNOLDI_MIN 60       /* Krylov vectors, at least                */
#define ARNOLDI_MAX_M 400    /* and at most: the Ritz step is O(m^3)     */
#define ARNOLDI_MAX_N 400000 /* unknowns: (m + 1) n doubles of storage   */
#define RITZ_RTOL 1e-8       /* accepted Ritz pairs: residual / |mu|     */
#define MU_MIN 1e-9          /* |mu| below: an infinite eigenvalue       */

/* The iteration's operator. A floating frame's Newton matrix at rest is
 * E - dt/2 A + dt^2/4 K_q (fx-modes-frame.c): its configuration stiffness
 * K_q = D^T D brings stresses s of unit compliance, C s' = D v, M v' =
 * -D^T s + ..., which extend the unknowns to N = n + n_q. */
typedef struct {
  FxSystem *sys;
  FxMatrix *J;      /* the shifted matrix, factorised */
  double dt;
  gsize n, N;
  GArray *blocks;   /* FxModesFrameBlock, or NULL */
} Op;

/* out = S^-1 E~ v with S = E~ - dt/2 A~. With floating frames, eliminating
 * s from S = [[E - dt/2 A, dt/2 D^T], [-dt/2 D, I]]: J u = E v - dt/2 D^T s,
 * s_out = s + dt/2 D u. */
static void
apply_T (const Op *op, const double *v, double *out)
{
  const double h = 0.5 * op->dt;
  fx_system_residual (op->sys, v, 0.0, out, NULL, NULL);  /* E v */
  for (guint k = 0, r0 = 0; op->blocks && k < op->blocks->len; k++)
    {
      const FxModesFrameBlock *b = &g_array_index (op->blocks, FxModesFrameBlock, k);
      for (guint r = 0; r < b->rows; r++, r0++)
        for (guint i = 0; i < b->width; i++)
          out[b->first + i] -= h * b->D[(gsize) r * b->width + i] * v[op->n + r0];
    }
  fx_matrix_solve (op->J, out);
  for (guint k = 0, r0 = 0; op->blocks && k < op->blocks->len; k++)
    {
      const FxModesFrameBlock *b = &g_array_index (op->blocks, FxModesFrameBlock, k);
      for (guint r = 0; r < b->rows; r++, r0++)
        {
          double Du = 0.0;
          for (guint i = 0; i < b->width; i++)
            Du += b->D[(gsize) r * b->width + i] * out[b->first + i];
          out[op->n + r0] = v[op->n + r0] + h * Du;
        }
    }
}

static double
normalise (double *v, gsize n)
{
  double s = 0.0;
  for (gsize i = 0; i < n; i++)
    s += v[i] * v[i];
  s = sqrt (s);
  for (gsize i = 0; i < n && s > 0.0; i++)
    v[i] /= s;
  return s;
}

/* w minus its components along rows 0..count-1 of V (twice: classical
 * Gram-Schmidt repeated), the coefficients added to column j of H when H
 * is given. */
static void
orthogonalise (const double *V, guint count, gsize n, double *w, gsl_matrix *H, guint j)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < count; i++)
      {
        const double *vi = &V[(gsize) i * n];
        double h = 0.0;
        for (gsize k = 0; k < n; k++)
          h += vi[k] * w[k];
        for (gsize k = 0; k < n; k++)
          w[k] -= h * vi[k];
        if (H != NULL)
          gsl_matrix_set (H, i, j, gsl_matrix_get (H, i, j) + h);
      }
}

/* Block (band) Arnoldi with twice-repeated Gram-Schmidt: FX_MODES_BLOCK
 * random start vectors, so that an eigenvalue of multiplicity up to the
 * block size (a symmetric frame's double modes) shows all its copies;
 * one start vector finds only one copy. V holds m + B rows of n, H is
 * (m + B) x m with B subdiagonals. Returns the dimension reached (less than
 * m on breakdown). */
static _Thread_local struct {
  FxModesProgress fn;
  gpointer data;
} progress;

void
fx_modes_progress_attach (FxModesProgress fn, gpointer data)
{
  progress.fn = fn;
  progress.data = data;
}

static guint
arnoldi (const Op *op, guint m, double *V, gsl_matrix *H)
{
  const gsize n = op->N;
  const guint B = FX_MODES_BLOCK;
  g_autoptr (GRand) rand = g_rand_new_with_seed (17);
  g_autofree double *w = g_new (double, n);

  for (guint b = 0; b < B; b++)
    {
      for (gsize i = 0; i < n; i++)
        w[i] = g_rand_double_range (rand, -1.0, 1.0);
      double *vb = &V[(gsize) b * n];
      apply_T (op, w, vb);  /* one application removes the infinite directions */
      orthogonalise (V, b, n, vb, NULL, 0);
      normalise (vb, n);
    }
  for (guint j = 0; j < m; j++)
    {
      if (fx_cancel_requested ())  /* the caller sees it and gives up */
        return MAX (j, 1u);
      if (progress.fn && (j % 8 == 0 || j + 1 == m))
        progress.fn ((double) j / m, j, m, progress.data);
      apply_T (op, &V[(gsize) j * n], w);
      orthogonalise (V, j + B, n, w, H, j);
      double beta = normalise (w, n);
      gsl_matrix_set (H, j + B, j, beta);
      if (!(beta > 1e-14 * fabs (gsl_matrix_get (H, 0, 0))))
        return j + 1;
      memcpy (&V[(gsize) (j + B) * n], w, sizeof (double) * n);
    }
  return m;
}

/* Bytes the iteration holds for m Krylov vectors of n unknowns: the
 * basis, H and its Ritz decomposition, the complex mode being built. */
static guint64
arnoldi_bytes (gsize n, guint m)
{
  guint64 mb = (guint64) m + FX_MODES_BLOCK;
  /* and the modes kept, about (m - 20) / 4 of them, each with its state and
   * stresses (RawMode) and then FxMode's state and shape: four vectors of
   * n (--count 100000 under 300M reached 367 MB when they were not counted;
   * issue 31, item 4) */
  guint64 kept = m > 20 ? (m - 20) / 4 : 1;
  return (mb + 1) * n * sizeof (double) + mb * m * sizeof (double)
         + (guint64) m * m * (sizeof (double) + 2 * sizeof (double)) + 2 * n * sizeof (double) * 2
         + kept * 4 * n * sizeof (double);
}

/* Krylov dimension for `want` vibrations: four per mode and a margin,
 * within the unknowns, ARNOLDI_MAX_M and the memory limit. */
static guint64
krylov_size_unlimited (gsize n, guint want)
{
  guint64 m = MAX ((guint64) ARNOLDI_MIN, 4 * (guint64) want + 20);
  return MIN (m, MIN ((guint64) ARNOLDI_MAX_M, n > FX_MODES_BLOCK + 1 ? n - FX_MODES_BLOCK - 1 : 1));
}

static guint
krylov_size (gsize n, guint want)
{
  guint64 m = krylov_size_unlimited (n, want);
  /* what the limit leaves beside the system and matrix already booked, and
   * beside a tenth of it for what nothing books (the libraries, the model,
   * the allocator's slack: 300M gave 309 MB with all of it for Krylov) */
  guint64 limit = fx_memory_limit_get () / 10 * 9, used = fx_memory_reserved ();
  guint64 left = limit > used ? limit - used : 0;
  while (m > 1 && arnoldi_bytes (n, (guint) m) > left)
    m = m * 3 / 4;
  return (guint) m;
}

guint
fx_modes_iterative_cap (guint n_unknowns)
{
  /* a vibration pairs a velocity with a stress; Ritz pairs need about
   * four Krylov vectors each to converge */
  guint m = krylov_size (n_unknowns, G_MAXUINT / 8);
  return MIN (n_unknowns / 2, m > 20 ? (m - 20) / 4 : 1);
}

typedef struct {
  double omega;
  guint k;  /* Ritz pair */
} Ritz;

static int
ritz_by_omega (gconstpointer a, gconstpointer b)
{
  double x = ((const Ritz *) a)->omega, y = ((const Ritz *) b)->omega;
  return (x > y) - (x < y);
}

/* A converged Ritz pair's state (velocities, real at their largest) and
 * stresses (at the largest displacement, a quarter period later). FALSE
 * when it is not a vibration: a mode of E y' = A y carries as much kinetic
 * as elastic energy (phi^H M phi = phi^H C phi), while what round-off
 * leaves of an infinite eigenvalue (E phi = 0: a massless frame's
 * "vibration" at 1e9 Hz) carries next to no kinetic energy. */
static gboolean
ritz_mode (const Op *op, const double *V, guint m, const gsl_matrix_complex *Y, guint k,
           const gboolean *is_vel, RawMode *rm)
{
  const gsize n = op->n, N = op->N;
  g_autofree gsl_complex *phi = g_new0 (gsl_complex, N);
  g_autofree double *re = g_new (double, N), *im = g_new (double, N);
  g_autofree double *Ere = g_new (double, n), *Eim = g_new (double, n);
  for (guint j = 0; j < m; j++)
    {
      gsl_complex y = gsl_matrix_complex_get (Y, j, k);
      const double *vj = &V[(gsize) j * N];
      for (gsize i = 0; i < N; i++)
        phi[i] = gsl_complex_add (phi[i], gsl_complex_mul_real (y, vj[i]));
    }
  for (gsize i = 0; i < N; i++)
    re[i] = GSL_REAL (phi[i]), im[i] = GSL_IMAG (phi[i]);
  fx_system_residual (op->sys, re, 0.0, Ere, NULL, NULL);  /* E Re(phi) */
  fx_system_residual (op->sys, im, 0.0, Eim, NULL, NULL);
  double kinetic = 0.0, elastic = 0.0;
  for (gsize i = 0; i < n; i++)
    {
      double e = re[i] * Ere[i] + im[i] * Eim[i];
      if (is_vel[i])
        kinetic += e;
      else
        elastic += e;
    }
  for (gsize i = n; i < N; i++)  /* floating frames' stresses: unit compliance */
    elastic += re[i] * re[i] + im[i] * im[i];
  if (!(kinetic > 0.5 * elastic && elastic > 0.5 * kinetic))
    return FALSE;
  gsl_complex sq = GSL_COMPLEX_ZERO;
  for (gsize i = 0; i < n; i++)
    if (is_vel[i])
      sq = gsl_complex_add (sq, gsl_complex_mul (phi[i], phi[i]));
  gsl_complex turn = gsl_complex_polar (1.0, -0.5 * gsl_complex_arg (sq));
  rm->state = g_new0 (double, n);
  rm->stress = g_new0 (double, n);
  for (gsize i = 0; i < n; i++)
    {
      gsl_complex p = gsl_complex_mul (turn, phi[i]);
      if (is_vel[i])
        rm->state[i] = GSL_REAL (p);
      else
        rm->stress[i] = -GSL_IMAG (p);  /* Re(p e^{i pi/2}) */
    }
  return TRUE;
}

/* The shifted matrix E - dt/2 A, factorised. */
static FxMatrix *
shifted_matrix (FxSystem *sys, double dt, GError **error)
{
  const gsize n = sys->n;
  memset (sys->x, 0, sizeof (double) * n);
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_AUTO, error);
  if (J == NULL)
    return NULL;
  g_autofree double *x0 = g_new0 (double, n), *R = g_new (double, n);
  FxMatrixStatus st = FX_MATRIX_PATTERN_CHANGED;
  for (guint attempt = 0; attempt < 3 && st == FX_MATRIX_PATTERN_CHANGED; attempt++)
    {
      fx_system_residual (sys, x0, dt, R, NULL, J);
      st = fx_matrix_factorize (J);
      if (st == FX_MATRIX_PATTERN_CHANGED && !fx_matrix_analyze (J, error))
        return NULL;
    }
  if (st != FX_MATRIX_OK)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the shifted matrix of the iterative eigensolver is singular"));
      return NULL;
    }
  return g_steal_pointer (&J);
}

/* One Arnoldi run of dimension m: the vibrations below the lowest one not
 * yet converged, by rising frequency (Ritz), into `found`. Returns the
 * dimension reached. */
static guint
ritz_pairs (const Op *op, guint m, double *V, gsl_matrix_complex **Yout, GArray *found)
{
  const guint B = FX_MODES_BLOCK;
  const double dt = op->dt;
  gsl_matrix *H = gsl_matrix_calloc (m + B, m);
  guint reached = arnoldi (op, m, V, H);

  gsl_matrix *Hm = gsl_matrix_alloc (reached, reached);
  gsl_matrix_const_view sub = gsl_matrix_const_submatrix (H, 0, 0, reached, reached);
  gsl_matrix_memcpy (Hm, &sub.matrix);
  gsl_vector_complex *mu = gsl_vector_complex_alloc (reached);
  gsl_matrix_complex *Y = gsl_matrix_complex_alloc (reached, reached);
  gsl_eigen_nonsymmv_workspace *ws = gsl_eigen_nonsymmv_alloc (reached);
  int status = gsl_eigen_nonsymmv (Hm, mu, Y, ws);
  gsl_eigen_nonsymmv_free (ws);

  g_array_set_size (found, 0);
  double unconverged = INFINITY;  /* the lowest frequency not yet converged */
  for (guint k = 0; k < reached && status == GSL_SUCCESS; k++)
    {
      gsl_complex mk = gsl_vector_complex_get (mu, k);
      double amu = gsl_complex_abs (mk);
      if (!(amu > MU_MIN))
        continue;  /* an infinite eigenvalue: what round-off leaves of E phi = 0 */
      /* residual ||T V y - V H y|| = ||H(reached.., :) y||: the B rows below */
      double resid = 0.0;
      for (guint i = reached; i < reached + B; i++)
        {
          gsl_complex r = GSL_COMPLEX_ZERO;
          for (guint j = reached > B ? reached - B : 0; j < reached; j++)
            r = gsl_complex_add (r, gsl_complex_mul_real (gsl_matrix_complex_get (Y, j, k),
                                                          gsl_matrix_get (H, i, j)));
          resid = hypot (resid, gsl_complex_abs (r));
        }
      /* lambda = (2 / dt)(1 - 1 / mu) */
      gsl_complex lambda = gsl_complex_mul_real (gsl_complex_sub (GSL_COMPLEX_ONE, gsl_complex_inverse (mk)),
                                                 2.0 / dt);
      double omega = GSL_IMAG (lambda);
      if (!(omega > 1e-9 * (2.0 / dt)))
        continue;  /* the other of a conjugate pair, or a zero mode (mu = 1) */
      if (resid > RITZ_RTOL * amu)
        unconverged = MIN (unconverged, omega);
      else if (fabs (GSL_REAL (lambda)) <= 1e-6 * omega)  /* on the imaginary axis */
        g_array_append_val (found, ((Ritz) { omega, k }));
    }
  g_array_sort (found, ritz_by_omega);
  /* no gaps: only the modes below the lowest one still moving */
  while (found->len > 0 && g_array_index (found, Ritz, found->len - 1).omega > unconverged)
    g_array_set_size (found, found->len - 1);
  gsl_matrix_free (H);
  gsl_matrix_free (Hm);
  gsl_vector_complex_free (mu);
  *Yout = Y;
  return reached;
}

gboolean
fx_modes_arnoldi_solve (FxSystem *sys, guint want, GArray *raw, GError **error)
{
  const gsize n = sys->n;
  if (sys->springs->len > 0)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("this model has %u unknowns, beyond the %u of the dense eigensolver, and "
                     "torsional springs, which the iterative one does not take: use fewer "
                     "elements per link"), (guint) n, FX_MODES_MAX_UNKNOWNS);
      return FALSE;
    }
  if (n > ARNOLDI_MAX_N || n < 2 * FX_MODES_BLOCK + 2)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("this model has %u unknowns: modes are computed for up to %u"), (guint) n,
                   ARNOLDI_MAX_N);
      return FALSE;
    }
  want = MIN (want, fx_modes_iterative_cap ((guint) n));
  /* the step sets the shift: the model's own step puts its audible
   * frequencies (omega dt ~ 1) where the iteration separates them best */
  const double dt = sys->model->dt > 0.0 ? sys->model->dt : 0.01;
  g_autoptr (FxMatrix) J = shifted_matrix (sys, dt, error);
  if (J == NULL)
    return FALSE;
  guint n_q = 0;
  g_autoptr (GArray) blocks = NULL;
  if (fx_modes_frame_applies (sys) && !(blocks = fx_modes_frame_blocks (sys, &n_q, error)))
    return FALSE;
  const Op op = { sys, J, dt, n, n + n_q, blocks };

  g_autofree gboolean *is_vel = g_new (gboolean, n);
  for (gsize i = 0; i < n; i++)
    is_vel[i] = fx_modes_unknown_is_velocity (sys, (guint) i);
  /* a larger Krylov space until `want` converge, within the caps */
  guint m = krylov_size (op.N, want), m_max = krylov_size (op.N, G_MAXUINT / 8);
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (Ritz));
  g_autofree double *V = NULL;
  gsl_matrix_complex *Y = NULL;
  guint reached = 0;
  for (;;)
    {
      g_clear_pointer (&Y, gsl_matrix_complex_free);
      g_free (V);
      V = g_new0 (double, (gsize) (m + FX_MODES_BLOCK) * op.N);
      reached = ritz_pairs (&op, m, V, &Y, found);
      if (fx_cancel_check (error))
        {
          g_clear_pointer (&Y, gsl_matrix_complex_free);
          return FALSE;
        }
      if (found->len >= want || m >= m_max || reached < m)
        break;
      m = MIN (2 * m, m_max);
    }
  for (guint i = 0; i < found->len && raw->len < want; i++)
    {
      const Ritz *r = &g_array_index (found, Ritz, i);
      RawMode rm = { FX_MODE_VIBRATION, r->omega * r->omega, NULL, NULL };
      if (ritz_mode (&op, V, reached, Y, r->k, is_vel, &rm))
        g_array_append_val (raw, rm);
    }
  gsl_matrix_complex_free (Y);
  if (raw->len == 0 && m_max < krylov_size_unlimited (op.N, want))
    {
      /* the limit, not the model: say so (it read "found no vibration mode") */
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("the memory limit leaves room for %u Krylov vectors of %u unknowns, too "
                     "few for any vibration to converge: raise --max-memory or use fewer "
                     "elements per link"), m_max, (guint) op.N);
      return FALSE;
    }
  if (raw->len == 0)
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the iterative eigensolver found no vibration mode"));
      return FALSE;
    }
  return TRUE;
}
