"""The overlays panel's per-node timings as a table: every timed node of the graph with its
ms a run, its share of the run and its op, slowest first, sortable by any column, and a
click (or the arrow keys) on a row goes to the node.

walk17: "which nodes eat the time" had a top-12 bar chart only, which in the side dock at
1366x768 left the bars ~30 px beside their labels, with no figures to read and no way to see
the 13th node or to sort by op."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

COLUMNS = (("ms", "the node's time a run, in ms: its calls' average time times its calls "
                        "a run (as the tables' 'Summary by node type' counts it)"),
           ("%", "its share of all the timed nodes' time a run"),
           ("node", "the graph node (its full name when hovered); a click goes to it"),
           ("op", "the node's op in the graph (a fused or oneDNN kernel is credited to the "
                  "convolution or matmul it computes)"))
NODE, OP = 2, 3
OP_WIDTH = 84        # Conv2D, MatMul whole; DepthwiseConv2dNative elided, whole when hovered
PRECISION = 100      # rows the figures' columns are fitted to (Qt's 1,000 asked Python for
                     # 1,000 rows' texts at every sort)
WITH_OP = 380        # narrower (the side dock at 1366x768: ~240 px), the op column is left
                     # out and the name takes its room (the op is in the name's tooltip)


class TimingRows(QAbstractTableModel):
    """The rows in Python, (ms, share, node, op), read by the view only where shown and
    sorted by Python's sort: a QTableWidget of four Python items a row, sorted by their
    __lt__, held the GUI thread 0.57 s for 1,000 timed nodes and 19 s for 20,000 (normal
    speed, load ~5; review17)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list = []

    def set_rows(self, rows: list) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802  (Qt's spelling)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        ms, share, name, op = self.rows[index.row()]
        column = index.column()
        if role == Qt.DisplayRole:
            return (f"{ms:.3f}", f"{share:.1f}", name, op)[column]
        if role == Qt.TextAlignmentRole and column < NODE:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole and column >= NODE:
            return f"{name}\n{op}" if column == NODE else op
        return None

    def headerData(self, section, orientation, role=Qt.DisplayRole):  # noqa: N802
        if orientation == Qt.Horizontal and 0 <= section < len(COLUMNS):
            if role == Qt.DisplayRole:
                return COLUMNS[section][0]
            if role == Qt.ToolTipRole:
                return COLUMNS[section][1]
        return None

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        self.rows.sort(key=lambda row: row[column], reverse=order == Qt.DescendingOrder)
        self.layoutChanged.emit()


class TimingTable(QTableView):
    jump = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setModel(TimingRows(self))
        head = self.horizontalHeader()       # in the side dock at 1366x768 (~240 px) the
        head.setSectionResizeMode(0, QHeaderView.ResizeToContents)  # figures and the name
        head.setSectionResizeMode(1, QHeaderView.ResizeToContents)  # fit, the op is cut
        head.setSectionResizeMode(NODE, QHeaderView.Stretch)
        head.setSectionResizeMode(OP, QHeaderView.Fixed)
        head.setResizeContentsPrecision(PRECISION)
        self.setColumnWidth(OP, OP_WIDTH)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.ElideLeft)          # a long name keeps its last scopes
        self.setSortingEnabled(True)
        self.selectionModel().selectionChanged.connect(self._chosen)

    def show_times(self, per_node: dict, ops: dict, total_ms: float) -> None:
        """per_node: graph node -> ms a run; ops: node -> op; total_ms: all timed nodes'
        time a run (the share's base). Slowest first."""
        scale = 100.0 / total_ms if total_ms > 0 else 0.0
        rows = sorted(((ms, ms * scale, name, ops.get(name, ""))
                       for name, ms in per_node.items()), key=lambda row: -row[0])
        self.blockSignals(True)
        self.model().set_rows(rows)
        self.horizontalHeader().setSortIndicator(0, Qt.DescendingOrder)
        self.blockSignals(False)

    def rowCount(self) -> int:  # noqa: N802
        return self.model().rowCount()

    def text(self, row: int, column: int) -> str:
        return self.model().data(self.model().index(row, column)) or ""

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        narrow = event.size().width() < WITH_OP
        if self.isColumnHidden(OP) != narrow:
            self.setColumnHidden(OP, narrow)

    def node_at(self, row: int) -> str:
        return self.text(row, NODE)

    def _chosen(self, *_) -> None:
        rows = self.selectionModel().selectedRows()
        if rows:
            self.jump.emit(self.node_at(rows[0].row()))
