"""Transforms we run through TensorFlow's own engine (marked native), and optimize_for_inference."""

from __future__ import annotations

from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms.base import REGISTRY, Param, TransformInfo, transform
from inspector.core.transforms.syntax import TransformSpec

NATIVE = {
    "flatten_atrous_conv": ("fold", "Turns SpaceToBatch/Conv/BatchToSpace into one dilated conv."),
    "fuse_pad_and_conv": ("fold", "Fuses a MirrorPad into the following Conv2D."),
    "fuse_resize_and_conv": ("fold", "Fuses a ResizeBilinear into the following Conv2D."),
    "fuse_resize_pad_and_conv": ("fold", "Fuses ResizeBilinear and MirrorPad into a Conv2D."),
    "inline_partitionedcall": ("clean up", "Replaces PartitionedCall nodes by the function body."),
    "sparsify_gather": ("shrink", "Turns Gather on sparse embeddings into a hash-table lookup."),
    "backport_tensor_array_v3": ("clean up", "Rewrites TensorArray V3 ops as V2 for old runtimes."),
    "rename_node": ("clean up", "Renames one node and every reference to it."),
}


def _native(name: str):
    def run(graph_def, ctx):
        spec = TransformSpec(name, {k: v for k, v in ctx.params.items() if k != "ignore_errors"})
        return tensorflow().run_native_transform(graph_def, ctx.inputs, ctx.outputs, str(spec))
    return run


NATIVE_PARAMS = {
    "sparsify_gather": [Param("input_checkpoint", "path"), Param("group_init_node", "string")],
    "rename_node": [Param("old_node_name", "node", required=True),
                    Param("new_node_name", "string", required=True)],
}

for _name, (_group, _summary) in NATIVE.items():
    if _name not in REGISTRY:
        REGISTRY[_name] = TransformInfo(_name, _native(_name), _group,
                                        _summary + " (runs in TensorFlow's engine)",
                                        NATIVE_PARAMS.get(_name, []), native=True)


@transform("optimize_for_inference", "fold",
           "TensorFlow's optimize_for_inference: strip, remove training nodes, fold batch norms.",
           [Param("toco_compatible", "bool", "false")])
def optimize_for_inference(graph_def, ctx):
    return tensorflow().optimize_for_inference(graph_def, ctx.inputs, ctx.outputs,
                                            ctx.bool("toco_compatible", False))
