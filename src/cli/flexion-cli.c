/* flexion-cli: the headless runner over the Flexion core.
 *
 *   flexion-cli run MODEL [--dt S] [--until T] [--energy F.csv] [--trace F.csv]
 *                         [--probes F.csv] [--every K] [--seed N]
 *   flexion-cli ensemble MODEL --samples N ... (flexion-cli-ensemble.c)
 *   flexion-cli ensemble-merge PARTIAL... --stats OUT.csv
 *   flexion-cli check MODEL
 *   flexion-cli modes MODEL [--count K] [--csv OUT] [--shapes OUT]   (flexion-cli-modes.c)
 *   flexion-cli export MODEL [--from T0] [--until T] [--dt S] [--animation OUT]
 *                            [--fps N] [--size WxH] [--plot KIND=OUT] [--csv OUT]
 *                            [--picture OUT] [--dark] [--inset] [--no-colorbar]
 *
 * Exit status: 0 success, 1 bad command line, 2 invalid model, 3 solver failure.
 */
#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-causality.h"
#include "fx-system.h"
#include "fx-integrator.h"
#include "flexion-cli-ensemble.h"
#include "flexion-cli-modes.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_USAGE = 1, EXIT_INVALID = 2, EXIT_SOLVER = 3, EXIT_EXPORT = 4 };

static const char *usage_text =
  "Usage:\n"
  "  flexion-cli run MODEL [OPTION...]   simulate MODEL and report the energy balance\n"
  "  flexion-cli check MODEL             print the formulation chosen for each link\n"
  "  flexion-cli export MODEL [OPTION...] write animations, plots, pictures and CSV\n"
  "  flexion-cli ensemble MODEL --samples N [OPTION...]  statistics of N noisy samples\n"
  "  flexion-cli ensemble-merge PARTIAL... --stats FILE  combine ensemble partials\n"
  FLEXION_CLI_MODES_USAGE
  "  flexion-cli --version | --help\n"
  "\n"
  "Options of run:\n"
  "  --dt S          time step in seconds (default: the model's time.dt)\n"
  "  --until T       end time in seconds (default: the model's time.end)\n"
  "  --energy FILE   energy CSV: t,H,kinetic,elastic,gravity,supplied,dissipated,\n"
  "                  balance,newton_iters,residual,joint_gap,substeps (one row at t = 0\n"
  "                  and per step)\n"
  "  --trace FILE    node CSV: t,link,node,x,y,theta,moment\n"
  "  --probes FILE   probe CSV: t,<id>.x,<id>.y,...\n"
  "  --every K       write the trace every K steps (default 1)\n"
  "  --seed N        noise seed (default: the model's seed); the run is sample 0\n"
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
  "  --probes-csv OUT  probe positions: t,<id>.x_m,<id>.y_m,...\n"
  "  --picture OUT   the mechanism at the end time, .png, .svg or .pdf, with the colour bar\n"
  "  --dark          dark colours; --inset adds an energy plot to the animation;\n"
  "  --no-colorbar, --no-time   leave those out of the animation\n"
  "\n"
  FLEXION_CLI_MODES_OPTIONS
  "Exit status: 0 success, 1 bad command line, 2 invalid model, 3 solver failure,\n"
  "4 export failure (an unavailable format, an unwritable file).\n";

static FxModel *
load_model (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  FxModel *model = fx_model_load_file (path, &warnings, &error);

  for (guint i = 0; warnings && i < warnings->len; i++)
    g_printerr ("%s: warning: %s\n", path, (char *) g_ptr_array_index (warnings, i));
  if (model == NULL)
    {
      g_printerr ("%s: invalid model:\n", path);
      g_auto (GStrv) lines = g_strsplit (error->message, "\n", -1);
      for (guint i = 0; lines[i]; i++)
        g_printerr ("  %s\n", lines[i]);
    }
  return model;
}

static FILE *
open_csv (const char *path, const char *header)
{
  FILE *f = g_fopen (path, "w");
  if (f == NULL)
    g_printerr ("cannot write %s: %s\n", path, g_strerror (errno));
  else
    fprintf (f, "%s\n", header);
  return f;
}

static void
write_energy (FILE *f, const FxStepReport *r)
{
  fprintf (f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%u,%.6g,%.6g,%u\n",
           r->t, r->H, r->kinetic, r->elastic, r->gravity, r->supplied,
           r->dissipated, r->balance, r->newton_iters, r->residual, r->joint_gap,
           MAX (r->substeps, 1u));
}

static void
write_trace (FILE *f, const FxSystem *sys, const FxModel *model)
{
  double t = fx_system_time (sys);

  for (guint l = 0; l < fx_system_n_links (sys); l++)
    for (guint i = 0; i <= fx_system_link_elements (sys, l); i++)
      {
        double x, y, theta, moment;
        fx_system_node (sys, l, i, &x, &y, &theta, &moment);
        fprintf (f, "%.17g,%s,%u,%.17g,%.17g,%.17g,%.17g\n", t,
                 fx_model_link (model, l)->id, i, x, y, theta, moment);
      }
}

static void
write_probes (FILE *f, const FxSystem *sys, const FxModel *model)
{
  fprintf (f, "%.17g", fx_system_time (sys));
  for (guint p = 0; p < model->probes->len; p++)
    {
      const FxProbe *probe = fx_model_probe (model, p);
      double x, y;
      fx_system_point (sys, (guint) fx_model_find_link (model, probe->link), probe->s, &x, &y);
      fprintf (f, ",%.17g,%.17g", x, y);
    }
  fputc ('\n', f);
}

static char *
probes_header (const FxModel *model)
{
  GString *h = g_string_new ("t");
  for (guint p = 0; p < model->probes->len; p++)
    {
      const char *id = fx_model_probe (model, p)->id;
      g_string_append_printf (h, ",%s.x,%s.y", id, id);
    }
  return g_string_free (h, FALSE);
}

static void
progress (double t, double t_end, gboolean tty)
{
  if (!tty)
    return;
  int width = 40, filled = (int) (width * CLAMP (t / t_end, 0.0, 1.0));
  g_printerr ("\r[%.*s%*s] %5.1f%%  t = %.4g s", filled,
              "########################################", width - filled, "",
              100.0 * CLAMP (t / t_end, 0.0, 1.0), t);
}

static int
cmd_run (int argc, char **argv)
{
  double dt = 0, until = 0;
  char *energy_path = NULL, *trace_path = NULL, *probes_path = NULL;
  int every = 1;
  gint64 seed = G_MININT64;  /* not given */
  GOptionEntry entries[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Noise seed", "N" },
    { "dt", 0, 0, G_OPTION_ARG_DOUBLE, &dt, "Time step (s)", "S" },
    { "until", 0, 0, G_OPTION_ARG_DOUBLE, &until, "End time (s)", "T" },
    { "energy", 0, 0, G_OPTION_ARG_FILENAME, &energy_path, "Energy CSV", "FILE" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, "Node trace CSV", "FILE" },
    { "probes", 0, 0, G_OPTION_ARG_FILENAME, &probes_path, "Probe CSV", "FILE" },
    { "every", 0, 0, G_OPTION_ARG_INT, &every, "Trace every K steps", "K" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("MODEL");
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_help_enabled (ctx, TRUE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("flexion-cli run: %s\n\n%s", error->message, usage_text);
      return EXIT_USAGE;
    }
  if (argc != 2)
    {
      g_printerr ("flexion-cli run: expected one MODEL file\n\n%s", usage_text);
      return EXIT_USAGE;
    }
  if (every < 1 || (dt != 0 && !(dt > 0 && isfinite (dt))) || (until != 0 && !(until > 0 && isfinite (until))))
    {
      g_printerr ("flexion-cli run: --dt and --until must be positive, --every at least 1\n");
      return EXIT_USAGE;
    }

  if (seed != G_MININT64 && (seed < 0 || seed > G_MAXUINT32))
    {
      g_printerr ("flexion-cli run: --seed must be from 0 to %u\n", G_MAXUINT32);
      return EXIT_USAGE;
    }

  g_autoptr (FxModel) model = load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;
  if (dt > 0)
    model->dt = dt;
  if (until > 0)
    model->t_end = until;
  if (seed != G_MININT64)
    model->seed = (guint64) seed;

  g_autoptr (FxSystem) sys = fx_system_new (model, &error);
  if (sys == NULL)
    {
      g_printerr ("%s: invalid model:\n  %s\n", argv[1], error->message);
      return EXIT_INVALID;
    }
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, model->tolerance, model->max_iterations);

  FILE *fe = energy_path ? open_csv (energy_path,
    "t,H,kinetic,elastic,gravity,supplied,dissipated,balance,newton_iters,residual,joint_gap,"
    "substeps") : NULL;
  FILE *ft = trace_path ? open_csv (trace_path, "t,link,node,x,y,theta,moment") : NULL;
  g_autofree char *ph = probes_header (model);
  FILE *fp = probes_path ? open_csv (probes_path, ph) : NULL;
  if ((energy_path && !fe) || (trace_path && !ft) || (probes_path && !fp))
    {
      status = EXIT_USAGE;
      goto out;
    }

  FxStepReport rep;
  fx_integrator_report (integ, &rep);
  if (fe) write_energy (fe, &rep);
  if (ft) write_trace (ft, sys, model);
  if (fp) write_probes (fp, sys, model);

  gboolean tty = isatty (2);
  guint n_steps = (guint) ceil (model->t_end / model->dt - 1e-9);
  guint64 iters = 0;
  /* E_scale of physics.md section 5: the largest of |H|, the work supplied
   * and any kinetic or potential energy of the run (H itself may be ~0) */
  double max_balance = 0.0, max_H = fabs (rep.H), supplied = 0.0;
  gint64 start = g_get_monotonic_time ();
  guint step, max_substeps = 1;

  printf ("solver: %s\n", fx_integrator_describe_solver (integ));
  fflush (stdout);

  for (step = 1; step <= n_steps; step++)
    {
      if (!fx_integrator_step (integ, model->dt, &rep, &error))
        {
          if (tty)
            g_printerr ("\n");
          g_printerr ("%s: %s\n", argv[1], error->message);
          status = EXIT_SOLVER;
          break;
        }
      iters += rep.newton_iters;
      max_substeps = MAX (max_substeps, rep.substeps);
      max_balance = MAX (max_balance, fabs (rep.balance));
      supplied += rep.supplied;
      max_H = MAX (max_H, MAX (fabs (rep.H), fabs (supplied)));
      max_H = MAX (max_H, MAX (rep.kinetic, MAX (rep.elastic, fabs (rep.gravity))));
      if (fe) write_energy (fe, &rep);
      if (ft && step % (guint) every == 0) write_trace (ft, sys, model);
      if (fp) write_probes (fp, sys, model);
      if (tty && (step % 16 == 0 || step == n_steps))
        progress (rep.t, model->t_end, tty);
    }
  if (tty && status == 0)
    g_printerr ("\n");

  double wall = (g_get_monotonic_time () - start) / 1e6;
  guint done = status == 0 ? n_steps : step - 1;
  printf ("%u steps to t = %.6g s in %.3f s wall (%.1fx real time); "
          "mean Newton iterations %.2f; max |balance| %.3g J (%.2g of the energy scale)",
          done, fx_system_time (sys), wall, wall > 0 ? fx_system_time (sys) / wall : 0.0,
          done ? (double) iters / done : 0.0, max_balance,
          max_H > 0 ? max_balance / max_H : 0.0);
  if (max_substeps > 1)
    printf ("; some steps needed up to %u substeps", max_substeps);
  printf ("\n");

out:
  if (fe) fclose (fe);
  if (ft) fclose (ft);
  if (fp) fclose (fp);
  g_free (energy_path);
  g_free (trace_path);
  g_free (probes_path);
  return status;
}

static int
cmd_check (int argc, char **argv)
{
  if (argc != 2)
    {
      g_printerr ("flexion-cli check: expected one MODEL file\n\n%s", usage_text);
      return EXIT_USAGE;
    }
  g_autoptr (FxModel) model = load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;

  g_autoptr (FxAssignment) a = fx_assignment_compute (model);
  if (!fx_assignment_ok (a))
    {
      printf ("%s: no valid formulation assignment:\n", argv[1]);
      for (guint i = 0; i < a->conflicts->len; i++)
        printf ("  %s\n", (char *) g_ptr_array_index (a->conflicts, i));
      return 1;
    }
  printf ("%-16s %-34s %s\n", "link", "formulation", "chosen");
  for (guint l = 0; l < a->n_links; l++)
    {
      const FxLinkAssignment *la = &a->links[l];
      g_autofree char *f = la->split
        ? g_strdup_printf ("%s + %s (split)", fx_formulation_to_string (la->segment[0].formulation),
                           fx_formulation_to_string (la->segment[1].formulation))
        : g_strdup (fx_formulation_to_string (la->formulation));
      printf ("%-16s %-34s %s\n", fx_model_link (model, l)->id, f,
              la->fixed_by_user ? "by the model" : "automatically");
    }
  printf ("%u link%s split\n", fx_assignment_n_splits (a), fx_assignment_n_splits (a) == 1 ? "" : "s");
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
      int width = 40, filled = (int) (width * CLAMP (fraction, 0.0, 1.0));
      g_printerr ("\r%s [%.*s%*s] %3.0f%%", p->what, filled,
                  "########################################", width - filled, "",
                  100.0 * CLAMP (fraction, 0.0, 1.0));
    }
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
  g_autoptr (GPtrArray) plots = g_ptr_array_new ();
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      gboolean has_value = i + 1 < argc;
      char *end = NULL;
      if (g_str_equal (a, "--until") && has_value)
        o.t_until = g_ascii_strtod (argv[++i], &end);
      else if (g_str_equal (a, "--from") && has_value)
        o.t_from = g_ascii_strtod (argv[++i], &end);
      else if (g_str_equal (a, "--dt") && has_value)
        o.dt = g_ascii_strtod (argv[++i], &end);
      else if (g_str_equal (a, "--fps") && has_value)
        o.fps = g_ascii_strtod (argv[++i], &end);
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
          if (sscanf (v, "%ux%u", &o.width, &o.height) != 2)
            {
              g_printerr ("flexion-cli export: --size wants WIDTHxHEIGHT, not \"%s\"\n", v);
              return EXIT_USAGE;
            }
        }
      else if (g_str_equal (a, "--animation") && has_value)
        animation = argv[++i];
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
      else if (g_str_equal (a, "--dark"))
        o.dark = TRUE;
      else if (g_str_equal (a, "--inset"))
        o.energy_inset = TRUE;
      else if (g_str_equal (a, "--no-colorbar"))
        o.colorbar = FALSE;
      else if (g_str_equal (a, "--no-time"))
        o.time_stamp = FALSE;
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
  g_autoptr (FxModel) model = load_model (model_path);
  if (model == NULL)
    return EXIT_INVALID;
  g_autoptr (FxAssignment) as = fx_assignment_compute (model);
  if (!fx_assignment_ok (as))
    {
      g_printerr ("%s: no valid formulation assignment:\n", model_path);
      for (guint i = 0; i < as->conflicts->len; i++)
        g_printerr ("  %s\n", (char *) g_ptr_array_index (as->conflicts, i));
      return EXIT_INVALID;
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
      if (!ok)
        {
          g_printerr ("flexion-cli export: %s: %s\n", animation, error->message);
          return error->domain == FX_EXPORT_ERROR ? EXIT_EXPORT : EXIT_SOLVER;
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
      if (series == NULL)
        {
          g_printerr ("flexion-cli export: %s\n", error->message);
          return EXIT_SOLVER;
        }
      if (csv && !fx_series_write_csv (series, csv, &error))
        {
          g_printerr ("flexion-cli export: %s\n", error->message);
          return EXIT_EXPORT;
        }
      if (csv)
        printf ("%s: %u rows\n", csv, fx_series_len (series));
      if (probes_csv && !fx_series_write_probes_csv (series, probes_csv, &error))
        {
          g_printerr ("flexion-cli export: %s\n", error->message);
          return EXIT_EXPORT;
        }
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
            {
              g_printerr ("flexion-cli export: %s\n", error->message);
              return EXIT_EXPORT;
            }
          printf ("%s: %s plot\n", eq + 1, kind_name);
        }
      if (picture)
        {
          FxSceneStyle st;
          fx_scene_style_init (&st);
          st.dark = o.dark;
          st.colormap = o.colormap;
          st.show_causality = FALSE;
          g_autoptr (FxStepFrame) initial = fx_step_frame_new_from_model (model);
          if (!fx_export_scene (model, last, initial, &st, picture, o.width, o.height, &error))
            {
              g_printerr ("flexion-cli export: %s\n", error->message);
              return EXIT_EXPORT;
            }
          printf ("%s: picture at t = %g s\n", picture, last->t);
        }
    }
  return 0;
}
#endif

int
main (int argc, char **argv)
{
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
    return cmd_run (argc - 1, argv + 1);
  if (strcmp (argv[1], "check") == 0)
    return cmd_check (argc - 1, argv + 1);
  if (strcmp (argv[1], "ensemble") == 0)
    return flexion_cli_ensemble (argc - 1, argv + 1);
  if (strcmp (argv[1], "ensemble-merge") == 0)
    return flexion_cli_ensemble_merge (argc - 1, argv + 1);
  if (strcmp (argv[1], "modes") == 0)
    return flexion_cli_modes (argc - 1, argv + 1);
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
