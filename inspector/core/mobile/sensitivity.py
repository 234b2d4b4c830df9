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


def weight_const(graph, node) -> str | None:
    """The Const feeding a weighted op's weight input (through Identity-like nodes)."""
    index = WEIGHTED_OPS.get(node.op)
    data = node.data_inputs
    if index is None or len(data) <= index:
        return None
    name = data[index].node
    for _ in range(8):
        found = graph.get(name)
        if found is None:
            return None
        if found.op == "Const":
            return name
        if found.op not in PASS_THROUGH or not found.data_inputs:
            return None
        name = found.data_inputs[0].node
    return None


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
    most sensitive first (ties by name)."""
    out = []
    # views of the weighted layers only (the op column), in graph order
    for node in map(graph.nodes.__getitem__, indexes_of_ops(graph, WEIGHTED_OPS)):
        job.check()
        const = weight_const(graph, node)
        if const is None:
            continue
        try:
            values = graph.tensor_value(const)
        except (InspectorError, ValueError):     # a damaged constant: no statistics
            continue
        if values is None or values.dtype.kind != "f":
            continue
        kurt, spread, outliers = statistics(values)
        out.append(LayerSensitivity(node.name, node.op, const, int(values.size), kurt, spread,
                                    outliers))
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
