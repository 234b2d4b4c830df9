"""Overlays: per-node timings (profiled in TensorFlow or imported) and logged requantization
ranges (calibrated in one click or imported), drawn on the graph with charts and warnings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.core.app.decorations import overlay_choices
from inspector.gui.panels.adaptive import Fold, NamesWrapped, Tabs
from inspector.gui.panels.chart_slot import ChartSlot
from inspector.gui.panels.timing_table import TimingTable
from inspector.gui.panels.overlay_charts import (
    BAR_CHART_HEIGHT,
    BAR_ROWS,
    bar_chart,
    empty_chart,
    ranges_chart,
    runs_chart,
    unique_labels,
)


@dataclass(frozen=True)
class ProfileSettings:
    warmup: int
    runs: int
    intra: int
    inter: int
    feed: str            # "random", "zeros" or "npy"
    npy_items: tuple     # NAME=FILE.npy


@dataclass(frozen=True)
class CalibrationSettings:
    samples: int
    mean: float
    std: float
    min_percentile: float
    max_percentile: float


class OverlaysPanel(QWidget):
    """Timings and ranges: asks by signals, shows what the controller hands it."""

    jump = Signal(str)
    mode_changed = Signal(str)
    profile_requested = Signal()
    import_timings_requested = Signal()
    profile_chosen = Signal(int)
    calibrate_requested = Signal(object)      # None: random inputs; else a folder path
    import_ranges_requested = Signal()
    freeze_requested = Signal()
    copy_tables_requested = Signal()
    export_tables_requested = Signal()
    percentiles_changed = Signal(float, float)

    def __init__(self, modes=None, parent=None):
        """`modes`: (mode, label) of the overlays shown (default: every overlay of the
        registry)."""
        super().__init__(parent)
        modes = overlay_choices() if modes is None else modes
        self.mode_group = QButtonGroup(self)
        row = QGridLayout()          # two to a row: the panel fits a side column
        self.mode_buttons = {}
        for i, (mode, label) in enumerate(modes):
            button = QRadioButton(label)
            self.mode_group.addButton(button)
            self.mode_buttons[mode] = button
            row.addWidget(button, i // 2, i % 2)
            button.toggled.connect(lambda on, m=mode: on and self.mode_changed.emit(m))
        self.mode_buttons["none"].setChecked(True)
        self.tabs = Tabs()
        self.tabs.addTab(self._timings_tab(), "Timings")
        self.tabs.addTab(self._ranges_tab(), "Ranges")
        self.legend = QLabel("")
        self.legend.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(row)
        lay.addWidget(self.legend)
        lay.addWidget(self.tabs)
        self.profile_button.clicked.connect(self.profile_requested.emit)
        self.import_timings.clicked.connect(self.import_timings_requested.emit)
        self.profile_choice.currentIndexChanged.connect(self.profile_chosen.emit)
        self.calibrate_random.clicked.connect(lambda: self.calibrate_requested.emit(None))
        self.calibrate_folder.clicked.connect(self._ask_calibration_folder)
        self.import_ranges.clicked.connect(self.import_ranges_requested.emit)
        self.freeze_button.clicked.connect(self.freeze_requested.emit)
        self.copy_tables.clicked.connect(self.copy_tables_requested.emit)
        self.export_tables.clicked.connect(self.export_tables_requested.emit)
        for box in (self.min_pct, self.max_pct):
            box.valueChanged.connect(lambda *_: self.percentiles_changed.emit(
                self.min_pct.value(), self.max_pct.value()))

    # -- what the controller reads --------------------------------------------------------
    def profile_settings(self) -> ProfileSettings:
        feed = ("random", "zeros", "npy")[self.feed_mode.currentIndex()]
        items = tuple(i.strip() for i in self.npy.text().split(",") if i.strip()) \
            if feed == "npy" else ()
        return ProfileSettings(self.warmup.value(), self.runs.value(), self.intra.value(),
                               self.inter.value(), feed, items)

    def calibration_settings(self) -> CalibrationSettings:
        return CalibrationSettings(self.samples.value(), self.mean.value(), self.std.value(),
                                   self.min_pct.value(), self.max_pct.value())

    # -- what the controller shows ----------------------------------------------------------
    def show_mode(self, mode: str, legend: str) -> None:
        button = self.mode_buttons[mode]
        if not button.isChecked():
            button.setChecked(True)
        if mode in ("timings", "ranges"):
            self.tabs.setCurrentIndex(0 if mode == "timings" else 1)
        self.legend.setText(legend)

    def allow_compat(self, on: bool) -> None:
        """The TFLite compatibility overlay is for TensorFlow graphs, not for a .tflite."""
        button = self.mode_buttons.get("compat")
        if button is None:
            return
        button.setEnabled(on)
        button.setToolTip("" if on else "this is already a TensorFlow Lite model: open the "
                          "TensorFlow model it came from to check it")

    def show_profiles(self, labels: list, current: int) -> None:
        self.profile_choice.blockSignals(True)
        self.profile_choice.clear()
        self.profile_choice.addItems(labels)
        self.profile_choice.setCurrentIndex(current)
        self.profile_choice.blockSignals(False)

    def bring_timings_into_view(self) -> None:
        """Scroll the dock so a new profile's notes and charts start at its top: in the
        Optimize layout at 1366x768 they sat below the dock's visible part."""
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is None or area.widget() is None or not self.unmatched.isVisibleTo(area):
            return
        top = self.unmatched.mapTo(area.widget(), self.unmatched.rect().topLeft()).y()
        area.verticalScrollBar().setValue(max(0, top - 6))

    def show_comparison(self, text: str) -> None:
        self.compare.setText(text)

    def reset(self) -> None:
        """Another model opened: nothing of the previous one's timings or ranges stays."""
        self.show_profiles([], -1)
        self.show_comparison("")
        self.unmatched.setText("")
        self.tables.setPlainText("")
        self.per_node.show_times({}, {}, 0.0)
        self.warnings.clear()
        for slot in (self.by_type, self.top_nodes, self.per_run, self.histogram):
            slot.reset()

    def _ask_calibration_folder(self) -> None:
        folder = self.ask_folder()
        if folder:
            self.calibrate_requested.emit(folder)

    def _timings_tab(self) -> QWidget:
        w = QWidget()
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.WrapLongRows)
        self.warmup, self.runs = QSpinBox(), QSpinBox()
        self.warmup.setRange(0, 100)
        self.warmup.setValue(1)
        self.runs.setRange(1, 1000)
        self.runs.setValue(10)
        self.intra, self.inter = QSpinBox(), QSpinBox()
        self.intra.setRange(0, 64)
        self.inter.setRange(0, 64)
        self.inter.setValue(1)
        form.addRow("warm-up runs", self.warmup)
        form.addRow("traced runs", self.runs)
        form.addRow("intra-op threads (0 = default)", self.intra)
        form.addRow("inter-op threads (mobile: 1)", self.inter)
        self.feed_mode = QComboBox()
        self.feed_mode.addItems(["random (seed 0)", "zeros", "from .npy files"])
        self.npy = QLineEdit()
        self.npy.setPlaceholderText("NAME=file.npy, NAME2=other.npy")
        form.addRow("inputs", self.feed_mode)
        form.addRow(".npy per input", self.npy)
        self.profile_button = QPushButton("Profile in TensorFlow")
        self.import_timings = QPushButton("Import timings…")
        self.import_timings.setToolTip("benchmark_model --enable_op_profiling text output, "
                                       "a Chrome trace (timeline) or our own tables")
        self.profile_choice = QComboBox()
        self.unmatched = NamesWrapped("")     # a profile's notes: long node names
        self.charts = QTabWidget()
        self.tables = QPlainTextEdit()
        self.tables.setReadOnly(True)
        self.tables.setLineWrapMode(QPlainTextEdit.NoWrap)
        font = self.tables.font()
        font.setFamily("monospace")
        font.setPointSize(8)
        self.tables.setFont(font)
        no_timings = "no timings yet: Profile in TensorFlow or Import timings"
        self.by_type, self.top_nodes, self.per_run = (
            ChartSlot(lambda plot: empty_chart(plot, no_timings)) for _ in range(3))
        for slot, title in ((self.by_type, "time by op type"), (self.top_nodes, "top nodes"),
                            (self.per_run, "total per run")):
            slot.setMinimumHeight(BAR_CHART_HEIGHT)
            self.charts.addTab(slot, title)
        self.per_node = TimingTable()       # every timed node, sortable; a click goes to it
        self.per_node.jump.connect(self.jump.emit)
        self.charts.addTab(self.per_node, "time per node (table)")
        self.charts.addTab(self.tables, "tables")
        # chosen in a list, not by tabs: in the side dock at 1366x768 the four tabs did not
        # fit and the tab bar scrolled sideways (1366x768 walk)
        self.charts.tabBar().hide()
        self.chart_choice = QComboBox()
        self.chart_choice.addItems([self.charts.tabText(i) for i in range(self.charts.count())])
        self.chart_choice.currentIndexChanged.connect(self.charts.setCurrentIndex)
        self.charts.currentChanged.connect(self.chart_choice.setCurrentIndex)
        self.copy_tables = QPushButton("Copy tables")
        self.copy_tables.setToolTip("copy the timing tables in benchmark_model's format")
        self.export_tables = QPushButton("Export tables…")
        lay = QVBoxLayout(w)
        lay.addWidget(self.profile_button)     # the actions first, their settings folded
        lay.addWidget(self.import_timings)
        lay.addWidget(_folded("Profiling settings", form))
        run = QHBoxLayout()
        run.addWidget(QLabel("Run:"))
        run.addWidget(self.profile_choice, 1)
        lay.addLayout(run)
        lay.addWidget(self.unmatched)
        chart = QHBoxLayout()
        chart.addWidget(QLabel("Chart:"))
        chart.addWidget(self.chart_choice, 1)
        lay.addLayout(chart)
        lay.addWidget(self.charts, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_tables)
        buttons.addWidget(self.export_tables)
        lay.addLayout(buttons)
        return w

    def _ranges_tab(self) -> QWidget:
        w = QWidget()
        form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.WrapLongRows)
        self.samples = QSpinBox()
        self.samples.setRange(1, 10000)
        self.samples.setValue(8)
        self.min_pct, self.max_pct = QDoubleSpinBox(), QDoubleSpinBox()
        for box in (self.min_pct, self.max_pct):
            box.setRange(0.0, 100.0)
            box.setValue(5.0)
        form.addRow("random calibration inputs", self.samples)
        self.mean, self.std = QDoubleSpinBox(), QDoubleSpinBox()
        self.mean.setRange(-1e6, 1e6)
        self.std.setRange(1e-6, 1e6)
        self.std.setValue(1.0)
        form.addRow("images: subtract mean", self.mean)
        form.addRow("images: divide by std", self.std)
        self.min_pct.setToolTip("the frozen min ignores this % of the logged mins, the "
                                "lowest ones")
        self.max_pct.setToolTip("the frozen max ignores this % of the logged maxes, the "
                                "highest ones")
        form.addRow("min percentile", self.min_pct)
        form.addRow("max percentile", self.max_pct)
        self.percentiles_note = QLabel(
            "Each input logs a min and a max per node. The frozen range ignores the lowest "
            "'min percentile' % of the logged mins and the highest 'max percentile' % of the "
            "maxes, so a few outlier inputs do not stretch it (0 keeps the extremes; TF's "
            "default is 5).")
        self.percentiles_note.setWordWrap(True)
        self.percentiles_note.setStyleSheet("color: #52606d")
        form.addRow(self.percentiles_note)
        self.calibrate_random = QPushButton("Calibrate on random inputs")
        self.calibrate_folder = QPushButton("Calibrate on a folder…")
        self.calibrate_folder.setToolTip("a folder of images (.jpg, .png) or .npy arrays")
        self.import_ranges = QPushButton("Import a range log…")
        self.freeze_button = QPushButton("Freeze ranges into the pipeline")
        self.compare = QLabel("")
        self.compare.setWordWrap(True)
        self.warnings = QListWidget()
        self.warnings.itemClicked.connect(lambda it: it.data(Qt.UserRole) and
                                          self.jump.emit(it.data(Qt.UserRole)))
        self.histogram = ChartSlot(
            lambda plot: empty_chart(plot, "select a node to see the ranges it logged"))
        self.histogram.setMinimumHeight(70)
        self.warnings.setMinimumHeight(40)
        lay = QVBoxLayout(w)
        for b in (self.calibrate_random, self.calibrate_folder, self.import_ranges,
                  self.freeze_button):
            lay.addWidget(b)
        self.range_settings = _folded("Settings and percentiles", form)
        lay.addWidget(self.range_settings)
        lay.addWidget(self.compare)
        lay.addWidget(QLabel("Warnings (click to go to the node):"))
        lay.addWidget(self.warnings, 1)
        lay.addWidget(QLabel("Ranges logged by the selected node:"))
        lay.addWidget(self.histogram, 1)
        return w

    # -- drawing ------------------------------------------------------------------------
    def show_profile(self, profile, graph) -> None:
        self.tables.setPlainText(profile.text or "(imported timings: no tables to show)")
        self.unmatched.setText("\n".join(t for t in (getattr(profile, "notes", ""),
                                                    profile.match_summary()) if t))
        ops = list(profile.by_op_type(graph).items())[:BAR_ROWS]
        per_node = profile.by_graph_node(graph)
        slowest: dict = {}                  # op type -> its slowest node (a bar's target)
        for name, ms in per_node.items():
            op = graph.node(name).op
            if ms > per_node.get(slowest.get(op), -1.0):
                slowest[op] = name
        by_type = [slowest.get(op) for op, _ in ops]
        self.by_type.draw(lambda plot, pg: self._clickable(
            plot, bar_chart(plot, pg, ops, "#f4a582"), by_type))
        top = sorted(per_node.items(), key=lambda kv: -kv[1])[:BAR_ROWS]
        names = [n for n, _ in top]
        top = list(zip(unique_labels(names), [v for _, v in top]))
        self.top_nodes.draw(lambda plot, pg: self._clickable(
            plot, bar_chart(plot, pg, top, "#e06666"), names))
        self.per_node.show_times(per_node, {n: graph.node(n).op for n in per_node},
                                 sum(t.per_run() for t in profile.nodes.values()))
        totals = [t / 1000.0 for t in profile.run_totals_us]
        self.per_run.draw(lambda plot, pg: runs_chart(plot, pg, totals))

    def _clickable(self, plot, _drawn, targets: list) -> None:
        """A click on a bar's row (the bar or its label) goes to that bar's node."""
        plot.bar_targets = list(targets)
        plot.setToolTip("Click a bar to go to its node" if any(targets) else "")
        if not getattr(plot, "bar_clicks", False):
            plot.bar_clicks = True
            plot.scene().sigMouseClicked.connect(partial(self._bar_clicked, plot))

    def _bar_clicked(self, plot, event) -> None:
        if event.button() != Qt.LeftButton:
            return
        at = plot.getPlotItem().getViewBox().mapSceneToView(event.scenePos())
        row, targets = round(at.y()), getattr(plot, "bar_targets", [])
        if 0 <= row < len(targets) and abs(at.y() - row) <= 0.4 and targets[row]:
            self.jump.emit(targets[row])

    def show_warnings(self, warnings: list) -> None:
        self.warnings.clear()
        for text in warnings:
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, text.split(":")[0].replace("/eightbit/requant_range", ""))
            self.warnings.addItem(item)

    def show_histogram(self, pairs: list, chosen: tuple | None) -> None:
        self.histogram.draw(lambda plot, pg: ranges_chart(plot, pg, pairs, chosen))

    def ask_folder(self) -> str | None:
        path = QFileDialog.getExistingDirectory(self, "Calibration inputs (images or .npy)")
        return path or None


def _folded(title: str, form) -> Fold:
    box = QWidget()
    box.setLayout(form)
    form.setContentsMargins(12, 0, 0, 0)
    return Fold(title, box)
