"""Search box: substring or regex over names, ops and attrs; Enter and F3 step through."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.core.analysis.search import find_nodes
from inspector.core.errors import InspectorError


class SearchPanel(QWidget):
    jump = Signal(str)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.box = QLineEdit()
        self.box.setPlaceholderText("Find node, op or attribute (Enter / F3)")
        self.box.setClearButtonEnabled(True)
        self.regex = QCheckBox("regex")
        self.status = QLabel("")
        self.results = QListWidget()
        self.results.currentRowChanged.connect(self._row_changed)
        row = QHBoxLayout()
        row.addWidget(self.box, 1)
        row.addWidget(self.regex)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.results, 1)
        self.box.returnPressed.connect(self.next)
        self.box.textChanged.connect(lambda *_: self._stale())
        self.regex.toggled.connect(lambda *_: self._stale())
        self.matches: list = []
        self._query = None

    def _stale(self):
        self._query = None

    def run(self) -> list:
        graph = self.state.view.graph if self.state.view else None
        key = (self.box.text(), self.regex.isChecked())
        if graph is None:
            return []
        if key != self._query:
            self._query = key
            try:
                self.matches = find_nodes(graph, key[0], regex=key[1])
                self.status.setText(f"{len(self.matches)} matches" if key[0] else "")
            except InspectorError as exc:
                self.matches = []
                self.status.setText(exc.message)
            self.results.blockSignals(True)
            self.results.clear()
            self.results.addItems(self.matches[:2000])
            self.results.blockSignals(False)
        return self.matches

    def next(self, step: int = 1) -> str | None:
        matches = self.run()
        if not matches:
            return None
        row = self.results.currentRow()
        row = 0 if row < 0 and step > 0 else (row + step) % min(len(matches), 2000)
        self.results.setCurrentRow(row)
        return matches[row]

    def _row_changed(self, row: int):
        if 0 <= row < len(self.matches):
            self.jump.emit(self.matches[row])

    def focus(self):
        self.box.setFocus(Qt.ShortcutFocusReason)
        self.box.selectAll()
