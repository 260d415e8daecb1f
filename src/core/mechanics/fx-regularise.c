/* fx-regularise.c: the third tier of the causality assignment
 * (docs/theory.md, regularising inertia): where no assignment exists as
 * drawn or with splits, a maximum matching per channel decides which
 * junctions get a small inertia, and the members' masses say how much. */
#include "fx-causality-private.h"
#include "fx-matching.h"
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

/* ------------------------------------------------ regularising inertia (tier 3)
 *
 * Per channel the question is a matching: free junctions are vertices, a
 * link that may be force-causal with both ends at distinct free junctions
 * is an edge (it covers both ends), and a link end that is independent
 * (fx_link_ends_independent) is an edge to a private vertex of its own.
 * The junctions a maximum matching leaves exposed get a regularising
 * inertia; the matching covers them in priority order (see vertex_order),
 * so the choice is deterministic. */


static void
channel_match_clear (ChannelMatch *cm)
{
  g_free (cm->bits);
  g_free (cm->end_bits);
  g_array_unref (cm->exposed);
  g_array_unref (cm->stuck_links);
}

/* How many link ends meet at each joint. */
static guint *
ends_per_joint (const FxModel *model)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  guint *count = g_new0 (guint, MAX (model->joints->len, 1));
  for (guint jt = 0; jt < model->joints->len; jt++)
    g_hash_table_insert (index, fx_model_joint (model, jt)->id, GUINT_TO_POINTER (jt + 1));
  for (guint l = 0; l < model->links->len; l++)
    for (guint side = 0; side < 2; side++)
      {
        const FxLink *link = fx_model_link (model, l);
        guint jt1 = GPOINTER_TO_UINT (g_hash_table_lookup (index, side ? link->to : link->from));
        if (jt1 > 0)
          count[jt1 - 1]++;
      }
  return count;
}

/* Whether an inertia may go at this junction if it stays exposed: any
 * point mass in translation; in rotation a rotary inertia needs one
 * rotation, so a weld or a lone link end (not one end of several at a pin,
 * nor a body's attachment). A split's midpoint (a weld) may take either,
 * but its halves should cover it (see vertex_first). */
static gboolean
junction_may_take_inertia (const FxModel *model, const Junction *j, FxChannel channel,
                           const guint *ends)
{
  const FxJoint *joint = fx_model_joint (model, (guint) j->joint);
  if (channel == FX_CHANNEL_TRANSLATION)
    return TRUE;
  if (fx_model_find_body_of_joint (model, joint->id) >= 0)
    return FALSE;
  return joint->kind == FX_JOINT_WELD || (ends[j->joint] <= 1 && j->members->len <= 1);
}

static ChannelMatch
match_channel (const FxModel *model, FxChannel channel, guint n_user)
{
  guint n = model->links->len;
  GArray *junctions = cx_build_junctions (model, channel);
  guint nj = junctions->len;
  g_autofree guint *ends = ends_per_joint (model);
  g_autofree int *vertex = g_new (int, MAX (nj, 1));
  g_autofree gboolean *covered = g_new0 (gboolean, MAX (nj, 1));
  g_autofree gboolean *required = g_new0 (gboolean, MAX (nj, 1));
  g_autofree gboolean *first = g_new0 (gboolean, MAX (nj, 1));  /* covered first */
  guint (*lj)[2] = cx_link_junctions (model, junctions);
  ChannelMatch cm = { g_new (int, MAX (n, 1)), g_new (BitPair, MAX (n, 1)),
                      g_array_new (FALSE, FALSE, sizeof (guint)), FALSE, FALSE,
                      g_array_new (FALSE, FALSE, sizeof (guint)) };

  /* the user's links first: F covers both its junctions (they must be free) */
  for (guint l = 0; l < n; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      cm.bits[l] = FX_CAUSAL_V;
      if (link->formulation == FX_FORMULATION_AUTO)
        continue;
      FxCausality T, R;
      fx_formulation_causality (link->formulation, &T, &R);
      cm.bits[l] = channel == FX_CHANNEL_TRANSLATION ? T : R;
      if (cm.bits[l] != FX_CAUSAL_F)
        continue;
      for (guint side = 0; side < 2; side++)
        {
          guint j = lj[l][side];
          if (j == NO_JUNCTION || g_array_index (junctions, Junction, j).ground || covered[j])
            cm.conflict = TRUE;
          else
            covered[j] = TRUE;
        }
    }

  /* the ends the user set F ("ends") cover their junctions too */
  for (guint l = 0; l < n; l++)
    for (guint side = 0; side < 2; side++)
      if (fx_link_ends_independent (model, l)
          && fx_model_link (model, l)->ends[side][channel] == FX_END_FORCE)
        {
          guint j = lj[l][side];
          if (j == NO_JUNCTION || g_array_index (junctions, Junction, j).ground || covered[j])
            cm.conflict = TRUE;
          else
            covered[j] = TRUE;
        }

  /* vertices: free junctions the user's links do not cover */
  guint nv = 0;
  for (guint i = 0; i < nj; i++)
    {
      const Junction *j = &g_array_index (junctions, Junction, i);
      vertex[i] = (!j->ground && !covered[i]) ? (int) nv++ : -1;
      required[i] = !junction_may_take_inertia (model, j, channel, ends);
      first[i] = required[i] || (guint) j->joint >= n_user;
    }
  guint n_vertices = nv;
  g_autoptr (GArray) eu = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) ev = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) etag = g_array_new (FALSE, FALSE, sizeof (guint));  /* 2 l + side, or 2 l + 2 for both */
  for (guint l = 0; l < n; l++)
    {
      if (fx_model_link (model, l)->formulation != FX_FORMULATION_AUTO)
        continue;
      if (fx_link_ends_independent (model, l))
        {
          for (guint side = 0; side < 2; side++)
            if (lj[l][side] != NO_JUNCTION && vertex[lj[l][side]] >= 0
                && fx_model_link (model, l)->ends[side][channel] == FX_END_AUTO)
              {
                guint u = (guint) vertex[lj[l][side]], w = n_vertices++, tag = 4 * l + side;
                g_array_append_val (eu, u);
                g_array_append_val (ev, w);
                g_array_append_val (etag, tag);
              }
          continue;
        }
      guint j0 = lj[l][0], j1 = lj[l][1];
      if (j0 == NO_JUNCTION || j1 == NO_JUNCTION || j0 == j1 || vertex[j0] < 0 || vertex[j1] < 0)
        continue;
      guint u = (guint) vertex[j0], w = (guint) vertex[j1], tag = 4 * l + 2;
      g_array_append_val (eu, u);
      g_array_append_val (ev, w);
      g_array_append_val (etag, tag);
    }

  /* Priority: junctions that cannot take an inertia, and split midpoints,
   * first; then by joint
   * index from the highest down, so that on ties the inertia goes to the
   * lowest-numbered joint; private end vertices last. */
  g_autofree guint *order = g_new (guint, MAX (n_vertices, 1));
  g_autofree guint *jidx = g_new (guint, MAX (nj, 1));
  guint k = 0, m = 0;
  for (guint i = 0; i < nj; i++)
    if (vertex[i] >= 0 && first[i])
      order[k++] = (guint) vertex[i];
  for (guint i = 0; i < nj; i++)
    if (vertex[i] >= 0 && !first[i])
      jidx[m++] = i;
  /* junctions are built joint by joint, so junction order is joint order */
  for (guint i = m; i > 0; i--)
    order[k++] = (guint) vertex[jidx[i - 1]];
  for (guint w = nv; w < n_vertices; w++)
    order[k++] = w;

  g_autofree int *mate = g_new (int, MAX (n_vertices, 1));
  fx_matching_solve (n_vertices, eu->len, (const guint *) eu->data, (const guint *) ev->data,
                     order, mate);

  for (guint l = 0; l < n; l++)
    {
      cm.end_bits[l][0] = cm.end_bits[l][1] = cm.bits[l];
      for (guint side = 0; side < 2 && fx_link_ends_independent (model, l); side++)
        if (fx_model_link (model, l)->ends[side][channel] != FX_END_AUTO)
          cm.end_bits[l][side] = fx_model_link (model, l)->ends[side][channel] == FX_END_FORCE
                                 ? FX_CAUSAL_F : FX_CAUSAL_V;
    }
  for (guint v = 0; v < nv; v++)
    if (mate[v] >= 0)
      {
        guint tag = g_array_index (etag, guint, (guint) mate[v]), l = tag / 4, which = tag % 4;
        if (which == 2)
          {
            cm.bits[l] = FX_CAUSAL_F;
            cm.end_bits[l][0] = cm.end_bits[l][1] = FX_CAUSAL_F;
          }
        else
          cm.end_bits[l][which] = FX_CAUSAL_F;
      }
  for (guint i = 0; i < nj; i++)
    {
      if (vertex[i] < 0 || (guint) vertex[i] >= nv || mate[vertex[i]] >= 0)
        continue;
      const Junction *j = &g_array_index (junctions, Junction, i);
      if (required[i])
        {
          cm.stuck = TRUE;
          for (guint q = 0; q < j->members->len; q++)
            g_array_append_val (cm.stuck_links, g_array_index (j->members, guint, q));
        }
      else
        {
          guint joint = (guint) j->joint;
          g_array_append_val (cm.exposed, joint);
        }
    }
  g_free (lj);
  cx_junctions_free (junctions);
  return cm;
}

/* The model link each link of the expanded model comes from. */
static guint *
expanded_origin (const FxModel *model, const gboolean *split)
{
  guint n_e = 0;
  for (guint l = 0; l < model->links->len; l++)
    n_e += split[l] ? 2 : 1;
  guint *origin = g_new (guint, MAX (n_e, 1));
  for (guint l = 0, e = 0; l < model->links->len; l++)
    {
      origin[e++] = l;
      if (split[l])
        origin[e++] = l;
    }
  return origin;
}


void
cx_tier3_clear (Tier3 *t)
{
  if (t->ch[0].bits)
    channel_match_clear (&t->ch[0]);
  if (t->ch[1].bits)
    channel_match_clear (&t->ch[1]);
  memset (t, 0, sizeof *t);
}

/* Both channels' matchings with the links in `split` split. Adds to `split`
 * the auto links whose ends sit at junctions that cannot take an inertia
 * (a split lets such a link cover that end alone) and tries again. */
static Tier3
tier3_try (const FxModel *model, gboolean *split)
{
  Tier3 t = { 0 };
  for (guint round = 0; round <= model->links->len; round++)
    {
      g_autoptr (FxModel) e = cx_expand_model (model, split, NULL);
      g_autofree guint *origin = expanded_origin (model, split);
      cx_tier3_clear (&t);
      t.ch[0] = match_channel (e, FX_CHANNEL_TRANSLATION, model->joints->len);
      t.ch[1] = match_channel (e, FX_CHANNEL_ROTATION, model->joints->len);
      t.ok = !t.ch[0].conflict && !t.ch[1].conflict && !t.ch[0].stuck && !t.ch[1].stuck;
      t.cost = t.ch[0].exposed->len + t.ch[1].exposed->len;
      if (t.ok || t.ch[0].conflict || t.ch[1].conflict)
        return t;
      gboolean progress = FALSE;
      for (guint c = 0; c < 2; c++)
        for (guint i = 0; i < t.ch[c].stuck_links->len; i++)
          {
            guint l = origin[g_array_index (t.ch[c].stuck_links, guint, i)];
            if (!split[l] && fx_model_link (model, l)->formulation == FX_FORMULATION_AUTO)
              split[l] = progress = TRUE;
          }
      if (!progress)
        return t;
    }
  return t;
}

/* Tier 3: splits where a junction cannot take an inertia, then a few more
 * where they save inertias (fewest inertias), inertias at what is left. */
gboolean
cx_regularise (const FxModel *model, gboolean *split, Tier3 *out)
{
  guint n = model->links->len;
  Tier3 best = tier3_try (model, split);
  if (!best.ok)
    {
      cx_tier3_clear (&best);
      return FALSE;
    }
  /* a split may save an inertia (a cantilever's tip): try the links that
   * end at an exposed junction, each once, keep what lowers the count */
  g_autofree gboolean *tried = g_new0 (gboolean, MAX (n, 1));
  g_autofree gboolean *trial = g_new (gboolean, MAX (n, 1));
  guint budget = (guint) CLAMP (2e5 / (n + model->joints->len + 1.0), 4.0, 64.0);
  gboolean improved = TRUE;
  while (improved && best.cost > 0 && budget > 0)
    {
      improved = FALSE;
      g_autoptr (GHashTable) exposed = g_hash_table_new (NULL, NULL);
      for (guint c = 0; c < 2; c++)
        for (guint i = 0; i < best.ch[c].exposed->len; i++)
          g_hash_table_add (exposed, GUINT_TO_POINTER (g_array_index (best.ch[c].exposed, guint, i) + 1));
      for (guint l = 0; l < n && budget > 0 && !improved; l++)
        {
          const FxLink *link = fx_model_link (model, l);
          if (split[l] || tried[l] || link->formulation != FX_FORMULATION_AUTO)
            continue;
          int jf = fx_model_find_joint (model, link->from), jt = fx_model_find_joint (model, link->to);
          if (!g_hash_table_contains (exposed, GUINT_TO_POINTER (jf + 1))
              && !g_hash_table_contains (exposed, GUINT_TO_POINTER (jt + 1)))
            continue;
          tried[l] = TRUE;
          budget--;
          memcpy (trial, split, sizeof (gboolean) * n);
          trial[l] = TRUE;
          Tier3 t = tier3_try (model, trial);
          if (t.ok && t.cost < best.cost)
            {
              cx_tier3_clear (&best);
              best = t;
              memcpy (split, trial, sizeof (gboolean) * n);
              improved = TRUE;
            }
          else
            cx_tier3_clear (&t);
        }
    }
  *out = best;
  return TRUE;
}

/* ----------------------------------------------------------- values */

double
fx_model_total_mass (const FxModel *model)
{
  double m = 0.0;
  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      m += link->section.rhoA * fx_link_length (model, link);
    }
  for (guint jt = 0; jt < model->joints->len; jt++)
    {
      const FxJoint *j = fx_model_joint (model, jt);
      m += j->mass + (j->slider ? j->slider_mass : 0.0);
    }
  for (guint b = 0; b < fx_model_n_bodies (model); b++)
    m += fx_model_body (model, b)->mass;
  return m;
}

/* Sum of 1/2 rhoA L and the shortest element over the links at a joint. */
static void
members_at (const FxModel *model, guint joint, double *member_mass, double *h_min)
{
  const char *id = fx_model_joint (model, joint)->id;
  *member_mass = 0.0;
  *h_min = G_MAXDOUBLE;
  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      guint at = (g_strcmp0 (link->from, id) == 0) + (g_strcmp0 (link->to, id) == 0);
      if (at == 0)
        continue;
      double L = fx_link_length (model, link);
      *member_mass += at * 0.5 * link->section.rhoA * L;
      *h_min = MIN (*h_min, L / MAX (link->elements, 1u));
    }
  if (*h_min == G_MAXDOUBLE)
    *h_min = 0.0;
}

static double
regularising_mass_from (const FxModel *model, double member_mass)
{
  double eps = model->regularisation_mass_fraction;
  if (!(eps > 0.0 && eps <= 1.0))
    eps = FX_DEFAULT_REGULARISATION;
  if (member_mass > 0.0)
    return eps * member_mass;
  double total = fx_model_total_mass (model);
  return total > 0.0 ? eps * total : 1e-3;
}

double
fx_regularising_mass_at (const FxModel *model, guint joint, double *member_mass)
{
  double mm, h;
  members_at (model, joint, &mm, &h);
  if (member_mass)
    *member_mass = mm;
  return regularising_mass_from (model, mm);
}

/* members_at for every joint at once, in one pass over the links: per
 * joint it was a pass over every link, quadratic in a model of thousands of
 * welded joints (issue 31, item 8). */
typedef struct {
  double *member_mass, *h_min;
} Members;

static void
members_all (const FxModel *model, Members *out)
{
  guint n = model->joints->len;
  out->member_mass = g_new0 (double, MAX (n, 1));
  out->h_min = g_new (double, MAX (n, 1));
  for (guint j = 0; j < n; j++)
    out->h_min[j] = G_MAXDOUBLE;
  for (guint l = 0; l < model->links->len; l++)
    {
      const FxLink *link = fx_model_link (model, l);
      int ends[2] = { fx_model_find_joint (model, link->from), fx_model_find_joint (model, link->to) };
      double L = fx_link_length (model, link);
      for (guint side = 0; side < 2; side++)
        if (ends[side] >= 0)
          {
            out->member_mass[ends[side]] += 0.5 * link->section.rhoA * L;
            out->h_min[ends[side]] = MIN (out->h_min[ends[side]], L / MAX (link->elements, 1u));
          }
    }
  for (guint j = 0; j < n; j++)
    if (out->h_min[j] == G_MAXDOUBLE)
      out->h_min[j] = 0.0;
}

static void
members_clear (Members *m)
{
  g_free (m->member_mass);
  g_free (m->h_min);
}

/* `at` is the model the joint is counted in (the expanded one for a split's
 * midpoint), `members` its members_all (NULL: count them here); `model`
 * gives epsilon and the total mass. */
static void
add_regulariser_at (GArray *regs, const FxModel *model, const FxModel *at, const Members *members,
                    guint joint, FxChannel channel, int link)
{
  double mm, h;
  if (members)
    mm = members->member_mass[joint], h = members->h_min[joint];
  else
    members_at (at, joint, &mm, &h);
  FxRegulariser r = { joint, channel, regularising_mass_from (model, mm), 0.0, mm, link };
  if (channel == FX_CHANNEL_ROTATION)
    r.inertia = r.mass * (0.5 * h) * (0.5 * h);
  g_array_append_val (regs, r);
}

void
cx_add_regulariser (GArray *regs, const FxModel *model, guint joint, FxChannel channel)
{
  add_regulariser_at (regs, model, model, NULL, joint, channel, -1);
}

/* The regularisers of tier 3: at model joints, and at split midpoints
 * (whose joints exist only in the expanded model, after the model's own,
 * one per split link in link order). */
void
cx_add_tier3_regularisers (FxAssignment *a, const FxModel *model, const gboolean *split,
                        const Tier3 *t3)
{
  g_autoptr (FxModel) e = cx_expand_model (model, split, NULL);
  g_autofree int *mid_link = g_new (int, MAX (e->joints->len, 1));
  for (guint l = 0, k = model->joints->len; l < model->links->len; l++)
    if (split[l])
      mid_link[k++] = (int) l;
  Members own, expanded;
  members_all (model, &own);
  members_all (e, &expanded);
  for (guint c = 0; c < 2; c++)
    for (guint i = 0; i < t3->ch[c].exposed->len; i++)
      {
        guint joint = g_array_index (t3->ch[c].exposed, guint, i);
        FxChannel channel = c == 0 ? FX_CHANNEL_TRANSLATION : FX_CHANNEL_ROTATION;
        if (joint < model->joints->len)
          add_regulariser_at (a->regularisers, model, model, &own, joint, channel, -1);
        else
          add_regulariser_at (a->split_regularisers, model, e, &expanded, joint, channel,
                              mid_link[joint]);
      }
  members_clear (&own);
  members_clear (&expanded);
}

gint
cx_regulariser_cmp (gconstpointer pa, gconstpointer pb)
{
  const FxRegulariser *a = pa, *b = pb;
  if (a->joint != b->joint)
    return a->joint < b->joint ? -1 : 1;
  return (int) a->channel - (int) b->channel;
}

double
fx_assignment_regularising_mass (const FxAssignment *a)
{
  double m = 0.0;
  const GArray *lists[2] = { a->regularisers, a->split_regularisers };
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < lists[k]->len; i++)
      {
        const FxRegulariser *r = &g_array_index (lists[k], FxRegulariser, i);
        if (r->channel == FX_CHANNEL_TRANSLATION)
          m += r->mass;
      }
  return m;
}

/* Tier 1 decided exactly (when the search gave up, or when some link's
 * ends are independent, which the search does not know): a perfect
 * matching of both channels as drawn. */
gboolean
cx_exact_tier1 (const FxModel *model, Tier3 *out)
{
  Tier3 t = { 0 };
  t.ch[0] = match_channel (model, FX_CHANNEL_TRANSLATION, model->joints->len);
  t.ch[1] = match_channel (model, FX_CHANNEL_ROTATION, model->joints->len);
  t.ok = !t.ch[0].conflict && !t.ch[1].conflict && !t.ch[0].stuck && !t.ch[1].stuck
         && t.ch[0].exposed->len == 0 && t.ch[1].exposed->len == 0;
  if (!t.ok)
    {
      cx_tier3_clear (&t);
      return FALSE;
    }
  *out = t;
  return TRUE;
}

gboolean
cx_tier1_possible (const FxModel *model)
{
  Tier3 t;
  if (!cx_exact_tier1 (model, &t))
    return FALSE;
  cx_tier3_clear (&t);
  return TRUE;
}
