/* flexion-cli-private.h: what the commands of flexion-cli share (the exit
 * statuses and loading a model with its warnings), so that run, check,
 * export, modes and ensemble report alike. */
#pragma once

#include "fx-model.h"

/* Exit statuses: 0 success, 1 bad command line, 2 unusable model, 3 solver
 * failure, 4 an output that could not be written; 128 + N on signal N. */
enum { EXIT_USAGE = 1, EXIT_INVALID = 2, EXIT_SOLVER = 3, EXIT_EXPORT = 4, EXIT_WRITE = 4,
       EXIT_SIGNAL = 128 };

/* The model at `path`, its warnings printed; NULL with every problem printed
 * (one per line, each with its JSON path). */
FxModel *flexion_cli_load_model (const char *path);
