/* fx-system.c: building the mixed finite-element port-Hamiltonian system
 * from a model (links and their segments, the numbering of unknowns,
 * junctions, loads, drags), its accessors and snapshots. The assembly is in
 * fx-assembly.c and the kernels it calls; see docs/architecture.md.

 */
#include "fx-joint-index.h"
#include "fx-cancel.h"
#include "fx-kernel.h"
#include "fx-link-model.h"
#include <glib/gi18n-lib.h>
#include "fx-model-io.h"
#include "fx-memory.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (fx-system-error-quark, fx_system_error)

/* An error about a joint, with the JSON path of the user's joint first (a
 * joint the engine made inside a split link has none). */
static void
set_joint_error (GError **error, FxSystemError code, const FxSystem *sys, const char *joint_id,
                 const char *message)
{
  int index = fx_model_find_joint (sys->model, joint_id);

  if (index >= 0)
    g_set_error (error, FX_SYSTEM_ERROR, code, "joints[%d]: %s", index, message);
  else
    g_set_error_literal (error, FX_SYSTEM_ERROR, code, message);
}


/* ------------------------------------------------------------ building */

/* The parts every link model shares; the model sets up the rest. */
static void
link_init (FxSystem *sys, FxLinkSys *l, const FxLink *ml, const FxLinkAssignment *la, guint k)
{
  const FxSegmentAssignment *as = &la->segment[k];
  const FxModel *model = sys->built;
  const FxJoint *a = fx_model_joint (model, fx_model_find_joint (model, ml->from));
  const FxJoint *b = fx_model_joint (model, fx_model_find_joint (model, ml->to));
  double dx = b->at[0] - a->at[0], dy = b->at[1] - a->at[1];

  l->model = fx_link_model_find (fx_link_kind_to_string (ml->kind));
  l->id = ml->id;
  l->N = ml->elements;
  l->k = fx_link_degree (ml);
  l->n_draw = l->N;  /* the model's setup may draw more points */
  l->L = hypot (dx, dy);
  l->h = l->L / l->N;
  l->rhoA = ml->section.rhoA;
  l->rhoI = ml->section.rhoI;
  l->T = as->T;
  l->R = as->R;
  for (guint side = 0; side < 2; side++)
    {
      gboolean own = fx_link_ends_independent (sys->built, (guint) (l - sys->links));
      l->T_end[side] = own ? la->T_end[side] : l->T;
      l->R_end[side] = own ? la->R_end[side] : l->R;
    }
  l->angle0 = atan2 (dy, dx);
  l->origin[0] = a->at[0];
  l->origin[1] = a->at[1];
  l->model->setup (l, ml);
}

static FxPort
make_port (const FxSystem *sys, guint link, guint side, FxChannel channel)
{
  const FxLinkSys *l = &sys->links[link];
  FxPort p = l->model->port (l, side, channel);

  p.link = link;
  return p;
}

static void
junction_clear (gpointer data)
{
  FxJunction *j = data;
  g_array_unref (j->ports);
  g_array_unref (j->loads);
}

static FxJunction *
junction_new (GArray *arr, guint joint, gboolean ground)
{
  FxJunction j = { joint, ground, g_array_new (FALSE, FALSE, sizeof (FxPort)), -1,
                   g_array_new (FALSE, FALSE, sizeof (FxJointLoad)), -1, 0.0, 0.0, { 0, 0 }, 0,
                   FALSE, { 0, 0 }, FALSE, { 0, 0 }, NULL, -1, { 0, 0 } };
  g_array_append_val (arr, j);
  return &g_array_index (arr, FxJunction, arr->len - 1);
}

static int
junction_member (const FxJunction *j, guint link)
{
  for (guint k = 0; k < j->ports->len; k++)
    if (g_array_index (j->ports, FxPort, k).link == link)
      return (int) k;
  return -1;
}

/* The rotation junction at joint jt (from index `first`) holding link l's end. */
static FxJunction *
rjunction_of (FxSystem *sys, guint first, guint l, guint *port)
{
  for (guint i = first; i < sys->rjunctions->len; i++)
    {
      FxJunction *rj = &g_array_index (sys->rjunctions, FxJunction, i);
      int k = junction_member (rj, l);
      if (k >= 0)
        {
          *port = (guint) k;
          return rj;
        }
    }
  return NULL;
}

/* The rotation junction (from index `first`) holding the partner of link
 * `ml` across the speed motor `m` between links, or -1. */
static int
rjunction_with_partner (const FxSystem *sys, guint first, const FxModel *model,
                        const FxMotor *m, const FxLink *ml)
{
  int partner = fx_model_find_link (model, g_strcmp0 (m->link, ml->id) == 0 ? m->link_b : m->link);
  for (guint i = first; i < sys->rjunctions->len; i++)
    if (junction_member (&g_array_index (sys->rjunctions, FxJunction, i), (guint) partner) >= 0)
      return (int) i;
  return -1;
}

/* Motors and torsional springs at one joint (docs/theory.md §3). */
static gboolean
build_joint_drives (FxSystem *sys, guint jt, guint first_r, GError **error)
{
  const FxModel *model = sys->built;
  const FxJoint *joint = fx_model_joint (model, jt);

  for (guint i = 0; i < fx_model_n_motors (model); i++)
    {
      const FxMotor *mo = fx_model_motor (model, i);
      if (g_strcmp0 (mo->joint, joint->id) != 0)
        continue;
      int la = fx_model_find_link (model, mo->link);
      int lb = mo->link_b ? fx_model_find_link (model, mo->link_b) : -1;
      guint pa = 0, pb = 0;
      FxJunction *ja = la >= 0 ? rjunction_of (sys, first_r, (guint) la, &pa) : NULL;
      FxJunction *jb = lb >= 0 ? rjunction_of (sys, first_r, (guint) lb, &pb) : NULL;
      if (ja == NULL || (mo->link_b && jb == NULL))
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("motors[%u]: its links must end at joint \"%s\""), i, joint->id);
          return FALSE;
        }
      if (mo->type == FX_MOTOR_TORQUE)
        {
          FxJointLoad on_a = { { 0, 0 }, -1, mo->value, &mo->profile };
          FxJointLoad on_b = { { 0, 0 }, -1, -mo->value, &mo->profile };
          g_array_append_val (ja->loads, on_a);
          if (jb)
            g_array_append_val (jb->loads, on_b);
          continue;
        }
      if (mo->link_b)
        {
          /* between links: both ends were put in one junction, driven apart */
          if (ja != jb || ja->ground || ja->inertia_dof >= 0)
            {
              g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                           _("motors[%u]: a speed motor between links \"%s\" and \"%s\" needs "
                           "them to turn on their own at pin joint \"%s\" (no clamp, no "
                           "rotary inertia there)"), i, mo->link, mo->link_b, joint->id);
              return FALSE;
            }
          continue;
        }
      /* a speed motor against the ground: its junction was built driven */
      g_assert (ja->driven);
    }

  for (guint i = 0; i < fx_model_n_springs (model); i++)
    {
      const FxSpring *sp = fx_model_spring (model, i);
      if (g_strcmp0 (sp->joint, joint->id) != 0)
        continue;
      int la = fx_model_find_link (model, sp->link);
      int lb = sp->link_b ? fx_model_find_link (model, sp->link_b) : -1;
      guint pa = 0, pb = 0;
      FxJunction *ja = la >= 0 ? rjunction_of (sys, first_r, (guint) la, &pa) : NULL;
      FxJunction *jb = lb >= 0 ? rjunction_of (sys, first_r, (guint) lb, &pb) : NULL;
      if (ja == NULL || (sp->link_b && jb == NULL) || ja == jb)
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("springs[%u]: it needs the ends of two links turning on their own at "
                       "pin joint \"%s\" (or one, and a pin support)"), i, joint->id);
          return FALSE;
        }
      const FxPort *qa = &g_array_index (ja->ports, FxPort, pa);
      const FxPort *qb = jb ? &g_array_index (jb->ports, FxPort, pb) : NULL;
      if (sys->links[qa->link].R_end[qa->side] != FX_CAUSAL_F
          || (qb && sys->links[qb->link].R_end[qb->side] != FX_CAUSAL_F))
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("springs[%u]: the links at joint \"%s\" must take moments there "
                       "(free-free or pinned formulation)"), i, joint->id);
          return FALSE;
        }
      FxSpringSys ss = { (int) qa->dof, qb ? (int) qb->dof : -1, sp->stiffness, sp->damping,
                         sp->rest_angle, 0.0 };
      g_array_append_val (sys->springs, ss);
    }
  return TRUE;
}

/* Build the junctions of both channels at one joint, with its loads. */
static gboolean
build_joint (FxSystem *sys, guint jt, const FxJointIndex *x, GError **error)
{
  const FxModel *model = sys->built;
  const FxJoint *joint = fx_model_joint (model, jt);
  gboolean tground = fx_support_grounds (joint->support, FX_CHANNEL_TRANSLATION);
  gboolean rground = fx_support_grounds (joint->support, FX_CHANNEL_ROTATION);
  gboolean split_pin = !rground && joint->kind == FX_JOINT_PIN;
  guint first_r = sys->rjunctions->len;
  FxJunction *tj;
  int shared_r = -1;

  guint n_members = x->member_start[jt + 1] - x->member_start[jt];
  gboolean rinertia = !rground && joint->inertia > 0.0;
  if (rinertia && joint->kind == FX_JOINT_PIN && n_members > 1)
    {
      g_autofree char *message =
        g_strdup_printf (_("joint \"%s\": a rotary inertia at a pin between several links "
                           "would not know which link it turns with; make the joint a weld"),
                         joint->id);
      set_joint_error (error, FX_SYSTEM_ERROR_UNSUPPORTED, sys, joint->id, message);
      return FALSE;
    }
  /* a welded attachment of a rigid body turns with it */
  int body = x->body_of_joint[jt];
  gboolean rbody = body >= 0 && joint->kind == FX_JOINT_WELD;
  if (rinertia || rbody)
    split_pin = FALSE;

  tj = junction_new (sys->tjunctions, jt, tground);
  if (body >= 0)
    {
      const FxBodySys *b = &g_array_index (sys->bodies, FxBodySys, body);
      for (guint k = x->load_start[jt]; k < x->load_start[jt + 1]; k++)
        {
          guint i = x->load[k];
          const FxLoad *ld = fx_model_load (model, i);
          if (ld->frame == FX_FRAME_MATERIAL)
            {
              g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                           _("loads[%u]: a load in a link's frame at joint \"%s\" of body \"%s\" "
                           "is not supported; give it in the spatial frame"), i, joint->id,
                           fx_model_body (model, (guint) body)->id);
              return FALSE;
            }
        }
      tj->body = body;
      tj->rho[0] = joint->at[0] - b->c[0];
      tj->rho[1] = joint->at[1] - b->c[1];
      tj->pos[0] = joint->at[0];
      tj->pos[1] = joint->at[1];
    }
  else if (!tground && joint->slider)
    {
      double n = hypot (joint->slider_direction[0], joint->slider_direction[1]);
      tj->inertia_dof = (int) sys->joint_tdof[jt];
      tj->inertia = joint->slider_mass;
      tj->weight = MAX (joint->slider_mass - joint->regularising_mass, 0.0);
      tj->slider = TRUE;
      tj->direction[0] = joint->slider_direction[0] / n;
      tj->direction[1] = joint->slider_direction[1] / n;
      tj->pos[0] = joint->at[0];
      tj->pos[1] = joint->at[1];
    }
  else if (!tground && joint->mass > 0.0)
    {
      tj->inertia_dof = (int) sys->joint_tdof[jt];
      tj->inertia = joint->mass;
      tj->weight = MAX (joint->mass - joint->regularising_mass, 0.0);
      tj->pos[0] = joint->at[0];
      tj->pos[1] = joint->at[1];
    }
  else if (tground && joint->driven)
    {
      tj->driven = TRUE;
      tj->drive[0] = joint->drive_velocity[0];
      tj->drive[1] = joint->drive_velocity[1];
      tj->drive_profile = &joint->drive_profile;
    }
  for (guint m = x->member_start[jt]; m < x->member_start[jt + 1]; m++)
    {
      guint l = x->member_link[m], side = x->member_side[m];
      const FxLink *ml = fx_model_link (model, l);
      FxPort tp = make_port (sys, l, side, FX_CHANNEL_TRANSLATION);
      FxPort rp = make_port (sys, l, side, FX_CHANNEL_ROTATION);
      tj = &g_array_index (sys->tjunctions, FxJunction, sys->tjunctions->len - 1);
      g_array_append_val (tj->ports, tp);
      if (sys->links[l].T_end[side] == FX_CAUSAL_F)
        tj->f = tj->ports->len - 1;

      FxJunction *rj;
      const FxMotor *between = split_pin ? fx_speed_motor_between (model, joint->id, ml->id) : NULL;
      int partner = between ? rjunction_with_partner (sys, first_r, model, between, ml) : -1;
      if (partner >= 0)
        rj = &g_array_index (sys->rjunctions, FxJunction, partner);
      else if (split_pin || shared_r < 0)
        {
          const FxMotor *speed = split_pin ? fx_speed_motor_to_ground (model, joint->id, ml->id) : NULL;
          rj = junction_new (sys->rjunctions, jt, rground || speed != NULL);
          shared_r = sys->rjunctions->len - 1;
          if (speed)
            {
              rj->driven = TRUE;
              rj->drive[0] = speed->value;
              rj->drive_profile = &speed->profile;
            }
          if (rinertia)
            {
              rj->inertia_dof = (int) sys->joint_rdof[jt];
              rj->inertia = joint->inertia;
            }
          else if (rbody)
            {
              /* the body's omega; its inertia is in body_kernel */
              rj->inertia_dof = (int) g_array_index (sys->bodies, FxBodySys, body).dof + 2;
              rj->inertia = 0.0;
            }
        }
      else
        rj = &g_array_index (sys->rjunctions, FxJunction, shared_r);
      if (between && g_strcmp0 (between->link, ml->id) == 0)
        {
          rp.drive = between->value;
          rp.drive_profile = &between->profile;
        }
      g_array_append_val (rj->ports, rp);
      if (sys->links[l].R_end[side] == FX_CAUSAL_F)
        rj->f = rj->ports->len - 1;
    }

  /* R = V ends take Omega from their rotation junction's F member */
  for (guint i = first_r; i < sys->rjunctions->len; i++)
    {
      FxJunction *rj = &g_array_index (sys->rjunctions, FxJunction, i);
      for (guint k = 0; k < rj->ports->len; k++)
        {
          FxPort *p = &g_array_index (rj->ports, FxPort, k);
          FxLinkSys *l = &sys->links[p->link];
          if (l->R_end[p->side] != FX_CAUSAL_V || rj->ground)
            continue;
          if (rj->inertia_dof >= 0)
            {
              l->omega_source[p->side] = rj->inertia_dof;
              l->omega_sign[p->side] = 1.0;
              continue;
            }
          const FxPort *pf = &g_array_index (rj->ports, FxPort, rj->f);
          l->omega_source[p->side] = (int) pf->dof;
          l->omega_sign[p->side] = pf->sigma;
        }
    }

  /* Loads at this joint */
  tj = &g_array_index (sys->tjunctions, FxJunction, sys->tjunctions->len - 1);
  for (guint k = x->load_start[jt]; k < x->load_start[jt + 1]; k++)
    {
      guint i = x->load[k];
      const FxLoad *ld = fx_model_load (model, i);
      FxJointLoad jl = { { ld->force[0], ld->force[1] }, -1, ld->moment, &ld->profile };
      if (ld->frame == FX_FRAME_MATERIAL)
        {
          int l = fx_model_find_link (model, ld->frame_link);
          jl.frame_member = l >= 0 ? junction_member (tj, (guint) l) : -1;
          if (jl.frame_member < 0)
            {
              g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                           _("loads[%u].frame_link: link \"%s\" does not end at joint \"%s\""),
                           i, ld->frame_link ? ld->frame_link : "", joint->id);
              return FALSE;
            }
        }
      if (!tj->ground && (ld->force[0] != 0.0 || ld->force[1] != 0.0))
        g_array_append_val (tj->loads, jl);
      /* a moment at a pin goes to the first member end there */
      if (first_r < sys->rjunctions->len && ld->moment != 0.0)
        {
          FxJunction *rj = &g_array_index (sys->rjunctions, FxJunction, first_r);
          if (!rj->ground)
            g_array_append_val (rj->loads, jl);
        }
    }
  if (!build_joint_drives (sys, jt, first_r, error))
    return FALSE;
  return TRUE;
}

static void
build_point_loads (FxSystem *sys)
{
  const FxModel *model = sys->built;

  for (guint i = 0; i < model->loads->len; i++)
    {
      const FxLoad *ld = fx_model_load (model, i);
      if (ld->link == NULL)
        continue;
      int l = fx_model_find_link (model, ld->link);
      if (l < 0)
        continue;
      FxPointLoad pl = { (guint) l, ld->s, { { 0 } }, 0, { ld->force[0], ld->force[1] },
                         ld->frame == FX_FRAME_MATERIAL, ld->moment, &ld->profile };
      pl.n_at = point_samples (&sys->links[l], ld->s, pl.at);
      g_array_append_val (sys->point_loads, pl);
    }
}

static gboolean
check_single_link_limits (FxSystem *sys, GError **error)
{
  for (guint i = 0; i < sys->tjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->tjunctions, FxJunction, i);
      if (!j->ground && j->f < 0 && j->inertia_dof < 0 && j->body < 0)
        {
          const char *id = fx_model_joint (sys->built, j->joint)->id;
          g_autofree char *message =
            g_strdup_printf (_("joint \"%s\": no force-causal link takes its force"), id);
          set_joint_error (error, FX_SYSTEM_ERROR_CAUSALITY, sys, id, message);
          return FALSE;
        }
    }
  for (guint i = 0; i < sys->rjunctions->len; i++)
    {
      const FxJunction *j = &g_array_index (sys->rjunctions, FxJunction, i);
      if (!j->ground && j->f < 0 && j->inertia_dof < 0)
        {
          const char *id = fx_model_joint (sys->built, j->joint)->id;
          g_autofree char *message =
            g_strdup_printf (_("joint \"%s\": no moment-causal link takes its moment"), id);
          set_joint_error (error, FX_SYSTEM_ERROR_CAUSALITY, sys, id, message);
          return FALSE;
        }
    }
  return TRUE;
}

/* A floating-frame link's attached frame needs its `from` end held in
 * both channels (docs/theory.md). */
static gboolean
check_floating_links (FxSystem *sys, GError **error)
{
  const FxModel *model = sys->model;

  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *ml = fx_model_link (model, l);
      const FxLinkAssignment *la = &sys->assignment->links[l];
      if (ml->kind != FX_LINK_FLOATING_FRAME)
        continue;
      if (ml->frame == FX_LINK_FRAME_ATTACHED
          && (la->T_end[0] != FX_CAUSAL_V || la->R_end[0] != FX_CAUSAL_V))
        {
          g_set_error (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_UNSUPPORTED,
                       _("links[%u].frame: an \"attached\" frame needs the link's `from` end "
                         "(joint \"%s\") held in translation and rotation, as by a clamp or "
                         "a driven hub; use \"mean-axis\""), l, ml->from);
          return FALSE;
        }
    }
  return TRUE;
}

/* Bytes a system and its integrator take besides the Newton matrix (which
 * books its pattern, analysis and factors itself, fx-matrix.c): per
 * element and degree (a degree-k element carries k times the unknowns),
 * the system's arrays, plus per integration stage the integrator's and the
 * assembly's vectors. Measured as the peak RSS of `run` less the matrix's
 * bytes, on one link of 10^5 elements (600,000 unknowns): 69 MB with the
 * midpoint rule, 113 MB with two Gauss stages; a degree 2 and 3 link of as
 * many unknowns, a mean-axis link and a truss of 1,331 links took no more.
 * (Until issue 31 the constant was 1500 per element times k^2, measured
 * with the pattern's unbooked recording inside: twice too much for the
 * midpoint rule, and it refused models that fit.) Per link and per joint:
 * the causality search's and the junctions' arrays and hash tables (a
 * 5,000-spoke star, 20,000 stars of four welded links). */
#define SYSTEM_BYTES_PER_ELEMENT 400u
#define SYSTEM_BYTES_PER_ELEMENT_STAGE 600u
#define SYSTEM_BYTES_PER_PART 600u

guint64
fx_system_estimate_bytes (const FxModel *model)
{
  guint64 elements = 0;

  for (guint l = 0; l < model->links->len; l++)
    {
      guint64 k = MAX (fx_model_link (model, l)->degree, 1u);
      elements += (guint64) fx_model_link (model, l)->elements * k;
    }
  guint64 stages = model->integrator == FX_INTEGRATOR_GAUSS4 ? FX_GAUSS_STAGES : 1;
  return elements * (SYSTEM_BYTES_PER_ELEMENT + stages * SYSTEM_BYTES_PER_ELEMENT_STAGE)
         + (guint64) (model->links->len + model->joints->len) * SYSTEM_BYTES_PER_PART;
}

FxSystem *
fx_system_new (const FxModel *model, GError **error)
{
  g_autoptr (FxSystem) sys = g_new0 (FxSystem, 1);

  if (!fx_model_validate (model, error))
    return NULL;
  /* booked before anything grows, so that a model far beyond the limit is
   * refused at once (a 10^6-element link reached 2.16 GB under 1G when only
   * the Newton matrix counted, issue 25) */
  guint64 need = fx_system_estimate_bytes (model);
  if (!fx_memory_reserve (need, _("the model's elements"),
                          _("use fewer elements per link or fewer links"), error))
    return NULL;
  sys->reserved = need;

  sys->model = fx_model_copy (model);
  sys->n_user_links = model->links->len;
  sys->tjunctions = g_array_new (FALSE, FALSE, sizeof (FxJunction));
  sys->rjunctions = g_array_new (FALSE, FALSE, sizeof (FxJunction));
  g_array_set_clear_func (sys->tjunctions, junction_clear);
  g_array_set_clear_func (sys->rjunctions, junction_clear);
  sys->point_loads = g_array_new (FALSE, FALSE, sizeof (FxPointLoad));
  sys->springs = g_array_new (FALSE, FALSE, sizeof (FxSpringSys));
  sys->gravity[0] = model->gravity[0];
  sys->gravity[1] = model->gravity[1];

  /* a big model's build takes seconds: it stops when asked (fx-cancel.h)
   * between its phases and inside its long loops */
  if (fx_cancel_check (error))
    return NULL;
  sys->assignment = fx_assignment_compute (sys->model);
  if (fx_cancel_check (error))
    return NULL;
  if (!fx_assignment_ok (sys->assignment))
    {
      /* every line starts with a JSON path, as the loader's messages do */
      g_autoptr (GString) msg = g_string_new ("(root): ");
      g_string_append (msg, _("no valid formulation for this mechanism:"));
      for (guint i = 0; i < sys->assignment->conflicts->len; i++)
        g_string_append_printf (msg, "\n  %s", (char *) g_ptr_array_index (sys->assignment->conflicts, i));
      g_set_error_literal (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY, msg->str);
      return NULL;
    }

  /* the engine builds the expanded model: split links become two segments */
  if (!check_floating_links (sys, error))
    return NULL;
  sys->built = fx_assignment_expand (sys->assignment, sys->model);
  /* noise: sample 0 of the model's seed until fx_system_set_noise says otherwise */
  sys->noise = fx_noise_new_for_model (sys->built, model->seed, 0);
  sys->noise_pieces = 1;
  sys->n_model_links = sys->model->links->len;
  sys->seg_first = g_new0 (guint, MAX (sys->n_model_links, 1));
  sys->seg_count = g_new0 (guint, MAX (sys->n_model_links, 1));
  sys->n_links = sys->built->links->len;
  sys->links = g_new0 (FxLinkSys, MAX (sys->n_links, 1));
  /* inertia unknowns are numbered right after the first segment that ends
   * at their joint, so the band stays narrow */
  guint n_joints = sys->built->joints->len;
  g_autofree int *owner = g_new (int, MAX (n_joints, 1));
  sys->joint_tdof = g_new0 (guint, MAX (n_joints, 1));
  sys->joint_rdof = g_new0 (guint, MAX (n_joints, 1));
  FxJointIndex index = { 0 };
  g_autoptr (GHashTable) ids = fx_joint_ids (sys->built);
  fx_joint_index_members (&index, sys->built, ids, owner);
  sys->bodies = g_array_new (FALSE, TRUE, sizeof (FxBodySys));
  g_autofree int *body_owner = g_new (int, MAX (fx_model_n_bodies (sys->built), 1));
  for (guint b = 0; b < fx_model_n_bodies (sys->built); b++)
    {
      const FxBody *mb = fx_model_body (sys->built, b);
      FxBodySys bs = { 0, mb->mass, mb->inertia, { 0, 0 }, 0.0 };
      fx_body_center (sys->built, mb, bs.c);
      g_array_append_val (sys->bodies, bs);
      body_owner[b] = -1;
      for (guint k = 0; k < mb->n_joints; k++)
        {
          guint jt = fx_joint_key (ids, mb->joints[k]);
          if (jt != G_MAXUINT && owner[jt] >= 0 && (body_owner[b] < 0 || owner[jt] < body_owner[b]))
            body_owner[b] = owner[jt];
        }
    }
  fx_joint_index_clear (&index);
  fx_joint_index_build (&index, sys->built, owner, body_owner);
  guint offset = 0, seg = 0;
  for (guint l = 0; l < sys->n_model_links; l++)
    {
      const FxLinkAssignment *la = &sys->assignment->links[l];
      sys->seg_first[l] = seg;
      sys->seg_count[l] = la->n_segments;
      for (guint k = 0; k < la->n_segments; k++, seg++)
        {
          FxLinkSys *ls = &sys->links[seg];
          link_init (sys, ls, fx_model_link (sys->built, seg), la, k);
          ls->model_index = l;
          ls->offset = offset;
          offset += ls->n_unknowns;
          for (guint o = index.owned_start[seg]; o < index.owned_start[seg + 1]; o++)
            {
              guint jt = index.owned[o];
              const FxJoint *joint = fx_model_joint (sys->built, jt);
              if (joint->slider && joint->support == FX_SUPPORT_NONE)
                {
                  sys->joint_tdof[jt] = offset;
                  offset += 1;
                }
              else if (joint->mass > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_TRANSLATION))
                {
                  sys->joint_tdof[jt] = offset;
                  offset += 2;
                }
              if (joint->inertia > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_ROTATION))
                {
                  sys->joint_rdof[jt] = offset;
                  offset += 1;
                }
            }
          /* a body's unknowns follow the first segment at any of its joints */
          for (guint o = index.body_start[seg]; o < index.body_start[seg + 1]; o++)
            {
              g_array_index (sys->bodies, FxBodySys, index.body[o]).dof = offset;
              offset += 3;
            }
        }
    }
  /* a lumped mass no link reaches still falls: give it unknowns too */
  for (guint jt = 0; jt < n_joints; jt++)
    {
      const FxJoint *joint = fx_model_joint (sys->built, jt);
      if (owner[jt] >= 0 || index.body_of_joint[jt] >= 0)
        continue;
      if (joint->slider && joint->support == FX_SUPPORT_NONE)
        sys->joint_tdof[jt] = offset, offset += 1;
      else if (joint->mass > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_TRANSLATION))
        sys->joint_tdof[jt] = offset, offset += 2;
      if (joint->inertia > 0.0 && !fx_support_grounds (joint->support, FX_CHANNEL_ROTATION))
        sys->joint_rdof[jt] = offset, offset += 1;
    }
  /* a body no link reaches still moves (ballistically) */
  for (guint b = 0; b < sys->bodies->len; b++)
    if (body_owner[b] < 0)
      {
        g_array_index (sys->bodies, FxBodySys, b).dof = offset;
        offset += 3;
      }
  fx_drags_build (sys, &offset);
  sys->n = offset;
  sys->x = g_new0 (double, MAX (sys->n, 1));
  sys->x_mid = g_new0 (double, MAX (sys->n, 1));

  for (guint jt = 0; jt < sys->built->joints->len; jt++)
    if (fx_cancel_check (error) || !build_joint (sys, jt, &index, error))
      {
        fx_joint_index_clear (&index);
        return NULL;
      }
  fx_joint_index_clear (&index);
  if (!check_single_link_limits (sys, error))
    return NULL;
  build_point_loads (sys);
  if (fx_cancel_check (error))
    return NULL;

  for (guint l = 0; l < sys->n_links; l++)
    sys->links[l].model->initial_motion (&sys->links[l], fx_model_link (sys->built, l), sys->x);
  fx_drags_start (sys);

  return g_steal_pointer (&sys);
}

void
fx_system_free (FxSystem *sys)
{
  if (sys == NULL)
    return;
  fx_memory_release (sys->reserved);
  for (guint l = 0; l < sys->n_links && sys->links; l++)
    {
      if (sys->links[l].model && sys->links[l].model->clear)
        sys->links[l].model->clear (&sys->links[l]);
      g_free (sys->links[l].theta);
      g_free (sys->links[l].r);
    }
  g_free (sys->links);
  if (sys->tjunctions)
    g_array_unref (sys->tjunctions);
  if (sys->rjunctions)
    g_array_unref (sys->rjunctions);
  if (sys->point_loads)
    g_array_unref (sys->point_loads);
  if (sys->springs)
    g_array_unref (sys->springs);
  if (sys->bodies)
    g_array_unref (sys->bodies);
  fx_drags_free (sys);
  fx_assignment_free (sys->assignment);
  if (sys->model)
    fx_model_free (sys->model);
  if (sys->built)
    fx_model_free (sys->built);
  fx_noise_free (sys->noise);
  g_free (sys->seg_first);
  g_free (sys->seg_count);
  g_free (sys->joint_tdof);
  g_free (sys->joint_rdof);
  g_free (sys->x);
  g_free (sys->x_mid);
  g_free (sys->reaction_sum);
  g_free (sys->step_sum);
  g_free (sys);
}

/* ------------------------------------------------------------ accessors */

const FxModel *fx_system_model (const FxSystem *s) { return s->model; }
const FxAssignment *fx_system_assignment (const FxSystem *s) { return s->assignment; }
guint fx_system_n_unknowns (const FxSystem *s) { return s->n; }
double fx_system_time (const FxSystem *s) { return s->t; }
double *fx_system_state (FxSystem *s) { return s->x; }
guint fx_system_n_links (const FxSystem *s) { return s->n_user_links; }
FxCausality fx_system_link_T (const FxSystem *s, guint l) { return s->links[s->seg_first[l]].T; }
FxCausality fx_system_link_R (const FxSystem *s, guint l) { return s->links[s->seg_first[l]].R; }

guint
fx_system_blocks (const FxSystem *sys, guint *block_of, guint **kind_out, double **length_out)
{
  GArray *kind = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *length = g_array_new (FALSE, FALSE, sizeof (double));
  guint nb = 0;

  for (guint li = 0; li < sys->n_links; li++)
    {
      const FxLinkSys *l = &sys->links[li];
      nb += l->model->blocks (l, block_of, nb, kind, length);
    }
  /* inertias: one block each, a velocity or an angular velocity */
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      {
        const FxJunction *j = &g_array_index (arrs[c], FxJunction, i);
        if (j->inertia_dof < 0)
          continue;
        block_of[j->inertia_dof] = nb;
        if (c == 0 && !j->slider)
          block_of[j->inertia_dof + 1] = nb;
        guint k = c == 0 ? 0 : 1;
        double L = sys->n_links ? sys->links[0].L : 1.0;
        g_array_append_val (kind, k);
        g_array_append_val (length, L);
        nb++;
      }
  /* bodies: v_c one velocity block, omega one angular-velocity block; the
   * body's size makes omega comparable to velocities */
  for (guint b = 0; b < sys->bodies->len; b++)
    {
      const FxBodySys *bs = &g_array_index (sys->bodies, FxBodySys, b);
      double L = bs->m > 0 && bs->I > 0 ? sqrt (bs->I / bs->m) : (sys->n_links ? sys->links[0].L : 1.0);
      for (guint k = 0; k < 2; k++)
        {
          block_of[bs->dof] = nb;
          if (k == 0)
            block_of[bs->dof + 1] = nb;
          else
            block_of[bs->dof + 2] = nb;
          g_array_append_val (kind, k);
          g_array_append_val (length, L);
          nb++;
        }
    }
  /* drags: the elongation, a length (kind 4) */
  for (guint i = 0; i < sys->drags->len; i++)
    {
      const FxDragSys *d = &g_array_index (sys->drags, FxDragSys, i);
      guint k = 4;
      double L = sys->links[d->seg].L;
      block_of[d->dof] = block_of[d->dof + 1] = nb++;
      g_array_append_val (kind, k);
      g_array_append_val (length, L);
    }
  *kind_out = (guint *) g_array_free (kind, FALSE);
  *length_out = (double *) g_array_free (length, FALSE);
  return nb;
}

/* ------------------------------------------------------------ snapshots */

struct _FxSystemSnapshot {
  guint n_links;
  GArray *junction_pos;  /* double: pos[0], pos[1] per junction, both channels */
  GArray *spring_phi;    /* double per spring */
  GArray *bodies;        /* FxBodySys */
  double t;
  double *x;
  double **theta, **r;
  double *theta_end;  /* 2 per link */
};

FxSystemSnapshot *
fx_system_snapshot (const FxSystem *sys)
{
  FxSystemSnapshot *s = g_new0 (FxSystemSnapshot, 1);

  s->n_links = sys->n_links;
  s->junction_pos = g_array_new (FALSE, FALSE, sizeof (double));
  s->spring_phi = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < sys->springs->len; i++)
    g_array_append_val (s->spring_phi, g_array_index (sys->springs, FxSpringSys, i).phi);
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++)
      g_array_append_vals (s->junction_pos, g_array_index (arrs[c], FxJunction, i).pos, 2);
  s->bodies = g_array_copy (sys->bodies);
  s->t = sys->t;
  s->x = g_memdup2 (sys->x, sizeof (double) * MAX (sys->n, 1));
  s->theta = g_new0 (double *, MAX (sys->n_links, 1));
  s->r = g_new0 (double *, MAX (sys->n_links, 1));
  s->theta_end = g_new0 (double, 2 * MAX (sys->n_links, 1));
  for (guint l = 0; l < sys->n_links; l++)
    {
      const FxLinkSys *ls = &sys->links[l];
      s->theta[l] = g_memdup2 (ls->theta, sizeof (double) * ls->n_theta);
      s->r[l] = g_memdup2 (ls->r, sizeof (double) * 2 * ls->n_r);
      s->theta_end[2 * l] = ls->theta_end[0];
      s->theta_end[2 * l + 1] = ls->theta_end[1];
    }
  return s;
}

void
fx_system_restore (FxSystem *sys, const FxSystemSnapshot *s)
{
  sys->t = s->t;
  memcpy (sys->x, s->x, sizeof (double) * sys->n);
  for (guint i = 0; i < sys->bodies->len; i++)
    g_array_index (sys->bodies, FxBodySys, i) = g_array_index (s->bodies, FxBodySys, i);
  for (guint i = 0; i < sys->springs->len; i++)
    g_array_index (sys->springs, FxSpringSys, i).phi = g_array_index (s->spring_phi, double, i);
  GArray *arrs[2] = { sys->tjunctions, sys->rjunctions };
  guint q = 0;
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < arrs[c]->len; i++, q += 2)
      memcpy (g_array_index (arrs[c], FxJunction, i).pos, &g_array_index (s->junction_pos, double, q),
              2 * sizeof (double));
  for (guint l = 0; l < sys->n_links; l++)
    {
      FxLinkSys *ls = &sys->links[l];
      memcpy (ls->theta, s->theta[l], sizeof (double) * ls->n_theta);
      memcpy (ls->r, s->r[l], sizeof (double) * 2 * ls->n_r);
      ls->theta_end[0] = s->theta_end[2 * l];
      ls->theta_end[1] = s->theta_end[2 * l + 1];
    }
}

void
fx_system_snapshot_free (FxSystemSnapshot *s)
{
  if (s == NULL)
    return;
  for (guint l = 0; l < s->n_links; l++)
    {
      g_free (s->theta[l]);
      g_free (s->r[l]);
    }
  g_array_unref (s->junction_pos);
  g_array_unref (s->spring_phi);
  g_array_unref (s->bodies);
  g_free (s->x);
  g_free (s->theta_end);
  g_free (s->theta);
  g_free (s->r);
  g_free (s);
}

