"""The minimap: the whole graph, small, its boxes drawn once into a picture; the main view's
visible area outlined; click or drag to move there."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QPen, QTransform
from PySide6.QtWidgets import QWidget

from inspector.core.view.vocabulary import CATEGORY_COLOURS as COLOURS
from inspector.gui.canvas.items import ACCENT
from inspector.gui.canvas.let_go import let_go


def minimap_groups(scene, heat=None) -> dict:
    """Item rectangles (x, y, w, h) grouped by fill colour (frames first), for the minimap:
    the overlay's colours (`heat`, item -> colour) when one paints the canvas, else the op
    categories'. Plain numbers, built on a worker thread (a QRectF each was 30k wrappers after
    Expand all on 300k: see edges.edge_geometry)."""
    groups: dict = {}
    heat = heat or {}
    for item in scene.items.values():
        colour = "#efe9dc" if item.kind == "frame" else heat.get(item.id) or COLOURS.get(
            item.category, COLOURS["other"])
        groups.setdefault(colour, []).append((item.x, item.y, item.w, item.h))
    frames = groups.pop("#efe9dc", [])
    return {"#efe9dc": frames, **groups}


def scene_bounds(scene) -> QRectF:
    return QRectF(0, 0, max(scene.width, 1.0), max(scene.height, 1.0))


def _fit(b: QRectF, width: int, height: int) -> QTransform:
    """Scene to a minimap of this size: the whole graph, always, centred (issue 38.4: a tall
    graph used to be magnified and followed, so the minimap showed a crop, not an
    overview)."""
    if b.isEmpty():
        return QTransform()
    w, h = max(width - 8, 1), max(height - 8, 1)
    scale = min(w / b.width(), h / b.height())
    dx = (width - b.width() * scale) / 2 - b.x() * scale
    dy = (height - b.height() * scale) / 2 - b.y() * scale
    return QTransform(scale, 0, 0, scale, dx, dy)


def boxes_picture(groups: dict, bounds: QRectF, size) -> tuple | None:
    """(size, image): the boxes drawn once for a minimap of `size` (width, height, device
    pixel ratio), copied at each paint (drawing 30k boxes took 7 ms of the GUI thread, ~30 ms
    on the slow class, at every scroll of the canvas). QPainter may draw on a QImage on a
    worker thread: the layout and minimap tasks make it. None for no size (hidden)."""
    if not size:
        return None
    width, height, ratio = size
    image = QImage(max(1, round(width * ratio)), max(1, round(height * ratio)),
                   QImage.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    transform = _fit(bounds, width, height)
    painter.setTransform(transform)
    tiny = transform.m11() * 4 < 1      # boxes under a pixel: an outline keeps them seen
    for colour, rects in groups.items():
        if tiny:
            pen = QPen(QColor(colour))
            pen.setCosmetic(True)
            painter.setPen(pen)
        else:
            painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(colour))
        for i in range(0, len(rects), 2000):        # few wrappers alive at once
            painter.drawRects([QRectF(*r) for r in rects[i:i + 2000]])
    painter.end()
    return size, image


class Minimap(QWidget):
    """The whole graph, small: coloured boxes (drawn once into a picture, however big the
    graph), the main view's visible area outlined; click or drag to move there."""

    def __init__(self, canvas, parent=None):
        super().__init__(parent)
        self.canvas = canvas
        self.groups: dict = {}
        self.bounds = QRectF()
        self._picture = None     # (size, groups, bounds, QImage) of the boxes drawn
        self.setMinimumHeight(120)
        canvas.horizontalScrollBar().valueChanged.connect(self.update)
        canvas.verticalScrollBar().valueChanged.connect(self.update)

    def picture_size(self) -> tuple | None:
        """(width, height, device pixel ratio) a task draws the boxes for (boxes_picture);
        None while the minimap is hidden (its first paint draws them)."""
        if not self.isVisible():
            return None
        return self.width(), self.height(), self.devicePixelRatioF()

    def show_scene(self, scene, groups=None, picture=None) -> None:
        """`groups` and `picture` as a task made them (minimap_groups, boxes_picture), else
        made here."""
        old, self.groups = self.groups, groups if groups is not None else minimap_groups(scene)
        if old is not self.groups:
            let_go(old.values())       # a big picture's boxes, freed in slices
        self.bounds = scene_bounds(scene)
        self._picture = (picture[0], self.groups, self.bounds, picture[1]) if picture \
            else None
        self.update()

    def _transform(self):
        return _fit(self.bounds, self.width(), self.height())

    def _boxes(self):
        """The boxes' picture at the minimap's size now (drawn here if it changed)."""
        size = (self.width(), self.height(), self.devicePixelRatioF())
        p = self._picture
        if p is None or p[0] != size or p[1] is not self.groups or p[2] != self.bounds:
            made = boxes_picture(self.groups, self.bounds, size)
            self._picture = p = (size, self.groups, self.bounds, made[1])
        return p[3]

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(Qt.NoPen)          # (not fillRect: it makes PySide create QGradient,
        painter.setBrush(self.palette().color(QPalette.Base))   # see items._brush)
        painter.drawRect(self.rect())
        if self.bounds.isEmpty() or not self.groups:
            painter.end()
            return  # nothing open: an empty minimap, not a view outline over nothing
        painter.drawImage(QPointF(0, 0), self._boxes())
        painter.setTransform(self._transform())
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
