"""The Help menu: a keyboard shortcut list read from the window's own menus (so it never goes
out of date), the keys the graph canvas understands, and a short getting-started page."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

CANVAS_KEYS = [
    ("Graph", "Arrow keys", "move the selection to the neighbouring node"),
    ("Graph", "Shift+Arrow keys", "pan"),
    ("Graph", "double-click a scope", "open or close it"),
    ("Graph", "I / O", "mark the selected node as an input / output"),
    ("Graph", "+ / −, mouse wheel", "zoom"),
    ("Graph", "drag with the mouse", "pan"),
    ("Pipeline", "Delete, Backspace", "remove the selected step"),
    ("Anywhere", "drop a model file", "open it"),
]

GETTING_STARTED = """<h3>Getting started</h3>
<ol>
<li><b>Open a model</b> (Ctrl+O, or drop a <tt>.pb</tt>, <tt>.pbtxt</tt>, <tt>.meta</tt>,
Keras file or SavedModel folder on the window).</li>
<li><b>Find the inputs and outputs</b>: the Summary lists the likely ones; click a node
and press <b>I</b> or <b>O</b> to mark it, Ctrl+T traces an output back to its inputs.</li>
<li><b>Build a pipeline</b>: drag transforms from the palette into the Pipeline; the
Preview shows size, FLOPs and latency after every step.</li>
<li><b>Check and save</b>: "Check outputs in TensorFlow" runs both graphs on the same
input; Ctrl+S saves the optimized graph.</li>
<li><b>Overlays</b>: import timings from <tt>benchmark_model</tt> or ranges from a
requantization log to colour the graph by where the time goes.</li>
</ol>"""


def menu_shortcuts(menu_bar) -> list:
    """(menu, shortcut text, action text) for every menu action that has a shortcut."""
    rows = []
    for top in menu_bar.actions():
        menu = top.menu()
        if menu is None:
            continue
        for action in menu.actions():
            keys = [k.toString(QKeySequence.NativeText) for k in action.shortcuts()
                    if not k.isEmpty()]
            if keys:
                rows.append((top.text().replace("&", ""), ", ".join(keys),
                             action.text().replace("&", "")))
    return rows


def _dialog(parent, title: str, body, size: tuple) -> QDialog:
    """A closable, self-deleting dialog around one widget."""
    dialog = QDialog(parent)
    dialog.setWindowTitle(title)
    buttons = QDialogButtonBox(QDialogButtonBox.Close)
    buttons.rejected.connect(dialog.reject)
    lay = QVBoxLayout(dialog)
    lay.addWidget(body)
    lay.addWidget(buttons)
    dialog.resize(*size)
    dialog.setAttribute(Qt.WA_DeleteOnClose)
    return dialog


def shortcuts_dialog(parent, menu_bar) -> QDialog:
    rows = menu_shortcuts(menu_bar) + CANVAS_KEYS
    table = QTableWidget(len(rows), 3)
    table.setHorizontalHeaderLabels(["Where", "Keys", "What it does"])
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.NoEditTriggers)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))
    table.resizeColumnsToContents()
    table.horizontalHeader().setSectionResizeMode(2, QHeaderView.Stretch)
    return _dialog(parent, "Keyboard shortcuts", table, (620, 520))


def getting_started_dialog(parent) -> QDialog:
    text = QLabel(GETTING_STARTED)
    text.setWordWrap(True)
    text.setTextFormat(Qt.RichText)
    return _dialog(parent, "Getting started", text, (520, 360))
