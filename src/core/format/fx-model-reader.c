/* fx-model-reader.c: the reader, JSON text to FxModel. The text is checked
 * before json-glib sees it (strict JSON, no comments or hexadecimal), then
 * walked with typed access to members; what the model cannot hold (wrong
 * types, missing required values, unknown names) is reported with its path. */
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
    fx_io_report_error (r, path, key, "required");
  return node;
}

/* A finite number from a node; key names it inside path for messages. */
static gboolean
number_from_node (Report *r, JsonNode *node, const char *path, const char *key, double *out)
{
  double v;

  if (!node_is_number (node))
    {
      fx_io_report_error (r, path, key, "expected a number, got %s", node_kind (node));
      return FALSE;
    }
  v = json_node_get_double (node);
  if (!isfinite (v))
    {
      fx_io_report_error (r, path, key, "must be a finite number, got one too large to represent");
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
      fx_io_report_error (r, path, key, "expected an integer, got %s", fx_io_num (v));
      return FALSE;
    }
  if (v < min || v > max)
    {
      fx_io_report_error (r, path, key, "must be an integer from %u to %u, got %s", min, max, fx_io_num (v));
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
      fx_io_report_error (r, path, key, "expected a string, got %s", node_kind (node));
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
      fx_io_report_error (r, path, key, "expected a string, got %s", node_kind (node));
      return NULL;
    }
  return json_node_get_string (node);
}

static void
report_bad_name (Report *r, const char *path, const char *key, const char *name,
                 const char *choices)
{
  fx_io_report_error (r, path, key, "unknown value \"%s\"; expected one of %s", name, choices);
}

static gboolean
read_bool (Report *r, JsonObject *o, const char *path, const char *key, gboolean *out)
{
  JsonNode *node = member (r, o, path, key, FALSE);

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      fx_io_report_error (r, path, key, "expected true or false, got %s", node_kind (node));
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
  g_autofree char *here = fx_io_path_join (path, key);
  JsonArray *array;
  double v[2];
  gboolean ok;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, key, "expected an array of %s, got %s", what, node_kind (node));
      return FALSE;
    }
  array = json_node_get_array (node);
  if (json_array_get_length (array) != 2)
    {
      fx_io_report_error (r, path, key, "expected an array of %s, got %u element%s", what,
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
      fx_io_report_error (r, path, key, "expected an object, got %s", node_kind (node));
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
    fx_io_report_warning (check->report, check->path, key, "unknown key, ignored");
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
  g_autofree char *path = fx_io_path_join (joint_path, "motion");
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
  g_autofree char *path = fx_io_path_join (joint_path, "slider");
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
    "id", "at", "kind", "support", "direction", "mass", "inertia", "motion", "slider", NULL
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
    report_bad_name (r, path, "support", name,
                     "\"none\", \"pin\", \"clamp\", \"guided\", \"roller\"");
  /* a roller's guide: the direction the joint rolls along */
  if (json_object_has_member (o, "direction"))
    {
      if (joint->support != FX_SUPPORT_ROLLER)
        fx_io_report_error (r, path, "direction", "only a roller support has a direction "
                            "(\"support\": \"roller\"); for a sliding block use \"slider\"");
      else if (read_vector (r, o, path, "direction", TRUE, joint->slider_direction))
        normalise_direction (joint->slider_direction);
    }
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
  g_autofree char *path = fx_io_path_join (section_path, "shape");
  JsonObject *o = read_object (r, section_object, section_path, "shape", TRUE);
  const char *type;

  if (o == NULL)
    return;
  /* Without a known type the sizes mean nothing: keep the checker off them. */
  if (!(type = read_name (r, o, path, "type", TRUE)))
    {
      fx_io_report_mark_bad (r, path);
      return;
    }
  if (!fx_shape_type_from_string (type, &section->shape))
    {
      report_bad_name (r, path, "type", type, "\"rectangle\", \"square\", \"circle\", \"tube\"");
      fx_io_report_mark_bad (r, path);
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
  g_autofree char *path = fx_io_path_join (link_path, "section");
  JsonObject *o = read_object (r, link_object, link_path, "section", TRUE);
  gboolean canonical, material;

  if (o == NULL)
    return;
  canonical = has_any (o, canonical_keys);
  material = has_any (o, material_keys);
  if (canonical && material)
    fx_io_report_error (r, path, NULL, "mixes the canonical form (rhoA, rhoI, EA, GA, EI) with the "
                  "material form (E, nu, rho, shape, shear_factor); use one of them");
  else if (canonical)
    read_canonical (r, o, path, link->rigid, &link->section);
  else if (material)
    read_material (r, o, path, link->rigid, &link->section);
  else
    fx_io_report_error (r, path, NULL, "needs either rhoA, rhoI, EA, GA, EI or E, nu, rho, shape");
}

static void
read_initial (Report *r, JsonObject *link_object, const char *link_path, FxLink *link)
{
  static const char *const keys[] = { "velocity", "omega", NULL };
  g_autofree char *path = fx_io_path_join (link_path, "initial");
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
  static const char *const keys[] = { "velocity", "rotation", "kelvin_voigt", NULL };
  g_autofree char *path = fx_io_path_join (link_path, "damping");
  JsonObject *o = read_object (r, link_object, link_path, "damping", FALSE);

  if (o == NULL)
    return;
  check_keys (r, o, path, keys);
  read_number (r, o, path, "velocity", FALSE, &link->damping);
  read_number (r, o, path, "rotation", FALSE, &link->rotational_damping);
  read_number (r, o, path, "kelvin_voigt", FALSE, &link->kelvin_voigt);
}

static void
read_link (Report *r, FxModel *model, JsonObject *o, const char *path)
{
  static const char *const keys[] = {
    "id", "from", "to", "elements", "section", "formulation", "rigid", "initial", "damping",
    "model", "frame", NULL
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
  if ((name = read_name (r, o, path, "model", FALSE))
      && !fx_link_kind_from_string (name, &link->kind))
    report_bad_name (r, path, "model", name, "\"geometrically-exact\", \"floating-frame\"");
  if ((name = read_name (r, o, path, "frame", FALSE))
      && !fx_link_frame_from_string (name, &link->frame))
    report_bad_name (r, path, "frame", name, "\"mean-axis\", \"attached\"");
  read_initial (r, o, path, link);
  read_damping (r, o, path, link);
}

static void
read_table (Report *r, JsonObject *o, const char *path, FxProfile *profile)
{
  g_autofree char *points_path = fx_io_path_join (path, "points");
  JsonNode *node = member (r, o, path, "points", TRUE);
  g_autofree double *t = NULL, *value = NULL;
  JsonArray *array;
  guint n;

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, "points", "expected an array of [t, value] pairs, got %s",
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
          g_autofree char *here = fx_io_path_join (points_path, key);

          fx_io_report_mark_bad (r, here);  /* its neighbours are not compared with it */
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
  g_autofree char *path = fx_io_path_join (parent_path, key);
  JsonObject *o = read_object (r, parent, parent_path, key, FALSE);
  const char *type;

  if (o == NULL || !(type = read_name (r, o, path, "type", TRUE)))
    return;
  FxNoiseKind nested;

  if (fx_noise_kind_from_string (type, &nested) && nested != FX_NOISE_NONE)
    {
      fx_io_report_error (r, path, "type", "a noise multiplies a deterministic profile, not another "
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
 * noise multiplies (docs/theory.md §9). */
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
  g_autofree char *path = fx_io_path_join (parent_path, "profile");
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
    fx_io_report_warning (r, path, "s", "only used by loads on a link, ignored");
  read_vector (r, o, path, "force", FALSE, load->force);
  read_number (r, o, path, "moment", FALSE, &load->moment);
  if ((name = read_name (r, o, path, "frame", FALSE))
      && !fx_frame_from_string (name, &load->frame))
    report_bad_name (r, path, "frame", name, "\"spatial\", \"material\"");
  /* frame_link only means something for a material-frame load at a joint. */
  if (load->joint != NULL && load->link == NULL && load->frame == FX_FRAME_MATERIAL)
    read_string (r, o, path, "frame_link", FALSE, &load->frame_link);
  else if (json_object_has_member (o, "frame_link"))
    fx_io_report_warning (r, path, "frame_link",
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
  g_autofree char *here = fx_io_path_join (path, key);
  gboolean ok = TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != 3)
    {
      fx_io_report_error (r, path, key, "expected an array of 3 numbers [t, x, y], got %s",
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
  g_autofree char *points_path = fx_io_path_join (path, "path");
  JsonNode *node = member (r, o, path, "path", TRUE);

  if (node == NULL)
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, "path", "expected an array of [t, x, y] points, got %s",
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
          g_autofree char *here = fx_io_path_join (points_path, key);
          fx_io_report_mark_bad (r, here);
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
      fx_io_report_error (r, path, "joints", "expected an array of joint ids, got %s", node_kind (node));
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
          fx_io_report_error (r, path, key, "expected a joint id, got %s", node_kind (item));
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
      fx_io_report_error (r, NULL, key, "expected an array, got %s", node_kind (node));
      return;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s[%u]", key, i);
      JsonNode *item = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          fx_io_report_error (r, path, NULL, "expected an object, got %s", node_kind (item));
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
  if ((o = read_object (r, root, NULL, "regularisation", FALSE)))
    {
      static const char *const regularisation_keys[] = { "mass_fraction", NULL };
      check_keys (r, o, "regularisation", regularisation_keys);
      read_number (r, o, "regularisation", "mass_fraction", FALSE,
                   &model->regularisation_mass_fraction);
    }
}

static void
read_version (Report *r, JsonObject *root)
{
  JsonNode *version = json_object_get_member (root, "version");
  double v;

  if (version == NULL)
    fx_io_report_error (r, NULL, "version", "required (%d for this Flexion)", FX_MODEL_FORMAT_VERSION);
  else if (!number_from_node (r, version, NULL, "version", &v))
    return;
  else if (v > FX_MODEL_FORMAT_VERSION)
    fx_io_report_error (r, NULL, "version", "the file was written by a newer Flexion (format "
                  "version %s); this Flexion reads version %d: please update Flexion",
                  fx_io_num (v), FX_MODEL_FORMAT_VERSION);
  else if (v != FX_MODEL_FORMAT_VERSION)
    fx_io_report_error (r, NULL, "version", "must be %d, got %s", FX_MODEL_FORMAT_VERSION, fx_io_num (v));
}

/* format and version decide whether the rest can be read at all. */
static gboolean
read_header (Report *r, JsonObject *root)
{
  JsonNode *format = json_object_get_member (root, "format");

  if (format == NULL)
    fx_io_report_error (r, NULL, "format", "required: a Flexion model starts with "
                  "\"format\": \"" FX_MODEL_FORMAT_NAME "\"");
  else if (!node_is_string (format))
    fx_io_report_error (r, NULL, "format", "expected \"" FX_MODEL_FORMAT_NAME "\", got %s",
                  node_kind (format));
  else if (strcmp (json_node_get_string (format), FX_MODEL_FORMAT_NAME) != 0)
    fx_io_report_error (r, NULL, "format", "expected \"" FX_MODEL_FORMAT_NAME "\", got \"%s\"",
                  json_node_get_string (format));
  if (r->n_errors > 0)
    return FALSE;
  read_version (r, root);
  return r->n_errors == 0;
}

FxModel *
fx_io_read_model (Report *r, JsonNode *root)
{
  static const char *const keys[] = {
    "format", "version", "name", "description", "joints", "links", "bodies", "loads", "motors",
    "springs", "probes", "drags", "gravity", "time", "solver", "seed", "regularisation", NULL
  };
  JsonObject *o;
  FxModel *model;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      fx_io_report_error (r, NULL, NULL, "expected an object with \"format\": \"" FX_MODEL_FORMAT_NAME
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

