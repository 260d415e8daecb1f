/* flexion-presets.h: material presets for links drawn in the GUI.
 *
 * Typical room-temperature values, rounded, for teaching and first
 * designs; E, nu and rho stay editable after a preset fills them in. */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;   /* translatable, N_() */
  double E, nu, rho;  /* Pa, -, kg/m^3 */
} FlexionMaterial;

/* The presets, and how many. */
const FlexionMaterial *flexion_materials   (guint *n);
/* The preset the section's E, nu, rho match (relative 1e-9), or -1. */
int                    flexion_material_of (const FxSection *section);

G_END_DECLS
