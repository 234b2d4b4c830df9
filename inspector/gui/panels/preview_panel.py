"""Live preview: a table of size, gzip size, parameters, FLOPs, latency and nodes per step
with deltas, a waterfall chart, the changes of the selected step, and the numeric check."""

from __future__ import annotations

import math

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.core.view.vocabulary import human_bytes, latency, tf_human_readable_num
from inspector.gui.panels.adaptive import OneLine, WidthSplitter
from inspector.gui.panels.chart_slot import ChartSlot

COLUMNS = ["step", "nodes", "size", "gzip", "params", "FLOPs", "latency"]


def _delta(new, old) -> str:
    """" -24%" against the original: whole percents from 10 %, one decimal below; nothing
    when unchanged (every column in sight of a 1366-wide window: no "(+0.0%)")."""
    if new is None or new < 0:
        return "…"
    if not old or old < 0 or new == old:
        return ""
    change = 100.0 * (new - old) / old
    text = f"{change:+.0f}%" if abs(change) >= 9.95 else \
        f"{change:+.1f}%" if abs(change) >= 0.05 else "~0%"
    return " " + text.replace("-", "−")


def _cells(row, base) -> list:
    m = row.metrics
    flops = m.flops.total if m.flops else None
    base_flops = base.flops.total if base.flops else None
    params = m.const_parameters + m.variable_parameters
    short = row.label.split("(")[0][:80] + ("(…)" if "(" in row.label else "")
    error = row.error.splitlines()[0] if row.error else ""
    error = error if len(error) <= 70 else error[:69] + "…"  # all of it in the tooltip
    # a failure or a warning leads (the step's column is ~110 px at 1366x768: a mark after
    # the name was elided away); a step that changed nothing is greyed (data's colour)
    warned = row.report is not None and row.report.warning and not row.report.unchanged
    first = f"✗ {short}  {error}" if row.error else f"⚠ {short}  see its changes" \
        if warned else short + ("  · changed nothing" if row.report is not None and
                                row.report.unchanged else "")
    return [first,
            f"{m.node_count}{_delta(m.node_count, base.node_count)}",
            f"{human_bytes(m.serialized_bytes)}{_delta(m.serialized_bytes, base.serialized_bytes)}",  # noqa: E501
            (f"{human_bytes(m.gzip_bytes)}{_delta(m.gzip_bytes, base.gzip_bytes)}"
             if m.gzip_bytes >= 0 else "…"),
            f"{tf_human_readable_num(params)}{_delta(params, base.const_parameters + base.variable_parameters)}",  # noqa: E501
            ("unknown" if m.flops is not None and not m.flops.known else
             f"{tf_human_readable_num(flops)}{_delta(flops, base_flops)}"
             if flops is not None else "…"),
            ("unknown" if m.flops is not None and not m.flops.known else
             latency(m.latency_ms['phone']) if m.latency_ms else "…")]


# the chart's title: "size" and "FLOPs" in their bars' colours ("size (blue), FLOPs (orange):
# % of the original" was cut off in a 1366x768 window)
CHART_TITLE = ('% of original: <span style="color:#3d78b0">size</span>, '
               '<span style="color:#d9703c">FLOPs</span>')

class PreviewModel(QAbstractTableModel):
    """The preview rows for a table view: cells are formatted when drawn, so a pipeline of
    thousands of steps costs only what is on screen."""

    def __init__(self):
        super().__init__()
        self.rows: list = []

    def set_rows(self, rows) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.DisplayRole:  # rows are numbered as the chart's bars
            return COLUMNS[section] if orientation == Qt.Horizontal else str(section)
        if role == Qt.ToolTipRole and orientation == Qt.Horizontal and section == 6:
            return "estimated from the FLOPs at 10 GFLOP/s, a mid-range phone CPU core"
        return None

    def data(self, index, role=Qt.DisplayRole):
        row = self.rows[index.row()]
        if role == Qt.DisplayRole:
            return _cells(row, self.rows[0].metrics)[index.column()]
        if role == Qt.ToolTipRole:
            flops = row.metrics.flops
            about = ""
            if flops is not None and (flops.unknown or flops.assumed or flops.unknown_shape):
                about = "\nFLOPs: " + flops.describe(tf_human_readable_num)
            outcome = row.report.outcome() if row.report is not None else ""
            if row.report is not None and row.report.warning:
                outcome += ("\n" if outcome else "") + f"Warning: {row.report.warning}"
            return (row.error or row.label)[:2000] + (f"\n{outcome}" if outcome else "") + about
        if role == Qt.ForegroundRole and row.error:
            return QColor("#c0392b")
        if role == Qt.ForegroundRole and row.report is not None and row.report.unchanged:
            return QColor("#808080")
        return None


class PreviewPanel(QWidget):
    step_selected = Signal(int)      # row in the table (0 = original)
    jump = Signal(str)
    check_requested = Signal()
    compare_requested = Signal(int)  # row: the graph after it against the original
    stages_requested = Signal()      # every stage side by side

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = PreviewModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        rows = self.table.verticalHeader()
        rows.setDefaultAlignment(Qt.AlignCenter)
        rows.setMinimumSectionSize(self.fontMetrics().height() + 2)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 2)  # compact: more steps shown
        # the step's name takes what the numbers leave (elided, whole in its tooltip): every
        # column in sight at once in a 1366-wide window
        columns = self.table.horizontalHeader()
        columns.setStretchLastSection(False)
        columns.setSectionResizeMode(0, QHeaderView.Stretch)
        columns.setMinimumSectionSize(40)
        self.table.setTextElideMode(Qt.ElideRight)
        self.table.setWordWrap(False)
        self.table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.step_selected.emit(current.row()))
        self.chart = ChartSlot(lambda plot: plot.setTitle(     # the words in their bars'
            CHART_TITLE, size="8pt"))                         # colours: short enough to fit
        self.chart.setMinimumHeight(80)
        self.chart.hide()  # until there are rows: no bare axes
        # rows arrive one by one while the preview computes: the chart (pyqtgraph, many
        # Python calls, each waiting for the GIL meanwhile) is redrawn at most every 150 ms
        self._chart_timer = QTimer(self)
        self._chart_timer.setSingleShot(True)
        self._chart_timer.setInterval(150)
        self._chart_timer.timeout.connect(self._draw_chart)
        self.changes = QListWidget()
        self.changes.setWordWrap(True)    # a step that changed nothing says why in a sentence
        self.changes.setMinimumHeight(36)  # short below the table: its steps come first
        self.changes.itemClicked.connect(self._clicked)
        self.after = QCheckBox("show the graph after the selected step")
        self.after.setChecked(True)
        self.check_button = QPushButton("Check outputs in TensorFlow")
        self.check_button.clicked.connect(self.check_requested.emit)
        self.compare_button = QPushButton("Compare…")
        self.compare_button.setToolTip("compare with the original: the graph after the "
                                       "selected step (the last one if none is selected) "
                                       "against the original, side by side")
        self.compare_button.clicked.connect(
            lambda: self.compare_requested.emit(self.currentRow() if self.currentRow() > 0
                                                else len(self.rows) - 1))
        self.stages_button = QPushButton("All stages")
        self.stages_button.setToolTip("the original and the graph after every step as synced "
                                      "lanes")
        self.stages_button.clicked.connect(self.stages_requested.emit)
        self.check_result = OneLine("")   # one line, kept: a result never reflows the panel
        self.status = QLabel("")
        self.status.setAlignment(Qt.AlignCenter)
        # the check row on top (always in sight); the table; then the chart and the
        # selected step's changes side by side, so the panel fits a short dock
        row = QHBoxLayout()
        row.addWidget(self.after)
        row.addWidget(self.status, 1)  # "computing… (3 of 10 steps so far)"
        row.addWidget(self.check_button)
        changes = QWidget()
        lay = QVBoxLayout(changes)
        lay.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(QLabel("Changes in the selected step:"), 1)
        head.addWidget(self.compare_button)
        head.addWidget(self.stages_button)
        lay.addLayout(head)
        lay.addWidget(self.changes)
        below = QSplitter(Qt.Horizontal)
        below.addWidget(self.chart)
        below.addWidget(changes)
        below.setSizes([300, 300])
        # side by side in a wide dock, else stacked: the table first (6 rows, the original
        # and five steps, in sight on a 1366x768 screen), the chart and the changes below it
        split = WidthSplitter(900, stacked=(0.62, 0.38))
        split.addWidget(self.table)
        split.addWidget(below)
        split.setSizes([170, 150])
        self.table.setMinimumHeight(4 * (self.fontMetrics().height() + 2) + 4)  # 3 rows
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.setSpacing(2)  # 6 px gaps (and a 290 px dock) hid the sixth row: walk16
        outer.addLayout(row)
        outer.addWidget(self.check_result)
        outer.addWidget(split, 1)
        self.rows: list = []

    def show_rows(self, rows, current: int = 0) -> None:
        """Show the rows with `current` (the step shown on the canvas) selected."""
        self.rows = list(rows)
        self.table.selectionModel().blockSignals(True)
        self.model.set_rows(self.rows)
        self._fit_columns()
        if 0 <= current < len(self.rows):
            self.table.setCurrentIndex(self.model.index(current, 0))
        else:
            self.table.setCurrentIndex(self.model.index(-1, 0))
            self.table.clearSelection()
        self.table.selectionModel().blockSignals(False)
        self.chart.setVisible(bool(self.rows))  # no bare axes before a model is open
        if not self._chart_timer.isActive():
            self._chart_timer.start()

    def _fit_columns(self) -> None:
        """Column widths from the texts, measured here in one go. (resizeColumnsToContents
        calls back into Python for every cell and role; while the preview computes on another
        thread each callback waits for the GIL: 60 ms a refresh on Inception v3.)"""
        rows = self.rows[:200]  # measuring thousands of rows would stall the window
        if not rows:
            return
        metrics = self.table.fontMetrics()
        header = self.table.horizontalHeader().fontMetrics()
        cells = [_cells(r, rows[0].metrics) for r in rows]
        for column, title in enumerate(COLUMNS[1:], 1):  # the step's column stretches
            width = max([header.horizontalAdvance(title) + 12] +
                        [metrics.horizontalAdvance(c[column]) + 10 for c in cells])
            self.table.setColumnWidth(column, width)

    def currentRow(self) -> int:
        return self.table.currentIndex().row()

    def select_row(self, row: int) -> None:
        self.table.setCurrentIndex(self.model.index(row, 0))

    def _draw_chart(self) -> None:
        rows = list(self.rows)
        self.chart.draw(lambda plot, pg: _draw_steps(plot, pg, rows))

    def show_changes(self, report) -> None:
        self.changes.clear()
        if report is None:
            return
        if report.warning:                          # what the result does unexpectedly
            item = QListWidgetItem(f"warning: {report.warning}")
            item.setForeground(QColor("#c0392b"))
            item.setToolTip(report.warning)
            self.changes.addItem(item)
        if report.unchanged and not report.kept:    # why, and what to use instead
            item = QListWidgetItem(report.outcome())
            item.setForeground(QColor("#555555"))
            item.setToolTip(report.outcome())
            self.changes.addItem(item)
        for kind, names, colour in (("removed", report.removed, "#c0392b"),
                                    ("added", report.added, "#2e8b57"),
                                    ("changed", report.changed, "#b8860b")):
            for name in names[:500]:
                why = report.reasons.get(name, "")
                item = QListWidgetItem(f"{kind}: {name}" + (f" — {why}" if why else ""))
                item.setForeground(QColor(colour))
                item.setData(Qt.UserRole, name)
                self.changes.addItem(item)
        for name, why in list(report.kept.items())[:500]:
            item = QListWidgetItem(f"kept: {name} — {why}")
            item.setForeground(QColor("#555555"))
            item.setData(Qt.UserRole, name)
            self.changes.addItem(item)

    def _clicked(self, item):
        name = item.data(Qt.UserRole)
        if name:
            self.jump.emit(name)


def _draw_steps(plot, pg, rows: list) -> None:
    """Size and FLOPs of each step as % of the original, bars labelled by step number."""
    plot.clear()
    if not rows:
        return
    base = rows[0].metrics
    n = len(rows)
    size = [100.0 * r.metrics.serialized_bytes / max(base.serialized_bytes, 1) for r in rows]
    plot.addItem(pg.BarGraphItem(x=[i - 0.18 for i in range(n)], height=size, width=0.34,
                                 brush="#6fa8dc", name="size %"))
    reports = [r.metrics.flops for r in rows]
    if all(f is not None and f.known for f in reports):
        flops = [100.0 * f.total / max(reports[0].total, 1) for f in reports]
        plot.addItem(pg.BarGraphItem(x=[i + 0.18 for i in range(n)], height=flops,
                                     width=0.34, brush="#f4a582", name="FLOPs %"))
    # bars are labelled by step number (as the table's rows): names would overlap
    every = max(1, math.ceil(n * 28 / max(plot.width() - 60, 100)))
    plot.getAxis("bottom").setTicks([[(i, str(i)) for i in range(0, n, every)]])
    plot.getAxis("left").setTicks([[(0, "0"), (100, "100")]])  # legible in a short chart
    plot.setYRange(0, 105)
    plot.setXRange(-0.6, n - 0.4, padding=0)  # every step, also when rows arrive
