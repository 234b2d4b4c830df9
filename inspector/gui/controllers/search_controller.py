"""Search as you type: each change of the query (after a short pause) searches the shown graph
off the GUI thread, superseding the previous search; Enter and F3 step through the results,
waiting for them when they are still coming."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from inspector.core.app.search import start_search
from inspector.gui.panels.search_panel import SHOWN

PAUSE_MS = 120  # typing pause before a search starts


class SearchController(QObject):
    def __init__(self, state, tasks, panel, dialogs=None):
        """`dialogs`: unused (panel_table's controllers are made from the same four)."""
        super().__init__(panel)
        self.state, self.tasks, self.panel = state, tasks, panel
        self.found_for = None        # (graph, text, regex) the shown results belong to
        self.pending_step = 0        # a step asked for before the results came
        self.searches = 0            # finished searches (tests wait on it)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(PAUSE_MS)
        self.timer.timeout.connect(self.search)
        panel.query_changed.connect(lambda *_: self.timer.start())
        panel.step_requested.connect(self.step)
        state.view_changed.connect(lambda *_: self._view_changed())
        state.search_changed.connect(self._show)

    def _key(self):
        view = self.state.view
        text, regex = self.panel.query()
        return (view.graph if view is not None else None, text.strip(), regex)

    def _view_changed(self):
        self.found_for = None
        if self.panel.query()[0].strip():   # no result of the previous graph stays listed
            self.panel.show_results([], "Searching…")
            self.timer.start()

    def search(self) -> None:
        self.timer.stop()
        _, text, regex = self._key()
        if text and self.state.view is not None:
            self.panel.searching()
        start_search(self.state, self.tasks, text, regex, SHOWN)   # as many as it lists

    def _show(self, result) -> None:
        self.found_for = result.key
        self.searches += result.searched
        self.panel.show_results(result.names, result.words)
        step, self.pending_step = self.pending_step, 0
        if step and result.names:
            self.step(step)

    def step(self, step: int) -> None:
        """Jump to the next (+1) or previous (-1) result of the current query."""
        if self.found_for != self._key():
            self.pending_step = step
            self.search()
            return
        name = self.panel.step(step)
        if name:
            self.panel.jump.emit(name)
