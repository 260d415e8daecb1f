/* fx-modes-frame.c: the linear model of a mechanism with links whose
 * elastic forces come through their configuration (a floating-frame link,
 * docs/theory.md "Floating-frame links"), in the form the dense path
 * solves (fx-modes-dense.c): E y' = A y over velocities and stresses.
 *
 * At rest such a link's residual Jacobian is E - dt/2 A + dt^2/4 K_q: its
 * momenta and ports are linear in dt like every other part of the system,
 * but K q_mid, with q_mid = q_n + dt/2 v_mid, adds a dt^2 term. Three
 * Jacobians at dt = tau, 2 tau, 3 tau separate the three matrices exactly
 * (tau from the link's own mass and stiffness, so that no term swamps
 * another in round-off). K_q then becomes stresses of unit compliance,
 * K_q = D^T D, as torsional springs do in the dense path: the junctions'
 * compatibility, the frame condition and the held ends stay what they are
 * in the assembled system (multipliers: rigid stresses), and motions,
 * self-stress states and vibrations of the whole mechanism come out of one
 * pencil, GE links, point masses and regularising inertias included.
 * The iterative path (fx-modes-arnoldi.c) uses the Newton matrix itself,
 * dt^2/4 K_q and all, and the same stresses from the links' own K
 * (fx_modes_frame_blocks). */
#include "fx-modes-frame.h"
#include "fx-link-model.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_eigen.h>
#include <math.h>
#include <string.h>

/* Eigenvalues of K_q below this times the largest are its kernel (the
 * flexible field's rigid motions, which the frame takes): round-off puts
 * them near 1e-14, a 200-element steel link's smallest elastic one is
 * above 1e-10. */
#define KQ_RTOL 1e-12

gboolean
fx_modes_frame_applies (const FxSystem *sys)
{
  for (guint l = 0; l < sys->n_links; l++)
    if (sys->links[l].model->modes_blocks != NULL)
      return TRUE;
  return FALSE;
}

static guint
n_nu_of (const FxLinkSys *l)
{
  return l->model->modes_blocks (l, NULL, NULL, NULL, NULL);
}

gboolean
fx_modes_frame_is_velocity (const FxLinkSys *l, guint i)
{
  if (l->model->unknown_is_velocity (l, i))
    return TRUE;
  /* an F end gives its velocity out: the port unknown is a (massless)
   * velocity, its force a multiplier */
  for (guint side = 0; side < 2; side++)
    for (guint ch = 0; ch < 2; ch++)
      {
        FxCausality c = ch == 0 ? l->T_end[side] : l->R_end[side];
        FxPort p = l->model->port (l, side, ch == 0 ? FX_CHANNEL_TRANSLATION : FX_CHANNEL_ROTATION);
        guint k = ch == 0 ? 2 : 1, at = l->offset + i;
        if (c == FX_CAUSAL_F && at >= p.dof && at < p.dof + k)
          return TRUE;
      }
  return FALSE;
}

/* A floating frame's own mass and stiffness at rest (nn x nn, allocated);
 * 0 for a link without (M, K stay NULL). */
static guint
own_blocks (const FxLinkSys *l, double **M, double **K)
{
  if (l->model->modes_blocks == NULL)
    return 0;
  guint nn = n_nu_of (l);
  g_autofree double *C = g_new (double, 3 * nn), *ends = g_new (double, 6 * nn);
  *M = g_new (double, nn * nn);
  *K = g_new (double, nn * nn);
  l->model->modes_blocks (l, *M, *K, C, ends);
  return nn;
}

/* tau with tau^2 max|K| = max|M| over the links' own blocks. */
static double
time_scale (const FxSystem *sys)
{
  double m = 0.0, k = 0.0;
  for (guint li = 0; li < sys->n_links; li++)
    {
      g_autofree double *M = NULL, *K = NULL;
      guint nn = own_blocks (&sys->links[li], &M, &K);
      for (guint i = 0; i < nn * nn; i++)
        m = MAX (m, fabs (M[i])), k = MAX (k, fabs (K[i]));
    }
  return m > 0.0 && k > 0.0 ? sqrt (m / k) : 1.0;
}

/* Rows of constraints (no mass, no compliance: multipliers, reactions,
 * forces at F ends) are written with whatever factor suits Newton (dt C v
 * against dt C^T lambda with lambda a step mean, not a midpoint): scale
 * each so that A is skew, as the dense path requires. */
static void
skew_rows (const FxSystem *sys, double *E, double *A)
{
  const guint n = sys->n;
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      if (l->model->modes_blocks == NULL)
        continue;
      for (guint k = n_nu_of (l); k < l->n_unknowns; k++)
        {
          guint i = l->offset + k;
          for (guint j = 0; j < n; j++)
            E[(gsize) i * n + j] = E[(gsize) j * n + i] = 0.0;  /* round-off of the fit */
          if (fx_modes_frame_is_velocity (l, k))
            continue;
          double cross = 0.0, self = 0.0;
          for (guint j = 0; j < n; j++)
            {
              cross += A[(gsize) i * n + j] * A[(gsize) j * n + i];
              self += A[(gsize) i * n + j] * A[(gsize) i * n + j];
            }
          if (self > 0.0 && cross != 0.0)
            for (guint j = 0; j < n; j++)
              A[(gsize) i * n + j] *= -cross / self;
        }
    }
}

/* A link's configuration stiffness K (nn x nn, leading dimension ld) as
 * rows D (sqrt(mu) u^T per eigenpair with mu > 0, K = D^T D) into block.
 * FALSE when K has a clearly negative eigenvalue. */
static gboolean
factor_block (const double *K, guint ld, guint first, guint nn, FxModesFrameBlock *block)
{
  gsl_matrix *S = gsl_matrix_alloc (nn, nn), *U = gsl_matrix_alloc (nn, nn);
  gsl_vector *mu = gsl_vector_alloc (nn);
  gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc (nn);
  for (guint i = 0; i < nn; i++)
    for (guint j = 0; j < nn; j++)
      gsl_matrix_set (S, i, j, 0.5 * (K[(gsize) i * ld + j] + K[(gsize) j * ld + i]));
  gsl_eigen_symmv (S, mu, U, w);
  double big = 0.0, low = 0.0;
  for (guint c = 0; c < nn; c++)
    big = MAX (big, gsl_vector_get (mu, c)), low = MIN (low, gsl_vector_get (mu, c));
  block->first = first;
  block->width = nn;
  block->rows = 0;
  block->D = g_new (double, (gsize) nn * nn);
  for (guint c = 0; c < nn; c++)
    {
      double m = gsl_vector_get (mu, c);
      if (!(m > KQ_RTOL * big))
        continue;
      for (guint i = 0; i < nn; i++)
        block->D[(gsize) block->rows * nn + i] = sqrt (m) * gsl_matrix_get (U, i, c);
      block->rows++;
    }
  gsl_eigen_symmv_free (w);
  gsl_vector_free (mu);
  gsl_matrix_free (U);
  gsl_matrix_free (S);
  return low >= -1e-9 * big;
}

static void
block_clear (gpointer p)
{
  g_free (((FxModesFrameBlock *) p)->D);
}

static gboolean
not_positive (GError **error)
{
  g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                       _("the linearised mechanism is not a pure structure (a floating-frame "
                         "link's stiffness is not positive)"));
  return FALSE;
}

GArray *
fx_modes_frame_blocks (const FxSystem *sys, guint *n_q, GError **error)
{
  g_autoptr (GArray) blocks = g_array_new (FALSE, TRUE, sizeof (FxModesFrameBlock));
  g_array_set_clear_func (blocks, block_clear);
  *n_q = 0;
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      g_autofree double *M = NULL, *K = NULL;
      guint nn = own_blocks (l, &M, &K);
      if (nn == 0)
        continue;
      g_array_set_size (blocks, blocks->len + 1);
      FxModesFrameBlock *b = &g_array_index (blocks, FxModesFrameBlock, blocks->len - 1);
      if (!factor_block (K, nn, l->offset, nn, b))
        {
          not_positive (error);
          return NULL;
        }
      *n_q += b->rows;
    }
  return g_steal_pointer (&blocks);
}

gboolean
fx_modes_frame_pencil (FxSystem *sys, double **E_out, double **A_out, double **D_out, guint *n_q,
                       GError **error)
{
  const guint n = sys->n;
  const double tau = time_scale (sys);
  /* weights of J(tau), J(2 tau), J(3 tau) that give E, tau A, tau^2 K_q */
  static const double wE[3] = { 3, -3, 1 }, wA[3] = { 5, -8, 3 }, wK[3] = { 2, -4, 2 };
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_DENSE, error);
  if (J == NULL)
    return FALSE;
  g_autofree double *x = g_new0 (double, MAX (n, 1)), *R = g_new (double, MAX (n, 1));
  g_autofree double *Kq = g_new0 (double, (gsize) n * n);
  double *E = g_new0 (double, (gsize) n * n), *A = g_new0 (double, (gsize) n * n);

  memset (sys->x, 0, sizeof (double) * n);
  for (guint s = 0; s < 3; s++)
    {
      fx_system_residual (sys, x, (s + 1) * tau, R, NULL, J);
      for (guint i = 0; i < n; i++)
        for (guint j = 0; j < n; j++)
          {
            double v = fx_matrix_get (J, i, j);
            gsize ij = (gsize) i * n + j;
            E[ij] += wE[s] * v;
            A[ij] += wA[s] * v / tau;
            Kq[ij] += wK[s] * v / (tau * tau);
          }
    }
  skew_rows (sys, E, A);

  /* K_q lives in the links' own velocity blocks; elsewhere the fit leaves
   * only round-off of terms linear in dt */
  GArray *D = g_array_new (FALSE, TRUE, sizeof (double));
  gboolean ok = TRUE;
  *n_q = 0;
  for (guint li = 0; li < sys->n_links && ok; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      if (l->model->modes_blocks == NULL)
        continue;
      FxModesFrameBlock b;
      ok = factor_block (&Kq[(gsize) l->offset * n + l->offset], n, l->offset, n_nu_of (l), &b);
      g_array_set_size (D, (gsize) (*n_q + b.rows) * n);
      for (guint r = 0; r < b.rows; r++)
        memcpy (&g_array_index (D, double, (gsize) (*n_q + r) * n + b.first),
                &b.D[(gsize) r * b.width], sizeof (double) * b.width);
      *n_q += b.rows;
      block_clear (&b);
    }
  if (!ok)
    {
      g_array_free (D, TRUE);
      g_free (E);
      g_free (A);
      return not_positive (error);
    }
  *E_out = E;
  *A_out = A;
  *D_out = (double *) g_array_free (D, FALSE);
  return TRUE;
}

/* The largest velocity unknown of the floating frames in state. */
static double
frames_reach (const FxSystem *sys, const double *state)
{
  double big = 0.0;
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      for (guint k = 0; l->model->modes_blocks != NULL && k < n_nu_of (l); k++)
        big = MAX (big, fabs (state[l->offset + k]));
    }
  return big;
}

/* Does the motion v (2 per node) bend the link? Its velocity across the
 * link's chord, less the best line a + b s (a rigid motion), against the
 * largest velocity of the link and of all floating frames (`reach`): an
 * axial vibration bends it only by round-off, and so does a self-stress
 * state that leaves it all but unloaded; such moments must not be scaled
 * up to a drawing's colours. */
static gboolean
bends (const FxLinkSys *l, const double *state, const double *v, double reach)
{
  const guint nodes = l->N + 1;
  double p0[2], p1[2], t[2], sx = 0, sy = 0, sxx = 0, sxy = 0, vmax = 0.0, bend = 0.0;
  l->model->node (l, state, 0, p0, NULL, NULL);
  l->model->node (l, state, l->N, p1, NULL, NULL);
  double len = hypot (p1[0] - p0[0], p1[1] - p0[1]);
  t[0] = (p1[0] - p0[0]) / len;
  t[1] = (p1[1] - p0[1]) / len;
  for (guint i = 0; i < nodes; i++)
    {
      double s = (double) i / l->N, vn = -t[1] * v[2 * i] + t[0] * v[2 * i + 1];
      sx += s, sy += vn, sxx += s * s, sxy += s * vn;
      vmax = MAX (vmax, hypot (v[2 * i], v[2 * i + 1]));
    }
  double b = (nodes * sxy - sx * sy) / (nodes * sxx - sx * sx), a = (sy - b * sx) / nodes;
  for (guint i = 0; i < nodes; i++)
    {
      double s = (double) i / l->N, vn = -t[1] * v[2 * i] + t[0] * v[2 * i + 1];
      bend = MAX (bend, fabs (vn - a - b * s));
    }
  return bend > 1e-7 * MAX (vmax, reach);
}

/* The axial force's rate at the nodes: EA times each element's stretch
 * rate (u is linear in an element: the chord's, exactly; the frame's
 * turning adds nothing to it), at an interior node the mean of its two
 * elements, at an end extrapolated, as GE links draw a field constant per
 * element. */
static void
axial_rates (const FxSystem *sys, const FxLinkSys *l, const double *state, const double *v,
             double *axial_rate)
{
  const guint N = l->N;
  const double EA = fx_model_link (sys->built, (guint) (l - sys->links))->section.EA;
  g_autofree double *e = g_new (double, N);
  for (guint k = 0; k < N; k++)
    {
      double p0[2], p1[2];
      l->model->node (l, state, k, p0, NULL, NULL);
      l->model->node (l, state, k + 1, p1, NULL, NULL);
      double d[2] = { p1[0] - p0[0], p1[1] - p0[1] }, len = hypot (d[0], d[1]);
      e[k] = EA * (d[0] * (v[2 * k + 2] - v[2 * k]) + d[1] * (v[2 * k + 3] - v[2 * k + 1]))
             / (len * len);
    }
  for (guint i = 0; i <= N; i++)
    axial_rate[i] = N == 1 ? e[0]
                  : i == 0 ? 1.5 * e[0] - 0.5 * e[1]
                  : i == N ? 1.5 * e[N - 1] - 0.5 * e[N - 2]
                  : 0.5 * (e[i - 1] + e[i]);
}

void
fx_modes_frame_node_rates (FxSystem *sys, guint seg, const double *state, double size, double *v,
                           double *moment_rate, double *axial_rate)
{
  FxLinkSys *l = &sys->links[seg];
  const guint nn = n_nu_of (l), nodes = l->N + 1;
  double vmax = 0.0;

  memset (v, 0, sizeof (double) * 2 * nodes);
  memset (moment_rate, 0, sizeof (double) * nodes);
  memset (axial_rate, 0, sizeof (double) * nodes);
  for (guint k = 0; k < nn; k++)
    vmax = MAX (vmax, fabs (state[l->offset + k]));
  if (!(vmax > 0.0))
    return;
  /* a step that moves the link by 1e-6 of the model's size: the central
   * difference's truncation (1e-12) and round-off (1e-10) stay far below
   * what a drawing shows */
  const double h = 1e-6 * MAX (size, 1e-9) / vmax;
  g_autofree double *theta = g_memdup2 (l->theta, sizeof (double) * l->n_theta);
  g_autofree double *r = g_memdup2 (l->r, sizeof (double) * 2 * l->n_r);
  for (int sign = 1; sign >= -1; sign -= 2)
    {
      l->model->commit (l, state, sign * h);
      for (guint i = 0; i < nodes; i++)
        {
          double p[2], m = 0.0;
          l->model->node (l, state, i, p, NULL, &m);
          v[2 * i] += sign * p[0] / (2.0 * h);
          v[2 * i + 1] += sign * p[1] / (2.0 * h);
          moment_rate[i] += sign * m / (2.0 * h);
        }
      memcpy (l->theta, theta, sizeof (double) * l->n_theta);
      memcpy (l->r, r, sizeof (double) * 2 * l->n_r);
    }
  if (!bends (l, state, v, frames_reach (sys, state)))
    memset (moment_rate, 0, sizeof (double) * nodes);
  axial_rates (sys, l, state, v, axial_rate);
}
