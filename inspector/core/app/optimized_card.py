"""The "original vs optimized" card: with a pipeline in place, what it does to size,
parameters, arithmetic and the speed estimate (from the preview rows, the same numbers as the
Preview panel), and to the answer on the last demo input."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.analysis.model_card import DEVICE_NAMES
from inspector.core.app import demo
from inspector.core.errors import InspectorError
from inspector.core.model.humanize import human_bytes, latency, tf_human_readable_num


@dataclass
class Line:
    label: str
    before: str
    after: str
    change: str
    definition: str


@dataclass
class Comparison:
    steps: int
    lines: list = field(default_factory=list)
    answers: str = ""           # plain words (AnswerChange.words), or why there are none


def _pct(a: float, b: float) -> str:
    if not a:
        return ""
    d = (b - a) / a * 100
    return "no change" if abs(d) < 0.05 else f"{d:+.1f} %"


def build_comparison(rows, device: str = "phone", answers: str = "") -> Comparison | None:
    """From the preview rows (original first, the pipeline's result last); None without a
    pipeline or when its last step failed."""
    if len(rows) < 2 or rows[-1].error or rows[0].metrics is None or rows[-1].metrics is None:
        return None
    a, b = rows[0].metrics, rows[-1].metrics
    lines = [
        Line("file size", human_bytes(a.serialized_bytes), human_bytes(b.serialized_bytes),
             _pct(a.serialized_bytes, b.serialized_bytes),
             "Bytes of the serialized GraphDef (what the app would ship)."),
        Line("parameters", tf_human_readable_num(a.const_parameters + a.variable_parameters),
             tf_human_readable_num(b.const_parameters + b.variable_parameters),
             _pct(a.const_parameters + a.variable_parameters,
                  b.const_parameters + b.variable_parameters),
             "Elements of every constant and variable the graph holds, the Preview panel's "
             "count (TF summarize_graph's): shapes and single numbers too, which the card's "
             "learned numbers leave out."),
    ]
    if a.flops is not None and b.flops is not None and a.flops.total and b.flops.total:
        lines.append(Line("arithmetic", f"{tf_human_readable_num(a.flops.total)} FLOPs",
                          f"{tf_human_readable_num(b.flops.total)} FLOPs",
                          _pct(a.flops.total, b.flops.total),
                          "Floating-point operations per run (a multiply and an add count "
                          "as two), the Preview panel's count."))
    ma, mb = a.latency_ms.get(device), b.latency_ms.get(device)
    if ma and mb:
        lines.append(Line(f"speed on a {DEVICE_NAMES.get(device, device)}", latency(ma),
                          latency(mb), _pct(ma, mb), "Estimate: FLOPs divided by the device's typical "
                          "speed (the TF mobile guide's figures)."))
    return Comparison(len(rows) - 1, lines, answers)


def answers_words(rows, demo_run, model, summary, ports, shapes, engine, job) -> str:
    """How the pipeline changes the answer to the last demo input, in plain words."""
    from inspector.core.loaders.media import read_input

    if demo_run is None or not demo_run.path:
        return "Run the model on a photo, sound or array (Demo panel) to see how much the " \
               "optimized graph changes its answers."
    try:
        ins, outs = demo.choose_ports(ports[0], ports[1], summary)
        plan = demo.plan(model.graph, ins, outs, shapes, model_path=model.path)
        item = read_input(demo_run.path).first
        return demo.compare_answers(engine, plan, item, rows[-1].key, job=job).words()
    except InspectorError as exc:
        return f"The answers could not be compared: {exc.one_line()}"


def comparison_of(rows, demo_run, model, summary, ports, shapes, engine, job):
    """The original-vs-optimized card of the pipeline's rows, with the answers' change."""
    comparison = build_comparison(rows)
    if comparison is not None and engine is not None:
        comparison.answers = answers_words(rows, demo_run, model, summary, ports, shapes,
                                           engine, job)
    return comparison
