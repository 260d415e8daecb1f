/* fx-model-report.c: the report of a load or a check, every problem as
 * "path: message" with its JSON path (a bad value is reported once, by
 * whichever pass saw it first), and numbers written as text. */
#include "fx-model-io-private.h"
#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <string.h>

/* ======================================================================== */
/* Report: errors and warnings, each "path: message"                        */
/* ======================================================================== */


void
fx_io_report_init (Report *r)
{
  r->errors = g_ptr_array_new_with_free_func (g_free);
  r->warnings = g_ptr_array_new_with_free_func (g_free);
  r->n_errors = r->n_warnings = 0;
  r->bad = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->code = FX_MODEL_ERROR_INVALID;
}

static void
report_clear (Report *r)
{
  g_clear_pointer (&r->errors, g_ptr_array_unref);
  g_clear_pointer (&r->warnings, g_ptr_array_unref);
  g_clear_pointer (&r->bad, g_hash_table_unref);
}

/* "links[2]" + "section" -> "links[2].section"; "joints" + "[0]" -> "joints[0]". */
char *
fx_io_path_join (const char *prefix, const char *key)
{
  gboolean has_prefix = prefix != NULL && *prefix != '\0';

  if (key == NULL || *key == '\0')
    return g_strdup (has_prefix ? prefix : "(root)");
  if (!has_prefix)
    return g_strdup (key);
  return g_strconcat (prefix, key[0] == '[' ? "" : ".", key, NULL);
}

/* Whether the path or one of its ancestors already has an error. */
gboolean
fx_io_report_is_bad (const Report *r, const char *path)
{
  g_autofree char *copy = g_strdup (path);

  if (g_hash_table_contains (r->bad, copy))
    return TRUE;
  for (gsize i = strlen (copy); i > 0; i--)
    if (copy[i] == '.' || copy[i] == '[')
      {
        copy[i] = '\0';
        if (g_hash_table_contains (r->bad, copy))
          return TRUE;
      }
  return FALSE;
}

/* Messages go to terminals and are joined by newlines: keep each on one
 * line, valid UTF-8 and of a sane length whatever the ids contain. */
static char *
sanitize (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *out = g_string_new (NULL);

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (out->len >= MAX_MESSAGE)
        {
          g_string_append (out, "...");
          break;
        }
      if ((guchar) *p < 0x20)
        g_string_append_printf (out, "\\x%02x", (guchar) *p);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (out, FALSE);
}

/* Silences the checks under path without a message of its own (the reason
 * was reported deeper down). */
void
fx_io_report_mark_bad (Report *r, const char *path)
{
  if (r->n_errors <= MAX_MESSAGES)
    g_hash_table_add (r->bad, g_strdup (path));
}

static void
report_add (GPtrArray *list, guint *count, const char *path, const char *message)
{
  g_autofree char *line = NULL;

  if ((*count)++ >= MAX_MESSAGES)
    return;
  line = g_strconcat (path, ": ", message, NULL);
  g_ptr_array_add (list, sanitize (line));
}


void
fx_io_report_error (Report *r, const char *prefix, const char *key, const char *format, ...)
{
  g_autofree char *path = fx_io_path_join (prefix, key);
  g_autofree char *message = NULL;
  va_list args;

  if (fx_io_report_is_bad (r, path))
    return;
  va_start (args, format);
  message = g_strdup_vprintf (_(format), args);  /* formats are marked by xgettext keywords */
  va_end (args);
  report_add (r->errors, &r->n_errors, path, message);
  /* Past the cap nothing more is shown, so stop growing the table. */
  if (r->n_errors <= MAX_MESSAGES)
    g_hash_table_add (r->bad, g_steal_pointer (&path));
}


void
fx_io_report_warning (Report *r, const char *prefix, const char *key, const char *format, ...)
{
  g_autofree char *path = fx_io_path_join (prefix, key);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (_(format), args);  /* formats are marked by xgettext keywords */
  va_end (args);
  report_add (r->warnings, &r->n_warnings, path, message);
}

static void
append_more (GPtrArray *list, guint count, gboolean errors)
{
  if (count <= MAX_MESSAGES)
    return;
  guint more = count - MAX_MESSAGES;
  g_ptr_array_add (list, g_strdup_printf (errors ? g_dngettext (NULL, "(and %u more error)",
                                                                 "(and %u more errors)", more)
                                                 : g_dngettext (NULL, "(and %u more warning)",
                                                                 "(and %u more warnings)", more),
                                          more));
}

/* Hands the warnings out (if wanted) and turns the errors into a GError. */
gboolean
fx_io_report_finish (Report *r, GPtrArray **warnings, GError **error)
{
  gboolean ok = r->n_errors == 0;

  if (warnings != NULL)
    {
      append_more (r->warnings, r->n_warnings, FALSE);
      *warnings = g_steal_pointer (&r->warnings);
    }
  if (!ok)
    {
      g_autofree char *message = NULL;

      append_more (r->errors, r->n_errors, TRUE);
      g_ptr_array_add (r->errors, NULL);
      message = g_strjoinv ("\n", (char **) r->errors->pdata);
      g_set_error_literal (error, FX_MODEL_ERROR, r->code, message);
    }
  report_clear (r);
  return ok;
}

/* ======================================================================== */
/* Numbers as text                                                          */
/* ======================================================================== */

/* Drops the '+' and the leading zeros of an exponent: 2.1e+11 -> 2.1e11. */
static void
tidy_exponent (char *buf)
{
  char *e = strchr (buf, 'e'), *digits, *to;

  if (e == NULL)
    return;
  to = e + 1;
  digits = to;
  if (*digits == '+' || *digits == '-')
    {
      if (*digits == '-')
        to++;
      digits++;
    }
  while (digits[0] == '0' && digits[1] != '\0')
    digits++;
  memmove (to, digits, strlen (digits) + 1);
}

/* Prints v with the given significant digits; whether that reads back as v. */
static gboolean
round_trips (char buf[G_ASCII_DTOSTR_BUF_SIZE], int precision, double v)
{
  char format[8];

  g_snprintf (format, sizeof format, "%%.%dg", precision);
  g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, format, v);
  return g_ascii_strtod (buf, NULL) == v;
}

/* The shortest decimal that reads back as exactly v; "null" when not finite
 * (JSON has no NaN). Integers print in full unless that is much longer
 * (7850, but 2.1e11). */
void
fx_io_format_double (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v)
{
  char plain[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    {
      g_strlcpy (buf, "null", G_ASCII_DTOSTR_BUF_SIZE);
      return;
    }
  if (v == 0.0)
    {
      g_strlcpy (buf, signbit (v) ? "-0.0" : "0", G_ASCII_DTOSTR_BUF_SIZE);
      return;
    }
  /* More digits never stop a round trip, so bisect for the fewest; 17
   * always suffice for a double. */
  {
    int lo = 1, hi = 17;

    while (lo < hi)
      {
        int mid = (lo + hi) / 2;

        if (round_trips (buf, mid, v))
          hi = mid;
        else
          lo = mid + 1;
      }
    round_trips (buf, lo, v);
  }
  tidy_exponent (buf);
  if (v == floor (v) && fabs (v) < 1e15)
    {
      g_ascii_formatd (plain, sizeof plain, "%.0f", v);
      if (strlen (plain) <= strlen (buf) + 3)
        g_strlcpy (buf, plain, G_ASCII_DTOSTR_BUF_SIZE);
    }
}

/* For messages: "got 1.5". Returned in a (per-thread) ring of buffers so
 * that one message can quote a few numbers. */
const char *
fx_io_num (double v)
{
  static _Thread_local char ring[4][G_ASCII_DTOSTR_BUF_SIZE];
  static _Thread_local guint next;
  char *buf = ring[next++ % G_N_ELEMENTS (ring)];

  if (v == floor (v) && fabs (v) < 1e15)
    g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.0f", v);  /* counts in full */
  else
    fx_io_format_double (buf, v);
  if (strcmp (buf, "null") == 0)
    g_strlcpy (buf, isnan (v) ? "NaN" : (v > 0 ? "inf" : "-inf"), G_ASCII_DTOSTR_BUF_SIZE);
  return buf;
}

