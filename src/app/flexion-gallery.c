/* flexion-gallery.c: the examples gallery.
 *
 * Every card shows a thumbnail drawn by the same cairo code as the canvas
 * (fx_scene_draw), so an example looks in the gallery as it will once
 * opened. Thumbnails are rendered once into textures rather than drawn on
 * every frame: the gallery scrolls, and a dozen scenes redrawn per frame
 * would be wasted work for pictures that never change (except with the
 * light/dark style, which re-renders them).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gi18n.h>

#include "flexion-gallery.h"
#include "fx-model-io.h"
#include "fx-scene.h"

#define THUMB_WIDTH  280
#define THUMB_HEIGHT 180
/* The fit covers joints and nodes only: the margin leaves room for the
 * glyphs drawn around them (supports, load arrows, moment arcs). */
#define THUMB_MARGIN 28

struct _FlexionGallery
{
  AdwWindow          parent_instance;

  char              *examples_dir;
  GtkScrolledWindow *scroller;
  GtkFlowBox        *flow;
};

G_DEFINE_FINAL_TYPE (FlexionGallery, flexion_gallery, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_EXAMPLES_DIR,
  N_PROPS
};

enum {
  EXAMPLE_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The model drawn into a texture. The texture takes over the cairo
 * surface's pixels (ARGB32 is premultiplied BGRA on little-endian, which
 * is GDK_MEMORY_DEFAULT) so nothing is copied. */
static GdkTexture *
render_thumbnail (const FxModel *model,
                  gboolean       dark)
{
  g_autoptr(FxStepFrame) frame = fx_step_frame_new_from_model (model);
  cairo_surface_t *surface;
  cairo_t *cr;
  FxSceneStyle style;
  FxView view = { 100, THUMB_WIDTH / 2.0, THUMB_HEIGHT / 2.0 };
  double bbox[4];
  GBytes *bytes;
  GdkTexture *texture;
  int stride;

  fx_scene_style_init (&style);
  style.dark = dark;
  style.transparent = FALSE;
  style.show_grid = FALSE;
  style.show_time = FALSE;
  style.show_colorbar = FALSE;
  style.show_causality = FALSE;
  style.show_initial = FALSE;

  if (fx_scene_bounds (frame, bbox))
    fx_view_fit (&view, bbox, THUMB_WIDTH, THUMB_HEIGHT, THUMB_MARGIN);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, THUMB_WIDTH, THUMB_HEIGHT);
  cr = cairo_create (surface);
  fx_scene_draw (cr, model, frame, NULL, &view, &style, THUMB_WIDTH, THUMB_HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  stride = cairo_image_surface_get_stride (surface);
  bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface),
                                      (gsize) stride * THUMB_HEIGHT,
                                      (GDestroyNotify) cairo_surface_destroy,
                                      surface);
  texture = gdk_memory_texture_new (THUMB_WIDTH, THUMB_HEIGHT, GDK_MEMORY_DEFAULT,
                                    bytes, stride);
  g_bytes_unref (bytes);

  return texture;
}

static gboolean
is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

/* The model's own name, else the file name without ".flexion". */
static char *
dup_display_name (const FxModel *model,
                  const char    *path)
{
  g_autofree char *basename = NULL;

  if (model->name != NULL && model->name[0] != '\0')
    return g_strdup (model->name);

  basename = g_path_get_basename (path);
  if (g_str_has_suffix (basename, ".flexion"))
    basename[strlen (basename) - strlen (".flexion")] = '\0';

  return g_steal_pointer (&basename);
}

static GtkWidget *
create_label (const char *text,
              const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, css_class);

  return label;
}

/* A card for `model`, which it takes: the model stays with the card so
 * the thumbnail can be drawn again when the style turns light or dark. */
static GtkWidget *
create_card (FxModel    *model,
             const char *path)
{
  g_autoptr(GdkTexture) texture = render_thumbnail (model, is_dark ());
  g_autofree char *name = dup_display_name (model, path);
  const char *description = model->description ? model->description : "";
  GtkWidget *child, *card, *picture, *text, *title, *subtitle;

  picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), FALSE);

  title = create_label (name, "heading");

  /* Two lines at most, so that one long description does not stretch
   * every card of the (homogeneous) grid; the tooltip has the rest. A
   * tiny max-width lets the picture, not the text, set the card's width. */
  subtitle = create_label (description, "dim-label");
  gtk_label_set_wrap (GTK_LABEL (subtitle), TRUE);
  gtk_label_set_lines (GTK_LABEL (subtitle), 2);
  gtk_label_set_max_width_chars (GTK_LABEL (subtitle), 1);
  gtk_label_set_yalign (GTK_LABEL (subtitle), 0);
  gtk_widget_set_vexpand (subtitle, TRUE);

  text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (text, 12);
  gtk_widget_set_margin_end (text, 12);
  gtk_widget_set_margin_top (text, 10);
  gtk_widget_set_margin_bottom (text, 12);
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), subtitle);

  /* Hidden overflow clips the thumbnail to the card's rounded corners. */
  card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "activatable");
  gtk_widget_set_overflow (card, GTK_OVERFLOW_HIDDEN);
  gtk_box_append (GTK_BOX (card), picture);
  gtk_box_append (GTK_BOX (card), text);

  child = gtk_flow_box_child_new ();
  gtk_flow_box_child_set_child (GTK_FLOW_BOX_CHILD (child), card);
  gtk_widget_set_tooltip_text (child, description[0] ? description : name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);

  g_object_set_data_full (G_OBJECT (child), "file",
                          g_file_new_for_path (path), g_object_unref);
  g_object_set_data_full (G_OBJECT (child), "model",
                          model, (GDestroyNotify) fx_model_free);
  g_object_set_data (G_OBJECT (child), "picture", picture);

  return child;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_utf8_collate (*(const char * const *) a, *(const char * const *) b);
}

/* The *.flexion files of `dir`, sorted by name; none if it is missing. */
static GPtrArray *
list_examples (const char *dir)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  const char *name;
  GDir *gdir;

  if (dir == NULL || (gdir = g_dir_open (dir, 0, &error)) == NULL)
    {
      g_debug ("No examples: %s", error ? error->message : "no directory");
      return paths;
    }

  while ((name = g_dir_read_name (gdir)) != NULL)
    if (g_str_has_suffix (name, ".flexion"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));

  g_dir_close (gdir);
  g_ptr_array_sort (paths, compare_paths);

  return paths;
}

static guint
populate (FlexionGallery *self)
{
  g_autoptr(GPtrArray) paths = list_examples (self->examples_dir);
  guint n_cards = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) error = NULL;
      FxModel *model = fx_model_load_file (path, NULL, &error);

      /* One broken example should not hide the others. */
      if (model == NULL)
        {
          g_warning ("Skipping example %s: %s", path, error->message);
          continue;
        }

      gtk_flow_box_append (self->flow, create_card (model, path));
      n_cards++;
    }

  return n_cards;
}

static void
show_empty (FlexionGallery *self)
{
  GtkWidget *status = adw_status_page_new ();

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "folder-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("No Examples"));
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
                                   _("No example mechanisms were found"));
  gtk_scrolled_window_set_child (self->scroller, status);
}

static void
on_dark_changed (AdwStyleManager *style_manager,
                 GParamSpec      *pspec G_GNUC_UNUSED,
                 FlexionGallery  *self)
{
  gboolean dark = adw_style_manager_get_dark (style_manager);
  GtkFlowBoxChild *child;

  for (int i = 0; (child = gtk_flow_box_get_child_at_index (self->flow, i)) != NULL; i++)
    {
      const FxModel *model = g_object_get_data (G_OBJECT (child), "model");
      GtkPicture *picture = g_object_get_data (G_OBJECT (child), "picture");
      g_autoptr(GdkTexture) texture = render_thumbnail (model, dark);

      gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
    }
}

static void
on_child_activated (GtkFlowBox      *flow G_GNUC_UNUSED,
                    GtkFlowBoxChild *child,
                    FlexionGallery  *self)
{
  /* Held across the emission: a handler may well destroy this window
   * (and with it the card that owns the file). */
  g_autoptr(FlexionGallery) hold = g_object_ref (self);
  g_autoptr(GFile) file = g_object_ref (g_object_get_data (G_OBJECT (child), "file"));

  g_signal_emit (self, signals[EXAMPLE_ACTIVATED], 0, file);
  gtk_window_close (GTK_WINDOW (self));
}

static void
flexion_gallery_constructed (GObject *object)
{
  FlexionGallery *self = FLEXION_GALLERY (object);

  G_OBJECT_CLASS (flexion_gallery_parent_class)->constructed (object);

  if (populate (self) == 0)
    show_empty (self);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (on_dark_changed), self, 0);
}

static void
flexion_gallery_finalize (GObject *object)
{
  FlexionGallery *self = FLEXION_GALLERY (object);

  g_free (self->examples_dir);

  G_OBJECT_CLASS (flexion_gallery_parent_class)->finalize (object);
}

static void
flexion_gallery_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  FlexionGallery *self = FLEXION_GALLERY (object);

  switch (prop_id)
    {
    case PROP_EXAMPLES_DIR:
      g_value_set_string (value, self->examples_dir);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flexion_gallery_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  FlexionGallery *self = FLEXION_GALLERY (object);

  switch (prop_id)
    {
    case PROP_EXAMPLES_DIR:
      self->examples_dir = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flexion_gallery_class_init (FlexionGalleryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = flexion_gallery_constructed;
  object_class->finalize = flexion_gallery_finalize;
  object_class->get_property = flexion_gallery_get_property;
  object_class->set_property = flexion_gallery_set_property;

  properties[PROP_EXAMPLES_DIR] =
    g_param_spec_string ("examples-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * FlexionGallery::example-activated:
   * @file: the example's file
   *
   * The user picked an example; the gallery closes right after.
   */
  signals[EXAMPLE_ACTIVATED] =
    g_signal_new ("example-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_FILE);

  /* AdwWindow does not close on Escape by itself, but a dialog should. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
flexion_gallery_init (FlexionGallery *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *flow = gtk_flow_box_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  /* Just wide enough for three columns of cards. */
  gtk_window_set_title (GTK_WINDOW (self), _("Examples"));
  gtk_window_set_default_size (GTK_WINDOW (self), 920, 640);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);

  /* Centred at its natural width: cards keep their thumbnail's size, and
   * the number of columns (2 to 4) follows the window's width. */
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (flow), TRUE);
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (flow), 2);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 4);
  gtk_flow_box_set_activate_on_single_click (GTK_FLOW_BOX (flow), TRUE);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  /* Flow box children have a padding of their own: 6 here makes 12. */
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (flow), 6);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow), 6);
  gtk_widget_set_halign (flow, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (flow, GTK_ALIGN_START);
  g_object_set (flow, "margin-start", 12, "margin-end", 12,
                "margin-top", 12, "margin-bottom", 12, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (flow),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Examples"), -1);
  g_signal_connect (flow, "child-activated", G_CALLBACK (on_child_activated), self);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), flow);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), scroller);
  adw_window_set_content (ADW_WINDOW (self), box);

  self->flow = GTK_FLOW_BOX (flow);
  self->scroller = GTK_SCROLLED_WINDOW (scroller);
}

GtkWidget *
flexion_gallery_new (GtkWindow  *parent,
                     const char *examples_dir)
{
  return g_object_new (FLEXION_TYPE_GALLERY,
                       "transient-for", parent,
                       "examples-dir", examples_dir,
                       NULL);
}
