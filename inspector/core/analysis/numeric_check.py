"""Run the original and the transformed graph on the same inputs and compare the outputs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from inspector.core.model import dtypes
from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph, node_name_from_input
from inspector.core.model.op_categories import FILE_OR_NETWORK_OPS


class UnsafeGraphError(InspectorError):
    """The graph would touch the file system or network if executed."""


@dataclass
class OutputComparison:
    name: str
    shape: tuple
    max_abs_error: float
    max_rel_error: float
    top1_agreement: float | None  # share of rows whose argmax agrees, for classifier outputs


def unsafe_nodes(graph: Graph, outputs=()) -> list:
    """Nodes that would touch files or the network (only those the outputs need, if given)."""
    from inspector.core.model.subgraph import upstream

    names = upstream(graph, [node_name_from_input(o) for o in outputs]) if outputs else None
    return [n.name for n in graph if n.op in FILE_OR_NETWORK_OPS
            and (names is None or n.name in names)]


def check_safe(graph: Graph, outputs, allow_io: bool, label: str = "graph") -> None:
    bad = unsafe_nodes(graph, outputs)
    if bad and not allow_io:
        listed = ", ".join(f"{n} ({graph.node(n).op})" for n in bad[:5])
        more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
        raise UnsafeGraphError(f"{label} has {len(bad)} node(s) that touch files or the network: "
                               f"{listed}{more}; refusing to run it without permission "
                               "(--allow_io)", node=bad[0])


def make_inputs(graph: Graph, inputs: list, input_shapes: dict, mode: str = "random",
                seed: int = 0, npy: dict | None = None) -> dict:
    """Feed arrays for each input: from .npy files, zeros, or seeded random values."""
    rng = np.random.default_rng(seed)
    feeds = {}
    for text in inputs:
        name = node_name_from_input(text)
        if npy and name in npy:
            feeds[text] = np.load(npy[name], allow_pickle=False)
            continue
        node = graph.get(name)
        if node is None:
            raise InspectorError(f"input node '{name}' is not in the graph", node=name)
        dtype = node.attr("dtype") or node.attr("T")
        np_dtype = dtypes.numpy_dtype(dtype.value) if dtype is not None else np.dtype(np.float32)
        shape = input_shapes.get(name)
        if shape is None:
            declared = node.attr("shape")
            if declared is None or declared.dims is None:
                raise InspectorError(f"input '{name}' has no known shape; give --input_shape",
                                     node=name)
            shape = tuple(1 if d is None else d for d in declared.dims)
        if mode == "zeros" or np_dtype == np.object_:
            feeds[text] = np.zeros(shape, dtype=np_dtype)
        elif np.issubdtype(np_dtype, np.floating):
            feeds[text] = rng.standard_normal(shape).astype(np_dtype)
        elif np_dtype == np.bool_:
            feeds[text] = rng.integers(0, 2, shape).astype(bool)
        else:
            feeds[text] = rng.integers(0, 10, shape).astype(np_dtype)
    return feeds


def compare(a: np.ndarray, b: np.ndarray, name: str) -> OutputComparison:
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a64.shape != b64.shape:
        raise InspectorError(f"output '{name}' changed shape from {a64.shape} to {b64.shape}")
    diff = np.abs(a64 - b64)
    max_abs = float(diff.max()) if diff.size else 0.0
    denom = np.maximum(np.abs(a64), 1e-12)
    max_rel = float((diff / denom).max()) if diff.size else 0.0
    top1 = None
    if a64.ndim >= 1 and a64.shape[-1] > 1 and np.issubdtype(np.asarray(a).dtype, np.floating):
        top1 = float(np.mean(a64.reshape(-1, a64.shape[-1]).argmax(-1)
                             == b64.reshape(-1, b64.shape[-1]).argmax(-1)))
    return OutputComparison(name, a64.shape, max_abs, max_rel, top1)


def numeric_check(before_def, after_def, inputs: list, outputs: list, input_shapes=None,
                  mode: str = "random", seed: int = 0, npy: dict | None = None,
                  allow_io: bool = False, after_inputs: list | None = None) -> list:
    """Compare outputs of two graphs on the same inputs; returns one OutputComparison each."""
    from inspector.core.tf import bridge as tf_bridge

    input_shapes = input_shapes or {}
    before, after = Graph(before_def), Graph(after_def)
    check_safe(before, outputs, allow_io, "the original graph")
    check_safe(after, outputs, allow_io, "the transformed graph")
    shapes = dict(input_shapes)
    for text in inputs:  # an input cut out of the original is often declared only after
        node = after.get(node_name_from_input(text))
        declared = node.attr("shape") if node is not None else None
        if node_name_from_input(text) not in shapes and declared is not None and \
                declared.dims is not None:
            shapes[node_name_from_input(text)] = tuple(1 if d is None else d
                                                       for d in declared.dims)
    input_shapes = shapes
    feeds = make_inputs(before, inputs, input_shapes, mode, seed, npy)
    ref = tf_bridge.run_graph(before_def, feeds, outputs, input_shapes)
    feeds_after = dict(zip(after_inputs, feeds.values())) if after_inputs else feeds
    got = tf_bridge.run_graph(after_def, feeds_after, outputs, input_shapes)
    return [compare(r, g, o) for r, g, o in zip(ref, got, outputs)]
