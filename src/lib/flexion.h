/* flexion.h: libflexion, the public GObject API over Flexion's engine
 * (models, runs, modes, ensembles), introspectable as Flexion-1.0. */
#pragma once

#define FLEXION_INSIDE
#include "flexion-error.h"
#include "flexion-types.h"
#include "flexion-enum-types.h"
#include "flexion-model.h"
#include "flexion-simulation.h"
#include "flexion-modes.h"
#include "flexion-ensemble.h"
#undef FLEXION_INSIDE
