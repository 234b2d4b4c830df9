"""The GUI-stall timer the GUI benches share: a 10 ms timer on the GUI thread whose longest
gap between beats is the window's longest stall, and a phase runner (start an action, keep
the event loop turning until it is done; the stall and the wall time of that phase).
bench/stall_watch.py is the one that also says where the stalls are."""

from __future__ import annotations

import time


class Heartbeat:
    def __init__(self, interval_ms: int = 10):
        from PySide6.QtCore import QTimer

        self.worst, self.last = 0.0, time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def phase(self, app, action, done, timeout: float, name: str = "phase") -> tuple:
        """(longest stall, seconds) from action() until done() (checked every ~2 ms while
        the event loop runs); TimeoutError(name) after `timeout` seconds."""
        self.worst, self.last = 0.0, time.perf_counter()
        start = time.perf_counter()
        action()
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise TimeoutError(name)
            app.processEvents()
            time.sleep(0.002)
        return self.worst, time.perf_counter() - start
