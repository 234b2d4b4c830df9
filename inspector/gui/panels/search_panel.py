"""Search box: substring or regex over names, ops and attrs. Results follow the typing; Enter
and F3 step through them, a click jumps to one. The searching itself is the controller's."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

SHOWN = 2000  # rows in the list; more would only slow the list down


class SearchPanel(QWidget):
    jump = Signal(str)                 # a result was chosen
    query_changed = Signal(str, bool)  # text, regex
    step_requested = Signal(int)       # Enter: +1

    def __init__(self, parent=None):
        super().__init__(parent)
        self.box = QLineEdit()
        self.box.setPlaceholderText("Find node, op or attribute (Enter / F3)")
        self.box.setClearButtonEnabled(True)
        self.regex = QCheckBox("regex")
        self.status = QLabel("Type to search the graph")
        self.status.setWordWrap(True)
        self.results = QListWidget()
        self.results.setUniformItemSizes(True)
        self.results.setTextElideMode(Qt.ElideLeft)     # a long name shows its end
        self.results.currentRowChanged.connect(self._row_changed)
        self.results.viewport().installEventFilter(self)   # a row's tooltip: its whole name
        row = QHBoxLayout()
        row.addWidget(self.box, 1)
        row.addWidget(self.regex)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.results, 1)
        self.box.returnPressed.connect(lambda: self.step_requested.emit(1))
        self.box.textChanged.connect(lambda *_: self._changed())
        self.regex.toggled.connect(lambda *_: self._changed())
        self.matches: list = []

    def eventFilter(self, obj, event) -> bool:
        """The tooltip of a result is its whole name (asked for the row under the pointer,
        not set on 2,000 rows): a name longer than the side dock is cut at its start."""
        if event.type() == QEvent.ToolTip and obj is self.results.viewport():
            item = self.results.itemAt(event.pos())
            if item is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), item.text(), self.results.viewport())
            return True
        return False

    def query(self) -> tuple:
        return self.box.text(), self.regex.isChecked()

    def _changed(self):
        self.query_changed.emit(*self.query())

    def searching(self) -> None:
        self.status.setText("Searching…")

    def show_results(self, matches: list, status: str) -> None:
        """New results (the list is refilled without jumping anywhere)."""
        self.matches = list(matches)
        self.status.setText(status)
        self.results.blockSignals(True)
        self.results.clear()
        self.results.addItems(self.matches[:SHOWN])
        self.results.blockSignals(False)

    def step(self, step: int) -> str | None:
        """Select the next (+1) or previous (-1) result, wrapping; returns its name."""
        count = min(len(self.matches), SHOWN)
        if not count:
            return None
        row = self.results.currentRow()
        row = 0 if row < 0 and step > 0 else (row + step) % count
        self.results.blockSignals(True)
        self.results.setCurrentRow(row)
        self.results.blockSignals(False)
        return self.matches[row]

    def _row_changed(self, row: int):
        if 0 <= row < len(self.matches):
            self.jump.emit(self.matches[row])

    def focus(self):
        self.box.setFocus(Qt.ShortcutFocusReason)
        self.box.selectAll()
