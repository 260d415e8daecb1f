/* fx-ensemble-partial.c: an ensemble's partial file, what `ensemble
 * --partial` writes and `ensemble-merge` reads (see fx-ensemble.h).
 *
 * A partial is one text line, then its data:
 *   flexion-ensemble-partial/4 LENGTH SHA256\n
 * LENGTH is the number of bytes after the line and SHA256 their checksum
 * (hex); the data is a little-endian GVariant of type PARTIAL_TYPE. A
 * partial that was truncated, joined to another, or damaged in a single byte
 * fails the length or checksum test and is refused by name before anything
 * of it is merged (a damaged cell gave a standard deviation of 4e19 before).
 * Only regular files are read: /dev/zero or a FIFO would never end.
 */
#include "fx-ensemble-private.h"
#include "fx-output.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* /4: the length and checksum line; /3: eight columns per probe
 * (fx-measure.h), where /1 had x and y; exact sums instead of Welford's mean
 * and M2, and the part k/K */
#define PARTIAL_MAGIC "flexion-ensemble-partial/4"
#define PARTIAL_MAGIC_OLD "flexion-ensemble-partial/"
#define PARTIAL_TYPE "(stuuuuuuuadasstauadauada(udds)auadd)"
/* "MAGIC " + 20 digits + " " + 64 hex digits + "\n" */
#define PARTIAL_HEADER_LENGTH (sizeof PARTIAL_MAGIC + 20 + 1 + 64 + 1)

/* ------------------------------------------------------------ reading */

static gboolean
read_failed (GError **error, const char *path, int errnum, int fd)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errnum), _("cannot read %s: %s"),
               path, g_strerror (errnum));
  if (fd >= 0)
    close (fd);
  return FALSE;
}

/* The whole of a regular file. It is opened without blocking and checked on
 * its descriptor (a FIFO, /dev/zero or a folder is refused, not read), and
 * read up to its size at opening plus one byte, so that a file growing
 * meanwhile cannot take the memory. */
static gboolean
read_regular_file (const char *path, char **data, gsize *length, GError **error)
{
  struct stat st;
  int fd = g_open (path, O_RDONLY | O_NONBLOCK, 0);

  if (fd < 0)
    return read_failed (error, path, errno, -1);
  if (fstat (fd, &st) != 0)
    return read_failed (error, path, errno, fd);
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s is not a regular file (a partial is read from an ordinary file)"), path);
      close (fd);
      return FALSE;
    }
  gsize cap = (gsize) st.st_size + 1, n = 0;
  g_autofree char *buf = g_try_malloc (cap);
  if (buf == NULL)
    return read_failed (error, path, ENOMEM, fd);
  while (n < cap)
    {
      gssize got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return read_failed (error, path, errno, fd);
      if (got == 0)
        break;
      n += (gsize) got;
    }
  close (fd);
  *data = g_steal_pointer (&buf);
  *length = n;
  return TRUE;
}

static gboolean
damaged (GError **error, const char *path, const char *why)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s is a damaged ensemble partial: %s"),
               path, why);
  return FALSE;
}

/* The data of a partial, its line checked: the length (a truncated or doubled
 * file) and the checksum (a damaged byte). The data is copied to memory of
 * its own, aligned for GVariant. */
static gboolean
read_partial (const char *path, char **data, gsize *length, GError **error)
{
  g_autofree char *file = NULL;
  gsize size = 0;

  if (!read_regular_file (path, &file, &size, error))
    return FALSE;
  if (size >= sizeof PARTIAL_MAGIC_OLD - 1
      && memcmp (file, PARTIAL_MAGIC_OLD, sizeof PARTIAL_MAGIC_OLD - 1) == 0
      && (size < sizeof PARTIAL_MAGIC || memcmp (file, PARTIAL_MAGIC " ", sizeof PARTIAL_MAGIC) != 0))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s is an ensemble partial of an older Flexion; make it again with this "
                     "version (flexion-cli ensemble --partial)"), path);
      return FALSE;
    }
  if (size < PARTIAL_HEADER_LENGTH || memcmp (file, PARTIAL_MAGIC " ", sizeof PARTIAL_MAGIC) != 0
      || file[PARTIAL_HEADER_LENGTH - 1] != '\n')
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s is not a Flexion ensemble partial (flexion-cli ensemble --partial)"),
                   path);
      return FALSE;
    }
  char digits[21], sum[65];
  guint64 declared = 0;
  memcpy (digits, file + sizeof PARTIAL_MAGIC, 20);
  digits[20] = '\0';
  memcpy (sum, file + sizeof PARTIAL_MAGIC + 21, 64);
  sum[64] = '\0';
  if (!g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT64, &declared, NULL))
    return damaged (error, path, _("its first line is not a length and a checksum"));
  gsize got = size - PARTIAL_HEADER_LENGTH;
  if (got != declared)
    {
      /* the numbers apart: xgettext cannot see through G_GSIZE_FORMAT */
      g_autofree char *n_got = g_strdup_printf ("%" G_GSIZE_FORMAT, got);
      g_autofree char *n_declared = g_strdup_printf ("%" G_GUINT64_FORMAT, declared);
      g_autofree char *why = g_strdup_printf (
        _("it holds %s bytes of data where its first line says %s (truncated, or joined to other data)"),
        n_got, n_declared);
      return damaged (error, path, why);
    }
  g_autofree char *actual = g_compute_checksum_for_data (
    G_CHECKSUM_SHA256, (const guchar *) file + PARTIAL_HEADER_LENGTH, got);
  if (g_ascii_strcasecmp (actual, sum) != 0)
    return damaged (error, path, _("its checksum does not match its data"));
  *data = g_memdup2 (file + PARTIAL_HEADER_LENGTH, MAX (got, 1));
  *length = got;
  return TRUE;
}

/* ------------------------------------------------------------ writing */

static GVariant *
doubles (const double *v, gsize n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, v, n, sizeof (double));
}

static GVariant *
uints (const guint *v, gsize n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, v, n, sizeof (guint32));
}

gboolean
fx_ensemble_save (const FxEnsemble *e, const char *path, GError **error)
{
  GVariantBuilder failures, cols;
  gsize cells = (gsize) e->n_times * e->n_cols;

  g_variant_builder_init (&failures, G_VARIANT_TYPE ("a(udds)"));
  for (guint i = 0; i < e->failures->len; i++)
    {
      const FxEnsembleFailure *f = fx_ensemble_failure (e, i);

      g_variant_builder_add (&failures, "(udds)", f->sample, f->t, f->residual,
                             f->message ? f->message : "");
    }
  g_variant_builder_init (&cols, G_VARIANT_TYPE ("as"));
  for (guint c = 0; c < e->n_cols; c++)
    g_variant_builder_add (&cols, "s", (char *) g_ptr_array_index (e->cols, c));
  /* the exact sums: the number of partials of each (s1 then s2 per cell),
   * then all the partials in that order */
  g_autoptr (GArray) sum_n = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 2 * cells);
  g_autoptr (GArray) sum_p = g_array_new (FALSE, FALSE, sizeof (double));
  for (gsize k = 0; k < 2 * cells; k++)
    {
      const FxExactSum *sum = k < cells ? &e->s1[k] : &e->s2[k - cells];
      guint32 n = sum->n;
      g_array_append_val (sum_n, n);
      g_array_append_vals (sum_p, sum->p, sum->n);
    }

  GVariant *v = g_variant_new ("(stuuuuuuu@ad@asst@au@ad@au@ad@a(udds)@au@add)",
                               PARTIAL_MAGIC, e->seed, e->n_samples, e->first, e->count,
                               e->quantile_samples, e->keep, e->part, e->n_parts,
                               doubles (e->times, e->n_times), g_variant_builder_end (&cols),
                               e->model_sum ? e->model_sum : "", e->n_ok,
                               uints ((guint *) sum_n->data, sum_n->len),
                               doubles ((double *) sum_p->data, sum_p->len),
                               uints ((guint *) e->q_index->data, e->q_index->len),
                               doubles ((double *) e->q_values->data, e->q_values->len),
                               g_variant_builder_end (&failures),
                               uints ((guint *) e->path_index->data, e->path_index->len),
                               doubles ((double *) e->path_values->data, e->path_values->len),
                               e->worst_balance);
  g_variant_ref_sink (v);
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (v);

      g_variant_unref (v);
      v = swapped;
    }
  gsize length = g_variant_get_size (v);
  g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                      g_variant_get_data (v), length);
  g_autoptr (GString) file = g_string_sized_new (PARTIAL_HEADER_LENGTH + length);
  g_string_printf (file, "%s %020" G_GUINT64_FORMAT " %s\n", PARTIAL_MAGIC, (guint64) length, sum);
  g_assert (file->len == PARTIAL_HEADER_LENGTH);
  g_string_append_len (file, g_variant_get_data (v), (gssize) length);
  g_variant_unref (v);
  return fx_output_set_contents (path, file->str, file->len, error);
}

/* An index list (quantile samples, kept paths) within the part's samples,
 * increasing, and below `limit`. */
static gboolean
indices_sane (const GArray *index, guint first, guint count, guint limit)
{
  for (guint k = 0; k < index->len; k++)
    {
      guint i = g_array_index (index, guint, k);
      if (i < first || (guint64) i >= (guint64) first + count || i >= limit
          || (k > 0 && i <= g_array_index (index, guint, k - 1)))
        return FALSE;
    }
  return TRUE;
}

/* What a partial written by fx_ensemble_save always satisfies: a hand-edited
 * or damaged one (0 samples, a range past N, more results than samples)
 * is refused rather than merged into wrong statistics. */
static const char *
partial_problem (const FxEnsemble *e)
{
  guint64 end = (guint64) e->first + e->count;

  if (e->n_samples < 1 || e->count < 1)
    return _("it holds no samples");
  if (end > e->n_samples)
    return _("its samples run past the study's number of samples");
  if (e->n_parts < 1 || e->part >= e->n_parts || e->n_parts > e->n_samples)
    return _("its part number is out of range");
  if (e->n_ok + e->failures->len > e->count)
    return _("it holds more results than samples");
  if (!indices_sane (e->q_index, e->first, e->count, e->quantile_samples)
      || !indices_sane (e->path_index, e->first, e->count, e->keep))
    return _("its kept samples are outside its range");
  for (guint i = 0; i < e->failures->len; i++)
    {
      guint f = fx_ensemble_failure (e, i)->sample;
      if (f < e->first || f >= end)
        return _("a failed sample is outside its range");
    }
  for (guint i = 0; i < e->n_times; i++)
    if (!isfinite (e->times[i]) || e->times[i] < 0 || (i > 0 && e->times[i] <= e->times[i - 1]))
      return _("its output times are not increasing");
  if (!(e->worst_balance >= 0) || !isfinite (e->worst_balance))
    return _("its balance is not a finite number");
  return NULL;
}

static const double *
fixed_doubles (GVariant *v, gsize *n)
{
  return g_variant_get_fixed_array (v, n, sizeof (double));
}

FxEnsemble *
fx_ensemble_load (const char *path, GError **error)
{
  char *data = NULL;
  gsize length = 0;

  if (!read_partial (path, &data, &length, error))
    return NULL;
  g_autoptr (GVariant) raw = g_variant_ref_sink (
    g_variant_new_from_data (G_VARIANT_TYPE (PARTIAL_TYPE), data, length, FALSE, g_free, data));
  g_autoptr (GVariant) v = G_BYTE_ORDER == G_BIG_ENDIAN ? g_variant_byteswap (raw)
                                                        : g_variant_get_normal_form (raw);
  g_autoptr (GVariant) times_v = NULL, cols_v = NULL, sn_v = NULL, sp_v = NULL, qi_v = NULL;
  g_autoptr (GVariant) qv_v = NULL, fail_v = NULL, pi_v = NULL, pv_v = NULL;
  const char *magic = NULL, *sum = NULL;
  guint64 seed = 0, n_ok = 0;
  guint32 n_samples, first, count, q, keep, part, n_parts;
  double worst;

  g_variant_get (v, "(&stuuuuuuu@ad@as&st@au@ad@au@ad@a(udds)@au@add)", &magic, &seed,
                 &n_samples, &first, &count, &q, &keep, &part, &n_parts, &times_v, &cols_v, &sum,
                 &n_ok, &sn_v, &sp_v, &qi_v, &qv_v, &fail_v, &pi_v, &pv_v, &worst);
  gsize n_times, n_sn, n_sp, n_qi, n_qv, n_pi, n_pv;
  const double *times = fixed_doubles (times_v, &n_times);
  const guint32 *sn = g_variant_get_fixed_array (sn_v, &n_sn, sizeof (guint32));
  const double *sp = fixed_doubles (sp_v, &n_sp);
  const guint32 *qi = g_variant_get_fixed_array (qi_v, &n_qi, sizeof (guint32));
  const double *qv = fixed_doubles (qv_v, &n_qv);
  const guint32 *pi = g_variant_get_fixed_array (pi_v, &n_pi, sizeof (guint32));
  const double *pv = fixed_doubles (pv_v, &n_pv);
  g_autoptr (GPtrArray) cols = g_ptr_array_new_with_free_func (g_free);
  GVariantIter iter;
  const char *name;

  g_variant_iter_init (&iter, cols_v);
  while (g_variant_iter_next (&iter, "&s", &name))
    g_ptr_array_add (cols, g_strdup (name));
  gsize cells = n_times * cols->len, n_partials = 0;
  for (gsize k = 0; k < n_sn && k < 2 * cells; k++)
    n_partials += sn[k];
  if (strcmp (magic, PARTIAL_MAGIC) != 0 || cols->len < FX_ENSEMBLE_N_ENERGY || n_times == 0
      || (cols->len - FX_ENSEMBLE_N_ENERGY) % FX_PROBE_N_VALUES != 0
      || n_sn != 2 * cells || n_sp != n_partials || n_qv != n_qi * cells
      || n_pv != n_pi * cells)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s is not a Flexion ensemble partial (flexion-cli ensemble --partial)"),
                   path);
      return NULL;
    }

  FxEnsemble *e = fx_ensemble_new ((guint) n_times, times, cols);
  e->source = g_strdup (path);
  e->seed = seed;
  e->n_samples = n_samples;
  e->first = first;
  e->count = count;
  e->quantile_samples = q;
  e->keep = keep;
  e->model_sum = g_strdup (sum);
  e->part = part;
  e->n_parts = n_parts;
  e->n_ok = n_ok;
  e->worst_balance = worst;
  e->moments_stale = TRUE;
  for (gsize k = 0, at = 0; k < 2 * cells; at += sn[k], k++)
    for (guint32 j = 0; j < sn[k]; j++)
      fx_exact_sum_add (k < cells ? &e->s1[k] : &e->s2[k - cells], sp[at + j]);
  g_array_append_vals (e->q_index, qi, n_qi);
  g_array_append_vals (e->q_values, qv, n_qv);
  g_array_append_vals (e->path_index, pi, n_pi);
  g_array_append_vals (e->path_values, pv, n_pv);

  FxEnsembleFailure f = { 0 };
  const char *message;
  g_variant_iter_init (&iter, fail_v);
  while (g_variant_iter_next (&iter, "(udd&s)", &f.sample, &f.t, &f.residual, &message))
    {
      f.message = g_strdup (message);
      g_array_append_val (e->failures, f);
    }
  const char *problem = partial_problem (e);
  if (problem != NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("%s is not a usable ensemble partial: %s"), path, problem);
      fx_ensemble_free (e);
      return NULL;
    }
  return e;
}
