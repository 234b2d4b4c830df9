"""A .tflite file read for `tflite-info` (no TensorFlow needed): its ops, quantized tensors
and biggest buffers as text, or its figures as one JSON-ready dict."""

from __future__ import annotations

from inspector.core.errors import InspectorError
from inspector.core.loaders import files
from inspector.core.loaders.tflite import TFLiteModel, describe, read_model


def read_tflite(path: str) -> TFLiteModel:
    """The .tflite file at `path`, parsed (InspectorError naming the file when it is not)."""
    data = files.read_file(path, what="the TensorFlow Lite file", error=InspectorError)
    return read_model(data, path)


def tflite_text(model: TFLiteModel, limit: int = 15) -> str:
    """The file described: version, ops, quantized tensors, biggest buffers (`limit` rows)."""
    return describe(model, limit)


def tflite_figures(model: TFLiteModel) -> dict:
    """The main subgraph's figures: version, ops, ports and every tensor (for --json)."""
    main = model.subgraphs[0]
    return {"version": model.version, "description": model.description,
            "subgraphs": len(model.subgraphs), "buffers": model.buffer_count,
            "ops": dict(model.op_histogram().most_common()),
            "inputs": [main.tensors[i].name for i in main.inputs],
            "outputs": [main.tensors[i].name for i in main.outputs],
            "tensors": [{"name": t.name, "dtype": t.dtype, "shape": t.shape,
                         "bytes": t.data[1], "scales": t.scales,
                         "zero_points": t.zero_points, "axis": t.axis}
                        for t in main.tensors]}
