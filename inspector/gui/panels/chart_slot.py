"""Charts whose library is imported after the first picture.

Importing pyqtgraph costs 0.2-0.4 s (it copies every Qt class into its own modules), all of
it before a window could show a model. The app calls `defer()` at start; panels then hold a
ChartSlot, an empty widget that gets its PlotWidget once pyqtgraph has been imported on a
background thread (`import_in_background`, started when the first picture is up). A panel
draws through `slot.draw(fn)`: fn(plot, pg) runs at once when the chart exists, else the
latest one runs when it arrives. Without defer() (tests, tools) charts are made at once."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

_deferred = False
_waiting: list = []          # slots waiting for pyqtgraph
_thread: threading.Thread | None = None


class _Arrival(QObject):
    """Carries 'pyqtgraph is imported' from the importing thread to the GUI thread."""

    imported = Signal()


_arrival: _Arrival | None = None


def defer() -> None:
    """Charts wait for import_in_background (the app's start calls this before its window).
    What pyqtgraph's import did on the way is done here: PySide makes its Python classes
    and enums on first use, and made later, while a model loads on a task thread, they
    cost the GUI thread ~40 ms of pauses; touching them all now costs ~0.1 s once."""
    global _deferred
    from PySide6 import QtCore, QtGui, QtWidgets

    _deferred = True
    for space in (QtCore, QtGui, QtWidgets, QtCore.Qt):
        for name in dir(space):
            getattr(space, name, None)


def pending() -> bool:
    """True while a chart on screen or with something to draw waits for pyqtgraph."""
    return any(slot._pending is not None or slot.isVisible() for slot in _waiting
               if slot.plot is None)


def _imported() -> bool:
    return _thread is not None and not _thread.is_alive()


def _ready() -> bool:
    """pyqtgraph may be used on the GUI thread now (never waits for the import)."""
    return not _deferred or _imported()


def import_in_background() -> None:
    """Import pyqtgraph on a thread (once); waiting slots get their charts on the GUI thread
    when it is done. Called on the GUI thread; later calls do nothing."""
    global _thread, _arrival
    if _thread is not None:
        return
    _arrival = _Arrival()
    _arrival.imported.connect(_give_charts)   # queued: emitted from the importing thread

    def run():
        import pyqtgraph  # noqa: F401

        _arrival.imported.emit()

    _thread = threading.Thread(target=run, name="import-pyqtgraph", daemon=True)
    _thread.start()


def _give_charts() -> None:
    """Charts for the slots on screen or with something to draw, one per turn of the event
    loop (each costs 30-40 ms to make); the others are made when first shown or drawn."""
    from PySide6.QtCore import QTimer

    while _waiting:
        slot = _waiting.pop(0)
        try:
            if slot._pending is None and not slot.isVisible():
                continue
            slot._make()
        except RuntimeError:     # its panel was closed meanwhile
            continue
        break
    if _waiting:
        QTimer.singleShot(0, _give_charts)


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
        self.plot = pg.PlotWidget(background=None)
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

    def draw(self, fn) -> None:
        """fn(plot, pyqtgraph) now, or when the chart exists (only the latest is kept)."""
        if self.plot is None and _ready():
            self._make()
        if self.plot is None:
            self._pending = fn
            return
        import pyqtgraph as pg

        fn(self.plot, pg)
