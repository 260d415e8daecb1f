/* fx-noise.h: the random inputs of stochastic load profiles (docs/theory.md
 * section 11).
 *
 * One source per noisy profile, each with its own GSL generator
 * (gsl_rng_mt19937: period 2^19937 - 1, equidistributed in 623 dimensions,
 * passes the DIEHARD and TestU01 Crush batteries, GSL's default and among its
 * fastest generators; normals by gsl_ran_gaussian_ziggurat). A source's
 * generator is seeded by a pure function of (model seed, sample index, source
 * index), injective in (sample, source) for one model seed, so every number
 * is the same on any machine, thread count or schedule.
 *
 * Per step n of size dt a source draws, in this order, one N(0,1) value z_n
 * and one 32-bit bridge seed:
 *   white: dW_n = sqrt(dt) z_n,             input sigma dW_n / dt;
 *   OU:    eta_{n+1} = eta_n e^{-dt/tau} + s sqrt(1 - e^{-2 dt/tau}) z_n,
 *          input (eta_n + eta_{n+1}) / 2,   eta_0 = s z (stationary start).
 * A step split into P = 2, 4, ..., 64 equal pieces uses a dyadic bridge
 * (Brownian bridge for white noise, OU bridge for OU) from the step's own
 * generator, seeded by the bridge seed: its 63 interior points are drawn
 * coarse to fine, so the path at a coarse level is the same whatever finer
 * level is asked for, the pieces' increments sum to the step's dW, and using
 * the bridge does not shift the draws of later steps.
 */
#pragma once

#include "fx-model.h"

G_BEGIN_DECLS

#define FX_NOISE_MAX_PIECES  64u
#define FX_NOISE_MAX_SOURCES 256u
#define FX_NOISE_MAX_SAMPLES (1u << 24)  /* sample indices 0 .. 2^24 - 1 */

typedef struct _FxNoise FxNoise;

FxNoise *fx_noise_new          (guint64 seed, guint sample);
void     fx_noise_free         (FxNoise *noise);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FxNoise, fx_noise_free)

/* Adds a source; returns its index (0, 1, ...). `key` identifies it for
 * fx_noise_find (the engine uses the profile's address). */
guint    fx_noise_add_source   (FxNoise *noise, FxNoiseKind kind, double sigma, double tau,
                                gconstpointer key);
guint    fx_noise_n_sources    (const FxNoise *noise);
int      fx_noise_find         (const FxNoise *noise, gconstpointer key);  /* -1: none */

/* The sources of every noisy profile of a model, in the order: driven
 * joints, loads, motors (each keyed by its FxProfile's address; profiles
 * naming one stream share the first one's source). NULL when the model has
 * no noise. The model must outlive the noise. */
FxNoise *fx_noise_new_for_model (const FxModel *model, guint64 seed, guint sample);

/* Step n_step (0, 1, ...) of size dt begins. Calling it again for the same
 * step (a retried step) reuses the draws; any other step index is reached by
 * drawing (or redrawing from the start), so values are a pure function of
 * the step index. */
void     fx_noise_begin_step   (FxNoise *noise, guint64 n_step, double dt);

/* The input of piece `piece` (0 .. pieces-1) of the current step split into
 * `pieces` equal pieces (a power of two, at most FX_NOISE_MAX_PIECES): the
 * white input sigma dW_piece / (dt / pieces), or the OU mean over the piece's
 * ends. 0 before the first step. */
double   fx_noise_value        (FxNoise *noise, guint source, guint piece, guint pieces);

/* The OU state eta at the start of the current step (0 for white noise). */
double   fx_noise_state        (FxNoise *noise, guint source);

G_END_DECLS
