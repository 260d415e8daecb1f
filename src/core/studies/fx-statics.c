/* fx-statics.c: static equilibrium in displacement form (fx-statics.h,
 * physics.md §14).
 *
 * Unknowns: per node of every segment r and theta; per element the
 * material stress resultant n and moment m, with the rows
 * h (gamma(r, theta) - C_t n) = 0 and h (kappa - C_r m) = 0, so that a rigid
 * link (C = 0) keeps its elements unstrained exactly and its stresses are
 * their multipliers. One-point (element midpoint) strains: the classical
 * remedy against shear locking of linear Reissner elements. Junctions join
 * the member ends by constraints whose multipliers are the end forces:
 * r_end = P_j(u) per member, with P_j a free point (a pin, a lumped mass),
 * a locked one (a support, a driven support where it is now), a point on a
 * guide (a slider, a roller) or a body's attachment; theta_end = Q_j + offset
 * in rotation (welds keep their drawn angle, a pin end its own Q). Loads are
 * the time profiles at t*, scaled by the increment's load factor.
 */
#include "fx-statics-private.h"
#include "fx-cancel.h"
#include "fx-link-model.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (fx-statics-error-quark, fx_statics_error)

#define TOL 1e-10             /* relative residual of a converged solve     */
#define MAX_NEWTON 40
#define MAX_PSEUDO 4000
#define MAX_INCREMENTS 64
#define MAX_ROTATION_STEP 0.5 /* rad per iteration                          */
#define RUNAWAY_TURNS 2.0     /* turns a pseudo-transient path may take     */
#define DIAGNOSE_MAX 1500u    /* unknowns for the dense singular-value check */

/* ------------------------------------------------------------ helpers */

/* ----------------------------------------------------------- building */

static int
body_of_rotation (const FxSystem *sys, const FxJunction *j)
{
  for (guint b = 0; b < sys->bodies->len && j->inertia_dof >= 0; b++)
    if ((int) g_array_index (sys->bodies, FxBodySys, b).dof + 2 == j->inertia_dof)
      return (int) b;
  return -1;
}

static void
end_state (const FxSystem *sys, const FxPort *p, double pos[2], double *theta)
{
  const FxLinkSys *l = &sys->links[p->link];
  l->model->node (l, sys->x, st_end_node (l, p->side), pos, theta, NULL);
}

static void
initial_links (Statics *st)
{
  FxSystem *sys = st->sys;

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      guint o = st->seg[li];
      for (guint i = 0; i <= st_n (l); i++)
        {
          double p[2], th;
          l->model->node (l, sys->x, i, p, &th, NULL);
          st->u[ST_NODE (o, i)] = p[0];
          st->u[ST_NODE (o, i) + 1] = p[1];
          st->u[ST_NODE (o, i) + 2] = th;
        }
      for (guint e = 0; e < st_n (l); e++)
        {
          const double *a = &st->u[ST_NODE (o, e)], *b = &st->u[ST_NODE (o, e + 1)];
          double cs[2], d[2] = { (b[0] - a[0]) / st_h (l), (b[1] - a[1]) / st_h (l) }, w[2];
          rot (0.5 * (a[2] + b[2]), cs);
          lam_t (cs, d, w);
          double *s = &st->u[ST_ELEM (o, e)];
          s[0] = l->Ct[0] > 0 ? (w[0] - 1.0) / l->Ct[0] : 0.0;
          s[1] = l->Ct[1] > 0 ? w[1] / l->Ct[1] : 0.0;
          s[2] = l->Cr > 0 ? (b[2] - a[2]) / (st_h (l) * l->Cr) : 0.0;
        }
    }
}

static void
build_junctions (Statics *st, guint *n)
{
  FxSystem *sys = st->sys;

  st->tj = g_new0 (SJunction, MAX (sys->tjunctions->len, 1));
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      SJunction *s = &st->tj[i];
      double pos[2] = { j->pos[0], j->pos[1] }, th;
      s->j = j;
      if (j->ports->len > 0)
        end_state (sys, &g_array_index (j->ports, FxPort, 0), pos, &th);
      s->dof = -1;
      if (j->ground)
        {
          s->kind = J_GROUND;
          s->fixed[0] = pos[0];
          s->fixed[1] = pos[1];
        }
      else if (j->body >= 0)
        s->kind = J_BODY;
      else if (j->slider)
        {
          s->kind = J_SLIDER;
          s->dof = (int) (*n)++;
          s->p0[0] = pos[0];
          s->p0[1] = pos[1];
          st->u[s->dof] = 0.0;
        }
      else
        {
          s->kind = J_FREE;
          s->dof = (int) *n;
          *n += 2;
          st->u[s->dof] = pos[0];
          st->u[s->dof + 1] = pos[1];
        }
      s->mult = *n;
      *n += 2 * j->ports->len;
    }
  st->rj = g_new0 (SJunction, MAX (sys->rjunctions->len, 1));
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      SJunction *s = &st->rj[i];
      double pos[2], th0 = 0.0;
      s->j = j;
      s->off = g_new0 (double, MAX (j->ports->len, 1));
      for (guint k = 0; k < j->ports->len; k++)
        {
          double th;
          end_state (sys, &g_array_index (j->ports, FxPort, k), pos, &th);
          if (k == 0)
            th0 = th;
          s->off[k] = th - th0;
        }
      s->q0 = th0;
      s->dof = -1;
      int b = body_of_rotation (sys, j);
      if (j->ground)
        {
          s->kind = J_GROUND;
          s->fixed[0] = th0;
        }
      else if (b >= 0)
        {
          s->kind = J_BODY;
          s->dof = (int) b;
          s->fixed[0] = th0 - g_array_index (sys->bodies, FxBodySys, b).phi;
        }
      else
        {
          s->kind = J_FREE;
          s->dof = (int) (*n)++;
          st->u[s->dof] = th0;
        }
      s->mult = *n;
      *n += j->ports->len;
    }
}

/* The spring's ends as segment * 2 + side (-1: the ground). */
static int
port_of_dof (const FxSystem *sys, int dof)
{
  for (guint i = 0; dof >= 0 && i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      for (guint k = 0; k < j->ports->len; k++)
        {
          const FxPort *p = &g_array_index (j->ports, FxPort, k);
          if ((int) p->dof == dof)
            return (int) (2 * p->link + p->side);
        }
    }
  return -1;
}

static gboolean
build (Statics *st, FxSystem *sys, double t, GError **error)
{
  guint n = 0;

  st->sys = sys;
  st->t = t;
  st->seg = g_new0 (guint, MAX (sys->n_links, 1));
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      if (!l->model->mixed_fields)
        {
          g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_UNSUPPORTED,
                       _("links[%u]: settling a floating-frame link (\"%s\") is not supported yet; "
                         "run the model with damping instead"), l->model_index, l->id);
          return FALSE;
        }
      st->seg[li] = n;
      n += 6 * st_n (l) + 3;
    }
  st->body = g_new0 (guint, MAX (sys->bodies->len, 1));
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      st->body[b] = n;
      n += 3;
    }
  /* an upper bound for the junctions' unknowns, to size u */
  guint extra = 0;
  for (guint c = 0; c < 2; c++)
    {
      GArray *arr = c == 0 ? sys->tjunctions : sys->rjunctions;
      for (guint i = 0; i < arr->len; i++)
        extra += 2 + 2 * g_array_index (arr, FxJunction, i).ports->len;
    }
  st->u = g_new0 (double, n + extra + 1);
  initial_links (st);
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      const FxBodySys *bs = &g_array_index (sys->bodies, FxBodySys, b);
      st->u[st->body[b]] = bs->c[0];
      st->u[st->body[b] + 1] = bs->c[1];
      st->u[st->body[b] + 2] = bs->phi;
    }
  build_junctions (st, &n);
  st->n = n;
  st->u0 = g_memdup2 (st->u, sizeof (double) * MAX (n, 1));

  guint ns = sys->springs->len;
  st->spring_phi0 = g_new0 (double, MAX (ns, 1));
  st->spring_port[0] = g_new (int, MAX (ns, 1));
  st->spring_port[1] = g_new (int, MAX (ns, 1));
  for (guint i = 0; i < ns; i++)
    {
      const FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      st->spring_phi0[i] = sp->phi;
      st->spring_port[0][i] = port_of_dof (sys, sp->dof_a);
      st->spring_port[1][i] = port_of_dof (sys, sp->dof_b);
    }
  /* drags hold their anchors where they are now: a = P + delta */
  st->anchor = g_new0 (double, 2 * MAX (sys->drags->len, 1));
  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      double x, y;
      if (!d->active || d->release <= t)
        continue;
      const FxLinkSys *l = &sys->links[d->seg];
      double u = CLAMP (d->s_seg, 0.0, 1.0) * st_n (l);
      guint e = (guint) MIN (floor (u), (double) (st_n (l) - 1));
      double xi = u - e, pa[2], pb[2];
      fx_node_position (l, sys->x, e, pa);
      fx_node_position (l, sys->x, e + 1, pb);
      x = (1 - xi) * pa[0] + xi * pb[0];
      y = (1 - xi) * pa[1] + xi * pb[1];
      st->anchor[2 * i] = x + sys->x[d->dof];
      st->anchor[2 * i + 1] = y + sys->x[d->dof + 1];
    }
  st->noise = fx_system_has_noise (sys);
  return TRUE;
}

static void
statics_clear (Statics *st)
{
  for (guint i = 0; st->rj && i < st->sys->rjunctions->len; i++)
    g_free (st->rj[i].off);
  g_free (st->seg);
  g_free (st->tj);
  g_free (st->rj);
  g_free (st->body);
  g_free (st->u);
  g_free (st->u0);
  g_free (st->d);
  g_free (st->row_kind);
  g_free (st->anchor);
  g_free (st->spring_phi0);
  g_free (st->spring_port[0]);
  g_free (st->spring_port[1]);
}

/* ------------------------------------------------------ scales, weights */

/* Row kinds and pseudo-transient weights; the size of the loads. */
static void
scales (Statics *st)
{
  FxSystem *sys = st->sys;
  double mass = 0.0, len = 0.0, load = 0.0, g = hypot (sys->gravity[0], sys->gravity[1]);
  guint nodes = 0;

  st->d = g_new0 (double, MAX (st->n, 1));
  st->row_kind = g_new0 (guint8, MAX (st->n, 1));
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      mass += l->rhoA * l->L;
      len = MAX (len, l->L);
      nodes += st_n (l) + 1;
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (j->inertia_dof >= 0 || j->slider)
        mass += j->inertia;
      for (guint k = 0; k < j->loads->len; k++)
        {
          const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, k);
          load += fabs (fx_statics_profile_now (st, ld->profile)) * hypot (ld->force[0], ld->force[1]);
        }
    }
  for (guint b = 0; b < sys->bodies->len; b++)
    mass += g_array_index (sys->bodies, FxBodySys, b).m;
  st->length_ref = len > 0 ? len : 1.0;
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      for (guint k = 0; k < j->loads->len; k++)
        {
          const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, k);
          load += fabs (fx_statics_profile_now (st, ld->profile) * ld->moment) / st->length_ref;
        }
    }
  for (guint i = 0; i < sys->point_loads->len; i++)
    {
      const FxPointLoad *pl = &g_array_index (sys->point_loads, FxPointLoad, i);
      double f = fabs (fx_statics_profile_now (st, pl->profile));
      load += f * (hypot (pl->force[0], pl->force[1]) + fabs (pl->moment) / st->length_ref);
    }
  for (guint i = 0; i < sys->springs->len; i++)
    {
      const FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      load += sp->k * fabs (sp->phi - sp->rest) / st->length_ref;
    }
  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      if (d->active && d->release > st->t)
        load += d->k * hypot (sys->x[d->dof], sys->x[d->dof + 1]);
    }
  load += mass * g;
  st->force_ref = load;

  /* weights: each node's share of the mass, never zero */
  double floor_m = mass > 0 ? 1e-3 * mass / MAX (nodes, 1) : 1.0;
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      guint o = st->seg[li];
      for (guint i = 0; i <= st_n (l); i++)
        {
          double share = (i == 0 || i == st_n (l) ? 0.5 : 1.0) * st_h (l);
          double m = share * l->rhoA + floor_m;
          st->d[ST_NODE (o, i)] = st->d[ST_NODE (o, i) + 1] = m;
          st->d[ST_NODE (o, i) + 2] = share * l->rhoI + m * st_h (l) * st_h (l) / 12.0;
          st->row_kind[ST_NODE (o, i) + 2] = 1;
        }
      for (guint e = 0; e < st_n (l); e++)
        {
          st->row_kind[ST_ELEM (o, e)] = st->row_kind[ST_ELEM (o, e) + 1] = 2;
          st->row_kind[ST_ELEM (o, e) + 2] = 3;
        }
    }
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      const FxBodySys *bs = &g_array_index (sys->bodies, FxBodySys, b);
      st->d[st->body[b]] = st->d[st->body[b] + 1] = bs->m + floor_m;
      st->d[st->body[b] + 2] = bs->I + floor_m * st->length_ref * st->length_ref;
      st->row_kind[st->body[b] + 2] = 1;
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const SJunction *s = &st->tj[i];
      if (s->dof >= 0)
        for (guint c = 0; c < (s->kind == J_SLIDER ? 1u : 2u); c++)
          st->d[s->dof + c] = s->j->inertia + floor_m;
      for (guint k = 0; k < 2 * s->j->ports->len; k++)
        st->row_kind[s->mult + k] = 2;
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const SJunction *s = &st->rj[i];
      if (s->kind == J_FREE)
        {
          st->d[s->dof] = s->j->inertia + floor_m * st->length_ref * st->length_ref * 1e-2;
          st->row_kind[s->dof] = 1;
        }
      for (guint k = 0; k < s->j->ports->len; k++)
        st->row_kind[s->mult + k] = 3;
    }
}

/* Largest residual over its row's tolerance (<= 1: converged). */
static double
residual_ratio (const Statics *st, const double *R, const double *mag)
{
  double worst = 0.0;
  const double ref[4] = { st->force_ref, st->force_ref * st->length_ref, st->length_ref, 1.0 };

  for (guint i = 0; i < st->n; i++)
    {
      double tol = TOL * ref[st->row_kind[i]] + (mag ? 1e-13 * mag[i] : 0.0);
      double r = fabs (R[i]) / tol;
      if (!(r <= worst))
        worst = isfinite (r) ? r : INFINITY;
    }
  return worst;
}

/* Scales a step so that no angle turns by more than MAX_ROTATION_STEP and
 * no point moves by more than a quarter of the longest link. */
static double
limit_step (const Statics *st, double *du)
{
  double worst = 1.0;

  for (guint i = 0; i < st->n; i++)
    {
      if (st->d[i] == 0.0)
        continue;
      double cap = st->row_kind[i] == 1 ? MAX_ROTATION_STEP : 0.25 * st->length_ref;
      worst = MAX (worst, fabs (du[i]) / cap);
    }
  if (worst > 1.0)
    for (guint i = 0; i < st->n; i++)
      du[i] /= worst;
  return worst;
}

/* ----------------------------------------------------------- solvers */

typedef struct {
  FxMatrix *J;
  double *R, *mag, *du, *trial;
  guint iterations, pseudo_steps;
  gboolean singular, runaway;
} Work;

static gboolean
step_finite (const double *du, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (du[i]))
      return FALSE;
  return TRUE;
}

static gboolean
newton (Statics *st, Work *w, double lam_load, GError **error)
{
  double best = INFINITY;
  guint stalled = 0;

  for (guint it = 0; it < MAX_NEWTON; it++)
    {
      if (fx_cancel_check (error))
        return FALSE;
      fx_statics_assemble (st, st->u, lam_load, 0.0, w->R, w->mag, w->J);
      double ratio = residual_ratio (st, w->R, w->mag);
      if (ratio <= 1.0)
        return TRUE;
      w->iterations++;
      if (fx_matrix_factorize (w->J) != FX_MATRIX_OK)
        {
          w->singular = TRUE;
          return FALSE;
        }
      for (guint i = 0; i < st->n; i++)
        w->du[i] = -w->R[i];
      fx_matrix_solve (w->J, w->du);
      /* a step of millions of model sizes: the matrix is singular in all
       * but name (a mechanism, or a start with no stiffness yet) */
      if (!step_finite (w->du, st->n) || limit_step (st, w->du) > 1e6)
        {
          w->singular = TRUE;
          return FALSE;
        }
      /* no progress: leave it to the pseudo-transient path */
      if (it == 0 || ratio < 0.5 * best)
        best = ratio, stalled = 0;
      else if (++stalled > 6)
        return FALSE;
      for (guint i = 0; i < st->n; i++)
        st->u[i] += w->du[i];
    }
  return FALSE;
}

/* The first pseudo-step: the whole load on the whole mass (the
 * pseudo-transient weights) would move it by a tenth of the model. */
static double
first_pseudo_step (const Statics *st)
{
  double mass = 0.0;

  for (guint i = 0; i < st->n; i++)
    if (st->d[i] > 0.0 && st->row_kind[i] == 0)
      mass += 0.5 * st->d[i];
  return 0.1 * st->length_ref * mass / st->force_ref;
}

static gboolean
ran_away (const Statics *st)
{
  for (guint i = 0; i < st->n; i++)
    {
      if (st->d[i] == 0.0)
        continue;
      double moved = fabs (st->u[i] - st->u0[i]);
      if (st->row_kind[i] == 1 ? moved > RUNAWAY_TURNS * 2 * G_PI : moved > 50 * st->length_ref)
        return TRUE;
    }
  return FALSE;
}

/* Pseudo-transient continuation (Kelley & Keyes), K(u) - F + D (u - u_k)/dtau,
 * dtau by switched evolution relaxation. */
static gboolean
pseudo_transient (Statics *st, Work *w, double lam_load, GError **error)
{
  fx_statics_assemble (st, st->u, lam_load, 0.0, w->R, w->mag, NULL);
  double norm = residual_ratio (st, w->R, NULL), dtau = first_pseudo_step (st);
  guint singular_in_a_row = 0;

  for (guint k = 0; k < MAX_PSEUDO; k++)
    {
      if (fx_cancel_check (error))
        return FALSE;
      fx_statics_assemble (st, st->u, lam_load, 1.0 / dtau, w->R, w->mag, w->J);
      if (residual_ratio (st, w->R, w->mag) <= 1.0)
        return TRUE;
      w->iterations++;
      w->pseudo_steps++;
      if (fx_matrix_factorize (w->J) != FX_MATRIX_OK)
        {
          dtau *= 0.5;
          if (++singular_in_a_row > 40)
            {
              w->singular = TRUE;
              return FALSE;
            }
          continue;
        }
      singular_in_a_row = 0;
      for (guint i = 0; i < st->n; i++)
        w->du[i] = -w->R[i];
      fx_matrix_solve (w->J, w->du);
      if (!step_finite (w->du, st->n))
        {
          dtau *= 0.5;
          continue;
        }
      limit_step (st, w->du);
      for (guint i = 0; i < st->n; i++)
        w->trial[i] = st->u[i] + w->du[i];
      fx_statics_assemble (st, w->trial, lam_load, 0.0, w->R, NULL, NULL);
      double next = residual_ratio (st, w->R, NULL);
      if (!isfinite (next))
        {
          dtau *= 0.5;
          continue;
        }
      memcpy (st->u, w->trial, sizeof (double) * st->n);
      dtau = MIN (dtau * MIN (10.0, norm / MAX (next, 1e-300)), 1e300);
      norm = next;
      if (ran_away (st))
        {
          w->runaway = TRUE;
          return FALSE;
        }
    }
  return FALSE;
}

/* --------------------------------------------------------- diagnosis */

static gboolean
has_rigid_link (const FxSystem *sys)
{
  for (guint li = 0; li < sys->n_links; li++)
    if (sys->links[li].Ct[0] == 0.0 && sys->links[li].Cr == 0.0)
      return TRUE;
  return FALSE;
}

/* Is unknown i an element stress of an elastic link? */
static gboolean
elastic_stress (const Statics *st, guint i)
{
  for (guint li = 0; li < st->sys->n_links; li++)
    {
      const FxLinkSys *l = &st->sys->links[li];
      guint first = ST_ELEM (st->seg[li], 0), last = ST_ELEM (st->seg[li], st_n (l) - 1) + 2;
      if (i >= first && i <= last)
        return !(l->Ct[0] == 0.0 && l->Cr == 0.0);
    }
  return FALSE;
}

/* The rigid link that carries a self-stress at configuration u, or -1.
 * A self-stress is a set of forces in equilibrium with no load whose
 * strains C sigma vanish: it leaves every elastic element unstressed. So
 * the columns that may carry one are the rigid links' stresses and the
 * junctions' multipliers, and the static matrix restricted to them is rank
 * deficient exactly when rigid links are over-constrained (its entries are
 * geometry, O(1) and O(h): no compliance to confuse the test). Found by
 * inverse iteration on the Gram matrix G = M^T M: its smallest eigenvalue
 * against its largest diagonal, the eigenvector's largest rigid stress
 * naming the link. */
static int
rigid_self_stress_link (Statics *st, const double *u)
{
  const guint n = st->n;
  g_autofree guint *cols = g_new (guint, n);
  guint nf = 0;

  for (guint i = 0; i < n; i++)
    if (st->d[i] == 0.0 && !elastic_stress (st, i))
      cols[nf++] = i;  /* a rigid stress or a multiplier */
  if (nf == 0 || n > DIAGNOSE_MAX)
    return -1;
  g_autoptr (FxMatrix) D = fx_matrix_new (n, FX_MATRIX_DENSE);
  g_autofree double *R = g_new (double, n);
  fx_statics_assemble (st, u, 0.0, 0.0, R, NULL, D);
  if (!fx_matrix_analyze (D, NULL))
    return -1;
  fx_statics_assemble (st, u, 0.0, 0.0, R, NULL, D);
  gsl_matrix *M = gsl_matrix_alloc (n, nf), *G = gsl_matrix_alloc (nf, nf);
  gsl_vector *x = gsl_vector_alloc (nf);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < nf; k++)
      gsl_matrix_set (M, i, k, fx_matrix_get (D, i, cols[k]));
  gsl_blas_dgemm (CblasTrans, CblasNoTrans, 1.0, M, M, 0.0, G);
  double top = 0.0, lambda = INFINITY;
  for (guint k = 0; k < nf; k++)
    top = MAX (top, gsl_matrix_get (G, k, k));
  for (guint k = 0; k < nf; k++)
    *gsl_matrix_ptr (G, k, k) += 1e-15 * top;  /* beyond round-off: Cholesky of a singular G */
  gsl_matrix *L = gsl_matrix_alloc (nf, nf);
  gsl_matrix_memcpy (L, G);
  int best = -1;
  /* a singular G is an answer here, not an error to abort on */
  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  int status = gsl_linalg_cholesky_decomp1 (L);
  gsl_set_error_handler (old);
  if (status == 0)
    {
      gsl_vector_set_all (x, 1.0);
      for (guint it = 0; it < 12; it++)
        {
          gsl_vector_scale (x, 1.0 / gsl_blas_dnrm2 (x));
          gsl_linalg_cholesky_svx (L, x);
        }
      gsl_vector_scale (x, 1.0 / gsl_blas_dnrm2 (x));
      gsl_vector *Gx = gsl_vector_alloc (nf);
      gsl_blas_dsymv (CblasLower, 1.0, G, x, 0.0, Gx);
      gsl_blas_ddot (x, Gx, &lambda);
      gsl_vector_free (Gx);
    }
  else
    lambda = 0.0;  /* not even positive definite: singular to round-off */
  if (lambda < 1e-13 * top)
    {
      double big = 0.0;
      for (guint k = 0; k < nf; k++)
        for (guint li = 0; li < st->sys->n_links; li++)
          {
            const FxLinkSys *l = &st->sys->links[li];
            guint first = ST_ELEM (st->seg[li], 0), last = ST_ELEM (st->seg[li], st_n (l) - 1) + 2;
            double v = fabs (gsl_vector_get (x, k));
            if (l->Ct[0] == 0.0 && l->Cr == 0.0 && cols[k] >= first && cols[k] <= last && v > big)
              big = v, best = (int) li;
          }
      if (big < 1e-3)
        best = -1;
    }
  gsl_matrix_free (M);
  gsl_matrix_free (G);
  gsl_matrix_free (L);
  gsl_vector_free (x);
  return best;
}

static void
set_failure (Statics *st, Work *w, double reached, GError **error)
{
  if (w->singular && has_rigid_link (st->sys))
    {
      int li = rigid_self_stress_link (st, st->u);
      if (li >= 0)
        {
          const FxLinkSys *l = &st->sys->links[li];
          const FxLink *ml = fx_model_link (st->sys->model, l->model_index);
          g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_OVER_CONSTRAINED,
                       _("links[%u]: rigid link \"%s\" is over-constrained: its ends are held "
                         "so that its force cannot be found from equilibrium (statically "
                         "indeterminate); make it flexible (\"rigid\": false) or free one of "
                         "its ends"), l->model_index, ml->id);
          return;
        }
      g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_OVER_CONSTRAINED,
                   _("no static equilibrium: the rigid links are over-constrained (statically "
                     "indeterminate); make one of them flexible"));
      return;
    }
  if (w->runaway)
    g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_EQUILIBRIUM,
                 _("no static equilibrium near this state: the loads at t = %g s carry the "
                   "mechanism away (more than %g turns): a load that nothing holds, such as "
                   "a torque beyond what gravity can balance"), st->t, RUNAWAY_TURNS);
  else if (reached > 0.0)
    g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_EQUILIBRIUM,
                 _("no static equilibrium near this state: only %.0f %% of the loads at t = %g s "
                   "could be carried"), 100.0 * reached, st->t);
  else
    g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_EQUILIBRIUM,
                 _("no static equilibrium near this state: not even %.1f %% of the loads at "
                   "t = %g s could be carried"), 100.0 / MAX_INCREMENTS, st->t);
}

/* --------------------------------------------------------- the settle */

static gboolean
solve_increments (Statics *st, Work *w, FxStaticsReport *rep, GError **error)
{
  double reached = 0.0, dlam = 1.0;
  guint increments = 0;
  g_autofree double *saved = g_new (double, st->n);

  while (reached < 1.0)
    {
      double target = MIN (1.0, reached + dlam);
      GError *inner = NULL;
      gboolean ok;

      if (increments >= MAX_INCREMENTS || dlam < 1.0 / MAX_INCREMENTS)
        {
          set_failure (st, w, reached, error);
          return FALSE;
        }
      memcpy (saved, st->u, sizeof (double) * st->n);
      w->singular = w->runaway = FALSE;
      ok = newton (st, w, target, &inner);
      if (!ok && inner == NULL)
        {
          memcpy (st->u, saved, sizeof (double) * st->n);
          w->singular = FALSE;
          ok = pseudo_transient (st, w, target, &inner);
        }
      increments++;
      if (inner)
        {
          g_propagate_error (error, inner);
          return FALSE;
        }
      if (ok)
        {
          reached = target;
          continue;
        }
      memcpy (st->u, saved, sizeof (double) * st->n);
      /* loads grow in proportion: a smaller increment carries the
       * mechanism away as well */
      if (w->runaway || (w->singular && has_rigid_link (st->sys)))
        {
          set_failure (st, w, target, error);
          return FALSE;
        }
      dlam *= 0.5;
    }
  rep->increments = increments;
  return TRUE;
}

gboolean
fx_statics_check_rigid (FxSystem *sys, GError **error)
{
  Statics st = { 0 };
  gboolean ok = TRUE;

  if (!has_rigid_link (sys))
    return TRUE;
  if (build (&st, sys, 0.0, NULL))
    {
      scales (&st);
      int li = rigid_self_stress_link (&st, st.u0);
      if (li >= 0)
        {
          const FxLinkSys *l = &sys->links[li];
          g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_OVER_CONSTRAINED,
                       _("links[%u]: rigid link \"%s\" is over-constrained: its ends are held so "
                         "that its force cannot be found from equilibrium (statically "
                         "indeterminate); make it flexible (\"rigid\": false) or free one of "
                         "its ends"), l->model_index, fx_model_link (sys->model, l->model_index)->id);
          ok = FALSE;
        }
    }
  statics_clear (&st);
  return ok;
}

gboolean
fx_statics_settle (FxSystem *sys, double t, FxStaticsReport *report, GError **error)
{
  Statics st = { 0 };
  Work w = { 0 };
  FxStaticsReport local = { 0 };
  FxStaticsReport *rep = report ? report : &local;
  gboolean ok = FALSE;

  memset (rep, 0, sizeof *rep);
  rep->t = t;
  if (!build (&st, sys, t, error))
    goto out;
  scales (&st);
  rep->noise_left_out = st.noise;
  if (!(st.force_ref > 0.0))
    {
      g_set_error (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_LOAD,
                   _("no load acts at t = %g s: settle at a later time"), t);
      goto out;
    }
  w.J = fx_matrix_new (st.n, FX_MATRIX_AUTO);
  w.R = g_new (double, MAX (st.n, 1));
  w.mag = g_new (double, MAX (st.n, 1));
  w.du = g_new (double, MAX (st.n, 1));
  w.trial = g_new (double, MAX (st.n, 1));
  fx_statics_assemble (&st, st.u, 1.0, 1.0, w.R, NULL, w.J);
  if (!fx_matrix_analyze (w.J, error))
    goto out;
  if (!solve_increments (&st, &w, rep, error))
    goto out;
  rep->iterations = w.iterations;
  rep->pseudo_steps = w.pseudo_steps;
  if (!fx_statics_write_back (&st, &rep->balance, error))
    goto out;
  fx_statics_fill_report (&st, rep);
  fx_statics_assemble (&st, st.u, 1.0, 0.0, w.R, NULL, NULL);
  fx_statics_assemble (&st, st.u, 0.0, 0.0, w.mag, NULL, NULL);
  fx_statics_clapeyron (&st, w.R, w.mag, rep);
  ok = TRUE;
out:
  if (w.J)
    fx_matrix_free (w.J);
  g_free (w.R);
  g_free (w.mag);
  g_free (w.du);
  g_free (w.trial);
  statics_clear (&st);
  if (!ok || report == NULL)
    fx_statics_report_clear (rep);
  return ok;
}

void
fx_statics_report_clear (FxStaticsReport *rep)
{
  if (rep == NULL)
    return;
  for (guint i = 0; i < rep->n_links; i++)
    {
      g_free (rep->links[i].s);
      g_free (rep->links[i].N);
      g_free (rep->links[i].V);
      g_free (rep->links[i].M);
    }
  g_free (rep->links);
  g_free (rep->reactions);
  rep->reactions = NULL;
  rep->n_joints = 0;
  rep->links = NULL;
  rep->n_links = 0;
}
