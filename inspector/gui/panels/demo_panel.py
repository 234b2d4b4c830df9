"""The Demo panel: what the model sees (the input as it arrives, its value range, warnings in
plain words), the answer (top-5 bars with names, or the output as an image, curve or table)
and the controls a presenter needs (run on a file, value range, labels)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture

INK, MUTED, ACCENT, WARN_BG, WARN_INK = "#1f2933", "#52606d", "#1c6e8c", "#fff4e5", "#8a4b00"
RANGES = [("", "Value range: as detected"), ("0_1", "[0, 1]  pixel / 255"),
          ("-1_1", "[-1, 1]  pixel / 127.5 - 1"), ("0_255", "[0, 255]  pixels as they are"),
          ("imagenet", "mean/std (ImageNet)"), ("caffe", "Caffe: BGR minus mean")]


def _label(text: str = "", size: int = 13, colour: str = INK, bold: bool = False) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    label.setStyleSheet(f"color: {colour}; font-size: {size}px;"
                        f"{' font-weight: 600;' if bold else ''}")
    return label


def picture_pixmap(picture, longest: int = 180, kind: str = "image") -> QPixmap:
    """The picture the model sees, as the canvas draws it (canvas.feature_strip)."""
    from inspector.gui.canvas import feature_strip  # numpy: not at the app's start

    return feature_strip.picture_pixmap(picture, longest, kind)


class TopBars(QWidget):
    """Top-5 classes as horizontal bars: name on the left, bar, percentage on the right."""

    def __init__(self):
        super().__init__()
        self.rows: list = []        # [(name, probability)]
        self.setMinimumHeight(40)

    def set_rows(self, rows) -> None:
        self.rows = list(rows)
        self.setMinimumHeight(max(40, 34 * len(self.rows) + 6))
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        w = self.width()
        name_w, pct_w = min(180, int(w * 0.38)), 64
        bar_w = max(40, w - name_w - pct_w - 16)
        font = QFont()
        for i, (name, prob) in enumerate(self.rows):
            y = 4 + i * 34
            font.setPixelSize(15 if i == 0 else 13)
            font.setBold(i == 0)
            p.setFont(font)
            p.setPen(QColor(INK))
            metrics = p.fontMetrics()
            p.drawText(QRectF(0, y, name_w - 8, 28), Qt.AlignVCenter | Qt.AlignRight,
                       metrics.elidedText(name, Qt.ElideRight, name_w - 8))
            p.setPen(Qt.NoPen)
            p.setBrush(QColor("#e4e7eb"))
            p.drawRoundedRect(QRectF(name_w, y + 5, bar_w, 18), 4, 4)
            p.setBrush(QColor(ACCENT if i == 0 else "#7fb3c8"))
            p.drawRoundedRect(QRectF(name_w, y + 5, max(3.0, bar_w * prob), 18), 4, 4)
            p.setPen(QColor(INK))
            p.drawText(QRectF(name_w + bar_w + 8, y, pct_w, 28), Qt.AlignVCenter,
                       f"{prob * 100:.1f} %")
        p.end()


class DemoPanel(QWidget):
    run_requested = Signal()          # "Run on a file…"
    rerun_requested = Signal()        # the same input again (after a setting changed)
    range_chosen = Signal(str)        # a CONVENTIONS key, or "" for as detected
    labels_requested = Signal()

    def __init__(self):
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Run on a file…")
        self.run_button.setToolTip("Run the model on a photo, a folder of photos, a WAV sound "
                                   "or a .npy array (or drop one on the window)")
        self.run_button.clicked.connect(self.run_requested)
        self.labels_button = QPushButton("Labels…")
        self.labels_button.setToolTip("Pick a file of class names, one per line")
        self.labels_button.clicked.connect(self.labels_requested)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.labels_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.range_box = QComboBox()
        for key, text in RANGES:
            self.range_box.addItem(text, key)
        self.range_box.setToolTip("How pixel values become the numbers the model sees; used "
                                  "when the graph does not scale its input itself")
        self.range_box.currentIndexChanged.connect(
            lambda i: self.range_chosen.emit(self.range_box.itemData(i)))
        layout.addWidget(self.range_box)
        self.title = _label("Drop a photo, a sound or a .npy array on the window to run the "
                            "model on it.", 13, MUTED)
        layout.addWidget(self.title)
        layout.addWidget(_label("What the model sees", 15, INK, True))
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignCenter)
        self.picture.setMinimumHeight(60)
        layout.addWidget(self.picture)
        self.sees = _label("", 12, MUTED)
        layout.addWidget(self.sees)
        self.warning = _label("", 13, WARN_INK, True)
        self.warning.setStyleSheet(f"color: {WARN_INK}; background: {WARN_BG}; padding: 8px;"
                                   " border-left: 4px solid #e8a33d; font-size: 13px;")
        self.warning.hide()
        layout.addWidget(self.warning)
        self.answer_title = _label("The answer", 15, INK, True)
        layout.addWidget(self.answer_title)
        self.bars = TopBars()
        layout.addWidget(self.bars)
        self.answer_picture = QLabel()
        self.answer_picture.setAlignment(Qt.AlignCenter)
        layout.addWidget(self.answer_picture)
        self.curve = None             # a pyqtgraph plot, made when first needed
        self.table = QTableWidget()
        self.table.setMaximumHeight(220)
        layout.addWidget(self.table)
        self.answer_note = _label("", 12, MUTED)
        layout.addWidget(self.answer_note)
        self.notes = _label("", 12, MUTED)
        layout.addWidget(self.notes)
        layout.addStretch(1)
        self.show_run(None)

    def busy(self, text: str) -> None:
        self.title.setText(text)

    def show_run(self, run) -> None:
        for w in (self.picture, self.sees, self.warning, self.answer_title, self.bars,
                  self.answer_picture, self.table, self.answer_note, self.notes):
            w.setVisible(run is not None)
        if self.curve is not None:
            self.curve.setVisible(False)
        if run is None:
            self.title.setText("Drop a photo, a sound or a .npy array on the window to run "
                               "the model on it.")
            return
        self.title.setText(f"Ran on <b>{run.label}</b> in {run.run_ms:,.0f} ms")
        self.range_box.setVisible(run.adjustable)
        seen = run.seen
        if seen is not None:
            self.picture.setPixmap(picture_pixmap(seen.shown(), kind=seen.kind))
            self.sees.setText(seen.description)
            self.warning.setText("⚠ " + " ".join(seen.warnings))
            self.warning.setVisible(bool(seen.warnings))
        else:
            self.picture.hide()
            self.warning.hide()
        self.notes.setText("\n".join(run.notes))
        self.notes.setVisible(bool(run.notes))
        self._show_answer(run.outputs[0] if run.outputs else None)

    def _show_answer(self, view) -> None:
        self.bars.setVisible(False)
        self.answer_picture.setVisible(False)
        self.table.setVisible(False)
        if view is None:
            return
        self.answer_title.setText(f"The answer  <span style='color:{MUTED}; font-weight:400;"
                                  f" font-size:12px'>({view.name})</span>")
        self.answer_note.setText(" · ".join(x for x in (view.scores, view.note) if x))
        if view.kind == "classes":
            self.bars.set_rows(list(zip(view.labels, [p for _, p in view.top])))
            self.bars.setVisible(True)
        elif view.kind == "image":
            self.answer_picture.setPixmap(picture_pixmap(view.picture()))
            self.answer_picture.setVisible(True)
        elif view.kind == "curve":
            self._show_curve(view.data)
        else:
            self._show_table(view.data)

    def _show_curve(self, data) -> None:
        import pyqtgraph as pg

        if self.curve is None:
            self.curve = pg.PlotWidget(background="w")
            self.curve.setMinimumHeight(180)
            self.layout().insertWidget(self.layout().indexOf(self.answer_note), self.curve)
        self.curve.clear()
        self.curve.plot(np.arange(len(data)), np.asarray(data, float),
                        pen=pg.mkPen(ACCENT, width=2))
        self.curve.setVisible(True)

    def _show_table(self, data) -> None:
        rows = np.atleast_2d(np.asarray(data))
        if rows.shape[0] == 1 and rows.shape[1] > 1:
            rows = rows.T
        self.table.setRowCount(min(len(rows), 64))
        self.table.setColumnCount(rows.shape[1])
        for r in range(min(len(rows), 64)):
            for c in range(rows.shape[1]):
                v = rows[r, c]
                text = f"{v:.6g}" if isinstance(v, (float, np.floating)) else str(v)
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.setVisible(True)

    def set_range(self, key: str) -> None:
        index = self.range_box.findData(key)
        self.range_box.blockSignals(True)
        self.range_box.setCurrentIndex(max(index, 0))
        self.range_box.blockSignals(False)
