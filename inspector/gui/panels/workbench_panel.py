"""Inputs and outputs: the marks, what stripping would drop, what still needs feeding,
feed points traced from an output, and ready-to-copy names and command lines."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core.view.vocabulary import count, human_bytes


class WorkbenchPanel(QWidget):
    """Marks, what stripping keeps, traced feed points and copy buttons; asks by signals."""

    jump = Signal(str)
    suggest_requested = Signal()
    proposal_chosen = Signal(str)     # mark this traced feed point as an input
    copy_requested = Signal(str)      # "names", "transform_graph", ...

    def __init__(self, parent=None):
        super().__init__(parent)
        self.marks = QListWidget()
        self.marks.itemClicked.connect(self._clicked)
        self.info = QLabel("Mark inputs and outputs: select a node and press I or O, use the "
                           "context menu, or take the suggestions.")
        self.info.setWordWrap(True)
        self.warning = QLabel("")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #c0392b")
        self.suggest = QPushButton("Use suggested inputs and outputs")
        self.suggest.clicked.connect(self.suggest_requested.emit)
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
            button.clicked.connect(lambda _=False, k=key: self.copy_requested.emit(k))
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

    def show_marks(self, inputs: list, outputs: list):
        self.marks.clear()
        for kind, names in (("input", inputs), ("output", outputs)):
            for name in names:
                item = QListWidgetItem(f"{kind}: {name}")
                item.setData(Qt.UserRole, name)
                self.marks.addItem(item)

    def show_preview(self, preview):
        if preview is None:
            self.info.setText("Mark at least one output to see what stripping keeps.")
            self.warning.setText("")
            return
        roles = sorted(set(preview.training_only.values()))
        self.info.setText(
            f"Stripping keeps {count(len(preview.kept), 'node')} and drops {len(preview.dropped)} "
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
        if name:
            self.proposal_chosen.emit(name)
