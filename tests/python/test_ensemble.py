"""An ensemble through the API equals `flexion-cli ensemble`'s statistics,
to the byte (the statistics do not depend on the threads)."""
import csv

from gi.repository import Flexion, GLib
import pytest

from conftest import examples, run_cli
from test_run import name, same_bits


def test_ensemble_matches_cli(cli, tmp_path):
    path = [p for p in examples() if name(p) == "stochastic-spaghetti"][0]
    status, _, stderr = run_cli(cli, ["ensemble", path, "--samples", "6", "--threads", "2",
                                      "--stats", "cli.csv"], tmp_path)
    assert status == 0, stderr
    model = Flexion.Model.new_from_file(path)
    ensemble = Flexion.Ensemble.new(model, 6, 1, None)
    ensemble.write_stats(str(tmp_path / "api.csv"))
    assert (tmp_path / "api.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()

    assert ensemble.get_n_samples() == 6 and ensemble.get_n_ok() == 6
    assert ensemble.get_n_failed() == 0
    assert ensemble.get_worst_balance() < 1e-10
    with open(tmp_path / "cli.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    times = ensemble.get_times()
    assert len(rows) == len(times)
    columns = ensemble.list_columns()
    assert columns[:6] == ["H", "kinetic", "elastic", "gravity", "supplied", "dissipated"]
    probe = model.list_probes()[0]
    for column in ("H", probe + ".y"):
        mean = ensemble.get_mean(column)
        std = ensemble.get_std(column)
        q95 = ensemble.get_quantile(column, 0.95)
        for row, t, m, s, q in zip(rows, times, mean, std, q95):
            assert same_bits(row["t"], t)
            assert same_bits(row[column + ".mean"], m)
            assert same_bits(row[column + ".std"], s)
            assert same_bits(row[column + ".q95"], q)
    with pytest.raises(GLib.Error):
        ensemble.get_mean("nope")
