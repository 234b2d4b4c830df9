"""The graph canvas: node and scope items with level-of-detail painting, batched edges."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QPainter, QPainterPath, QPalette,
                           QPen, QPolygonF)
from PySide6.QtWidgets import (QGraphicsItem, QGraphicsRectItem, QGraphicsScene, QGraphicsView,
                               QWidget)

from inspector.core.app import gc_policy
from inspector.core.model.humanize import tf_human_readable_num
from inspector.core.model.op_categories import COLOURS

TEXT = QColor("#1d1d1d")
BORDER = QColor("#555555")
ACCENT = QColor("#d0342c")
DIFF = {"added": QColor("#2e8b57"), "removed": QColor("#c0392b"), "changed": QColor("#d4a017")}
CONE = QColor("#1f6fd1")


def _font(size: float, bold: bool = False) -> QFont:
    font = QFont()
    font.setPointSizeF(size)
    font.setBold(bold)
    return font


class NodeItem(QGraphicsRectItem):
    """A node, a collapsed scope (box with counts) or an expanded scope's frame. Its bounding
    box is the C++ rect item's, so indexing tens of thousands of them calls no Python."""

    def __init__(self, item, ink: QColor = TEXT):
        super().__init__(-3, -3, item.w + 6, item.h + 6)
        self.setPen(Qt.NoPen)
        self.item = item
        self.ink = ink  # text drawn on the canvas background (follows the palette)
        self.selected = False
        self.dimmed = False
        self.in_cone = False
        self.badge = ""          # overlay text above the box (role, timing, range ...)
        self.tag = ""            # "IN" / "OUT" for marked inputs and outputs
        self.diff = ""           # "added", "removed", "changed" against the original
        self.heat = None         # overlay fill colour (timings, ranges), replaces the category
        self.setPos(item.x, item.y)
        self.setZValue(-10 if item.kind == "frame" else 1)
        self.setAcceptHoverEvents(True)
        tip = item.id.rstrip("/")
        if item.kind != "node":
            tip += f"\n{item.child_count} nodes, {tf_human_readable_num(item.params)} parameters"
            if item.alike > 1:
                tip += f"\none of {item.alike} sibling scopes with the same ops"
            tip += f"\n{item.op_mix}" if item.op_mix else ""
        else:
            tip += f"\n{item.label}" + "".join(f"\n{b.name}: {b.dtype} {b.shape}"
                                               for b in item.badges[:8])
        self.setToolTip(tip)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        it = self.item
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        rect = QRectF(0, 0, it.w, it.h)
        fill = QColor(self.heat or COLOURS.get(it.category, COLOURS["other"]))
        if self.dimmed:
            fill.setAlpha(70)
        if lod < 0.35 and it.kind != "frame" and not (self.selected or self.in_cone or
                                                         self.diff or self.tag):
            painter.fillRect(rect, fill)  # far away: a plain box is all the eye can see
            return
        pen = QPen(ACCENT if self.selected else (CONE if self.in_cone else
                                                 DIFF.get(self.diff, BORDER)))
        pen.setWidthF(3.0 if self.selected or self.in_cone or self.diff else 1.0)
        if self.diff == "removed":
            pen.setStyle(Qt.DashLine)
        if it.kind == "frame":
            pen.setStyle(Qt.DashLine if not self.selected else Qt.SolidLine)
            painter.setPen(pen)
            light = QColor(fill)
            light.setAlpha(38)
            painter.setBrush(QBrush(light))
            painter.drawRoundedRect(rect, 8, 8)
            if lod > 0.25:
                painter.setFont(_font(9, True))
                painter.setPen(self.ink if not self.dimmed else QColor("#999999"))
                painter.drawText(QRectF(8, 2, it.w - 16, 20), Qt.AlignLeft | Qt.AlignVCenter,
                                 f"{it.label}  ({it.child_count} nodes)")
            return
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        radius = 10 if it.kind == "node" else 4
        if it.kind == "scope":  # a stacked look says "there is more inside"
            painter.drawRoundedRect(rect.adjusted(4, 4, 4, 4), radius, radius)
        painter.drawRoundedRect(rect, radius, radius)
        if lod < 0.35:
            return  # too small for text: colour and shape are what you see
        painter.setPen(TEXT if not self.dimmed else QColor("#8a8a8a"))
        if it.kind == "scope":
            painter.setFont(_font(9, True))
            painter.drawText(QRectF(6, 3, it.w - 12, 18), Qt.AlignCenter,
                             f"{it.label}  [{it.child_count}]")
            painter.setFont(_font(7.5))
            extra = f"{tf_human_readable_num(it.params)} params" if it.params else ""
            painter.drawText(QRectF(6, 21, it.w - 12, 20), Qt.AlignCenter,
                             " · ".join(x for x in (it.op_mix, extra) if x))
            if it.alike > 1:  # a repeated block: the same op mix as its siblings
                painter.setFont(_font(7, True))
                painter.setPen(QColor("#3b3b3b"))
                painter.drawText(QRectF(it.w - 44, it.h - 15, 40, 13), Qt.AlignRight,
                                 f"≡{it.alike}")
            self._paint_tags(painter, it)
            return
        painter.setFont(_font(8.5, True))
        painter.drawText(QRectF(6, 2, it.w - 12, 17), Qt.AlignCenter, it.label)
        painter.setFont(_font(7.5))
        if it.sublabel and it.sublabel != it.label:
            painter.drawText(QRectF(6, 18, it.w - 12, 16), Qt.AlignCenter,
                             _elide(it.sublabel, it.w))
        if it.badges and lod > 0.6:
            painter.setFont(_font(6.5))
            b = it.badges[0]
            more = f" +{len(it.badges) - 1}" if len(it.badges) > 1 else ""
            painter.drawText(QRectF(4, it.h - 16, it.w - 8, 14), Qt.AlignCenter,
                             _elide(f"◆ {b.shape}{more}", it.w))
        self._paint_tags(painter, it)

    def _paint_tags(self, painter, it) -> None:
        if self.badge:
            painter.setFont(_font(7, True))
            painter.setPen(self.ink)
            painter.drawText(QRectF(0, -14, it.w, 13), Qt.AlignCenter, self.badge)
        if self.tag:
            colour = QColor("#2e7d32") if self.tag == "IN" else QColor("#6a1b9a")
            box = QRectF(-6, -9, 30, 15)
            painter.setPen(Qt.NoPen)
            painter.setBrush(colour)
            painter.drawRect(box)
            painter.setPen(QColor("white"))
            painter.setFont(_font(7, True))
            painter.drawText(box, Qt.AlignCenter, self.tag)


def _elide(text: str, width: float) -> str:
    limit = max(int(width / 5.6), 4)
    return text if len(text) <= limit else text[: limit - 1] + "…"


EDGES_PER_TILE = 300


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
        data_path, control_path, heads, labels = QPainterPath(), QPainterPath(), [], []
        for start, end, edge in shapes[i:i + EDGES_PER_TILE]:
            pts = [start] + [QPointF(x, y) for x, y in edge.points] + [end]
            _smooth(control_path if edge.control else data_path, pts, lr)
            heads.append(_arrow(pts[-2], end, lr))
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

    def __init__(self, tile: dict, ink: QColor = TEXT):
        super().__init__()
        self.ink = ink
        self.setZValue(0)
        self.data_path, self.control_path = tile["data"], tile["control"]
        self.heads, self.labels, self._rect = tile["heads"], tile["labels"], tile["rect"]

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setBrush(Qt.NoBrush)
        pen = QPen(QColor("#6b6b6b"))
        pen.setWidthF(1.2)
        pen.setCosmetic(lod < 0.5)
        painter.setPen(pen)
        painter.drawPath(self.data_path)
        dash = QPen(QColor("#9b9b9b"))
        dash.setStyle(Qt.DashLine)
        dash.setCosmetic(True)
        painter.setPen(dash)
        painter.drawPath(self.control_path)
        if lod > 0.3:
            painter.setPen(Qt.NoPen)
            painter.setBrush(QColor("#6b6b6b"))
            for head in self.heads:
                painter.drawPolygon(head)
        if lod > 0.9 and self.labels:
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


class GraphCanvas(QGraphicsView):
    """Zoom with the wheel or keys, pan by dragging; emits what the user points at."""

    clicked = Signal(str)          # item id
    activated = Signal(str)        # double-click: expand/collapse a scope
    context_requested = Signal(str, object)  # item id, global QPoint
    walk = Signal(str)             # "up", "down", "left", "right"
    mark_key = Signal(str)         # "input" (I) or "output" (O)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.scene().setItemIndexMethod(QGraphicsScene.BspTreeIndex)
        self.items_by_id: dict = {}
        self.setFocusPolicy(Qt.StrongFocus)

    # -- content ------------------------------------------------------------------------
    CHUNK_SECONDS = 0.03  # item creation per event-loop turn, so the GUI never freezes

    def show_scene(self, scene, on_done=None, geometry=None) -> None:
        """Replace everything with a laid-out core Scene. Big scenes are built in slices of
        ~30 ms between event-loop turns; `on_done` runs when the last item is in. A newer
        call abandons an unfinished build."""
        import time

        from PySide6.QtCore import QTimer

        self._build = getattr(self, "_build", 0) + 1
        build = self._build
        gs = self.scene()
        gs.clear()
        self.items_by_id = {}
        margin = 80.0
        gs.setSceneRect(QRectF(-margin, -margin, scene.width + 2 * margin,
                               scene.height + 2 * margin))
        ink = self.palette().color(QPalette.Text)
        pending = sorted(scene.items.values(), key=lambda i: i.kind != "frame")
        pending.reverse()
        self.viewport().setUpdatesEnabled(False)  # no half-built frames while slices go in

        def step():
            if build != self._build:
                return  # superseded by a newer scene
            start = time.perf_counter()
            with gc_policy.paused():  # a full collection here would hold the GUI for ~0.3 s
                while pending and time.perf_counter() - start < self.CHUNK_SECONDS:
                    for _ in range(min(10, len(pending))):
                        item = pending.pop()
                        node = NodeItem(item, ink)
                        gs.addItem(node)
                        self.items_by_id[item.id] = node
            if pending:
                QTimer.singleShot(1, step)  # let input, paint and other timers in
                return
            for tile in geometry if geometry is not None else \
                    edge_geometry(scene.edges, scene.items, scene.direction):
                gs.addItem(EdgeLayer(tile, ink))
            self.viewport().setUpdatesEnabled(True)
            gc_policy.keep_out_of_collections()  # long-lived scene objects
            if on_done is not None:
                on_done()

        step()

    def decorate(self, d) -> None:
        """Apply core.app.decorations.Decorations: selection, cone, dimming, IN/OUT tags,
        diff states, overlay badges and heat colours."""
        for item_id, node in self.items_by_id.items():
            node.selected = item_id == d.selected
            node.in_cone = item_id in d.cone
            node.dimmed = item_id in d.dimmed
            node.tag = d.tags.get(item_id, "")
            node.diff = d.diff.get(item_id, "")
            node.badge = d.badges.get(item_id, "")
            node.heat = d.heat.get(item_id)
            node.update()

    # -- navigation ---------------------------------------------------------------------
    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(min(factor, 8.0 / current), 0.01 / current)
        self.scale(factor, factor)

    def zoom_level(self) -> float:
        return self.transform().m11()

    MIN_FIT_SCALE = 0.45  # above the level where labels are drawn

    def fit(self) -> None:
        """Fit the graph; a very tall (or wide) graph is shown from its start at a scale
        where boxes stay recognisable instead of as a thin line."""
        rect = self.scene().itemsBoundingRect().adjusted(-20, -20, 20, 20)
        if rect.isEmpty():
            return
        view = self.viewport().rect()
        scale = min(view.width() / rect.width(), view.height() / rect.height())
        if scale >= self.MIN_FIT_SCALE:
            self.fitInView(rect, Qt.KeepAspectRatio)
            return
        scale = min(self.MIN_FIT_SCALE, max(view.width() / rect.width(), 0.05))
        self.resetTransform()
        self.scale(scale, scale)
        top = rect.top() + view.height() / (2 * scale)
        self.centerOn(rect.center().x(), top)

    def center_on_item(self, item_id: str, zoom_in: bool = True) -> bool:
        node = self.items_by_id.get(item_id)
        if node is None:
            return False
        if zoom_in and self.zoom_level() < 0.8:
            self.setTransform(self.transform().fromScale(1.0, 1.0))
        self.centerOn(node.sceneBoundingRect().center())
        return True

    def item_at(self, pos) -> str | None:
        for gi in self.items(pos):
            if isinstance(gi, NodeItem):
                if gi.item.kind == "frame":
                    local = gi.mapFromScene(self.mapToScene(pos))
                    if local.y() > 24:  # inside a frame but not on its title: keep looking
                        continue
                return gi.item.id
        return None

    # -- events -------------------------------------------------------------------------
    def wheelEvent(self, event) -> None:
        self.zoom(1.0015 ** event.angleDelta().y())

    def mousePressEvent(self, event) -> None:
        item_id = self.item_at(event.position().toPoint())
        if item_id is not None and event.button() == Qt.LeftButton:
            self.clicked.emit(item_id)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        item_id = self.item_at(event.position().toPoint())
        if item_id is not None:
            self.activated.emit(item_id)

    def contextMenuEvent(self, event) -> None:
        item_id = self.item_at(event.pos())
        if item_id is not None:
            self.context_requested.emit(item_id, event.globalPos())

    def keyPressEvent(self, event) -> None:
        keys = {Qt.Key_Up: "up", Qt.Key_Down: "down", Qt.Key_Left: "left", Qt.Key_Right: "right"}
        if event.key() in keys and event.modifiers() & Qt.ShiftModifier:  # pan
            step = 80
            dx = {"left": -step, "right": step}.get(keys[event.key()], 0)
            dy = {"up": -step, "down": step}.get(keys[event.key()], 0)
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + dx)
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + dy)
            return
        if event.key() in keys and not event.modifiers() & (Qt.AltModifier | Qt.ControlModifier):
            self.walk.emit(keys[event.key()])
            return
        if event.key() in (Qt.Key_I, Qt.Key_O) and not event.modifiers():
            self.mark_key.emit("input" if event.key() == Qt.Key_I else "output")
            return
        if event.key() in (Qt.Key_Plus, Qt.Key_Equal):
            self.zoom(1.25)
        elif event.key() == Qt.Key_Minus:
            self.zoom(0.8)
        else:
            super().keyPressEvent(event)


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

    def __init__(self, canvas: GraphCanvas, parent=None):
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
