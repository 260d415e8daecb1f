/* fx-diagram.h: the N, V, M diagrams of a frame (physics.md §14), the
 * statics teacher's picture: for each link the axial force, shear force or
 * bending moment as a filled curve offset perpendicular to the link's
 * deformed axis, the largest value of the frame spanning a set fraction of
 * the model's size, extreme values written at their points, and a legend
 * that states the sign convention.
 *
 * Signs: N is positive in tension, V and M are the probe's (fx-measure.h).
 * The moment is drawn on the tension side (the European habit): a positive
 * moment bends the link to the left of its direction, so its tension side,
 * where the curve goes, is the right. N and V are drawn to the left of each
 * link's direction (from its `from` joint to its `to` joint) where
 * positive. Positive and negative parts are filled in two colours.
 *
 * The values are the frame's (fx-frame.h, FxStepFrame.diagram): element
 * end forces at the nodes, element means at the element centres.
 */
#pragma once

#include <cairo.h>
#include "fx-frame.h"
#include "fx-view.h"

G_BEGIN_DECLS

typedef enum {
  FX_DIAGRAM_VIEW_NONE,
  FX_DIAGRAM_VIEW_N,
  FX_DIAGRAM_VIEW_V,
  FX_DIAGRAM_VIEW_M,
} FxDiagramView;

/* The diagram spans this fraction of the model's size (the larger side
 * of the frame's box) at its largest value. */
#define FX_DIAGRAM_SPAN 0.15
/* ... and at most this fraction of the median link's length. */
#define FX_DIAGRAM_MEMBER_SPAN 0.25

/* "none", "N", "V", "M" (case-insensitive; "" is none). FALSE for anything else. */
gboolean    fx_diagram_view_parse (const char *text, FxDiagramView *view);
/* "none", "N", "V", "M" */
const char *fx_diagram_view_name  (FxDiagramView view);
/* The diagram's title, translated: "Axial force N", ... */
const char *fx_diagram_view_title (FxDiagramView view);

/* The frame's value of the diagram at sample k of link l (k = 2 i: node i,
 * 2 i + 1: the centre of element i), NaN outside. */
double      fx_diagram_sample     (const FxStepFrame *frame, FxDiagramView view, guint link,
                                   guint k);
/* The largest |value| of the diagram over the frame (0 for none). */
double      fx_diagram_max_abs    (const FxStepFrame *frame, FxDiagramView view);

/* Grows the box x0, x1, y0, y1 of a frame by the diagram's reach (its
 * span to every side, and room for the labels), so a picture fitted to it
 * holds the diagram too. Nothing for none. */
void        fx_diagram_grow_bounds (FxDiagramView view, double box[4]);

/* A value worth writing on the diagram: a link's largest or smallest (one,
 * at the link's middle, where the value is constant along it). */
typedef struct {
  guint link;
  guint sample;  /* k as in fx_diagram_sample */
  double s;      /* fraction along the link by node index */
  double value;  /* N, N or N m */
} FxDiagramExtreme;

/* The extremes of the frame's diagram, largest |value| first; values under
 * a hundredth of the largest are left out. */
GArray     *fx_diagram_extremes   (const FxStepFrame *frame, FxDiagramView view);

/* A value in engineering notation with 3 significant digits and its unit:
 * "50.0 N m", "−1.25 kN", "312 mN m" (typographic minus, no-break spaces). */
void        fx_diagram_format     (char *buf, gsize size, double value, FxDiagramView view);

/* The legend's lines for `view`: the title and the sign convention (the
 * same words the legend card shows), translated. */
const char *fx_diagram_legend_text (FxDiagramView view);

G_END_DECLS
