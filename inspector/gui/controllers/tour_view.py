"""Where a tour puts the view: the scale and centre that show a stop's rectangle in the part
of the canvas the presentation stage leaves free (readable when presenting: at least the
presenter's zoom, the spotlit block when the whole is too big), and the glide there (zoom
even in log space). A mixin of TourController, which holds the canvas, the stage, the tour
and what is presented."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF

GLIDE_MS = 450
MAX_ZOOM = 2.5


class TourView:
    def _target(self, rect: QRectF) -> tuple:
        """(scale, centre) that show `rect` in the part of the canvas the stage leaves free."""
        vp = self.canvas.viewport().rect()
        free = QRectF(vp)
        if self.presenting:      # what the stage leaves (its band and side panel measured)
            for area in self.stage.covered():
                if area.top() > vp.height() / 3:
                    free.setBottom(min(free.bottom(), area.top() - 8))
                else:
                    free.setRight(min(free.right(), area.left() - 8))
        scale = min(free.width() / rect.width(), free.height() / rect.height(), MAX_ZOOM)
        if self.presenting:
            scale = max(scale, self.ui_scale)
            focus = self._focus_rect()
            if focus is not None and (rect.height() * scale > free.height() or
                                      rect.width() * scale > free.width()):
                rect = focus   # the stop's view is too big to read: its spotlit block then
                scale = max(min(free.width() / rect.width(), free.height() / rect.height(),
                                MAX_ZOOM), self.ui_scale)
        shift = QPointF(vp.width() / 2 - free.center().x(), vp.height() / 2 - free.center().y())
        centre = rect.center()
        if self.presenting and rect.height() * scale > free.height():
            # taller than the room at a readable size: its top in sight, never under the band
            centre.setY(rect.top() + free.height() / 2 / scale)
        if self.presenting and rect.width() * scale > free.width():
            centre.setX(rect.left() + free.width() / 2 / scale)
        return scale, centre + shift / scale

    def _focus_rect(self) -> QRectF | None:
        """The scene rectangle of the current stop's spotlit items (None without any)."""
        if not 0 <= self.current < len(self.tour.stops):
            return None
        boxes = [self.canvas.items_by_id[i].sceneBoundingRect()
                 for i in self.tour.stops[self.current].focus if i in self.canvas.items_by_id]
        if not boxes:
            return None
        whole = boxes[0]
        for box in boxes[1:]:
            whole = whole.united(box)
        return whole.adjusted(-20, -30, 20, 20)     # its tags and badges too

    def glide_to(self, rect: QRectF, animate: bool = True) -> None:
        scale, centre = self._target(rect)
        self.glide.stop()
        if not animate or self.reduce_motion:
            self._place(scale, centre)
            return
        now = self.canvas.mapToScene(self.canvas.viewport().rect().center())
        self._from = (self.canvas.zoom_level(), QPointF(now))
        self._to = (scale, centre)
        self.glide.setDuration(GLIDE_MS)
        self.glide.setStartValue(0.0)
        self.glide.setEndValue(1.0)
        self.glide.start()

    def _glide_step(self, t) -> None:
        (s0, c0), (s1, c1) = self._from, self._to
        scale = s0 * (s1 / s0) ** t        # zoom evenly in log space
        self._place(scale, c0 + (c1 - c0) * t)

    def _place(self, scale: float, centre: QPointF) -> None:
        self.canvas.resetTransform()
        self.canvas.scale(scale, scale)
        if self.presenting and self.canvas.scene() is not None:
            # room to scroll past the graph's ends: a block at its edge can still sit in
            # the part of the screen the stage leaves free
            vp = self.canvas.viewport().rect()
            mx, my = vp.width() / scale, vp.height() / scale
            self.canvas.setSceneRect(self.canvas.scene().sceneRect().adjusted(-mx, -my, mx, my))
        self.canvas.centerOn(centre)
