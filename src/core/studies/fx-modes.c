/* fx-modes.c: linear modes about the drawn configuration (docs/theory.md §8).
 *
 * This file: the linear model, the split of unknowns into velocities and
 * stresses, the shapes drawn from each mode and the public calls. The
 * solvers live in fx-modes-dense.c (every mode, symmetric-definite; its
 * header comment has the outline of the linearisation) and
 * fx-modes-arnoldi.c (the lowest vibrations of large models).
 */
#include "fx-modes-private.h"
#include "fx-modes-frame.h"
#include "fx-output.h"
#include "fx-csv.h"
#include "fx-system-private.h"
#include "fx-link-model.h"
#include "fx-memory.h"
#include "fx-cancel.h"

#define DENSE_MATRICES 6

#include <glib/gi18n-lib.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (fx-modes-error-quark, fx_modes_error)

FxModel *
fx_modes_linear_model (const FxModel *model)
{
  FxModel *m = fx_model_copy (model);

  m->gravity[0] = m->gravity[1] = 0.0;
  g_array_set_size (m->loads, 0);
  g_array_set_size (m->drags, 0);  /* a hand is a load, not part of the structure */
  for (guint i = 0; i < m->links->len; i++)
    {
      FxLink *l = fx_model_link (m, i);
      l->damping = l->rotational_damping = l->kelvin_voigt = 0.0;
      l->initial_velocity[0] = l->initial_velocity[1] = 0.0;
      l->initial_omega = 0.0;
    }
  for (guint i = 0; i < m->joints->len; i++)
    {
      FxJoint *j = fx_model_joint (m, i);
      j->drive_velocity[0] = j->drive_velocity[1] = 0.0;
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    fx_model_motor (m, i)->value = 0.0;
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    {
      /* the rest angle would be a preload: modes are about the drawn state */
      fx_model_spring (m, i)->damping = 0.0;
      fx_model_spring (m, i)->rest_angle = 0.0;
    }
  return m;
}

/* Is unknown i a velocity (else a stress)? Slots alternate node / element;
 * a node slot holds the CG1 fields, an element slot the DG0 ones. Unknowns
 * outside every link are inertias' velocities. */
gboolean
fx_modes_unknown_is_velocity (const FxSystem *sys, guint i)
{
  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      if (i < l->offset || i >= l->offset + l->n_unknowns)
        continue;
      if (l->model->modes_blocks != NULL)
        return fx_modes_frame_is_velocity (l, i - l->offset);
      return l->model->unknown_is_velocity (l, i - l->offset);
    }
  return TRUE;
}

void
fx_modes_raw_clear (gpointer p)
{
  g_free (((RawMode *) p)->state);
  g_free (((RawMode *) p)->stress);
}

/* ------------------------------------------------------------- shapes */

static void
drawn_nodes (FxSystem *sys, FxModes *res, double **theta)
{
  res->n_links = fx_system_n_links (sys);
  res->link_nodes = g_new0 (guint, MAX (res->n_links, 1));
  res->link_first = g_new0 (guint, MAX (res->n_links, 1));
  res->n_nodes = 0;
  for (guint l = 0; l < res->n_links; l++)
    {
      res->link_first[l] = res->n_nodes;
      res->link_nodes[l] = fx_system_link_elements (sys, l) + 1;
      res->n_nodes += res->link_nodes[l];
    }
  res->node_xy = g_new0 (double, 2 * MAX (res->n_nodes, 1));
  *theta = g_new0 (double, MAX (res->n_nodes, 1));
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  memset (sys->x, 0, sizeof (double) * sys->n);
  for (guint l = 0; l < res->n_links; l++)
    for (guint i = 0; i < res->link_nodes[l]; i++)
      {
        guint k = res->link_first[l] + i;
        double *p = &res->node_xy[2 * k];
        fx_system_node (sys, l, i, &p[0], &p[1], &(*theta)[k], NULL);
        for (guint c = 0; c < 2; c++)
          lo[c] = MIN (lo[c], p[c]), hi[c] = MAX (hi[c], p[c]);
      }
  res->size = res->n_nodes > 0 ? hypot (hi[0] - lo[0], hi[1] - lo[1]) : 0.0;
}

/* Model-link fraction of point xi (0..1) of element e of segment k of a
 * link in nseg segments (a split link's halves have equal length). */
static double
segment_fraction (guint nseg, guint k, guint N, double e_xi)
{
  double local = e_xi / N;
  return nseg == 2 ? 0.5 * k + 0.5 * local : local;
}

typedef struct {
  double v[2], m, n;
} NodeFields;

static void
sample (const FxSystem *sys, guint l, double s, NodeFields *out)
{
  double nh[2];
  fx_system_fields_at (sys, l, s, out->v, NULL, nh, &out->m);
  out->n = nh[0];
}

/* Fields at local node j of segment k of model link l. CG1 fields are
 * nodal; a DG0 field (piecewise constant) is drawn as the mean of the two
 * elements at an interior node and extrapolated linearly at an end, so that
 * a rigid rotation about a pin shows zero at the pin. */
static void
node_fields (const FxSystem *sys, guint l, guint k, guint j, NodeFields *out)
{
  const FxLinkSys *ls = &sys->links[sys->seg_first[l] + k];
  /* drawn intervals: kN on a degree-k link */
  const guint nseg = sys->seg_count[l], N = ls->n_draw;
  const gboolean dg_v = ls->T == FX_CAUSAL_V, dg_n = ls->T == FX_CAUSAL_F, dg_m = ls->R == FX_CAUSAL_F;
  NodeFields at_node, a, b;
  double wa, wb;

  sample (sys, l, segment_fraction (nseg, k, N, j), &at_node);
  if (N == 1)
    {
      sample (sys, l, segment_fraction (nseg, k, N, 0.5), &a);
      b = a, wa = 1.0, wb = 0.0;
    }
  else
    {
      guint ea = j == 0 ? 0 : j == N ? N - 1 : j - 1;
      guint eb = j == 0 ? 1 : j == N ? N - 2 : j;
      wa = j == 0 || j == N ? 1.5 : 0.5;
      wb = j == 0 || j == N ? -0.5 : 0.5;
      sample (sys, l, segment_fraction (nseg, k, N, ea + 0.5), &a);
      sample (sys, l, segment_fraction (nseg, k, N, eb + 0.5), &b);
    }
  *out = at_node;
  if (dg_v)
    for (guint c = 0; c < 2; c++)
      out->v[c] = wa * a.v[c] + wb * b.v[c];
  if (dg_n)
    out->n = wa * a.n + wb * b.n;
  if (dg_m)
    out->m = wa * a.m + wb * b.m;
}

/* Node i of model link l as (segment, local node): the shared midpoint of
 * a split link is the first half's end. */
static guint
local_node (const FxSystem *sys, guint l, guint i, guint *j)
{
  guint na = sys->links[sys->seg_first[l]].n_draw;
  if (sys->seg_count[l] == 2 && i > na)
    {
      *j = i - na;
      return 1;
    }
  *j = i;
  return 0;
}

/* The unit of a stress shape: its largest |m|, or its largest |n| when
 * the moments are only round-off beside the axial force (times the
 * model's size, to compare N m with N): an axial mode's "moments" at
 * 1e-13 once scaled its axial force to 3.5e14. Such moments are cleared. */
static double
stress_unit (const FxModes *res, FxMode *mode, double big_m, double big_n)
{
  if (big_m > 1e-9 * big_n * MAX (res->size, 1e-9))
    return big_m;
  for (guint k = 0; k < res->n_nodes; k++)
    mode->shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_M] = 0.0;
  return big_n;
}

/* A link drawn from its configuration (a floating frame: it has no field
 * unknowns to sample), fx-modes-frame.c. */
static gboolean
frame_link (const FxSystem *sys, guint l)
{
  return sys->links[sys->seg_first[l]].model->modes_blocks != NULL;
}

/* Its nodes under the unknowns `state`: velocities into the shape's dx, dy
 * and, with omega > 0, the moment and axial force at the largest
 * displacement (rates / omega) into its m and n, their largest sizes added
 * to big[0], big[1]. */
static void
frame_shape (FxSystem *sys, const FxModes *res, guint l, const double *state, double omega,
             FxMode *mode, double big[2])
{
  const guint nk = res->link_nodes[l];
  g_autofree double *v = g_new (double, 2 * nk), *rate = g_new (double, 2 * nk);

  fx_modes_frame_node_rates (sys, sys->seg_first[l], state, res->size, v, rate, rate + nk);
  for (guint i = 0; i < nk; i++)
    {
      double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * (res->link_first[l] + i)];
      if (omega > 0.0)
        {
          sh[FX_MODE_M] = rate[i] / omega;
          sh[FX_MODE_N] = rate[nk + i] / omega;
          big[0] = MAX (big[0], fabs (sh[FX_MODE_M]));
          big[1] = MAX (big[1], fabs (sh[FX_MODE_N]));
          continue;
        }
      sh[FX_MODE_DX] = v[2 * i];
      sh[FX_MODE_DY] = v[2 * i + 1];
    }
}

/* A vibration's moment and axial force, from its stresses (and the
 * configuration that its raw state reaches for floating frames): largest
 * |m| = 1 (the colours show where it bends, not how much). */
static void
fill_stress_shape (FxSystem *sys, const FxModes *res, const RawMode *rm, FxMode *mode)
{
  double big_m = 0.0, big_n = 0.0;
  memcpy (sys->x, rm->stress, sizeof (double) * sys->n);
  for (guint l = 0; l < res->n_links; l++)
    for (guint i = 0; i < res->link_nodes[l] && !frame_link (sys, l); i++)
      {
        double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * (res->link_first[l] + i)];
        NodeFields f;
        guint j, seg = local_node (sys, l, i, &j);
        node_fields (sys, l, seg, j, &f);
        sh[FX_MODE_M] = f.m;
        sh[FX_MODE_N] = f.n;
        big_m = MAX (big_m, fabs (f.m));
        big_n = MAX (big_n, fabs (f.n));
      }
  memset (sys->x, 0, sizeof (double) * sys->n);
  double big[2] = { big_m, big_n };
  for (guint l = 0; l < res->n_links; l++)
    if (frame_link (sys, l))
      frame_shape (sys, res, l, rm->state, sqrt (rm->omega2), mode, big);
  double unit = stress_unit (res, mode, big[0], big[1]);
  for (guint k = 0; k < res->n_nodes && unit > 0.0; k++)
    {
      mode->shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_M] /= unit;
      mode->shape[FX_MODE_SHAPE_STRIDE * k + FX_MODE_N] /= unit;
    }
}

static void
fill_shape (FxSystem *sys, const FxModes *res, const double *theta, const RawMode *rm,
            FxMode *mode)
{
  double big_d = 0.0, big[2] = { 0.0, 0.0 };  /* largest |d|, |m|, |n| */

  memcpy (sys->x, mode->state, sizeof (double) * sys->n);
  mode->shape = g_new0 (double, FX_MODE_SHAPE_STRIDE * MAX (res->n_nodes, 1));
  for (guint l = 0; l < res->n_links; l++)
    if (frame_link (sys, l) && mode->kind == FX_MODE_SELF_STRESS && rm->stress)
      frame_shape (sys, res, l, rm->stress, 1.0, mode, big);
    else if (frame_link (sys, l))
      frame_shape (sys, res, l, mode->state, 0.0, mode, big);
  for (guint l = 0; l < res->n_links; l++)
    for (guint i = 0; i < res->link_nodes[l]; i++)
      {
        guint k = res->link_first[l] + i;
        if (frame_link (sys, l))
          {
            const double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * k];
            big_d = MAX (big_d, hypot (sh[FX_MODE_DX], sh[FX_MODE_DY]));
            continue;
          }
        double *sh = &mode->shape[FX_MODE_SHAPE_STRIDE * k];
        double c = cos (theta[k]), s = sin (theta[k]);
        NodeFields f;
        guint j, seg = local_node (sys, l, i, &j);
        node_fields (sys, l, seg, j, &f);
        sh[FX_MODE_DX] = c * f.v[0] - s * f.v[1];   /* Lambda(theta*) v_hat */
        sh[FX_MODE_DY] = s * f.v[0] + c * f.v[1];
        sh[FX_MODE_M] = f.m;
        sh[FX_MODE_N] = f.n;
        big_d = MAX (big_d, hypot (sh[FX_MODE_DX], sh[FX_MODE_DY]));
        big[0] = MAX (big[0], fabs (sh[FX_MODE_M]));
        big[1] = MAX (big[1], fabs (sh[FX_MODE_N]));
      }
  memset (sys->x, 0, sizeof (double) * sys->n);
  double unit = mode->kind == FX_MODE_SELF_STRESS ? stress_unit (res, mode, big[0], big[1]) : big_d;
  if (unit <= 0.0)
    return;
  for (guint k = 0; k < FX_MODE_SHAPE_STRIDE * res->n_nodes; k++)
    mode->shape[k] /= unit;
  for (guint i = 0; i < res->n_unknowns; i++)
    mode->state[i] /= unit;
}

/* ------------------------------------------------------------- public */

static void
results_from_raw (FxSystem *sys, FxModes *res, GArray *raw)
{
  g_autofree double *theta = NULL;
  guint counter[FX_MODE_REGULARISATION + 1] = { 0 };

  drawn_nodes (sys, res, &theta);
  res->n_modes = raw->len;
  res->modes = g_new0 (FxMode, MAX (raw->len, 1));
  for (guint i = 0; i < raw->len; i++)
    {
      RawMode *rm = &g_array_index (raw, RawMode, i);
      FxMode *m = &res->modes[i];
      m->kind = rm->kind;
      m->index = ++counter[rm->kind];
      m->frequency = rm->kind == FX_MODE_VIBRATION ? sqrt (rm->omega2) / (2.0 * G_PI) : 0.0;
      m->state = g_new (double, MAX (res->n_unknowns, 1));
      memcpy (m->state, rm->state, sizeof (double) * res->n_unknowns);
      fill_shape (sys, res, theta, rm, m);
      if (rm->stress && rm->kind == FX_MODE_VIBRATION)
        fill_stress_shape (sys, res, rm, m);
    }
}

static gboolean
results_finite (const FxModes *res)
{
  for (guint i = 0; i < res->n_modes; i++)
    {
      const FxMode *m = &res->modes[i];
      if (!isfinite (m->frequency))
        return FALSE;
      for (guint k = 0; k < FX_MODE_SHAPE_STRIDE * res->n_nodes; k++)
        if (!isfinite (m->shape[k]))
          return FALSE;
      for (guint k = 0; k < res->n_unknowns; k++)
        if (!isfinite (m->state[k]))
          return FALSE;
    }
  return TRUE;
}

FxModes *
fx_modes_compute (const FxModel *model, guint max_vibrations, GError **error)
{
  return fx_modes_compute_with (model, max_vibrations, FX_MODES_AUTO, error);
}

static FxModes *
compute_iterative (FxSystem *sys, guint max_vibrations, GError **error)
{
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (RawMode));
  g_array_set_clear_func (raw, fx_modes_raw_clear);
  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  gboolean ok = fx_modes_arnoldi_solve (sys, max_vibrations ? max_vibrations : 20, raw, error);
  gsl_set_error_handler (old);
  if (!ok)
    return NULL;
  FxModes *res = g_new0 (FxModes, 1);
  res->n_unknowns = sys->n;
  res->counted = FALSE;
  res->requested = max_vibrations ? max_vibrations : 20;
  results_from_raw (sys, res, raw);
  return res;
}

/* The velocities of the regularising inertias the engine added (their
 * joints are flagged in the expanded model), or NULL when it added none. */
static gboolean *
regularising_mask (const FxSystem *sys)
{
  gboolean *mask = NULL;
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      {
        const FxJunction *j = &g_array_index (arrs[c], FxJunction, i);
        const FxJoint *joint = fx_model_joint (sys->built, j->joint);
        double flag = c == 0 ? joint->regularising_mass : joint->regularising_inertia;
        if (j->inertia_dof < 0 || !(flag > 0.0))
          continue;
        mask = mask ? mask : g_new0 (gboolean, MAX (sys->n, 1));
        for (guint k = 0; k < (c == 0 && !j->slider ? 2u : 1u); k++)
          mask[j->inertia_dof + k] = TRUE;
      }
  return mask;
}

/* Vibrations that live in regularising inertia are listed as such, after
 * the structure's own (docs/theory.md, regularising inertia). */
static FxModes *
mark_regularisation (FxModes *res, const FxModel *model, const FxSystem *sys)
{
  g_autofree gboolean *mask = res ? regularising_mask (sys) : NULL;
  if (mask)
    fx_modes_classify_regularisation (res, model, mask);
  return res;
}

FxModes *
fx_modes_compute_with (const FxModel *model, guint max_vibrations, FxModesMethod method,
                       GError **error)
{
  g_autoptr (FxModel) lin = fx_modes_linear_model (model);
  g_autoptr (FxSystem) sys = fx_system_new (lin, error);

  if (sys == NULL)
    return NULL;
  guint n = fx_system_n_unknowns (sys);
  FxModes *iter = NULL;
  if (method == FX_MODES_ITERATIVE || (method == FX_MODES_AUTO && n > FX_MODES_MAX_UNKNOWNS))
    {
      iter = compute_iterative (sys, max_vibrations, error);
      if (iter && !results_finite (iter))
        {
          g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                               _("the eigensolver failed on this model (a non-finite result)"));
          g_clear_pointer (&iter, fx_modes_free);
        }
      return mark_regularisation (iter, model, sys);
    }
  if (n > FX_MODES_MAX_UNKNOWNS)
    {
      g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE,
                   _("this model has %u unknowns; modes use a dense eigensolver limited to %u "
                     "(use fewer elements per link)"), n, FX_MODES_MAX_UNKNOWNS);
      return NULL;
    }
  /* the dense path holds about six n x n matrices at once (the pencil's
   * two, the congruences and the eigenvectors): booked beside the system */
  guint64 dense_bytes = DENSE_MATRICES * (guint64) n * n * sizeof (double);
  g_autofree char *what = g_strdup_printf (_("the dense modes of %u unknowns"), n);
  if (!fx_memory_reserve (dense_bytes, what, _("use fewer elements per link"), error))
    return NULL;
  /* GSL's default handler aborts the program; here a failed decomposition
   * shows up as a non-finite result, which is reported instead */
  gsl_error_handler_t *old = gsl_set_error_handler_off ();

  FxModes *res = g_new0 (FxModes, 1);
  res->n_unknowns = n;
  res->counted = TRUE;
  res->requested = max_vibrations;
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (RawMode));
  g_array_set_clear_func (raw, fx_modes_raw_clear);
  gboolean ok = fx_modes_dense_solve (sys, max_vibrations, res, raw, error);
  if (ok && fx_cancel_check (error))  /* a signal during the decomposition */
    ok = FALSE;
  gsl_set_error_handler (old);
  fx_memory_release (dense_bytes);
  if (!ok)
    {
      fx_modes_free (res);
      return NULL;
    }

  results_from_raw (sys, res, raw);
  if (!results_finite (res))
    {
      g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                           _("the eigensolver failed on this model (a non-finite result)"));
      fx_modes_free (res);
      return NULL;
    }
  return mark_regularisation (res, model, sys);
}

void
fx_modes_free (FxModes *modes)
{
  if (modes == NULL)
    return;
  for (guint i = 0; i < modes->n_modes; i++)
    {
      g_free (modes->modes[i].shape);
      g_free (modes->modes[i].state);
    }
  g_free (modes->modes);
  g_free (modes->link_nodes);
  g_free (modes->link_first);
  g_free (modes->node_xy);
  g_free (modes);
}

guint
fx_modes_count (const FxModes *modes, FxModeKind kind)
{
  guint n = 0;
  for (guint i = 0; i < modes->n_modes; i++)
    n += modes->modes[i].kind == kind;
  return n;
}

/* Order of the list: motions, self-stress states, vibrations by rising
 * frequency, regularisation modes by rising frequency. */
static int
mode_order (gconstpointer a, gconstpointer b)
{
  const FxMode *x = a, *y = b;
  if (x->kind != y->kind)
    return (int) x->kind - (int) y->kind;
  if ((x->kind == FX_MODE_VIBRATION || x->kind == FX_MODE_REGULARISATION)
      && x->frequency != y->frequency)
    return (x->frequency > y->frequency) - (x->frequency < y->frequency);
  return (x->index > y->index) - (x->index < y->index);
}

gboolean
fx_modes_classify_regularisation (FxModes *modes, const FxModel *model, const gboolean *regularising)
{
  g_autoptr (FxModel) lin = fx_modes_linear_model (model);
  g_autoptr (FxSystem) sys = fx_system_new (lin, NULL);
  if (sys == NULL || sys->n != modes->n_unknowns)
    return FALSE;
  g_autofree double *Ev = g_new (double, MAX (sys->n, 1));
  memset (sys->x, 0, sizeof (double) * sys->n);
  for (guint k = 0; k < modes->n_modes; k++)
    {
      FxMode *m = &modes->modes[k];
      if (m->kind != FX_MODE_VIBRATION)
        continue;
      /* the state is the mode at its largest velocity: E v is M v there */
      fx_system_residual (sys, m->state, 0.0, Ev, NULL, NULL);
      double kinetic = 0.0, in_mask = 0.0;
      for (guint i = 0; i < sys->n; i++)
        if (fx_modes_unknown_is_velocity (sys, i))
          {
            kinetic += m->state[i] * Ev[i];
            if (regularising[i])
              in_mask += m->state[i] * Ev[i];
          }
      if (kinetic > 0.0 && in_mask > 0.5 * kinetic)
        m->kind = FX_MODE_REGULARISATION;
    }
  /* stable: the index within each kind still says the old order */
  qsort (modes->modes, modes->n_modes, sizeof (FxMode), mode_order);
  guint counter[FX_MODE_REGULARISATION + 1] = { 0 };
  for (guint k = 0; k < modes->n_modes; k++)
    modes->modes[k].index = ++counter[modes->modes[k].kind];
  return TRUE;
}

const char *
fx_mode_kind_to_string (FxModeKind kind)
{
  switch (kind)
    {
    case FX_MODE_MOTION: return "motion";
    case FX_MODE_SELF_STRESS: return "self-stress";
    case FX_MODE_REGULARISATION: return "regularisation";
    case FX_MODE_VIBRATION: default: return "vibration";
    }
}

char *
fx_modes_summary (const FxModes *modes)
{
  if (!modes->counted)
    return g_strdup_printf (_("lowest vibrations only (%u unknowns)"), modes->n_unknowns);
  if (modes->indeterminacy == 0)
    return g_strdup_printf (_("mobility %u · statically determinate"), modes->mobility);
  return g_strdup_printf (_("mobility %u · indeterminate to degree %u"),
                          modes->mobility, modes->indeterminacy);
}

char *
fx_mode_label (const FxModes *modes, const FxMode *mode)
{
  (void) modes;
  switch (mode->kind)
    {
    case FX_MODE_MOTION:
      return g_strdup_printf (_("mechanism mode %u"), mode->index);
    case FX_MODE_SELF_STRESS:
      return g_strdup_printf (_("self-stress state %u"), mode->index);
    case FX_MODE_REGULARISATION:
      return g_strdup_printf (_("regularisation mode %u · %.3g Hz"), mode->index, mode->frequency);
    case FX_MODE_VIBRATION:
    default:
      if (mode->frequency >= 100.0)
        return g_strdup_printf (_("mode %u · %.0f Hz"), mode->index, mode->frequency);
      return g_strdup_printf (_("mode %u · %.3g Hz"), mode->index, mode->frequency);
    }
}

/* CSV numbers: %.10g, always finite (a mode's values are finite by
 * construction; a non-finite one is an error, never written). */
static gboolean
finite_or_error (double v, GError **error)
{
  if (isfinite (v))
    return TRUE;
  g_set_error_literal (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
                       _("a mode has a non-finite value; nothing written"));
  return FALSE;
}

static gboolean
write_atomically (const char *path, GString *text, GError **error)
{
  /* a temporary file beside the target, renamed over it (fx-output.h) */
  return fx_output_set_contents (path, text->str, text->len, error);
}

gboolean
fx_modes_write_csv (const FxModes *modes, const FxModel *model, const char *path, GError **error)
{
  g_autoptr (GString) s = g_string_new ("mode,frequency_hz,kind\n");
  (void) model;
  for (guint i = 0; i < modes->n_modes; i++)
    {
      const FxMode *m = &modes->modes[i];
      if (!finite_or_error (m->frequency, error))
        return FALSE;
      g_string_append_printf (s, "%u,%.10g,%s\n", m->index, m->frequency,
                              fx_mode_kind_to_string (m->kind));
    }
  return write_atomically (path, s, error);
}

gboolean
fx_modes_write_shapes (const FxModes *modes, const FxModel *model, const char *path, GError **error)
{
  g_autoptr (GString) s = g_string_new ("mode,kind,link,node,x,y,dx,dy,moment,axial\n");
  for (guint i = 0; i < modes->n_modes; i++)
    {
      const FxMode *m = &modes->modes[i];
      for (guint l = 0; l < modes->n_links; l++)
        for (guint k = 0; k < modes->link_nodes[l]; k++)
          {
            guint node = modes->link_first[l] + k;
            const double *sh = &m->shape[FX_MODE_SHAPE_STRIDE * node];
            const double *p = &modes->node_xy[2 * node];
            for (guint c = 0; c < FX_MODE_SHAPE_STRIDE; c++)
              if (!finite_or_error (sh[c], error))
                return FALSE;
            g_string_append_printf (s, "%u,%s,", m->index, fx_mode_kind_to_string (m->kind));
            /* the link id is user text: RFC 4180 quoting keeps the columns */
            fx_csv_append_field (s, fx_model_link (model, l)->id);
            g_string_append_printf (s, ",%u,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", k, p[0],
                                    p[1], sh[FX_MODE_DX], sh[FX_MODE_DY], sh[FX_MODE_M],
                                    sh[FX_MODE_N]);
          }
    }
  return write_atomically (path, s, error);
}

/* ------------------------------------------------------------ drawing */

/* Probes ride on the shape (issue 23.8: the marker stayed at the drawn
 * place): the displacement interpolated between the nodes around s. */
static void
move_probes (const FxModes *modes, const FxModel *model, const FxMode *m, double a, FxStepFrame *f)
{
  for (guint p = 0; p < MIN (f->n_probes, model->probes->len); p++)
    {
      const FxProbe *probe = fx_model_probe (model, p);
      int l = fx_model_find_link (model, probe->link);
      if (l < 0 || (guint) l >= modes->n_links || modes->link_nodes[l] < 2)
        continue;
      guint nk = modes->link_nodes[l];
      double u = CLAMP (probe->s, 0.0, 1.0) * (nk - 1);
      guint k = MIN ((guint) u, nk - 2);
      double w = u - k;
      const double *s0 = &m->shape[FX_MODE_SHAPE_STRIDE * (modes->link_first[l] + k)];
      const double *s1 = s0 + FX_MODE_SHAPE_STRIDE;
      f->probe_xy[2 * p] += a * ((1 - w) * s0[FX_MODE_DX] + w * s1[FX_MODE_DX]);
      f->probe_xy[2 * p + 1] += a * ((1 - w) * s0[FX_MODE_DY] + w * s1[FX_MODE_DY]);
    }
}

FxStepFrame *
fx_modes_frame (const FxModes *modes, const FxModel *model, guint index, double phase,
                double amplitude)
{
  FxStepFrame *f = fx_step_frame_new_from_model (model);
  g_return_val_if_fail (index < modes->n_modes, f);
  const FxMode *m = &modes->modes[index];
  const double a = m->kind == FX_MODE_SELF_STRESS ? 0.0 : amplitude * sin (2.0 * G_PI * phase);
  double big = 0.0;

  for (guint l = 0; l < MIN (f->n_links, modes->n_links); l++)
    {
      guint k0 = f->node_offset[l], nk = f->node_offset[l + 1] - k0;
      if (nk != modes->link_nodes[l])
        continue;  /* the model changed since the modes were computed */
      for (guint i = 0; i < nk; i++)
        {
          const double *sh = &m->shape[FX_MODE_SHAPE_STRIDE * (modes->link_first[l] + i)];
          f->x[k0 + i] += a * sh[FX_MODE_DX];
          f->y[k0 + i] += a * sh[FX_MODE_DY];
          /* a vibration bends in phase with its displacement */
          f->moment[k0 + i] = m->kind == FX_MODE_SELF_STRESS ? sh[FX_MODE_M]
                            : m->kind != FX_MODE_MOTION ? sh[FX_MODE_M] * sin (2.0 * G_PI * phase)
                            : 0.0;
          big = MAX (big, fabs (f->moment[k0 + i]));
        }
    }
  /* joints follow the link ends that meet there */
  for (guint l = 0; l < MIN (f->n_links, model->links->len); l++)
    {
      const FxLink *ln = fx_model_link (model, l);
      int ends[2] = { fx_model_find_joint (model, ln->from), fx_model_find_joint (model, ln->to) };
      guint nodes[2] = { f->node_offset[l], f->node_offset[l + 1] - 1 };
      for (guint e = 0; e < 2; e++)
        if (ends[e] >= 0 && (guint) ends[e] < f->n_joints && f->node_offset[l + 1] > f->node_offset[l])
          {
            f->joint_xy[2 * ends[e]] = f->x[nodes[e]];
            f->joint_xy[2 * ends[e] + 1] = f->y[nodes[e]];
          }
    }
  move_probes (modes, model, m, a, f);
  f->moment_max_abs = big;
  return f;
}

GPtrArray *
fx_modes_cycle (const FxModes *modes, const FxModel *model, guint index, guint n_frames,
                double amplitude)
{
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_step_frame_unref);
  for (guint i = 0; i < n_frames; i++)
    {
      FxStepFrame *f = fx_modes_frame (modes, model, index, (double) i / n_frames, amplitude);
      f->step = i;
      g_ptr_array_add (frames, f);
    }
  return frames;
}

int
fx_modes_find (const FxModes *modes, const char *name, GError **error)
{
  FxModeKind kind = FX_MODE_VIBRATION;
  const char *number = name;
  if (g_str_has_prefix (name, "motion:"))
    kind = FX_MODE_MOTION, number = name + strlen ("motion:");
  else if (g_str_has_prefix (name, "self-stress:"))
    kind = FX_MODE_SELF_STRESS, number = name + strlen ("self-stress:");
  else if (g_str_has_prefix (name, "regularisation:"))
    kind = FX_MODE_REGULARISATION, number = name + strlen ("regularisation:");
  guint64 k = 0;
  if (g_ascii_string_to_unsigned (number, 10, 1, G_MAXUINT, &k, NULL))
    for (guint i = 0; i < modes->n_modes; i++)
      if (modes->modes[i].kind == kind && modes->modes[i].index == k)
        return (int) i;
  g_set_error (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED,
               _("no mode \"%s\": this model has %u motions, %u self-stress states and %u "
                 "vibration modes listed (name one as 2, motion:1 or self-stress:1)"),
               name, fx_modes_count (modes, FX_MODE_MOTION), fx_modes_count (modes, FX_MODE_SELF_STRESS),
               fx_modes_count (modes, FX_MODE_VIBRATION));
  return -1;
}
