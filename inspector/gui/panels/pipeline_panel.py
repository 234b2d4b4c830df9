"""The pipeline: a palette of transforms to drag (or double-click) into an ordered, checkable
list (those two lists: pipeline_lists.py), a parameter form per step, and the
transform_graph text, kept in sync both ways."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from inspector.core.app.workbench import transforms, validate_param
from inspector.gui.panels.adaptive import WidthSplitter
from inspector.gui.panels.pipeline_lists import MIME, Palette, StepList
from inspector.gui.startup import start_order

class PipelinePanel(QWidget):
    """Shows the pipeline; every edit goes out as a signal (the controller applies it)."""

    add_requested = Signal(str, int)        # transform, row (-1: at the end)
    moved = Signal(int, int)
    removed = Signal(int)
    enabled_changed = Signal(int, bool)
    param_changed = Signal(int, str, list)  # row, parameter, values
    text_applied = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.steps_shown: list = []
        self.op_types: list = []
        self.param_widgets: dict = {}
        self._form_key: tuple = ()
        self.palette = Palette()
        self.steps = StepList()
        self.steps.setMinimumHeight(48)
        self.form_box = QGroupBox("Parameters")
        # the form's error above its fields, outside their scroll area: always in sight
        self.form_error = _error_label()
        fields = QWidget()
        self.form = QFormLayout(fields)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setRowWrapPolicy(QFormLayout.WrapLongRows)
        form_scroll = QScrollArea()
        form_scroll.setWidget(fields)
        form_scroll.setWidgetResizable(True)
        form_scroll.setFrameShape(QFrame.NoFrame)
        box = QVBoxLayout(self.form_box)
        box.setContentsMargins(4, 2, 4, 2)
        box.addWidget(self.form_error)
        box.addWidget(form_scroll, 1)
        self.text = QPlainTextEdit()
        self.text.setPlaceholderText("transform_graph --transforms text")
        # one transform per line, never wrapped: wrapping a line with a huge word takes Qt
        # seconds (minutes at 1 MB)
        self.text.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.text.setMinimumHeight(44)
        self.text.setMaximumHeight(90)
        self.apply_text = QPushButton("Apply text")
        self.apply_text.setToolTip("Ctrl+Enter in the text")
        self.text_error = _error_label()
        steps_and_form = WidthSplitter(360)   # side by side: both in a short dock
        steps_and_form.addWidget(self.steps)
        steps_and_form.addWidget(self.form_box)
        steps_and_form.setSizes([200, 200])
        text_row = QHBoxLayout()
        text_row.addWidget(self.text, 1)
        text_row.addWidget(self.apply_text, 0, Qt.AlignTop)
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        lay.addWidget(QLabel("Pipeline (drag transforms here; Delete removes)"))
        lay.addWidget(steps_and_form, 1)
        lay.addWidget(QLabel("As transform_graph text:"))
        lay.addWidget(self.text_error)               # above the text: never below the fold
        lay.addLayout(text_row)
        split = WidthSplitter(480)     # palette beside the steps, or above them if narrow
        split.addWidget(self.palette)
        split.addWidget(right)
        split.setSizes([170, 430])
        self.palette.setMinimumHeight(80)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(split)
        self.setAcceptDrops(True)    # a transform dropped anywhere here is added at the end
        self.palette.add_requested.connect(lambda name: self.add_requested.emit(name, -1))
        self.steps.dropped.connect(self.add_requested.emit)
        self.steps.moved.connect(self.moved.emit)
        self.steps.removed.connect(self.removed.emit)
        self.steps.itemChanged.connect(self._check_changed)
        self.steps.currentRowChanged.connect(self._show_form)
        self.apply_text.clicked.connect(self.apply_text_now)
        QShortcut(QKeySequence("Ctrl+Return"), self.text, self.apply_text_now)

    def dragEnterEvent(self, event):
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()

    def dragMoveEvent(self, event):
        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()

    def dropEvent(self, event):
        """A transform dropped beside the list (on the form, the text) goes at the end."""
        if not event.mimeData().hasFormat(MIME):
            return
        for name in bytes(event.mimeData().data(MIME)).decode().split(","):
            if name:
                self.add_requested.emit(name, -1)
        event.acceptProposedAction()

    def refresh(self, steps: list, text_lines: str, discard_edits: bool = False) -> None:
        """Show these steps (TransformSpecs) and their text (one transform per line); text
        being typed stays unless `discard_edits` (another model opened)."""
        self.steps_shown = list(steps)
        row = self.steps.currentRow()
        self.steps.blockSignals(True)
        self.steps.clear()
        for spec in self.steps_shown:
            item = QListWidgetItem(elide(str(spec)))
            item.setToolTip(elide(str(spec), 2000))
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable | Qt.ItemIsDragEnabled)
            item.setCheckState(Qt.Checked if spec.enabled else Qt.Unchecked)
            self.steps.addItem(item)
        if self.steps_shown:
            self.steps.setCurrentRow(min(max(row, 0), len(self.steps_shown) - 1))
        self.steps.blockSignals(False)
        row = self.steps.currentRow()
        if self._form_key == self._key_of(row):
            self._show_values(row)  # only values changed: the editor being typed in stays
        else:        # (the form reads the transforms' catalogue: after the first picture)
            start_order.when_needed(self, "pipeline form",
                                    lambda: self._show_form(self.steps.currentRow()))
        if discard_edits or not self.text.hasFocus():
            self.text.setPlainText(text_lines)
        _say(self.text_error, "")

    def show_text_error(self, message: str) -> None:
        _say(self.text_error, message)

    def _check_changed(self, item):
        row = self.steps.row(item)
        on = item.checkState() == Qt.Checked
        if 0 <= row < len(self.steps_shown) and self.steps_shown[row].enabled != on:
            self.enabled_changed.emit(row, on)

    def apply_text_now(self):
        _say(self.text_error, "")
        self.text_applied.emit(self.text.toPlainText())

    # -- parameter form -----------------------------------------------------------------
    def _key_of(self, row) -> tuple:
        """What the parameter form is built for: the step's row and transform, the op list."""
        name = self.steps_shown[row].name if 0 <= row < len(self.steps_shown) else None
        return row, name, tuple(self.op_types)

    def _clear_form(self) -> None:
        """Empty the form. Its widgets are deleted later, never inside their own signal (a
        commit from a field's Enter rebuilt the form within that field's key handler)."""
        while self.form.rowCount():
            taken = self.form.takeRow(0)
            for item in (taken.labelItem, taken.fieldItem):
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.hide()
                    widget.deleteLater()

    def _show_values(self, row) -> None:
        """Put the step's values in the fields of the form built for it."""
        spec = self.steps_shown[row] if 0 <= row < len(self.steps_shown) else None
        for name, w in self.param_widgets.items():
            value = field_text(spec, name)
            current = w.currentText() if isinstance(w, QComboBox) else w.text()
            if current != value:
                w.setCurrentText(value) if isinstance(w, QComboBox) else w.setText(value)

    def _show_form(self, row):
        self._clear_form()
        self._form_key = self._key_of(row)
        self.param_widgets = {}
        _say(self.form_error, "")
        if not 0 <= row < len(self.steps_shown):
            return
        spec = self.steps_shown[row]
        info = transforms().get(spec.name)
        params = list(info.params) if info else []
        if not params:
            about = QLabel(info.summary if info else f"unknown transform {spec.name}")
            about.setWordWrap(True)
            self.form.addRow(about)
            return
        for p in params:
            value = field_text(spec, p.name)
            if p.kind == "op":
                w = QComboBox()
                w.setEditable(True)
                w.setInsertPolicy(QComboBox.NoInsert)  # Enter commits, it adds no item
                w.addItems([""] + self.op_types)
                w.setCurrentText(value)
                # one commit path: Enter or leaving the field, or an op picked from the list
                w.lineEdit().editingFinished.connect(lambda p=p, w=w: self._commit_field(row, p, w))
                w.activated.connect(lambda _i, p=p, w=w: self._commit_field(row, p, w))
            else:
                w = QLineEdit(value)
                w.setPlaceholderText(p.default or ("required" if p.required else ""))
                w.editingFinished.connect(lambda p=p, w=w: self._commit_field(row, p, w))
                w.textEdited.connect(lambda text, p=p: self._check_as_typed(p, text))
            (w.lineEdit() if isinstance(w, QComboBox) else w).setAcceptDrops(False)
            w.setToolTip(f"{p.kind}{', repeated (comma list)' if p.repeated else ''}"
                         + (f": {p.help}" if p.help else ""))
            self.param_widgets[p.name] = w
            self.form.addRow(p.name + (" *" if p.required else ""), w)

    def _check_as_typed(self, param, text):
        _say(self.form_error, validate_param(param, text) if text else "")

    def _commit_field(self, row, param, widget):
        self._commit(row, param, widget.currentText() if isinstance(widget, QComboBox)
                     else widget.text())

    def _commit(self, row, param, text):
        error = validate_param(param, text)
        _say(self.form_error, error)
        if error:
            return
        values = [v for v in text.split(",") if v] if param.repeated else ([text] if text else [])
        if param.kind == "shape" and text:
            values = [text]
        if 0 <= row < len(self.steps_shown) and \
                self.steps_shown[row].values(param.name) != values:
            self.param_changed.emit(row, param.name, values)


def _error_label() -> QLabel:
    label = QLabel("")
    label.setStyleSheet("color: #c0392b")
    label.setWordWrap(True)
    label.hide()
    return label


def _say(label: QLabel, text: str) -> None:
    """An error label shows only while it has something to say (no empty gap)."""
    label.setText(text)
    label.setVisible(bool(text))


def field_text(spec, name: str) -> str:
    """A parameter's values as its field shows them (a comma list), '' without a step."""
    return ",".join(spec.values(name)) if spec is not None else ""


def elide(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
