/* fx-system-private.h: the inside of FxSystem, shared by the assembler
 * (fx-system.c), the integrator (fx-integrator.c) and white-box tests. */
#pragma once

#include "fx-system.h"
#include "fx-noise.h"

G_BEGIN_DECLS

/* Unknowns of a geometrically exact link of degree k: slots 0 .. 2kN
 * alternate CG (even) and DG (odd); each slot holds [translation x,
 * translation y, rotation]: the CG_k fields' nodal values in even slots, the
 * DG_{k-1} fields' Legendre coefficients in odd ones. CG value i (0 .. kN,
 * element i / k, local node i % k at xi = (i % k) / k) is slot 2i; DG
 * coefficient i (element i / k, degree i % k) is slot 2i + 1. Element e
 * couples slots 2ke .. 2k(e+1), 3 (2k + 1) consecutive unknowns, so the band
 * is 6k + 2 wide. k = 1 is the lowest-order pair CG1/DG0. */
enum { FX_SLOT = 3 };

/* Field components in a link, in the order the element kernel uses. */
enum { F_VX, F_VY, F_W, F_NX, F_NY, F_M, F_N_FIELDS };

typedef struct _FxLinkModel FxLinkModel;

typedef struct {
  const FxLinkModel *model;      /* its entry points (fx-link-model.h) */
  guint model_index;
  const char *id;
  guint N;
  guint k;        /* element degree (physics.md §15); 1 for other models */
  guint n_draw;   /* drawn points 0 .. n_draw (model node() indices): kN, or N */
  double L, h;
  double rhoA, rhoI, Ct[2], Cr;  /* compliances; 0 for a rigid link */
  FxCausality T, R;
  FxCausality T_end[2], R_end[2];  /* per end: a floating-frame link's ends differ */
  gpointer impl;                 /* the model's own data              */
  guint offset;                  /* first unknown                    */
  guint n_unknowns;              /* how many, from offset            */
  double angle0;                 /* direction of the straight link    */
  double origin[2];              /* position of s = 0                 */

  /* configuration, advanced after each step (not Newton unknowns);
   * its sizes are the model's: n_theta angles, n_r position pairs */
  guint n_theta, n_r;
  double *theta;       /* in the space of omega: kN+1 values (R = F) or kN coefficients */
  double theta_end[2]; /* R = V: end angles, theta_end' = Omega_end              */
  double *r;           /* in the space of v: 2 (kN+1) or 2 kN, interleaved x, y  */

  /* for R = V ends: where Omega comes from (-1: a ground, Omega = 0) */
  int omega_source[2];
  double omega_sign[2];
  double omega_drive_now[2];  /* a speed motor's Omega at t_mid (else 0) */

  double damping, rotational_damping;  /* viscous, per unit length */
  double eta;          /* Kelvin-Voigt time constant (physics.md §13), s; 0: none */
  guint64 coupling;    /* element kernel: which field derivatives can be non-zero */
} FxLinkSys;

/* A link end as a port of one channel. Output y = sigma x[dof ..]; the input
 * u enters the rows of the same unknowns as + sigma u. */
typedef struct {
  guint link, side;
  guint dof;
  double sigma;
  /* A speed motor between two links at a pin joins their rotation ports in
   * one junction, where each member turns at the common rate plus its own
   * drive(t) (rad/s, 0 for the reference member). */
  double drive;
  const FxProfile *drive_profile;
  /* A stress end of a link with Kelvin-Voigt damping outputs the total
   * stress sigma + eta sigma_dot (physics.md §13): its eta, else 0. */
  double eta;
} FxPort;

typedef struct {
  double force[2];    /* spatial or material, times the profile              */
  int frame_member;   /* -1: spatial (dead); else index of the member port    */
  double moment;
  const FxProfile *profile;
} FxJointLoad;

typedef struct {
  guint joint;
  gboolean ground;
  GArray *ports;      /* FxPort                                   */
  int f;              /* index of the F-causal member; -1 at a ground or an inertia */
  GArray *loads;      /* FxJointLoad (translation: force; rotation: moment) */

  /* An inertia junction (lumped mass or rotary inertia) is its own F-causal
   * element: its velocity (2 spatial unknowns) or angular velocity (1) at
   * `inertia_dof`, its position or angle as configuration. */
  int inertia_dof;    /* -1: none */
  double inertia;     /* kg or kg m^2 */
  double weight;      /* kg gravity acts on: a translational inertia less its
                       * regularising part (physics.md §6.1: an artificial
                       * inertial term, not a load; §14: it carries no load
                       * at rest), so a determinate truss's reactions are
                       * exact. 0 for a rotary inertia. */
  double pos[2];      /* position (translation) or pos[0] = angle (rotation) */
  guint owner;        /* the segment after whose unknowns these are numbered */

  /* A slider block: the inertia has one unknown, the speed along `direction` */
  gboolean slider;
  double direction[2];

  /* A driven ground: members get the prescribed velocity (translation:
   * drive[0..1], rotation: drive[0]) times the profile, and its work counts
   * as supplied. */
  gboolean driven;
  double drive[2];
  const FxProfile *drive_profile;

  /* A rigid body's attachment (translation): members take the velocity
   * v_c + omega J r of the point at body-frame offset rho from the centre,
   * r = Lambda(phi) rho; their forces drive the body. -1: none. */
  int body;
  double rho[2];
} FxJunction;

/* A rigid body (FxBody): unknowns v_c (2) and omega at `dof`, its centre
 * and angle as configuration. */
typedef struct {
  guint dof;
  double m, I;
  double c[2], phi;
} FxBodySys;

/* A torsional spring-damper between two member ends (b < 0: the ground). */
typedef struct {
  int dof_a, dof_b;      /* omega unknowns at the two ends (b: -1 ground) */
  double k, c, rest;
  double phi;            /* relative rotation since the drawn configuration */
} FxSpringSys;

typedef struct {
  guint element;
  double xi, weight;
} FxPointSample;

typedef struct {
  guint link;
  double s;              /* fraction along the segment */
  FxPointSample at[2];   /* mixed-field links: where s samples them */
  guint n_at;
  double force[2];
  gboolean material;
  double moment;
  const FxProfile *profile;
} FxPointLoad;

/* A drag (docs/theory.md §6): a spring-damper from a point of a segment
 * to an anchor on a path; its elongation delta (2, spatial) is a pair of
 * Newton unknowns at `dof`. An inactive drag keeps its unknowns at 0. */
typedef struct {
  int model_drag;        /* index in the model's drags; -1: the user's hand */
  guint link;            /* model link */
  double s;              /* fraction along the model link */
  guint seg;
  double s_seg;          /* fraction along the segment */
  FxPointSample at[2];   /* mixed-field links: where s_seg samples them */
  guint n_at;
  guint dof;
  double k, c;           /* N/m, N s/m */
  gboolean active;
  double release;        /* time it lets go (infinity: never) */
  /* the anchor's path, piecewise linear through (t, x, y), held at its ends */
  guint n_path;
  double *path_t, *path_x, *path_y;
} FxDragSys;

struct _FxSystem {
  guint64 reserved;      /* bytes booked in the memory ledger (fx-memory.h) */
  FxModel *model;        /* the model as the user wrote it, bodies expanded  */
  FxModel *built;        /* the expanded model the engine builds (splits)    */
  guint n_model_links;   /* links of `model`, rigid-body spokes included */
  guint n_user_links;    /* the links the user drew (spokes follow them)  */
  guint *seg_first, *seg_count;  /* per model link: its segments in links[] */
  guint *joint_tdof, *joint_rdof; /* per built joint: its inertia unknowns   */
  FxAssignment *assignment;
  guint n;               /* unknowns */
  double t;
  double *x;             /* e-variables at t */
  double *x_mid;         /* scratch */
  double gravity[2];

  guint n_links;         /* segments: a split link has two */
  FxLinkSys *links;
  GArray *tjunctions;    /* FxJunction, translation channel */
  GArray *rjunctions;    /* FxJunction, rotation channel    */
  GArray *point_loads;   /* FxPointLoad */
  GArray *springs;       /* FxSpringSys */
  GArray *bodies;        /* FxBodySys, as the model's bodies */
  GArray *drags;         /* FxDragSys: the model's, then the user's hand   */
  int hand;              /* index of the hand in drags, -1 before a grab   */
  double released;       /* work booked by drags let go since the last step */

  /* current step, set by fx_system_residual */
  double dt, t_mid;
  /* Stochastic loads (fx-noise.h, fx-system-noise.c): NULL without noise.
   * The integrator announces each step (noise_step counts the accepted ones)
   * and the piece of it being solved. */
  FxNoise *noise;
  guint64 noise_step;
  guint noise_piece, noise_pieces;

  /* Support reactions (fx-measure.c): their impulse over the steps since
   * the last reset, 3 per model joint, and the time it spans; and the same
   * sum of dt x_mid for every unknown (n_step_sum of them), whence a rigid
   * link's stresses, multipliers that only the midpoint gives meaning. */
  double *reaction_sum;
  double reaction_span;
  double *step_sum;
  guint n_step_sum;
};

/* Noise hooks for the integrator: a step of size dt begins (a retry of the
 * same step reuses its draws), piece `piece` of `pieces` is solved next, the
 * step was accepted. No-ops without noise. */
void    fx_system_noise_begin_step (FxSystem *system, double dt);
void    fx_system_noise_piece      (FxSystem *system, guint piece, guint pieces);
void    fx_system_noise_end_step   (FxSystem *system);
/* The noise factor of a noisy profile for the current piece. */
double  fx_system_noise_factor     (const FxSystem *system, const FxProfile *profile);

/* Over a step from the current state to x: the external work Delta t sum(y . u)
 * done by loads, motors and driven supports, and the energy dissipated. */
void    fx_system_flows    (FxSystem *system, const double *x, double dt,
                            double *supplied, double *dissipated);

/* Accept x as the state at t + dt: advance angles, positions and time. */
void    fx_system_commit   (FxSystem *system, const double *x, double dt);

/* Two-stage Gauss (physics.md §16; fx-assembly.c): the stage unknowns X are
 * interleaved, unknown c of stage i at FX_GAUSS_STAGES c + i. */
#define FX_GAUSS_STAGES 2
extern const double fx_gauss_c[FX_GAUSS_STAGES];
extern const double fx_gauss_A[FX_GAUSS_STAGES][FX_GAUSS_STAGES];
extern const double fx_gauss_d[FX_GAUSS_STAGES];  /* x_{n+1} = x_n + sum_j d_j (X_j - x_n) */
void    fx_gauss_stage_states     (guint n, const double *X, guint i, double *xi, double *xc);
void    fx_system_stage_residual  (FxSystem *system, const double *X, double dt,
                                   double *residual, double *mag, FxMatrix *jacobian);
void    fx_system_stage_flows     (FxSystem *system, const double *X, double dt,
                                   double *supplied, double *dissipated);
void    fx_system_stage_drives    (FxSystem *system, double dt);
FxMatrix *fx_system_new_stage_jacobian (FxSystem *system, FxMatrixKind kind, GError **error);
/* Accept x_new (from the stages X) as the state at t + dt. */
void    fx_system_commit_stages   (FxSystem *system, const double *X, const double *x_new,
                                   double dt);

/* Add a step's midpoint reactions to their impulse (fx-measure.c): called
 * by fx_system_commit before it moves the configuration. */
void    fx_reactions_accumulate (FxSystem *system, const double *x_mid, double dt);
/* Where field f of link l is read for output, times *scale: the state, or
 * for a rigid link's stresses (multipliers) the last step's midpoint sum. */
const double *fx_field_values (const FxSystem *system, const FxLinkSys *l, int f, double *scale);

/* Row and unknown blocks (one per field and link) for Newton's scaling:
 * block_of[i] for every unknown/row, n_blocks in total. */
/* Block kinds: 0 velocity, 1 angular velocity, 2 stress, 3 moment; with
 * `length` the scale that makes kinds comparable across links (omega L, m / L). */
guint   fx_system_blocks   (const FxSystem *system, guint *block_of, guint **kind, double **length);

/* Save / restore the configuration (angles, positions, time, x) for retries. */
typedef struct _FxSystemSnapshot FxSystemSnapshot;
FxSystemSnapshot *fx_system_snapshot      (const FxSystem *system);
void              fx_system_restore       (FxSystem *system, const FxSystemSnapshot *snap);
void              fx_system_snapshot_free (FxSystemSnapshot *snap);

/* Model link + fraction -> segment + fraction on it (a split link has two). */
guint   fx_system_point_segment (const FxSystem *system, guint link, double *s);

/* Drags (fx-drag.c): built after the links, before the unknowns are counted;
 * their kernel adds to the residual and returns its supplied power. */
typedef struct _FxAcc FxAcc;
void    fx_drags_build     (FxSystem *system, guint *offset);
void    fx_drags_start     (FxSystem *system);
double  fx_drag_kernel     (FxSystem *system, const FxDragSys *drag, FxAcc *acc);
double  fx_drags_energy    (const FxSystem *system);
void    fx_drags_free      (FxSystem *system);

G_END_DECLS
