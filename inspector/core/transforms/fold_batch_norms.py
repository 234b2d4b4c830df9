"""fold_batch_norms: fold a Mul by a constant vector into the preceding conv/matmul weights."""

from __future__ import annotations

import numpy as np

from inspector.core.transforms.base import TransformError, transform
from inspector.core.transforms.graph_utils import (
    Pattern,
    const_value,
    outputs_map,
    replace_matching,
    tensor_const,
)

PATTERN = Pattern("Mul", [Pattern("Conv2D|MatMul|DepthwiseConv2dNative",
                                  [Pattern("*"), Pattern("Const")]),
                          Pattern("Const")])


_OLD_BATCH_NORMS = ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3",
                    "BatchNormWithGlobalNormalization")


def why_unchanged(graph_def) -> str:
    """No Mul by a constant after a convolution or matmul; such Muls whose parts other nodes
    also read (a Keras export's NoOp reads every weight as a control input), which TF leaves
    as they are; batch norms kept as single ops (slim's FusedBatchNormV3) are
    fold_old_batch_norms' work."""
    blocked = _blocked(graph_def)
    if blocked:
        (part, reader, control), count = blocked[0], len(blocked)
        said = (f"{count:,} batch norm{'s' if count != 1 else ''} (a Mul by a constant after "
                f"a Conv2D, MatMul or DepthwiseConv2dNative) found, but other nodes also read "
                f"their parts ('{reader}' reads '{part}'")
        if control:
            return f"{said} as a control input), so TF leaves them as they are: run " \
                   "remove_control_dependencies and strip_unused_nodes before this step"
        return f"{said}), so TF leaves them as they are: folding would change what that " \
               "reader gets"
    found: dict = {}
    for node in graph_def.node:
        if node.op in _OLD_BATCH_NORMS:
            found[node.op] = found.get(node.op, 0) + 1
    said = "no Mul by a constant right after a Conv2D, MatMul or DepthwiseConv2dNative"
    if not found:
        return f"{said}, so no batch norm to fold"
    kinds = ", ".join(f"{n:,} {op}" for op, n in found.items())
    return f"{said}: this graph's batch norms are whole ops ({kinds}), which " \
           "fold_old_batch_norms folds into the weights; use it instead"


def _blocked(graph_def) -> list:
    """(part, a reader outside the match, read as a control input?) of each match of PATTERN
    that a reader outside it keeps as it is."""
    blocked: list = []
    readers = None

    def note(match, outside):
        nonlocal readers
        conv = match.inputs[0]
        parts = [conv.node.name, conv.inputs[1].node.name, match.inputs[1].node.name]
        kept = [p for p in parts if p in outside]
        if kept:
            readers = outputs_map(graph_def) if readers is None else readers
            inside = set(match.names())
            reader = next(r for r in readers[kept[0]] if r.name not in inside)
            blocked.append((kept[0], reader.name, f"^{kept[0]}" in reader.input))
        return None

    replace_matching(graph_def, PATTERN, note)
    return blocked


@transform("fold_batch_norms", "fold",
           "Multiplies batch-norm scale factors into the convolution or matmul weights.",
           why_unchanged=why_unchanged)
def fold_batch_norms(graph_def, ctx):
    def replace(match, outside):
        mul, conv = match.node, match.inputs[0].node
        src, weights_node = match.inputs[0].inputs[0].node, match.inputs[0].inputs[1].node
        scale_node = match.inputs[1].node
        if {conv.name, weights_node.name, scale_node.name} & outside:
            return None
        weights, scale = const_value(weights_node), const_value(scale_node)
        if conv.op == "Conv2D":
            cols = weights.shape[3]
        elif conv.op == "DepthwiseConv2dNative":
            cols = weights.shape[2] * weights.shape[3]
        else:
            cols = weights.shape[1]
        if scale.ndim != 1 or scale.shape[0] != cols:
            raise TransformError("Mul constant input to batch norm has bad shape: "
                                 f"[{','.join(str(d) for d in scale.shape)}]", node=mul.name)
        flat = weights.astype(np.float32).reshape(-1)
        scaled = (flat * np.tile(scale.astype(np.float32), flat.size // cols)).reshape(weights.shape)
        new_weights = tensor_const(weights_node.name, scaled)
        new_conv = type(conv)()
        new_conv.CopyFrom(conv)
        new_conv.name = mul.name
        ctx.note(mul.name, f"{conv.op} '{conv.name}' with the scale folded into "
                           f"'{weights_node.name}'")
        ctx.note(weights_node.name, f"scaled by '{scale_node.name}'")
        ctx.became[conv.name] = mul.name
        ctx.merge(mul.name, mul.name)
        ctx.merge(scale_node.name, mul.name)
        return [new_weights, src, new_conv]

    return replace_matching(graph_def, PATTERN, replace)
