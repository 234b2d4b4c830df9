"""fold_old_batch_norms: fold monolithic batch-norm ops into conv weights plus a BiasAdd.

Handles BatchNormWithGlobalNormalization and FusedBatchNorm as TF does, and also
FusedBatchNormV2/V3 (inference mode), which TF's own engine leaves alone. Unlike TF, a batch
norm is not folded when its convolution's output or weights are also read outside the match:
TF scales them anyway and silently changes what those other readers get.
"""

from __future__ import annotations

import numpy as np

from inspector.core.model import protos
from inspector.core.transforms.base import TransformError, transform
from inspector.core.transforms.graph_utils import (
    Pattern,
    const_value,
    replace_matching,
    tensor_const,
)

BN_OPS = "BatchNormWithGlobalNormalization|FusedBatchNorm|FusedBatchNormV2|FusedBatchNormV3"
_CONV = Pattern("Conv2D", [Pattern("*"), Pattern("Const")])
_PARAMS = [Pattern("Const") for _ in range(4)]
PATTERNS = [
    Pattern(BN_OPS, [_CONV] + _PARAMS),
    Pattern(BN_OPS, [Pattern("BatchToSpaceND", [_CONV, Pattern("Const"), Pattern("Const")])]
            + _PARAMS),
    Pattern(BN_OPS, [Pattern("ConcatV2", [_CONV, _CONV, Pattern("Const")])] + _PARAMS),
]


def scale_and_offset(match):
    bn = match.node
    fused = bn.op.startswith("FusedBatchNorm")
    idx = dict(mean=3, var=4, beta=2, gamma=1) if fused else dict(mean=1, var=2, beta=3, gamma=4)
    vals = {k: const_value(match.inputs[i].node).astype(np.float32) for k, i in idx.items()}
    eps = np.float32(bn.attr["epsilon" if fused else "variance_epsilon"].f)
    cols = vals["mean"].shape[0] if vals["mean"].ndim else 0
    for key, label in (("var", "Variance"), ("beta", "Beta"), ("gamma", "gamma")):
        if vals[key].ndim != 1 or vals[key].shape[0] != cols:
            raise TransformError(f"{label} input to batch norm has bad shape: "
                                 f"[{','.join(map(str, vals[key].shape))}]", node=bn.name)
    scale = np.float32(1.0) / np.sqrt(vals["var"] + eps)
    if fused or bn.attr["scale_after_normalization"].b:
        scale = scale * vals["gamma"]
    offset = (-vals["mean"] * scale) + vals["beta"]
    return scale.astype(np.float32), offset.astype(np.float32)


def rescaled(match):
    """Names of the convolutions and weights a fold of this match rewrites."""
    if match.node.op == "Conv2D":
        yield match.node.name
        yield match.inputs[1].node.name
        return
    for sub in match.inputs:
        yield from rescaled(sub)


def fuse_into_conv(scale, offset, conv_match, output_name: str) -> list:
    conv, src, weights_node = conv_match.node, conv_match.inputs[0].node, conv_match.inputs[1].node
    weights = const_value(weights_node).astype(np.float32)
    scaled = (weights.reshape(-1, weights.shape[3]) * scale[None, :]).reshape(weights.shape)
    bias = tensor_const(conv.name + "_bn_offset", offset)
    bias_add = protos.NodeDef(name=output_name, op="BiasAdd", input=[conv.name, bias.name])
    if "data_format" in conv.attr:
        bias_add.attr["data_format"].CopyFrom(conv.attr["data_format"])
    bias_add.attr["T"].CopyFrom(conv.attr["T"])
    return [tensor_const(weights_node.name, scaled), src, conv, bias, bias_add]


def _provenance(match, conv_match, bias_add: str, ctx) -> None:
    """The batch norm and its parameters went into the Conv; the BiasAdd and its offset came
    out of the batch norm."""
    conv = conv_match.node.name
    ctx.merge(match.node.name, conv)
    for sub in match.inputs[1:]:
        ctx.merge(sub.node.name, conv)
    ctx.split[bias_add] = match.node.name
    ctx.split[conv + "_bn_offset"] = match.node.name


def _replace_conv(match, ctx):
    scale, offset = scale_and_offset(match)
    _provenance(match, match.inputs[0], match.node.name, ctx)
    ctx.note(match.node.name, f"{match.node.op} folded into '{match.inputs[0].node.name}' "
                              "weights + BiasAdd")
    return fuse_into_conv(scale, offset, match.inputs[0], match.node.name)


def _replace_batch_to_space(match, ctx):
    scale, offset = scale_and_offset(match)
    b2s = match.inputs[0]
    conv_match = b2s.inputs[0]
    biasadd = conv_match.node.name + "/biasadd"
    _provenance(match, conv_match, biasadd, ctx)
    nodes = fuse_into_conv(scale, offset, conv_match, biasadd)
    new_b2s = protos.NodeDef()
    new_b2s.CopyFrom(b2s.node)
    new_b2s.name = match.node.name
    new_b2s.input[0] = biasadd
    ctx.note(match.node.name, f"{match.node.op} folded into '{conv_match.node.name}'")
    return nodes + [b2s.inputs[1].node, b2s.inputs[2].node, new_b2s]


def _replace_concat(match, ctx):
    scale, offset = scale_and_offset(match)
    concat = match.inputs[0]
    axis = int(const_value(concat.inputs[2].node).reshape(-1)[0])
    parts = [(scale, offset), (scale, offset)]
    if axis == 3:
        split = const_value(concat.inputs[0].inputs[1].node).shape[3]
        parts = [(scale[:split], offset[:split]), (scale[split:], offset[split:])]
    nodes = []
    names = [concat.node.name + "_bn_in0", concat.node.name + "_bn_in1"]
    for i in range(2):
        _provenance(match, concat.inputs[i], names[i], ctx)
    for i in range(2):
        nodes += fuse_into_conv(parts[i][0], parts[i][1], concat.inputs[i], names[i])
    new_concat = protos.NodeDef()
    new_concat.CopyFrom(concat.node)
    new_concat.name = match.node.name
    new_concat.input[0], new_concat.input[1] = names
    ctx.note(match.node.name, f"{match.node.op} folded into both convs of '{concat.node.name}'")
    return nodes + [concat.inputs[2].node, new_concat]


def why_unchanged(graph_def) -> str:
    """No batch-norm op, or why the first one does not fold: what its input or statistics
    come from (an If on a training switch needs a model exported for inference; a variable,
    freezing; a constant read through Identity, fold_constants)."""
    ops = BN_OPS.split("|")
    norms = [node for node in graph_def.node if node.op in ops]
    if not norms:
        return "no batch-norm op (FusedBatchNorm, BatchNormWithGlobalNormalization); batch " \
               "norms already split into Mul and Add are fold_batch_norms' work"
    by_name = {node.name: node for node in graph_def.node}
    why = _blocker(norms[0], by_name)
    more = f" (and {len(norms) - 1:,} more batch-norm ops)" if len(norms) > 1 else ""
    return f"none of its {len(norms):,} batch-norm ops folds: {why}{more}"


_THROUGH = ("Identity", "Snapshot", "StopGradient", "ReadVariableOp")
_SWITCHES = ("If", "StatelessIf", "Switch", "Merge")
_VARIABLES = ("VariableV2", "Variable", "VarHandleOp")


def _source(name: str, by_name: dict) -> tuple:
    """(the node a tensor comes from through Identity-like ops, whether one was passed)."""
    node, through = by_name.get(name.lstrip("^").split(":")[0]), False
    for _ in range(64):
        if node is None or node.op not in _THROUGH or not node.input:
            break
        node, through = by_name.get(node.input[0].lstrip("^").split(":")[0]), True
    return node, through


def _blocker(bn, by_name: dict) -> str:
    if bn.op in ("FusedBatchNormV2", "FusedBatchNormV3") and bn.attr["is_training"].b:
        return f"'{bn.name}' is in training mode (its statistics come from the batch)"
    head = by_name.get(bn.input[0].split(":")[0]) if bn.input else None
    if head is None or head.op not in ("Conv2D", "BatchToSpaceND", "ConcatV2"):
        return (f"'{bn.name}' follows {'a ' + head.op if head is not None else 'nothing'}, "
                "not a Conv2D")
    weights, _ = _source(head.input[1], by_name) if head.op == "Conv2D" and \
        len(head.input) > 1 else (None, False)
    stats = [(k, *_source(bn.input[k], by_name)) for k in range(1, min(len(bn.input), 5))]
    stats = [(k, node, through) for k, node, through in stats if node is not None]
    for _, node, _ in stats:       # the switch first: freezing or folding leaves it there
        if node.op in _SWITCHES:
            predicate = node.input[0].split(":")[0] if node.op in ("If", "StatelessIf") \
                else "its predicate"
            return (f"the statistics of '{bn.name}' come from '{node.name}', an {node.op} "
                    f"that picks the batch's or the stored moving averages by '{predicate}' "
                    "when the model runs (a training switch): they are no constants, and "
                    "neither freezing nor fold_constants resolves the switch. Export the "
                    "model for inference (its batch norm called with training=False), then "
                    "fold")
    if head.op == "Conv2D" and (weights is None or weights.op in _VARIABLES) or \
            any(node.op in _VARIABLES for _, node, _ in stats):
        return f"the weights or statistics of '{bn.name}' are variables: freeze the graph first"
    for _, node, _ in stats:
        if node.op != "Const":
            return (f"the statistics of '{bn.name}' are computed by '{node.name}' "
                    f"({node.op}): fold_constants first, if it reads only constants")
    for k, _, through in stats:
        if through:
            return (f"the statistics of '{bn.name}' are constants read through "
                    f"{by_name[bn.input[k].split(':')[0]].op} nodes: fold_constants first")
    if weights is not None and weights.op != "Const":
        return (f"the weights of '{head.name}' come from '{weights.name}' ({weights.op}): "
                "fold_constants first")
    return (f"'{bn.name}' follows a Conv2D with constant weights and statistics whose output "
            "is also read elsewhere (folding would change what those readers get)")


@transform("fold_old_batch_norms", "fold",
           "Folds batch-norm ops (including FusedBatchNormV3) into convolution weights and a "
           "bias.", why_unchanged=why_unchanged)
def fold_old_batch_norms(graph_def, ctx):
    current = graph_def
    for pattern, builder in zip(PATTERNS, (_replace_conv, _replace_batch_to_space,
                                           _replace_concat)):
        def one_pass(graph, pattern=pattern, builder=builder):
            applied: list = []
            other_ports = {i.split(":")[0] for n in graph.node for i in n.input
                           if not i.startswith("^") and i.rsplit(":", 1)[-1] not in (i, "0")}

            def replace(match, outside):
                bn = match.node
                if bn.op in ("FusedBatchNormV2", "FusedBatchNormV3") and \
                        bn.attr["is_training"].b:
                    ctx.keep(bn.name, "training mode: its statistics come from the batch")
                    return None
                if bn.name in other_ports:
                    ctx.keep(bn.name, "its batch statistics outputs are used; a BiasAdd "
                                      "has only the normalised output")
                    return None
                shared = sorted(set(rescaled(match)) & outside)
                if shared:
                    ctx.keep(bn.name, f"'{shared[0]}' is also read elsewhere; folding would "
                                      "change what that reader gets")
                    return None
                return builder(match, ctx)

            # only replacements really made count: one cancelled because a matched node is
            # used elsewhere would match again on every pass (an endless loop)
            graph = replace_matching(graph, pattern, replace, applied=applied, check=ctx.check)
            return graph, bool(applied)

        current = ctx.until_settled(one_pass, current)
    return current
