/* fx-statics-private.h: the static problem of fx-statics.c, shared with
 * the write-back of its result into the system (fx-statics-state.c). */
#pragma once

#include "fx-statics.h"
#include "fx-kernel.h"

G_BEGIN_DECLS

/* Unknowns of a segment of N elements, from its offset: node i at 6 i
 * (r_x, r_y, theta), element e at 6 e + 3 (n_1, n_2, m), the element's
 * material stress resultant and moment. This is the static problem's own
 * numbering, not the dynamics'. */
#define ST_NODE(o, i) ((o) + 6 * (i))
#define ST_ELEM(o, e) ((o) + 6 * (e) + 3)

typedef enum { J_FREE, J_GROUND, J_SLIDER, J_BODY } JKind;

typedef struct {
  const FxJunction *j;
  JKind kind;
  int dof;          /* p (2), s (1) or q (1); -1 if none                    */
  guint mult;       /* first member multiplier (2 per port, or 1)          */
  double fixed[2];  /* ground: the locked position or angle                */
  double p0[2];     /* slider: where it starts                             */
  double *off;      /* rotation: per port, its end angle less the junction's */
  double q0;        /* rotation: the junction's starting angle             */
} SJunction;

typedef struct {
  FxSystem *sys;
  double t;
  guint n;
  guint *seg;       /* per segment: its offset                             */
  SJunction *tj, *rj;
  guint *body;      /* per body: offset of c (2), phi                      */
  double *u, *u0;   /* unknowns, and at the start                          */
  double *d;        /* pseudo-transient weights (0: not a displacement)    */
  guint8 *row_kind; /* 0 force, 1 moment, 2 kinematic (length), 3 angle/strain */
  double force_ref, length_ref;
  /* drags: where each holds its anchor (a = P + delta now) */
  double *anchor;
  double *spring_phi0;   /* per spring: phi at the start */
  int *spring_port[2];   /* per spring: the ends' segment*2+side, -1 ground */
  gboolean noise;
} Statics;

/* The position and angle of the end `side` of segment l. */
static inline guint
st_end_node (const FxLinkSys *l, guint side)
{
  return side == 0 ? 0 : l->k * l->N;
}

/* The static mesh of a link: linear elements between its drawn points, k N
 * of them on a link of degree k (its CG_k nodes), each h / k long. */
static inline guint
st_n (const FxLinkSys *l)
{
  return l->k * l->N;
}

static inline double
st_h (const FxLinkSys *l)
{
  return l->h / l->k;
}

/* fx-statics-assembly.c: R(u) at load factor lam_load; J (may be NULL)
 * receives dR/du plus `pseudo` d on the diagonal (every diagonal entry is
 * added, so the pattern is the same for every call). */
void     fx_statics_assemble (const Statics *st, const double *u, double lam_load, double pseudo,
                              double *R, double *mag, FxMatrix *J);
/* A profile's value at t*; noise (mean zero) is left out. */
double   fx_statics_profile_now (const Statics *st, const FxProfile *p);

/* fx-statics-state.c */
gboolean fx_statics_write_back (Statics *st, double *balance, GError **error);
void     fx_statics_fill_report (Statics *st, FxStaticsReport *report);
void     fx_statics_clapeyron (Statics *st, const double *R1, const double *R0,
                               FxStaticsReport *report);

G_END_DECLS
