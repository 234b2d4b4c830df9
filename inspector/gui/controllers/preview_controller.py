"""The preview panel: rows from the state, a chosen step shown on the canvas with its changes,
the numeric check in TensorFlow, and saving the optimized graph."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.errors import InspectorError, UnsafeGraphError
from inspector.core.model.humanize import count


class PreviewController(QObject):
    def __init__(self, state, tasks, panel, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.panel, self.dialogs = state, tasks, panel, dialogs
        self.last_check = None
        self._checked = None
        state.rows_changed.connect(self._rows_changed)
        state.step_changed.connect(self._step_changed)
        state.model_changed.connect(lambda *_: self._clear_check())
        panel.step_selected.connect(lambda row: self.state.show_step(row))
        panel.after.toggled.connect(lambda on: self.state.show_step(self.state.step, on))
        panel.check_requested.connect(lambda: self.check_outputs(False))

    @property
    def rows(self):
        return self.state.rows

    def _rows_changed(self, rows):
        if self.last_check is not None and self._checked != self._key(rows):
            self._clear_check()  # the check was of another pipeline
        # the table selects what the canvas shows; a step not recomputed yet stays unselected
        self.panel.show_rows(rows, self.state.step if self.state.step < len(rows) else -1)
        enabled = sum(1 for s in self.state.workbench.steps if s.enabled)
        finished = len(rows) == 1 + enabled or any(r.error for r in rows)
        self.panel.status.setText("" if finished or not rows else
                                  f"computing… ({len(rows) - 1} of {enabled} steps so far)")

    def _step_changed(self, row, after):
        report = self.rows[row].report if 0 < row < len(self.rows) else None
        names = {n.name for n in self.state.view.graph} if self.state.view else set()
        self.panel.show_changes(report, names)

    @staticmethod
    def _key(rows):
        return rows[-1].key if rows else None

    def _clear_check(self):
        self.last_check = None
        self._checked = None
        self.panel.check_result.setText("")

    # -- checking and saving ---------------------------------------------------------------
    def final_graph_def(self):
        return self.rows[-1].graph_def if self.rows else None

    def check_outputs(self, allow_io: bool):
        from inspector.core.analysis.numeric_check import numeric_check

        bench = self.state.workbench
        if len(self.rows) < 2 or not bench.outputs:
            self.panel.check_result.setText("Mark outputs and add steps first.")
            return
        before, after = self.rows[0].graph_def, self.final_graph_def()
        ins, outs = list(bench.inputs), list(bench.outputs)
        shapes, _ = input_shapes_and_types(self.state)
        key = self._key(self.rows)

        def done(results):
            self.panel.check_result.setText("\n".join(
                f"{r.name}: max abs error {r.max_abs_error:.3g}, max rel error "
                f"{r.max_rel_error:.3g}" + ("" if r.top1_agreement is None else
                                            f", top-1 agreement {100 * r.top1_agreement:.0f}%")
                for r in results))
            self.last_check, self._checked = results, key

        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.dialogs.consent(exc, "Checking the outputs"):
                    self.check_outputs(True)
                return
            self.panel.check_result.setText(getattr(exc, "message", str(exc)))

        self.tasks.submit("check", lambda task: numeric_check(before, after, ins, outs, shapes,
                                                              allow_io=allow_io),
                          done, failed, label="Running both graphs in TensorFlow")

    def save_graph(self, path: str | None = None) -> str | None:
        from inspector.core.formats.writer import write_graph

        graph_def, model = self.final_graph_def(), self.state.model
        if graph_def is None or model is None:
            return None
        if path is None:
            base, _ = os.path.splitext(model.path.rstrip("/"))
            path, _ = QFileDialog.getSaveFileName(self.panel, "Save optimized graph",
                                                  base + "_optimized.pb",
                                                  "Binary GraphDef (*.pb);;Text (*.pbtxt)")
            if not path:
                return None
        same = os.path.exists(path) and os.path.exists(model.path) and \
            os.path.samefile(path, model.path)
        if same and not self.dialogs.confirm(
                "Overwrite the source model?",
                f"{path} is the model you opened. Replace it with the optimized graph?"):
            return None
        try:
            write_graph(graph_def, path, as_text=path.endswith(".pbtxt"), force=True)
        except (InspectorError, OSError) as exc:
            self.state.fail(f"Could not save: {exc}")
            return None
        self.state.say(f"Saved {count(len(graph_def.node), 'node')} to {path}")
        return path
