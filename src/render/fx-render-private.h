/* fx-render-private.h: helpers shared by the drawing modules of
 * flexion-render (palette, text, number formatting). Not installed, not
 * for the app: the public API is in the other fx-*.h headers here.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* GNOME HIG colours for one style (light or dark), as 0..1 RGB. */
typedef struct {
  double bg[3];        /* window background: #fafafa / #242424           */
  double card[3];      /* raised surface (legend, colour bar card)       */
  double fg[3];        /* text and strokes: #2e3436 / #ffffff            */
  double dim[3];       /* secondary text                                 */
  double accent[3];    /* #3584e4                                        */
  double outline[3];   /* thin outline around light colours              */
  double ground[3];    /* support symbols                                */
  double load[3];      /* load arrows                                    */
  double motor[3];     /* motors and drives                              */
  double spring[3];    /* springs                                        */
  double error[3];     /* joint gaps                                     */
} FxPalette;

const FxPalette *fx_palette_get (gboolean dark);

/* #rrggbb (no checks: internal constants) */
void   fx_rgb_hex          (const char *hex, double rgb[3]);
/* the n-th colour of a GNOME palette for series and probes */
void   fx_series_color     (guint i, gboolean dark, double rgb[3]);

static inline void
fx_set_rgb (cairo_t *cr, const double rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

static inline void
fx_set_rgba (cairo_t *cr, const double rgb[3], double alpha)
{
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
}

/* The UI font (Cantarell, falling back to the system's sans-serif) at
 * `size` pixels. */
void   fx_text_font        (cairo_t *cr, double size, gboolean bold);

typedef enum { FX_ALIGN_START, FX_ALIGN_CENTER, FX_ALIGN_END } FxAlign;

/* Draws UTF-8 `text` with its ink box aligned to (x, y): halign on the
 * advance width, valign on the font's ascent/descent (START: top at y,
 * CENTER: middle, END: baseline-descent at y). Returns the advance width. */
double fx_text_draw        (cairo_t *cr, double x, double y, const char *text,
                            FxAlign halign, FxAlign valign);
double fx_text_width       (cairo_t *cr, const char *text);
double fx_text_height      (cairo_t *cr);  /* ascent + descent */
/* Draws `text` centred on (x, y) within `width`: broken into lines at
 * spaces where it is wider (a hint in a narrow plot, German words), and a
 * word still wider is drawn smaller. */
void   fx_text_draw_wrapped (cairo_t *cr, double x, double y, double width, const char *text);

/* A tick label: %.*g with a typographic minus (U+2212), "0" for values
 * within `zero_eps` of zero. buf must hold at least 40 bytes. */
void   fx_format_tick      (char *buf, gsize size, double v, double zero_eps);
/* A value read-out: 4 significant digits, typographic minus. */
void   fx_format_value     (char *buf, gsize size, double v);
/* "16.8 N", "5.43 kN m": three significant digits, an SI prefix, the unit. */
void   fx_format_engineering (char *buf, gsize size, double v, const char *unit);

/* "Nice" tick spacing on the 1-2-5 ladder for about `target` intervals of
 * `span`, and how many ticks k step fall in [v0, v1] (at most 200; 0 for a
 * step or bound that is not finite, where a loop v += step would not end). */
double fx_nice_step        (double span, int target);
guint  fx_tick_count       (double v0, double v1, double step);

/* The grid lines and tick labels of a plot's linear axis, ticks `step`
 * apart over [lo, hi]: `vertical` for the y axis (labels left of the data
 * area box = x, y, w, h, the line at 0 stronger), else the x axis (labels
 * below it). In the current font. */
void   fx_draw_ticks       (cairo_t *cr, const double box[4], double lo, double hi, double step,
                            gboolean vertical, double k, const FxPalette *pal);

/* A hover read-out: a card of `n` lines beside device x (right of it, or
 * left where it would leave the data area box), at the area's bottom. */
void   fx_draw_readout     (cairo_t *cr, double x, const double box[4], const char *const *lines,
                            guint n, double k, const FxPalette *pal);

/* Begins a plot of w x h: saves the state (the caller restores it), clips
 * to the plot and paints its background unless transparent. */
void   fx_plot_begin       (cairo_t *cr, double w, double h, gboolean transparent,
                            const FxPalette *pal);

/* One legend row: a short line of the series colour at (x, y), its name after it. */
void   fx_draw_legend_entry (cairo_t *cr, double x, double y, const double rgb[3],
                             const char *name, double k, const FxPalette *pal);

/* A rounded rectangle path. */
void   fx_rounded_rect     (cairo_t *cr, double x, double y, double w, double h, double r);

/* A fresh 1x1 context for measuring text the same way everywhere
 * (hint metrics off, so layout does not depend on the target surface). */
cairo_t *fx_measure_context_new (void);
void     fx_measure_options     (cairo_t *cr);

G_END_DECLS
