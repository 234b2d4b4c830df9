"""Data-free quantization sensitivity: per layer with weights (Conv2D, depthwise, MatMul...)
the kurtosis of its weights (heavy tails: a few large weights stretch the quantization grid
and the many small ones lose precision), their range over their standard deviation, and the
share of outliers (beyond 3 standard deviations), before any calibration data exists.
Ranked by kurtosis, highest (most sensitive) first. Pure numpy over the GraphDef's constants;
`rank_correlation` (Spearman) compares a ranking with measured errors."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from inspector.core.analysis.summary_columns import indexes_of_ops
from inspector.core.errors import InspectorError
from inspector.core.model.tensors import to_numpy
from inspector.core.runtime.job import NO_JOB, Job

WEIGHTED_OPS = {"Conv2D": 1, "DepthwiseConv2dNative": 1, "MatMul": 1, "Conv3D": 1,
                "Conv2DBackpropInput": 1, "BatchMatMulV2": 1, "FusedConv2D": 1}
PASS_THROUGH = {"Identity", "ReadVariableOp", "Enter", "Cast", "Dequantize"}
OUTLIER_SIGMAS = 3.0


@dataclass(frozen=True)
class LayerSensitivity:
    node: str              # the op with weights (its GraphDef name)
    op: str
    weight: str            # the Const holding its weights
    count: int             # number of weights
    kurtosis: float        # Pearson's: 3 for a normal distribution
    range_ratio: float     # (max - min) / standard deviation
    outlier_share: float   # share of weights beyond 3 standard deviations of the mean

    @property
    def score(self) -> float:
        return self.kurtosis


def weight_const(graph, i: int) -> int:
    """The Const feeding weighted node i's weight input (through Identity-like nodes), as
    an index (-1: none), on the input and op columns: a name stands for its first node."""
    op_names, ops, off, src, port = graph.op_names, graph._ops, graph._in_off, graph._src, \
        graph._port
    index = WEIGHTED_OPS.get(op_names[ops[i]])
    data = [p for p in range(off[i], off[i + 1]) if port[p] >= 0]
    if index is None or len(data) <= index:
        return -1
    at = src[data[index]]
    for _ in range(8):
        if at < 0:                        # an input naming no node
            return -1
        op = op_names[ops[at]]
        if op == "Const":
            return at
        first = next((p for p in range(off[at], off[at + 1]) if port[p] >= 0), None)
        if op not in PASS_THROUGH or first is None:
            return -1
        at = src[first]
    return -1


def _value_at(graph, i: int):
    """Const node i's value as numpy, as graph.tensor_value reads it by name (from the file
    when the graph was opened lazily): no Node view."""
    proto = graph.structure.node[i]
    if graph.lazy:
        return to_numpy(graph.weights.full_tensor(proto, i, "value"))
    return to_numpy(proto.attr["value"].tensor)


def statistics(weights) -> tuple[float, float, float]:
    """(kurtosis, range / std, outlier share) of an array of weights."""
    w = np.asarray(weights, np.float64).reshape(-1)
    if w.size < 2:
        return 0.0, 0.0, 0.0
    centred = w - w.mean()
    var = float(np.mean(centred ** 2))
    if var == 0.0:
        return 0.0, 0.0, 0.0
    std = var ** 0.5
    kurtosis = float(np.mean(centred ** 4)) / var ** 2
    return (kurtosis, float(w.max() - w.min()) / std,
            float(np.mean(np.abs(centred) > OUTLIER_SIGMAS * std)))


def layer_sensitivity(graph, job: Job = NO_JOB) -> list:
    """LayerSensitivity of every weighted layer whose weights are a float constant, ranked
    most sensitive first (ties by name). From the op and input columns: no Node view."""
    names, op_names, ops = graph.name_list, graph.op_names, graph._ops
    out = []
    for i in indexes_of_ops(graph, WEIGHTED_OPS):      # in graph order
        job.check()
        const = weight_const(graph, i)
        if const < 0:
            continue
        try:
            values = _value_at(graph, const)
        except (InspectorError, ValueError):     # a damaged constant: no statistics
            continue
        if values is None or values.dtype.kind != "f":
            continue
        kurt, spread, outliers = statistics(values)
        out.append(LayerSensitivity(names[i], op_names[ops[i]], names[const],
                                    int(values.size), kurt, spread, outliers))
    out.sort(key=lambda s: (-s.score, s.node))
    return out


def ranks(values) -> np.ndarray:
    """Ranks from 1, ties given their average rank (as Spearman's rho wants)."""
    values = np.asarray(values, np.float64)
    order = np.argsort(values, kind="mergesort")
    out = np.empty(len(values), np.float64)
    sorted_values = values[order]
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and sorted_values[end + 1] == sorted_values[start]:
            end += 1
        out[order[start:end + 1]] = (start + end) / 2.0 + 1.0
        start = end + 1
    return out


def rank_correlation(a, b) -> float:
    """Spearman's rank correlation of two equally long sequences."""
    if len(a) != len(b) or len(a) < 2:
        raise ValueError("two sequences of the same length (2 or more) are needed")
    ra, rb = ranks(a), ranks(b)
    ra, rb = ra - ra.mean(), rb - rb.mean()
    norm = float(np.sqrt((ra @ ra) * (rb @ rb)))
    return float(ra @ rb) / norm if norm else 0.0
