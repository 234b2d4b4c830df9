"""runtime/threads.py: work goes to a thread that is already waiting, so the caller (the GUI
thread) never waits in threading.Thread.start() for a new thread to get the GIL."""

from __future__ import annotations

import threading
import time

from inspector.core.runtime import threads
from inspector.core.runtime.tasks import Tasks


def _starts_by(monkeypatch) -> list:
    """The names of the threads that call Thread.start() from now on."""
    seen = []
    real = threading.Thread.start

    def start(self):
        seen.append(threading.current_thread().name)
        real(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    return seen


def test_requests_start_no_thread_on_the_callers_thread(monkeypatch):
    posted = []
    tasks = Tasks(posted.append)
    time.sleep(0.05)                       # the spare made by Tasks() is up
    starts = _starts_by(monkeypatch)
    release = threading.Event()
    for kind in ("layout", "summary", "search"):      # three at once: each needs a thread
        tasks.submit(kind, lambda job: release.wait(5) and threading.current_thread().name,
                     lambda result: None)
    me = threading.current_thread().name
    assert me not in starts
    release.set()
    assert tasks.wait(5.0)
    for fn in posted:
        fn()
    assert not tasks.is_busy()
    assert me not in starts


def test_each_piece_of_work_runs_once_under_its_name_and_is_waited_for():
    seen, lock = [], threading.Lock()

    def work(i):
        def run():
            time.sleep(0.01 * (i % 3))
            with lock:
                seen.append((i, threading.current_thread().name))
        return run

    done = [threads.start(work(i), f"inspector-w{i}") for i in range(12)]
    assert all(d.wait(5.0) for d in done)
    assert sorted(seen) == [(i, f"inspector-w{i}") for i in range(12)]


def test_a_failing_piece_of_work_leaves_its_thread_for_the_next(capsys):
    done = threads.start(lambda: 1 / 0, "inspector-fails")
    assert done.wait(5.0)
    after = []
    assert threads.start(lambda: after.append(True), "inspector-next").wait(5.0)
    assert after == [True]
    assert "ZeroDivisionError" in capsys.readouterr().err


def test_settle_waits_for_the_running_work_and_the_daemon_threads():
    """The app's end (gui/app_end.py) waits with settle() until no thread runs Python."""
    work_may_end, daemon_may_end = threading.Event(), threading.Event()
    ended = []
    threads.start(lambda: work_may_end.wait(30) and ended.append("work"), "test-work")
    thread = threads.daemon(lambda: daemon_may_end.wait(30) and ended.append("daemon"),
                            "test-daemon")
    assert thread.daemon and thread.name == "test-daemon"
    assert threads.settle(0.0) is False           # both run: not settled
    work_may_end.set()
    assert threads.settle(0.0) is False           # the daemon thread still runs
    daemon_may_end.set()
    assert threads.settle(30.0) is True
    assert sorted(ended) == ["daemon", "work"] and not thread.is_alive()


def test_a_daemon_thread_that_raises_is_not_waited_for_again(monkeypatch):
    raised = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_type))
    thread = threads.daemon(lambda: 1 / 0, "test-raising")
    thread.join(30)
    assert threads.settle(30.0) is True
    assert raised == [ZeroDivisionError]
