"""The GUI-stall timer the GUI benches share: a 10 ms timer on the GUI thread whose longest
gap between beats is the window's longest stall, and a phase runner (start an action, keep
the event loop turning until it is done; the stall and the wall time of that phase).
bench/stall_watch.py is the one that also says where the stalls are. Beat and wait: the
same timer started and stopped by hand, and the event loop turned until a condition holds
(bench/scale_app.py times a first picture with them: this module imports nothing else, where
bench/gui_bench.py imports tests.fixtures, numpy and the TF layer's modules)."""

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


class Beat:
    """The 10 ms timer, started and stopped by hand: stop() is the longest gap since
    start()."""

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.last = None
        self.worst = 0.0

    def start(self):
        self.last = time.perf_counter()
        self.worst = 0.0
        self.timer.start()

    def tick(self):
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def stop(self) -> float:
        self.timer.stop()
        return self.worst


def wait(app, cond, timeout=300.0):
    end = time.perf_counter() + timeout
    while not cond():
        app.processEvents()
        time.sleep(0.001)
        if time.perf_counter() > end:
            raise TimeoutError
