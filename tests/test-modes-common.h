/* test-modes-common.h: what the modes tests share: a model's modes (or the
 * test fails), the k-th vibration, and a mode rung in the time domain. */
#pragma once

#include "test-models.h"
#include "fx-modes.h"

static inline FxModes *
modes_of (const FxModel *m, guint k)
{
  g_autoptr (GError) error = NULL;
  FxModes *modes = fx_modes_compute (m, k, &error);
  g_assert_no_error (error);
  g_assert_nonnull (modes);
  return modes;
}

static inline const FxMode *
nth_vibration (const FxModes *modes, guint i)
{
  for (guint k = 0; k < modes->n_modes; k++)
    if (modes->modes[k].kind == FX_MODE_VIBRATION && modes->modes[k].index == i)
      return &modes->modes[k];
  g_assert_not_reached ();
}

/* Start the linear model of m in vibration `mode`'s velocities (a
 * displacement of 1e-5 m) and return the period (s) of the transverse
 * velocity at the end (s = 1) of model link `link`, over four periods at
 * 200 steps each (the midpoint's period error (omega dt)^2/12 = 8e-5). */
static inline double
test_mode_period (const FxModel *m, const FxModes *modes, const FxMode *mode, guint link)
{
  g_autoptr (FxModel) lin = fx_modes_linear_model (m);
  g_autoptr (FxSystem) sys = test_system (lin);
  g_assert_cmpuint (fx_system_n_unknowns (sys), ==, modes->n_unknowns);

  double omega = 2 * G_PI * mode->frequency, T = 1.0 / mode->frequency;
  double *x = fx_system_state (sys);
  for (guint i = 0; i < modes->n_unknowns; i++)
    x[i] = 1e-5 * omega * mode->state[i];

  g_autoptr (FxIntegrator) it = fx_integrator_new (sys, 1e-12, 20);
  const double dt = T / 200.0;
  double v[2];
  fx_system_point_velocity (sys, link, 1.0, v);
  double prev = v[1], t_first = -1, t_last = -1;
  guint crossings = 0;
  FxStepReport rep;
  while (fx_system_time (sys) < 4.2 * T)
    {
      g_assert_true (fx_integrator_step (it, dt, &rep, NULL));
      fx_system_point_velocity (sys, link, 1.0, v);
      if ((prev < 0) != (v[1] < 0))
        {
          double tc = fx_system_time (sys) - dt * v[1] / (v[1] - prev);
          if (t_first < 0)
            t_first = tc;
          t_last = tc;
          crossings++;
        }
      prev = v[1];
    }
  g_assert_cmpuint (crossings, >=, 6);
  return 2.0 * (t_last - t_first) / (crossings - 1);
}
