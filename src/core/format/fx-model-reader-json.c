/* fx-model-reader-json.c: typed access to JSON members for the reader:
 * numbers, whole numbers, strings, names, vectors and objects at a path,
 * each wrong type or missing required value reported with that path. */
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
/* Reader: typed access to JSON members                                     */
/* ======================================================================== */

const char *
fx_io_node_kind (JsonNode *node)
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

gboolean
fx_io_node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* The member, or NULL (reported if required) when it is absent. */
JsonNode *
fx_io_member (Report *r, JsonObject *o, const char *path, const char *key, gboolean required)
{
  JsonNode *node = json_object_get_member (o, key);

  if (node == NULL && required)
    fx_io_report_error (r, path, key, "required");
  return node;
}

/* A finite number from a node; key names it inside path for messages. */
gboolean
fx_io_number_from_node (Report *r, JsonNode *node, const char *path, const char *key, double *out)
{
  double v;

  if (!node_is_number (node))
    {
      fx_io_report_error (r, path, key, "expected a number, got %s", fx_io_node_kind (node));
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

gboolean
fx_io_read_number (Report *r, JsonObject *o, const char *path, const char *key,
             gboolean required, double *out)
{
  JsonNode *node = fx_io_member (r, o, path, key, required);

  return node != NULL && fx_io_number_from_node (r, node, path, key, out);
}

/* An integer in [min, max]: a JSON integer or an integral number like 1e3. */
gboolean
fx_io_read_uint (Report *r, JsonObject *o, const char *path, const char *key,
           gboolean required, guint min, guint max, guint *out)
{
  JsonNode *node = fx_io_member (r, o, path, key, required);
  double v;

  if (node == NULL || !fx_io_number_from_node (r, node, path, key, &v))
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
gboolean
fx_io_read_string (Report *r, JsonObject *o, const char *path, const char *key,
             gboolean required, char **out)
{
  JsonNode *node = fx_io_member (r, o, path, key, required);

  if (node == NULL)
    return FALSE;
  if (!fx_io_node_is_string (node))
    {
      fx_io_report_error (r, path, key, "expected a string, got %s", fx_io_node_kind (node));
      return FALSE;
    }
  g_free (*out);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

/* A string member borrowed from the document (for enum names), or NULL. */
const char *
fx_io_read_name (Report *r, JsonObject *o, const char *path, const char *key, gboolean required)
{
  JsonNode *node = fx_io_member (r, o, path, key, required);

  if (node == NULL)
    return NULL;
  if (!fx_io_node_is_string (node))
    {
      fx_io_report_error (r, path, key, "expected a string, got %s", fx_io_node_kind (node));
      return NULL;
    }
  return json_node_get_string (node);
}

void
fx_io_report_bad_name (Report *r, const char *path, const char *key, const char *name,
                 const char *choices)
{
  fx_io_report_error (r, path, key, "unknown value \"%s\"; expected one of %s", name, choices);
}

gboolean
fx_io_read_bool (Report *r, JsonObject *o, const char *path, const char *key, gboolean *out)
{
  JsonNode *node = fx_io_member (r, o, path, key, FALSE);

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      fx_io_report_error (r, path, key, "expected true or false, got %s", fx_io_node_kind (node));
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* [a, b] from a node; what names the pair in messages ("2 numbers"). */
gboolean
fx_io_pair_from_node (Report *r, JsonNode *node, const char *path, const char *key,
                const char *what, double out[2])
{
  g_autofree char *here = fx_io_path_join (path, key);
  JsonArray *array;
  double v[2];
  gboolean ok;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fx_io_report_error (r, path, key, "expected an array of %s, got %s", what, fx_io_node_kind (node));
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
  ok = fx_io_number_from_node (r, json_array_get_element (array, 0), here, "[0]", &v[0]);
  ok = fx_io_number_from_node (r, json_array_get_element (array, 1), here, "[1]", &v[1]) && ok;
  if (!ok)
    return FALSE;
  out[0] = v[0];
  out[1] = v[1];
  return TRUE;
}

gboolean
fx_io_read_vector (Report *r, JsonObject *o, const char *path, const char *key,
             gboolean required, double out[2])
{
  JsonNode *node = fx_io_member (r, o, path, key, required);

  return node != NULL && fx_io_pair_from_node (r, node, path, key, "2 numbers", out);
}

/* The object member, or NULL (reported unless merely absent and optional). */
JsonObject *
fx_io_read_object (Report *r, JsonObject *o, const char *path, const char *key, gboolean required)
{
  JsonNode *node = fx_io_member (r, o, path, key, required);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fx_io_report_error (r, path, key, "expected an object, got %s", fx_io_node_kind (node));
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
void
fx_io_check_keys (Report *r, JsonObject *o, const char *path, const char *const *allowed)
{
  KeyCheck check = { r, path, allowed };

  json_object_foreach_member (o, check_key, &check);
}

gboolean
fx_io_has_any (JsonObject *o, const char *const *keys)
{
  for (guint i = 0; keys[i] != NULL; i++)
    if (json_object_has_member (o, keys[i]))
      return TRUE;
  return FALSE;
}
