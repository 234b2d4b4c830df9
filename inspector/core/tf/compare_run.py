"""Both models of a numeric comparison run here, each where it runs (a GraphDef in
TensorFlow, a .tflite in LiteRT with every tensor kept and int8 ones dequantized), and their
matched tensors compared here: only the figures go back to the caller (the window, when this
is the worker), never ~100 MB of activations per side."""

from __future__ import annotations

from inspector.core.errors import InspectorError
from inspector.core.model.tensor_error import compared
from inspector.core.runtime.job import Job, of
from inspector.core.tf.litert import tflite_tensors
from inspector.core.tf.run import run_graph
from inspector.core.tf.runtime import tf_version


def compare_runs(side_a: dict, side_b: dict, job: Job | None = None) -> tuple:
    """(per pair: metrics dict or why it was not compared, (engine of A, engine of B)). A side
    is {"graph_def", "feeds", "fetches", "allow_unsafe"} (TensorFlow) or {"model", "feeds"
    (arrays in the model's input order), "tensors"} (LiteRT); the k-th fetch of A is compared
    with the k-th of B."""
    values_a, engine_a = _run(side_a, job, 10, "running A")
    of(job).check()
    values_b, engine_b = _run(side_b, job, 50, "running B")
    of(job).progress(90, 100, "comparing the tensors")
    loose = "model" in side_a or "model" in side_b
    out = []
    for va, vb in zip(values_a, values_b):
        of(job).check()
        out.append(compared(va, vb, loose))
    return out, (engine_a, engine_b)


def _run(side: dict, job, at: int, label: str) -> tuple:
    """One side's values; its refusal (TensorFlow's, LiteRT's) names its file (`path`)."""
    try:
        return _values(side, job, at, label)
    except InspectorError as exc:
        raise exc.naming(side.get("path")) from None


def _values(side: dict, job, at: int, label: str) -> tuple:
    of(job).progress(at, 100, label)
    if "graph_def" in side:
        values = run_graph(side["graph_def"], side["feeds"], side["fetches"],
                           allow_unsafe=side.get("allow_unsafe", False))
        return values, f"TensorFlow {tf_version()}"

    tensors = side["tensors"]
    found, engine = tflite_tensors(side["model"], [side["feeds"]], sorted(set(tensors)), job)
    return [found[t][0] if t in found else None for t in tensors], \
        f"{engine} (reference kernels, every tensor kept)"
