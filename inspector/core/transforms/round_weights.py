"""round_weights: snap float weights to num_steps levels so the file compresses like 8 bits."""

from __future__ import annotations

import numpy as np

from inspector.core.transforms.base import Param, transform
from inspector.core.transforms.graph_utils import const_value, copy_graph, tensor_const

FLT_MIN = np.float32(np.finfo(np.float32).tiny)


@transform("round_weights", "shrink",
           "Rounds float weights to a few levels; the file stays float but gzips to near "
           "8-bit size.", [Param("num_steps", "int", "256", minimum=1)])
def round_weights(graph_def, ctx):
    steps = np.float32(ctx.int("num_steps", 256))
    out = copy_graph(graph_def, [])
    for node in graph_def.node:
        if node.op != "Const" or node.attr["dtype"].type != 1:
            out.node.add().CopyFrom(node)
            continue
        ctx.check()
        values = const_value(node).astype(np.float32)
        if values.size < 16:
            out.node.add().CopyFrom(node)
            continue
        lo = np.float32(values.min())
        hi = np.float32(max(values.max(), FLT_MIN))  # TF starts its max at FLT_MIN
        if lo == hi:
            if abs(lo) < np.float32(1e-6):
                hi = lo + np.float32(1.0)
            elif lo > 0:
                hi = np.float32(2.0) * lo
            else:
                lo = np.float32(2.0) * hi
        width = np.float32((hi - lo) / steps)
        with np.errstate(invalid="ignore", divide="ignore"):
            bucket = np.floor((values - lo) / width).astype(np.int32)
        rounded = lo + width * (bucket.astype(np.float32) + np.float32(0.5))
        # like TF, the new Const carries only dtype and value
        out.node.add().CopyFrom(tensor_const(node.name, rounded.astype(np.float32)))
        ctx.note(node.name, f"rounded to {int(steps)} levels")
    return out
