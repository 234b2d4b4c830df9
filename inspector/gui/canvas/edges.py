"""Edges in tiles of ~300: paths, arrowheads and label anchors built as plain values on a
worker thread, painted as one cached path per tile (labels only when zoomed in)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from inspector.gui.canvas.items import TEXT, _font

EDGES_PER_TILE = 300
HEAD = QColor("#6b6b6b")


def edge_geometry(edges, items, direction: str = "TB") -> list:
    """Edge tiles: paths, arrowheads and label anchors for ~300 edges each, grouped by
    position so that painting a small view skips the tiles it does not show. Plain value
    objects only, so a worker thread can build them (20k edges take ~0.4 s)."""
    lr = direction == "LR"
    shapes = []
    for edge in edges:
        a, b = items.get(edge.src), items.get(edge.dst)
        if a is None or b is None:
            continue
        if lr:
            start, end = QPointF(a.x + a.w, a.y + a.h / 2), QPointF(b.x, b.y + b.h / 2)
        else:
            start, end = QPointF(a.x + a.w / 2, a.y + a.h), QPointF(b.x + b.w / 2, b.y)
        shapes.append((start, end, edge))
    shapes.sort(key=lambda t: (t[0].x(), t[0].y()) if lr else (t[0].y(), t[0].x()))
    tiles = []
    for i in range(0, len(shapes), EDGES_PER_TILE):
        data_path, control_path, heads, labels = (QPainterPath(), QPainterPath(),
                                                   QPainterPath(), [])
        for start, end, edge in shapes[i:i + EDGES_PER_TILE]:
            pts = [start] + [QPointF(x, y) for x, y in edge.points] + [end]
            _smooth(control_path if edge.control else data_path, pts, lr)
            heads.addPolygon(_arrow(pts[-2], end, lr))
            heads.closeSubpath()
            if edge.label and not edge.control:
                mid = pts[len(pts) // 2] if len(pts) > 2 else (start + end) / 2
                labels.append((mid, edge.label))
        rect = (data_path.boundingRect() | control_path.boundingRect()).adjusted(-20, -20,
                                                                               20, 20)
        tiles.append({"data": data_path, "control": control_path, "heads": heads,
                      "labels": labels, "rect": rect})
    return tiles


class EdgeLayer(QGraphicsItem):
    """One tile of edges: two cached paths (data, control) plus arrowheads; labels when
    zoomed in."""

    def __init__(self, tile: dict, ink: QColor = TEXT, style=None):
        super().__init__()
        self.ink = ink
        self.style = style      # the canvas's CanvasStyle (presentation, spotlight)
        self.setZValue(0)
        self.data_path, self.control_path = tile["data"], tile["control"]
        # arrowheads as one path, filled in one call: every Qt call from paint waits for the
        # GIL while other threads compute (~80 us each), so paint makes few of them
        self.heads, self.labels, self._rect = tile["heads"], tile["labels"], tile["rect"]

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        st = self.style
        if st is not None and st.spotlight is not None:
            painter.setOpacity(0.3)   # the spotlit block's own edges are the ones to follow
        painter.setBrush(Qt.NoBrush)
        pen = QPen(QColor("#6b6b6b"))
        pen.setWidthF(1.2)
        pen.setCosmetic(lod < 0.5)
        painter.setPen(pen)
        if not self.data_path.isEmpty():   # an empty path is a broken one in a PDF
            painter.drawPath(self.data_path)
        dash = QPen(QColor("#9b9b9b"))
        dash.setStyle(Qt.DashLine)
        dash.setCosmetic(True)
        painter.setPen(dash)
        if not self.control_path.isEmpty():
            painter.drawPath(self.control_path)
        if lod > 0.3 and not self.heads.isEmpty():
            painter.fillPath(self.heads, HEAD)
        if lod > 0.9 and self.labels and not (st is not None and st.presenting):
            exposed = option.exposedRect
            painter.setPen(self.ink)
            painter.setFont(_font(6.5))
            for point, text in self.labels:
                if exposed.contains(point):
                    painter.drawText(point + QPointF(4, 0), text)


def _smooth(path: QPainterPath, pts: list, lr: bool = False) -> None:
    """Cubic segments leaving and entering vertically (horizontally when left-to-right)."""
    path.moveTo(pts[0])
    for i in range(1, len(pts)):
        a, b = pts[i - 1], pts[i]
        if lr:
            d = (b.x() - a.x()) / 2 if len(pts) > 2 else max(abs(b.x() - a.x()) / 2, 20)
            path.cubicTo(QPointF(a.x() + d, a.y()), QPointF(b.x() - d, b.y()), b)
        else:
            d = (b.y() - a.y()) / 2 if len(pts) > 2 else max(abs(b.y() - a.y()) / 2, 20)
            path.cubicTo(QPointF(a.x(), a.y() + d), QPointF(b.x(), b.y() - d), b)


def _arrow(before: QPointF, tip: QPointF, lr: bool = False) -> QPolygonF:
    angle = math.atan2(tip.y() - before.y(), tip.x() - before.x())
    if lr:
        angle = 0.0 if tip.x() >= before.x() else math.pi
    elif abs(tip.y() - before.y()) > 1:
        angle = math.pi / 2 if tip.y() > before.y() else -math.pi / 2
    size = 6.0
    left = QPointF(tip.x() - size * math.cos(angle - 0.45), tip.y() - size * math.sin(angle - 0.45))
    right = QPointF(tip.x() - size * math.cos(angle + 0.45), tip.y() - size * math.sin(angle + 0.45))
    return QPolygonF([tip, left, right])
