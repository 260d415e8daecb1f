/* fx-statics-assembly.c: the residual and tangent of the static problem
 * (fx-statics.c): the elements of every segment, point loads, junctions
 * (their constraints and loads), bodies, springs and drags. */
#include "fx-statics-private.h"

#include <math.h>
#include <string.h>

double
fx_statics_profile_now (const Statics *st, const FxProfile *p)
{
  if (p == NULL)
    return 1.0;
  if (p->noise != FX_NOISE_NONE)
    return 0.0;  /* noise has mean zero: left out */
  return fx_profile_eval (p, st->t);
}

static void
radd (double *R, double *mag, guint row, double v)
{
  R[row] += v;
  if (mag)
    mag[row] += fabs (v);
}

static void
jadd (FxMatrix *J, guint i, guint j, double v)
{
  if (J)
    fx_matrix_add (J, i, j, v);
}

static guint
theta_dof (const Statics *st, int port)
{
  const FxLinkSys *l = &st->sys->links[port / 2];
  return ST_NODE (st->seg[port / 2], st_end_node (l, (guint) port % 2)) + 2;
}

/* ----------------------------------------------------------- assembly */

static void
assemble_element (const Statics *st, const FxLinkSys *l, guint o, guint e, double lam_load,
                  const double *u, double *R, double *mag, FxMatrix *J)
{
  const guint a = ST_NODE (o, e), b = ST_NODE (o, e + 1), el = ST_ELEM (o, e);
  const double h = st_h (l);
  const double d[2] = { (u[b] - u[a]) / h, (u[b + 1] - u[a + 1]) / h };
  const double n[2] = { u[el], u[el + 1] }, m = u[el + 2];
  double cs[2], w[2], Ln[2], Jn[2], LJn[2];

  rot (0.5 * (u[a + 2] + u[b + 2]), cs);
  lam_t (cs, d, w);
  lam (cs, n, Ln);
  jrot (n, Jn);
  lam (cs, Jn, LJn);
  const double Lm[2][2] = { { cs[0], -cs[1] }, { cs[1], cs[0] } };
  const double T = 0.5 * h * (n[0] * w[1] - n[1] * w[0]);

  for (guint c = 0; c < 2; c++)
    {
      radd (R, mag, a + c, -Ln[c]);
      radd (R, mag, b + c, Ln[c]);
      for (guint k = 0; k < 2; k++)
        {
          jadd (J, a + c, el + k, -Lm[c][k]);
          jadd (J, b + c, el + k, Lm[c][k]);
          /* element rows: h (w - b1 - C n), dw/dr_b = Lambda^T / h */
          jadd (J, el + c, b + k, Lm[k][c]);
          jadd (J, el + c, a + k, -Lm[k][c]);
        }
      jadd (J, a + c, a + 2, -0.5 * LJn[c]);
      jadd (J, a + c, b + 2, -0.5 * LJn[c]);
      jadd (J, b + c, a + 2, 0.5 * LJn[c]);
      jadd (J, b + c, b + 2, 0.5 * LJn[c]);
      /* theta rows against r: d T / d r_b = 1/2 (Lambda J n) */
      jadd (J, a + 2, b + c, 0.5 * LJn[c]);
      jadd (J, b + 2, b + c, 0.5 * LJn[c]);
      jadd (J, a + 2, a + c, -0.5 * LJn[c]);
      jadd (J, b + 2, a + c, -0.5 * LJn[c]);
    }
  radd (R, mag, a + 2, T - m);
  radd (R, mag, b + 2, T + m);
  const double Sw[2] = { w[1], -w[0] };
  const double dT_dth = -0.25 * h * (n[0] * w[0] + n[1] * w[1]);
  for (guint p = 0; p < 2; p++)
    {
      guint row = p == 0 ? a + 2 : b + 2;
      jadd (J, row, el, 0.5 * h * w[1]);
      jadd (J, row, el + 1, -0.5 * h * w[0]);
      jadd (J, row, el + 2, p == 0 ? -1.0 : 1.0);
      jadd (J, row, a + 2, dT_dth);
      jadd (J, row, b + 2, dT_dth);
      jadd (J, el + p, a + 2, 0.5 * h * Sw[p]);
      jadd (J, el + p, b + 2, 0.5 * h * Sw[p]);
    }
  radd (R, mag, el, h * (w[0] - 1.0 - l->Ct[0] * n[0]));
  radd (R, mag, el + 1, h * (w[1] - l->Ct[1] * n[1]));
  radd (R, mag, el + 2, (u[b + 2] - u[a + 2]) - h * l->Cr * m);
  jadd (J, el, el, -h * l->Ct[0]);
  jadd (J, el + 1, el + 1, -h * l->Ct[1]);
  jadd (J, el + 2, el + 2, -h * l->Cr);
  jadd (J, el + 2, b + 2, 1.0);
  jadd (J, el + 2, a + 2, -1.0);

  /* gravity, lumped consistently (exact for linear r) */
  const double *g = st->sys->gravity;
  for (guint c = 0; c < 2; c++)
    {
      radd (R, mag, a + c, -lam_load * l->rhoA * g[c] * 0.5 * h);
      radd (R, mag, b + c, -lam_load * l->rhoA * g[c] * 0.5 * h);
    }
}

/* A force F (spatial, or material in the frame of theta at `th_dof`) and a
 * moment at fraction s of segment li: rows -= its work's gradient. */
static void
assemble_point (const Statics *st, guint li, double s, const double F[2], gboolean material,
                double M, const double *u, double *R, double *mag, FxMatrix *J)
{
  const FxLinkSys *l = &st->sys->links[li];
  const guint o = st->seg[li];
  double x = CLAMP (s, 0.0, 1.0) * st_n (l);
  guint e = (guint) MIN (floor (x), (double) (st_n (l) - 1));
  double xi = x - e, wt[2] = { 1.0 - xi, xi }, Fs[2] = { F[0], F[1] }, dF[2] = { 0, 0 };
  guint nd[2] = { ST_NODE (o, e), ST_NODE (o, e + 1) };

  if (material)
    {
      double cs[2], JF[2];
      rot (wt[0] * u[nd[0] + 2] + wt[1] * u[nd[1] + 2], cs);
      lam (cs, F, Fs);
      jrot (F, JF);
      lam (cs, JF, dF);
    }
  for (guint k = 0; k < 2; k++)
    {
      for (guint c = 0; c < 2; c++)
        {
          radd (R, mag, nd[k] + c, -wt[k] * Fs[c]);
          for (guint q = 0; q < 2; q++)
            jadd (J, nd[k] + c, nd[q] + 2, -wt[k] * wt[q] * dF[c]);
        }
      radd (R, mag, nd[k] + 2, -wt[k] * M);
    }
}

typedef struct {
  guint n;
  guint dof[3];
  double v[3][2];   /* dP/du                                */
  double dd[2];     /* body: d2P/dphi2 (about dof[2])       */
  double P[2];
} Place;

static void
place_of (const Statics *st, const SJunction *s, const double *u, Place *pl)
{
  memset (pl, 0, sizeof *pl);
  switch (s->kind)
    {
    case J_GROUND:
      pl->P[0] = s->fixed[0];
      pl->P[1] = s->fixed[1];
      break;
    case J_FREE:
      pl->n = 2;
      pl->dof[0] = (guint) s->dof;
      pl->dof[1] = (guint) s->dof + 1;
      pl->v[0][0] = pl->v[1][1] = 1.0;
      pl->P[0] = u[s->dof];
      pl->P[1] = u[s->dof + 1];
      break;
    case J_SLIDER:
      pl->n = 1;
      pl->dof[0] = (guint) s->dof;
      pl->v[0][0] = s->j->direction[0];
      pl->v[0][1] = s->j->direction[1];
      pl->P[0] = s->p0[0] + u[s->dof] * s->j->direction[0];
      pl->P[1] = s->p0[1] + u[s->dof] * s->j->direction[1];
      break;
    case J_BODY:
      {
        guint o = st->body[s->j->body];
        double cs[2], Lr[2], JLr[2];
        rot (u[o + 2], cs);
        lam (cs, s->j->rho, Lr);
        jrot (Lr, JLr);
        pl->n = 3;
        for (guint k = 0; k < 3; k++)
          pl->dof[k] = o + k;
        pl->v[0][0] = pl->v[1][1] = 1.0;
        pl->v[2][0] = JLr[0];
        pl->v[2][1] = JLr[1];
        pl->dd[0] = -Lr[0];
        pl->dd[1] = -Lr[1];
        pl->P[0] = u[o] + Lr[0];
        pl->P[1] = u[o + 1] + Lr[1];
      }
      break;
    }
}

/* G applied at the place: rows -= (dP/du)^T G, with dG/du[col] = dG (may be NULL) */
static void
place_force (const Place *pl, const double G[2], double *R, double *mag, FxMatrix *J)
{
  for (guint k = 0; k < pl->n; k++)
    radd (R, mag, pl->dof[k], -(pl->v[k][0] * G[0] + pl->v[k][1] * G[1]));
  if (pl->n == 3)
    jadd (J, pl->dof[2], pl->dof[2], -(pl->dd[0] * G[0] + pl->dd[1] * G[1]));
}

static void
assemble_tjunction (const Statics *st, const SJunction *s, double lam_load, const double *u,
                    double *R, double *mag, FxMatrix *J)
{
  const FxJunction *j = s->j;
  const FxSystem *sys = st->sys;
  Place pl;
  double G[2] = { 0, 0 };

  place_of (st, s, u, &pl);
  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *p = &g_array_index (j->ports, FxPort, k);
      const FxLinkSys *l = &sys->links[p->link];
      guint r = ST_NODE (st->seg[p->link], st_end_node (l, p->side)), m = s->mult + 2 * k;
      for (guint c = 0; c < 2; c++)
        {
          radd (R, mag, m + c, u[r + c] - pl.P[c]);
          jadd (J, m + c, r + c, 1.0);
          jadd (J, r + c, m + c, 1.0);
          radd (R, mag, r + c, u[m + c]);
          for (guint q = 0; q < pl.n; q++)
            {
              jadd (J, m + c, pl.dof[q], -pl.v[q][c]);
              jadd (J, pl.dof[q], m + c, -pl.v[q][c]);
            }
          G[c] += u[m + c];
        }
    }
  if (s->kind == J_GROUND)
    return;
  /* external: the joint's loads and the weight of its inertia */
  double weight = (j->inertia_dof >= 0 || j->slider) ? j->weight : 0.0;
  for (guint c = 0; c < 2; c++)
    G[c] += lam_load * weight * sys->gravity[c];
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      double f = lam_load * fx_statics_profile_now (st, ld->profile);
      double F[2] = { f * ld->force[0], f * ld->force[1] };
      if (ld->frame_member >= 0)
        {
          const FxPort *q = &g_array_index (j->ports, FxPort, ld->frame_member);
          guint th = ST_NODE (st->seg[q->link], st_end_node (&sys->links[q->link], q->side)) + 2;
          double cs[2], Fs[2], JF[2], dF[2];
          rot (u[th], cs);
          lam (cs, F, Fs);
          jrot (F, JF);
          lam (cs, JF, dF);
          for (guint k = 0; k < pl.n; k++)
            jadd (J, pl.dof[k], th, -(pl.v[k][0] * dF[0] + pl.v[k][1] * dF[1]));
          F[0] = Fs[0];
          F[1] = Fs[1];
        }
      G[0] += F[0];
      G[1] += F[1];
    }
  place_force (&pl, G, R, mag, J);
}

static void
assemble_rjunction (const Statics *st, const SJunction *s, double lam_load, const double *u,
                    double *R, double *mag, FxMatrix *J)
{
  const FxJunction *j = s->j;
  const FxSystem *sys = st->sys;
  int qdof = s->kind == J_FREE ? s->dof : s->kind == J_BODY ? (int) st->body[s->dof] + 2 : -1;
  double Q = s->kind == J_GROUND ? s->fixed[0]
           : s->kind == J_BODY ? u[qdof] + s->fixed[0] : u[qdof];
  double G = 0.0;

  for (guint k = 0; k < j->ports->len; k++)
    {
      const FxPort *p = &g_array_index (j->ports, FxPort, k);
      const FxLinkSys *l = &sys->links[p->link];
      guint th = ST_NODE (st->seg[p->link], st_end_node (l, p->side)) + 2, m = s->mult + k;
      radd (R, mag, m, u[th] - Q - s->off[k]);
      jadd (J, m, th, 1.0);
      jadd (J, th, m, 1.0);
      radd (R, mag, th, u[m]);
      if (qdof >= 0)
        {
          jadd (J, m, (guint) qdof, -1.0);
          jadd (J, (guint) qdof, m, -1.0);
        }
      G += u[m];
    }
  if (qdof < 0)
    return;
  for (guint i = 0; i < j->loads->len; i++)
    {
      const FxJointLoad *ld = &g_array_index (j->loads, FxJointLoad, i);
      G += lam_load * fx_statics_profile_now (st, ld->profile) * ld->moment;
    }
  radd (R, mag, (guint) qdof, -G);
}

static void
assemble_springs (const Statics *st, const double *u, double *R, double *mag, FxMatrix *J)
{
  const FxSystem *sys = st->sys;

  for (guint i = 0; i < sys->springs->len; i++)
    {
      const FxSpringSys *sp = &g_array_index (sys->springs, FxSpringSys, i);
      int pa = st->spring_port[0][i], pb = st->spring_port[1][i];
      if (pa < 0)
        continue;
      guint a = theta_dof (st, pa);
      double phi = st->spring_phi0[i] + (u[a] - st->u0[a]);
      guint b = pb >= 0 ? theta_dof (st, pb) : 0;
      if (pb >= 0)
        phi -= u[b] - st->u0[b];
      double tau = sp->k * (phi - sp->rest);
      radd (R, mag, a, tau);
      jadd (J, a, a, sp->k);
      if (pb >= 0)
        {
          radd (R, mag, b, -tau);
          jadd (J, a, b, -sp->k);
          jadd (J, b, a, -sp->k);
          jadd (J, b, b, sp->k);
        }
    }
}

static void
assemble_drags (const Statics *st, const double *u, double *R, double *mag, FxMatrix *J)
{
  const FxSystem *sys = st->sys;

  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      if (!d->active || d->release <= st->t)
        continue;
      const FxLinkSys *l = &sys->links[d->seg];
      guint o = st->seg[d->seg];
      double x = CLAMP (d->s_seg, 0.0, 1.0) * st_n (l);
      guint e = (guint) MIN (floor (x), (double) (st_n (l) - 1));
      double xi = x - e, wt[2] = { 1.0 - xi, xi };
      guint nd[2] = { ST_NODE (o, e), ST_NODE (o, e + 1) };
      for (guint c = 0; c < 2; c++)
        {
          double P = wt[0] * u[nd[0] + c] + wt[1] * u[nd[1] + c];
          double f = d->k * (P - st->anchor[2 * i + c]);
          for (guint k = 0; k < 2; k++)
            {
              radd (R, mag, nd[k] + c, wt[k] * f);
              for (guint q = 0; q < 2; q++)
                jadd (J, nd[k] + c, nd[q] + c, d->k * wt[k] * wt[q]);
            }
        }
    }
}

/* R(u) at load factor lam_load; J (may be NULL) receives dR/du plus
 * `pseudo` d on the diagonal (every diagonal entry is added, so the
 * pattern is the same for every call). */
void
fx_statics_assemble (const Statics *st, const double *u, double lam_load, double pseudo, double *R,
          double *mag, FxMatrix *J)
{
  const FxSystem *sys = st->sys;

  memset (R, 0, sizeof (double) * st->n);
  if (mag)
    memset (mag, 0, sizeof (double) * st->n);
  if (J)
    {
      fx_matrix_zero (J);
      for (guint i = 0; i < st->n; i++)
        fx_matrix_add (J, i, i, pseudo * st->d[i]);
    }
  for (guint li = 0; li < sys->n_links; li++)
    for (guint e = 0; e < st_n (&sys->links[li]); e++)
      assemble_element (st, &sys->links[li], st->seg[li], e, lam_load, u, R, mag, J);
  for (guint i = 0; i < sys->point_loads->len; i++)
    {
      const FxPointLoad *pl = &g_array_index (sys->point_loads, FxPointLoad, i);
      double f = lam_load * fx_statics_profile_now (st, pl->profile);
      double F[2] = { f * pl->force[0], f * pl->force[1] };
      assemble_point (st, pl->link, pl->s, F, pl->material, f * pl->moment, u, R, mag, J);
    }
  for (guint i = 0; i < sys->tjunctions->len; i++)
    assemble_tjunction (st, &st->tj[i], lam_load, u, R, mag, J);
  for (guint i = 0; i < sys->rjunctions->len; i++)
    assemble_rjunction (st, &st->rj[i], lam_load, u, R, mag, J);
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      const FxBodySys *bs = &g_array_index (sys->bodies, FxBodySys, b);
      for (guint c = 0; c < 2; c++)
        radd (R, mag, st->body[b] + c, -lam_load * bs->m * sys->gravity[c]);
    }
  assemble_springs (st, u, R, mag, J);
  assemble_drags (st, u, R, mag, J);
}

