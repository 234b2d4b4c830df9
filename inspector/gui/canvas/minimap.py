"""The minimap: the whole graph, small, one draw call per colour; the main view's visible area
outlined; click or drag to move there."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QWidget

from inspector.core.view.vocabulary import CATEGORY_COLOURS as COLOURS
from inspector.gui.canvas.items import ACCENT


def minimap_groups(scene, heat=None) -> dict:
    """Item rectangles grouped by fill colour (frames first), for the minimap: the overlay's
    colours (`heat`, item -> colour) when one paints the canvas, else the op categories'.
    Plain value objects, built on a worker thread."""
    groups: dict = {}
    heat = heat or {}
    for item in scene.items.values():
        colour = "#efe9dc" if item.kind == "frame" else heat.get(item.id) or COLOURS.get(
            item.category, COLOURS["other"])
        groups.setdefault(colour, []).append(QRectF(item.x, item.y, item.w, item.h))
    frames = groups.pop("#efe9dc", [])
    return {"#efe9dc": frames, **groups}


class Minimap(QWidget):
    """The whole graph, small: coloured boxes (one draw call per colour, however big the
    graph), the main view's visible area outlined; click or drag to move there."""

    def __init__(self, canvas, parent=None):
        super().__init__(parent)
        self.canvas = canvas
        self.groups: dict = {}
        self.bounds = QRectF()
        self.setMinimumHeight(120)
        canvas.horizontalScrollBar().valueChanged.connect(self.update)
        canvas.verticalScrollBar().valueChanged.connect(self.update)

    def show_scene(self, scene, groups=None) -> None:
        self.groups = groups if groups is not None else minimap_groups(scene)
        self.bounds = QRectF(0, 0, max(scene.width, 1.0), max(scene.height, 1.0))
        self.update()

    MIN_SHARE = 0.4  # a tall graph still fills this much of the minimap's width

    def _transform(self):
        """Scene to minimap. A graph much taller (or wider) than the minimap is not shrunk
        to a line: it keeps at least MIN_SHARE of the other side, and the minimap follows
        the main view along the long side."""
        from PySide6.QtGui import QTransform

        b = self.bounds
        if b.isEmpty():
            return QTransform()
        w, h = self.width() - 8, self.height() - 8
        across, along = w / b.width(), h / b.height()
        scale = max(min(across, along), self.MIN_SHARE * max(across, along))
        visible = self.canvas.mapToScene(self.canvas.viewport().rect()).boundingRect()
        dx = self._offset(self.width(), b.x(), b.width(), scale, visible.center().x())
        dy = self._offset(self.height(), b.y(), b.height(), scale, visible.center().y())
        return QTransform(scale, 0, 0, scale, dx, dy)

    @staticmethod
    def _offset(size, start, length, scale, focus):
        """Centre the graph along this side when it fits, else follow the view's centre."""
        if length * scale <= size - 8:
            return (size - length * scale) / 2 - start * scale
        offset = size / 2 - focus * scale
        return min(4 - start * scale, max(offset, size - 4 - (start + length) * scale))

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.Base))
        if self.bounds.isEmpty() or not self.groups:
            painter.end()
            return  # nothing open: an empty minimap, not a view outline over nothing
        painter.setTransform(self._transform())
        painter.setPen(Qt.NoPen)
        for colour, rects in self.groups.items():
            painter.setBrush(QColor(colour))
            painter.drawRects(rects)
        visible = self.canvas.mapToScene(self.canvas.viewport().rect()).boundingRect()
        pen = QPen(ACCENT)
        pen.setCosmetic(True)
        pen.setWidth(2)
        painter.setPen(pen)
        painter.setBrush(QColor(208, 52, 44, 30))
        painter.drawRect(visible)
        painter.end()

    def mousePressEvent(self, event) -> None:
        inverse, ok = self._transform().inverted()
        if ok:
            self.canvas.centerOn(inverse.map(event.position()))

    def mouseMoveEvent(self, event) -> None:
        self.mousePressEvent(event)
