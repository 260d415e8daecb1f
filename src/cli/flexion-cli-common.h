/* flexion-cli-common.h: what the commands of flexion-cli share (the exit
 * statuses, loading a model with its warnings, the progress bar, the memory
 * limit, outputs checked before the work), so that run, check, export, modes
 * and ensemble report alike. flexion-cli.c, flexion-cli-ensemble.c and
 * flexion-cli-modes.c all build on this file and on nothing of each other's
 * but the commands' entry points. */
#pragma once

#include "fx-model.h"

#include <glib.h>
#include <signal.h>

/* Exit statuses: 0 success, 1 bad command line, 2 unusable model, 3 solver
 * failure, 4 an output that could not be written; 128 + N on signal N. */
enum { EXIT_USAGE = 1, EXIT_INVALID = 2, EXIT_SOLVER = 3, EXIT_EXPORT = 4, EXIT_WRITE = 4,
       EXIT_SIGNAL = 128 };

/* At the start of main: a file-size limit (ulimit -f) makes a write fail
 * with EFBIG, reported like a full disk, instead of killing the process
 * with SIGXFSZ and its temporaries on disk. */
void flexion_cli_ignore_file_size_signal (void);

/* The model at `path`, its warnings printed; NULL with every problem printed
 * (one per line, each with its JSON path; at most FLEXION_CLI_MAX_LINES). */
FxModel *flexion_cli_load_model (const char *path);

/* Each non-empty line of `text` on stderr after `prefix`; past
 * FLEXION_CLI_MAX_LINES lines, one "... and N more" line. */
#define FLEXION_CLI_MAX_LINES 20
void flexion_cli_print_lines (const char *prefix, const char *text);

/* "\r[#####     ] text" on stderr (the caller decides whether it is a tty). */
void flexion_cli_progress_bar (double fraction, const char *text);

/* --max-memory SIZE applied (NULL: the default); FALSE with a message. */
gboolean flexion_cli_apply_max_memory (const char *command, const char *text);

/* FALSE, with a message naming `path`, if an output could not be written
 * there (a missing or read-only folder, a folder in its place): checked
 * before the work so that hours of samples are not lost. NULL is fine. */
gboolean flexion_cli_check_writable (const char *command, const char *path);

/* SIGINT and SIGTERM set flexion_cli_interrupted (the signal's number); the
 * loops poll it and stop cleanly, and so do the engine's own long loops on
 * the calling thread (the system build, Newton, substeps: fx-cancel.h), so
 * a run stops within a Newton iteration. A second signal kills at once. */
extern volatile sig_atomic_t flexion_cli_interrupted;
void flexion_cli_catch_signals (void);
/* Says that `command` was interrupted; the exit status 128 + N. */
int  flexion_cli_interrupted_status (const char *command);
/* The flag the signals set, for work on other threads (an ensemble's
 * workers: FxEnsembleOptions.cancel). */
gint *flexion_cli_cancel_flag (void);
/* An output that could not be written: 128 + N when a signal caused it (an
 * open of a FIFO with no reader fails with EINTR), else the message and
 * EXIT_WRITE. */
int  flexion_cli_write_failed (const char *command, const GError *error);
