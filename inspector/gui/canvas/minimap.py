"""The minimap: the whole graph, small, one draw call per colour; the main view's visible area
outlined; click or drag to move there."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QWidget

from inspector.core.model.op_categories import COLOURS
from inspector.gui.canvas.items import ACCENT


def minimap_groups(scene) -> dict:
    """Item rectangles grouped by fill colour (frames first), for the minimap. Plain value
    objects, built on a worker thread."""
    groups: dict = {}
    for item in scene.items.values():
        colour = "#efe9dc" if item.kind == "frame" else COLOURS.get(item.category,
                                                                     COLOURS["other"])
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

    def _transform(self):
        from PySide6.QtGui import QTransform

        b = self.bounds
        if b.isEmpty():
            return QTransform()
        scale = min((self.width() - 8) / b.width(), (self.height() - 8) / b.height())
        dx = (self.width() - b.width() * scale) / 2 - b.x() * scale
        dy = (self.height() - b.height() * scale) / 2 - b.y() * scale
        return QTransform(scale, 0, 0, scale, dx, dy)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.Base))
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
