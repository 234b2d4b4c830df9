"""Work on a thread, then a call on the GUI thread: how the app imports what its first
picture does not need (start_order) and pyqtgraph (chart_slot) while the window answers."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from inspector.core.runtime import threads


class _Carrier(QObject):
    """Carries 'done' from the working thread to the GUI thread (a queued signal)."""

    done = Signal()


_alive: set = set()


def on_thread_then(work, then, name: str) -> threading.Thread:
    """Starts work() on a daemon thread; then() runs on the GUI thread once it returns.
    Called on the GUI thread. If the app has quit meanwhile (its objects deleted), the
    signal is dropped instead of printing a traceback. The app's end waits for the thread
    (threads.daemon, threads.settle)."""
    carrier = _Carrier()
    _alive.add(carrier)            # kept until its signal is delivered

    def arrived():
        _alive.discard(carrier)
        then()

    carrier.done.connect(arrived)

    def run():
        work()
        try:
            carrier.done.emit()
        except RuntimeError:
            pass

    return threads.daemon(run, name)
