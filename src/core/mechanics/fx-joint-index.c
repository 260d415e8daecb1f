/* fx-joint-index.c: who meets where, indexed once (see fx-joint-index.h). */
#include "fx-joint-index.h"

void
fx_joint_index_clear (FxJointIndex *x)
{
  g_free (x->member_start);
  g_free (x->member_link);
  g_free (x->member_side);
  g_free (x->owned_start);
  g_free (x->owned);
  g_free (x->body_start);
  g_free (x->body);
  g_free (x->load_start);
  g_free (x->load);
  g_free (x->body_of_joint);
}

/* Counting sort of `n` items into `n_keys` buckets (key G_MAXUINT: none),
 * stable: bucket k's items, in their order, are items[start[k] .. start[k+1]). */
static void
bucket (const guint *keys, guint n, guint n_keys, guint **start, guint **items)
{
  guint *at = g_new0 (guint, n_keys + 1);

  *start = g_new0 (guint, n_keys + 2);
  for (guint i = 0; i < n; i++)
    if (keys[i] != G_MAXUINT)
      (*start)[keys[i] + 1]++;
  for (guint k = 0; k < n_keys; k++)
    (*start)[k + 1] += (*start)[k];
  *items = g_new (guint, MAX ((*start)[n_keys], 1));
  for (guint i = 0; i < n; i++)
    if (keys[i] != G_MAXUINT)
      (*items)[(*start)[keys[i]] + at[keys[i]]++] = i;
  g_free (at);
}

GHashTable *
fx_joint_ids (const FxModel *model)
{
  GHashTable *ids = g_hash_table_new (g_str_hash, g_str_equal);

  /* ids are unique (the checker says so); the first wins as a scan would */
  for (guint jt = model->joints->len; jt-- > 0;)
    g_hash_table_insert (ids, fx_model_joint (model, jt)->id, GUINT_TO_POINTER (jt + 1));
  return ids;
}

guint
fx_joint_key (GHashTable *ids, const char *id)
{
  guint v = id ? GPOINTER_TO_UINT (g_hash_table_lookup (ids, id)) : 0;
  return v > 0 ? v - 1 : G_MAXUINT;
}

/* The members of every joint, and `owner`: the first link at each joint
 * (-1: none). */
void
fx_joint_index_members (FxJointIndex *x, const FxModel *model, GHashTable *ids, int *owner)
{
  guint n_joints = model->joints->len, n_links = model->links->len;
  g_autofree guint *end_joint = g_new (guint, MAX (2 * n_links, 1));
  g_autofree guint *ends = NULL;

  for (guint l = 0; l < n_links; l++)
    for (guint side = 0; side < 2; side++)
      {
        const FxLink *ml = fx_model_link (model, l);
        end_joint[2 * l + side] = fx_joint_key (ids, side == 0 ? ml->from : ml->to);
      }
  bucket (end_joint, 2 * n_links, n_joints, &x->member_start, &ends);
  guint n_ends = x->member_start[n_joints];
  x->member_link = g_new (guint, MAX (n_ends, 1));
  x->member_side = g_new (guint, MAX (n_ends, 1));
  for (guint k = 0; k < n_ends; k++)
    {
      x->member_link[k] = ends[k] / 2;
      x->member_side[k] = ends[k] % 2;
    }
  for (guint jt = 0; jt < n_joints; jt++)
    owner[jt] = x->member_start[jt + 1] > x->member_start[jt]
                ? (int) x->member_link[x->member_start[jt]] : -1;
}

void
fx_joint_index_build (FxJointIndex *x, const FxModel *model, int *owner, const int *body_owner)
{
  guint n_joints = model->joints->len, n_links = model->links->len;
  guint n_bodies = fx_model_n_bodies (model), n_loads = model->loads->len;
  g_autoptr (GHashTable) ids = fx_joint_ids (model);

  fx_joint_index_members (x, model, ids, owner);
  g_autofree guint *key = g_new (guint, MAX (MAX (n_joints, n_bodies), MAX (n_loads, 1)));
  for (guint jt = 0; jt < n_joints; jt++)
    key[jt] = owner[jt] >= 0 ? (guint) owner[jt] : G_MAXUINT;
  bucket (key, n_joints, n_links, &x->owned_start, &x->owned);
  for (guint b = 0; b < n_bodies; b++)
    key[b] = body_owner && body_owner[b] >= 0 ? (guint) body_owner[b] : G_MAXUINT;
  bucket (key, n_bodies, n_links, &x->body_start, &x->body);
  for (guint i = 0; i < n_loads; i++)
    key[i] = fx_joint_key (ids, fx_model_load (model, i)->joint);
  bucket (key, n_loads, n_joints, &x->load_start, &x->load);
  x->body_of_joint = g_new (int, MAX (n_joints, 1));
  for (guint jt = 0; jt < n_joints; jt++)
    x->body_of_joint[jt] = -1;
  for (guint b = 0; b < n_bodies; b++)
    {
      const FxBody *mb = fx_model_body (model, b);
      for (guint k = 0; k < mb->n_joints; k++)
        {
          guint jt = fx_joint_key (ids, mb->joints[k]);
          if (jt != G_MAXUINT && x->body_of_joint[jt] < 0)
            x->body_of_joint[jt] = (int) b;
        }
    }
}

