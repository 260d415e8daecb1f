/* fx-link-model.c: the link models (fx-link-model.h). A new model is a
 * file with its table and one line here. */
#include "fx-link-model.h"

#include <string.h>

static const FxLinkModel *const link_models[] = {
  &fx_link_model_geometrically_exact,
  &fx_link_model_floating_frame,
};

const FxLinkModel *
fx_link_model_find (const char *name)
{
  if (name == NULL)
    return link_models[0];
  for (guint k = 0; k < G_N_ELEMENTS (link_models); k++)
    if (strcmp (link_models[k]->name, name) == 0)
      return link_models[k];
  return NULL;
}
