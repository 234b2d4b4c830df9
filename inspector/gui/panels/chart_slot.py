"""Charts whose library is imported after the first picture.

Importing pyqtgraph costs 0.2-0.4 s (it copies every Qt class into its own modules), all of
it before a window could show a model. The app calls `defer()` at start (and `warm_up()`
once the window is idle after its first picture); panels then hold a
ChartSlot, an empty widget that gets its PlotWidget once pyqtgraph has been imported on a
background thread (`import_in_background`, started when the first picture is up). A panel
draws through `slot.draw(fn)`: fn(plot, pg) runs at once when the chart exists, else the
latest one runs when it arrives. Without defer() (tests, tools) charts are made at once."""

from __future__ import annotations

import threading
import time

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QVBoxLayout, QWidget

from inspector.gui.startup.thread_then import on_thread_then

_deferred = False
_waiting: list = []          # slots waiting for pyqtgraph
_thread: threading.Thread | None = None


_busy = None                 # () -> True while a task's work runs (charts wait: _give_charts)
WAIT_WHILE_BUSY = 3.0        # seconds a chart with something to draw waits for a quiet moment


def defer() -> None:
    """Charts wait for import_in_background (the app's start calls this before its window)."""
    global _deferred
    _deferred = True


def warm_up(then=None, slice_seconds: float = 0.01) -> None:
    """What pyqtgraph's import did on the way, done on the GUI thread beforehand, in slices of
    `slice_seconds` (one per event-loop turn), then `then()`: PySide makes its Python classes
    and enums on first use, and made later, while a model loads on a task thread, they cost
    the GUI thread ~40 ms of pauses; touching them all costs ~0.1 s once (0.4 s on the slow
    class: after the first picture, not before it)."""
    names = ((space, name) for space in (QtCore, QtGui, QtWidgets, QtCore.Qt)
             for name in dir(space))

    def step():
        start = time.perf_counter()
        for space, name in names:
            getattr(space, name, None)
            if time.perf_counter() - start >= slice_seconds:
                QTimer.singleShot(0, step)
                return
        if then is not None:
            then()

    step()


def pending() -> bool:
    """True while a chart on screen or with something to draw waits for pyqtgraph."""
    return any(slot._pending is not None or slot.isVisible() for slot in _waiting
               if slot.plot is None)


def _imported() -> bool:
    return _thread is not None and not _thread.is_alive()


def _ready() -> bool:
    """pyqtgraph may be used on the GUI thread now (never waits for the import)."""
    return not _deferred or _imported()


def import_in_background(busy=None) -> None:
    """Import pyqtgraph on a thread (once); waiting slots get their charts on the GUI thread
    when it is done, while busy() (if given) says no task is running. Called on the GUI
    thread; later calls do nothing."""
    global _thread, _busy
    if _thread is not None:
        return
    _busy = busy
    _thread = on_thread_then(lambda: __import__("pyqtgraph"), _give_charts, "import-pyqtgraph")


def _give_charts(since: float | None = None) -> None:
    """Charts for the slots on screen or with something to draw, one per turn of the event
    loop (each costs 10-15 ms to make); the others are made when first shown or drawn.
    While a task's work runs (busy(): quiet ones too) they wait (made then, a chart's many
    short calls into Qt each wait for the task's thread to hand over the GIL: 110 ms for one
    chart during a search of a 300k-node graph), but a chart on screen with something to draw
    waits WAIT_WHILE_BUSY at most."""
    now = time.monotonic()
    since = now if since is None else since
    urgent = False       # a task runs: only a chart on screen with something to draw, overdue
    if _busy is not None and _busy():
        if now - since < WAIT_WHILE_BUSY or not any(map(_overdue, _waiting)):
            QTimer.singleShot(200, lambda: _give_charts(since))
            return
        urgent = True
    for slot in list(_waiting):
        try:
            wanted = _overdue(slot) if urgent else \
                slot._pending is not None or slot.isVisible()
        except RuntimeError:     # its panel was closed meanwhile
            wanted = False
        if not urgent or wanted:
            _waiting.remove(slot)
        if wanted:
            try:
                slot._make()
            except RuntimeError:
                continue
            break
    if _waiting:         # the next one in a later turn, after a new quiet-moment check
        QTimer.singleShot(0, lambda: _give_charts(since if urgent else None))


def _overdue(slot) -> bool:
    """On screen with something to draw (a hidden one is made when shown: showEvent)."""
    try:
        return slot._pending is not None and slot.isVisible()
    except RuntimeError:
        return False


class ChartSlot(QWidget):
    """Where a pyqtgraph PlotWidget goes; `plot` is None until it exists."""

    def __init__(self, setup=None, parent=None):
        super().__init__(parent)
        self.plot = None
        self._setup = setup
        self._pending = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if not _ready():
            _waiting.append(self)
        else:
            self._make()

    def _make(self) -> None:
        import pyqtgraph as pg

        if self.plot is not None:
            return
        self.plot = pg.PlotWidget(background=None, enableMenu=False)   # no menu: 30 % less
        self.plot.setMenuEnabled(False)
        if self._setup is not None:
            self._setup(self.plot)
        self.layout().addWidget(self.plot)
        self.plot.show()     # a child added to a shown widget stays hidden until shown
        pending, self._pending = self._pending, None
        if pending is not None:
            pending(self.plot, pg)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.plot is None and _ready():
            self._make()

    def reset(self) -> None:
        """Back to what it showed when made (another model opened); makes no chart."""
        self._pending = None
        if self.plot is not None:
            self.plot.clear()
            if self._setup is not None:
                self._setup(self.plot)

    def draw(self, fn) -> None:
        """fn(plot, pyqtgraph) now, or when the chart exists (only the latest is kept)."""
        if self.plot is None and _ready():
            self._make()
        if self.plot is None:
            self._pending = fn
            return
        import pyqtgraph as pg

        fn(self.plot, pg)
