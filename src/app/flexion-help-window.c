/* flexion-help-window.c: the bundled help page rendered with GTK
 * (flexion-help-window.h).
 *
 * The page is our own, simple HTML (help/html): a small tokenizer reads
 * its tags and text, and each element becomes text tags of a GtkTextBuffer:
 * headings, paragraphs, lists, definition lists, keys, links and pictures.
 * Whatever else an HTML page may hold is read as plain text, or skipped
 * (head, style, script), so a page edited by hand never breaks the help. */
#include "flexion-help-window.h"

#include <glib/gi18n.h>
#include <string.h>

struct _FlexionHelpWindow {
  AdwWindow parent_instance;
  AdwToastOverlay *toasts;
  GtkTextView *view;
  GtkTextBuffer *buffer;
  char *path;     /* the page shown */
  guint n_links, n_pictures;
};

/* the text's margin (px); a tag's margin replaces it, so tags add to it */
#define MARGIN 28

G_DEFINE_FINAL_TYPE (FlexionHelpWindow, flexion_help_window, ADW_TYPE_WINDOW)

/* ------------------------------------------------------------ rendering */

typedef struct {
  char *name;
  guint n_tags;    /* tags it pushed on the active stack */
} Open;

typedef struct {
  FlexionHelpWindow *win;
  GtkTextBuffer *buffer;
  GPtrArray *active;  /* GtkTextTag *: applied to text inserted now */
  GArray *open;       /* Open: elements not closed yet */
  int skip;           /* inside head, style, script, title */
  int list_depth;
  int ol_number[8];   /* per list depth: the next number, or 0 in a <ul> */
  gboolean space;     /* a blank is pending between words */
  char *dir;          /* the page's folder, for pictures and pages */
} Render;

static gboolean
at_line_start (Render *r)
{
  GtkTextIter end;
  gtk_text_buffer_get_end_iter (r->buffer, &end);
  return gtk_text_iter_starts_line (&end);
}

static void
insert (Render *r, const char *text)
{
  GtkTextIter end;
  gtk_text_buffer_get_end_iter (r->buffer, &end);
  int start = gtk_text_iter_get_offset (&end);
  gtk_text_buffer_insert (r->buffer, &end, text, -1);
  GtkTextIter a;
  gtk_text_buffer_get_iter_at_offset (r->buffer, &a, start);
  gtk_text_buffer_get_end_iter (r->buffer, &end);
  for (guint i = 0; i < r->active->len; i++)
    gtk_text_buffer_apply_tag (r->buffer, g_ptr_array_index (r->active, i), &a, &end);
}

static void
new_line (Render *r)
{
  if (!at_line_start (r))
    insert (r, "\n");
  r->space = FALSE;
}

/* Text between tags: entities decoded, runs of blanks as one. */
static void
text (Render *r, const char *s, gsize len)
{
  if (r->skip > 0)
    return;
  g_autofree char *raw = g_strndup (s, len);
  GString *out = g_string_new (NULL);
  for (const char *p = raw; *p; p++)
    {
      if (g_ascii_isspace (*p))
        {
          r->space = TRUE;
          continue;
        }
      /* one blank between words, none at the start of a line */
      if (r->space && !(out->len == 0 && at_line_start (r)))
        g_string_append_c (out, ' ');
      r->space = FALSE;
      if (*p == '&')
        {
          const char *semi = strchr (p, ';');
          static const struct { const char *name, *text; } entities[] = {
            { "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" }, { "apos", "'" },
            { "nbsp", "\u00a0" }, { "middot", "\u00b7" }, { "mdash", "\u2014" }, { "ndash", "\u2013" },
          };
          gboolean done = FALSE;
          if (semi && semi - p < 10)
            {
              g_autofree char *name = g_strndup (p + 1, semi - p - 1);
              if (name[0] == '#')
                {
                  gunichar c = name[1] == 'x' || name[1] == 'X' ? g_ascii_strtoull (name + 2, NULL, 16)
                                                                : g_ascii_strtoull (name + 1, NULL, 10);
                  if (g_unichar_validate (c) && c != 0)
                    g_string_append_unichar (out, c), done = TRUE;
                }
              for (guint i = 0; !done && i < G_N_ELEMENTS (entities); i++)
                if (g_str_equal (name, entities[i].name))
                  g_string_append (out, entities[i].text), done = TRUE;
            }
          if (done)
            {
              p = semi;
              continue;
            }
        }
      g_string_append_c (out, *p);
    }
  if (out->len > 0)
    insert (r, out->str);
  g_string_free (out, TRUE);
}

static const char *
attribute (GHashTable *attrs, const char *name)
{
  return attrs ? g_hash_table_lookup (attrs, name) : NULL;
}

static GtkTextTag *
named_tag (Render *r, const char *name)
{
  return gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (r->buffer), name);
}

static void
push (Render *r, GtkTextTag *tag, guint *n)
{
  if (tag)
    g_ptr_array_add (r->active, tag), (*n)++;
}

/* A list item's indent, one tag per depth. */
static GtkTextTag *
indent_tag (Render *r, int depth)
{
  char name[32];
  g_snprintf (name, sizeof name, "indent-%d", depth);
  GtkTextTag *tag = named_tag (r, name);
  if (tag == NULL)
    tag = gtk_text_buffer_create_tag (r->buffer, name, "left-margin", MARGIN + 6 + 22 * depth,
                                      "indent", -16, NULL);
  return tag;
}

static void
picture (Render *r, GHashTable *attrs)
{
  const char *src = attribute (attrs, "src"), *alt = attribute (attrs, "alt");
  g_autofree char *file = src && !strchr (src, ':') ? g_build_filename (r->dir, src, NULL) : NULL;
  /* at most the text's width, so a screenshot never needs sideways scrolling */
  g_autoptr (GdkPixbuf) pixbuf = file ? gdk_pixbuf_new_from_file_at_scale (file, 640, 640, TRUE, NULL) : NULL;
  if (pixbuf == NULL)
    {
      g_autofree char *shown = g_strdup_printf ("[%s]", alt ? alt : src ? src : "?");
      text (r, shown, strlen (shown));
      return;
    }
  g_autoptr (GdkTexture) texture = gdk_texture_new_for_pixbuf (pixbuf);
  GtkTextIter end;
  gtk_text_buffer_get_end_iter (r->buffer, &end);
  gtk_text_buffer_insert_paintable (r->buffer, &end, GDK_PAINTABLE (texture));
  r->win->n_pictures++;
}

static gboolean
is_block (const char *name)
{
  static const char *const blocks[] = { "p", "h1", "h2", "h3", "h4", "li", "dt", "dd", "ul", "ol",
                                        "dl", "div", "pre", "blockquote", "table", "tr", "figure" };
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    if (g_str_equal (name, blocks[i]))
      return TRUE;
  return FALSE;
}

static void
open_element (Render *r, const char *name, GHashTable *attrs)
{
  Open o = { g_strdup (name), 0 };
  const char *cls = attribute (attrs, "class"), *id = attribute (attrs, "id");

  if (g_str_equal (name, "head") || g_str_equal (name, "style") || g_str_equal (name, "script")
      || g_str_equal (name, "title"))
    r->skip++;
  if (is_block (name))
    new_line (r);
  else if (r->space && r->skip == 0 && !at_line_start (r))
    {
      /* the blank before an inline element is outside it: no key cap or
       * underline under it */
      insert (r, " ");
      r->space = FALSE;
    }
  if (id && r->skip == 0)
    {
      g_autofree char *mark = g_strconcat ("anchor:", id, NULL);
      GtkTextIter end;
      gtk_text_buffer_get_end_iter (r->buffer, &end);
      if (gtk_text_buffer_get_mark (r->buffer, mark) == NULL)
        gtk_text_buffer_create_mark (r->buffer, mark, &end, TRUE);
    }
  if (g_str_equal (name, "ul") || g_str_equal (name, "ol"))
    {
      r->list_depth = MIN (r->list_depth + 1, (int) G_N_ELEMENTS (r->ol_number) - 1);
      r->ol_number[r->list_depth] = g_str_equal (name, "ol") ? 1 : 0;
    }
  else if (g_str_equal (name, "li"))
    {
      push (r, indent_tag (r, MAX (r->list_depth, 1)), &o.n_tags);
      push (r, named_tag (r, "p"), &o.n_tags);
      char bullet[16];
      int *number = &r->ol_number[r->list_depth];
      if (*number > 0)
        g_snprintf (bullet, sizeof bullet, "%d.\u2002", (*number)++);
      else
        g_snprintf (bullet, sizeof bullet, "\u2022\u2002");
      insert (r, bullet);
    }
  else if (g_str_equal (name, "a") && attribute (attrs, "href"))
    {
      /* a tag of its own, holding where it leads */
      GtkTextTag *link = gtk_text_buffer_create_tag (r->buffer, NULL, NULL);
      g_object_set_data_full (G_OBJECT (link), "href", g_strdup (attribute (attrs, "href")), g_free);
      push (r, link, &o.n_tags);
      push (r, named_tag (r, "a"), &o.n_tags);
      r->win->n_links++;
    }
  else if (g_str_equal (name, "img"))
    picture (r, attrs);
  else if (g_str_equal (name, "br"))
    insert (r, "\n"), r->space = FALSE;
  else
    {
      push (r, named_tag (r, name), &o.n_tags);
      if (cls)
        push (r, named_tag (r, cls), &o.n_tags);
    }
  static const char *const empty[] = { "img", "br", "meta", "link", "hr", "input" };
  for (guint i = 0; i < G_N_ELEMENTS (empty); i++)
    if (g_str_equal (name, empty[i]))
      {
        for (guint t = 0; t < o.n_tags; t++)
          g_ptr_array_remove_index (r->active, r->active->len - 1);
        g_free (o.name);
        return;
      }
  g_array_append_val (r->open, o);
}

/* Closes `name` and whatever was left open inside it. */
static void
close_element (Render *r, const char *name)
{
  int k = (int) r->open->len - 1;
  while (k >= 0 && !g_str_equal (g_array_index (r->open, Open, k).name, name))
    k--;
  if (k < 0)
    return;
  while ((int) r->open->len > k)
    {
      Open *o = &g_array_index (r->open, Open, r->open->len - 1);
      for (guint t = 0; t < o->n_tags && r->active->len > 0; t++)
        g_ptr_array_remove_index (r->active, r->active->len - 1);
      if (g_str_equal (o->name, "head") || g_str_equal (o->name, "style") || g_str_equal (o->name, "script")
          || g_str_equal (o->name, "title"))
        r->skip = MAX (r->skip - 1, 0);
      if (g_str_equal (o->name, "ul") || g_str_equal (o->name, "ol"))
        r->list_depth = MAX (r->list_depth - 1, 0);
      if (is_block (o->name) && r->skip == 0)
        new_line (r);
      g_free (o->name);
      g_array_set_size (r->open, r->open->len - 1);
    }
}

/* A tag "<name a="v" b>" from p (after '<') to its '>': returns what follows. */
static const char *
tag (Render *r, const char *p)
{
  gboolean closing = *p == '/';
  if (closing)
    p++;
  const char *n = p;
  while (*p && (g_ascii_isalnum (*p)))
    p++;
  g_autofree char *name = g_ascii_strdown (n, p - n);
  g_autoptr (GHashTable) attrs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while (*p && *p != '>')
    {
      while (g_ascii_isspace (*p) || *p == '/')
        p++;
      const char *a = p;
      while (*p && !g_ascii_isspace (*p) && *p != '=' && *p != '>' && *p != '/')
        p++;
      if (p == a)
        {
          if (*p && *p != '>')
            p++;
          continue;
        }
      char *key = g_ascii_strdown (a, p - a), *value = g_strdup ("");
      if (*p == '=')
        {
          p++;
          char quote = *p == '"' || *p == '\'' ? *p++ : 0;
          const char *v = p;
          while (*p && (quote ? *p != quote : !g_ascii_isspace (*p) && *p != '>'))
            p++;
          g_free (value);
          value = g_strndup (v, p - v);
          if (quote && *p)
            p++;
        }
      g_hash_table_replace (attrs, key, value);
    }
  if (*name)
    {
      if (closing)
        close_element (r, name);
      else
        open_element (r, name, attrs);
    }
  return *p ? p + 1 : p;
}

static void
render (Render *r, const char *html)
{
  const char *p = html;
  while (*p)
    {
      const char *lt = strchr (p, '<');
      if (lt == NULL)
        {
          text (r, p, strlen (p));
          break;
        }
      text (r, p, lt - p);
      if (g_str_has_prefix (lt, "<!--"))
        {
          const char *end = strstr (lt, "-->");
          p = end ? end + 3 : lt + strlen (lt);
        }
      else if (lt[1] == '!' || lt[1] == '?')
        {
          const char *end = strchr (lt, '>');
          p = end ? end + 1 : lt + strlen (lt);
        }
      else
        p = tag (r, lt + 1);
    }
}

static void
create_tags (GtkTextBuffer *b)
{
  gtk_text_buffer_create_tag (b, "h1", "weight", PANGO_WEIGHT_BOLD, "scale", 1.8,
                              "pixels-above-lines", 6, "pixels-below-lines", 10, NULL);
  gtk_text_buffer_create_tag (b, "h2", "weight", PANGO_WEIGHT_BOLD, "scale", 1.45,
                              "pixels-above-lines", 22, "pixels-below-lines", 8, NULL);
  gtk_text_buffer_create_tag (b, "h3", "weight", PANGO_WEIGHT_BOLD, "scale", 1.15,
                              "pixels-above-lines", 14, "pixels-below-lines", 4, NULL);
  gtk_text_buffer_create_tag (b, "p", "pixels-below-lines", 8, NULL);
  gtk_text_buffer_create_tag (b, "dt", "weight", PANGO_WEIGHT_BOLD, "pixels-above-lines", 6, NULL);
  gtk_text_buffer_create_tag (b, "dd", "left-margin", MARGIN + 24, "pixels-below-lines", 6, NULL);
  gtk_text_buffer_create_tag (b, "b", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (b, "strong", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (b, "gui", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (b, "em", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (b, "i", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (b, "code", "family", "monospace", NULL);
  gtk_text_buffer_create_tag (b, "kbd", "family", "monospace", "weight", PANGO_WEIGHT_BOLD,
                              "background", "rgba(128,128,128,0.22)", NULL);
  gtk_text_buffer_create_tag (b, "a", "foreground", "#3584e4", "underline", PANGO_UNDERLINE_SINGLE, NULL);
  gtk_text_buffer_create_tag (b, "note", "paragraph-background", "rgba(229,165,10,0.16)",
                              "left-margin", MARGIN + 12, "right-margin", MARGIN + 12, "pixels-above-lines", 4,
                              "pixels-below-lines", 10, NULL);
}

static gboolean
load (FlexionHelpWindow *self, const char *path)
{
  g_autofree char *html = NULL;
  g_autoptr (GError) error = NULL;
  GtkTextIter a, b;

  self->n_links = self->n_pictures = 0;
  gtk_text_buffer_get_bounds (self->buffer, &a, &b);
  gtk_text_buffer_delete (self->buffer, &a, &b);
  if (path == NULL || !g_file_get_contents (path, &html, NULL, &error)
      || !g_utf8_validate (html, -1, NULL))
    {
      g_autofree char *msg = g_strdup_printf (_("The help page %s cannot be read: %s"),
                                              path ? path : "index.html",
                                              error ? error->message : _("not found or not UTF-8"));
      gtk_text_buffer_set_text (self->buffer, msg, -1);
      return FALSE;
    }
  g_free (self->path);
  self->path = g_strdup (path);
  Render r = { self, self->buffer, g_ptr_array_new (), g_array_new (FALSE, TRUE, sizeof (Open)),
               0, 0, { 0 }, FALSE, g_path_get_dirname (path) };
  render (&r, html);
  for (guint i = 0; i < r.open->len; i++)
    g_free (g_array_index (r.open, Open, i).name);
  g_array_unref (r.open);
  g_ptr_array_unref (r.active);
  g_free (r.dir);
  gtk_text_buffer_get_start_iter (self->buffer, &a);
  gtk_text_buffer_place_cursor (self->buffer, &a);
  return TRUE;
}

/* ---------------------------------------------------------------- links */

gboolean
flexion_help_window_show_anchor (FlexionHelpWindow *self, const char *anchor)
{
  g_autofree char *name = g_strconcat ("anchor:", anchor, NULL);
  GtkTextMark *mark = gtk_text_buffer_get_mark (self->buffer, name);
  if (mark == NULL)
    return FALSE;
  gtk_text_view_scroll_to_mark (self->view, mark, 0, TRUE, 0, 0);
  return TRUE;
}

static void
on_uri_shown (GObject *source, GAsyncResult *result, gpointer data)
{
  FlexionHelpWindow *self = data;
  g_autoptr (GError) error = NULL;
  if (!gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      /* no browser: the address, to type in elsewhere */
      const char *uri = g_object_get_data (G_OBJECT (self), "uri");
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), uri);
      g_autofree char *msg = g_strdup_printf (_("No web browser to open %s: the address is copied"), uri);
      adw_toast_overlay_add_toast (self->toasts, adw_toast_new (msg));
    }
  g_object_unref (self);
}

static void
follow (FlexionHelpWindow *self, const char *href)
{
  if (href[0] == '#')
    {
      flexion_help_window_show_anchor (self, href + 1);
      return;
    }
  if (strchr (href, ':') == NULL)
    {
      /* another bundled page, maybe at an anchor */
      g_auto (GStrv) parts = g_strsplit (href, "#", 2);
      g_autofree char *dir = g_path_get_dirname (self->path);
      g_autofree char *page = g_build_filename (dir, parts[0], NULL);
      if (load (self, page) && parts[1])
        flexion_help_window_show_anchor (self, parts[1]);
      return;
    }
  g_object_set_data_full (G_OBJECT (self), "uri", g_strdup (href), g_free);
  gtk_show_uri_full (GTK_WINDOW (self), href, GDK_CURRENT_TIME, NULL, on_uri_shown, g_object_ref (self));
}

static const char *
href_at (FlexionHelpWindow *self, double x, double y)
{
  int bx, by;
  GtkTextIter iter;
  gtk_text_view_window_to_buffer_coords (self->view, GTK_TEXT_WINDOW_WIDGET, (int) x, (int) y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (self->view, &iter, bx, by))
    return NULL;
  GSList *tags = gtk_text_iter_get_tags (&iter);
  const char *href = NULL;
  for (GSList *l = tags; l && !href; l = l->next)
    href = g_object_get_data (l->data, "href");
  g_slist_free (tags);
  return href;
}

static void
on_released (GtkGestureClick *gesture, int n, double x, double y, FlexionHelpWindow *self)
{
  GtkTextIter a, b;
  if (gtk_text_buffer_get_selection_bounds (self->buffer, &a, &b))
    return;  /* the end of a selection, not a click */
  const char *href = href_at (self, x, y);
  if (href)
    {
      g_autofree char *copy = g_strdup (href);  /* the page may be replaced */
      follow (self, copy);
    }
}

static void
on_motion (GtkEventControllerMotion *c, double x, double y, FlexionHelpWindow *self)
{
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->view), href_at (self, x, y) ? "pointer" : "text");
}

static void
on_top (FlexionHelpWindow *self)
{
  GtkTextIter start;
  gtk_text_buffer_get_start_iter (self->buffer, &start);
  gtk_text_view_scroll_to_iter (self->view, &start, 0, TRUE, 0, 0);
}

/* ---------------------------------------------------------------- page */

char *
flexion_help_page_path (void)
{
  const char *const dirs[] = {
    FLEXION_PKGDATADIR "/help",
#ifdef FLEXION_SOURCE_HELP
    FLEXION_SOURCE_HELP "/html",  /* run from the build tree */
#endif
  };
  const char *const *langs = g_get_language_names ();
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      for (guint i = 0; langs[i]; i++)
        {
          if (g_str_equal (langs[i], "C") || strchr (langs[i], '.') || strchr (langs[i], '@'))
            continue;
          g_autofree char *name = g_strdup_printf ("index.%s.html", langs[i]);
          g_autofree char *path = g_build_filename (dirs[d], name, NULL);
          if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
            return g_steal_pointer (&path);
        }
      g_autofree char *path = g_build_filename (dirs[d], "index.html", NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&path);
    }
  return NULL;
}

char *
flexion_help_window_dup_text (FlexionHelpWindow *self)
{
  GtkTextIter a, b;
  gtk_text_buffer_get_bounds (self->buffer, &a, &b);
  return gtk_text_buffer_get_text (self->buffer, &a, &b, FALSE);
}

guint
flexion_help_window_n_links (FlexionHelpWindow *self)
{
  return self->n_links;
}

guint
flexion_help_window_n_pictures (FlexionHelpWindow *self)
{
  return self->n_pictures;
}

static void
flexion_help_window_finalize (GObject *object)
{
  g_free (FLEXION_HELP_WINDOW (object)->path);
  G_OBJECT_CLASS (flexion_help_window_parent_class)->finalize (object);
}

static void
flexion_help_window_class_init (FlexionHelpWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flexion_help_window_finalize;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
flexion_help_window_init (FlexionHelpWindow *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Flexion Help"));
  gtk_window_set_default_size (GTK_WINDOW (self), 760, 700);

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  gtk_box_append (GTK_BOX (box), header);
  GtkWidget *contents = gtk_button_new_from_icon_name ("go-top-symbolic");
  gtk_widget_set_tooltip_text (contents, _("Back to the contents"));
  g_signal_connect_swapped (contents, "clicked", G_CALLBACK (on_top), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), contents);

  self->view = GTK_TEXT_VIEW (gtk_text_view_new ());
  self->buffer = gtk_text_view_get_buffer (self->view);
  create_tags (self->buffer);
  gtk_text_view_set_editable (self->view, FALSE);
  gtk_text_view_set_cursor_visible (self->view, FALSE);
  gtk_text_view_set_wrap_mode (self->view, GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_left_margin (self->view, MARGIN);
  gtk_text_view_set_right_margin (self->view, MARGIN);
  gtk_text_view_set_top_margin (self->view, 18);
  gtk_text_view_set_bottom_margin (self->view, 28);
  gtk_text_view_set_pixels_inside_wrap (self->view, 2);
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (click));
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view), motion);

  GtkWidget *scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);
  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toasts, scroller);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toasts));
  adw_window_set_content (ADW_WINDOW (self), box);
}

GtkWidget *
flexion_help_window_new (const char *path)
{
  FlexionHelpWindow *self = g_object_new (FLEXION_TYPE_HELP_WINDOW, NULL);
  load (self, path);
  return GTK_WIDGET (self);
}
