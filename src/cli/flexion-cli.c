/* flexion-cli: the headless runner over the Flexion core.
 *
 *   flexion-cli run MODEL [--dt S] [--until T] [--energy F.csv] [--trace F.csv]
 *                         [--probes F.csv] [--reactions F.csv] [--every K] [--seed N]
 *                         [--max-memory SIZE]
 *   flexion-cli ensemble MODEL --samples N ... (flexion-cli-ensemble.c)
 *   flexion-cli ensemble-merge PARTIAL... --stats OUT.csv
 *   flexion-cli check MODEL [--max-memory SIZE]
 *   flexion-cli modes MODEL [--count K] [--csv OUT] [--shapes OUT]   (flexion-cli-modes.c)
 *   flexion-cli export MODEL [--from T0] [--until T] [--dt S] [--animation OUT]
 *                            [--fps N] [--size WxH] [--plot KIND=OUT] [--csv OUT]
 *                            [--picture OUT] [--dark] [--inset] [--no-colorbar]
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
  "  --probes-csv OUT  probe positions: t,<id>.x,<id>.y,... (as --probes of run)\n"
  "  --picture OUT   the mechanism at the end time, .png, .svg or .pdf, with the colour bar\n"
  "  --dark          dark colours; --inset adds an energy plot to the animation;\n"
  "  --no-colorbar, --no-time   leave those out of the animation\n"
  "\n"
  FLEXION_CLI_MODES_OPTIONS
  "Options of run, check and export:\n"
  "  --max-memory SIZE  refuse a model whose solver needs more memory than SIZE\n"
  "                  (e.g. 2G, 512M; default: half of this machine's memory)\n"
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

/* ---------------------------------------------------- checked arguments */

/* A positive finite number of seconds, as the model file needs them. */
static gboolean
parse_seconds (const char *command, const char *option, const char *text, double *out)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !isfinite (v) || !(v > 0.0))
    {
      g_printerr ("flexion-cli %s: %s wants a finite number of seconds > 0, not \"%s\"\n",
                  command, option, text);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

/* --newton: the Newton variant (NULL: auto). */
static gboolean
parse_newton (const char *text, FxNewtonKind *kind)
{
  static const char *names[] = { "auto", "full", "simplified" };

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      *kind = (FxNewtonKind) i;
  if (text == NULL || g_strcmp0 (text, names[*kind]) == 0)
    return TRUE;
  g_printerr ("flexion-cli run: --newton wants full, simplified or auto, not \"%s\"\n", text);
  return FALSE;
}

/* The time span after the command line's overrides, held to the model
 * file's rules (the format's step count limit), so that --until 1e300 or
 * --dt 1e-300 cannot run forever. */
static gboolean
check_span (const char *command, const FxModel *model)
{
  double steps = ceil (model->t_end / model->dt - 1e-9);

  if (steps <= FX_MAX_STEPS)
    return TRUE;
  g_printerr ("flexion-cli %s: end %g s / dt %g s gives %.3g steps; the limit is %g "
              "(raise --dt or lower --until)\n", command, model->t_end, model->dt, steps,
              FX_MAX_STEPS);
  return FALSE;
}

/* ------------------------------------------------------------- models */

/* Builds the engine's system and its integrator with the Newton matrix:
 * every test before the first step (the file's rules, the causality
 * assignment, what the engine can build, the memory its matrix needs).
 * FALSE after saying why on stderr. */
/* Bytes per element the system takes besides the Newton matrix (its
 * state, midpoint and work arrays, the model's copies): measured as the peak
 * of `check` on one link of 1e5 and 4e5 elements (265 MB, 955 MB) less the
 * banded matrix (1.5 and 1.2 KB per element). The elements are checked
 * before the system is built, and the matrix then gets what they leave of
 * the limit, so that --max-memory counts both (a 10^6-element link reached
 * 2.16 GB under 1G when only the matrix counted, issue 25). */
#define SYSTEM_BYTES_PER_ELEMENT 1500u

static guint64
system_bytes (const FxModel *model)
{
  guint64 elements = 0;

  for (guint l = 0; l < model->links->len; l++)
    elements += fx_model_link (model, l)->elements;
  return elements * SYSTEM_BYTES_PER_ELEMENT;
}

static gboolean
build_solver (const char *path, const FxModel *model, FxSystem **sys, FxIntegrator **integ)
{
  g_autoptr (GError) error = NULL;
  guint64 limit = fx_memory_limit_get (), elements = system_bytes (model);

  *sys = fx_memory_check (elements, "the model's elements", "use fewer elements per link or "
                          "fewer links", &error) ? fx_system_new (model, &error) : NULL;
  if (*sys != NULL)
    {
      *integ = fx_integrator_new (*sys, model->tolerance, model->max_iterations);
      fx_memory_limit_set (MAX (limit - elements, 1));
      gboolean ok = fx_integrator_prepare (*integ, &error);
      fx_memory_limit_set (limit);
      if (ok)
        return TRUE;
      g_clear_pointer (integ, fx_integrator_free);
      g_clear_pointer (sys, fx_system_free);
      if (g_error_matches (error, FX_MATRIX_ERROR, FX_MATRIX_ERROR_TOO_LARGE))
        {
          g_autofree char *total = fx_format_bytes (limit), *taken = fx_format_bytes (elements);
          g_prefix_error (&error, "of the memory limit %s, the model's elements take about %s; ",
                          total, taken);
        }
    }
  g_printerr ("%s: invalid model:\n", path);
  /* the matrix's message is about the model as a whole: "(root)", as the
   * loader says it, so that every line starts with a JSON path */
  flexion_cli_print_lines (error->domain == FX_MATRIX_ERROR ? "  (root): " : "  ", error->message);
  /* the fixes that have been tried and work, best first */
  if (g_error_matches (error, FX_SYSTEM_ERROR, FX_SYSTEM_ERROR_CAUSALITY))
    {
      g_autoptr (GPtrArray) fixes = fx_advice_fixes (model, 5);
      for (guint i = 0; i < fixes->len; i++)
        g_printerr ("  (root): a fix that works: %s\n", ((FxFix *) g_ptr_array_index (fixes, i))->label);
    }
  return FALSE;
}

static gboolean
report_is_finite (const FxStepReport *r)
{
  const double v[] = { r->t, r->H, r->kinetic, r->elastic, r->gravity, r->supplied,
                       r->dissipated, r->balance, r->residual, r->joint_gap };
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

/* ---------------------------------------------------------- run's CSV */

typedef struct {
  const char *path;    /* NULL: not asked for */
  FxCsvFile *file;
} Output;

static gboolean
output_open (Output *o, const char *header)
{
  g_autoptr (GError) error = NULL;

  if (o->path == NULL)
    return TRUE;
  o->file = fx_csv_file_new (o->path, &error);
  if (o->file == NULL)
    {
      g_printerr ("flexion-cli run: %s\n", error->message);
      return FALSE;
    }
  fx_csv_file_printf (o->file, "%s\n", header);
  return TRUE;
}

static gboolean
output_failed (const Output *o)
{
  return o->file && fx_csv_file_failed (o->file);
}

/* Commits every output if `keep`, else removes them all; FALSE if a commit
 * failed (said on stderr). */
static gboolean
outputs_finish (Output *outputs, guint n, gboolean keep)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      FxCsvFile *file = g_steal_pointer (&outputs[i].file);

      if (file == NULL)
        continue;
      if (!keep || !ok)
        fx_csv_file_abort (file);
      else if (!fx_csv_file_commit (file, &error))
        {
          g_printerr ("flexion-cli run: %s\n", error->message);
          ok = FALSE;
        }
    }
  return ok;
}

static void
write_energy (FxCsvFile *f, const FxStepReport *r)
{
  fx_csv_file_printf (f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%u,%u,%.6g,%.6g,%u\n",
                      r->t, r->H, r->kinetic, r->elastic, r->gravity, r->supplied,
                      r->dissipated, r->balance, r->newton_iters, r->factorisations,
                      r->residual, r->joint_gap, MAX (r->substeps, 1u));
}

static void
write_trace (FxCsvFile *f, const FxSystem *sys, const FxModel *model)
{
  double t = fx_system_time (sys);
  g_autoptr (GString) row = g_string_new (NULL);

  for (guint l = 0; l < fx_system_n_links (sys); l++)
    for (guint i = 0; i <= fx_system_link_elements (sys, l); i++)
      {
        double x, y, theta, moment;
        fx_system_node (sys, l, i, &x, &y, &theta, &moment);
        g_string_printf (row, "%.17g,", t);
        fx_csv_append_field (row, fx_model_link (model, l)->id);
        g_string_append_printf (row, ",%u,%.17g,%.17g,%.17g,%.17g\n", i, x, y, theta, moment);
        fx_csv_file_write (f, row->str, row->len);
      }
}

static void
write_probes (FxCsvFile *f, const FxSystem *sys, const FxModel *model)
{
  fx_csv_file_printf (f, "%.17g", fx_system_time (sys));
  for (guint p = 0; p < model->probes->len; p++)
    {
      const FxProbe *probe = fx_model_probe (model, p);
      double v[FX_PROBE_N_VALUES];
      fx_system_probe_values (sys, (guint) fx_model_find_link (model, probe->link), probe->s, v);
      for (guint k = 0; k < FX_PROBE_N_VALUES; k++)
        fx_csv_file_printf (f, ",%.17g", v[k]);
    }
  /* every floating-frame link: its frame and gauges */
  for (guint l = 0; l < model->links->len; l++)
    {
      FxFrameGauges g;
      if (fx_system_link_frame (sys, l, &g))
        {
          fx_csv_file_printf (f, ",%.17g,%.17g,%.17g,%.17g,%.17g", g.x_P, g.y_P, g.theta,
                              g.tip_deflection, g.gamma);
          for (guint side = 0; side < 2; side++)
            fx_csv_file_printf (f, ",%.17g,%.17g,%.17g", g.end_force[side][0],
                                g.end_force[side][1], g.end_force[side][2]);
        }
    }
  fx_csv_file_write (f, "\n", 1);
}

/* The small-deformation warning of each floating-frame link, once per run. */
static void
warn_stiffening (const FxSystem *sys, const FxModel *model, gboolean *warned)
{
  for (guint l = 0; l < model->links->len; l++)
    {
      FxFrameGauges g;
      if (warned[l] || !fx_system_link_frame (sys, l, &g) || !fx_frame_gauges_warn (&g))
        continue;
      warned[l] = TRUE;
      g_printerr ("link \"%s\" at t = %g s: geometric stiffening ignored; use a geometrically "
                  "exact link (gamma = %.2g, deflection %.2g of its length)\n",
                  fx_model_link (model, l)->id, fx_system_time (sys), g.gamma,
                  g.deflection / g.length);
    }
}

static char *
probes_header (const FxModel *model)
{
  static const char *const frame_columns[] = {
    ".x_P", ".y_P", ".theta", ".tip_deflection", ".gamma",
    ".F_from_x", ".F_from_y", ".M_from", ".F_to_x", ".F_to_y", ".M_to",
  };
  GString *h = g_string_new ("t");
  for (guint p = 0; p < model->probes->len; p++)
    for (guint k = 0; k < FX_PROBE_N_VALUES; k++)
      {
        g_string_append_c (h, ',');
        fx_csv_append_field2 (h, fx_model_probe (model, p)->id, fx_probe_suffix[k]);
      }
  for (guint l = 0; l < model->links->len; l++)
    if (fx_model_link (model, l)->kind == FX_LINK_FLOATING_FRAME)
      for (guint k = 0; k < G_N_ELEMENTS (frame_columns); k++)
        {
          g_string_append_c (h, ',');
          fx_csv_append_field2 (h, fx_model_link (model, l)->id, frame_columns[k]);
        }
  return g_string_free (h, FALSE);
}

/* A reaction row: the columns of every channel a joint holds (`holds`,
 * fx_system_holds), as in the header. */
static void
write_reactions (FxCsvFile *f, const FxSystem *sys, const FxModel *model, const guint8 *holds)
{
  g_autofree double *r = g_new (double, FX_REACTION_N_VALUES * MAX (model->joints->len, 1));

  fx_system_reactions (sys, r);
  fx_csv_file_printf (f, "%.17g", fx_system_time (sys));
  for (guint j = 0; j < model->joints->len; j++)
    for (guint k = 0; k < FX_REACTION_N_VALUES; k++)
      if (fx_holds_value (holds[j], k))
        fx_csv_file_printf (f, ",%.17g", r[FX_REACTION_N_VALUES * j + k]);
  fx_csv_file_write (f, "\n", 1);
}

static char *
reactions_header (const FxModel *model, const guint8 *holds)
{
  GString *h = g_string_new ("t");
  for (guint j = 0; j < model->joints->len; j++)
    for (guint k = 0; k < FX_REACTION_N_VALUES; k++)
      if (fx_holds_value (holds[j], k))
        {
          g_string_append_c (h, ',');
          fx_csv_append_field2 (h, fx_model_joint (model, j)->id, fx_reaction_suffix[k]);
        }
  return g_string_free (h, FALSE);
}

static void
progress (double t, double t_end)
{
  g_autofree char *text = g_strdup_printf ("%5.1f%%  t = %.4g s", 100.0 * CLAMP (t / t_end, 0.0, 1.0), t);
  flexion_cli_progress_bar (t / t_end, text);
}

/* ---------------------------------------------------------------- run */

typedef struct {
  guint steps;
  guint64 iters, factorisations;
  double max_balance, max_H, supplied;
  guint max_substeps;
} RunTotals;

static void
totals_add (RunTotals *s, const FxStepReport *rep)
{
  s->steps++;
  s->iters += rep->newton_iters;
  s->factorisations += rep->factorisations;
  s->max_substeps = MAX (s->max_substeps, rep->substeps);
  s->max_balance = MAX (s->max_balance, fabs (rep->balance));
  s->supplied += rep->supplied;
  /* E_scale of docs/theory.md §4: the largest of |H|, the work supplied
   * and any kinetic or potential energy of the run (H itself may be ~0) */
  s->max_H = MAX (s->max_H, MAX (fabs (rep->H), fabs (s->supplied)));
  s->max_H = MAX (s->max_H, MAX (rep->kinetic, MAX (rep->elastic, fabs (rep->gravity))));
}

/* What each regularising inertia is, one line each (docs/model-format.md,
 * "Regularising inertia"). */
static void
print_regularisers (const FxAssignment *a, const FxModel *model)
{
  double pct = 100.0 * model->regularisation_mass_fraction;
  for (guint i = 0; i < a->regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (a->regularisers, FxRegulariser, i);
      const FxJoint *j = fx_model_joint (model, r->joint);
      g_autofree char *of = r->member_mass > 0
        ? g_strdup_printf ("%g %% of the links meeting there", pct)
        : g_strdup_printf ("%g %% of the mechanism's mass", pct);
      if (r->channel == FX_CHANNEL_ROTATION)
        printf ("regularising rotary inertia %.3g kg m^2 at joint %s (a mass of %.3g kg, %s)\n",
                r->inertia, j->id, r->mass, of);
      else if (j->support == FX_SUPPORT_ROLLER)
        printf ("regularising mass %.3g kg at joint %s (the roller's block, %s)\n", r->mass, j->id, of);
      else
        printf ("regularising mass %.3g kg at joint %s (%s)\n", r->mass, j->id, of);
    }
  for (guint i = 0; i < a->split_regularisers->len; i++)
    {
      const FxRegulariser *r = &g_array_index (a->split_regularisers, FxRegulariser, i);
      if (r->channel == FX_CHANNEL_ROTATION)
        printf ("regularising rotary inertia %.3g kg m^2 at the middle of split link %s (a mass of "
                "%.3g kg, %g %% of the link's mass)\n", r->inertia, fx_model_link (model, (guint) r->link)->id,
                r->mass, pct);
      else
        printf ("regularising mass %.3g kg at the middle of split link %s (%g %% of the link's mass)\n",
                r->mass, fx_model_link (model, (guint) r->link)->id, pct);
    }
}

/* One line for run: how many, and their share of the total mass. */
static void
print_regularising_share (const FxAssignment *a, const FxModel *model)
{
  guint n = a->regularisers->len + a->split_regularisers->len;
  if (n == 0)
    return;
  double reg = fx_assignment_regularising_mass (a), total = fx_model_total_mass (model) + reg;
  printf ("regularising inertia: %u (%.3g kg, %.2g %% of the total mass)\n", n,
          reg, total > 0 ? 100.0 * reg / total : 0.0);
}

static int
cmd_run (int argc, char **argv)
{
  g_autofree char *dt_text = NULL, *until_text = NULL, *max_memory = NULL;
  g_autofree char *energy_path = NULL, *trace_path = NULL, *probes_path = NULL;
  g_autofree char *newton_text = NULL, *reactions_path = NULL;
  int every = 1;
  gint64 seed = G_MININT64;  /* not given */
  GOptionEntry entries[] = {
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Noise seed", "N" },
    { "dt", 0, 0, G_OPTION_ARG_STRING, &dt_text, "Time step (s)", "S" },
    { "until", 0, 0, G_OPTION_ARG_STRING, &until_text, "End time (s)", "T" },
    { "energy", 0, 0, G_OPTION_ARG_FILENAME, &energy_path, "Energy CSV", "FILE" },
    { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, "Node trace CSV", "FILE" },
    { "probes", 0, 0, G_OPTION_ARG_FILENAME, &probes_path, "Probe CSV", "FILE" },
    { "reactions", 0, 0, G_OPTION_ARG_FILENAME, &reactions_path, "Support reaction CSV", "FILE" },
    { "every", 0, 0, G_OPTION_ARG_INT, &every, "Trace every K steps", "K" },
    { "max-memory", 0, 0, G_OPTION_ARG_STRING, &max_memory, "Memory limit", "SIZE" },
    { "newton", 0, 0, G_OPTION_ARG_STRING, &newton_text, "Newton variant", "KIND" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("MODEL");
  g_autoptr (GError) error = NULL;
  double dt = 0, until = 0;
  FxNewtonKind newton = FX_NEWTON_AUTO;

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
  if (every < 1)
    {
      g_printerr ("flexion-cli run: --every must be at least 1\n");
      return EXIT_USAGE;
    }
  if (seed != G_MININT64 && (seed < 0 || seed > G_MAXUINT32))
    {
      g_printerr ("flexion-cli run: --seed must be from 0 to %u\n", G_MAXUINT32);
      return EXIT_USAGE;
    }
  if (!parse_newton (newton_text, &newton))
    return EXIT_USAGE;
  if ((dt_text && !parse_seconds ("run", "--dt", dt_text, &dt))
      || (until_text && !parse_seconds ("run", "--until", until_text, &until))
      || !flexion_cli_apply_max_memory ("run", max_memory))
    return EXIT_USAGE;

  g_autoptr (FxModel) model = flexion_cli_load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;
  if (dt > 0)
    model->dt = dt;
  if (until > 0)
    model->t_end = until;
  if (seed != G_MININT64)
    model->seed = (guint64) seed;
  if (!check_span ("run", model))
    return EXIT_USAGE;

  g_autoptr (FxSystem) sys = NULL;
  g_autoptr (FxIntegrator) integ = NULL;
  if (!build_solver (argv[1], model, &sys, &integ))
    return EXIT_INVALID;
  fx_integrator_set_newton (integ, newton);

  /* from here on a signal must not kill us with temporaries on disk */
  flexion_cli_catch_signals ();
  enum { ENERGY, TRACE, PROBES, REACTIONS, N_OUTPUTS };
  Output out[N_OUTPUTS] = { { energy_path, NULL }, { trace_path, NULL }, { probes_path, NULL },
                            { reactions_path, NULL } };
  g_autofree guint8 *holds = g_new (guint8, MAX (model->joints->len, 1));
  fx_system_holds (sys, holds);
  g_autofree char *ph = probes_header (model), *rh = reactions_header (model, holds);
  if (!output_open (&out[ENERGY], "t,H,kinetic,elastic,gravity,supplied,dissipated,balance,"
                    "newton_iters,factorisations,residual,joint_gap,substeps")
      || !output_open (&out[TRACE], "t,link,node,x,y,theta,moment")
      || !output_open (&out[PROBES], ph)
      || !output_open (&out[REACTIONS], rh))
    {
      outputs_finish (out, N_OUTPUTS, FALSE);
      return EXIT_EXPORT;
    }

  FxStepReport rep;
  fx_integrator_report (integ, &rep);
  if (out[ENERGY].file) write_energy (out[ENERGY].file, &rep);
  if (out[TRACE].file) write_trace (out[TRACE].file, sys, model);
  if (out[PROBES].file) write_probes (out[PROBES].file, sys, model);
  if (out[REACTIONS].file) write_reactions (out[REACTIONS].file, sys, model, holds);

  gboolean tty = isatty (2);
  guint n_steps = (guint) ceil (model->t_end / model->dt - 1e-9);
  printf ("solver: %s\n", fx_integrator_describe_solver (integ));
  print_regularising_share (fx_system_assignment (sys), model);
  fflush (stdout);
  RunTotals totals = { 0, 0, 0, 0.0, fabs (rep.H), 0.0, 1 };
  g_autofree gboolean *warned = g_new0 (gboolean, MAX (model->links->len, 1));
  gint64 start = g_get_monotonic_time ();
  int status = 0;

  for (guint step = 1; step <= n_steps && status == 0; step++)
    {
      if (flexion_cli_interrupted)
        {
          status = flexion_cli_interrupted_status ("run");
          break;
        }
      if (!fx_integrator_step (integ, model->dt, &rep, &error))
        {
          g_printerr ("%s%s: %s\n", tty ? "\n" : "", argv[1], error->message);
          status = EXIT_SOLVER;
          break;
        }
      if (!report_is_finite (&rep))
        {
          g_printerr ("%s%s: the energies are no longer finite numbers at t = %g s "
                      "(H = %g J); the model's numbers are too large or too small for "
                      "the solver\n", tty ? "\n" : "", argv[1], rep.t, rep.H);
          status = EXIT_SOLVER;
          break;
        }
      totals_add (&totals, &rep);
      warn_stiffening (sys, model, warned);
      if (out[ENERGY].file) write_energy (out[ENERGY].file, &rep);
      if (out[TRACE].file && step % (guint) every == 0) write_trace (out[TRACE].file, sys, model);
      if (out[PROBES].file) write_probes (out[PROBES].file, sys, model);
      if (out[REACTIONS].file) write_reactions (out[REACTIONS].file, sys, model, holds);
      for (guint i = 0; i < N_OUTPUTS; i++)
        if (output_failed (&out[i]))
          {
            /* the exact error comes with the commit below */
            status = EXIT_EXPORT;
            break;
          }
      if (tty && (step % 16 == 0 || step == n_steps))
        progress (rep.t, model->t_end);
    }
  if (tty && status == 0)
    g_printerr ("\n");
  if (status == EXIT_EXPORT)
    {
      /* commit to learn and print which write failed; it removes the temporary */
      for (guint i = 0; i < N_OUTPUTS; i++)
        if (output_failed (&out[i]))
          outputs_finish (&out[i], 1, TRUE);
      outputs_finish (out, N_OUTPUTS, FALSE);
      return status;
    }
  if (!outputs_finish (out, N_OUTPUTS, status == 0))
    return EXIT_EXPORT;

  double wall = (g_get_monotonic_time () - start) / 1e6;
  printf ("%u steps to t = %.6g s in %.3f s wall (%.1fx real time); "
          "mean Newton iterations %.2f (factorisations %.2f); max |balance| %.3g J "
          "(%.2g of the energy scale)",
          totals.steps, fx_system_time (sys), wall, wall > 0 ? fx_system_time (sys) / wall : 0.0,
          totals.steps ? (double) totals.iters / totals.steps : 0.0,
          totals.steps ? (double) totals.factorisations / totals.steps : 0.0, totals.max_balance,
          totals.max_H > 0 ? totals.max_balance / totals.max_H : 0.0);
  if (totals.max_substeps > 1)
    printf ("; some steps needed up to %u substeps", totals.max_substeps);
  printf ("\n");
  return status;
}

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
  if (!build_solver (argv[1], model, &sys, &integ))
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
  print_regularisers (a, model);
  print_regularising_share (a, model);
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
          if (!parse_seconds ("export", a, argv[++i], &o.t_until))
            return EXIT_USAGE;
        }
      else if (g_str_equal (a, "--dt") && has_value)
        {
          if (!parse_seconds ("export", a, argv[++i], &o.dt))
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
  g_autoptr (FxModel) model = flexion_cli_load_model (model_path);
  if (model == NULL)
    return EXIT_INVALID;
  /* the span after the overrides, held to the file's step limit */
  g_autoptr (FxModel) span = fx_model_copy (model);
  if (o.t_until > 0)
    span->t_end = o.t_until;
  if (o.dt > 0)
    span->dt = o.dt;
  if (!check_span ("export", span))
    return EXIT_USAGE;
  /* every test of run before the first step (causality, memory, ...) */
  {
    g_autoptr (FxSystem) sys = NULL;
    g_autoptr (FxIntegrator) integ = NULL;
    if (!build_solver (model_path, model, &sys, &integ))
      return EXIT_INVALID;
  }

  flexion_cli_catch_signals ();
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
