"""runtime.apart: work run on the other core in a forked copy where forking is safe (the
command line), here where it is not (another thread runs) or when the copy fails; and the
diff's costs (gzip, FLOPs, latency) counted that way in the command line's process."""

import os
import threading

import pytest

from inspector.core.app import diffing
from inspector.core.runtime import apart
from tests.core.test_compare_scale import renamed_shuffled
from inspector.core.loaders import load
from tests.fixtures.scale_models import blocks_graph


@pytest.fixture(autouse=True)
def no_qt_here(monkeypatch):
    """pytest-qt has imported Qt (no application, no thread): as the command line's process."""
    monkeypatch.setattr(apart, "THREADED", ("tensorflow", "torch"))


def test_the_value_comes_from_a_forked_copy_where_forking_is_safe():
    here = os.getpid()
    value = apart.start(lambda: (os.getpid(), list(range(100_000))))
    pid, big = value()
    assert pid != here and pid == value.pid and big == list(range(100_000))


def test_with_another_thread_running_or_a_failing_copy_it_runs_here():
    here = os.getpid()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not apart.can_fork()
        assert apart.start(os.getpid)() == here
    finally:
        stop.set()
        other.join()
    parent = os.getpid()
    calls = []

    def fails_in_the_copy():
        calls.append(1)
        if os.getpid() != parent:
            raise RuntimeError("in the copy")
        return "here"
    assert apart.start(fails_in_the_copy)() == "here" and calls == [1]


def test_a_diffs_costs_are_counted_apart_and_equal_to_those_counted_here(monkeypatch):
    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    started = []
    real = apart.start

    def start(fn):
        started.append(fn)
        return real(fn)
    monkeypatch.setattr(apart, "start", start)
    apart_totals = diffing.diff_models(ga, gb).totals
    assert len(started) == 1
    monkeypatch.setenv("INSPECTOR_APART", "0")
    here = diffing.diff_models(ga, gb).totals
    assert len(started) == 1 and apart_totals == here and here["FLOPs"][0] > 0
