"""Edges in tiles of ~300: paths, arrowheads and label anchors built as plain values on a
worker thread, painted as one cached path per tile (labels only when zoomed in)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from inspector.gui.canvas.items import TEXT
from inspector.gui.canvas.style import BADGE_OVER
from inspector.gui.canvas.text_fit import _font

EDGES_PER_TILE = 300
HEAD = QColor("#6b6b6b")


def _pen(colour: str, width: float, cosmetic: bool, style=Qt.SolidLine) -> QPen:
    pen = QPen(QColor(colour))
    pen.setWidthF(width)
    pen.setCosmetic(cosmetic)
    pen.setStyle(style)
    return pen


_DATA, _DATA_FAR = _pen("#6b6b6b", 1.2, False), _pen("#6b6b6b", 1.2, True)
_CONTROL = _pen("#9b9b9b", 1.0, True, Qt.DashLine)   # dashed, one pixel at any zoom


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
    placed = place_labels(shapes, items)
    tiles = []
    for i in range(0, len(shapes), EDGES_PER_TILE):
        data_path, control_path, heads, labels = (QPainterPath(), QPainterPath(),
                                                   QPainterPath(), [])
        for start, end, edge in shapes[i:i + EDGES_PER_TILE]:
            pts = [start] + [QPointF(x, y) for x, y in edge.points] + [end]
            _smooth(control_path if edge.control else data_path, pts, lr)
            heads.addPolygon(_arrow(pts[-2], end, lr))
            heads.closeSubpath()
            if id(edge) in placed:
                labels.append((placed[id(edge)], edge.label))
        rect = (data_path.boundingRect() | control_path.boundingRect()).adjusted(-20, -20,
                                                                               20, 20)
        tiles.append({"data": data_path, "control": control_path, "heads": heads,
                      "labels": labels, "rect": rect,
                      # what paint() would otherwise ask Qt each time (here, in the task)
                      "label_at": [(p.x(), p.y(), QPointF(p.x() + 4, p.y()), p, text)
                                   for p, text in labels],
                      "drawn_paths": (not data_path.isEmpty(), not control_path.isEmpty(),
                                      not heads.isEmpty())})
    return tiles


LABEL_CHAR, LABEL_HEIGHT = 3.9, 9.0   # a label's size in scene units (6.5 px text), a
#                                        little over what it measures, so labels keep apart
TITLE_BAND = 24.0    # an open scope's title (items.py draws it in its top 22 units)
CLEAR = 6.0          # between a label and a box (a selection ring is drawn there)
ABOVE = 12.0         # and above it: a box's badge (counts, SNR, a timing) is drawn there
APART = 12.0         # between any two labels (closer, two edges' labels read as one pile)
SAME_APART = 30.0    # two labels of the same text closer than this read as one edge's
_CELL = 96.0
_FRACTIONS = (0.5, 0.35, 0.65, 0.8, 0.2)


def label_rect(point: QPointF, text: str) -> QRectF:
    """Where a label drawn at `point` (text from 4 units right, baseline at the point) sits."""
    return QRectF(point.x() + 3, point.y() - LABEL_HEIGHT + 2, len(text) * LABEL_CHAR + 2,
                  LABEL_HEIGHT)


class _Taken:
    """Rectangles already used (boxes, the room of feature strips, labels), found by grid."""

    def __init__(self):
        self.cells: dict = {}

    def _keys(self, r: QRectF):
        for gx in range(int(r.left() // _CELL), int(r.right() // _CELL) + 1):
            for gy in range(int(r.top() // _CELL), int(r.bottom() // _CELL) + 1):
                yield gx, gy

    def add(self, r: QRectF) -> None:
        for key in self._keys(r):
            self.cells.setdefault(key, []).append(r)

    def free(self, r: QRectF) -> bool:
        cells, left, top = self.cells, r.left(), r.top()
        for gx in range(int(left // _CELL), int((left + r.width()) // _CELL) + 1):
            for gy in range(int(top // _CELL), int((top + r.height()) // _CELL) + 1):
                for o in cells.get((gx, gy), ()):
                    if r.intersects(o):
                        return False
        return True


class _Labels(_Taken):
    """Labels placed, with their texts: a new one keeps APART from any, SAME_APART from
    one saying the same."""

    def add(self, r: QRectF, text: str = "") -> None:
        for key in self._keys(r):
            self.cells.setdefault(key, []).append((r, text))

    def clear(self, r: QRectF, text: str) -> bool:
        near = r.adjusted(-APART, -APART, APART, APART)
        far = r.adjusted(-SAME_APART, -SAME_APART, SAME_APART, SAME_APART)
        for key in self._keys(far):
            for o, t in self.cells.get(key, ()):
                if (far if t == text else near).intersects(o):
                    return False
        return True


def _along(pts: list, fraction: float) -> QPointF:
    """The point `fraction` of the way along the polyline `pts`."""
    lengths = [math.hypot(b.x() - a.x(), b.y() - a.y()) for a, b in zip(pts, pts[1:])]
    goal = sum(lengths) * fraction
    for (a, b), length in zip(zip(pts, pts[1:]), lengths):
        if goal <= length and length > 0:
            t = goal / length
            return QPointF(a.x() + (b.x() - a.x()) * t, a.y() + (b.y() - a.y()) * t)
        goal -= length
    return pts[-1]


def place_labels(shapes: list, items: dict) -> dict:
    """id(edge) -> where its label goes. A tensor read by several nodes is labelled once;
    a label never covers a box (nor the badge above it) or a scope's title, keeps APART from other labels
    and SAME_APART from a label saying the same (two edges side by side read as one edge
    labelled twice): it takes the first free place along its edge, and an edge with no
    free place goes without (its tensor is in Properties)."""
    taken, labels = _Taken(), _Labels()
    for item in items.values():      # boxes (and what rings them), an open scope's title
        if item.kind == "frame":
            taken.add(QRectF(item.x, item.y, item.w, TITLE_BAND))
        else:
            taken.add(QRectF(item.x - CLEAR, item.y - CLEAR - ABOVE, item.w + 2 * CLEAR,
                             item.h + 2 * CLEAR + ABOVE))
            taken.add(QRectF(item.x - BADGE_OVER, item.y - CLEAR - ABOVE,   # a wide badge
                             item.w + 2 * BADGE_OVER, ABOVE))
    placed, labelled = {}, set()
    for start, end, edge in shapes:
        if not edge.label or edge.control or (edge.src, edge.label) in labelled:
            continue
        pts = [start] + [QPointF(x, y) for x, y in edge.points] + [end]
        for fraction in _FRACTIONS:
            point = _along(pts, fraction)
            rect = label_rect(point, edge.label)
            if taken.free(rect) and labels.clear(rect, edge.label):
                labels.add(rect, edge.label)
                placed[id(edge)] = point
                labelled.add((edge.src, edge.label))
                break
    return placed


class EdgeLayer(QGraphicsItem):
    """One tile of edges: two cached paths (data, control) plus arrowheads; labels when
    zoomed in."""

    def __init__(self, tile: dict, ink: QColor = TEXT, style=None):
        super().__init__()
        self.ink = ink
        self.style = style      # the canvas's CanvasStyle (presentation, spotlight)
        self.setZValue(0)
        # option.exposedRect is the part to repaint, not the whole tile: labels outside it
        # are not drawn (each drawText waits for the GIL while a task computes)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption)
        self.data_path, self.control_path = tile["data"], tile["control"]
        # arrowheads as one path, filled in one call: every Qt call from paint waits for the
        # GIL while other threads compute (~80 us each), so paint makes few of them
        self.heads, self.labels, self._rect = tile["heads"], tile["labels"], tile["rect"]
        self.label_at = tile.get("label_at") or [(p.x(), p.y(), QPointF(p.x() + 4, p.y()),
                                                  p, text) for p, text in self.labels]
        self.has = tile.get("drawn_paths") or (not self.data_path.isEmpty(),
                                               not self.control_path.isEmpty(),
                                               not self.heads.isEmpty())
        self.drawn: list = []    # (point, text) of the labels the last paint wrote

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        """Few Qt calls (shared pens; label places and their test against the part to
        repaint in Python): each waits for the GIL while a task computes."""
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        st = self.style
        if st is not None and st.spotlight is not None:
            painter.setOpacity(0.3)   # the spotlit block's own edges are the ones to follow
        painter.setBrush(Qt.NoBrush)
        data, control, heads = self.has
        if data:                            # an empty path is a broken one in a PDF
            painter.setPen(_DATA_FAR if lod < 0.5 else _DATA)
            painter.drawPath(self.data_path)
        if control:
            painter.setPen(_CONTROL)
            painter.drawPath(self.control_path)
        if lod > 0.3 and heads:
            painter.fillPath(self.heads, HEAD)
        self.drawn = []
        if lod > 0.9 and self.labels and not (st is not None and st.presenting):
            left, top, width, height = option.exposedRect.getRect()
            right, bottom = left + width, top + height
            if width <= 0 or height <= 0:      # as QRectF.contains: an empty part holds none
                right = left - 1
            strips = st is not None and st.strips
            shown = [(at, point, text) for x, y, at, point, text in self.label_at
                     if left <= x <= right and top <= y <= bottom and
                     not (strips and self._under_strip(point, text))]
            if shown:
                painter.setPen(self.ink)
                painter.setFont(_font(6.5))
            for at, point, text in shown:
                painter.drawText(at, text)
                self.drawn.append((point, text))

    def _under_strip(self, point: QPointF, text: str) -> bool:
        """Would a feature strip (drawn over the edges) hide this label? Then it is left
        out rather than half covered."""
        from inspector.gui.canvas.feature_strip import FeatureStrip

        scene = self.scene()
        return scene is not None and any(isinstance(i, FeatureStrip)
                                         for i in scene.items(label_rect(point, text)))


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
