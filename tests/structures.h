/* structures.h: the drawn structures of bench-topology and the topology
 * tests: Warren trusses, welded lattices, single links of equal size.
 * Steel links 4 cm square, welded joints, two pin supports, a 2 ms blow. */
#pragma once

#include "fx-model.h"

static inline void
steel (FxLink *l)
{
  l->formulation = FX_FORMULATION_AUTO;
  l->section.E = 2.1e11;
  l->section.nu = 0.3;
  l->section.rho = 7850;
  l->section.shape = FX_SHAPE_SQUARE;
  l->section.width = 0.04;
  l->section.shear_factor = 0;
  fx_section_derive (&l->section);
}

static inline FxJoint *
joint_ptr (FxModel *m, const char *id)
{
  return fx_model_joint (m, (guint) fx_model_find_joint (m, id));
}

static inline void
joint (FxModel *m, const char *id, double x, double y)
{
  FxJoint *j = fx_model_add_joint (m, id, x, y);
  j->kind = FX_JOINT_WELD;
}

static inline void
link (FxModel *m, guint *count, const char *a, const char *b, guint elements)
{
  g_autofree char *id = g_strdup_printf ("L%u", (*count)++);
  steel (fx_model_add_link (m, id, a, b, elements));
}

/* A blow: 20 kN down, a hat of 2 ms. */
static inline void
blow (FxModel *m, const char *at)
{
  FxLoad *ld = fx_model_add_joint_load (m, at);
  ld->force[1] = -2e4;
  ld->profile.type = FX_PROFILE_HAT;
  ld->profile.t0 = 0.0;
  ld->profile.t1 = 1e-3;
  ld->profile.t2 = 2e-3;
}

/* A Warren truss's joints: the bottom chord B0..Bn on two pins, the top
 * chord T0..Tn-1 half a panel along, welded. */
static inline FxModel *
warren_joints (guint panels)
{
  FxModel *m = fx_model_new ();
  char a[32];
  for (guint i = 0; i <= panels; i++)
    {
      g_snprintf (a, sizeof a, "B%u", i);
      joint (m, a, i, 0.0);
    }
  for (guint i = 0; i < panels; i++)
    {
      g_snprintf (a, sizeof a, "T%u", i);
      joint (m, a, i + 0.5, 0.866);
    }
  joint_ptr (m, "B0")->support = FX_SUPPORT_PIN;
  g_snprintf (a, sizeof a, "B%u", panels);
  joint_ptr (m, a)->support = FX_SUPPORT_PIN;
  return m;
}

/* The blow at the top chord's middle, and the step it is resolved with. */
static inline FxModel *
warren_struck (FxModel *m, guint panels)
{
  char a[32];
  g_snprintf (a, sizeof a, "T%u", panels / 2);
  blow (m, a);
  m->dt = 5e-4;
  return m;
}

static inline FxModel *
warren (guint panels, guint elements)
{
  FxModel *m = warren_joints (panels);
  guint count = 0;
  char a[32], b[32];
  for (guint i = 0; i < panels; i++)
    {
      char t[32];
      g_snprintf (a, sizeof a, "B%u", i);
      g_snprintf (b, sizeof b, "B%u", i + 1);
      g_snprintf (t, sizeof t, "T%u", i);
      link (m, &count, a, b, elements);
      link (m, &count, a, t, elements);
      link (m, &count, t, b, elements);
      if (i + 1 < panels)
        {
          g_snprintf (a, sizeof a, "T%u", i + 1);
          link (m, &count, t, a, elements);
        }
    }
  return warren_struck (m, panels);
}

/* The same truss as a teacher draws it: the bottom chord left to right, then
 * the top chord, then the diagonals. Numbered link after link, junctions then
 * join unknowns far apart (the banded solver's worst case). */
static inline FxModel *
warren_drawn (guint panels, guint elements)
{
  FxModel *m = warren_joints (panels);
  guint count = 0;
  char a[32], b[32];
  for (guint i = 0; i < panels; i++)
    {
      g_snprintf (a, sizeof a, "B%u", i);
      g_snprintf (b, sizeof b, "B%u", i + 1);
      link (m, &count, a, b, elements);
    }
  for (guint i = 0; i + 1 < panels; i++)
    {
      g_snprintf (a, sizeof a, "T%u", i);
      g_snprintf (b, sizeof b, "T%u", i + 1);
      link (m, &count, a, b, elements);
    }
  for (guint i = 0; i < panels; i++)
    {
      g_snprintf (a, sizeof a, "B%u", i);
      g_snprintf (b, sizeof b, "T%u", i);
      link (m, &count, a, b, elements);
      g_snprintf (a, sizeof a, "B%u", i + 1);
      link (m, &count, b, a, elements);
    }
  return warren_struck (m, panels);
}

static inline FxModel *
lattice (guint cells, guint elements)
{
  FxModel *m = fx_model_new ();
  guint count = 0;
  char a[32], b[32];
  for (guint r = 0; r <= cells; r++)
    for (guint c = 0; c <= cells; c++)
      {
        g_snprintf (a, sizeof a, "N%u_%u", r, c);
        joint (m, a, c, r);
      }
  joint_ptr (m, "N0_0")->support = FX_SUPPORT_PIN;
  g_snprintf (a, sizeof a, "N0_%u", cells);
  joint_ptr (m, a)->support = FX_SUPPORT_PIN;
  for (guint r = 0; r <= cells; r++)
    for (guint c = 0; c <= cells; c++)
      {
        g_snprintf (a, sizeof a, "N%u_%u", r, c);
        if (c < cells)
          {
            g_snprintf (b, sizeof b, "N%u_%u", r, c + 1);
            link (m, &count, a, b, elements);
          }
        if (r < cells)
          {
            g_snprintf (b, sizeof b, "N%u_%u", r + 1, c);
            link (m, &count, a, b, elements);
          }
      }
  g_snprintf (a, sizeof a, "N%u_%u", cells, cells / 2);
  blow (m, a);
  m->dt = 5e-4;
  return m;
}

/* One free steel link of `elements` elements, struck at its end. */
static inline FxModel *
single (guint elements)
{
  FxModel *m = fx_model_new ();
  guint count = 0;
  joint (m, "A", 0, 0);
  joint (m, "B", elements * 0.2, 0);
  link (m, &count, "A", "B", elements);
  blow (m, "B");
  m->dt = 5e-4;
  return m;
}

