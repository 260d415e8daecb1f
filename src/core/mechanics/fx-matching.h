/* fx-matching.h: maximum-cardinality matching in a general graph.
 *
 * The causality assignment (docs/theory.md, "Regularising inertia") is a
 * perfect-matching question on each channel's junction graph: free
 * junctions are vertices, links that can be force-causal are edges. The
 * graph is not bipartite (a pin-jointed triangle is an odd cycle), so this
 * is Edmonds' blossom algorithm: one breadth-first search per vertex, which
 * only ever touches the part of the graph it explores (so ten thousand
 * separate loops cost ten thousand small searches, not one big one).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Match the n_vertices vertices by the n_edges edges (eu[i], ev[i]).
 * `order` (n_vertices entries, a permutation, or NULL for 0, 1, ...) is the
 * priority: vertices are covered greedily in that order, each by an
 * augmenting path when needed, or else by flipping an even alternating path
 * that uncovers a vertex later in the order; so the exposed vertices are
 * the latest in that order that a maximum matching can leave (the
 * matchable sets form a matroid). On return
 * mate_edge[v] is the matched edge at v, or -1 when v is exposed. Edges are
 * tried in index order, so the answer is deterministic. */
void fx_matching_solve (guint n_vertices, guint n_edges, const guint *eu, const guint *ev,
                        const guint *order, int *mate_edge);

G_END_DECLS
