"""The Target report view: pick a target, run it, read the share of operators on its
accelerator, its figures and notes, and the operators left out with why and what to do; a
row's click goes to its node on the graph (coloured by the "Target" overlay)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


class TargetReportView(QWidget):
    run_requested = Signal(str)     # target
    node_chosen = Signal(str)

    def __init__(self, choices, parent=None):
        """choices: (target name, label) pairs, the registry's (core.app.targets)."""
        super().__init__(parent)
        self.setObjectName("target_report")
        self.target = QComboBox()
        for name, label in choices:
            self.target.addItem(label, name)
        self.run_button = QPushButton("Run report")
        self.run_button.clicked.connect(lambda: self.run_requested.emit(self.chosen()))
        row = QHBoxLayout()
        row.addWidget(QLabel("Target:"))
        row.addWidget(self.target, 1)
        row.addWidget(self.run_button)
        self.summary = QLabel("Open a .tflite, pick a target and run its report.")
        self.summary.setMinimumWidth(1)      # wraps: never widens the window
        self.summary.setWordWrap(True)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        self.headline = QLabel("")
        self.headline.setWordWrap(True)
        self.headline.setMinimumWidth(1)
        self.details = QLabel("")
        self.details.setWordWrap(True)
        self.details.setMinimumWidth(1)
        self.details.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["#", "Operator", "Node", "Why not on the "
                                              "accelerator", "What to do"])
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        for col in (0, 1):
            header.setSectionResizeMode(col, QHeaderView.ResizeToContents)
        # the node shares the width with why and what to do (wrapped at its '/'s): sized to
        # its name it took 460 of 860 px on basic-pitch, leaving the reasons 8 lines a row
        for col in (2, 3, 4):
            header.setSectionResizeMode(col, QHeaderView.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.cellClicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.headline)
        layout.addWidget(self.details)
        layout.addWidget(self.table, 1)

    def chosen(self) -> str:
        return self.target.currentData()

    def choose(self, target: str) -> None:
        index = self.target.findData(target)
        if index >= 0:
            self.target.setCurrentIndex(index)

    def set_runnable(self, runnable: bool, why: str = "") -> None:
        """Run only when there is a file to report on; else the reason where it is read."""
        self.run_button.setEnabled(runnable)
        self.run_button.setToolTip("" if runnable else why)
        if not runnable and why:
            self.summary.setText(why)

    def show_busy(self, text: str) -> None:
        self.summary.setText(text)
        self.run_button.setEnabled(False)

    def show_error(self, text: str) -> None:
        self.summary.setText(text)
        self.run_button.setEnabled(True)

    def show_report(self, report, headline: str, others: list) -> None:
        """The summary, the headline figures (time, SRAM, flash, cycles, MACs: in units),
        how it was found, the other figures on one line, the notes."""
        self.run_button.setEnabled(True)
        self.summary.setText(report.summary())
        self.headline.setText(headline)
        self.headline.setVisible(bool(headline))
        lines = [f"How: {report.source}"]
        if others:
            lines.append(" · ".join(f"{name}: {value}" for name, value in others))
        lines += report.notes
        self.details.setText("\n".join(lines))
        off = report.off
        self.table.setRowCount(len(off))
        for r, p in enumerate(off):
            for c, text in enumerate((str(p.index), p.op, p.node, p.reason, p.advice)):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()

    def _clicked(self, row: int, _col: int) -> None:
        item = self.table.item(row, 2)
        if item is not None and item.text():
            self.node_chosen.emit(item.text())
