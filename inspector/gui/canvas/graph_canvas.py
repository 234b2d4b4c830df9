"""The graph canvas: a QGraphicsView of node and scope items (built in time slices) and edge
tiles; zoom, pan; emits what the user points at. Decorating the boxes: decorating.py;
fitting and the first view: view_start.py."""

from __future__ import annotations

import time
from functools import partial

from PySide6.QtCore import QCoreApplication, QEvent, QRectF, QTimer, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget
from shiboken6 import delete

from inspector.core.runtime import gc_policy
from inspector.gui.canvas.box_reuse import keep_boxes
from inspector.gui.canvas.decorating import Decorating
from inspector.gui.canvas.edges import EdgeLayer, edge_geometry
from inspector.gui.canvas.items import NodeItem
from inspector.gui.canvas.style import CanvasStyle
from inspector.gui.canvas.view_start import SCENE_MARGIN, ViewPlacement


_EDGES_IN = object()     # _build_slice's `geometry` once the edge tiles are in the scene
_INDEXED = object()      # and once the scene's index holds every item


class GraphCanvas(Decorating, ViewPlacement, QGraphicsView):
    """Zoom with the wheel or keys, pan by dragging; emits what the user points at."""

    clicked = Signal(str)          # item id
    activated = Signal(str)        # double-click: expand/collapse a scope
    enter_pressed = Signal()       # Enter: expand/collapse the selected scope
    context_requested = Signal(str, object)  # item id, global QPoint
    walk = Signal(str)             # "up", "down", "left", "right"
    mark_key = Signal(str)         # "input" (I) or "output" (O)
    files_dropped = Signal(list)   # local paths dropped on the canvas
    strip_clicked = Signal(str)    # item id whose feature-map strip was clicked

    def __init__(self, parent=None):
        super().__init__(parent)
        # a viewport made here, as Qt would make it: Python knows its class, so reading
        # viewport() does not make PySide look for it among every QWidget class (it made
        # ~45 of them, ~7 ms of a start, ~20 ms on the slow class, before the first picture)
        viewport = QWidget()
        viewport.setAttribute(Qt.WA_InputMethodEnabled)
        self.setViewport(viewport)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.scene().setItemIndexMethod(QGraphicsScene.BspTreeIndex)
        self.items_by_id: dict = {}
        self.setFocusPolicy(Qt.StrongFocus)
        self.style = CanvasStyle()      # shared by every item (presentation, spotlight)
        self.halo = False               # presentation: a large halo follows the pointer
        self._pointer = None
        self.waiting = ""               # "Opening NAME…": shown while the canvas is empty
        self.cache_boxes = False        # boxes kept as pixmaps (the comparison's canvases)
        self.unpainted = False          # a scene is built and not painted yet
        self._edge_layers: list = []    # the edge tiles in the scene
        self._retiring: list = []       # items of an old picture still to leave the scene
        self._frames = 0                # items_by_id's first items that are frames

    EMPTY_HINT = ("No model open\n\nOpen one with File › Open… (Ctrl+O),\nor drop a model "
                  "file or a SavedModel folder here.\n\nHelp › Getting started explains "
                  "the workflow.")

    def show_waiting(self, text: str) -> None:
        """What the empty canvas says while a model is opened ('' for the how-to-start hint)."""
        if text != self.waiting:
            self.waiting = text
            self.viewport().update()

    def set_halo(self, on: bool) -> None:
        self.halo = on
        self.viewport().setMouseTracking(on or self.viewport().hasMouseTracking())
        self.viewport().update()

    def mouseMoveEvent(self, event) -> None:
        if self.halo:
            old, self._pointer = self._pointer, event.position().toPoint()
            for p in (old, self._pointer):
                if p is not None:
                    self.viewport().update(p.x() - 60, p.y() - 60, 120, 120)
        super().mouseMoveEvent(event)

    def drawForeground(self, painter, rect) -> None:
        """An empty canvas says how to start instead of showing a blank page; while
        presenting, a halo marks the pointer for people at the back of the room."""
        self.unpainted = False
        if self.halo and self._pointer is not None:
            painter.save()
            painter.resetTransform()
            painter.setPen(Qt.NoPen)
            painter.setBrush(QColor(255, 214, 0, 90))
            painter.drawEllipse(self._pointer, 46, 46)
            painter.setBrush(QColor(230, 90, 0, 200))
            painter.drawEllipse(self._pointer, 7, 7)
            painter.restore()
        if self.items_by_id or self._retiring:      # (not scene().items(): a sorted list)
            return
        painter.save()
        painter.resetTransform()
        colour = self.palette().color(QPalette.PlaceholderText)
        painter.setPen(colour)
        font = painter.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        painter.setFont(font)
        painter.drawText(self.viewport().rect().adjusted(20, 20, -20, -20),
                         Qt.AlignCenter | Qt.TextWordWrap, self.waiting or self.EMPTY_HINT)
        painter.restore()

    # -- files dropped on the canvas (the scene would swallow them) ------------------------
    @staticmethod
    def _local_paths(event) -> list:
        mime = event.mimeData()
        return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() \
            else []

    def dragEnterEvent(self, event):
        if self._local_paths(event):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event):
        if self._local_paths(event):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event):
        paths = self._local_paths(event)
        if paths:
            event.acceptProposedAction()
            self.files_dropped.emit(paths)
        else:
            super().dropEvent(event)

    # -- content ------------------------------------------------------------------------
    CHUNK_SECONDS = 0.03  # item creation per event-loop turn, so the GUI never freezes

    def show_scene(self, scene, on_done=None, geometry=None) -> None:
        """Replace everything with a laid-out core Scene. Big scenes are built in slices of
        ~30 ms between event-loop turns; `on_done` runs when the last item is in. A newer
        call abandons an unfinished build."""
        self._build = getattr(self, "_build", 0) + 1
        gs = self.scene()
        kept = keep_boxes(self, scene) if self.cache_boxes and self.items_by_id else {}
        if not kept:
            self._retire()
        self.items_by_id, self._frames = kept, 0    # (kept boxes: no order known)
        margin = SCENE_MARGIN
        gs.setSceneRect(QRectF(-margin, -margin, scene.width + 2 * margin,
                               scene.height + 2 * margin))
        ink = self.palette().color(QPalette.Text)
        pending = sorted((i for i in scene.items.values() if i.id not in kept),
                         key=lambda i: i.kind != "frame")
        pending.reverse()
        self.viewport().setUpdatesEnabled(False)  # no half-built frames while slices go in
        first = partial(self._build_slice, self._build, scene, pending, ink, geometry, on_done)
        if self._retiring or len(pending) > self.RETIRE_AT_ONCE:
            QTimer.singleShot(0, self, first)    # not in this turn: its caller has work of its own
        else:
            first()

    RETIRE_AT_ONCE = 2000  # items of an old picture cleared in one go (~8 ms); more: sliced

    def _retire(self) -> None:
        """The drawn items leave the scene: a few at once, many in the build's first slices
        (clearing 180k items held the GUI thread 1.2 s, 3.4 s on the slow class). Until then
        they stay in the scene unpainted (the build turns the viewport's updates off)."""
        old, drawn, frames = self._retiring, list(self.items_by_id.values()), self._frames
        # in the scene's order of its top-level items (z: frames, edge tiles, boxes; then as
        # added: frames were added first), taken from the end: each removal then finds its
        # item first in that list (Qt scans it from the front: in any other order the
        # removals cost O(n) each, 60 us an item at 30k)
        batch = drawn[:frames] + self._edge_layers + drawn[frames:]
        batch.reverse()
        old[:0] = batch
        self._edge_layers, self.items_by_id, self._frames = [], {}, 0
        if len(old) <= self.RETIRE_AT_ONCE:
            old.clear()
            self.scene().clear()

    def _retire_slice(self, start: float) -> None:
        """Old items deleted for half a slice (~3 us each at full speed): deleted, not
        removed: a removal takes each item out of the scene's index at once (20-60 us an
        item at 30k), a delete leaves one purge of the index for later."""
        old = self._retiring
        while old:                      # a bite at least, whatever the time
            for node in reversed(old[-20:]):
                delete(node)
            del old[-20:]
            if time.perf_counter() - start >= self.CHUNK_SECONDS / 2:   # (a delete may take
                break                   # a few ms: the memory it frees goes back to the system)

    def _build_slice(self, build, scene, pending, ink, geometry, on_done) -> None:
        """One slice of show_scene. The next one is this method again through a partial: a
        nested function that scheduled itself would be a reference cycle, and the scene it
        holds would stay in memory (collections leave alone what the app has frozen)."""
        if build != self._build:
            return  # superseded by a newer scene
        gs, start = self.scene(), time.perf_counter()
        worked = bool(pending or self._retiring)
        with gc_policy.paused():  # a full collection here would hold the GUI for ~0.3 s
            self._retire_slice(start)
            while pending and time.perf_counter() - start < self.CHUNK_SECONDS:
                for _ in range(min(10, len(pending))):
                    item = pending.pop()
                    node = NodeItem(item, ink, self.style)
                    if self.cache_boxes:
                        node.set_cached(True)
                    gs.addItem(node)
                    self.items_by_id[item.id] = node
                    self._frames += item.kind == "frame"
        if pending or self._retiring or worked and (
                time.perf_counter() - start > self.CHUNK_SECONDS / 2 or
                len(self.items_by_id) > self.RETIRE_AT_ONCE):   # (a big picture's edge tiles
            # and on_done get a turn of their own) let input, paint and other timers in
            QTimer.singleShot(1, self, partial(self._build_slice, build, scene, pending, ink,
                                               geometry, on_done))   # (dies with the canvas)
            return
        big = len(self.items_by_id) > self.RETIRE_AT_ONCE
        if geometry is not _EDGES_IN and geometry is not _INDEXED:
            for tile in geometry if geometry is not None else \
                    edge_geometry(scene.edges, scene.items, scene.direction):
                layer = EdgeLayer(tile, ink, self.style)
                gs.addItem(layer)
                self._edge_layers.append(layer)
            if big:      # a big picture: the scene's own work on the new tiles, its index,
                # then the first paint and on_done, each a turn
                QTimer.singleShot(1, self, partial(self._build_slice, build, scene, pending,
                                                   ink, _EDGES_IN, on_done))
                return
        if geometry is _EDGES_IN and big:
            # the scene indexes its items once none came in for a turn: all 30k at once,
            # inside the first paint (~9 ms of CPU at full speed). A query now, in a turn of
            # its own; the paint then finds them indexed
            gs.items(QRectF(0, 0, 1, 1))
            QTimer.singleShot(1, self, partial(self._build_slice, build, scene, pending, ink,
                                               _INDEXED, on_done))
            return
        self.viewport().setUpdatesEnabled(True)
        self.unpainted = True
        gc_policy.keep_out_of_collections()  # long-lived scene objects
        if on_done is not None:
            on_done()

    def flush_scene(self) -> None:
        """Let the scene mark what changed in it now (its queued redraw of changed items),
        so that the next paint takes it in."""
        QCoreApplication.sendPostedEvents(self.scene(), QEvent.MetaCall)

    def paint_now(self) -> None:
        """Paint a scene built and not painted yet now, before a task starts: a paint while
        a task computes waits for the GIL at each of its Qt calls (on a slow machine the
        picture then takes several times as long). Flush the scenes of every canvas in the
        window first (flush_scene): the window paints all that is marked in one go."""
        if self.unpainted and self.isVisible() and self.viewport().updatesEnabled():
            self.viewport().repaint()
        self.unpainted = False

    def set_cache_boxes(self, on: bool) -> None:
        """Keep every box as a pixmap in device coordinates (QGraphicsItem's
        DeviceCoordinateCache): a repaint of a box whose look did not change (a scroll, a
        resize, a neighbour's update) copies pixels and calls no Python. A box is painted
        again when it is updated (decorate() does on a change of its look, restyle() for
        all) or the zoom changes. The comparison's canvases use it; off by default."""
        self.cache_boxes = on
        for node in self.items_by_id.values():
            node.set_cached(on)

    def clear_scene(self, waiting: str = "") -> None:
        """Nothing drawn but `waiting` ("Laying out…") until the next show_scene: a picture
        about to be replaced is not painted again (a resize would, while a task computes)."""
        self._build = getattr(self, "_build", 0) + 1        # an unfinished build stops
        self._retiring, self._frames = [], 0
        self.scene().clear()
        self._edge_layers = []
        self.items_by_id = {}
        self.unpainted = False
        self.viewport().setUpdatesEnabled(True)
        self.show_waiting(waiting)
        self.viewport().update()

    # -- navigation ---------------------------------------------------------------------
    zoomed = Signal(float)         # the user zoomed: the new scale (synced canvases)

    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(min(factor, 8.0 / current), self.MIN_ZOOM / current)
        self.scale(factor, factor)
        self.zoomed.emit(self.transform().m11())

    def set_zoom(self, scale: float) -> None:
        """This scale, the centre of the view kept (a synced canvas follows another)."""
        if abs(self.transform().m11() - scale) < 1e-6:
            return
        centre = self.mapToScene(self.viewport().rect().center())
        self.resetTransform()
        self.scale(scale, scale)
        self.centerOn(centre)

    def item_at(self, pos) -> str | None:
        for gi in self.items(pos):
            if isinstance(gi, NodeItem) and self.items_by_id.get(gi.item.id) is gi:
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
        from inspector.gui.canvas.feature_strip import FeatureStrip

        hit = [gi for gi in self.items(event.position().toPoint())
               if isinstance(gi, FeatureStrip)]
        if hit and event.button() == Qt.LeftButton:
            self.strip_clicked.emit(hit[0].maps.item)
            return
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
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and \
                not event.modifiers() & ~Qt.KeypadModifier:
            self.enter_pressed.emit()
            return
        if event.key() in (Qt.Key_Plus, Qt.Key_Equal):
            self.zoom(1.25)
        elif event.key() == Qt.Key_Minus:
            self.zoom(0.8)
        else:
            super().keyPressEvent(event)
