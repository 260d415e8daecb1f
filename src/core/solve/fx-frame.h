/* fx-frame.h: one finished time step, as the UI, the plots and the exporters
 * see it. A frame is immutable once published and reference counted, so the
 * solver thread can hand it to the UI thread without copying or locking.
 *
 * Geometry is given per model link (splits made by the causality assignment
 * are merged back): link l has k elements(l) + 1 nodes (k its degree, 1 for
 * a floating-frame link), stored from node_offset[l] to node_offset[l+1]-1
 * in x, y, theta, moment.
 */
#pragma once

#include "fx-integrator.h"
#include "fx-measure.h"

G_BEGIN_DECLS

typedef struct {
  /* private */
  gint ref_count;

  /* public, read only */
  double t;                /* simulated time, s                             */
  FxStepReport report;     /* energy terms, Newton iterations, residual ... */
  guint step;              /* step index, 0 for the initial state           */

  guint n_links;           /* model links                                   */
  guint *node_offset;      /* n_links + 1 entries                           */
  guint n_nodes;           /* node_offset[n_links]                          */
  double *x, *y;           /* node positions, m                             */
  double *theta;           /* node angles, rad                              */
  double *moment;          /* bending moment at the node, N m               */

  guint n_joints;          /* model joints, in model order                  */
  double *joint_xy;        /* 2 n_joints: where the joint is now            */

  guint n_probes;          /* model probes, in model order                  */
  double *probe_xy;        /* 2 n_probes                                    */

  double moment_max_abs;   /* max |moment| over the nodes of the links that
                            * bend (above round-off of their N and V times
                            * their length): the colour range             */

  /* Measurements (fx-measure.h) */
  double *probe_values;    /* FX_PROBE_N_VALUES per probe, at t              */
  guint8 *holds;           /* FxHolds per joint                             */
  double *reaction;        /* FX_REACTION_N_VALUES per joint: the mean over
                            * the step that ended at t (at t = 0 the initial
                            * state's); 0 where the joint holds nothing      */
  guint8 *link_warning;    /* n_links: 1 where a floating-frame link's small-
                            * deformation gauges say stiffening matters     */
  double *link_gamma;      /* n_links: a floating-frame link's gauge gamma
                            * (fx_frame_gauges_warn), 0 for other links     */
  double *link_axis;       /* 3 n_links: a floating-frame link's frame, the
                            * line its deformation is measured from: origin
                            * x, y (m) and angle (rad); NaN for other links  */

  /* The stress resultants for the N, V, M diagrams (fx-frame-diagram.c),
   * FX_DIAGRAM_N_VALUES per sample and two samples per node slot: sample
   * 2 i at node i, sample 2 i + 1 at the centre of the element from node i
   * to i + 1 (NaN after a link's last node). The node values are element
   * end forces, as a frame code gives them; all zero in a frame of the
   * drawn model. */
  double *diagram;
} FxStepFrame;

/* A diagram sample's values (physics.md §14, the probe's conventions of
 * fx-measure.h): axial force N (tension > 0), shear force V, moment M. */
typedef enum {
  FX_DIAGRAM_N,
  FX_DIAGRAM_V,
  FX_DIAGRAM_M,
  FX_DIAGRAM_N_VALUES,
} FxDiagramValue;

/* A frame of the system's current state, with `report` (NULL: the state's
 * report without a step, as fx_integrator_report gives). */
FxStepFrame *fx_step_frame_new   (const FxSystem *system, const FxStepReport *report,
                                  guint step);
FxStepFrame *fx_step_frame_ref   (FxStepFrame *frame);
/* The frame's size in memory, for the budgets of history and queues. */
gsize        fx_step_frame_bytes (const FxStepFrame *frame);
/* A new frame with copies of every array, for a caller that changes them
 * (a magnified drawing). */
FxStepFrame *fx_step_frame_copy  (const FxStepFrame *frame);
void         fx_step_frame_unref (FxStepFrame *frame);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxStepFrame, fx_step_frame_unref)

/* A frame of the undeformed model itself (t = 0, moments zero), drawn
 * before any run and used as the "initial configuration" ghost. Links
 * whose joints are missing get no nodes, and probes on them are at NaN (skip
 * them); a link with 0 elements is drawn as one element. */
FxStepFrame *fx_step_frame_new_from_model (const FxModel *model);

/* The diagram's values at fraction s of model link `link` in the system's
 * state: what a frame's samples give there (joined linearly), element end
 * forces at nodes and loads at their points. A probe reads the fields
 * themselves (fx_system_probe_values): at a node where a DG0 moment has no
 * one value it reads the mean of the two elements; this reads the end
 * force, as the diagram does (physics.md §14: a probe on a settled state
 * should read the diagram's values). */
void         fx_system_diagram_at (const FxSystem *system, guint link, double s,
                                   double values[FX_DIAGRAM_N_VALUES]);

/* A probe's values on a settled state (physics.md §14): those of
 * fx_system_probe_values with N, V and M as the diagram reads them
 * (fx_system_diagram_at), so that the probe and the diagram agree. */
void         fx_system_settled_probe_values (const FxSystem *system, guint link, double s,
                                             double values[FX_PROBE_N_VALUES]);

/* The frame of a settled state: its probes read as
 * fx_system_settled_probe_values does. */
void         fx_step_frame_settled_probes (FxStepFrame *frame, const FxSystem *system);

/* For fx-frame.c: fills frame->diagram from the system's state. */
void         fx_step_frame_fill_diagram (FxStepFrame *frame, const FxSystem *system);

G_END_DECLS
