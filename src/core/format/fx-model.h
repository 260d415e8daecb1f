/* fx-model.h: the mechanism as plain data (joints, links, loads, probes).
 *
 * The model knows nothing about solving: it is what a file holds and what the
 * editor changes. Every string is owned (g_free) by the struct that holds it.
 * SI units throughout.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* time.integrator (physics.md §5, §16) */
typedef enum {
  FX_INTEGRATOR_MIDPOINT,  /* implicit midpoint, 2nd order (the default) */
  FX_INTEGRATOR_GAUSS4,    /* two-stage Gauss, 4th order                 */
} FxIntegratorKind;

typedef enum {
  FX_JOINT_PIN,   /* member ends rotate independently */
  FX_JOINT_WELD,  /* member ends share one rotation   */
} FxJointKind;

typedef enum {
  FX_SUPPORT_NONE,    /* free point                                      */
  FX_SUPPORT_PIN,     /* fixed point, free rotation                      */
  FX_SUPPORT_CLAMP,   /* fixed point, fixed rotation                     */
  FX_SUPPORT_GUIDED,  /* free translation, fixed rotation (sliding clamp) */
  FX_SUPPORT_ROLLER,  /* a pin on a straight guide along slider_direction: the
                       * engine makes it a slider block (mass: the joint's
                       * own, else a regularising mass, docs/theory.md) */
} FxSupport;

typedef enum {
  FX_FORMULATION_AUTO,
  FX_FORMULATION_FREE_FREE,        /* T = F, R = F */
  FX_FORMULATION_CLAMPED_CLAMPED,  /* T = V, R = V */
  FX_FORMULATION_PINNED,           /* T = V, R = F */
  FX_FORMULATION_GUIDED,           /* T = F, R = V */
} FxFormulation;

typedef enum {
  FX_PROFILE_CONSTANT,  /* 1                                                  */
  FX_PROFILE_STEP_OFF,  /* 1 for t <= t1, then 0                              */
  FX_PROFILE_RAMP,      /* 0 at t0, linear to 1 at t1, then 1                 */
  FX_PROFILE_HAT,       /* 0 at t0, linear to 1 at t1, linear to 0 at t2, 0   */
  FX_PROFILE_SINE,      /* sin(2 pi frequency t + phase)                      */
  FX_PROFILE_TABLE,     /* piecewise linear through (t, value), held at ends  */
} FxProfileType;

/* Stochastic factor of a profile (docs/theory.md §9, fx-noise.h):
 * white noise of intensity sigma (the profile is sigma xi(t), xi white with
 * unit intensity, units s^-1/2) or an Ornstein-Uhlenbeck process of
 * stationary standard deviation sigma and correlation time tau. */
typedef enum {
  FX_NOISE_NONE,
  FX_NOISE_WHITE,
  FX_NOISE_OU,
} FxNoiseKind;

/* A scalar time function that multiplies a load's force and moment: the
 * deterministic function of `type`, times the noise when noise != NONE. */
typedef struct {
  FxProfileType type;
  FxNoiseKind noise;
  double noise_sigma;   /* white: intensity sigma; OU: standard deviation s */
  double noise_tau;     /* OU: correlation time tau (s)                      */
  char *noise_stream;   /* noisy profiles naming one stream share one noise
                         * (a shaken ground under two supports); NULL: its own */
  double t0, t1, t2;
  double frequency, phase;
  guint n_table;
  double *table_t;      /* n_table increasing times  */
  double *table_value;  /* n_table values            */
} FxProfile;

typedef enum {
  FX_FRAME_SPATIAL,   /* dead load: fixed direction                          */
  FX_FRAME_MATERIAL,  /* follower load: turns with a link's frame at the point */
} FxFrame;

typedef struct {
  char *id;
  double at[2];
  FxJointKind kind;
  FxSupport support;
  double mass;     /* lumped mass at the joint, kg (0: none)        */
  double inertia;  /* lumped rotary inertia, kg m^2 (0: none)       */

  /* Prescribed motion of a supported (pin or clamp) joint: the support moves
   * with velocity drive_profile(t) * drive_velocity (m/s). */
  gboolean driven;
  double drive_velocity[2];
  FxProfile drive_profile;

  /* A slider block at the joint (support none): a mass slider_mass > 0 that
   * moves only along the fixed direction slider_direction (normalised when a
   * file is loaded; the engine normalises it too); the guide takes the
   * normal force. */
  gboolean slider;
  double slider_mass;
  double slider_direction[2];  /* also a roller support's guide */

  /* Only in an engine's expanded model (fx_assignment_expand): the part of
   * mass and inertia (or of a roller's slider_mass) that is regularising
   * inertia the assignment added, not the user's. 0 in a model from a file. */
  double regularising_mass;
  double regularising_inertia;
} FxJoint;

/* How a section was written in the file, so that saving keeps the user's form. */
typedef enum {
  FX_SECTION_CANONICAL,  /* rhoA, rhoI, EA, GA, EI given directly       */
  FX_SECTION_MATERIAL,   /* E, nu, rho, shape and shear factor          */
} FxSectionForm;

typedef enum {
  FX_SHAPE_RECTANGLE,  /* width (out of plane) x height (in the plane of bending) */
  FX_SHAPE_SQUARE,
  FX_SHAPE_CIRCLE,
  FX_SHAPE_TUBE,
} FxShapeType;

typedef struct {
  /* canonical values, always filled (derived when form == MATERIAL) */
  double rhoA, rhoI, EA, GA, EI;

  /* source form, meaningful when form == MATERIAL */
  FxSectionForm form;
  double E, nu, rho, shear_factor;
  FxShapeType shape;
  double width, height, diameter, inner_diameter;
} FxSection;

typedef enum {
  FX_LINK_GEOMETRICALLY_EXACT = 0,
  FX_LINK_FLOATING_FRAME,
} FxLinkKind;

typedef enum {
  FX_LINK_FRAME_MEAN_AXIS = 0,
  FX_LINK_FRAME_ATTACHED,
} FxLinkFrame;

/* A floating-frame link end's causality as the user sets it ("ends",
 * docs/model-format.md); AUTO: the matcher's choice. */
typedef enum {
  FX_END_AUTO = 0,
  FX_END_FORCE,     /* F: force (moment) in, velocity out */
  FX_END_VELOCITY,  /* V: velocity in, reaction out       */
} FxEndCausality;

typedef struct {
  char *id;
  char *from, *to;  /* joint ids; s = 0 at `from`, s = L at `to` */
  guint elements;
  /* Polynomial degree k of its elements (physics.md §15): CG_k and DG_{k-1}
   * fields, 1 to FX_MAX_DEGREE; geometrically exact links only. */
  guint degree;
  FxSection section;
  FxFormulation formulation;
  gboolean rigid;   /* zero compliance: stresses become multipliers inside the link */

  /* Optional initial rigid motion of the link about its centre (spatial). */
  double initial_velocity[2];
  double initial_omega;

  /* Optional viscous damping per unit length: a force -damping v (N s/m^2)
   * and a moment -rotational_damping omega (N m s/m) along the link. */
  double damping, rotational_damping;

  /* The link's model (docs/theory.md): the geometrically exact beam, or a
   * floating frame with a small linear-elastic field, its frame condition
   * and Kelvin-Voigt damping time (s). */
  FxLinkKind kind;
  FxLinkFrame frame;
  double kelvin_voigt;
  /* Floating-frame links: per end (from, to) and channel (translation,
   * rotation) the causality the user set, or AUTO. */
  FxEndCausality ends[2][2];
} FxLink;

typedef struct {
  char *id;          /* optional, may be NULL */
  char *joint;       /* non-NULL: load at a joint                      */
  char *link;        /* non-NULL: point load at fraction s along link   */
  double s;          /* 0..1, for link loads                            */
  double force[2];
  FxFrame frame;
  char *frame_link;  /* joint loads in the material frame: whose frame  */
  double moment;
  FxProfile profile;
} FxLoad;

typedef struct {
  char *id;
  char *link;
  double s;  /* 0..1 */
} FxProbe;

typedef enum {
  FX_MOTOR_TORQUE,  /* applies profile(t) * value (N m) to `link`, the opposite to link_b */
  FX_MOTOR_SPEED,   /* drives `link` at profile(t) * value (rad/s) relative to link_b   */
} FxMotorType;

/* A rotational motor at a pin joint, on the end of `link` there, acting
 * against the end of link_b at the same joint, or against the ground when
 * link_b is NULL (the joint must then be a pin support). */
typedef struct {
  char *id;
  char *joint;
  char *link;
  char *link_b;   /* may be NULL: the ground */
  FxMotorType type;
  double value;
  FxProfile profile;
} FxMotor;

/* A torsional spring and damper at a pin joint between the ends of `link` and
 * link_b (NULL: the ground; the joint must be a pin support): moment
 * -stiffness (phi - rest_angle) - damping phi' on `link` and the opposite on
 * link_b, with phi the rotation of link's end relative to link_b's since the
 * drawn configuration. */
typedef struct {
  char *id;
  char *joint;
  char *link;
  char *link_b;   /* may be NULL: the ground */
  double stiffness;   /* N m / rad, >= 0 */
  double damping;     /* N m s / rad, >= 0 */
  double rest_angle;  /* rad */
} FxSpring;

/* A rigid body with several attachment points: its mass and rotary inertia
 * sit at `center` (its centre of mass), and each attachment joint moves with
 * it. Links end at the attachment joints as at any joint: at a pin they turn
 * on their own, at a weld with the body. The body is an inertia junction
 * spread over its attachments (docs/theory.md §3): every member end
 * there takes its velocity v_c + omega J r_k, and their forces and moments
 * drive the body. An attachment joint has no support, mass or slider of
 * its own (to hold a body, link it to the ground). */
typedef struct {
  char *id;
  guint n_joints;
  char **joints;       /* n_joints attachment joint ids                */
  double mass;         /* kg, > 0                                       */
  double inertia;      /* kg m^2 about the centre, >= 0                 */
  gboolean has_center; /* FALSE: the centroid of the attachment joints  */
  double center[2];
} FxBody;

/* A scripted drag (docs/theory.md §6): a spring and damper from the
 * point at fraction s of `link` (or the end of a link at `joint`) to an
 * anchor moving along a tabulated path (t, x, y), piecewise linear, held at
 * its ends. Its stiffness makes the grabbed link's own mass m (plus the
 * lumped masses at its ends) ring at `frequency` Hz with damping ratio
 * `damping_ratio`: k = m (2 pi f)^2, c = 2 zeta sqrt (k m). From `release`
 * on it lets go, and the spring's energy leaves with the hand. */
typedef struct {
  char *id;
  char *link;          /* the grabbed link, or NULL with `joint`            */
  double s;            /* fraction along it, 0..1                          */
  char *joint;         /* the grabbed joint, or NULL with `link`            */
  guint n_path;
  double *path_t, *path_x, *path_y;  /* n_path points, t strictly rising */
  double frequency;      /* Hz, > 0; default 2                               */
  double damping_ratio;  /* >= 0; default 0.7                                */
  double release;        /* s; default infinity: never                       */
} FxDrag;

#define FX_DRAG_DEFAULT_FREQUENCY 2.0
#define FX_DRAG_DEFAULT_DAMPING_RATIO 0.7
#define FX_MAX_DRAG_FREQUENCY 1e6  /* Hz: keeps k = m (2 pi f)^2 within the stiffness limit */

typedef struct {
  char *name;         /* optional title, may be NULL   */
  char *description;  /* optional one line, may be NULL */

  GArray *joints;  /* FxJoint */
  GArray *links;   /* FxLink  */
  GArray *loads;   /* FxLoad  */
  GArray *probes;  /* FxProbe */
  GArray *motors;  /* FxMotor  */
  GArray *springs; /* FxSpring */
  GArray *bodies;  /* FxBody   */
  GArray *drags;   /* FxDrag   */

  double gravity[2];  /* default (0, -9.81) */
  double dt;          /* default 0.01       */
  FxIntegratorKind integrator; /* time.integrator, default midpoint */
  double t_end;       /* default 1          */
  double tolerance;   /* default 1e-12      */
  guint max_iterations; /* default 20       */
  guint64 seed;       /* default 0: the noise's seed (fx-noise.h) */
  /* regularisation.mass_fraction: epsilon of the regularising inertia
   * (docs/theory.md), 0 < epsilon <= 1, default 0.01 */
  double regularisation_mass_fraction;
  /* view: how the app opens the model. view.settled: settled (as its
   * Settle does before anything has run); view.diagram: -1 unset, else
   * the diagram shown, 0 none, 1 N, 2 V, 3 M (FxDiagramView's order) */
  gboolean view_settled;
  int view_diagram;

  /* private: the id look-up's table (fx-model-index.h), made on first use;
   * a model copied field by field must not share it */
  struct _FxModelIndex *index;
} FxModel;

#define FX_DEFAULT_REGULARISATION 0.01

#define FX_MAX_ELEMENTS_PER_LINK 1000000u
#define FX_MAX_DEGREE            3u  /* element degree k of a link (physics.md §15) */
#define FX_MAX_FLOATING_ELEMENTS 200u  /* a floating-frame link (docs/model-format.md) */
#define FX_MAX_ELEMENTS_TOTAL    2000000u  /* over all links of a model */

/* Geometry and magnitude limits (docs/model-format.md, "Limits"): within
 * them every quantity the engine and the drawing derive (lengths squared,
 * stiffness over mass, pixels per metre) stays far from overflow and
 * underflow, so a model either runs or fails with a message, never
 * silently turns into NaN, and drawing loops stay bounded. */
#define FX_MAX_STEPS      1e8    /* time.end / time.dt, also for overrides  */
#define FX_MAX_COORDINATE 1e6    /* m: |x|, |y| of joints and body centres   */
#define FX_MIN_LENGTH     1e-9   /* m: links and section dimensions          */
#define FX_MAX_LENGTH     1e6    /* m: section dimensions                    */
#define FX_MAX_MAGNITUDE  1e30   /* any other number, in its SI unit         */
#define FX_MIN_MAGNITUDE  1e-30  /* any non-zero number, in its SI unit      */
/* Loads and motion (issue 25: a 1e25 N m moment or a noise of sigma 1e30
 * ran to exit 0 with the energy books broken): generous for any mechanism,
 * far below what the solver's residual scaling can still resolve. */
#define FX_MAX_LOAD       1e12   /* N, N m: load force components, moments  */
#define FX_MAX_NOISE      1e6    /* white sigma (s^1/2), OU std: multipliers */
#define FX_MAX_GRAVITY    1e4    /* m/s^2: each component of gravity         */
#define FX_MAX_SPEED      1e5    /* m/s: initial and driven velocities       */
#define FX_MAX_OMEGA      1e6    /* rad/s: initial angular velocities        */

FxModel  *fx_model_new            (void);
void      fx_model_free           (FxModel *model);
FxModel  *fx_model_copy           (const FxModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxModel, fx_model_free)

/* Adders copy the strings; they return the new element (valid until the next add). */
FxJoint  *fx_model_add_joint      (FxModel *model, const char *id, double x, double y);
FxLink   *fx_model_add_link       (FxModel *model, const char *id, const char *from,
                                   const char *to, guint elements);
FxLoad   *fx_model_add_joint_load (FxModel *model, const char *joint);
FxLoad   *fx_model_add_link_load  (FxModel *model, const char *link, double s);
FxProbe  *fx_model_add_probe      (FxModel *model, const char *id, const char *link, double s);
/* link_b may be NULL (the ground) */
FxMotor  *fx_model_add_motor      (FxModel *model, const char *id, const char *joint,
                                   const char *link, const char *link_b, FxMotorType type, double value);
FxSpring *fx_model_add_spring     (FxModel *model, const char *id, const char *joint,
                                   const char *link, const char *link_b, double stiffness, double damping);

/* view.diagram's names, by view_diagram: "none", "N", "V", "M" */
#define FX_VIEW_DIAGRAMS 4
extern const char *const fx_view_diagram_names[FX_VIEW_DIAGRAMS];

static inline FxJoint *fx_model_joint (const FxModel *m, guint i) { return &g_array_index (m->joints, FxJoint, i); }
static inline FxLink  *fx_model_link  (const FxModel *m, guint i) { return &g_array_index (m->links, FxLink, i); }
static inline FxLoad  *fx_model_load  (const FxModel *m, guint i) { return &g_array_index (m->loads, FxLoad, i); }
static inline FxProbe *fx_model_probe (const FxModel *m, guint i) { return &g_array_index (m->probes, FxProbe, i); }
static inline guint fx_model_n_motors (const FxModel *m) { return m->motors ? m->motors->len : 0; }
static inline guint fx_model_n_springs (const FxModel *m) { return m->springs ? m->springs->len : 0; }
static inline guint fx_model_n_bodies (const FxModel *m) { return m->bodies ? m->bodies->len : 0; }
static inline FxBody *fx_model_body (const FxModel *m, guint i) { return &g_array_index (m->bodies, FxBody, i); }
static inline FxMotor *fx_model_motor (const FxModel *m, guint i) { return &g_array_index (m->motors, FxMotor, i); }
static inline FxSpring *fx_model_spring (const FxModel *m, guint i) { return &g_array_index (m->springs, FxSpring, i); }

/* A drag of link `link` at s (or of `joint` when link is NULL), with the
 * default frequency and damping and no release; its path is empty. */
FxDrag   *fx_model_add_drag       (FxModel *model, const char *id, const char *link, double s,
                                   const char *joint);
void      fx_drag_set_path        (FxDrag *drag, guint n, const double *t, const double *x,
                                   const double *y);
static inline FxDrag *fx_model_drag (const FxModel *m, guint i) { return &g_array_index (m->drags, FxDrag, i); }
FxBody   *fx_model_add_body       (FxModel *model, const char *id, const char *const *joints,
                                   double mass, double inertia);
/* Where a body's centre is: its own, or the centroid of its joints. */
void      fx_body_center          (const FxModel *model, const FxBody *body, double c[2]);
/* The body that joint `id` is attached to, or -1. */
int       fx_model_find_body_of_joint (const FxModel *model, const char *id);

int       fx_model_find_joint     (const FxModel *model, const char *id);  /* -1 if absent */
int       fx_model_find_link      (const FxModel *model, const char *id);  /* -1 if absent */
double    fx_link_length          (const FxModel *model, const FxLink *link);  /* 0 if a joint is missing */
/* The element degree k a link is built and drawn with (physics.md §15):
 * its degree, within 1..FX_MAX_DEGREE, for a geometrically exact link; 1 for
 * a floating-frame link, which keeps its own elements. */
guint     fx_link_degree          (const FxLink *link);
/* The first bending frequency (rad/s) of the link as a slender cantilever,
 * 1.8751^2 sqrt(EI / (rhoA L^4)): the scale of its material damping ratio
 * zeta_1 = eta omega_1 / 2 (physics.md §13). 0 when it has none (rigid,
 * massless, no length). */
double    fx_link_cantilever_omega (const FxModel *model, const FxLink *link);

/* Fill the canonical values from the material form (E, nu, rho, shape) and
 * set form to MATERIAL. A shear_factor <= 0 means "the shape's default" and is
 * replaced by fx_shape_default_shear_factor(). */
void      fx_section_derive       (FxSection *section);
double    fx_shape_default_shear_factor (FxShapeType shape);
void      fx_section_set_canonical (FxSection *section, double rhoA, double rhoI,
                                    double EA, double GA, double EI);

/* The deterministic part (the noise factor, if any, is left out). */
double    fx_profile_eval         (const FxProfile *profile, double t);
/* Does any load, motor or driven support of the model carry noise? */
gboolean  fx_model_has_noise      (const FxModel *model);
/* Copies the points and sets type to TABLE (n == 0 clears the table). */
void      fx_profile_set_table    (FxProfile *profile, guint n, const double *t, const double *value);

const char *fx_link_kind_to_string    (FxLinkKind k);
gboolean    fx_link_kind_from_string  (const char *s, FxLinkKind *out);
const char *fx_link_frame_to_string   (FxLinkFrame f);
gboolean    fx_link_frame_from_string (const char *s, FxLinkFrame *out);
/* An end's two letters, translation then rotation: "VF" <-> (V, F). */
gboolean    fx_link_end_from_string   (const char *s, FxEndCausality out[2]);
void        fx_link_end_to_string     (const FxEndCausality end[2], char out[3]);
gboolean    fx_link_has_ends          (const FxLink *link);  /* any end set */
const char *fx_formulation_to_string (FxFormulation f);
gboolean    fx_formulation_from_string (const char *s, FxFormulation *out);
const char *fx_support_to_string     (FxSupport s);
gboolean    fx_support_from_string   (const char *s, FxSupport *out);
const char *fx_joint_kind_to_string  (FxJointKind k);
gboolean    fx_joint_kind_from_string (const char *s, FxJointKind *out);
const char *fx_profile_type_to_string (FxProfileType t);
gboolean    fx_profile_type_from_string (const char *s, FxProfileType *out);
const char *fx_frame_to_string       (FxFrame f);
gboolean    fx_frame_from_string     (const char *s, FxFrame *out);
const char *fx_noise_kind_to_string  (FxNoiseKind k);
const char *fx_integrator_kind_to_string   (FxIntegratorKind k);
gboolean    fx_integrator_kind_from_string (const char *s, FxIntegratorKind *out);
gboolean    fx_noise_kind_from_string (const char *s, FxNoiseKind *out);
const char *fx_motor_type_to_string  (FxMotorType t);
gboolean    fx_motor_type_from_string (const char *s, FxMotorType *out);
const char *fx_shape_type_to_string  (FxShapeType t);
gboolean    fx_shape_type_from_string (const char *s, FxShapeType *out);

G_END_DECLS
