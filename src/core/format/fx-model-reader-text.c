/* fx-model-reader-text.c: the reader's first pass. The text is checked
 * before json-glib sees it (strict JSON, no comments or hexadecimal, no
 * nesting deep enough to overflow json-glib's recursion), then parsed. */
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
/* Text checks before json-glib sees the data                               */
/* ======================================================================== */

/* json-glib 1.6 recurses once per nesting level (so deep nesting overflows
 * the stack), wraps integers that do not fit in 64 bits, and is lenient: it
 * reads `$10` as hexadecimal, skips comments and takes single-quoted
 * strings. The format (docs/model-format.md) is strict JSON, so this pass
 * refuses everything outside RFC 8259's grammar of tokens before json-glib
 * sees the text; json-glib then only checks how the tokens fit together. */

typedef struct {
  Report *report;
  const char *data;
  gsize length;
} Text;

static void text_error (const Text *t, gsize offset, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
text_error (const Text *t, gsize offset, const char *format, ...)
{
  g_autofree char *message = NULL;
  guint line = 1, column = 1;
  va_list args;

  for (gsize i = 0; i < offset && i < t->length; i++)
    {
      if (t->data[i] == '\n')
        {
          line++;
          column = 1;
        }
      else
        column++;
    }
  va_start (args, format);
  message = g_strdup_vprintf (_(format), args);  /* formats are marked by xgettext keywords */
  va_end (args);
  t->report->code = FX_MODEL_ERROR_PARSE;
  fx_io_report_error (t->report, NULL, NULL, "not valid JSON: line %u, column %u: %s",
                line, column, message);
}

/* Checks the string whose opening quote is at i; returns the index past its
 * closing quote, or 0 (reported). JSON strings hold no raw control
 * characters and only the escapes \" \\ \/ \b \f \n \r \t \uXXXX. */
static gsize
check_string (const Text *t, gsize i)
{
  gsize start = i++;

  while (i < t->length && t->data[i] != '"')
    {
      guchar c = (guchar) t->data[i];

      if (c < 0x20)
        {
          text_error (t, i, "control character 0x%02x in a string; write it as an escape "
                      "such as \\n", c);
          return 0;
        }
      if (c == '\\')
        {
          char e = i + 1 < t->length ? t->data[i + 1] : '\0';
          gboolean hex4 = e == 'u' && i + 5 < t->length
                          && g_ascii_isxdigit (t->data[i + 2]) && g_ascii_isxdigit (t->data[i + 3])
                          && g_ascii_isxdigit (t->data[i + 4]) && g_ascii_isxdigit (t->data[i + 5]);

          if (e == '\0' || (strchr ("\"\\/bfnrt", e) == NULL && !hex4))
            {
              text_error (t, i, "invalid escape in a string");
              return 0;
            }
          i += hex4 ? 6 : 2;
          continue;
        }
      i++;
    }
  if (i >= t->length)
    {
      text_error (t, start, "string without its closing quote");
      return 0;
    }
  return i + 1;
}

static gsize
skip_digits (const Text *t, gsize i)
{
  while (i < t->length && g_ascii_isdigit (t->data[i]))
    i++;
  return i;
}

/* Checks the number that starts at i (a digit or '-') against JSON's
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? and against 64-bit integers;
 * returns the index past it, or 0 (reported). */
static gsize
check_number (const Text *t, gsize i)
{
  gsize start = i, int_start, int_end;
  gboolean ok = TRUE;

  if (t->data[i] == '-')
    i++;
  int_start = i;
  int_end = skip_digits (t, i);
  ok = int_end > int_start && !(t->data[int_start] == '0' && int_end - int_start > 1);
  i = int_end;
  if (ok && i < t->length && t->data[i] == '.')
    {
      gsize frac = skip_digits (t, i + 1);
      ok = frac > i + 1;
      i = frac;
    }
  if (ok && i < t->length && (t->data[i] == 'e' || t->data[i] == 'E'))
    {
      gsize exp = i + 1;
      if (exp < t->length && (t->data[exp] == '+' || t->data[exp] == '-'))
        exp++;
      gsize exp_end = skip_digits (t, exp);
      ok = exp_end > exp;
      i = exp_end;
    }
  /* a number runs into no letter, digit or dot: "0x10", "1.2.3", "1e5e" */
  while (i < t->length && (g_ascii_isalnum (t->data[i]) || t->data[i] == '.'
                           || t->data[i] == '+' || t->data[i] == '-'))
    {
      ok = FALSE;
      i++;
    }

  g_autofree char *token = g_strndup (t->data + start, MIN (i - start, 40));
  if (!ok)
    {
      text_error (t, start, "number %s: JSON numbers have no leading zeros, hexadecimal "
                  "or binary forms, and need digits around a decimal point", token);
      return 0;
    }
  if (int_end == i && int_end - int_start >= 19  /* shorter ones always fit in 63 bits */
      && !g_ascii_string_to_signed (token, 10, G_MININT64, G_MAXINT64, NULL, NULL))
    {
      text_error (t, start, "integer %s is too large; write it with a decimal exponent "
                  "(e.g. 1e20)", token);
      return 0;
    }
  return i;
}

/* Checks the word at i: JSON knows true, false and null only. */
static gsize
check_word (const Text *t, gsize i)
{
  static const char *const words[] = { "true", "false", "null" };
  gsize start = i;

  while (i < t->length && (g_ascii_isalnum (t->data[i]) || t->data[i] == '_'))
    i++;
  for (guint w = 0; w < G_N_ELEMENTS (words); w++)
    if (i - start == strlen (words[w]) && memcmp (t->data + start, words[w], i - start) == 0)
      return i;

  g_autofree char *token = g_strndup (t->data + start, MIN (i - start, 40));
  text_error (t, start, "unexpected word %s: strings need double quotes, and JSON has no "
              "NaN or Infinity", token);
  return 0;
}

/* Why a character that starts no JSON token is refused. */
static const char *
stray_reason (char c, char next)
{
  if (c == '\'')
    return "single quotes: JSON strings and keys need double quotes";
  if (c == '/' && (next == '*' || next == '/'))
    return "a comment: JSON has no comments";
  if (c == '$' || c == '#')
    return "hexadecimal numbers and other non-JSON syntax are refused";
  return "a character that starts no JSON value";
}

static gboolean
check_text (Report *r, const char *data, gsize length)
{
  Text t = { r, data, length };
  const char *end;
  guint depth = 0;

  if (!g_utf8_validate_len (data, length, &end))
    {
      text_error (&t, end - data, "%s at byte %" G_GSIZE_FORMAT,
                  *end == '\0' ? "NUL byte" : "invalid UTF-8", (gsize) (end - data));
      return FALSE;
    }
  for (gsize i = 0; i < length;)
    {
      char c = data[i];

      if (c == '"')
        i = check_string (&t, i);
      else if (c == '-' || g_ascii_isdigit (c))
        i = check_number (&t, i);
      else if (g_ascii_isalpha (c))
        i = check_word (&t, i);
      else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':' || c == ',')
        i++;
      else if (c == '[' || c == '{')
        {
          if (++depth > MAX_DEPTH)
            {
              text_error (&t, i, "nested more than %d levels deep", MAX_DEPTH);
              return FALSE;
            }
          i++;
        }
      else if (c == ']' || c == '}')
        {
          depth -= depth > 0;
          i++;
        }
      else
        {
          const char *why = stray_reason (c, i + 1 < length ? data[i + 1] : '\0');
          if (c > ' ' && c < 0x7f)
            text_error (&t, i, "unexpected `%c': %s", c, why);
          else
            text_error (&t, i, "unexpected character U+%04X: %s", g_utf8_get_char (data + i), why);
          return FALSE;
        }
      if (i == 0)
        return FALSE;
    }
  return TRUE;
}

/* "<data>:2:7: Parse error: unexpected ..." -> "line 2, column 7: unexpected ..." */
static char *
tidy_parser_message (const char *message)
{
  const char *p = message;
  char *end;
  guint64 line, column;

  if (!g_str_has_prefix (p, "<data>:"))
    return g_strdup (message);
  p += strlen ("<data>:");
  line = g_ascii_strtoull (p, &end, 10);
  if (end == p || *end != ':')
    return g_strdup (message);
  p = end + 1;
  column = g_ascii_strtoull (p, &end, 10);
  if (end == p || *end != ':')
    return g_strdup (message);
  p = end + 1;
  while (*p == ' ')
    p++;
  if (g_str_has_prefix (p, "Parse error: "))
    p += strlen ("Parse error: ");
  return g_strdup_printf ("line %" G_GUINT64_FORMAT ", column %" G_GUINT64_FORMAT ": %s",
                          line, column, p);
}

/* The document's root node, or NULL with the reason reported. */
JsonNode *
fx_io_parse_json (Report *r, const char *data, gsize length)
{
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GError) local = NULL;
  JsonNode *root;

  if (!check_text (r, data, length))
    return NULL;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local))
    {
      g_autofree char *message = tidy_parser_message (local->message);

      r->code = FX_MODEL_ERROR_PARSE;
      fx_io_report_error (r, NULL, NULL, "not valid JSON: %s", message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      r->code = FX_MODEL_ERROR_PARSE;
      fx_io_report_error (r, NULL, NULL, "not valid JSON: the document is empty");
      return NULL;
    }
  return json_node_ref (root);
}
