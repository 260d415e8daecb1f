/* fx-model-io.c: the `.flexion` file format; see fx-model-io.h and
 * docs/model-format.md.
 *
 * Loading runs in two passes. The reader walks the JSON and fills an FxModel,
 * reporting what the model cannot hold (wrong JSON types, missing required
 * values, unknown names). The checker then looks at the model alone (ranges,
 * references, duplicates), which is also what fx_model_validate() runs for
 * models built in code. Both report through one Report, which remembers the
 * paths that already have an error so that a bad value is reported once, by
 * whichever pass saw it first.
 */
#include "fx-model-io.h"
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

G_DEFINE_QUARK (fx-model-error-quark, fx_model_error)

#define MAX_MESSAGES  100        /* shown; the rest are only counted          */
#define MAX_MESSAGE   400        /* bytes; longer ones (huge ids) are cut     */
#define MAX_DEPTH     64         /* JSON nesting; the format needs 7          */
#define MAX_TOLERANCE 0.1
#define MAX_ITERATIONS 1000u
#define WIDTH         80         /* the writer keeps compact values this short */

/* ======================================================================== */
/* Report: errors and warnings, each "path: message"                        */
/* ======================================================================== */

typedef struct {
  GPtrArray *errors;
  GPtrArray *warnings;
  guint n_errors, n_warnings;  /* including those beyond MAX_MESSAGES      */
  GHashTable *bad;             /* paths that have an error                 */
  FxModelError code;           /* PARSE once the text itself is refused    */
} Report;

static void
report_init (Report *r)
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
static char *
path_join (const char *prefix, const char *key)
{
  gboolean has_prefix = prefix != NULL && *prefix != '\0';

  if (key == NULL || *key == '\0')
    return g_strdup (has_prefix ? prefix : "(root)");
  if (!has_prefix)
    return g_strdup (key);
  return g_strconcat (prefix, key[0] == '[' ? "" : ".", key, NULL);
}

/* Whether the path or one of its ancestors already has an error. */
static gboolean
report_is_bad (const Report *r, const char *path)
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
static void
report_mark_bad (Report *r, const char *path)
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

static void report_error (Report *r, const char *prefix, const char *key,
                          const char *format, ...) G_GNUC_PRINTF (4, 5);

static void
report_error (Report *r, const char *prefix, const char *key, const char *format, ...)
{
  g_autofree char *path = path_join (prefix, key);
  g_autofree char *message = NULL;
  va_list args;

  if (report_is_bad (r, path))
    return;
  va_start (args, format);
  message = g_strdup_vprintf (_(format), args);  /* formats are marked by xgettext keywords */
  va_end (args);
  report_add (r->errors, &r->n_errors, path, message);
  /* Past the cap nothing more is shown, so stop growing the table. */
  if (r->n_errors <= MAX_MESSAGES)
    g_hash_table_add (r->bad, g_steal_pointer (&path));
}

static void report_warning (Report *r, const char *prefix, const char *key,
                            const char *format, ...) G_GNUC_PRINTF (4, 5);

static void
report_warning (Report *r, const char *prefix, const char *key, const char *format, ...)
{
  g_autofree char *path = path_join (prefix, key);
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
static gboolean
report_finish (Report *r, GPtrArray **warnings, GError **error)
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
static void
format_double (char buf[G_ASCII_DTOSTR_BUF_SIZE], double v)
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
static const char *
num (double v)
{
  static _Thread_local char ring[4][G_ASCII_DTOSTR_BUF_SIZE];
  static _Thread_local guint next;
  char *buf = ring[next++ % G_N_ELEMENTS (ring)];

  if (v == floor (v) && fabs (v) < 1e15)
    g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.0f", v);  /* counts in full */
  else
    format_double (buf, v);
  if (strcmp (buf, "null") == 0)
    g_strlcpy (buf, isnan (v) ? "NaN" : (v > 0 ? "inf" : "-inf"), G_ASCII_DTOSTR_BUF_SIZE);
  return buf;
}

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
  report_error (t->report, NULL, NULL, "not valid JSON: line %u, column %u: %s",
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
static JsonNode *
parse_json (Report *r, const char *data, gsize length)
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
      report_error (r, NULL, NULL, "not valid JSON: %s", message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      r->code = FX_MODEL_ERROR_PARSE;
      report_error (r, NULL, NULL, "not valid JSON: the document is empty");
      return NULL;
    }
  return json_node_ref (root);
}

/* ======================================================================== */
/* Reader: typed access to JSON members                                     */
/* ======================================================================== */

static const char *
node_kind (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        default:
          return "a number";
        }
    }
}

static gboolean
node_is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* The member, or NULL (reported if required) when it is absent. */
static JsonNode *
member (Report *r, JsonObject *o, const char *path, const char *key, gboolean required)
{
  JsonNode *node = json_object_get_member (o, key);

  if (node == NULL && required)
    report_error (r, path, key, "required");
  return node;
}

/* A finite number from a node; key names it inside path for messages. */
static gboolean
number_from_node (Report *r, JsonNode *node, const char *path, const char *key, double *out)
{
  double v;

  if (!node_is_number (node))
    {
      report_error (r, path, key, "expected a number, got %s", node_kind (node));
      return FALSE;
    }
  v = json_node_get_double (node);
  if (!isfinite (v))
    {
      report_error (r, path, key, "must be a finite number, got one too large to represent");
      return FALSE;
    }
  *out = v;
  return TRUE;
}

static gboolean
read_number (Report *r, JsonObject *o, const char *path, const char *key,
             gboolean required, double *out)
{
  JsonNode *node = member (r, o, path, key, required);

  return node != NULL && number_from_node (r, node, path, key, out);
}

/* An integer in [min, max]: a JSON integer or an integral number like 1e3. */
static gboolean
read_uint (Report *r, JsonObject *o, const char *path, const char *key,
           gboolean required, guint min, guint max, guint *out)
{
  JsonNode *node = member (r, o, path, key, required);
  double v;

  if (node == NULL || !number_from_node (r, node, path, key, &v))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    v = (double) json_node_get_int (node);
  if (v != floor (v))
    {
      report_error (r, path, key, "expected an integer, got %s", num (v));
      return FALSE;
    }
  if (v < min || v > max)
    {
      report_error (r, path, key, "must be an integer from %u to %u, got %s", min, max, num (v));
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

/* Replaces *out with a copy of the string member. */
static gboolean
read_string (Report *r, JsonObject *o, const char *path, const char *key,
             gboolean required, char **out)
{
  JsonNode *node = member (r, o, path, key, required);

  if (node == NULL)
    return FALSE;
  if (!node_is_string (node))
    {
      report_error (r, path, key, "expected a string, got %s", node_kind (node));
      return FALSE;
    }
  g_free (*out);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

/* A string member borrowed from the document (for enum names), or NULL. */
static const char *
read_name (Report *r, JsonObject *o, const char *path, const char *key, gboolean required)
{
  JsonNode *node = member (r, o, path, key, required);

  if (node == NULL)
    return NULL;
  if (!node_is_string (node))
    {
      report_error (r, path, key, "expected a string, got %s", node_kind (node));
      return NULL;
    }
  return json_node_get_string (node);
}

static void
report_bad_name (Report *r, const char *path, const char *key, const char *name,
                 const char *choices)
{
  report_error (r, path, key, "unknown value \"%s\"; expected one of %s", name, choices);
}

static gboolean
read_bool (Report *r, JsonObject *o, const char *path, const char *key, gboolean *out)
{
  JsonNode *node = member (r, o, path, key, FALSE);

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      report_error (r, path, key, "expected true or false, got %s", node_kind (node));
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* [a, b] from a node; what names the pair in messages ("2 numbers"). */
static gboolean
pair_from_node (Report *r, JsonNode *node, const char *path, const char *key,
                const char *what, double out[2])
{
  g_autofree char *here = path_join (path, key);
  JsonArray *array;
  double v[2];
  gboolean ok;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report_error (r, path, key, "expected an array of %s, got %s", what, node_kind (node));
      return FALSE;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) != 2)
    {
      report_error (r, path, key, "expected an array of %s, got %u element%s", what,
                    json_array_get_length (array), json_array_get_length (array) == 1 ? "" : "s");
      return FALSE;
    }
  /* Both elements get their message, so no short cut. */
  ok = number_from_node (r, json_array_get_element (array, 0), here, "[0]", &v[0]);
  ok = number_from_node (r, json_array_get_element (array, 1), here, "[1]", &v[1]) && ok;
  if (!ok)
    return FALSE;
  out[0] = v[0];
  out[1] = v[1];
  return TRUE;
}

static gboolean
read_vector (Report *r, JsonObject *o, const char *path, const char *key,
             gboolean required, double out[2])
{
  JsonNode *node = member (r, o, path, key, required);

  return node != NULL && pair_from_node (r, node, path, key, "2 numbers", out);
}

/* The object member, or NULL (reported unless merely absent and optional). */
static JsonObject *
read_object (Report *r, JsonObject *o, const char *path, const char *key, gboolean required)
{
  JsonNode *node = member (r, o, path, key, required);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      report_error (r, path, key, "expected an object, got %s", node_kind (node));
      return NULL;
    }
  return json_node_get_object (node);
}

typedef struct {
  Report *report;
  const char *path;
  const char *const *allowed;
} KeyCheck;

static void
check_key (JsonObject *o G_GNUC_UNUSED, const char *key, JsonNode *node G_GNUC_UNUSED,
           gpointer data)
{
  KeyCheck *check = data;

  if (!g_strv_contains (check->allowed, key))
    report_warning (check->report, check->path, key, "unknown key, ignored");
}

/* Unknown keys are warnings: newer files (or typos) still load. */
static void
check_keys (Report *r, JsonObject *o, const char *path, const char *const *allowed)
{
  KeyCheck check = { r, path, allowed };

  json_object_foreach_member (o, check_key, &check);
}

static gboolean
has_any (JsonObject *o, const char *const *keys)
{
  for (guint i = 0; keys[i] != NULL; i++)
    if (json_object_has_member (o, keys[i]))
      return TRUE;
  return FALSE;
}

/* ======================================================================== */
/* Reader: the model                                                        */
/* ======================================================================== */

static void read_profile (Report *r, JsonObject *parent, const char *parent_path,
                          FxProfile *profile);

/* A direction given as any nonzero vector becomes a unit one. One already of
 * unit length to a few ulps is kept as it is, so that saving and loading
 * again gives the same bits. */
static void
normalise_direction (double v[2])
{
  /* Scaled first, so that tiny or huge components neither underflow nor
   * overflow. */
  double m = fmax (fabs (v[0]), fabs (v[1])), x, y, n;

  if (!(m > 0.0) || !isfinite (m) || fabs (hypot (v[0], v[1]) - 1.0) <= 4 * DBL_EPSILON)
    return;
  x = v[0] / m;
  y = v[1] / m;
  n = hypot (x, y);
  v[0] = x / n;
  v[1] = y / n;
}

/* "motion": prescribed velocity of a support. Its presence drives the joint. */
static void
read_motion (Report *r, JsonObject *joint_object, const char *joint_path, FxJoint *joint)
{
  static const char *const keys[] = { "velocity", "profile", NULL };
  g_autofree char *path = path_join (joint_path, "motion");
  JsonObject *o = read_object (r, joint_object, joint_path, "motion", FALSE);

  if (o == NULL)
    return;
  joint->driven = TRUE;
  check_keys (r, o, path, keys);
  read_vector (r, o, path, "velocity", TRUE, joint->drive_velocity);
  read_profile (r, o, path, &joint->drive_profile);
}

/* "slider": a block sliding along a fixed direction. */
static void
read_slider (Report *r, JsonObject *joint_object, const char *joint_path, FxJoint *joint)
{
  static const char *const keys[] = { "direction", "mass", NULL };
  g_autofree char *path = path_join (joint_path, "slider");
  JsonObject *o = read_object (r, joint_object, joint_path, "slider", FALSE);

  if (o == NULL)
    return;
  joint->slider = TRUE;
  check_keys (r, o, path, keys);
  if (read_vector (r, o, path, "direction", TRUE, joint->slider_direction))
    normalise_direction (joint->slider_direction);
  read_number (r, o, path, "mass", TRUE, &joint->slider_mass);
}

static void
read_joint (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "at", "kind", "support", "mass", "inertia", "motion", "slider", NULL
  };
  FxJoint *joint = fx_model_add_joint (model, NULL, 0.0, 0.0);
  const char *name;

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &joint->id);
  read_vector (r, o, path, "at", TRUE, joint->at);
  if ((name = read_name (r, o, path, "kind", FALSE))
      && !fx_joint_kind_from_string (name, &joint->kind))
    report_bad_name (r, path, "kind", name, "\"pin\", \"weld\"");
  if ((name = read_name (r, o, path, "support", FALSE))
      && !fx_support_from_string (name, &joint->support))
    report_bad_name (r, path, "support", name, "\"none\", \"pin\", \"clamp\", \"guided\"");
  read_number (r, o, path, "mass", FALSE, &joint->mass);
  read_number (r, o, path, "inertia", FALSE, &joint->inertia);
  read_motion (r, o, path, joint);
  read_slider (r, o, path, joint);
}

static const char *const canonical_keys[] = { "rhoA", "rhoI", "EA", "GA", "EI", NULL };
static const char *const material_keys[] = { "E", "nu", "rho", "shape", "shear_factor", NULL };

static void
read_canonical (Report *r, JsonObject *o, const char *path, gboolean rigid, FxSection *section)
{
  check_keys (r, o, path, canonical_keys);
  section->form = FX_SECTION_CANONICAL;
  read_number (r, o, path, "rhoA", TRUE, &section->rhoA);
  read_number (r, o, path, "rhoI", TRUE, &section->rhoI);
  /* A rigid link has no compliance, so its stiffness may be left out (0). */
  read_number (r, o, path, "EA", !rigid, &section->EA);
  read_number (r, o, path, "GA", !rigid, &section->GA);
  read_number (r, o, path, "EI", !rigid, &section->EI);
}

static void
read_shape (Report *r, JsonObject *section_object, const char *section_path, FxSection *section)
{
  static const char *const rectangle[] = { "type", "width", "height", NULL };
  static const char *const square[] = { "type", "side", NULL };
  static const char *const circle[] = { "type", "diameter", NULL };
  static const char *const tube[] = { "type", "diameter", "inner_diameter", NULL };
  static const char *const *const keys[] = { rectangle, square, circle, tube };
  g_autofree char *path = path_join (section_path, "shape");
  JsonObject *o = read_object (r, section_object, section_path, "shape", TRUE);
  const char *type;

  if (o == NULL)
    return;
  /* Without a known type the sizes mean nothing: keep the checker off them. */
  if (!(type = read_name (r, o, path, "type", TRUE)))
    {
      report_mark_bad (r, path);
      return;
    }
  if (!fx_shape_type_from_string (type, &section->shape))
    {
      report_bad_name (r, path, "type", type, "\"rectangle\", \"square\", \"circle\", \"tube\"");
      report_mark_bad (r, path);
      return;
    }
  check_keys (r, o, path, keys[section->shape]);
  switch (section->shape)
    {
    case FX_SHAPE_RECTANGLE:
      read_number (r, o, path, "width", TRUE, &section->width);
      read_number (r, o, path, "height", TRUE, &section->height);
      break;
    case FX_SHAPE_SQUARE:
      read_number (r, o, path, "side", TRUE, &section->width);
      break;
    case FX_SHAPE_CIRCLE:
      read_number (r, o, path, "diameter", TRUE, &section->diameter);
      break;
    case FX_SHAPE_TUBE:
    default:
      read_number (r, o, path, "diameter", TRUE, &section->diameter);
      read_number (r, o, path, "inner_diameter", TRUE, &section->inner_diameter);
      break;
    }
}

static void
read_material (Report *r, JsonObject *o, const char *path, gboolean rigid, FxSection *section)
{
  check_keys (r, o, path, material_keys);
  section->form = FX_SECTION_MATERIAL;
  read_number (r, o, path, "E", !rigid, &section->E);
  read_number (r, o, path, "nu", !rigid, &section->nu);
  read_number (r, o, path, "rho", TRUE, &section->rho);
  read_shape (r, o, path, section);
  read_number (r, o, path, "shear_factor", FALSE, &section->shear_factor);
  fx_section_derive (section);
}

static void
read_section (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  g_autofree char *path = path_join (link_path, "section");
  JsonObject *o = read_object (r, link_object, link_path, "section", TRUE);
  gboolean canonical, material;

  if (o == NULL)
    return;
  canonical = has_any (o, canonical_keys);
  material = has_any (o, material_keys);
  if (canonical && material)
    report_error (r, path, NULL, "mixes the canonical form (rhoA, rhoI, EA, GA, EI) with the "
                  "material form (E, nu, rho, shape, shear_factor); use one of them");
  else if (canonical)
    read_canonical (r, o, path, link->rigid, &link->section);
  else if (material)
    read_material (r, o, path, link->rigid, &link->section);
  else
    report_error (r, path, NULL, "needs either rhoA, rhoI, EA, GA, EI or E, nu, rho, shape");
}

static void
read_initial (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  static const char *const keys[] = { "velocity", "omega", NULL };
  g_autofree char *path = path_join (link_path, "initial");
  JsonObject *o = read_object (r, link_object, link_path, "initial", FALSE);

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_vector (r, o, path, "velocity", FALSE, link->initial_velocity);
  read_number (r, o, path, "omega", FALSE, &link->initial_omega);
}

static void
read_damping (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  static const char *const keys[] = { "velocity", "rotation", NULL };
  g_autofree char *path = path_join (link_path, "damping");
  JsonObject *o = read_object (r, link_object, link_path, "damping", FALSE);

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_number (r, o, path, "velocity", FALSE, &link->damping);
  read_number (r, o, path, "rotation", FALSE, &link->rotational_damping);
}

static void
read_link (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "from", "to", "elements", "section", "formulation", "rigid", "initial", "damping",
    NULL
  };
  FxLink *link = fx_model_add_link (model, NULL, NULL, NULL, 0);
  const char *name;

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &link->id);
  read_string (r, o, path, "from", FALSE, &link->from);
  read_string (r, o, path, "to", FALSE, &link->to);
  read_uint (r, o, path, "elements", TRUE, 1, FX_MAX_ELEMENTS_PER_LINK, &link->elements);
  read_bool (r, o, path, "rigid", &link->rigid);  /* before the section: it relaxes it */
  read_section (r, o, path, link);
  if ((name = read_name (r, o, path, "formulation", FALSE))
      && !fx_formulation_from_string (name, &link->formulation))
    report_bad_name (r, path, "formulation", name,
                     "\"auto\", \"free-free\", \"clamped-clamped\", \"pinned\", \"guided\"");
  read_initial (r, o, path, link);
  read_damping (r, o, path, link);
}

static void
read_table (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  g_autofree char *points_path = path_join (path, "points");
  JsonNode *node = member (r, o, path, "points", TRUE);
  g_autofree double *t = NULL, *value = NULL;
  JsonArray *array;
  guint n;

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report_error (r, path, "points", "expected an array of [t, value] pairs, got %s",
                    node_kind (node));
      return;
    }
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  t = g_new0 (double, MAX (n, 1));
  value = g_new0 (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      char key[32];
      double point[2] = { 0.0, 0.0 };

      g_snprintf (key, sizeof key, "[%u]", i);
      if (!pair_from_node (r, json_array_get_element (array, i), points_path, key,
                           "2 numbers [t, value]", point))
        {
          g_autofree char *here = path_join (points_path, key);

          report_mark_bad (r, here);  /* its neighbours are not compared with it */
        }
      t[i] = point[0];
      value[i] = point[1];
    }
  fx_profile_set_table (profile, n, t, value);
}

/* Reads the keys that a profile type uses; the others are warned about. */
static void
read_profile_fields (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  static const char *const constant[] = { "type", NULL };
  static const char *const step_off[] = { "type", "t1", NULL };
  static const char *const ramp[] = { "type", "t0", "t1", NULL };
  static const char *const hat[] = { "type", "t0", "t1", "t2", NULL };
  static const char *const sine[] = { "type", "frequency", "phase", NULL };
  static const char *const table[] = { "type", "points", NULL };
  static const char *const *const keys[] = { constant, step_off, ramp, hat, sine, table };

  check_keys (r, o, path, keys[profile->type]);
  switch (profile->type)
    {
    case FX_PROFILE_STEP_OFF:
      read_number (r, o, path, "t1", TRUE, &profile->t1);
      break;
    case FX_PROFILE_RAMP:
      read_number (r, o, path, "t0", FALSE, &profile->t0);
      read_number (r, o, path, "t1", TRUE, &profile->t1);
      break;
    case FX_PROFILE_HAT:
      read_number (r, o, path, "t0", FALSE, &profile->t0);
      read_number (r, o, path, "t1", TRUE, &profile->t1);
      read_number (r, o, path, "t2", TRUE, &profile->t2);
      break;
    case FX_PROFILE_SINE:
      read_number (r, o, path, "frequency", TRUE, &profile->frequency);
      read_number (r, o, path, "phase", FALSE, &profile->phase);
      break;
    case FX_PROFILE_TABLE:
      read_table (r, o, path, profile);
      break;
    case FX_PROFILE_CONSTANT:
    default:
      break;
    }
}

/* The deterministic profile held by `key` of o (type and its fields). */
static void
read_deterministic (Report *r, JsonObject *parent, const char *parent_path, const char *key,
                    FxProfile *profile)
{
  g_autofree char *path = path_join (parent_path, key);
  JsonObject *o = read_object (r, parent, parent_path, key, FALSE);
  const char *type;

  if (o == NULL || !(type = read_name (r, o, path, "type", TRUE)))
    return;
  FxNoiseKind nested;

  if (fx_noise_kind_from_string (type, &nested) && nested != FX_NOISE_NONE)
    {
      report_error (r, path, "type", "a noise multiplies a deterministic profile, not another "
                    "noise, got \"%s\"", type);
      return;
    }
  if (!fx_profile_type_from_string (type, &profile->type))
    {
      report_bad_name (r, path, "type", type,
                       "\"constant\", \"step-off\", \"ramp\", \"hat\", \"sine\", \"table\"");
      return;
    }
  read_profile_fields (r, o, path, profile);
}

/* A noise profile: {"type": "white", "sigma": ...} or {"type": "ou", "std":
 * ..., "tau": ...}, optionally "times": a deterministic profile that the
 * noise multiplies (physics.md section 11). */
static void
read_noise (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  static const char *const white[] = { "type", "sigma", "times", "stream", NULL };
  static const char *const ou[] = { "type", "std", "tau", "times", "stream", NULL };

  if (profile->noise == FX_NOISE_WHITE)
    {
      check_keys (r, o, path, white);
      read_number (r, o, path, "sigma", TRUE, &profile->noise_sigma);
    }
  else
    {
      check_keys (r, o, path, ou);
      read_number (r, o, path, "std", TRUE, &profile->noise_sigma);
      read_number (r, o, path, "tau", TRUE, &profile->noise_tau);
    }
  read_string (r, o, path, "stream", FALSE, &profile->noise_stream);
  read_deterministic (r, o, path, "times", profile);
}

static void
read_profile (Report *r, JsonObject *parent, const char *parent_path, FxProfile *profile)
{
  g_autofree char *path = path_join (parent_path, "profile");
  JsonObject *o = read_object (r, parent, parent_path, "profile", FALSE);
  const char *type;

  if (o == NULL || !(type = read_name (r, o, path, "type", TRUE)))
    return;
  if (fx_noise_kind_from_string (type, &profile->noise) && profile->noise != FX_NOISE_NONE)
    {
      read_noise (r, o, path, profile);
      return;
    }
  profile->noise = FX_NOISE_NONE;
  if (!fx_profile_type_from_string (type, &profile->type))
    {
      report_bad_name (r, path, "type", type,
                       "\"constant\", \"step-off\", \"ramp\", \"hat\", \"sine\", \"table\", "
                       "\"white\", \"ou\"");
      return;
    }
  read_profile_fields (r, o, path, profile);
}

static void
read_load (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "joint", "link", "s", "force", "moment", "frame", "frame_link", "profile", NULL
  };
  FxLoad *load = fx_model_add_joint_load (model, NULL);
  const char *name;

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &load->id);
  read_string (r, o, path, "joint", FALSE, &load->joint);
  read_string (r, o, path, "link", FALSE, &load->link);
  if (load->link != NULL)
    read_number (r, o, path, "s", TRUE, &load->s);
  else if (json_object_has_member (o, "s") && load->joint != NULL)
    report_warning (r, path, "s", "only used by loads on a link, ignored");
  read_vector (r, o, path, "force", FALSE, load->force);
  read_number (r, o, path, "moment", FALSE, &load->moment);
  if ((name = read_name (r, o, path, "frame", FALSE))
      && !fx_frame_from_string (name, &load->frame))
    report_bad_name (r, path, "frame", name, "\"spatial\", \"material\"");
  /* frame_link only means something for a material-frame load at a joint. */
  if (load->joint != NULL && load->link == NULL && load->frame == FX_FRAME_MATERIAL)
    read_string (r, o, path, "frame_link", FALSE, &load->frame_link);
  else if (json_object_has_member (o, "frame_link"))
    report_warning (r, path, "frame_link",
                    "only used by joint loads in the material frame, ignored");
  read_profile (r, o, path, &load->profile);
}

static void
read_probe (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = { "id", "link", "s", NULL };
  FxProbe *probe = fx_model_add_probe (model, NULL, NULL, 0.0);

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &probe->id);
  read_string (r, o, path, "link", FALSE, &probe->link);
  read_number (r, o, path, "s", TRUE, &probe->s);
}

static void
read_motor (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "joint", "link", "against", "type", "value", "profile", NULL
  };
  FxMotor *motor = fx_model_add_motor (model, NULL, NULL, NULL, NULL, FX_MOTOR_TORQUE, 0.0);
  const char *name;

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &motor->id);
  read_string (r, o, path, "joint", FALSE, &motor->joint);
  read_string (r, o, path, "link", FALSE, &motor->link);
  read_string (r, o, path, "against", FALSE, &motor->link_b);
  if ((name = read_name (r, o, path, "type", TRUE))
      && !fx_motor_type_from_string (name, &motor->type))
    report_bad_name (r, path, "type", name, "\"torque\", \"speed\"");
  read_number (r, o, path, "value", TRUE, &motor->value);
  read_profile (r, o, path, &motor->profile);
}

static void
read_spring (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "joint", "link", "against", "stiffness", "damping", "rest_angle", NULL
  };
  FxSpring *spring = fx_model_add_spring (model, NULL, NULL, NULL, NULL, 0.0, 0.0);

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &spring->id);
  read_string (r, o, path, "joint", FALSE, &spring->joint);
  read_string (r, o, path, "link", FALSE, &spring->link);
  read_string (r, o, path, "against", FALSE, &spring->link_b);
  read_number (r, o, path, "stiffness", FALSE, &spring->stiffness);
  read_number (r, o, path, "damping", FALSE, &spring->damping);
  read_number (r, o, path, "rest_angle", FALSE, &spring->rest_angle);
}

/* [t, x, y] of a drag's anchor path. */
static gboolean
triple_from_node (Report *r, JsonNode *node, const char *path, const char *key, double out[3])
{
  g_autofree char *here = path_join (path, key);
  gboolean ok = TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != 3)
    {
      report_error (r, path, key, "expected an array of 3 numbers [t, x, y], got %s",
                    node_kind (node));
      return FALSE;
    }
  for (guint k = 0; k < 3; k++)
    {
      char index[8];
      g_snprintf (index, sizeof index, "[%u]", k);
      ok = number_from_node (r, json_array_get_element (json_node_get_array (node), k), here,
                             index, &out[k]) && ok;
    }
  return ok;
}

static void
read_drag_path (Report *r, JsonObject *o, const char *path, FxDrag *drag)
{
  g_autofree char *points_path = path_join (path, "path");
  JsonNode *node = member (r, o, path, "path", TRUE);

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report_error (r, path, "path", "expected an array of [t, x, y] points, got %s",
                    node_kind (node));
      return;
    }
  JsonArray *array = json_node_get_array (node);
  guint n = json_array_get_length (array);
  g_autofree double *t = g_new0 (double, MAX (n, 1)), *x = g_new0 (double, MAX (n, 1));
  g_autofree double *y = g_new0 (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      char key[32];
      double p[3] = { 0, 0, 0 };
      g_snprintf (key, sizeof key, "[%u]", i);
      if (!triple_from_node (r, json_array_get_element (array, i), points_path, key, p))
        {
          g_autofree char *here = path_join (points_path, key);
          report_mark_bad (r, here);
        }
      t[i] = p[0], x[i] = p[1], y[i] = p[2];
    }
  fx_drag_set_path (drag, n, t, x, y);
}

static void
read_drag (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "link", "s", "joint", "path", "frequency", "damping_ratio", "release", NULL
  };
  FxDrag *drag = fx_model_add_drag (model, NULL, NULL, NAN, NULL);  /* NaN: no "s" */

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &drag->id);
  read_string (r, o, path, "link", FALSE, &drag->link);
  read_number (r, o, path, "s", FALSE, &drag->s);
  read_string (r, o, path, "joint", FALSE, &drag->joint);
  read_drag_path (r, o, path, drag);
  read_number (r, o, path, "frequency", FALSE, &drag->frequency);
  read_number (r, o, path, "damping_ratio", FALSE, &drag->damping_ratio);
  read_number (r, o, path, "release", FALSE, &drag->release);
}

static void
read_body (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = { "id", "joints", "mass", "inertia", "center", NULL };
  FxBody *body = fx_model_add_body (model, NULL, NULL, 0.0, 0.0);
  JsonNode *node;

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_string (r, o, path, "id", FALSE, &body->id);
  read_number (r, o, path, "mass", TRUE, &body->mass);
  read_number (r, o, path, "inertia", FALSE, &body->inertia);
  body->has_center = read_vector (r, o, path, "center", FALSE, body->center);
  if ((node = member (r, o, path, "joints", TRUE)) == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report_error (r, path, "joints", "expected an array of joint ids, got %s", node_kind (node));
      return;
    }
  JsonArray *array = json_node_get_array (node);
  guint n = json_array_get_length (array);
  g_strfreev (body->joints);
  body->joints = g_new0 (char *, n + 1);
  body->n_joints = n;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      if (!node_is_string (item))
        {
          g_autofree char *key = g_strdup_printf ("joints[%u]", i);
          report_error (r, path, key, "expected a joint id, got %s", node_kind (item));
          body->joints[i] = g_strdup ("");
          continue;
        }
      body->joints[i] = g_strdup (json_node_get_string (item));
    }
}

typedef void (*ItemReader) (Report *r, FxModel *model, JsonObject *o, const char *path);

/* Every entry adds one element, even a broken one, so that the checker's
 * indices (and so its paths) stay those of the file. */
static void
read_list (Report *r, FxModel *model, JsonObject *root, const char *key, ItemReader read_item)
{
  JsonNode *node = member (r, root, NULL, key, FALSE);
  JsonArray *array;

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      report_error (r, NULL, key, "expected an array, got %s", node_kind (node));
      return;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s[%u]", key, i);
      JsonNode *item = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          report_error (r, path, NULL, "expected an object, got %s", node_kind (item));
          read_item (r, model, NULL, path);
        }
      else
        read_item (r, model, json_node_get_object (item), path);
    }
}

static void
read_settings (Report *r, FxModel *model, JsonObject *root)
{
  static const char *const time_keys[] = { "dt", "end", NULL };
  static const char *const solver_keys[] = { "tolerance", "max_iterations", NULL };
  JsonObject *o;

  read_string (r, root, NULL, "name", FALSE, &model->name);
  read_string (r, root, NULL, "description", FALSE, &model->description);
  read_vector (r, root, NULL, "gravity", FALSE, model->gravity);
  {
    guint seed = 0;

    if (read_uint (r, root, NULL, "seed", FALSE, 0, G_MAXUINT32, &seed))
      model->seed = seed;
  }
  if ((o = read_object (r, root, NULL, "time", FALSE)))
    {
      check_keys (r, o, "time", time_keys);
      read_number (r, o, "time", "dt", FALSE, &model->dt);
      read_number (r, o, "time", "end", FALSE, &model->t_end);
    }
  if ((o = read_object (r, root, NULL, "solver", FALSE)))
    {
      check_keys (r, o, "solver", solver_keys);
      read_number (r, o, "solver", "tolerance", FALSE, &model->tolerance);
      read_uint (r, o, "solver", "max_iterations", FALSE, 1, MAX_ITERATIONS,
                 &model->max_iterations);
    }
}

static void
read_version (Report *r, JsonObject *root)
{
  JsonNode *version = json_object_get_member (root, "version");
  double v;

  if (version == NULL)
    report_error (r, NULL, "version", "required (%d for this Flexion)", FX_MODEL_FORMAT_VERSION);
  else if (!number_from_node (r, version, NULL, "version", &v))
    return;
  else if (v > FX_MODEL_FORMAT_VERSION)
    report_error (r, NULL, "version", "the file was written by a newer Flexion (format "
                  "version %s); this Flexion reads version %d: please update Flexion",
                  num (v), FX_MODEL_FORMAT_VERSION);
  else if (v != FX_MODEL_FORMAT_VERSION)
    report_error (r, NULL, "version", "must be %d, got %s", FX_MODEL_FORMAT_VERSION, num (v));
}

/* format and version decide whether the rest can be read at all. */
static gboolean
read_header (Report *r, JsonObject *root)
{
  JsonNode *format = json_object_get_member (root, "format");

  if (format == NULL)
    report_error (r, NULL, "format", "required: a Flexion model starts with "
                  "\"format\": \"" FX_MODEL_FORMAT_NAME "\"");
  else if (!node_is_string (format))
    report_error (r, NULL, "format", "expected \"" FX_MODEL_FORMAT_NAME "\", got %s",
                  node_kind (format));
  else if (strcmp (json_node_get_string (format), FX_MODEL_FORMAT_NAME) != 0)
    report_error (r, NULL, "format", "expected \"" FX_MODEL_FORMAT_NAME "\", got \"%s\"",
                  json_node_get_string (format));
  if (r->n_errors > 0)
    return FALSE;
  read_version (r, root);
  return r->n_errors == 0;
}

static FxModel *
read_model (Report *r, JsonNode *root)
{
  static const char *const keys[] = {
    "format", "version", "name", "description", "joints", "links", "bodies", "loads", "motors",
    "springs", "probes", "drags", "gravity", "time", "solver", "seed", NULL
  };
  JsonObject *o;
  FxModel *model;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      report_error (r, NULL, NULL, "expected an object with \"format\": \"" FX_MODEL_FORMAT_NAME
                    "\", got %s", node_kind (root));
      return NULL;
    }
  o = json_node_get_object (root);
  if (!read_header (r, o))
    return NULL;

  model = fx_model_new ();
  check_keys (r, o, NULL, keys);
  read_settings (r, model, o);
  read_list (r, model, o, "joints", read_joint);
  read_list (r, model, o, "links", read_link);
  read_list (r, model, o, "loads", read_load);
  read_list (r, model, o, "motors", read_motor);
  read_list (r, model, o, "springs", read_spring);
  read_list (r, model, o, "bodies", read_body);
  read_list (r, model, o, "probes", read_probe);
  read_list (r, model, o, "drags", read_drag);
  return model;
}

/* ======================================================================== */
/* Checker: the semantic rules, on the model alone                          */
/* ======================================================================== */

typedef struct {
  Report *r;
  const FxModel *model;
  GHashTable *joints;  /* id -> index + 1 */
  GHashTable *links;   /* id -> index + 1 */
} Check;

static gboolean
check_finite (Report *r, const char *path, const char *key, double v)
{
  if (isfinite (v))
    return TRUE;
  report_error (r, path, key, "must be a finite number, got %s", num (v));
  return FALSE;
}

/* A mass or stiffness the engine divides by or multiplies with others: 0, or
 * within FX_MIN_MAGNITUDE..FX_MAX_MAGNITUDE in size (call after the sign
 * check, which reports non-finite values). */
static void
check_magnitude (Report *r, const char *path, const char *key, double v)
{
  g_autofree char *here = path_join (path, key);

  if (!isfinite (v) || v == 0.0 || report_is_bad (r, here))
    return;
  if (fabs (v) > FX_MAX_MAGNITUDE)
    report_error (r, path, key, "%s is too large: masses and stiffnesses are limited to %s",
                  num (v), num (FX_MAX_MAGNITUDE));
  else if (fabs (v) < FX_MIN_MAGNITUDE)
    report_error (r, path, key, "%s is too small: write 0, or at least %s", num (v),
                  num (FX_MIN_MAGNITUDE));
}

/* A joint or body position: |x|, |y| <= FX_MAX_COORDINATE. */
static void
check_position (Report *r, const char *path, const char *key, const double v[2])
{
  g_autofree char *here = path_join (path, key);

  for (guint i = 0; i < 2; i++)
    {
      const char *index = i == 0 ? "[0]" : "[1]";

      if (check_finite (r, here, index, v[i]) && fabs (v[i]) > FX_MAX_COORDINATE)
        report_error (r, here, index, "%s m is too far out: coordinates are limited to "
                      "%s m (move the mechanism nearer the origin)", num (v[i]),
                      num (FX_MAX_COORDINATE));
    }
}

/* A section dimension: FX_MIN_LENGTH..FX_MAX_LENGTH metres. */
static void
check_dimension (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && !(v >= FX_MIN_LENGTH && v <= FX_MAX_LENGTH))
    report_error (r, path, key, "must be from %s to %s m, got %s", num (FX_MIN_LENGTH),
                  num (FX_MAX_LENGTH), num (v));
}

static void
check_positive (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && !(v > 0.0))
    report_error (r, path, key, "must be > 0, got %s", num (v));
}

static void
check_non_negative (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && v < 0.0)
    report_error (r, path, key, "must be >= 0, got %s", num (v));
}

/* Stiffness of a rigid link may be absent (0) but never negative. */
static void
check_stiffness (Report *r, const char *path, const char *key, double v, gboolean rigid)
{
  if (rigid && v == 0.0)
    return;
  check_positive (r, path, key, v);
}

static void
check_fraction (Report *r, const char *path, const char *key, double v)
{
  if (check_finite (r, path, key, v) && !(v >= 0.0 && v <= 1.0))
    report_error (r, path, key, "must be between 0 and 1, got %s", num (v));
}

static void
check_vector (Report *r, const char *path, const char *key, const double v[2])
{
  g_autofree char *here = path_join (path, key);

  check_finite (r, here, "[0]", v[0]);
  check_finite (r, here, "[1]", v[1]);
}

static void
check_enum (Report *r, const char *path, const char *key, int value, const char *name)
{
  if (name == NULL)
    report_error (r, path, key, "invalid value %d", value);
}

/* Registers the item's id in ids, reporting a missing or reused one. */
static void
check_id (Report *r, const char *path, const char *id, GHashTable *ids,
          const char *list, guint index, gboolean required)
{
  gpointer first;

  if (id == NULL)
    {
      if (required)
        report_error (r, path, "id", "required");
      return;
    }
  if (*id == '\0')
    report_error (r, path, "id", "must not be empty");
  else if ((first = g_hash_table_lookup (ids, id)) != NULL)
    report_error (r, path, "id", "duplicate id \"%s\", already used by %s[%u]", id, list,
                  GPOINTER_TO_UINT (first) - 1);
  else
    g_hash_table_insert (ids, (gpointer) id, GUINT_TO_POINTER (index + 1));
}

/* The index of the referenced item, or -1 (reported). */
static int
check_reference (Check *c, const char *path, const char *key, const char *id, gboolean link)
{
  GHashTable *ids = link ? c->links : c->joints;
  gpointer found;

  if (id == NULL)
    {
      report_error (c->r, path, key, "required");
      return -1;
    }
  if ((found = g_hash_table_lookup (ids, id)) != NULL)
    return (int) GPOINTER_TO_UINT (found) - 1;
  /* If the list itself is broken, its ids are unknown: say nothing more. */
  if (!report_is_bad (c->r, link ? "links" : "joints"))
    report_error (c->r, path, key, "no %s with id \"%s\"", link ? "link" : "joint", id);
  return -1;
}

static void
check_settings (Report *r, const FxModel *m)
{
  check_vector (r, NULL, "gravity", m->gravity);
  check_positive (r, "time", "dt", m->dt);
  check_positive (r, "time", "end", m->t_end);
  if (isfinite (m->dt) && m->dt > 0 && isfinite (m->t_end) && m->t_end > 0
      && m->t_end / m->dt > FX_MAX_STEPS)
    report_error (r, NULL, "time", "end / dt gives %s steps; the limit is %s",
                  num (ceil (m->t_end / m->dt)), num (FX_MAX_STEPS));
  if (check_finite (r, "solver", "tolerance", m->tolerance)
      && !(m->tolerance > 0.0 && m->tolerance < MAX_TOLERANCE))
    report_error (r, "solver", "tolerance", "must be > 0 and < %s, got %s",
                  num (MAX_TOLERANCE), num (m->tolerance));
  if (m->max_iterations < 1 || m->max_iterations > MAX_ITERATIONS)
    report_error (r, "solver", "max_iterations", "must be an integer from 1 to %u, got %u",
                  MAX_ITERATIONS, m->max_iterations);
}

static void check_profile (Report *r, const char *parent_path, const FxProfile *p);

/* Whether the joint's support is known (an unknown one was reported). */
static gboolean
support_is_known (const Report *r, const char *joint_path, const FxJoint *joint)
{
  g_autofree char *path = path_join (joint_path, "support");

  return fx_support_to_string (joint->support) != NULL && !report_is_bad (r, path);
}

static void
check_motion (Check *c, const char *joint_path, const FxJoint *joint)
{
  g_autofree char *path = path_join (joint_path, "motion");

  if (!joint->driven)
    return;
  if (support_is_known (c->r, joint_path, joint)
      && joint->support != FX_SUPPORT_PIN && joint->support != FX_SUPPORT_CLAMP)
    report_error (c->r, path, NULL, "only a pin or clamp support can be driven; this joint's "
                  "support is \"%s\"", fx_support_to_string (joint->support));
  check_vector (c->r, path, "velocity", joint->drive_velocity);
  check_profile (c->r, path, &joint->drive_profile);
}

static void
check_slider (Check *c, const char *joint_path, const FxJoint *joint)
{
  g_autofree char *path = path_join (joint_path, "slider");
  const double *t = joint->slider_direction;

  if (!joint->slider)
    return;
  if (support_is_known (c->r, joint_path, joint) && joint->support != FX_SUPPORT_NONE)
    report_error (c->r, path, NULL, "a slider needs support \"none\" (its guide holds the "
                  "joint), not \"%s\"", fx_support_to_string (joint->support));
  /* stored normalised: the file's numbers may have any finite scale */
  if (!isfinite (t[0]) || !isfinite (t[1]))
    check_vector (c->r, path, "direction", t);
  if (t[0] == 0.0 && t[1] == 0.0)
    report_error (c->r, path, "direction", "must not be [0, 0]: give the direction the "
                  "block slides along");
  check_positive (c->r, path, "mass", joint->slider_mass);
  check_magnitude (c->r, path, "mass", joint->slider_mass);
  if (joint->mass != 0.0)
    report_error (c->r, joint_path, "mass", "a joint with a slider has no mass of its own: "
                  "put the mass in the slider (\"slider\": { \"mass\": %s })",
                  num (joint->mass));
}

static void
check_joint (Check *c, guint i, const char *path)
{
  const FxJoint *joint = fx_model_joint (c->model, i);

  check_id (c->r, path, joint->id, c->joints, "joints", i, TRUE);
  check_position (c->r, path, "at", joint->at);
  check_enum (c->r, path, "kind", joint->kind, fx_joint_kind_to_string (joint->kind));
  check_enum (c->r, path, "support", joint->support, fx_support_to_string (joint->support));
  check_non_negative (c->r, path, "mass", joint->mass);
  check_magnitude (c->r, path, "mass", joint->mass);
  check_non_negative (c->r, path, "inertia", joint->inertia);
  check_magnitude (c->r, path, "inertia", joint->inertia);
  check_motion (c, path, joint);
  check_slider (c, path, joint);
}

static void
check_shape (Report *r, const char *section_path, const FxSection *s)
{
  g_autofree char *path = path_join (section_path, "shape");

  switch (s->shape)
    {
    case FX_SHAPE_RECTANGLE:
      check_dimension (r, path, "width", s->width);
      check_dimension (r, path, "height", s->height);
      break;
    case FX_SHAPE_SQUARE:
      check_dimension (r, path, "side", s->width);
      break;
    case FX_SHAPE_CIRCLE:
      check_dimension (r, path, "diameter", s->diameter);
      break;
    case FX_SHAPE_TUBE:
      check_dimension (r, path, "diameter", s->diameter);
      if (check_finite (r, path, "inner_diameter", s->inner_diameter)
          && !(s->inner_diameter >= 0.0 && s->inner_diameter < s->diameter)
          && !report_is_bad (r, path))
        report_error (r, path, "inner_diameter", "must be >= 0 and < diameter (%s), got %s",
                      num (s->diameter), num (s->inner_diameter));
      break;
    default:
      report_error (r, path, "type", "invalid value %d", (int) s->shape);
      break;
    }
}

static void
check_material (Report *r, const char *path, const FxSection *s, gboolean rigid)
{
  check_stiffness (r, path, "E", s->E, rigid);
  if (check_finite (r, path, "nu", s->nu) && !(s->nu > -1.0 && s->nu <= 0.5))
    report_error (r, path, "nu", "must be > -1 and <= 0.5, got %s", num (s->nu));
  check_magnitude (r, path, "E", s->E);
  check_non_negative (r, path, "rho", s->rho);
  check_magnitude (r, path, "rho", s->rho);
  check_shape (r, path, s);
  check_positive (r, path, "shear_factor", s->shear_factor);
}

static void
check_section (Report *r, const char *link_path, const FxLink *link)
{
  g_autofree char *path = path_join (link_path, "section");
  const FxSection *s = &link->section;

  if (s->form == FX_SECTION_MATERIAL)
    {
      check_material (r, path, s, link->rigid);
      return;
    }
  if (s->form != FX_SECTION_CANONICAL)
    {
      report_error (r, path, NULL, "invalid form %d", (int) s->form);
      return;
    }
  check_non_negative (r, path, "rhoA", s->rhoA);
  check_non_negative (r, path, "rhoI", s->rhoI);
  check_stiffness (r, path, "EA", s->EA, link->rigid);
  check_stiffness (r, path, "GA", s->GA, link->rigid);
  check_stiffness (r, path, "EI", s->EI, link->rigid);
  check_magnitude (r, path, "rhoA", s->rhoA);
  check_magnitude (r, path, "rhoI", s->rhoI);
  check_magnitude (r, path, "EA", s->EA);
  check_magnitude (r, path, "GA", s->GA);
  check_magnitude (r, path, "EI", s->EI);
}

static gboolean
joint_at_is_bad (const Report *r, guint joint)
{
  g_autofree char *path = g_strdup_printf ("joints[%u].at", joint);

  return report_is_bad (r, path);
}

static void
check_link_ends (Check *c, const char *path, const FxLink *link)
{
  int a = check_reference (c, path, "from", link->from, FALSE);
  int b = check_reference (c, path, "to", link->to, FALSE);
  const FxJoint *ja, *jb;
  double length;

  if (a < 0 || b < 0)
    return;
  if (a == b)
    {
      report_error (c->r, path, "to", "same joint as from (\"%s\"): a link needs two joints",
                    link->to);
      return;
    }
  ja = fx_model_joint (c->model, (guint) a);
  jb = fx_model_joint (c->model, (guint) b);
  if (joint_at_is_bad (c->r, (guint) a) || joint_at_is_bad (c->r, (guint) b))
    return;
  length = hypot (jb->at[0] - ja->at[0], jb->at[1] - ja->at[1]);
  if (length == 0.0)
    report_error (c->r, path, NULL, "zero length: joints \"%s\" and \"%s\" are at the same point",
                  link->from, link->to);
  else if (!isfinite (length))
    report_error (c->r, path, NULL, "length is not finite");
  else if (length < FX_MIN_LENGTH)
    report_error (c->r, path, NULL, "%s m long: links are at least %s m long (joints \"%s\" "
                  "and \"%s\" nearly coincide)", num (length), num (FX_MIN_LENGTH),
                  link->from, link->to);
}

static void
check_initial (Report *r, const char *link_path, const FxLink *link)
{
  g_autofree char *path = path_join (link_path, "initial");

  check_vector (r, path, "velocity", link->initial_velocity);
  check_finite (r, path, "omega", link->initial_omega);
}

static void
check_link (Check *c, guint i, const char *path, guint64 *total)
{
  const FxLink *link = fx_model_link (c->model, i);

  check_id (c->r, path, link->id, c->links, "links", i, TRUE);
  check_link_ends (c, path, link);
  if (link->elements < 1 || link->elements > FX_MAX_ELEMENTS_PER_LINK)
    report_error (c->r, path, "elements", "must be an integer from 1 to %u, got %u",
                  FX_MAX_ELEMENTS_PER_LINK, link->elements);
  else
    *total += link->elements;
  check_section (c->r, path, link);
  check_enum (c->r, path, "formulation", link->formulation,
              fx_formulation_to_string (link->formulation));
  check_initial (c->r, path, link);
  if (link->damping != 0.0 || link->rotational_damping != 0.0)
    {
      g_autofree char *damping = path_join (path, "damping");

      check_non_negative (c->r, damping, "velocity", link->damping);
      check_non_negative (c->r, damping, "rotation", link->rotational_damping);
    }
}

static void
check_table (Report *r, const char *path, const FxProfile *p)
{
  g_autofree char *points = path_join (path, "points");
  gboolean previous_ok = FALSE;

  if (p->n_table < 2 || p->table_t == NULL || p->table_value == NULL)
    {
      report_error (r, path, "points", "needs at least 2 points, got %u", p->n_table);
      return;
    }
  for (guint i = 0; i < p->n_table; i++)
    {
      char key[32];
      g_autofree char *here = NULL;
      gboolean finite;

      g_snprintf (key, sizeof key, "[%u]", i);
      here = path_join (points, key);
      finite = check_finite (r, here, "[0]", p->table_t[i]);
      finite = check_finite (r, here, "[1]", p->table_value[i]) && finite;
      if (!finite || report_is_bad (r, here))
        {
          previous_ok = FALSE;
          continue;
        }
      if (previous_ok && !(p->table_t[i] > p->table_t[i - 1]))
        report_error (r, points, key, "times must be strictly increasing, but %s follows %s",
                      num (p->table_t[i]), num (p->table_t[i - 1]));
      previous_ok = TRUE;
    }
}

/* "must be > t0 (0.5), got 0.2"; quiet when t0 itself is wrong. */
static void
check_after (Report *r, const char *path, const char *key, double v,
             const char *before_key, double before)
{
  g_autofree char *before_path = path_join (path, before_key);

  if (check_finite (r, path, key, v) && isfinite (before) && !report_is_bad (r, before_path)
      && !(v > before))
    report_error (r, path, key, "must be > %s (%s), got %s", before_key, num (before), num (v));
}

static void check_deterministic (Report *r, const char *path, const FxProfile *p);

/* A noise's parameters, then the deterministic profile it multiplies
 * (under "times"). */
static void
check_profile (Report *r, const char *parent_path, const FxProfile *p)
{
  g_autofree char *path = path_join (parent_path, "profile");

  switch (p->noise)
    {
    case FX_NOISE_NONE:
      check_deterministic (r, path, p);
      return;
    case FX_NOISE_WHITE:
      check_non_negative (r, path, "sigma", p->noise_sigma);
      break;
    case FX_NOISE_OU:
      check_non_negative (r, path, "std", p->noise_sigma);
      check_positive (r, path, "tau", p->noise_tau);
      break;
    default:
      report_error (r, path, "type", "invalid noise %d", (int) p->noise);
      return;
    }
  if (p->type != FX_PROFILE_CONSTANT)
    {
      g_autofree char *times = path_join (path, "times");

      check_deterministic (r, times, p);
    }
}

static void
check_deterministic (Report *r, const char *path, const FxProfile *p)
{
  switch (p->type)
    {
    case FX_PROFILE_CONSTANT:
      break;
    case FX_PROFILE_STEP_OFF:
      check_finite (r, path, "t1", p->t1);
      break;
    case FX_PROFILE_RAMP:
      check_finite (r, path, "t0", p->t0);
      check_after (r, path, "t1", p->t1, "t0", p->t0);
      break;
    case FX_PROFILE_HAT:
      check_finite (r, path, "t0", p->t0);
      check_after (r, path, "t1", p->t1, "t0", p->t0);
      check_after (r, path, "t2", p->t2, "t1", p->t1);
      break;
    case FX_PROFILE_SINE:
      check_positive (r, path, "frequency", p->frequency);
      check_finite (r, path, "phase", p->phase);
      break;
    case FX_PROFILE_TABLE:
      check_table (r, path, p);
      break;
    default:
      report_error (r, path, "type", "invalid value %d", (int) p->type);
      break;
    }
}

/* Where a load acts: exactly one of a joint or a point on a link. */
static void
check_load_target (Check *c, const char *path, const FxLoad *load)
{
  int joint, frame_link;
  const FxLink *link;

  if ((load->joint == NULL) == (load->link == NULL))
    {
      g_autofree char *joint_path = path_join (path, "joint");
      g_autofree char *link_path = path_join (path, "link");

      /* A joint or link of the wrong type was reported already. */
      if (report_is_bad (c->r, joint_path) || report_is_bad (c->r, link_path))
        return;
      report_error (c->r, path, NULL, load->joint == NULL
                    ? "needs either \"joint\" or \"link\" (with \"s\")"
                    : "has both \"joint\" and \"link\"; give exactly one");
      return;
    }
  if (load->link != NULL)
    {
      check_reference (c, path, "link", load->link, TRUE);
      check_fraction (c->r, path, "s", load->s);
      return;
    }
  joint = check_reference (c, path, "joint", load->joint, FALSE);
  if (load->frame != FX_FRAME_MATERIAL)
    return;
  if (load->frame_link == NULL)
    {
      report_error (c->r, path, "frame_link", "required for a joint load in the material "
                    "frame: the id of a link ending at joint \"%s\" whose frame the load "
                    "turns with", load->joint);
      return;
    }
  frame_link = check_reference (c, path, "frame_link", load->frame_link, TRUE);
  if (joint < 0 || frame_link < 0)
    return;
  link = fx_model_link (c->model, (guint) frame_link);
  if (g_strcmp0 (link->from, load->joint) != 0 && g_strcmp0 (link->to, load->joint) != 0)
    report_error (c->r, path, "frame_link", "link \"%s\" does not end at joint \"%s\"",
                  load->frame_link, load->joint);
}

static void
check_load (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxLoad *load = fx_model_load (c->model, i);

  check_id (c->r, path, load->id, ids, "loads", i, FALSE);
  check_load_target (c, path, load);
  check_vector (c->r, path, "force", load->force);
  check_finite (c->r, path, "moment", load->moment);
  check_enum (c->r, path, "frame", load->frame, fx_frame_to_string (load->frame));
  check_profile (c->r, path, &load->profile);
}

static void
check_probe (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxProbe *probe = fx_model_probe (c->model, i);

  check_id (c->r, path, probe->id, ids, "probes", i, TRUE);
  check_reference (c, path, "link", probe->link, TRUE);
  check_fraction (c->r, path, "s", probe->s);
}

/* Whether the link ends at the joint. */
static gboolean
link_ends_at (const FxLink *link, const char *joint)
{
  return g_strcmp0 (link->from, joint) == 0 || g_strcmp0 (link->to, joint) == 0;
}

/* The rules that motors and springs share: a pin joint, the end of `link`
 * there, and either the end of another link there (`against`) or the
 * ground through a pin support. what is "motor" or "spring". */
static void
check_rotary (Check *c, const char *path, const char *what, const char *joint_id,
              const char *link_id, const char *against_id)
{
  int jt = check_reference (c, path, "joint", joint_id, FALSE);
  int la = check_reference (c, path, "link", link_id, TRUE);
  int lb = against_id != NULL ? check_reference (c, path, "against", against_id, TRUE) : -1;
  const FxJoint *joint;
  g_autofree char *joint_path = NULL, *kind_path = NULL;

  if (jt < 0)
    return;
  joint = fx_model_joint (c->model, (guint) jt);
  joint_path = g_strdup_printf ("joints[%d]", jt);
  kind_path = path_join (joint_path, "kind");
  if (la >= 0 && !link_ends_at (fx_model_link (c->model, (guint) la), joint_id))
    report_error (c->r, path, "link", "link \"%s\" does not end at joint \"%s\"",
                  link_id, joint_id);
  if (against_id != NULL && g_strcmp0 (against_id, link_id) == 0)
    report_error (c->r, path, "against", "same link as \"link\" (\"%s\"): a %s acts "
                  "between two different links, or against the ground when \"against\" is "
                  "left out", link_id, what);
  else if (lb >= 0 && !link_ends_at (fx_model_link (c->model, (guint) lb), joint_id))
    report_error (c->r, path, "against", "link \"%s\" does not end at joint \"%s\"",
                  against_id, joint_id);
  if (joint->kind != FX_JOINT_PIN)
    {
      if (fx_joint_kind_to_string (joint->kind) != NULL && !report_is_bad (c->r, kind_path))
        report_error (c->r, path, "joint", "joint \"%s\" is a %s: a %s needs a pin joint, "
                      "where the link ends turn on their own", joint_id,
                      fx_joint_kind_to_string (joint->kind), what);
    }
  else if (against_id == NULL && support_is_known (c->r, joint_path, joint)
           && joint->support != FX_SUPPORT_PIN)
    report_error (c->r, path, "joint", "a %s against the ground needs a pin support at joint "
                  "\"%s\" (its support is \"%s\"); or give \"against\": the id of another "
                  "link ending there", what, joint_id, fx_support_to_string (joint->support));
}

static void
check_motor (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxMotor *motor = fx_model_motor (c->model, i);

  check_id (c->r, path, motor->id, ids, "motors", i, TRUE);
  check_rotary (c, path, "motor", motor->joint, motor->link, motor->link_b);
  check_enum (c->r, path, "type", motor->type, fx_motor_type_to_string (motor->type));
  check_finite (c->r, path, "value", motor->value);
  check_profile (c->r, path, &motor->profile);
}

static void
check_spring (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxSpring *spring = fx_model_spring (c->model, i);

  check_id (c->r, path, spring->id, ids, "springs", i, TRUE);
  check_rotary (c, path, "spring", spring->joint, spring->link, spring->link_b);
  check_non_negative (c->r, path, "stiffness", spring->stiffness);
  check_non_negative (c->r, path, "damping", spring->damping);
  if (spring->stiffness == 0.0 && spring->damping == 0.0)
    report_error (c->r, path, NULL, "stiffness and damping are both 0: give at least one of "
                  "them > 0");
  check_finite (c->r, path, "rest_angle", spring->rest_angle);
}

/* A drag: a link and s, or a joint with a link; a path of rising times. */
static void
check_drag (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxDrag *drag = fx_model_drag (c->model, i);

  check_id (c->r, path, drag->id, ids, "drags", i, FALSE);
  if ((drag->link == NULL) == (drag->joint == NULL))
    report_error (c->r, path, NULL, "give either \"link\" (with \"s\") or \"joint\"");
  else if (drag->link != NULL)
    {
      check_reference (c, path, "link", drag->link, TRUE);
      if (isnan (drag->s))
        report_error (c->r, path, "s", "required with \"link\"");
      else
        check_fraction (c->r, path, "s", drag->s);
    }
  else
    {
      gboolean linked = FALSE;
      check_reference (c, path, "joint", drag->joint, FALSE);
      for (guint l = 0; l < c->model->links->len && !linked; l++)
        linked = link_ends_at (fx_model_link (c->model, l), drag->joint);
      if (!linked && fx_model_find_joint (c->model, drag->joint) >= 0)
        report_error (c->r, path, "joint", "no link ends at joint \"%s\" to pull", drag->joint);
    }
  if (drag->n_path == 0)
    report_error (c->r, path, "path", "needs at least one [t, x, y] point");
  for (guint k = 0; k < drag->n_path; k++)
    {
      g_autofree char *here = g_strdup_printf ("%s.path[%u]", path, k);
      if (!isfinite (drag->path_t[k]) || !isfinite (drag->path_x[k]) || !isfinite (drag->path_y[k]))
        report_error (c->r, here, NULL, "must be finite numbers");
      else if (k > 0 && !(drag->path_t[k] > drag->path_t[k - 1]))
        report_error (c->r, here, NULL, "times must rise: %s after %s", num (drag->path_t[k]),
                      num (drag->path_t[k - 1]));
    }
  check_positive (c->r, path, "frequency", drag->frequency);
  check_non_negative (c->r, path, "damping_ratio", drag->damping_ratio);
  if (!isinf (drag->release) || drag->release < 0)
    check_non_negative (c->r, path, "release", drag->release);
}

/* A rigid body: known, distinct attachment joints, a mass, and a centre
 * apart from every attachment (its spokes need a length). */
static void
check_body (Check *c, guint i, const char *path, GHashTable *ids)
{
  const FxBody *body = fx_model_body (c->model, i);
  double center[2], size = 0.0;

  check_id (c->r, path, body->id, ids, "bodies", i, TRUE);
  check_positive (c->r, path, "mass", body->mass);
  check_magnitude (c->r, path, "mass", body->mass);
  check_non_negative (c->r, path, "inertia", body->inertia);
  check_magnitude (c->r, path, "inertia", body->inertia);
  if (body->has_center)
    check_position (c->r, path, "center", body->center);
  if (body->n_joints == 0)
    {
      report_error (c->r, path, "joints", "a body needs at least one attachment joint");
      return;
    }
  fx_body_center (c->model, body, center);
  for (guint k = 0; k < body->n_joints; k++)
    {
      g_autofree char *key = g_strdup_printf ("joints[%u]", k);
      int j = check_reference (c, path, key, body->joints[k], FALSE);
      for (guint q = 0; q < k; q++)
        if (g_strcmp0 (body->joints[q], body->joints[k]) == 0)
          report_error (c->r, path, key, "joint \"%s\" is listed twice", body->joints[k]);
      if (j >= 0)
        {
          const FxJoint *joint = fx_model_joint (c->model, (guint) j);
          size = MAX (size, hypot (joint->at[0] - center[0], joint->at[1] - center[1]));
          if (joint->support != FX_SUPPORT_NONE || joint->mass > 0 || joint->inertia > 0
              || joint->slider || joint->driven)
            report_error (c->r, path, key, "joint \"%s\" moves with the body, so it cannot "
                          "have its own support, mass, inertia or slider; put the mass in the "
                          "body, and hold the body with a link to a supported joint", joint->id);
          int owner = fx_model_find_body_of_joint (c->model, joint->id);
          if (owner >= 0 && owner != (int) i)
            report_error (c->r, path, key, "joint \"%s\" is already attached to body \"%s\"; "
                          "join two bodies with a link", joint->id,
                          fx_model_body (c->model, (guint) owner)->id ? fx_model_body (c->model, (guint) owner)->id : "");
        }
    }
  for (guint k = 0; k < body->n_joints; k++)
    {
      int j = fx_model_find_joint (c->model, body->joints[k]);
      if (j < 0)
        continue;
      const FxJoint *joint = fx_model_joint (c->model, (guint) j);
      if (hypot (joint->at[0] - center[0], joint->at[1] - center[1]) <= 1e-9 * MAX (size, 1e-300))
        report_error (c->r, path, body->has_center ? "center" : "joints",
                      "the centre (%s, %s) is at attachment joint \"%s\"; give the body a "
                      "\"center\" away from its joints", num (center[0]), num (center[1]),
                      joint->id);
    }
}

typedef void (*ItemCheck) (Check *c, guint i, const char *path, GHashTable *ids);

static void
check_list (Check *c, const GArray *items, const char *key, ItemCheck check_item)
{
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s[%u]", key, i);

      check_item (c, i, path, ids);
    }
}

/* Noisy profiles that name one stream share one noise: same kind and
 * parameters. The first of a stream is the reference; at most
 * FX_NOISE_MAX_SOURCES (256) noises in a model. */
static void
check_stream (Report *r, GHashTable *streams, const char *parent_path, const FxProfile *p,
              guint *n_sources)
{
  g_autofree char *path = path_join (parent_path, "profile");
  const FxProfile *first;

  if (p->noise == FX_NOISE_NONE)
    return;
  if (p->noise_stream == NULL || !(first = g_hash_table_lookup (streams, p->noise_stream)))
    {
      if (++*n_sources == 257)
        report_error (r, path, NULL, "more than 256 independent noises in one model");
      if (p->noise_stream != NULL && p->noise_stream[0] == '\0')
        report_error (r, path, "stream", "must not be empty");
      else if (p->noise_stream != NULL)
        g_hash_table_insert (streams, p->noise_stream, (gpointer) p);
      return;
    }
  if (first->noise != p->noise || first->noise_sigma != p->noise_sigma
      || (p->noise == FX_NOISE_OU && first->noise_tau != p->noise_tau))
    report_error (r, path, "stream", "stream \"%s\" is shared, so its noise must have the "
                  "same type and parameters everywhere it is used", p->noise_stream);
}

static void
check_streams (Report *r, const FxModel *m)
{
  g_autoptr (GHashTable) streams = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  for (guint i = 0; i < m->joints->len; i++)
    if (fx_model_joint (m, i)->driven)
      {
        g_autofree char *path = g_strdup_printf ("joints[%u].motion", i);

        check_stream (r, streams, path, &fx_model_joint (m, i)->drive_profile, &n);
      }
  for (guint i = 0; i < m->loads->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("loads[%u]", i);

      check_stream (r, streams, path, &fx_model_load (m, i)->profile, &n);
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    {
      g_autofree char *path = g_strdup_printf ("motors[%u]", i);

      check_stream (r, streams, path, &fx_model_motor (m, i)->profile, &n);
    }
}

static void
check_model (Report *r, const FxModel *m)
{
  Check c = { r, m, g_hash_table_new (g_str_hash, g_str_equal),
              g_hash_table_new (g_str_hash, g_str_equal) };
  guint64 total = 0;

  check_settings (r, m);
  for (guint i = 0; i < m->joints->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("joints[%u]", i);

      check_joint (&c, i, path);
    }
  /* Register every link id first: loads and probes may name any of them. */
  for (guint i = 0; i < m->links->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("links[%u]", i);

      check_link (&c, i, path, &total);
    }
  if (total > FX_MAX_ELEMENTS_TOTAL)
    report_error (r, NULL, "links", "%" G_GUINT64_FORMAT " elements in total; the limit "
                  "is %u", total, FX_MAX_ELEMENTS_TOTAL);
  check_list (&c, m->loads, "loads", check_load);
  check_list (&c, m->motors, "motors", check_motor);
  check_list (&c, m->springs, "springs", check_spring);
  check_list (&c, m->bodies, "bodies", check_body);
  check_list (&c, m->probes, "probes", check_probe);
  check_list (&c, m->drags, "drags", check_drag);
  check_streams (r, m);
  g_hash_table_unref (c.joints);
  g_hash_table_unref (c.links);
}

/* ======================================================================== */
/* Writer: model -> JSON tree -> text                                       */
/* ======================================================================== */

static void
set_pair (JsonObject *o, const char *key, double a, double b)
{
  JsonArray *array = json_array_sized_new (2);

  json_array_add_double_element (array, a);
  json_array_add_double_element (array, b);
  json_object_set_array_member (o, key, array);
}

/* A name, or null for an enum value out of range (the file then fails to load). */
static void
set_name (JsonObject *o, const char *key, const char *name)
{
  if (name != NULL)
    json_object_set_string_member (o, key, name);
  else
    json_object_set_null_member (o, key);
}

static void
set_string (JsonObject *o, const char *key, const char *value)
{
  if (value != NULL)
    json_object_set_string_member (o, key, value);
}

static void
set_nonzero (JsonObject *o, const char *key, double value)
{
  if (value != 0.0)
    json_object_set_double_member (o, key, value);
}

static JsonNode *
object_node (JsonObject *o)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, o);
  return node;
}

static JsonObject *deterministic_object (const FxProfile *p);

/* A noise profile names its noise as its type, the deterministic factor
 * (when not constant) under "times". */
static JsonObject *
profile_object (const FxProfile *p)
{
  JsonObject *o;

  if (p->noise == FX_NOISE_NONE)
    return deterministic_object (p);
  o = json_object_new ();
  set_name (o, "type", fx_noise_kind_to_string (p->noise));
  if (p->noise == FX_NOISE_WHITE)
    json_object_set_double_member (o, "sigma", p->noise_sigma);
  else
    {
      json_object_set_double_member (o, "std", p->noise_sigma);
      json_object_set_double_member (o, "tau", p->noise_tau);
    }
  set_string (o, "stream", p->noise_stream);
  if (p->type != FX_PROFILE_CONSTANT)
    json_object_set_object_member (o, "times", deterministic_object (p));
  return o;
}

static JsonObject *
deterministic_object (const FxProfile *p)
{
  JsonObject *o = json_object_new ();

  set_name (o, "type", fx_profile_type_to_string (p->type));
  switch (p->type)
    {
    case FX_PROFILE_STEP_OFF:
      json_object_set_double_member (o, "t1", p->t1);
      break;
    case FX_PROFILE_RAMP:
      set_nonzero (o, "t0", p->t0);
      json_object_set_double_member (o, "t1", p->t1);
      break;
    case FX_PROFILE_HAT:
      set_nonzero (o, "t0", p->t0);
      json_object_set_double_member (o, "t1", p->t1);
      json_object_set_double_member (o, "t2", p->t2);
      break;
    case FX_PROFILE_SINE:
      json_object_set_double_member (o, "frequency", p->frequency);
      set_nonzero (o, "phase", p->phase);
      break;
    case FX_PROFILE_TABLE:
      {
        JsonArray *points = json_array_sized_new (p->n_table);

        for (guint i = 0; i < p->n_table && p->table_t && p->table_value; i++)
          {
            JsonArray *point = json_array_sized_new (2);

            json_array_add_double_element (point, p->table_t[i]);
            json_array_add_double_element (point, p->table_value[i]);
            json_array_add_array_element (points, point);
          }
        json_object_set_array_member (o, "points", points);
      }
      break;
    case FX_PROFILE_CONSTANT:
    default:
      break;
    }
  return o;
}

/* The profile, left out when constant (the default). */
static void
set_profile (JsonObject *o, const FxProfile *p)
{
  if (p->type != FX_PROFILE_CONSTANT || p->noise != FX_NOISE_NONE)
    json_object_set_object_member (o, "profile", profile_object (p));
}

static JsonNode *
joint_node (gconstpointer item)
{
  const FxJoint *joint = item;
  JsonObject *o = json_object_new ();

  set_string (o, "id", joint->id);
  set_pair (o, "at", joint->at[0], joint->at[1]);
  if (joint->kind != FX_JOINT_PIN)
    set_name (o, "kind", fx_joint_kind_to_string (joint->kind));
  if (joint->support != FX_SUPPORT_NONE)
    set_name (o, "support", fx_support_to_string (joint->support));
  set_nonzero (o, "mass", joint->mass);
  set_nonzero (o, "inertia", joint->inertia);
  if (joint->driven)
    {
      JsonObject *motion = json_object_new ();

      set_pair (motion, "velocity", joint->drive_velocity[0], joint->drive_velocity[1]);
      set_profile (motion, &joint->drive_profile);
      json_object_set_object_member (o, "motion", motion);
    }
  if (joint->slider)
    {
      JsonObject *slider = json_object_new ();

      set_pair (slider, "direction", joint->slider_direction[0], joint->slider_direction[1]);
      json_object_set_double_member (slider, "mass", joint->slider_mass);
      json_object_set_object_member (o, "slider", slider);
    }
  return object_node (o);
}

static JsonObject *
shape_object (const FxSection *s)
{
  JsonObject *o = json_object_new ();

  set_name (o, "type", fx_shape_type_to_string (s->shape));
  switch (s->shape)
    {
    case FX_SHAPE_RECTANGLE:
      json_object_set_double_member (o, "width", s->width);
      json_object_set_double_member (o, "height", s->height);
      break;
    case FX_SHAPE_SQUARE:
      json_object_set_double_member (o, "side", s->width);
      break;
    case FX_SHAPE_CIRCLE:
      json_object_set_double_member (o, "diameter", s->diameter);
      break;
    case FX_SHAPE_TUBE:
      json_object_set_double_member (o, "diameter", s->diameter);
      json_object_set_double_member (o, "inner_diameter", s->inner_diameter);
      break;
    default:
      break;
    }
  return o;
}

/* The section in the form it was given; a rigid link's absent stiffness
 * (0) stays absent. */
static JsonObject *
section_object (const FxSection *s, gboolean rigid)
{
  JsonObject *o = json_object_new ();

  if (s->form == FX_SECTION_MATERIAL)
    {
      if (!rigid || s->E != 0.0)
        json_object_set_double_member (o, "E", s->E);
      if (!rigid || s->nu != 0.0)
        json_object_set_double_member (o, "nu", s->nu);
      json_object_set_double_member (o, "rho", s->rho);
      json_object_set_object_member (o, "shape", shape_object (s));
      if (s->shear_factor > 0.0 && s->shear_factor != fx_shape_default_shear_factor (s->shape))
        json_object_set_double_member (o, "shear_factor", s->shear_factor);
      return o;
    }
  json_object_set_double_member (o, "rhoA", s->rhoA);
  json_object_set_double_member (o, "rhoI", s->rhoI);
  if (!rigid || s->EA != 0.0)
    json_object_set_double_member (o, "EA", s->EA);
  if (!rigid || s->GA != 0.0)
    json_object_set_double_member (o, "GA", s->GA);
  if (!rigid || s->EI != 0.0)
    json_object_set_double_member (o, "EI", s->EI);
  return o;
}

static JsonNode *
link_node (gconstpointer item)
{
  const FxLink *link = item;
  JsonObject *o = json_object_new ();

  set_string (o, "id", link->id);
  set_string (o, "from", link->from);
  set_string (o, "to", link->to);
  json_object_set_int_member (o, "elements", link->elements);
  if (link->rigid)
    json_object_set_boolean_member (o, "rigid", TRUE);
  if (link->formulation != FX_FORMULATION_AUTO)
    set_name (o, "formulation", fx_formulation_to_string (link->formulation));
  json_object_set_object_member (o, "section", section_object (&link->section, link->rigid));
  if (link->initial_velocity[0] != 0.0 || link->initial_velocity[1] != 0.0
      || link->initial_omega != 0.0)
    {
      JsonObject *initial = json_object_new ();

      if (link->initial_velocity[0] != 0.0 || link->initial_velocity[1] != 0.0)
        set_pair (initial, "velocity", link->initial_velocity[0], link->initial_velocity[1]);
      set_nonzero (initial, "omega", link->initial_omega);
      json_object_set_object_member (o, "initial", initial);
    }
  if (link->damping != 0.0 || link->rotational_damping != 0.0)
    {
      JsonObject *damping = json_object_new ();

      set_nonzero (damping, "velocity", link->damping);
      set_nonzero (damping, "rotation", link->rotational_damping);
      json_object_set_object_member (o, "damping", damping);
    }
  return object_node (o);
}

static JsonNode *
load_node (gconstpointer item)
{
  const FxLoad *load = item;
  JsonObject *o = json_object_new ();

  set_string (o, "id", load->id);
  set_string (o, "joint", load->joint);
  set_string (o, "link", load->link);
  if (load->link != NULL)
    json_object_set_double_member (o, "s", load->s);
  if (load->force[0] != 0.0 || load->force[1] != 0.0)
    set_pair (o, "force", load->force[0], load->force[1]);
  set_nonzero (o, "moment", load->moment);
  if (load->frame != FX_FRAME_SPATIAL)
    set_name (o, "frame", fx_frame_to_string (load->frame));
  if (load->joint != NULL && load->link == NULL && load->frame == FX_FRAME_MATERIAL)
    set_string (o, "frame_link", load->frame_link);
  set_profile (o, &load->profile);
  return object_node (o);
}

static JsonNode *
motor_node (gconstpointer item)
{
  const FxMotor *motor = item;
  JsonObject *o = json_object_new ();

  set_string (o, "id", motor->id);
  set_string (o, "joint", motor->joint);
  set_string (o, "link", motor->link);
  set_string (o, "against", motor->link_b);
  set_name (o, "type", fx_motor_type_to_string (motor->type));
  json_object_set_double_member (o, "value", motor->value);
  set_profile (o, &motor->profile);
  return object_node (o);
}

static JsonNode *
drag_node (gconstpointer item)
{
  const FxDrag *drag = item;
  JsonObject *o = json_object_new ();
  JsonArray *points = json_array_sized_new (drag->n_path);

  set_string (o, "id", drag->id);
  set_string (o, "link", drag->link);
  if (drag->link != NULL)
    json_object_set_double_member (o, "s", drag->s);
  set_string (o, "joint", drag->joint);
  for (guint k = 0; k < drag->n_path; k++)
    {
      JsonArray *p = json_array_sized_new (3);
      json_array_add_double_element (p, drag->path_t[k]);
      json_array_add_double_element (p, drag->path_x[k]);
      json_array_add_double_element (p, drag->path_y[k]);
      json_array_add_array_element (points, p);
    }
  json_object_set_array_member (o, "path", points);
  if (drag->frequency != FX_DRAG_DEFAULT_FREQUENCY)
    json_object_set_double_member (o, "frequency", drag->frequency);
  if (drag->damping_ratio != FX_DRAG_DEFAULT_DAMPING_RATIO)
    json_object_set_double_member (o, "damping_ratio", drag->damping_ratio);
  if (isfinite (drag->release))
    json_object_set_double_member (o, "release", drag->release);
  return object_node (o);
}

static JsonNode *
spring_node (gconstpointer item)
{
  const FxSpring *spring = item;
  JsonObject *o = json_object_new ();

  set_string (o, "id", spring->id);
  set_string (o, "joint", spring->joint);
  set_string (o, "link", spring->link);
  set_string (o, "against", spring->link_b);
  set_nonzero (o, "stiffness", spring->stiffness);
  set_nonzero (o, "damping", spring->damping);
  set_nonzero (o, "rest_angle", spring->rest_angle);
  return object_node (o);
}

static JsonNode *
probe_node (gconstpointer item)
{
  const FxProbe *probe = item;
  JsonObject *o = json_object_new ();

  set_string (o, "id", probe->id);
  set_string (o, "link", probe->link);
  json_object_set_double_member (o, "s", probe->s);
  return object_node (o);
}

static JsonNode *
body_node (gconstpointer item)
{
  const FxBody *body = item;
  JsonObject *o = json_object_new ();
  JsonArray *joints = json_array_sized_new (body->n_joints);

  set_string (o, "id", body->id);
  for (guint k = 0; k < body->n_joints; k++)
    json_array_add_string_element (joints, body->joints[k]);
  json_object_set_array_member (o, "joints", joints);
  json_object_set_double_member (o, "mass", body->mass);
  set_nonzero (o, "inertia", body->inertia);
  if (body->has_center)
    set_pair (o, "center", body->center[0], body->center[1]);
  return object_node (o);
}

typedef JsonNode *(*ItemNode) (gconstpointer item);

/* An array member with one node per element; empty lists are left out. */
static void
set_list (JsonObject *o, const char *key, const GArray *items, ItemNode item_node)
{
  JsonArray *array;
  gsize size = g_array_get_element_size ((GArray *) items);

  if (items->len == 0)
    return;
  array = json_array_sized_new (items->len);
  for (guint i = 0; i < items->len; i++)
    json_array_add_element (array, item_node (items->data + (gsize) i * size));
  json_object_set_array_member (o, key, array);
}

static JsonNode *
model_node (const FxModel *m)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "format", FX_MODEL_FORMAT_NAME);
  json_object_set_int_member (o, "version", FX_MODEL_FORMAT_VERSION);
  set_string (o, "name", m->name);
  set_string (o, "description", m->description);
  /* gravity and time are written even at their defaults: they are physics a
   * reader of the file wants to see. */
  set_pair (o, "gravity", m->gravity[0], m->gravity[1]);
  {
    JsonObject *time = json_object_new ();

    json_object_set_double_member (time, "dt", m->dt);
    json_object_set_double_member (time, "end", m->t_end);
    json_object_set_object_member (o, "time", time);
  }
  if (m->seed != 0)
    json_object_set_int_member (o, "seed", (gint64) m->seed);
  if (m->tolerance != 1e-12 || m->max_iterations != 20)
    {
      JsonObject *solver = json_object_new ();

      json_object_set_double_member (solver, "tolerance", m->tolerance);
      json_object_set_int_member (solver, "max_iterations", m->max_iterations);
      json_object_set_object_member (o, "solver", solver);
    }
  set_list (o, "joints", m->joints, joint_node);
  set_list (o, "links", m->links, link_node);
  set_list (o, "loads", m->loads, load_node);
  set_list (o, "motors", m->motors, motor_node);
  set_list (o, "springs", m->springs, spring_node);
  set_list (o, "bodies", m->bodies, body_node);
  set_list (o, "probes", m->probes, probe_node);
  set_list (o, "drags", m->drags, drag_node);
  return object_node (o);
}

static void
write_string (GString *out, const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) c);
        }
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
}

static void
write_value (GString *out, JsonNode *node)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (JSON_NODE_HOLDS_NULL (node))
    {
      g_string_append (out, "null");
      return;
    }
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      write_string (out, json_node_get_string (node));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_INT64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    default:
      format_double (buf, json_node_get_double (node));
      g_string_append (out, buf);
      break;
    }
}

/* Lists of objects (joints, links...) always get a line per item. */
static gboolean
holds_objects (JsonNode *node)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
      return TRUE;
  return FALSE;
}

/* One-line form; gives up (FALSE) as soon as out grows past limit. */
static gboolean
write_compact (GString *out, JsonNode *node, gsize limit)
{
  gboolean is_object = JSON_NODE_HOLDS_OBJECT (node);

  if (is_object || JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autoptr (GList) members = is_object
        ? json_object_get_members (json_node_get_object (node)) : NULL;
      JsonArray *array = is_object ? NULL : json_node_get_array (node);
      guint n = is_object ? g_list_length (members) : json_array_get_length (array);
      GList *l = members;

      if (holds_objects (node))
        return FALSE;
      g_string_append (out, is_object ? (n > 0 ? "{ " : "{") : "[");
      for (guint i = 0; i < n && out->len <= limit; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (is_object)
            {
              write_string (out, l->data);
              g_string_append (out, ": ");
              if (!write_compact (out, json_object_get_member (json_node_get_object (node),
                                                               l->data), limit))
                return FALSE;
              l = l->next;
            }
          else if (!write_compact (out, json_array_get_element (array, i), limit))
            return FALSE;
        }
      g_string_append (out, is_object ? (n > 0 ? " }" : "}") : "]");
    }
  else
    write_value (out, node);
  return out->len <= limit;
}

static void
indent_line (GString *out, guint indent)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < indent; i++)
    g_string_append_c (out, ' ');
}

static void write_pretty (GString *out, JsonNode *node, guint indent, gboolean top);

static void
write_expanded (GString *out, JsonNode *node, guint indent)
{
  gboolean is_object = JSON_NODE_HOLDS_OBJECT (node);
  g_autoptr (GList) members = is_object
    ? json_object_get_members (json_node_get_object (node)) : NULL;
  JsonArray *array = is_object ? NULL : json_node_get_array (node);
  guint n = is_object ? g_list_length (members) : json_array_get_length (array);
  GList *l = members;

  g_string_append_c (out, is_object ? '{' : '[');
  for (guint i = 0; i < n; i++)
    {
      indent_line (out, indent + 2);
      if (is_object)
        {
          write_string (out, l->data);
          g_string_append (out, ": ");
          write_pretty (out, json_object_get_member (json_node_get_object (node), l->data),
                        indent + 2, FALSE);
          l = l->next;
        }
      else
        write_pretty (out, json_array_get_element (array, i), indent + 2, FALSE);
      if (i + 1 < n)
        g_string_append_c (out, ',');
    }
  indent_line (out, indent);
  g_string_append_c (out, is_object ? '}' : ']');
}

/* Compact when it fits on the current line, else one member per line. */
static void
write_pretty (GString *out, JsonNode *node, guint indent, gboolean top)
{
  gsize start = out->len, line_start = start;

  if (!JSON_NODE_HOLDS_OBJECT (node) && !JSON_NODE_HOLDS_ARRAY (node))
    {
      write_value (out, node);
      return;
    }
  while (line_start > 0 && out->str[line_start - 1] != '\n')
    line_start--;
  if (!top && write_compact (out, node, line_start + WIDTH))
    return;
  g_string_truncate (out, start);
  write_expanded (out, node, indent);
}

/* ======================================================================== */
/* Public API                                                               */
/* ======================================================================== */

FxModel *
fx_model_load_data (const char *data, gssize length, GPtrArray **warnings, GError **error)
{
  g_autoptr (JsonNode) root = NULL;
  FxModel *model = NULL;
  Report r;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  report_init (&r);
  if (data == NULL)
    data = "", length = 0;
  if (length < 0)
    length = (gssize) strlen (data);

  root = parse_json (&r, data, (gsize) length);
  if (root != NULL)
    model = read_model (&r, root);
  /* Past the cap the checker would only add noise to a hopeless file. */
  if (model != NULL && r.n_errors < MAX_MESSAGES)
    check_model (&r, model);
  if (!report_finish (&r, warnings, error))
    g_clear_pointer (&model, fx_model_free);
  return model;
}

/* Reads a model file: a regular file (a FIFO or a device such as /dev/zero
 * would block or never end) of at most FX_MODEL_MAX_FILE_SIZE bytes. The
 * file is opened without blocking, then checked on its descriptor, so that
 * nothing swapped in between is read. */
static gboolean
read_model_file (const char *filename, char **data, gsize *length, GError **error)
{
  struct stat st;
  int fd = g_open (filename, O_RDONLY | O_NONBLOCK, 0);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO, _("Cannot open “%s”: %s"),
                   filename, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                   _("“%s” is not a regular file (a model is read from an ordinary file)"),
                   filename);
      close (fd);
      return FALSE;
    }
  if (st.st_size > FX_MODEL_MAX_FILE_SIZE)
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                   _("“%s” is %.0f MB; model files are limited to %d MB"), filename,
                   st.st_size / 1048576.0, FX_MODEL_MAX_FILE_SIZE >> 20);
      close (fd);
      return FALSE;
    }

  /* one byte more than the limit shows a file that grew meanwhile */
  gsize cap = (gsize) st.st_size + 1, n = 0;
  g_autofree char *buf = g_malloc (cap + 1);
  for (;;)
    {
      gssize got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;
          g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO, _("Cannot read “%s”: %s"),
                       filename, g_strerror (saved));
          close (fd);
          return FALSE;
        }
      if (got == 0)
        break;
      n += (gsize) got;
      if (n == cap)
        {
          if (cap > FX_MODEL_MAX_FILE_SIZE)
            {
              g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                           _("“%s” is larger than %d MB, the limit for model files"), filename,
                           FX_MODEL_MAX_FILE_SIZE >> 20);
              close (fd);
              return FALSE;
            }
          cap = MIN (2 * cap, (gsize) FX_MODEL_MAX_FILE_SIZE + 1);
          buf = g_realloc (buf, cap + 1);
        }
    }
  close (fd);
  buf[n] = '\0';
  *data = g_steal_pointer (&buf);
  *length = n;
  return TRUE;
}

FxModel *
fx_model_load_file (const char *filename, GPtrArray **warnings, GError **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_model_file (filename, &data, &length, error))
    {
      if (warnings != NULL)
        *warnings = g_ptr_array_new_with_free_func (g_free);
      return NULL;
    }
  return fx_model_load_data (data, (gssize) length, warnings, error);
}

char *
fx_model_to_data (const FxModel *model, gsize *length)
{
  g_autoptr (JsonNode) root = NULL;
  GString *out;

  g_return_val_if_fail (model != NULL, NULL);

  root = model_node (model);
  out = g_string_new (NULL);
  write_pretty (out, root, 0, TRUE);
  g_string_append_c (out, '\n');
  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}

gboolean
fx_model_save_file (const FxModel *model, const char *filename, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize length;

  g_return_val_if_fail (model != NULL && filename != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = fx_model_to_data (model, &length);
  /* g_file_set_contents() writes a temporary file beside the target and
   * renames it over, so a failed save leaves the old file whole. */
  if (!g_file_set_contents (filename, data, (gssize) length, &local))
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO, _("Cannot save “%s”: %s"),
                   filename, local->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
fx_model_validate (const FxModel *model, GError **error)
{
  Report r;

  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  report_init (&r);
  check_model (&r, model);
  return report_finish (&r, NULL, error);
}
