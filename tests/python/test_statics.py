"""Settle through the API (Flexion.Simulation.settle) gives, bit for bit,
the probe and reaction rows of `flexion-cli statics --at T`, or raises the
sentence the CLI prints, for every example; the Warren truss's member
forces are those of the method of joints; the dynamics go on from the
settled state."""
import math
import os

import pytest
from gi.repository import Flexion, GLib

from conftest import examples, run_cli
from test_run import REACTIONS, read_csv, same_bits

AT = 1.0
SUFFIXES = [".x", ".y", ".vx", ".vy", ".angle", ".N", ".V", ".M"]


def name(path):
    return os.path.basename(path)[: -len(".flexion")]


@pytest.mark.parametrize("path", examples(), ids=name)
def test_settle_matches_cli(path, cli, tmp_path):
    status, _, stderr = run_cli(cli, ["statics", path, "--at", repr(AT), "--probes", "probes.csv",
                                      "--reactions", "reactions.csv"], tmp_path)
    model = Flexion.Model.new_from_file(path)
    sim = Flexion.Simulation.new(model, None)
    if status != 0:  # refused (2) or no equilibrium (3): the same sentence
        with pytest.raises(GLib.Error) as info:
            sim.settle(AT, None)
        code = Flexion.Error.INVALID if status == 2 else Flexion.Error.SOLVER
        assert info.value.matches(Flexion.error_quark(), code), info.value.message
        if "time range" not in info.value.message:  # the CLI names its option there
            assert f"{path}: {info.value.message}" in stderr
        assert sim.get_n_frames() == 1  # nothing was added
        return

    assert sim.settle(AT, None)
    assert sim.get_n_frames() == 2
    assert sim.get_time() == AT
    header, rows = read_csv(tmp_path / "probes.csv")
    assert len(rows) == 1
    assert same_bits(rows[0][0], sim.get_time())
    for probe in model.list_probes():
        for k, suffix in enumerate(SUFFIXES):
            column = header.index(probe + suffix)
            value = sim.get_probe(probe, Flexion.ProbeValue(k))
            assert same_bits(rows[0][column], value), probe + suffix
    header, rows = read_csv(tmp_path / "reactions.csv")
    for joint in model.list_joints():
        for value, suffix in REACTIONS:
            if sim.joint_holds(joint, value):
                column = header.index(joint + suffix)
                assert same_bits(rows[0][column], sim.get_reaction(joint, value)), joint + suffix


def warren():
    return Flexion.Model.new_from_file([p for p in examples() if name(p) == "warren-truss"][0])


def test_warren_truss_method_of_joints():
    """Reactions by moments about A and D (1 kN at B, 2 kN at C, 0.5 kN at
    F); at joint A, AE carries the reaction up at 60 degrees (compression)
    and AB its horizontal part (tension). Within 1e-3 of the elastic truss
    (its members shorten, and their own shear is not zero)."""
    sim = Flexion.Simulation.new(warren(), None)
    sim.settle(1.0, None)
    r_a = (1000 * 4 + 2000 * 2 + 500 * 3) / 6
    r_d = 3500 - r_a
    assert sim.get_reaction("A", Flexion.Reaction.FY) == pytest.approx(r_a, rel=1e-6)
    assert sim.get_reaction("D", Flexion.Reaction.FY) == pytest.approx(r_d, rel=1e-6)
    ae = -r_a / math.sin(math.radians(60))
    assert sim.get_probe("AE", Flexion.ProbeValue.N) == pytest.approx(ae, rel=1e-3)
    assert sim.get_probe("AB", Flexion.ProbeValue.N) == pytest.approx(-ae / 2, rel=1e-3)


def test_play_on_after_settle():
    """Steps after a settle start at its time, from rest, and keep the books."""
    model = warren()
    model.set_end_time(1.2)
    sim = Flexion.Simulation.new(model, None)
    sim.settle(1.0, None)
    y0 = sim.get_probe("AB", Flexion.ProbeValue.Y)
    assert sim.run_until(1.1, None)
    dt = model.get_time_step()
    assert sim.get_n_frames() == 2 + round(0.1 / dt)
    assert sim.get_time() == pytest.approx(1.1, abs=1e-12)
    # the loads are held after t = 1 s: it stays where it settled
    assert abs(sim.get_probe("AB", Flexion.ProbeValue.Y) - y0) < 1e-6
    assert max(abs(b) for b in sim.get_series("balance")) < 1e-10 * max(
        abs(h) for h in sim.get_series("H"))


def test_settle_outside_time_range():
    sim = Flexion.Simulation.new(warren(), None)
    with pytest.raises(GLib.Error) as info:
        sim.settle(-1.0, None)
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.INVALID)
    assert "outside the model's time range" in info.value.message
    assert sim.get_n_frames() == 1
