/* fx-colormap.h: diverging colour maps for bending moments.
 *
 * Both maps are perceptually ordered and symmetric about zero: equal |M|
 * gives equal lightness, the sign picks the hue, and zero is a neutral
 * light grey, so an unloaded link reads as "nothing here".
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  FX_COLORMAP_COOL_WARM,     /* Moreland's blue-grey-red                 */
  FX_COLORMAP_GREEN_PURPLE,  /* purple-grey-green (colour-blind safe)    */
} FxColormap;

/* u in [-1, 1] (clamped; NaN gives the neutral colour) to 0..1 RGB. */
void        fx_colormap_eval        (FxColormap map, double u, double rgb[3]);
const char *fx_colormap_to_string   (FxColormap map);
gboolean    fx_colormap_from_string (const char *s, FxColormap *out);

G_END_DECLS
