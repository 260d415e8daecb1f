/* test-models.h: small models built in code, shared by the physics tests. */
#pragma once

#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-system.h"
#include "fx-integrator.h"

#include <math.h>

/* An example model from data/examples ($FLEXION_EXAMPLES), loaded or the test fails. */
static inline FxModel *
test_load_example (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("FLEXION_EXAMPLES"), name, NULL);
  g_autoptr (GError) error = NULL;
  FxModel *m = fx_model_load_file (path, NULL, &error);
  g_assert_no_error (error);
  return m;
}

static inline FxLink *
test_add_link (FxModel *m, const char *id, const char *from, const char *to, guint n,
               double rhoA, double rhoI, double EA, double GA, double EI)
{
  FxLink *l = fx_model_add_link (m, id, from, to, n);
  fx_section_set_canonical (&l->section, rhoA, rhoI, EA, GA, EI);
  return l;
}

/* physics.md section 8: the flying spaghetti, loads as published */
static inline FxModel *
test_flying_spaghetti (guint n_elements)
{
  FxModel *m = fx_model_new ();
  m->gravity[0] = m->gravity[1] = 0.0;
  m->dt = 0.1;
  m->t_end = 15.0;
  fx_model_add_joint (m, "A", 0, 8);
  fx_model_add_joint (m, "B", 6, 0);
  test_add_link (m, "beam", "A", "B", n_elements, 1, 10, 1e4, 1e4, 100);
  FxLoad *ld = fx_model_add_joint_load (m, "B");
  ld->force[0] = 8;
  ld->force[1] = 0;
  ld->moment = -80;
  ld->profile.type = FX_PROFILE_STEP_OFF;
  ld->profile.t1 = 2.5;
  return m;
}

static inline FxSystem *
test_system (const FxModel *m)
{
  g_autoptr (GError) error = NULL;
  FxSystem *sys = fx_system_new (m, &error);
  if (sys == NULL)
    g_error ("model does not build: %s", error->message);
  return sys;
}
