"""What the app's first picture does not need waits until that picture is on screen.

The transforms' catalogue imports numpy and every transform (~0.12 s; 0.5 s on the slow
machine class), needed only by panels hidden at start (the Pipeline panel's palette and
parameter form). The app calls `defer()` before its window exists; a panel then hands such
work to `when_needed(widget, key, fn)`, which runs it at once when nothing is deferred (tests,
later windows), else when `widget` is first shown or after `release()`: the app's start
calls it once the first picture is drawn (or a model could not be opened). release() imports
the modules on a thread first (the GUI thread keeps answering), then runs what waited on the
GUI thread, one piece per event-loop turn; for the latest call per key only."""

from __future__ import annotations

import threading

from PySide6.QtCore import QEvent, QObject, QTimer, Signal

# imported by release() on a thread before the waiting work runs
MODULES = ("numpy", "inspector.core.transforms.catalogue", "inspector.core.app.queries")

_deferred = False
_waiting: dict = {}          # key -> (widget, fn): the latest request per key
_released = False            # release() was called
_ready = False               # ... and its imports are done: nothing waits any more


def defer() -> None:
    global _deferred
    _deferred = True


def deferred() -> bool:
    """True while work waits for the first picture (or its widget's first show)."""
    return _deferred and not _ready


def when_needed(widget, key: str, fn) -> None:
    """fn() now, or (while deferred) when `widget` is first shown or after release()."""
    if not deferred():
        fn()
        return
    first = key not in _waiting
    _waiting[key] = (widget, fn)
    if first:
        watcher = _ShowWatcher(widget, key)
        widget.installEventFilter(watcher)


def run_now(key: str) -> None:
    """The waiting work of `key`, now (its widget is shown, or it is asked for)."""
    entry = _waiting.pop(key, None)
    if entry is not None:
        entry[1]()


class _ShowWatcher(QObject):
    def __init__(self, widget, key: str):
        super().__init__(widget)
        self.key = key

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Show:
            obj.removeEventFilter(self)
            run_now(self.key)
        return False


class _Imported(QObject):
    """Carries 'the modules are imported' from the importing thread to the GUI thread."""

    done = Signal()


_carrier: _Imported | None = None


def release() -> None:
    """The first picture is up: import MODULES on a thread, then run what waited (one piece
    per event-loop turn). Later calls do nothing."""
    global _released, _carrier
    if _released or not _deferred:
        return
    _released = True
    _carrier = _Imported()
    _carrier.done.connect(_run_waiting)     # queued: emitted from the importing thread

    def run():
        import importlib

        for name in MODULES:
            try:
                importlib.import_module(name)
            except ImportError:
                pass                 # the work that needs it reports the failure
        _carrier.done.emit()

    threading.Thread(target=run, name="inspector-imports-later", daemon=True).start()


def _run_waiting() -> None:
    global _ready
    _ready = True
    if not _waiting:
        return
    key = next(iter(_waiting))
    run_now(key)
    if _waiting:
        QTimer.singleShot(0, _run_waiting)
