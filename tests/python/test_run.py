"""A model run through the API gives, bit for bit, the numbers of
`flexion-cli run`'s energy, probe and reaction CSV files, for every example
in data/examples."""
import csv
import math
import os
import struct

import pytest
from gi.repository import Flexion, GLib

from conftest import examples, run_cli

# spin-up stops near 12.1 s, where its diverging blade's books fail (exit
# 3); its first 5 s hold the same comparison at a fraction of the cost
SPAN = {"spin-up": 5.0}

ENERGY = ["t", "H", "kinetic", "elastic", "gravity", "supplied", "dissipated", "balance",
          "newton_iters", "factorisations", "residual", "joint_gap", "substeps"]
# printed as %.6g by the CLI (flexion-cli-run.c), the others as %.17g or %u
SHORT = {"residual", "joint_gap"}
REACTIONS = [(Flexion.Reaction.FX, ".fx"), (Flexion.Reaction.FY, ".fy"), (Flexion.Reaction.M, ".m")]


def same_bits(text, value):
    """The CLI's %.17g text is exactly `value` (-0 and 0 differ)."""
    return struct.pack("<d", float(text)) == struct.pack("<d", value)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    # ids that start with - + = @ are written with an apostrophe (fx-csv.h)
    return [h[1:] if h.startswith("'") else h for h in rows[0]], rows[1:]


def name(path):
    return os.path.basename(path)[: -len(".flexion")]


@pytest.mark.parametrize("path", examples(), ids=name)
def test_run_matches_cli(path, cli, tmp_path):
    until = SPAN.get(name(path))
    args = ["run", path, "--energy", "energy.csv", "--probes", "probes.csv",
            "--reactions", "reactions.csv"] + (["--until", repr(until)] if until else [])
    status, _, stderr = run_cli(cli, args, tmp_path)

    model = Flexion.Model.new_from_file(path)
    if until:
        model.set_end_time(until)
    sim = Flexion.Simulation.new(model, None)
    if status == 3:  # the solver failed: the same sentence, and no CSV
        with pytest.raises(GLib.Error) as info:
            sim.run(None)
        assert info.value.matches(Flexion.error_quark(), Flexion.Error.SOLVER)
        assert f"{path}: {info.value.message}" in stderr
        return
    assert status == 0, stderr
    sim.run(None)

    header, rows = read_csv(tmp_path / "energy.csv")
    assert header == ENERGY
    assert len(rows) == sim.get_n_frames() > 1
    for column, key in enumerate(ENERGY):
        series = sim.get_series(key)
        for row, value in zip(rows, series):
            if key in SHORT:
                assert row[column] == "%.6g" % value, key
            elif key in ("newton_iters", "factorisations", "substeps"):
                assert int(row[column]) == value, key
            else:
                assert same_bits(row[column], value), (key, row[0])

    header, rows = read_csv(tmp_path / "probes.csv")
    assert len(rows) == sim.get_n_frames()
    t = sim.get_series("t")
    assert all(same_bits(r[0], v) for r, v in zip(rows, t))
    suffixes = [".x", ".y", ".vx", ".vy", ".angle", ".N", ".V", ".M"]
    for probe in model.list_probes():
        for k, suffix in enumerate(suffixes):
            column = header.index(probe + suffix)
            series = sim.get_probe_series(probe, Flexion.ProbeValue(k))
            assert all(same_bits(r[column], v) for r, v in zip(rows, series)), probe + suffix
    for probe in model.list_probes():  # the newest frame's value is the series' last
        y = sim.get_probe(probe, Flexion.ProbeValue.Y)
        assert same_bits(repr(y), sim.get_probe_series(probe, Flexion.ProbeValue.Y)[-1])

    header, rows = read_csv(tmp_path / "reactions.csv")
    assert len(rows) == sim.get_n_frames()
    expected = ["t"]
    for joint in model.list_joints():
        for value, suffix in REACTIONS:
            if sim.joint_holds(joint, value):
                expected.append(joint + suffix)
                column = len(expected) - 1
                series = sim.get_reaction_series(joint, value)
                assert all(same_bits(r[column], v) for r, v in zip(rows, series)), joint + suffix
    assert header == expected


@pytest.mark.parametrize("newton", ["full", "simplified"])
def test_newton_variant_matches_cli(newton, cli, tmp_path):
    path = [p for p in examples() if name(p) == "four-bar"][0]
    status, _, stderr = run_cli(cli, ["run", path, "--until", "0.2", "--newton", newton,
                                      "--energy", "energy.csv"], tmp_path)
    assert status == 0, stderr
    model = Flexion.Model.new_from_file(path)
    model.set_end_time(0.2)
    sim = Flexion.Simulation.new(model, None)
    sim.set_newton(getattr(Flexion.Newton, newton.upper()))
    sim.run(None)
    header, rows = read_csv(tmp_path / "energy.csv")
    for key in ("H", "balance", "newton_iters", "factorisations"):
        column = header.index(key)
        assert [float(r[column]) for r in rows] == sim.get_series(key), key


def test_link_nodes_match_trace(cli, tmp_path):
    path = [p for p in examples() if name(p) == "four-bar"][0]
    status, _, stderr = run_cli(cli, ["run", path, "--until", "0.1", "--every", "50",
                                      "--trace", "trace.csv"], tmp_path)
    assert status == 0, stderr
    model = Flexion.Model.new_from_file(path)
    model.set_end_time(0.1)
    sim = Flexion.Simulation.new(model, None)
    sim.run(None)
    header, rows = read_csv(tmp_path / "trace.csv")
    assert header == ["t", "link", "node", "x", "y", "theta", "moment"]
    last = [r for r in rows if same_bits(r[0], sim.get_time())]
    assert last
    for link in model.list_links():
        nodes = [r for r in last if r[1] == link]
        # k drawn points per element of degree k (the four-bar's are 2)
        assert model.get_link_degree(link) == 2
        assert len(nodes) == model.get_link_degree(link) * model.get_link_elements(link) + 1
        for k, value in enumerate(["x", "y", "theta", "moment"]):
            got = sim.get_link_nodes(link, Flexion.NodeValue(k))
            assert len(got) == len(nodes)
            assert all(same_bits(r[3 + k], v) for r, v in zip(nodes, got)), (link, value)


def test_energy_is_conserved_to_round_off():
    path = [p for p in examples() if name(p) == "double-pendulum"][0]
    sim = Flexion.Simulation.new(Flexion.Model.new_from_file(path), None)
    sim.run_until(0.2, None)
    H = sim.get_series("H")
    # the energy scale of docs/theory.md §4: H itself starts at 0 here
    scale = max(max(abs(v) for v in sim.get_series(k)) for k in ("H", "kinetic", "elastic", "gravity"))
    assert max(abs(b) for b in sim.get_series("balance")) < 1e-10 * scale
    assert sim.get_newton_iterations() >= 1
    assert math.isclose(sim.get_energy(), H[-1], rel_tol=0, abs_tol=0)


def test_step_adds_one_frame():
    path = [p for p in examples() if name(p) == "cantilever"][0]
    model = Flexion.Model.new_from_file(path)
    sim = Flexion.Simulation.new(model, None)
    assert sim.get_n_frames() == 1 and sim.get_time() == 0.0
    sim.step(None)
    assert sim.get_n_frames() == 2
    assert sim.get_time() == model.get_time_step()
    # run_until counts steps as the CLI does: ceil(t / dt)
    sim.run_until(0.0105, None)
    assert sim.get_n_frames() == 12


def test_nothing_on_stdout(tmp_path):
    """A script's stdout is its own: the library prints nothing there."""
    import subprocess
    import sys
    folder = os.path.dirname(examples()[0])
    script = f"""
import gi
gi.require_version("Flexion", "1.0")
from gi.repository import Flexion, GLib
m = Flexion.Model.new_from_file({os.path.join(folder, "four-bar.flexion")!r})
m.set_end_time(0.1)
Flexion.Simulation.new(m, None).run(None)
Flexion.Modes.new(m, 3, None)
try:
    m.set_link_elements("crank", 0)
except GLib.Error:
    pass
n = Flexion.Model.new_from_file({os.path.join(folder, "stochastic-spaghetti.flexion")!r})
n.set_end_time(0.05)
Flexion.Ensemble.new(n, 2, 1, None)
"""
    p = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert p.stdout == ""


def test_history_off_keeps_the_newest_frame_only():
    path = [p for p in examples() if name(p) == "four-bar"][0]
    model = Flexion.Model.new_from_file(path)
    model.set_end_time(0.1)
    full = Flexion.Simulation.new(model, None)
    full.run(None)
    lean = Flexion.Simulation.new(model, None)
    lean.set_keep_history(False)
    lean.run(None)
    assert lean.get_n_frames() == full.get_n_frames() == 51
    assert lean.get_series("H") == full.get_series("H")[-1:]
    assert lean.get_probe_series("P", Flexion.ProbeValue.X) == \
        full.get_probe_series("P", Flexion.ProbeValue.X)[-1:]
    assert lean.get_reaction("O", Flexion.Reaction.FY) == full.get_reaction("O", Flexion.Reaction.FY)


def test_degree_and_material_damping_run_matches_cli(cli, tmp_path):
    """A model changed through the API (degree 2, Kelvin-Voigt damping),
    saved, runs in flexion-cli to the same numbers."""
    path = [p for p in examples() if name(p) == "cantilever"][0]
    model = Flexion.Model.new_from_file(path)
    model.set_link_degree("beam", 2)
    model.set_link_elements("beam", 6)
    model.set_link_value("beam", "damping.kelvin_voigt", 1e-3)
    model.set_end_time(0.2)
    model.save(str(tmp_path / "changed.flexion"))
    status, _, stderr = run_cli(cli, ["run", "changed.flexion", "--energy", "energy.csv",
                                      "--probes", "probes.csv"], tmp_path)
    assert status == 0, stderr
    sim = Flexion.Simulation.new(model, None)
    sim.run(None)
    header, rows = read_csv(tmp_path / "energy.csv")
    for key in ("H", "dissipated", "balance"):
        column = header.index(key)
        assert all(same_bits(r[column], v) for r, v in zip(rows, sim.get_series(key))), key
    assert sum(sim.get_series("dissipated")) > 0
    header, rows = read_csv(tmp_path / "probes.csv")
    column = header.index("tip.y")
    assert all(same_bits(r[column], v)
               for r, v in zip(rows, sim.get_probe_series("tip", Flexion.ProbeValue.Y)))
    # degree 2: three points per element drawn, as the trace has them
    assert len(sim.get_link_nodes("beam", Flexion.NodeValue.Y)) >= 7
