"""One job token (as Orange's TaskState) through every long function: `check()` raises
Cancelled once the job is cancelled, `progress(done, total, text)` reports how far it is,
`partial(value)` hands on a result so far. Long core functions take `job: Job = NO_JOB`
instead of separate cancel flags and callbacks; `job.part(...)` gives a part of a job its
own range and words in the progress. The task runner makes one per request and also makes it the
thread's current job, which the TensorFlow executor reads for calls given no job."""

from __future__ import annotations

import contextlib
import threading
from typing import Callable

from inspector.core.errors import Cancelled

_local = threading.local()


class Job:
    def __init__(self, cancel: threading.Event | None = None,
                 on_progress: Callable | None = None, on_partial: Callable | None = None):
        self.cancel_event = cancel if cancel is not None else threading.Event()
        self._on_progress, self._on_partial = on_progress, on_partial

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def cancel(self) -> None:
        self.cancel_event.set()

    def check(self) -> None:
        """Raise Cancelled if the job was cancelled (call it between steps)."""
        if self.cancel_event.is_set():
            raise Cancelled()

    def every(self, k: int, mask: int = 4095) -> None:
        """check() once every mask + 1 iterations of a tight loop."""
        if not k & mask and self.cancel_event.is_set():
            raise Cancelled()

    def progress(self, done: int, total: int, text: str = "") -> None:
        if self._on_progress is not None:
            self._on_progress(done, total, text)

    def partial(self, value) -> None:
        """A result so far (a receiver drops it when the request was superseded)."""
        if self._on_partial is not None:
            self._on_partial(value)

    def part(self, text: str = "{}", start: int = 0, total: int | None = None) -> Job:
        """A part of this job, same cancel and partials: its progress (done, own total,
        words) is reported as (start + done, `total` or its own, `text` with the words in
        place of {})."""
        def relay(done, own_total, words=""):
            self.progress(start + done, own_total if total is None else total,
                          text.replace("{}", words))
        return Job(self.cancel_event, relay if self._on_progress else None, self._on_partial)

    @property
    def reports(self) -> bool:
        """Someone listens to its progress or partials (a marshalled job needs to know)."""
        return self._on_progress is not None or self._on_partial is not None


class _NoJob(Job):
    """The job of a call nobody can cancel or watch."""

    def cancel(self) -> None:   # never shared state: cancelling it would cancel every caller
        raise RuntimeError("NO_JOB cannot be cancelled")


NO_JOB: Job = _NoJob()


def of(job: Job | None) -> Job:
    """`job`, or the thread's current job, or NO_JOB."""
    return job if job is not None else current()


def current() -> Job:
    """The job of the task running on this thread (NO_JOB outside tasks)."""
    return getattr(_local, "job", None) or NO_JOB


@contextlib.contextmanager
def running(job: Job):
    """Make `job` this thread's current job inside the block (the task runner does this)."""
    previous = getattr(_local, "job", None)
    _local.job = job
    try:
        yield job
    finally:
        _local.job = previous
