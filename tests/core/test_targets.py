"""Per-target reports without TensorFlow (issue 36.6): the shipped lists name their source,
the pre-flight check on committed .tflite files, Vela's printed warnings and summary read, and
the "Target" overlay exported and imported as Model Explorer node data unchanged."""

from __future__ import annotations

import os

import pytest

from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.mobile import target_lists as lists
from inspector.core.mobile import targets as T


def _preflight(data, name, rules="ethos-u55"):
    model = load(os.path.join(data, name))
    return T.preflight(model.tflite, lists.op_list(rules), T.op_nodes(model.graph),
                       "npu-" + rules)


def test_every_shipped_list_names_its_source():
    for name in ("ethos-u55", "ethos-u85", "gpu"):
        rules = lists.op_list(name)
        assert rules.source != "(not named)" and len(rules.ops) > 40, name
        assert "CONV_2D" in rules.ops
    assert "vela --supported-ops-report" in lists.op_list("ethos-u55").source
    assert "gpu_compatibility.cc" in lists.op_list("gpu").source


def test_preflight_of_a_clean_int8_model_and_of_a_float_one(data):
    r = _preflight(data, "digits_int8.tflite")
    assert r.share == 1.0 and r.figures["quantized_graph"] is True
    assert r.values()["digits_1/relu1_1/Relu_1"] == "accelerator"
    f = _preflight(data, "digits_float.tflite")
    assert f.share == 0.0 and all("computes in float32" in p.reason for p in f.off)
    assert "int8 variant" in f.off[0].advice


def test_vela_output_is_read(tmp_path):
    stdout = ("Warning (supported operators) operator: CUMSUM, ofm: 'cumsum'\n"
              "Reason: Unsupported opType\n"
              "Warning (supported operators) operator: REVERSE_V2, ofm: 'rev'\n"
              "Reason: Unsupported reverse mask.\nAxis attribute is not supported.\n"
              "Network summary for m\nCPU operators = 4 (10.0%)\nNPU operators = 36 (90.0%)\n")
    assert T.vela_warnings(stdout) == {
        "cumsum": "Unsupported opType",
        "rev": "Unsupported reverse mask. Axis attribute is not supported."}
    assert T.vela_summary(stdout) == {"vela_cpu_operators": 4, "vela_cpu_percent": 10.0,
                                      "vela_npu_operators": 36, "vela_npu_percent": 90.0}


@pytest.mark.parametrize("text", ["", "# label: x\n", "CONV_2D\nrm -rf /\n"])
def test_a_bad_user_list_is_one_line(tmp_path, text):
    path = tmp_path / "mine.txt"
    path.write_text(text)
    with pytest.raises(InspectorError) as err:
        lists.read_list(str(path))
    assert "\n" not in str(err.value)


def test_unknown_targets_are_refused():
    for bad in ("tpu", "npu-../../etc/passwd", "ethos-u55-7"):
        with pytest.raises(InspectorError):
            T.parse_target(bad)
    with pytest.raises(InspectorError):
        lists.op_list("../secret")


def test_the_target_overlay_exports_and_imports_unchanged(data, tmp_path):
    from dataclasses import replace

    from inspector.core.analysis.summary import summarize
    from inspector.core.app import node_data_io as io
    from inspector.core.app.state import AppState
    from inspector.core.view.view_graph import ViewModel

    model = load(os.path.join(data, "digits_int8.tflite"))
    state = AppState()
    state.set_model(model, ViewModel(model.graph), summarize(model.graph))
    report = T.preflight(model.tflite, lists.op_list("gpu"), T.op_nodes(model.graph), "gpu")
    state.set_overlay(replace(state.overlay, targets=report, mode="targets"))
    assert ("targets", "Target") in io.exportable(state)
    path = str(tmp_path / "targets.json")
    assert io.export_node_data(state, path) == len(report.ops)
    placed = io.import_node_data(state, path)
    assert placed.values == report.values() and placed.colours == report.colours()
