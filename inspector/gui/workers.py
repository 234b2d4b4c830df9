"""Run core functions off the GUI thread; drop results of superseded requests."""

from __future__ import annotations

import gc
import threading
import traceback

from PySide6.QtCore import QObject, Signal


_gc_lock = threading.Lock()
_gc_users = 0


class _no_gc:
    """Hold off garbage collection while a task runs: a full collection over a big graph's
    objects holds the GIL long enough to freeze the GUI thread. Tasks make few cycles."""

    def __enter__(self):
        global _gc_users
        with _gc_lock:
            _gc_users += 1
            gc.disable()

    def __exit__(self, *exc):
        global _gc_users
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0:
                gc.enable()
        return False


class _Relay(QObject):
    done = Signal(str, int, object)
    failed = Signal(str, int, object)


class _Task:
    """One request, run on a plain Python thread (TensorFlow crashed in QThreadPool threads
    while importing a graph; Python threads run it fine)."""

    def __init__(self, relay, kind, generation, fn, cancel):
        self.relay, self.kind, self.generation, self.fn, self.cancel = \
            relay, kind, generation, fn, cancel

    def run(self):
        try:
            with _no_gc():
                result = self.fn(self.cancel)
        except BaseException as exc:  # reported to the GUI thread, never raised in a worker
            exc.__inspector_trace__ = traceback.format_exc()
            self.relay.failed.emit(self.kind, self.generation, exc)
        else:
            self.relay.done.emit(self.kind, self.generation, result)


class TaskRunner(QObject):
    """One current request per kind ("load", "layout", ...); a new one cancels the old."""

    busy_changed = Signal(bool, str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._threads: list = []
        self._relay = _Relay()
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self._generation: dict = {}
        self._cancel: dict = {}
        self._callbacks: dict = {}
        self._labels: dict = {}

    def submit(self, kind: str, fn, on_done, on_error=None, label: str = "") -> None:
        """Run fn(cancel_event) on a worker thread; on_done(result) runs on the GUI thread."""
        self.cancel(kind)
        gen = self._generation.get(kind, 0) + 1
        self._generation[kind] = gen
        event = threading.Event()
        self._cancel[kind] = event
        self._callbacks[kind] = (on_done, on_error)
        self._labels[kind] = label or kind
        self.busy_changed.emit(True, self._labels[kind])
        task = _Task(self._relay, kind, gen, fn, event)
        thread = threading.Thread(target=task.run, name=f"inspector-{kind}", daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def cancel(self, kind: str | None = None) -> None:
        kinds = [kind] if kind else list(self._cancel)
        for k in kinds:
            event = self._cancel.pop(k, None)
            if event is not None:
                event.set()
                self._generation[k] = self._generation.get(k, 0) + 1
        if not self._cancel:
            self.busy_changed.emit(False, "")

    def is_busy(self) -> bool:
        return bool(self._cancel)

    def _finish(self, kind, generation):
        if self._generation.get(kind) != generation:
            return None  # superseded or cancelled: drop the result
        self._cancel.pop(kind, None)
        if not self._cancel:
            self.busy_changed.emit(False, "")
        return self._callbacks.get(kind)

    def _on_done(self, kind, generation, result):
        callbacks = self._finish(kind, generation)
        if callbacks:
            callbacks[0](result)

    def _on_failed(self, kind, generation, exc):
        callbacks = self._finish(kind, generation)
        if callbacks and callbacks[1]:
            callbacks[1](exc)

    def wait(self, msecs: int = 30000) -> bool:
        import time

        end = time.monotonic() + msecs / 1000.0
        for thread in list(self._threads):
            thread.join(max(end - time.monotonic(), 0.0))
        return not any(t.is_alive() for t in self._threads)
