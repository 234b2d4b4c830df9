"""Phone (TFLite) controller: the compatibility analysis runs off the GUI thread and becomes
the "compat" overlay; the converter, the conversion preview and the ops header run where
TensorFlow lives (the worker), asking first when the graph is not pure computation."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog

from inspector.core.app import inputs, selective_build, tflite_check
from inspector.core.app.exports import beside, start_memmapped, temporary_copy
from inspector.core.app.ports import ports_to_use
from inspector.core.errors import Cancelled, InspectorError, UnsafeGraphError
from inspector.gui.controllers.tflite_files import save_tflite
from inspector.gui.wording import said


class MobileController(QObject):
    window_wanted = Signal(str)     # a .tflite to show in a window of its own

    def __init__(self, state, tasks, panel, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.p, self.dialogs = state, tasks, panel, dialogs
        p = panel
        p.check_requested.connect(self.check)
        p.confirm_requested.connect(lambda: self.confirm(False))
        p.convert_requested.connect(lambda: self.convert_clicked())
        p.save_requested.connect(lambda v: self.save(v))
        p.measured_requested.connect(lambda v: self.load_measured(v))
        p.open_requested.connect(lambda v: self.open_variant(v))
        p.header_requested.connect(lambda: self.write_header())
        p.source_wanted.connect(lambda kind: self.choose_source(kind))
        p.sizes_given.connect(lambda text: self.give_sizes(text))
        state.model_changed.connect(lambda *_: self._model_changed())
        state.summary_changed.connect(lambda *_: self._show_sizes())
        state.workbench.changed.connect(self._show_sizes)
        state.workbench.changed.connect(self._show_marks)       # marks, pipeline, sizes
        state.summary_changed.connect(lambda *_: self._show_marks())   # the likely ones
        state.overlay_changed.connect(self._overlay_changed)
        state.tflite_check_changed.connect(self._show_check)
        state.tflite_preview_changed.connect(self._show_preview)
        state.ops_header_changed.connect(self._show_header)
        self._show_check(state.tflite_check)          # what happened before it existed
        self._show_marks()
        self._show_header(state.ops_header)
        if state.overlay is not None:
            self._overlay_changed(state.overlay)

    # -- ports ------------------------------------------------------------------------------
    def ports(self) -> tuple[list, list]:
        """Marked inputs/outputs, else the likely ones (raises when there is no output)."""
        return tflite_check.ports(self.state)

    def _show_marks(self) -> None:
        """The inputs and outputs the check uses (the marks, else the likely ones), again
        whenever the marks change."""
        if self.state.model is None:
            return
        bench, check = self.state.workbench, self.state.tflite_check
        used = ports_to_use(bench.inputs, bench.outputs, self.state.summary)
        self.p.show_marks((list(bench.inputs), list(bench.outputs)), used,
                          None if check is None else (check.inputs, check.outputs))

    def _model_changed(self) -> None:
        self.p.reset()
        self._show_sizes()
        self._show_marks()

    # -- an any-size input's size (inputs.set_input_sizes: tflite --input-shape's rules) ----
    def give_sizes(self, text: str) -> bool:
        """The Input sizes field's text given: kept for the model, then the conversion runs
        at it. A bad item is said, and nothing runs."""
        try:
            inputs.set_input_sizes(self.state, text)
        except InspectorError as exc:
            self.state.fail(said(exc))
            return False
        self.convert(False)
        return True

    def convert_clicked(self) -> None:
        """Convert four variants: sizes typed in the Input sizes field without Enter are
        given first (they were left out: the conversion ran at 1 for each open size)."""
        text = self.p.sizes.text()
        try:
            typed = inputs.parse_sizes(text.replace(";", " ").split())
        except InspectorError:
            typed = None                  # give_sizes says what is wrong; nothing runs
        if typed != self.state.workbench.input_shapes:
            self.give_sizes(text)
        else:
            self.convert(False)

    def _show_sizes(self) -> None:
        view = self.state.original_view
        if view is None:
            self.p.show_sizes({}, {})
            return
        ins, _ = ports_to_use(self.state.workbench.inputs, (), self.state.summary)
        self.p.show_sizes(self.state.workbench.input_shapes, inputs.open_sizes(view.graph, ins))

    def _overlay_changed(self, overlay) -> None:
        if overlay.mode == "compat" and not overlay.compat and self.state.model is not None \
                and not self.tasks.is_busy("tflite_compat"):
            self.check()      # the overlay was chosen before any check: run it now

    # -- compatibility (the use case and its result live in core.app.tflite_check) ----------
    def check(self) -> None:
        tflite_check.start_check(self.state, self.tasks, self._failed(None))

    def confirm(self, allow_io: bool) -> None:
        tflite_check.start_confirm(self.state, self.tasks, self._failed(self.confirm), allow_io)

    def _show_check(self, check) -> None:
        if check is None:
            return
        self.p.show_compat(check.compat, list(check.inputs), list(check.outputs))
        if check.confirmed:
            self.p.show_confirmed(check.confirmed)
        self._show_marks()                 # (marked since? said beside the check's ports)

    # -- conversion preview ----------------------------------------------------------------
    def choose_source(self, kind: str, paths: list | None = None) -> None:
        if paths is None:
            start = os.path.dirname(self.state.model.path) if self.state.model else ""
            if kind == "folder":
                folder = QFileDialog.getExistingDirectory(self.p, "Folder of photos", start)
                paths = [folder] if folder else []
            else:
                paths = QFileDialog.getOpenFileNames(self.p, ".npy files", start,
                                                     "NumPy arrays (*.npy)")[0]
        self.p.set_source(kind, paths)

    def convert(self, allow_io: bool) -> None:
        tflite_check.start_preview(self.state, self.tasks, self.p.source_spec(),
                                   self.p.compare.value(), self._failed(self.convert), allow_io)

    def _show_preview(self, preview) -> None:
        if preview is not None:
            self.p.show_preview(preview)

    def _converted(self, variant: str):
        """The previewed variant's row when it converted, else None."""
        preview = self.state.tflite_preview
        return next((r for r in (preview.variants if preview else [])
                     if r.variant == variant and r.model), None)

    def save(self, variant: str, path: str | None = None) -> str | None:
        row = self._converted(variant)
        if row is None:
            return None
        return save_tflite(self.p, self.state, row.model, variant, path)

    def open_variant(self, variant: str, show: bool = True) -> str | None:
        """Write the variant to a private temporary folder and ask for a window showing it
        beside this one (the TFLite ops carry the names of the nodes they came from)."""
        row = self._converted(variant)
        if row is None:
            return None
        path = temporary_copy(self.state.model.path, variant, row.model)
        if show:
            self.window_wanted.emit(path)
        return path

    def load_measured(self, variant: str, path: str | None = None) -> float | None:
        """A benchmark_model log of this variant run on a device: its measured time."""
        row = self._converted(variant)
        if row is None:
            return None
        if path is None:
            path = QFileDialog.getOpenFileName(self.p, "benchmark_model output",
                                               os.path.dirname(self.state.model.path),
                                               "Logs (*.txt *.log);;All files (*)")[0]
            if not path:
                return None
        current = self.p.chosen()
        try:
            measured = tflite_check.measure(self.state, variant, path)   # -> the panel
        except InspectorError as exc:
            self.state.fail(f"{os.path.basename(path)}: {said(exc)}")
            return None
        self.p.table.selectRow(next(k for k, r in enumerate(self.state.tflite_preview.variants)
                                    if r.variant == (current or variant)))
        return measured

    def save_memmapped(self, path: str | None = None) -> None:
        """The open graph as a memory-mapped package (written off the GUI thread)."""
        model = self.state.model
        if model is None:
            return
        force = path is None
        if path is None:    # Qt's save dialog asks before replacing an existing file
            path = QFileDialog.getSaveFileName(self.p, "Save memory-mapped package",
                                               beside(model.path, "_memmapped.pb"),
                                               "Memory-mapped GraphDef (*.pb *.mmap)")[0]
            if not path:
                return
        start_memmapped(self.state, self.tasks, path, self._failed(None), force)

    # -- selective registration (the use case and its result: core.app.selective_build) ----
    def write_header(self, path: str | None = None) -> None:
        model = self.state.model
        if self.state.engine is None or model is None:
            return
        force = path is None
        if path is None:
            path = QFileDialog.getSaveFileName(self.p, "Save ops_to_register.h",
                                               os.path.join(os.path.dirname(model.path),
                                                            "ops_to_register.h"),
                                               "C++ header (*.h)")[0]
            if not path:
                return
        selective_build.start_header(self.state, self.tasks, path, self._failed(None), force)

    def _show_header(self, header) -> None:
        if header is not None:
            self.p.show_header(header.text, header.path, list(header.ops),
                               list(header.kernels), list(header.missing))

    def _failed(self, retry):
        def failed(exc):
            if isinstance(exc, Cancelled):
                return
            if isinstance(exc, UnsafeGraphError) and retry is not None:
                if self.dialogs.consent(exc, "Converting to TFLite"):
                    retry(True)
                return
            self.state.fail(said(exc))
        return failed
