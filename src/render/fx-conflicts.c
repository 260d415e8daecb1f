/* fx-conflicts.c: conflicting link ends of hand-chosen formulations
 * (fx-conflicts.h). */
#include "fx-conflicts.h"

#include <glib/gi18n-lib.h>

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
        ? (rot ? _("the support holds this end's rotation: it must take its angular velocity, not a moment")
               : _("the support holds this end: it must take its velocity, not a force"))
        : (rot ? _("another end here takes the moment too: only one of them may")
               : _("another end here takes the force too: only one of them may"));
      for (guint i = 0; i < n; i++)
        if (ends[i].causality == FX_CAUSAL_F)
          add_end (out, &ends[i], channel, why);
    }
  else if (forced < need && open == 0)
    {
      const char *why = rot ? _("needs a moment at this end: no end here takes one")
                            : _("needs a force at this end: no end here takes one");
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
