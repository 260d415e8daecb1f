/* fx-frame.c: frames of a system's state and of the undeformed model.
 *
 * Both constructors fill the same layout (fx-frame.h): geometry per model
 * link, joints and probes in model order.
 */
#include "fx-frame.h"

#include <math.h>
#include <string.h>

static FxStepFrame *
frame_alloc (guint n_links, guint n_nodes, guint n_joints, guint n_probes)
{
  FxStepFrame *f = g_new0 (FxStepFrame, 1);

  f->ref_count = 1;
  f->n_links = n_links;
  f->node_offset = g_new0 (guint, n_links + 1);
  f->n_nodes = n_nodes;
  f->x = g_new0 (double, MAX (n_nodes, 1));
  f->y = g_new0 (double, MAX (n_nodes, 1));
  f->theta = g_new0 (double, MAX (n_nodes, 1));
  f->moment = g_new0 (double, MAX (n_nodes, 1));
  f->n_joints = n_joints;
  f->joint_xy = g_new0 (double, 2 * MAX (n_joints, 1));
  f->n_probes = n_probes;
  f->probe_xy = g_new0 (double, 2 * MAX (n_probes, 1));
  f->probe_values = g_new0 (double, FX_PROBE_N_VALUES * MAX (n_probes, 1));
  f->holds = g_new0 (guint8, MAX (n_joints, 1));
  f->reaction = g_new0 (double, FX_REACTION_N_VALUES * MAX (n_joints, 1));
  f->link_warning = g_new0 (guint8, MAX (n_links, 1));
  f->diagram = g_new0 (double, 2 * FX_DIAGRAM_N_VALUES * MAX (n_nodes, 1));
  f->link_gamma = g_new0 (double, MAX (n_links, 1));
  f->link_axis = g_new (double, 3 * MAX (n_links, 1));
  for (guint k = 0; k < 3 * MAX (n_links, 1); k++)
    f->link_axis[k] = NAN;
  return f;
}

/* Joint ids to model indices: links name their joints by id, and a linear
 * search per link end would make frames quadratic in long chains. */
static GHashTable *
joint_index (const FxModel *model)
{
  GHashTable *index = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint j = 0; j < model->joints->len; j++)
    {
      const char *id = fx_model_joint (model, j)->id;
      if (id != NULL && !g_hash_table_contains (index, id))
        g_hash_table_insert (index, (gpointer) id, GUINT_TO_POINTER (j + 1));
    }
  return index;
}

/* -1 when the link names a joint the model does not have */
static int
lookup_joint (GHashTable *index, const char *id)
{
  if (id == NULL)
    return -1;
  return (int) GPOINTER_TO_UINT (g_hash_table_lookup (index, id)) - 1;
}

/* Bending below this fraction of a link's axial and shear forces times its
 * length is their round-off: a pin-jointed member carries none. */
#define MOMENT_ROUNDOFF 1e-12

/* The largest |moment| of the links that bend. A settled Warren truss has
 * 1e-21 N m of round-off in its members: taken as the colour range, it drew
 * them in the full colours of bending (and a colour bar of +-3e-21 N m). */
static void
frame_moment_max (FxStepFrame *f)
{
  f->moment_max_abs = 0.0;
  for (guint l = 0; l < f->n_links; l++)
    {
      double m = 0.0, force = 0.0, length = 0.0;
      for (guint i = f->node_offset[l]; i < f->node_offset[l + 1]; i++)
        {
          m = MAX (m, fabs (f->moment[i]));
          for (guint s = 2 * i; s < 2 * i + 2; s++)
            for (guint v = FX_DIAGRAM_N; v <= FX_DIAGRAM_V; v++)
              {
                double q = fabs (f->diagram[FX_DIAGRAM_N_VALUES * s + v]);
                if (isfinite (q))
                  force = MAX (force, q);
              }
          if (i > f->node_offset[l])
            length += hypot (f->x[i] - f->x[i - 1], f->y[i] - f->y[i - 1]);
        }
      if (m > MOMENT_ROUNDOFF * force * length)
        f->moment_max_abs = MAX (f->moment_max_abs, m);
    }
}

/* The report of a state that was not reached by a step, the same as
 * fx_integrator_report (which needs an integrator this function lacks). */
static void
state_report (const FxSystem *system, FxStepReport *report)
{
  FxEnergy e = fx_system_energy (system);

  memset (report, 0, sizeof *report);
  report->t = fx_system_time (system);
  report->kinetic = e.kinetic;
  report->elastic = e.elastic;
  report->gravity = e.gravity;
  report->H = e.kinetic + e.elastic + e.gravity;
  report->joint_gap = fx_system_joint_gap (system);
}

static void
system_nodes (FxStepFrame *f, const FxSystem *system)
{
  for (guint l = 0; l < f->n_links; l++)
    {
      guint first = f->node_offset[l];
      for (guint i = 0; first + i < f->node_offset[l + 1]; i++)
        fx_system_node (system, l, i, &f->x[first + i], &f->y[first + i],
                        &f->theta[first + i], &f->moment[first + i]);
    }
}

/* A joint is where the member ends are now (the first member found; they
 * agree up to the joint gap); a joint without members stays where drawn. */
static void
system_joints (FxStepFrame *f, const FxModel *model)
{
  g_autoptr (GHashTable) index = joint_index (model);
  g_autofree gboolean *placed = g_new0 (gboolean, MAX (f->n_joints, 1));

  for (guint l = 0; l < f->n_links; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      int ends[2] = { lookup_joint (index, link->from), lookup_joint (index, link->to) };
      guint nodes[2] = { f->node_offset[l], f->node_offset[l + 1] - 1 };

      for (guint k = 0; k < 2; k++)
        if (ends[k] >= 0 && !placed[ends[k]] && f->node_offset[l + 1] > f->node_offset[l])
          {
            f->joint_xy[2 * ends[k]] = f->x[nodes[k]];
            f->joint_xy[2 * ends[k] + 1] = f->y[nodes[k]];
            placed[ends[k]] = TRUE;
          }
    }
  for (guint j = 0; j < f->n_joints; j++)
    if (!placed[j])
      {
        f->joint_xy[2 * j] = fx_model_joint (model, j)->at[0];
        f->joint_xy[2 * j + 1] = fx_model_joint (model, j)->at[1];
      }
}

static void
system_probes (FxStepFrame *f, const FxSystem *system, const FxModel *model)
{
  for (guint p = 0; p < f->n_probes; p++)
    {
      const FxProbe *probe = fx_model_probe (model, p);
      int l = fx_model_find_link (model, probe->link);
      double *xy = &f->probe_xy[2 * p];

      double *values = &f->probe_values[FX_PROBE_N_VALUES * p];

      /* a validated model (the system's) always has the probe's link */
      if (l < 0)
        xy[0] = xy[1] = NAN;
      else
        {
          fx_system_probe_values (system, (guint) l, probe->s, values);
          xy[0] = values[FX_PROBE_X];
          xy[1] = values[FX_PROBE_Y];
        }
    }
}

static void
system_reactions (FxStepFrame *f, const FxSystem *system)
{
  fx_system_holds (system, f->holds);
  fx_system_reactions (system, f->reaction);
}

FxStepFrame *
fx_step_frame_new (const FxSystem *system, const FxStepReport *report, guint step)
{
  g_return_val_if_fail (system != NULL, NULL);

  const FxModel *model = fx_system_model (system);
  guint n_links = fx_system_n_links (system), n_nodes = 0;

  for (guint l = 0; l < n_links; l++)
    n_nodes += fx_system_link_elements (system, l) + 1;

  FxStepFrame *f = frame_alloc (n_links, n_nodes, model->joints->len, model->probes->len);
  for (guint l = 0; l < n_links; l++)
    f->node_offset[l + 1] = f->node_offset[l] + fx_system_link_elements (system, l) + 1;

  f->t = fx_system_time (system);
  f->step = step;
  if (report != NULL)
    f->report = *report;
  else
    state_report (system, &f->report);

  system_nodes (f, system);
  system_joints (f, model);
  system_probes (f, system, model);
  system_reactions (f, system);
  fx_step_frame_fill_diagram (f, system);
  frame_moment_max (f);
  for (guint l = 0; l < n_links; l++)
    {
      FxFrameGauges g;
      if (!fx_system_link_frame (system, l, &g))
        continue;
      f->link_warning[l] = fx_frame_gauges_warn (&g);
      f->link_gamma[l] = g.gamma;
      f->link_axis[3 * l] = g.x_P;
      f->link_axis[3 * l + 1] = g.y_P;
      f->link_axis[3 * l + 2] = g.theta;
    }
  return f;
}

FxStepFrame *
fx_step_frame_copy (const FxStepFrame *src)
{
  FxStepFrame *f = g_new0 (FxStepFrame, 1);
  gsize nodes = MAX (src->n_nodes, 1u), joints = MAX (src->n_joints, 1u), probes = MAX (src->n_probes, 1u);

  *f = *src;
  f->ref_count = 1;
  f->node_offset = g_memdup2 (src->node_offset, sizeof (guint) * (src->n_links + 1));
  f->x = g_memdup2 (src->x, sizeof (double) * nodes);
  f->y = g_memdup2 (src->y, sizeof (double) * nodes);
  f->theta = g_memdup2 (src->theta, sizeof (double) * nodes);
  f->moment = g_memdup2 (src->moment, sizeof (double) * nodes);
  f->diagram = g_memdup2 (src->diagram, sizeof (double) * 2 * FX_DIAGRAM_N_VALUES * nodes);
  f->joint_xy = g_memdup2 (src->joint_xy, sizeof (double) * 2 * joints);
  f->probe_xy = g_memdup2 (src->probe_xy, sizeof (double) * 2 * probes);
  f->probe_values = g_memdup2 (src->probe_values, sizeof (double) * FX_PROBE_N_VALUES * probes);
  f->holds = g_memdup2 (src->holds, joints);
  f->reaction = g_memdup2 (src->reaction, sizeof (double) * FX_REACTION_N_VALUES * joints);
  f->link_warning = src->link_warning
    ? g_memdup2 (src->link_warning, sizeof (guint8) * MAX (src->n_links, 1u)) : NULL;
  f->link_gamma = src->link_gamma
    ? g_memdup2 (src->link_gamma, sizeof (double) * MAX (src->n_links, 1u)) : NULL;
  f->link_axis = src->link_axis
    ? g_memdup2 (src->link_axis, sizeof (double) * 3 * MAX (src->n_links, 1u)) : NULL;
  return f;
}

gsize
fx_step_frame_bytes (const FxStepFrame *f)
{
  return sizeof *f + sizeof (guint) * (f->n_links + 1)
         + sizeof (double) * (4 + 2 * FX_DIAGRAM_N_VALUES) * (gsize) f->n_nodes
         + sizeof (double) * (2 + FX_PROBE_N_VALUES) * f->n_probes
         + (sizeof (double) * FX_REACTION_N_VALUES + 1) * f->n_joints
         + (sizeof (double) * 3 + 1) * f->n_links;
}

FxStepFrame *
fx_step_frame_ref (FxStepFrame *frame)
{
  g_return_val_if_fail (frame != NULL, NULL);
  g_atomic_int_inc (&frame->ref_count);
  return frame;
}

void
fx_step_frame_unref (FxStepFrame *frame)
{
  if (frame == NULL || !g_atomic_int_dec_and_test (&frame->ref_count))
    return;
  g_free (frame->node_offset);
  g_free (frame->x);
  g_free (frame->y);
  g_free (frame->theta);
  g_free (frame->moment);
  g_free (frame->diagram);
  g_free (frame->link_warning);
  g_free (frame->link_gamma);
  g_free (frame->link_axis);
  g_free (frame->joint_xy);
  g_free (frame->probe_xy);
  g_free (frame->probe_values);
  g_free (frame->holds);
  g_free (frame->reaction);
  g_free (frame);
}

/* ---------------------------------------------------- undeformed model */

/* Nodes of a straight link, as many as a run draws (fx_system_link_elements):
 * k per element of degree k, so that a mode shape or a run's frame fits the
 * drawn model point for point. An unfinished link with no elements still
 * draws, as one element. */
static guint
model_link_nodes (const FxModel *model, GHashTable *index, guint l)
{
  const FxLink *link = fx_model_link (model, l);

  if (lookup_joint (index, link->from) < 0 || lookup_joint (index, link->to) < 0)
    return 0;
  return fx_link_degree (link) * CLAMP (link->elements, 1, FX_MAX_ELEMENTS_PER_LINK) + 1;
}

static void
model_straight_link (FxStepFrame *f, const FxModel *model, GHashTable *index, guint l)
{
  guint first = f->node_offset[l], n = f->node_offset[l + 1] - first;

  if (n == 0)
    return;

  const FxLink *link = fx_model_link (model, l);
  const double *a = fx_model_joint (model, (guint) lookup_joint (index, link->from))->at;
  const double *b = fx_model_joint (model, (guint) lookup_joint (index, link->to))->at;
  double angle = atan2 (b[1] - a[1], b[0] - a[0]);

  for (guint i = 0; i < n; i++)
    {
      double s = (double) i / (n - 1);
      f->x[first + i] = a[0] + s * (b[0] - a[0]);
      f->y[first + i] = a[1] + s * (b[1] - a[1]);
      f->theta[first + i] = angle;
    }
  /* the ends exactly at the joints, whatever the rounding of s */
  f->x[first + n - 1] = b[0];
  f->y[first + n - 1] = b[1];
}

static void
model_probe (FxStepFrame *f, const FxModel *model, GHashTable *index, guint p)
{
  const FxProbe *probe = fx_model_probe (model, p);
  int l = fx_model_find_link (model, probe->link);
  double *xy = &f->probe_xy[2 * p], *values = &f->probe_values[FX_PROBE_N_VALUES * p];

  if (l < 0 || f->node_offset[l + 1] == f->node_offset[l])
    {
      xy[0] = xy[1] = NAN;
      values[FX_PROBE_X] = values[FX_PROBE_Y] = NAN;
      return;
    }

  const FxLink *link = fx_model_link (model, (guint) l);
  const double *a = fx_model_joint (model, (guint) lookup_joint (index, link->from))->at;
  const double *b = fx_model_joint (model, (guint) lookup_joint (index, link->to))->at;
  double s = CLAMP (probe->s, 0.0, 1.0);

  xy[0] = a[0] + s * (b[0] - a[0]);
  xy[1] = a[1] + s * (b[1] - a[1]);
  /* at rest and unstressed */
  values[FX_PROBE_X] = xy[0];
  values[FX_PROBE_Y] = xy[1];
  values[FX_PROBE_ANGLE] = atan2 (b[1] - a[1], b[0] - a[0]);
}

FxStepFrame *
fx_step_frame_new_from_model (const FxModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);

  g_autoptr (GHashTable) index = joint_index (model);
  guint n_links = model->links->len, n_nodes = 0;

  for (guint l = 0; l < n_links; l++)
    n_nodes += model_link_nodes (model, index, l);

  FxStepFrame *f = frame_alloc (n_links, n_nodes, model->joints->len, model->probes->len);
  for (guint l = 0; l < n_links; l++)
    {
      f->node_offset[l + 1] = f->node_offset[l] + model_link_nodes (model, index, l);
      model_straight_link (f, model, index, l);
    }
  for (guint j = 0; j < f->n_joints; j++)
    {
      f->joint_xy[2 * j] = fx_model_joint (model, j)->at[0];
      f->joint_xy[2 * j + 1] = fx_model_joint (model, j)->at[1];
    }
  for (guint p = 0; p < f->n_probes; p++)
    model_probe (f, model, index, p);
  for (guint j = 0; j < f->n_joints; j++)
    f->holds[j] = (guint8) fx_model_joint_holds (model, j);
  return f;
}
