"""The model card as a use case (`graphdef-inspector explain` and Demo > Model card alike):
what goes in and out, how big and how fast, from one rule for the shapes: a .tflite's own
tensor shapes; a GraphDef's own shapes, without TensorFlow, where they give every counted op
its shapes and leave no size but a batch open (own_count.py); else TensorFlow's shape
inference where its engine runs (the worker in the app, this process on the command line),
open input sizes defaulted and said so (`flops.assumed`); `flops.source` says which. The
window's `start_card` writes the result into the state."""

from __future__ import annotations

import os
from dataclasses import dataclass

from inspector.core.analysis.flops import FlopReport, count_flops, unknown_flops
from inspector.core.analysis import output_shapes
from inspector.core.analysis.graph_flops import TFLITE_SHAPES
from inspector.core.analysis.model_card import (
    ModelCard,
    build_card,
    left_out,
    ports_with_shapes,
)
from inspector.core.analysis.static_shapes import static_shapes
from inspector.core.app.opening import summary_of
from inspector.core.app.optimized_card import comparison_of
from inspector.core.app.own_count import own_count
from inspector.core.loaders.labels import find_labels
from inspector.core.model.origin import is_tflite
from inspector.core.runtime import gc_policy
from inspector.core.runtime.job import NO_JOB, Job


@dataclass
class CardResult:
    card: ModelCard
    flops: FlopReport
    summary: object          # analysis.summary.Summary the card was made from
    shapes: dict             # node -> [output shapes] the card and its FLOPs used ({}: none)
    comparison: object = None   # optimized_card.Comparison with a pipeline in place (window)


def title_of(model) -> str:
    return os.path.basename(model.path.rstrip("/")) if model.path else ""


def card(model, engine=None, input_shapes: dict | None = None, summary=None,
         measured_ms: float | None = None, job: Job = NO_JOB) -> CardResult:
    """The card of an opened model. `engine`: the model's preview engine (its `card_shapes`
    asks TensorFlow when the graph's own shapes are not enough; None: no TensorFlow, the
    card then says FLOPs are unknown); `summary`: the
    model's summary when the caller has it; `measured_ms`: a time per run from a profile."""
    graph = model.graph
    if summary is None:
        with gc_policy.paused():
            summary = summary_of(model, shapes=True)
    elif any(output_shapes.shapeless(c) for c in summary.outputs):   # the window's, asked
        summary = output_shapes.with_output_shapes(graph, summary, output_shapes.MOST)  # early
    job.check()
    own = None if is_tflite(graph) else own_count(graph, input_shapes)
    job.check()
    if is_tflite(graph):
        shapes, assumed = static_shapes(graph, input_shapes)
        failure, open_outputs = "", {}
    elif own.usable:
        shapes, assumed, failure, open_outputs = own.shapes, own.report.assumed, "", {}
    elif engine is None:
        shapes, assumed, failure = {}, [], "TensorFlow is not available to infer the shapes"
        open_outputs = {}
    else:
        shapes, assumed, failure, open_outputs = engine.card_shapes(
            input_shapes, [c.name.partition(":")[0] for c in summary.outputs])
    job.check()
    if failure:
        flops = unknown_flops(failure)
    elif own is not None and own.usable:
        flops = own.report
    else:
        flops = count_flops(graph, shapes)
        flops.assumed = list(assumed)
        flops.source = TFLITE_SHAPES if is_tflite(graph) else own.why_tf
    given = input_shapes or {}
    declared = frozenset(c.name.partition(":")[0] for c in summary.inputs
                         if c.name.partition(":")[0] not in given and
                         getattr(graph.get(c.name.partition(":")[0]), "op", "") == "Placeholder")
    batch_open = not given and bool(assumed) and all(a.startswith("batch ") for a in assumed)
    ins, outs = ports_with_shapes(summary, shapes, declared, open_outputs, batch_open)
    classes = len(find_labels(model.path, graph).names) if model.path else None
    made = build_card(graph, summary, title_of(model), flops, measured_ms, ins, outs, classes)
    made.more_inputs, made.more_outputs = left_out(summary)
    return CardResult(made, flops, summary, shapes or {})


def measured_ms(overlay) -> float | None:
    """Time of one run in the loaded profile or timing log, in ms (None without): a profile
    run here, the average of its untraced runs (benchmark_model's "no stats" average, which
    `profile` prints: tracing adds its own overhead to the traced ones, +7 % on MobileNetV2);
    an imported log, its runs' total ("Timings (microseconds)"), else its nodes' times a
    run summed."""
    profile = overlay.profile if overlay is not None else None
    if profile is None:
        return None
    average = profile.average_us()
    average = profile.average_us(traced=True) if average is None else average
    if average is not None:
        return average / 1000.0
    total = sum(t.per_run() for t in profile.nodes.values())
    return total or None


def start_card(state, tasks, on_error, measured_ms: float | None = None) -> None:
    """Demo > Model card: the open model's card (and, with a pipeline in place, what it
    changes) in a task; the result goes to the state (`state.card`), the panel listens."""
    model, engine = state.model, state.engine
    if model is None or state.original_view is None:
        state.say("Open a model first: the card describes the open model.")
        return
    summary, rows, demo_run, wb = state.summary, state.rows, state.demo, state.workbench
    ports = (list(wb.inputs), list(wb.outputs))

    def work(job):
        result = card(model, engine, None, summary, measured_ms, job)
        result.comparison = comparison_of(rows, demo_run, model, result.summary, ports,
                                          result.shapes, engine, job)
        return result

    def done(result):
        if state.model is model:
            state.set_card(result)

    tasks.submit("card", work, done, on_error, label="Writing the model card")
