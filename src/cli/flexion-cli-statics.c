/* flexion-cli-statics.c: "flexion-cli statics", the settled state of a
 * model with its loads frozen at one time (fx-statics.h, physics.md §14):
 * reactions, the largest N, V, M and where, and the probe and reaction
 * CSVs of run, one row each. */
#include "flexion-cli-statics.h"
#include "flexion-cli-common.h"
#include "flexion-cli-run.h"
#include "flexion-cli-solver.h"

#include "fx-csv.h"
#include "fx-measure.h"
#include "fx-model-io.h"
#include "fx-statics.h"

#include <gio/gio.h>
#ifdef FLEXION_HAVE_RENDER
#include "fx-diagram.h"
#include "fx-export.h"
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const resultant_name[3] = { "|N|", "|V|", "|M|" };
static const char *const resultant_unit[3] = { "N", "N", "N m" };

static gboolean
all_finite (const double *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

static void
print_report (const FxModel *model, const FxStaticsReport *rep, const guint8 *holds)
{
  printf ("settled at t = %g s: %u load increment%s, %u Newton iterations (%u pseudo-steps)\n",
          rep->t, rep->increments, rep->increments == 1 ? "" : "s", rep->iterations,
          rep->pseudo_steps);
  for (guint j = 0; j < model->joints->len; j++)
    {
      const double *r = &rep->reactions[FX_REACTION_N_VALUES * j];
      if (!holds[j])
        continue;
      printf ("reaction at %s:", fx_model_joint (model, j)->id);
      if (holds[j] & FX_HOLDS_FORCE)
        printf (" fx %.6g N, fy %.6g N", r[FX_REACTION_FX], r[FX_REACTION_FY]);
      if (holds[j] & FX_HOLDS_MOMENT)
        printf ("%s m %.6g N m", holds[j] & FX_HOLDS_FORCE ? "," : "", r[FX_REACTION_M]);
      printf ("\n");
    }
  for (guint k = 0; k < 3; k++)
    if (model->links->len > 0)
      printf ("largest %s: %.6g %s on link %s at s = %.4g\n", resultant_name[k], rep->extreme[k],
              resultant_unit[k], fx_model_link (model, rep->extreme_link[k])->id, rep->extreme_s[k]);
  printf ("strain energy %.6g J; 1/2 sum F.u %.6g J (Clapeyron: equal for a linear problem "
          "loaded from an unstressed state)\n", rep->strain_energy, rep->clapeyron_work);
  printf ("momentum rows of the settled state balance to %.2g of their largest term%s\n",
          rep->balance, rep->balance < 1e-12 ? "" : " (not round-off: the stresses alone "
          "cannot balance every row, so Play may move it slightly)");
  if (rep->noise_left_out)
    printf ("note: the model's noise is left out (its mean is zero)\n");
}

static gboolean
write_csv (const char *path, const char *header, FxCsvFile **file)
{
  g_autoptr (GError) error = NULL;

  *file = NULL;
  if (path == NULL)
    return TRUE;
  *file = fx_csv_file_new (path, &error);
  if (*file == NULL)
    {
      g_printerr ("flexion-cli statics: %s\n", error->message);
      return FALSE;
    }
  fx_csv_file_printf (*file, "%s\n", header);
  return TRUE;
}

static gboolean
commit_csv (FxCsvFile *file)
{
  g_autoptr (GError) error = NULL;

  if (file == NULL)
    return TRUE;
  if (!fx_csv_file_commit (file, &error))
    {
      g_printerr ("flexion-cli statics: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/* The probe and reaction rows, checked finite before a byte is written. */
static int
write_outputs (const char *probes_path, const char *reactions_path, const FxSystem *sys,
               const FxModel *model, const FxStaticsReport *rep, const guint8 *holds)
{
  guint nr = FX_REACTION_N_VALUES * model->joints->len;
  g_autofree double *v = g_new (double, FX_PROBE_N_VALUES * MAX (model->probes->len, 1));

  /* at rest a probe reads what the diagram shows (element end forces) */
  for (guint p = 0; p < model->probes->len; p++)
    flexion_cli_probe_values (sys, model, p, TRUE, &v[FX_PROBE_N_VALUES * p]);
  if (!all_finite (v, FX_PROBE_N_VALUES * model->probes->len) || !all_finite (rep->reactions, nr))
    {
      g_printerr ("flexion-cli statics: the settled state holds numbers that are not finite; "
                  "nothing was written\n");
      return EXIT_SOLVER;
    }
  FxCsvFile *pf = NULL, *rf = NULL;
  g_autofree char *ph = flexion_cli_probes_header (model);
  g_autofree char *rh = flexion_cli_reactions_header (model, holds);
  if (!write_csv (probes_path, ph, &pf) || !write_csv (reactions_path, rh, &rf))
    {
      if (pf)
        fx_csv_file_abort (pf);
      return EXIT_WRITE;
    }
  if (pf)
    flexion_cli_write_probes_of (pf, sys, model, TRUE);
  if (rf)
    flexion_cli_write_reaction_values (rf, rep->t, rep->reactions, model, holds);
  gboolean ok = commit_csv (pf);
  if (!ok && rf)
    fx_csv_file_abort (rf);
  else
    ok = commit_csv (rf);
  return ok ? 0 : EXIT_WRITE;
}

/* The settled state as a picture, with a diagram if asked (N, V, M). */
static int
write_picture (const char *path, const char *diagram, const FxSystem *sys, const FxModel *model)
{
#ifdef FLEXION_HAVE_RENDER
  g_autoptr (GError) error = NULL;
  FxSceneStyle st;
  fx_scene_style_init (&st);
  st.show_causality = FALSE;
  if (diagram && !fx_diagram_view_parse (diagram, &st.diagram))
    {
      g_printerr ("flexion-cli statics: --diagram wants N, V, M or none, not \"%s\"\n", diagram);
      return EXIT_USAGE;
    }
  g_autoptr (FxStepFrame) frame = fx_step_frame_new (sys, NULL, 0);
  g_autoptr (FxStepFrame) initial = fx_step_frame_new_from_model (model);
  if (!fx_export_scene (model, frame, initial, &st, path, 960, 540, &error))
    return flexion_cli_write_failed ("statics", error);
  printf ("%s: the settled state at t = %g s%s%s\n", path, frame->t, diagram ? ", diagram " : "",
          diagram ? diagram : "");
  return 0;
#else
  g_printerr ("flexion-cli statics: this build has no cairo, so it cannot draw\n");
  return EXIT_EXPORT;
#endif
}

static int
settle_status (const char *path, GError *error)
{
  if (flexion_cli_interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return flexion_cli_interrupted_status ("statics");
  if (g_error_matches (error, FX_STATICS_ERROR, FX_STATICS_ERROR_NO_LOAD)
      || g_error_matches (error, FX_STATICS_ERROR, FX_STATICS_ERROR_UNSUPPORTED))
    {
      g_printerr ("%s: %s\n", path, error->message);
      return EXIT_INVALID;
    }
  if (g_str_has_prefix (error->message, "no static equilibrium"))
    g_printerr ("%s: %s\n", path, error->message);
  else
    g_printerr ("%s: no static equilibrium: %s\n", path, error->message);
  return EXIT_SOLVER;
}

int
flexion_cli_statics (int argc, char **argv)
{
  g_autofree char *at_text = NULL, *probes_path = NULL, *reactions_path = NULL;
  g_autofree char *max_memory = NULL, *picture = NULL, *diagram = NULL;
  GOptionEntry entries[] = {
    { "at", 0, 0, G_OPTION_ARG_STRING, &at_text, "Settle time (default 0)", "T" },
    { "picture", 0, 0, G_OPTION_ARG_FILENAME, &picture, "The settled state (.png, .svg, .pdf)", "OUT" },
    { "diagram", 0, 0, G_OPTION_ARG_STRING, &diagram, "N, V or M diagram in the picture", "D" },
    { "probes", 0, 0, G_OPTION_ARG_FILENAME, &probes_path, "Probe CSV (one row)", "FILE" },
    { "reactions", 0, 0, G_OPTION_ARG_FILENAME, &reactions_path, "Reaction CSV (one row)", "FILE" },
    { "max-memory", 0, 0, G_OPTION_ARG_STRING, &max_memory, "Memory limit", "SIZE" },
    { NULL }
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("MODEL");
  g_autoptr (GError) error = NULL;
  double at = 0.0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("flexion-cli statics: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (argc != 2)
    {
      g_printerr ("flexion-cli statics: expected one MODEL file\n");
      return EXIT_USAGE;
    }
  if (at_text)
    {
      char *end = NULL;
      at = g_ascii_strtod (at_text, &end);
      if (end == at_text || *end != '\0' || !isfinite (at))
        {
          g_printerr ("flexion-cli statics: --at needs a time in seconds, not \"%s\"\n", at_text);
          return EXIT_USAGE;
        }
    }
#ifdef FLEXION_HAVE_RENDER
  FxDiagramView view;
  if (diagram && !fx_diagram_view_parse (diagram, &view))
    {
      g_printerr ("flexion-cli statics: --diagram wants N, V, M or none, not \"%s\"\n", diagram);
      return EXIT_USAGE;
    }
#endif
  if (diagram && picture == NULL)
    {
      g_printerr ("flexion-cli statics: --diagram draws into --picture OUT\n");
      return EXIT_USAGE;
    }
  if (!flexion_cli_apply_max_memory ("statics", max_memory)
      || !flexion_cli_check_writable ("statics", picture)
      || !flexion_cli_check_writable ("statics", probes_path)
      || !flexion_cli_check_writable ("statics", reactions_path))
    return EXIT_USAGE;

  flexion_cli_catch_signals ();
  g_autoptr (FxModel) model = flexion_cli_load_model (argv[1]);
  if (model == NULL)
    return EXIT_INVALID;
  if (at < 0.0 || at > model->t_end)
    {
      g_printerr ("%s: --at %g s is outside the model's time range, 0 to %g s\n", argv[1], at,
                  model->t_end);
      return EXIT_INVALID;
    }
  g_autoptr (FxSystem) sys = NULL;
  g_autoptr (FxIntegrator) integ = NULL;
  if (!flexion_cli_build_solver (argv[1], model, &sys, &integ))
    return flexion_cli_interrupted ? flexion_cli_interrupted_status ("statics") : EXIT_INVALID;
  g_clear_pointer (&integ, fx_integrator_free);  /* its matrix is not needed: free it */

  FxStaticsReport rep;
  if (!fx_statics_settle (sys, at, &rep, &error))
    return settle_status (argv[1], error);
  g_autofree guint8 *holds = g_new (guint8, MAX (model->joints->len, 1));
  fx_system_holds (sys, holds);
  int status = write_outputs (probes_path, reactions_path, sys, model, &rep, holds);
  if (status == 0 && picture)
    status = write_picture (picture, diagram, sys, model);
  if (status == 0)
    print_report (model, &rep, holds);
  fx_statics_report_clear (&rep);
  return status;
}
