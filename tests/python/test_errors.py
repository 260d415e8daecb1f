"""Errors are GLib.Errors with flexion-cli's sentences: a file it refuses
(every file of tests/broken), a model it cannot build, a value the checker
refuses; a refused value leaves the model as it was."""
import json
import os

import pytest
from gi.repository import Flexion, GLib

from conftest import examples, run_cli
from test_run import name


def broken_files():
    folder = os.path.join(os.environ["FLEXION_SOURCE_ROOT"], "tests", "broken")
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".flexion"))


def cli_problems(stderr, path):
    """The lines flexion-cli prints under "PATH: invalid model:", unindented."""
    lines = stderr.splitlines()
    start = lines.index(f"{path}: invalid model:") + 1
    return [line[2:] for line in lines[start:] if line.startswith("  ")]


def api_problems(path):
    """The API's error for `path` (loading, else building), as lines."""
    try:
        model = Flexion.Model.new_from_file(path)
        Flexion.Simulation.new(model, None)
    except GLib.Error as e:
        assert e.domain == "flexion-error-quark"
        return [line for line in e.message.splitlines() if line.strip()]
    return None


@pytest.mark.parametrize("path", broken_files(), ids=lambda p: os.path.basename(p))
def test_broken_file_has_the_cli_sentences(path, cli, tmp_path):
    status, _, stderr = run_cli(cli, ["check", path], tmp_path)
    assert status == 2, stderr
    expected = cli_problems(stderr, path)
    got = api_problems(path)
    assert got is not None, "the API took a file flexion-cli refuses"
    # the CLI shows at most 20 lines, then "... and N more"
    if expected and expected[-1].startswith("... and "):
        more = int(expected[-1].split()[2])
        assert got[:20] == expected[:-1] and len(got) == 20 + more
    else:
        assert got == expected


def cantilever():
    return [p for p in examples() if name(p) == "cantilever"][0]


def test_refused_value_raises_the_checkers_sentence(cli, tmp_path):
    model = Flexion.Model.new_from_file(cantilever())
    with pytest.raises(GLib.Error) as info:
        model.set_link_elements("beam", 0)
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.INVALID)
    assert model.get_link_elements("beam") == 20  # unchanged

    # the same value in a file: flexion-cli says the same sentence
    data = json.loads(model.to_json())
    data["links"][0]["elements"] = 0
    (tmp_path / "zero.flexion").write_text(json.dumps(data))
    status, _, stderr = run_cli(cli, ["check", "zero.flexion"], tmp_path)
    assert status == 2
    assert cli_problems(stderr, "zero.flexion") == [info.value.message]


@pytest.mark.parametrize("call", [
    lambda m: m.set_link_value("beam", "E", -7e10),
    lambda m: m.set_link_value("beam", "shape.height", 0.0),
    lambda m: m.set_joint_mass("tip", -1.0),
    lambda m: m.set_time_step(0.0),
    lambda m: m.set_end_time(-1.0),
    lambda m: m.set_gravity(0.0, 1e9),
    lambda m: m.set_joint_support("tip", "glue"),
    lambda m: m.set_load_force("pluck", 1e20, 0.0),
], ids=["E", "height", "mass", "dt", "end", "gravity", "support", "force"])
def test_checker_rules(call):
    model = Flexion.Model.new_from_file(cantilever())
    before = model.to_json()
    with pytest.raises(GLib.Error) as info:
        call(model)
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.INVALID)
    assert ": " in info.value.message  # "JSON.path: reason"
    assert model.to_json() == before


def test_unknown_ids_and_keys():
    model = Flexion.Model.new_from_file(cantilever())
    for call in (lambda: model.get_link_elements("nope"),
                 lambda: model.get_joint_position("nope"),
                 lambda: model.get_link_value("beam", "colour"),
                 lambda: model.get_link_value("beam", "rhoA" if False else "shape.diameter"),
                 lambda: model.get_motor_value("nope")):
        with pytest.raises(GLib.Error) as info:
            call()
        assert info.value.matches(Flexion.error_quark(), Flexion.Error.NOT_FOUND)
    sim = Flexion.Simulation.new(model, None)
    with pytest.raises(GLib.Error):
        sim.get_probe_series("nope", Flexion.ProbeValue.X)
    with pytest.raises(GLib.Error):
        sim.get_series("energy")


def test_setters_change_what_runs(tmp_path):
    model = Flexion.Model.new_from_file(cantilever())
    model.set_link_value("beam", "shape.height", 0.02)  # material form: EI derived again
    assert model.get_link_value("beam", "EI") == pytest.approx(8 * 116.66666666666669)
    model.set_link_value("beam", "EI", 100.0)  # canonical form from now on
    assert model.get_link_value("beam", "EI") == 100.0
    with pytest.raises(GLib.Error):
        model.get_link_value("beam", "E")
    model.set_joint_position("tip", 2.0, 0.0)
    assert model.get_link_length("beam") == 2.0
    model.set_load_force("pluck", 0.0, -40.0)
    assert model.get_load_force("pluck") == (0.0, -40.0)
    model.set_gravity(0.0, -1.62)
    assert model.get_gravity() == (0.0, -1.62)
    model.set_link_value("beam", "damping.velocity", 0.5)
    model.save(str(tmp_path / "changed.flexion"))
    again = Flexion.Model.new_from_file(str(tmp_path / "changed.flexion"))
    assert again.to_json() == model.to_json()
    assert again.check()
    copy = again.copy()
    copy.set_link_elements("beam", 7)
    assert again.get_link_elements("beam") == 20


def test_bad_json_and_missing_file(tmp_path):
    with pytest.raises(GLib.Error) as info:
        Flexion.Model.new_from_json("{ nope")
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.PARSE)
    with pytest.raises(GLib.Error) as info:
        Flexion.Model.new_from_file(str(tmp_path / "absent.flexion"))
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.IO)


def test_warnings_are_kept(tmp_path):
    data = json.loads(Flexion.Model.new_from_file(cantilever()).to_json())
    data["colour"] = "red"
    model = Flexion.Model.new_from_json(json.dumps(data))
    assert any("colour" in w for w in model.get_warnings())


def test_profiles():
    model = Flexion.Model.new_from_file(cantilever())
    assert model.get_load_profile("pluck") == "hat"
    assert model.get_load_profile_value("pluck", "t2") == 0.02
    with pytest.raises(GLib.Error) as info:
        model.set_load_profile_value("pluck", "t2", 0.005)  # before t1
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.INVALID)
    assert info.value.message.startswith("loads[0].profile.t2: ")
    with pytest.raises(GLib.Error) as info:
        model.get_load_profile_value("pluck", "frequency")  # a hat has none
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.NOT_FOUND)
    model.set_load_profile_value("pluck", "t2", 0.03)
    assert json.loads(model.to_json())["loads"][0]["profile"]["t2"] == 0.03

    gusty = [p for p in examples() if name(p) == "gusty-cantilever"][0]
    model = Flexion.Model.new_from_file(gusty)
    assert model.get_load_profile("gust-33") == "ou"
    assert model.get_load_profile_value("gust-33", "std") == 0.4
    assert model.get_load_profile_value("gust-33", "t1") == 1.0  # of the ramp it multiplies
    # the three gusts share one noise stream: one alone cannot change
    with pytest.raises(GLib.Error) as info:
        model.set_load_profile_value("gust-33", "tau", 0.2)
    assert 'stream "gust" is shared' in info.value.message
    assert model.get_load_profile_value("gust-33", "tau") == 0.8
    with pytest.raises(GLib.Error):
        model.set_load_profile_value("wind-33", "std", 0.1)  # a ramp has no noise


def test_degree_rules():
    model = Flexion.Model.new_from_file(cantilever())
    assert model.get_link_degree("beam") == 1
    with pytest.raises(GLib.Error) as info:
        model.set_link_degree("beam", 4)
    assert info.value.message == "links[0].degree: must be an integer from 1 to 3, got 4"
    model.set_link_degree("beam", 3)
    assert json.loads(model.to_json())["links"][0]["degree"] == 3


def slider_crank():
    return [p for p in examples() if name(p) == "slider-crank"][0]


def test_each_typed_value_round_trips():
    """Every typed setter changes the value its getter reads, and refuses a
    non-finite number by its parameter's name, leaving the model as it was."""
    model = Flexion.Model.new_from_file(cantilever())
    model.set_joint_mass("tip", 0.25)
    assert model.get_joint_mass("tip") == 0.25
    model.set_load_moment("pluck", 3.5)
    assert model.get_load_moment("pluck") == 3.5
    model.set_link_degree("beam", 3)
    assert model.get_link_degree("beam") == 3
    model.set_joint_position("tip", 1.5, 0.25)
    assert model.get_joint_position("tip") == (1.5, 0.25)
    crank = Flexion.Model.new_from_file(slider_crank())
    crank.set_motor_value("drive", 7.0)
    assert crank.get_motor_value("drive") == 7.0

    for call, what in ((lambda: model.set_joint_position("tip", 0.0, float("nan")), "y"),
                       (lambda: model.set_load_force("pluck", float("inf"), 0.0), "fx"),
                       (lambda: model.set_load_moment("pluck", float("nan")), "moment"),
                       (lambda: model.set_joint_mass("tip", float("inf")), "mass"),
                       (lambda: crank.set_motor_value("drive", float("nan")), "value")):
        before = (model.to_json(), crank.to_json())
        with pytest.raises(GLib.Error) as info:
            call()
        assert info.value.message == f"{what} must be a finite number"
        assert (model.to_json(), crank.to_json()) == before
    with pytest.raises(GLib.Error) as info:
        model.get_load_moment("nope")
    assert info.value.matches(Flexion.error_quark(), Flexion.Error.NOT_FOUND)
