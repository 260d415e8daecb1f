/* fx-link-ff-private.h: what the floating-frame link's files share: its
 * data, the layout of its unknowns and its element shape functions
 * (fx-link-ff.c: layout, residual, energies, drawing, modes;
 * fx-link-ff-points.c: material points, point forces and resultants). */
#pragma once

#include "fx-kernel.h"
#include "fx-link-model.h"

G_BEGIN_DECLS

enum { I_VP = 0, I_W = 2, I_VF = 3 };

typedef struct {
  gboolean attached;
  double eta;            /* Kelvin-Voigt time, s: C_d = eta K */
  double EA, EI;
  guint n, n_nu, i_lambda;
  double m, s0[2], J0, sP, F_ref;
  double *S;             /* 2 x n: int rhoA N                      */
  double *a;             /* n: int rhoA X1 N_u                     */
  double *c;             /* n: int (rhoA X1 N_w + rhoI N_phi)      */
  double *G, *D, *Mff, *K;  /* n x n                              */
  double *C;             /* 3 x n: the frame condition             */
  int port[2][2];        /* per side, channel: the port unknown    */
  int force[2][2];       /* per side, channel: the force it gets   */
  double *scratch;       /* the assembly's work space, kept        */
  double end_force[2][3]; /* the last step's end forces (spatial) and moments */
} FfData;

/* At xi of element e: the 6 local dofs (u_e, w_e, phi_e, u_e+1, w_e+1,
 * phi_e+1) and the values of u, w, w', w'' and u' per dof. */
typedef struct {
  guint dof[6];
  double u[6], w[6], wp[6], wpp[6], up[6];
} FfShape;

void ff_shape (guint e, double h, double xi, FfShape *sh);

/* fx-link-ff-points.c: the link model's point entries */
void ff_point       (const FxLinkSys *l, double s, const double *x_mid, double dt,
                     FxPointKinematics *k);
void ff_point_force (const FxLinkSys *l, double s, const double *x_mid, double dt,
                     const double f[2], double ell, FxAcc *a);
void ff_resultants  (const FxLinkSys *l, double s, double *N, double *V);

G_END_DECLS
