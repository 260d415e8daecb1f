/* fx-noise.c: white and Ornstein-Uhlenbeck sources with a dyadic bridge
 * for substeps (see fx-noise.h for the contract). */
#include "fx-noise.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#define FINE FX_NOISE_MAX_PIECES  /* the bridge's finest level: 64 pieces */

typedef struct {
  FxNoiseKind kind;
  double sigma, tau;
  gconstpointer key;
  guint32 seed32;
  gsl_rng *rng;

  gboolean have_step;  /* a step has been drawn: `step` is it              */
  guint64 step;
  double z;            /* the step's N(0,1) draw                           */
  guint32 bridge_seed; /* seeds the step's bridge                          */
  double eta_n, eta_n1;/* OU: the state at the step's ends                 */

  gboolean bridge_ready;
  double path[FINE + 1];  /* white: W - W_n; OU: eta, at the 65 dyadic points */
} Source;

typedef struct {
  gconstpointer key;
  guint source;
  const char *stream;  /* borrowed from the model; NULL: not shared */
} Key;

struct _FxNoise {
  guint64 seed;
  guint sample;
  GArray *sources;     /* Source */
  GArray *keys;        /* Key: several profiles may share a source (a stream) */
  gsl_rng *bridge_rng; /* reseeded per bridge: shared, its draws are local  */
  gboolean have_step;
  double dt;
};

/* A bijection of 32-bit words with good avalanche (Wellons' lowbias32). */
static guint32
mix32 (guint32 x)
{
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/* The source's seed: a bijection of (sample, source) for a given model
 * seed, so that no two sources of one study share a stream. */
static guint32
source_seed (guint64 seed, guint sample, guint source)
{
  guint32 key = mix32 ((guint32) seed ^ mix32 ((guint32) (seed >> 32) + 0x9e3779b9U));
  guint32 packed = ((guint32) sample << 8) | (source & 0xffu);

  return mix32 (packed ^ key);
}

FxNoise *
fx_noise_new (guint64 seed, guint sample)
{
  FxNoise *noise = g_new0 (FxNoise, 1);

  g_return_val_if_fail (sample < FX_NOISE_MAX_SAMPLES, noise);
  noise->seed = seed;
  noise->sample = sample;
  noise->sources = g_array_new (FALSE, TRUE, sizeof (Source));
  noise->keys = g_array_new (FALSE, TRUE, sizeof (Key));
  noise->bridge_rng = gsl_rng_alloc (gsl_rng_mt19937);
  return noise;
}

void
fx_noise_free (FxNoise *noise)
{
  if (noise == NULL)
    return;
  for (guint i = 0; i < noise->sources->len; i++)
    gsl_rng_free (g_array_index (noise->sources, Source, i).rng);
  g_array_unref (noise->sources);
  g_array_unref (noise->keys);
  gsl_rng_free (noise->bridge_rng);
  g_free (noise);
}

guint
fx_noise_add_source (FxNoise *noise, FxNoiseKind kind, double sigma, double tau,
                     gconstpointer key)
{
  Source src = { 0 };
  guint index = noise->sources->len;

  g_return_val_if_fail (index < FX_NOISE_MAX_SOURCES, index);
  src.kind = kind;
  src.sigma = sigma;
  src.tau = tau;
  src.key = key;
  src.seed32 = source_seed (noise->seed, noise->sample, index);
  src.rng = gsl_rng_alloc (gsl_rng_mt19937);
  g_array_append_val (noise->sources, src);
  if (key != NULL)
    {
      Key k = { key, index, NULL };

      g_array_append_val (noise->keys, k);
    }
  return index;
}

guint
fx_noise_n_sources (const FxNoise *noise)
{
  return noise ? noise->sources->len : 0;
}

int
fx_noise_find (const FxNoise *noise, gconstpointer key)
{
  for (guint i = 0; noise && i < noise->keys->len; i++)
    if (g_array_index (noise->keys, Key, i).key == key)
      return (int) g_array_index (noise->keys, Key, i).source;
  return -1;
}

static void
add_profile (FxNoise **noise, const FxModel *model, guint64 seed, guint sample,
             const FxProfile *p)
{
  if (p->noise == FX_NOISE_NONE)
    return;
  if (*noise == NULL)
    *noise = fx_noise_new (seed, sample);
  /* a named stream already drawn: this profile shares its source */
  for (guint i = 0; p->noise_stream && i < (*noise)->keys->len; i++)
    {
      Key *k = &g_array_index ((*noise)->keys, Key, i);

      if (k->stream && strcmp (k->stream, p->noise_stream) == 0)
        {
          Key shared = { p, k->source, p->noise_stream };

          g_array_append_val ((*noise)->keys, shared);
          return;
        }
    }
  fx_noise_add_source (*noise, p->noise, p->noise_sigma, p->noise_tau, p);
  g_array_index ((*noise)->keys, Key, (*noise)->keys->len - 1).stream = p->noise_stream;
}

FxNoise *
fx_noise_new_for_model (const FxModel *model, guint64 seed, guint sample)
{
  FxNoise *noise = NULL;

  for (guint i = 0; i < model->joints->len; i++)
    if (fx_model_joint (model, i)->driven)
      add_profile (&noise, model, seed, sample, &fx_model_joint (model, i)->drive_profile);
  for (guint i = 0; i < model->loads->len; i++)
    add_profile (&noise, model, seed, sample, &fx_model_load (model, i)->profile);
  for (guint i = 0; i < fx_model_n_motors (model); i++)
    add_profile (&noise, model, seed, sample, &fx_model_motor (model, i)->profile);
  return noise;
}

/* ---------------------------------------------------------------- steps */

/* e^{-dt/tau} and sqrt(1 - e^{-2 dt/tau}), accurate for dt << tau */
static void
ou_factors (double dt, double tau, double *rho, double *spread)
{
  *rho = exp (-dt / tau);
  *spread = sqrt (-expm1 (-2.0 * dt / tau));
}

/* Draws step `step` from the generator (which is positioned after step-1). */
static void
draw_step (Source *src, guint64 step, double dt)
{
  if (src->have_step && src->kind == FX_NOISE_OU)
    src->eta_n = src->eta_n1;
  src->z = gsl_ran_gaussian_ziggurat (src->rng, 1.0);
  src->bridge_seed = (guint32) gsl_rng_get (src->rng);
  src->step = step;
  src->have_step = TRUE;
  src->bridge_ready = FALSE;
  (void) dt;
}

static void
restart (Source *src)
{
  gsl_rng_set (src->rng, src->seed32);
  /* OU starts stationary; white noise draws it too, so both kinds share
   * one layout of the stream */
  double z0 = gsl_ran_gaussian_ziggurat (src->rng, 1.0);
  src->eta_n = src->kind == FX_NOISE_OU ? src->sigma * z0 : 0.0;
  src->have_step = FALSE;
}

static void
source_end_state (Source *src, double dt)
{
  if (src->kind == FX_NOISE_OU)
    {
      double rho, spread;

      ou_factors (dt, src->tau, &rho, &spread);
      src->eta_n1 = src->eta_n * rho + src->sigma * spread * src->z;
    }
}

static void
source_begin_step (Source *src, guint64 n, double dt)
{
  if (src->have_step && src->step == n)
    {
      src->bridge_ready = FALSE;  /* dt may have changed */
      source_end_state (src, dt);
      return;
    }
  if (!src->have_step || src->step > n)
    {
      restart (src);
      draw_step (src, 0, dt);
      source_end_state (src, dt);
    }
  while (src->step < n)
    {
      draw_step (src, src->step + 1, dt);
      source_end_state (src, dt);
    }
}

void
fx_noise_begin_step (FxNoise *noise, guint64 n_step, double dt)
{
  g_return_if_fail (noise != NULL && dt > 0.0);
  for (guint i = 0; i < noise->sources->len; i++)
    source_begin_step (&g_array_index (noise->sources, Source, i), n_step, dt);
  noise->dt = dt;
  noise->have_step = TRUE;
}

/* ---------------------------------------------------------------- bridge */

/* The 63 interior dyadic points, coarse to fine, left to right. */
static void
build_bridge (FxNoise *noise, Source *src)
{
  double dt = noise->dt;

  gsl_rng_set (noise->bridge_rng, src->bridge_seed);
  if (src->kind == FX_NOISE_WHITE)
    {
      src->path[0] = 0.0;
      src->path[FINE] = sqrt (dt) * src->z;
    }
  else
    {
      src->path[0] = src->eta_n;
      src->path[FINE] = src->eta_n1;
    }
  for (guint len = FINE; len >= 2; len /= 2)
    {
      double h = dt * len / FINE;  /* the interval being split */

      for (guint a = 0; a < FINE; a += len)
        {
          double left = src->path[a], right = src->path[a + len];
          double z = gsl_ran_gaussian_ziggurat (noise->bridge_rng, 1.0);

          if (src->kind == FX_NOISE_WHITE)
            /* W at the midpoint given both ends: variance (h/2)(h/2)/h */
            src->path[a + len / 2] = 0.5 * (left + right) + sqrt (0.25 * h) * z;
          else
            {
              /* OU at the midpoint given both ends: precision (1 + rho^2)/u
               * with u = s^2 (1 - rho^2) over a half, rho = e^{-h/(2 tau)} */
              double x = 0.5 * h / src->tau, rho = exp (-x);

              src->path[a + len / 2] = rho * (left + right) / (1.0 + rho * rho)
                                       + src->sigma * sqrt (tanh (x)) * z;
            }
        }
    }
  src->bridge_ready = TRUE;
}

double
fx_noise_value (FxNoise *noise, guint source, guint piece, guint pieces)
{
  g_return_val_if_fail (noise != NULL && source < noise->sources->len, 0.0);
  g_return_val_if_fail (pieces >= 1 && pieces <= FINE && (pieces & (pieces - 1)) == 0
                        && piece < pieces, 0.0);
  Source *src = &g_array_index (noise->sources, Source, source);
  double dt = noise->dt;

  if (!noise->have_step)
    return 0.0;
  if (pieces == 1)
    return src->kind == FX_NOISE_WHITE ? src->sigma * src->z / sqrt (dt)
                                       : 0.5 * (src->eta_n + src->eta_n1);
  if (!src->bridge_ready)
    build_bridge (noise, src);
  guint a = piece * (FINE / pieces), b = a + FINE / pieces;
  if (src->kind == FX_NOISE_WHITE)
    return src->sigma * (src->path[b] - src->path[a]) / (dt / pieces);
  return 0.5 * (src->path[a] + src->path[b]);
}

double
fx_noise_state (FxNoise *noise, guint source)
{
  g_return_val_if_fail (noise != NULL && source < noise->sources->len, 0.0);
  Source *src = &g_array_index (noise->sources, Source, source);

  return src->kind == FX_NOISE_OU ? src->eta_n : 0.0;
}
