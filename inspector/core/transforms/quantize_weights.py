"""quantize_weights: store large float constants as 8 bits plus a Dequantize."""

from __future__ import annotations

import numpy as np

from inspector.core.model import protos
from inspector.core.model.humanize import count
from inspector.core.transforms.base import Param, transform
from inspector.core.transforms.graph_utils import const_value, copy_graph, tensor_const


def weight_range(values: np.ndarray) -> tuple:
    tiny = np.finfo(np.float32).tiny  # TF starts its running max at FLT_MIN, not at -inf
    lo = np.float32(min(np.float32(values.min()), np.float32(0.0)))
    hi = np.float32(max(np.float32(0.0), max(np.float32(values.max()), tiny)))
    if lo == hi:
        if abs(lo) < 1e-6:
            hi = lo + np.float32(1.0)
        elif lo > 0:
            hi = np.float32(2.0) * lo
        else:
            hi = lo / np.float32(2.0)
    return lo, hi


def round_half_away(x: np.ndarray) -> np.ndarray:
    """C's round(): halves go away from zero (numpy's round goes to even)."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def quantize_min_first(values: np.ndarray, lo, hi) -> np.ndarray:
    """TF's FloatToQuantized<quint8>, element by element, in double precision."""
    lo64, hi64 = float(lo), float(hi)
    if lo64 == hi64:
        return np.zeros(values.shape, np.uint8)
    steps = 256
    span = float(np.float32(hi) - np.float32(lo)) * (steps / (steps - 1.0))  # float subtraction
    scale = steps / span
    q = round_half_away(values.astype(np.float64) * scale) - round_half_away(
        np.float64(lo64 * scale))
    return np.clip(q, 0, 255).astype(np.uint8)


@transform("quantize_weights", "shrink",
           "Stores float constants with at least minimum_size elements as 8-bit values "
           "(about 1/4 of the size), dequantized when the graph runs.",
           [Param("minimum_size", "int", "1024", minimum=0)])
def quantize_weights(graph_def, ctx):
    minimum = ctx.int("minimum_size", 1024)
    out = copy_graph(graph_def, [])
    zeros: list = []        # (name, size) of constants holding only zeros
    for node in graph_def.node:
        t = node.attr["value"].tensor if node.op == "Const" else None
        if t is None or t.dtype != 1:
            out.node.add().CopyFrom(node)
            continue
        ctx.check()
        values = const_value(node)
        if values.size < minimum:
            out.node.add().CopyFrom(node)
            continue
        lo, hi = weight_range(values)
        q = tensor_const(node.name + "_quantized_const", quantize_min_first(values, lo, hi), 12)
        mn = tensor_const(node.name + "_quantized_min", np.array(lo, np.float32))
        mx = tensor_const(node.name + "_quantized_max", np.array(hi, np.float32))
        deq = protos.NodeDef(name=node.name, op="Dequantize",
                             input=[q.name, mn.name, mx.name])
        deq.attr["T"].type = 12
        deq.attr["mode"].s = b"MIN_FIRST"
        for new in (q, mn, mx, deq):
            out.node.add().CopyFrom(new)
        for new in (q, mn, mx):
            ctx.split[new.name] = node.name
        ctx.note(node.name, f"{values.size} floats stored as 8 bits in [{lo:g}, {hi:g}]")
        if lo == 0 and hi == np.finfo(np.float32).tiny:
            zeros.append((node.name, values.size))
    if zeros:
        name = zeros[0][0]
        one = len(zeros) == 1
        ctx.warning = (f"{count(len(zeros), 'constant')} {'holds' if one else 'hold'} only "
                       f"zeros ('{name}'{'' if one else ', ...'}): stored in [0, 1.2e-38], "
                       "which Dequantize turns into NaN, as TF's quantize_weights does; "
                       f"minimum_size={max(s for _, s in zeros) + 1} keeps "
                       f"{'it' if one else 'them'} float")
    return out
