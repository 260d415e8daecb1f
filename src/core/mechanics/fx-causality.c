/* fx-causality.c: causality assignment by constraint propagation and search.
 *
 * Per channel, each link carries one unknown bit (F or V). Junction rules:
 *   ground junction        : every member V
 *   free junction          : exactly one member F
 * Propagation settles most mechanisms outright (supports force V, lone free
 * ends force F, one F member forces its neighbours V). What is left (closed
 * loops of free junctions) is a perfect-matching choice that a small
 * depth-first search with propagation settles.
 */
#include "fx-causality-private.h"
#include <glib/gi18n-lib.h>

#include <string.h>



gboolean
fx_support_grounds (FxSupport support, FxChannel channel)
{
  if (channel == FX_CHANNEL_TRANSLATION)
    return support == FX_SUPPORT_PIN || support == FX_SUPPORT_CLAMP;
  return support == FX_SUPPORT_CLAMP || support == FX_SUPPORT_GUIDED;
}

FxFormulation
fx_formulation_from_causality (FxCausality T, FxCausality R)
{
  if (T == FX_CAUSAL_F)
    return R == FX_CAUSAL_F ? FX_FORMULATION_FREE_FREE : FX_FORMULATION_GUIDED;
  return R == FX_CAUSAL_F ? FX_FORMULATION_PINNED : FX_FORMULATION_CLAMPED_CLAMPED;
}

void
fx_formulation_causality (FxFormulation f, FxCausality *T, FxCausality *R)
{
  switch (f)
    {
    case FX_FORMULATION_CLAMPED_CLAMPED: *T = FX_CAUSAL_V; *R = FX_CAUSAL_V; break;
    case FX_FORMULATION_PINNED:          *T = FX_CAUSAL_V; *R = FX_CAUSAL_F; break;
    case FX_FORMULATION_GUIDED:          *T = FX_CAUSAL_F; *R = FX_CAUSAL_V; break;
    case FX_FORMULATION_FREE_FREE:
    case FX_FORMULATION_AUTO:
    default:                             *T = FX_CAUSAL_F; *R = FX_CAUSAL_F; break;
    }
}

static void
junction_add (GArray *junctions, int joint, gboolean ground)
{
  Junction j = { joint, ground, g_array_new (FALSE, FALSE, sizeof (guint)),
                 g_array_new (FALSE, FALSE, sizeof (guint)) };
  g_array_append_val (junctions, j);
}

static void
junction_add_member (Junction *j, guint link, guint side)
{
  g_array_append_val (j->members, link);
  g_array_append_val (j->sides, side);
}

/* At a pin, the junction (from index `first`) already made for the partner
 * of `link` across a speed motor between links, or -1. */
static int
motor_partner_junction (const FxModel *model, GArray *junctions, guint first,
                        const FxJoint *joint, const FxLink *link)
{
  const FxMotor *m = fx_speed_motor_between (model, joint->id, link->id);
  if (m == NULL)
    return -1;
  int partner = fx_model_find_link (model, g_strcmp0 (m->link, link->id) == 0 ? m->link_b : m->link);
  for (guint i = first; i < junctions->len; i++)
    {
      const Junction *j = &g_array_index (junctions, Junction, i);
      for (guint k = 0; k < j->members->len; k++)
        if ((int) g_array_index (j->members, guint, k) == partner)
          return (int) i;
    }
  return -1;
}

/* The junctions of one channel: translation has one per joint; rotation has
 * one per welded (or single-member) joint, one per member end at a pin (two
 * ends joined by a speed motor share one). */
GArray *
cx_build_junctions (const FxModel *model, FxChannel channel)
{
  GArray *junctions = g_array_new (FALSE, FALSE, sizeof (Junction));
  /* the link ends at each joint, in link order: one pass over the links,
   * not one per joint (a hub of a thousand links is searched many times
   * while splits are tried) */
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree guint *count = g_new0 (guint, model->joints->len + 1);
  g_autofree guint *ends = g_new (guint, 2 * MAX (model->links->len, 1));
  for (guint jt = 0; jt < model->joints->len; jt++)
    g_hash_table_insert (index, fx_model_joint (model, jt)->id, GUINT_TO_POINTER (jt + 1));
  for (guint l = 0; l < model->links->len; l++)
    for (guint side = 0; side < 2; side++)
      {
        const FxLink *link = fx_model_link (model, l);
        guint jt1 = GPOINTER_TO_UINT (g_hash_table_lookup (index, side == 0 ? link->from : link->to));
        if (jt1 > 0)
          count[jt1]++;
      }
  for (guint jt = 0; jt < model->joints->len; jt++)
    count[jt + 1] += count[jt];
  g_autofree guint *fill = g_memdup2 (count, sizeof (guint) * (model->joints->len + 1));
  for (guint l = 0; l < model->links->len; l++)
    for (guint side = 0; side < 2; side++)
      {
        const FxLink *link = fx_model_link (model, l);
        guint jt1 = GPOINTER_TO_UINT (g_hash_table_lookup (index, side == 0 ? link->from : link->to));
        if (jt1 > 0)
          ends[fill[jt1 - 1]++] = 2 * l + side;
      }

  for (guint jt = 0; jt < model->joints->len; jt++)
    {
      const FxJoint *joint = fx_model_joint (model, jt);
      gboolean ground = fx_joint_is_covered (model, jt, channel);
      gboolean split_pin = channel == FX_CHANNEL_ROTATION && !ground
                           && joint->kind == FX_JOINT_PIN;
      int shared = -1;  /* index of the joint's one junction, once made */
      guint first = junctions->len;

      for (guint e = count[jt]; e < count[jt + 1]; e++)
        {
          guint l = ends[e] / 2, side = ends[e] % 2;
          const FxLink *link = fx_model_link (model, l);
          {
              int partner = split_pin ? motor_partner_junction (model, junctions, first, joint, link) : -1;
              if (partner >= 0)
                {
                  junction_add_member (&g_array_index (junctions, Junction, partner), l, side);
                  continue;
                }
              if (split_pin)
                {
                  junction_add (junctions, jt, fx_speed_motor_to_ground (model, joint->id, link->id) != NULL);
                  junction_add_member (&g_array_index (junctions, Junction, junctions->len - 1), l, side);
                  continue;
                }
              if (shared < 0)
                {
                  junction_add (junctions, jt, ground);
                  shared = junctions->len - 1;
                }
              junction_add_member (&g_array_index (junctions, Junction, shared), l, side);
            }
        }
    }
  return junctions;
}

void
cx_junctions_free (GArray *junctions)
{
  for (guint i = 0; i < junctions->len; i++)
    {
      Junction *j = &g_array_index (junctions, Junction, i);
      g_array_unref (j->members);
      g_array_unref (j->sides);
    }
  g_array_unref (junctions);
}

guint
cx_member (const Junction *j, guint k)
{
  return g_array_index (j->members, guint, k);
}

static void
enqueue (Problem *p, guint junction)
{
  if (junction != NO_JUNCTION && !p->queued[junction])
    {
      p->queued[junction] = TRUE;
      p->queue[p->queue_len++] = junction;
    }
}

/* Set a link's bit, remember it for undo, and look again at its junctions. */
static void
set_bit (Problem *p, guint l, int b)
{
  p->bit[l] = b;
  p->trail[p->trail_len++] = l;
  enqueue (p, p->lj[l][0]);
  enqueue (p, p->lj[l][1]);
}

static void
undo_to (Problem *p, guint mark)
{
  while (p->trail_len > mark)
    p->bit[p->trail[--p->trail_len]] = BIT_UNSET;
}

static void
clear_queue (Problem *p)
{
  while (p->queue_len > 0)
    p->queued[p->queue[--p->queue_len]] = FALSE;
}

/* One junction's rule; FALSE on a contradiction. */
static gboolean
junction_rule (Problem *p, const Junction *j)
{
  guint n = j->members->len, n_f = 0, n_unset = 0, last_unset = 0;

  for (guint k = 0; k < n; k++)
    {
      int b = p->bit[cx_member (j, k)];
      if (b == FX_CAUSAL_F)
        n_f++;
      else if (b == BIT_UNSET)
        {
          n_unset++;
          last_unset = cx_member (j, k);
        }
    }
  if (j->ground)
    {
      if (n_f > 0)
        return FALSE;
      for (guint k = 0; k < n; k++)
        if (p->bit[cx_member (j, k)] == BIT_UNSET)
          set_bit (p, cx_member (j, k), FX_CAUSAL_V);
      return TRUE;
    }
  if (n_f > 1 || (n_f == 0 && n_unset == 0))
    return FALSE;
  if (n_f == 1 && n_unset > 0)
    {
      for (guint k = 0; k < n; k++)
        if (p->bit[cx_member (j, k)] == BIT_UNSET)
          set_bit (p, cx_member (j, k), FX_CAUSAL_V);
    }
  else if (n_f == 0 && n_unset == 1)
    set_bit (p, last_unset, FX_CAUSAL_F);
  return TRUE;
}

/* Apply the junction rules to the queued junctions (and those a new bit
 * touches) until nothing changes: the same fixed point as sweeping every
 * junction, at the cost of what changed. FALSE on a contradiction; the
 * queue is empty on return. */
static gboolean
propagate (Problem *p)
{
  while (p->queue_len > 0)
    {
      guint i = p->queue[--p->queue_len];
      p->queued[i] = FALSE;
      if (!junction_rule (p, &g_array_index (p->junctions, Junction, i)))
        {
          clear_queue (p);
          return FALSE;
        }
    }
  return TRUE;
}

typedef struct {
  guint pick;   /* the link decided at this level        */
  guint mark;   /* the trail's length before the decision */
  int choice;   /* the bit being tried                    */
} Level;

/* Depth-first search over the links in index order, with propagation:
 * each level sets the lowest unset link, F first (a free-free link is the
 * cheapest and most natural), then V. The levels live on a heap stack and
 * undo goes through the trail, so a level costs what it changes (no copy of
 * every bit, no recursion as deep as the model is big). */
static gboolean
search (Problem *p)
{
  guint n_links = p->model->links->len, start = 0;
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Level));

  for (;;)
    {
      gboolean failed = !propagate (p);
      if (!failed)
        {
          guint pick = start;
          while (pick < n_links && p->bit[pick] != BIT_UNSET)
            pick++;
          if (pick == n_links)
            return TRUE;
          if (p->budget == 0)
            {
              p->exhausted = TRUE;
              failed = TRUE;
            }
          else
            {
              p->budget--;
              Level level = { pick, p->trail_len, FX_CAUSAL_F };
              g_array_append_val (stack, level);
              set_bit (p, pick, FX_CAUSAL_F);
              start = pick + 1;
              continue;
            }
        }
      /* back to the deepest level with a choice left */
      for (;;)
        {
          if (stack->len == 0)
            return FALSE;
          Level *top = &g_array_index (stack, Level, stack->len - 1);
          undo_to (p, top->mark);
          if (top->choice == FX_CAUSAL_F)
            {
              top->choice = FX_CAUSAL_V;
              set_bit (p, top->pick, FX_CAUSAL_V);
              start = top->pick + 1;
              break;
            }
          g_array_set_size (stack, stack->len - 1);
        }
    }
}


const FxMotor *
fx_speed_motor_to_ground (const FxModel *model, const char *joint, const char *link)
{
  for (guint i = 0; i < fx_model_n_motors (model); i++)
    {
      const FxMotor *m = fx_model_motor (model, i);
      if (m->type == FX_MOTOR_SPEED && m->link_b == NULL && g_strcmp0 (m->joint, joint) == 0
          && g_strcmp0 (m->link, link) == 0)
        return m;
    }
  return NULL;
}

const FxMotor *
fx_speed_motor_between (const FxModel *model, const char *joint, const char *link)
{
  for (guint i = 0; i < fx_model_n_motors (model); i++)
    {
      const FxMotor *m = fx_model_motor (model, i);
      if (m->type == FX_MOTOR_SPEED && m->link_b != NULL && g_strcmp0 (m->joint, joint) == 0
          && (g_strcmp0 (m->link, link) == 0 || g_strcmp0 (m->link_b, link) == 0))
        return m;
    }
  return NULL;
}

gboolean
fx_joint_is_covered (const FxModel *model, guint joint, FxChannel channel)
{
  const FxJoint *j = fx_model_joint (model, joint);

  if (fx_support_grounds (j->support, channel))
    return TRUE;
  /* a rigid body takes the force at its attachments, and the moment at welded ones */
  if (fx_model_find_body_of_joint (model, j->id) >= 0
      && (channel == FX_CHANNEL_TRANSLATION || j->kind == FX_JOINT_WELD))
    return TRUE;
  if (channel == FX_CHANNEL_TRANSLATION)
    return j->mass > 0.0 || (j->slider && j->slider_mass > 0.0) || j->support == FX_SUPPORT_ROLLER;
  /* a rotary inertia shares one rotation: at a weld, or at a lone link end */
  return j->inertia > 0.0;
}

/* Each link's junction at each side, or NO_JUNCTION. */
guint (*cx_link_junctions (const FxModel *model, GArray *junctions))[2]
{
  guint (*lj)[2] = g_new (JunctionPair, MAX (model->links->len, 1));
  for (guint l = 0; l < model->links->len; l++)
    lj[l][0] = lj[l][1] = NO_JUNCTION;
  for (guint i = 0; i < junctions->len; i++)
    {
      const Junction *j = &g_array_index (junctions, Junction, i);
      for (guint k = 0; k < j->members->len; k++)
        lj[cx_member (j, k)][g_array_index (j->sides, guint, k)] = i;
    }
  return lj;
}

/* Solve one channel by search. On success fills bits (per link); on
 * failure appends explanations to `conflicts` (may be NULL; the plain
 * words to `plain`, may be NULL) and returns FALSE; *exhausted says
 * whether the search gave up before it had proved there is no answer. */
static gboolean
solve_channel (const FxModel *model, FxChannel channel, int *bits, GPtrArray *conflicts,
               GPtrArray *plain, gboolean *exhausted)
{
  guint n = model->links->len;
  Problem p = { 0 };
  gboolean ok;

  p.model = model;
  p.channel = channel;
  p.junctions = cx_build_junctions (model, channel);
  p.bit = g_new (int, MAX (n, 1));
  p.fixed = g_new0 (gboolean, MAX (n, 1));
  p.budget = 20000;
  p.lj = cx_link_junctions (model, p.junctions);
  p.trail = g_new (guint, MAX (n, 1));
  p.queue = g_new (guint, MAX (p.junctions->len, 1));
  p.queued = g_new0 (gboolean, MAX (p.junctions->len, 1));
  p.plain = plain;
  for (guint l = 0; l < n; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      p.bit[l] = BIT_UNSET;
      if (link->formulation != FX_FORMULATION_AUTO)
        {
          FxCausality T, R;
          fx_formulation_causality (link->formulation, &T, &R);
          p.bit[l] = channel == FX_CHANNEL_TRANSLATION ? T : R;
          p.fixed[l] = TRUE;
        }
    }
  for (guint i = 0; i < p.junctions->len; i++)
    enqueue (&p, i);

  ok = search (&p);
  if (exhausted)
    *exhausted = p.exhausted;
  if (ok)
    memcpy (bits, p.bit, sizeof (int) * n);
  else if (conflicts)
    {
      guint before = conflicts->len;
      undo_to (&p, 0);
      cx_explain_fixed_conflicts (&p, conflicts);
      if (conflicts->len == before)
        cx_explain_infeasible (&p, conflicts);
    }

  cx_junctions_free (p.junctions);
  g_free (p.bit);
  g_free (p.fixed);
  g_free (p.lj);
  g_free (p.trail);
  g_free (p.queue);
  g_free (p.queued);
  return ok;
}

/* Both channels of a (possibly expanded) model. */
static gboolean
solve_model_full (const FxModel *model, int *T, int *R, GPtrArray *conflicts, GPtrArray *plain,
                  gboolean *exhausted)
{
  gboolean ex_t = FALSE, ex_r = FALSE;
  gboolean ok_t = solve_channel (model, FX_CHANNEL_TRANSLATION, T, conflicts, plain, &ex_t);
  gboolean ok_r = solve_channel (model, FX_CHANNEL_ROTATION, R, conflicts, plain, &ex_r);
  if (exhausted)
    *exhausted = ex_t || ex_r;
  return ok_t && ok_r;
}

static gboolean
solve_model (const FxModel *model, int *T, int *R, GPtrArray *conflicts)
{
  return solve_model_full (model, T, R, conflicts, NULL, NULL);
}

/* Everything of a link but its identity and mesh. */
static void
link_copy_physics (FxLink *dst, const FxLink *src)
{
  dst->section = src->section;
  dst->formulation = src->formulation;
  dst->rigid = src->rigid;
  dst->initial_velocity[0] = src->initial_velocity[0];
  dst->initial_velocity[1] = src->initial_velocity[1];
  dst->initial_omega = src->initial_omega;
  dst->damping = src->damping;
  dst->rotational_damping = src->rotational_damping;
  dst->kind = src->kind;
  dst->frame = src->frame;
  dst->kelvin_voigt = src->kelvin_voigt;
  dst->degree = src->degree;
  memcpy (dst->ends, src->ends, sizeof dst->ends);
}

static char *
sub_id (const char *id, const char *suffix)
{
  return g_strconcat (id, suffix, NULL);
}

/* The model with the links flagged in `split` cut at their midpoints. */
FxModel *
cx_expand_model (const FxModel *model, const gboolean *split, const FxLinkAssignment *fixed)
{
  FxModel *e = fx_model_copy (model);

  /* rebuild the link array in order, two entries per split link */
  g_array_set_size (e->links, 0);
  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *orig = fx_model_link (model, l);
      if (!split[l])
        {
          FxLink *dst = fx_model_add_link (e, orig->id, orig->from, orig->to, orig->elements);
          link_copy_physics (dst, orig);
          if (fixed)
            dst->formulation = fixed[l].segment[0].formulation;
          continue;
        }
      g_autofree char *mid = sub_id (orig->id, "~mid");
      g_autofree char *ia = sub_id (orig->id, "~a"), *ib = sub_id (orig->id, "~b");
      const FxJoint *a = fx_model_joint (model, fx_model_find_joint (model, orig->from));
      const FxJoint *b = fx_model_joint (model, fx_model_find_joint (model, orig->to));
      FxJoint *jm = fx_model_add_joint (e, mid, 0.5 * (a->at[0] + b->at[0]), 0.5 * (a->at[1] + b->at[1]));
      jm->kind = FX_JOINT_WELD;
      guint n1 = MAX (1, (orig->elements + 1) / 2), n2 = MAX (1, orig->elements - n1);
      for (guint half = 0; half < 2; half++)
        {
          FxLink *dst = fx_model_add_link (e, half ? ib : ia, half ? mid : orig->from,
                                           half ? orig->to : mid, half ? n2 : n1);
          link_copy_physics (dst, orig);
          dst->formulation = fixed ? fixed[l].segment[half].formulation : FX_FORMULATION_AUTO;
          /* the user's end stays at its joint; the weld is the matcher's */
          memset (dst->ends[half ? 0 : 1], 0, sizeof dst->ends[0]);
        }
    }

  /* loads and probes on split links go to the half they fall on */
  for (guint i = 0; i < e->loads->len; i++)
    {
      FxLoad *ld = fx_model_load (e, i);
      int l = ld->link ? fx_model_find_link (model, ld->link) : -1;
      if (l < 0 || !split[l])
        continue;
      gboolean second = ld->s > 0.5;
      char *nid = sub_id (ld->link, second ? "~b" : "~a");
      g_free (ld->link);
      ld->link = nid;
      ld->s = second ? 2.0 * ld->s - 1.0 : 2.0 * ld->s;
    }
  for (guint i = 0; i < e->loads->len; i++)
    {
      FxLoad *ld = fx_model_load (e, i);
      int l = ld->frame_link ? fx_model_find_link (model, ld->frame_link) : -1;
      if (l < 0 || !split[l] || ld->joint == NULL)
        continue;
      const FxLink *orig = fx_model_link (model, l);
      char *nid = sub_id (ld->frame_link, g_strcmp0 (ld->joint, orig->from) == 0 ? "~a" : "~b");
      g_free (ld->frame_link);
      ld->frame_link = nid;
    }
  for (guint i = 0; i < fx_model_n_motors (e) + fx_model_n_springs (e); i++)
    {
      gboolean is_motor = i < fx_model_n_motors (e);
      const char *joint = is_motor ? fx_model_motor (e, i)->joint
                                   : fx_model_spring (e, i - fx_model_n_motors (e))->joint;
      char **ids[2] = { is_motor ? &fx_model_motor (e, i)->link : &fx_model_spring (e, i - fx_model_n_motors (e))->link,
                        is_motor ? &fx_model_motor (e, i)->link_b : &fx_model_spring (e, i - fx_model_n_motors (e))->link_b };
      for (guint k = 0; k < 2; k++)
        {
          int l = *ids[k] ? fx_model_find_link (model, *ids[k]) : -1;
          if (l < 0 || !split[l])
            continue;
          const FxLink *orig = fx_model_link (model, l);
          char *nid = sub_id (*ids[k], g_strcmp0 (joint, orig->from) == 0 ? "~a" : "~b");
          g_free (*ids[k]);
          *ids[k] = nid;
        }
    }
  for (guint i = 0; i < e->probes->len; i++)
    {
      FxProbe *pr = fx_model_probe (e, i);
      int l = fx_model_find_link (model, pr->link);
      if (l < 0 || !split[l])
        continue;
      gboolean second = pr->s > 0.5;
      char *nid = sub_id (pr->link, second ? "~b" : "~a");
      g_free (pr->link);
      pr->link = nid;
      pr->s = second ? 2.0 * pr->s - 1.0 : 2.0 * pr->s;
    }
  return e;
}

/* Try every set of k auto links (in candidate order) as splits. */
static gboolean
try_splits (const FxModel *model, const guint *cand, guint n_cand, guint k, guint start,
            gboolean *split, int *T, int *R, guint *budget)
{
  if (k == 0)
    {
      if (*budget == 0)
        return FALSE;
      (*budget)--;
      g_autoptr (FxModel) e = cx_expand_model (model, split, NULL);
      /* the exact matching first: it costs a pass over the graph, while
       * the search proves most failing tries only by spending its whole
       * budget (2.3 s of the `check` of a 1,000-joint strip of welded
       * squares). The search still makes the choice where there is one. */
      return cx_tier1_possible (e) && solve_model (e, T, R, NULL);
    }
  for (guint i = start; i + k <= n_cand && *budget > 0; i++)
    {
      split[cand[i]] = TRUE;
      if (try_splits (model, cand, n_cand, k - 1, i + 1, split, T, R, budget))
        return TRUE;
      split[cand[i]] = FALSE;
    }
  return FALSE;
}

static void
fill_segment (FxSegmentAssignment *seg, int T, int R, guint elements)
{
  seg->T = T;
  seg->R = R;
  seg->formulation = fx_formulation_from_causality (T, R);
  seg->elements = elements;
}

static gboolean
some_link_ends_independent (const FxModel *model)
{
  for (guint l = 0; l < model->links->len; l++)
    if (fx_link_ends_independent (model, l))
      return TRUE;
  return FALSE;
}

static gboolean
any_ends_set (const FxModel *model)
{
  for (guint l = 0; l < model->links->len; l++)
    if (fx_link_has_ends (fx_model_link (model, l)))
      return TRUE;
  return FALSE;
}

static gboolean
all_links_auto (const FxModel *model)
{
  for (guint l = 0; l < model->links->len; l++)
    if (fx_model_link (model, l)->formulation != FX_FORMULATION_AUTO)
      return FALSE;
  return TRUE;
}

/* The links no split can ever help: in some channel both ends sit at
 * ground junctions (both halves would be velocity-causal, and nothing
 * covers the midpoint weld) or both at junctions of their own (both halves
 * would be force-causal at the weld: a link between two pins, in
 * rotation). Leaving them out keeps the search's order among the others. */
static gboolean *
splits_hopeless (const FxModel *model)
{
  guint n = model->links->len;
  gboolean *hopeless = g_new0 (gboolean, MAX (n, 1));
  for (int c = 0; c < 2; c++)
    {
      GArray *junctions = cx_build_junctions (model, (FxChannel) c);
      guint (*lj)[2] = cx_link_junctions (model, junctions);
      for (guint l = 0; l < n; l++)
        {
          guint ground = 0, alone = 0;
          for (guint side = 0; side < 2; side++)
            {
              if (lj[l][side] == NO_JUNCTION)
                continue;
              const Junction *j = &g_array_index (junctions, Junction, lj[l][side]);
              ground += j->ground;
              alone += !j->ground && j->members->len == 1;
            }
          if (ground == 2 || alone == 2)
            hopeless[l] = TRUE;
        }
      g_free (lj);
      cx_junctions_free (junctions);
    }
  return hopeless;
}

/* Tier 2: the fewest splits (up to four), links named in the conflicts first. */
static gboolean
tier2 (const FxModel *model, const GPtrArray *conflicts, gboolean *split, int *T, int *R)
{
  guint n = model->links->len;
  gboolean ok = FALSE;
  g_autofree guint *cand = g_new (guint, MAX (n, 1));
  /* the search's budget, in models tried: each try costs about one
   * pass over the links and joints, so a large model tries fewer (a
   * second or so of work at most: a floor of 50 tries made it 30 s of
   * the 100,000-joint strip's `check`) and then reports its conflicts */
  guint n_cand = 0;
  guint budget = (guint) CLAMP (5e5 / (n + model->joints->len + 1.0), 1.0, 20000.0);
  g_autofree gboolean *hopeless = splits_hopeless (model);
  for (int pass = 0; pass < 2; pass++)
    for (guint l = 0; l < n; l++)
      {
        const FxLink *link = fx_model_link (model, l);
        if (link->formulation != FX_FORMULATION_AUTO || hopeless[l] || fx_link_ends_independent (model, l))
          continue;
        gboolean named = FALSE;
        g_autofree char *needle = g_strdup_printf ("link \"%s\"", link->id);
        for (guint c = 0; c < conflicts->len && !named; c++)
          named = strstr (g_ptr_array_index (conflicts, c), needle) != NULL;
        if (named == (pass == 0))
          cand[n_cand++] = l;
      }
  for (guint k = 1; k <= MIN (4u, n_cand) && !ok; k++)
    ok = try_splits (model, cand, n_cand, k, 0, split, T, R, &budget);
  return ok;
}

static void
fill_links (FxAssignment *a, const FxModel *model, const gboolean *split, const int *T,
            const int *R, const Tier3 *t3)
{
  /* T and R are per expanded link: walk them alongside */
  guint e = 0;
  for (guint l = 0; l < a->n_links; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      FxLinkAssignment *la = &a->links[l];
      la->fixed_by_user = link->formulation != FX_FORMULATION_AUTO;
      la->split = split[l];
      la->n_segments = split[l] ? 2 : 1;
      guint last = split[l] ? e + 1 : e;
      if (split[l])
        {
          guint n1 = MAX (1, (link->elements + 1) / 2), n2 = MAX (1, link->elements - n1);
          fill_segment (&la->segment[0], T[e], R[e], n1);
          fill_segment (&la->segment[1], T[e + 1], R[e + 1], n2);
        }
      else
        fill_segment (&la->segment[0], T[e], R[e], link->elements);
      la->T = la->segment[0].T;
      la->R = la->segment[0].R;
      la->formulation = la->segment[0].formulation;
      la->T_end[0] = T[e];
      la->R_end[0] = R[e];
      la->T_end[1] = T[last];
      la->R_end[1] = R[last];
      if (t3)
        {
          la->T_end[0] = t3->ch[0].end_bits[e][0];
          la->R_end[0] = t3->ch[1].end_bits[e][0];
          la->T_end[1] = t3->ch[0].end_bits[last][1];
          la->R_end[1] = t3->ch[1].end_bits[last][1];
        }
      e = last + 1;
    }
}

/* A floating-frame link's "ends" are the user's: an assignment that does
 * not give them (a force end at a support, or at a joint another link
 * already takes the force of) is refused, naming them. With `ok` FALSE no
 * assignment was found: the ends are named when the model without them
 * has one, and of those the ones whose removal alone would do, if some
 * would. */
static void
check_ends_honoured (FxAssignment *a, const FxModel *model, gboolean ok)
{
  static const char *const sides[2] = { "from", "to" };
  gboolean blame = ok, some_culprit = FALSE;
  g_autofree gboolean *culprit = NULL;

  if (!ok)
    {
      gboolean any = FALSE;
      g_autoptr (FxModel) plain = fx_model_copy (model);
      for (guint l = 0; l < plain->links->len; l++)
        {
          FxLink *link = fx_model_link (plain, l);
          any = any || fx_link_has_ends (link);
          memset (link->ends, 0, sizeof link->ends);
        }
      if (!any)
        return;
      FxAssignment *without = fx_assignment_compute (plain);
      blame = fx_assignment_ok (without);
      fx_assignment_free (without);
      /* the ends that alone stand in the way, if some do */
      culprit = g_new0 (gboolean, 2 * MAX (a->n_links, 1));
      for (guint l = 0; blame && l < a->n_links; l++)
        for (guint side = 0; side < 2; side++)
          {
            const FxLink *link = fx_model_link (model, l);
            if (link->ends[side][0] == FX_END_AUTO && link->ends[side][1] == FX_END_AUTO)
              continue;
            g_autoptr (FxModel) one = fx_model_copy (model);
            memset (fx_model_link (one, l)->ends[side], 0, sizeof link->ends[side]);
            FxAssignment *try = fx_assignment_compute (one);
            culprit[2 * l + side] = fx_assignment_ok (try);
            some_culprit = some_culprit || culprit[2 * l + side];
            fx_assignment_free (try);
          }
    }
  for (guint l = 0; blame && l < a->n_links; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      const FxLinkAssignment *la = &a->links[l];
      if (!fx_link_ends_independent (model, l))
        continue;
      for (guint side = 0; side < 2; side++)
        {
          const FxEndCausality *want = link->ends[side];
          FxCausality got[2] = { la->T_end[side], la->R_end[side] };
          gboolean same = TRUE;
          if (want[0] == FX_END_AUTO && want[1] == FX_END_AUTO)
            continue;
          for (guint c = 0; c < 2; c++)
            if (want[c] != FX_END_AUTO && (want[c] == FX_END_FORCE) != (got[c] == FX_CAUSAL_F))
              same = FALSE;
          if ((ok && same) || (some_culprit && !culprit[2 * l + side]))
            continue;
          char letters[3];
          g_autofree char *where = g_strdup_printf ("links[%u].ends.%s", l, sides[side]);
          fx_link_end_to_string (want, letters);
          cx_add_conflict (a->conflicts, where, -1, g_strdup_printf (
            _("\"%s\" at joint \"%s\" cannot be realised: a force end (F) needs a free joint "
              "that no other link takes the force of, a velocity end (V) a support, an inertia "
              "or another link that takes the force. Fix: remove \"ends\" and let the engine "
              "choose."), letters, side ? link->to : link->from));
          g_ptr_array_add (a->plain_conflicts, g_strdup_printf (
            _("The ends set on link \"%s\" cannot be realised. Let the engine choose them."),
            link->id ? link->id : "?"));
        }
    }
}

FxAssignment *
fx_assignment_compute (const FxModel *model)
{
  FxAssignment *a = g_new0 (FxAssignment, 1);
  guint n = model->links->len;
  g_autofree gboolean *split = g_new0 (gboolean, MAX (n, 1));
  g_autofree int *T = g_new0 (int, 2 * MAX (n, 1)), *R = g_new0 (int, 2 * MAX (n, 1));
  gboolean ok, exhausted = FALSE;
  Tier3 t3 = { 0 };
  gboolean tier3 = FALSE;

  a->n_links = n;
  a->links = g_new0 (FxLinkAssignment, MAX (n, 1));
  a->conflicts = g_ptr_array_new_with_free_func (g_free);
  a->plain_conflicts = g_ptr_array_new_with_free_func (g_free);
  a->regularisers = g_array_new (FALSE, FALSE, sizeof (FxRegulariser));
  a->split_regularisers = g_array_new (FALSE, FALSE, sizeof (FxRegulariser));

  /* tier 1, as drawn: the search (whose choices the examples were made
   * with), and where it gave up or cannot see independent ends, the
   * matching that decides it */
  gboolean wild = some_link_ends_independent (model);
  ok = !wild && solve_model_full (model, T, R, a->conflicts, a->plain_conflicts, &exhausted);
  if (!ok && (exhausted || wild) && cx_exact_tier1 (model, &t3))
    {
      tier3 = ok = TRUE;
      memcpy (T, t3.ch[0].bits, sizeof (int) * n);
      memcpy (R, t3.ch[1].bits, sizeof (int) * n);
    }
  /* tier 2: splits (its search knows no floating-frame "ends": tier 3's
   * matching, which does, decides those models) */
  if (!ok && !any_ends_set (model))
    ok = tier2 (model, a->conflicts, split, T, R);
  /* tier 3: regularising inertia, where the user left the choice to the engine */
  if (!ok && all_links_auto (model))
    {
      memset (split, 0, sizeof (gboolean) * MAX (n, 1));
      tier3 = ok = cx_regularise (model, split, &t3);
      if (ok)
        {
          guint n_e = 0;
          for (guint l = 0; l < n; l++)
            n_e += split[l] ? 2 : 1;
          memcpy (T, t3.ch[0].bits, sizeof (int) * n_e);
          memcpy (R, t3.ch[1].bits, sizeof (int) * n_e);
          cx_add_tier3_regularisers (a, model, split, &t3);
        }
    }
  if (!ok)
    check_ends_honoured (a, model, FALSE);
  if (!ok && a->conflicts->len == 0)
    {
      cx_add_conflict (a->conflicts, "links", -1, g_strdup (
        _("no causality assignment exists for these links as they are set. "
          "Fix: set the links to Auto.")));
      g_ptr_array_add (a->plain_conflicts, g_strdup (
        _("The links cannot be given consistent ends as they are set. Set the links to Auto.")));
    }

  if (ok)
    {
      g_ptr_array_set_size (a->conflicts, 0);
      g_ptr_array_set_size (a->plain_conflicts, 0);
      fill_links (a, model, split, T, R, tier3 ? &t3 : NULL);
      check_ends_honoured (a, model, TRUE);
      /* a roller's block is a regularising mass unless the user gave one */
      for (guint jt = 0; jt < model->joints->len; jt++)
        {
          const FxJoint *j = fx_model_joint (model, jt);
          if (j->support == FX_SUPPORT_ROLLER && !(j->mass > 0.0))
            cx_add_regulariser (a->regularisers, model, jt, FX_CHANNEL_TRANSLATION);
        }
      g_array_sort (a->regularisers, cx_regulariser_cmp);
    }
  if (tier3)
    cx_tier3_clear (&t3);
  return a;
}

guint
fx_assignment_n_splits (const FxAssignment *a)
{
  guint k = 0;
  for (guint l = 0; l < a->n_links; l++)
    k += a->links[l].split ? 1 : 0;
  return k;
}

FxModel *
fx_assignment_expand (const FxAssignment *a, const FxModel *model)
{
  g_autofree gboolean *split = g_new0 (gboolean, MAX (a->n_links, 1));
  for (guint l = 0; l < a->n_links; l++)
    split[l] = a->links[l].split;
  FxModel *e = cx_expand_model (model, split, a->links);

  const GArray *lists[2] = { a->regularisers, a->split_regularisers };
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < lists[k]->len; i++)
      {
        const FxRegulariser *r = &g_array_index (lists[k], FxRegulariser, i);
        FxJoint *j = fx_model_joint (e, r->joint);
        if (r->channel == FX_CHANNEL_TRANSLATION)
          {
            j->mass += r->mass;
            j->regularising_mass += r->mass;
          }
        else
          {
            j->inertia += r->inertia;
            j->regularising_inertia += r->inertia;
          }
      }
  /* a roller is a pin on a straight guide: a slider block whose mass is
   * the joint's (its own, or the regularising one just added) */
  for (guint jt = 0; jt < model->joints->len; jt++)
    {
      FxJoint *j = fx_model_joint (e, jt);
      if (j->support != FX_SUPPORT_ROLLER)
        continue;
      j->support = FX_SUPPORT_NONE;
      j->slider = TRUE;
      j->slider_mass = j->mass;
      j->mass = 0.0;
    }
  return e;
}

void
fx_assignment_free (FxAssignment *a)
{
  if (a == NULL)
    return;
  g_free (a->links);
  g_ptr_array_unref (a->conflicts);
  if (a->plain_conflicts)
    g_ptr_array_unref (a->plain_conflicts);
  if (a->regularisers)
    g_array_unref (a->regularisers);
  if (a->split_regularisers)
    g_array_unref (a->split_regularisers);
  g_free (a);
}

gboolean
fx_assignment_ok (const FxAssignment *a)
{
  return a->conflicts->len == 0;
}
