"""Quantization controller: the Quantization tab's signals -> the use cases of
core/app/quantization.py (recipes run in the worker), state.quant -> the tab; new results
put the "quant_error" overlay on the graph. Representative data and the number of answers
compared are the Conversion preview tab's."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject

from inspector.core.app import quantization
from inspector.core.errors import Cancelled, UnsafeGraphError


class QuantController(QObject):
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
        state.quant_changed.connect(self._show)
        state.model_changed.connect(lambda *_: panel.reset())

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

    def sensitivity(self) -> None:
        quantization.start_sensitivity(self.state, self.tasks, self._failed())

    def _show(self, run) -> None:
        self.p.show_run(run)
        if run is not None and run.node_errors() and self.state.overlay.mode != "quant_error":
            self.state.set_overlay(replace(self.state.overlay, mode="quant_error"))

    def _failed(self):
        def failed(exc):
            if isinstance(exc, Cancelled):
                return
            if isinstance(exc, UnsafeGraphError) and getattr(self, "_recipes", None):
                if self.dialogs.consent(exc, "Quantizing"):
                    self.run(*self._recipes, allow_io=True)
                return
            self.state.fail(getattr(exc, "message", None) or str(exc))
        return failed
