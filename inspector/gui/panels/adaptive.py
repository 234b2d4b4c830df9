"""Layouts that follow the room a dock gives a panel: side by side in a wide, short dock (the
bottom of the window), stacked in a narrow, tall one (a side column)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QLabel,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


class WidthSplitter(QSplitter):
    """A splitter whose parts sit side by side from `wide` pixels of width, else stacked.
    Width alone decides: a dock sets a panel's width, while its height may follow the
    panel's own minimum (so deciding by the aspect could never leave the stacked state).
    `stacked`: the parts' shares of the height when they stack (else the widths' shares)."""

    def __init__(self, wide: int = 560, parent=None, stacked: tuple = ()):
        super().__init__(Qt.Horizontal, parent)
        self.wide, self.stacked, self._moved = wide, stacked, False
        self.setChildrenCollapsible(False)
        self.splitterMoved.connect(lambda *_: setattr(self, "_moved", True))  # the user's own

    def resizeEvent(self, event) -> None:
        wanted = Qt.Horizontal if event.size().width() >= self.wide else Qt.Vertical
        if wanted != self.orientation():
            self.setOrientation(wanted)
        if wanted == Qt.Vertical and self.stacked and not self._moved:
            height = event.size().height() - self.handleWidth()
            self.setSizes([int(height * share) for share in self.stacked])
        super().resizeEvent(event)


class Fold(QWidget):
    """Settings folded under a header button (closed at first): the actions they tune stay
    in sight in a short dock, the settings one click away."""

    def __init__(self, title: str, content, parent=None):
        super().__init__(parent)
        self.button = QToolButton()
        self.button.setText(title)
        self.button.setCheckable(True)
        self.button.setToolButtonStyle(Qt.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.RightArrow)
        self.button.setAutoRaise(True)
        self.content = content
        content.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.button)
        lay.addWidget(content)
        self.button.toggled.connect(self.open)

    def open(self, on: bool = True) -> None:
        if self.button.isChecked() != on:
            self.button.setChecked(on)
            return
        self.button.setArrowType(Qt.DownArrow if on else Qt.RightArrow)
        self.content.setVisible(on)


class Tabs(QTabWidget):
    """Tabs that ask for their pages' minimum height, not their preferred height for the
    width (a page with wrapped text would otherwise make its dock scroll)."""

    def hasHeightForWidth(self) -> bool:
        return False


class OneLine(QLabel):
    """A label that keeps one line whatever it says: a long text is cut with "…" (lines
    joined with " · ") and shown whole in the tooltip; `text()` is the whole text. Its line
    is kept while empty, so a result arriving never moves what is below it."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 4)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text if text else "")

    def shown(self) -> str:
        """What the line shows."""
        line = " · ".join(part for part in self.text().splitlines() if part)
        return self.fontMetrics().elidedText(line, Qt.ElideRight, max(self.width(), 8))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.fontMetrics().height() + 4)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.rect(), Qt.AlignLeft | Qt.AlignVCenter, self.shown())
        painter.end()


class Wrapped(QLabel):
    """A word-wrapped label whose minimum height is what its text takes at its width, and
    which is hidden while it says nothing. A Tabs page is sized to its parts' minimum
    heights, where a wrapped QLabel counts one line: three lines at the dock's width were
    drawn over the widget above them (the dock scrolls instead, if they do not fit)."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setVisible(bool(text))

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setVisible(bool(text))
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if self.width() > 0 and self.text():
            hint.setHeight(max(hint.height(), self.heightForWidth(self.width())))
        return hint

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        old, new = event.oldSize().width(), event.size().width()
        if old != new and self.heightForWidth(old) != self.heightForWidth(new):
            self.updateGeometry()        # fewer or more lines: the layout asks again


class NamesWrapped(Wrapped):
    """A Wrapped label for text with node names: a long name may break after any '/' or '_' (a
    zero-width space there), so one name of 150 characters does not make the label, and
    its dock, wider than the dock (grappler's names in a profile's notes scrolled the
    Overlays dock sideways at 1366x768). `text()` is the text as given."""

    def setText(self, text: str) -> None:
        self._given = text
        super().setText(text.replace("/", "/\u200b").replace("_", "_\u200b"))

    def text(self) -> str:
        return self._given if hasattr(self, "_given") else super().text()
