"""Demo runs end to end, the same for the window and the command line: plan what to feed and
fetch (front end, outputs, block ends, labels), read the presenter's input, run it where
TensorFlow lives, and name the answer's classes."""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass, field, replace

from inspector.core.analysis.blocks import block_ends, first_squash, top_blocks
from inspector.core.app.opening import summary_of
from inspector.core.app.ports import ports_to_use
from inspector.core.app.preview import PreviewEngine
from inspector.core.demo.front_end import (
    FrontEnd,
    check_size,
    detect,
    with_convention,
)
from inspector.core.errors import InspectorError
from inspector.core.loaders.labels import Labels, find_labels, read_labels_file
from inspector.core.model.graph import node_name_from_input
from inspector.core.runtime.job import NO_JOB, Job


@dataclass
class DemoPlan:
    front: FrontEnd
    outputs: list                 # tensor names
    blocks: dict                  # scene item id or scope path -> tensor
    squash: tuple = ("", "")
    producers: dict = field(default_factory=dict)
    labels: Labels = field(default_factory=Labels)


def _tensor(name: str) -> str:
    return name if ":" in name else f"{name}:0"


def choose_ports(state_inputs, state_outputs, summary) -> tuple[list, list]:
    """Marks first, else the suggestions (core.app.ports: one rule everywhere)."""
    return ports_to_use(state_inputs, state_outputs, summary)


def plan(graph, inputs: list, outputs: list, shapes: dict | None = None,
         convention: str | None = None, block_paths=None, model_path: str = "",
         labels: Labels | None = None, item_ids: dict | None = None) -> DemoPlan:
    """What one demo run feeds and fetches. `block_paths`: scope paths whose last tensors to
    fetch (default: the model's top-level blocks); `item_ids` maps a path to the scene
    item that shows it."""
    fe = detect(graph, inputs, shapes)
    if fe is None:
        raise InspectorError("the open model has no input a photo, sound or array can be fed "
                             "to: mark its input first")
    if convention:
        fe = with_convention(fe, convention)
    check_size(fe)
    if not outputs:
        raise InspectorError("no output to show: mark the model's output first")
    outs = [_tensor(o) for o in outputs]
    for o in outs:
        if graph.get(node_name_from_input(o)) is None:
            raise InspectorError("no such node in the model", node=node_name_from_input(o))
    paths = list(block_paths) if block_paths is not None else top_blocks(graph)
    ends = block_ends(graph, paths, [fe.feed])
    order = {name: i for i, name in enumerate(graph.names())} if len(ends) > 1 else {}
    ends = dict(sorted(ends.items(), key=lambda kv: order.get(node_name_from_input(kv[1]),
                                                                0)))    # data-flow order
    item_ids = item_ids or {}
    blocks = {item_ids.get(p, p): t for p, t in ends.items()
              if t not in outs and t not in (fe.sees, fe.feed)}
    squash = first_squash(graph, fe.sees or fe.feed) if fe.kind == "image" else ("", "")
    producers = {o: graph.node(node_name_from_input(o)).op for o in outs}
    if labels is None:
        labels = find_labels(model_path, graph) if model_path else Labels()
    return DemoPlan(fe, outs, blocks, squash, producers, labels)


def run(engine, plan_: DemoPlan, item, allow_io: bool = False, job: Job = NO_JOB,
        graph_key: bytes | None = None):
    """Prepare the input and run it. `engine` runs it where the model lives (the worker's
    engine in the app; `engine_here(graph_def)` for the CLI); `graph_key` runs it through a
    pipeline step's graph instead of the original."""
    from inspector.core.demo.demo_run import prepare

    prepared = prepare(plan_.front, item)
    extra = {"on_key": graph_key} if graph_key is not None else {}
    result = engine.demo_run(plan_.front, prepared, plan_.outputs, plan_.blocks, plan_.squash,
                             plan_.producers, len(plan_.labels.names), allow_io=allow_io,
                             job=job, **extra)
    return replace(name_classes(result, plan_.labels), path=item.path)


@dataclass
class AnswerChange:
    """How the answer to one input moved between the original and the optimized graph."""

    input: str
    before: tuple               # (name, probability) of the original's top class, or ()
    after: tuple
    same_top: bool
    max_change: float           # largest absolute change of any output value

    def words(self) -> str:
        if self.before and self.after:
            verdict = "the same top answer" if self.same_top else \
                f"a different top answer ({self.after[0]} instead of {self.before[0]})"
            return (f"On {self.input}: {verdict}; {self.before[0]} "
                    f"{self.before[1] * 100:.1f} % -> {self.after[1] * 100:.1f} %; "
                    f"largest change of any score {self.max_change:.2g}")
        return f"On {self.input}: largest change of any output value {self.max_change:.2g}"


def compare_answers(engine, plan_: DemoPlan, item, graph_key: bytes,
                    allow_io: bool = False, job: Job = NO_JOB) -> AnswerChange:
    """The same input through the original and through the graph of `graph_key`. The
    optimized graph is fed what the model sees (a pipeline that strips the decoding front
    end keeps that tensor as its input); failing that, the input itself."""
    import numpy as np

    from inspector.core.demo.demo_run import Prepared, prepare

    fe = plan_.front
    sees = fe.sees if fe.sees and fe.sees != fe.feed else ""
    quick = replace(plan_, blocks={}, outputs=plan_.outputs + ([sees] if sees else []))
    before = run(engine, quick, item, allow_io, job)
    args = (plan_.outputs, {}, ("", ""), plan_.producers, len(plan_.labels.names))
    after = None
    if sees and sees in before.values:
        try:
            after = engine.demo_run(replace(fe, feed=sees, sees=""),
                                    Prepared({sees: before.values[sees]}, label=before.label),
                                    *args, allow_io=allow_io, job=job, on_key=graph_key)
        except InspectorError:
            after = None
    if after is None:
        after = engine.demo_run(replace(fe, sees=""), prepare(fe, item), *args,
                                allow_io=allow_io, job=job, on_key=graph_key)
    after = name_classes(after, plan_.labels)
    change = 0.0
    for name in plan_.outputs:
        a, b = before.values.get(name), after.values.get(name)
        if a is not None and b is not None and np.shape(a) == np.shape(b):
            change = max(change, float(np.max(np.abs(np.asarray(a, np.float64) -
                                                     np.asarray(b, np.float64)), initial=0)))
    top = [next((v for v in r.outputs if v.kind == "classes"), None) for r in (before, after)]
    pairs = [(v.labels[0], v.top[0][1]) if v is not None else () for v in top]
    same = bool(pairs[0]) and bool(pairs[1]) and top[0].top[0][0] == top[1].top[0][0]
    return AnswerChange(before.label, pairs[0], pairs[1], same, change)


def stand_in(front: FrontEnd):
    """A blank input of the kind the model takes, for warming its session up before the
    presenter's real input arrives (the first run imports the graph: seconds on big ones)."""
    import numpy as np

    from inspector.core.loaders.media import ArrayInput, AudioInput, ImageInput

    if front.kind == "audio":
        rate = front.rate or 16000
        buf = io.BytesIO()
        with wave.open(buf, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(b"\0\0" * (front.samples or rate))
        return AudioInput("(warm-up)", buf.getvalue(), np.zeros((rate, 1), np.float32), rate,
                          16)
    if front.kind == "image":
        from PIL import Image

        pixels = np.full((max(front.height, 8), max(front.width, 8), 3), 128, np.uint8)
        buf = io.BytesIO()
        fmt = {"png": "PNG", "bmp": "BMP", "gif": "GIF"}.get(front.feed_format, "JPEG")
        Image.fromarray(pixels).save(buf, format=fmt)
        return ImageInput("(warm-up)", fmt.lower(), buf.getvalue(), pixels)
    return ArrayInput("(warm-up)", np.zeros([1] * max(front.rank, 1), np.float32))


def name_classes(result, labels: Labels):
    views = []
    for view in result.outputs:
        if view.kind == "classes":
            names, note = labels.for_classes(view.count)
            named = [names[i] if i < len(names) and names[i] else f"class {i}"
                     for i, _ in view.top]
            view = replace(view, labels=named, note=note or (
                f"names from {labels.source}" if labels.names else
                "no labels found: add labels.txt beside the model or pick a file"))
        views.append(view)
    return replace(result, outputs=views)


def run_on_file(model, input_path: str, labels_path: str | None = None,
                value_range: str | None = None, input_shapes: dict | None = None,
                allow_io: bool = False) -> tuple:
    """(plan, result) of one run on a photo, sound or array, in this process (`explain
    --input`): the ports and the plan as the window's Demo panel makes them."""
    from inspector.core.loaders.media import read_input

    item = read_input(input_path).first
    ins, outs = choose_ports(model.known_inputs, model.known_outputs, summary_of(model))
    labels = read_labels_file(labels_path) if labels_path else None
    made = plan(model.graph, ins, outs, input_shapes, value_range, model_path=model.path,
                labels=labels)
    return made, run(engine_here(model.graph.graph_def), made, item, allow_io)


def answer_lines(view) -> list:
    """The top classes of an output, one line each ("1. cat 0.91")."""
    from inspector.core.demo.demo_run import top_lines

    return top_lines(view)


def engine_here(graph_def):
    """The engine of the command line and the tests: model tasks on this graph, here."""
    return PreviewEngine(graph_def)
