"""What the app's first picture does not need waits until that picture is on screen.

Every transform imported (numpy with them: ~0.12 s; 0.5 s on the slow machine class) is
needed only by a panel hidden at start (the Pipeline panel's palette and parameter form).
The app calls `defer()` before its window exists; a panel then hands such work to
`when_needed(widget, key, fn)`, which runs it at once when nothing is deferred (tests, later
windows), else when `widget` is first shown or after `release()`: the app's start calls it
once the first picture is drawn (or a model could not be opened). release() imports the
modules (core.app.start.import_after_first_picture, and those named by `preload`: the later
panels' modules) on a thread first (the GUI thread keeps answering), then runs what waited on
the GUI thread, one piece per event-loop turn, while no task of the window is busy (`wait_while`:
a widget made while a task's thread computes waits for the GIL at each of its many Qt calls,
~20 ms of work became a ~190 ms stall on a 300k-node model; at most BUSY_WAIT seconds); for the
latest call per widget and key only."""

from __future__ import annotations

import importlib
import time

from PySide6.QtCore import QEvent, QObject, QTimer

from inspector.core.app.start import import_after_first_picture
from inspector.gui.startup.thread_then import on_thread_then

_deferred = False
_waiting: dict = {}          # (id of widget, key) -> (widget, fn): the latest request
_released = False            # release() was called
_ready = False               # ... and its imports are done: nothing waits any more
_preload: list = []          # () -> module names release() imports on its thread too
_busy = None                 # () -> True while the deferred work should wait (wait_while)
_until = 0.0                 # ... but not past this time.monotonic()
BUSY_WAIT = 20.0             # seconds after release() that work waits for a busy window


def defer() -> None:
    global _deferred
    _deferred = True


def preload(modules) -> None:
    """Have release() import on its thread too the modules that modules() names (what the
    deferred work will import: the later panels', window_later.later_modules); called
    there, not before the first picture (~20-35 ms)."""
    _preload.append(modules)


def wait_while(busy) -> None:
    """After release(), run the waiting work only while busy() is False (the window's tasks
    are idle), for at most BUSY_WAIT seconds; a panel shown or read is made at once anyway."""
    global _busy
    _busy = busy


def deferred() -> bool:
    """True while work waits for the first picture (or its widget's first show)."""
    return _deferred and not _ready


def when_needed(widget, key: str, fn, seen=None) -> None:
    """fn() now, or (while deferred) when `widget` is first shown or after release(); of
    several requests of one widget under one key, the latest. `seen`: a signal(bool) that
    says when the widget is seen, in place of its Show event (a dock's visibilityChanged: a
    dock tabbed behind another is shown with the window, yet not seen)."""
    if not deferred():
        fn()
        return
    slot = (id(widget), key)
    first = slot not in _waiting
    _waiting[slot] = (widget, fn)
    if first and seen is None:
        widget.installEventFilter(_ShowWatcher(widget, slot))
    elif first:
        _SeenWatcher(widget, slot, seen)


def run_now(slot: tuple) -> None:
    """The waiting work of `slot` (widget id, key), now."""
    entry = _waiting.pop(slot, None)
    if entry is not None:
        try:
            entry[1]()
        except RuntimeError:         # its widget was deleted meanwhile
            pass


class _ShowWatcher(QObject):
    def __init__(self, widget, slot: tuple):
        super().__init__(widget)
        self.slot = slot

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Show:
            obj.removeEventFilter(self)
            run_now(self.slot)
        return False


class _SeenWatcher(QObject):
    def __init__(self, widget, slot: tuple, seen):
        super().__init__(widget)
        self.slot, self.seen = slot, seen
        seen.connect(self._seen)

    def _seen(self, on: bool) -> None:
        if on:
            self.seen.disconnect(self._seen)
            run_now(self.slot)


def release() -> None:
    """The first picture is up: import MODULES on a thread, then run what waited (one piece
    per event-loop turn). Later calls do nothing."""
    global _released
    if _released or not _deferred:
        return
    _released = True

    def imports():
        try:
            import_after_first_picture()
            for modules in _preload:
                for name in modules():
                    importlib.import_module(name)
        except Exception:  # noqa: BLE001  (the work that needs it reports the failure)
            pass

    on_thread_then(imports, _run_waiting, "inspector-imports-later")


def _is_busy() -> bool:
    try:
        return _busy is not None and bool(_busy())
    except RuntimeError:         # its window was deleted meanwhile
        return False


def _run_waiting() -> None:
    global _ready, _until
    if not _ready:
        _ready, _until = True, time.monotonic() + BUSY_WAIT
    if not _waiting:
        return
    if time.monotonic() < _until and _is_busy():
        QTimer.singleShot(50, _run_waiting)     # a task computes: later
        return
    run_now(next(iter(_waiting)))
    if _waiting:
        QTimer.singleShot(0, _run_waiting)
