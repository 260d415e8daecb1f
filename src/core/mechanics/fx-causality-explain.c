/* fx-causality-explain.c: why a channel has no assignment, in two voices:
 * for the command line, with JSON paths and the bond-graph words, and for
 * the app, in plain sentences ("needs to be pushed by a force here"). */
#include "fx-causality-private.h"
#include <glib/gi18n-lib.h>

#include <string.h>

static const char *
channel_name (FxChannel c)
{
  return c == FX_CHANNEL_TRANSLATION ? _("translation") : _("rotation");
}

static const char *
causal_word (FxChannel c, int bit)
{
  if (c == FX_CHANNEL_TRANSLATION)
    return bit == FX_CAUSAL_F ? _("force-causal") : _("velocity-causal");
  return bit == FX_CAUSAL_F ? _("moment-causal") : _("angular-velocity-causal");
}

/* Adds "path: message" (the JSON path of the joint or link it is about, as
 * in the loader's messages); takes `message`. */
void
cx_add_conflict (GPtrArray *conflicts, const char *list, int index, char *message)
{
  if (index >= 0)
    g_ptr_array_add (conflicts, g_strdup_printf ("%s[%d]: %s", list, index, message));
  else
    g_ptr_array_add (conflicts, g_strdup_printf ("%s: %s", list, message));
  g_free (message);
}

/* What a link end does, in words a student knows (no "moment-causal"). */
static const char *
plain_end_word (FxChannel c, int bit)
{
  if (c == FX_CHANNEL_TRANSLATION)
    return bit == FX_CAUSAL_F ? _("needs to be pushed by a force here") : _("has its motion set here");
  return bit == FX_CAUSAL_F ? _("needs to be turned by a moment here") : _("has its turning set here");
}

/* "to be pushed by a force here", for "... is set to be ..." */
static const char *
plain_f_word (FxChannel c)
{
  return c == FX_CHANNEL_TRANSLATION ? _("to be pushed by a force here") : _("to be turned by a moment here");
}

/* "force" or "moment": what a joint takes in this channel. */
static const char *
load_word (FxChannel c)
{
  return c == FX_CHANNEL_TRANSLATION ? _("force") : _("moment");
}

/* The inertia that would take a joint's force or moment. */
static const char *
inertia_word (FxChannel c)
{
  return c == FX_CHANNEL_TRANSLATION ? _("a mass") : _("a rotary inertia");
}

static void
add_plain (Problem *p, char *sentence)
{
  if (p->plain)
    g_ptr_array_add (p->plain, sentence);
  else
    g_free (sentence);
}

/* Explain, junction by junction, what the user's fixed choices break. */
void
cx_explain_fixed_conflicts (Problem *p, GPtrArray *conflicts)
{
  for (guint i = 0; i < p->junctions->len; i++)
    {
      const Junction *j = &g_array_index (p->junctions, Junction, i);
      const FxJoint *joint = fx_model_joint (p->model, j->joint);
      g_autoptr (GString) f_links = g_string_new (NULL);
      guint n_f = 0, n_fixed = 0;

      for (guint k = 0; k < j->members->len; k++)
        {
          guint l = cx_member (j, k);
          if (!p->fixed[l])
            continue;
          n_fixed++;
          if (p->bit[l] == FX_CAUSAL_F)
            {
              g_string_append_printf (f_links, "%s\"%s\"", n_f ? ", " : "",
                                      fx_model_link (p->model, l)->id);
              n_f++;
            }
        }
      if (j->ground && n_f > 0 && fx_support_grounds (joint->support, p->channel))
        cx_add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          g_dngettext (NULL,
            "joint \"%s\" (%s): its support fixes the %s, so no member may be %s, "
            "but link %s is. Fix: make %s %s (for example pinned or clamped-clamped), "
            "or remove the support.",
            "joint \"%s\" (%s): its support fixes the %s, so no member may be %s, "
            "but links %s are. Fix: make %s %s (for example pinned or clamped-clamped), "
            "or remove the support.", n_f),
          joint->id, channel_name (p->channel), channel_name (p->channel),
          causal_word (p->channel, FX_CAUSAL_F), f_links->str, f_links->str,
          causal_word (p->channel, FX_CAUSAL_V)));
      else if (j->ground && n_f > 0)
        cx_add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          g_dngettext (NULL,
            "joint \"%s\" (%s): its own inertia (%s) or a speed "
            "motor takes the %s there, so no member may be %s, but link %s is. Fix: make %s %s "
            "(for example pinned or clamped-clamped).",
            "joint \"%s\" (%s): its own inertia (%s) or a speed "
            "motor takes the %s there, so no member may be %s, but links %s are. Fix: make %s %s "
            "(for example pinned or clamped-clamped).", n_f),
          joint->id, channel_name (p->channel),
          p->channel == FX_CHANNEL_TRANSLATION ? _("a mass, slider block or body")
                                               : _("a rotary inertia or body"),
          load_word (p->channel),
          causal_word (p->channel, FX_CAUSAL_F), f_links->str, f_links->str,
          causal_word (p->channel, FX_CAUSAL_V)));
      if (j->ground && n_f > 0)
        {
          gboolean support = fx_support_grounds (joint->support, p->channel);
          const char *why = support
            ? (p->channel == FX_CHANNEL_TRANSLATION ? _("is held by its support")
                                                     : _("has its turning held by its support"))
            : _("has its own inertia (a mass, a slider block, a body or a motor), which takes that part");
          add_plain (p, g_strdup_printf (
            g_dngettext (NULL, "Joint %s %s, but link %s is set %s. Set it to Auto.",
                         "Joint %s %s, but links %s are set %s. Set them to Auto.", n_f),
            joint->id, why, f_links->str, plain_f_word (p->channel)));
        }
      else if (!j->ground && n_f > 1)
        cx_add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          _("joint \"%s\" (%s): an unsupported joint takes its %s from exactly one link, "
          "but links %s are all %s. Fix: keep one of them and set the others to a "
          "%s formulation, or give joint \"%s\" %s."),
          joint->id, channel_name (p->channel), load_word (p->channel), f_links->str,
          causal_word (p->channel, FX_CAUSAL_F), causal_word (p->channel, FX_CAUSAL_V),
          joint->id, inertia_word (p->channel)));
      if (!j->ground && n_f > 1)
        add_plain (p, g_strdup_printf (
          _("At joint %s, links %s are all set %s, but only one link can be. "
            "Set the others to Auto."),
          joint->id, f_links->str, plain_f_word (p->channel)));
      else if (!j->ground && n_fixed == j->members->len && n_f == 0 && j->members->len == 1)
        {
          /* one link end alone in this channel: a free end, or a link's own
           * turning at a pin; name the link, not "every link" */
          const char *id = fx_model_link (p->model, cx_member (j, 0))->id;
          cx_add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
            _("joint \"%s\" (%s): link \"%s\" is %s there, but nothing holds that end "
            "or takes its %s. Fix: set link \"%s\" to %s, support the joint, or give it %s."),
            joint->id, channel_name (p->channel), id, causal_word (p->channel, FX_CAUSAL_V),
            load_word (p->channel), id,
            p->channel == FX_CHANNEL_TRANSLATION ? _("free-free or guided")
                                                 : _("free-free or pinned"),
            inertia_word (p->channel)));
        }
      else if (!j->ground && n_fixed == j->members->len && n_f == 0)
        cx_add_conflict (conflicts, "joints", (int) j->joint, g_strdup_printf (
          _("joint \"%s\" (%s): it is not supported, but every link there is %s, so nothing "
          "takes the joint's %s. Fix: set one link at joint \"%s\" to %s, "
          "support the joint, or give it %s."),
          joint->id, channel_name (p->channel), causal_word (p->channel, FX_CAUSAL_V),
          load_word (p->channel), joint->id,
          p->channel == FX_CHANNEL_TRANSLATION ? _("free-free or guided")
                                               : _("free-free or pinned"),
          inertia_word (p->channel)));
      if (!j->ground && j->members->len == 1 && n_fixed == 1 && n_f == 0)
        add_plain (p, g_strdup_printf (
          _("At joint %s, link %s %s, but nothing %s. Set the link to Auto, "
            "support the joint or give it %s."),
          joint->id, fx_model_link (p->model, cx_member (j, 0))->id,
          plain_end_word (p->channel, FX_CAUSAL_V),
          p->channel == FX_CHANNEL_TRANSLATION ? _("takes the joint's force") : _("takes the joint's moment"),
          inertia_word (p->channel)));
      else if (!j->ground && j->members->len > 0 && n_fixed == j->members->len && n_f == 0)
        add_plain (p, g_strdup_printf (
          _("At joint %s, every link %s, so nothing %s. Set a link there to Auto, "
            "support the joint or give it %s."),
          joint->id, plain_end_word (p->channel, FX_CAUSAL_V),
          p->channel == FX_CHANNEL_TRANSLATION ? _("takes the joint's force") : _("takes the joint's moment"),
          inertia_word (p->channel)));
    }
}

/* No assignment exists: name the links whose two ends want opposite bits. */
void
cx_explain_infeasible (Problem *p, GPtrArray *conflicts)
{
  guint before = conflicts->len, plain_before = p->plain ? p->plain->len : 0;

  for (guint l = 0; l < p->model->links->len; l++)
    {
      const FxLink *link = fx_model_link (p->model, l);
      int want[2] = { BIT_UNSET, BIT_UNSET };
      const char *joint_id[2] = { link->from, link->to };

      for (guint side = 0; side < 2; side++)
        {
          if (p->lj[l][side] == NO_JUNCTION)
            continue;
          const Junction *j = &g_array_index (p->junctions, Junction, p->lj[l][side]);
          if (j->ground)
            want[side] = FX_CAUSAL_V;
          else if (j->members->len == 1)
            want[side] = FX_CAUSAL_F;
        }
      if (want[0] != BIT_UNSET && want[1] != BIT_UNSET && want[0] != want[1])
        {
          guint fs = want[0] == FX_CAUSAL_F ? 0 : 1;
          cx_add_conflict (conflicts, "links", (int) l, g_strdup_printf (
            _("link \"%s\" (%s): its end at joint \"%s\" is %s and needs the link to be %s, "
            "its end at joint \"%s\" is held and needs it to be %s, and one link "
            "has one causality. Fix: split link \"%s\" into two links at an interior "
            "welded joint, give joint \"%s\" %s, or support joint \"%s\"."),
            link->id, channel_name (p->channel), joint_id[fs],
            p->channel == FX_CHANNEL_TRANSLATION ? _("free to move") : _("free to turn"),
            causal_word (p->channel, FX_CAUSAL_F), joint_id[1 - fs],
            causal_word (p->channel, FX_CAUSAL_V), link->id, joint_id[fs],
            inertia_word (p->channel), joint_id[fs]));
          add_plain (p, g_strdup_printf (
            _("Link %s %s at joint %s, but %s at joint %s, and a link drawn in one piece "
              "cannot do both. Set it to Auto (the engine then splits it), give joint %s "
              "%s or support it."),
            link->id, plain_end_word (p->channel, FX_CAUSAL_F), joint_id[fs],
            plain_end_word (p->channel, FX_CAUSAL_V), joint_id[1 - fs], joint_id[fs],
            inertia_word (p->channel)));
        }
    }
  if (conflicts->len == before)
    cx_add_conflict (conflicts, "links", -1, g_strdup_printf (
      _("%s: no causality assignment exists: every unsupported joint needs exactly one %s "
      "link and every supported joint none. Fix: split a link at an interior welded "
      "joint, or give an unsupported joint %s."),
      channel_name (p->channel), causal_word (p->channel, FX_CAUSAL_F),
      inertia_word (p->channel)));
  if (p->plain && p->plain->len == plain_before)
    add_plain (p, g_strdup (_("The links cannot be given consistent ends as they are set: "
                              "every unsupported joint needs exactly one link that is pushed by "
                              "its force, and a supported joint none. Set the links to Auto.")));
}
