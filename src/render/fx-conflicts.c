/* fx-conflicts.c: conflicting link ends of hand-chosen formulations
 * (fx-conflicts.h). */
#include "fx-conflicts.h"
#include "fx-advice.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

typedef struct {
  guint link;
  gboolean at_to;
  int causality;  /* FX_CAUSAL_F, FX_CAUSAL_V, or -1 when Auto decides */
} End;

static void
conflict_end_free (FxConflictEnd *e)
{
  g_free (e->why);
  g_free (e);
}

static void
add_end (GPtrArray *out, const End *e, FxChannel channel, const char *why)
{
  FxConflictEnd *c = g_new0 (FxConflictEnd, 1);
  c->link = e->link;
  c->at_to = e->at_to;
  c->channel = channel;
  c->why = g_strdup (why);
  g_ptr_array_add (out, c);
}

/* Checks one junction: `need` force-taking ends (0 or 1) among `ends`. */
static void
check_junction (GPtrArray *out, const End *ends, guint n, guint need, FxChannel channel)
{
  guint forced = 0, open = 0;
  for (guint i = 0; i < n; i++)
    {
      forced += ends[i].causality == FX_CAUSAL_F;
      open += ends[i].causality < 0;
    }
  gboolean rot = channel == FX_CHANNEL_ROTATION;
  if (forced > need)
    {
      const char *why = need == 0
        ? (rot ? _("its turning is set here by the support, so it cannot also be turned by a moment")
               : _("the support holds this end still, so it cannot also be pushed by a force"))
        : (rot ? _("another link end here is turned by the moment too: only one of them may be")
               : _("another link end here is pushed by the force too: only one of them may be"));
      for (guint i = 0; i < n; i++)
        if (ends[i].causality == FX_CAUSAL_F)
          add_end (out, &ends[i], channel, why);
    }
  else if (forced < need && open == 0)
    {
      const char *why = rot ? _("needs to be turned by a moment here, but no link end here takes one")
                            : _("needs to be pushed by a force here, but no link end here takes one");
      for (guint i = 0; i < n; i++)
        add_end (out, &ends[i], channel, why);
    }
}

static int
end_causality (const FxLink *link, FxChannel channel)
{
  if (link->formulation == FX_FORMULATION_AUTO)
    return -1;
  FxCausality T, R;
  fx_formulation_causality (link->formulation, &T, &R);
  return channel == FX_CHANNEL_TRANSLATION ? (int) T : (int) R;
}

GPtrArray *
fx_conflict_ends (const FxModel *model)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) conflict_end_free);
  g_autoptr (FxAssignment) as = fx_assignment_compute (model);
  if (fx_assignment_ok (as))
    return out;
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (End));
  for (guint j = 0; j < model->joints->len; j++)
    {
      const FxJoint *joint = fx_model_joint (model, j);
      for (int c = 0; c < 2; c++)
        {
          FxChannel channel = (FxChannel) c;
          g_array_set_size (ends, 0);
          gboolean motor = FALSE;
          for (guint l = 0; l < model->links->len; l++)
            {
              const FxLink *link = fx_model_link (model, l);
              for (int k = 0; k < 2; k++)
                if (g_strcmp0 (k ? link->to : link->from, joint->id) == 0)
                  {
                    End e = { l, k == 1, end_causality (link, channel) };
                    g_array_append_val (ends, e);
                    if (channel == FX_CHANNEL_ROTATION
                        && (fx_speed_motor_to_ground (model, joint->id, link->id)
                            || fx_speed_motor_between (model, joint->id, link->id)))
                      motor = TRUE;
                  }
            }
          /* speed motors, sliders and bodies make junctions this simple
           * rule does not describe: leave them to the full explanation */
          if (motor || ends->len == 0 || joint->slider || fx_model_find_body_of_joint (model, joint->id) >= 0)
            continue;
          guint need = fx_joint_is_covered (model, j, channel) ? 0 : 1;
          if (channel == FX_CHANNEL_ROTATION && joint->kind == FX_JOINT_PIN)
            {
              /* pinned ends turn alone: one junction each, unless an
               * inertia is shared (left to the full explanation) */
              if (joint->inertia > 0 && !fx_support_grounds (joint->support, channel))
                continue;
              for (guint i = 0; i < ends->len; i++)
                check_junction (out, &g_array_index (ends, End, i), 1, need, channel);
            }
          else
            check_junction (out, (End *) ends->data, ends->len, need, channel);
        }
    }
  return out;
}

gboolean
fx_conflict_ends_involve (const GPtrArray *ends, guint link)
{
  for (guint i = 0; ends && i < ends->len; i++)
    if (((FxConflictEnd *) ends->pdata[i])->link == link)
      return TRUE;
  return FALSE;
}

FxAssignment *
fx_conflict_relaxed_assignment (const FxModel *model, const GPtrArray *ends)
{
  g_autoptr (FxModel) trial = fx_model_copy (model);
  for (guint l = 0; l < trial->links->len; l++)
    if (fx_conflict_ends_involve (ends, l))
      fx_model_link (trial, l)->formulation = FX_FORMULATION_AUTO;
  FxAssignment *as = fx_assignment_compute (trial);
  if (!fx_assignment_ok (as))
    g_clear_pointer (&as, fx_assignment_free);
  return as;
}

/* ---- sentences ---- */

char *
fx_conflict_end_sentence (const FxModel *model, const FxConflictEnd *e)
{
  const FxLink *l = fx_model_link (model, e->link);
  /* Translators: a link, the joint of its end at fault, and why, e.g.
   * "Link crank, at joint O: the support holds this end still, ..." */
  return g_strdup_printf (_("Link %s, at joint %s: %s."), l->id, e->at_to ? l->to : l->from, e->why);
}

/* Whether `word` (`len` bytes) is a JSON path as the loader writes them:
 * "(root)", "links[0]", "joints[3].at", or a top-level key ("time"). */
static gboolean
is_json_path (const char *word, gsize len)
{
  static const char *const keys[] = {
    "(root)", "joints", "links", "loads", "motors", "springs", "probes", "bodies", "drags",
    "time", "gravity", "regularisation", "solver", "noise", "format", "version", NULL,
  };
  g_autofree char *w = g_strndup (word, len);
  if (strchr (w, ' ') != NULL)
    return FALSE;
  g_autofree char *head = g_strndup (w, strcspn (w, "[."));
  if (!g_strv_contains (keys, head))
    return FALSE;
  return g_str_equal (head, w) || w[strlen (head)] == '[' || w[strlen (head)] == '.';
}

char *
fx_conflict_strip_paths (const char *message)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (message, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *line = lines[i];
      while (*line == ' ')
        line++;
      /* "path: " at the start of a line is where the loader says it is */
      for (int k = 0; k < 2; k++)
        {
          const char *colon = strstr (line, ": ");
          if (colon && is_json_path (line, (gsize) (colon - line)))
            line = colon + 2;
        }
      if (*line == '\0')
        continue;
      if (out->len > 0)
        g_string_append_c (out, out->str[out->len - 1] == ':' ? ' ' : '\n');
      g_string_append (out, line);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

GPtrArray *
fx_conflict_sentences (const FxModel *model)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (FxAssignment) as = fx_assignment_compute (model);
  if (fx_assignment_ok (as))
    return out;
  g_autoptr (GPtrArray) ends = fx_conflict_ends (model);
  for (guint i = 0; i < ends->len; i++)
    g_ptr_array_add (out, fx_conflict_end_sentence (model, ends->pdata[i]));
  if (out->len > 0)
    return out;
  /* a junction the simple rule does not describe (motors, sliders,
   * bodies): the solver's own explanation, without its JSON paths */
  const GPtrArray *plain = as->plain_conflicts ? as->plain_conflicts : as->conflicts;
  for (guint i = 0; i < plain->len; i++)
    g_ptr_array_add (out, fx_conflict_strip_paths (plain->pdata[i]));
  if (out->len == 0)
    g_ptr_array_add (out, g_strdup (_("No link can take the force at some joint, however the links are set.")));
  return out;
}

char *
fx_conflict_plain_message (const FxModel *model, const char *message)
{
  g_autoptr (GPtrArray) sentences = fx_conflict_sentences (model);
  if (sentences->len == 0)
    return fx_conflict_strip_paths (message ? message : "");
  g_ptr_array_add (sentences, NULL);
  return g_strjoinv ("\n", (char **) sentences->pdata);
}

char *
fx_conflict_first_sentence (const FxModel *model, const char *message)
{
  g_autoptr (GPtrArray) sentences = fx_conflict_sentences (model);
  if (sentences->len > 0)
    return g_strdup (sentences->pdata[0]);
  g_autofree char *plain = fx_conflict_strip_paths (message ? message : "");
  g_auto (GStrv) lines = g_strsplit (plain, "\n", 2);
  return g_strdup (lines[0] ? lines[0] : "");
}

/* ---- fixes ---- */

static void
fix_free (FxConflictFix *f)
{
  g_free (f->label);
  g_free (f->machine);
  g_free (f);
}

/* A fix's machine form: what it changes, by ids, so that a button can name
 * it and the action find it again among the fixes of the model then. */
static char *
fix_machine (const FxModel *model, const FxFix *f)
{
  const char *link = f->link >= 0 ? fx_model_link (model, f->link)->id : "";
  const char *joint = f->joint >= 0 ? fx_model_joint (model, f->joint)->id : "";
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  switch (f->kind)
    {
    case FX_FIX_SET_ALL_AUTO: return g_strdup ("all-auto");
    case FX_FIX_SET_FORMULATION:
      return g_strdup_printf ("formulation %s %s", link, fx_formulation_to_string (f->formulation));
    case FX_FIX_ADD_JOINT_MASS:
      return g_strdup_printf ("mass %s %s", joint, g_ascii_dtostr (buf, sizeof buf, f->value));
    case FX_FIX_ADD_JOINT_INERTIA:
      return g_strdup_printf ("inertia %s %s", joint, g_ascii_dtostr (buf, sizeof buf, f->value));
    case FX_FIX_SPLIT_LINK: return g_strdup_printf ("split %s", link);
    }
  return g_strdup ("");
}

GPtrArray *
fx_conflict_fixes (const FxModel *model)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) fix_free);
  g_autoptr (GPtrArray) fixes = fx_advice_fixes (model, 0);
  guint n_fixed = 0;
  for (guint l = 0; l < model->links->len; l++)
    n_fixed += fx_model_link (model, l)->formulation != FX_FORMULATION_AUTO;
  for (guint i = 0; i < fixes->len; i++)
    {
      const FxFix *f = fixes->pdata[i];
      /* with one link not Auto, "all to Auto" is that link's own fix */
      if (f->kind == FX_FIX_SET_ALL_AUTO && n_fixed < 2)
        continue;
      FxConflictFix *c = g_new0 (FxConflictFix, 1);
      c->label = g_strdup (f->label);
      c->machine = fix_machine (model, f);
      c->changes = f->changes;
      g_ptr_array_add (out, c);
    }
  return out;
}

FxModel *
fx_conflict_fix_model (const FxModel *model, const char *machine)
{
  g_autoptr (GPtrArray) fixes = fx_advice_fixes (model, 0);
  for (guint i = 0; i < fixes->len; i++)
    {
      g_autofree char *m = fix_machine (model, fixes->pdata[i]);
      if (g_str_equal (m, machine))
        return fx_fix_apply (model, fixes->pdata[i]);
    }
  return NULL;
}

/* ---- regularising inertia ---- */

const FxRegulariser *
fx_assignment_regulariser_at (const FxAssignment *as, guint joint, FxChannel channel)
{
  for (guint i = 0; as && as->regularisers && i < as->regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (as->regularisers, FxRegulariser, i);
      if (r->joint == joint && r->channel == channel)
        return r;
    }
  return NULL;
}

/* "12 g", "1.5 kg" */
static char *
mass_text (double kg)
{
  return kg < 1 ? g_strdup_printf (_("%.3g g"), 1e3 * kg) : g_strdup_printf (_("%.3g kg"), kg);
}

char *
fx_regulariser_sentence (const FxRegulariser *r)
{
  g_autofree char *m = mass_text (r->mass);
  double share = r->member_mass > 0 ? 100 * r->mass / r->member_mass : 0;
  if (r->channel == FX_CHANNEL_ROTATION)
    return share > 0
      ? g_strdup_printf (_("Regularising rotary inertia %.3g kg m² (from %s, %.3g %% of the links "
                           "meeting here), added so the welded ends are consistent; it is not saved "
                           "unless you keep it."), r->inertia, m, share)
      : g_strdup_printf (_("Regularising rotary inertia %.3g kg m², added so the welded ends are "
                           "consistent; it is not saved unless you keep it."), r->inertia);
  return share > 0
    ? g_strdup_printf (_("Regularising mass %s (%.3g %% of the links meeting here), added so the "
                         "pins are consistent; it is not saved unless you keep it."), m, share)
    : g_strdup_printf (_("Regularising mass %s, added so the pins are consistent; it is not saved "
                         "unless you keep it."), m);
}

char *
fx_split_regulariser_note (const FxAssignment *as, guint link)
{
  for (guint i = 0; as->split_regularisers && i < as->split_regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (as->split_regularisers, FxRegulariser, i);
      if (r->link != (int) link)
        continue;
      g_autofree char *m = mass_text (r->mass);
      return g_strdup_printf (_("A regularising mass of %s sits where it is split, added so the "
                                "pins are consistent; it is not saved."), m);
    }
  return NULL;
}

gboolean
fx_regulariser_keep (FxModel *model, const FxRegulariser *r)
{
  if (r->joint >= model->joints->len)
    return FALSE;
  FxJoint *j = fx_model_joint (model, r->joint);
  if (r->channel == FX_CHANNEL_ROTATION)
    j->inertia += r->inertia;
  else
    j->mass += r->mass;
  return TRUE;
}

char *
fx_regularisers_summary (const FxModel *model, const FxAssignment *as)
{
  /* at joints, and (rarely) at the midpoints of split links */
  guint n = as->regularisers->len + (as->split_regularisers ? as->split_regularisers->len : 0);
  if (n == 0)
    return NULL;
  double total = fx_model_total_mass (model);
  double reg = fx_assignment_regularising_mass (as);
  g_autofree char *m = mass_text (reg);
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u added", "%u added", n), n);
  /* Translators: "2 added, 12 g, 0.5 % of the total mass" */
  return total > 0 ? g_strdup_printf (_("%s, %s, %.2g %% of the total mass"), count, m, 100 * reg / total)
                   : g_strdup_printf (_("%s, %s"), count, m);
}
