"""The Properties panel's Property column: node names cut at their start ("…dense_1/BiasAdd"
names the node, "model/dense_1…" did not), and a scope's border tensors shown whole, in
lines broken after their scopes' "/"."""

from __future__ import annotations

from PySide6 import QtWidgets
from PySide6.QtCore import Qt

WRAPPED_MOST = 512     # characters: a longer name is cut at its start as the others are

_START_ELIDED: list = []


def whole_role() -> int:      # "show this name whole, in lines" (a scope's border tensors)
    return int(Qt.UserRole) + 1


def in_lines(text: str, fm, width: int) -> str:
    """`text` in lines of `width` pixels at most, broken after a scope's "/" (a line
    separator between them; a part longer than a line is cut by the view, in its middle)."""
    lines, line = [], ""
    for part in text.replace("/", "/\0").split("\0"):
        if line and fm.horizontalAdvance(line + part) > width:
            lines.append(line)
            line = ""
        line += part
    return "\u2028".join(lines + [line])


def start_elided(parent):
    """A delegate cutting the Property column's names at their start (an input of musicnn's
    Sigmoid, 1366x768 walk). A scope's border tensors are shown whole, in lines: cut at
    either end or in the middle, 30 names read "^State…ableOp" alike in the narrow dock. A
    name past WRAPPED_MOST characters is cut at its start: a hostile file's 60k characters
    of 20k scopes were measured part by part at each paint (~1 s of the GUI thread) into a
    row of thousands of lines. Its class is made at first use, after the first picture:
    reading QStyledItemDelegate makes PySide build QAbstractItemDelegate and its enums
    (test_gui_first_picture_classes)."""
    if not _START_ELIDED:
        class StartElided(QtWidgets.QStyledItemDelegate):    # read here, not at the top
            def initStyleOption(self, option, index) -> None:
                super().initStyleOption(option, index)
                option.textElideMode = Qt.ElideLeft
                if index.data(whole_role()) and len(option.text) <= WRAPPED_MOST:
                    tree, depth = self.parent(), 1 + index.parent().isValid()
                    option.text = in_lines(option.text, option.fontMetrics,
                                           tree.columnWidth(0) - tree.indentation() * depth - 8)
                    option.textElideMode = Qt.ElideMiddle     # a part longer than a line
        _START_ELIDED.append(StartElided)
    return _START_ELIDED[0](parent)
