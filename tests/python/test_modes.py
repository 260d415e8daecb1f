"""Modes through the API equal `flexion-cli modes`'s, bit for bit, for every
example: the same frequency table and nodal shapes (written by the same
writer) and the same numbers read as arrays."""
import csv

import pytest
from gi.repository import Flexion, GLib

from conftest import examples, run_cli
from test_run import name

KIND = {"vibration": Flexion.ModeKind.VIBRATION, "motion": Flexion.ModeKind.MOTION,
        "self-stress": Flexion.ModeKind.SELF_STRESS,
        "regularisation": Flexion.ModeKind.REGULARISATION}


@pytest.mark.parametrize("path", examples(), ids=name)
def test_modes_match_cli(path, cli, tmp_path):
    status, stdout, stderr = run_cli(cli, ["modes", path, "--csv", "cli.csv",
                                           "--shapes", "cli-shapes.csv"], tmp_path)
    model = Flexion.Model.new_from_file(path)
    if status != 0:
        with pytest.raises(GLib.Error) as info:
            Flexion.Modes.new(model, 10, None)
        assert f"{path}: no modes:\n  {info.value.message}\n" in stderr
        return
    modes = Flexion.Modes.new(model, 10, None)
    modes.write_csv(str(tmp_path / "api.csv"))
    modes.write_shapes(str(tmp_path / "api-shapes.csv"))
    assert (tmp_path / "api.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    assert (tmp_path / "api-shapes.csv").read_bytes() == (tmp_path / "cli-shapes.csv").read_bytes()
    assert stdout.startswith(f"{path}: {modes.get_summary()}\n")
    if modes.get_counted():
        assert f"motions (mobility): {modes.get_mobility()}\n" in stdout
        assert f"self-stress states (static indeterminacy): {modes.get_self_stress()}\n" in stdout

    with open(tmp_path / "cli.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == modes.get_n_modes()
    for i, row in enumerate(rows):
        assert modes.get_kind(i) == KIND[row["kind"]]
        # the table's writer prints %.10g (fx-modes.c)
        assert row["frequency_hz"] == "%.10g" % modes.get_frequency(i)
    vibrations = [r["frequency_hz"] for r in rows if r["kind"] == "vibration"]
    assert ["%.10g" % f for f in modes.get_frequencies(Flexion.ModeKind.VIBRATION)] == vibrations


def test_cantilever_shapes_and_names():
    path = [p for p in examples() if name(p) == "cantilever"][0]
    model = Flexion.Model.new_from_file(path)
    modes = Flexion.Modes.new(model, 3, None)
    first = modes.find("1")
    assert modes.get_kind(first) == Flexion.ModeKind.VIBRATION
    assert modes.get_index(first) == 1
    assert "Hz" in modes.get_label(first)
    # first bending: the tip moves most (|d| = 1), the clamped end least
    dy = modes.get_link_shape(first, "beam", Flexion.ShapeValue.DY)
    assert len(dy) == model.get_link_elements("beam") + 1
    assert abs(dy[-1]) == max(abs(v) for v in dy) == 1.0
    assert abs(dy[0]) == min(abs(v) for v in dy)
    assert len(modes.get_shape(first, Flexion.ShapeValue.DY)) >= len(dy)
    with pytest.raises(GLib.Error) as info:
        modes.find("motion:1")  # a cantilever has no motion
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.NOT_FOUND)


def test_frequency_falls_as_the_beam_gets_longer():
    """Euler-Bernoulli: f1 = 1.875^2 / (2 pi L^2) sqrt(EI / rhoA)."""
    import math
    path = [p for p in examples() if name(p) == "cantilever"][0]
    model = Flexion.Model.new_from_file(path)
    model.set_link_elements("beam", 40)
    f = []
    for length in (1.0, 2.0):
        model.set_joint_position("tip", length, 0.0)
        f.append(Flexion.Modes.new(model, 1, None).get_frequencies(Flexion.ModeKind.VIBRATION)[0])
        EI = model.get_link_value("beam", "EI")
        rhoA = model.get_link_value("beam", "rhoA")
        exact = 1.875104 ** 2 / (2 * math.pi * length ** 2) * math.sqrt(EI / rhoA)
        assert abs(f[-1] - exact) < 0.01 * exact
    assert f[1] < f[0] / 3.9
