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
#include "fx-causality.h"
#include <glib/gi18n-lib.h>

#include <string.h>

typedef struct {
  int joint;        /* model joint index                          */
  gboolean ground;  /* TRUE: needs no F member                    */
  GArray *members;  /* guint: link indices                        */
  GArray *sides;    /* guint: 0 = link's `from` end, 1 = `to` end */
} Junction;

typedef enum { BIT_UNSET = -1, BIT_WILD = 2 } BitState;

typedef struct {
  const FxModel *model;
  FxChannel channel;
  GArray *junctions;  /* Junction */
  int *bit;           /* per link: -1 unset, FX_CAUSAL_F or FX_CAUSAL_V */
  gboolean *fixed;    /* per link: set by the user                   */
  guint budget;       /* search nodes left                            */
} Problem;

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
static GArray *
build_junctions (const FxModel *model, FxChannel channel)
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

static void
junctions_free (GArray *junctions)
{
  for (guint i = 0; i < junctions->len; i++)
    {
      Junction *j = &g_array_index (junctions, Junction, i);
      g_array_unref (j->members);
      g_array_unref (j->sides);
    }
  g_array_unref (junctions);
}

static guint
member (const Junction *j, guint k)
{
  return g_array_index (j->members, guint, k);
}

/* Apply the junction rules until nothing changes. FALSE on a contradiction. */
static gboolean
propagate (Problem *p)
{
  gboolean changed = TRUE;

  while (changed)
    {
      changed = FALSE;
      for (guint i = 0; i < p->junctions->len; i++)
        {
          const Junction *j = &g_array_index (p->junctions, Junction, i);
          guint n = j->members->len, n_f = 0, n_unset = 0, last_unset = 0;
          gboolean wild = FALSE;  /* an independent end can cover the junction */

          for (guint k = 0; k < n; k++)
            {
              int b = p->bit[member (j, k)];
              wild |= b == BIT_WILD;
              if (b == FX_CAUSAL_F)
                n_f++;
              else if (b == BIT_UNSET)
                {
                  n_unset++;
                  last_unset = member (j, k);
                }
            }

          if (j->ground)
            {
              if (n_f > 0)
                return FALSE;
              for (guint k = 0; k < n; k++)
                if (p->bit[member (j, k)] == BIT_UNSET)
                  {
                    p->bit[member (j, k)] = FX_CAUSAL_V;
                    changed = TRUE;
                  }
              continue;
            }

          if (n_f > 1 || (n_f == 0 && n_unset == 0 && !wild))
            return FALSE;
          if (n_f == 1 && n_unset > 0)
            {
              for (guint k = 0; k < n; k++)
                if (p->bit[member (j, k)] == BIT_UNSET)
                  p->bit[member (j, k)] = FX_CAUSAL_V;
              changed = TRUE;
            }
          else if (n_f == 0 && n_unset == 1 && !wild)
            {
              p->bit[last_unset] = FX_CAUSAL_F;
              changed = TRUE;
            }
        }
    }
  return TRUE;
}

static gboolean
search (Problem *p)
{
  guint n_links = p->model->links->len;
  g_autofree int *saved = NULL;

  if (!propagate (p))
    return FALSE;

  guint pick = n_links;
  for (guint l = 0; l < n_links; l++)
    if (p->bit[l] == BIT_UNSET)
      {
        pick = l;
        break;
      }
  if (pick == n_links)
    return TRUE;
  if (p->budget == 0)
    return FALSE;
  p->budget--;

  saved = g_memdup2 (p->bit, sizeof (int) * n_links);
  /* Prefer F first: a free-free link is the cheapest and most natural. */
  for (int choice = FX_CAUSAL_F; choice <= FX_CAUSAL_V; choice++)
    {
      p->bit[pick] = choice;
      if (search (p))
        return TRUE;
      memcpy (p->bit, saved, sizeof (int) * n_links);
    }
  return FALSE;
}

static const char *
channel_name (FxChannel c)
{
  return c == FX_CHANNEL_TRANSLATION ? _("translation") : _("rotation");
}

static const char *
causal_word (FxChannel c, int bit)
{
  if (c == FX_CHANNEL_TRANSLATION)
    return bit == FX_CAUSAL_F ? _("force-causal") : _("velocity-causal");
  return bit == FX_CAUSAL_F ? _("moment-causal") : _("angular-velocity-causal");
}

/* Adds "path: message" (the JSON path of the joint or link it is about, as
 * in the loader's messages); takes `message`. */
static void
add_conflict (GPtrArray *conflicts, const char *list, int index, char *message)
{
  if (index >= 0)
    g_ptr_array_add (conflicts, g_strdup_printf ("%s[%d]: %s", list, index, message));
  else
    g_ptr_array_add (conflicts, g_strdup_printf ("%s: %s", list, message));
  g_free (message);
}

/* Explain, junction by junction, what the user's fixed choices break. */
static void
explain_fixed_conflicts (Problem *p, GPtrArray *conflicts)
{
  for (guint i = 0; i < p->junctions->len; i++)
    {
      const Junction *j = &g_array_index (p->junctions, Junction, i);
      const FxJoint *joint = fx_model_joint (p->model, j->joint);
      g_autoptr (GString) f_links = g_string_new (NULL);
      guint n_f = 0, n_fixed = 0;

      for (guint k = 0; k < j->members->len; k++)
        {
          guint l = member (j, k);
          if (!p->fixed[l])
            continue;
          n_fixed++;
          if (p->bit[l] == FX_CAUSAL_F)
            {
              g_string_append_printf (f_links, "%s\"%s\"", n_f ? ", " : "",
                                      fx_model_link (p->model, l)->id);
              n_f++;
            }
        }
      if (j->ground && n_f > 0)
        add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          _("joint \"%s\" (%s): its support fixes the %s, so no member may be %s, "
          "but %s is. Fix: make %s %s (for example pinned or clamped-clamped), "
          "or remove the support."),
          joint->id, channel_name (p->channel), channel_name (p->channel),
          causal_word (p->channel, FX_CAUSAL_F), f_links->str, f_links->str,
          causal_word (p->channel, FX_CAUSAL_V)));
      else if (!j->ground && n_f > 1)
        add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          _("joint \"%s\" (%s): a free joint takes its force from exactly one link, "
          "but %s are all %s. Fix: keep one of them and set the others to a "
          "%s formulation, or add an inertia (mass) at joint \"%s\"."),
          joint->id, channel_name (p->channel), f_links->str,
          causal_word (p->channel, FX_CAUSAL_F), causal_word (p->channel, FX_CAUSAL_V),
          joint->id));
      else if (!j->ground && n_fixed == j->members->len && n_f == 0)
        add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          _("joint \"%s\" (%s): it is free, but every link there is %s, so nothing "
          "takes the joint's force. Fix: set one link at joint \"%s\" to %s, "
          "support the joint, or add an inertia (mass) there."),
          joint->id, channel_name (p->channel), causal_word (p->channel, FX_CAUSAL_V),
          joint->id, p->channel == FX_CHANNEL_TRANSLATION ? _("free-free or guided")
                                                          : _("free-free or pinned")));
    }
}

/* No assignment exists: name the links whose two ends want opposite bits. */
static void
explain_infeasible (Problem *p, GPtrArray *conflicts)
{
  guint before = conflicts->len;

  for (guint l = 0; l < p->model->links->len; l++)
    {
      const FxLink *link = fx_model_link (p->model, l);
      int want[2] = { BIT_UNSET, BIT_UNSET };
      if (fx_link_ends_independent (p->model, l))
        continue;
      const char *joint_id[2] = { link->from, link->to };

      for (guint i = 0; i < p->junctions->len; i++)
        {
          const Junction *j = &g_array_index (p->junctions, Junction, i);
          for (guint k = 0; k < j->members->len; k++)
            if (member (j, k) == l)
              {
                guint side = g_array_index (j->sides, guint, k);
                if (j->ground)
                  want[side] = FX_CAUSAL_V;
                else if (j->members->len == 1)
                  want[side] = FX_CAUSAL_F;
              }
        }
      if (want[0] != BIT_UNSET && want[1] != BIT_UNSET && want[0] != want[1])
        {
          guint fs = want[0] == FX_CAUSAL_F ? 0 : 1;
          add_conflict (conflicts, "links", (int) l, g_strdup_printf (
            _("link \"%s\" (%s): its end at joint \"%s\" is free and needs a %s link, "
            "its end at joint \"%s\" is supported and needs a %s link, and one link "
            "has one causality. Fix: split link \"%s\" into two links at an interior "
            "welded joint, add an inertia (mass) at joint \"%s\", or support joint \"%s\"."),
            link->id, channel_name (p->channel), joint_id[fs],
            causal_word (p->channel, FX_CAUSAL_F), joint_id[1 - fs],
            causal_word (p->channel, FX_CAUSAL_V), link->id, joint_id[fs], joint_id[fs]));
        }
    }
  if (conflicts->len == before)
    add_conflict (conflicts, "links", -1, g_strdup_printf (
      _("%s: no causality assignment exists: every free joint needs exactly one %s "
      "link and every supported joint none. Fix: split a link at an interior welded "
      "joint, or add an inertia (mass) at a free joint."),
      channel_name (p->channel), causal_word (p->channel, FX_CAUSAL_F)));
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
    return j->mass > 0.0 || (j->slider && j->slider_mass > 0.0);
  /* a rotary inertia shares one rotation: at a weld, or at a lone link end */
  return j->inertia > 0.0;
}

/* Solve one channel. On success fills bits (per link); on failure appends
 * explanations to `conflicts` (may be NULL) and returns FALSE. */
static gboolean solve_channel_ends (const FxModel *model, FxChannel channel, int *bits,
                                    int *end_bits, GPtrArray *conflicts);

/* Each independent end: F at a free junction no other member covers
 * (the first such end there), else V. */
static void
wild_ends (const Problem *p, int *end_bits)
{
  for (guint i = 0; i < p->junctions->len; i++)
    {
      const Junction *j = &g_array_index (p->junctions, Junction, i);
      gboolean covered = j->ground;
      for (guint k = 0; k < j->members->len; k++)
        covered |= p->bit[member (j, k)] == FX_CAUSAL_F;
      for (guint k = 0; k < j->members->len; k++)
        {
          guint l = member (j, k), side = g_array_index (j->sides, guint, k);
          if (p->bit[l] != BIT_WILD)
            end_bits[2 * l + side] = p->bit[l];
          else
            {
              end_bits[2 * l + side] = covered ? FX_CAUSAL_V : FX_CAUSAL_F;
              covered = TRUE;
            }
        }
    }
}

static gboolean
solve_channel (const FxModel *model, FxChannel channel, int *bits, GPtrArray *conflicts)
{
  return solve_channel_ends (model, channel, bits, NULL, conflicts);
}

static gboolean
solve_channel_ends (const FxModel *model, FxChannel channel, int *bits, int *end_bits,
                    GPtrArray *conflicts)
{
  guint n = model->links->len;
  Problem p = { model, channel, build_junctions (model, channel),
                g_new (int, MAX (n, 1)), g_new0 (gboolean, MAX (n, 1)), 20000 };
  gboolean ok;

  for (guint l = 0; l < n; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      p.bit[l] = fx_link_ends_independent (model, l) ? BIT_WILD : BIT_UNSET;
      if (p.bit[l] == BIT_UNSET && link->formulation != FX_FORMULATION_AUTO)
        {
          FxCausality T, R;
          fx_formulation_causality (link->formulation, &T, &R);
          p.bit[l] = channel == FX_CHANNEL_TRANSLATION ? T : R;
          p.fixed[l] = TRUE;
        }
    }

  g_autofree int *user = g_memdup2 (p.bit, sizeof (int) * MAX (n, 1));
  ok = search (&p);
  if (ok)
    {
      g_autofree int *ends = g_new0 (int, 2 * MAX (n, 1));
      wild_ends (&p, ends);
      if (end_bits)
        memcpy (end_bits, ends, sizeof (int) * 2 * n);
      memcpy (bits, p.bit, sizeof (int) * n);
      for (guint l = 0; l < n; l++)
        if (bits[l] == BIT_WILD)
          bits[l] = ends[2 * l];  /* the `from` end stands for the link */
    }
  else if (conflicts)
    {
      guint before = conflicts->len;
      memcpy (p.bit, user, sizeof (int) * MAX (n, 1));
      explain_fixed_conflicts (&p, conflicts);
      if (conflicts->len == before)
        explain_infeasible (&p, conflicts);
    }

  junctions_free (p.junctions);
  g_free (p.bit);
  g_free (p.fixed);
  return ok;
}

/* Both channels of a (possibly expanded) model. */
static gboolean
solve_model (const FxModel *model, int *T, int *R, GPtrArray *conflicts)
{
  gboolean ok_t = solve_channel (model, FX_CHANNEL_TRANSLATION, T, conflicts);
  gboolean ok_r = solve_channel (model, FX_CHANNEL_ROTATION, R, conflicts);
  return ok_t && ok_r;
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
}

static char *
sub_id (const char *id, const char *suffix)
{
  return g_strconcat (id, suffix, NULL);
}

/* The model with the links flagged in `split` cut at their midpoints. */
static FxModel *
expand_model (const FxModel *model, const gboolean *split, const FxLinkAssignment *fixed)
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
      g_autoptr (FxModel) e = expand_model (model, split, NULL);
      return solve_model (e, T, R, NULL);
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

FxAssignment *
fx_assignment_compute (const FxModel *model)
{
  FxAssignment *a = g_new0 (FxAssignment, 1);
  guint n = model->links->len;
  g_autofree gboolean *split = g_new0 (gboolean, MAX (n, 1));
  g_autofree int *T = g_new0 (int, 2 * MAX (n, 1)), *R = g_new0 (int, 2 * MAX (n, 1));
  gboolean ok;

  a->n_links = n;
  a->links = g_new0 (FxLinkAssignment, MAX (n, 1));
  a->conflicts = g_ptr_array_new_with_free_func (g_free);

  ok = solve_model (model, T, R, a->conflicts);
  if (!ok)
    {
      /* fewest splits first; links whose ends disagree are tried first */
      g_autofree guint *cand = g_new (guint, MAX (n, 1));
      /* the search's budget, in models tried: each try costs about one
       * pass over the links and joints, so a large model tries fewer (a
       * second or so of work at most) and then reports its conflicts */
      guint n_cand = 0;
      guint budget = (guint) CLAMP (5e5 / (n + model->joints->len + 1.0), 50.0, 20000.0);
      for (int pass = 0; pass < 2; pass++)
        for (guint l = 0; l < n; l++)
          {
            const FxLink *link = fx_model_link (model, l);
            if (link->formulation != FX_FORMULATION_AUTO || fx_link_ends_independent (model, l))
              continue;
            gboolean named = FALSE;
            for (guint c = 0; c < a->conflicts->len; c++)
              {
                g_autofree char *needle = g_strdup_printf ("link \"%s\"", link->id);
                if (strstr (g_ptr_array_index (a->conflicts, c), needle))
                  named = TRUE;
              }
            if (named == (pass == 0))
              cand[n_cand++] = l;
          }
      for (guint k = 1; k <= MIN (4u, n_cand) && !ok; k++)
        ok = try_splits (model, cand, n_cand, k, 0, split, T, R, &budget);
      if (ok)
        g_ptr_array_set_size (a->conflicts, 0);
    }

  g_autofree int *T_end = g_new0 (int, 4 * MAX (n, 1)), *R_end = g_new0 (int, 4 * MAX (n, 1));
  if (ok)
    {
      /* the ends of the expanded model's links, from the same (deterministic) search */
      g_autoptr (FxModel) expanded = expand_model (model, split, NULL);
      solve_channel_ends (expanded, FX_CHANNEL_TRANSLATION, T, T_end, NULL);
      solve_channel_ends (expanded, FX_CHANNEL_ROTATION, R, R_end, NULL);
    }
  if (ok)
    {
      /* T and R are per expanded link: walk them alongside */
      guint e = 0;
      for (guint l = 0; l < n; l++)
        {
          const FxLink *link = fx_model_link (model, l);
          FxLinkAssignment *la = &a->links[l];
          la->fixed_by_user = link->formulation != FX_FORMULATION_AUTO;
          la->split = split[l];
          la->n_segments = split[l] ? 2 : 1;
          if (split[l])
            {
              guint n1 = MAX (1, (link->elements + 1) / 2), n2 = MAX (1, link->elements - n1);
              fill_segment (&la->segment[0], T[e], R[e], n1);
              fill_segment (&la->segment[1], T[e + 1], R[e + 1], n2);
              la->T_end[0] = T_end[2 * e], la->R_end[0] = R_end[2 * e];
              la->T_end[1] = T_end[2 * e + 3], la->R_end[1] = R_end[2 * e + 3];
              e += 2;
            }
          else
            {
              fill_segment (&la->segment[0], T[e], R[e], link->elements);
              la->T_end[0] = T_end[2 * e], la->R_end[0] = R_end[2 * e];
              la->T_end[1] = T_end[2 * e + 1], la->R_end[1] = R_end[2 * e + 1];
              e += 1;
            }
          la->T = la->segment[0].T;
          la->R = la->segment[0].R;
          la->formulation = la->segment[0].formulation;
        }
    }
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
  return expand_model (model, split, a->links);
}

void
fx_assignment_free (FxAssignment *a)
{
  if (a == NULL)
    return;
  g_free (a->links);
  g_ptr_array_unref (a->conflicts);
  g_free (a);
}

gboolean
fx_assignment_ok (const FxAssignment *a)
{
  return a->conflicts->len == 0;
}
