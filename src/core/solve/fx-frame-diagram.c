/* fx-frame-diagram.c: the samples of a frame's N, V, M diagrams
 * (physics.md §14, fx-frame.h).
 *
 * Everything is read through the probe (fx_system_probe_values), never the
 * unknowns' layout, so a new element family or a floating-frame link (whose
 * probe asks its `resultants` and `node` callbacks) is drawn as it is
 * probed. Per element two readings, just inside each end; the centre is
 * their mean. A field that is constant over the element (a DG0 field, read as
 * its element's mean) is drawn as the element means at the element centres
 * joined, and its value at a node between two elements is the mean of the
 * two. A field that varies within the element is read at its ends.
 *
 * The moment is what a statics teacher reads off the diagram, so its node
 * values are element end forces, as a frame code gives them: a constant
 * (DG0) moment m is the element's mean, and its ends follow from the
 * element's rotational equilibrium, dM/ds = -V (the kernel's omega row at
 * rest, docs/theory.md §2, without the strain product (C1 - C2) N V, which
 * a linear frame code leaves out too), so M = m +- V h/2 at the ends. On a
 * simply supported beam under a mid-span load, whose moment is linear
 * between the load and the supports, that gives F L/4 at mid-span where
 * the element means alone give F L/4 (1 - 1/N).
 *
 * A frame code also puts a node under every point load. Where a link's
 * point load sits on an interior node, the elements on either side that
 * carry it through a piecewise-constant velocity (T = V) spread it over
 * their length, and their shear runs linearly across both (0 at the node):
 * the moment there is rounded off by about F h/4. The diagram puts the
 * load back at its point: over those two elements the shear is the one
 * from outside them, constant, and the moment follows from it by statics
 * from the outer nodes, so the node reads F L/4 (to O(h²)) at any N.
 * Where the load is already at the node (T = F, a jump in a DG0 shear)
 * the same statics changes nothing.
 */
#include "fx-frame.h"

#include <math.h>
#include <string.h>

/* How far inside an element its ends are read: a field that jumps at a
 * node is read on the element's side. */
#define END_INSET 1e-9

typedef struct {
  double at[3][FX_DIAGRAM_N_VALUES];  /* start, centre, end */
  double h;                           /* element length, m */
} Element;

static void
probe_resultants (const FxSystem *sys, guint link, double s, double out[FX_DIAGRAM_N_VALUES])
{
  double v[FX_PROBE_N_VALUES];

  fx_system_probe_values (sys, link, s, v);
  out[FX_DIAGRAM_N] = v[FX_PROBE_N];
  out[FX_DIAGRAM_V] = v[FX_PROBE_V];
  out[FX_DIAGRAM_M] = v[FX_PROBE_M];
}

/* The same value at both ends to round-off: a field piecewise constant. */
static gboolean
constant_over (const Element *e, int f)
{
  double a = e->at[0][f], b = e->at[2][f];
  return fabs (a - b) <= 1e-9 * MAX (fabs (a), fabs (b));
}

static double
link_length (const FxModel *model, guint l)
{
  const FxLink *link = fx_model_link (model, l);
  int a = fx_model_find_joint (model, link->from), b = fx_model_find_joint (model, link->to);

  if (a < 0 || b < 0)
    return 0.0;
  const double *pa = fx_model_joint (model, (guint) a)->at, *pb = fx_model_joint (model, (guint) b)->at;
  return hypot (pb[0] - pa[0], pb[1] - pa[1]);
}

static void
read_element (const FxSystem *sys, guint l, double length, guint i, Element *e)
{
  double a = fx_system_node_fraction (sys, l, i), b = fx_system_node_fraction (sys, l, i + 1);
  double inset = END_INSET * (b - a);

  probe_resultants (sys, l, a + inset, e->at[0]);
  probe_resultants (sys, l, b - inset, e->at[2]);
  /* the centre as the ends' mean: exact for fields of degree 0 and 1, and
   * a third fewer probes (frames are made at every step) */
  for (int f = 0; f < FX_DIAGRAM_N_VALUES; f++)
    e->at[1][f] = 0.5 * (e->at[0][f] + e->at[2][f]);
  e->h = (b - a) * length;
  /* a constant moment's element end forces, from dM/ds = -V */
  if (constant_over (e, FX_DIAGRAM_M))
    {
      double m = e->at[1][FX_DIAGRAM_M], half = 0.5 * e->h * e->at[1][FX_DIAGRAM_V];
      e->at[0][FX_DIAGRAM_M] = m + half;
      e->at[2][FX_DIAGRAM_M] = m - half;
    }
}

/* Node i's value of field f between element `left` (NULL at the link's
 * start) and element `right` (NULL at its end). */
static double
node_value (const Element *left, const Element *right, int f)
{
  if (left == NULL)
    return right->at[0][f];
  if (right == NULL)
    return left->at[2][f];
  /* element means joined at the centres, or the two end values, meet
   * halfway (the same value where the field is continuous) */
  if (f != FX_DIAGRAM_M && constant_over (left, f) && constant_over (right, f))
    return 0.5 * (left->at[1][f] + right->at[1][f]);
  return 0.5 * (left->at[2][f] + right->at[0][f]);
}

/* Where a point load of link l sits: inside element *e at fraction *xi of
 * it (*xi = 0: on the interior node *e). FALSE for another link's load or
 * a load at the link's ends (a joint's business). */
static gboolean
load_place (const FxSystem *sys, const FxModel *model, const FxLoad *load, guint l,
            guint n_elements, guint *e, double *xi)
{
  if (load->link == NULL || fx_model_find_link (model, load->link) != (int) l)
    return FALSE;
  for (guint i = 0; i < n_elements; i++)
    {
      double a = fx_system_node_fraction (sys, l, i), b = fx_system_node_fraction (sys, l, i + 1);
      if (i > 0 && fabs (load->s - a) < 1e-9)
        {
          *e = i, *xi = 0;
          return TRUE;
        }
      if (load->s > a + 1e-9 && load->s < b - 1e-9)
        {
          *e = i, *xi = (load->s - a) / (b - a);
          return TRUE;
        }
    }
  return FALSE;
}

/* The shear and moment of element a's end at fraction xi of it: from the
 * values at `left` (its start) with shear VL, or at `right` (its end)
 * with VR, by dM/ds = -V, the mean of the two. */
static double
statics_moment (const double *left, const double *right, double h, double xi)
{
  const int M = FX_DIAGRAM_M, V = FX_DIAGRAM_V;
  return 0.5 * ((left[M] - xi * h * left[V]) + (right[M] + (1 - xi) * h * right[V]));
}

/* A load on interior drawn node i back at its point (above): the `span`
 * drawn intervals on either side of it (one element of degree k = span)
 * get the shear from outside them, constant, and the moment by statics
 * from their outer nodes, linear to the load's point. */
static void
restore_node_load (Element *el, guint n_elements, guint i, guint span)
{
  const int M = FX_DIAGRAM_M, V = FX_DIAGRAM_V;
  guint lo = i >= span ? i - span : 0, hi = MIN (i + span, n_elements);
  /* the outer nodes' values as the elements beyond give them */
  double left[FX_DIAGRAM_N_VALUES], right[FX_DIAGRAM_N_VALUES], hl = 0, hr = 0;
  memcpy (left, lo >= 1 ? el[lo - 1].at[2] : el[lo].at[0], sizeof left);
  memcpy (right, hi < n_elements ? el[hi].at[0] : el[hi - 1].at[2], sizeof right);
  for (guint j = lo; j < i; j++)
    hl += el[j].h;
  for (guint j = i; j < hi; j++)
    hr += el[j].h;
  if (!(hl > 0) || !(hr > 0))
    return;
  double Mi = statics_moment (left, right, hl + hr, hl / (hl + hr));

  double along = 0;
  for (guint j = lo; j < hi; j++)
    {
      Element *e = &el[j];
      /* the moment linear from the outer node to the load's point and on */
      for (int k = 0; k < 3; k++)
        {
          double x = along + 0.5 * k * e->h;
          double u = j < i ? x / hl : (x - hl) / hr;
          e->at[k][M] = j < i ? (1 - u) * left[M] + u * Mi : (1 - u) * Mi + u * right[M];
          e->at[k][V] = j < i ? left[V] : right[V];
        }
      along += e->h;
    }
}

/* A load inside element e at fraction xi: a frame code's node there. The
 * element's centre sample stands for the load's point (it is drawn at the
 * centre), its ends get the values from beyond it. */
static void
restore_element_load (Element *el, guint n_elements, guint e, double xi)
{
  const int M = FX_DIAGRAM_M, V = FX_DIAGRAM_V;
  Element *a = &el[e];
  double left[FX_DIAGRAM_N_VALUES], right[FX_DIAGRAM_N_VALUES];
  memcpy (left, e >= 1 ? el[e - 1].at[2] : a->at[0], sizeof left);
  memcpy (right, e + 1 < n_elements ? el[e + 1].at[0] : a->at[2], sizeof right);

  a->at[1][M] = statics_moment (left, right, a->h, xi);
  a->at[1][V] = 0.5 * (left[V] + right[V]);
  a->at[0][M] = left[M], a->at[0][V] = left[V];
  a->at[2][M] = right[M], a->at[2][V] = right[V];
}

/* Link l's samples (n_nodes = its elements + 1) into d, as fx-frame.h
 * lays them out. */
static void
link_samples (const FxSystem *sys, guint l, guint n_nodes, double length, double *d)
{
  if (n_nodes < 2)
    return;
  g_autofree Element *el = g_new (Element, n_nodes - 1);
  for (guint i = 0; i + 1 < n_nodes; i++)
    read_element (sys, l, length, i, &el[i]);
  const FxModel *model = fx_system_model (sys);
  /* drawn intervals per element: a degree-k link draws k per element */
  guint span = CLAMP (fx_model_link (model, l)->degree, 1u, FX_MAX_DEGREE);
  for (guint k = 0; k < model->loads->len; k++)
    {
      guint e;
      double xi;
      if (!load_place (sys, model, fx_model_load (model, k), l, n_nodes - 1, &e, &xi))
        continue;
      if (xi == 0)
        restore_node_load (el, n_nodes - 1, e, span);
      else
        restore_element_load (el, n_nodes - 1, e, xi);
    }
  for (guint i = 0; i < n_nodes; i++)
    {
      const Element *left = i > 0 ? &el[i - 1] : NULL, *right = i + 1 < n_nodes ? &el[i] : NULL;
      for (int f = 0; f < FX_DIAGRAM_N_VALUES; f++)
        {
          d[2 * FX_DIAGRAM_N_VALUES * i + f] = node_value (left, right, f);
          d[2 * FX_DIAGRAM_N_VALUES * i + FX_DIAGRAM_N_VALUES + f] = right ? right->at[1][f] : NAN;
        }
    }
}

void
fx_step_frame_fill_diagram (FxStepFrame *frame, const FxSystem *sys)
{
  const FxModel *model = fx_system_model (sys);

  for (guint l = 0; l < frame->n_links; l++)
    {
      /* frame nodes and elements are the same (elements(l) + 1 nodes) */
      if (frame->node_offset[l + 1] - frame->node_offset[l] != fx_system_link_elements (sys, l) + 1)
        continue;
      link_samples (sys, l, frame->node_offset[l + 1] - frame->node_offset[l], link_length (model, l),
                    frame->diagram + 2 * FX_DIAGRAM_N_VALUES * frame->node_offset[l]);
    }
}

void
fx_system_diagram_at (const FxSystem *sys, guint link, double s, double values[FX_DIAGRAM_N_VALUES])
{
  g_return_if_fail (link < fx_system_n_links (sys));
  guint n_nodes = fx_system_link_elements (sys, link) + 1;
  g_autofree double *d = g_new0 (double, 2 * FX_DIAGRAM_N_VALUES * n_nodes);

  link_samples (sys, link, n_nodes, link_length (fx_system_model (sys), link), d);
  s = CLAMP (s, 0.0, 1.0);
  /* the sample before s and the one after, by their fractions: node i at
   * its fraction, the element's centre halfway to the next */
  for (guint k = 0; k + 1 < 2 * n_nodes - 1; k++)
    {
      double a = fx_system_node_fraction (sys, link, k / 2), b = fx_system_node_fraction (sys, link, k / 2 + 1);
      double sk = k % 2 ? 0.5 * (a + b) : a, sn = k % 2 ? b : 0.5 * (a + b);
      if (s > sn && k + 2 < 2 * n_nodes - 1)
        continue;
      double u = sn > sk ? CLAMP ((s - sk) / (sn - sk), 0.0, 1.0) : 0.0;
      for (int f = 0; f < FX_DIAGRAM_N_VALUES; f++)
        values[f] = (1 - u) * d[FX_DIAGRAM_N_VALUES * k + f] + u * d[FX_DIAGRAM_N_VALUES * (k + 1) + f];
      return;
    }
  memset (values, 0, sizeof (double) * FX_DIAGRAM_N_VALUES);
}

void
fx_system_settled_probe_values (const FxSystem *sys, guint link, double s,
                                double values[FX_PROBE_N_VALUES])
{
  double d[FX_DIAGRAM_N_VALUES];

  fx_system_probe_values (sys, link, s, values);
  fx_system_diagram_at (sys, link, s, d);
  values[FX_PROBE_N] = d[FX_DIAGRAM_N];
  values[FX_PROBE_V] = d[FX_DIAGRAM_V];
  values[FX_PROBE_M] = d[FX_DIAGRAM_M];
}

void
fx_step_frame_settled_probes (FxStepFrame *f, const FxSystem *sys)
{
  const FxModel *model = fx_system_model (sys);

  for (guint p = 0; p < f->n_probes; p++)
    {
      const FxProbe *probe = fx_model_probe (model, p);
      int l = fx_model_find_link (model, probe->link);
      if (l >= 0)
        fx_system_settled_probe_values (sys, (guint) l, probe->s,
                                        &f->probe_values[FX_PROBE_N_VALUES * p]);
    }
}
