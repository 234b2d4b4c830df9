"""Inputs and outputs: the marks, what stripping would drop, what still needs feeding,
feed points traced from an output, and ready-to-copy names and command lines."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QApplication, QGridLayout, QLabel, QListWidget, QListWidgetItem,
                               QPushButton, QVBoxLayout, QWidget)

from inspector.core.formats import commands
from inspector.core.model.humanize import human_bytes


class WorkbenchPanel(QWidget):
    jump = Signal(str)

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window = window
        self.bench = window.workbench
        self.marks = QListWidget()
        self.marks.itemClicked.connect(self._clicked)
        self.info = QLabel("Mark inputs and outputs: select a node and press I or O, use the "
                           "context menu, or take the suggestions.")
        self.info.setWordWrap(True)
        self.warning = QLabel("")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #c0392b")
        self.suggest = QPushButton("Use suggested inputs and outputs")
        self.suggest.clicked.connect(self.use_suggestions)
        self.proposals = QListWidget()
        self.proposals.itemClicked.connect(self._clicked)
        self.proposals.itemDoubleClicked.connect(self._mark_proposal)
        grid = QGridLayout()
        self.copy_buttons = {}
        for i, (key, label) in enumerate([("names", "Copy names"),
                                          ("transform_graph", "transform_graph"),
                                          ("benchmark_model", "benchmark_model"),
                                          ("tflite_convert", "tflite_convert"),
                                          ("optimize_for_inference", "optimize_for_inference")]):
            button = QPushButton(label)
            button.clicked.connect(lambda _=False, k=key: self.copy(k))
            grid.addWidget(button, i // 2, i % 2)
            self.copy_buttons[key] = button
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.info)
        lay.addWidget(self.suggest)
        lay.addWidget(self.marks, 1)
        lay.addWidget(self.warning)
        lay.addWidget(QLabel("Traced feed points (double-click to mark as input):"))
        lay.addWidget(self.proposals, 1)
        lay.addWidget(QLabel("Copy to the clipboard:"))
        lay.addLayout(grid)
        self.bench.changed.connect(self.refresh_marks)

    def refresh_marks(self):
        self.marks.clear()
        for kind, names in (("input", self.bench.inputs), ("output", self.bench.outputs)):
            for name in names:
                item = QListWidgetItem(f"{kind}: {name}")
                item.setData(Qt.UserRole, name)
                self.marks.addItem(item)

    def show_preview(self, preview):
        if preview is None or not self.bench.outputs:
            self.info.setText("Mark at least one output to see what stripping keeps.")
            self.warning.setText("")
            return
        roles = sorted(set(preview.training_only.values()))
        self.info.setText(
            f"Stripping keeps {len(preview.kept)} nodes and drops {len(preview.dropped)} "
            f"({human_bytes(preview.dropped_bytes)})"
            + (f", of which {len(preview.training_only)} are training-only "
               f"({', '.join(roles)})" if roles else "") + ".")
        self.warning.setText(
            "Still needs feeding (the inputs do not cut these paths): "
            + ", ".join(preview.needs_feeding[:8]) if preview.needs_feeding else "")

    def show_proposals(self, proposals):
        self.proposals.clear()
        for p in proposals:
            item = QListWidgetItem(f"{p.name}   {p.dtype} {p.shape}".rstrip())
            item.setToolTip(p.reason)
            item.setData(Qt.UserRole, p.name)
            self.proposals.addItem(item)

    def _clicked(self, item):
        name = item.data(Qt.UserRole)
        if name:
            self.jump.emit(name)

    def _mark_proposal(self, item):
        name = item.data(Qt.UserRole)
        if name and name not in self.bench.inputs:
            self.bench.toggle_input(name)

    def use_suggestions(self):
        summary = self.window.summary_panel.summary
        if summary is None:
            return
        ins = [c.name for c in summary.inputs if c.score >= 100][:4]
        outs = [c.name for c in summary.outputs if c.score >= 100][:4]
        self.bench.set_marks(ins or [c.name for c in summary.inputs[:1]],
                             outs or [c.name for c in summary.outputs[:1]])

    def command(self, key: str) -> str:
        model = self.window.session.model
        path = model.path if model else "model.pb"
        ins, outs = self.bench.inputs, self.bench.outputs
        shapes, types = self.window.input_shapes_and_types()
        if key == "names":
            return f"inputs: {','.join(ins)}\noutputs: {','.join(outs)}"
        if key == "transform_graph":
            return commands.transform_graph(path, ins, outs, self.bench.text or
                                            "strip_unused_nodes")
        if key == "benchmark_model":
            return commands.benchmark_model(path, ins, outs, shapes, types)
        if key == "tflite_convert":
            return commands.tflite_convert(path, ins, outs, shapes)
        return commands.optimize_for_inference(path, ins, outs)

    def copy(self, key: str) -> str:
        text = self.command(key)
        QApplication.clipboard().setText(text)
        self.window.session.message.emit("Copied: " + text.splitlines()[0][:120])
        return text
