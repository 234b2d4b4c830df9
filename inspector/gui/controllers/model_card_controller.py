"""Demo > Model card: builds the card off the GUI thread (summary, TF's shapes from the worker,
FLOPs, a measured time from a loaded profile) and hands it to its panel."""

from __future__ import annotations


def measured_ms(overlay) -> float | None:
    """Average time of one run in the loaded profile or timing log, in ms (None without)."""
    profile = overlay.profile if overlay is not None else None
    if profile is None:
        return None
    if profile.run_totals_us:
        return sum(profile.run_totals_us) / len(profile.run_totals_us) / 1000.0
    total = sum(t.avg_ms for t in profile.nodes.values())
    return total or None


class ModelCardController:
    def __init__(self, state, tasks, panel):
        self.state, self.tasks, self.panel = state, tasks, panel
        self.cards_shown = 0
        state.model_changed.connect(lambda *_: panel.close_card())

    def show_card(self) -> None:
        from inspector.core.analysis.flops import count_flops, unknown_flops
        from inspector.core.analysis.model_card import build_card, ports_with_shapes
        from inspector.core.analysis.summary import summarize

        model, view, engine = self.state.model, self.state.original_view, self.state.engine
        if model is None or view is None:
            self.state.say("Open a model first: the card describes the open model.")
            return
        summary, shapes = self.state.summary, view.shapes
        measured = measured_ms(self.state.overlay)
        title = model.path.rstrip("/").rpartition("/")[2]

        def work(task):
            found = summary or summarize(model.graph, model.known_inputs, model.known_outputs)
            task.check()
            known = shapes
            if known is None and engine is not None:
                try:
                    known = engine.call("infer_shapes")
                except Exception:  # noqa: BLE001 - the card then says FLOPs are unknown
                    known = None
            flops = count_flops(model.graph, known) if known else \
                unknown_flops("TensorFlow could not infer the tensor shapes" if known is None
                              else "no tensor shapes")
            ins, outs = ports_with_shapes(found, known)
            return build_card(model.graph, found, title, flops, measured, ins, outs)

        def done(card):
            if self.state.model is model:
                self.cards_shown += 1
                self.panel.show_card(card)

        self.tasks.submit("card", work, done,
                          lambda exc: self.state.say(f"No model card: {exc}"),
                          "Writing the model card")
