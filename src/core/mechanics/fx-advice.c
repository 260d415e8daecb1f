/* fx-advice.c: candidate fixes, each tried by the assignment solver. */
#include "fx-advice.h"
#include "fx-causality.h"
#include <glib/gi18n-lib.h>

void
fx_fix_free (FxFix *fix)
{
  if (fix == NULL)
    return;
  g_free (fix->label);
  g_free (fix);
}

static FxFix *
fix_new (FxFixKind kind, int link, int joint, guint changes)
{
  FxFix *f = g_new0 (FxFix, 1);
  f->kind = kind;
  f->link = link;
  f->joint = joint;
  f->changes = changes;
  return f;
}

/* A plain name of a formulation for a label. */
static const char *
formulation_words (FxFormulation f)
{
  switch (f)
    {
    case FX_FORMULATION_FREE_FREE: return _("free at both ends (free-free)");
    case FX_FORMULATION_CLAMPED_CLAMPED: return _("held at both ends (clamped-clamped)");
    case FX_FORMULATION_PINNED: return _("held, free to turn (pinned)");
    case FX_FORMULATION_GUIDED: return _("free to move, held from turning (guided)");
    case FX_FORMULATION_AUTO:
    default: return _("Auto");
    }
}

/* A motor's or spring's two links: `from` becomes `to`. */
static void
rename_pair (char **a, char **b, const char *from, const char *to)
{
  char **ids[2] = { a, b };
  for (guint k = 0; k < 2; k++)
    if (g_strcmp0 (*ids[k], from) == 0)
      {
        g_free (*ids[k]);
        *ids[k] = g_strdup (to);
      }
}

/* A point at fraction s of link `id`, split in two halves (`id` and
 * `second`): its place on the half it falls on. */
static void
move_to_half (char **link, double *s, const char *id, const char *second)
{
  if (g_strcmp0 (*link, id) != 0)
    return;
  if (*s > 0.5)
    {
      g_free (*link);
      *link = g_strdup (second);
      *s = 2.0 * *s - 1.0;
    }
  else
    *s = 2.0 * *s;
}

static void
split_link (FxModel *m, guint l)
{
  FxLink orig = *fx_model_link (m, l);
  int a = fx_model_find_joint (m, orig.from), b = fx_model_find_joint (m, orig.to);
  if (a < 0 || b < 0)
    return;
  g_autofree char *mid = NULL, *ib = NULL, *id = g_strdup (orig.id), *to = g_strdup (orig.to);
  for (guint k = 1; mid == NULL || fx_model_find_joint (m, mid) >= 0; k++)
    {
      g_free (mid);
      mid = k == 1 ? g_strdup_printf ("%s-mid", id) : g_strdup_printf ("%s-mid%u", id, k);
    }
  for (guint k = 1; ib == NULL || fx_model_find_link (m, ib) >= 0; k++)
    {
      g_free (ib);
      ib = k == 1 ? g_strdup_printf ("%s-b", id) : g_strdup_printf ("%s-b%u", id, k);
    }
  const FxJoint *ja = fx_model_joint (m, (guint) a), *jb = fx_model_joint (m, (guint) b);
  double x = 0.5 * (ja->at[0] + jb->at[0]), y = 0.5 * (ja->at[1] + jb->at[1]);
  fx_model_add_joint (m, mid, x, y)->kind = FX_JOINT_WELD;
  guint n1 = MAX (1, (orig.elements + 1) / 2), n2 = MAX (1, orig.elements - n1);
  /* the first half keeps the link's place and id: loads, probes and motors
   * on it stay valid; the second is appended */
  FxLink *first = fx_model_link (m, l);
  g_free (first->to);
  first->to = g_strdup (mid);
  first->elements = n1;
  first->formulation = FX_FORMULATION_AUTO;
  FxSection section = first->section;
  double damping = first->damping, rdamping = first->rotational_damping;
  gboolean rigid = first->rigid;
  guint degree = first->degree;
  double kelvin_voigt = first->kelvin_voigt;
  /* adding a link may move the array: `first` is not to be read after it */
  FxLink *second = fx_model_add_link (m, ib, mid, to, n2);
  second->section = section;
  second->damping = damping;
  second->rotational_damping = rdamping;
  second->rigid = rigid;
  second->degree = degree;
  second->kelvin_voigt = kelvin_voigt;

  /* what sat on the second half moves to it */
  for (guint i = 0; i < m->loads->len; i++)
    {
      FxLoad *ld = fx_model_load (m, i);
      move_to_half (&ld->link, &ld->s, id, ib);
      if (g_strcmp0 (ld->frame_link, id) == 0 && g_strcmp0 (ld->joint, to) == 0)
        {
          g_free (ld->frame_link);
          ld->frame_link = g_strdup (ib);
        }
    }
  for (guint i = 0; i < m->probes->len; i++)
    {
      FxProbe *pr = fx_model_probe (m, i);
      move_to_half (&pr->link, &pr->s, id, ib);
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    {
      FxMotor *mo = fx_model_motor (m, i);
      if (g_strcmp0 (mo->joint, to) == 0)
        rename_pair (&mo->link, &mo->link_b, id, ib);
    }
  for (guint i = 0; i < fx_model_n_springs (m); i++)
    {
      FxSpring *sp = fx_model_spring (m, i);
      if (g_strcmp0 (sp->joint, to) == 0)
        rename_pair (&sp->link, &sp->link_b, id, ib);
    }
}

FxModel *
fx_fix_apply (const FxModel *model, const FxFix *fix)
{
  FxModel *m = fx_model_copy (model);
  switch (fix->kind)
    {
    case FX_FIX_SET_ALL_AUTO:
      for (guint l = 0; l < m->links->len; l++)
        fx_model_link (m, l)->formulation = FX_FORMULATION_AUTO;
      break;
    case FX_FIX_SET_FORMULATION:
      fx_model_link (m, (guint) fix->link)->formulation = fix->formulation;
      break;
    case FX_FIX_ADD_JOINT_MASS:
      fx_model_joint (m, (guint) fix->joint)->mass = fix->value;
      break;
    case FX_FIX_ADD_JOINT_INERTIA:
      fx_model_joint (m, (guint) fix->joint)->inertia = fix->value;
      break;
    case FX_FIX_SPLIT_LINK:
      split_link (m, (guint) fix->link);
      break;
    }
  return m;
}

static gint
fix_cmp (gconstpointer pa, gconstpointer pb)
{
  const FxFix *a = *(FxFix *const *) pa, *b = *(FxFix *const *) pb;
  if (a->changes != b->changes)
    return a->changes < b->changes ? -1 : 1;
  if (a->kind != b->kind)
    return (int) a->kind - (int) b->kind;
  if (a->link != b->link)
    return a->link - b->link;
  return a->joint - b->joint;
}

/* How many link ends meet at joint j. */
static guint
ends_at (const FxModel *m, const char *id)
{
  guint n = 0;
  for (guint l = 0; l < m->links->len; l++)
    n += (g_strcmp0 (fx_model_link (m, l)->from, id) == 0) + (g_strcmp0 (fx_model_link (m, l)->to, id) == 0);
  return n;
}

static void
candidates (const FxModel *m, GPtrArray *out)
{
  guint fixed = 0;
  for (guint l = 0; l < m->links->len; l++)
    fixed += fx_model_link (m, l)->formulation != FX_FORMULATION_AUTO;
  /* with one named link this is "set that link to Auto", offered below */
  if (fixed > 1)
    {
      FxFix *f = fix_new (FX_FIX_SET_ALL_AUTO, -1, -1, fixed);
      f->label = g_strdup (_("Set all links to Auto"));
      g_ptr_array_add (out, f);
    }
  for (guint l = 0; l < m->links->len; l++)
    {
      const FxLink *link = fx_model_link (m, l);
      if (link->formulation == FX_FORMULATION_AUTO)
        continue;
      for (FxFormulation fm = FX_FORMULATION_AUTO; fm <= FX_FORMULATION_GUIDED; fm++)
        {
          if (fm == link->formulation)
            continue;
          FxFix *f = fix_new (FX_FIX_SET_FORMULATION, (int) l, -1, 1);
          f->formulation = fm;
          f->label = fm == FX_FORMULATION_AUTO
            ? g_strdup_printf (_("Set link %s to Auto"), link->id)
            : g_strdup_printf (_("Make link %s %s"), link->id, formulation_words (fm));
          g_ptr_array_add (out, f);
        }
      FxFix *f = fix_new (FX_FIX_SPLIT_LINK, (int) l, -1, 2);
      f->label = g_strdup_printf (_("Split link %s in two at its middle (both halves on Auto)"), link->id);
      g_ptr_array_add (out, f);
    }
  for (guint j = 0; j < m->joints->len; j++)
    {
      const FxJoint *joint = fx_model_joint (m, j);
      if (joint->support != FX_SUPPORT_NONE || joint->slider
          || fx_model_find_body_of_joint (m, joint->id) >= 0)
        continue;
      double member_mass;
      double mass = fx_regularising_mass_at (m, j, &member_mass);
      if (!(joint->mass > 0.0))
        {
          FxFix *f = fix_new (FX_FIX_ADD_JOINT_MASS, -1, (int) j, 1);
          f->value = mass;
          f->label = g_strdup_printf (_("Give joint %s a small mass (%.3g kg)"), joint->id, mass);
          g_ptr_array_add (out, f);
        }
      /* a rotary inertia needs one rotation: a weld, or a lone link end */
      if (!(joint->inertia > 0.0) && (joint->kind == FX_JOINT_WELD || ends_at (m, joint->id) == 1))
        {
          double h = G_MAXDOUBLE;
          for (guint l = 0; l < m->links->len; l++)
            {
              const FxLink *link = fx_model_link (m, l);
              if (g_strcmp0 (link->from, joint->id) == 0 || g_strcmp0 (link->to, joint->id) == 0)
                h = MIN (h, fx_link_length (m, link) / MAX (link->elements, 1u));
            }
          if (h == G_MAXDOUBLE)
            continue;
          FxFix *f = fix_new (FX_FIX_ADD_JOINT_INERTIA, -1, (int) j, 1);
          f->value = mass * 0.25 * h * h;
          f->label = g_strdup_printf (_("Give joint %s a small rotary inertia (%.3g kg m²)"),
                                      joint->id, f->value);
          g_ptr_array_add (out, f);
        }
    }
}

/* Does the model with `fix` applied have an assignment? */
static gboolean
try_fix (const FxModel *model, const FxFix *fix)
{
  g_autoptr (FxModel) trial = fx_fix_apply (model, fix);
  g_autoptr (FxAssignment) a = fx_assignment_compute (trial);
  return fx_assignment_ok (a);
}

GPtrArray *
fx_advice_fixes (const FxModel *model, guint max_fixes)
{
  GPtrArray *good = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_fix_free);
  guint n_conflicts;
  {
    g_autoptr (FxAssignment) a = fx_assignment_compute (model);
    if (fx_assignment_ok (a))
      return good;
    n_conflicts = a->conflicts->len;
  }
  g_autoptr (GPtrArray) cand = g_ptr_array_new_with_free_func ((GDestroyNotify) fx_fix_free);
  candidates (model, cand);
  g_ptr_array_sort (cand, fix_cmp);
  /* each try costs an assignment, and a failed one explains each of its
   * conflicts in words: a large or badly broken model tries fewer (a 1000-link
   * chain with 3000 conflicts tried 400 fixes in 4 s, on the window's thread) */
  double cost = model->links->len + model->joints->len + 20.0 * n_conflicts + 1.0;
  guint budget = (guint) CLAMP (2e6 / cost, 8.0, 400.0);
  guint i = 0;
  for (; i < cand->len && budget > 0; i++)
    {
      if (max_fixes > 0 && good->len >= max_fixes)
        break;
      FxFix *f = g_ptr_array_index (cand, i);
      budget--;
      if (try_fix (model, f))
        g_ptr_array_add (good, g_ptr_array_steal_index (cand, i--));
    }
  /* the budget ran out before "Set all links to Auto", the fix that
   * nearly always works and has the most changes: try it still */
  for (; good->len == 0 && i < cand->len; i++)
    {
      FxFix *f = g_ptr_array_index (cand, i);
      if (f->kind != FX_FIX_SET_ALL_AUTO)
        continue;
      if (try_fix (model, f))
        g_ptr_array_add (good, g_ptr_array_steal_index (cand, i));
      break;
    }
  return good;
}
