"""One protocol for work off the GUI thread: a request per kind replaces the previous one of
that kind; results, partial results and progress all pass one generation check, so nothing
from a superseded or cancelled request ever reaches the state. Qt-free: the front end gives
`post`, the way back to its own thread (gui/tasks.py), and the threads are plain Python ones
(TensorFlow crashed importing graphs in QThreadPool threads)."""

from __future__ import annotations

import threading
import time
import traceback
import weakref
from dataclasses import dataclass
from typing import Callable

from inspector.core.errors import Cancelled
from inspector.core.runtime import gc_policy, letting_go, threads
from inspector.core.runtime.events import Event
from inspector.core.runtime.job import Job, running


@dataclass
class _Request:
    generation: int
    on_done: Callable
    on_error: Callable | None
    on_partial: Callable | None
    label: str
    cancel: threading.Event
    quiet: bool = False      # not shown as busy (quick work that follows typing)


_every: weakref.WeakSet = weakref.WeakSet()     # every Tasks alive (cancel_all)


def cancel_all() -> None:
    """Cancel the requests of every Tasks (every window's), quietly: the app's end, before it
    waits for their threads (threads.settle)."""
    for tasks in list(_every):
        tasks.cancel(quiet=True)


class Tasks:
    """Run `work(job)` on a thread (job: runtime.job.Job); `on_done(result)`, `on_error(exc)`, `on_partial(value)`
    and the progress event run on the front end's thread, for the current request only."""

    def __init__(self, post: Callable[[Callable], None]):
        self._post = post                    # runs a callable on the front end's thread
        self._requests: dict = {}            # kind -> current _Request
        self._generation: dict = {}
        self._threads: list = []             # an Event per request, set when its work ended
        threads.warm()
        _every.add(self)
        self.busy = Event()                  # (busy: bool, label: str)
        self.progress = Event()              # (done, total, text) of the current requests
        self._shown = None                   # the kind whose words were said last (shown)

    def submit(self, kind: str, work: Callable, on_done: Callable, on_error=None,
               on_partial=None, label: str = "", quiet: bool = False) -> int:
        old = self._requests.get(kind)
        self.cancel(kind, quiet=True)
        gen = self._generation.get(kind, 0) + 1
        self._generation[kind] = gen
        request = _Request(gen, on_done, on_error, on_partial, label or kind, threading.Event(),
                           quiet)
        self._requests[kind] = request
        if not quiet:
            self._shown = kind
            self.busy.emit(True, request.label)
        elif old is not None and not old.quiet:   # shown work replaced by quiet work: its
            self._said_ended(kind)                # words go (the line said them for good)

        def send(what, payload):
            self._post(lambda: self._deliver(kind, gen, what, payload))

        def run():
            # the outcome of a superseded or cancelled request is dropped here, on this
            # thread (_deliver would drop it): sent, the front end's thread freed it, and a
            # 200 MB comparison's document, or two opened models, was one long call there
            try:
                job = Job(request.cancel, lambda *p: send("progress", p),
                          lambda value: send("partial", value))
                with gc_policy.paused(), running(job):
                    result = work(job)
            except BaseException as exc:  # reported on the front end's thread, never raised
                if not request.cancel.is_set():
                    exc.__inspector_trace__ = traceback.format_exc()
                    send("error", exc)
            else:
                if not request.cancel.is_set():
                    send("done", result)
                else:            # freed a few hundred items a call: at once, it was one C
                    box = [result]        # call holding the GIL (and so the window) as long
                    del result            # on this thread as on the GUI's (0.5 s, 550k entries)
                    letting_go.free_in_steps(box.pop())

        # a thread already waiting runs it: Thread.start() waits for the new thread, which
        # under a computing thread kept the GUI thread 56-93 ms (runtime/threads.py)
        done = threads.start(run, f"inspector-{kind}")
        self._threads = [t for t in self._threads if not t.is_set()] + [done]
        return gen

    def _deliver(self, kind: str, gen: int, what: str, payload) -> None:
        """The one generation check: anything of a superseded request is dropped here."""
        request = self._requests.get(kind)
        if request is None or request.generation != gen:
            return
        if what == "partial":
            if request.on_partial is not None:
                request.on_partial(payload)
            return
        if what == "progress":
            if not request.quiet:   # quiet work shows neither as busy nor by its progress:
                if len(payload) > 2 and payload[2]:    # nothing would take its words back
                    self._shown = kind
                self.progress.emit(*payload)
            return
        del self._requests[kind]
        if not request.quiet:
            self._said_ended(kind)
        if what == "done":
            request.on_done(payload)
        elif request.on_error is not None and not isinstance(payload, Cancelled):
            request.on_error(payload)

    def current(self, kind: str) -> int | None:
        """The generation (submit's return) of `kind`'s request still running, or None."""
        request = self._requests.get(kind)
        return None if request is None else request.generation

    def cancel(self, kind: str | None = None, quiet: bool = False) -> None:
        """Cancel the request of `kind` (None: every request) and say so with `busy` (see
        _said_ended; its panel stops waiting for it). `quiet`: nothing said."""
        stopped = []
        for k in [kind] if kind else list(self._requests):
            request = self._requests.pop(k, None)
            if request is not None:
                request.cancel.set()
                if not request.quiet:
                    stopped.append(k)
        if stopped and not quiet:
            self._said_ended(stopped[-1])
        elif not quiet and not self.is_busy():
            self.busy.emit(False, "")

    def _said_ended(self, kind: str) -> None:
        """A request shown as busy ended or was cancelled: `busy` False when nothing else
        runs; else, if its words were the ones said, the latest work left is said
        (busy True with its label) and becomes the one shown."""
        if not self.is_busy():
            self.busy.emit(False, "")
        elif kind == self._shown:
            self._shown, request = [(k, r) for k, r in self._requests.items() if not r.quiet][-1]
            self.busy.emit(True, request.label)

    def shown(self) -> str | None:
        """The running kind whose words (its label, or its progress's) were said last: what
        a status line shows, and what its Cancel means (None: none of those runs)."""
        request = self._requests.get(self._shown)
        return self._shown if request is not None and not request.quiet else None

    def label_of(self, kind: str) -> str:
        """What the running request of this kind is doing ('' when none runs)."""
        request = self._requests.get(kind)
        return request.label if request is not None else ""

    def labels(self) -> list:
        """What the running requests are doing, oldest first."""
        return [r.label for r in self._requests.values() if not r.quiet]

    def is_busy(self, kind: str | None = None) -> bool:
        """A request of this kind runs; without a kind: any request shown as busy."""
        if kind:
            return kind in self._requests
        return any(not r.quiet for r in self._requests.values())

    def wait(self, seconds: float = 30.0) -> bool:
        """Wait for the work of every request (for shutdown and tests); True when all of it
        has ended."""
        end = time.monotonic() + seconds
        for done in list(self._threads):
            done.wait(max(end - time.monotonic(), 0.0))
        return all(done.is_set() for done in self._threads)
