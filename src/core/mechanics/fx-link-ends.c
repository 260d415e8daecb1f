/* fx-link-ends.c: which links choose each end's causality on their own.
 * A floating-frame link's ends are independent (docs/theory.md, "Ports and
 * causality"): in the matching each such end is a wildcard, F where its
 * junction still needs a force-causal member, V elsewhere. */
#include "fx-causality.h"

gboolean
fx_link_ends_independent (const FxModel *model, guint link)
{
  g_return_val_if_fail (link < model->links->len, FALSE);
  return fx_model_link (model, link)->kind == FX_LINK_FLOATING_FRAME;
}
