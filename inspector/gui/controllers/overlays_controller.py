"""Runs profiling and calibration off the GUI thread and turns their results into overlay
colours and badges for the canvas."""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from inspector.core.errors import InspectorError
from inspector.core.errors import Cancelled
from inspector.gui.panels.overlays_panel import heat_colour


class OverlaysController(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.w = window
        self.p = window.overlays_panel
        self.mode = "none"
        self.profiles: list = []
        self.records: dict = {}          # RequantizationRange node -> [(min, max), ...]
        self.log_text = ""
        self.calibration = None
        p = self.p
        p.mode_changed.connect(self.set_mode)
        p.profile_button.clicked.connect(lambda: self.profile(False))
        p.import_timings.clicked.connect(lambda: self.import_timings())
        p.profile_choice.currentIndexChanged.connect(lambda *_: self._refresh())
        p.calibrate_random.clicked.connect(lambda: self.calibrate(None))
        p.calibrate_folder.clicked.connect(self._calibrate_folder)
        p.import_ranges.clicked.connect(lambda: self.import_ranges())
        p.freeze_button.clicked.connect(lambda: self.freeze())
        p.copy_tables.clicked.connect(self.copy_tables)
        p.export_tables.clicked.connect(lambda: self.export_tables())
        p.min_pct.valueChanged.connect(lambda *_: self._refresh())
        p.max_pct.valueChanged.connect(lambda *_: self._refresh())
        window.session.selection_changed.connect(lambda *_: self._histogram())

    # -- state --------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.mode = mode
        button = self.p.mode_buttons[mode]
        if not button.isChecked():
            button.setChecked(True)
        if mode != "none":
            self.w.overlays_dock.raise_()
            self.p.tabs.setCurrentIndex(0 if mode == "timings" else 1)
        self._refresh()

    @property
    def profile_now(self):
        i = self.p.profile_choice.currentIndex()
        return self.profiles[i] if 0 <= i < len(self.profiles) else None

    def chosen_ranges(self) -> dict:
        from inspector.core.analysis.ranges import percentile_range

        return {n: percentile_range(p, self.p.min_pct.value(), self.p.max_pct.value())
                for n, p in self.records.items()}

    def _refresh(self) -> None:
        view = self.w.session.view
        if self.profile_now is not None and view is not None:
            self.p.show_profile(self.profile_now, view.graph)
        if self.records:
            from inspector.core.analysis.ranges import range_warnings

            self.p.show_warnings(range_warnings(self.chosen_ranges()))
        self._legend()
        self.w.apply_marks()

    def _legend(self) -> None:
        if self.mode == "timings" and self.profile_now is not None:
            top = max(self.profile_now.by_graph_node(self.w.session.view.graph).values(),
                      default=0.0)
            self.p.legend.setText(f"Colour: average time per node, pale 0 ms → red {top:.3f} ms; "
                                  "collapsed scopes show the sum of their nodes.")
        elif self.mode == "ranges" and self.records:
            self.p.legend.setText("Badges: [min, max] frozen from the log at the chosen "
                                  "percentiles; colour: range width (pale narrow → red wide).")
        else:
            self.p.legend.setText("")

    # -- what the canvas shows ----------------------------------------------------------
    def decorate(self, view, items: dict, visible_id) -> tuple:
        """(item -> fill colour, item -> badge text) for the current overlay."""
        values, badges = {}, {}
        if self.mode == "timings" and self.profile_now is not None:
            for name, ms in self.profile_now.by_graph_node(view.graph).items():
                item = visible_id(name)
                values[item] = values.get(item, 0.0) + ms
            badges = {k: f"{v:.3f} ms" if v < 10 else f"{v:.1f} ms" for k, v in values.items()}
        elif self.mode == "ranges" and self.records:
            from inspector.core.overlays.calibration import original_name

            for name, (lo, hi) in self.chosen_ranges().items():
                target = original_name(name)
                if target not in view.graph:
                    target = name if name in view.graph else None
                if target is None:
                    continue
                item = visible_id(target)
                values[item] = max(values.get(item, 0.0), hi - lo)
                badges[item] = f"[{lo:.3g}, {hi:.3g}]"
        top = max(values.values(), default=0.0) or 1.0
        heat = {k: heat_colour(v / top) for k, v in values.items() if k in items}
        return heat, badges

    # -- timings ------------------------------------------------------------------------
    def _io(self):
        ins, outs = list(self.w.workbench.inputs), list(self.w.workbench.outputs)
        if not outs:
            summary = self.w.summary_panel.summary
            if summary is not None:
                ins = ins or [c.name for c in summary.inputs if c.score >= 100][:1]
                outs = [c.name for c in summary.outputs if c.score >= 100][:1]
        if not outs:
            raise InspectorError("mark at least one output (and the inputs) first")
        return ins, outs

    def _io_or_report(self):
        try:
            return self._io()
        except InspectorError as exc:
            self.w.show_error(exc.one_line())
            return None

    def _graph_for_run(self, ins, shapes):
        """The stripped subgraph between the inputs and outputs, so fed inputs cut the graph."""
        from inspector.core.transforms import run_pipeline

        gd = self.w.controller.original_view.graph.graph_def
        if not ins:
            return gd
        spec = " ".join(f'strip_unused_nodes(name={i}, type_for_name=float, shape_for_name="'
                        + ",".join(str(d) for d in shapes.get(i.split(':')[0], ())) + '")'
                        for i in ins[:1])
        return run_pipeline(gd, spec, ins, self._io()[1])[-1].graph_def

    def profile(self, allow_io: bool) -> None:
        from inspector.core.analysis.numeric_check import UnsafeGraphError
        from inspector.core.overlays.profiling import run_profile

        io = self._io_or_report()
        if io is None:
            return
        ins, outs = io
        shapes, _ = self.w.input_shapes_and_types()
        warmup, runs = self.p.warmup.value(), self.p.runs.value()
        intra, inter = self.p.intra.value(), self.p.inter.value()
        progress = self.w.progress_changed.emit
        mode = ("random", "zeros", "npy")[self.p.feed_mode.currentIndex()]
        npy_items = [item.strip() for item in self.p.npy.text().split(",") if item.strip()] \
            if mode == "npy" else []

        def work(cancel):
            from inspector.core.loaders.arrays import load_npy, parse_npy_args

            arrays = {n: load_npy(p) for n, p in parse_npy_args(npy_items).items()}
            gd = self._graph_for_run(ins, shapes)
            return run_profile(gd, ins, outs, shapes, "zeros" if mode == "zeros" else "random",
                               0, arrays, warmup=warmup, runs=runs, intra=intra, inter=inter,
                               allow_io=allow_io, cancel=cancel, progress=progress)

        def failed(exc):
            if isinstance(exc, Cancelled):
                return
            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.w.consent.ask(self.w, exc, "Profiling"):
                    self.profile(True)
                return
            self.w.show_error(getattr(exc, "message", None) or str(exc))

        self.w.runner.submit("profile", work, self.add_profile, failed, "Profiling")

    def add_profile(self, profile) -> None:
        view = self.w.controller.original_view
        if view is not None:
            profile.match(view.graph)
        self.profiles.append(profile)
        self.p.profile_choice.addItem(f"{len(self.profiles)}: {profile.source}")
        self.p.profile_choice.setCurrentIndex(len(self.profiles) - 1)
        self.set_mode("timings")

    def import_timings(self, path: str | None = None) -> None:
        from inspector.core.overlays.profiling import load_profile_file

        path = path or QFileDialog.getOpenFileName(self.w, "Import timings")[0]
        if not path:
            return
        try:
            profile = load_profile_file(path)
        except InspectorError as exc:
            self.w.show_error(exc.one_line())
            return
        profile.source = f"{os.path.basename(path)} ({profile.source})"
        self.add_profile(profile)

    def copy_tables(self) -> str:
        from PySide6.QtWidgets import QApplication

        text = self.profile_now.text if self.profile_now else ""
        QApplication.clipboard().setText(text)
        return text

    def export_tables(self, path: str | None = None) -> str | None:
        from inspector.core.formats.writer import atomic_write

        if self.profile_now is None or not self.profile_now.text:
            return None
        path = path or QFileDialog.getSaveFileName(self.w, "Export tables", "timings.txt")[0]
        if path:
            atomic_write(path, self.profile_now.text, force=True)
        return path or None

    # -- ranges -------------------------------------------------------------------------
    def _calibrate_folder(self) -> None:
        folder = self.p.ask_folder()
        if folder:
            kind = "npy" if any(f.endswith(".npy") for f in os.listdir(folder)) else "images"
            self.calibrate({"kind": kind, "path": folder, "mean": self.p.mean.value(),
                            "std": self.p.std.value()})

    def calibrate(self, data: dict | None, allow_io: bool = False) -> None:
        from inspector.core.overlays.calibration import calibrate, compare_on_samples
        from inspector.core.transforms.freeze_requantization_ranges import freeze_with_ranges

        io = self._io_or_report()
        if io is None:
            return
        ins, outs = io
        shapes, _ = self.w.input_shapes_and_types()
        shape = shapes.get(ins[0].split(":")[0]) if ins else None
        if shape is None:
            self.w.show_error("calibration needs a marked input with a known shape")
            return
        data = data or {"kind": "random", "count": self.p.samples.value(), "seed": 0}
        gd = self.w.controller.original_view.graph.graph_def
        lo, hi = self.p.min_pct.value(), self.p.max_pct.value()
        progress = self.w.progress_changed.emit

        def work(cancel):
            result = calibrate(gd, ins, outs, shape, data, cancel=cancel, progress=progress,
                               allow_io=allow_io)
            frozen = freeze_with_ranges(result.quantized, result.ranges(lo, hi))
            compared = compare_on_samples(gd, frozen, ins, outs, result.inputs[:8], shapes,
                                          allow_io=allow_io)
            return result, compared

        def done(pair):
            result, compared = pair
            self.calibration, self.records, self.log_text = result, result.log.records, \
                result.log_text
            self.p.compare.setText("\n".join(
                f"{r.name}: float vs eight-bit max abs error {r.max_abs_error:.3g}"
                + ("" if r.top1_agreement is None else
                   f", top-1 agreement {100 * r.top1_agreement:.0f}%") for r in compared)
                + f"\n({result.samples} inputs, {len(result.log.records)} ranges logged)")
            self.set_mode("ranges")

        def failed(exc):
            from inspector.core.analysis.numeric_check import UnsafeGraphError

            if isinstance(exc, UnsafeGraphError):
                if not allow_io and self.w.consent.ask(self.w, exc, "Calibrating"):
                    self.calibrate(data, True)
            elif not isinstance(exc, Cancelled):
                self.w.show_error(getattr(exc, "message", None) or str(exc))

        self.w.runner.submit("calibrate", work, done, failed, "Calibrating")

    def import_ranges(self, path: str | None = None) -> None:
        from inspector.core.analysis.ranges import parse_log

        path = path or QFileDialog.getOpenFileName(self.w, "Import a range log")[0]
        if not path:
            return
        from inspector.core.loaders.files import read_text

        try:
            text = read_text(path, what="the range log", error=InspectorError)
        except InspectorError as exc:
            self.w.show_error(exc.one_line())
            return
        log = parse_log(text)
        if not log.records:
            self.w.show_error(f"{path}: no min/max range logs were found")
            return
        self.records, self.log_text = log.records, text
        self.set_mode("ranges")

    def _histogram(self) -> None:
        name = self.w.session.selected
        if not name or not self.records:
            return
        key = next((k for k in self.records if k == name or
                    k.replace("/eightbit/requant_range", "") == name), None)
        if key is not None:
            self.p.show_histogram(self.records[key], self.chosen_ranges()[key])

    def freeze(self) -> str | None:
        """Save the log beside the model and put quantize + freeze steps in the pipeline."""
        from inspector.core.transforms.syntax import quote
        from inspector.core.formats.writer import atomic_write

        model = self.w.session.model
        if not self.records or model is None:
            self.w.show_error("calibrate or import a range log first")
            return None
        path = model.path.rstrip("/") + ".ranges.log"
        atomic_write(path, self.log_text, force=True)
        bench = self.w.workbench
        steps = bench.text
        if "quantize_nodes" not in steps:
            steps += " quantize_nodes"
        freeze = (f"freeze_requantization_ranges(min_max_log_file={quote(path)}, "
                  f"min_percentile={self.p.min_pct.value():g}, "
                  f"max_percentile={self.p.max_pct.value():g})")
        bench.set_text(" ".join(s for s in steps.split(" ") if s) + " " + freeze
                       if "freeze_requantization_ranges" not in steps else steps)
        self.w.preview_dock.raise_()
        return path
