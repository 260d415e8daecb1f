/* flexion-cli-common.c: what every command of flexion-cli shares (see
 * flexion-cli-common.h). */
#define _POSIX_C_SOURCE 200809L  /* sigaction */
#include "flexion-cli-common.h"
#include "fx-cancel.h"
#include "fx-memory.h"
#include "fx-model-io.h"
#include "fx-output.h"

#include <string.h>

void
flexion_cli_ignore_file_size_signal (void)
{
#ifdef SIGXFSZ
  signal (SIGXFSZ, SIG_IGN);
#endif
}

void
flexion_cli_print_lines (const char *prefix, const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint shown = 0, hidden = 0;

  for (guint i = 0; lines[i]; i++)
    {
      if (*g_strstrip (lines[i]) == '\0')
        continue;
      if (shown < FLEXION_CLI_MAX_LINES)
        {
          g_printerr ("%s%s\n", prefix, lines[i]);
          shown++;
        }
      else
        hidden++;
    }
  if (hidden > 0)
    g_printerr ("%s... and %u more\n", prefix, hidden);
}

FxModel *
flexion_cli_load_model (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  FxModel *model = fx_model_load_file (path, &warnings, &error);
  guint n_warnings = warnings ? warnings->len : 0;

  for (guint i = 0; i < MIN (n_warnings, FLEXION_CLI_MAX_LINES); i++)
    g_printerr ("%s: warning: %s\n", path, (char *) g_ptr_array_index (warnings, i));
  if (n_warnings > FLEXION_CLI_MAX_LINES)
    g_printerr ("%s: ... and %u more warnings\n", path, n_warnings - FLEXION_CLI_MAX_LINES);
  if (model == NULL)
    {
      g_printerr ("%s: invalid model:\n", path);
      flexion_cli_print_lines ("  ", error->message);
    }
  return model;
}

void
flexion_cli_progress_bar (double fraction, const char *text)
{
  const int width = 40;
  int filled = (int) (width * CLAMP (fraction, 0.0, 1.0));

  g_printerr ("\r[%.*s%*s] %s", filled, "########################################",
              width - filled, "", text);
}

gboolean
flexion_cli_apply_max_memory (const char *command, const char *text)
{
  guint64 bytes;

  if (text == NULL)
    return TRUE;
  if (!fx_memory_parse_size (text, &bytes))
    {
      g_printerr ("flexion-cli %s: --max-memory wants bytes (1000000) or a number with K, M, "
                  "G or T (powers of 1024: 512M, 1.5G), not \"%s\"\n", command, text);
      return FALSE;
    }
  fx_memory_limit_set (bytes);
  return TRUE;
}

gboolean
flexion_cli_check_writable (const char *command, const char *path)
{
  g_autoptr (GError) error = NULL;
  FxOutput *out;

  if (path == NULL)
    return TRUE;
  out = fx_output_new (path, &error);
  if (out == NULL)
    {
      g_printerr ("flexion-cli %s: %s\n", command, error->message);
      return FALSE;
    }
  fx_output_abort (out);
  return TRUE;
}

volatile sig_atomic_t flexion_cli_interrupted;
/* the engine's long loops watch this (fx-cancel.h): a step or a build
 * stops within a Newton iteration, not at its end */
static gint cancel_flag;

static void
on_signal (int signum)
{
  flexion_cli_interrupted = signum;
  fx_cancel_request (&cancel_flag);
}

void
flexion_cli_catch_signals (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  fx_cancel_attach (&cancel_flag);
}

gint *
flexion_cli_cancel_flag (void)
{
  return &cancel_flag;
}

int
flexion_cli_write_failed (const char *command, const GError *error)
{
  if (flexion_cli_interrupted)
    return flexion_cli_interrupted_status (command);
  g_printerr ("flexion-cli %s: %s\n", command, error->message);
  return EXIT_WRITE;
}

int
flexion_cli_interrupted_status (const char *command)
{
  g_printerr ("\nflexion-cli %s: interrupted by signal %d; outputs left as they were\n",
              command, (int) flexion_cli_interrupted);
  return EXIT_SIGNAL + (int) flexion_cli_interrupted;
}
