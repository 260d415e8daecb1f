"""The four-bar study shared by four-bar-sweep.py and the Slurm job array:
how far the rocker swings as the crank gets longer.

The crank of data/examples/four-bar.flexion runs from the pin O to the
joint A; a crank length L moves A along that line (the coupler A-B
changes length with it, the rest stays). The mechanism is released from
rest under gravity; the rocker's swing is the range of the angle of its
chord C -> B over the run, in degrees.
"""
import math
import os

import gi

gi.require_version("Flexion", "1.0")
from gi.repository import Flexion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# a copy beside the scripts (a Slurm study folder), else the checkout's
MODEL = os.path.join(HERE, "four-bar.flexion")
if not os.path.exists(MODEL):
    MODEL = os.path.join(HERE, "..", "..", "data", "examples", "four-bar.flexion")

# the drawn crank is sqrt(5) = 2.236 m long; these stay assemblable
CRANK_LENGTHS = [1.8, 1.9, 2.0, 2.1, 2.236, 2.35, 2.5]


def rocker_swing(crank_length, end_time=4.0):
    """The rocker's swing (degrees) for one crank length, over end_time s."""
    model = Flexion.Model.new_from_file(MODEL)
    ox, oy = model.get_joint_position("O")
    ax, ay = model.get_joint_position("A")
    drawn = math.hypot(ax - ox, ay - oy)
    scale = crank_length / drawn
    model.set_joint_position("A", ox + scale * (ax - ox), oy + scale * (ay - oy))
    model.set_end_time(end_time)

    sim = Flexion.Simulation.new(model, None)
    angles = []
    steps = math.ceil(end_time / model.get_time_step() - 1e-9)
    for _ in range(steps + 1):
        x = sim.get_link_nodes("rocker", Flexion.NodeValue.X)
        y = sim.get_link_nodes("rocker", Flexion.NodeValue.Y)
        # the rocker runs from B to C: its chord's angle from C
        angles.append(math.atan2(y[0] - y[-1], x[0] - x[-1]))
        if sim.get_n_frames() <= steps:
            sim.step(None)
    unwrapped = [angles[0]]
    for a in angles[1:]:  # no jump of 2 pi where atan2 wraps
        d = math.remainder(a - unwrapped[-1], 2 * math.pi)
        unwrapped.append(unwrapped[-1] + d)
    return math.degrees(max(unwrapped) - min(unwrapped))


def save_figure(fig, path):
    """Writes the picture beside `path` and renames it over: never half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, "." + os.path.basename(path) + ".tmp.png")
    fig.savefig(tmp, dpi=120)
    os.replace(tmp, path)
