"""runtime.apart: work run on the other core in a forked copy where forking is safe (the
command line), here where it is not (another thread runs) or when the copy fails; and the
diff's costs (gzip, FLOPs, latency) counted that way in the command line's process. The
forks are tried in a fresh interpreter: a test session may run other threads or have
TensorFlow loaded, where apart rightly runs everything here."""

import os
import subprocess
import sys
import textwrap
import threading

from inspector.core.runtime import apart

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fresh(code: str) -> str:
    """stdout of `code` run by a new Python, this tree first on its path."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=ROOT, timeout=50,
                          env=dict(os.environ, PYTHONPATH=ROOT, INSPECTOR_APART="1"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_the_value_comes_from_a_forked_copy_where_forking_is_safe():
    assert fresh("""
        import os
        from inspector.core.runtime import apart
        assert apart.can_fork()
        value = apart.start(lambda: (os.getpid(), list(range(100_000))))
        pid, big = value()
        assert pid != os.getpid() and pid == value.pid and big == list(range(100_000))
        print("forked")
    """) == "forked\n"


def test_with_another_thread_running_or_a_failing_copy_it_runs_here(monkeypatch):
    monkeypatch.setattr(apart, "THREADED", ())
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


def test_a_diffs_costs_are_counted_apart_and_equal_to_those_counted_here():
    assert fresh("""
        import os
        from inspector.core.app import diffing
        from inspector.core.loaders import load
        from inspector.core.runtime import apart
        from tests.core.test_compare_scale import renamed_shuffled
        from tests.fixtures.scale_models import blocks_graph

        ga = load(blocks_graph(3000, 0)).graph
        gb = renamed_shuffled(ga)[0]
        started, real = [], apart.start
        apart.start = lambda fn: started.append(fn) or real(fn)
        forked = diffing.diff_models(ga, gb).totals
        assert len(started) == 1
        os.environ["INSPECTOR_APART"] = "0"
        here = diffing.diff_models(ga, gb).totals
        assert len(started) == 1 and forked == here and here["FLOPs"][0] > 0
        print("same")
    """) == "same\n"


def test_the_copy_collects_no_garbage_even_where_this_process_does():
    """A collection in the copy walks the heap it shares with this process (each object's
    header written: a page copied): 300k-node fingerprints took 30 % longer. The copy leaves
    by os._exit, so it never needs one."""
    assert fresh("""
        import gc
        from inspector.core.runtime import apart
        gc.enable()
        assert apart.start(gc.isenabled)() is False and gc.isenabled()
        print("none")
    """) == "none\n"


def test_a_copy_that_dies_or_a_fork_that_fails_leaves_the_value_to_this_process():
    """The copy killed before it sends (out of memory, a signal), or os.fork refused: the
    value is made here, the same."""
    assert fresh("""
        import os, signal
        from inspector.core.runtime import apart
        parent = os.getpid()

        def dies_in_the_copy():
            if os.getpid() != parent:
                os.kill(os.getpid(), signal.SIGKILL)
            return "here"
        value = apart.start(dies_in_the_copy)
        assert value.pid != parent and value() == "here"

        def refused():
            raise OSError("fork refused")
        os.fork = refused
        assert apart.start(lambda: os.getpid())() == parent
        print("here")
    """) == "here\n"


def test_the_windows_process_never_forks():
    """Qt runs threads of its own: with PySide6 loaded (the window's process), nothing forks
    and every value is made here."""
    assert fresh("""
        import os
        import PySide6.QtCore  # noqa: F401
        from inspector.core.runtime import apart
        assert not apart.fork_safe() and not apart.can_fork()
        assert apart.start(os.getpid)() == os.getpid()
        print("never")
    """) == "never\n"


def test_the_fingerprints_copy_finds_bs_columns_made(monkeypatch):
    """B's columns (the matching and the diff read them here anyway) are made before B's
    fingerprints' copy is forked, so the copy does not make them again. (Its NodeDefs are
    read a piece at a time where they are needed, never kept: compare.columns.protos.)"""
    from inspector.core.compare import columns, matching
    from inspector.core.loaders import load
    from tests.core.test_compare_scale import renamed_shuffled
    from tests.fixtures.scale_models import blocks_graph

    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    made_at_fork = []

    def start(fn):
        made = columns._MADE.get(gb)
        made_at_fork.append(made is not None)
        return fn

    monkeypatch.setattr(matching, "APART_FROM", 0)
    monkeypatch.setattr(apart, "can_fork", lambda: True)
    monkeypatch.setattr(apart, "start", start)
    m = matching.match(ga, gb)
    assert made_at_fork == [True] and m.quality(len(ga))["matched"] > 0.99
