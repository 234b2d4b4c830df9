"""Quantization (a tab of the Phone panel): choose recipes and layers kept float, run them
(in the worker), one table of size, latency and error per recipe, the size-versus-error
Pareto chart (click a point: apply that recipe), the chosen recipe's layers worst first with
"Keep this layer float", and the data-free weight sensitivity. Asks by signals; shows what
its controller hands it."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core.view.vocabulary import human_bytes, milliseconds
from inspector.gui.panels.adaptive import OneLine, WidthSplitter
from inspector.gui.panels.chart_slot import ChartSlot
from inspector.gui.panels.tables import name_measures, results_table

RECIPES = ("float", "dynamic", "float16", "int8", "int16x8", "int4-blockwise")
CHECKED = ("float", "dynamic", "float16", "int8")
COLUMNS = ("Recipe", "Float layers", "Size", "Est. ms", "Host ms", "MSE", "SNR dB",
           "Builtin SNR", "Cosine", "Max |err|", "Tool", "Note")
APPLIED = QColor("#d8ecff")
PARETO_LEAST = 100     # px: the chart keeps the Phone dock unscrolled at 1366x768


def _num(value, fmt: str) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "exact" if value == math.inf else "-"
    return format(value, fmt)


def _ms(value) -> str:
    """Milliseconds in plain digits (1,150 not 1.15e+03; 0.0045, not 0.00)."""
    if value is None:
        return "-"
    return milliseconds(value)[:-3] if value >= 0.01 else f"{value:.4f}"


def _log_error(error: float) -> float:
    """The chart's height of an error: log10 of the MSE (an exact answer sits at 1e-16)."""
    return math.log10(max(error, 1e-16))


def _decade_ticks(low: int, high: int) -> list:
    """Log-error ticks in two levels: a few labelled decades always, the others labelled
    when the chart is tall enough for them (pyqtgraph drops a level whose text overlaps)."""
    step = max(1, math.ceil((high - low) / 3))
    major = [(v, f"1e{v}") for v in range(low, high + 1, step)]
    minor = [(v, f"1e{v}") for v in range(low, high + 1) if (v - low) % step]
    return [major, minor]


def _empty(plot, text: str) -> None:
    plot.clear()
    plot.setTitle(text, size="9pt", color="#888888")


class QuantPanel(QWidget):
    run_requested = Signal(list, str)        # recipes, keep-float regex
    chosen = Signal(str, str)                # (recipe, keep_float) row picked in the table
    applied = Signal(str, str)               # a Pareto point clicked: apply that recipe
    keep_float_requested = Signal(str)       # a TFLite tensor's layer to keep float
    keep_selected_requested = Signal()       # the node selected on the canvas: keep it float
    sensitivity_requested = Signal()
    beside_requested = Signal()              # the chosen recipe's .tflite in a window beside
    save_requested = Signal()                # the applied recipe's .tflite to a file
    jump = Signal(str)                       # a GraphDef node

    def __init__(self, parent=None):
        super().__init__(parent)
        self.boxes = {}
        row = QHBoxLayout()              # recipes and the layers kept float: what to run
        for name in RECIPES:
            box = QCheckBox(name)
            box.setChecked(name in CHECKED)
            self.boxes[name] = box
            row.addWidget(box)
        self.keep = QLineEdit()
        self.keep.setPlaceholderText("keep float: regex over TFLite tensor names "
                                     "(hold the GraphDef node names), e.g. conv_1/")
        row.addWidget(self.keep, 1)
        self.run_button = QPushButton("Run recipes")
        self.run_button.setToolTip("Build each recipe (ai-edge-quantizer, TF's converter) and "
                                   "measure it with LiteRT, in the worker")
        self.run_button.clicked.connect(self._run)
        self.beside_button = QPushButton("Open beside")
        self.beside_button.setToolTip("The shown recipe's .tflite in a window of its own, "
                                      "coloured by the same per-layer error")
        self.beside_button.clicked.connect(self.beside_requested.emit)
        self.save_button = QPushButton("Save applied .tflite…")
        self.save_button.setToolTip("Write the recipe applied from the chart (click a point)")
        self.save_button.clicked.connect(self.save_requested.emit)
        self.summary = OneLine("Pick recipes and run them: the data comes from the "
                               "Conversion preview tab's representative data.")
        second = QHBoxLayout()           # the actions, then what the last run says
        second.addWidget(self.run_button)
        second.addWidget(self.beside_button)
        second.addWidget(self.save_button)
        second.addWidget(self.summary, 1)
        self.table = results_table(COLUMNS, QHeaderView.Interactive)
        name_measures(self.table)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.itemSelectionChanged.connect(self._row_chosen)
        self.pareto = ChartSlot(lambda plot: _empty(plot, "size vs error: run recipes"))
        self.pareto.setMinimumHeight(PARETO_LEAST)
        self.layers = QTreeWidget()
        self.layers.setHeaderLabels(["Layer (GraphDef node)", "TFLite op", "dtype", "SNR dB",
                                     "MSE", "Cosine", "Max |err|"])
        self.layers.setRootIsDecorated(False)
        self.layers.setTextElideMode(Qt.ElideLeft)
        self.layers.setColumnWidth(0, 260)
        self.layers.itemClicked.connect(self._layer_clicked)
        self.keep_button = QPushButton("Keep this layer float")
        self.keep_button.setEnabled(False)
        self.keep_button.clicked.connect(self._keep_clicked)
        self.keep_selected = QPushButton("Keep the selected node float")
        self.keep_selected.setToolTip("The TFLite layer the node selected on the graph was "
                                      "merged into stays float; the recipe runs again")
        self.keep_selected.clicked.connect(self.keep_selected_requested.emit)
        self.sens_button = QPushButton("Weight sensitivity (no data)")
        self.sens_button.clicked.connect(self.sensitivity_requested.emit)
        self.sensitivity = QTreeWidget()
        self.sensitivity.setHeaderLabels(["Layer", "Op", "Kurtosis", "Range/std",
                                          "Outliers >3σ", "Weights"])
        self.sensitivity.setRootIsDecorated(False)
        self.sensitivity.setTextElideMode(Qt.ElideLeft)
        self.sensitivity.setColumnWidth(0, 260)
        self.sensitivity.itemClicked.connect(lambda item, _c: self.jump.emit(item.text(0)))
        below = QTabWidget()
        layer_page = QWidget()
        lay = QVBoxLayout(layer_page)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.layers)
        buttons = QHBoxLayout()
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.keep_selected)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        sens_page = QWidget()
        lay = QVBoxLayout(sens_page)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.sens_button, 0, Qt.AlignLeft)
        lay.addWidget(self.sensitivity)
        below.addTab(layer_page, "Layers, worst first")
        below.addTab(self.pareto, "Size vs error")
        below.addTab(sens_page, "Sensitivity (data-free)")
        self.below = below
        split = WidthSplitter()          # side by side in the bottom dock: one row tall
        split.addWidget(self.table)
        split.addWidget(below)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([3000, 2000])     # the table's eleven columns get the larger share
        self.split = split
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(row)
        lay.addLayout(second)
        lay.addWidget(split, 1)
        self.keys: list = []          # (recipe, keep_float) per table row
        self._points = None

    # -- asking -------------------------------------------------------------------------------
    def recipes(self) -> list:
        return [n for n, box in self.boxes.items() if box.isChecked()]

    def _run(self) -> None:
        self.run_requested.emit(self.recipes(), self.keep.text().strip())

    def _row_chosen(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows and rows[0].row() < len(self.keys):
            self.chosen.emit(*self.keys[rows[0].row()])

    def _layer_clicked(self, item, _column=0) -> None:
        self.keep_button.setEnabled(True)
        node = item.text(0)
        if node:
            self.jump.emit(node)

    def _keep_clicked(self) -> None:
        item = self.layers.currentItem()
        if item is not None:
            self.keep_float_requested.emit(item.data(0, Qt.UserRole))

    # -- showing ------------------------------------------------------------------------------
    def reset(self) -> None:
        self.table.setRowCount(0)
        self.layers.clear()
        self.sensitivity.clear()
        self.keys = []
        self.pareto.reset()
        self.summary.setText("Pick recipes and run them.")

    def show_run(self, run) -> None:
        """The table, the chosen recipe's layers and the chart of a QuantRun."""
        if run is None:
            self.reset()
            return
        report = run.report
        results = [r for r in report.results]
        self.keys = [(r.recipe, r.keep_float) for r in results]
        self.table.blockSignals(True)
        self.table.setRowCount(len(results))
        for k, r in enumerate(results):
            o = r.output
            kept = (r.keep_float.count("|") + 1) if r.keep_float else 0
            cells = (r.recipe, str(kept) if kept else "", human_bytes(r.size) if r.size else "-",
                     _ms(r.latency_ms.get("phone")), _ms(r.host_ms),
                     _num(o.get("mse"), ".3g"), _num(o.get("snr_db"), ".1f"),
                     _num(r.output_builtin.get("snr_db"), ".1f") if r.output_builtin else "-",
                     _num(o.get("cosine"), ".4f"), _num(o.get("max_abs"), ".3g"), r.tool,
                     "; ".join(filter(None, [r.failed] + list(r.notes))) or
                     (r.errors[0].get("message", "") if r.errors else ""))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 1 and r.keep_float:
                    item.setToolTip(r.keep_float)
                elif c == len(cells) - 1 and text:
                    item.setToolTip(text)            # a failure's reason, notes: whole
                if (r.recipe, r.keep_float) == run.applied:
                    item.setBackground(QBrush(APPLIED))
                self.table.setItem(k, c, item)
        if run.chosen in self.keys:
            self.table.selectRow(self.keys.index(run.chosen))
        self.table.blockSignals(False)
        self.table.resizeColumnsToContents()
        applied = f"; applied: {run.applied[0]}" if run.applied[0] else ""
        self.summary.setText(f"{report.sample_source}. {report.engine or 'No interpreter'}: "
                             f"answers against the TF graph on XNNPACK, layers against the "
                             f"float .tflite on {report.tensor_samples} inputs on the builtin "
                             f"kernels (no XNNPACK){applied}.")
        self._show_layers(run)
        self._show_sensitivity(run.sensitivity)
        self._draw_pareto(run)

    def _show_layers(self, run) -> None:
        self.layers.clear()
        self.keep_button.setEnabled(False)
        row = run.row()
        if row is None:
            return
        for err in row.tensors[:500]:
            item = QTreeWidgetItem([err.nodes[0] if err.nodes else err.tensor, err.op,
                                    err.dtype, _num(err.snr_db, ".1f"), _num(err.mse, ".3g"),
                                    _num(err.cosine, ".4f"), _num(err.max_abs, ".3g")])
            item.setData(0, Qt.UserRole, err.tensor)
            item.setToolTip(0, err.tensor)
            self.layers.addTopLevelItem(item)

    def _show_sensitivity(self, found: list) -> None:
        if self.sensitivity.topLevelItemCount() == len(found or []):
            return
        self.sensitivity.clear()
        for s in found or []:
            self.sensitivity.addTopLevelItem(QTreeWidgetItem(
                [s.node, s.op, f"{s.kurtosis:.2f}", f"{s.range_ratio:.1f}",
                 f"{s.outlier_share:.2%}", f"{s.count:,}"]))

    def _draw_pareto(self, run) -> None:
        points, front = list(run.tried), {(p.recipe, p.keep_float) for p in run.pareto()}
        self._points = points

        def draw(plot, pg):
            plot.clear()
            if not points:
                return _empty(plot, "size vs error: run recipes")
            plot.setTitle(None)
            plot.setLabel("bottom", "size (KB)")
            plot.setLabel("left", "answer MSE")
            ys = [_log_error(p.error) for p in points]
            low, high = math.floor(min(ys)), math.ceil(max(ys))
            plot.getAxis("left").setTicks(_decade_ticks(low, high))
            plot.getViewBox().setDefaultPadding(0.12)    # room for the points' labels
            spots = []
            for k, p in enumerate(points):
                key = (p.recipe, p.keep_float)
                colour = "#1f6fd1" if key in front else "#9aa5b1"
                spots.append({"pos": (p.size / 1024.0, ys[k]),
                              "data": k, "size": 14 if key == run.applied else 10,
                              "brush": pg.mkBrush(colour),
                              "pen": pg.mkPen("#d62728" if key == run.applied else colour,
                                              width=2)})
            scatter = pg.ScatterPlotItem(spots=spots, hoverable=True)
            scatter.sigClicked.connect(lambda _item, found, _ev: self._point_clicked(found))
            plot.addItem(scatter)
            for k, p in enumerate(points):
                text = pg.TextItem(p.label, color="#333333", anchor=(0, k % 2))
                text.setPos(p.size / 1024.0, ys[k])
                plot.addItem(text)
            self.scatter = scatter
        self.pareto.draw(draw)

    def _point_clicked(self, spots) -> None:
        if len(spots) and self._points is not None:
            p = self._points[spots[0].data()]
            self.applied.emit(p.recipe, p.keep_float)
