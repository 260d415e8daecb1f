/* flexion-cli: the headless runner over the Flexion core.
 *
 *   flexion-cli run MODEL [--dt S] [--until T] [--energy F.csv] [--trace F.csv]
 *                         [--probes F.csv] [--reactions F.csv] [--every K] [--seed N]
 *                         [--max-memory SIZE]
 *   flexion-cli ensemble MODEL --samples N ... (flexion-cli-ensemble.c)
 *   flexion-cli ensemble-merge PARTIAL... --stats OUT.csv
 *   flexion-cli check MODEL [--max-memory SIZE]
 *   flexion-cli modes MODEL [--count K] [--csv OUT] [--shapes OUT]   (flexion-cli-modes.c)
 *   flexion-cli statics MODEL [--at T] [--probes OUT] [--reactions OUT] (flexion-cli-statics.c)
 *   flexion-cli export MODEL [--from T0] [--until T] [--dt S] [--animation OUT]
 *                            [--fps N] [--size WxH] [--plot KIND=OUT] [--csv OUT]
 *                            [--picture OUT] [--diagram N|V|M] [--dark] [--inset] [--no-colorbar]
 *                            [--max-memory SIZE]
 *
 * Exit status: 0 success, 1 bad command line, 2 invalid model (refused before
 * the first step, on stderr), 3 solver failure, 4 unwritable output,
 * 130/143 interrupted by SIGINT/SIGTERM. An output is written beside its
 * target and renamed over it at the end: any failure leaves the old file
 * (fx-output.h; a device or a FIFO is written in place).
 */
#define _POSIX_C_SOURCE 200809L  /* sigaction, isatty */
#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-causality.h"
#include "fx-advice.h"
#include "fx-csv.h"
#include "fx-memory.h"
#include "fx-system.h"
#include "fx-integrator.h"
#include "fx-measure.h"
#include "flexion-cli-common.h"
#include "flexion-cli-ensemble.h"
#include "flexion-cli-modes.h"
#include "flexion-cli-statics.h"
#include "flexion-cli-run.h"
#include "flexion-cli-solver.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


static const char *usage_text =
  "Usage:\n"
  "  flexion-cli run MODEL [OPTION...]   simulate MODEL and report the energy balance\n"
  "  flexion-cli check MODEL             run every test of run before its first step and\n"
  "                                      print the formulation chosen for each link\n"
  "  flexion-cli export MODEL [OPTION...] write animations, plots, pictures and CSV\n"
  "  flexion-cli ensemble MODEL --samples N [OPTION...]  statistics of N noisy samples\n"
  "  flexion-cli ensemble-merge PARTIAL... --stats FILE  combine ensemble partials\n"
  FLEXION_CLI_MODES_USAGE
  FLEXION_CLI_STATICS_USAGE
  "  flexion-cli --version | --help\n"
  "\n"
  "Options of run:\n"
  "  --dt S          time step in seconds (default: the model's time.dt)\n"
  "  --until T       end time in seconds (default: the model's time.end)\n"
  "  --energy FILE   energy CSV: t,H,kinetic,elastic,gravity,supplied,dissipated,\n"
  "                  balance,newton_iters,factorisations,residual,joint_gap,substeps\n"
  "                  (one row at t = 0 and per step)\n"
  "  --trace FILE    node CSV: t,link,node,x,y,theta,moment\n"
  "  --probes FILE   probe CSV: t, then per probe <id>.x,<id>.y (m), <id>.vx,<id>.vy\n"
  "                  (m/s), <id>.angle (rad, section angle, not wrapped), <id>.N (axial,\n"
  "                  tension > 0), <id>.V (shear), <id>.M (bending, N m): the state at t\n"
  "  --reactions FILE  support CSV: t, then per supported joint <id>.fx,<id>.fy (N,\n"
  "                  the force the support exerts on the mechanism) and <id>.m (N m)\n"
  "                  where it holds rotation: the mean over the step ending at t\n"
  "  --every K       write the trace every K steps (default 1)\n"
  "  --seed N        noise seed (default: the model's seed); the run is sample 0\n"
  "  --newton KIND   full, simplified or auto (default): full factorises the Newton\n"
  "                  matrix at every iteration (use it to compare formulations by\n"
  "                  iterations per step), simplified reuses factorisations, auto\n"
  "                  reuses them where the model's predicted costs say it pays\n"
  "  --integrator NAME  midpoint (2nd order) or gauss4 (two-stage Gauss, 4th order;\n"
  "                  not with floating-frame links or noise); default: the model's\n"
  "                  time.integrator\n"
  "\n"
  "Options of export (all outputs of one run; at least one output):\n"
  "  --until T       end time in seconds (default: the model's time.end)\n"
  "  --from T0       first animation frame at T0 seconds (default 0)\n"
  "  --dt S          time step in seconds (default: the model's time.dt)\n"
  "  --animation OUT OUT.gif, OUT.webm, OUT.mp4 (GStreamer), or a new folder of PNG frames\n"
  "  --fps N         animation frames per second (default 30)\n"
  "  --deflection K  magnify bending K times (1 to 1000) or auto (default 1)\n"
  "  --size WxH      animation size in pixels (default 960x540)\n"
  "  --plot KIND=OUT energy, balance, newton or probes (trajectories) plot to OUT.png,\n"
  "                  .svg or .pdf (repeatable)\n"
  "  --csv OUT       the energy series (as --energy of run)\n"
  "  --probes-csv OUT  probe values: t, then per probe <id>.x,<id>.y,<id>.vx,<id>.vy,\n"
  "                 <id>.angle,<id>.N,<id>.V,<id>.M (the columns of run --probes)\n"
  "  --picture OUT   the mechanism at the end time, .png, .svg or .pdf, with the colour bar\n"
  "  --diagram D     draw the N, V or M diagram (axial force, shear force, bending\n"
  "                  moment) over the links of the picture and the animation\n"
  "  --dark          dark colours; --inset adds an energy plot to the animation;\n"
  "  --no-colorbar, --no-time   leave those out of the animation\n"
  "\n"
  FLEXION_CLI_MODES_OPTIONS
  FLEXION_CLI_STATICS_OPTIONS
  "Options of run, check, export, modes, statics and ensemble:\n"
  "  --max-memory SIZE  refuse a model whose system and solver need more memory\n"
  "                  than SIZE together: bytes, or a number with K, M, G or T\n"
  "                  (powers of 1024; e.g. 2G, 1.5G, 512M; default: half of\n"
  "                  this machine's memory); exit 2\n"
  "\n"
  "--dt and --until are checked like the model's time.dt and time.end: finite,\n"
  "positive, and at most 1e8 steps. CSV fields with a comma, quote or newline\n"
  "are quoted (RFC 4180); a field starting with = + - or @ is quoted and starts\n"
  "with ' (no spreadsheet formula). Outputs are written beside their target and\n"
  "renamed over it at the end, so a failure, a full disk, a file-size limit or\n"
  "Ctrl+C leaves an existing file as it was; a device or a FIFO (/dev/stdout, a\n"
  "pipe) is written in place, never replaced.\n"
  "\n"
  "Exit status: 0 success, 1 bad command line, 2 invalid model, 3 solver failure,\n"
  "4 export failure (an unavailable format, an unwritable file, a full disk, a\n"
  "file-size limit), 128 + N interrupted by signal N (130 SIGINT, 143 SIGTERM).\n";

/* -------------------------------------------------------------- check */

static int
cmd_check (int argc, char **argv)
{
  g_autofree char *max_memory = NULL;
  GOptionEntry entries[] = {
    { "max-memory", 0, 0, G_OPTION_ARG_STRING, &max_memory, "Memory limit", "SIZE" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("MODEL");
  g_autoptr (GError) error = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("flexion-cli check: %s\n\n%s", error->message, usage_text);
      return EXIT_USAGE;
    }
  if (argc != 2)
    {
      g_printerr ("flexion-cli check: expected one MODEL file\n\n%s", usage_text);
      return EXIT_USAGE;
    }
  if (!flexion_cli_apply_max_memory ("check", max_memory))
    return EXIT_USAGE;
  g_autoptr (FxModel) model = flexion_cli_load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;
  /* everything run tests before its first step, so that check passes
   * exactly the models run accepts */
  g_autoptr (FxSystem) sys = NULL;
  g_autoptr (FxIntegrator) integ = NULL;
  if (!flexion_cli_build_solver (argv[1], model, &sys, &integ))
    return EXIT_INVALID;

  const FxAssignment *a = fx_system_assignment (sys);
  printf ("%-16s %-34s %s\n", "link", "formulation", "chosen");
  for (guint l = 0; l < a->n_links; l++)
    {
      const FxLinkAssignment *la = &a->links[l];
      const FxLink *link = fx_model_link (model, l);
      if (link->kind == FX_LINK_FLOATING_FRAME)
        {
          static const char letter[2] = { 'F', 'V' };
          g_autofree char *ends = g_strdup_printf ("floating frame, ends %c%c %c%c",
                                                   letter[la->T_end[0]], letter[la->R_end[0]],
                                                   letter[la->T_end[1]], letter[la->R_end[1]]);
          printf ("%-16s %-34s %s\n", link->id, ends, "automatically");
          continue;
        }
      g_autofree char *f = la->split
        ? g_strdup_printf ("%s + %s (split)", fx_formulation_to_string (la->segment[0].formulation),
                           fx_formulation_to_string (la->segment[1].formulation))
        : g_strdup (fx_formulation_to_string (la->formulation));
      printf ("%-16s %-34s %s\n", fx_model_link (model, l)->id, f,
              la->fixed_by_user ? "by the model" : "automatically");
    }
  printf ("%u link%s split\n", fx_assignment_n_splits (a), fx_assignment_n_splits (a) == 1 ? "" : "s");
  flexion_cli_print_regularisers (a, model);
  flexion_cli_print_regularising_share (a, model);
  printf ("solver: %s\n", fx_integrator_describe_solver (integ));
  return 0;
}

#ifdef FLEXION_HAVE_RENDER
#include "fx-export.h"

typedef struct {
  gboolean tty;
  const char *what;
} ExportProgress;

static gboolean
export_progress (double fraction, gpointer data)
{
  ExportProgress *p = data;
  if (p->tty)
    {
      g_autofree char *text = g_strdup_printf ("%3.0f%% %s", 100.0 * CLAMP (fraction, 0.0, 1.0), p->what);
      flexion_cli_progress_bar (fraction, text);
    }
  /* FALSE cancels the export, which removes its temporary files */
  return !flexion_cli_interrupted;
}

/* An export's failure: 4 for the output, 2 for a run refused before its
 * first step (the memory it would need), 3 for the solver. */
static int
export_status (const GError *error)
{
  if (error->domain == FX_EXPORT_ERROR)
    return EXIT_EXPORT;
  if (g_error_matches (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE))
    return EXIT_INVALID;
  return EXIT_SOLVER;
}

/* WIDTHxHEIGHT, digits only, each 16..8192 (sscanf's %u read -1 as
 * 4294967295, and 0x0 failed later in the stream). */
static gboolean
parse_size (const char *text, guint *width, guint *height)
{
  g_auto (GStrv) wh = g_strsplit (text, "x", 3);
  guint64 w, h;

  if (g_strv_length (wh) != 2 || !g_ascii_string_to_unsigned (wh[0], 10, 16, 8192, &w, NULL)
      || !g_ascii_string_to_unsigned (wh[1], 10, 16, 8192, &h, NULL))
    return FALSE;
  *width = (guint) w;
  *height = (guint) h;
  return TRUE;
}

static gboolean
parse_plot_kind (const char *s, FxPlotKind *kind)
{
  if (g_str_equal (s, "energy"))
    *kind = FX_PLOT_ENERGY;
  else if (g_str_equal (s, "balance"))
    *kind = FX_PLOT_BALANCE;
  else if (g_str_equal (s, "newton"))
    *kind = FX_PLOT_NEWTON;
  else if (g_str_equal (s, "probes"))
    *kind = FX_PLOT_PROBES;
  else
    return FALSE;
  return TRUE;
}

static int
cmd_export (int argc, char **argv)
{
  FxAnimationOptions o;
  fx_animation_options_init (&o);
  const char *model_path = NULL, *animation = NULL, *csv = NULL, *picture = NULL, *probes_csv = NULL;
  const char *max_memory = NULL;
  g_autoptr (GPtrArray) plots = g_ptr_array_new ();
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      gboolean has_value = i + 1 < argc;
      char *end = NULL;
      if (g_str_equal (a, "--until") && has_value)
        {
          if (!flexion_cli_parse_seconds ("export", a, argv[++i], &o.t_until))
            return EXIT_USAGE;
        }
      else if (g_str_equal (a, "--dt") && has_value)
        {
          if (!flexion_cli_parse_seconds ("export", a, argv[++i], &o.dt))
            return EXIT_USAGE;
        }
      else if (g_str_equal (a, "--from") && has_value)
        {
          o.t_from = g_ascii_strtod (argv[++i], &end);
          if (!(isfinite (o.t_from) && o.t_from >= 0))
            {
              g_printerr ("flexion-cli export: --from wants a finite number of seconds >= 0, "
                          "not \"%s\"\n", argv[i]);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--fps") && has_value)
        {
          o.fps = g_ascii_strtod (argv[++i], &end);
          if (!(isfinite (o.fps) && o.fps > 0 && o.fps <= 240))
            {
              g_printerr ("flexion-cli export: --fps wants a number from above 0 to 240, "
                          "not \"%s\"\n", argv[i]);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--max-memory") && has_value)
        max_memory = argv[++i];
      else if (g_str_equal (a, "--deflection") && has_value)
        {
          const char *v = argv[++i];
          o.deflection_scale = g_str_equal (v, "auto") ? 0 : g_ascii_strtod (v, &end);
          if ((end && *end) || (!g_str_equal (v, "auto") && !(o.deflection_scale >= 1 && o.deflection_scale <= 1000)))
            {
              g_printerr ("flexion-cli export: --deflection wants a scale from 1 to 1000 or auto, not \"%s\"\n", v);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--size") && has_value)
        {
          const char *v = argv[++i];
          if (!parse_size (v, &o.width, &o.height))
            {
              g_printerr ("flexion-cli export: --size wants WIDTHxHEIGHT in pixels, each from "
                          "16 to 8192, not \"%s\"\n", v);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--animation") && has_value)
        {
          animation = argv[++i];
          if (!fx_animation_path_is_known (animation))
            {
              g_printerr ("flexion-cli export: --animation wants a .gif, .webm or .mp4 file, or "
                          "a name without an extension for a new folder of PNG frames, not "
                          "\"%s\"\n", animation);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--csv") && has_value)
        csv = argv[++i];
      else if (g_str_equal (a, "--probes-csv") && has_value)
        probes_csv = argv[++i];
      else if (g_str_equal (a, "--picture") && has_value)
        picture = argv[++i];
      else if (g_str_equal (a, "--plot") && has_value)
        {
          const char *v = argv[++i];
          const char *eq = strchr (v, '=');
          g_autofree char *kind_name = eq ? g_strndup (v, eq - v) : NULL;
          FxPlotKind kind;
          if (!eq || !parse_plot_kind (kind_name, &kind) || eq[1] == '\0')
            {
              g_printerr ("flexion-cli export: --plot wants KIND=FILE with KIND energy, balance, "
                          "newton or probes, not \"%s\"\n", v);
              return EXIT_USAGE;
            }
          g_ptr_array_add (plots, (gpointer) v);
        }
      else if (g_str_equal (a, "--diagram") && has_value)
        {
          const char *v = argv[++i];
          if (!fx_diagram_view_parse (v, &o.diagram))
            {
              g_printerr ("flexion-cli export: --diagram wants N, V, M or none, not \"%s\"\n", v);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--dark"))
        o.dark = TRUE;
      else if (g_str_equal (a, "--inset"))
        o.energy_inset = TRUE;
      else if (g_str_equal (a, "--no-colorbar"))
        o.colorbar = FALSE;
      else if (g_str_equal (a, "--no-time"))
        o.time_stamp = FALSE;
      else if (g_str_equal (a, "--help") || g_str_equal (a, "-h"))
        {
          fputs (usage_text, stdout);
          return 0;
        }
      else if (a[0] != '-' && model_path == NULL)
        model_path = a;
      else
        {
          g_printerr ("flexion-cli export: unknown or incomplete option \"%s\"\n\n%s", a, usage_text);
          return EXIT_USAGE;
        }
      if (end && *end != '\0')
        {
          g_printerr ("flexion-cli export: %s wants a number, not \"%s\"\n", a, argv[i]);
          return EXIT_USAGE;
        }
    }
  if (model_path == NULL || (!animation && !csv && !probes_csv && !picture && plots->len == 0))
    {
      g_printerr ("flexion-cli export: expected MODEL and at least one of --animation, --plot, "
                  "--csv, --probes-csv, --picture\n\n%s", usage_text);
      return EXIT_USAGE;
    }
  if (!flexion_cli_apply_max_memory ("export", max_memory))
    return EXIT_USAGE;
  /* from here on a signal is answered with its message and no temporaries
   * left, as in run: during the build too, not only once it is done */
  flexion_cli_catch_signals ();
  g_autoptr (FxModel) model = flexion_cli_load_model (model_path);
  if (model == NULL)
    return EXIT_INVALID;
  /* the span after the overrides, held to the file's step limit */
  g_autoptr (FxModel) span = fx_model_copy (model);
  if (o.t_until > 0)
    span->t_end = o.t_until;
  if (o.dt > 0)
    span->dt = o.dt;
  if (!flexion_cli_check_span ("export", span))
    return EXIT_USAGE;
  /* every test of run before the first step (causality, memory, ...) */
  {
    g_autoptr (FxSystem) sys = NULL;
    g_autoptr (FxIntegrator) integ = NULL;
    if (!flexion_cli_build_solver (model_path, model, &sys, &integ))
      return flexion_cli_interrupted ? flexion_cli_interrupted_status ("export") : EXIT_INVALID;
  }

  ExportProgress progress = { isatty (2), "" };
  g_autoptr (GError) error = NULL;

  if (animation)
    {
      FxAnimationFormat format = fx_animation_format_for_path (animation);
      progress.what = fx_animation_format_name (format);
      guint n = 0;
      gboolean ok = fx_export_animation (model, animation, format, &o, export_progress, &progress,
                                         &n, &error);
      if (progress.tty)
        g_printerr ("\n");
      if (!ok && flexion_cli_interrupted)
        return flexion_cli_interrupted_status ("export");
      if (!ok)
        {
          g_printerr ("flexion-cli export: %s: %s\n", animation, error->message);
          return export_status (error);
        }
      printf ("%s: %u frames, %ux%u, %g fps (%s)\n", animation, n, o.width, o.height, o.fps,
              fx_animation_format_name (format));
    }
  if (csv || probes_csv || picture || plots->len > 0)
    {
      progress.what = "run";
      g_autoptr (FxStepFrame) last = NULL;
      g_autoptr (FxSeries) series = fx_export_run_series (model, o.t_until, o.dt, &last,
                                                          export_progress, &progress, &error);
      if (progress.tty)
        g_printerr ("\n");
      if (series == NULL && flexion_cli_interrupted)
        return flexion_cli_interrupted_status ("export");
      if (series == NULL)
        {
          g_printerr ("flexion-cli export: %s\n", error->message);
          return export_status (error);
        }
      if (csv && !fx_series_write_csv (series, csv, &error))
        return flexion_cli_write_failed ("export", error);
      if (csv)
        printf ("%s: %u rows\n", csv, fx_series_len (series));
      if (probes_csv && !fx_series_write_probes_csv (series, probes_csv, &error))
        return flexion_cli_write_failed ("export", error);
      if (probes_csv)
        printf ("%s: %u rows, %u probes\n", probes_csv, fx_series_len (series),
                fx_series_n_probes (series));
      for (guint i = 0; i < plots->len; i++)
        {
          const char *v = g_ptr_array_index (plots, i);
          const char *eq = strchr (v, '=');
          g_autofree char *kind_name = g_strndup (v, eq - v);
          FxPlotKind kind;
          parse_plot_kind (kind_name, &kind);
          FxPlotStyle st;
          fx_plot_style_init (&st);
          st.dark = o.dark;
          st.t_window = 0;  /* the whole run */
          if (!fx_export_plot (series, kind, &st, eq + 1, 800, 450, &error))
            return flexion_cli_write_failed ("export", error);
          printf ("%s: %s plot\n", eq + 1, kind_name);
        }
      if (picture)
        {
          FxSceneStyle st;
          fx_scene_style_init (&st);
          st.dark = o.dark;
          st.colormap = o.colormap;
          st.show_causality = FALSE;
          st.diagram = o.diagram;
          g_autoptr (FxStepFrame) initial = fx_step_frame_new_from_model (model);
          if (!fx_export_scene (model, last, initial, &st, picture, o.width, o.height, &error))
            return flexion_cli_write_failed ("export", error);
          printf ("%s: picture at t = %g s\n", picture, last->t);
        }
    }
  return 0;
}
#endif

int
main (int argc, char **argv)
{
  /* messages in the user's language and encoding (non-ASCII ids would
   * print as '?' otherwise), numbers always with a decimal point */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  flexion_cli_ignore_file_size_signal ();

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      fputs (usage_text, argc < 2 ? stderr : stdout);
      if (argc >= 2)
        fputs (flexion_cli_ensemble_usage, stdout);
      return argc < 2 ? EXIT_USAGE : 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("flexion-cli %s\n", FLEXION_VERSION);
      return 0;
    }
  if (strcmp (argv[1], "run") == 0)
    return flexion_cli_run (argc - 1, argv + 1, usage_text);
  if (strcmp (argv[1], "check") == 0)
    return cmd_check (argc - 1, argv + 1);
  if (strcmp (argv[1], "ensemble") == 0)
    return flexion_cli_ensemble (argc - 1, argv + 1);
  if (strcmp (argv[1], "ensemble-merge") == 0)
    return flexion_cli_ensemble_merge (argc - 1, argv + 1);
  if (strcmp (argv[1], "modes") == 0)
    return flexion_cli_modes (argc - 1, argv + 1);
  if (strcmp (argv[1], "statics") == 0)
    return flexion_cli_statics (argc - 1, argv + 1);
  if (strcmp (argv[1], "export") == 0)
#ifdef FLEXION_HAVE_RENDER
    return cmd_export (argc - 1, argv + 1);
#else
    {
      g_printerr ("flexion-cli export: this build has no cairo, so it cannot draw\n");
      return EXIT_EXPORT;
    }
#endif

  g_printerr ("flexion-cli: unknown command \"%s\"\n\n%s", argv[1], usage_text);
  return EXIT_USAGE;
}
