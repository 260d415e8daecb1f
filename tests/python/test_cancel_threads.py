"""A cancelled run stops within a step; two simulations in two threads give
the numbers they give one after another."""
import threading
import time

import pytest
from gi.repository import Flexion, Gio, GLib

from conftest import examples
from test_run import name


def model_of(example):
    return Flexion.Model.new_from_file([p for p in examples() if name(p) == example][0])


def test_cancelled_before_the_call():
    sim = Flexion.Simulation.new(model_of("cantilever"), None)
    cancellable = Gio.Cancellable()
    cancellable.cancel()
    for call in (lambda: sim.step(cancellable), lambda: sim.run_until(1.0, cancellable),
                 lambda: Flexion.Simulation.new(model_of("cantilever"), cancellable),
                 lambda: Flexion.Modes.new(model_of("cantilever"), 3, cancellable)):
        with pytest.raises(GLib.Error) as info:
            call()
        assert info.value.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED)
    assert sim.get_n_frames() == 1


def test_cancel_from_another_thread_stops_the_run():
    model = model_of("four-bar")
    model.set_end_time(2000.0)  # a million steps: minutes, were it not cancelled
    sim = Flexion.Simulation.new(model, None)
    cancellable = Gio.Cancellable()
    cancelled_at = []

    def cancel():
        cancelled_at.append(time.monotonic())
        cancellable.cancel()

    timer = threading.Timer(0.3, cancel)
    timer.start()
    with pytest.raises(GLib.Error) as info:
        sim.run(cancellable)  # PyGObject lets the timer's thread run meanwhile
    stopped_at = time.monotonic()
    timer.join()
    assert info.value.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED)
    frames = sim.get_n_frames()
    assert 1 < frames < 1_000_000
    # a step of this model takes about 0.1 ms: stopping within one is far
    # below this bound, which only a run that ignored the cancel would pass
    assert stopped_at - cancelled_at[0] < 5.0
    # the frames taken stay, and the run goes on from there
    t = sim.get_time()
    sim.step(None)
    assert sim.get_n_frames() == frames + 1 and sim.get_time() > t


def test_cancelled_ensemble():
    cancellable = Gio.Cancellable()
    cancellable.cancel()
    with pytest.raises(GLib.Error) as info:
        Flexion.Ensemble.new(model_of("stochastic-spaghetti"), 4, 1, cancellable)
    assert info.value.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED)


def run_series(example, results):
    model = model_of(example)
    model.set_end_time(min(model.get_end_time(), 0.5))
    sim = Flexion.Simulation.new(model, None)
    sim.run(None)
    results[example] = (sim.get_series("H"), sim.get_series("balance"),
                        [sim.get_probe_series(p, Flexion.ProbeValue.Y) for p in model.list_probes()])


def test_two_threads_give_the_same_numbers():
    alone = {}
    for example in ("four-bar", "struck-beam"):
        run_series(example, alone)
    together = {}
    threads = [threading.Thread(target=run_series, args=(e, together))
               for e in ("four-bar", "struck-beam")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone
    assert len(alone["four-bar"][0]) > 100
