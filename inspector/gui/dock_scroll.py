"""A dock's scroll area: a panel never forces the window to grow (on a small screen it
scrolls instead), fills the dock otherwise, and the wheel over a list inside it moves only
that list."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QScrollArea, QWidget


class PanelScrollArea(QScrollArea):
    """A dock's scroll area. The wheel over a list, chart or text inside it moves that
    widget only: at the inner widget's end the rest of a wheel turn is swallowed here
    instead of scrolling the whole panel away from under the pointer. The panel gets the
    whole viewport and scrolls only below its minimum height for that width (a resizable
    QScrollArea sizes a panel with wrapped text to its preferred height, so every such
    panel scrolled a little even when its controls fitted)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        # its viewport made here, as Qt makes it: Python knows its class, so reading
        # viewport() does not make PySide look for it among every QWidget class (it made
        # ~45 of them, ~7 ms of a start, ~20 ms on the slow class, before the first picture)
        viewport = QWidget()
        viewport.setObjectName("qt_scrollarea_viewport")
        viewport.setAutoFillBackground(True)
        viewport.setAttribute(Qt.WA_AcceptTouchEvents)
        self.setViewport(viewport)

    def setWidget(self, widget) -> None:
        super().setWidget(widget)
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):
        if obj is self.widget() and event.type() == QEvent.LayoutRequest:
            self._fit()
        return False

    def viewportEvent(self, event):
        if event.type() == QEvent.Wheel and self._inside_inner(event.position().toPoint()):
            event.accept()
            return True
        if event.type() == QEvent.Resize:
            self._fit()
        return super().viewportEvent(event)

    def _fit(self) -> None:
        panel = self.widget()
        if panel is None:
            return
        view = self.viewport().size()
        hint = panel.minimumSizeHint()
        width = max(view.width(), hint.width(), panel.minimumWidth())
        layout = panel.layout()
        least = layout.totalMinimumHeightForWidth(width) \
            if layout is not None and layout.hasHeightForWidth() else hint.height()
        panel.resize(width, max(view.height(), least, panel.minimumHeight()))

    def _inside_inner(self, pos) -> bool:
        widget = self.viewport().childAt(pos)
        while widget is not None and widget is not self.viewport():
            if isinstance(widget, QAbstractScrollArea):
                return True
            widget = widget.parentWidget()
        return False


def scrolling(widget):
    """A panel inside a scroll area: a panel never forces the window to grow, on a small
    screen it scrolls instead. widget None: the panel is put in later (setWidget)."""
    area = PanelScrollArea()
    if widget is not None:
        area.setWidget(widget)  # sized by the area itself (see PanelScrollArea._fit)
    area.setFrameShape(QFrame.NoFrame)
    area.setMinimumSize(60, 40)
    return area
