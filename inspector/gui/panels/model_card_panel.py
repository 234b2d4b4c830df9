"""The model card, full window: what goes in and what comes out in plain words, then a row of
big figures (layers, learned numbers, arithmetic, speed per device), each with its exact
definition as a tooltip. Esc or Close returns to the graph."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

INK, MUTED, ACCENT, PAPER = "#1f2933", "#52606d", "#1c6e8c", "#ffffff"
MEASURED = "#2e7d32"


def _label(text: str, size: int, colour: str = INK, bold: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setProperty("card_style", (size, colour, bold))   # restyled for an audience
    _style(label, size)
    return label


def _style(label: QLabel, px: float) -> None:
    _, colour, bold = label.property("card_style")
    label.setStyleSheet(f"color: {colour}; font-size: {round(px)}px;"
                        f"{' font-weight: 600;' if bold else ''} background: transparent;")


class _Tile(QFrame):
    """One figure: the number large, what it is below; the definition as a tooltip."""

    def __init__(self, big: str, small: str, definition: str, measured: bool = False):
        super().__init__()
        colour = MEASURED if measured else ACCENT
        self.setStyleSheet(f"_Tile {{ background: #f4f7fa; border: 1px solid #d9e2ec;"
                           f" border-left: 6px solid {colour}; border-top-right-radius: 8px;"
                           " border-bottom-right-radius: 8px; }")
        self.setToolTip(definition)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        self.big = _label(big, 28, colour, True)
        self.big.setWordWrap(False)
        self.small = _label(small, 15, MUTED)
        layout.addWidget(self.big)
        layout.addWidget(self.small)
        for label in (self.big, self.small):
            label.setToolTip(definition)


class ModelCardPanel(QWidget):
    """Covers the window while shown; `show_card(card)` fills it."""

    closed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setAutoFillBackground(True)
        self.setStyleSheet(f"ModelCardPanel {{ background: {PAPER}; }}")
        self.setAttribute(Qt.WA_StyledBackground, True)
        self.card = None
        self.over = None        # () -> the rectangle to cover instead of the whole window
        outer = QVBoxLayout(self)
        outer.setContentsMargins(48, 32, 48, 24)
        top = QHBoxLayout()
        self.title = _label("", 32, INK, True)
        self.close_button = QPushButton("Close (Esc)")
        self.close_button.clicked.connect(self.close_card)
        top.addWidget(self.title, 1)
        top.addWidget(self.close_button, 0, Qt.AlignTop)
        outer.addLayout(top)
        self.subtitle = _label("What this model does, in plain words. Hover any figure for its "
                               "exact definition.", 16, MUTED)
        outer.addWidget(self.subtitle)
        outer.addSpacing(18)
        self.flow = QHBoxLayout()
        outer.addLayout(self.flow)
        outer.addSpacing(22)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(14)
        outer.addLayout(self.grid)
        outer.addSpacing(18)
        self.compare_title = _label("", 20, INK, True)
        outer.addWidget(self.compare_title)
        self.compare = QGridLayout()
        self.compare.setHorizontalSpacing(28)
        self.compare.setVerticalSpacing(6)
        outer.addLayout(self.compare)
        self.answers = _label("", 16, INK)
        outer.addWidget(self.answers)
        self.comparison = None
        outer.addStretch(1)
        self.footnote = _label("", 13, MUTED)
        outer.addWidget(self.footnote)
        self.tiles: dict = {}
        self.least_px = 0.0      # presenting: no text under this (the scale's promise)
        self.hide()

    def set_least_text(self, px: float) -> None:
        """Every text at least `px` pixels (0: as designed); the small print grows."""
        self.least_px = px
        self._restyle()

    def _restyle(self) -> None:
        for label in self.findChildren(QLabel):
            style = label.property("card_style")
            if style is not None:
                _style(label, max(style[0], self.least_px))
        self.close_button.setStyleSheet(f"font-size: {round(self.least_px)}px;"
                                        if self.least_px else "")

    # -- filling ------------------------------------------------------------------------
    def show_card(self, card) -> None:
        self.card = card
        self.title.setText(card.title)
        _clear(self.flow)
        _clear(self.grid)
        self.flow.addWidget(self._ports("What goes in", card.inputs, card.more_text(True)), 1)
        arrow = _label("➜", 44, ACCENT, True)
        arrow.setAlignment(Qt.AlignCenter)
        self.flow.addWidget(arrow)
        self.flow.addWidget(self._ports("What comes out", card.outputs, card.more_text(False)),
                            1)
        self.tiles = {}
        cost = ("arithmetic", "measured time")      # how much work, then how long it takes
        rows = [[f for f in card.facts if not f.label.startswith("speed on") and
                 f.label not in cost],
                [f for f in card.facts if f.label.startswith("speed on") or f.label in cost]]
        # every row spans the card's width: the grid has a column count each row's length
        # divides (a measured time made the second row 5 tiles in a grid stretched for 4:
        # its fifth tile squeezed, a gap after the first row's fourth, walk17)
        width = math.lcm(*(len(facts) for facts in rows if facts)) if any(rows) else 1
        for col in range(max(width, self.grid.columnCount())):
            self.grid.setColumnStretch(col, 1 if col < width else 0)
        for row, facts in enumerate(rows):
            span = width // max(len(facts), 1)
            for k, fact in enumerate(facts):
                self._tile(fact, row, k * span, span)
        kinds = card.layers_text()
        self.footnote.setText(("Layers: " + kinds + ". " if kinds else "") +
                              "Speeds are estimates from the arithmetic and the device's "
                              "typical speed, unless marked measured." +
                              "".join(f" Arithmetic and speeds counted with {note}."
                                      for note in card.assumed))
        self._restyle()
        self.show_over_parent()

    def show_comparison(self, comparison) -> None:
        """The 'original vs optimized' section (hidden without a pipeline)."""
        self.comparison = comparison
        _clear(self.compare)
        self.compare_title.setVisible(comparison is not None)
        self.answers.setVisible(comparison is not None)
        if comparison is None:
            return
        steps = f"{comparison.steps} step" + ("s" if comparison.steps != 1 else "")
        self.compare_title.setText(f"Original vs optimized (the pipeline's {steps})")
        for col, head in enumerate(("", "original", "optimized", "change")):
            self.compare.addWidget(_label(head.upper(), 12, ACCENT, True), 0, col)
        for row, line in enumerate(comparison.lines, start=1):
            cells = (line.label, line.before, line.after, line.change)
            for col, text in enumerate(cells):
                good = col == 3 and text.startswith("-")
                cell = _label(text, 17, MEASURED if good else (MUTED if col == 0 else INK),
                              col == 2)
                cell.setToolTip(line.definition)
                self.compare.addWidget(cell, row, col)
        self.answers.setText(comparison.answers)
        self._restyle()

    def _tile(self, fact, row: int, col: int, span: int = 1) -> None:
        big, _, small = _split(fact.text)
        tile = _Tile(big, small, fact.definition, fact.measured)
        self.tiles[fact.label] = tile
        self.grid.addWidget(tile, row, col, 1, span)

    def _ports(self, title: str, ports, more: str = "") -> QFrame:
        box = QFrame()
        box.setStyleSheet("QFrame { background: #eef5f9; border-radius: 12px; }")
        layout = QVBoxLayout(box)
        layout.setContentsMargins(22, 16, 22, 16)
        layout.addWidget(_label(title.upper(), 13, ACCENT, True))
        for port in ports or []:
            plain = _label(port.plain[0].upper() + port.plain[1:], 22, INK, True)
            plain.setToolTip(f"{port.title}: {port.dtype} {port.shape}")
            layout.addWidget(plain)
            layout.addWidget(_label(f"{port.title} · {port.dtype or '?'} {port.shape}", 13,
                                    MUTED))
        if more:
            line = _label(more, 13, MUTED)
            line.setWordWrap(True)
            layout.addWidget(line)
        if not ports:
            layout.addWidget(_label("Nothing stands out: mark inputs and outputs first.", 18,
                                    MUTED))
        return box

    # -- showing ------------------------------------------------------------------------
    def show_over_parent(self) -> None:
        """Cover the parent window, or only the rectangle `over()` gives when it is set."""
        parent = self.parentWidget()
        area = self.over() if self.over is not None else None
        if area is not None and not area.isEmpty():
            self.setGeometry(area)
        elif parent is not None:
            self.setGeometry(parent.rect())
        self.show()
        self.raise_()
        self.setFocus()

    def close_card(self) -> None:
        self.over = None       # the next card (Demo > Model card) covers the window again
        if self.least_px:
            self.set_least_text(0.0)
        if self.isVisible():
            self.hide()
            self.closed.emit()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape:
            self.close_card()
            return
        super().keyPressEvent(event)


def _split(text: str) -> tuple:
    """'3.54 million learned numbers' -> ('3.54 million', ' ', 'learned numbers'): the figure
    goes big, the words small."""
    words = text.split(" ")
    for i, word in enumerate(words):
        if word in ("layers", "learned", "as", "arithmetic", "on", "per"):
            return " ".join(words[:i]) or text, " ", " ".join(words[i:])
    return text, " ", ""


def _clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item.widget() is not None:
            item.widget().deleteLater()
