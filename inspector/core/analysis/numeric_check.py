"""Run the original and the transformed graph on the same inputs and compare the outputs."""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import numpy as np

from inspector.core.errors import (
    InspectorError,
    UnsafeGraphError,  # noqa: F401  (callers catch it from here)
)
from inspector.core.model import dtypes, safety
from inspector.core.model.graph import Graph, node_name_from_input
from inspector.core.runtime import feed_budget
from inspector.core.runtime.executor import tensorflow

@dataclass
class OutputComparison:
    name: str
    shape: tuple
    max_abs_error: float
    max_rel_error: float
    top1_agreement: float | None  # share of rows whose argmax agrees, for classifier outputs
    reference_span: float = 0.0   # max - min of the reference output (to judge errors by)
    non_finite: tuple = (0, 0)    # NaN or infinite values in (the reference, the other)
    constant_reference: bool = False   # every row of the reference scores all classes alike

    def warning(self) -> str:
        """'' or what is NaN or infinite (an error of nan says nothing of where it came from,
        and an argmax of NaNs is the first class: top-1 looked like it agreed), and why no
        top-1 is given for a constant reference output (it read 100%, whatever the other)."""
        notes = []
        before, after = self.non_finite
        if before or after:
            total = math.prod(self.shape)
            notes.append(f"{after:,} of {total:,} values NaN or infinite in the transformed "
                         f"graph's output ({before:,} in the original's)")
        if self.constant_reference:
            notes.append("top-1 not counted: the original graph's output is constant (every "
                         "class scores the same, so its top class is always the first)")
        return "; ".join(notes)


def make_inputs(graph: Graph, inputs: list, input_shapes: dict, mode: str = "random",
                seed: int = 0, arrays: dict | None = None) -> dict:
    """Feed arrays for each input: given arrays (from .npy files), zeros, or seeded random
    values. The made-up ones are sized together before any is allocated. A bool input
    that is a scalar or of unknown shape is a training switch (musicnn's, chiron's): it
    gets False, the inference branch, whatever the mode (a random True ran dropout)."""
    rng = np.random.default_rng(seed)
    feeds = {}
    names = {node_name_from_input(t) for t in inputs}
    for name in arrays or {}:
        if name not in names:
            raise InspectorError(f"an array is given for '{name}', which is not one of the "
                                 f"inputs ({', '.join(sorted(names)) or 'none'})", node=name)
    made = []                   # (feed key, name, shape, dtype) of each made-up input
    for text in inputs:
        name = node_name_from_input(text)
        node = graph.get(name)
        if node is None:
            raise InspectorError(f"input node '{name}' is not in the graph", node=name)
        if arrays and name in arrays:
            feeds[text] = arrays[name]
            continue
        dtype = node.attr("dtype") or node.attr("T")
        np_dtype = dtypes.numpy_dtype(dtype.value) if dtype is not None else np.dtype(np.float32)
        shape = input_shapes.get(name)
        declared = node.declared_dims
        if np_dtype == np.bool_ and (tuple(shape) == () if shape is not None else
                                     declared in (None, ())):
            feeds[text] = np.array(False)        # a training switch: inference, never random
            continue
        if shape is None:
            if declared is None:
                raise InspectorError(f"input '{name}' has no known shape", node=name,
                                     hint="input_size")     # (each front end's own words)
            shape = tuple(1 if d is None else d for d in declared)
        if np_dtype == np.object_:
            raise InspectorError(f"input '{name}' takes strings (such as encoded image bytes), "
                                 "which cannot be made up: give one with --npy NAME=file.npy "
                                 "or check from the decoded image tensor", node=name)
        made.append((text, name, shape, np_dtype))
    feed_budget.check_all([(name, shape, dtype, 1) for _, name, shape, dtype in made])
    for text, _, shape, dtype in made:         # their total sized first, then made in order
        feeds[text] = np.zeros(shape, dtype=dtype) if mode == "zeros" else \
            feed_budget.random(rng, shape, dtype)
    return {text: feeds[text] for text in inputs}    # the inputs' order, as before


def compare(a: np.ndarray, b: np.ndarray, name: str) -> OutputComparison:
    """One output of both graphs: max abs error, max relative error (the largest
    |b - a| / |a| of any one element, |a| at least 1e-12; not the numeric comparison's
    peak-relative error, max|b - a| / max|a|), top-1 agreement."""
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a64.shape != b64.shape:
        raise InspectorError(f"output '{name}' changed shape from {a64.shape} to {b64.shape}")
    diff = np.abs(a64 - b64)
    max_abs = float(diff.max()) if diff.size else 0.0
    denom = np.maximum(np.abs(a64), 1e-12)
    max_rel = float((diff / denom).max()) if diff.size else 0.0
    top1, flat = None, False
    if a64.ndim >= 1 and a64.shape[-1] > 1 and np.issubdtype(np.asarray(a).dtype, np.floating):
        rows_a, rows_b = a64.reshape(-1, a64.shape[-1]), b64.reshape(-1, b64.shape[-1])
        usable = np.isfinite(rows_a).all(-1) & np.isfinite(rows_b).all(-1)
        top1 = float(np.mean((rows_a.argmax(-1) == rows_b.argmax(-1)) & usable))
        flat = usable.any() and bool((np.ptp(rows_a[usable], axis=-1) == 0).all())
    finite = a64[np.isfinite(a64)]
    span = float(finite.max() - finite.min()) if finite.size else 0.0
    bad = (int(a64.size - np.isfinite(a64).sum()), int(b64.size - np.isfinite(b64).sum()))
    if top1 is not None and flat:     # an untrained classifier: argmax is always the first
        return OutputComparison(name, a64.shape, max_abs, max_rel, None, span, bad, True)
    return OutputComparison(name, a64.shape, max_abs, max_rel, top1, span, bad)


def _declared(graph: Graph, name: str):
    node = graph.get(name)
    return node.declared_dims if node is not None else None


def known_input_shapes(before: Graph, before_def, after: Graph, inputs: list, given: dict,
                       arrays: dict | None = None) -> dict:
    """A shape for every input, batch 1 where a dimension is unknown: given explicitly, else
    declared in the original graph, else what TensorFlow infers for it in the original, else
    declared in the transformed graph (a cut-out input often is declared only there; TF's
    strip_unused_nodes declares a scalar unless told, so that comes last)."""
    shapes, inferred = dict(given), None
    for text in inputs:
        name = node_name_from_input(text)
        if name in shapes or (arrays and name in arrays):
            continue
        dims = _declared(before, name)
        if dims is None and before.get(name) is not None:
            if inferred is None:
                try:
                    inferred = tensorflow().infer_shapes(before_def, None)
                except Exception:  # noqa: BLE001 - TF cannot import it: running says why
                    inferred = {}
            outs = inferred.get(name) or [None]
            dims = outs[0]
        if dims is None:
            dims = _declared(after, name)
        if dims is not None:
            shapes[name] = tuple(1 if d is None else d for d in dims)
    return shapes


@contextlib.contextmanager
def _naming(label: str):
    """An error about one of the two graphs says which one: TensorFlow's refusal, an input
    with no known shape (they name no file; the node, when known, after the file)."""
    try:
        yield
    except InspectorError as exc:
        if not exc.message.startswith(label):
            exc.naming(label)
        raise


def numeric_check(before_def, after_def, inputs: list, outputs: list, input_shapes=None,
                  mode: str = "random", seed: int = 0, arrays: dict | None = None,
                  allow_io: bool = False, after_inputs: list | None = None,
                  labels: tuple = ("the original graph", "the transformed graph")) -> list:
    """Compare outputs of two graphs on the same inputs; returns one OutputComparison each.
    `labels` name the two graphs in errors (the CLI gives their files)."""
    input_shapes = input_shapes or {}
    before, after = Graph(before_def), Graph(after_def)
    safety.require_safe(before_def, outputs, inputs, allow_io, labels[0])
    safety.require_safe(after_def, outputs, after_inputs or inputs, allow_io, labels[1])
    shapes = known_input_shapes(before, before_def, after, inputs, input_shapes, arrays)
    input_shapes = shapes
    with _naming(labels[0]):     # the original's inputs are what both are fed
        feeds = make_inputs(before, inputs, input_shapes, mode, seed, arrays)
        ref = tensorflow().run_graph(before_def, feeds, outputs, input_shapes,
                                     allow_unsafe=allow_io)
    feeds_after = dict(zip(after_inputs, feeds.values())) if after_inputs else feeds
    with _naming(labels[1]):
        got = tensorflow().run_graph(after_def, feeds_after, outputs, input_shapes,
                                     allow_unsafe=allow_io)
    return [compare(r, g, o) for r, g, o in zip(ref, got, outputs)]
