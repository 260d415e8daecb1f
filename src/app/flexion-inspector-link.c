/* flexion-inspector-link.c: the inspector's rows for a link: its model and
 * formulation (with the conflicts and the fixes that work), section,
 * damping, probes and loads. */
#include "flexion-inspector-private.h"
#include "flexion-number-field.h"
#include "flexion-presets.h"
#include "fx-conflicts.h"
#include "fx-causality.h"
#include "flexion-rows.h"
#include "flexion-measure-view.h"

#include <glib/gi18n.h>
#include <math.h>

/* ---- link ---- */

static const FxFormulation formulation_order[] = {
  FX_FORMULATION_AUTO, FX_FORMULATION_FREE_FREE, FX_FORMULATION_CLAMPED_CLAMPED,
  FX_FORMULATION_PINNED, FX_FORMULATION_GUIDED,
};

static void
on_formulation (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  guint i = adw_combo_row_get_selected (row);
  if (i >= G_N_ELEMENTS (formulation_order))
    return;
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->formulation == formulation_order[i])
    return;
  fx_document_set_formulation (self->doc, self->link, formulation_order[i]);
}

/* The link's model: a floating-frame link chooses each end's causality and
 * is never rigid, so switching to it clears what it cannot take. */
static void
on_link_model (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  FxLinkKind kind = adw_combo_row_get_selected (row) == 1 ? FX_LINK_FLOATING_FRAME
                                                          : FX_LINK_GEOMETRICALLY_EXACT;
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->kind == kind)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxLink *l = fx_model_link (m, self->link);
  l->kind = kind;
  l->frame = FX_LINK_FRAME_MEAN_AXIS;
  l->kelvin_voigt = 0.0;
  if (kind == FX_LINK_FLOATING_FRAME)
    {
      l->formulation = FX_FORMULATION_AUTO;
      l->rigid = FALSE;
      l->damping = l->rotational_damping = 0.0;
      l->degree = 1;  /* its own Hermite elements */
    }
  else
    l->degree = FX_NEW_LINK_DEGREE;
  inspector_structural_edit (self, m, _("Set Link Model"));
}

static void
on_link_frame (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  FxLinkFrame frame = adw_combo_row_get_selected (row) == 1 ? FX_LINK_FRAME_ATTACHED
                                                            : FX_LINK_FRAME_MEAN_AXIS;
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->frame == frame)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_link (m, self->link)->frame = frame;
  inspector_structural_edit (self, m, _("Set Frame"));
}

static void
on_rigid (GtkSwitch *sw, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_link (m, self->link)->rigid = gtk_switch_get_active (sw);
  inspector_structural_edit (self, m, _("Set Rigid"));
}

/* Material damping presets (physics.md §13: steel 0.2-0.5 %, wood and
 * PLA 1-3 %, rubber 5-20 %), as eta = 2 zeta_1 / omega_1. */
static void
on_damping_preset (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  static const double zetas[] = { 0.0, 0.003, 0.02, 0.10 };
  guint sel = adw_combo_row_get_selected (row);
  if (sel == 0 || sel > G_N_ELEMENTS (zetas))  /* "Custom": as it is */
    return;
  const FxModel *cur = fx_document_get_model (self->doc);
  double w1 = fx_link_cantilever_omega (cur, fx_model_link (cur, self->link));
  double eta = w1 > 0.0 ? 2.0 * zetas[sel - 1] / w1 : 0.0;
  if (fx_model_link (cur, self->link)->kelvin_voigt == eta)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  fx_model_link (m, self->link)->kelvin_voigt = eta;
  inspector_structural_edit (self, m, _("Set Damping"));
}

static void
on_material (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  guint n, sel = adw_combo_row_get_selected (row);
  const FlexionMaterial *mat = flexion_materials (&n);
  if (sel == 0 || sel > n)  /* "Custom": the values as they are */
    return;
  mat += sel - 1;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxSection *s = &fx_model_link (m, self->link)->section;
  s->E = mat->E, s->nu = mat->nu, s->rho = mat->rho;
  fx_section_derive (s);
  inspector_structural_edit (self, m, _("Set Material"));
}

static void
on_shape (AdwComboRow *row, GParamSpec *pspec, FlexionInspector *self)
{
  FxShapeType shape = (FxShapeType) adw_combo_row_get_selected (row);
  if (fx_model_link (fx_document_get_model (self->doc), self->link)->section.shape == shape)
    return;
  FxModel *m = fx_document_begin_edit (self->doc);
  FxSection *s = &fx_model_link (m, self->link)->section;
  /* the new shape about as deep in the plane as the old one */
  double depth = s->shape == FX_SHAPE_RECTANGLE ? s->height
                 : s->shape == FX_SHAPE_SQUARE ? s->width : s->diameter;
  if (!(depth > 0))
    depth = 0.02;
  s->shape = shape;
  s->shear_factor = 0;  /* the shape's own */
  if (shape == FX_SHAPE_RECTANGLE && !(s->width > 0 && s->height > 0))
    s->width = 2 * depth, s->height = depth;
  if (shape == FX_SHAPE_SQUARE)
    s->width = depth;
  if (shape == FX_SHAPE_CIRCLE || shape == FX_SHAPE_TUBE)
    s->diameter = depth;
  if (shape == FX_SHAPE_TUBE && !(s->inner_diameter > 0 && s->inner_diameter < s->diameter))
    s->inner_diameter = 0.8 * depth;
  fx_section_derive (s);
  inspector_structural_edit (self, m, _("Set Section Shape"));
}

static void
on_section_form (AdwComboRow *row, GParamSpec *p, FlexionInspector *self)
{
  FxModel *m = fx_document_begin_edit (self->doc);
  FxSection *s = &fx_model_link (m, self->link)->section;
  if (adw_combo_row_get_selected (row) == 1)
    {
      if (!(s->E > 0))
        s->E = 210e9, s->nu = 0.3, s->rho = 7850;
      if (!(s->width > 0) || !(s->height > 0))
        s->shape = FX_SHAPE_RECTANGLE, s->width = 0.02, s->height = 0.01;
      fx_section_derive (s);
    }
  else
    s->form = FX_SECTION_CANONICAL;
  inspector_structural_edit (self, m, _("Set Section Form"));
}

/* The conflicts in plain sentences, then the fixes the solver confirmed,
 * best first; each is one undoable edit (win.apply-fix). */
void
inspector_conflict_rows (AdwPreferencesGroup *g, const FxModel *m, gboolean sentences_too)
{
  g_autoptr (GPtrArray) sentences = fx_conflict_sentences (m);
  for (guint i = 0; sentences_too && i < sentences->len; i++)
    {
      GtkWidget *label = inspector_paragraph (sentences->pdata[i]);
      gtk_widget_add_css_class (label, "error");
      adw_preferences_group_add (g, label);
    }
  g_autoptr (GPtrArray) fixes = fx_conflict_fixes (m);
  for (guint i = 0; i < fixes->len; i++)
    {
      const FxConflictFix *f = fixes->pdata[i];
      /* Translators: a button that applies a fix, e.g. "Fix: Set crank to Auto" */
      g_autofree char *label = g_strdup_printf (_("Fix: %s"), f->label);
      GtkWidget *b = inspector_button_row (g, label, "win.apply-fix", g_variant_new_string (f->machine),
                                 _("Checked: the model runs after this change"));
      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (b))), TRUE);
    }
}

static const char *
causality_name (FxCausality c)
{
  return c == FX_CAUSAL_F ? _("force in") : _("velocity in");
}

static const char *
formulation_label (FxFormulation f)
{
  switch (f)
    {
    case FX_FORMULATION_AUTO: return _("Auto");
    case FX_FORMULATION_FREE_FREE: return _("Free–free");
    case FX_FORMULATION_CLAMPED_CLAMPED: return _("Clamped–clamped");
    case FX_FORMULATION_PINNED: return _("Pinned");
    case FX_FORMULATION_GUIDED: return _("Guided");
    }
  return "";
}

/* The section, damping, probes and loads of link li. */
static void
show_link_section (FlexionInspector *self, const FxModel *m, guint li)
{
  const FxLink *l = fx_model_link (m, li);

  AdwPreferencesGroup *sec = inspector_add_group (self, _("Section"), NULL);
  const char *form_labels[] = { _("Stiffness and inertia"), _("Material and shape"), NULL };
  inspector_combo_row (sec, _("Given as"), NULL, form_labels, l->section.form == FX_SECTION_MATERIAL,
             G_CALLBACK (on_section_form), self);
  if (l->section.form == FX_SECTION_MATERIAL)
    {
      guint n_materials;
      const FlexionMaterial *materials = flexion_materials (&n_materials);
      g_autoptr (GPtrArray) material_names = g_ptr_array_new ();
      g_ptr_array_add (material_names, (gpointer) _("Custom"));
      for (guint i = 0; i < n_materials; i++)
        g_ptr_array_add (material_names, (gpointer) _(materials[i].name));
      g_ptr_array_add (material_names, NULL);
      inspector_combo_row (sec, _("Material"), _("Fills in E, ν and ρ, which stay editable"),
                 (const char *const *) material_names->pdata, flexion_material_of (&l->section) + 1,
                 G_CALLBACK (on_material), self);
      inspector_number_row (self, sec, _("Young's modulus E"), _("Pa"), l->section.E, 1, 1e13, F_LINK_E, li);
      inspector_number_row (self, sec, _("Poisson's ratio ν"), NULL, l->section.nu, 0, 0.5, F_LINK_NU, li);
      inspector_number_row (self, sec, _("Density ρ"), _("kg/m³"), l->section.rho, 0, 1e6, F_LINK_RHO, li);
      /* in FxShapeType order */
      const char *shapes[] = { _("Rectangle"), _("Square"), _("Round bar"), _("Tube"), NULL };
      inspector_combo_row (sec, _("Shape"), NULL, shapes, l->section.shape, G_CALLBACK (on_shape), self);
      switch (l->section.shape)
        {
        case FX_SHAPE_RECTANGLE:
          inspector_number_row (self, sec, _("Width (out of plane)"), _("m"), l->section.width, 1e-6, 100, F_LINK_WIDTH, li);
          inspector_number_row (self, sec, _("Height (in plane)"), _("m"), l->section.height, 1e-6, 100, F_LINK_HEIGHT, li);
          break;
        case FX_SHAPE_SQUARE:
          inspector_number_row (self, sec, _("Side"), _("m"), l->section.width, 1e-6, 100, F_LINK_WIDTH, li);
          break;
        case FX_SHAPE_CIRCLE:
          inspector_number_row (self, sec, _("Diameter"), _("m"), l->section.diameter, 1e-6, 100, F_LINK_DIAMETER, li);
          break;
        case FX_SHAPE_TUBE:
          inspector_number_row (self, sec, _("Outer diameter"), _("m"), l->section.diameter, 1e-6, 100, F_LINK_DIAMETER, li);
          inspector_number_row (self, sec, _("Inner diameter"), _("m"), l->section.inner_diameter, 0, 100, F_LINK_INNER, li);
          break;
        default:
          break;
        }
      g_autofree char *derived = g_strdup_printf ("EA %.4g N, EI %.4g N m², ρA %.4g kg/m",
                                                  l->section.EA, l->section.EI, l->section.rhoA);
      inspector_info_row (sec, _("Derived"), derived);
    }
  else
    {
      inspector_number_row (self, sec, _("Axial stiffness EA"), _("N"), l->section.EA, 0, 1e15, F_LINK_EA, li);
      if (l->kind != FX_LINK_FLOATING_FRAME)  /* Euler-Bernoulli: GA unused (physics.md 12.8) */
        inspector_number_row (self, sec, _("Shear stiffness GA"), _("N"), l->section.GA, 0, 1e15, F_LINK_GA, li);
      inspector_number_row (self, sec, _("Bending stiffness EI"), _("N m²"), l->section.EI, 0, 1e15, F_LINK_EI, li);
      inspector_number_row (self, sec, _("Mass per length ρA"), _("kg/m"), l->section.rhoA, 0, 1e9, F_LINK_RHOA, li);
      inspector_number_row (self, sec, _("Rotary inertia per length ρI"), _("kg m"), l->section.rhoI, 0, 1e9, F_LINK_RHOI, li);
    }

  AdwPreferencesGroup *more = inspector_add_group (self, _("Damping and Probes"), NULL);
  if (l->kind != FX_LINK_FLOATING_FRAME)
    {
      double w1 = fx_link_cantilever_omega (m, l);
      if (w1 > 0.0)
        {
          /* material damping: the ratio people know, eta beside it */
          static const double zetas[] = { 0.0, 0.3, 2.0, 10.0 };
          const char *presets[] = { _("Custom"), _("None"), _("Steel, 0.3 %"), _("Wood or PLA, 2 %"),
                                    _("Rubber-like, 10 %"), NULL };
          double zeta = 100.0 * l->kelvin_voigt * w1 / 2.0;
          guint sel = 0;
          for (guint k = 0; k < G_N_ELEMENTS (zetas); k++)
            if (fabs (zeta - zetas[k]) < 1e-9 * MAX (1.0, zetas[k]))
              sel = k + 1;
          inspector_combo_row (more, _("Material damping"), _("Kelvin–Voigt: the structure settles; "
                                                              "rigid motion is not damped"),
                               presets, sel, G_CALLBACK (on_damping_preset), self);
          g_autofree char *unit = g_strdup_printf (_("%% at the first frequency, %.3g Hz (η = %.3g s)"),
                                                   w1 / (2 * G_PI), l->kelvin_voigt);
          inspector_number_row (self, more, _("Damping ratio ζ₁"), unit, zeta, 0, 100, F_LINK_ZETA, li);
        }
      inspector_number_row (self, more, _("Viscous damping"), _("N s/m²"), l->damping, 0, 1e12, F_LINK_DAMPING, li);
      inspector_number_row (self, more, _("Rotational damping"), _("N m s/m"), l->rotational_damping, 0, 1e12,
                  F_LINK_ROT_DAMPING, li);
    }
  else
    /* C_d = eta K (physics.md 12.2), eta in seconds, >= 0 as the checker
     * wants (bounded like the other damping rows) */
    inspector_number_row (self, more, _("Kelvin–Voigt damping η"), _("s (damping = η × stiffness)"),
                          l->kelvin_voigt, 0, 1e12, F_LINK_KELVIN_VOIGT, li);
  for (guint i = 0; i < m->probes->len; i++)
    {
      const FxProbe *p = fx_model_probe (m, i);
      if (g_strcmp0 (p->link, l->id) != 0)
        continue;
      g_autofree char *t = g_strdup_printf (_("Probe %s at s"), p->id);
      inspector_number_row (self, more, t, _("fraction of length"), p->s, 0, 1, F_PROBE_S, i);
      inspector_menu_button_row (more, _("Plot"), flexion_measure_menu_new (FX_QUANTITY_PROBE, i, FX_HOLDS_NONE),
                       _("Plot the probe's position, velocity, section angle or stress resultants "
                         "during a run"));
      inspector_button_row (more, _("Remove Probe"), "win.remove-item", g_variant_new ("(su)", "probe", i), NULL);
    }
  for (guint i = 0; i < m->loads->len; i++)
    {
      const FxLoad *ld = fx_model_load (m, i);
      if (g_strcmp0 (ld->link, l->id) != 0)
        continue;
      inspector_number_row (self, more, _("Load at s"), _("fraction of length"), ld->s, 0, 1, F_LOAD_S, i);
      inspector_number_row (self, more, _("Load force x"), _("N"), ld->force[0], -1e12, 1e12, F_LOAD_FX, i);
      inspector_number_row (self, more, _("Load force y"), _("N"), ld->force[1], -1e12, 1e12, F_LOAD_FY, i);
      inspector_profile_rows (self, more, &ld->profile, i);
      inspector_button_row (more, _("Remove Load"), "win.remove-item", g_variant_new ("(su)", "load", i), NULL);
    }
  inspector_button_row (more, _("Add Probe at Midpoint"), "win.add-probe", NULL, _("Trace the path of the link's midpoint"));
  inspector_button_row (more, _("Delete Link"), "win.delete", NULL, NULL);
}

static void
link_rigid_rows (FlexionInspector *self, AdwPreferencesGroup *g, const FxLink *l, guint li)
{
  inspector_number_row (self, g, _("Elements"), NULL, l->elements, 1, 10000, F_LINK_ELEMENTS, li);
  GtkWidget *degree = inspector_number_row (self, g, _("Degree"), NULL, l->degree, 1, FX_MAX_DEGREE,
                                            F_LINK_DEGREE, li);
  gtk_widget_set_tooltip_text (degree, _("Polynomial degree of the elements: 2 or 3 reach a given "
                                         "accuracy with far fewer elements (frequencies converge "
                                         "as h^(2k))"));
  inspector_switch_row (g, _("Rigid"), _("No compliance: stresses become multipliers"), l->rigid,
              G_CALLBACK (on_rigid), self);
}

void
inspector_show_link (FlexionInspector *self, const FxModel *m, guint li)
{
  const FxLink *l = fx_model_link (m, li);
  g_autofree char *title = g_strdup_printf (_("Link %s"), l->id);
  gboolean floating = l->kind == FX_LINK_FLOATING_FRAME;
  /* what the model is, under the title: as the Model row's subtitle it
   * left the choice "Floatin…" at 1254 px */
  g_autofree char *desc = g_strdup_printf (_("From %s to %s, %.4g m long"), l->from, l->to,
                                           fx_link_length (m, l));
  g_autofree char *about = g_strdup_printf ("%s\n%s", desc,
                                            floating ? _("Floating frame: small linear-elastic bending "
                                                         "in a rigid frame; cheap, but no stiffening "
                                                         "under tension or spin")
                                                     : _("Geometrically exact: any rotation and strain, "
                                                         "the beam Flexion is built on"));
  AdwPreferencesGroup *g = inspector_add_group (self, title, about);

  const char *models[] = { _("Geometrically exact"), _("Floating frame"), NULL };
  inspector_combo_row (g, _("Model"), NULL, models, floating, G_CALLBACK (on_link_model), self);
  if (floating)
    {
      const char *frames[] = { _("Mean axes"), _("Attached"), NULL };
      inspector_combo_row (g, _("Frame"), _("Attached: at the first end, which must be clamped or driven"),
                 frames, l->frame == FX_LINK_FRAME_ATTACHED, G_CALLBACK (on_link_frame), self);
      g_autoptr (FxAssignment) fas = fx_assignment_compute (m);
      if (fx_assignment_ok (fas))
        {
          const FxLinkAssignment *la = &fas->links[li];
          g_autofree char *ends = g_strdup_printf (_("at %s: translation %s, rotation %s; at %s: "
                                                     "translation %s, rotation %s"),
                                                   l->from, causality_name (la->T_end[0]),
                                                   causality_name (la->R_end[0]), l->to,
                                                   causality_name (la->T_end[1]),
                                                   causality_name (la->R_end[1]));
          inspector_info_row (g, _("Ends"), ends);
        }
      /* the frame couples every element: the checker's limit */
      inspector_number_row (self, g, _("Elements"), NULL, l->elements, 1, FX_MAX_FLOATING_ELEMENTS,
                            F_LINK_ELEMENTS, li);
      show_link_section (self, m, li);
      return;
    }

  /* the lesson view leaves the ports to the solver while they fit
   * together: the rows a class needs come first (issue 32) */
  if (self->lesson)
    {
      g_autoptr (FxAssignment) fits = fx_assignment_compute (m);
      if (fx_assignment_ok (fits))
        {
          link_rigid_rows (self, g, l, li);
          show_link_section (self, m, li);
          return;
        }
    }

  /* each choice says whether the others leave it a consistent assignment */
  const char *names[] = { _("Auto"), _("Free–free"), _("Clamped–clamped"), _("Pinned"), _("Guided") };
  /* a string vector, freed whole (g_autofree on an array frees only its
   * first element) */
  g_auto (GStrv) marked = g_new0 (char *, G_N_ELEMENTS (names) + 1);
  const char *forms[G_N_ELEMENTS (names) + 1] = { NULL };
  {
    g_autoptr (FxModel) trial = fx_model_copy (m);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        fx_model_link (trial, li)->formulation = formulation_order[i];
        g_autoptr (FxAssignment) t = fx_assignment_compute (trial);
        /* Translators: a formulation in the menu, and whether it fits the others */
        marked[i] = g_strdup_printf (fx_assignment_ok (t) ? _("%s ✓") : _("%s — conflicts"), names[i]);
        forms[i] = marked[i];
      }
  }
  guint sel = 0;
  for (guint i = 0; i < G_N_ELEMENTS (formulation_order); i++)
    if (formulation_order[i] == l->formulation)
      sel = i;
  g_autoptr (FxAssignment) as = fx_assignment_compute (m);
  g_autofree char *chosen = NULL;
  if (fx_assignment_ok (as))
    {
      const FxLinkAssignment *la = &as->links[li];
      if (la->split)
        chosen = g_strdup_printf (_("Split at its midpoint: %s, then %s"),
                                  formulation_label (la->segment[0].formulation),
                                  formulation_label (la->segment[1].formulation));
      else
        chosen = g_strdup_printf (_("%s: translation %s, rotation %s"),
                                  formulation_label (la->formulation), causality_name (la->T),
                                  causality_name (la->R));
    }
  else
    chosen = g_strdup (_("No consistent assignment: see the conflicts below"));
  GtkWidget *combo = inspector_combo_row (g, _("Formulation"), chosen, forms, sel, G_CALLBACK (on_formulation), self);
  g_autofree char *split_note = fx_assignment_ok (as) ? fx_split_regulariser_note (as, li) : NULL;
  if (split_note)
    {
      GtkWidget *note = inspector_paragraph (split_note);
      gtk_widget_add_css_class (note, "dim-label");
      adw_preferences_group_add (g, note);
    }
  gtk_widget_set_tooltip_text (combo, _("Which ports of the link take force and which take "
                                        "velocity; Auto lets Flexion choose a consistent set"));
  if (!fx_assignment_ok (as))
    {
      /* in plain words, at the ends of this link; if none of them is at
       * fault, the model's conflicts, so "below" always lists them */
      g_autoptr (GPtrArray) ends = fx_conflict_ends (m);
      guint shown = 0;
      for (guint i = 0; i < ends->len; i++)
        {
          const FxConflictEnd *e = ends->pdata[i];
          if (e->link != li)
            continue;
          g_autofree char *where = g_strdup_printf (e->channel == FX_CHANNEL_ROTATION
                                                    ? _("Rotation at %s") : _("Translation at %s"),
                                                    e->at_to ? l->to : l->from);
          GtkWidget *row = adw_action_row_new ();
          g_autofree char *t = g_markup_escape_text (where, -1);
          g_autofree char *s = g_markup_escape_text (e->why, -1);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), s);
          gtk_widget_add_css_class (row, "error");
          adw_preferences_group_add (g, row);
          shown++;
        }
      AdwPreferencesGroup *c = inspector_add_group (self, shown ? _("Fixes") : _("Causality Conflicts"), NULL);
      inspector_conflict_rows (c, m, shown == 0);
      g = inspector_add_group (self, NULL, NULL);
    }
  link_rigid_rows (self, g, l, li);
  show_link_section (self, m, li);
}
