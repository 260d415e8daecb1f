/* flexion-presets.c: material presets (flexion-presets.h). */
#include "flexion-presets.h"

#include <glib/gi18n.h>
#include <math.h>

static const FlexionMaterial materials[] = {
  { N_("Steel"), 210e9, 0.30, 7850 },
  { N_("Aluminium"), 70e9, 0.33, 2700 },
  { N_("Titanium"), 110e9, 0.34, 4500 },
  /* along the grain; a beam model cannot represent the other directions */
  { N_("Wood"), 11e9, 0.30, 600 },
  { N_("PLA (3D print)"), 3.5e9, 0.36, 1240 },
  /* a stiff elastomer, still linear elastic: large strains are out of scope */
  { N_("Rubber-like"), 10e6, 0.49, 1100 },
};

const FlexionMaterial *
flexion_materials (guint *n)
{
  *n = G_N_ELEMENTS (materials);
  return materials;
}

static gboolean
close_to (double a, double b)
{
  return fabs (a - b) <= 1e-9 * MAX (fabs (a), fabs (b));
}

int
flexion_material_of (const FxSection *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (materials); i++)
    if (close_to (s->E, materials[i].E) && close_to (s->nu, materials[i].nu)
        && close_to (s->rho, materials[i].rho))
      return (int) i;
  return -1;
}
