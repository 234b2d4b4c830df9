"""Reads and describes the selected constant's values off the GUI thread (they may still be in
the model file, and a 16 MB tensor takes longer than a frame to describe); a newer selection
supersedes the last one."""

from __future__ import annotations

from PySide6.QtCore import QObject


class PropertiesController(QObject):
    def __init__(self, state, tasks, panel):
        super().__init__(panel)
        self.state, self.tasks, self.panel = state, tasks, panel
        self.described = 0   # descriptions delivered (tests wait on it)
        self.docs: dict = {}  # op -> TensorFlow's own description (None: it has none)
        panel.tensor_wanted.connect(self.describe)
        state.selection_changed.connect(self.fetch_doc)

    def fetch_doc(self, name) -> None:
        """TensorFlow's own description of the selected op, read where TensorFlow lives (the
        worker) and shown with credit under the glossary's two tiers."""
        from inspector.core.runtime.executor import installed

        view = self.state.view
        node = view.graph.get(name) if view is not None and name else None
        if node is None or installed() is None:
            return
        op = node.op
        if op in self.docs:
            self.panel.show_doc(op, self.docs[op])
            return

        def work(task):
            return installed().op_doc(op)

        def done(text):
            self.docs[op] = text
            self.panel.show_doc(op, text)

        self.tasks.submit("op-doc", work, done, lambda exc: None, quiet=True)

    def describe(self, const: str) -> None:
        from inspector.core.app.queries import describe_tensor

        view = self.state.view
        if view is None:
            return
        graph, shown = view.graph, self.panel.shown

        def work(task):
            return describe_tensor(graph, const, task)

        def done(described):
            self.described += 1
            self.panel.show_tensor(shown, described)

        def failed(exc):
            self.described += 1
            self.panel.show_tensor(shown, None)
            self.state.message.emit(f"Cannot show the values of {const}: "
                                    f"{getattr(exc, 'message', None) or exc}")

        self.tasks.submit("tensor", work, done, failed, label="Reading values", quiet=True)
