/* fx-document.c: the edited model, its file and its snapshot history. */
#include "fx-document.h"
#include <glib/gi18n-lib.h>
#include "fx-model-io.h"

#include <math.h>
#include <string.h>

#define HISTORY_LIMIT 200

typedef struct {
  FxModel *before;  /* the model before the step                          */
  FxModel *after;   /* the model after it                                 */
  char *label;
  char *merge_key;  /* NULL: never merges                                 */
} HistoryStep;

struct _FxDocument {
  GObject parent_instance;

  FxModel *model;
  GFile *file;

  GPtrArray *undo;   /* HistoryStep*, oldest first */
  GPtrArray *redo;   /* HistoryStep*, next to redo last */
  gboolean merge_broken;

  /* The model as last loaded or saved, to tell "modified" exactly even
   * after undoing back to it. */
  char *saved_data;
  /* whether the model differs from saved_data: -1 not known. Telling it
   * writes the whole model out (a second for a 100 x 100 lattice), and the
   * window asks several times per change, so it is kept until the model
   * changes (emit_changed) or is saved. */
  int modified;

  FxModel *editing_before;  /* non-NULL between begin_edit and end_edit */
};

G_DEFINE_FINAL_TYPE (FxDocument, fx_document, G_TYPE_OBJECT)

enum { PROP_0, PROP_CAN_UNDO, PROP_CAN_REDO, PROP_MODIFIED, PROP_FILE, PROP_TITLE, N_PROPS };
enum { CHANGED, N_SIGNALS };
static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
history_step_free (gpointer data)
{
  HistoryStep *step = data;
  fx_model_free (step->before);
  fx_model_free (step->after);
  g_free (step->label);
  g_free (step->merge_key);
  g_free (step);
}

static char *
model_data (const FxModel *model)
{
  return fx_model_to_data (model, NULL);
}

/* Emit "changed" and the notifications whose values may have moved. */
static void
emit_changed (FxDocument *doc)
{
  doc->modified = -1;
  g_object_freeze_notify (G_OBJECT (doc));
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_CAN_UNDO]);
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_CAN_REDO]);
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_MODIFIED]);
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_TITLE]);
  g_object_thaw_notify (G_OBJECT (doc));
  g_signal_emit (doc, signals[CHANGED], 0);
}

static void
fx_document_finalize (GObject *object)
{
  FxDocument *doc = FX_DOCUMENT (object);
  fx_model_free (doc->model);
  g_clear_pointer (&doc->editing_before, fx_model_free);
  g_clear_object (&doc->file);
  g_ptr_array_unref (doc->undo);
  g_ptr_array_unref (doc->redo);
  g_free (doc->saved_data);
  G_OBJECT_CLASS (fx_document_parent_class)->finalize (object);
}

static void
fx_document_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  FxDocument *doc = FX_DOCUMENT (object);
  switch (prop_id)
    {
    case PROP_CAN_UNDO: g_value_set_boolean (value, fx_document_can_undo (doc)); break;
    case PROP_CAN_REDO: g_value_set_boolean (value, fx_document_can_redo (doc)); break;
    case PROP_MODIFIED: g_value_set_boolean (value, fx_document_get_modified (doc)); break;
    case PROP_FILE: g_value_set_object (value, doc->file); break;
    case PROP_TITLE: g_value_take_string (value, fx_document_dup_title (doc)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fx_document_class_init (FxDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = fx_document_finalize;
  object_class->get_property = fx_document_get_property;

  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE, flags);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE, flags);
  properties[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, flags);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
fx_document_init (FxDocument *doc)
{
  doc->undo = g_ptr_array_new_with_free_func (history_step_free);
  doc->redo = g_ptr_array_new_with_free_func (history_step_free);
}

static FxDocument *
document_take_model (FxModel *model)
{
  FxDocument *doc = g_object_new (FX_TYPE_DOCUMENT, NULL);
  doc->model = model;
  doc->saved_data = model_data (model);
  doc->modified = FALSE;
  return doc;
}

FxDocument *
fx_document_new (void)
{
  return document_take_model (fx_model_new ());
}

FxDocument *
fx_document_new_for_model (const FxModel *model)
{
  FxDocument *doc = document_take_model (fx_model_copy (model));
  /* not from a file: an unsaved copy counts as modified only once edited */
  return doc;
}

FxDocument *
fx_document_new_from_file (GFile *file, GPtrArray **warnings, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                   "%s: only local files can be opened", g_file_peek_path (file));
      return NULL;
    }
  FxModel *model = fx_model_load_file (path, warnings, error);
  if (model == NULL)
    return NULL;
  FxDocument *doc = document_take_model (model);
  doc->file = g_object_ref (file);
  return doc;
}

const FxModel *
fx_document_get_model (FxDocument *doc)
{
  return doc->model;
}

GFile *
fx_document_get_file (FxDocument *doc)
{
  return doc->file;
}

char *
fx_document_dup_title (FxDocument *doc)
{
  if (doc->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (doc->file);
      return g_filename_display_name (base);
    }
  if (doc->model->name != NULL && doc->model->name[0] != '\0')
    return g_strdup (doc->model->name);
  return g_strdup (_("Untitled"));
}

gboolean
fx_document_get_modified (FxDocument *doc)
{
  if (doc->modified >= 0 && doc->editing_before == NULL)
    return doc->modified;
  g_autofree char *now = model_data (doc->model);
  doc->modified = g_strcmp0 (now, doc->saved_data) != 0;
  return doc->modified;
}

gboolean
fx_document_save (FxDocument *doc, GFile *file, GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, FX_MODEL_ERROR, FX_MODEL_ERROR_IO,
                   "%s: only local files can be saved", g_file_peek_path (file));
      return FALSE;
    }
  if (!fx_model_save_file (doc->model, path, error))
    return FALSE;

  g_free (doc->saved_data);
  doc->saved_data = model_data (doc->model);
  doc->modified = FALSE;
  if (doc->file == NULL || !g_file_equal (doc->file, file))
    {
      g_set_object (&doc->file, file);
      g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_FILE]);
    }
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_MODIFIED]);
  g_object_notify_by_pspec (G_OBJECT (doc), properties[PROP_TITLE]);
  return TRUE;
}

/* ---- history ---- */

gboolean
fx_document_can_undo (FxDocument *doc)
{
  return doc->undo->len > 0;
}

gboolean
fx_document_can_redo (FxDocument *doc)
{
  return doc->redo->len > 0;
}

static HistoryStep *
last_step (GPtrArray *steps)
{
  return steps->len > 0 ? g_ptr_array_index (steps, steps->len - 1) : NULL;
}

const char *
fx_document_undo_label (FxDocument *doc)
{
  HistoryStep *step = last_step (doc->undo);
  return step ? step->label : NULL;
}

const char *
fx_document_redo_label (FxDocument *doc)
{
  HistoryStep *step = last_step (doc->redo);
  return step ? step->label : NULL;
}

/* Moves the newest step of `from` onto `to`, making the model its `before`
 * (undo) or `after` (redo) state. */
static gboolean
history_move (FxDocument *doc, GPtrArray *from, GPtrArray *to, gboolean undo)
{
  g_return_val_if_fail (doc->editing_before == NULL, FALSE);
  if (from->len == 0)
    return FALSE;
  HistoryStep *step = g_ptr_array_steal_index (from, from->len - 1);
  fx_model_free (doc->model);
  doc->model = fx_model_copy (undo ? step->before : step->after);
  g_ptr_array_add (to, step);
  doc->merge_broken = TRUE;
  emit_changed (doc);
  return TRUE;
}

gboolean
fx_document_undo (FxDocument *doc)
{
  return history_move (doc, doc->undo, doc->redo, TRUE);
}

gboolean
fx_document_redo (FxDocument *doc)
{
  return history_move (doc, doc->redo, doc->undo, FALSE);
}

void
fx_document_break_merge (FxDocument *doc)
{
  doc->merge_broken = TRUE;
}

FxModel *
fx_document_begin_edit (FxDocument *doc)
{
  g_return_val_if_fail (doc->editing_before == NULL, doc->model);
  doc->editing_before = fx_model_copy (doc->model);
  return doc->model;
}

void
fx_document_end_edit (FxDocument *doc, const char *label, const char *merge_key)
{
  g_return_if_fail (doc->editing_before != NULL);
  FxModel *before = g_steal_pointer (&doc->editing_before);

  HistoryStep *prev = last_step (doc->undo);
  gboolean merge = merge_key != NULL && prev != NULL && !doc->merge_broken
                   && doc->redo->len == 0 && g_strcmp0 (prev->merge_key, merge_key) == 0;
  if (merge)
    {
      /* the merged step keeps its first `before` and takes the new `after` */
      fx_model_free (before);
      fx_model_free (prev->after);
      prev->after = fx_model_copy (doc->model);
      if (g_strcmp0 (prev->label, label) != 0)
        {
          /* the step says what it ended as (a move that became a merge) */
          g_free (prev->label);
          prev->label = g_strdup (label);
        }
    }
  else
    {
      HistoryStep *step = g_new0 (HistoryStep, 1);
      step->before = before;
      step->after = fx_model_copy (doc->model);
      step->label = g_strdup (label);
      step->merge_key = g_strdup (merge_key);
      g_ptr_array_add (doc->undo, step);
      if (doc->undo->len > HISTORY_LIMIT)
        g_ptr_array_remove_index (doc->undo, 0);
    }
  g_ptr_array_set_size (doc->redo, 0);
  doc->merge_broken = FALSE;
  emit_changed (doc);
}

/* ---- edits ---- */

char *
fx_document_fresh_id (FxDocument *doc, const char *prefix)
{
  const FxModel *m = doc->model;
  for (guint n = 1;; n++)
    {
      char *id = g_strdup_printf ("%s%u", prefix, n);
      gboolean used = fx_model_find_joint (m, id) >= 0 || fx_model_find_link (m, id) >= 0;
      for (guint i = 0; !used && i < m->probes->len; i++)
        used = g_strcmp0 (fx_model_probe (m, i)->id, id) == 0;
      for (guint i = 0; !used && i < m->loads->len; i++)
        used = g_strcmp0 (fx_model_load (m, i)->id, id) == 0;
      for (guint i = 0; !used && i < fx_model_n_motors (m); i++)
        used = g_strcmp0 (fx_model_motor (m, i)->id, id) == 0;
      for (guint i = 0; !used && i < fx_model_n_springs (m); i++)
        used = g_strcmp0 (fx_model_spring (m, i)->id, id) == 0;
      for (guint i = 0; !used && i < fx_model_n_bodies (m); i++)
        used = g_strcmp0 (fx_model_body (m, i)->id, id) == 0;
      if (!used)
        return id;
      g_free (id);
    }
}

guint
fx_document_add_joint (FxDocument *doc, double x, double y)
{
  g_autofree char *id = fx_document_fresh_id (doc, "J");
  FxModel *m = fx_document_begin_edit (doc);
  fx_model_add_joint (m, id, x, y);
  fx_document_end_edit (doc, _("Add Joint"), NULL);
  return m->joints->len - 1;
}

static gboolean
joints_linked (const FxModel *m, const char *a, const char *b)
{
  for (guint i = 0; i < m->links->len; i++)
    {
      const FxLink *l = fx_model_link (m, i);
      if ((g_str_equal (l->from, a) && g_str_equal (l->to, b))
          || (g_str_equal (l->from, b) && g_str_equal (l->to, a)))
        return TRUE;
    }
  return FALSE;
}

int
fx_document_add_link (FxDocument *doc, guint from, guint to, guint elements,
                      const FxSection *section)
{
  const FxModel *m = doc->model;
  g_return_val_if_fail (from < m->joints->len && to < m->joints->len, -1);
  const char *a = fx_model_joint (m, from)->id, *b = fx_model_joint (m, to)->id;
  if (from == to || joints_linked (m, a, b))
    return -1;

  g_autofree char *id = fx_document_fresh_id (doc, "L");
  g_autofree char *from_id = g_strdup (a), *to_id = g_strdup (b);
  FxModel *em = fx_document_begin_edit (doc);
  FxLink *link = fx_model_add_link (em, id, from_id, to_id, MAX (elements, 1u));
  link->section = *section;
  link->degree = FX_NEW_LINK_DEGREE;
  fx_document_end_edit (doc, _("Add Link"), NULL);
  return (int) em->links->len - 1;
}

static int
joint_near (const FxModel *m, double x, double y, double tolerance)
{
  int best = -1;
  double best_d = tolerance;
  for (guint i = 0; i < m->joints->len; i++)
    {
      const FxJoint *j = fx_model_joint (m, i);
      double d = hypot (j->at[0] - x, j->at[1] - y);
      if (d <= best_d)
        {
          best_d = d;
          best = (int) i;
        }
    }
  return best;
}

int
fx_document_add_link_at (FxDocument *doc, double x0, double y0, double x1, double y1,
                         double tolerance, guint elements, const FxSection *section)
{
  const FxModel *m = doc->model;
  int a = joint_near (m, x0, y0, tolerance), b = joint_near (m, x1, y1, tolerance);
  if (a >= 0 && a == b)
    return -1;
  if (a < 0 && b < 0 && hypot (x1 - x0, y1 - y0) <= tolerance)
    return -1;
  if (a >= 0 && b >= 0
      && joints_linked (m, fx_model_joint (m, a)->id, fx_model_joint (m, b)->id))
    return -1;

  FxModel *em = fx_document_begin_edit (doc);
  g_autofree char *from = a >= 0 ? g_strdup (fx_model_joint (em, a)->id)
                                 : fx_document_fresh_id (doc, "J");
  if (a < 0)
    fx_model_add_joint (em, from, x0, y0);
  g_autofree char *to = b >= 0 ? g_strdup (fx_model_joint (em, b)->id)
                               : fx_document_fresh_id (doc, "J");
  if (b < 0)
    fx_model_add_joint (em, to, x1, y1);
  g_autofree char *id = fx_document_fresh_id (doc, "L");
  FxLink *link = fx_model_add_link (em, id, from, to, MAX (elements, 1u));
  link->section = *section;
  link->degree = FX_NEW_LINK_DEGREE;
  fx_document_end_edit (doc, _("Add Link"), NULL);
  return (int) em->links->len - 1;
}

void
fx_document_move_joint (FxDocument *doc, guint joint, double x, double y)
{
  g_return_if_fail (joint < doc->model->joints->len);
  FxModel *m = fx_document_begin_edit (doc);
  FxJoint *j = fx_model_joint (m, joint);
  j->at[0] = x;
  j->at[1] = y;
  g_autofree char *key = g_strdup_printf ("move-joint:%s", j->id);
  fx_document_end_edit (doc, _("Move Joint"), key);
}

/* ---- merging a joint into another ---- */

/* The joint at the other end of link l from joint id `at`, or NULL when
 * the link does not end there. */
static const char *
other_end (const FxLink *l, const char *at)
{
  if (g_strcmp0 (l->from, at) == 0)
    return l->to;
  if (g_strcmp0 (l->to, at) == 0)
    return l->from;
  return NULL;
}

gboolean
fx_document_can_merge_joints (FxDocument *doc, guint joint, guint into)
{
  const FxModel *m = doc->model;
  g_return_val_if_fail (joint < m->joints->len && into < m->joints->len, FALSE);
  if (joint == into)
    return FALSE;
  const char *a = fx_model_joint (m, joint)->id, *b = fx_model_joint (m, into)->id;
  for (guint i = 0; i < m->links->len; i++)
    {
      /* a link between them would join a joint to itself, and a link from
       * each to the same third joint would lie twice along one line */
      const char *far = other_end (fx_model_link (m, i), a);
      if (far != NULL && (g_str_equal (far, b) || joints_linked (m, far, b)))
        return FALSE;
    }
  return TRUE;
}

/* Points every reference to joint `from` at joint `to` instead. */
static void
retarget (char **ref, const char *from, const char *to)
{
  if (*ref != NULL && g_str_equal (*ref, from))
    {
      g_free (*ref);
      *ref = g_strdup (to);
    }
}

static void
retarget_joint (FxModel *m, const char *from, const char *to)
{
  for (guint i = 0; i < m->links->len; i++)
    {
      retarget (&fx_model_link (m, i)->from, from, to);
      retarget (&fx_model_link (m, i)->to, from, to);
    }
  for (guint i = 0; i < m->loads->len; i++)
    retarget (&fx_model_load (m, i)->joint, from, to);
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    retarget (&fx_model_motor (m, i)->joint, from, to);
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    retarget (&fx_model_spring (m, i)->joint, from, to);
  for (guint i = 0; i < m->drags->len; i++)
    retarget (&fx_model_drag (m, i)->joint, from, to);
  for (guint i = 0; i < fx_model_n_bodies (m); i++)
    {
      /* an attachment at both becomes one */
      FxBody *b = fx_model_body (m, i);
      gboolean has_to = FALSE;
      for (guint k = 0; k < b->n_joints; k++)
        has_to = has_to || g_str_equal (b->joints[k], to);
      guint n = 0;
      for (guint k = 0; k < b->n_joints; k++)
        {
          if (has_to && g_str_equal (b->joints[k], from))
            g_free (b->joints[k]);
          else
            {
              retarget (&b->joints[k], from, to);
              b->joints[n++] = b->joints[k];
            }
        }
      b->n_joints = n;
      b->joints[n] = NULL;
    }
}

/* What the merged joint keeps: `into`'s kind and support, or `gone`'s
 * support (with its drive or slider) when `into` had none; the two masses
 * and inertias add, as they sit at one point now. */
static void
merge_joint_data (FxJoint *into, FxJoint *gone)
{
  into->mass += gone->mass;
  into->inertia += gone->inertia;
  if (into->support == FX_SUPPORT_NONE && !into->slider)
    {
      /* swapped, so that `gone`'s removal frees `into`'s old profile */
      FxJoint keep = *into;
      into->support = gone->support;
      into->driven = gone->driven;
      memcpy (into->drive_velocity, gone->drive_velocity, sizeof into->drive_velocity);
      into->drive_profile = gone->drive_profile;
      into->slider = gone->slider;
      into->slider_mass = gone->slider_mass;
      memcpy (into->slider_direction, gone->slider_direction, sizeof into->slider_direction);
      gone->drive_profile = keep.drive_profile;
    }
}

gboolean
fx_document_merge_joints (FxDocument *doc, guint joint, guint into)
{
  if (!fx_document_can_merge_joints (doc, joint, into))
    return FALSE;
  FxModel *m = fx_document_begin_edit (doc);
  g_autofree char *from = g_strdup (fx_model_joint (m, joint)->id);
  g_autofree char *to = g_strdup (fx_model_joint (m, into)->id);
  merge_joint_data (fx_model_joint (m, into), fx_model_joint (m, joint));
  retarget_joint (m, from, to);
  g_array_remove_index (m->joints, joint);  /* the clear func frees it */
  /* a drag's last move and the merge it ends in are one step */
  g_autofree char *key = g_strdup_printf ("move-joint:%s", from);
  fx_document_end_edit (doc, _("Merge Joints"), key);
  return TRUE;
}

void
fx_document_set_formulation (FxDocument *doc, guint link, FxFormulation f)
{
  g_return_if_fail (link < doc->model->links->len);
  FxModel *m = fx_document_begin_edit (doc);
  fx_model_link (m, link)->formulation = f;
  fx_document_end_edit (doc, _("Set Formulation"), NULL);
}

void
fx_document_set_joint_kind (FxDocument *doc, guint joint, FxJointKind kind)
{
  g_return_if_fail (joint < doc->model->joints->len);
  FxModel *m = fx_document_begin_edit (doc);
  fx_model_joint (m, joint)->kind = kind;
  fx_document_end_edit (doc, _("Set Joint Kind"), NULL);
}

void
fx_document_set_support (FxDocument *doc, guint joint, FxSupport support)
{
  g_return_if_fail (joint < doc->model->joints->len);
  FxModel *m = fx_document_begin_edit (doc);
  FxJoint *j = fx_model_joint (m, joint);
  j->support = support;
  if (support != FX_SUPPORT_NONE)
    j->slider = FALSE;
  fx_document_end_edit (doc, _("Set Support"), NULL);
}

/* ---- deletion: rebuild the model without the removed items ---- */

static gboolean
str_in (const char *s, GHashTable *set)
{
  return s != NULL && g_hash_table_contains (set, s);
}

/* A copy of `m` without the links in `dead_links` and the joints in
 * `dead_joints`, nor anything that refers to them. */
static FxModel *
model_without (const FxModel *m, GHashTable *dead_joints, GHashTable *dead_links)
{
  /* links at a dead joint die too */
  for (guint i = 0; i < m->links->len; i++)
    {
      const FxLink *l = fx_model_link (m, i);
      if (str_in (l->from, dead_joints) || str_in (l->to, dead_joints))
        g_hash_table_add (dead_links, l->id);
    }

  FxModel *out = fx_model_copy (m);
  for (guint i = out->links->len; i-- > 0;)
    if (str_in (fx_model_link (out, i)->id, dead_links))
      g_array_remove_index (out->links, i);  /* the clear func frees it */
  for (guint i = out->joints->len; i-- > 0;)
    if (str_in (fx_model_joint (out, i)->id, dead_joints))
      g_array_remove_index (out->joints, i);  /* the clear func frees it */
  for (guint i = out->loads->len; i-- > 0;)
    {
      const FxLoad *l = fx_model_load (out, i);
      if (str_in (l->joint, dead_joints) || str_in (l->link, dead_links)
          || str_in (l->frame_link, dead_links))
        g_array_remove_index (out->loads, i);  /* the clear func frees it */
    }
  for (guint i = out->probes->len; i-- > 0;)
    if (str_in (fx_model_probe (out, i)->link, dead_links))
      g_array_remove_index (out->probes, i);  /* the clear func frees it */
  for (guint i = fx_model_n_motors (out); i-- > 0;)
    {
      const FxMotor *mo = fx_model_motor (out, i);
      if (str_in (mo->joint, dead_joints) || str_in (mo->link, dead_links)
          || str_in (mo->link_b, dead_links))
        g_array_remove_index (out->motors, i);  /* the clear func frees it */
    }
  for (guint i = fx_model_n_springs (out); i-- > 0;)
    {
      const FxSpring *sp = fx_model_spring (out, i);
      if (str_in (sp->joint, dead_joints) || str_in (sp->link, dead_links)
          || str_in (sp->link_b, dead_links))
        g_array_remove_index (out->springs, i);  /* the clear func frees it */
    }
  for (guint i = out->drags->len; i-- > 0;)
    {
      const FxDrag *d = fx_model_drag (out, i);
      if (str_in (d->joint, dead_joints) || str_in (d->link, dead_links))
        g_array_remove_index (out->drags, i);  /* the clear func frees it */
    }
  /* bodies lose dead attachments; a body left with none goes */
  for (guint i = fx_model_n_bodies (out); i-- > 0;)
    {
      FxBody *b = fx_model_body (out, i);
      guint k = 0;
      for (guint a = 0; a < b->n_joints; a++)
        {
          if (str_in (b->joints[a], dead_joints))
            g_free (b->joints[a]);
          else
            b->joints[k++] = b->joints[a];
        }
      b->n_joints = k;
      b->joints[k] = NULL;
      if (k == 0)
        g_array_remove_index (out->bodies, i);  /* the clear func frees it */
    }
  return out;
}

static void
replace_model (FxDocument *doc, FxModel *model, const char *label)
{
  fx_document_begin_edit (doc);
  fx_model_free (doc->model);
  doc->model = model;
  fx_document_end_edit (doc, label, NULL);
}

void
fx_document_replace (FxDocument *doc, FxModel *model, const char *label)
{
  g_return_if_fail (model != NULL);
  replace_model (doc, model, label);
}

void
fx_document_delete_joint (FxDocument *doc, guint joint)
{
  g_return_if_fail (joint < doc->model->joints->len);
  g_autoptr (GHashTable) dj = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) dl = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (dj, fx_model_joint (doc->model, joint)->id);
  replace_model (doc, model_without (doc->model, dj, dl), _("Delete Joint"));
}

/* Whether joint `id` keeps something once link `gone` is deleted: another
 * link, or a mass of its own. */
static gboolean
joint_keeps_something (const FxModel *m, const char *id, const char *gone)
{
  for (guint l = 0; l < m->links->len; l++)
    {
      const FxLink *link = fx_model_link (m, l);
      if (g_strcmp0 (link->id, gone) != 0
          && (g_strcmp0 (link->from, id) == 0 || g_strcmp0 (link->to, id) == 0))
        return TRUE;
    }
  int j = fx_model_find_joint (m, id);
  return j >= 0 && (fx_model_joint (m, j)->mass > 0 || fx_model_joint (m, j)->inertia > 0);
}

void
fx_document_delete_link_tidy (FxDocument *doc, guint link)
{
  g_return_if_fail (link < doc->model->links->len);
  g_autoptr (GHashTable) dj = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) dl = g_hash_table_new (g_str_hash, g_str_equal);
  const FxLink *l = fx_model_link (doc->model, link);
  g_hash_table_add (dl, l->id);
  const char *ends[2] = { l->from, l->to };
  for (guint k = 0; k < 2; k++)
    if (ends[k] && !joint_keeps_something (doc->model, ends[k], l->id))
      g_hash_table_add (dj, (gpointer) ends[k]);
  replace_model (doc, model_without (doc->model, dj, dl), _("Delete Link"));
}

void
fx_document_delete_link (FxDocument *doc, guint link)
{
  g_return_if_fail (link < doc->model->links->len);
  g_autoptr (GHashTable) dj = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) dl = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_add (dl, fx_model_link (doc->model, link)->id);
  replace_model (doc, model_without (doc->model, dj, dl), _("Delete Link"));
}
