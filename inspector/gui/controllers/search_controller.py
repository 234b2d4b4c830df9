"""Search as you type: each change of the query (after a short pause) searches the shown graph
off the GUI thread, superseding the previous search; Enter and F3 step through the results,
waiting for them when they are still coming."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from inspector.core.errors import InspectorError

PAUSE_MS = 120  # typing pause before a search starts


class SearchController(QObject):
    def __init__(self, state, tasks, panel):
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
        from inspector.core.app.queries import index_for

        self.timer.stop()
        key = self._key()
        graph, text, regex = key
        if graph is None or not text:
            self.tasks.cancel("search", quiet=True)
            self.found_for = key
            self.panel.show_results([], "Type to search the graph" if graph is not None
                                    else "Open a model to search it")
            self.pending_step = 0
            return
        self.panel.searching()

        def work(task):
            return index_for(graph, task).find(text, regex, job=task)

        def done(found):
            self.found_for = key
            self.searches += 1
            self.panel.show_results(found.names, found.describe())
            step, self.pending_step = self.pending_step, 0
            if step:
                self.step(step)

        def failed(exc):
            self.found_for = key
            self.searches += 1
            self.pending_step = 0
            self.panel.show_results([], exc.message if isinstance(exc, InspectorError)
                                    else str(exc))

        self.tasks.submit("search", work, done, failed, label="Searching", quiet=True)

    def step(self, step: int) -> None:
        """Jump to the next (+1) or previous (-1) result of the current query."""
        if self.found_for != self._key():
            self.pending_step = step
            self.search()
            return
        name = self.panel.step(step)
        if name:
            self.panel.jump.emit(name)
