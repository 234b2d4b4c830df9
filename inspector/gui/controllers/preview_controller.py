"""The preview panel: rows from the state, a chosen step shown on the canvas with its changes,
the numeric check in TensorFlow, and saving the optimized graph."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from inspector.core.app.exports import beside
from inspector.core.app.pipeline_runs import start_check, start_save, start_step_view
from inspector.core.errors import UnsafeGraphError
from inspector.gui.wording import said


class PreviewController(QObject):
    def __init__(self, state, tasks, panel, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.panel, self.dialogs = state, tasks, panel, dialogs
        state.output_check_changed.connect(self._show_check)
        state.rows_changed.connect(self._rows_changed)
        state.step_changed.connect(self._step_changed)
        state.step_view_wanted.connect(self._fetch_step_view)
        state.model_changed.connect(lambda *_: self._show_check(None))
        panel.step_selected.connect(lambda row: self.state.show_step(row))
        panel.after.toggled.connect(lambda on: self.state.show_step(self.state.step, on))
        panel.check_requested.connect(lambda: self.check_outputs(False))
        if state.rows:                     # a pipeline put in place before it existed
            self._rows_changed(state.rows)
            self._step_changed(state.step, state.after)
        self._show_check(state.output_check)

    @property
    def rows(self):
        return self.state.rows

    @property
    def last_check(self):
        """The numeric check's results of the pipeline shown (None before any)."""
        check = self.state.output_check
        return check.results if check is not None else None

    def _rows_changed(self, rows):
        check = self.state.output_check
        if check is not None and check.key != self._key(rows):
            self.state.set_output_check(None)  # the check was of another pipeline
        # the table selects what the canvas shows; a step not recomputed yet stays unselected
        self.panel.show_rows(rows, self.state.step if self.state.step < len(rows) else -1)
        enabled = sum(1 for s in self.state.workbench.steps if s.enabled)
        finished = len(rows) == 1 + enabled or any(r.error for r in rows)
        self.panel.status.setText("" if finished or not rows else
                                  f"computing… ({len(rows) - 1} of {enabled} steps so far)")

    def _step_changed(self, row, after):
        report = self.rows[row].report if 0 < row < len(self.rows) else None
        self.panel.show_changes(report)

    def _fetch_step_view(self, key):
        """A step's graph from the preview engine (the worker, in the app), laid out off the
        GUI thread; a newer request for another step drops this one."""
        start_step_view(self.state, self.tasks, key, lambda exc: self.state.fail(
            f"Could not show that step: {getattr(exc, 'message', None) or exc}"))

    @staticmethod
    def _key(rows):
        return rows[-1].key if rows else None

    def _show_check(self, check):
        self.panel.check_result.setText("" if check is None else "\n".join(
            _check_line(r) for r in check.results))

    # -- checking and saving ---------------------------------------------------------------
    def check_outputs(self, allow_io: bool):
        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.dialogs.consent(exc, "Checking the outputs"):
                    self.check_outputs(True)
                return
            self.panel.check_result.setText(said(exc))

        if not start_check(self.state, self.tasks, failed, allow_io):
            self.panel.check_result.setText("Mark outputs and add steps first.")

    def save_graph(self, path: str | None = None) -> str | None:
        """Save the last step's graph (written by the preview engine, atomically); returns
        the path once the save has started, None when there is nothing to save."""
        model, engine = self.state.model, self.state.engine
        if not self.rows or model is None or engine is None:
            return None
        if self.rows[-1].error:     # it said "no longer previewed; wait ... and try again"
            self.state.fail(f"Could not save: the pipeline's last step failed: "
                            f"{self.rows[-1].error}")
            return None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self.panel, "Save optimized graph",
                                                  beside(model.path, "_optimized.pb"),
                                                  "Binary GraphDef (*.pb);;Text (*.pbtxt)")
            if not path:
                return None
        same = os.path.exists(path) and os.path.exists(model.path) and \
            os.path.samefile(path, model.path)
        if same and not self.dialogs.confirm(
                "Overwrite the source model?",
                f"{path} is the model you opened. Replace it with the optimized graph?"):
            return None
        start_save(self.state, self.tasks, path, lambda exc: self.state.fail(
            f"Could not save: {said(exc)}"))      # with the file it is about
        return path


def _check_line(r) -> str:
    """One output's check on the panel's one line: NaN answers first (they void the figures),
    else the figures first and why there is no top-1 after them (the line is cut at its end:
    the figures were cut away behind that note)."""
    figures = (f"max abs error {r.max_abs_error:.3g}, max rel error {r.max_rel_error:.3g}"
               + ("" if r.top1_agreement is None else
                  f", top-1 agreement {100 * r.top1_agreement:.0f}%"))
    note = r.warning()
    if not note:
        return f"{r.name}: {figures}"
    return f"{r.name}: {note}; {figures}" if any(r.non_finite) else f"{r.name}: {figures}; {note}"
