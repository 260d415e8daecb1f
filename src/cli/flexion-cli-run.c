/* flexion-cli-run.c: flexion-cli run: steps a model to its end time and
 * writes the energy, trace, probes and reactions CSV files, each beside
 * its target and renamed at the end. */
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

#include "flexion-cli-solver.h"
#include "flexion-cli-run.h"

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
      /* a signal while a FIFO waits for its reader is said by the caller */
      if (!flexion_cli_interrupted)
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

void
flexion_cli_write_probes (FxCsvFile *f, const FxSystem *sys, const FxModel *model)
{
  flexion_cli_write_probes_of (f, sys, model, FALSE);
}

void
flexion_cli_probe_values (const FxSystem *sys, const FxModel *model, guint p, gboolean settled,
                          double v[FX_PROBE_N_VALUES])
{
  const FxProbe *probe = fx_model_probe (model, p);
  guint link = (guint) fx_model_find_link (model, probe->link);
  if (settled)
    fx_system_settled_probe_values (sys, link, probe->s, v);
  else
    fx_system_probe_values (sys, link, probe->s, v);
}

void
flexion_cli_write_probes_of (FxCsvFile *f, const FxSystem *sys, const FxModel *model, gboolean settled)
{
  fx_csv_file_printf (f, "%.17g", fx_system_time (sys));
  for (guint p = 0; p < model->probes->len; p++)
    {
      double v[FX_PROBE_N_VALUES];
      flexion_cli_probe_values (sys, model, p, settled, v);
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

char *
flexion_cli_probes_header (const FxModel *model)
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

void
flexion_cli_write_reaction_values (FxCsvFile *f, double t, const double *r, const FxModel *model,
                                   const guint8 *holds)
{
  fx_csv_file_printf (f, "%.17g", t);
  for (guint j = 0; j < model->joints->len; j++)
    for (guint k = 0; k < FX_REACTION_N_VALUES; k++)
      if (fx_holds_value (holds[j], k))
        fx_csv_file_printf (f, ",%.17g", r[FX_REACTION_N_VALUES * j + k]);
  fx_csv_file_write (f, "\n", 1);
}

/* A reaction row: the columns of every channel a joint holds (`holds`,
 * fx_system_holds), as in the header. */
static void
write_reactions (FxCsvFile *f, const FxSystem *sys, const FxModel *model, const guint8 *holds)
{
  g_autofree double *r = g_new (double, FX_REACTION_N_VALUES * MAX (model->joints->len, 1));

  fx_system_reactions (sys, r);
  flexion_cli_write_reaction_values (f, fx_system_time (sys), r, model, holds);
}

char *
flexion_cli_reactions_header (const FxModel *model, const guint8 *holds)
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
  s->max_H = MAX (s->max_H, rep->scale);
}

/* What each regularising inertia is, one line each (docs/model-format.md,
 * "Regularising inertia"). */
void
flexion_cli_print_regularisers (const FxAssignment *a, const FxModel *model)
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
void
flexion_cli_print_regularising_share (const FxAssignment *a, const FxModel *model)
{
  guint n = a->regularisers->len + a->split_regularisers->len;
  if (n == 0)
    return;
  double reg = fx_assignment_regularising_mass (a), total = fx_model_total_mass (model) + reg;
  printf ("regularising inertia: %u (%.3g kg, %.2g %% of the total mass)\n", n,
          reg, total > 0 ? 100.0 * reg / total : 0.0);
}

int
flexion_cli_run (int argc, char **argv, const char *usage_text)
{
  g_autofree char *dt_text = NULL, *until_text = NULL, *max_memory = NULL;
  g_autofree char *energy_path = NULL, *trace_path = NULL, *probes_path = NULL;
  g_autofree char *newton_text = NULL, *reactions_path = NULL, *integrator_text = NULL;
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
    { "integrator", 0, 0, G_OPTION_ARG_STRING, &integrator_text,
      "Time integrator: midpoint or gauss4 (overrides the file)", "NAME" },
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
  if (!flexion_cli_parse_newton (newton_text, &newton))
    return EXIT_USAGE;
  FxIntegratorKind integrator = FX_INTEGRATOR_MIDPOINT;
  if (integrator_text && !fx_integrator_kind_from_string (integrator_text, &integrator))
    {
      g_printerr ("flexion-cli run: --integrator wants midpoint or gauss4, not \"%s\"\n",
                  integrator_text);
      return EXIT_USAGE;
    }
  if ((dt_text && !flexion_cli_parse_seconds ("run", "--dt", dt_text, &dt))
      || (until_text && !flexion_cli_parse_seconds ("run", "--until", until_text, &until))
      || !flexion_cli_apply_max_memory ("run", max_memory))
    return EXIT_USAGE;

  /* from here on a signal must not kill us with temporaries on disk; the
   * build of a big model (seconds) stops on it too, and a signal during
   * the loading is answered as soon as the build begins */
  flexion_cli_catch_signals ();
  g_autoptr (FxModel) model = flexion_cli_load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;
  if (dt > 0)
    model->dt = dt;
  if (until > 0)
    model->t_end = until;
  if (seed != G_MININT64)
    model->seed = (guint64) seed;
  if (!flexion_cli_check_span ("run", model))
    return EXIT_USAGE;
  if (integrator_text)
    {
      /* the file's checks again: gauss4 refuses floating-frame links and noise */
      model->integrator = integrator;
      if (!fx_model_validate (model, &error))
        {
          g_printerr ("%s: --integrator %s:\n", argv[1], integrator_text);
          flexion_cli_print_lines ("  ", error->message);
          return EXIT_USAGE;
        }
    }

  g_autoptr (FxSystem) sys = NULL;
  g_autoptr (FxIntegrator) integ = NULL;
  if (!flexion_cli_build_solver (argv[1], model, &sys, &integ))
    return flexion_cli_interrupted ? flexion_cli_interrupted_status ("run") : EXIT_INVALID;
  fx_integrator_set_newton (integ, newton);
  enum { ENERGY, TRACE, PROBES, REACTIONS, N_OUTPUTS };
  Output out[N_OUTPUTS] = { { energy_path, NULL }, { trace_path, NULL }, { probes_path, NULL },
                            { reactions_path, NULL } };
  g_autofree guint8 *holds = g_new (guint8, MAX (model->joints->len, 1));
  fx_system_holds (sys, holds);
  g_autofree char *ph = flexion_cli_probes_header (model), *rh = flexion_cli_reactions_header (model, holds);
  if (!output_open (&out[ENERGY], "t,H,kinetic,elastic,gravity,supplied,dissipated,balance,"
                    "newton_iters,factorisations,residual,joint_gap,substeps")
      || !output_open (&out[TRACE], "t,link,node,x,y,theta,moment")
      || !output_open (&out[PROBES], ph)
      || !output_open (&out[REACTIONS], rh))
    {
      outputs_finish (out, N_OUTPUTS, FALSE);
      return flexion_cli_interrupted ? flexion_cli_interrupted_status ("run") : EXIT_EXPORT;
    }

  FxStepReport rep;
  fx_integrator_report (integ, &rep);
  if (out[ENERGY].file) write_energy (out[ENERGY].file, &rep);
  if (out[TRACE].file) write_trace (out[TRACE].file, sys, model);
  if (out[PROBES].file) flexion_cli_write_probes (out[PROBES].file, sys, model);
  if (out[REACTIONS].file) write_reactions (out[REACTIONS].file, sys, model, holds);

  gboolean tty = isatty (2);
  guint n_steps = (guint) ceil (model->t_end / model->dt - 1e-9);
  printf ("solver: %s\n", fx_integrator_describe_solver (integ));
  flexion_cli_print_regularising_share (fx_system_assignment (sys), model);
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
          if (flexion_cli_interrupted)
            {
              status = flexion_cli_interrupted_status ("run");
              break;
            }
          g_printerr ("%s%s: %s\n", tty ? "\n" : "", argv[1], error->message);
          status = EXIT_SOLVER;
          break;
        }
      if (!flexion_cli_report_is_finite (&rep))
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
      if (out[PROBES].file) flexion_cli_write_probes (out[PROBES].file, sys, model);
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
    return flexion_cli_interrupted ? flexion_cli_interrupted_status ("run") : EXIT_EXPORT;

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
