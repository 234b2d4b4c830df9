"""Conversion preview: the graph converted to TFLite by TF's converter (Select TF ops
allowed, so what needs them is listed rather than failing) in several variants (float32,
dynamic range, float16, full int8): a recipe run (recipes.run_recipes, preview=True) whose
rows also carry GPU-delegate warnings from TF's analyzer and, for int8, TF's per-layer error.
Here: the representative samples and the TF graph's answers every file is compared with,
top-1 agreement, benchmark_model logs. Runs where TensorFlow lives, through the executor."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from inspector.core.demo.front_end import check_size, detect
from inspector.core import errors
from inspector.core.errors import InspectorError
from inspector.core.mobile.measured import Measured, Row
from inspector.core.model.graph import Graph
from inspector.core.runtime import feed_budget
from inspector.core.runtime.job import Job
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")     # not imported before the app's first picture

FEW_SAMPLES = 100


Variant, Preview = Row, Measured    # the conversion preview is a recipe run (recipes.py)


@dataclass
class Reference:
    """The representative data and the TF graph's answers on its first `compare_count`
    samples, which every converted .tflite is compared against."""
    graph: object                   # model.graph.Graph of the GraphDef
    samples: list                   # feed dicts
    sample_source: str
    warnings: list
    names: list                     # the inputs' node names, in order
    probe: list                     # the samples compared
    answers: list                   # the TF graph's outputs on the probe


def reference(t, graph_def, inputs: list, outputs: list, shapes: dict | None,
              source: dict | None, compare_count: int, allow_io: bool, job: Job) -> Reference:
    """Gather the samples (random when no source) and run the TF graph on the probe."""
    graph = Graph(graph_def)
    samples, what, warnings = gather_samples(graph, inputs, shapes,
                                             source or {"kind": "random"})
    job.check()
    probe = samples[:compare_count]
    answers = t.run_many(graph_def, probe, outputs, input_shapes=shapes,
                         allow_unsafe=allow_io, job=job)
    return Reference(graph, samples, what, warnings, [i.split(":")[0] for i in inputs],
                     probe, answers)


def _random_kind(graph, name: str, shapes, lo: float, hi: float,
                 warnings: list | None = None) -> tuple:
    """(shape, dtype, low, high) of one input's random arrays: its declared dtype and shape."""
    node = graph.get(name.split(":")[0])
    dtype = node.attr("dtype") if node is not None else None
    dtype = dtype.name if dtype is not None else "float"
    shape = _input_shape(graph, name, shapes, warnings)
    if dtype in ("float", "half", "double", "bfloat16", "float32", "float16", "float64"):
        made, low, high = np.float32, lo, hi
    elif dtype.replace("_ref", "") in ("bool", "int8", "int16", "int32", "int64", "uint8",
                                       "uint16", "uint32", "uint64"):
        made = np.dtype(dtype.replace("_ref", ""))
        low = high = None
    else:
        raise InspectorError(f"the input takes {dtype} values, which random data cannot stand "
                             "in for: give .npy files, or mark the input after the decoding",
                             node=name.split(":")[0])
    return shape, made, low, high


def _input_shape(graph, name: str, shapes: dict | None, warnings: list | None = None) -> list:
    """The input's given shape, else its declared one with 1 for each size it leaves open
    (as the window takes a marked input's and the card its FLOPs'), said in `warnings`
    beyond the batch: [1,?,?,3] made random arrays of None sizes and the conversion preview
    failed with "unsupported operand type(s) for *: 'int' and 'NoneType'"."""
    base = name.split(":")[0]
    if shapes and base in shapes:
        return [int(d) for d in shapes[base]]
    node = graph.get(base)
    dims = node.declared_dims if node is not None else None
    if dims is None:
        raise InspectorError("the input has no declared or inferred shape (mark an input whose "
                             "shape is known)", node=base, hint="input_size")
    taken = [1 if d is None or d < 0 else d for d in dims]
    if warnings is not None and any(d is None or d < 0 for d in dims[1:]):
        shown = ",".join("?" if d is None or d < 0 else str(d) for d in dims)
        warnings.append(errors.HintedText(    # each front end says how, in its words
            f"input '{base}' leaves sizes open ([{shown}]): the samples are "
            f"[{','.join(str(d) for d in taken)}]: for meaningful figures", "input_size", ", "))
    return taken


def _detected_range(graph, inputs: list, shapes) -> tuple:
    """The value range the model's first layer expects (front-end detection), else [0, 1]."""
    try:
        fe = detect(graph, inputs, shapes)
    except InspectorError:
        fe = None
    return tuple(fe.range) if fe is not None and fe.kind == "image" else (0.0, 1.0)


def gather_samples(graph, inputs: list, shapes: dict | None, source: dict) -> tuple:
    """(feed dicts, description, warnings) for representative data and the agreement check,
    for a Graph (or a GraphDef). source: {"kind": "folder", "path"} (photos through the
    detected preprocessing), {"kind": "npy", "paths": [...], "limit"} (one sample per row
    of each array, first input) or {"kind": "random", "count": N, "seed": S}."""
    graph = graph if isinstance(graph, Graph) else Graph(graph)
    kind = source.get("kind", "random")
    warnings = []
    if kind == "folder":
        from inspector.core.demo.demo_run import prepare
        from inspector.core.loaders.media import read_input, read_one

        fe = detect(graph, inputs, shapes)
        if fe is None or fe.kind != "image" or fe.feed_dtype == "string":
            raise InspectorError("the conversion input does not take pixels: use .npy files",
                                 node=inputs[0] if inputs else None)
        check_size(fe)
        found = read_input(source["path"])
        photos = found.photos or [found.first.path]
        feeds = [{k.split(":")[0]: v for k, v in prepare(fe, read_one(p)).feeds.items()}
                 for p in photos[:source.get("limit", 500)]]
        what = f"{len(feeds)} photos from {os.path.basename(source['path'].rstrip('/'))} " \
               f"through the detected preprocessing ({fe.describe()})"
    elif kind == "npy":
        from inspector.core.loaders.arrays import load_npy

        feeds = []
        want = _input_shape(graph, inputs[0], shapes)
        limit, read = source.get("limit") or None, 0
        for path in source["paths"]:
            if limit and len(feeds) >= limit:
                break
            arr, read = load_npy(path), read + 1
            rows = arr if arr.ndim == len(want) and arr.shape[0] != 1 and \
                list(arr.shape[1:]) == want[1:] else arr[None]
            for row in rows:
                feeds.append({inputs[0].split(":")[0]: np.asarray(row, np.float32)[None]
                              if row.ndim == len(want) - 1 else np.asarray(row, np.float32)})
        feeds = feeds[:limit]
        what = f"{len(feeds)} samples from {read} .npy file(s)"
    else:
        rng = np.random.default_rng(source.get("seed", 0))
        count = int(source.get("count", 16))
        lo, hi = source.get("range") or _detected_range(graph, inputs, shapes)
        kinds = {i.split(":")[0]: _random_kind(graph, i, shapes, lo, hi, warnings)
                 for i in inputs}
        feed_budget.check_all([(name, shape, made, count)       # all of them, before any
                               for name, (shape, made, _, _) in kinds.items()])
        columns = {name: [feed_budget.random(rng, shape, made, low, high)
                          for _ in range(count)]
                   for name, (shape, made, low, high) in kinds.items()}
        feeds = [{name: arrays[k] for name, arrays in columns.items()} for k in range(count)]
        what = f"{count} random inputs in [{lo:g}, {hi:g}] (seed {source.get('seed', 0)})"
        warnings.append("RANDOM DATA: int8 ranges and the agreement figures come from noise, "
                        "not from what the model will see; give photos or .npy files")
    if not feeds:
        raise InspectorError("no representative samples were found")
    if len(feeds) < FEW_SAMPLES:
        warnings.append(f"only {len(feeds)} representative samples: int8 calibration wants "
                        f"{FEW_SAMPLES} or more")
    return feeds, what, warnings


def measured_latency_ms(text: str) -> float:
    """The average inference time TFLite's benchmark_model printed ("Inference timings in
    us: Init: ..., First inference: ..., Warmup (avg): ..., Inference (avg): 12340"), in ms."""
    found = re.findall(r"Inference \(avg\):\s*([0-9]+(?:\.[0-9]*)?(?:e[+-]?[0-9]+)?)\s*(ms|us)?",
                       text)
    if not found:
        raise InspectorError("no 'Inference (avg)' figure found: expected the output of "
                             "TFLite's benchmark_model")
    value, unit = found[-1]
    return float(value) / (1.0 if unit == "ms" else 1000.0)


def gpu_warnings(report: str) -> list:
    """The GPU-delegate lines of TF's analyzer report (what would not run on the GPU), or
    its verdict line when it found nothing ("... looks compatible with GPU delegate ...")."""
    out, verdict = [], []
    for line in report.splitlines():
        text = line.strip()
        if "GPU" not in text or text.startswith("This does not guarantee"):
            continue
        if "looks compatible" in text:
            verdict.append(text)
        elif "WARNING" in text or "not supported" in text.lower() or "incompatib" in text:
            out.append(text)
    return list(dict.fromkeys(out)) or verdict[:1]


def compare(reference: list, candidate: list) -> tuple:
    """(top-1 agreement of the first output, max abs error over all outputs)."""
    same, worst = 0, 0.0
    for ref, got in zip(reference, candidate):
        for r, g in zip(ref, got):
            r, g = np.asarray(r, np.float64), np.asarray(g, np.float64)
            if r.shape == g.shape and r.size:
                worst = max(worst, float(np.max(np.abs(r - g))))
        r0, g0 = np.asarray(ref[0]), np.asarray(got[0])
        if r0.size and r0.size == g0.size:
            same += int(np.argmax(r0.reshape(-1)) == np.argmax(g0.reshape(-1)))
    n = min(len(reference), len(candidate))
    return (same / n if n else None), worst


def preview_extras(t, row, ctx: dict):
    """What the conversion preview adds to a row: GPU-delegate notes from TF's analyzer, and
    for int8 TF's QuantizationDebugger per-layer error (returned, for the mapping)."""
    try:
        row.gpu_warnings = gpu_warnings(t.tflite_analyze(row.model))
    except InspectorError:
        row.gpu_warnings = []
    if row.recipe != "int8":
        return None
    inputs, outputs = ctx["ports"]
    try:
        return t.quantization_debug(ctx["graph_def"], inputs, outputs, ctx["samples"],
                                    input_shapes=ctx["shapes"], allow_unsafe=ctx["allow_io"])
    except InspectorError as exc:
        ctx["report"].warnings.append(exc.one_line())
        return None
