/* fx-gif.c: GIF89a with variable-length LZW codes (8-bit minimum code
 * size, clear code 256, end code 257, codes up to 12 bits). */
#include "fx-gif.h"

#include <math.h>

#include <string.h>

#define MAX_CODES 4096

struct _FxGifWriter {
  FILE *f;
  guint width, height, delay_cs;
  gboolean ok;

  /* LZW state */
  guint16 *next;       /* MAX_CODES * 256: the code of (prefix, byte), 0 = none */
  guint code_size, next_code;
  guint32 bit_buffer;
  guint n_bits;
  guint8 block[255];
  guint block_len;
};

static void
put (FxGifWriter *g, const void *data, gsize n)
{
  if (fwrite (data, 1, n, g->f) != n)
    g->ok = FALSE;
}

static void
put_byte (FxGifWriter *g, guint8 b)
{
  put (g, &b, 1);
}

static void
put_u16 (FxGifWriter *g, guint v)
{
  put_byte (g, v & 0xff);
  put_byte (g, (v >> 8) & 0xff);
}

FxGifWriter *
fx_gif_writer_new (FILE *file, guint width, guint height, const guint8 *palette,
                   guint n_colors, guint delay_cs, gboolean loop)
{
  FxGifWriter *g = g_new0 (FxGifWriter, 1);
  g->f = file;
  g->width = width;
  g->height = height;
  g->delay_cs = delay_cs;
  g->ok = TRUE;
  g->next = g_new0 (guint16, MAX_CODES * 256);

  put (g, "GIF89a", 6);
  put_u16 (g, width);
  put_u16 (g, height);
  put_byte (g, 0xf7);  /* global table, 8 bits per primary, 256 entries */
  put_byte (g, 0);     /* background colour */
  put_byte (g, 0);     /* square pixels */
  for (guint i = 0; i < 256; i++)
    {
      guint8 rgb[3] = { 0, 0, 0 };
      if (i < n_colors)
        memcpy (rgb, palette + 3 * i, 3);
      put (g, rgb, 3);
    }
  if (loop)
    {
      /* NETSCAPE2.0 application extension: loop forever */
      static const guint8 netscape[] = { 0x21, 0xff, 0x0b, 'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E',
                                         '2', '.', '0', 0x03, 0x01, 0x00, 0x00, 0x00 };
      put (g, netscape, sizeof netscape);
    }
  return g;
}

static void
flush_block (FxGifWriter *g)
{
  if (g->block_len == 0)
    return;
  put_byte (g, (guint8) g->block_len);
  put (g, g->block, g->block_len);
  g->block_len = 0;
}

static void
emit_code (FxGifWriter *g, guint code)
{
  g->bit_buffer |= (guint32) code << g->n_bits;
  g->n_bits += g->code_size;
  while (g->n_bits >= 8)
    {
      g->block[g->block_len++] = g->bit_buffer & 0xff;
      if (g->block_len == 255)
        flush_block (g);
      g->bit_buffer >>= 8;
      g->n_bits -= 8;
    }
}

static void
reset_dictionary (FxGifWriter *g)
{
  memset (g->next, 0, sizeof (guint16) * MAX_CODES * 256);
  g->code_size = 9;
  g->next_code = 258;
}

void
fx_gif_writer_set_delay (FxGifWriter *g, guint delay_cs)
{
  g->delay_cs = MIN (delay_cs, 65535u);
}

guint
fx_gif_frame_delay (guint i, double fps)
{
  if (!(fps > 0))
    return 2;
  double per = 100.0 / fps;
  long d = lround (per * (i + 1)) - lround (per * i);
  return (guint) MAX (2, d);
}

void
fx_gif_writer_add_frame (FxGifWriter *g, const guint8 *px)
{
  /* graphic control extension: the delay, no transparency */
  static const guint8 gce_head[] = { 0x21, 0xf9, 0x04, 0x04 };
  put (g, gce_head, sizeof gce_head);
  put_u16 (g, g->delay_cs);
  put_byte (g, 0);
  put_byte (g, 0);
  /* image descriptor: the whole canvas, no local table */
  put_byte (g, 0x2c);
  put_u16 (g, 0);
  put_u16 (g, 0);
  put_u16 (g, g->width);
  put_u16 (g, g->height);
  put_byte (g, 0);
  put_byte (g, 8);  /* LZW minimum code size */

  g->bit_buffer = 0;
  g->n_bits = 0;
  g->block_len = 0;
  reset_dictionary (g);
  emit_code (g, 256);  /* clear */

  gsize n = (gsize) g->width * g->height;
  guint prefix = px[0];
  for (gsize i = 1; i < n; i++)
    {
      guint8 c = px[i];
      guint16 code = g->next[prefix * 256 + c];
      if (code)
        {
          prefix = code;
          continue;
        }
      emit_code (g, prefix);
      if (g->next_code < MAX_CODES)
        {
          g->next[prefix * 256 + c] = (guint16) g->next_code;
          /* the decoder widens its codes one code later than we add them */
          if (g->next_code == (1u << g->code_size) && g->code_size < 12)
            g->code_size++;
          g->next_code++;
        }
      else
        {
          emit_code (g, 256);
          reset_dictionary (g);
        }
      prefix = c;
    }
  emit_code (g, prefix);
  emit_code (g, 257);  /* end of information */
  if (g->n_bits > 0)
    {
      g->block[g->block_len++] = g->bit_buffer & 0xff;
      if (g->block_len == 255)
        flush_block (g);
    }
  flush_block (g);
  put_byte (g, 0);  /* block terminator */
}

gboolean
fx_gif_writer_finish (FxGifWriter *g)
{
  put_byte (g, 0x3b);
  gboolean ok = g->ok && fflush (g->f) == 0;
  g_free (g->next);
  g_free (g);
  return ok;
}

/* ---- nearest palette colour ---- */

struct _FxPaletteMap {
  guint8 palette[256 * 3];
  guint n;
  gint16 *cache;  /* 64^3, -1 = not computed */
};

FxPaletteMap *
fx_palette_map_new (const guint8 *palette, guint n_colors)
{
  FxPaletteMap *m = g_new0 (FxPaletteMap, 1);
  m->n = MIN (n_colors, 256u);
  memcpy (m->palette, palette, 3 * m->n);
  m->cache = g_new (gint16, 64 * 64 * 64);
  memset (m->cache, 0xff, sizeof (gint16) * 64 * 64 * 64);
  return m;
}

guint8
fx_palette_map_lookup (FxPaletteMap *m, guint8 r, guint8 g, guint8 b)
{
  guint key = ((guint) (r >> 2) << 12) | ((guint) (g >> 2) << 6) | (b >> 2);
  if (m->cache[key] >= 0)
    return (guint8) m->cache[key];
  /* the cell's centre, weighted like the eye (green most) */
  int cr = (r & ~3) + 2, cg = (g & ~3) + 2, cb = (b & ~3) + 2;
  guint best = 0;
  long best_d = G_MAXLONG;
  for (guint i = 0; i < m->n; i++)
    {
      long dr = cr - m->palette[3 * i], dg = cg - m->palette[3 * i + 1], db = cb - m->palette[3 * i + 2];
      long d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
      if (d < best_d)
        best_d = d, best = i;
    }
  m->cache[key] = (gint16) best;
  return (guint8) best;
}

void
fx_palette_map_free (FxPaletteMap *m)
{
  if (m == NULL)
    return;
  g_free (m->cache);
  g_free (m);
}
