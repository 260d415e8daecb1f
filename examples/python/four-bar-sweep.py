#!/usr/bin/env python3
"""Four-bar crank-length sweep: how the rocker's swing changes with the
crank's length, plotted with matplotlib.

    tools/python examples/python/four-bar-sweep.py [OUT.png] [--end SECONDS]

OUT.png defaults to four-bar-sweep.png in the current folder.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

from fourbar_sweep import CRANK_LENGTHS, rocker_swing, save_figure  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="four-bar-sweep.png")
    parser.add_argument("--end", type=float, default=4.0, help="seconds to run each case")
    args = parser.parse_args()

    swings = []
    print("crank_m,rocker_swing_deg")
    for length in CRANK_LENGTHS:
        swings.append(rocker_swing(length, args.end))
        print(f"{length:.3f},{swings[-1]:.3f}", flush=True)

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(CRANK_LENGTHS, swings, "o-")
    ax.set_xlabel("crank length (m)")
    ax.set_ylabel("rocker swing (degrees)")
    ax.set_title(f"Four-bar released under gravity, {args.end:g} s")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    save_figure(fig, args.out)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
