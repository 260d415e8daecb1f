/* flexion-cli-ensemble.h: the ensemble commands of flexion-cli. */
#pragma once

extern const char *flexion_cli_ensemble_usage;

int flexion_cli_ensemble       (int argc, char **argv);
int flexion_cli_ensemble_merge (int argc, char **argv);
