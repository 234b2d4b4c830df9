"""Inputs and outputs: the marks, what stripping would drop, what still needs feeding,
feed points traced from an output, and ready-to-copy names and command lines."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QToolButton,
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
        self.copy_button = QToolButton()      # one button, its menu the five formats
        self.copy_button.setText("Copy to the clipboard")
        self.copy_button.setPopupMode(QToolButton.InstantPopup)
        menu = QMenu(self.copy_button)
        self.copy_buttons = {}
        for key, label in [("names", "Names"), ("transform_graph", "transform_graph flags"),
                           ("benchmark_model", "benchmark_model flags"),
                           ("tflite_convert", "tflite_convert flags"),
                           ("optimize_for_inference", "optimize_for_inference flags")]:
            action = menu.addAction(label)
            action.triggered.connect(lambda _=False, k=key: self.copy_requested.emit(k))
            self.copy_buttons[key] = action
        self.copy_button.setMenu(menu)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.info)
        lay.addWidget(self.suggest)
        lay.addWidget(self.marks, 1)
        lay.addWidget(self.warning)
        self.traced = QLabel("Traced feed points (double-click to mark as input):")
        self.traced.setWordWrap(True)      # wrapped in a narrow dock, never cut
        lay.addWidget(self.traced)
        lay.addWidget(self.proposals, 1)
        lay.addWidget(self.copy_button)
        self.show_proposals([])            # shown once a trace found some

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
        self.traced.setVisible(bool(proposals))
        self.proposals.setVisible(bool(proposals))
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
