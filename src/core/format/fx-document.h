/* fx-document.h: the model being edited, with its file and its history.
 *
 * Every edit the canvas and the inspector make goes through one of the
 * functions here, so undo and redo cover all of them. The history holds
 * whole model snapshots (models are small: a snapshot of a 100-link model
 * is a few tens of kilobytes), which keeps every edit trivially reversible
 * and the code free of per-edit inverse operations. Consecutive edits of the
 * same kind on the same item (dragging a joint, typing a number) merge into
 * one step, so one Ctrl+Z undoes a whole drag.
 *
 * A document is a GObject so the UI can listen: "changed" after every edit,
 * undo and redo (and after load), with notify::can-undo, ::can-redo,
 * ::modified, ::file and ::title.
 *
 * Plain GLib/GObject: no GTK here.
 */
#pragma once

#include <gio/gio.h>
#include "fx-model.h"

G_BEGIN_DECLS

#define FX_TYPE_DOCUMENT (fx_document_get_type ())
G_DECLARE_FINAL_TYPE (FxDocument, fx_document, FX, DOCUMENT, GObject)

/* A new, empty, unmodified document ("Untitled"), time and solver defaults
 * from fx_model_new(). */
FxDocument    *fx_document_new            (void);
/* Loads `file` (the document then refers to it, unmodified, history empty).
 * On failure returns NULL with the loader's error (which names the file,
 * the JSON path and the problem); warnings as fx_model_load_file. */
FxDocument    *fx_document_new_from_file  (GFile *file, GPtrArray **warnings, GError **error);
/* A document holding a copy of `model`, with no file. */
FxDocument    *fx_document_new_for_model  (const FxModel *model);

/* The current model: read it freely, never change it directly (use the
 * edits below, or fx_document_begin_edit/end_edit). */
const FxModel *fx_document_get_model      (FxDocument *doc);

GFile         *fx_document_get_file       (FxDocument *doc);      /* may be NULL */
/* The file's display name, or the model's name, or "Untitled". */
char          *fx_document_dup_title      (FxDocument *doc);
/* Whether there are edits since the last load or save. */
gboolean       fx_document_get_modified   (FxDocument *doc);

/* Saves atomically (fx_model_save_file) to `file`, which becomes the
 * document's file; the document is then unmodified. */
gboolean       fx_document_save           (FxDocument *doc, GFile *file, GError **error);

/* ---- history ---- */
gboolean       fx_document_can_undo       (FxDocument *doc);
gboolean       fx_document_can_redo       (FxDocument *doc);
/* A short label of the step that undo (redo) would revert (apply), e.g.
 * "Move Joint", for menu items and tooltips; NULL when none. */
const char    *fx_document_undo_label     (FxDocument *doc);
const char    *fx_document_redo_label     (FxDocument *doc);
gboolean       fx_document_undo           (FxDocument *doc);
gboolean       fx_document_redo           (FxDocument *doc);
/* Stops merging: the next edit starts a new step even if it is of the same
 * kind on the same item (call at the end of a drag). */
void           fx_document_break_merge    (FxDocument *doc);

/* A general edit: begin returns the model to change in place; end records
 * one history step labelled `label` (merged with the previous step when
 * merge_key is non-NULL and equal to the previous step's key) and emits
 * "changed". Calls cannot nest. */
FxModel       *fx_document_begin_edit     (FxDocument *doc);
void           fx_document_end_edit       (FxDocument *doc, const char *label,
                                           const char *merge_key);
/* One history step labelled `label` that replaces the model by `model`
 * (taken): for edits made on a copy (a fix, fx-advice.h). */
void           fx_document_replace        (FxDocument *doc, FxModel *model, const char *label);

/* ---- edits used by the canvas (each one history step) ---- */

/* The element degree of a newly drawn link (physics.md §15): degree 2
 * reaches the accuracy of degree 1 with far fewer elements (a cantilever's
 * modes: 0.4 % at 4 quadratic elements, 2.4 % at 8 linear ones) and carries
 * a pinned link's full rotational inertia (bench/bench-work-precision.c). */
#define FX_NEW_LINK_DEGREE 2u


/* A new joint at (x, y) with a fresh id ("J1", "J2", ...): its index. */
guint          fx_document_add_joint      (FxDocument *doc, double x, double y);
/* A link from joint `from` to joint `to` (indices, distinct) with a fresh id
 * ("L1", ...), `elements` elements and a copy of `section`: its index, or -1
 * when from == to or a link already joins the two joints. */
int            fx_document_add_link       (FxDocument *doc, guint from, guint to,
                                           guint elements, const FxSection *section);
/* A link from point (x0, y0) to (x1, y1), in one history step: each end
 * uses the joint within `tolerance` metres of it, or a new joint there. The
 * link's index, or -1 when both ends are the same joint or already linked
 * (then nothing changes). */
int            fx_document_add_link_at    (FxDocument *doc, double x0, double y0,
                                           double x1, double y1, double tolerance,
                                           guint elements, const FxSection *section);
/* Moves a joint (its links follow, as they are defined by their joints).
 * Successive moves of the same joint merge into one step. */
void           fx_document_move_joint     (FxDocument *doc, guint joint, double x, double y);
/* Whether joint `joint` can merge into joint `into`: they are two joints
 * and no link would then join a joint to itself or run twice between the
 * same two joints. */
gboolean       fx_document_can_merge_joints (FxDocument *doc, guint joint, guint into);
/* Merges joint `joint` into joint `into`, as dropping one on the other
 * does: every link, load, motor, spring, drag and body attachment at
 * `joint` moves to `into`, which keeps its support (or takes `joint`'s
 * when it has none) and the sum of their masses. Merges into a drag's
 * move step of `joint`, if one is open. FALSE (nothing changes) when
 * fx_document_can_merge_joints says no. */
gboolean       fx_document_merge_joints   (FxDocument *doc, guint joint, guint into);
/* Deletes a joint with every link, load, motor, spring, probe and body
 * attachment that refers to it (and links' loads and probes). */
void           fx_document_delete_joint   (FxDocument *doc, guint joint);
/* Deletes a link with its loads, probes, motors and springs; joints stay. */
/* The same, with its end joints that are left with nothing (no other
 * link, no mass), as the canvas's Delete does: one history step. */
void           fx_document_delete_link_tidy (FxDocument *doc, guint link);
void           fx_document_delete_link    (FxDocument *doc, guint link);
void           fx_document_set_formulation (FxDocument *doc, guint link, FxFormulation f);
void           fx_document_set_joint_kind (FxDocument *doc, guint joint, FxJointKind kind);
/* A support also ends a slider block there (a supported joint has none). */
void           fx_document_set_support    (FxDocument *doc, guint joint, FxSupport support);

/* Fresh ids with `prefix` ("J", "L", "P", "M", ...) not used by any item of
 * the model. */
char          *fx_document_fresh_id       (FxDocument *doc, const char *prefix);

G_END_DECLS
