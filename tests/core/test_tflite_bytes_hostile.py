"""A .tflite's sizes (loaders/tflite_bytes) take a buffer's outside-the-flatbuffer size only as
the reader takes it: with an offset past the placeholder (> 1), which the reader checked
against the file. A buffer declaring a size with offset 0 (no data: the reader ignores it)
made the tensor's bytes that size, and opening the file failed with a traceback
(OverflowError in the node sizes' array: 2**62 bytes for a 360-byte file)."""

from __future__ import annotations

import os

import pytest

from tests.conftest import run_cli

flatbuffers = pytest.importorskip("flatbuffers")
S = pytest.importorskip("ai_edge_litert.schema_py_generated")


def _add_model(path: str, offset: int, size: int) -> str:
    """x + c -> y, c's buffer declared as (offset, size) outside the flatbuffer, no data."""
    model = S.ModelT()
    model.version = 3
    empty, outside = S.BufferT(), S.BufferT()
    outside.offset, outside.size = offset, size
    model.buffers = [empty, outside]
    code = S.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = S.BuiltinOperator.ADD
    code.version = 1
    model.operatorCodes = [code]
    g = S.SubGraphT()
    g.name, g.tensors = b"main", []
    for name, buffer in ((b"x", 0), (b"c", 1), (b"y", 0)):
        t = S.TensorT()
        t.shape, t.type, t.buffer, t.name = [1], S.TensorType.FLOAT32, buffer, name
        g.tensors.append(t)
    g.inputs, g.outputs = [0], [2]
    op = S.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1], [2]
    g.operators, model.subgraphs = [op], [g]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    with open(path, "wb") as fh:
        fh.write(bytes(builder.Output()))
    return path


@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("size", [2 ** 40, 2 ** 62])
def test_a_size_declared_without_an_offset_is_not_counted(tmp_path, offset, size):
    from inspector.core.analysis.sizes import node_sizes
    from inspector.core.loaders import load

    path = _add_model(str(tmp_path / "declared.tflite"), offset, size)
    model = load(path)
    sizes = node_sizes(model.graph)
    assert sum(sizes.values()) <= os.path.getsize(path), sizes
    code, out, err = run_cli("sizes", path, "--json")
    assert code == 0 and "Traceback" not in err, err
