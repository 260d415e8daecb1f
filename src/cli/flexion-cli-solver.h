/* flexion-cli-solver.h: what run, check and export share to get from a
 * model to a solver: checked times and Newton kinds, the span check, the
 * system and integrator built with their messages. */
#pragma once

#include "fx-model.h"
#include "fx-system.h"
#include "fx-integrator.h"

G_BEGIN_DECLS

/* A positive finite number of seconds, as the model file needs them. */
gboolean flexion_cli_parse_seconds (const char *command, const char *option, const char *text, double *out);
/* --newton: the Newton variant (NULL: auto). */
gboolean flexion_cli_parse_newton (const char *text, FxNewtonKind *kind);
/* The time span after the command line's overrides, held to the model
 * file's rules (the format's step count limit), so that --until 1e300 or
 * --dt 1e-300 cannot run forever. */
gboolean flexion_cli_check_span (const char *command, const FxModel *model);
gboolean flexion_cli_build_solver (const char *path, const FxModel *model, FxSystem **sys, FxIntegrator **integ);
gboolean flexion_cli_report_is_finite (const FxStepReport *r);

G_END_DECLS
