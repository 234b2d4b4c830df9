"""The overlays panel's per-node timings as a table: every timed node of the graph with its
ms a run, its share of the run and its op, slowest first, sortable by any column, and a
click (or the arrow keys) on a row goes to the node.

walk17: "which nodes eat the time" had a top-12 bar chart only, which in the side dock at
1366x768 left the bars ~30 px beside their labels, with no figures to read and no way to see
the 13th node or to sort by op."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

COLUMNS = (("ms", "the node's time a run, in ms: its calls' average time times its calls "
                        "a run (as the tables' 'Summary by node type' counts it)"),
           ("%", "its share of all the timed nodes' time a run"),
           ("node", "the graph node (its full name when hovered); a click goes to it"),
           ("op", "the node's op in the graph (a fused or oneDNN kernel is credited to the "
                  "convolution or matmul it computes)"))
NODE, OP = 2, 3
OP_WIDTH = 84        # Conv2D, MatMul whole; DepthwiseConv2dNative elided, whole when hovered
WITH_OP = 380        # narrower (the side dock at 1366x768: ~240 px), the op column is left
                     # out and the name takes its room (the op is in the name's tooltip)


class _Sorted(QTableWidgetItem):
    """A cell that sorts by its number (or its text for names), not by its shown text."""

    def __lt__(self, other) -> bool:
        return self.data(Qt.UserRole) < other.data(Qt.UserRole)


def _cell(text: str, key, right: bool = False) -> QTableWidgetItem:
    item = _Sorted(text)
    item.setData(Qt.UserRole, key)
    item.setFlags(Qt.ItemIsSelectable | Qt.ItemIsEnabled)
    if right:
        item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
    return item


class TimingTable(QTableWidget):
    jump = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setHorizontalHeaderLabels([title for title, _ in COLUMNS])
        for i, (_, tip) in enumerate(COLUMNS):
            self.horizontalHeaderItem(i).setToolTip(tip)
        head = self.horizontalHeader()       # in the side dock at 1366x768 (~240 px) the
        head.setSectionResizeMode(0, QHeaderView.ResizeToContents)  # figures and the name
        head.setSectionResizeMode(1, QHeaderView.ResizeToContents)  # fit, the op is cut
        head.setSectionResizeMode(NODE, QHeaderView.Stretch)
        head.setSectionResizeMode(OP, QHeaderView.Fixed)
        self.setColumnWidth(OP, OP_WIDTH)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.ElideLeft)          # a long name keeps its last scopes
        self.setSortingEnabled(True)
        self.itemSelectionChanged.connect(self._chosen)

    def show_times(self, per_node: dict, ops: dict, total_ms: float) -> None:
        """per_node: graph node -> ms a run; ops: node -> op; total_ms: all timed nodes'
        time a run (the share's base)."""
        self.blockSignals(True)
        self.setSortingEnabled(False)
        self.clearContents()
        self.setRowCount(len(per_node))
        for row, (name, ms) in enumerate(per_node.items()):
            share = 100.0 * ms / total_ms if total_ms > 0 else 0.0
            self.setItem(row, 0, _cell(f"{ms:.3f}", ms, right=True))
            self.setItem(row, 1, _cell(f"{share:.1f}", share, right=True))
            node, op = _cell(name, name), _cell(ops.get(name, ""), ops.get(name, ""))
            node.setToolTip(f"{name}\n{ops.get(name, '')}")
            op.setToolTip(ops.get(name, ""))
            self.setItem(row, NODE, node)
            self.setItem(row, OP, op)
        self.setSortingEnabled(True)
        self.sortByColumn(0, Qt.DescendingOrder)
        self.blockSignals(False)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        narrow = event.size().width() < WITH_OP
        if self.isColumnHidden(OP) != narrow:
            self.setColumnHidden(OP, narrow)

    def node_at(self, row: int) -> str:
        item = self.item(row, NODE)
        return item.text() if item is not None else ""

    def _chosen(self) -> None:
        rows = self.selectionModel().selectedRows()
        if rows:
            self.jump.emit(self.node_at(rows[0].row()))
