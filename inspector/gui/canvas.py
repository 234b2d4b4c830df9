"""The graph canvas: node and scope items with level-of-detail painting, batched edges."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QPainter, QPainterPath, QPalette,
                           QPen, QPolygonF)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView

from inspector.core.humanize import tf_human_readable_num
from inspector.core.op_categories import COLOURS

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


class NodeItem(QGraphicsItem):
    """A node, a collapsed scope (box with counts) or an expanded scope's frame."""

    def __init__(self, item, ink: QColor = TEXT):
        super().__init__()
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

    def boundingRect(self) -> QRectF:
        return QRectF(-3, -3, self.item.w + 6, self.item.h + 6)

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


class EdgeLayer(QGraphicsItem):
    """All edges in two cached paths (data, control) plus arrowheads; labels when zoomed in."""

    def __init__(self, edges, items, ink: QColor = TEXT, direction: str = "TB"):
        super().__init__()
        self.ink = ink
        self.setZValue(0)
        lr = direction == "LR"
        self.data_path, self.control_path, self.heads = QPainterPath(), QPainterPath(), []
        self.labels = []
        for edge in edges:
            a, b = items.get(edge.src), items.get(edge.dst)
            if a is None or b is None:
                continue
            if lr:
                start, end = QPointF(a.x + a.w, a.y + a.h / 2), QPointF(b.x, b.y + b.h / 2)
            else:
                start, end = QPointF(a.x + a.w / 2, a.y + a.h), QPointF(b.x + b.w / 2, b.y)
            pts = [start] + [QPointF(x, y) for x, y in edge.points] + [end]
            path = self.control_path if edge.control else self.data_path
            _smooth(path, pts, lr)
            self.heads.append(_arrow(pts[-2], end, lr))
            if edge.label and not edge.control:
                mid = pts[len(pts) // 2] if len(pts) > 2 else (start + end) / 2
                self.labels.append((mid, edge.label))
        self._rect = (self.data_path.boundingRect() | self.control_path.boundingRect()).adjusted(
            -20, -20, 20, 20)

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
    def show_scene(self, scene) -> None:
        """Replace everything with a laid-out core Scene."""
        gs = self.scene()
        gs.clear()
        self.items_by_id = {}
        ink = self.palette().color(QPalette.Text)
        for item in sorted(scene.items.values(), key=lambda i: i.kind != "frame"):
            node = NodeItem(item, ink)
            gs.addItem(node)
            self.items_by_id[item.id] = node
        gs.addItem(EdgeLayer(scene.edges, scene.items, ink, scene.direction))
        margin = 80.0
        gs.setSceneRect(QRectF(-margin, -margin, scene.width + 2 * margin,
                               scene.height + 2 * margin))

    def mark(self, selected: str | None = None, cone: set | None = None, dropped=None,
             tags=None, diff=None, badges=None, heat=None) -> None:
        """Selection, highlighted cone, dimmed (dropped) items, IN/OUT tags, diff states,
        overlay badges and heat colours."""
        tags, diff, badges, dropped = tags or {}, diff or {}, badges or {}, dropped or set()
        heat = heat or {}
        for item_id, node in self.items_by_id.items():
            node.selected = item_id == selected
            node.in_cone = bool(cone) and item_id in cone and item_id != selected
            node.dimmed = (bool(cone) and item_id not in cone and item_id != selected) or \
                item_id in dropped
            node.tag = tags.get(item_id, "")
            node.diff = diff.get(item_id, "")
            node.badge = badges.get(item_id, "")
            node.heat = heat.get(item_id)
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


class Minimap(QGraphicsView):
    """The whole scene, small, with the main view's visible area outlined; click to jump."""

    def __init__(self, canvas: GraphCanvas, parent=None):
        super().__init__(canvas.scene(), parent)
        self.canvas = canvas
        self.setInteractive(False)
        self.setRenderHints(QPainter.Antialiasing)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        canvas.horizontalScrollBar().valueChanged.connect(self.viewport().update)
        canvas.verticalScrollBar().valueChanged.connect(self.viewport().update)
        canvas.scene().sceneRectChanged.connect(lambda *_: self.refit())

    def refit(self) -> None:
        self.fitInView(self.scene().sceneRect(), Qt.KeepAspectRatio)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.refit()

    def drawForeground(self, painter, rect) -> None:
        visible = self.canvas.mapToScene(self.canvas.viewport().rect()).boundingRect()
        pen = QPen(ACCENT)
        pen.setCosmetic(True)
        pen.setWidth(2)
        painter.setPen(pen)
        painter.setBrush(QColor(208, 52, 44, 30))
        painter.drawRect(visible)

    def mousePressEvent(self, event) -> None:
        self.canvas.centerOn(self.mapToScene(event.position().toPoint()))


