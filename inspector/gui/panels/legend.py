"""Legend of the colours on the canvas: the op categories in this graph, or, while an overlay
paints the boxes, that overlay's key (one meaning per colour, never both at once)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from inspector.core.app.decorations import painting
from inspector.core.view.vocabulary import CATEGORY_COLOURS as COLOURS
from inspector.core.view.vocabulary import category


class Legend(QListWidget):
    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.setWordWrap(True)      # a narrow dock wraps a long meaning instead of cutting it
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.showing = ""           # "categories" or the overlay mode whose key is listed
        state.model_changed.connect(self.refresh)
        state.overlay_changed.connect(self.refresh)
        state.view_changed.connect(self.refresh)

    def rows(self) -> list:
        """(colour name, text) of every row (tests read it)."""
        return [(self.item(i).data(Qt.UserRole), self.item(i).text())
                for i in range(self.count()) if self.item(i).data(Qt.UserRole)]

    def _add(self, colour: str, text: str) -> None:
        pix = QPixmap(14, 14)
        pix.fill(QColor(colour))
        item = QListWidgetItem(QIcon(pix), text)
        item.setToolTip(text)
        item.setData(Qt.UserRole, colour)
        self.addItem(item)

    def _heading(self, text: str) -> None:
        item = QListWidgetItem(text)
        item.setFlags(Qt.ItemIsEnabled)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        self.addItem(item)

    def refresh(self, *_) -> None:
        self.clear()
        self.showing = ""
        view = self.state.view
        if view is None:
            return
        overlay = painting(self.state)
        if overlay is not None:
            self.showing = overlay.mode
            self._heading(f"Colour: {overlay.label} overlay")
            for colour, text in overlay.key(self.state):
                self._add(colour, text)
            return
        self.showing = "categories"
        self._heading("Colour: kind of op")
        counts = Counter()
        for op, n in view.graph.op_counts().items():   # counted off the GUI thread
            counts[category(op)] += n
        for cat, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            self._add(COLOURS.get(cat, COLOURS["other"]), f"{cat}  ({n})")
