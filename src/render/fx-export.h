/* fx-export.h: animations, pictures and plots to files, drawn by the same
 * cairo code as the canvas and the live plots.
 *
 * Every export writes to a temporary name beside the target and renames it
 * at the end, so a cancelled or failed export never leaves a partial file.
 * Exports are plain functions with a progress callback: the app runs them
 * in a worker thread, the CLI in its main thread.
 */
#pragma once

#include "fx-scene.h"
#include "fx-plot.h"

G_BEGIN_DECLS

#define FX_EXPORT_ERROR (fx_export_error_quark ())
typedef enum {
  FX_EXPORT_ERROR_CANCELLED,
  FX_EXPORT_ERROR_UNAVAILABLE,  /* the format's encoder is not installed */
  FX_EXPORT_ERROR_FAILED,
} FxExportError;
GQuark fx_export_error_quark (void);

typedef enum {
  FX_ANIMATION_GIF,
  FX_ANIMATION_PNG_SEQUENCE,  /* a folder of frame-00000.png ...        */
  FX_ANIMATION_WEBM,          /* GStreamer vp8enc + webmmux             */
  FX_ANIMATION_MP4,           /* GStreamer x264enc + mp4mux             */
} FxAnimationFormat;

typedef enum { FX_IMAGE_PNG, FX_IMAGE_SVG, FX_IMAGE_PDF } FxImageFormat;

/* .gif .webm .mp4; anything else (a name without one of those) is a folder
 * for a PNG sequence. */
FxAnimationFormat fx_animation_format_for_path (const char *path);
/* TRUE for .gif, .webm, .mp4 (any case) or a name without an extension (a
 * new folder of PNG frames); another extension (a.xyz) is a mistake, not a
 * folder to make. */
gboolean fx_animation_path_is_known (const char *path);
const char       *fx_animation_format_name     (FxAnimationFormat format);
/* Whether this machine can write `format`; if not, `why` says what is missing. */
gboolean          fx_animation_format_available (FxAnimationFormat format, char **why);
/* .png .svg .pdf; FALSE for anything else. */
gboolean          fx_image_format_for_path     (const char *path, FxImageFormat *format);

typedef struct {
  guint width, height;      /* pixels, default 960 x 540                   */
  double fps;               /* default 30                                  */
  double t_from, t_until;   /* s; t_until <= 0: the model's end time       */
  double dt;                /* s; <= 0: the model's                        */
  gboolean dark;
  FxColormap colormap;
  gboolean colorbar, time_stamp, energy_inset, show_initial, trails;
  double line_scale;        /* 1                                           */
  double deflection_scale;  /* 1: to scale; 0: auto over the whole run
                               (fx-deflection.h); else 1 to 1000          */
  /* A run already computed (FxStepFrame*, every step from step 0 in
   * order, e.g. the app's replay history), or NULL. When it covers 0 to
   * t_until, its frames are drawn instead of simulating again. */
  const GPtrArray *recorded;
  /* With time_stamp: drawn instead of the time (a mode's label), or NULL. */
  const char *label;
  /* The N, V or M diagram over the links, scaled to the run's largest value. */
  FxDiagramView diagram;
} FxAnimationOptions;

/* Whether `recorded` (as in FxAnimationOptions) holds every step from 0 to
 * t_until, so an animation up to t_until draws it instead of simulating. */
gboolean fx_export_recorded_covers (const GPtrArray *recorded, double t_until);

void fx_animation_options_init (FxAnimationOptions *options);

/* Progress in [0, 1]; return FALSE to cancel. Called from the exporting
 * thread. */
typedef gboolean (*FxExportProgress) (double fraction, gpointer data);

/* Simulates `model` from 0 to t_until and writes the frames from t_from,
 * at `fps`, in a fixed view that holds the whole motion, with colours
 * scaled to the largest moment of the run. Returns the number of frames
 * written through n_frames (may be NULL). */
gboolean fx_export_animation (const FxModel *model, const char *path, FxAnimationFormat format,
                              const FxAnimationOptions *options, FxExportProgress progress,
                              gpointer data, guint *n_frames, GError **error);

/* The given frames (e.g. fx_modes_frame over one cycle of a mode) as an
 * animation, in a fixed view that holds them all, colours scaled to their
 * largest moment; no energy inset or trails. Atomic like the others. */
gboolean fx_export_frames    (const FxModel *model, GPtrArray *frames, const char *path,
                              FxAnimationFormat format, const FxAnimationOptions *options,
                              FxExportProgress progress, gpointer data, GError **error);

/* A plot of `series` as PNG, SVG or PDF (by the file name), w x h points. */
gboolean fx_export_plot      (const FxSeries *series, FxPlotKind kind, const FxPlotStyle *style,
                              const char *path, guint width, guint height, GError **error);

/* A picture of the scene (fitted to the frame) as PNG, SVG or PDF. */
gboolean fx_export_scene     (const FxModel *model, const FxStepFrame *frame,
                              const FxStepFrame *initial, const FxSceneStyle *style,
                              const char *path, guint width, guint height, GError **error);

/* Runs `model` to t_until (<= 0: its end) and returns its series, or NULL
 * with the solver's error. The final frame through last (may be NULL). */
FxSeries *fx_export_run_series (const FxModel *model, double t_until, double dt,
                                FxStepFrame **last, FxExportProgress progress, gpointer data,
                                GError **error);

G_END_DECLS
