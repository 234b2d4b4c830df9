"""Summary panel: likely inputs and outputs (click to jump), parameters, size, op histogram."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from inspector.core.view.vocabulary import (
    bytes_on_disk,
    count,
    human_bytes,
    tf_human_readable_num,
)
from inspector.gui.panels.adaptive import WidthSplitter
from inspector.gui.panels.chart_slot import ChartSlot
from inspector.gui.panels.overlay_charts import tick_font

TOP_OPS = 10
# tall enough for TOP_OPS op names one under another at 8 pt (at 110 px, a 1366x768 screen
# gave them ~7 px each: the names were drawn over each other)
CHART_HEIGHT = 195


class SummaryPanel(QWidget):
    jump = Signal(str)

    def __init__(self, state, parent=None):
        super().__init__(parent)
        self.state = state
        self.info = QLabel("No model")
        self.info.setWordWrap(True)
        self.info.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.candidates = QListWidget()
        self.candidates.setWordWrap(True)
        self.candidates.setTextElideMode(Qt.ElideLeft)   # a long name shows its end
        self.candidates.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.candidates.itemClicked.connect(self._clicked)
        self.candidates.itemActivated.connect(self._clicked)
        self.candidates.setMinimumHeight(70)
        self.chart = ChartSlot()
        self.chart.setMinimumHeight(CHART_HEIGHT)
        parts = WidthSplitter()           # side by side in a wide dock, else stacked
        parts.addWidget(self.candidates)
        parts.addWidget(self.chart)
        parts.setStretchFactor(0, 2)
        parts.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.info)
        layout.addWidget(parts, 1)
        self.summary = None
        self.model = None
        state.model_changed.connect(lambda model: self.show_summary(state.summary, model))
        state.summary_changed.connect(lambda summary: self.show_summary(summary, self.model))

    def _clicked(self, item):
        name = item.data(Qt.UserRole)
        if name:
            self.jump.emit(name)

    def show_summary(self, summary, model) -> None:
        if model is not self.model:
            self.candidates.scrollToTop()    # another model: from its top, not mid-list
        self.summary, self.model = summary, model
        if summary is None:     # the first picture comes first; the summary follows
            self.info.setText(f"<b>{model.path}</b><br>{model.kind}"
                              f"{', frozen' if model.frozen else ''} · "
                              f"{human_bytes(bytes_on_disk(model))} · "
                              f"{count(len(model.graph), 'node')} · summarizing…")
            self.candidates.clear()
            self.chart.draw(lambda plot, pg: plot.clear())
            return
        self.info.setText(
            f"<b>{model.path}</b><br>{model.kind}{', text' if model.is_text else ''}"
            f"{', frozen' if model.frozen else ''} · {human_bytes(bytes_on_disk(model))} · "
            f"{count(summary.node_count, 'node')} · {tf_human_readable_num(summary.const_parameters)} "
            f"const + {tf_human_readable_num(summary.variable_parameters)} variable parameters")
        self.candidates.clear()
        for title, cands in (("Likely inputs", summary.inputs), ("Likely outputs",
                                                                  summary.outputs)):
            head = QListWidgetItem(title)
            head.setFlags(Qt.ItemIsEnabled)       # a heading: readable, not selectable
            font = head.font()
            font.setBold(True)
            head.setFont(font)
            self.candidates.addItem(head)
            for c in cands[:12]:
                line = f"{c.title}   {c.dtype} {c.shape}".rstrip()   # and why, in sight
                item = QListWidgetItem(f"{line}\n    {c.reason}" if c.reason else line)
                item.setToolTip(c.reason)
                item.setData(Qt.UserRole, c.name)
                self.candidates.addItem(item)
        self.chart.draw(lambda plot, pg: _draw_ops(plot, pg,
                                                   list(summary.op_counts.items())[:TOP_OPS]))


def _draw_ops(plot, pg, ops: list) -> None:
    plot.clear()
    if ops:
        plot.addItem(pg.BarGraphItem(x0=0, y=list(range(len(ops))), height=0.7,
                                     width=[c for _, c in ops], brush="#8fbbe6"))
        left = plot.getAxis("left")
        left.setTicks([[(i, op) for i, (op, _) in enumerate(ops)]])
        font = tick_font(plot)
        left.setStyle(tickFont=font)
        plot.getAxis("bottom").setStyle(tickFont=font)
        plot.getViewBox().invertY(True)
        plot.setTitle(f"op types (top {TOP_OPS})", size="8pt")
