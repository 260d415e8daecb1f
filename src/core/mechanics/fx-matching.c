/* fx-matching.c: Edmonds' blossom algorithm, one search per exposed vertex.
 *
 * The textbook form (a breadth-first alternating tree from a root, odd
 * cycles contracted to their base) with three changes that keep it
 * near-linear on the graphs mechanisms make: the per-search marks are undone
 * through the list of vertices the search touched (not cleared over the
 * whole graph); the lowest common ancestor uses stamps; and a blossom is
 * contracted by linking the bases on its cycle to its base (a union-find
 * with path compression), so a contraction costs the cycle, not a pass over
 * every vertex the search has touched (on a 100,000-joint strip of welded
 * squares, split once, that pass was 93 % of the causality search).
 */
#include "fx-matching.h"

#include <string.h>

typedef struct {
  guint n;
  const guint *start;   /* CSR: neighbours of v are nb[start[v] .. start[v+1]) */
  const guint *nb;
  int *match, *parent;
  int *base;            /* union-find: base_of (v) is v's blossom's base */
  gboolean *used;
  guint *stamp;         /* lca marks: equal to cur when marked */
  guint cur;
  guint *queue, *touched;
  gboolean *is_touched;
  guint n_touched;
  guint *cycle, n_cycle;  /* a contraction: the bases on its cycle, then */
  guint *inner, n_inner;  /* its inner vertices, which become outer      */
} Search;

/* The base of v's blossom (the root of its union-find tree). */
static int
base_of (Search *s, int v)
{
  int r = v;
  while (s->base[r] != r)
    r = s->base[r];
  while (s->base[v] != r)
    {
      int next = s->base[v];
      s->base[v] = r;
      v = next;
    }
  return r;
}

static void
touch (Search *s, guint v)
{
  if (!s->is_touched[v])
    {
      s->is_touched[v] = TRUE;
      s->touched[s->n_touched++] = v;
    }
}

static void
untouch_all (Search *s)
{
  for (guint i = 0; i < s->n_touched; i++)
    {
      guint v = s->touched[i];
      s->is_touched[v] = FALSE;
      s->used[v] = FALSE;
      s->parent[v] = -1;
      s->base[v] = (int) v;
    }
  s->n_touched = 0;
}

static int
lca (Search *s, int a, int b)
{
  s->cur++;
  for (;;)
    {
      a = base_of (s, a);
      s->stamp[a] = s->cur;
      if (s->match[a] < 0)
        break;
      a = s->parent[s->match[a]];
    }
  for (;;)
    {
      b = base_of (s, b);
      if (s->stamp[b] == s->cur)
        return b;
      b = s->parent[s->match[b]];
    }
}

/* One side of a blossom's cycle, from v back to its base b: the tree
 * pointers turned to run round the cycle, the bases collected for the
 * contraction and the inner vertices to become outer. */
static void
mark_path (Search *s, int v, int b, int child)
{
  while (base_of (s, v) != b)
    {
      int m = s->match[v];
      s->cycle[s->n_cycle++] = (guint) base_of (s, v);
      s->cycle[s->n_cycle++] = (guint) base_of (s, m);
      s->inner[s->n_inner++] = (guint) m;
      s->parent[v] = child;
      touch (s, (guint) v);
      child = m;
      v = s->parent[m];
    }
}

/* Contract the blossom of the edge (v, to) into its base; its inner
 * vertices join the queue as outer ones. */
static void
contract (Search *s, int v, int to, guint *tail)
{
  int b = lca (s, v, to);
  s->n_cycle = s->n_inner = 0;
  mark_path (s, v, b, to);
  mark_path (s, to, b, v);
  for (guint i = 0; i < s->n_cycle; i++)
    if ((int) s->cycle[i] != b)
      s->base[s->cycle[i]] = b;
  for (guint i = 0; i < s->n_inner; i++)
    {
      guint u = s->inner[i];
      if (!s->used[u])
        {
          s->used[u] = TRUE;
          s->queue[(*tail)++] = u;
        }
    }
}

/* An alternating-path search from `root`; returns the exposed vertex it
 * reached (the path runs back through parent/match), or -1. */
static int
find_path (Search *s, guint root)
{
  guint head = 0, tail = 0;
  s->used[root] = TRUE;
  touch (s, root);
  s->queue[tail++] = root;
  while (head < tail)
    {
      guint v = s->queue[head++];
      for (guint k = s->start[v]; k < s->start[v + 1]; k++)
        {
          guint to = s->nb[k];
          if (base_of (s, (int) v) == base_of (s, (int) to) || s->match[v] == (int) to)
            continue;
          if (to == root || (s->match[to] >= 0 && s->parent[s->match[to]] >= 0))
            contract (s, (int) v, (int) to, &tail);
          else if (s->parent[to] < 0)
            {
              s->parent[to] = (int) v;
              touch (s, to);
              if (s->match[to] < 0)
                return (int) to;
              guint next = (guint) s->match[to];
              s->used[next] = TRUE;
              touch (s, next);
              s->queue[tail++] = next;
            }
        }
    }
  return -1;
}

static void
augment (Search *s, int v)
{
  while (v >= 0)
    {
      int pv = s->parent[v], ppv = s->match[pv];
      s->match[v] = pv;
      s->match[pv] = v;
      v = ppv;
    }
}

void
fx_matching_solve (guint n, guint n_edges, const guint *eu, const guint *ev,
                   const guint *order, int *mate_edge)
{
  g_autofree guint *start = g_new0 (guint, n + 1);
  g_autofree guint *nb = g_new (guint, 2 * MAX (n_edges, 1));
  g_autofree guint *nb_edge = g_new (guint, 2 * MAX (n_edges, 1));
  g_autofree guint *fill = NULL;

  for (guint e = 0; e < n_edges; e++)
    if (eu[e] != ev[e])
      start[eu[e] + 1]++, start[ev[e] + 1]++;
  for (guint v = 0; v < n; v++)
    start[v + 1] += start[v];
  fill = g_memdup2 (start, sizeof (guint) * (n + 1));
  for (guint e = 0; e < n_edges; e++)
    if (eu[e] != ev[e])
      {
        nb[fill[eu[e]]] = ev[e], nb_edge[fill[eu[e]]++] = e;
        nb[fill[ev[e]]] = eu[e], nb_edge[fill[ev[e]]++] = e;
      }

  Search s = { n, start, nb, g_new (int, MAX (n, 1)), g_new (int, MAX (n, 1)),
               g_new (int, MAX (n, 1)), g_new0 (gboolean, MAX (n, 1)),
               g_new0 (guint, MAX (n, 1)), 0,
               g_new (guint, MAX (n, 1)), g_new (guint, MAX (n, 1)),
               g_new0 (gboolean, MAX (n, 1)), 0,
               g_new (guint, 2 * MAX (n, 1)), 0, g_new (guint, MAX (n, 1)), 0 };
  for (guint v = 0; v < n; v++)
    {
      s.match[v] = -1;
      s.parent[v] = -1;
      s.base[v] = (int) v;
    }

  g_autofree guint *pos = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    pos[order ? order[i] : i] = i;
  for (guint i = 0; i < n; i++)
    {
      guint v = order ? order[i] : i;
      if (s.match[v] >= 0)
        continue;
      /* a free neighbour first: the cheap, common case */
      for (guint k = start[v]; k < start[v + 1]; k++)
        if (s.match[nb[k]] < 0)
          {
            s.match[v] = (int) nb[k];
            s.match[nb[k]] = (int) v;
            break;
          }
      if (s.match[v] >= 0)
        continue;
      int end = find_path (&s, v);
      if (end >= 0)
        augment (&s, end);
      else
        {
          /* No augmenting path, but v may still be covered instead of a
           * vertex that comes later in the order: any outer vertex x of the
           * search is joined to v by an even alternating path; flipping it
           * covers v and exposes x. Take the latest in the order, so that
           * the covered set is the greedy one (the matchable sets form a
           * matroid) and ties leave the last vertices exposed. */
          int x = -1;
          for (guint t = 0; t < s.n_touched; t++)
            {
              guint u = s.touched[t];
              if (s.used[u] && u != v && s.match[u] >= 0 && pos[u] > pos[v]
                  && s.parent[s.match[u]] >= 0 && (x < 0 || pos[u] > pos[x]))
                x = (int) u;
            }
          if (x >= 0)
            {
              int y = s.match[x];
              s.match[x] = -1;
              augment (&s, y);
            }
        }
      untouch_all (&s);
    }

  /* the lowest-numbered edge between each matched pair */
  for (guint v = 0; v < n; v++)
    {
      mate_edge[v] = -1;
      if (s.match[v] < 0)
        continue;
      if (s.match[s.match[v]] != (int) v)
        g_critical ("fx_matching_solve: vertex %u matched to %d, which is matched to %d",
                    v, s.match[v], s.match[s.match[v]]);
      for (guint k = start[v]; k < start[v + 1]; k++)
        if ((int) nb[k] == s.match[v] && (mate_edge[v] < 0 || nb_edge[k] < (guint) mate_edge[v]))
          mate_edge[v] = (int) nb_edge[k];
    }

  g_free (s.match);
  g_free (s.parent);
  g_free (s.base);
  g_free (s.used);
  g_free (s.stamp);
  g_free (s.cycle);
  g_free (s.inner);
  g_free (s.queue);
  g_free (s.touched);
  g_free (s.is_touched);
}
