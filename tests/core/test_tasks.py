"""The task protocol without Qt: one generation check drops results, partial results and
progress of superseded or cancelled requests; errors and cancellation are reported right."""

from __future__ import annotations

import threading
import time

import pytest

from inspector.core.errors import Cancelled
from inspector.core.runtime.tasks import Tasks


class Loop:
    """A stand-in for the GUI thread: posted callables run when pumped."""

    def __init__(self):
        self.queue, self.lock = [], threading.Lock()

    def post(self, fn):
        with self.lock:
            self.queue.append(fn)

    def pump(self, seconds: float = 2.0, until=lambda: False):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with self.lock:
                batch, self.queue = self.queue, []
            for fn in batch:
                fn()
            if until():
                return
            time.sleep(0.005)


@pytest.fixture
def loop():
    return Loop()


def test_partial_results_of_a_superseded_request_never_arrive(loop):
    """The stale-row race: the old preview kept sending rows after a newer one started."""
    tasks = Tasks(loop.post)
    seen = []
    release = threading.Event()

    def old(task):
        task.partial("old row 1")
        release.wait(2)
        task.partial("old row 2")   # sent after the new request exists
        return "old result"

    tasks.submit("preview", old, seen.append, on_partial=seen.append)
    loop.pump(0.3, until=lambda: "old row 1" in seen)
    tasks.submit("preview", lambda task: (task.partial("new row"), "new result")[1],
                 seen.append, on_partial=seen.append)
    release.set()
    loop.pump(2.0, until=lambda: "new result" in seen and not tasks.is_busy())
    loop.pump(0.3)
    assert seen == ["old row 1", "new row", "new result"]


def test_a_cancelled_request_reports_nothing_and_its_work_sees_the_flag(loop):
    tasks = Tasks(loop.post)
    seen, flags = [], []

    def work(task):
        for _ in range(200):
            if task.cancelled:
                flags.append("stopped")
                task.check()
            time.sleep(0.005)
        return "finished"

    tasks.submit("profile", work, seen.append, seen.append)
    time.sleep(0.05)
    tasks.cancel("profile")
    assert tasks.wait(3.0)
    loop.pump(0.2)
    assert seen == [] and flags == ["stopped"] and not tasks.is_busy()


def test_errors_and_progress_reach_the_current_request(loop):
    tasks = Tasks(loop.post)
    errors, progress, busy = [], [], []
    tasks.progress.connect(lambda d, t, text: progress.append((d, t)))
    tasks.busy.connect(lambda on, label: busy.append(on))

    def work(task):
        task.progress(1, 2)
        raise ValueError("broken")

    tasks.submit("check", work, lambda r: None, errors.append)
    loop.pump(2.0, until=lambda: errors)
    assert isinstance(errors[0], ValueError) and progress == [(1, 2)]
    assert busy[0] is True and busy[-1] is False


def test_cancelled_exceptions_are_not_errors(loop):
    tasks = Tasks(loop.post)
    errors = []

    def work(task):
        raise Cancelled()

    tasks.submit("layout", work, lambda r: None, errors.append)
    loop.pump(0.5)
    assert errors == [] and not tasks.is_busy()


def test_quiet_requests_never_show_as_busy(loop):
    """Searching as you type must not flash the progress bar on every key."""
    tasks = Tasks(loop.post)
    busy, results = [], []
    tasks.busy.connect(lambda on, label: busy.append((on, label)))
    tasks.submit("search", lambda task: 3, results.append, label="Searching", quiet=True)
    assert tasks.is_busy("search") and not tasks.is_busy() and tasks.labels() == []
    loop.pump(2.0, until=lambda: results)
    assert results == [3] and busy == []
    release = threading.Event()
    tasks.submit("load", lambda task: release.wait(2), results.append, label="Opening")
    tasks.submit("search", lambda task: 4, results.append, quiet=True)
    loop.pump(2.0, until=lambda: 4 in results)
    assert busy == [(True, "Opening")] and tasks.is_busy()  # the quiet one ended alone
    release.set()
    loop.pump(2.0, until=lambda: not tasks.is_busy())
    assert busy == [(True, "Opening"), (False, "")]


def test_quiet_requests_say_nothing_of_their_progress(loop):
    """A quiet request's progress text stayed in the status bar for good (the warm-up run of
    the Demo panel left "running the model" there): no busy end ever took it back."""
    tasks = Tasks(loop.post)
    progress, results = [], []
    tasks.progress.connect(lambda d, t, text: progress.append(text))

    def work(task):
        task.progress(0, 0, "running the model")
        return 1

    tasks.submit("demo-warm", work, results.append, quiet=True)
    loop.pump(2.0, until=lambda: results)
    assert results == [1] and progress == []
    tasks.submit("load", work, results.append, label="Opening")
    loop.pump(2.0, until=lambda: len(results) == 2)
    assert progress == ["running the model"]     # shown for work that shows as busy


def test_shown_is_the_work_said_last_and_cancelling_it_leaves_the_rest(loop):
    """The status line's Cancel means the work it speaks of (Tasks.shown): the latest
    submitted, or the latest whose progress had words; cancelled (or ended), the latest work
    left is said with `busy` (a panel waiting for the cancelled work stops waiting) and is
    the one shown; the other request still ends. Fails on the old code: no Tasks.shown."""
    tasks = Tasks(loop.post)
    busy, results = [], []
    tasks.busy.connect(lambda on, label: busy.append((on, label)))
    speak, end = threading.Event(), threading.Event()

    def reading(task):
        speak.wait(5)
        task.progress(1, 2, "reading constants")
        end.wait(5)
        return "read"

    tasks.submit("constants", reading, results.append, label="Reading")
    tasks.submit("sizes", lambda task: end.wait(5), results.append, label="Measuring")
    tasks.submit("search", lambda task: end.wait(5), results.append, quiet=True)
    assert tasks.shown() == "sizes"
    speak.set()
    loop.pump(2.0, until=lambda: tasks.shown() == "constants")
    assert tasks.shown() == "constants"
    busy.clear()
    tasks.cancel("constants")
    assert tasks.shown() == "sizes" and busy == [(True, "Measuring")]
    end.set()
    loop.pump(2.0, until=lambda: not tasks.is_busy())
    assert busy[-1] == (False, "") and "read" not in results and True in results
    first, second = threading.Event(), threading.Event()
    tasks.submit("a", lambda task: first.wait(5), results.append, label="A")
    tasks.submit("b", lambda task: second.wait(5), results.append, label="B")
    busy.clear()
    second.set()                           # the work said ends: the work left is said
    loop.pump(2.0, until=lambda: not tasks.is_busy("b"))
    assert busy == [(True, "A")] and tasks.shown() == "a"
    first.set()
    loop.pump(2.0, until=lambda: not tasks.is_busy())
    assert busy == [(True, "A"), (False, "")] and tasks.shown() is None


def test_cancel_all_cancels_every_tasks_requests(loop):
    """The app's end cancels the requests of every window (gui/app_end.py)."""
    from inspector.core.runtime import tasks as tasks_module

    seen = []
    a, b = Tasks(loop.post), Tasks(loop.post)
    for tasks, name in ((a, "a"), (b, "b")):
        tasks.submit("layout", lambda job, name=name: job.cancel_event.wait(30)
                     and seen.append(name), lambda result: seen.append("done"))
    tasks_module.cancel_all()
    assert a.wait(30) and b.wait(30)
    loop.pump(0.2)
    assert sorted(seen) == ["a", "b"]              # both saw the cancel, neither delivered
    assert not a.is_busy() and not b.is_busy()


def test_shown_work_replaced_by_quiet_work_of_its_kind_is_said_to_have_ended(loop):
    """The review: a quiet request replacing a shown one of the same kind took it away
    without a word, so the status line kept its label and busy bar for good."""
    tasks = Tasks(loop.post)
    busy, results = [], []
    tasks.busy.connect(lambda on, label: busy.append((on, label)))
    release = threading.Event()
    tasks.submit("preview", lambda task: release.wait(2), results.append, label="Computing")
    tasks.submit("preview", lambda task: 5, results.append, quiet=True)
    assert busy == [(True, "Computing"), (False, "")] and not tasks.is_busy()
    loop.pump(2.0, until=lambda: 5 in results)
    release.set()
    assert results == [5] and tasks.shown() is None
    held = threading.Event()                    # another shown work goes on being said
    tasks.submit("load", lambda task: held.wait(2), results.append, label="Opening")
    tasks.submit("preview", lambda task: held.wait(2), results.append, label="Computing")
    busy.clear()
    tasks.submit("preview", lambda task: 6, results.append, quiet=True)
    assert busy == [(True, "Opening")] and tasks.shown() == "load"
    held.set()
    loop.pump(2.0, until=lambda: not tasks.is_busy() and 6 in results)
    assert busy[-1] == (False, "")


def test_the_result_of_a_superseded_request_is_freed_on_its_own_thread(loop):
    """perf17cmp: a superseded request's result was sent to the front end's thread and
    dropped there by the generation check, so that thread freed it: a 200 MB comparison's
    document (550k entries, three 550k-name maps), or a reopened comparison's two models, in
    one long call that held the window. Dropped on the task's thread now; the current
    request's result still arrives. Fails on the old code (freed on the main thread)."""
    freed, seen = [], []

    class Big:
        def __init__(self, name):
            self.name = name

        def __del__(self):
            freed.append((self.name, threading.current_thread() is threading.main_thread()))

    tasks = Tasks(loop.post)
    started, go = threading.Event(), threading.Event()

    def old(job):
        started.set()
        go.wait(3.0)
        return Big("old")            # made after it was superseded: no check raised

    tasks.submit("compare", old, seen.append)
    assert started.wait(3.0)
    tasks.submit("compare", lambda job: Big("new"), seen.append)
    go.set()
    assert tasks.wait(3.0)
    loop.pump(1.0, until=lambda: seen)
    assert [b.name for b in seen] == ["new"]
    assert ("old", False) in freed and not any(name == "old" and main for name, main in freed)


def test_the_result_of_a_superseded_request_is_freed_in_short_calls(loop, monkeypatch):
    """review17: dropped on its own thread (f2f25e5e), a 550k-entry comparison was still
    freed in one C call holding the GIL ~0.5 s, and the window waited for the GIL as long.
    It goes to letting_go.free_in_steps (test_letting_go: other threads run meanwhile).
    Fails on f2f25e5e (the result dropped whole)."""
    from inspector.core.runtime import letting_go

    stepped = []
    real = letting_go.free_in_steps
    monkeypatch.setattr(letting_go, "free_in_steps",
                        lambda root: (stepped.append(type(root).__name__), real(root)))

    class Result:
        pass

    tasks = Tasks(loop.post)
    started, go, seen = threading.Event(), threading.Event(), []

    def old(job):
        started.set()
        go.wait(3.0)
        return Result()

    tasks.submit("compare", old, seen.append)
    assert started.wait(3.0)
    tasks.submit("compare", lambda job: "new", seen.append)
    go.set()
    assert tasks.wait(3.0)
    loop.pump(1.0, until=lambda: seen)
    assert seen == ["new"] and stepped == ["Result"]
