"""Legend of the op-category colours used on the canvas (only the categories in this graph)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from inspector.core.view.vocabulary import CATEGORY_COLOURS as COLOURS
from inspector.core.view.vocabulary import category


class Legend(QListWidget):
    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        state.model_changed.connect(self.refresh)

    def refresh(self, model=None) -> None:
        self.clear()
        view = self.state.view
        if view is None:
            return
        counts = Counter()
        for op, n in view.graph.op_counts().items():   # counted off the GUI thread
            counts[category(op)] += n
        for cat, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            pix = QPixmap(14, 14)
            pix.fill(QColor(COLOURS.get(cat, COLOURS["other"])))
            self.addItem(QListWidgetItem(QIcon(pix), f"{cat}  ({n})"))
