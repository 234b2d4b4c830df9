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


def answers_words(rows, demo_run, model, summary, ports, shapes, engine, task) -> str:
    """How the pipeline changes the answer to the last demo input, in plain words."""
    from inspector.core.app import demo
    from inspector.core.app.files import read_input
    from inspector.core.errors import InspectorError

    if demo_run is None or not demo_run.path:
        return "Run the model on a photo, sound or array (Demo panel) to see how much the " \
               "optimized graph changes its answers."
    try:
        ins, outs = demo.choose_ports(ports[0], ports[1], summary)
        plan = demo.plan(model.graph, ins, outs, shapes, model_path=model.path)
        item = read_input(demo_run.path).first
        return demo.compare_answers(engine, plan, item, rows[-1].key,
                                    job=task).words()
    except InspectorError as exc:
        return f"The answers could not be compared: {exc.one_line()}"


def make_card(model, summary, shapes, engine, task, title: str | None = None,
              measured: float | None = None) -> tuple:
    """(card, FLOP report, summary, shapes) of a model, off the GUI thread: the summary and
    TF's shapes (asked of the worker) when not known yet; a .tflite's own tensor shapes (TF
    knows none of its ops)."""
    from inspector.core.app.queries import (
        build_card,
        count_flops,
        is_tflite_graph,
        ports_with_shapes,
        static_shapes,
        summarize,
        unknown_flops,
    )

    found = summary or summarize(model.graph, model.known_inputs, model.known_outputs,
                                 model.signature)
    task.check()
    known = shapes
    if not known and is_tflite_graph(model.graph):
        known = static_shapes(model.graph)[0]
    if known is None and engine is not None:
        try:
            known = engine.infer_shapes()
        except Exception:  # noqa: BLE001 - the card then says FLOPs are unknown
            known = None
    flops = count_flops(model.graph, known) if known else \
        unknown_flops("TensorFlow could not infer the tensor shapes" if known is None
                      else "no tensor shapes")
    ins, outs = ports_with_shapes(found, known)
    title = title or model.path.rstrip("/").rpartition("/")[2]
    from inspector.core.app.files import find_labels

    classes = len(find_labels(model.path, model.graph).names) if model.path else None
    return build_card(model.graph, found, title, flops, measured, ins, outs, classes), flops, \
        found, known


class ModelCardController:
    def __init__(self, state, tasks, panel):
        self.state, self.tasks, self.panel = state, tasks, panel
        self.cards_shown = 0
        state.model_changed.connect(lambda *_: panel.close_card())

    @staticmethod
    def _comparison(rows, demo_run, model, summary, ports, shapes, engine, task):
        from inspector.core.app.optimized_card import build_comparison

        comparison = build_comparison(rows)
        if comparison is not None and engine is not None:
            comparison.answers = answers_words(rows, demo_run, model, summary, ports, shapes,
                                               engine, task)
        return comparison

    def show_card(self) -> None:
        model, view, engine = self.state.model, self.state.original_view, self.state.engine
        if model is None or view is None:
            self.state.say("Open a model first: the card describes the open model.")
            return
        summary, shapes = self.state.summary, view.shapes
        measured = measured_ms(self.state.overlay)
        rows, demo_run, wb = self.state.rows, self.state.demo, self.state.workbench
        ports = (list(wb.inputs), list(wb.outputs))
        title = model.path.rstrip("/").rpartition("/")[2]

        def work(task):
            card, _flops, found, known = make_card(model, summary, shapes, engine, task,
                                                   title, measured)
            return card, self._comparison(rows, demo_run, model, found, ports, known, engine,
                                          task)

        def done(result):
            card, comparison = result
            if self.state.model is model:
                self.cards_shown += 1
                self.panel.show_card(card)
                self.panel.show_comparison(comparison)

        self.tasks.submit("card", work, done,
                          lambda exc: self.state.say(f"No model card: {exc}"),
                          label="Writing the model card")
