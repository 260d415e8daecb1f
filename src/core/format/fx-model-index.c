/* fx-model-index.c: the model's joint ids in a self-checking hash table
 * (see fx-model-index.h). */
#include "fx-model-index.h"

#include <string.h>

struct _FxModelIndex {
  GMutex lock;
  GHashTable *joints;  /* id (a copy: a joint's own string may be freed by a
                        * rename the table has not seen) -> index + 1 */
};

void
fx_model_index_free (FxModelIndex *x)
{
  if (x == NULL)
    return;
  g_clear_pointer (&x->joints, g_hash_table_unref);
  g_mutex_clear (&x->lock);
  g_free (x);
}

/* The model's table, made on first use; two threads racing keep one. */
static FxModelIndex *
index_of (const FxModel *model)
{
  FxModelIndex **slot = (FxModelIndex **) &model->index;
  FxModelIndex *x = g_atomic_pointer_get (slot);

  if (x != NULL)
    return x;
  x = g_new0 (FxModelIndex, 1);
  g_mutex_init (&x->lock);
  if (!g_atomic_pointer_compare_and_exchange (slot, NULL, x))
    {
      fx_model_index_free (x);
      x = g_atomic_pointer_get (slot);
    }
  return x;
}

/* Under the lock: the table of the joints as they are now, the first of
 * equal ids winning (as the linear search does). */
static void
rebuild (FxModelIndex *x, const FxModel *model)
{
  g_clear_pointer (&x->joints, g_hash_table_unref);
  x->joints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = model->joints->len; i-- > 0;)
    {
      const char *id = fx_model_joint (model, i)->id;
      if (id != NULL)
        g_hash_table_insert (x->joints, g_strdup (id), GUINT_TO_POINTER (i + 1));
    }
}

static int
linear_search (const FxModel *model, const char *id)
{
  for (guint i = 0; i < model->joints->len && i <= G_MAXINT; i++)
    if (g_strcmp0 (fx_model_joint (model, i)->id, id) == 0)
      return (int) i;
  return -1;
}

int
fx_model_index_find_joint (const FxModel *model, const char *id)
{
  FxModelIndex *x = index_of (model);
  int found;

  g_mutex_lock (&x->lock);
  if (x->joints == NULL)
    rebuild (x, model);
  guint hit = GPOINTER_TO_UINT (g_hash_table_lookup (x->joints, id));
  if (hit > 0 && hit <= model->joints->len && hit - 1 <= G_MAXINT
      && g_strcmp0 (fx_model_joint (model, hit - 1)->id, id) == 0)
    found = (int) (hit - 1);
  else
    {
      /* not in the table, or the table is older than the joints */
      found = linear_search (model, id);
      if (found >= 0)
        rebuild (x, model);
    }
  g_mutex_unlock (&x->lock);
  return found;
}
