"""Phone (TFLite): will the graph convert (status of every node, a list that jumps to the
nodes that block it, the converter's own verdict), what four conversion variants do to size,
speed and answers, and ops_to_register.h for a selective TensorFlow build. Asks by signals;
shows what its controller hands it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core.view.vocabulary import STATUS_COLOURS as COLOURS
from inspector.core.view.vocabulary import human_bytes, latency, milliseconds
from inspector.gui.panels.adaptive import Tabs
from inspector.gui.panels.mobile_compat import PORTS_HINT, CompatTab
from inspector.gui.panels.tables import name_measures, results_table
from inspector.gui.wording import said

COLUMNS = ("Variant", "Tool", "Size", "gzip", "Top-1", "Max |err|", "MSE", "Latency", "I/O",
           "Ops", "Select TF ops", "GPU notes")
SOURCES = ("random", "folder", "npy")
SIZES_TIP = ("The size to convert and compare an input at when the model leaves it open "
             "([1,?,?,3]: 1 for each open size until given), as tflite --input-shape: "
             "NAME=1,224,224,3, several separated by spaces. Enter converts with it.")


def _port(p: dict) -> str:
    text = f"{p['dtype']} {p['shape']}"
    return text + (f"  s={p['scale']:.4g} zp={p['zero_point']}" if p.get("scale") else "")


def _moot(row) -> str:
    """The note that says a row's top-1 agreement means nothing (a constant output), or ""."""
    return next((n for n in getattr(row, "notes", ()) if n.startswith("top-1 is meaningless")),
                "")


def _gpu(lines: list) -> str:
    if not lines:
        return "not checked"
    if len(lines) == 1 and "looks compatible" in lines[0]:
        return "compatible"
    return f"{len(lines)} warning(s)"


class MobilePanel(CompatTab, QWidget):
    jump = Signal(str)
    check_requested = Signal()
    confirm_requested = Signal()
    convert_requested = Signal()
    save_requested = Signal(str)         # variant
    measured_requested = Signal(str)     # variant: read a benchmark_model log for it
    open_requested = Signal(str)         # variant: show it in a window of its own
    compare_requested = Signal(str)      # variant: compare it with the GraphDef
    header_requested = Signal()
    source_wanted = Signal(str)          # "folder" or "npy": the controller asks for paths
    sizes_given = Signal(str)            # the Input sizes field: "NAME=D,D,..." items

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tabs = Tabs()
        self.tabs.addTab(self._compat_tab(), "Compatibility")
        self.tabs.addTab(self._convert_tab(), "Conversion preview")
        self.tabs.addTab(self._header_tab(), "Selective build")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.tabs)
        self.source_paths: list = []

    # -- building ---------------------------------------------------------------------------
    def _convert_tab(self) -> QWidget:
        w = QWidget()
        self.source = QComboBox()
        self.source.addItems(["random inputs (seed 0): only to try it",
                              "a folder of photos…", ".npy files…"])
        self.source.activated.connect(self._source_chosen)
        self.samples = QSpinBox()
        self.samples.setRange(1, 5000)
        self.samples.setValue(100)
        self.samples.setToolTip("representative samples for int8 calibration")
        self.compare = QSpinBox()
        self.compare.setRange(1, 500)
        self.compare.setValue(16)
        self.compare.setToolTip("inputs the TFLite answers are compared with TensorFlow's on")
        self.convert_button = QPushButton("Convert four variants")
        self.save_button = QPushButton("Save as .tflite…")
        self.save_button.setEnabled(False)
        self.measured_button = QPushButton("Measured on a phone…")
        self.measured_button.setToolTip("Read TFLite benchmark_model output for the selected "
                                        "variant: its average inference time replaces the "
                                        "estimate")
        self.measured_button.setEnabled(False)
        self.open_button = QPushButton("Open in a new window")
        self.open_button.setToolTip("Show the selected variant's TFLite graph beside this one")
        self.open_button.setEnabled(False)
        self.diff_button = QPushButton("Compare with the GraphDef")
        self.diff_button.setToolTip("the selected variant's TFLite ops matched to the nodes "
                                    "they came from, side by side")
        self.diff_button.setEnabled(False)
        self.sizes = QLineEdit()       # an any-size input's size, as tflite --input-shape
        self.sizes.setFixedWidth(190)
        self.sizes.setToolTip(SIZES_TIP)
        self.sizes.returnPressed.connect(self._sizes_entered)
        row = QHBoxLayout()
        for label, widget in (("Data", self.source), ("samples", self.samples),
                              ("compare on", self.compare), ("input sizes", self.sizes)):
            row.addWidget(QLabel(label))
            row.addWidget(widget)
        row.addWidget(self.convert_button)
        self.about = QLabel("")       # how the figures are made: one line, all in its tooltip
        row.addWidget(self.about)
        row.addStretch(1)
        actions = QHBoxLayout()
        actions.addWidget(QLabel("Selected variant:"))
        for button in (self.save_button, self.open_button, self.diff_button,
                       self.measured_button):
            actions.addWidget(button)
        actions.addStretch(1)
        self.warning = QLabel("")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("QLabel { background: #fde2c8; color: #7a2e00; "
                                   "font-weight: bold; padding: 4px; }")
        self.warning.hide()
        self.table = results_table(COLUMNS)
        name_measures(self.table)
        self.table.itemSelectionChanged.connect(self._row_chosen)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setMaximumHeight(90)
        self.mapping = QTreeWidget()
        self.mapping.setHeaderLabels(["#", "TFLite op", "GraphDef nodes (merged into it)",
                                      "Max |error| int8", "MSE", "Weight scales"])
        self.mapping.setRootIsDecorated(False)
        self.mapping.setTextElideMode(Qt.ElideLeft)     # a long name shows its end
        self.mapping.setAlternatingRowColors(True)
        for col, width in enumerate((40, 130, 420, 110, 90)):
            self.mapping.setColumnWidth(col, width)
        self.mapping.itemClicked.connect(self._mapping_clicked)
        self.mapping.itemActivated.connect(self._mapping_clicked)
        self.table.setMinimumHeight(110)
        beside = QTabWidget()
        beside.addTab(self.details, "Variant")
        beside.addTab(self.mapping, "TFLite ops → graph nodes")
        self.details.setMaximumHeight(16777215)
        self.beside = beside
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.table)
        split.addWidget(beside)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(w)
        lay.setContentsMargins(4, 4, 4, 4)      # a short dock: no scroll bar at 1366x768,
        lay.setSpacing(4)                       # the four variants in view with a warning
        lay.addLayout(row)
        lay.addWidget(self.warning)
        lay.addLayout(actions)      # above the table: in reach in a short dock
        lay.addWidget(split, 1)
        self.convert_button.clicked.connect(self.convert_requested.emit)
        self.save_button.clicked.connect(lambda: self.save_requested.emit(self.chosen()))
        self.open_button.clicked.connect(lambda: self.open_requested.emit(self.chosen()))
        self.diff_button.clicked.connect(lambda: self.compare_requested.emit(self.chosen()))
        self.measured_button.clicked.connect(
            lambda: self.measured_requested.emit(self.chosen()))
        self.rows: list = []
        return w

    def _header_tab(self) -> QWidget:
        w = QWidget()
        note = QLabel("ops_to_register.h lists only the ops and kernel classes this graph "
                      "uses, so a TensorFlow build with SELECTIVE_REGISTRATION leaves the rest "
                      "out. Kernel class names come from the kernel registry of the "
                      "TensorFlow installed here: build with the same version's sources.")
        note.setWordWrap(True)
        self.header_button = QPushButton("Write ops_to_register.h…")
        self.header_info = QLabel("")
        self.header_info.setWordWrap(True)
        self.header_text = QPlainTextEdit()
        self.header_text.setReadOnly(True)
        lay = QVBoxLayout(w)
        lay.setContentsMargins(4, 4, 4, 4)      # a short dock: no scroll bar at 1366x768
        row = QHBoxLayout()
        row.addWidget(self.header_button)
        row.addStretch(1)
        lay.addWidget(note)
        lay.addLayout(row)
        lay.addWidget(self.header_info)
        lay.addWidget(self.header_text)
        self.header_button.clicked.connect(self.header_requested.emit)
        return w

    def _source_chosen(self, index: int) -> None:
        if SOURCES[index] != "random":
            self.source_wanted.emit(SOURCES[index])

    # -- what the controller reads ---------------------------------------------------------
    def source_spec(self) -> dict:
        kind = SOURCES[self.source.currentIndex()]
        if kind == "folder" and self.source_paths:
            return {"kind": "folder", "path": self.source_paths[0],
                    "limit": self.samples.value()}
        if kind == "npy" and self.source_paths:
            return {"kind": "npy", "paths": list(self.source_paths)}
        return {"kind": "random", "count": self.samples.value(), "seed": 0}

    def chosen(self) -> str:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() \
            else []
        return self.rows[rows[0].row()].variant if rows else ""

    # -- what the controller shows ---------------------------------------------------------
    def reset(self) -> None:
        """Another model opened: no check, conversion or header of the previous one stays
        (the chosen representative data and counts are settings: they stay)."""
        self.ports.setText(PORTS_HINT)
        for label in (self.legend, self.verdict, self.mobile_kernels, self.about,
                      self.warning, self.header_info):
            label.setText("")
        self.about.setToolTip("")
        self.warning.hide()
        self.problems.clear()
        self._listed = []
        self.confirm_button.setEnabled(False)
        self.rows = []
        self.table.setRowCount(0)
        self.details.setPlainText("")
        self.mapping.clear()
        self.header_text.setPlainText("")
        for button in (self.save_button, self.measured_button, self.open_button,
                       self.diff_button):
            button.setEnabled(False)

    def _sizes_entered(self) -> None:
        self.sizes.setModified(False)      # given: what the model keeps shows here (undo)
        self.sizes_given.emit(self.sizes.text())

    def show_sizes(self, given: dict, open_inputs: dict) -> None:
        """The sizes given (the field's text) and, as its hint, the inputs that leave sizes
        open ("image=1,?,?,3": converted at 1 for each until given)."""
        if not (self.sizes.hasFocus() and self.sizes.isModified()):   # not while typed in
            self.sizes.setText(" ".join(f"{n}={','.join(map(str, d))}"
                                        for n, d in given.items()))
        self.sizes.setPlaceholderText(" ".join(f"{n}={shape[1:-1]}" for n, shape in
                                               open_inputs.items()) or "NAME=1,224,224,3")

    def set_source(self, kind: str, paths: list) -> None:
        self.source_paths = list(paths)
        if not paths:
            self.source.setCurrentIndex(0)
            return
        self.source.setItemText(SOURCES.index(kind), (
            f"photos in {paths[0]}" if kind == "folder" else f"{len(paths)} .npy file(s)"))

    def show_preview(self, result) -> None:
        self.rows = list(result.variants)
        warnings = [said(w) for w in result.warnings]    # hints in the window's words
        self.warning.setText("; ".join(warnings))    # wrapped only when it must be
        self.warning.setVisible(bool(warnings))
        kernels = getattr(result, "kernels", {}).get("answers", "")
        engine = f"{result.engine or 'no interpreter'}{' on ' + kernels if kernels else ''}"
        # a few words beside the button (the dock is short: at 1366x768 this note's four
        # lines above the table pushed three of the four variants out of view)
        self.about.setText("How these figures are made (hover)")
        self.about.setToolTip(f"Representative data: {result.sample_source}. Each variant is "
                           f"made by TF's converter (the Tool column; the Quantization tab's "
                           f"recipes by ai-edge-quantizer), its answers compared with the "
                           f"TF graph's by {engine}: top-1, max |err| and MSE "
                           f"are the same measures as in the Quantization tab. Latency: FLOPs "
                           f"÷ a typical phone's speed, divided by the speed-up TF's "
                           f"quantization guide states (an estimate). The int8 per-layer "
                           f"error comes from TensorFlow's QuantizationDebugger, which runs "
                           f"TF's own interpreter (LiteRT has no debugger); the Quantization "
                           f"tab measures every tensor with LiteRT.")
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            if row.errors:
                cells = [row.variant, row.tool, "failed", "", "", "", "", "", "", "", "",
                         row.errors[0]["message"]]
            else:
                ms = row.latency_ms.get("phone")
                io = f"{row.inputs[0]['dtype'] if row.inputs else '?'} → " \
                     f"{row.outputs[0]['dtype'] if row.outputs else '?'}"
                mse = row.output.get("mse")
                cells = [row.variant, row.tool, human_bytes(row.size),
                         human_bytes(row.gzip_size),
                         ("⚠ " if _moot(row) else "") + f"{row.top1:.0%} of {row.compared}"
                         if row.top1 is not None else "not run", f"{row.max_abs_error:.3g}"
                         if row.max_abs_error is not None else "-",
                         f"{mse:.3g}" if mse is not None else "-",
                         f"{milliseconds(row.measured_ms)} measured" if row.measured_ms
                         else f"{latency(ms)} est." if ms else "?", io, str(row.op_count),
                         ", ".join(row.flex_ops) or "none",
                         _gpu(row.gpu_warnings)]
            for c, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if c == 0 and row.errors:
                    cell.setBackground(QBrush(QColor(COLOURS["custom"])))
                if c == 4 and _moot(row):       # 100% that says nothing: why, on the cell
                    cell.setToolTip(_moot(row))
                self.table.setItem(r, c, cell)
        self.save_button.setEnabled(False)
        if self.rows:
            self.table.selectRow(0)

    def _row_chosen(self) -> None:
        name = self.chosen()
        row = next((r for r in self.rows if r.variant == name), None)
        self.save_button.setEnabled(row is not None and row.model is not None)
        self.measured_button.setEnabled(row is not None and row.model is not None)
        self.open_button.setEnabled(row is not None and row.model is not None)
        self.diff_button.setEnabled(row is not None and row.model is not None)
        self._show_mapping(row)
        if row is None:
            return
        if row.errors:
            lines = [f"{e.get('code') or 'error'}: {e['message']}"
                     + (f" (nodes: {', '.join(e['nodes'])})" if e.get("nodes") else "")
                     for e in row.errors]
        else:
            lines = [f"{side} {p['name']}: {_port(p)}" for side, ports in
                     (("in ", row.inputs), ("out", row.outputs)) for p in ports]
            lines += [f"ops: {', '.join(f'{k} x{v}' for k, v in sorted(row.ops.items()))}"]
            lines += [f"GPU: {w}" for w in row.gpu_warnings]
            if row.measured_ms:
                lines.append(f"measured: {milliseconds(row.measured_ms)} ({row.measured_source})")
            lines += [f"speed on {k}: {latency(v)} (estimate)"
                      for k, v in row.latency_ms.items()]
            lines += [row.note] if row.note else []
        self.details.setPlainText("\n".join(lines))

    def _mapping_clicked(self, item, _column=0) -> None:
        nodes = item.data(2, Qt.UserRole) or []
        if nodes:
            self.jump.emit(nodes[0])

    def _show_mapping(self, row) -> None:
        self.mapping.clear()
        m = row.mapping if row is not None else None
        if m is None:
            return
        items = []
        for op in m.worst_first() + m.unmapped_ops:
            scales = (f"{op.weight_scales[0]} channels, {op.weight_scales[1]:.3g} to "
                      f"{op.weight_scales[2]:.3g}") if op.weight_scales else ""
            nodes = ", ".join(op.nodes) if op in m.ops else "(added by the converter)"
            item = QTreeWidgetItem([str(op.index), op.op, nodes,
                                    f"{op.max_abs_error:.3g}" if op.max_abs_error is not None
                                    else "", f"{op.mean_squared_error:.3g}"
                                    if op.mean_squared_error is not None else "", scales])
            item.setData(2, Qt.UserRole, list(op.nodes) if op in m.ops else [])
            item.setToolTip(2, op.tensor)
            items.append(item)
        self.mapping.addTopLevelItems(items)

    def show_header(self, text: str, path: str, ops: list, kernels: list, missing: list):
        self.header_text.setPlainText(text)
        info = f"Wrote {path}: {len(ops)} ops, {len(kernels)} kernel classes."
        if missing:
            info += f" No CPU kernel in this TensorFlow for: {', '.join(missing)}."
        self.header_info.setText(info)
