"""`diff` of two .tflite files that differ only in quantization parameters (the same int8
bytes, another scale: a recalibrated model) is not "Equal": a constant is compared by its
real values, (q - zero point) x scale, and an activation's scale and zero point are listed.
Before, both read "Equal: 14 nodes matched, nothing changed" (exit 0)."""

import json
import os
import struct

from conftest import run_cli

from inspector.core.loaders import load

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "core", "data")
INT8 = os.path.join(DATA, "digits_int8.tflite")


def _with_scale_doubled(tmp_path, node: str) -> str:
    """A copy of the int8 model with `node`'s first scale doubled in the file's bytes."""
    scale = load(INT8).graph.node(node).proto.attr["quant_scale"].list.f[0]
    data = open(INT8, "rb").read()
    old = struct.pack("<f", scale)
    assert data.count(old) == 1, node
    path = tmp_path / "recalibrated.tflite"
    path.write_bytes(data.replace(old, struct.pack("<f", scale * 2)))
    return str(path)


def _changes(out: str) -> dict:
    return {e["a"]: [c["text"] for c in e["changes"]]
            for e in json.loads(out)["entries"] if e["status"] == "changed"}


def test_a_constant_whose_scale_changed_has_other_values(tmp_path):
    weights = "digits_1/conv1_1/convolution"
    code, out, err = run_cli("diff", INT8, _with_scale_doubled(tmp_path, weights), "--json")
    assert code == 1, err
    changed = _changes(out)
    assert list(changed) == [weights]
    assert any(t.startswith("values changed") for t in changed[weights]), changed


def test_an_activations_scale_is_listed(tmp_path):
    relu = "digits_1/relu1_1/Relu_1"
    code, out, err = run_cli("diff", INT8, _with_scale_doubled(tmp_path, relu), "--json")
    assert code == 1, err
    changed = _changes(out)
    assert list(changed) == [relu]
    assert [t.split(":")[0] for t in changed[relu]] == ["quant_scale"], changed
