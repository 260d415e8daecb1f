#!/usr/bin/env python3
"""Cantilever frequencies against element count and degree: the first three
bending frequencies of data/examples/cantilever.flexion as the mesh is
refined, at element degree 1, 2 and 3, beside Euler-Bernoulli's
f_k = (beta_k L)^2 / (2 pi L^2) sqrt(EI / rhoA).

    tools/python examples/python/cantilever-frequencies.py [--max-elements N]

Prints a CSV table. (The beam is a Timoshenko beam with rotary inertia: at
convergence it lies a little below Euler-Bernoulli, more so for mode 3.)
"""
import argparse
import math
import os

import gi

gi.require_version("Flexion", "1.0")
from gi.repository import Flexion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "..", "data", "examples", "cantilever.flexion")
BETA_L = [1.8751040687, 4.6940911330, 7.8547574382]  # roots of 1 + cos x cosh x = 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-elements", type=int, default=32)
    args = parser.parse_args()

    model = Flexion.Model.new_from_file(MODEL)
    length = model.get_link_length("beam")
    EI = model.get_link_value("beam", "EI")
    rhoA = model.get_link_value("beam", "rhoA")
    exact = [b * b / (2 * math.pi * length ** 2) * math.sqrt(EI / rhoA) for b in BETA_L]

    print("degree,elements,f1_hz,f2_hz,f3_hz,f1_error,f2_error,f3_error")
    print("exact,," + ",".join(f"{f:.6g}" for f in exact) + ",0,0,0")
    for degree in (1, 2, 3):
        model.set_link_degree("beam", degree)
        n = 2
        while n <= args.max_elements:
            model.set_link_elements("beam", n)
            f = Flexion.Modes.new(model, 3, None).get_frequencies(Flexion.ModeKind.VIBRATION)
            errors = [(a - b) / b for a, b in zip(f, exact)]
            print(f"{degree},{n}," + ",".join(f"{v:.6g}" for v in f) + ","
                  + ",".join(f"{e:+.2e}" for e in errors), flush=True)
            n *= 2


if __name__ == "__main__":
    main()
