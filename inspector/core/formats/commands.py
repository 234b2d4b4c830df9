"""Ready-to-paste command lines for the chosen inputs, outputs and pipeline."""

from __future__ import annotations

import os
import shlex


def _shape_arg(shapes: dict, names: list, sep: str) -> str:
    parts = []
    for name in names:
        dims = shapes.get(name.split(":")[0])
        parts.append(",".join(str(1 if d is None else d) for d in dims) if dims else "")
    return sep.join(parts)


def transform_graph(model: str, inputs: list, outputs: list, transforms: str) -> str:
    base, _ = os.path.splitext(model)
    return ("transform_graph"
            f" --in_graph={shlex.quote(model)} --out_graph={shlex.quote(base + '_optimized.pb')}"
            f" --inputs={shlex.quote(','.join(inputs))} --outputs={shlex.quote(','.join(outputs))}"
            f" --transforms={shlex.quote(transforms)}")


def graphdef_for(model: str, kind: str) -> tuple[str, str]:
    """(the GraphDef file TensorFlow's tools are given for the model, the command that writes
    it first or ''): transform_graph, benchmark_model, tflite_convert and
    optimize_for_inference read a GraphDef, not a SavedModel, .meta, Keras or TF.js model."""
    if kind in ("graphdef", "tflite"):
        return model, ""
    frozen = os.path.splitext(os.path.basename(model.rstrip("/\\")))[0] + "_frozen.pb"
    return frozen, f"graphdef-inspector convert {shlex.quote(model)} -o {shlex.quote(frozen)}"


def benchmark_model(model: str, inputs: list, outputs: list, shapes: dict, types: dict) -> str:
    return ("benchmark_model"
            f" --graph={shlex.quote(model)}"
            f" --input_layer={shlex.quote(','.join(inputs))}"
            f" --input_layer_shape={shlex.quote(_shape_arg(shapes, inputs, ':'))}"
            f" --input_layer_type={','.join(types.get(i.split(':')[0], 'float') for i in inputs)}"
            f" --output_layer={shlex.quote(','.join(outputs))} --show_flops")


def tflite_convert(model: str, inputs: list, outputs: list, shapes: dict) -> str:
    base, _ = os.path.splitext(model)
    return ("tflite_convert --enable_v1_converter"
            f" --graph_def_file={shlex.quote(model)}"
            f" --output_file={shlex.quote(base + '.tflite')}"
            f" --input_arrays={shlex.quote(','.join(i.split(':')[0] for i in inputs))}"
            f" --output_arrays={shlex.quote(','.join(o.split(':')[0] for o in outputs))}"
            f" --input_shapes={shlex.quote(_shape_arg(shapes, inputs, ':'))}")


def optimize_for_inference(model: str, inputs: list, outputs: list) -> str:
    base, _ = os.path.splitext(model)
    return ("python -m tensorflow.python.tools.optimize_for_inference"
            f" --input={shlex.quote(model)} --output={shlex.quote(base + '_inference.pb')}"
            f" --input_names={shlex.quote(','.join(i.split(':')[0] for i in inputs))}"
            f" --output_names={shlex.quote(','.join(o.split(':')[0] for o in outputs))}"
            " --frozen_graph=true")
