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
    """Charts wait for import_in_background (the app's start calls this before its window)."""
    global _deferred
    _deferred = True


def pending() -> bool:
    """True while some chart still waits for pyqtgraph."""
    return bool(_waiting)


def _imported() -> bool:
    return _thread is not None and not _thread.is_alive()


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
    """One chart per turn of the event loop (each costs 30-40 ms to make)."""
    from PySide6.QtCore import QTimer

    if not _waiting:
        return
    slot = _waiting.pop(0)
    try:
        slot._make()
    except RuntimeError:     # its panel was closed meanwhile
        pass
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
        if _deferred and not _imported():
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

    def draw(self, fn) -> None:
        """fn(plot, pyqtgraph) now, or when the chart exists (only the latest is kept)."""
        if self.plot is None:
            self._pending = fn
            return
        import pyqtgraph as pg

        fn(self.plot, pg)
