"""Quantization recipes: the graph converted to a float .tflite by TF's converter, then each
recipe applied by ai-edge-quantizer (TF's converter where the quantizer fails and TF has the
same variant), every result measured: size, gzip size, a latency estimate per device class,
the time of one run on this machine (LiteRT), the error of its answers against the TF graph,
and the error of every tensor against the float .tflite on the calibration data (mapped back
to GraphDef nodes). Layers can be kept float by a regex over the TFLite tensor names (which
hold the GraphDef node names), as ai-edge-quantizer takes them. Runs where TensorFlow runs."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from inspector.core.analysis.flops import DEVICE_PRESETS
from inspector.core.analysis.metrics import gzip_size
from inspector.core.errors import InspectorError
from inspector.core.loaders.tfjs_ops import for_converter
from inspector.core.mobile.measured import Measured, Row
from inspector.core.mobile.quant_metrics import Sums, per_tensor, plain
from inspector.core.mobile.recipe_notes import (
    BUILTIN_KERNELS,
    DEFAULT_KERNELS,
    degenerate_top1,
    same_files,
)
from inspector.core.runtime.executor import tensorflow
from inspector.core.runtime.job import NO_JOB, Job


def _weights(bits: int, granularity: str) -> dict:
    return {"num_bits": bits, "symmetric": True, "granularity": granularity, "dtype": "INT"}


def _dynamic(bits: int, granularity: str, operation: str = "*") -> dict:
    return {"regex": ".*", "operation": operation, "algorithm_key": "min_max_uniform_quantize",
            "op_config": {"weight_tensor_config": _weights(bits, granularity),
                          "compute_precision": "INTEGER", "explicit_dequantize": False}}


def _static(activation_bits: int) -> dict:
    return {"regex": ".*", "operation": "*", "algorithm_key": "min_max_uniform_quantize",
            "op_config": {"activation_tensor_config": {
                "num_bits": activation_bits, "symmetric": activation_bits == 16,
                "granularity": "TENSORWISE", "dtype": "INT"},
                "weight_tensor_config": _weights(8, "CHANNELWISE"),
                "compute_precision": "INTEGER", "explicit_dequantize": False}}


_FLOAT16 = {"regex": ".*", "operation": "*", "algorithm_key": "float_casting",
            "op_config": {"weight_tensor_config": {"num_bits": 16, "dtype": "FLOAT"},
                          "compute_precision": "FLOAT", "explicit_dequantize": True}}


@dataclass(frozen=True)
class Recipe:
    name: str
    label: str
    quantizer: tuple = ()          # ai-edge-quantizer's recipe entries (() : TF's converter)
    tf_variant: str = ""           # TF's converter variant: the tool, or the fallback
    speedup: float = 1.0           # over float32 on a phone CPU, for the estimate
    speedup_source: str = ""


# Speed-ups: TF's post-training quantization guide ("2x-3x" dynamic range, "3x+" full
# integer: the low ends); 16x8 "significantly slower than 8-bit ... for lack of optimized
# kernels" (same guide): float speed assumed; float16 weights run as float32 on a CPU.
RECIPES = {r.name: r for r in (
    Recipe("float", "float32 (TF's converter)", (), "float", 1.0, "reference"),
    Recipe("dynamic", "int8 weights, float activations (dynamic range)",
           (_dynamic(8, "CHANNELWISE"),), "dynamic", 2.0, "TF guide: 2x-3x"),
    Recipe("float16", "float16 weights", (_FLOAT16,), "float16", 1.0,
           "TF guide: float16 runs as float32 on a CPU"),
    Recipe("int8", "int8 weights and activations (full integer)", (_static(8),), "int8", 3.0,
           "TF guide: 3x+"),
    Recipe("int16x8", "int16 activations, int8 weights (16x8)", (_static(16),), "", 1.0,
           "TF guide: 16x8 lacks optimized kernels; float speed assumed"),
    Recipe("int4-blockwise", "int4 blockwise-32 weights in FULLY_CONNECTED, int8 elsewhere",
           (_dynamic(8, "CHANNELWISE"), _dynamic(4, "BLOCKWISE_32", "FULLY_CONNECTED")), "",
           2.0, "as dynamic range"),
)}
DEFAULT = ("float", "dynamic", "float16", "int8", "int16x8", "int4-blockwise")


def recipe_entries(name: str, keep_float: str = "") -> list:
    """ai-edge-quantizer's JSON recipe for `name`, with the layers matching `keep_float` left
    float (a later 'no_quantize' entry wins over the earlier ones for what it matches)."""
    recipe = RECIPES[name]
    entries = [dict(e) for e in recipe.quantizer]
    if keep_float and entries:
        entries.append({"regex": keep_float, "operation": "*", "algorithm_key": "no_quantize"})
    return entries


def check_names(names, keep_float: str = "") -> list:
    names = [n for n in names if n]
    unknown = [n for n in names if n not in RECIPES]
    if unknown or not names:
        raise InspectorError(f"unknown recipe '{', '.join(unknown)}' (choose from "
                             f"{', '.join(RECIPES)})")
    if keep_float:
        try:
            re.compile(keep_float)
        except re.error as exc:
            raise InspectorError(f"--keep-float is not a regular expression: {exc}") from None
    return names


RecipeResult, RecipeReport = Row, Measured     # the one row class and result shape
PREVIEW = ("float", "dynamic", "float16", "int8")  # Phone > Convert: TF's converter's files


QUANTIZER, CONVERTER = "ai-edge-quantizer", "TF's converter"


def _quantized(t, recipe: Recipe, float_model: bytes, calibration: list, keep_float: str,
               convert, job: Job) -> tuple:
    """(model or None, tool, why the quantizer failed, errors) for one recipe: TF's
    converter's file where the quantizer fails (or makes a file LiteRT cannot prepare) and
    TF has the same variant."""
    if not recipe.quantizer or convert.preview:
        made = convert(recipe.tf_variant)
        return made["model"], CONVERTER, "", made["errors"]
    entries = recipe_entries(recipe.name, keep_float)
    try:
        model = t.tflite_quantize(float_model, entries, calibration, job=job)
        problem = unprepared(t, model)
    except InspectorError as exc:
        problem = exc.one_line()
    if not problem:
        return model, QUANTIZER, "", []
    failed = f"{recipe.name} by {QUANTIZER}: {problem}"
    if recipe.tf_variant and not keep_float:
        made = convert(recipe.tf_variant)
        if made["model"] is not None and not unprepared(t, made["model"]):
            return made["model"], f"{CONVERTER} (fallback)", failed, made["errors"]
    return None, QUANTIZER, failed, [{"message": failed}]


def unprepared(t, model: bytes) -> str:
    """Why LiteRT cannot prepare `model` with XNNPACK or with its builtin kernels, or ""."""
    found = t.tflite_prepare(model)
    for key, where in (("default", DEFAULT_KERNELS), ("builtin", BUILTIN_KERNELS)):
        if found.get(key):
            return f"{where} cannot prepare its file: {found[key]}"
    return ""


def _op_outputs(layers: dict) -> tuple[dict, dict]:
    """(tensor name -> op making it, tensor name -> dtype) of a model's op outputs."""
    tensors = {t["index"]: t for t in layers["tensors"]}
    ops, dtypes = {}, {}
    for op in layers["ops"]:
        for i in op["outputs"]:
            if i in tensors:
                ops[tensors[i]["name"]] = op["op"]
                dtypes[tensors[i]["name"]] = tensors[i]["dtype"]
    return ops, dtypes


def _tensor_errors(t, float_model: bytes, model: bytes, feeds: list, names_in_graph,
                   answers: list, job: Job) -> tuple:
    """Per-tensor error of every op output both models have, on `feeds` (input lists), and
    the answers' error with the same (builtin) kernels against the TF graph's `answers`."""
    layers = t.tflite_layers(model)
    ops, dtypes = _op_outputs(layers)
    float_ops, _ = _op_outputs(t.tflite_layers(float_model))
    wanted = [n for n in ops if n in float_ops]
    outputs = [o["name"] for o in t.tflite_details(model)["outputs"]]
    sums: dict = {}
    answer_sums = Sums()
    for k, feed in enumerate(feeds):
        job.check()
        ref, _ = t.tflite_tensors(float_model, [feed], wanted)
        got, _ = t.tflite_tensors(model, [feed], sorted(set(wanted) | set(outputs)))
        for name in wanted:
            if name in ref and name in got and ref[name][0].shape == got[name][0].shape:
                sums.setdefault(name, Sums()).add(ref[name][0], got[name][0])
        for r, name in zip(answers[k], outputs):
            if name in got and got[name][0].size == r.size:
                answer_sums.add(r, got[name][0])
    return per_tensor(sums, ops, dtypes, names_in_graph), \
        (answer_sums.metrics() if answer_sums.count else {})


def _measure(t, row: RecipeResult, recipe: Recipe, model: bytes, ctx: dict, job: Job) -> None:
    """Size, ops, latency estimate, host time, the answers' error (default runtime), the
    per-tensor error and the answers' error with the builtin kernels."""
    from inspector.core.mobile.tflite_mapping import map_model
    from inspector.core.mobile.tflite_preview import compare, preview_extras

    ref, lists, report = ctx["ref"], ctx["lists"], ctx["report"]
    row.model, row.size = model, len(model)
    row.gzip_size = gzip_size(model, exact=True)     # as gzip.compress(model, 6) counts it
    details = t.tflite_details(model)
    row.ops = dict(Counter(details["ops"]))
    # the op list is the main subgraph's; the custom codes are every subgraph's (a Flex op
    # inside a WHILE body was left out of "Select TF ops" while it kept the model from running)
    row.flex_ops = sorted({o[4:] for o in [*row.ops, *details.get("custom", [])]
                           if o.startswith("Flex")})
    row.custom_ops = sorted(o for o in details.get("custom", []) if not o.startswith("Flex"))
    row.inputs, row.outputs = details["inputs"], details["outputs"]
    debugged = preview_extras(t, row, ctx) if ctx["preview"] else None
    row.mapping = map_model(t.tflite_layers(model), ctx["in_graph"], debugged)
    if ctx["flops"]:
        row.latency_ms = {d: 1000.0 * ctx["flops"] / rate / recipe.speedup
                          for d, rate in DEVICE_PRESETS.items()}
    row.host_ms, report.engine = t.tflite_host_ms(model, lists[0])
    got, report.engine = t.tflite_run(model, [lists[j] for j in range(len(ref.probe))],
                                      job=job)
    sums = Sums()
    for answer, ans in zip(ref.answers, got):
        for r, g in zip(answer, ans):
            sums.add(r, g)
    row.output = sums.metrics()
    row.top1, _ = compare(ref.answers, got)
    row.compared = len(got)
    row.notes += degenerate_top1(ref.answers, got, row.output)
    if ctx["float_model"] and model != ctx["float_model"] and report.tensor_samples:
        row.tensors, row.output_builtin = _tensor_errors(   # against the float recipe's file
            t, ctx["float_model"], model, lists[:report.tensor_samples], ctx["in_graph"],
            ref.answers[:report.tensor_samples], job)


def _one(t, name: str, keep_float: str, ctx: dict, convert, job: Job) -> RecipeResult:
    """One recipe's row: made and measured, or why not (one recipe never ends the run)."""
    recipe = RECIPES[name]
    row = RecipeResult(name, recipe.label, keep_float=keep_float if recipe.quantizer else "")
    model, row.tool, row.failed, row.errors = _quantized(
        t, recipe, ctx["float_model"], ctx["lists"], keep_float, convert, job)
    if keep_float and not recipe.quantizer:
        row.notes.append("kept float already (TF's converter takes no layer scope)")
    if row.failed and model is not None:
        row.notes.append(f"{QUANTIZER}'s file failed; this is {CONVERTER}'s {name} file")
    if model is None:
        return row
    try:
        _measure(t, row, recipe, model, ctx, job)
    except InspectorError as exc:
        row.notes.append(f"answers not compared: {exc.one_line()}")
    return row


def run_recipes(graph_def, inputs: list, outputs: list, shapes: dict | None = None,
                recipes=DEFAULT, keep_float: str = "", source: dict | None = None,
                compare_count: int = 16, tensor_count: int = 8, flops: int | None = None,
                allow_io: bool = False, job: Job = NO_JOB, preview: bool = False) -> Measured:
    """Each recipe built and measured (see the module's docstring). `preview`: the
    conversion preview, every file by TF's converter with Select TF ops allowed (what needs
    them is listed rather than failing), its GPU notes and TF's per-layer int8 error."""
    from inspector.core.mobile.tflite_preview import reference

    t = tensorflow()
    recipes = check_names(recipes, keep_float)
    if not inputs or not outputs:
        raise InspectorError("mark the model's inputs and outputs before converting")
    total = len(recipes) + 2
    job.progress(0, total, "preparing inputs")
    what = "converting" if preview else "recipe"
    ref = reference(t, graph_def, inputs, outputs, shapes, source, compare_count, allow_io, job)
    samples, probe = ref.samples, ref.probe
    lists = [[f[n] for n in ref.names] for f in samples]
    job.progress(1, total, "converting to a float .tflite")

    made_by_tf: dict = {}

    def convert(variant):              # each of TF's conversions once (float: the reference)
        if variant not in made_by_tf:
            made_by_tf[variant] = t.convert_tflite(
                for_converter(graph_def), inputs, outputs, variant, input_shapes=shapes,
                representative=samples if variant == "int8" else None,
                allow_unsafe=allow_io, select_tf_ops=preview)
        return made_by_tf[variant]
    convert.preview = preview
    made = {"model": None} if preview else convert("float")
    if made["model"] is None and not preview:
        raise InspectorError("TF's converter cannot make a float .tflite: "
                             f"{made['errors'][0]['message']}")
    kernels = {"answers": DEFAULT_KERNELS}
    if not preview:
        kernels["tensors"] = BUILTIN_KERNELS
    report = Measured([], samples=len(samples), sample_source=ref.sample_source,
                      warnings=ref.warnings, keep_float=keep_float,
                      tensor_samples=0 if preview else min(tensor_count, len(probe)),
                      kernels=kernels)
    ctx = {"ref": ref, "lists": lists, "report": report, "float_model": made["model"],
           "flops": flops, "in_graph": set(ref.graph.names()), "preview": preview,
           "graph_def": graph_def, "ports": (inputs, outputs), "shapes": shapes,
           "samples": samples, "allow_io": allow_io}
    for k, name in enumerate(recipes):
        job.check()
        job.progress(k + 2, total, f"{what}: {name}")
        report.results.append(_one(t, name, keep_float, ctx, convert, job))
    same_files(report.results, made["model"])
    job.progress(total, total, "done")
    return report


def preview(graph_def, inputs: list, outputs: list, shapes: dict | None = None,
            variants=PREVIEW, source: dict | None = None, compare_count: int = 16,
            flops: int | None = None, allow_io: bool = False, job: Job = NO_JOB) -> Measured:
    """The conversion preview (Phone > Convert): a recipe run of TF's converter's variants."""
    return run_recipes(graph_def, inputs, outputs, shapes, list(variants), "", source,
                       compare_count, 0, flops, allow_io, job, preview=True)


def figures(row: RecipeResult, device: str = "phone") -> dict:
    """One row of the table as plain figures (JSON; the CLI and the panel)."""
    out = {"recipe": row.recipe, "label": row.label, "tool": row.tool,
           "keep_float": row.keep_float, "size": row.size, "gzip_size": row.gzip_size,
           "latency_ms_estimate": plain(row.latency_ms.get(device)),
           "host_ms": plain(row.host_ms), "top1": row.top1, "compared": row.compared,
           "output": {k: plain(v) for k, v in row.output.items()},
           "output_builtin": {k: plain(v) for k, v in row.output_builtin.items()},
           "failed": row.failed, "same_as": row.same_as, "note": row.note,
           "notes": list(row.notes), "errors": [e.get("message", "") for e in row.errors]}
    out["tensors"] = [{"tensor": e.tensor, "op": e.op, "dtype": e.dtype, "nodes": e.nodes,
                       "mse": plain(e.mse), "snr_db": plain(e.snr_db),
                       "cosine": plain(e.cosine), "max_abs": plain(e.max_abs)}
                      for e in row.tensors]
    return out


def pareto(results: list) -> list:
    """The recipes no other beats on both size and error (smaller, and not less accurate)."""
    done = [r for r in results if r.model is not None and r.error is not None and
            not r.same_as]
    front = []
    for r in done:
        if not any(o is not r and o.size <= r.size and o.error <= r.error and
                   (o.size < r.size or o.error < r.error) for o in done):
            front.append(r.recipe)
    return front
