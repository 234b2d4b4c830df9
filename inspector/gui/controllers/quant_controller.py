"""Quantization controller: the Quantization tab's signals -> the use cases of
core/app/quantization.py (recipes run in the worker), state.quant -> the tab; new results
put the "quant_error" overlay on the graph. Representative data and the number of answers
compared are the Conversion preview tab's."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from inspector.core.app import quantization
from inspector.core.app.exports import temporary_copy
from inspector.core.errors import Cancelled, UnsafeGraphError
from inspector.gui.controllers.tflite_files import save_tflite
from inspector.gui.wording import said


class QuantController(QObject):
    beside_wanted = Signal(str)      # a recipe's .tflite to open in a window beside this one

    def __init__(self, state, tasks, panel, mobile_panel, dialogs):
        super().__init__(panel)
        self.state, self.tasks, self.p, self.mobile, self.dialogs = \
            state, tasks, panel, mobile_panel, dialogs
        panel.run_requested.connect(lambda recipes, keep: self.run(recipes, keep))
        panel.chosen.connect(lambda recipe, keep: quantization.choose(state, (recipe, keep)))
        panel.applied.connect(lambda recipe, keep: self.apply((recipe, keep)))
        panel.keep_float_requested.connect(self.keep_float)
        panel.keep_selected_requested.connect(self.keep_selected)
        panel.sensitivity_requested.connect(self.sensitivity)
        panel.beside_requested.connect(lambda: self.open_beside())
        panel.save_requested.connect(lambda: self.save())
        self._shown = (None, 0)            # (report, sensitivity rows) last shown
        state.quant_changed.connect(self._show)
        state.model_changed.connect(lambda *_: panel.reset())
        if state.quant is not None:                   # recipes run before it existed
            self._show(state.quant)

    def run(self, recipes: list, keep_float: str, allow_io: bool = False) -> bool:
        if not recipes:
            self.state.say("Tick at least one recipe")
            return False
        self._recipes = (list(recipes), keep_float)
        return quantization.start_recipes(self.state, self.tasks, recipes, keep_float,
                                          self.mobile.source_spec(), self.mobile.compare.value(),
                                          self._failed(), allow_io)

    def keep_float(self, tensor: str) -> None:
        regex = quantization.keep_layer_float(self.state, self.tasks, tensor,
                                              self.mobile.source_spec(),
                                              self.mobile.compare.value(), self._failed())
        if regex:
            self.p.keep.setText(regex)

    def keep_selected(self) -> None:
        """The layer of the node selected on the canvas stays float."""
        run, node = self.state.quant, self.state.selected
        if run is None or not run.chosen[0]:
            self.state.say("Run recipes first")
            return
        found = run.node_errors().get(node) if node else None
        if found is None:
            self.state.say(f"{node or 'No node selected'}: no TFLite layer of recipe "
                           f"{run.chosen[0]} holds it (select a node the overlay colours)")
            return
        self.keep_float(found.tensor)

    def apply(self, key: tuple) -> None:
        quantization.apply(self.state, key)
        self.p.keep.setText(key[1])

    def open_beside(self) -> str | None:
        """The chosen recipe's .tflite in a window beside this one; once it has opened, its
        graph takes the same per-layer error (placed through its tensors' names)."""
        run = self.state.quant
        row = run.row() if run is not None else None
        if row is None or row.model is None:
            self.state.say("Run recipes first")
            return None
        path = temporary_copy(self.state.model.path, row.recipe, row.model,
                              prefix="inspector-recipe-")
        self.pending_beside = (path, run, run.chosen)
        self.beside_wanted.emit(path)
        return path

    def adopt_beside(self, other) -> None:
        """Give the window opened by open_beside the error of its recipe once it loaded."""
        path, run, key = self.pending_beside

        def loaded(model):
            if model is not None and model.path == path:
                other.state.model_changed.disconnect(loaded)
                other.state.set_quant(quantization.for_tflite_graph(run, model.graph, key))
        other.state.model_changed.connect(loaded)

    def save(self, path: str | None = None) -> str | None:
        """Write the applied recipe's .tflite (the shown one when none was applied)."""
        run = self.state.quant
        row = (run.row(run.applied) if run.applied[0] else run.row()) if run else None
        if row is None or row.model is None:
            self.state.say("Run recipes first")
            return None
        return save_tflite(self.p, self.state, row.model, row.recipe, path,
                           note=f", recipe {row.recipe}")

    def sensitivity(self) -> None:
        quantization.start_sensitivity(self.state, self.tasks, self._failed())

    def _show(self, run) -> None:
        self.p.show_run(run)
        shown = self._shown
        self._shown = (run.report if run is not None else None,
                       len(run.sensitivity) if run is not None else 0)
        if run is None or self._shown == shown:
            return
        if shown[1] != self._shown[1] and run.sensitivity:    # new weight statistics
            mode = "sensitivity"
        elif shown[0] is not self._shown[0] and run.node_errors():   # new recipe results
            mode = "quant_error"
        else:
            return
        if self.state.overlay.mode != mode:
            self.state.set_overlay(replace(self.state.overlay, mode=mode))

    def _failed(self):
        def failed(exc):
            if isinstance(exc, Cancelled):
                return
            if isinstance(exc, UnsafeGraphError) and getattr(self, "_recipes", None):
                if self.dialogs.consent(exc, "Quantizing"):
                    self.run(*self._recipes, allow_io=True)
                return
            self.state.fail(said(exc))
        return failed
