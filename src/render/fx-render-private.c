/* fx-render-private.c: palette, text and number formatting shared by the
 * scene and the plots, so the canvas, the live plots and exports agree. */
#include "fx-render-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static FxPalette light_palette, dark_palette;

void
fx_rgb_hex (const char *hex, double rgb[3])
{
  unsigned r = 0, g = 0, b = 0;
  if (hex[0] == '#')
    hex++;
  sscanf (hex, "%02x%02x%02x", &r, &g, &b);
  rgb[0] = r / 255.0;
  rgb[1] = g / 255.0;
  rgb[2] = b / 255.0;
}

static void
fill_palette (FxPalette *p, gboolean dark)
{
  fx_rgb_hex (dark ? "#242424" : "#fafafa", p->bg);
  fx_rgb_hex (dark ? "#303030" : "#ffffff", p->card);
  fx_rgb_hex (dark ? "#ffffff" : "#2e3436", p->fg);
  fx_rgb_hex (dark ? "#9a9996" : "#77767b", p->dim);
  fx_rgb_hex (dark ? "#78aeed" : "#1c71d8", p->accent);
  fx_rgb_hex (dark ? "#5e5c64" : "#9a9996", p->outline);
  fx_rgb_hex (dark ? "#c0bfbc" : "#5e5c64", p->ground);
  fx_rgb_hex (dark ? "#ffbe6f" : "#c64600", p->load);
  fx_rgb_hex (dark ? "#8ff0a4" : "#26a269", p->motor);
  fx_rgb_hex (dark ? "#dc8add" : "#813d9c", p->spring);
  fx_rgb_hex (dark ? "#ff7b63" : "#e01b24", p->error);
}

const FxPalette *
fx_palette_get (gboolean dark)
{
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      fill_palette (&light_palette, FALSE);
      fill_palette (&dark_palette, TRUE);
      g_once_init_leave (&once, 1);
    }
  return dark ? &dark_palette : &light_palette;
}

void
fx_series_color (guint i, gboolean dark, double rgb[3])
{
  /* GNOME palette: blue, orange, green, purple, red, brown, yellow */
  static const char *light[] = { "#1c71d8", "#e66100", "#26a269", "#813d9c",
                                 "#c01c28", "#865e3c", "#e5a50a" };
  static const char *darkc[] = { "#62a0ea", "#ffa348", "#57e389", "#c061cb",
                                 "#f66151", "#b5835a", "#f8e45c" };
  fx_rgb_hex ((dark ? darkc : light)[i % G_N_ELEMENTS (light)], rgb);
}

void
fx_text_font (cairo_t *cr, double size, gboolean bold)
{
  cairo_select_font_face (cr, "Cantarell", CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
  fx_measure_options (cr);
}

double
fx_text_width (cairo_t *cr, const char *text)
{
  cairo_text_extents_t e;
  cairo_text_extents (cr, text, &e);
  return e.x_advance;
}

double
fx_text_height (cairo_t *cr)
{
  cairo_font_extents_t fe;
  cairo_font_extents (cr, &fe);
  return fe.ascent + fe.descent;
}

double
fx_text_draw (cairo_t *cr, double x, double y, const char *text,
              FxAlign halign, FxAlign valign)
{
  cairo_font_extents_t fe;
  cairo_font_extents (cr, &fe);
  double w = fx_text_width (cr, text);
  double h = fe.ascent + fe.descent;
  double x0 = halign == FX_ALIGN_START ? x : halign == FX_ALIGN_CENTER ? x - w / 2 : x - w;
  double top = valign == FX_ALIGN_START ? y : valign == FX_ALIGN_CENTER ? y - h / 2 : y - h;
  cairo_move_to (cr, x0, top + fe.ascent);
  cairo_show_text (cr, text);
  cairo_new_path (cr);
  return w;
}

void
fx_text_draw_wrapped (cairo_t *cr, double x, double y, double width, const char *text)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GString *line = g_string_new (NULL);
  double widest = 0;
  for (guint i = 0; words[i]; i++)
    {
      g_autofree char *longer = line->len ? g_strconcat (line->str, " ", words[i], NULL)
                                          : g_strdup (words[i]);
      if (line->len && fx_text_width (cr, longer) > width)
        {
          widest = MAX (widest, fx_text_width (cr, line->str));
          g_ptr_array_add (lines, g_string_free (line, FALSE));
          line = g_string_new (words[i]);
        }
      else
        g_string_assign (line, longer);
    }
  widest = MAX (widest, fx_text_width (cr, line->str));
  g_ptr_array_add (lines, g_string_free (line, FALSE));
  cairo_save (cr);
  if (widest > width && width > 0)
    {
      cairo_matrix_t m;
      cairo_get_font_matrix (cr, &m);
      cairo_matrix_scale (&m, width / widest, width / widest);
      cairo_set_font_matrix (cr, &m);
    }
  double h = 1.2 * fx_text_height (cr), top = y - 0.5 * h * (lines->len - 1);
  for (guint i = 0; i < lines->len; i++)
    fx_text_draw (cr, x, top + i * h, lines->pdata[i], FX_ALIGN_CENTER, FX_ALIGN_CENTER);
  cairo_restore (cr);
}

/* Replace an ASCII '-' at the start by U+2212 MINUS SIGN. */
static void
typographic_minus (char *buf, gsize size)
{
  if (buf[0] != '-')
    return;
  gsize len = strlen (buf);
  if (len + 3 > size)
    return;
  memmove (buf + 3, buf + 1, len);  /* includes the NUL */
  buf[0] = (char) 0xe2;
  buf[1] = (char) 0x88;
  buf[2] = (char) 0x92;
}

void
fx_format_tick (char *buf, gsize size, double v, double zero_eps)
{
  if (fabs (v) <= zero_eps)
    v = 0;
  snprintf (buf, size, "%.6g", v);
  typographic_minus (buf, size);
}

void
fx_format_value (char *buf, gsize size, double v)
{
  snprintf (buf, size, "%.4g", v);
  typographic_minus (buf, size);
}

/* "16.8 N", "5.43 kN m", "−120 mN": three significant digits and an SI
 * prefix, as an engineer writes a value. */
void
fx_format_engineering (char *buf, gsize size, double v, const char *unit)
{
  static const char *const prefixes[] = { "p", "n", "\u00b5", "m", "", "k", "M", "G", "T" };
  if (!isfinite (v) || v == 0)
    {
      snprintf (buf, size, "%s %s", isfinite (v) ? "0" : "?", unit);
      return;
    }
  /* rounded to three digits first, so 999.7 is "1.00 k", not "1e+03" */
  int e = (int) floor (log10 (fabs (v)));
  double r = round (v / pow (10, e - 2)) * pow (10, e - 2);
  e = (int) floor (log10 (fabs (r)));
  int k = (int) floor (e / 3.0);
  k = CLAMP (k, -4, 4);
  double m = r / pow (10, 3 * k);
  char number[32];
  snprintf (number, sizeof number, "%.*f", CLAMP (2 - (e - 3 * k), 0, 2), m);
  snprintf (buf, size, "%s %s%s", number, prefixes[k + 4], unit);
  typographic_minus (buf, size);
}

double
fx_nice_step (double span, int target)
{
  double raw = span / MAX (target, 1), decade = pow (10, floor (log10 (raw))), q = raw / decade;

  return (q <= 1 ? 1 : q <= 2 ? 2 : q <= 5 ? 5 : 10) * decade;
}

guint
fx_tick_count (double v0, double v1, double step)
{
  if (!(step > 0) || !isfinite (v0) || !isfinite (v1) || !isfinite (step))
    return 0;
  double k0 = ceil (v0 / step), k1 = floor (v1 / step + 1e-9);
  if (!(k1 >= k0))
    return 0;
  return (guint) MIN (k1 - k0 + 1, 200.0);
}

void
fx_draw_ticks (cairo_t *cr, const double box[4], double lo, double hi, double step,
               gboolean vertical, double k, const FxPalette *pal)
{
  char buf[64];

  for (guint i = 0, n = fx_tick_count (lo, hi, step); i < n; i++)
    {
      double v = (ceil (lo / step) + i) * step, u = (v - lo) / (hi - lo);
      double at = vertical ? floor (box[1] + box[3] - u * box[3]) + 0.5 : floor (box[0] + u * box[2]) + 0.5;
      fx_set_rgba (cr, pal->fg, vertical && fabs (v) < 1e-9 * step ? 0.25 : 0.08);
      cairo_move_to (cr, vertical ? box[0] : at, vertical ? at : box[1]);
      cairo_line_to (cr, vertical ? box[0] + box[2] : at, vertical ? at : box[1] + box[3]);
      cairo_stroke (cr);
      fx_format_tick (buf, sizeof buf, v, 1e-9 * step);
      fx_set_rgb (cr, pal->dim);
      if (vertical)
        fx_text_draw (cr, box[0] - 6 * k, at, buf, FX_ALIGN_END, FX_ALIGN_CENTER);
      else
        fx_text_draw (cr, at, box[1] + box[3] + 4 * k, buf, FX_ALIGN_CENTER, FX_ALIGN_START);
    }
}

void
fx_draw_readout (cairo_t *cr, double x, const double box[4], const char *const *lines, guint n,
                 double k, const FxPalette *pal)
{
  double wmax = 0, row = 14 * k;

  fx_text_font (cr, 10 * k, FALSE);
  for (guint l = 0; l < n; l++)
    wmax = MAX (wmax, fx_text_width (cr, lines[l]));
  double bw = wmax + 12 * k, bh = n * row + 8 * k, bx = x + 8 * k;
  if (bx + bw > box[0] + box[2])
    bx = x - 8 * k - bw;
  double by = box[1] + box[3] - bh - 6 * k;
  fx_rounded_rect (cr, bx, by, bw, bh, 5 * k);
  fx_set_rgba (cr, pal->card, 0.95);
  cairo_fill_preserve (cr);
  fx_set_rgba (cr, pal->fg, 0.2);
  cairo_stroke (cr);
  fx_set_rgb (cr, pal->fg);
  for (guint l = 0; l < n; l++)
    fx_text_draw (cr, bx + 6 * k, by + 4 * k + (l + 0.5) * row, lines[l], FX_ALIGN_START,
                  FX_ALIGN_CENTER);
}

void
fx_plot_begin (cairo_t *cr, double w, double h, gboolean transparent, const FxPalette *pal)
{
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, w, h);
  cairo_clip (cr);
  if (!transparent)
    {
      fx_set_rgb (cr, pal->bg);
      cairo_paint (cr);
    }
}

void
fx_draw_legend_entry (cairo_t *cr, double x, double y, const double rgb[3], const char *name,
                      double k, const FxPalette *pal)
{
  fx_set_rgb (cr, rgb);
  cairo_set_line_width (cr, 2.5 * k);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + 14 * k, y);
  cairo_stroke (cr);
  fx_set_rgb (cr, pal->fg);
  fx_text_draw (cr, x + 18 * k, y, name, FX_ALIGN_START, FX_ALIGN_CENTER);
}

void
fx_rounded_rect (cairo_t *cr, double x, double y, double w, double h, double r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

void
fx_measure_options (cairo_t *cr)
{
  cairo_font_options_t *o = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (o, CAIRO_HINT_METRICS_OFF);
  cairo_set_font_options (cr, o);
  cairo_font_options_destroy (o);
}

cairo_t *
fx_measure_context_new (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  cairo_surface_destroy (s);
  fx_measure_options (cr);
  return cr;
}
