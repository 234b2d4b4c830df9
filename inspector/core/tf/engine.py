"""TensorFlow's own graph transform engine and optimize_for_inference."""

from __future__ import annotations

from inspector.core.errors import InspectorError
from inspector.core.model import protos, safety
from inspector.core.tf.runtime import first_line, serialized, tf, to_tf


@serialized
def run_native_transform(graph_def, inputs: list, outputs: list, transforms: str):
    """Apply transforms with TensorFlow's own C++ graph transform engine."""
    tf()
    from tensorflow.python.util._pywrap_transform_graph import (
        TransformGraphWithStringInputs,
    )

    safety.check_no_recursion(graph_def)
    try:
        out = TransformGraphWithStringInputs(graph_def.SerializeToString(),
                                             ",".join(inputs).encode(),
                                             ",".join(outputs).encode(), transforms.encode())
    except Exception as exc:
        raise InspectorError(first_line(exc)) from None
    return protos.GraphDef.FromString(out)


@serialized
def optimize_for_inference(graph_def, inputs: list, outputs: list, toco_compatible: bool):
    safety.check_no_recursion(graph_def)
    tf()
    from tensorflow.python.tools import optimize_for_inference_lib

    out = optimize_for_inference_lib.optimize_for_inference(
        to_tf(graph_def), [i.split(":")[0] for i in inputs], [o.split(":")[0] for o in outputs],
        [_placeholder_type(graph_def, i) for i in inputs], toco_compatible)
    return protos.GraphDef.FromString(out.SerializeToString())


def _placeholder_type(graph_def, name: str) -> int:
    for node in graph_def.node:
        if node.name == name.split(":")[0]:
            for key in ("dtype", "T"):
                if key in node.attr and node.attr[key].type:
                    return node.attr[key].type
    return 1
