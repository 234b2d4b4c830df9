"""How the comparison window opens: both sides' first pictures are made in the task that
compared (layouts()), with where each first view starts; the window's frame is painted first,
its panes saying "Drawing A…", then one side's picture goes in per event-loop turn. Built,
shown and painted in one event, the window held the GUI thread ~30 ms of CPU on a 300k pair
(~130 ms on the slow class)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer

from inspector.core.app.comparing import CompareSession
from inspector.core.view.vocabulary import plain
from inspector.gui.canvas.edges import edge_geometry


def layouts(session: CompareSession, sides, task) -> dict:
    """In a task, one side after the other (one thread competing with the GUI for the GIL,
    not two): side -> (expanded, scene, its edges' geometry, its diff marks, changes_first,
    or None where a node is selected: its view goes there, n / p's do not need it)."""
    plain("Conv2D")          # the glossary is read here, not by the first box on the GUI thread
    out = {}
    for side in sides:
        expanded = session.expanded[side]
        scene = session.views[side].scene(expanded, task)
        out[side] = (expanded, scene, edge_geometry(scene.edges, scene.items, scene.direction),
                     session.paint(side, scene.items, expanded),
                     None if session.selected[side] else
                     changes_first(session, side, scene.items, expanded))
    return out


def changes_first(session: CompareSession, side: str, items, expanded) -> list:
    """The drawn items holding the side's first changes, in the order the flow meets them:
    where its first view starts with Changed only on (walking up to 4096 marks for them took
    the GUI thread 10-17 ms a side on a 300k pair)."""
    return sorted(session.changes_drawn(side, items, expanded),
                  key=lambda i: (items[i].y, items[i].x))


class CompareOpening:
    """Mixed into CompareWindow (a QMainWindow with `session`, `canvases`, `_first` (the
    layouts() made with the comparison), `_drawn`, `_pending`, `_show` and `refresh`)."""

    UNPAINTED_MS = 300      # a window never painted (not exposed) starts its sides then

    def _start_opening(self) -> None:
        self._opening: list = []       # (side, layouts() result) still to show, in order
        self._sides_started = False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._first is None:
            return
        first, self._first = self._first, None
        for side, result in first.items():
            if result[0] == self.session.expanded[side]:
                self._drawn[side] = (result[0], result[3])
                self._pending.add(side)
                self._opening.append((side, result))
                self.canvases[side].show_waiting(f"Drawing {side}…")
        if self._opening:         # the first paint of pane A starts them
            self.canvases["A"].viewport().installEventFilter(self)
            QTimer.singleShot(self.UNPAINTED_MS, self, self._start_sides)
        self.refresh()

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Paint and self._opening:
            QTimer.singleShot(1, self, self._start_sides)   # after this paint, and after a
        return False                                        # timer it made late

    def _start_sides(self) -> None:
        self.canvases["A"].viewport().removeEventFilter(self)
        if self._opening and not self._sides_started:
            self._sides_started = True
            self._next_side()

    def _next_side(self) -> None:
        """The next side's first picture (unless a newer layout of it came first), one side
        per event-loop turn."""
        while self._opening:
            side, result = self._opening.pop(0)
            if side in self._pending and result[0] == self.session.expanded[side]:
                self._show(side, *result)
                break
        if self._opening:
            QTimer.singleShot(1, self, self._next_side)
