"""Timings and ranges, the adapter: panel signals start the use cases of
core.app.overlay_runs (profiling, calibration, imports, freezing), which put their results in
the state's overlay; overlay changes go back to the panel. Consent to run a graph that is not
pure computation is asked here, in a dialog."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog

from inspector.core.app import overlay_runs as runs
from inspector.core.app.exports import beside
from inspector.core.app.opening import model_can
from inspector.core.app.decorations import overlay_entry
from inspector.core.errors import Cancelled, InspectorError, UnsafeGraphError
from inspector.gui.wording import said


class OverlaysController(QObject):
    def __init__(self, state, tasks, panel, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.p, self.dialogs = state, tasks, panel, dialogs
        p = panel
        p.mode_changed.connect(self.set_mode)
        p.profile_requested.connect(lambda: self.profile(False))
        p.import_timings_requested.connect(lambda: self.import_timings())
        p.profile_chosen.connect(self._choose_profile)
        p.calibrate_requested.connect(self._calibrate_requested)
        p.import_ranges_requested.connect(lambda: self.import_ranges())
        p.freeze_requested.connect(lambda: self.freeze())
        p.copy_tables_requested.connect(self.copy_tables)
        p.export_tables_requested.connect(lambda: self.export_tables())
        p.percentiles_changed.connect(self._percentiles)
        state.overlay_changed.connect(self._show)
        state.selection_changed.connect(lambda *_: self._histogram())
        state.model_changed.connect(lambda *_: self._model_changed())
        if state.model is not None:      # made after a model was opened (window_later)
            self.caught_up()

    # -- state ------------------------------------------------------------------------------
    @property
    def overlay(self):
        return self.state.overlay

    @property
    def profiles(self):
        return self.overlay.profiles

    @property
    def profile_now(self):
        return self.overlay.profile

    @property
    def records(self):
        return self.overlay.records

    def caught_up(self) -> None:
        """The open model's overlay and the selected node's histogram, shown as if the
        panel had been there when they were chosen."""
        self._model_changed()
        self._histogram()

    def _model_changed(self):
        self.p.reset()
        model = self.state.model
        self.p.allow_compat(model is None or model_can(model, "convert"))
        self._show(self.overlay)   # a new model starts with no overlay: the buttons say so

    def set_mode(self, mode: str) -> None:
        if mode != self.overlay.mode:
            self.state.set_overlay(replace(self.overlay, mode=mode))

    def _choose_profile(self, index: int) -> None:
        if 0 <= index < len(self.profiles) and index != self.overlay.current:
            self.state.set_overlay(replace(self.overlay, current=index))

    def _percentiles(self, lo: float, hi: float) -> None:
        self.state.set_overlay(replace(self.overlay, min_percentile=lo, max_percentile=hi))

    def _show(self, overlay) -> None:
        self.p.show_mode(overlay.mode, self._legend(overlay))
        self.p.show_profiles([f"{i + 1}: {p.source}" for i, p in enumerate(overlay.profiles)],
                             overlay.current)
        self.p.show_comparison(overlay.comparison)
        view = self.state.view
        if overlay.profile is not None and view is not None:
            self.p.show_profile(overlay.profile, view.graph)
            if overlay.profile is not getattr(self, "_profile_shown", None):   # a new one
                self._profile_shown = overlay.profile
                QTimer.singleShot(0, self.p, self.p.bring_timings_into_view)   # laid out
        if overlay.records:
            self.p.show_warnings(runs.range_warnings(self.state))

    def _legend(self, overlay) -> str:
        entry = overlay_entry(overlay.mode)
        return entry.legend(self.state) if entry is not None else ""

    def _io(self):
        return runs.ports(self.state)

    def _failed(self, what: str, retry):
        """An error from a run: a graph that is not pure computation asks first (`retry`
        runs it again with consent); the rest is reported."""
        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if retry is not None and self.dialogs.consent(exc, what):
                    retry()
            elif not isinstance(exc, Cancelled):
                self.state.fail(said(exc))
        return failed

    # -- timings -------------------------------------------------------------------------------
    def profile(self, allow_io: bool) -> None:
        settings = self.p.profile_settings()  # values taken here, on the GUI thread
        runs.start_profile(self.state, self.tasks, settings,
                           self._failed("Profiling", None if allow_io else
                                        lambda: self.profile(True)), allow_io)

    def add_profile(self, profile) -> None:
        runs.add_profile(self.state, profile)

    def import_timings(self, path: str | None = None) -> None:
        path = path or QFileDialog.getOpenFileName(self.p, "Import timings",
                                                   self.dialogs.model_folder())[0]
        if path:
            self._report(lambda: runs.import_timings(self.state, path))

    def copy_tables(self) -> str:
        text = self.profile_now.text if self.profile_now else ""
        QApplication.clipboard().setText(text)
        return text

    def export_tables(self, path: str | None = None) -> str | None:
        if self.profile_now is None or not self.profile_now.text:
            return None
        path = path or QFileDialog.getSaveFileName(
            self.p, "Export tables", beside(self.state.model.path if self.state.model else None,
                                            "_timings.txt"))[0]
        if path and self._report(lambda: runs.export_timings(self.state, path)):
            return path
        return None

    # -- ranges --------------------------------------------------------------------------------
    def _calibrate_requested(self, folder) -> None:
        self.calibrate(runs.calibration_data(folder, self.p.calibration_settings())
                       if folder else None)

    def calibrate(self, data: dict | None, allow_io: bool = False) -> None:
        settings = self.p.calibration_settings()
        runs.start_calibrate(self.state, self.tasks, settings, data,
                             self._failed("Calibrating", None if allow_io else
                                          lambda: self.calibrate(data, True)), allow_io)

    def import_ranges(self, path: str | None = None) -> None:
        path = path or QFileDialog.getOpenFileName(self.p, "Import a range log",
                                                   self.dialogs.model_folder())[0]
        if path:
            self._report(lambda: runs.import_ranges(self.state, path))

    def _histogram(self) -> None:
        name = self.state.selected
        found = runs.histogram_of(self.state, name) if name else None
        if found is not None:
            self.p.show_histogram(*found)

    def freeze(self) -> str | None:
        """Save the log beside the model and put quantize + freeze steps in the pipeline."""
        path = []
        self._report(lambda: path.append(runs.freeze_ranges(self.state)))
        return path[0] if path else None

    # -- Model Explorer node data ---------------------------------------------------------------
    def import_node_data(self, path: str | None = None) -> None:
        """A node-data file read and matched in a task, then shown as the overlay."""
        from inspector.core.app import node_data_io

        view = self.state.original_view or self.state.view
        if view is None:
            return
        path = path or QFileDialog.getOpenFileName(
            self.p, "Import Model Explorer node data", self.dialogs.model_folder(),
            "Node data (*.json);;All files (*)")[0]
        if not path:
            return

        def failed(exc):
            if not isinstance(exc, Cancelled):
                self.state.fail(said(exc))

        node_data_io.start_import(self.state, self.tasks, path, failed)

    def export_node_data(self, path: str | None = None) -> str | None:
        """The overlay shown, written as Model Explorer node-data JSON (in a task)."""
        from inspector.core.app import node_data_io

        mode = self.overlay.mode
        if mode == "none" or mode not in dict(node_data_io.exportable(self.state)):
            self.state.fail("Show an overlay with data first (timings, ranges, TFLite, "
                            "targets or node data), then export it.")
            return None
        path = path or QFileDialog.getSaveFileName(
            self.p, "Export overlay as Model Explorer node data",
            beside(self.state.model.path if self.state.model else None, f"_{mode}.json"),
            "Node data (*.json)")[0]
        if not path:
            return None

        def failed(exc):
            if not isinstance(exc, Cancelled):
                self.state.fail(said(exc))

        node_data_io.start_export(self.state, self.tasks, path, mode, failed)
        return path

    def _report(self, fn) -> bool:
        try:
            fn()
        except InspectorError as exc:
            self.state.fail(said(exc))
            return False
        return True
