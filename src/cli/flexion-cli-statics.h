/* flexion-cli-statics.h: the "statics" command of flexion-cli. */
#pragma once

/* flexion-cli statics MODEL [--at T] [--probes FILE] [--reactions FILE]
 *                     [--picture OUT [--diagram N|V|M]] [--max-memory SIZE];
 * argv[0] is "statics". Returns
 * the exit status: 2 for a settle time outside the model's range or no
 * load at it, 3 when there is no static equilibrium near the state. */
int flexion_cli_statics (int argc, char **argv);

#define FLEXION_CLI_STATICS_USAGE \
  "  flexion-cli statics MODEL [OPTION...] the settled state: reactions, largest N, V, M\n"

#define FLEXION_CLI_STATICS_OPTIONS \
  "Options of statics (static equilibrium with the loads frozen at one time; speed\n" \
  "motors and moving supports lock, noise is left out):\n" \
  "  --at T          settle time in seconds (default 0; a ramp is 0 at its start)\n" \
  "  --probes FILE   probe CSV with run's columns, one row: the settled state\n" \
  "  --reactions FILE  reaction CSV with run's columns, one row\n" \
  "  --picture OUT   the settled state, .png, .svg or .pdf (960x540)\n" \
  "  --diagram D     with --picture: the N, V or M diagram (as export --diagram)\n" \
  "  --max-memory SIZE  as for run\n" \
  "\n"
