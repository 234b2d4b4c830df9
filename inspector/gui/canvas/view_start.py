"""Where a graph canvas looks: the first view of a graph (fitted, or from its start at a
readable scale), the comparison's start at one scale (at its inputs), fit to window,
centring on a box. A mixin of GraphCanvas (a QGraphicsView whose scene show_scene laid out)."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from inspector.gui.canvas.items import NodeItem

SCENE_MARGIN = 80.0     # around a laid-out graph in its scene rectangle


class ViewPlacement:
    """GraphCanvas's placing of the view over its scene."""

    def show_start_at(self, scale: float, inputs=()) -> None:
        """The graph's start at `scale`, the first view of a comparison's canvases, both at one
        scale: a tall graph's top (at its left edge, where scope titles start), a wide one's
        drawn `inputs` (ids, the first first: where its data flows from) or else its left
        end; the first input kept whole in view either way."""
        rect = self._laid_rect()
        if rect.isEmpty():
            return
        view = self.viewport().rect()
        self.resetTransform()
        self.scale(scale, scale)
        across, high = view.width() / scale, view.height() / scale
        boxes = [QRectF(it.x, it.y, it.w, it.h) for it in
                 (self.items_by_id[i].item for i in inputs if i in self.items_by_id)]
        if rect.width() <= across and rect.height() <= high:
            return self.centerOn(rect.center())
        self.centerOn(*self._start_centre(rect, across, high, boxes))

    def _start_centre(self, rect, across: float, high: float, boxes=()) -> tuple:
        """The centre of an `across` x `high` view showing the start of `rect` (a graph, or
        an open scope's frame) too big for it: see show_start_at."""
        if rect.width() <= across:
            x, y = rect.center().x(), rect.top() + high / 2
        elif rect.height() > rect.width():
            x, y = self._start_x(rect, across), rect.top() + high / 2
        elif boxes:
            x, y = self._inputs_centre(rect, boxes, across, high)
        else:                       # its left end, at the height of the boxes there
            x, y = rect.left() + across / 2, self._start_y(rect, across, high)
        if boxes:
            x, y = _keeping(boxes[0], x, y, across, high)
        return x, y

    def show_toggled(self, item_id: str) -> None:
        """A scope the user just opened or closed, brought into view: left where it is when
        whole in view; else its frame (or box) whole, zoomed out for it down to a readable
        scale (MIN_FIT_SCALE; never zoomed in), moved as little as needed; else, too big
        for the view, from its start (its title and top box, as a graph's first view).
        Without it the view kept its place in the scene: musicnn's one top scope, opened,
        showed the empty corner of its frame until Fit."""
        node = self.items_by_id.get(item_id)
        if node is None:
            return
        it = node.item
        rect = QRectF(it.x - 12, it.y - 12, it.w + 24, it.h + 24)   # a margin: its edge seen
        view = self.viewport().rect()
        seen = self.mapToScene(view).boundingRect()
        if seen.contains(rect):
            return
        scale = self.zoom_level()
        fit = self._fit_scale(rect) * 0.96
        if fit < scale:
            scale = max(fit, min(scale, self.MIN_FIT_SCALE))
            self.resetTransform()
            self.scale(scale, scale)
        across, high = view.width() / scale, view.height() / scale
        if rect.width() <= across and rect.height() <= high:
            centre = seen.center()
            self.centerOn(*_keeping(rect, centre.x(), centre.y(), across, high))
        else:
            self.centerOn(*self._start_centre(rect, across, high))

    @staticmethod
    def _inputs_centre(rect, boxes, across: float, high: float) -> tuple:
        """Centre showing the first input box and every other one that fits beside it, moved
        inside the graph's rectangle where it can be (an input at the top shows what reads
        it below, not the empty margin above)."""
        shown = QRectF(boxes[0])
        for box in boxes[1:]:
            both = shown.united(box)
            if both.width() <= across and both.height() <= high:
                shown = both
        x, y = shown.center().x(), shown.center().y()
        if rect.width() > across:
            x = min(max(x, rect.left() + across / 2), rect.right() - across / 2)
        if rect.height() > high:
            y = min(max(y, rect.top() + high / 2), rect.bottom() - high / 2)
        return _keeping(shown, x, y, across, high)

    def _start_x(self, rect, across: float) -> float:
        """Centre across showing the graph's left edge, moved right only as far as its top
        box needs to be seen whole (a look-up in the scene's index, no walk of the items)."""
        band = QRectF(rect.left(), rect.top(), rect.width(), 120.0)
        boxes = [i for i in self.scene().items(band)
                 if isinstance(i, NodeItem) and i.item.kind != "frame"]
        x = rect.left() + across / 2
        if boxes:
            top = min(boxes, key=lambda i: i.y()).sceneBoundingRect()
            x = max(x, top.right() + 10 - across / 2)
        return x

    def _start_y(self, rect, across: float, high: float) -> float:
        """Centre down showing the boxes at the graph's left end (the first `across` of its
        width): their middle, or the top one's if they spread further than `high`; the
        graph's middle with none there (a wide graph's left end may sit far above it)."""
        band = QRectF(rect.left(), rect.top(), across, rect.height())
        boxes = [i.sceneBoundingRect() for i in self.scene().items(band)
                 if isinstance(i, NodeItem) and i.item.kind != "frame"]
        if not boxes:
            return rect.center().y()
        top, bottom = min(b.top() for b in boxes), max(b.bottom() for b in boxes)
        return (top + bottom) / 2 if bottom - top <= high else top - 10 + high / 2

    def fit_scale(self) -> float:
        """The scale at which the whole graph fits (0 with nothing drawn)."""
        rect = self._laid_rect()
        return 0.0 if rect.isEmpty() or not self.items_by_id else \
            self._fit_scale(rect) * 0.96

    def _laid_rect(self):
        """The graph's rectangle as its scene was laid out (show_scene's scene rectangle
        less its margin): no walk of 50k items as itemsBoundingRect() does."""
        return self.scene().sceneRect().adjusted(SCENE_MARGIN - 20, SCENE_MARGIN - 20,
                                                 20 - SCENE_MARGIN, 20 - SCENE_MARGIN)

    def zoom_level(self) -> float:
        return self.transform().m11()

    MIN_FIT_SCALE = 0.45  # labels still drawn (items.py hides them below 0.35)
    MAX_FIT_SCALE = 1.0  # a small graph is shown at its natural size, not blown up

    def _fit_scale(self, rect) -> float:
        view = self.viewport().rect()
        return min(view.width() / rect.width(), view.height() / rect.height())

    def _graph_rect(self):
        return self.scene().itemsBoundingRect().adjusted(-20, -20, 20, 20)

    MIN_ZOOM = 0.01      # the smallest scale (zoom out stops there too): boxes ~1 px

    def fit(self) -> bool:
        """Fit to window (Ctrl+0): the whole graph, down to MIN_ZOOM; a small graph is not
        enlarged beyond its natural size. A graph too big to fit at MIN_ZOOM (300k nodes
        with every scope open: 1/8000) is shown from its start at MIN_ZOOM, and False is
        returned (the minimap shows all of it): painting 180k boxes of a hundredth of a
        pixel held the window 1-4 s per paint, and the scene's items were walked for their
        bounds (the laid-out rectangle is known)."""
        rect = self._laid_rect()
        if rect.isEmpty():
            return True
        # 4 % to spare: scroll bars that come and go would otherwise cut the last few pixels
        scale = min(self._fit_scale(rect) * 0.96, self.MAX_FIT_SCALE)
        self.resetTransform()
        if scale >= self.MIN_ZOOM:
            self.scale(scale, scale)
            self.centerOn(rect.center())
            return True
        self.scale(self.MIN_ZOOM, self.MIN_ZOOM)
        view = self.viewport().rect()
        across, high = view.width() / self.MIN_ZOOM, view.height() / self.MIN_ZOOM
        x = rect.center().x() if rect.width() <= across else rect.left() + across / 2
        y = rect.center().y() if rect.height() <= high else rect.top() + high / 2
        self.centerOn(x, y)
        return False

    def show_start(self) -> None:
        """The first view of a graph: fitted when that keeps boxes readable, otherwise a
        very tall (or wide) graph is shown from its start at a readable scale instead of
        as a thin line (Ctrl+0 still fits all of it)."""
        rect = self._graph_rect()
        if rect.isEmpty():
            return
        if self._fit_scale(rect) >= self.MIN_FIT_SCALE:
            return self.fit()
        view = self.viewport().rect()
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


def _keeping(box, x: float, y: float, across: float, high: float) -> tuple:
    """The centre (x, y) of an `across` x `high` view moved as little as needed for `box` to
    be whole in it (where it overhangs the graph's rectangle, or was out of view)."""
    return (min(max(x, box.right() + 4 - across / 2), box.left() - 4 + across / 2),
            min(max(y, box.bottom() + 4 - high / 2), box.top() - 4 + high / 2))
