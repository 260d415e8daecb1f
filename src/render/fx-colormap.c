/* fx-colormap.c: piecewise-linear tables of the diverging maps. */
#include "fx-colormap.h"

#include <math.h>

#define N_KNOTS 9

/* sRGB 0..255 at u = -1, -0.75, ..., 1. Knots at +u and -u have the same
 * CIELAB lightness L* (cool-warm: Moreland's 37.7 .. 88.1; green-purple:
 * PRGn hues brought to L* = 30, 46, 61, 76, 89), so the sign shows as hue
 * and the size as lightness. */
static const guint8 cool_warm[N_KNOTS][3] = {
  { 59, 76, 192 }, { 98, 130, 234 }, { 141, 176, 254 }, { 184, 208, 249 },
  { 221, 221, 221 },
  { 245, 196, 173 }, { 244, 154, 123 }, { 222, 96, 77 }, { 180, 4, 38 },
};
static const guint8 green_purple[N_KNOTS][3] = {
  { 102, 50, 110 }, { 146, 86, 157 }, { 169, 135, 184 }, { 203, 179, 214 },
  { 223, 223, 223 },
  { 151, 200, 146 }, { 85, 164, 91 }, { 35, 125, 62 }, { 18, 81, 43 },
};

void
fx_colormap_eval (FxColormap map, double u, double rgb[3])
{
  const guint8 (*table)[3] = map == FX_COLORMAP_GREEN_PURPLE ? green_purple : cool_warm;
  if (isnan (u))
    u = 0;
  u = CLAMP (u, -1.0, 1.0);
  double x = (u + 1) / 2 * (N_KNOTS - 1);
  int k = (int) floor (x);
  if (k >= N_KNOTS - 1)
    k = N_KNOTS - 2;
  double f = x - k;
  for (int c = 0; c < 3; c++)
    rgb[c] = ((1 - f) * table[k][c] + f * table[k + 1][c]) / 255.0;
}

const char *
fx_colormap_to_string (FxColormap map)
{
  return map == FX_COLORMAP_GREEN_PURPLE ? "green-purple" : "cool-warm";
}

gboolean
fx_colormap_from_string (const char *s, FxColormap *out)
{
  if (g_strcmp0 (s, "cool-warm") == 0)
    *out = FX_COLORMAP_COOL_WARM;
  else if (g_strcmp0 (s, "green-purple") == 0)
    *out = FX_COLORMAP_GREEN_PURPLE;
  else
    return FALSE;
  return TRUE;
}
