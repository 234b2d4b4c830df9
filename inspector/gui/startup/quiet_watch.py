"""When the window has been quiet for a second: no task's work running (runtime.threads.busy,
quiet requests too) and no key, mouse or wheel input. The app's start then warms up and
imports what its charts need (app.charts_after_first_picture).

Input is watched on the window's QWindow, where the platform's input arrives before Qt hands
it to a widget, not by an application-wide event filter: that one put every event of every
object through Python (each paint, timer and posted event; Qt objects Python had never seen
got wrappers and their classes' enums made on the way), and while a task's thread computed,
each of those calls waited for the GIL (on blocks 100k/300k, stalls of 100-350 ms in the 10 s
after the first picture, bench/stall_watch.py)."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QTimer

from inspector.core.runtime import threads

QUIET_SECONDS = 1.0
INPUTS = (QEvent.KeyPress, QEvent.MouseButtonPress, QEvent.Wheel, QEvent.MouseMove)


class QuietWatch(QObject):
    """`then()` once, after `start()`, when the window (its Qt parent: no Python reference
    to it, no cycle) has been quiet QUIET_SECONDS."""

    def __init__(self, window, then):
        super().__init__(window)
        self.then = then
        self.quiet_since = time.monotonic()
        self.inputs = 0                 # input events seen (tests count them)
        self.watched = None             # the QWindow (or widget) whose events come here
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._poll)

    def start(self) -> None:
        """From the first picture on (watching costs the start something, for nothing)."""
        self.quiet_since = time.monotonic()
        window = self.parent()
        handle = window.windowHandle()
        self.watched = handle if handle is not None else window
        self.watched.installEventFilter(self)
        self.timer.start(250)

    def eventFilter(self, obj, event) -> bool:
        if event.type() in INPUTS:
            self.inputs += 1
            self.quiet_since = time.monotonic()
        return False

    def _poll(self) -> None:
        if threads.busy():
            self.quiet_since = time.monotonic()
        elif time.monotonic() - self.quiet_since >= QUIET_SECONDS:
            self.timer.stop()
            if self.watched is not None:
                self.watched.removeEventFilter(self)
                self.watched = None
            self.then()
