"""The minimap: the whole graph, small, one draw call per colour; the main view's visible area
outlined; click or drag to move there."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QTransform
from PySide6.QtWidgets import QWidget

from inspector.core.view.vocabulary import CATEGORY_COLOURS as COLOURS
from inspector.gui.canvas.items import ACCENT
from inspector.gui.canvas.let_go import let_go


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
        old, self.groups = self.groups, groups if groups is not None else minimap_groups(scene)
        if old is not self.groups:
            let_go(old.values())       # a big picture's boxes, freed in slices
        self.bounds = QRectF(0, 0, max(scene.width, 1.0), max(scene.height, 1.0))
        self.update()

    def _transform(self):
        """Scene to minimap: the whole graph, always, centred (issue 38.4: a tall graph used
        to be magnified and followed, so the minimap showed a crop, not an overview)."""
        b = self.bounds
        if b.isEmpty():
            return QTransform()
        w, h = max(self.width() - 8, 1), max(self.height() - 8, 1)
        scale = min(w / b.width(), h / b.height())
        dx = (self.width() - b.width() * scale) / 2 - b.x() * scale
        dy = (self.height() - b.height() * scale) / 2 - b.y() * scale
        return QTransform(scale, 0, 0, scale, dx, dy)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(Qt.NoPen)          # (not fillRect: it makes PySide create QGradient,
        painter.setBrush(self.palette().color(QPalette.Base))   # see items._brush)
        painter.drawRect(self.rect())
        if self.bounds.isEmpty() or not self.groups:
            painter.end()
            return  # nothing open: an empty minimap, not a view outline over nothing
        transform = self._transform()
        painter.setTransform(transform)
        tiny = transform.m11() * 4 < 1      # boxes under a pixel: an outline keeps them seen
        for colour, rects in self.groups.items():
            if tiny:
                pen = QPen(QColor(colour))
                pen.setCosmetic(True)
                painter.setPen(pen)
            else:
                painter.setPen(Qt.NoPen)
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
