/* flexion-preferences.c: the preferences window.
 *
 * Every row is bound straight to its GSettings key, so a change applies
 * at once (the main window listens to the same keys) and there is no
 * Apply button or state to keep here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n.h>

#include "flexion-preferences.h"
#include "flexion-number-field.h"

struct _FlexionPreferences
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
};

G_DEFINE_FINAL_TYPE (FlexionPreferences, flexion_preferences, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The nicks of the schema's enums, in the order of the combo rows' items. */
static const char * const style_nicks[] = { "default", "light", "dark", NULL };
static const char * const colormap_nicks[] = { "cool-warm", "green-purple", NULL };

static gboolean
nick_to_index (GValue   *value,
               GVariant *variant,
               gpointer  user_data)
{
  const char * const *nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nick, nicks[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
index_to_nick (const GValue       *value,
               const GVariantType *expected_type G_GNUC_UNUSED,
               gpointer            user_data)
{
  const char * const *nicks = user_data;
  guint index = g_value_get_uint (value);

  /* GTK_INVALID_LIST_POSITION while the model is being replaced. */
  if (index >= g_strv_length ((char **) nicks))
    return NULL;

  return g_variant_new_string (nicks[index]);
}

static GtkWidget *
create_row (AdwPreferencesGroup *group,
            const char          *title,
            const char          *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_preferences_group_add (group, row);

  return row;
}

/* A combo row over the enum key `key`; `items` label its nicks in order. */
static void
add_combo_row (AdwPreferencesGroup *group,
               GSettings           *settings,
               const char          *key,
               const char * const  *nicks,
               const char * const  *items,
               const char          *title)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr(GtkStringList) model = gtk_string_list_new (items);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  g_settings_bind_with_mapping (settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT,
                                nick_to_index, index_to_nick, (gpointer) nicks, NULL);
  adw_preferences_group_add (group, row);
}

static void
add_switch_row (AdwPreferencesGroup *group,
                GSettings           *settings,
                const char          *key,
                const char          *title,
                const char          *subtitle)
{
  GtkWidget *row = create_row (group, title, subtitle);
  GtkWidget *toggle = gtk_switch_new ();

  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
  g_settings_bind (settings, key, toggle, "active", G_SETTINGS_BIND_DEFAULT);
}

/* A row with a spin button over the double key `key`, in `unit`. The
 * binding goes to the adjustment so the spin button's own clamping and
 * rounding apply before the value is stored. */
static void
add_spin_row (AdwPreferencesGroup *group,
              GSettings           *settings,
              const char          *key,
              const char          *title,
              const char          *subtitle,
              const char          *unit,
              const char          *tooltip,
              double               lower,
              double               upper,
              double               step,
              guint                digits)
{
  GtkWidget *row = create_row (group, title, subtitle);
  GtkAdjustment *adjustment = gtk_adjustment_new (lower, lower, upper, step, 10 * step, 0);
  GtkWidget *spin = gtk_spin_button_new (adjustment, step, digits);
  GtkWidget *unit_label = gtk_label_new (unit);

  flexion_number_field_attach (GTK_SPIN_BUTTON (spin), FALSE);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (spin, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, tooltip,
                                  -1);
  gtk_widget_add_css_class (unit_label, "dim-label");

  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), unit_label);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  g_settings_bind (settings, key, adjustment, "value", G_SETTINGS_BIND_DEFAULT);
}

static AdwPreferencesGroup *
add_group (AdwPreferencesPage *page,
           const char         *title)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  adw_preferences_page_add (page, ADW_PREFERENCES_GROUP (group));

  return ADW_PREFERENCES_GROUP (group);
}

static void
add_appearance (AdwPreferencesPage *page,
                GSettings          *settings)
{
  AdwPreferencesGroup *group = add_group (page, _("Appearance"));
  const char *styles[] = { _("Follow System"), _("Light"), _("Dark"), NULL };
  const char *colormaps[] = { _("Cool–warm (blue–red)"), _("Green–purple"), NULL };

  add_combo_row (group, settings, "style", style_nicks, styles, _("Style"));
  add_combo_row (group, settings, "colormap", colormap_nicks, colormaps,
                 _("Colour Map"));
}

static void
add_canvas (AdwPreferencesPage *page,
            GSettings          *settings)
{
  AdwPreferencesGroup *group = add_group (page, _("Canvas"));

  add_switch_row (group, settings, "show-grid", _("Show Grid"), NULL);
  add_switch_row (group, settings, "snap-to-grid", _("Snap to Grid"),
                  _("Hold Shift while dragging to turn snapping off"));
  add_spin_row (group, settings, "grid-step", _("Grid Step"),
                _("0 follows the zoom (1, 2, 5 ladder)"),
                C_("unit symbol", "m"), _("Grid step in metres"),
                0, 100, 0.1, 3);
  add_switch_row (group, settings, "show-initial", _("Show Initial Configuration"),
                  _("A faint ghost of the drawn mechanism while running"));
  add_switch_row (group, settings, "show-trails", _("Probe Trails"),
                  _("The recent path of every probe"));
  add_switch_row (group, settings, "show-joint-gaps", _("Joint Gaps"),
                  _("Mark the distance between member ends at joints"));
  add_switch_row (group, settings, "show-causality", _("Causality Glyphs"),
                  _("Force-in or velocity-in at each link end"));
}

static void
add_simulation (AdwPreferencesPage *page,
                GSettings          *settings)
{
  AdwPreferencesGroup *group = add_group (page, _("Simulation"));

  add_spin_row (group, settings, "default-dt", _("Default Time Step"),
                _("Used for new models"),
                C_("unit symbol", "s"), _("Time step in seconds"),
                1e-5, 1, 1e-3, 5);
}

static void
add_start (AdwPreferencesPage *page,
           GSettings          *settings)
{
  AdwPreferencesGroup *group = add_group (page, _("Start"));

  add_switch_row (group, settings, "show-gallery-on-start", _("Show Examples Gallery on Start"),
                  _("When the application starts without a file"));
}

static void
flexion_preferences_constructed (GObject *object)
{
  FlexionPreferences *self = FLEXION_PREFERENCES (object);
  GtkWidget *page = adw_preferences_page_new ();

  G_OBJECT_CLASS (flexion_preferences_parent_class)->constructed (object);

  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (page), _("General"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (page), "preferences-system-symbolic");

  add_appearance (ADW_PREFERENCES_PAGE (page), self->settings);
  add_canvas (ADW_PREFERENCES_PAGE (page), self->settings);
  add_simulation (ADW_PREFERENCES_PAGE (page), self->settings);
  add_start (ADW_PREFERENCES_PAGE (page), self->settings);

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), ADW_PREFERENCES_PAGE (page));
}

static void
flexion_preferences_dispose (GObject *object)
{
  FlexionPreferences *self = FLEXION_PREFERENCES (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (flexion_preferences_parent_class)->dispose (object);
}

static void
flexion_preferences_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  FlexionPreferences *self = FLEXION_PREFERENCES (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flexion_preferences_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  FlexionPreferences *self = FLEXION_PREFERENCES (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
flexion_preferences_class_init (FlexionPreferencesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = flexion_preferences_constructed;
  object_class->dispose = flexion_preferences_dispose;
  object_class->get_property = flexion_preferences_get_property;
  object_class->set_property = flexion_preferences_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
flexion_preferences_init (FlexionPreferences *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
}

GtkWidget *
flexion_preferences_new (GtkWindow *parent,
                         GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (FLEXION_TYPE_PREFERENCES,
                       "transient-for", parent,
                       "settings", settings,
                       NULL);
}
