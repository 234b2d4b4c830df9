"""The pipeline panel's two lists: the palette of transforms grouped by purpose (dragged, or
double-clicked, into the pipeline) and the ordered steps (transforms dropped on them, rows
reordered by drag, Delete removes one). pipeline_panel.py holds the panel around them."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import QDrag
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QTreeWidget, QTreeWidgetItem

from inspector.core.app.workbench import transforms
from inspector.gui.panels.adaptive import WidthSplitter
from inspector.gui.startup import start_order

MIME = "application/x-inspector-transform"
GROUPS = ["clean up", "fold", "shrink", "quantize", "debug"]


class Palette(QTreeWidget):
    """Transforms grouped by purpose; drag one out, or double-click it to append."""

    add_requested = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setIndentation(12)          # two levels: the names get the width, not the tree
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragOnly)
        start_order.when_needed(self, "pipeline palette", self._fill)
        self.itemDoubleClicked.connect(self._double)

    def _fill(self) -> None:
        registry = transforms()
        for group in GROUPS:
            head = QTreeWidgetItem([group])
            head.setFlags(Qt.ItemIsEnabled)
            self.addTopLevelItem(head)
            for info in sorted(registry.values(), key=lambda i: i.name):
                if info.group == group:
                    item = QTreeWidgetItem([info.name + ("  (TF)" if info.native else "")])
                    item.setData(0, Qt.UserRole, info.name)
                    item.setToolTip(0, f"{info.name}: {info.summary}")   # all of the name
                    head.addChild(item)
        self.expandAll()
        self._widen_to_names()

    def resizeEvent(self, event) -> None:       # the panel laid out, or made wider
        super().resizeEvent(event)
        if self.topLevelItemCount():
            QTimer.singleShot(0, self, self._widen_to_names)

    def names_width(self) -> int:
        """Pixels that show every transform's whole name (its indentation, the frame and a
        scroll bar counted)."""
        fm = self.fontMetrics()
        widest = max((fm.horizontalAdvance(self.topLevelItem(g).child(k).text(0))
                      for g in range(self.topLevelItemCount())
                      for k in range(self.topLevelItem(g).childCount())), default=0)
        return (widest + 2 * self.indentation() + 2 * self.frameWidth() + 12 +
                self.verticalScrollBar().sizeHint().width())

    def _widen_to_names(self) -> None:
        """Beside the steps, the palette takes the width of its longest name (it read
        "inline_partitionedc..." at 1366 px), at most half of the panel; its splitter is
        left alone once the user moved it."""
        split = self.parentWidget()
        if not isinstance(split, WidthSplitter) or split._moved or \
                split.orientation() != Qt.Horizontal:
            return
        sizes = split.sizes()
        total = sum(sizes)
        if total <= 0 or len(sizes) != 2:
            return
        need = min(self.names_width(), total // 2)
        if need > sizes[0]:
            split.setSizes([need, total - need])

    def _double(self, item, _col):
        name = item.data(0, Qt.UserRole)
        if name:
            self.add_requested.emit(name)

    def mimeData(self, items):
        data = QMimeData()
        names = [i.data(0, Qt.UserRole) for i in items if i.data(0, Qt.UserRole)]
        data.setData(MIME, ",".join(names).encode())   # no text: a field missed by the
        return data                                    # drop never gets a name pasted in

    def mimeTypes(self):
        return [MIME]

    def start_drag_of(self, name: str) -> QDrag:
        """A drag of one transform (what a user's mouse drag starts)."""
        drag = QDrag(self)
        data = QMimeData()
        data.setData(MIME, name.encode())
        drag.setMimeData(data)
        return drag


class StepList(QListWidget):
    """The ordered steps: accepts transforms dropped from the palette, reorders by drag."""

    dropped = Signal(str, int)   # transform name, row
    moved = Signal(int, int)     # from row, to row
    removed = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setDragDropMode(QAbstractItemView.DragDrop)
        self.setDefaultDropAction(Qt.MoveAction)
        self.setAcceptDrops(True)
        self._drag_row = -1

    def startDrag(self, actions):
        self._drag_row = self.currentRow()
        super().startDrag(actions)

    def dragEnterEvent(self, event):
        if event.mimeData().hasFormat(MIME) or self._drag_row >= 0:
            event.acceptProposedAction()

    def dragMoveEvent(self, event):
        if event.mimeData().hasFormat(MIME) or self._drag_row >= 0:
            event.acceptProposedAction()

    def drop_row(self, pos) -> int:
        item = self.itemAt(pos)
        if item is None:
            return self.count()
        row = self.row(item)
        rect = self.visualItemRect(item)
        return row + 1 if pos.y() > rect.center().y() else row

    def dropEvent(self, event):
        row = self.drop_row(event.position().toPoint())
        if event.mimeData().hasFormat(MIME):
            for name in bytes(event.mimeData().data(MIME)).decode().split(","):
                if name:
                    self.dropped.emit(name, row)
                    row += 1
            event.acceptProposedAction()
        elif self._drag_row >= 0:  # a row of this list dragged to a new place
            src = self._drag_row
            dst = row - 1 if row > src else row
            event.setDropAction(Qt.IgnoreAction)  # the workbench redraws the list
            event.accept()
            if dst != src:
                self.moved.emit(src, dst)
        self._drag_row = -1

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key_Delete, Qt.Key_Backspace) and self.currentRow() >= 0:
            self.removed.emit(self.currentRow())
            return
        super().keyPressEvent(event)
