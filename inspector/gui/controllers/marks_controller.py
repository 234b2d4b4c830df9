"""Marked inputs and outputs: the strip preview (what stays, what goes, what still needs
feeding) computed off the GUI thread after every change, feed points traced from an output,
the suggested marks, and ready-to-copy names and command lines."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from inspector.core.app.exports import command_line
from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.app.marks import start_strip, start_trace
from inspector.core.app.ports import suggested_ports


class MarksController(QObject):
    def __init__(self, state, tasks, panel=None):
        """`panel`: the Inputs and outputs panel, or None until it is made (`attach`: it is
        hidden at start); the strip preview and traces go on without it."""
        super().__init__(panel)
        self.state, self.tasks, self.panel = state, tasks, None
        self.bench = state.workbench
        self.proposals: list = []
        self.preview: tuple = ()        # (the last strip preview,) once one has arrived
        self.bench.changed.connect(self._changed)
        state.model_changed.connect(lambda *_: self._model_changed())
        state.trace_requested.connect(self.trace)
        state.strip_changed.connect(self._show_preview)
        state.proposals_changed.connect(self._show_proposals)
        if panel is not None:
            self.attach(panel)

    def attach(self, panel) -> None:
        """The panel, made now: wired, showing what it would show had it been there all
        along (the marks, the last strip preview, the traced feed points)."""
        self.panel = panel
        panel.suggest_requested.connect(self.use_suggestions)
        panel.proposal_chosen.connect(self._mark_proposal)
        panel.copy_requested.connect(self.copy)
        panel.show_marks(self.bench.inputs, self.bench.outputs)
        if self.preview:
            panel.show_preview(self.preview[0])
        panel.show_proposals(self.proposals)

    def _model_changed(self):
        self.proposals = []
        if self.panel is not None:
            self.panel.show_proposals([])
        self._changed()

    def _changed(self):
        if self.panel is not None:
            self.panel.show_marks(self.bench.inputs, self.bench.outputs)
        self.request_strip()

    def _show_preview(self, preview) -> None:
        self.preview = (preview,)
        if self.panel is not None:
            self.panel.show_preview(preview)

    def request_strip(self):
        start_strip(self.state, self.tasks)

    def trace(self, name: str) -> None:
        """Follow an output back to the places a mobile app would feed."""
        start_trace(self.state, self.tasks, name)

    def _show_proposals(self, proposals) -> None:
        self.proposals = proposals
        if self.panel is not None:
            self.panel.show_proposals(proposals)

    def _mark_proposal(self, name: str):
        if name not in self.bench.inputs:
            self.bench.toggle_input(name)

    def use_suggestions(self):
        summary = self.state.summary
        if summary is None:
            return
        self.bench.set_marks(*suggested_ports(summary))

    def command(self, key: str) -> str:
        model = self.state.model
        path = model.path if model else "model.pb"
        ins, outs = self.bench.inputs, self.bench.outputs
        shapes, types = input_shapes_and_types(self.state)
        if key == "names":
            return f"inputs: {','.join(ins)}\noutputs: {','.join(outs)}"
        return command_line(key, path, ins, outs, shapes=shapes, types=types,
                            transforms=self.bench.text or "strip_unused_nodes",
                            kind=model.kind if model else "graphdef")

    def copy(self, key: str) -> str:
        text = self.command(key)
        QApplication.clipboard().setText(text)
        self.state.say("Copied: " + text.splitlines()[0][:120])
        return text
