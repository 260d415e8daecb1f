/* fx-advice.h: fixes for a model whose causality has no assignment, each
 * tried by the assignment solver before it is offered.
 *
 * A conflict the user forced (named formulations that cannot all hold) gets
 * candidate fixes: set every link to Auto, set one link to Auto or another
 * formulation, split a link in two at a new welded joint, give a joint a
 * small mass or rotary inertia. Each is applied to a copy of the model and
 * kept only when fx_assignment_compute then succeeds; the survivors come
 * best first (fewest changes, then the gentler kind). The app shows `label`
 * and applies the fix with fx_fix_apply (or from the machine form).
 */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

typedef enum {
  FX_FIX_SET_ALL_AUTO,       /* every link's formulation to Auto              */
  FX_FIX_SET_FORMULATION,    /* `link`'s formulation to `formulation`          */
  FX_FIX_ADD_JOINT_MASS,     /* `joint` gets mass `value` (kg)                 */
  FX_FIX_ADD_JOINT_INERTIA,  /* `joint` gets rotary inertia `value` (kg m^2)   */
  FX_FIX_SPLIT_LINK,         /* `link` becomes two Auto links, welded at its middle */
} FxFixKind;

typedef struct {
  FxFixKind kind;
  int link;                   /* model link index, or -1      */
  int joint;                  /* model joint index, or -1     */
  FxFormulation formulation;  /* FX_FIX_SET_FORMULATION       */
  double value;               /* kg or kg m^2                 */
  guint changes;              /* how many things it changes   */
  char *label;                /* plain words, translated      */
} FxFix;

void       fx_fix_free     (FxFix *fix);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxFix, fx_fix_free)

/* The checked fixes (FxFix*, owned by the array), best first; empty when
 * the model already has an assignment or nothing tried works. At most
 * `max_fixes` (0: no limit). */
GPtrArray *fx_advice_fixes (const FxModel *model, guint max_fixes);

/* A copy of `model` with `fix` applied. */
FxModel   *fx_fix_apply    (const FxModel *model, const FxFix *fix);

G_END_DECLS
