/* flexion-cli-solver.c: from a model to a solver, for run, check and
 * export (flexion-cli-solver.h). */
#include "fx-model.h"
#include "fx-model-io.h"
#include "fx-causality.h"
#include "fx-advice.h"
#include "fx-csv.h"
#include "fx-cancel.h"
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
#include "fx-statics.h"

/* ---------------------------------------------------- checked arguments */

/* A positive finite number of seconds, as the model file needs them. */
gboolean
flexion_cli_parse_seconds (const char *command, const char *option, const char *text, double *out)
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
gboolean
flexion_cli_parse_newton (const char *text, FxNewtonKind *kind)
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
gboolean
flexion_cli_check_span (const char *command, const FxModel *model)
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
gboolean
flexion_cli_build_solver (const char *path, const FxModel *model, FxSystem **sys, FxIntegrator **integ)
{
  g_autoptr (GError) error = NULL;

  /* the system books its arrays in the memory ledger, and the Newton
   * matrix gets what they leave of --max-memory (fx-memory.h) */
  *sys = fx_system_new (model, &error);
  if (*sys != NULL)
    {
      *integ = fx_integrator_new (*sys, model->tolerance, model->max_iterations);
      /* over-constrained rigid links are refused with the link's name (the
       * Newton matrix would be singular at the first step, issue 30.4) */
      if (fx_integrator_prepare (*integ, &error) && fx_statics_check_rigid (*sys, &error))
        return TRUE;
      g_clear_pointer (integ, fx_integrator_free);
      g_clear_pointer (sys, fx_system_free);
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;  /* a signal: the caller says so (flexion_cli_interrupted) */
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

gboolean
flexion_cli_report_is_finite (const FxStepReport *r)
{
  const double v[] = { r->t, r->H, r->kinetic, r->elastic, r->gravity, r->supplied,
                       r->dissipated, r->balance, r->residual, r->joint_gap };
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}
