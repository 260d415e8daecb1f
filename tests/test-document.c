/* test-document.c: edits, undo/redo, merging, modified state and saving of
 * FxDocument, the history every canvas and inspector edit goes through. */
#include "fx-document.h"
#include "fx-model-io.h"

#include <glib/gstdio.h>

static FxSection
test_section (void)
{
  FxSection s = { 0 };
  fx_section_set_canonical (&s, 1.0, 1e-4, 1e6, 4e5, 10.0);
  return s;
}

static void
count_changed (FxDocument *doc, guint *n)
{
  (*n)++;
}

static void
test_add_undo_redo (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  FxSection s = test_section ();
  guint changed = 0;
  g_signal_connect (doc, "changed", G_CALLBACK (count_changed), &changed);

  g_assert_false (fx_document_get_modified (doc));
  g_assert_false (fx_document_can_undo (doc));
  guint a = fx_document_add_joint (doc, 0, 0);
  guint b = fx_document_add_joint (doc, 1, 0);
  int l = fx_document_add_link (doc, a, b, 8, &s);
  g_assert_cmpint (l, ==, 0);
  g_assert_cmpuint (changed, ==, 3);
  const FxModel *m = fx_document_get_model (doc);
  g_assert_cmpuint (m->links->len, ==, 1);
  g_assert_cmpstr (fx_model_link (m, 0)->from, ==, "J1");
  g_assert_cmpstr (fx_model_link (m, 0)->to, ==, "J2");
  g_assert_cmpuint (fx_model_link (m, 0)->elements, ==, 8);
  g_assert_cmpfloat (fx_model_link (m, 0)->section.EI, ==, 10.0);
  g_assert_true (fx_document_get_modified (doc));
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Add Link");

  /* a second link between the same joints, or a joint to itself, is refused */
  g_assert_cmpint (fx_document_add_link (doc, b, a, 8, &s), ==, -1);
  g_assert_cmpint (fx_document_add_link (doc, a, a, 8, &s), ==, -1);
  g_assert_cmpuint (changed, ==, 3);

  g_assert_true (fx_document_undo (doc));
  m = fx_document_get_model (doc);
  g_assert_cmpuint (m->links->len, ==, 0);
  g_assert_cmpuint (m->joints->len, ==, 2);
  g_assert_true (fx_document_can_redo (doc));
  g_assert_cmpstr (fx_document_redo_label (doc), ==, "Add Link");
  g_assert_true (fx_document_redo (doc));
  m = fx_document_get_model (doc);
  g_assert_cmpuint (m->links->len, ==, 1);

  /* undoing everything comes back to the unmodified state */
  while (fx_document_undo (doc))
    ;
  g_assert_false (fx_document_get_modified (doc));
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 0);
  /* a new edit drops the redo branch */
  fx_document_add_joint (doc, 5, 5);
  g_assert_false (fx_document_can_redo (doc));
}

static void
test_add_link_at (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  FxSection s = test_section ();
  g_assert_cmpint (fx_document_add_link_at (doc, 0, 0, 1, 0, 1e-6, 4, &s), ==, 0);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 2);
  /* from the end of the first link: reuses its joint, adds one */
  g_assert_cmpint (fx_document_add_link_at (doc, 1, 0, 1, 1, 1e-6, 4, &s), ==, 1);
  const FxModel *m = fx_document_get_model (doc);
  g_assert_cmpuint (m->joints->len, ==, 3);
  g_assert_cmpstr (fx_model_link (m, 1)->from, ==, fx_model_link (m, 0)->to);
  /* an existing pair, a zero-length link: refused, nothing changes */
  g_assert_cmpint (fx_document_add_link_at (doc, 1, 1, 1, 0, 1e-6, 4, &s), ==, -1);
  g_assert_cmpint (fx_document_add_link_at (doc, 5, 5, 5, 5, 1e-6, 4, &s), ==, -1);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 3);
  /* one undo removes the link and the joint it made */
  fx_document_undo (doc);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 2);
  g_assert_cmpuint (fx_document_get_model (doc)->links->len, ==, 1);
}

static void
test_delete_link_tidy (void)
{
  /* an L of two links: deleting the second leaves its far joint with
   * nothing, and it goes too; the shared joint stays; one undo step */
  g_autoptr (FxDocument) doc = fx_document_new ();
  FxSection s = test_section ();
  g_assert_cmpint (fx_document_add_link_at (doc, 0, 0, 1, 0, 1e-6, 4, &s), ==, 0);
  g_assert_cmpint (fx_document_add_link_at (doc, 1, 0, 1, 1, 1e-6, 4, &s), ==, 1);
  g_autofree char *shared = g_strdup (fx_model_link (fx_document_get_model (doc), 1)->from);
  fx_document_delete_link_tidy (doc, 1);
  const FxModel *m = fx_document_get_model (doc);
  g_assert_cmpuint (m->links->len, ==, 1);
  g_assert_cmpuint (m->joints->len, ==, 2);
  g_assert_cmpint (fx_model_find_joint (m, shared), >=, 0);
  fx_document_undo (doc);
  g_assert_cmpuint (fx_document_get_model (doc)->links->len, ==, 2);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 3);
  /* a joint with a mass of its own is something: it stays */
  FxModel *em = fx_document_begin_edit (doc);
  fx_model_joint (em, 2)->mass = 1;
  fx_document_end_edit (doc, "Add Point Mass", NULL);
  fx_document_delete_link_tidy (doc, 1);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 3);
}

static void
test_move_merges (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  guint a = fx_document_add_joint (doc, 0, 0);
  fx_document_move_joint (doc, a, 0.1, 0);
  fx_document_move_joint (doc, a, 0.2, 0);
  fx_document_move_joint (doc, a, 0.3, 0.5);
  fx_document_break_merge (doc);  /* the end of the drag */
  fx_document_move_joint (doc, a, 1.0, 1.0);

  const FxModel *m = fx_document_get_model (doc);
  g_assert_cmpfloat (fx_model_joint (m, a)->at[0], ==, 1.0);
  g_assert_true (fx_document_undo (doc));  /* the second drag */
  m = fx_document_get_model (doc);
  g_assert_cmpfloat (fx_model_joint (m, a)->at[0], ==, 0.3);
  g_assert_cmpfloat (fx_model_joint (m, a)->at[1], ==, 0.5);
  g_assert_true (fx_document_undo (doc));  /* the whole first drag at once */
  m = fx_document_get_model (doc);
  g_assert_cmpfloat (fx_model_joint (m, a)->at[0], ==, 0.0);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Add Joint");
}

static FxDocument *
load_example (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  FxDocument *doc = fx_document_new_from_file (file, NULL, &error);
  g_assert_no_error (error);
  return doc;
}

static void
test_delete_cascades (void)
{
  g_autoptr (FxDocument) doc = load_example ("four-bar.flexion");
  const FxModel *m = fx_document_get_model (doc);
  guint n_joints = m->joints->len, n_links = m->links->len;
  g_assert_cmpuint (n_links, >=, 3);
  g_assert_false (fx_document_get_modified (doc));

  /* the joint every link reaches through: delete the first link's `to` */
  int j = fx_model_find_joint (m, fx_model_link (m, 0)->to);
  g_assert_cmpint (j, >=, 0);
  g_autofree char *jid = g_strdup (fx_model_joint (m, j)->id);
  /* scripted drags there go too: one at the joint, one on its link */
  FxModel *em = fx_document_begin_edit (doc);
  double t[2] = { 0, 1 }, x[2] = { 0, 0 }, y[2] = { 0, 1 };
  fx_drag_set_path (fx_model_add_drag (em, "hand", NULL, 0, jid), 2, t, x, y);
  fx_drag_set_path (fx_model_add_drag (em, "other-hand", fx_model_link (em, 0)->id, 0.5, NULL),
                    2, t, x, y);
  fx_document_end_edit (doc, "Add Drags", NULL);
  m = fx_document_get_model (doc);
  g_assert_true (fx_model_validate (m, NULL));
  g_assert_cmpuint (m->drags->len, ==, 2);
  fx_document_delete_joint (doc, j);
  m = fx_document_get_model (doc);
  g_assert_cmpuint (m->joints->len, ==, n_joints - 1);
  g_assert_cmpint (fx_model_find_joint (m, jid), ==, -1);
  for (guint i = 0; i < m->links->len; i++)
    {
      g_assert_cmpstr (fx_model_link (m, i)->from, !=, jid);
      g_assert_cmpstr (fx_model_link (m, i)->to, !=, jid);
    }
  for (guint i = 0; i < fx_model_n_motors (m); i++)
    {
      g_assert_cmpstr (fx_model_motor (m, i)->joint, !=, jid);
      g_assert_cmpint (fx_model_find_link (m, fx_model_motor (m, i)->link), >=, 0);
    }
  for (guint i = 0; i < m->probes->len; i++)
    g_assert_cmpint (fx_model_find_link (m, fx_model_probe (m, i)->link), >=, 0);
  g_assert_cmpuint (m->drags->len, ==, 0);
  g_assert_true (fx_model_validate (m, NULL));

  g_assert_true (fx_document_undo (doc));
  g_assert_true (fx_document_undo (doc));  /* the drags */
  m = fx_document_get_model (doc);
  g_assert_cmpuint (m->joints->len, ==, n_joints);
  g_assert_cmpuint (m->links->len, ==, n_links);
  g_assert_false (fx_document_get_modified (doc));

  fx_document_delete_link (doc, 0);
  g_assert_cmpuint (fx_document_get_model (doc)->links->len, ==, n_links - 1);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, n_joints);
}

static void
test_body_attachment_deleted (void)
{
  g_autoptr (FxDocument) doc = load_example ("plate-linkage.flexion");
  const FxModel *m = fx_document_get_model (doc);
  g_assert_cmpuint (fx_model_n_bodies (m), ==, 1);
  guint n = fx_model_body (m, 0)->n_joints;
  int j = fx_model_find_joint (m, fx_model_body (m, 0)->joints[0]);
  fx_document_delete_joint (doc, j);
  m = fx_document_get_model (doc);
  g_assert_cmpuint (fx_model_n_bodies (m), ==, 1);
  g_assert_cmpuint (fx_model_body (m, 0)->n_joints, ==, n - 1);
  g_assert_cmpuint (g_strv_length (fx_model_body (m, 0)->joints), ==, n - 1);
}

static void
test_save_and_title (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  g_autofree char *title = fx_document_dup_title (doc);
  g_assert_cmpstr (title, ==, "Untitled");
  FxSection s = test_section ();
  guint a = fx_document_add_joint (doc, 0, 0);
  guint b = fx_document_add_joint (doc, 2, 0);
  fx_document_add_link (doc, a, b, 4, &s);
  fx_document_set_formulation (doc, 0, FX_FORMULATION_PINNED);
  g_assert_true (fx_document_get_modified (doc));

  g_autofree char *dir = g_dir_make_tmp ("flexion-doc-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "beam.flexion", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_assert_true (fx_document_save (doc, file, &error));
  g_assert_no_error (error);
  g_assert_false (fx_document_get_modified (doc));
  g_free (title);
  title = fx_document_dup_title (doc);
  g_assert_cmpstr (title, ==, "beam.flexion");

  /* undo after a save makes the document modified again */
  fx_document_undo (doc);
  g_assert_true (fx_document_get_modified (doc));
  fx_document_redo (doc);
  g_assert_false (fx_document_get_modified (doc));

  g_autoptr (FxDocument) again = fx_document_new_from_file (file, NULL, &error);
  g_assert_no_error (error);
  const FxModel *m = fx_document_get_model (again);
  g_assert_cmpuint (m->links->len, ==, 1);
  g_assert_cmpint (fx_model_link (m, 0)->formulation, ==, FX_FORMULATION_PINNED);

  /* saving into a missing directory fails with a message and changes nothing */
  g_autofree char *bad = g_build_filename (dir, "missing", "x.flexion", NULL);
  g_autoptr (GFile) bad_file = g_file_new_for_path (bad);
  fx_document_move_joint (again, 0, 0.5, 0.5);
  g_assert_false (fx_document_save (again, bad_file, &error));
  g_assert_nonnull (error);
  g_assert_true (fx_document_get_modified (again));
  g_assert_true (g_file_equal (fx_document_get_file (again), file));

  g_remove (path);
  g_rmdir (dir);
}

static void
test_support_ends_slider (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  guint a = fx_document_add_joint (doc, 0, 0);
  FxModel *m = fx_document_begin_edit (doc);
  fx_model_joint (m, a)->slider = TRUE;
  fx_model_joint (m, a)->slider_mass = 1;
  fx_document_end_edit (doc, "Set Slider", NULL);
  fx_document_set_support (doc, a, FX_SUPPORT_PIN);
  const FxJoint *j = fx_model_joint (fx_document_get_model (doc), a);
  g_assert_cmpint (j->support, ==, FX_SUPPORT_PIN);
  g_assert_false (j->slider);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Set Support");
  fx_document_undo (doc);
  j = fx_model_joint (fx_document_get_model (doc), a);
  g_assert_cmpint (j->support, ==, FX_SUPPORT_NONE);
  g_assert_true (j->slider);
  fx_document_set_joint_kind (doc, a, FX_JOINT_WELD);
  g_assert_cmpint (fx_model_joint (fx_document_get_model (doc), a)->kind, ==, FX_JOINT_WELD);
}

static void
test_history_cap (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  for (guint i = 0; i < 250; i++)
    fx_document_add_joint (doc, i, 0);
  guint undone = 0;
  while (fx_document_undo (doc))
    undone++;
  g_assert_cmpuint (undone, ==, 200);
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 50);
}

/* Dragging a joint onto another merges them (issue 32's hand-drawn round:
 * a drop left two joints in one place, and the links did not connect). */
static void
test_merge_joints (void)
{
  g_autoptr (FxDocument) doc = fx_document_new ();
  FxSection s = test_section ();
  /* A(0,0)-B(1,0) and C(2,1)-D(1,1): D dropped on B makes an L of two links */
  g_assert_cmpint (fx_document_add_link_at (doc, 0, 0, 1, 0, 1e-6, 4, &s), ==, 0);
  g_assert_cmpint (fx_document_add_link_at (doc, 2, 1, 1, 1, 1e-6, 4, &s), ==, 1);
  fx_document_set_support (doc, 3, FX_SUPPORT_PIN);
  FxModel *em = fx_document_begin_edit (doc);
  fx_model_joint (em, 1)->mass = 2;
  fx_model_joint (em, 3)->mass = 0.5;
  fx_model_add_joint_load (em, fx_model_joint (em, 3)->id)->force[1] = -10;
  fx_document_end_edit (doc, "Add Load", NULL);

  const FxModel *m = fx_document_get_model (doc);
  g_autofree char *b = g_strdup (fx_model_joint (m, 1)->id);
  g_assert_false (fx_document_can_merge_joints (doc, 0, 1));  /* A-B: a link to itself */
  g_assert_false (fx_document_can_merge_joints (doc, 1, 1));
  g_assert_true (fx_document_can_merge_joints (doc, 3, 1));

  fx_document_move_joint (doc, 3, 1.5, 0.5);  /* the drag ... */
  fx_document_move_joint (doc, 3, 1, 0);
  g_assert_true (fx_document_merge_joints (doc, 3, 1));  /* ... and the drop */
  fx_document_break_merge (doc);
  m = fx_document_get_model (doc);
  g_assert_cmpuint (m->joints->len, ==, 3);
  g_assert_cmpstr (fx_model_link (m, 1)->to, ==, b);
  g_assert_cmpstr (fx_model_load (m, 0)->joint, ==, b);
  g_assert_cmpint (fx_model_joint (m, 1)->support, ==, FX_SUPPORT_PIN);  /* B had none */
  g_assert_cmpfloat (fx_model_joint (m, 1)->mass, ==, 2.5);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Merge Joints");

  /* it is a valid model: every reference names a joint there */
  g_autoptr (GError) error = NULL;
  g_assert_true (fx_model_validate (m, &error));
  g_assert_no_error (error);

  /* one undo takes back the drag and the merge at once */
  g_assert_true (fx_document_undo (doc));
  m = fx_document_get_model (doc);
  g_assert_cmpuint (m->joints->len, ==, 4);
  g_assert_cmpfloat (fx_model_joint (m, 3)->at[0], ==, 1);
  g_assert_cmpfloat (fx_model_joint (m, 3)->at[1], ==, 1);
  g_assert_cmpfloat (fx_model_joint (m, 1)->mass, ==, 2);
  g_assert_cmpstr (fx_document_undo_label (doc), ==, "Add Load");

  /* a triangle's two corners cannot merge: their links to the third
   * corner would lie on one another */
  g_assert_true (fx_document_redo (doc));
  g_assert_cmpint (fx_document_add_link_at (doc, 2, 1, 0, 0, 1e-6, 4, &s), ==, 2);
  m = fx_document_get_model (doc);
  int c = fx_model_find_joint (m, fx_model_link (m, 1)->from);
  g_assert_false (fx_document_can_merge_joints (doc, (guint) c, 0));  /* C-B and A-B */
  g_assert_false (fx_document_merge_joints (doc, (guint) c, 0));
  g_assert_cmpuint (fx_document_get_model (doc)->joints->len, ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/document/add-undo-redo", test_add_undo_redo);
  g_test_add_func ("/document/add-link-at", test_add_link_at);
  g_test_add_func ("/document/delete-link-tidy", test_delete_link_tidy);
  g_test_add_func ("/document/move-merges", test_move_merges);
  g_test_add_func ("/document/merge-joints", test_merge_joints);
  g_test_add_func ("/document/delete-cascades", test_delete_cascades);
  g_test_add_func ("/document/body-attachment-deleted", test_body_attachment_deleted);
  g_test_add_func ("/document/save-and-title", test_save_and_title);
  g_test_add_func ("/document/support-ends-slider", test_support_ends_slider);
  g_test_add_func ("/document/history-cap", test_history_cap);
  return g_test_run ();
}
