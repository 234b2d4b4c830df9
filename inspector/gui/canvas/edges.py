"""Edges in tiles of ~300: paths, arrowheads and label anchors built as plain values on a
worker thread, painted as one cached path per tile (labels only when zoomed in)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from inspector.core.runtime import pieces
from inspector.gui.canvas.frame_lanes import Lanes
from inspector.gui.canvas.items import TEXT
from inspector.gui.canvas.style import BADGE_OVER, MIN_BEND, STACKED
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
    """Edge tiles: paths, arrowheads and label places for ~300 edges each, grouped by
    position so that painting a small view skips the tiles it does not show. Made on a
    worker thread (20k edges take ~0.4 s) from plain numbers: a Qt value object per point or
    rectangle (60k-120k of them after Expand all on 300k) grew PySide's table of wrappers
    past a size where it is rebuilt in one C call that kept the GIL, and so the GUI thread,
    ~25 ms of CPU (~100 ms on the slow class). A tile holds a few Qt objects, its paths."""
    lr = direction == "LR"
    shapes, lanes = [], Lanes(items, lr)
    for edge in edges:
        a, b = items.get(edge.src), items.get(edge.dst)
        if a is None or b is None:
            continue
        routed = lanes.route(edge, STACKED if b.kind == "scope" else 0.0)
        if routed is None:
            shapes.append((*edge_ends(a, b, lr), edge, edge.points))
        else:       # an end inside an open scope: by lanes through its border
            shapes.append((routed[0], routed[2], edge, routed[1]))
    shapes.sort(key=(lambda t: t[0]) if lr else (lambda t: (t[0][1], t[0][0])))
    placed = place_labels(shapes, items)
    tiles = []
    for i in range(0, len(shapes), EDGES_PER_TILE):
        data_path, control_path, heads, labels = (QPainterPath(), QPainterPath(),
                                                   QPainterPath(), [])
        for start, end, edge, bends in shapes[i:i + EDGES_PER_TILE]:
            pts = [start, *bends, end]
            _smooth(control_path if edge.control else data_path, pts, lr)
            _arrow(heads, pts[-2], end, lr)
            if id(edge) in placed:
                labels.append((*placed[id(edge)], edge.label))
        rect = (data_path.boundingRect() | control_path.boundingRect()).adjusted(-20, -20,
                                                                               20, 20)
        tiles.append({"data": data_path, "control": control_path, "heads": heads,
                      "labels": labels, "rect": rect,   # labels: (x, y, text)
                      # what paint() would otherwise ask Qt each time (here, in the task)
                      "drawn_paths": (not data_path.isEmpty(), not control_path.isEmpty(),
                                      not heads.isEmpty())})
    pieces.emptied(shapes, placed)      # not in one go (210k objects): see pieces.emptied
    return tiles


def edge_ends(a, b, lr: bool = False) -> tuple:
    """(start, end) of an edge from box `a` to box `b`: from a's bottom to b's top (a's right
    to b's left when left to right). A back edge of a cycle (the layout turned it round, so
    b is above a, or left of it) goes from a's top to b's bottom instead, a quarter of the
    way from their middles so that it does not run on the edge the other way: from a's
    bottom it ran up through both boxes, drawn behind them, and showed as a stub over b
    (basic-pitch's Func -> StatefulPartitionedCall). It ends on the border drawn: a scope's
    stacked look (drawn over the edges) would hide the arrowhead."""
    under = STACKED if b.kind == "scope" else 0.0
    if lr:
        if b.x + b.w <= a.x:
            return (a.x, a.y + a.h * 0.75), (b.x + b.w + under, b.y + b.h * 0.75)
        return (a.x + a.w, a.y + a.h / 2), (b.x, b.y + b.h / 2)
    if b.y + b.h <= a.y:
        return (a.x + a.w * 0.75, a.y), (b.x + b.w * 0.75, b.y + b.h + under)
    return (a.x + a.w / 2, a.y + a.h), (b.x + b.w / 2, b.y)


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
    return QRectF(*_label_xywh(point.x(), point.y(), text))


def _label_xywh(x: float, y: float, text: str) -> tuple:
    return x + 3, y - LABEL_HEIGHT + 2, len(text) * LABEL_CHAR + 2, LABEL_HEIGHT


# Rectangles below are plain (left, top, right, bottom) tuples, right = x + width as QRectF
# has it, and meet as QRectF.intersects has them meet (strictly; widths are positive here).
def _box(x: float, y: float, w: float, h: float) -> tuple:
    return x, y, x + w, y + h


def _grown(x: float, y: float, w: float, h: float, by: float) -> tuple:
    """QRectF(x, y, w, h).adjusted(-by, -by, by, by), with Qt's arithmetic."""
    return _box(x - by, y - by, w + by + by, h + by + by)


class _Taken:
    """Rectangles already used (boxes, the room of feature strips, labels), found by grid."""

    def __init__(self):
        self.cells: dict = {}

    def _keys(self, r: tuple):
        for gx in range(int(r[0] // _CELL), int(r[2] // _CELL) + 1):
            for gy in range(int(r[1] // _CELL), int(r[3] // _CELL) + 1):
                yield gx, gy

    def add(self, r: tuple) -> None:
        for key in self._keys(r):
            self.cells.setdefault(key, []).append(r)

    def free(self, r: tuple) -> bool:
        cells = self.cells
        left, top, right, bottom = r
        for gx in range(int(left // _CELL), int(right // _CELL) + 1):
            for gy in range(int(top // _CELL), int(bottom // _CELL) + 1):
                for o in cells.get((gx, gy), ()):
                    if left < o[2] and o[0] < right and top < o[3] and o[1] < bottom:
                        return False
        return True


class _Labels(_Taken):
    """Labels placed, with their texts: a new one keeps APART from any, SAME_APART from
    one saying the same."""

    def add(self, r: tuple, text: str = "") -> None:
        for key in self._keys(r):
            self.cells.setdefault(key, []).append((r, text))

    def clear(self, xywh: tuple, text: str) -> bool:
        near, far = _grown(*xywh, APART), _grown(*xywh, SAME_APART)
        for key in self._keys(far):
            for o, t in self.cells.get(key, ()):
                left, top, right, bottom = far if t == text else near
                if left < o[2] and o[0] < right and top < o[3] and o[1] < bottom:
                    return False
        return True


def _along(pts: list, fraction: float) -> tuple:
    """The point (x, y) `fraction` of the way along the polyline `pts` of (x, y)."""
    lengths = [math.hypot(bx - ax, by - ay) for (ax, ay), (bx, by) in zip(pts, pts[1:])]
    goal = sum(lengths) * fraction
    for ((ax, ay), (bx, by)), length in zip(zip(pts, pts[1:]), lengths):
        if goal <= length and length > 0:
            t = goal / length
            return ax + (bx - ax) * t, ay + (by - ay) * t
        goal -= length
    return pts[-1]


def place_labels(shapes: list, items: dict) -> dict:
    """id(edge) -> (x, y) where its label goes. A tensor read by several nodes is labelled
    once; a label never covers a box (nor the badge above it) or a scope's title, keeps
    APART from other labels and SAME_APART from a label saying the same (two edges side by
    side read as one edge labelled twice): it takes the first free place along its edge, and
    an edge with no free place goes without (its tensor is in Properties)."""
    taken, labels = _Taken(), _Labels()
    for item in items.values():      # boxes (and what rings them), an open scope's title
        if item.kind == "frame":
            taken.add(_box(item.x, item.y, item.w, TITLE_BAND))
        else:
            taken.add(_box(item.x - CLEAR, item.y - CLEAR - ABOVE, item.w + 2 * CLEAR,
                           item.h + 2 * CLEAR + ABOVE))
            taken.add(_box(item.x - BADGE_OVER, item.y - CLEAR - ABOVE,   # a wide badge
                           item.w + 2 * BADGE_OVER, ABOVE))
    placed, labelled = {}, set()
    for start, end, edge, bends in shapes:
        if not edge.label or edge.control or (edge.src, edge.label) in labelled:
            continue
        pts = [start, *bends, end]
        for fraction in _FRACTIONS:
            point = _along(pts, fraction)
            xywh = _label_xywh(*point, edge.label)
            box = _box(*xywh)
            if taken.free(box) and labels.clear(xywh, edge.label):
                labels.add(box, edge.label)
                placed[id(edge)] = point
                labelled.add((edge.src, edge.label))
                break
    pieces.emptied(taken.cells, labels.cells, labelled)    # not in one go: see its text
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
        self.heads, self._rect = tile["heads"], tile["rect"]
        # label places as numbers (x, y, text): a QPointF each would be 20k-30k wrappers
        # after Expand all on 300k (see edge_geometry); made for the few labels painted.
        # The tile's own list: a copy would leave 60k objects to free in the GUI thread
        self.label_at = tile["labels"]
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
        if lod > 0.9 and self.label_at and not (st is not None and st.presenting):
            left, top, width, height = option.exposedRect.getRect()
            right, bottom = left + width, top + height
            if width <= 0 or height <= 0:      # as QRectF.contains: an empty part holds none
                right = left - 1
            strips = st is not None and st.strips
            shown = [(x, y, text) for x, y, text in self.label_at
                     if left <= x <= right and top <= y <= bottom and
                     not (strips and self._under_strip(x, y, text))]
            if shown:
                painter.setPen(self.ink)
                painter.setFont(_font(6.5))
            for x, y, text in shown:
                painter.drawText(QPointF(x + 4, y), text)
                self.drawn.append((QPointF(x, y), text))

    @property
    def labels(self) -> list:
        """(point, text) of every label of the tile."""
        return [(QPointF(x, y), text) for x, y, text in self.label_at]

    def _under_strip(self, x: float, y: float, text: str) -> bool:
        """Would a feature strip (drawn over the edges) hide this label? Then it is left
        out rather than half covered."""
        from inspector.gui.canvas.feature_strip import FeatureStrip

        scene = self.scene()
        return scene is not None and any(isinstance(i, FeatureStrip) for i in
                                         scene.items(QRectF(*_label_xywh(x, y, text))))


def _smooth(path: QPainterPath, pts: list, lr: bool = False) -> None:
    """Cubic segments through the points (x, y), leaving and entering vertically
    (horizontally when left-to-right)."""
    path.moveTo(*pts[0])
    for i in range(1, len(pts)):
        (ax, ay), (bx, by) = pts[i - 1], pts[i]
        if lr:   # a back edge runs right to left (bottom to top): d < 0
            d = (bx - ax) / 2 if len(pts) > 2 else math.copysign(
                max(abs(bx - ax) / 2, MIN_BEND), bx - ax)
            path.cubicTo(ax + d, ay, bx - d, by, bx, by)
        else:
            d = (by - ay) / 2 if len(pts) > 2 else math.copysign(
                max(abs(by - ay) / 2, MIN_BEND), by - ay)
            path.cubicTo(ax, ay + d, bx, by - d, bx, by)


def _arrow(heads: QPainterPath, before: tuple, tip: tuple, lr: bool = False) -> None:
    """An arrowhead at `tip`, pointing away from `before`, added to `heads` as a closed
    triangle."""
    (px, py), (tx, ty) = before, tip
    angle = math.atan2(ty - py, tx - px)
    if lr:
        angle = 0.0 if tx >= px else math.pi
    elif abs(ty - py) > 1:
        angle = math.pi / 2 if ty > py else -math.pi / 2
    size = 6.0
    heads.moveTo(tx, ty)
    heads.lineTo(tx - size * math.cos(angle - 0.45), ty - size * math.sin(angle - 0.45))
    heads.lineTo(tx - size * math.cos(angle + 0.45), ty - size * math.sin(angle + 0.45))
    heads.closeSubpath()
