#!/usr/bin/env python3
"""One task of the four-bar sweep as a Slurm job array: crank length number
$SLURM_ARRAY_TASK_ID (0-based, see four-bar-sweep.sbatch) of CRANK_LENGTHS
in fourbar_sweep.py, its result written to RESULTS/task-<id>.json.

    SLURM_ARRAY_TASK_ID=3 tools/python examples/python/four-bar-sweep-task.py RESULTS [--end S]

four-bar-sweep-merge.py gathers the tasks' files into one table and plot.
"""
import argparse
import json
import os
import sys

from fourbar_sweep import CRANK_LENGTHS, rocker_swing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="a folder every node sees")
    parser.add_argument("--end", type=float, default=4.0, help="seconds to run")
    args = parser.parse_args()

    task = os.environ.get("SLURM_ARRAY_TASK_ID")
    if task is None or not task.isdigit() or int(task) >= len(CRANK_LENGTHS):
        sys.exit(f"four-bar-sweep-task: SLURM_ARRAY_TASK_ID must be 0 to "
                 f"{len(CRANK_LENGTHS) - 1}, not {task!r}")
    index = int(task)
    length = CRANK_LENGTHS[index]
    result = {"task": index, "crank_m": length, "end_s": args.end,
              "rocker_swing_deg": rocker_swing(length, args.end)}

    os.makedirs(args.results, exist_ok=True)
    path = os.path.join(args.results, f"task-{index}.json")
    tmp = path + ".tmp"  # renamed when whole: the merge never reads half a file
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
        f.write("\n")
    os.replace(tmp, path)
    print(f"task {index}: crank {length} m, rocker swing {result['rocker_swing_deg']:.3f} degrees")


if __name__ == "__main__":
    main()
