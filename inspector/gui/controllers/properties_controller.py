"""The Properties panel's extras through their use cases (core/app/properties.py): a selected
scope's facts and the selected constant's values, counted off the GUI thread, TensorFlow's
own description of its op; they come back through the state."""

from __future__ import annotations

from PySide6.QtCore import QObject

from inspector.core.app import properties


class PropertiesController(QObject):
    def __init__(self, state, tasks, panel):
        super().__init__(panel)
        self.state, self.tasks, self.panel = state, tasks, panel
        self.described = 0   # descriptions delivered (tests wait on it)
        panel.tensor_wanted.connect(self.describe)
        panel.consumers_wanted.connect(self.list_consumers)
        panel.scope_wanted.connect(self.count_scope)
        state.scope_facts_changed.connect(panel.show_scope)
        state.selection_changed.connect(self.fetch_doc)
        state.described_changed.connect(self._show_tensor)
        state.op_doc_changed.connect(panel.show_doc)

    def fetch_doc(self, name) -> None:
        """TensorFlow's own description of the selected op, read where TensorFlow lives (the
        worker) and shown with credit under the glossary's two tiers."""
        properties.start_op_doc(self.state, self.tasks, name)

    def list_consumers(self, name: str) -> None:
        """A big graph's consumer index made in a task (not on the GUI thread at a click),
        then the selected node's consumers listed."""
        view = self.state.view
        if view is None:
            return
        graph = view.graph
        properties.start_consumers(self.state, self.tasks, graph,
                                   lambda: self.panel.show_consumers(name, graph),
                                   lambda why: self.panel.consumers_failed(name, graph, why))

    def count_scope(self, shown: str) -> None:
        """What the selected scope holds and what crosses its border, counted in a task."""
        properties.start_scope_facts(self.state, self.tasks, shown)

    def describe(self, const: str) -> None:
        properties.start_describe(self.state, self.tasks, const, self.panel.shown)

    def _show_tensor(self, described) -> None:
        self.described += 1
        self.panel.show_tensor(described.shown, described.values)
