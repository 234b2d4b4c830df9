"""Wires the workbench (marks + pipeline) to the app: strip preview on the canvas, the live
pipeline preview, diffs of a chosen step, numeric check, saving, and the session file."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from inspector.core.errors import InspectorError
from inspector.core.errors import Cancelled


class _Rows(QObject):
    rows = Signal(object)


class WorkbenchController(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.w = window
        self.bench = window.workbench
        self.engine = None
        self.strip = None
        self.rows: list = []
        self.original_view = None
        self.step_views: dict = {}
        self.diff: dict = {}
        self._relay = _Rows()
        self._relay.rows.connect(self._rows_arrived)
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(400)
        self._save_timer.timeout.connect(self.autosave)
        self.bench.changed.connect(self._changed)
        window.preview_panel.step_selected.connect(self.show_step)
        window.preview_panel.after.toggled.connect(
            lambda *_: self.show_step(window.preview_panel.currentRow()))
        window.preview_panel.check_requested.connect(lambda: self.check_outputs(False))
        self.ready = False

    # -- model lifecycle ----------------------------------------------------------------
    def model_loaded(self, model, view, overrides=None):
        from inspector.core.app.preview import PreviewEngine

        self.ready = False
        self.engine = PreviewEngine(model.graph.graph_def)
        self.original_view, self.step_views, self.rows, self.diff = view, {}, [], {}
        try:
            self.bench.reset()
            self.bench.restore(model.path)
        except InspectorError as exc:
            self.w.show_error(exc.one_line())
        if self.bench.warnings:
            self.w.show_error("The session file was restored, but:\n" +
                              "\n".join(self.bench.warnings))
        if overrides:
            ins, outs, text = overrides
            if ins is not None or outs is not None:
                self.bench.set_marks(ins if ins is not None else self.bench.inputs,
                                     outs if outs is not None else self.bench.outputs)
            if text is not None:
                try:
                    self.bench.set_text(text)
                except InspectorError as exc:
                    self.w.show_error(exc.one_line())
        self.ready = True
        self.request_strip()
        self.w.apply_marks()
        self.w._after_first_frame.append(self.request_preview)

    def _changed(self, save=True):
        if self.engine is None or not self.ready:
            return
        if save:
            self._save_timer.start()
        self.request_strip()
        self.request_preview()
        self.w.apply_marks()

    def autosave(self):
        model = self.w.session.model
        if model is None:
            return
        try:
            self.bench.save(model.path)
        except (InspectorError, OSError) as exc:
            self.w.session.message.emit(f"Session not saved: {exc}")

    # -- strip preview ------------------------------------------------------------------
    def request_strip(self):
        from inspector.core.analysis.marks import strip_preview

        view = self.original_view
        ins, outs = list(self.bench.inputs), list(self.bench.outputs)
        if view is None:
            return

        def done(preview):
            self.strip = preview if outs else None
            self.w.workbench_panel.show_preview(self.strip)
            self.w.apply_marks()

        self.w.runner.submit("strip", lambda c: strip_preview(view.graph, ins, outs), done,
                             label="Finding what stripping keeps")

    # -- pipeline preview ---------------------------------------------------------------
    def request_preview(self):
        engine = self.engine
        steps = [s for s in self.bench.steps]
        ins, outs = list(self.bench.inputs), list(self.bench.outputs)
        shapes, _ = self.w.input_shapes_and_types()
        relay = self._relay

        def work(cancel):
            return engine.run(steps, ins, outs, shapes, with_flops=True, cancel=cancel,
                              on_row=relay.rows.emit)  # immutable rows, a fresh list each time

        self.w.runner.submit("preview", work, self._rows_arrived, self._preview_failed,
                             "Previewing the pipeline")

    def _preview_failed(self, exc):
        if not isinstance(exc, Cancelled):
            self.w.show_error(f"Preview failed: {exc}")

    def _rows_arrived(self, rows):
        if self.engine is None or (rows and rows[0].graph_def is not self.engine.graph_def):
            return  # rows of a model that is no longer open
        self.rows = rows
        self.w.preview_panel.show_rows(rows)
        done = len(rows) == 1 + sum(1 for s in self.bench.steps if s.enabled) or \
            any(r.error for r in rows)
        self.w.preview_panel.status.setText(
            "" if done else f"computing… ({len(rows) - 1} steps so far)")
        self.preview_done = done and all(r.metrics.flops is not None for r in rows[1:]) \
            if len(rows) > 1 else done

    # -- diff of a step -----------------------------------------------------------------
    def show_step(self, row: int):
        from inspector.core.view.view_graph import ViewModel

        if self.original_view is None:
            return
        if row <= 0 or row >= len(self.rows):
            self.diff = {}
            self._display(self.original_view)
            return
        report = self.rows[row].report
        after = self.w.preview_panel.after.isChecked()
        if report is None:
            return
        if after:
            key = id(self.rows[row].graph_def)
            view = self.step_views.get(key)
            if view is None:
                from inspector.core.model.graph import Graph

                view = self.step_views[key] = ViewModel(Graph(self.rows[row].graph_def))
                view.direction = self.original_view.direction
            self.diff = {**{n: "added" for n in report.added},
                         **{n: "changed" for n in report.changed}}
        else:
            view = self.original_view
            self.diff = {n: "removed" for n in report.removed}
        names = {n.name for n in view.graph}
        self.w.preview_panel.show_changes(report, names)
        self._display(view)

    def _display(self, view):
        session = self.w.session
        if session.view is not view:
            session.view = view
            self.w.request_layout()
        else:
            self.w.apply_marks()

    # -- checking and saving ------------------------------------------------------------
    def final_graph_def(self):
        return self.rows[-1].graph_def if self.rows else None

    def check_outputs(self, allow_io: bool):
        from inspector.core.analysis.numeric_check import UnsafeGraphError, numeric_check

        if not self.rows or not self.bench.outputs:
            self.w.preview_panel.check_result.setText("Mark outputs and add steps first.")
            return
        before, after = self.engine.graph_def, self.final_graph_def()
        ins, outs = list(self.bench.inputs), list(self.bench.outputs)
        shapes, _ = self.w.input_shapes_and_types()

        def done(results):
            lines = [f"{r.name}: max abs error {r.max_abs_error:.3g}, max rel error "
                     f"{r.max_rel_error:.3g}" + ("" if r.top1_agreement is None else
                                                 f", top-1 agreement {100 * r.top1_agreement:.0f}%")
                     for r in results]
            self.w.preview_panel.check_result.setText("\n".join(lines))
            self.last_check = results

        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.w.consent.ask(self.w, exc, "Checking the outputs"):
                    self.check_outputs(True)
                return
            self.w.preview_panel.check_result.setText(getattr(exc, "message", str(exc)))

        self.w.runner.submit("check", lambda c: numeric_check(before, after, ins, outs, shapes,
                                                              allow_io=allow_io),
                             done, failed, "Running both graphs in TensorFlow")

    def save_graph(self, path: str | None = None) -> str | None:
        from inspector.core.formats.writer import write_graph

        graph_def = self.final_graph_def()
        model = self.w.session.model
        if graph_def is None or model is None:
            return None
        if path is None:
            base, _ = os.path.splitext(model.path.rstrip("/"))
            path, _ = QFileDialog.getSaveFileName(self.w, "Save optimized graph",
                                                  base + "_optimized.pb",
                                                  "Binary GraphDef (*.pb);;Text (*.pbtxt)")
            if not path:
                return None
        same = os.path.exists(path) and os.path.exists(model.path) and \
            os.path.samefile(path, model.path)
        if same and QMessageBox.question(
                self.w, "Overwrite the source model?",
                f"{path} is the model you opened. Replace it with the optimized graph?") \
                != QMessageBox.Yes:
            return None
        try:
            write_graph(graph_def, path, as_text=path.endswith(".pbtxt"), force=True)
        except (InspectorError, OSError) as exc:
            self.w.show_error(f"Could not save: {exc}")
            return None
        self.w.session.message.emit(f"Saved {len(graph_def.node)} nodes to {path}")
        return path
