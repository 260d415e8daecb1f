/* flexion-cli-modes.c: "flexion-cli modes", the linear modes of a model
 * (fx-modes.h, docs/theory.md §8) on the command line. */
#include "flexion-cli-modes.h"
#include "flexion-cli-common.h"

#include "fx-model-io.h"
#include "fx-modes.h"
#ifdef FLEXION_HAVE_RENDER
#include "fx-export.h"
#include "fx-deflection.h"
#endif

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>



static void
print_modes (const char *path, const FxModes *modes)
{
  g_autofree char *summary = fx_modes_summary (modes);

  printf ("%s: %s\n", path, summary);
  if (!modes->counted)
    printf ("motions and self-stress states: not counted beyond %u unknowns (dense limit);\n"
            "the lowest vibrations come from shift-invert iteration\n", FX_MODES_MAX_UNKNOWNS);
  else
    {
      printf ("motions (mobility): %u\n", modes->mobility);
      printf ("self-stress states (static indeterminacy): %u\n", modes->indeterminacy);
    }
  if (modes->n_massless_motions > 0)
    printf ("  of the motions, %u move no mass\n", modes->n_massless_motions);
  if (modes->n_rigid_self_stress > 0)
    printf ("  of the self-stress states, %u load only rigid links\n", modes->n_rigid_self_stress);
  printf ("%-6s %s\n", "mode", "frequency (Hz)");
  for (guint i = 0; i < modes->n_modes; i++)
    {
      const FxMode *m = &modes->modes[i];
      if (m->kind == FX_MODE_VIBRATION)
        printf ("%-6u %.6g\n", m->index, m->frequency);
      else if (m->kind == FX_MODE_REGULARISATION)  /* listed last by the core */
        printf ("r%-5u %.6g  (regularisation: the kinetic energy is in regularising inertia)\n",
                m->index, m->frequency);
    }
}

/* on a terminal: the iterative eigensolver's Krylov vectors */
static void
modes_progress (double fraction, guint done, guint total, gpointer data)
{
  g_autofree char *text = g_strdup_printf ("Krylov vectors %u/%u", done, total);
  flexion_cli_progress_bar (fraction, text);
}

/* Fewer vibrations than --count asked for: say why (the iterative
 * method's cap, or how many converged), on stderr. */
static void
note_short_list (const FxModes *modes)
{
  guint listed = fx_modes_count (modes, FX_MODE_VIBRATION);
  if (modes->counted || listed >= modes->requested)
    return;
  guint cap = fx_modes_iterative_cap (modes->n_unknowns);
  if (modes->requested > cap)
    g_printerr ("note: --count %u is more than the iterative eigensolver takes for this model "
                "(%u unknowns, within the memory limit): at most %u; %u listed\n",
                modes->requested, modes->n_unknowns, cap, listed);
  else
    g_printerr ("note: only %u of the %u vibration modes asked for converged; the list has "
                "no gaps\n", listed, modes->requested);
}

#ifdef FLEXION_HAVE_RENDER
/* FALSE stops the animation, which removes its temporary (SIGTERM left
 * OUT.gif.part-XXXXXX behind when it killed us mid-frame) */
static gboolean
not_interrupted (double fraction, gpointer data)
{
  return !flexion_cli_interrupted;
}
#endif

/* One cycle of a mode, 48 frames at 24 fps, at a tenth of the model's size. */
static gboolean
write_animation (const FxModes *modes, const FxModel *model, const char *name, const char *path)
{
  g_autoptr (GError) error = NULL;
  int index = fx_modes_find (modes, name, &error);
  if (index < 0)
    {
      g_printerr ("flexion-cli modes: %s\n", error->message);
      return FALSE;
    }
#ifdef FLEXION_HAVE_RENDER
  FxAnimationOptions options;
  fx_animation_options_init (&options);
  options.fps = 24;
  options.colorbar = FALSE;
  /* the frames have no time: the corner says which mode it is (issue 23.7) */
  g_autofree char *label = fx_mode_label (modes, &modes->modes[index]);
  options.time_stamp = TRUE;
  options.label = label;
  options.show_initial = TRUE;
  g_autoptr (GPtrArray) frames = fx_modes_cycle (modes, model, (guint) index, 48, 0.1 * modes->size);
  for (guint i = 0; i < frames->len; i++)
    fx_mode_frame_smooth_angles (frames->pdata[i]);  /* no ripple per element (issue 32) */
  if (!fx_export_frames (model, frames, path, fx_animation_format_for_path (path), &options,
                         not_interrupted, NULL, &error))
    {
      if (!flexion_cli_interrupted)
        g_printerr ("flexion-cli modes: %s\n", error->message);
      return FALSE;
    }
  printf ("%s: %s, one cycle in %u frames\n", path, label, frames->len);
  return TRUE;
#else
  g_printerr ("flexion-cli modes: this build has no cairo, so it cannot draw\n");
  return FALSE;
#endif
}

int
flexion_cli_modes (int argc, char **argv)
{
  int count = 10;
  g_autofree char *csv_path = NULL, *shapes_path = NULL, *animation_path = NULL, *mode_name = NULL;
  g_autofree char *max_memory = NULL;
  GOptionEntry entries[] = {
    { "count", 0, 0, G_OPTION_ARG_INT, &count, "Vibration modes to list", "K" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, "Frequency table CSV", "OUT" },
    { "shapes", 0, 0, G_OPTION_ARG_FILENAME, &shapes_path, "Nodal shapes CSV", "OUT" },
    { "animation", 0, 0, G_OPTION_ARG_FILENAME, &animation_path, "One cycle of a mode", "OUT" },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode_name, "The mode animated (default 1)", "NAME" },
    { "max-memory", 0, 0, G_OPTION_ARG_STRING, &max_memory, "Memory limit", "SIZE" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("MODEL");
  g_autoptr (GError) error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("flexion-cli modes: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (argc != 2 || count < 1)
    {
      g_printerr ("flexion-cli modes: expected one MODEL file and --count of at least 1\n");
      return EXIT_USAGE;
    }
#ifdef FLEXION_HAVE_RENDER
  /* a name the exporter cannot take is a usage error, said before any work */
  if (animation_path && !fx_animation_path_is_known (animation_path))
    {
      g_printerr ("flexion-cli modes: --animation wants a .gif, .webm or .mp4 file, or a name "
                  "without an extension for a new folder of PNG frames, not \"%s\"\n",
                  animation_path);
      return EXIT_USAGE;
    }
#endif
  if (!flexion_cli_apply_max_memory ("modes", max_memory))
    return EXIT_USAGE;
  /* a signal stops the eigensolver's iterations and the animation's frames
   * (fx-cancel.h), and leaves no temporary behind */
  flexion_cli_catch_signals ();
  g_autoptr (FxModel) model = flexion_cli_load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;

  gboolean tty = isatty (2);
  if (tty)
    fx_modes_progress_attach (modes_progress, NULL);
  g_autoptr (FxModes) modes = fx_modes_compute (model, (guint) count, &error);
  fx_modes_progress_attach (NULL, NULL);
  if (tty && modes && !modes->counted)
    g_printerr ("\n");
  if (flexion_cli_interrupted)
    return flexion_cli_interrupted_status ("modes");
  if (modes == NULL)
    {
      g_printerr ("%s: no modes:\n  %s\n", argv[1], error->message);
      return g_error_matches (error, FX_MODES_ERROR, FX_MODES_ERROR_FAILED) ||
             g_error_matches (error, FX_MODES_ERROR, FX_MODES_ERROR_TOO_LARGE) ? EXIT_SOLVER : EXIT_INVALID;
    }
  print_modes (argv[1], modes);
  note_short_list (modes);
  if (csv_path && !fx_modes_write_csv (modes, model, csv_path, &error))
    return flexion_cli_write_failed ("modes", error);
  if (shapes_path && !fx_modes_write_shapes (modes, model, shapes_path, &error))
    return flexion_cli_write_failed ("modes", error);
  if (animation_path && !write_animation (modes, model, mode_name ? mode_name : "1", animation_path))
    return flexion_cli_interrupted ? flexion_cli_interrupted_status ("modes") : EXIT_EXPORT;
  return 0;
}
