"""The Target report, the adapter: Phone > Target report opens its view in a window of its
own; Run makes the report in a task (LiteRT and Vela run in the worker) through
core.app.targets, whose result becomes the "Target" overlay; a row's click selects its node."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QVBoxLayout

from inspector.core.app import targets as target_reports
from inspector.core.errors import Cancelled, InspectorError
from inspector.gui.panels.target_panel import TargetReportView
from inspector.gui.wording import said


class TargetsController(QObject):
    """`gate(names)`: a view made later gated like the window's (no TensorFlow worker: Run
    says why and how)."""

    def __init__(self, state, tasks, dialogs, gate=None):
        super().__init__()
        self.state, self.tasks, self.dialogs, self.gate = state, tasks, dialogs, gate
        self.dialog = self.view = None
        state.overlay_changed.connect(self._overlay)
        state.model_changed.connect(lambda *_: self._model_changed())
        state.quant_changed.connect(lambda *_: self._runnable())

    def open(self) -> TargetReportView:
        """The report's window, made once, to the front."""
        if self.dialog is None:
            self.dialog = self.dialogs.window("Target report")
            self.view = TargetReportView(target_reports.choices(), self.dialog)
            QVBoxLayout(self.dialog).addWidget(self.view)
            self.dialog.resize(900, 520)
            self.view.run_requested.connect(self.run)
            self.view.node_chosen.connect(self._go_to)
            self._overlay(self.state.overlay)
            self._runnable()
            if self.gate is not None:
                self.gate(("targets.view",))
        self.dialog.show()
        self.dialog.raise_()
        return self.view

    def run(self, target: str) -> None:
        view = self.open()
        try:
            target_reports.start_report(self.state, self.tasks, target, self._failed)
        except InspectorError as exc:
            view.show_error(said(exc))
            return
        view.show_busy(f"Running the {target} report…")

    def _failed(self, exc) -> None:
        if self.view is None or isinstance(exc, Cancelled):
            return
        text = said(exc)
        self.view.show_error(text)
        self.state.fail(text)

    def _overlay(self, overlay) -> None:
        if self.view is None:
            return
        if overlay.targets is not None:
            found = overlay.targets
            self.view.show_report(found, target_reports.headline(found.figures),
                                  target_reports.other_figures(found.figures))
        self._runnable()              # a conversion preview also arrives by this signal

    def _runnable(self) -> None:
        if self.view is not None and not self.tasks.is_busy("target-report"):
            runnable = target_reports.can_report(self.state)
            self.view.set_runnable(runnable, "" if runnable else target_reports.NOTHING + ".")
            if runnable and self.view.summary.text().startswith("Open a .tflite"):
                self.view.summary.setText("Pick a target and run its report.")

    def _model_changed(self) -> None:
        if self.view is not None:
            self.view.show_error("Pick a target and run its report.")
            self.view.table.setRowCount(0)
            self.view.headline.setText("")
            self.view.details.setText("")
            self._runnable()

    def _go_to(self, node: str) -> None:
        self.state.reveal(node)
        self.state.select(node)
