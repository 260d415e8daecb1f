#!/usr/bin/env python3
"""Damping-ratio search: the least material damping that keeps the
cantilever's tip within 1 mm of its rest after 0.5 s.

data/examples/cantilever.flexion is released straight under gravity and
plucked at its tip; it then rings at its first bending frequency f1. The
link's Kelvin-Voigt material damping ("damping": {"kelvin_voigt": eta}, s:
the stresses become sigma + eta dsigma/dt) gives mode k the damping ratio
zeta_k = eta omega_k / 2, omega_k = 2 pi f_k. The search bisects on eta and
reports zeta1. (--viscous searches the link's velocity damping c instead,
N s/m^2, a force -c v along the link: zeta1 = c / (2 rhoA omega1).)

    tools/python examples/python/damping-search.py [--limit METRES] [--after SECONDS] [--viscous]
"""
import argparse
import math
import os

import gi

gi.require_version("Flexion", "1.0")
from gi.repository import Flexion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "..", "data", "examples", "cantilever.flexion")


def tip_swing(model, key, c, after):
    """Half the tip's peak-to-peak vertical motion after `after` s, m."""
    model.set_link_value("beam", key, c)
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
    parser.add_argument("--viscous", action="store_true",
                        help="vary damping.velocity instead of damping.kelvin_voigt")
    args = parser.parse_args()

    model = Flexion.Model.new_from_file(MODEL)
    f1 = Flexion.Modes.new(model, 1, None).get_frequencies(Flexion.ModeKind.VIBRATION)[0]
    omega1 = 2 * math.pi * f1
    rhoA = model.get_link_value("beam", "rhoA")
    if args.viscous:
        key, unit, start = "damping.velocity", "N s/m^2", 1.0
        per_zeta = 2 * rhoA * omega1      # c = per_zeta * zeta1
    else:
        key, unit, start = "damping.kelvin_voigt", "s", 1e-4
        per_zeta = 2 / omega1             # eta = per_zeta * zeta1

    def zeta(c):
        return c / per_zeta

    print(f"first bending mode {f1:.4g} Hz; zeta1 = {key} / {per_zeta:.4g}")
    print(f"{key} ({unit}),zeta1,tip_swing_m")
    low, high = 0.0, start
    swing = tip_swing(model, key, low, args.after)
    print(f"{low:.6g},{zeta(low):.4f},{swing:.4g}", flush=True)
    while (swing := tip_swing(model, key, high, args.after)) > args.limit:  # bracket it
        print(f"{high:.6g},{zeta(high):.4f},{swing:.4g}", flush=True)
        low, high = high, 2 * high
    print(f"{high:.6g},{zeta(high):.4f},{swing:.4g}", flush=True)
    while high - low > 0.01 * high:
        mid = 0.5 * (low + high)
        swing = tip_swing(model, key, mid, args.after)
        print(f"{mid:.6g},{zeta(mid):.4f},{swing:.4g}", flush=True)
        if swing > args.limit:
            low = mid
        else:
            high = mid
    print(f"least damping within {args.limit:g} m after {args.after:g} s: "
          f"{key} = {high:.4g} {unit}, damping ratio zeta1 = {zeta(high):.4f}")


if __name__ == "__main__":
    main()
