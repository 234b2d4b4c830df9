"""The command line's graph work, as use cases: a transform pipeline run on a file with each
step's metrics (`transform_file`), the FLOPs of a model (`flops_of`) and the numeric check of
two graphs (`check_files`). The window runs the same pipeline step by step (core.app.preview)."""

from __future__ import annotations

from inspector.core.analysis.flops import DEVICE_PRESETS
from inspector.core.analysis.metrics import StepMetrics, compute_metrics, latencies
from inspector.core.app.exports import check_target, node_size, write_graph
from inspector.core.app.inputs import open_size_notes
from inspector.core.app.opening import open_model
from inspector.core.app.ports import model_ports
from inspector.core.errors import InspectorError
from inspector.core.loaders.readers import TRANSFORM
from inspector.core.loaders.whole_graphdef import read_graph_def, read_structure
from inspector.core.model.graph import Graph
from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms import REGISTRY, parse_transforms, run_pipeline
from inspector.core.transforms.pipeline import check_names


def _quiet(note: str) -> None:
    pass


def load_graph_def(path: str, say=_quiet):
    """The GraphDef a transform or a check works on: a big binary GraphDef read whole, else
    the model as `open_model` opens it (`say` gets its notes); a read-only view (a .tflite, ...)
    is an InspectorError naming the file."""
    whole = read_graph_def(path)
    return whole if whole is not None else _model_graph_def(path, say)


def load_structure(path: str, say=_quiet) -> tuple:
    """(GraphDef, LeftInFile or None): a big binary GraphDef with its large values left in
    the file (for steps that never read them), else as load_graph_def gives it."""
    found = read_structure(path)
    return found if found is not None else (load_graph_def(path, say), None)


def _model_graph_def(path: str, say):
    model = open_model(path)     # a .meta frozen with the checkpoint beside it, as everywhere
    if TRANSFORM not in model.capabilities:   # e.g. TFLite's ops: TF cannot rewrite them
        if model.kind == "tflite":
            raise InspectorError("a .tflite model opens as a read-only view; transforms and "
                                 "checks work on the TensorFlow graph it was converted from",
                                 path=path)
        raise InspectorError(f"this model opens as a read-only view ({model.notes[0]})"
                             if model.notes else "this model opens as a read-only view",
                             path=path)
    for note in model.notes:
        say(note)
    return model.graph.graph_def


def transform_file(in_path: str, out_path: str, text: str, inputs: list, outputs: list,
                   shapes: dict, *, as_text: bool = False, force: bool = False,
                   gzip: bool = False, flops: bool = False, metrics: bool = True,
                   on_step=None, say=_quiet) -> tuple:
    """`graphdef-inspector transform`: the pipeline `text` (transform_graph syntax) run on
    the model at `in_path`, written to `out_path`; returns (rows: (label, Metrics) for the
    original and each step, or [] without `metrics`; the output's node count). `on_step(i,
    report)` hears each step as it ends."""
    specs = parse_transforms(text or "")
    if not specs:
        raise InspectorError("You must specify at least one transform (--transforms)")
    check_names(specs)
    check_target(out_path, force, source=in_path)
    with_flops = metrics and flops   # FLOPs import TensorFlow: only when asked
    # steps that never read tensor values, a binary output and no metric that reads them:
    # the values stay in the model file, and are copied from there to the output
    structure_only = not with_flops and not gzip and not as_text and \
        all(REGISTRY[s.name].structure_only for s in specs if s.enabled)
    graph_def, left = load_structure(in_path, say) if structure_only else \
        (load_graph_def(in_path, say), None)
    if with_flops and not tensorflow().available():
        raise InspectorError("--flops needs TensorFlow, which is not installed")

    def measured(gd):
        try:
            return compute_metrics(gd, shapes, with_flops=with_flops, with_gzip=gzip)
        except InspectorError:
            return compute_metrics(gd, with_flops=False, with_gzip=gzip)

    # Without FLOPs the steps change one graph in place (no copy of the weights per step) and
    # each step's metrics are taken as it ends; FLOPs (TensorFlow) are counted on each step's
    # own graph once the output is safely written.
    in_place = not with_flops
    step_metrics = StepMetrics(gzip) if in_place and metrics else None
    rows = [("original", step_metrics(graph_def))] if step_metrics else []

    def stepped(i, report):
        if on_step is not None:
            on_step(i, report)
        if step_metrics:
            rows.append((report.spec.name, step_metrics(report.graph_def)))

    reports = run_pipeline(graph_def, specs, inputs, outputs, on_step=stepped,
                           in_place=in_place)
    final = reports[-1].graph_def if reports else graph_def
    written: dict = {}      # the output's node sizes: the metrics' sizes, without measuring
    write_graph(final, out_path, as_text=as_text, force=force, source=in_path,
                node_sizes=written if step_metrics else None, left_in_file=left)
    if step_metrics:
        step_metrics.sizes(written, (lambda node: node_size(node, left)) if left else None)
    if metrics and not step_metrics:  # with FLOPs, computed here, once the output is written
        rows = [("original", measured(graph_def))] + [(r.spec.name, measured(r.graph_def))
                                                      for r in reports]
    return rows, len(final.node)


def flops_of(path: str, shapes: dict, speed: float | None, say=_quiet) -> tuple:
    """`graphdef-inspector flops`: (FLOP report, {device: (GFLOP/s rate, ms)}, whether it
    was counted on a .tflite's own tensors without TensorFlow)."""
    from inspector.core.app.costs import tflite_flops

    lite = tflite_flops(path, speed)
    if lite is None:
        report, latency = _own_flops(path, shapes, speed, say)
    else:
        report, latency = lite
        if shapes:
            say("a .tflite's tensors carry their own shapes: --input_shape is not used")
    rates = {name: (DEVICE_PRESETS.get(name, speed), ms) for name, ms in latency.items()}
    return report, rates, lite is not None


def _own_flops(path: str, shapes: dict, speed, say) -> tuple:
    """(report, latency per device) of a TensorFlow model: from its own shapes, without
    TensorFlow, when they count it all (own_count: 300k nodes peaked at 3.4 GB with TF's
    inference); else from TF's inference, `source` saying why."""
    from inspector.core.app.own_count import own_count

    model = open_model(path)
    if TRANSFORM in model.capabilities:     # the models `flops` counts (not read-only views)
        own = own_count(model.graph, shapes)
        if own.usable:
            for note in model.notes:
                say(note)
            return own.report, latencies(own.report, speed)
        why = own.why_tf
    else:
        why = ""
    del model
    m = compute_metrics(load_graph_def(path, say), shapes, True, speed)
    if not m.flops.unknown:
        m.flops.source = why
    return m.flops, m.latency_ms


def check_files(original: str, transformed: str, inputs: list | None, outputs: list | None,
                shapes: dict, feed: str, seed: int, arrays: dict, allow_io: bool,
                say=_quiet) -> list:
    """`graphdef-inspector check`: both graphs run in TensorFlow on the same inputs, their
    outputs compared (one NumericResult per output). `inputs`/`outputs` None: the original's
    likely ones (model_ports, as compat, tflite, profile and calibrate take them)."""
    from inspector.core.analysis.numeric_check import numeric_check

    if inputs is None or outputs is None:
        inputs, outputs = model_ports(open_model(original), inputs, outputs, required=True,
                                      say=say)
    first = load_graph_def(original, say)
    for text in open_size_notes(Graph(first), inputs, shapes):
        say(text)
    return numeric_check(first, load_graph_def(transformed, say),
                         inputs, outputs, shapes, feed, seed, arrays, allow_io,
                         labels=(f"the original graph ({original})",
                                 f"the transformed graph ({transformed})"))
