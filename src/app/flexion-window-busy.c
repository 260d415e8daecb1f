/* flexion-window-busy.c: the window's work that takes seconds on a big
 * model, done off the main thread with the busy bar above the canvas:
 * opening a file (reading, checking, causality) and preparing a run's
 * solver (FlexionSimulation's "preparing"). Escape, the bar's Cancel and
 * Play pressed again stop either. */
#include "flexion-window-private.h"
#include "fx-cancel.h"
#include "fx-causality.h"
#include "flexion-rows.h"

#include <glib/gi18n.h>

/* ---- preparing a run ---- */

static const char *
run_phase (gpointer data)
{
  return flexion_simulation_get_phase (FLEXION_WINDOW (data)->sim);
}

static void
on_preparing (FlexionWindow *self)
{
  if (flexion_simulation_get_preparing (self->sim))
    flexion_busy_bar_show (self->busy, flexion_simulation_get_settling (self->sim)
                                       ? _("Settling…") : _("Preparing the solver…"), run_phase, self);
  else if (self->opening == NULL)
    flexion_busy_bar_hide (self->busy);
}

static void
on_cannot_run (FlexionWindow *self, const GError *error)
{
  _flexion_window_cannot_run (self, error);
}

/* No equilibrium (or no load at the time on screen): said, the run as it was. */
static void
on_settle_failed (FlexionWindow *self, const char *message)
{
  g_autofree char *text = g_strdup_printf (_("Cannot settle: %s"), message);
  adw_toast_overlay_add_toast (self->toast_overlay, flexion_toast_new (text, 8));
}

/* ---- opening a file ---- */

typedef struct {
  GFile *file;
  gint cancel;              /* fx-cancel.h: the worker's flag          */
  gboolean play;            /* Play once open (flexion --play FILE)    */
  FxDocument *before;       /* the document on screen when it began    */
  guint edits;              /* its changes since                       */
  FxDocument *doc;          /* the worker's results                    */
  GPtrArray *warnings;
  FxAssignment *assignment;
} Opening;

static void
opening_free (Opening *o)
{
  g_clear_object (&o->file);
  if (o->before)
    g_signal_handlers_disconnect_by_data (o->before, o);
  g_clear_object (&o->before);
  g_clear_object (&o->doc);
  g_clear_pointer (&o->warnings, g_ptr_array_unref);
  g_clear_pointer (&o->assignment, fx_assignment_free);
  g_free (o);
}

static void
on_edit_while_opening (Opening *o)
{
  o->edits++;
}

/* The worker: what opening a model costs, the causality the canvas draws
 * with included (seconds for a 100x100 lattice). */
static void
open_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Opening *o = data;
  GError *error = NULL;

  fx_cancel_attach (&o->cancel);
  o->doc = fx_document_new_from_file (o->file, &o->warnings, &error);
  if (o->doc != NULL && !fx_cancel_check (&error))
    o->assignment = fx_assignment_compute (fx_document_get_model (o->doc));
  fx_cancel_attach (NULL);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* `data`: the opening's GTask. */
static void
show_opening (FlexionWindow *self, gpointer data)
{
  Opening *o = g_task_get_task_data (G_TASK (data));
  flexion_canvas_give_assignment (self->canvas, g_steal_pointer (&o->assignment));
  _flexion_window_show_opened (self, o->file, o->doc, o->warnings);
  if (o->play)
    g_action_group_activate_action (G_ACTION_GROUP (self), "play", NULL);
}

static void
opening_done (FlexionWindow *self)
{
  g_clear_object (&self->opening);
  if (!flexion_simulation_get_preparing (self->sim))
    flexion_busy_bar_hide (self->busy);
}

static void
on_opened (GObject *source, GAsyncResult *result, gpointer data)
{
  FlexionWindow *self = FLEXION_WINDOW (source);
  GTask *task = G_TASK (result);
  Opening *o = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;

  if (self->opening != task)
    return;  /* cancelled, or replaced by a newer opening: forgotten */
  opening_done (self);
  if (!g_task_propagate_boolean (task, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _flexion_window_open_failed (self, o->file, error);
      return;
    }
  /* the document on screen was edited while this one was read: the
   * question its unsaved changes deserve, asked again */
  if (o->edits > 0 || self->doc != o->before)
    {
      _flexion_window_maybe_discard (self, show_opening, g_object_ref (task), g_object_unref);
      return;
    }
  show_opening (self, task);
}

static void forget_opening (FlexionWindow *self);

void
flexion_window_open_file (FlexionWindow *self, GFile *file, gboolean play)
{
  if (self->opening != NULL)
    forget_opening (self);  /* one opening at a time */

  Opening *o = g_new0 (Opening, 1);
  o->file = g_object_ref (file);
  o->play = play;
  o->before = g_object_ref (self->doc);
  g_signal_connect_swapped (o->before, "changed", G_CALLBACK (on_edit_while_opening), o);

  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  GTask *task = g_task_new (self, cancellable, on_opened, NULL);
  g_task_set_task_data (task, o, (GDestroyNotify) opening_free);
  g_task_set_source_tag (task, flexion_window_open_file);
  self->opening = task;  /* the window's reference */

  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = g_strdup_printf (_("Opening “%s”…"), name);
  flexion_busy_bar_show (self->busy, text, NULL, NULL);
  g_task_run_in_thread (task, open_in_thread);
}

/* The worker is told to stop; whatever it returns is dropped. */
static void
forget_opening (FlexionWindow *self)
{
  Opening *o = g_task_get_task_data (self->opening);
  fx_cancel_request (&o->cancel);
  g_cancellable_cancel (g_task_get_cancellable (self->opening));
  opening_done (self);
}

gboolean
_flexion_window_cancel_busy (FlexionWindow *self)
{
  if (self->opening != NULL)
    {
      /* the worker stops at its next check; its results are dropped */
      forget_opening (self);
      return TRUE;
    }
  return flexion_simulation_cancel (self->sim);
}

static void
on_destroy (FlexionWindow *self)
{
  if (self->opening != NULL)
    forget_opening (self);
}

void
_flexion_window_busy_init (FlexionWindow *self)
{
  GtkWidget *canvas = GTK_WIDGET (self->canvas);
  self->busy = FLEXION_BUSY_BAR (flexion_busy_bar_new ());
  gtk_widget_insert_before (GTK_WIDGET (self->busy), gtk_widget_get_parent (canvas), canvas);
  g_signal_connect_swapped (self->busy, "cancel", G_CALLBACK (_flexion_window_cancel_busy), self);
  g_signal_connect_swapped (self->sim, "notify::preparing", G_CALLBACK (on_preparing), self);
  g_signal_connect_swapped (self->sim, "cannot-run", G_CALLBACK (on_cannot_run), self);
  g_signal_connect_swapped (self->sim, "settle-failed", G_CALLBACK (on_settle_failed), self);
  g_signal_connect (self, "destroy", G_CALLBACK (on_destroy), NULL);
}
