/* fx-statics-state.c: the settled result written into the system, and its
 * report (fx-statics.h).
 *
 * The configuration goes into each link's arrays (nodal where they are
 * nodal, element means where they are per element), velocities are zero,
 * and the stresses are set on the link's own spaces through field_dof: the
 * element values where a field is per element, the frame code's nodal
 * values (element end forces) where it is per node. The two
 * discretisations differ, so the momentum rows of the dynamics do not
 * balance exactly yet; the stresses are then corrected by the least change
 * that balances them (Gauss-Newton on min |d sigma| subject to R_v = 0):
 * Play then starts from an equilibrium of the discrete dynamics.
 */
#include "fx-statics-private.h"
#include "fx-link-model.h"
#include "fx-measure.h"
#include "fx-cancel.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* Element e's material stress (n1, n2, m), its nodal moment on `side` (the
 * element end moment m -+ T, T = h/2 n x (b1 + gamma): exact nodal values of
 * the static rows). */
static void
element_values (const Statics *st, guint li, guint e, double s[3], double end_m[2])
{
  const FxLinkSys *l = &st->sys->links[li];
  guint o = st->seg[li], a = ST_NODE (o, e), b = ST_NODE (o, e + 1);
  const double *u = st->u;
  double d[2] = { (u[b] - u[a]) / st_h (l), (u[b + 1] - u[a + 1]) / st_h (l) }, cs[2], w[2];

  rot (0.5 * (u[a + 2] + u[b + 2]), cs);
  lam_t (cs, d, w);
  for (guint c = 0; c < 3; c++)
    s[c] = u[ST_ELEM (o, e) + c];
  double T = 0.5 * st_h (l) * (s[0] * w[1] - s[1] * w[0]);
  end_m[0] = s[2] - T;
  end_m[1] = s[2] + T;
}

/* Nodal values of the three resultants of segment li at node i. */
static void
node_values (const Statics *st, guint li, guint i, double v[3])
{
  const FxLinkSys *l = &st->sys->links[li];
  double s[3], m[2], s2[3], m2[2];

  if (i == 0 || i == st_n (l))
    {
      element_values (st, li, i == 0 ? 0 : st_n (l) - 1, s, m);
      v[0] = s[0];
      v[1] = s[1];
      v[2] = m[i == 0 ? 0 : 1];
      return;
    }
  element_values (st, li, i - 1, s, m);
  element_values (st, li, i, s2, m2);
  v[0] = 0.5 * (s[0] + s2[0]);
  v[1] = 0.5 * (s[1] + s2[1]);
  v[2] = 0.5 * (m[1] + m2[0]);
}

/* Legendre coefficients c_d = (2d + 1) int_0^1 f P_d(2 xi - 1) dxi of a
 * degree-k element's DG_{k-1} field from its values on the static mesh:
 * `at_node(j)` at the k + 1 sub-nodes (f linear between them) or, with
 * at_node NULL, `mean[j]` constant on the k sub-elements. Exact (Gauss). */
static void
dg_coefficients (guint k, const double *at_node, const double *mean, double *c)
{
  static const double gx[3] = { 0.1127016653792583, 0.5, 0.8872983346207417 };
  static const double gw[3] = { 5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0 };
  for (guint d = 0; d < k; d++)
    c[d] = 0.0;
  for (guint j = 0; j < k; j++)
    for (guint g = 0; g < 3; g++)
      {
        double xi = (j + gx[g]) / k, P[FX_SHAPE_MAX];
        double f = at_node ? (1.0 - gx[g]) * at_node[j] + gx[g] * at_node[j + 1] : mean[j];
        dg_basis (k, xi, P);
        for (guint d = 0; d < k; d++)
          c[d] += (2.0 * d + 1.0) * gw[g] / k * f * P[d];
      }
}

/* A field in the space of omega (theta) or of v (r, component c): the
 * static nodes' values at the CG_k nodes, or their DG_{k-1} projection. */
static void
write_field (const Statics *st, const FxLinkSys *l, guint o, gboolean cg, guint comp, double *out,
             guint stride)
{
  const double *u = st->u;
  const guint k = l->k;

  if (cg)
    {
      for (guint i = 0; i <= st_n (l); i++)
        out[stride * i] = u[ST_NODE (o, i) + comp];
      return;
    }
  if (k == 1)
    {
      /* the element's mean, as the lowest order keeps it */
      for (guint e = 0; e < l->N; e++)
        out[stride * e] = 0.5 * (u[ST_NODE (o, e) + comp] + u[ST_NODE (o, e + 1) + comp]);
      return;
    }
  for (guint e = 0; e < l->N; e++)
    {
      double v[FX_SHAPE_MAX], c[FX_SHAPE_MAX];
      for (guint j = 0; j <= k; j++)
        v[j] = u[ST_NODE (o, k * e + j) + comp];
      dg_coefficients (k, v, NULL, c);
      for (guint d = 0; d < k; d++)
        out[stride * (k * e + d)] = c[d];
    }
}

static gboolean
write_configuration (Statics *st, GError **error)
{
  FxSystem *sys = st->sys;
  const double *u = st->u;

  for (guint li = 0; li < sys->n_links; li++)
    {
      FxLinkSys *l = &sys->links[li];
      guint o = st->seg[li];
      if (l->n_theta != field_count (l, F_W)
          || l->n_r != field_count (l, F_VX) + (l->k > 1 ? st_n (l) + 1 : 0))
        {
          g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_UNSUPPORTED,
                       _("links[%u]: settling does not know this link's elements yet"),
                       l->model_index);
          return FALSE;
        }
      write_field (st, l, o, l->R == FX_CAUSAL_F, 2, l->theta, 1);
      l->theta_end[0] = u[ST_NODE (o, 0) + 2];
      l->theta_end[1] = u[ST_NODE (o, st_n (l)) + 2];
      for (guint c = 0; c < 2; c++)
        write_field (st, l, o, l->T == FX_CAUSAL_F, c, l->r + c, 2);
      /* degree k > 1: the drawn points are the static nodes themselves */
      if (l->k > 1)
        {
          double *pts = l->r + 2 * field_count (l, F_VX);
          for (guint i = 0; i <= st_n (l); i++)
            for (guint c = 0; c < 2; c++)
              pts[2 * i + c] = u[ST_NODE (o, i) + c];
        }
    }
  return TRUE;
}

static void
write_stresses (Statics *st)
{
  FxSystem *sys = st->sys;
  static const int fields[3] = { F_NX, F_NY, F_M };

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      const guint k = l->k;
      for (guint q = 0; q < 3; q++)
        {
          int f = fields[q];
          if (field_is_cg (l, f))
            for (guint i = 0; i <= st_n (l); i++)
              {
                double v[3];
                node_values (st, li, i, v);
                sys->x[field_dof (l, f, i)] = v[q];
              }
          else
            for (guint e = 0; e < l->N; e++)
              {
                /* the static elements' stresses, projected on DG_{k-1} */
                double mean[FX_SHAPE_MAX], c[FX_SHAPE_MAX];
                for (guint j = 0; j < k; j++)
                  mean[j] = st->u[ST_ELEM (st->seg[li], k * e + j) + q];
                if (k == 1)
                  c[0] = mean[0];
                else
                  dg_coefficients (k, NULL, mean, c);
                for (guint d = 0; d < k; d++)
                  sys->x[field_dof (l, f, k * e + d)] = c[d];
              }
        }
    }
}

/* Where each junction, body, spring and drag now is. */
static void
write_parts (Statics *st)
{
  FxSystem *sys = st->sys;
  const double *u = st->u;

  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const SJunction *s = &st->tj[i];
      FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (s->kind == J_GROUND || j->ports->len == 0)
        continue;
      const FxPort *p = &g_array_index (j->ports, FxPort, 0);
      guint r = ST_NODE (st->seg[p->link], st_end_node (&sys->links[p->link], p->side));
      j->pos[0] = u[r];
      j->pos[1] = u[r + 1];
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const SJunction *s = &st->rj[i];
      FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (s->kind == J_FREE && j->inertia_dof >= 0)
        j->pos[0] += u[s->dof] - s->q0;
    }
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      FxBodySys *bs = &g_array_index (sys->bodies, FxBodySys, b);
      bs->c[0] = u[st->body[b]];
      bs->c[1] = u[st->body[b] + 1];
      bs->phi = u[st->body[b] + 2];
    }
  for (guint i = 0; i < sys->springs->len; i++)
    {
      FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      int pa = st->spring_port[0][i], pb = st->spring_port[1][i];
      if (pa < 0)
        continue;
      guint a = ST_NODE (st->seg[pa / 2], st_end_node (&sys->links[pa / 2], (guint) pa % 2)) + 2;
      sp->phi = st->spring_phi0[i] + u[a] - st->u0[a];
      if (pb >= 0)
        {
          guint b = ST_NODE (st->seg[pb / 2], st_end_node (&sys->links[pb / 2], (guint) pb % 2)) + 2;
          sp->phi -= u[b] - st->u0[b];
        }
    }
  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      if (!d->active || d->release <= st->t)
        continue;
      double p[2];
      fx_system_point (sys, d->link, d->s, &p[0], &p[1]);
      sys->x[d->dof] = st->anchor[2 * i] - p[0];
      sys->x[d->dof + 1] = st->anchor[2 * i + 1] - p[1];
    }
}

/* ------------------------------------------------------ the correction */

typedef struct {
  guint nv, ns;
  guint *v, *s;  /* momentum rows; stress unknowns */
} Split;

static gboolean
all_finite (const double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

/* The largest momentum row against the largest term of them all. */
static double
momentum_balance (const Split *sp, const double *R, const double *mag)
{
  double worst = 0.0, top_mag = 1e-300;

  for (guint i = 0; i < sp->nv; i++)
    top_mag = MAX (top_mag, mag[sp->v[i]]);
  for (guint i = 0; i < sp->nv; i++)
    worst = MAX (worst, fabs (R[sp->v[i]]) / top_mag);
  return worst;
}

/* The correction's system, sparse: with A = dR_v / d sigma (the momentum
 * rows against the stresses), the least change of the stresses that zeroes
 * the momentum rows solves
 *
 *   [ I   A^T    ] [ d sigma ]   [  0   ]
 *   [ A   -eps I ] [ lambda  ] = [ -R_v ]
 *
 * (d sigma = -A^T (A A^T + eps)^-1 R_v: eps, 1e-13 of A A^T's largest
 * diagonal, keeps rows of round-off only, a pin's moment row, harmless).
 * Sparse LU (or band, whichever the pattern makes cheaper) on it costs what
 * the Newton matrix costs; the dense normal equations it replaces cost
 * O(n^3) and were skipped past 1500 unknowns, leaving the ringing frame's
 * settled state 2.2 % off balance. */
static void
assemble_kkt (FxMatrix *K, const FxMatrix *J, const Split *sp, const int *vpos, const int *spos)
{
  const int *Ap, *Ai;
  g_autofree double *row_norm = g_new0 (double, MAX (sp->nv, 1));
  double top = 0.0;

  fx_matrix_pattern (J, &Ap, &Ai);
  for (guint j = 0; j < sp->ns + sp->nv; j++)
    if (j < sp->ns)
      fx_matrix_add (K, j, j, 1.0);
  for (guint c = 0; c < fx_matrix_size (J); c++)
    {
      if (spos[c] < 0)
        continue;
      for (int k = Ap[c]; k < Ap[c + 1]; k++)
        {
          guint r = (guint) Ai[k];
          if (vpos[r] < 0)
            continue;
          double a = 2.0 * fx_matrix_get (J, r, c);
          guint i = sp->ns + (guint) vpos[r], q = (guint) spos[c];
          fx_matrix_add (K, i, q, a);
          fx_matrix_add (K, q, i, a);
          row_norm[vpos[r]] += a * a;
        }
    }
  for (guint i = 0; i < sp->nv; i++)
    top = MAX (top, row_norm[i]);
  for (guint i = 0; i < sp->nv; i++)
    fx_matrix_add (K, sp->ns + i, sp->ns + i, -(1e-13 * top + 1e-300));
}

/* Kelvin-Voigt damping (physics.md §13) acts on stress rates, which are
 * zero at rest; the correction's residual, whose state and iterate are one,
 * would still see its eta / dt in the Jacobian (the ringing frame's
 * correction stalled at 2.2 %). Sets every eta to 0, returning the old
 * values (links, then the ports of both channels) for restore_damping. */
static GArray *
suspend_damping (FxSystem *sys)
{
  GArray *saved = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *channels[2] = { sys->tjunctions, sys->rjunctions };

  for (guint l = 0; l < sys->n_links; l++)
    {
      g_array_append_val (saved, sys->links[l].eta);
      sys->links[l].eta = 0.0;
    }
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < channels[c]->len; i++)
      {
        GArray *ports = g_array_index (channels[c], FxJunction, i).ports;
        for (guint k = 0; k < ports->len; k++)
          {
            FxPort *p = &g_array_index (ports, FxPort, k);
            g_array_append_val (saved, p->eta);
            p->eta = 0.0;
          }
      }
  return saved;
}

static void
restore_damping (FxSystem *sys, GArray *saved)
{
  GArray *channels[2] = { sys->tjunctions, sys->rjunctions };
  guint n = 0;

  for (guint l = 0; l < sys->n_links; l++)
    sys->links[l].eta = g_array_index (saved, double, n++);
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < channels[c]->len; i++)
      {
        GArray *ports = g_array_index (channels[c], FxJunction, i).ports;
        for (guint k = 0; k < ports->len; k++)
          g_array_index (ports, FxPort, k).eta = g_array_index (saved, double, n++);
      }
  g_array_unref (saved);
}

/* Gauss-Newton on the stresses: min |d sigma| with R_v(sigma + d sigma) = 0. */
static gboolean
correct_stresses (FxSystem *sys, const Split *sp, double t, double *balance, GError **error)
{
  const guint n = sys->n, nk = sp->ns + sp->nv;
  const double dt = 1e-6;

  *balance = 0.0;
  if (sp->nv == 0 || sp->ns == 0)
    return TRUE;
  g_autoptr (FxMatrix) J = fx_system_new_jacobian (sys, FX_MATRIX_AUTO, error);
  if (J == NULL)
    return FALSE;
  g_autofree double *R = g_new (double, n), *mag = g_new (double, n);
  g_autofree double *b = g_new (double, MAX (nk, 1));
  g_autofree int *vpos = g_new (int, n), *spos = g_new (int, n);
  g_autoptr (FxMatrix) K = fx_matrix_new (nk, FX_MATRIX_AUTO);
  FxNoise *noise = sys->noise;
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    vpos[i] = spos[i] = -1;
  for (guint i = 0; i < sp->nv; i++)
    vpos[sp->v[i]] = (int) i;
  for (guint k = 0; k < sp->ns; k++)
    spos[sp->s[k]] = (int) k;
  sys->noise = NULL;  /* noise is left out: its factor reads 0 */
  GArray *damping = suspend_damping (sys);
  sys->t = t - 0.5 * dt;
  for (guint it = 0; it < 8 && !fx_cancel_requested (); it++)
    {
      fx_system_residual (sys, sys->x, dt, R, mag, J);
      /* each row against the largest terms of the momentum rows: a row of
       * round-off only (a pin's moment row) is balanced already */
      double worst = momentum_balance (sp, R, mag);
      *balance = worst;
      if (worst < 4 * DBL_EPSILON)
        break;
      if (it == 0)
        {
          assemble_kkt (K, J, sp, vpos, spos);  /* records the pattern */
          if (!fx_matrix_analyze (K, error))
            {
              ok = FALSE;
              break;
            }
        }
      fx_matrix_zero (K);
      assemble_kkt (K, J, sp, vpos, spos);
      if (fx_matrix_factorize (K) != FX_MATRIX_OK)
        break;
      memset (b, 0, sizeof (double) * sp->ns);
      for (guint i = 0; i < sp->nv; i++)
        b[sp->ns + i] = -R[sp->v[i]];
      fx_matrix_solve (K, b);
      if (!all_finite (b, sp->ns))
        break;
      for (guint k = 0; k < sp->ns; k++)
        sys->x[sp->s[k]] += b[k];
    }
  restore_damping (sys, damping);
  sys->noise = noise;
  sys->t = t;
  return ok;
}

gboolean
fx_statics_write_back (Statics *st, double *balance, GError **error)
{
  FxSystem *sys = st->sys;
  FxSystemSnapshot *snap = fx_system_snapshot (sys);
  g_autofree guint *block_of = g_new (guint, MAX (sys->n, 1));
  g_autofree guint *kind = NULL;
  g_autofree double *length = NULL;
  Split sp = { 0, 0, g_new (guint, MAX (sys->n, 1)), g_new (guint, MAX (sys->n, 1)) };
  gboolean ok = FALSE;

  if (!write_configuration (st, error))
    goto out;
  fx_system_blocks (sys, block_of, &kind, &length);
  for (guint i = 0; i < sys->n; i++)
    {
      if (kind[block_of[i]] <= 1)
        {
          sys->x[i] = 0.0;
          sp.v[sp.nv++] = i;
        }
      else
        sp.s[sp.ns++] = i;
    }
  write_stresses (st);
  write_parts (st);
  sys->t = st->t;
  if (!correct_stresses (sys, &sp, st->t, balance, error))
    goto out;
  fx_system_reactions_reset (sys);
  ok = TRUE;
out:
  if (!ok)
    fx_system_restore (sys, snap);
  fx_system_snapshot_free (snap);
  g_free (sp.v);
  g_free (sp.s);
  return ok;
}

/* ------------------------------------------------------------ report */

static void
note_extreme (FxStaticsReport *rep, guint k, double v, guint link, double s)
{
  if (fabs (v) > rep->extreme[k])
    {
      rep->extreme[k] = fabs (v);
      rep->extreme_link[k] = link;
      rep->extreme_s[k] = s;
    }
}

static void
fill_links (Statics *st, FxStaticsReport *rep)
{
  FxSystem *sys = st->sys;

  rep->n_links = sys->n_user_links;
  rep->links = g_new0 (FxStaticsLink, MAX (rep->n_links, 1));
  for (guint ml = 0; ml < rep->n_links; ml++)
    {
      FxStaticsLink *out = &rep->links[ml];
      guint first = sys->seg_first[ml], count = sys->seg_count[ml], nodes = 1;
      double total = 0.0, start = 0.0;
      for (guint k = 0; k < count; k++)
        {
          nodes += st_n (&sys->links[first + k]);
          total += sys->links[first + k].L;
        }
      out->n = nodes;
      out->s = g_new (double, nodes);
      out->N = g_new (double, nodes);
      out->V = g_new (double, nodes);
      out->M = g_new (double, nodes);
      guint at = 0;
      for (guint k = 0; k < count; k++)
        {
          guint li = first + k;
          const FxLinkSys *l = &sys->links[li];
          for (guint i = (k == 0 ? 0 : 1); i <= st_n (l); i++, at++)
            {
              double v[3];
              node_values (st, li, i, v);
              out->s[at] = (start + i * st_h (l)) / total;
              out->N[at] = v[0];
              out->V[at] = v[1];
              out->M[at] = v[2];
              note_extreme (rep, 2, v[2], ml, out->s[at]);
            }
          for (guint e = 0; e < st_n (l); e++)
            {
              double s[3], m[2], where = (start + (e + 0.5) * st_h (l)) / total;
              element_values (st, li, e, s, m);
              note_extreme (rep, 0, s[0], ml, where);
              note_extreme (rep, 1, s[1], ml, where);
            }
          start += l->L;
        }
    }
}

static void
fill_energy (Statics *st, FxStaticsReport *rep)
{
  FxSystem *sys = st->sys;
  double U = 0.0;

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      for (guint e = 0; e < st_n (l); e++)
        {
          const double *s = &st->u[ST_ELEM (st->seg[li], e)];
          U += 0.5 * st_h (l) * (l->Ct[0] * s[0] * s[0] + l->Ct[1] * s[1] * s[1] + l->Cr * s[2] * s[2]);
        }
    }
  for (guint i = 0; i < sys->springs->len; i++)
    {
      const FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      U += 0.5 * sp->k * (sp->phi - sp->rest) * (sp->phi - sp->rest);
    }
  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      if (d->active && d->release > st->t)
        U += 0.5 * d->k * (sys->x[d->dof] * sys->x[d->dof] + sys->x[d->dof + 1] * sys->x[d->dof + 1]);
    }
  rep->strain_energy = U;
}

/* The model joint of a built joint (split points have none: -1). */
static int
model_joint (const FxSystem *sys, guint built)
{
  return fx_model_find_joint (sys->model, fx_model_joint (sys->built, built)->id);
}

static void
fill_reactions (Statics *st, FxStaticsReport *rep)
{
  FxSystem *sys = st->sys;
  const double *u = st->u;

  rep->n_joints = sys->model->joints->len;
  rep->reactions = g_new0 (double, MAX (FX_REACTION_N_VALUES * rep->n_joints, 1));
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const SJunction *s = &st->tj[i];
      const FxJunction *j = s->j;
      int jt = model_joint (sys, j->joint);
      double F[2] = { 0, 0 };
      if (jt < 0 || (s->kind != J_GROUND && s->kind != J_SLIDER))
        continue;
      for (guint k = 0; k < j->ports->len; k++)
        for (guint c = 0; c < 2; c++)
          F[c] -= u[s->mult + 2 * k + c];
      if (s->kind == J_SLIDER)
        {
          for (guint c = 0; c < 2; c++)
            F[c] -= j->weight * sys->gravity[c];
          for (guint q = 0; q < j->loads->len; q++)
            {
              /* a roller's own loads: spatial ones (the guide does not turn) */
              const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, q);
              double f = ld->profile && ld->profile->noise == FX_NOISE_NONE
                         ? fx_profile_eval (ld->profile, st->t) : ld->profile ? 0.0 : 1.0;
              for (guint c = 0; c < 2; c++)
                F[c] -= f * ld->force[c];
            }
        }
      rep->reactions[FX_REACTION_N_VALUES * jt + FX_REACTION_FX] += F[0];
      rep->reactions[FX_REACTION_N_VALUES * jt + FX_REACTION_FY] += F[1];
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const SJunction *s = &st->rj[i];
      int jt = model_joint (sys, s->j->joint);
      if (jt < 0 || s->kind != J_GROUND)
        continue;
      for (guint k = 0; k < s->j->ports->len; k++)
        rep->reactions[FX_REACTION_N_VALUES * jt + FX_REACTION_M] -= u[s->mult + k];
    }
}

void
fx_statics_fill_report (Statics *st, FxStaticsReport *rep)
{
  fill_reactions (st, rep);
  fill_links (st, rep);
  fill_energy (st, rep);
}

/* 1/2 sum F . u over the displacement unknowns: the loads' rows are the
 * residual's change between load factors 1 and 0 (dead loads). */
void
fx_statics_clapeyron (Statics *st, const double *R1, const double *R0, FxStaticsReport *rep)
{
  double W = 0.0;

  for (guint i = 0; i < st->n; i++)
    if (st->d[i] > 0.0)
      W += 0.5 * (R0[i] - R1[i]) * (st->u[i] - st->u0[i]);
  rep->clapeyron_work = W;
}
