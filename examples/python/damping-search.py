#!/usr/bin/env python3
"""Damping-ratio search: the least damping that keeps the cantilever's tip
within 1 mm of its rest after 0.5 s.

data/examples/cantilever.flexion is released straight under gravity and
plucked at its tip; it then rings at its first bending frequency f1. The
link's viscous damping per unit length c ("damping": {"velocity": c},
N s/m^2, a force -c v along the link) gives the first mode the damping
ratio zeta1 = c / (2 rhoA omega1), omega1 = 2 pi f1. The format has no
material (strain-rate) damping for geometrically exact links yet, so this
search varies that velocity damping, by bisection on c.

    tools/python examples/python/damping-search.py [--limit METRES] [--after SECONDS]
"""
import argparse
import math
import os

import gi

gi.require_version("Flexion", "1.0")
from gi.repository import Flexion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "..", "data", "examples", "cantilever.flexion")


def tip_swing(model, c, after):
    """Half the tip's peak-to-peak vertical motion after `after` s, m."""
    model.set_link_value("beam", "damping.velocity", c)
    sim = Flexion.Simulation.new(model, None)
    sim.run(None)
    y = sim.get_probe_series("tip", Flexion.ProbeValue.Y)
    t = sim.get_series("t")
    late = [v for v, tt in zip(y, t) if tt >= after]
    return (max(late) - min(late)) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=1e-3, help="m (default 1 mm)")
    parser.add_argument("--after", type=float, default=0.5, help="s (default 0.5)")
    args = parser.parse_args()

    model = Flexion.Model.new_from_file(MODEL)
    f1 = Flexion.Modes.new(model, 1, None).get_frequencies(Flexion.ModeKind.VIBRATION)[0]
    rhoA = model.get_link_value("beam", "rhoA")

    def zeta(c):
        return c / (2 * rhoA * 2 * math.pi * f1)

    print(f"first bending mode {f1:.4g} Hz; zeta1 = c / {2 * rhoA * 2 * math.pi * f1:.4g}")
    print("c_Ns_per_m2,zeta1,tip_swing_m")
    low, high = 0.0, 1.0
    swing = tip_swing(model, low, args.after)
    print(f"{low:.6g},{zeta(low):.4f},{swing:.4g}", flush=True)
    while (swing := tip_swing(model, high, args.after)) > args.limit:  # bracket it
        print(f"{high:.6g},{zeta(high):.4f},{swing:.4g}", flush=True)
        low, high = high, 2 * high
    print(f"{high:.6g},{zeta(high):.4f},{swing:.4g}", flush=True)
    while high - low > 0.01 * high:
        mid = 0.5 * (low + high)
        swing = tip_swing(model, mid, args.after)
        print(f"{mid:.6g},{zeta(mid):.4f},{swing:.4g}", flush=True)
        if swing > args.limit:
            low = mid
        else:
            high = mid
    print(f"least damping within {args.limit:g} m after {args.after:g} s: "
          f"c = {high:.4g} N s/m^2, damping ratio zeta1 = {zeta(high):.4f}")


if __name__ == "__main__":
    main()
