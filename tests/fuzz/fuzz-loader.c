/* fuzz-loader.c: libFuzzer target for the model loader (issue 14).
 *
 * Every input must either load, or fail with a PARSE/INVALID/IO error whose
 * every line starts with a JSON path (or "(root)"). A model that loads must
 * save and load again to the same text, and building its system and Newton
 * matrix (the causality assignment, the engine's own checks, the solver
 * choice under a 16 MB limit, which keeps each input well under a second) must fail with a message or succeed: never crash, abort or
 * read out of bounds (AddressSanitizer and UBSan watch that).
 *
 * Build: tests/fuzz/run-loader.sh (clang -fsanitize=fuzzer,address,undefined).
 */
#include "fx-integrator.h"
#include "fx-memory.h"
#include "fx-model-io.h"
#include "fx-system.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
fail (const char *what, const char *detail)
{
  fprintf (stderr, "fuzz-loader: %s\n%s\n", what, detail ? detail : "");
  abort ();
}

/* A line of a load error starts with a path: "(root)", "name", "joints[3].at[0]". */
static gboolean
starts_with_path (const char *line)
{
  const char *colon = strstr (line, ": ");
  if (colon == NULL || colon == line)
    return FALSE;
  for (const char *p = line; p < colon; p++)
    if (!(g_ascii_isalnum (*p) || strchr ("_.[]()", *p)))
      return FALSE;
  return TRUE;
}

static void
check_message (const GError *error)
{
  if (error == NULL || error->domain != FX_MODEL_ERROR
      || (error->code != FX_MODEL_ERROR_PARSE && error->code != FX_MODEL_ERROR_INVALID))
    fail ("a refused input without a PARSE or INVALID error", error ? error->message : NULL);
  g_auto (GStrv) lines = g_strsplit (error->message, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (*lines[i] && !g_str_has_prefix (lines[i], "(and ") && !starts_with_path (lines[i]))
      fail ("an error line without a JSON path", error->message);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;

  /* a model needing more stays refused quickly and with a message */
  fx_memory_limit_set (16u << 20);
  g_autoptr (FxModel) model = fx_model_load_data ((const char *) data, (gssize) size, &warnings,
                                                  &error);
  if (model == NULL)
    {
      check_message (error);
      return 0;
    }

  gsize length;
  g_autofree char *text = fx_model_to_data (model, &length);
  g_autoptr (GError) again_error = NULL;
  g_autoptr (FxModel) again = fx_model_load_data (text, (gssize) length, NULL, &again_error);
  if (again == NULL)
    fail ("a loaded model does not load again after saving", again_error->message);
  g_autofree char *text2 = fx_model_to_data (again, NULL);
  if (strcmp (text, text2) != 0)
    fail ("saving a reloaded model gives another text", text);

  g_autoptr (GError) build_error = NULL;
  g_autoptr (FxSystem) sys = fx_system_new (model, &build_error);
  if (sys == NULL && (build_error == NULL || build_error->message[0] == '\0'))
    fail ("fx_system_new failed without a message", NULL);
  if (sys == NULL)
    return 0;
  /* the Newton matrix: its pattern, ordering and solver choice */
  g_autoptr (FxIntegrator) integ = fx_integrator_new (sys, model->tolerance, model->max_iterations);
  g_autoptr (GError) prepare_error = NULL;
  if (!fx_integrator_prepare (integ, &prepare_error)
      && (prepare_error == NULL || prepare_error->message[0] == '\0'))
    fail ("fx_integrator_prepare failed without a message", NULL);
  return 0;
}
