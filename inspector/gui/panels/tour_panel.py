"""The Tour panel: the stops of the open model's tour in a list (drag to reorder), the caption
and speaker notes of the selected stop, and the buttons that add, update, delete, build the
auto-tour, present and export."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class TourPanel(QWidget):
    add_requested = Signal()
    update_requested = Signal(int)
    delete_requested = Signal(int)
    moved = Signal(int, int)
    chosen = Signal(int)              # go to this stop (click in the list)
    title_edited = Signal(int, str)
    text_edited = Signal(int, str, str)   # index, caption, notes
    auto_requested = Signal()
    present_requested = Signal()
    export_requested = Signal()
    motion_changed = Signal(bool)     # reduce motion
    spotlight_changed = Signal(bool)
    scale_changed = Signal(float)     # presentation: text and zoom scale (1.5 to 2.5)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._filling = False
        layout = QVBoxLayout(self)
        self.hint = QLabel("No tour yet. Build one from the model (Auto-tour), or arrange the "
                           "view and press Add stop.")
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        self.stops = QListWidget()
        self.stops.setDragDropMode(QAbstractItemView.InternalMove)
        self.stops.setMinimumHeight(140)
        self.stops.model().rowsMoved.connect(self._rows_moved)
        self.stops.currentRowChanged.connect(self._current)
        self.stops.itemClicked.connect(lambda item: self.chosen.emit(self.stops.row(item)))
        layout.addWidget(self.stops, 1)
        buttons = QGridLayout()
        self.add_button = self._button("Add stop", self.add_requested.emit, buttons, 0, 0,
                                       "Remember what the canvas shows now as a new stop")
        self.update_button = self._button("Update", lambda: self._row_signal(
            self.update_requested), buttons, 0, 1, "Replace the selected stop by the view now")
        self.delete_button = self._button("Delete", lambda: self._row_signal(
            self.delete_requested), buttons, 0, 2)
        self.auto_button = self._button("Auto-tour", self.auto_requested.emit, buttons, 1, 0,
                                        "Build a tour from the model: input, each block in "
                                        "data-flow order, answer, model card")
        self.present_button = self._button("Present (F5)", self.present_requested.emit,
                                           buttons, 1, 1, "Full screen; PgDown/PgUp, arrows "
                                           "or Space move, B blanks, Esc leaves")
        self.export_button = self._button("Export…", self.export_requested.emit, buttons, 1,
                                          2, "One HTML file that opens anywhere, or PDF slides")
        layout.addLayout(buttons)
        layout.addWidget(QLabel("Title"))
        self.title = QLineEdit()
        self.title.editingFinished.connect(self._title_done)
        layout.addWidget(self.title)
        layout.addWidget(QLabel("Caption (shown to the audience)"))
        self.caption = QPlainTextEdit()
        self.caption.setMaximumHeight(80)
        layout.addWidget(self.caption)
        layout.addWidget(QLabel("Speaker notes"))
        self.notes = QPlainTextEdit()
        self.notes.setMaximumHeight(80)
        layout.addWidget(self.notes)
        for edit in (self.caption, self.notes):
            edit.textChanged.connect(self._text_done)
        self.spotlight = QCheckBox("Spotlight the stop's block")
        self.spotlight.setChecked(True)
        self.spotlight.toggled.connect(self.spotlight_changed.emit)
        self.reduce_motion = QCheckBox("Reduce motion (no animation between stops)")
        self.reduce_motion.toggled.connect(self.motion_changed.emit)
        layout.addWidget(self.spotlight)
        layout.addWidget(self.reduce_motion)
        row = QHBoxLayout()
        row.addWidget(QLabel("Presentation scale"))
        self.scale = QComboBox()
        for value in ("1.5", "2", "2.5"):
            self.scale.addItem(f"{value}x (text at least {float(value) * 12:.0f} px)",
                               float(value))
        self.scale.currentIndexChanged.connect(
            lambda _i: self.scale_changed.emit(self.scale.currentData()))
        row.addWidget(self.scale, 1)
        layout.addLayout(row)
        self.show_stops([])

    def _button(self, text, slot, grid, row, col, tip=""):
        button = QPushButton(text)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        grid.addWidget(button, row, col)
        return button

    def _row_signal(self, signal) -> None:
        row = self.stops.currentRow()
        if row >= 0:
            signal.emit(row)

    # -- showing the tour ----------------------------------------------------------------------
    def show_stops(self, stops: list, current: int = -1) -> None:
        """The list of stops; while the presenter types, only the titles are refreshed (the
        editors keep their cursor)."""
        same_row = current < 0 or current == self.stops.currentRow()
        if len(stops) == self.stops.count() and same_row and stops:
            self._stops = list(stops)
            for k, stop in enumerate(stops):
                self.stops.item(k).setText(f"{k + 1}. {stop.title}")
                self.stops.item(k).setToolTip(stop.caption)
            return
        self._filling = True
        self.stops.clear()
        for k, stop in enumerate(stops):
            item = QListWidgetItem(f"{k + 1}. {stop.title}")
            item.setToolTip(stop.caption)
            self.stops.addItem(item)
        self.hint.setVisible(not stops)
        for w in (self.update_button, self.delete_button, self.present_button,
                  self.export_button, self.title, self.caption, self.notes):
            w.setEnabled(bool(stops))
        self._stops = list(stops)
        if 0 <= current < len(stops):
            self.stops.setCurrentRow(current)
        self._filling = False
        self._current(self.stops.currentRow())

    def _current(self, row: int) -> None:
        if self._filling:
            return
        self._filling = True
        stop = self._stops[row] if 0 <= row < len(self._stops) else None
        self.title.setText(stop.title if stop else "")
        self.caption.setPlainText(stop.caption if stop else "")
        self.notes.setPlainText(stop.notes if stop else "")
        self._filling = False

    def _rows_moved(self, _parent, start, _end, _dest, row) -> None:
        self.moved.emit(start, row - 1 if row > start else row)

    def _title_done(self) -> None:
        row = self.stops.currentRow()
        if row >= 0 and not self._filling and self.title.text() != self._stops[row].title:
            self.title_edited.emit(row, self.title.text())

    def _text_done(self) -> None:
        row = self.stops.currentRow()
        if row >= 0 and not self._filling:
            self.text_edited.emit(row, self.caption.toPlainText(), self.notes.toPlainText())
