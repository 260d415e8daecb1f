/* fx-gif.h: a small GIF89a writer (LZW, global palette, looping), for
 * animation exports without any extra library. */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _FxGifWriter FxGifWriter;

/* `palette` holds n_colors (<= 256) RGB triples; frames index into it.
 * delay_cs: centiseconds per frame. Writes the header at once. */
FxGifWriter *fx_gif_writer_new      (FILE *file, guint width, guint height,
                                     const guint8 *palette, guint n_colors,
                                     guint delay_cs, gboolean loop);
/* The delay of the frames added from now on, centiseconds. */
void         fx_gif_writer_set_delay (FxGifWriter *gif, guint delay_cs);
/* The delay of frame i at `fps` frames per second: whole centiseconds
 * alternating (3, 3, 4, ... for 30 fps) so that the first k frames last
 * k / fps to the centisecond, where one fixed delay drifts (30 fps stored
 * as 3 cs played 4 s in 3.63 s). At least 2: browsers slow down anything
 * shorter, so above 50 fps a GIF plays slower. */
guint        fx_gif_frame_delay      (guint i, double fps);
/* width * height palette indices, row by row. */
void         fx_gif_writer_add_frame (FxGifWriter *gif, const guint8 *indices);
/* Writes the trailer and frees the writer; FALSE if any write failed. The
 * file stays open (the caller closes it). */
gboolean     fx_gif_writer_finish   (FxGifWriter *gif);

/* Maps RGB to the nearest palette entry, with a cache over 6-bit colours. */
typedef struct _FxPaletteMap FxPaletteMap;
FxPaletteMap *fx_palette_map_new    (const guint8 *palette, guint n_colors);
guint8        fx_palette_map_lookup (FxPaletteMap *map, guint8 r, guint8 g, guint8 b);
void          fx_palette_map_free   (FxPaletteMap *map);

G_END_DECLS
