"""Where the bytes go: a squarified treemap of the file by name scope, op type or dtype
(click a tile to go to its scope or node), the constants stored twice, and the original and a
pipeline step's graph side by side."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from inspector.core.view.treemap import DEPTH, LABELLED, inside, nested
from inspector.core.view.vocabulary import CATEGORY_COLOURS as COLOURS
from inspector.core.view.vocabulary import category, human_bytes

_DEPTH_FILLS = ("#e8eef6", "#f4f1e6", "#eaf4ea")
_FOLDED_FILL = "#e4e4e4"       # the tile of the groups too small to label ("N scopes")
_DTYPE_FILLS = ("#6fa8dc", "#93c47d", "#f6b26b", "#c27ba0", "#ffd966", "#76a5af", "#e06666")


class Treemap(QWidget):
    """Tiles painted from a sizes.Group tree; a click emits the tile's id."""

    clicked = Signal(str)

    def __init__(self, title: str = "", parent=None):
        super().__init__(parent)
        self.title = title
        self.root = None
        self.by = "scope"
        self.ops: dict = {}          # node -> op (leaf colours)
        self.tiles: list = []
        self.waiting = ""            # "Opening NAME…": said instead of tiles while there are none
        self.setMinimumSize(240, 110)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMouseTracking(True)

    def show_tree(self, root, by: str, ops: dict) -> None:
        self.root, self.by, self.ops = root, by, ops
        self._layout()
        self.update()

    def resizeEvent(self, event):
        self._layout()
        super().resizeEvent(event)

    def _layout(self) -> None:
        if self.root is None or not self.root.bytes:
            self.tiles = []
            return
        root = inside(self.root)[-1] if self.by == "scope" else self.root   # one scope
        self.inside = root.name if root is not self.root else ""    # holds (almost) it all
        top = 20 if self.title or self.inside else 0
        self.tiles = nested(root, 0, top, self.width() - 1, self.height() - top - 1,
                            depth=DEPTH if self.by == "scope" else 1, scopes=self.by == "scope",
                            fold=LABELLED)

    def _fill(self, tile) -> QColor:
        if tile.tip:
            return QColor(_FOLDED_FILL)
        if self.by == "op":
            return QColor(COLOURS.get(category(tile.id), "#eeeeee"))
        if self.by == "dtype":
            return QColor(_DTYPE_FILLS[hash(tile.id) % len(_DTYPE_FILLS)]) \
                if tile.id != "(graph structure)" else QColor("#dddddd")
        if tile.id in self.ops:
            return QColor(COLOURS.get(category(self.ops[tile.id]), "#eeeeee"))
        return QColor(_DEPTH_FILLS[tile.depth % len(_DEPTH_FILLS)])

    def paintEvent(self, event):
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#ffffff"))
        font = QFont()
        font.setPixelSize(11)
        p.setFont(font)
        title = self.title
        if getattr(self, "inside", ""):
            title = f"{title}  inside {self.inside}/ (it holds over 95%)".strip()
        if title:
            p.setPen(QColor("#222222"))
            p.drawText(QRectF(4, 0, self.width() - 8, 18), Qt.AlignLeft | Qt.AlignVCenter,
                       title)
        if not self.tiles:
            p.setPen(QColor("#777777"))
            p.drawText(self.rect(), Qt.AlignCenter,
                       self.waiting or "Open a model to see where its bytes go")
            return
        total = self.root.bytes or 1
        for t in self.tiles:
            rect = QRectF(t.x, t.y, t.w, t.h)
            p.setPen(QPen(QColor("#ffffff"), 1.5))
            p.setBrush(self._fill(t))
            p.drawRect(rect)
            if t.w < 36 or t.h < 14:
                continue
            p.setPen(QColor("#1d1d1d"))
            self._label(p, t, rect.adjusted(4, 2, -4, -2), total)

    @staticmethod
    def _label(p, t, box, total) -> None:
        """Name, then size and share: on two lines in a leaf tall enough, else on the header
        line; each part elided to the tile's width, the share dropped first."""
        fm, width = p.fontMetrics(), int(box.width())
        size, share = human_bytes(t.weight), f"{100 * t.weight / total:.0f}%"
        if t.leaf and box.height() >= 2 * fm.height():
            lines = [t.label, f"{size}, {share}" if fm.horizontalAdvance(
                f"{size}, {share}") <= width else size]
            if t.detail and box.height() >= 3 * fm.height():
                lines.append(t.detail)
        else:
            full = f"{t.label}  {size}, {share}"
            if t.detail and fm.horizontalAdvance(f"{full} · {t.detail}") <= width:
                full = f"{full} · {t.detail}"
            lines = [full if fm.horizontalAdvance(full) <= width else t.label]
        for k, line in enumerate(lines):
            if fm.horizontalAdvance(line) > width and fm.horizontalAdvance(line[:3] + "…") > width:
                continue                      # not even a stub fits: leave it to the tooltip
            p.drawText(QRectF(box.x(), box.y() + k * fm.height(), box.width(), fm.height()),
                       Qt.AlignLeft | Qt.AlignTop, fm.elidedText(line, Qt.ElideRight, width))

    def tile_at(self, x: float, y: float):
        found = None
        for t in self.tiles:     # deeper tiles come after their parent: keep the last hit
            if t.x <= x <= t.x + t.w and t.y <= y <= t.y + t.h:
                found = t
        return found

    def mouseMoveEvent(self, event):
        t = self.tile_at(event.position().x(), event.position().y())
        if t is not None:
            QToolTip.showText(event.globalPosition().toPoint(), self.tip(t), self)

    def tip(self, t) -> str:
        """A tile's tooltip: its id (a folded tile: its name and biggest groups), its size."""
        size = f"{human_bytes(t.weight)} ({100 * t.weight / (self.root.bytes or 1):.1f}% of " \
               "the file)"
        return f"{t.label}: {size}\nthe biggest:\n{t.tip}" if t.tip else f"{t.id}\n{size}"

    def mousePressEvent(self, event):
        t = self.tile_at(event.position().x(), event.position().y())
        if t is not None and event.button() == Qt.LeftButton:
            self.clicked.emit(t.id)


class SizesPanel(QWidget):
    jump = Signal(str)
    by_changed = Signal(str)
    tile_clicked = Signal(str)
    duplicates_requested = Signal()
    measure_requested = Signal()      # measure again (the last measure was stopped or failed)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.by = QComboBox()
        self.by.addItems(["by name scope", "by op type", "by dtype"])
        self.by.currentIndexChanged.connect(
            lambda k: self.by_changed.emit(("scope", "op", "dtype")[k]))
        self.totals = QLabel("")
        self.totals.setWordWrap(True)
        self.duplicates = QLabel("")
        self.duplicates.setWordWrap(True)
        self.duplicates.hide()       # until asked: its empty line took the map's room
        self.find_duplicates = QPushButton("Find constants stored twice")
        self.find_duplicates.setToolTip("Reads the constants that share a dtype and byte length "
                                        "with another and compares their bytes")
        self.find_duplicates.clicked.connect(self.duplicates_requested.emit)
        self.measure = QPushButton("Measure")
        self.measure.setToolTip("Measure where the bytes go again")
        self.measure.clicked.connect(self.measure_requested.emit)
        self.measure.hide()
        self.before = Treemap("")
        self.after = Treemap("")
        self.after.hide()
        for view in (self.before, self.after):
            view.clicked.connect(self.tile_clicked.emit)
        top = QHBoxLayout()
        top.addWidget(QLabel("Where the bytes go"))
        top.addWidget(self.by)
        top.addWidget(self.find_duplicates)
        top.addWidget(self.measure)
        top.addStretch(1)
        maps = QHBoxLayout()
        maps.addWidget(self.before, 1)
        maps.addWidget(self.after, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.totals)
        lay.addWidget(self.duplicates)
        lay.addLayout(maps, 1)

    def show_sizes(self, root, by: str, ops: dict, totals: str, after=None,
                   after_ops=None, titles=("", "")) -> None:
        self.before.title, self.after.title = titles
        self.before.show_tree(root, by, ops)
        self.after.setVisible(after is not None)
        if after is not None:
            self.after.show_tree(after, by, after_ops or {})
        self.totals.setText(totals)

    def show_waiting(self, text: str, again: bool = False) -> None:
        """What the empty treemap says while the model is opened or measured; `again`: the
        Measure button (the last measure ended without sizes)."""
        self.measure.setVisible(again)
        if text != self.before.waiting:
            self.before.waiting = text
            self.before.update()

    def show_duplicates(self, text: str) -> None:
        self.duplicates.setText(text)
        self.duplicates.setVisible(bool(text))
