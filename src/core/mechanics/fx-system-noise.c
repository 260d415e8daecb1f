/* fx-system-noise.c: how the system's noisy load profiles meet fx-noise.h.
 *
 * The noise enters as a load value at the midpoint of each step piece, like
 * a deterministic profile, so each piece's energy balance stays exact with
 * the noise's work counted in `supplied` (docs/theory.md §4 and §9). */
#include "fx-system-private.h"

void
fx_system_set_noise (FxSystem *sys, guint64 seed, guint sample)
{
  g_return_if_fail (sys != NULL);
  fx_noise_free (sys->noise);
  sys->noise = fx_noise_new_for_model (sys->built, seed, sample);
  sys->noise_step = 0;
  sys->noise_piece = 0;
  sys->noise_pieces = 1;
}

gboolean
fx_system_has_noise (const FxSystem *sys)
{
  return sys->noise != NULL;
}

void
fx_system_noise_begin_step (FxSystem *sys, double dt)
{
  sys->noise_piece = 0;
  sys->noise_pieces = 1;
  if (sys->noise)
    fx_noise_begin_step (sys->noise, sys->noise_step, dt);
}

void
fx_system_noise_piece (FxSystem *sys, guint piece, guint pieces)
{
  sys->noise_piece = piece;
  sys->noise_pieces = pieces;
}

void
fx_system_noise_end_step (FxSystem *sys)
{
  sys->noise_step++;
}

double
fx_system_noise_factor (const FxSystem *sys, const FxProfile *p)
{
  int source = fx_noise_find (sys->noise, p);

  if (source < 0)
    return 0.0;
  return fx_noise_value (sys->noise, (guint) source, sys->noise_piece, sys->noise_pieces);
}
