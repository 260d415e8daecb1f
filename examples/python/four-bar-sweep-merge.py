#!/usr/bin/env python3
"""Merges the four-bar sweep's Slurm tasks: RESULTS/task-*.json into
RESULTS/sweep.csv and a plot (RESULTS/sweep.png unless OUT.png is given).
A missing task is named, and the exit status is 2.

    tools/python examples/python/four-bar-sweep-merge.py RESULTS [OUT.png]
"""
import argparse
import json
import os
import sys

from fourbar_sweep import CRANK_LENGTHS, save_figure


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("out", nargs="?")
    args = parser.parse_args()

    rows, missing = [], []
    for index in range(len(CRANK_LENGTHS)):
        path = os.path.join(args.results, f"task-{index}.json")
        if not os.path.exists(path):
            missing.append(index)
            continue
        with open(path, encoding="utf-8") as f:
            rows.append(json.load(f))
    if missing:
        print(f"four-bar-sweep-merge: tasks {', '.join(map(str, missing))} have no result in "
              f"{args.results}", file=sys.stderr)
        return 2

    csv_path = os.path.join(args.results, "sweep.csv")
    with open(csv_path + ".tmp", "w", encoding="utf-8") as f:
        f.write("crank_m,rocker_swing_deg\n")
        for r in rows:
            f.write(f"{r['crank_m']!r},{r['rocker_swing_deg']!r}\n")
    os.replace(csv_path + ".tmp", csv_path)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([r["crank_m"] for r in rows], [r["rocker_swing_deg"] for r in rows], "o-")
    ax.set_xlabel("crank length (m)")
    ax.set_ylabel("rocker swing (degrees)")
    ax.set_title(f"Four-bar sweep, {len(rows)} Slurm tasks, {rows[0]['end_s']:g} s each")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    out = args.out or os.path.join(args.results, "sweep.png")
    save_figure(fig, out)
    print(f"wrote {csv_path} and {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
