"""The window's side of presentation mode: full screen with every panel, the menu bar and the
status bar hidden, and all of it put back as it was on leaving."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget


class PresentationChrome:
    def __init__(self, window):
        self.window = window
        self._saved = None

    def enter(self) -> None:
        w = self.window
        self._saved = (w.saveState(), w.isFullScreen(), w.isMaximized(), w.geometry())
        for dock in w.findChildren(QDockWidget):
            dock.hide()
        w.menuBar().hide()
        w.statusBar().hide()
        w.showFullScreen()
        screen = w.screen()
        if screen is not None:        # without a window manager full screen is only a wish
            w.setGeometry(screen.geometry())
        canvas = w.centralWidget()
        self._bars = (canvas.horizontalScrollBarPolicy(), canvas.verticalScrollBarPolicy())
        canvas.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        canvas.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)

    def leave(self) -> None:
        if self._saved is None:
            return
        w = self.window
        state, full, maximized, geometry = self._saved
        self._saved = None
        canvas = w.centralWidget()
        canvas.setHorizontalScrollBarPolicy(self._bars[0])
        canvas.setVerticalScrollBarPolicy(self._bars[1])
        w.menuBar().show()
        w.statusBar().show()
        if not full:
            w.showMaximized() if maximized else w.showNormal()
            if not maximized:
                w.setGeometry(geometry)
        w.restoreState(state)
