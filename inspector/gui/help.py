"""The Help menu: a keyboard shortcut list read from the window's own menus (so it never goes
out of date), the keys the graph canvas understands, and a short getting-started page."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
)

CANVAS_KEYS = [
    ("Graph", "Arrow keys", "move the selection to the neighbouring node"),
    ("Graph", "Shift+Arrow keys", "pan"),
    ("Graph", "double-click a scope, or Enter", "open or close it (Enter: the selected one)"),
    ("Graph", "I / O", "mark the selected node as an input / output"),
    ("Graph", "+ / −, mouse wheel", "zoom"),
    ("Graph", "drag with the mouse", "pan"),
    ("Pipeline", "Delete, Backspace", "remove the selected step"),
    ("Anywhere", "drop a model file", "open it"),
]

GETTING_STARTED = """<h3>Getting started</h3>
<p><b>Open a model</b>: Ctrl+O, or drop a <tt>.pb</tt>, <tt>.pbtxt</tt>, <tt>.meta</tt>,
<tt>.tflite</tt>, Keras file, TF.js <tt>model.json</tt> or SavedModel folder on the window.
Then pick what you came for.</p>
<h4>Look inside</h4>
<ul>
<li>The <b>Summary</b> lists the likely inputs and outputs, with why; click one to go there.
Ctrl+F searches names, ops and attributes; a double-click opens a scope.</li>
<li>Click a node: <b>Properties</b> shows its attributes, shapes and values, and what the op
does in plain words. <b>Sizes</b> shows where the file's bytes go.</li>
<li><b>Demo &gt; Model card</b> (Ctrl+M) says what the model takes in and gives out, its
size and speed, in plain words.</li>
</ul>
<h4>Show it to others</h4>
<ul>
<li><b>Demo &gt; Run on a file</b> (Ctrl+R), or drop a photo, sound or <tt>.npy</tt> on the
window: the <b>Demo</b> panel shows what the model sees and its answer; the graph shows each
block's most active feature maps (click one for all of them).</li>
<li><b>Demo &gt; Auto-tour</b> builds a tour of the model from input to answer; edit its stops
in the <b>Tour</b> panel, <b>Present</b> with F5 (PgDown/PgUp or a clicker, B blanks, Esc
leaves), or export it as a web page or PDF.</li>
</ul>
<h4>Make it smaller and faster</h4>
<ul>
<li>Mark the inputs and outputs: click a node and press <b>I</b> or <b>O</b> (Ctrl+T traces an
output back to its inputs).</li>
<li>Drag transforms from the palette into the <b>Pipeline</b>; the <b>Preview</b> shows size,
FLOPs and latency after every step. "Check outputs in TensorFlow" runs both graphs on the
same input; Ctrl+S saves the optimized graph.</li>
<li><b>Overlays</b>: profile in TensorFlow or import <tt>benchmark_model</tt> timings to
colour the graph by where the time goes; calibrate or import ranges for eight-bit.</li>
</ul>
<h4>Put it on a phone</h4>
<ul>
<li><b>Phone &gt; Check TFLite compatibility</b> (Ctrl+Shift+T) colours every node by how
TensorFlow Lite takes it; "Confirm with the converter" asks the real converter.</li>
<li><b>Phone &gt; Convert four variants</b> compares float, float16, dynamic-range and int8
TFLite models (size, accuracy against TensorFlow, estimated speed); save the one you want,
or write <tt>ops_to_register.h</tt> for a selective TensorFlow build.</li>
</ul>
<h4>Compare two models</h4>
<ul>
<li><b>File &gt; Compare with…</b> puts the model beside another (its optimized copy, a
retrained model, its <tt>.tflite</tt>): nodes are matched even when renamed, folded or fused,
N / P step through the changes, and a click on one side selects its counterparts on the
other. <b>Run both on the same input</b> runs both on one input and finds the first layer
that drifts; <b>Save report…</b> writes one HTML page, <b>Save
comparison…</b> a file that <b>File &gt; Open comparison…</b> reopens.</li>
<li>In the <b>Preview</b> panel, <b>Compare…</b> shows the graph after the selected step beside
the original, <b>All stages</b> every step side by side.</li>
</ul>
<h4>Choose how to quantize</h4>
<ul>
<li>In the <b>Phone (TFLite)</b> panel's <b>Quantization</b> tab, tick recipes (float16,
dynamic, int8, int16x8, int4-blockwise) and <b>Run recipes</b>: each is built and measured in
LiteRT (size, speed, error of the answers and of every layer). <b>Layers, worst first</b> lists
the layers that lose most: <b>Keep this layer float</b> runs the recipe again without
quantizing it. Click a recipe in <b>Size vs error</b> to apply it; <b>Save applied
.tflite…</b> writes it.</li>
<li>Give real data in the <b>Conversion preview</b> tab (a folder of photos or
<tt>.npy</tt> files): figures from random data only say how noise behaves.</li>
</ul>
<h4>Check a chip</h4>
<ul>
<li><b>Phone &gt; Target report</b>, with a <tt>.tflite</tt> open or a model converted in the
Phone panel: pick CPU, GPU, an Ethos-U NPU (compiled by Vela) or an NPU pre-flight list and
<b>Run report</b>. It gives the share of operators on the accelerator, each one left out with
why and what to do, and colours the graph by where each operator runs.</li>
</ul>
<h4>Work with Model Explorer</h4>
<ul>
<li><b>File &gt; Export overlay as Model Explorer node data…</b> writes the overlay shown
(timings, ranges, TFLite, target) as a node-data file that Google's Model Explorer colours its
graph with; <b>File &gt; Import Model Explorer node data…</b> colours this graph from such a
file (Model Explorer's, ai-edge-quantizer's, a profiler's).</li>
<li><tt>graphdef-inspector diff A B --me-mapping OUT.json</tt> writes the mapping Model
Explorer's side-by-side view reads, so both sides stay in step there too.</li>
</ul>
<p>Most of this also runs from a terminal: <tt>graphdef-inspector --help</tt> lists the
commands. <b>Help&nbsp;&gt; Keyboard shortcuts</b> (Ctrl+/) lists every key.</p>"""


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
    text = QTextBrowser()          # scrolls on a small screen
    text.setHtml(GETTING_STARTED)
    text.setOpenLinks(False)
    room = parent.screen().availableGeometry() if parent is not None else None
    size = (700, 680) if room is None else (min(700, room.width() * 9 // 10),
                                            min(680, room.height() * 85 // 100))
    return _dialog(parent, "Getting started", text, size)
