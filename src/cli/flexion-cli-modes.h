/* flexion-cli-modes.h: the "modes" command of flexion-cli. */
#pragma once

/* flexion-cli modes MODEL [--count K] [--csv OUT] [--shapes OUT]
 *                   [--animation OUT [--mode NAME]];
 * argv[0] is "modes". Returns the exit status. */
int flexion_cli_modes (int argc, char **argv);

#define FLEXION_CLI_MODES_USAGE \
  "  flexion-cli modes MODEL [OPTION...] mobility, static indeterminacy and frequencies\n"

#define FLEXION_CLI_MODES_OPTIONS \
  "Options of modes (linear modes about the drawn configuration):\n" \
  "  --count K       vibration modes to list (default 10)\n" \
  "  --csv OUT       frequency table: mode,frequency_hz,kind (kind: motion,\n" \
  "                  self-stress or vibration)\n" \
  "  --shapes OUT    nodal shapes: mode,kind,link,node,x,y,dx,dy,moment,axial\n" \
  "  --animation OUT one cycle of a mode (.gif, .webm, .mp4 or a new folder of PNG)\n" \
  "  --mode NAME     the mode animated: 2 (vibration 2, default 1), motion:1, self-stress:1\n" \
  "  --max-memory SIZE  as for run; the dense path's matrices count too\n" \
  "\n"
