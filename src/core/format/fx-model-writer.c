/* fx-model-writer.c: the writer, FxModel to a JSON tree to text, keys in a
 * fixed order, optional keys left out at their defaults. */
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
  if (joint->support == FX_SUPPORT_ROLLER)
    set_pair (o, "direction", joint->slider_direction[0], joint->slider_direction[1]);
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
  if (link->degree != 1)
    json_object_set_int_member (o, "degree", link->degree);
  if (link->rigid)
    json_object_set_boolean_member (o, "rigid", TRUE);
  if (link->formulation != FX_FORMULATION_AUTO)
    set_name (o, "formulation", fx_formulation_to_string (link->formulation));
  if (link->kind != FX_LINK_GEOMETRICALLY_EXACT)
    set_name (o, "model", fx_link_kind_to_string (link->kind));
  if (link->kind == FX_LINK_FLOATING_FRAME && link->frame != FX_LINK_FRAME_MEAN_AXIS)
    set_name (o, "frame", fx_link_frame_to_string (link->frame));
  if (fx_link_has_ends (link))
    {
      JsonObject *ends = json_object_new ();
      static const char *const sides[2] = { "from", "to" };
      for (guint side = 0; side < 2; side++)
        if (link->ends[side][0] != FX_END_AUTO || link->ends[side][1] != FX_END_AUTO)
          {
            char letters[3];
            fx_link_end_to_string (link->ends[side], letters);
            json_object_set_string_member (ends, sides[side], letters);
          }
      json_object_set_object_member (o, "ends", ends);
    }
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
  if (link->damping != 0.0 || link->rotational_damping != 0.0 || link->kelvin_voigt != 0.0)
    {
      JsonObject *damping = json_object_new ();

      set_nonzero (damping, "velocity", link->damping);
      set_nonzero (damping, "rotation", link->rotational_damping);
      set_nonzero (damping, "kelvin_voigt", link->kelvin_voigt);
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

JsonNode *
fx_io_model_node (const FxModel *m)
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
    /* only when not the default, so old files stay as they were */
    if (m->integrator != FX_INTEGRATOR_MIDPOINT)
      json_object_set_string_member (time, "integrator", fx_integrator_kind_to_string (m->integrator));
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
  if (m->regularisation_mass_fraction != FX_DEFAULT_REGULARISATION)
    {
      JsonObject *reg = json_object_new ();

      json_object_set_double_member (reg, "mass_fraction", m->regularisation_mass_fraction);
      json_object_set_object_member (o, "regularisation", reg);
    }
  if (m->view_settled || m->view_diagram >= 0)
    {
      JsonObject *view = json_object_new ();

      if (m->view_settled)
        json_object_set_boolean_member (view, "settled", TRUE);
      if (m->view_diagram >= 0 && m->view_diagram < FX_VIEW_DIAGRAMS)
        json_object_set_string_member (view, "diagram", fx_view_diagram_names[m->view_diagram]);
      json_object_set_object_member (o, "view", view);
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
      fx_io_format_double (buf, json_node_get_double (node));
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
          fx_io_write_pretty (out, json_object_get_member (json_node_get_object (node), l->data),
                        indent + 2, FALSE);
          l = l->next;
        }
      else
        fx_io_write_pretty (out, json_array_get_element (array, i), indent + 2, FALSE);
      if (i + 1 < n)
        g_string_append_c (out, ',');
    }
  indent_line (out, indent);
  g_string_append_c (out, is_object ? '}' : ']');
}

/* Compact when it fits on the current line, else one member per line. */
void
fx_io_write_pretty (GString *out, JsonNode *node, guint indent, gboolean top)
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

