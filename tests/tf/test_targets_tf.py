"""Per-target reports (issue 36.6) against the tools themselves: Vela compiles the int8
variant (made by our converter) and our counts equal its own summary; the ops it cannot place
are named with its reasons; LiteRT's XNNPACK delegate and the GPU and NPU lists."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.loaders import load
from inspector.core.mobile import targets as T


def _convert(tmp, name, builder, variant):
    from inspector.core.tf.lite import convert_tflite

    gd, ins, outs = builder()
    rs = np.random.RandomState(1)
    rep = [{"x": rs.rand(1, 8, 8, 3).astype(np.float32)} for _ in range(8)] \
        if variant == "int8" else None
    result = convert_tflite(gd, ins, outs, variant, representative=rep)
    assert result["model"], result["errors"]
    path = os.path.join(tmp, f"{name}_{variant}.tflite")
    with open(path, "wb") as f:
        f.write(result["model"])
    return path


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    from fixtures.tflite_graphs import npu_mixed

    from inspector.core.tf.executor import install

    install()
    return _convert(str(tmp_path_factory.mktemp("targets")), "mixed", npu_mixed, "int8")


def _report(path, target):
    model = load(path)
    with open(path, "rb") as f:
        return T.report(f.read(), model.tflite, model.graph, target)


def test_vela_compiles_the_int8_variant_and_our_counts_are_its_summary(mixed):
    r = _report(mixed, "ethos-u55-128")
    f = r.figures
    # Vela's printed summary ("NPU operators = 36 (90.0%)") against our count of its CSV
    assert f["per_layer_npu_operators"] == f["vela_npu_operators"] == 36
    assert f["per_layer_cpu_operators"] == f["vela_cpu_operators"] == 4
    assert f["per_layer_npu_percent"] == f["vela_npu_percent"] == 90.0
    assert f["cycles_total"] > f["cycles_npu"] > 0 and f["sram_used_kib"] > 0
    # per .tflite operator: exactly the ones left outside the ethos-u custom op
    assert {p.op for p in r.off} == {"REVERSE_V2", "DEQUANTIZE", "CUMSUM", "QUANTIZE"}
    assert (r.on, len(r.ops)) == (6, 10) and r.share == 0.6
    why = {p.op: p for p in r.off}
    assert why["REVERSE_V2"].reason == "Unsupported reverse mask. Axis attribute is not supported."
    assert why["REVERSE_V2"].node == "rev"
    assert why["CUMSUM"].reason == "Unsupported opType"
    assert "Float32" in why["QUANTIZE"].reason and "float leak" in why["QUANTIZE"].advice
    # Vela's per-layer cycles, each row given to its .tflite operator, add up to its total
    cycles = {p.op: dict(p.cost).get("cycles", 0) for p in r.ops}
    assert sum(cycles.values()) == f["cycles_total"]
    assert cycles["CONV_2D"] > 0 and cycles["SOFTMAX"] > 0 and cycles["CUMSUM"] == 0


def test_a_clean_int8_model_runs_wholly_on_the_npu(data):
    r = _report(os.path.join(data, "digits_int8.tflite"), "ethos-u55-128")
    assert r.share == 1.0 and not r.off
    assert r.figures["vela_cpu_operators"] == 0
    assert r.figures["per_layer_npu_operators"] == r.figures["vela_npu_operators"] == 32


def test_a_float_model_stays_on_the_cpu_and_its_report_is_valid_json(data):
    import json

    r = _report(os.path.join(data, "digits_float.tflite"), "ethos-u55-128")
    assert r.share == 0.0 and r.figures["vela_cpu_operators"] == 6
    assert all("int8 variant" in p.advice for p in r.off)
    json.loads(json.dumps(r.as_json(), allow_nan=False))    # no NaN (Vela writes one)


def test_xnnpack_placement_is_what_litert_delegated(mixed, data):
    r = _report(mixed, "cpu")
    assert {p.op for p in r.off} == {"REVERSE_V2", "CUMSUM", "SOFTMAX"}
    assert r.figures["xnnpack_partitions"] == 3
    assert "ai-edge-litert" in r.source
    whole = _report(os.path.join(data, "digits_float.tflite"), "cpu")
    assert whole.share == 1.0 and whole.figures["xnnpack_partitions"] == 1


def test_gpu_report_names_what_the_delegate_lacks_and_quotes_the_analyzer(mixed):
    r = _report(mixed, "gpu")
    assert [p.op for p in r.off] == ["REVERSE_V2"]
    assert any("looks compatible" in n for n in r.notes)
    assert "gpu_compatibility.cc" in r.source


def test_npu_preflight_finds_float_leaks_and_dynamic_dimensions(mixed, tmp_path):
    from fixtures.tflite_graphs import dynamic_batch

    r = _report(mixed, "npu-ethos-u55")
    off = {p.op: p.reason for p in r.off}
    assert set(off) == {"DEQUANTIZE", "CUMSUM", "QUANTIZE"}
    assert "float leak" in off["QUANTIZE"] and "not on the" in off["CUMSUM"]
    path = str(tmp_path / "dynamic.tflite")
    with open(path, "wb") as f:
        f.write(dynamic_batch())
    r = _report(path, "npu-ethos-u55")
    assert r.off and len(r.off) == len(r.ops)
    assert all("dynamic dimension" in p.reason for p in r.off)
    assert all("float32" in p.reason for p in r.off)
    assert "[-1, 8]" in r.off[0].reason


def test_a_missing_tool_says_which_package_to_install(monkeypatch, data):
    import sys

    from inspector.core.errors import InspectorError
    from inspector.core.tf import targets as tools

    model = open(os.path.join(data, "digits_int8.tflite"), "rb").read()
    for module, package, call in (("ethosu", "ethos-u-vela", lambda: tools.vela_compile(model)),
                                  ("ai_edge_litert", "ai-edge-litert",
                                   lambda: tools.xnnpack_delegation(model))):
        with monkeypatch.context() as m:
            m.setitem(sys.modules, module, None)
            with pytest.raises(InspectorError) as err:
                call()
        assert str(err.value).endswith(f"pip install {package}")
