/* flexion-cli-run.h: flexion-cli run (CSV outputs, the one-line summary). */
#pragma once

#include "fx-frame.h"
#include "fx-causality.h"
#include "fx-system.h"
#include "fx-csv.h"

G_BEGIN_DECLS

/* What each regularising inertia is, one line each (docs/model-format.md,
 * "Regularising inertia"). */
void flexion_cli_print_regularisers (const FxAssignment *a, const FxModel *model);
/* One line for run: how many, and their share of the total mass. */
void flexion_cli_print_regularising_share (const FxAssignment *a, const FxModel *model);
/* flexion-cli run MODEL [OPTION...]: the exit status; `usage_text` is
 * printed after a command-line error. */
int flexion_cli_run (int argc, char **argv, const char *usage_text);

/* run's probe and reaction CSVs, shared with statics: the header lines
 * (without the newline) and one row each. */
char *flexion_cli_probes_header   (const FxModel *model);
void  flexion_cli_write_probes    (FxCsvFile *f, const FxSystem *sys, const FxModel *model);
/* A probe's values; `settled`: N, V and M as the diagram reads them (element
 * end forces at nodes, physics.md §14), for a state at rest. */
void  flexion_cli_probe_values    (const FxSystem *sys, const FxModel *model, guint probe,
                                   gboolean settled, double v[FX_PROBE_N_VALUES]);
void  flexion_cli_write_probes_of (FxCsvFile *f, const FxSystem *sys, const FxModel *model,
                                   gboolean settled);
char *flexion_cli_reactions_header (const FxModel *model, const guint8 *holds);
void  flexion_cli_write_reaction_values (FxCsvFile *f, double t, const double *reactions,
                                         const FxModel *model, const guint8 *holds);

G_END_DECLS
