"""Timings and ranges: profiling and calibration run off the GUI thread (asking first when
the graph is not pure computation), imports read off disk safely, and the results kept in the
state's OverlayState, which the canvas paints and the overlays panel charts."""

from __future__ import annotations

import os
from dataclasses import replace

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QFileDialog

from inspector.core.app.inputs import input_shapes_and_types
from inspector.core.app.opening import model_can
from inspector.core.app.ports import ports_to_use
from inspector.core.errors import Cancelled, InspectorError, UnsafeGraphError
from inspector.core.formats.writer import beside
from inspector.core.overlays import registry as overlay_registry
from inspector.core.overlays.decorate import chosen_ranges, original_name


class OverlaysController(QObject):
    def __init__(self, state, tasks, panel, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.p, self.dialogs = state, tasks, panel, dialogs
        self.calibration = None
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

    def _model_changed(self):
        self.calibration = None
        self.p.show_profiles([], -1)
        self.p.show_comparison("")
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
        view = self.state.view
        if overlay.profile is not None and view is not None:
            self.p.show_profile(overlay.profile, view.graph)
        if overlay.records:
            from inspector.core.analysis.ranges import range_warnings

            self.p.show_warnings(range_warnings(chosen_ranges(overlay)))

    def _legend(self, overlay) -> str:
        entry = overlay_registry.get(overlay.mode)
        return entry.legend(self.state) if entry is not None else ""

    # -- timings -------------------------------------------------------------------------------
    def _io(self):
        bench = self.state.workbench
        ins, outs = ports_to_use(bench.inputs, bench.outputs, self.state.summary)
        if not outs:
            raise InspectorError("mark at least one output (and the inputs) first")
        return ins, outs

    def _io_or_report(self):
        try:
            return self._io()
        except InspectorError as exc:
            self.state.fail(exc.one_line())
            return None

    def profile(self, allow_io: bool) -> None:
        io = self._io_or_report()
        engine = self.state.engine
        if io is None or self.state.original_view is None or engine is None:
            return
        ins, outs = io
        shapes, _ = input_shapes_and_types(self.state)
        ps = self.p.profile_settings()  # values taken here, on the GUI thread

        def work(task):
            from inspector.core.loaders.arrays import load_npy, parse_npy_args

            arrays = {n: load_npy(f) for n, f in parse_npy_args(ps.npy_items).items()}
            return engine.profile(ins, outs, shapes,
                               "zeros" if ps.feed == "zeros" else "random", arrays,
                               ps.warmup, ps.runs, ps.intra, ps.inter, allow_io=allow_io,
                               job=task)

        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.dialogs.consent(exc, "Profiling"):
                    self.profile(True)
                return
            self.state.fail(getattr(exc, "message", None) or str(exc))

        self.tasks.submit("profile", work, self.add_profile, failed, label="Profiling")

    def add_profile(self, profile) -> None:
        view = self.state.original_view
        if view is not None:
            profile.match(view.graph)
        profiles = self.profiles + (profile,)
        self.p.show_profiles([f"{i + 1}: {p.source}" for i, p in enumerate(profiles)],
                             len(profiles) - 1)
        self.state.set_overlay(replace(self.overlay, profiles=profiles,
                                       current=len(profiles) - 1, mode="timings"))

    def import_timings(self, path: str | None = None) -> None:
        from inspector.core.overlays.profiling import load_profile_file

        path = path or QFileDialog.getOpenFileName(self.p, "Import timings")[0]
        if not path:
            return
        try:
            profile = load_profile_file(path)
        except InspectorError as exc:
            self.state.fail(exc.one_line())
            return
        profile.source = f"{os.path.basename(path)} ({profile.source})"
        self.add_profile(profile)

    def copy_tables(self) -> str:
        text = self.profile_now.text if self.profile_now else ""
        QApplication.clipboard().setText(text)
        return text

    def export_tables(self, path: str | None = None) -> str | None:
        from inspector.core.formats.writer import atomic_write

        if self.profile_now is None or not self.profile_now.text:
            return None
        path = path or QFileDialog.getSaveFileName(
            self.p, "Export tables", beside(self.state.model.path if self.state.model else None,
                                            "_timings.txt"))[0]
        if path:
            try:
                atomic_write(path, self.profile_now.text, force=True)  # the dialog asked
            except InspectorError as exc:
                self.state.fail(exc.one_line())
                return None
        return path or None

    # -- ranges --------------------------------------------------------------------------------
    def _calibrate_requested(self, folder) -> None:
        if not folder:
            self.calibrate(None)
            return
        cs = self.p.calibration_settings()
        kind = "npy" if any(f.endswith(".npy") for f in os.listdir(folder)) else "images"
        self.calibrate({"kind": kind, "path": folder, "mean": cs.mean, "std": cs.std})

    def calibrate(self, data: dict | None, allow_io: bool = False) -> None:
        from inspector.core.overlays.calibration import quality_hint

        io = self._io_or_report()
        engine = self.state.engine
        if io is None or engine is None:
            return
        ins, outs = io
        shapes, _ = input_shapes_and_types(self.state)
        shape = shapes.get(ins[0].split(":")[0]) if ins else None
        if shape is None:
            self.state.fail("calibration needs a marked input with a known shape")
            return
        cs = self.p.calibration_settings()
        data = data or {"kind": "random", "count": cs.samples, "seed": 0}
        lo, hi = cs.min_percentile, cs.max_percentile

        def work(task):
            return engine.calibrate(ins, outs, shape, shapes, data, lo, hi,
                               allow_io=allow_io, job=task)

        def done(pair):
            result, compared = pair
            self.calibration = result
            self.p.show_comparison("\n".join(
                f"{r.name}: float vs eight-bit max abs error {r.max_abs_error:.3g}"
                + ("" if r.top1_agreement is None else
                   f", top-1 agreement {100 * r.top1_agreement:.0f}%") for r in compared)
                + f"\n({result.samples} inputs, {len(result.log.records)} ranges logged)\n"
                + quality_hint(compared))
            self.state.set_overlay(replace(self.overlay, records=result.log.records,
                                           log_text=result.log_text, mode="ranges"))

        def failed(exc):
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.dialogs.consent(exc, "Calibrating"):
                    self.calibrate(data, True)
            elif not isinstance(exc, Cancelled):
                self.state.fail(getattr(exc, "message", None) or str(exc))

        self.tasks.submit("calibrate", work, done, failed, label="Calibrating")

    def import_ranges(self, path: str | None = None) -> None:
        from inspector.core.analysis.ranges import parse_log
        from inspector.core.loaders.files import read_text

        path = path or QFileDialog.getOpenFileName(self.p, "Import a range log")[0]
        if not path:
            return
        try:
            text = read_text(path, what="the range log", error=InspectorError)
        except InspectorError as exc:
            self.state.fail(exc.one_line())
            return
        log = parse_log(text)
        if not log.records:
            self.state.fail(f"{path}: no min/max range logs were found")
            return
        self.state.set_overlay(replace(self.overlay, records=log.records, log_text=text,
                                       mode="ranges"))

    def _histogram(self) -> None:
        name = self.state.selected
        if not name or not self.records:
            return
        key = next((k for k in self.records if k == name or original_name(k) == name), None)
        if key is not None:
            self.p.show_histogram(self.records[key], chosen_ranges(self.overlay)[key])

    def freeze(self) -> str | None:
        """Save the log beside the model and put quantize + freeze steps in the pipeline."""
        from inspector.core.formats.writer import atomic_write
        from inspector.core.transforms.syntax import quote

        model = self.state.model
        if not self.records or model is None:
            self.state.fail("calibrate or import a range log first")
            return None
        path = model.path.rstrip("/") + ".ranges.log"
        try:
            atomic_write(path, self.overlay.log_text, force=True)  # our own file
        except InspectorError as exc:
            self.state.fail(exc.one_line())
            return None
        bench = self.state.workbench
        steps = bench.text
        if "quantize_nodes" not in steps:
            steps += " quantize_nodes"
        freeze = (f"freeze_requantization_ranges(min_max_log_file={quote(path)}, "
                  f"min_percentile={self.overlay.min_percentile:g}, "
                  f"max_percentile={self.overlay.max_percentile:g})")
        bench.set_text(" ".join(s for s in steps.split(" ") if s) + " " + freeze
                       if "freeze_requantization_ranges" not in steps else steps)
        return path
