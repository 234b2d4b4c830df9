"""The Phone panel's Compatibility tab: will the graph convert (a status chip per kind, the
nodes to look at, worst first, that jump to the graph, the converter's own verdict placed on
them, the ops without a kernel in a mobile TensorFlow build). A mixin of MobilePanel, which
owns the signals (jump, check_requested, confirm_requested)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core.app.tflite_check import converter_verdict
from inspector.core.view.vocabulary import STATUS_COLOURS as COLOURS
from inspector.core.view.vocabulary import STATUS_LABELS as LABELS
from inspector.core.view.vocabulary import STATUSES
from inspector.gui.panels.adaptive import Wrapped

LIST_LIMIT = 2000      # rows in the list of nodes to look at


def _chip(status: str, count: int) -> str:
    return (f'<span style="background:{COLOURS[status]};">&nbsp;&nbsp;&nbsp;&nbsp;</span>'
            f'&nbsp;{LABELS[status]}: <b>{count:,}</b>')


def _verdict(message: str) -> str:
    """A converter message in a few words (the whole message is the tooltip)."""
    if message.startswith("ERROR_NEEDS_FLEX_OPS"):
        return "needs Select TF ops"
    if message.startswith("ERROR_NEEDS_CUSTOM_OPS"):
        return "needs a custom op"
    return message.split(": ", 1)[-1]


PORTS_HINT = "Mark the inputs and outputs, or the likely ones are used."
NODE, WHY, CONVERTER = 1, 3, 4     # the list's columns
CONVERTER_WIDTH = 170              # "needs Select TF ops", "converts": the Why column stretches
NODE_WIDTH = 220                   # at least; wider for long names (CompatTab._fit_names)
WHY_LEAST = 360                    # what the Why column keeps when names are long


class _EndsElided(QStyledItemDelegate):
    """Text cut at its end ("only with Select TF ops (the TF…"): the list cuts a node's name
    at its start (its end names it), and a sentence cut so read "…ith Select TF ops (the
    TF kernel runs on the phone)" (the whole text is each cell's tooltip)."""

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.ElideRight


class CompatTab:
    def _compat_tab(self) -> QWidget:
        w = QWidget()
        self.ports = QLabel(PORTS_HINT)
        self.ports.setWordWrap(True)
        self.check_button = QPushButton("Check compatibility")
        self.check_button.setToolTip("Status of every node from TFLite's op tables (no "
                                     "TensorFlow needed); colours the graph")
        self.confirm_button = QPushButton("Confirm with the converter")
        self.confirm_button.setToolTip("Convert with TFLite builtins only, then with Select "
                                       "TF ops, and place every error on its node")
        self.confirm_button.setEnabled(False)
        row = QHBoxLayout()
        row.addWidget(self.check_button)
        row.addWidget(self.confirm_button)
        row.addWidget(self.ports, 1)       # beside the buttons: one row less in a short dock
        self.legend = Wrapped("")
        self.legend.setTextFormat(Qt.RichText)
        self.verdict = Wrapped("")          # the converter's: no line until it says something
        self.problems = QTreeWidget()
        self.problems.setHeaderLabels(["Status", "Node", "Op", "Why", "Converter"])
        self.problems.setRootIsDecorated(False)
        self.problems.setTextElideMode(Qt.ElideLeft)    # a long name shows its end
        self._ends_elided = _EndsElided(self.problems)   # the other columns: their start
        for column in (0, 2, WHY, CONVERTER):
            self.problems.setItemDelegateForColumn(column, self._ends_elided)
        self.problems.setAlternatingRowColors(True)
        header = self.problems.header()
        header.setSectionResizeMode(QHeaderView.Interactive)
        header.setSectionResizeMode(WHY, QHeaderView.Stretch)   # the sentence takes the room
        header.setStretchLastSection(False)
        status = max(self.problems.fontMetrics().horizontalAdvance(LABELS[s]) for s in STATUSES)
        self.problems.setColumnWidth(0, status + 16)     # "not convertible (custom op)"
        self.problems.setColumnWidth(NODE, NODE_WIDTH)
        self.problems.setColumnWidth(2, 130)
        self.problems.setColumnWidth(CONVERTER, CONVERTER_WIDTH)
        self.problems.viewport().installEventFilter(self)     # its width: _fit_names
        self.problems.itemClicked.connect(lambda item, _c: self.jump.emit(item.text(1)))
        self.problems.itemActivated.connect(lambda item, _c: self.jump.emit(item.text(1)))
        self.mobile_kernels = Wrapped("")
        self.problems.setMinimumHeight(90)
        lay = QVBoxLayout(w)
        lay.setContentsMargins(4, 4, 4, 4)      # a short dock: no scroll bar at 1366x768
        for part in (row, self.legend, self.verdict, self.problems, self.mobile_kernels):
            lay.addLayout(part) if isinstance(part, QHBoxLayout) else lay.addWidget(part)
        self.check_button.clicked.connect(self.check_requested.emit)
        self.confirm_button.clicked.connect(self.confirm_requested.emit)
        return w

    def show_ports(self, ins: list, outs: list, likely: tuple = (False, False),
                   unchecked: bool = False) -> None:
        """The ports the check used, or will use: `likely` (inputs, outputs) marks a side
        left to the likely ones; `unchecked`: the marks changed since the check shown."""
        sides = [f"{side}: <b>{escape(', '.join(names) or '?')}</b>" +
                 (" (likely)" if guessed else "")
                 for side, names, guessed in (("Inputs", ins, likely[0]),
                                              ("Outputs", outs, likely[1]))]
        self.ports.setText(" &nbsp; ".join(sides) + (
            " &nbsp; <i>(the marks changed since the check: check again)</i>" if unchecked else ""))

    def show_marks(self, marked: tuple, used: tuple, checked: tuple | None) -> None:
        """What the next check uses, from the marks (`marked`: inputs, outputs) and the
        ports taken (`used`); `checked`: the ports of the check shown (None before one).
        The hint to mark them shows only while nothing is marked and nothing is checked
        (walk16: it showed over a model's marks)."""
        ins, outs = used
        if checked is not None and (list(checked[0]), list(checked[1])) == (ins, outs):
            self.show_ports(ins, outs)
        elif not any(marked) and checked is None:
            self.ports.setText(PORTS_HINT)
        else:
            self.show_ports(ins, outs, (not marked[0], not marked[1]), checked is not None)

    def show_compat(self, compat, ins: list, outs: list) -> None:
        self.show_ports(ins, outs)
        counts = compat.counts()
        self.legend.setText(" &nbsp; ".join(_chip(s, counts.get(s, 0)) for s in STATUSES))
        self.verdict.setText("")
        self.problems.clear()
        items = []
        problems = compat.problems()
        for name, c in problems[:LIST_LIMIT]:
            why = c.reason.split(": ", 1)[-1]
            item = QTreeWidgetItem([LABELS[c.status], name, c.op, why, ""])
            item.setBackground(0, QBrush(QColor(COLOURS[c.status])))
            for column, text in ((0, LABELS[c.status]), (NODE, name), (WHY, c.reason)):
                item.setToolTip(column, text)     # all of it, however narrow the column
            items.append(item)
        if len(problems) > LIST_LIMIT:      # a long list helps nobody; the canvas has all
            items.append(QTreeWidgetItem(["", f"... and {len(problems) - LIST_LIMIT:,} more "
                                          "(coloured on the graph)", "", "", ""]))
        self.problems.addTopLevelItems(items)
        self._listed = problems[:200]      # (sized again when the list's width changes)
        self._fit_names()
        missing = compat.missing_mobile_kernels()
        if missing:
            ops = list(dict.fromkeys(f"{op} ({why})" for _, op, why in missing))
            self.mobile_kernels.setText(
                "No kernel in the default mobile TensorFlow build (\"No OpKernel was "
                "registered\"); strip training-only nodes first: " + "; ".join(ops[:12])
                + (f" and {len(ops) - 12} more" if len(ops) > 12 else ""))
        else:
            self.mobile_kernels.setText("Every op has a kernel in a mobile TensorFlow build.")
        self.confirm_button.setEnabled(True)

    def _fit_names(self) -> None:
        """The Node column as wide as the longest name shown, taken from the Why column's
        room left beyond its longest sentence (and the Status column's beyond the statuses
        listed, the Op column as wide as its ops): 220 px cut a real model's names ("…ionedCall/map/Const_switch/_426")
        beside a half-empty Why column (1366x768)."""
        problems = getattr(self, "_listed", [])
        if not problems:
            return
        fm, view = self.problems.fontMetrics(), self.problems.viewport().width()
        names = max((fm.horizontalAdvance(name) for name, _ in problems), default=0) + 16
        why = max((fm.horizontalAdvance(c.reason.split(": ", 1)[-1]) for _, c in problems),
                  default=0) + 16
        self.problems.setColumnWidth(0, max(fm.horizontalAdvance(LABELS[c.status])
                                            for _, c in problems) + 16)   # those listed
        self.problems.setColumnWidth(2, min(max(fm.horizontalAdvance(c.op)
                                                for _, c in problems) + 16, 220))
        fixed = sum(self.problems.columnWidth(k) for k in (0, 2, CONVERTER))
        room = view - fixed - min(why, WHY_LEAST)
        self.problems.setColumnWidth(NODE, max(NODE_WIDTH, min(names, room)))

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Resize and obj is self.problems.viewport():
            self._fit_names()
        return False

    def show_confirmed(self, confirmed: dict) -> None:
        notes, failed = confirmed["nodes"], confirmed.get("failed")
        for k in range(self.problems.topLevelItemCount()):
            item = self.problems.topLevelItem(k)
            messages = notes.get(item.text(1))
            item.setText(4, _verdict(messages[0]) if messages else
                         "not known" if failed else "converts")
            item.setToolTip(4, "\n".join(messages or []) or
                            ("the converter failed before it said anything of this node"
                             if failed else ""))
        text = converter_verdict(confirmed)
        if confirmed["unplaced"] and not failed:
            text += " Not located: " + "; ".join(e.get("message", "") for e in
                                                   confirmed["unplaced"][:3])
        self.verdict.setText(text)
