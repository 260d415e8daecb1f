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
