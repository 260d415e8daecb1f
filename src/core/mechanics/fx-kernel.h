/* fx-kernel.h: what every kernel of the assembly shares (the element
 * kernel, junctions, lumped elements, drags): plane rotations, the
 * accumulation of residual and Jacobian terms, and where a link's fields
 * live among the unknowns. Private to src/core. */
#pragma once

#include "fx-system-private.h"

#include <math.h>

G_BEGIN_DECLS

/* ---------------------------------------------------------------- helpers */

static inline void
rot (double theta, double c_s[2])
{
  c_s[0] = cos (theta);
  c_s[1] = sin (theta);
}

/* Lambda(theta) a */
static inline void
lam (const double cs[2], const double a[2], double out[2])
{
  out[0] = cs[0] * a[0] - cs[1] * a[1];
  out[1] = cs[1] * a[0] + cs[0] * a[1];
}

/* Lambda(theta)^T a */
static inline void
lam_t (const double cs[2], const double a[2], double out[2])
{
  out[0] = cs[0] * a[0] + cs[1] * a[1];
  out[1] = -cs[1] * a[0] + cs[0] * a[1];
}

/* J a = (-a_y, a_x) (rotation by +90 degrees); S a = J^T a = (a_y, -a_x) */
static inline void
jrot (const double a[2], double out[2])
{
  out[0] = -a[1];
  out[1] = a[0];
}

static inline void
srot (const double a[2], double out[2])
{
  out[0] = a[1];
  out[1] = -a[0];
}

/* The accumulation context of one residual evaluation. */
struct _FxAcc {
  const double *x, *xn, *xm;
  double *R, *mag;
  FxMatrix *J;
  double dt;
  double loss;  /* dissipated power at the midpoint */
  FxBandView band;  /* J's banded storage, when it has one */
};
typedef FxAcc Acc;

/* G-term (part of dt F): R -= value. */
static inline void
acc_G (Acc *a, guint row, double value, double magnitude)
{
  a->R[row] -= value;
  if (a->mag)
    a->mag[row] += magnitude;
}

/* K-term: value = dt dF_row / dx_mid[col]; dR/dx gets -value/2. */
static inline void
acc_K (Acc *a, guint row, guint col, double value)
{
  /* zeros too: the sparse assembly relies on the same sequence of calls */
  if (a->J)
    fx_matrix_add_fast (a->J, &a->band, row, col, -0.5 * value);
}

/* E-term: R += coef (x - x_n), dR/dx += coef. */
static inline void
acc_E (Acc *a, guint row, guint col, double coef)
{
  a->R[row] += coef * (a->x[col] - a->xn[col]);
  if (a->mag)
    a->mag[row] += fabs (coef * a->x[col]) + fabs (coef * a->xn[col]);
  if (a->J)
    fx_matrix_add_fast (a->J, &a->band, row, col, coef);
}

/* dt times the rate of unknown col over the step (the midpoint rule: x - x_n):
 * what Kelvin-Voigt damping reads (physics.md §13). */
static inline double
acc_rate_dt (const Acc *a, guint col)
{
  return a->x[col] - a->xn[col];
}

/* K-term through that rate: value = dt dF_row / d(acc_rate_dt (col)); with
 * x - x_n = 2 (x_mid - x_n) it is an ordinary K-term of twice the value. */
static inline void
acc_K_rate (Acc *a, guint row, guint col, double value)
{
  acc_K (a, row, col, 2.0 * value);
}

/* Component c of a port's output unknown at the midpoint: for a damped
 * stress end the total stress x_mid + eta/dt (x - x_n) (physics.md §13). */
static inline double
port_value (const Acc *a, const FxPort *p, guint c)
{
  double v = a->xm[p->dof + c];
  if (p->eta != 0.0 && a->dt > 0.0)
    v += p->eta / a->dt * acc_rate_dt (a, p->dof + c);
  return v;
}

/* K-term in the column of a port's output: value = dt dF_row / d port_value. */
static inline void
acc_K_port (Acc *a, guint row, const FxPort *p, guint c, double value)
{
  acc_K (a, row, p->dof + c, value);
  if (p->eta != 0.0 && a->dt > 0.0)
    acc_K_rate (a, row, p->dof + c, value * p->eta / a->dt);
}

/* ------------------------------------------------------- link bookkeeping */

/* Is field f of this link CG_k (even slots) or DG_{k-1} (odd slots)? */
static inline gboolean
field_is_cg (const FxLinkSys *l, int f)
{
  switch (f)
    {
    case F_VX: case F_VY: return l->T == FX_CAUSAL_F;
    case F_NX: case F_NY: return l->T == FX_CAUSAL_V;
    case F_W:             return l->R == FX_CAUSAL_F;
    case F_M: default:    return l->R == FX_CAUSAL_V;
    }
}

/* Component within a slot: translation x, y or rotation. */
static inline guint
field_comp (int f)
{
  static const guint comp[F_N_FIELDS] = { 0, 1, 2, 0, 1, 2 };
  return comp[f];
}

/* Unknown of field f: CG value i (0 .. kN) or DG coefficient i (0 .. kN - 1). */
static inline guint
field_dof (const FxLinkSys *l, int f, guint i)
{
  guint slot = field_is_cg (l, f) ? 2 * i : 2 * i + 1;
  return l->offset + FX_SLOT * slot + field_comp (f);
}

static inline double
field_mass (const FxLinkSys *l, int f)
{
  switch (f)
    {
    case F_VX: case F_VY: return l->rhoA;
    case F_W:             return l->rhoI;
    case F_NX:            return l->Ct[0];
    case F_NY:            return l->Ct[1];
    case F_M: default:    return l->Cr;
    }
}

/* ------------------------------------------- degree-k bases (§15) */

/* CG_k: Lagrange polynomials on the equally spaced nodes xi_c = c / k of
 * the element (xi in [0, 1]); k = 1 is the hat pair (1 - xi, xi). */
static inline void
cg_basis (guint k, double xi, double *L)
{
  if (k == 1)
    {
      L[0] = 1.0 - xi;
      L[1] = xi;
      return;
    }
  for (guint c = 0; c <= k; c++)
    {
      double v = 1.0;
      for (guint j = 0; j <= k; j++)
        if (j != c)
          v *= (k * xi - j) / ((double) c - j);
      L[c] = v;
    }
}

/* dL_c / dxi */
static inline void
cg_basis_d (guint k, double xi, double *dL)
{
  for (guint c = 0; c <= k; c++)
    {
      double sum = 0.0;
      for (guint m = 0; m <= k; m++)
        {
          if (m == c)
            continue;
          double v = k / ((double) c - m);
          for (guint j = 0; j <= k; j++)
            if (j != c && j != m)
              v *= (k * xi - j) / ((double) c - j);
          sum += v;
        }
      dL[c] = sum;
    }
}

/* DG_{k-1}: Legendre polynomials P_d(2 xi - 1), d < k: orthogonal, so the
 * element mass block is diagonal, h / (2d + 1). */
static inline void
dg_basis (guint k, double xi, double *P)
{
  double x = 2.0 * xi - 1.0;
  P[0] = 1.0;
  if (k > 1)
    P[1] = x;
  if (k > 2)
    P[2] = 0.5 * (3.0 * x * x - 1.0);
}

/* Gauss rules on [0, 1] with ceil((3k + 1) / 2) points (2, 4, 5 for
 * k = 1, 2, 3): exact for the products of three fields. Every element
 * integral, energy and position update of a degree-k link uses its rule,
 * a term and its transposed partner alike, so the operator stays skew. */
typedef struct {
  guint n;
  const double *xi, *w;
} GaussRule;

static const double gauss_xi[2] = { 0.5 - 0.28867513459481288225, 0.5 + 0.28867513459481288225 };
static const double gauss_w2[2] = { 0.5, 0.5 };
static const double gauss_xi4[4] = {
  0.5 - 0.5 * 0.86113631159405257522, 0.5 - 0.5 * 0.33998104358485626480,
  0.5 + 0.5 * 0.33998104358485626480, 0.5 + 0.5 * 0.86113631159405257522 };
static const double gauss_w4[4] = {
  0.5 * 0.34785484513745385737, 0.5 * 0.65214515486254614263,
  0.5 * 0.65214515486254614263, 0.5 * 0.34785484513745385737 };
static const double gauss_xi5[5] = {
  0.5 - 0.5 * 0.90617984593866399280, 0.5 - 0.5 * 0.53846931010568309104, 0.5,
  0.5 + 0.5 * 0.53846931010568309104, 0.5 + 0.5 * 0.90617984593866399280 };
static const double gauss_w5[5] = {
  0.5 * 0.23692688505618908751, 0.5 * 0.47862867049936646804, 0.5 * 0.56888888888888888889,
  0.5 * 0.47862867049936646804, 0.5 * 0.23692688505618908751 };

static inline GaussRule
gauss_rule (guint k)
{
  switch (k)
    {
    case 1: return (GaussRule) { 2, gauss_xi, gauss_w2 };
    case 2: return (GaussRule) { 4, gauss_xi4, gauss_w4 };
    default: return (GaussRule) { 5, gauss_xi5, gauss_w5 };
    }
}

/* Values of field f per link: CG_k has kN + 1, DG_{k-1} kN. */
static inline guint
field_count (const FxLinkSys *l, int f)
{
  return l->k * l->N + (field_is_cg (l, f) ? 1 : 0);
}

/* Up to k + 1 (unknown, shape value) pairs that evaluate field f at xi of element e. */
#define FX_SHAPE_MAX (FX_MAX_DEGREE + 1)
typedef struct {
  guint dof[FX_SHAPE_MAX];
  double w[FX_SHAPE_MAX];
  guint n;
} Shape;

static inline void
field_shape (const FxLinkSys *l, int f, guint e, double xi, Shape *s)
{
  const guint k = l->k;

  if (field_is_cg (l, f))
    {
      s->n = k + 1;
      cg_basis (k, xi, s->w);
      for (guint c = 0; c <= k; c++)
        s->dof[c] = field_dof (l, f, k * e + c);
    }
  else
    {
      s->n = k;
      dg_basis (k, xi, s->w);
      for (guint d = 0; d < k; d++)
        s->dof[d] = field_dof (l, f, k * e + d);
    }
}

static inline double
shape_eval (const Shape *s, const double *x)
{
  double v = 0.0;
  for (guint k = 0; k < s->n; k++)
    v += s->w[k] * x[s->dof[k]];
  return v;
}

/* theta_n at xi of element e (theta lives in the space of omega, with the
 * same values or coefficients). */
static inline double
theta_n_at (const FxLinkSys *l, guint e, double xi)
{
  const guint k = l->k;
  double b[FX_SHAPE_MAX], v = 0.0;

  if (k == 1)
    {
      if (l->R == FX_CAUSAL_F)
        return (1.0 - xi) * l->theta[e] + xi * l->theta[e + 1];
      return l->theta[e];
    }
  if (l->R == FX_CAUSAL_F)
    {
      cg_basis (k, xi, b);
      for (guint c = 0; c <= k; c++)
        v += b[c] * l->theta[k * e + c];
    }
  else
    {
      dg_basis (k, xi, b);
      for (guint d = 0; d < k; d++)
        v += b[d] * l->theta[k * e + d];
    }
  return v;
}

/* Sampling points of a point at fraction s: a DG0 field has no value at an
 * interior node, so there the point splits half-half over both elements. */
static inline guint
point_samples (const FxLinkSys *l, double s_fraction, FxPointSample at[2])
{
  double s = CLAMP (s_fraction, 0.0, 1.0) * l->N;
  double e_floor = floor (s);
  guint e = (guint) MIN (e_floor, (double) (l->N - 1));
  double xi = s - e;

  if (xi == 0.0 && e > 0)
    {
      at[0] = (FxPointSample) { e - 1, 1.0, 0.5 };
      at[1] = (FxPointSample) { e, 0.0, 0.5 };
      return 2;
    }
  at[0] = (FxPointSample) { e, xi, 1.0 };
  return 1;
}


/* ---------------------------------------------------- the kernels' files */

/* fx-link-kernel.c */
void    fx_link_coupling    (FxLinkSys *l);
void    fx_link_assemble    (FxSystem *sys, const FxLinkSys *l, FxAcc *a);

/* fx-junction.c: each returns the power its loads and drives supply */
double  fx_profile_at       (const FxSystem *sys, const FxProfile *p, double t);
void    fx_relative_drives_now (FxSystem *sys, const FxJunction *j);
double  fx_tjunction_free   (FxSystem *sys, const FxJunction *j, FxAcc *a);
double  fx_rjunction_free   (FxSystem *sys, const FxJunction *j, FxAcc *a);
double  fx_tjunction_mass   (FxSystem *sys, const FxJunction *j, FxAcc *a);
double  fx_tjunction_body   (FxSystem *sys, const FxJunction *j, FxAcc *a);
double  fx_tjunction_slider (FxSystem *sys, const FxJunction *j, FxAcc *a);
double  fx_rjunction_inertia (FxSystem *sys, const FxJunction *j, FxAcc *a);
double  fx_junction_driven  (FxSystem *sys, const FxJunction *j, gboolean translation, FxAcc *a);
/* The angle of a link end at the midpoint of a step dt, as the junctions see it. */
double  fx_end_theta_mid    (const FxLinkSys *l, guint side, double dt, const double *xm);
void    fx_body_kernel      (FxSystem *sys, const FxBodySys *b, FxAcc *a);

/* fx-geometry.c */
void    fx_node_position    (const FxLinkSys *l, const double *x, guint i, double p[2]);

/* Lumped elements: each family adds its terms for all its members, adding
 * the power they supply to *power one member at a time (fx-assembly.c
 * dispatches, in a fixed order). */
typedef struct {
  const char *name;
  void (*assemble) (FxSystem *sys, FxAcc *a, double *power);
} FxElementFamily;

void    fx_point_loads_assemble (FxSystem *sys, FxAcc *a, double *power);  /* fx-point-load.c */
void    fx_drags_assemble       (FxSystem *sys, FxAcc *a, double *power);  /* fx-drag.c */
void    fx_bodies_assemble      (FxSystem *sys, FxAcc *a, double *power);  /* fx-junction.c */
void    fx_springs_assemble     (FxSystem *sys, FxAcc *a, double *power);  /* fx-spring.c */

G_END_DECLS
