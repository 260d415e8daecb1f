/* fx-modes.h: linear modes of a mechanism about its drawn configuration
 * (docs/theory.md §8).
 *
 * The assembled model is linearised about its drawn, stress-free state (all
 * co-energy variables zero; gravity, loads, damping and the time dependence of
 * drives left out) to E y' = A y, E symmetric semidefinite, A skew. The
 * pencil A phi = lambda E phi gives:
 *   - vibration modes, lambda = +-i omega, omega > 0;
 *   - motions: velocity fields with zero strain rate (rigid-body and
 *     mechanism motions), their count is the mobility;
 *   - self-stress states: stresses in equilibrium with no load, their count
 *     is the degree of static indeterminacy.
 * Directions with E phi = 0 (massless or rigid parts: infinite eigenvalues)
 * are not modes and are dropped. The solve is dense (GSL), so models are
 * limited to FX_MODES_MAX_UNKNOWNS unknowns.
 */
#pragma once

#include "fx-model.h"
#include "fx-frame.h"

G_BEGIN_DECLS

#define FX_MODES_ERROR (fx_modes_error_quark ())
typedef enum {
  FX_MODES_ERROR_TOO_LARGE,  /* more unknowns than a dense solve can take     */
  FX_MODES_ERROR_FAILED,     /* the linearisation or the eigensolver failed   */
} FxModesError;
GQuark fx_modes_error_quark (void);

/* Dense eigensolvers cost O(n^3) time and O(n^2) memory. Measured with
 * bench-modes (GSL's reference BLAS, one core): 1150 unknowns 2.4 s, 1500
 * unknowns 8 s, 2900 unknowns 105 s; the limit keeps a wait under ~20 s.
 * Beyond it, only the lowest vibrations are found, by shift-invert Arnoldi
 * iteration on the midpoint's own (banded or sparse) Newton matrix, and the
 * motions and self-stress states are not counted. */
#define FX_MODES_MAX_UNKNOWNS 2000u

typedef enum {
  FX_MODES_AUTO,       /* dense up to FX_MODES_MAX_UNKNOWNS, else iterative */
  FX_MODES_DENSE,      /* everything (refused beyond the limit)             */
  FX_MODES_ITERATIVE,  /* the lowest vibrations only                        */
} FxModesMethod;

typedef enum {
  FX_MODE_MOTION,       /* zero frequency: rigid-body or mechanism motion */
  FX_MODE_SELF_STRESS,  /* stresses in equilibrium with no load           */
  FX_MODE_VIBRATION,    /* omega > 0                                      */
  FX_MODE_REGULARISATION, /* omega > 0, its kinetic energy mostly in the
                           * regularising inertia (docs/theory.md §6.1):
                           * an artefact of the assignment, listed last   */
} FxModeKind;

/* Per node of a shape: spatial displacement (dx, dy), bending moment m and
 * axial force n. Motions and vibrations fill dx, dy (largest |d| = 1, in
 * units of the drawing's chosen amplitude); self-stress states and
 * vibrations fill m and n (largest |m| = 1, or largest |n| = 1 when no
 * moment; a vibration's at its largest displacement, in phase with it). */
enum { FX_MODE_DX, FX_MODE_DY, FX_MODE_M, FX_MODE_N, FX_MODE_SHAPE_STRIDE };

typedef struct {
  FxModeKind kind;
  guint index;       /* 1-based within its kind ("mode 2", "mechanism mode 1") */
  double frequency;  /* Hz; 0 for motions and self-stress states              */
  double *shape;     /* n_nodes * FX_MODE_SHAPE_STRIDE                        */
  double *state;     /* n_unknowns: the e-vector in the system's numbering     */
} FxMode;

typedef struct {
  guint n_unknowns;     /* of the linearised system (fx_system_n_unknowns)    */
  gboolean counted;     /* FALSE (iterative): mobility and indeterminacy unknown */
  guint mobility;       /* number of motions                                   */
  guint indeterminacy;  /* number of self-stress states                        */
  guint n_massless_motions;   /* motions no mass resists (also in mobility)    */
  guint n_rigid_self_stress;  /* self-stress no compliance stores (also counted) */
  guint n_dropped;      /* directions with E phi = 0, not modes               */
  guint requested;      /* vibrations asked for (0: all); fewer listed when
                         * fewer converged or the cap below applies          */

  /* Nodes of the drawn model: link l has link_nodes[l] nodes starting at
   * link_first[l]; node_xy holds their drawn positions. */
  guint n_links, n_nodes;
  guint *link_nodes, *link_first;
  double *node_xy;
  double size;          /* diagonal of the drawn model's bounding box (m)     */

  /* motions, then self-stress states, then vibrations by rising frequency,
   * then regularisation modes (fx_modes_classify_regularisation) */
  guint n_modes;
  FxMode *modes;
} FxModes;

/* The model that is linearised: no gravity, loads, damping or initial
 * velocities; motors and driven supports at zero (a speed motor holds its
 * joint, a torque motor is gone). Same unknowns as the original model. */
FxModel  *fx_modes_linear_model (const FxModel *model);

/* Modes of `model`; max_vibrations limits the vibration modes kept (0: all;
 * the iterative method keeps at most 20 unless asked for more). */
FxModes  *fx_modes_compute      (const FxModel *model, guint max_vibrations, GError **error);
FxModes  *fx_modes_compute_with (const FxModel *model, guint max_vibrations, FxModesMethod method,
                                 GError **error);
void      fx_modes_free         (FxModes *modes);

/* The most vibration modes the iterative method lists for a model of
 * n_unknowns: half the unknowns, the Krylov space's own cap and the memory
 * limit (fx_memory_limit_get). The dense method lists every mode. */
guint     fx_modes_iterative_cap (guint n_unknowns);

/* Progress of the iterative method on the calling thread (NULL: none):
 * called every few Krylov vectors with the share done, the vectors built so
 * far and the space's size (a 50,000-element link takes minutes; issue 31,
 * item 8). */
typedef void (*FxModesProgress) (double fraction, guint done, guint total, gpointer data);
void      fx_modes_progress_attach (FxModesProgress progress, gpointer data);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxModes, fx_modes_free)

guint     fx_modes_count        (const FxModes *modes, FxModeKind kind);

/* Vibrations whose kinetic energy lies for more than half in the unknowns
 * that `regularising` marks (n_unknowns flags, the system's numbering of
 * fx_modes_linear_model (model): the velocities of regularising inertias)
 * become FX_MODE_REGULARISATION and move after the others; indices are
 * renumbered within each kind. FALSE (modes unchanged) when the model's
 * unknowns do not match the modes'. */
gboolean  fx_modes_classify_regularisation (FxModes *modes, const FxModel *model,
                                            const gboolean *regularising);
const char *fx_mode_kind_to_string (FxModeKind kind);  /* "vibration", "motion", "self-stress",
                                                           "regularisation" */

/* "mobility 1 · statically determinate" / "... · indeterminate to degree 2",
 * or "lowest vibrations only (2406 unknowns)" when not counted */
char     *fx_modes_summary      (const FxModes *modes);
/* "mode 2 · 13.7 Hz", "mechanism mode 1", "self-stress state 1" */
char     *fx_mode_label         (const FxModes *modes, const FxMode *mode);

/* Write the frequency table (mode,frequency_hz,kind) / the nodal shapes
 * (mode,kind,link,node,x,y,dx,dy,moment,axial) atomically (temp + rename). */
gboolean  fx_modes_write_csv    (const FxModes *modes, const FxModel *model, const char *path,
                                 GError **error);
gboolean  fx_modes_write_shapes (const FxModes *modes, const FxModel *model, const char *path,
                                 GError **error);

/* The drawn model displaced by mode `index` at animation phase (0..1, one
 * cycle): motions and vibrations move by amplitude * shape * sin(2 pi
 * phase) (m; e.g. a tenth of modes->size), a vibration's moment swings with
 * it, a self-stress state keeps its place and carries its moment; moments
 * are normalised (largest |m| = 1) for the colours. */
FxStepFrame *fx_modes_frame      (const FxModes *modes, const FxModel *model, guint index,
                                  double phase, double amplitude);

/* One cycle of mode `index` as n_frames frames (GPtrArray of FxStepFrame*,
 * owning them), for animation exports. */
GPtrArray   *fx_modes_cycle      (const FxModes *modes, const FxModel *model, guint index,
                                  guint n_frames, double amplitude);

/* The mode named by the user: "3" (vibration 3), "motion:1",
 * "self-stress:2" or "regularisation:1"; -1 (with an error) if there is
 * none such. */
int          fx_modes_find       (const FxModes *modes, const char *name, GError **error);

G_END_DECLS
