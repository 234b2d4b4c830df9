"""Demo runs end to end, the same for the window and the command line: plan what to feed and
fetch (front end, outputs, block ends, labels), read the presenter's input, run it where
TensorFlow lives, and name the answer's classes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from inspector.core.analysis.blocks import block_ends, first_squash, top_blocks
from inspector.core.analysis.front_end import FrontEnd, detect, with_convention
from inspector.core.errors import InspectorError
from inspector.core.loaders.labels import Labels, find_labels
from inspector.core.model.graph import node_name_from_input


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
    """Marks first, else the ranked suggestions (inputs scored 100 or more, top outputs)."""
    ins = list(state_inputs) or [c.name for c in (summary.inputs if summary else [])
                                 if c.score >= 100]
    outs = list(state_outputs)
    if not outs and summary is not None and summary.outputs:
        top = max(c.score for c in summary.outputs)
        outs = [c.name for c in summary.outputs if c.score == top][:3]
    return ins, outs


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
    if not outputs:
        raise InspectorError("no output to show: mark the model's output first")
    outs = [_tensor(o) for o in outputs]
    for o in outs:
        if graph.get(node_name_from_input(o)) is None:
            raise InspectorError("no such node in the model", node=node_name_from_input(o))
    paths = list(block_paths) if block_paths is not None else top_blocks(graph)
    ends = block_ends(graph, paths, [fe.feed])
    item_ids = item_ids or {}
    blocks = {item_ids.get(p, p): t for p, t in ends.items()
              if t not in outs and t not in (fe.sees, fe.feed)}
    squash = first_squash(graph, fe.sees or fe.feed) if fe.kind == "image" else ("", "")
    producers = {o: graph.node(node_name_from_input(o)).op for o in outs}
    if labels is None:
        labels = find_labels(model_path, graph) if model_path else Labels()
    return DemoPlan(fe, outs, blocks, squash, producers, labels)


def run(engine_call, plan_: DemoPlan, item, allow_io: bool = False, cancel=None,
        progress=None):
    """Prepare the input and run it. `engine_call(task, *args, **kw)` runs a model task
    where the model lives (the worker's engine in the app; in-process for the CLI)."""
    from inspector.core.overlays.demo_run import prepare

    prepared = prepare(plan_.front, item)
    result = engine_call("demo_run", plan_.front, prepared, plan_.outputs, plan_.blocks,
                         plan_.squash, plan_.producers, len(plan_.labels.names),
                         allow_io=allow_io, cancel=cancel, progress=progress)
    return name_classes(result, plan_.labels)


def stand_in(front: FrontEnd):
    """A blank input of the kind the model takes, for warming its session up before the
    presenter's real input arrives (the first run imports the graph: seconds on big ones)."""
    import io

    import numpy as np

    from inspector.core.loaders.media import ArrayInput, AudioInput, ImageInput

    if front.kind == "audio":
        import wave

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


def in_process_call(graph_def):
    """engine_call for the command line: model tasks on this graph, here."""
    from inspector.core.app.model_tasks import TASKS

    def call(task, *args, **kwargs):
        return TASKS[task](graph_def, *args, **kwargs)
    return call
