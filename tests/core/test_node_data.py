"""Model Explorer node-data JSON both ways (issue 36.7): every overlay with data exports and
imports back to the same values (and colours where it paints one per node); files in
ai-edge-quantizer's bare form land on TFLite tensors; hostile files give one line and change
nothing."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from inspector.core.analysis.summary import summarize
from inspector.core.app import node_data_io as io
from inspector.core.app.state import AppState
from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.overlays import node_data, registry
from inspector.core.view.view_graph import ViewModel

BENCH = ("============================== Run Order ==============================\n"
         "\t Conv2D\t 0.000\t 1.250\t 1.250\t 50.000%\t 50.000%\t 0.000\t 1\tconv/Conv2D\n"
         "\t Relu\t 0.000\t 0.125\t 0.125\t 10.000%\t 60.000%\t 0.000\t 1\tconv/Relu\n"
         "\t Conv2D\t 0.000\t 3.5\t 3.5\t 40.000%\t 100.000%\t 0.000\t 1\tconv_1/Conv2D\n")


def _state(path):
    model = load(path)
    state = AppState()
    state.set_model(model, ViewModel(model.graph), summarize(model.graph))
    return state


@pytest.fixture
def state(data):
    return _state(os.path.join(data, "inception_jpeg.pb"))


def _with_every_overlay(state):
    from inspector.core.app.overlay_runs import add_profile
    from inspector.core.mobile import tflite_compat as tc
    from inspector.core.overlays.profiling import parse_benchmark_output

    add_profile(state, parse_benchmark_output(BENCH))
    records = {"conv/Conv2D/eightbit/requant_range": [(-1.5, 2.25), (-1.0, 3.0)],
               "mixed/tower_0/conv/Conv2D/eightbit/requant_range": [(0.0, 6.0)]}
    compat = tc.analyze(state.model.graph, ["softmax"], []).nodes
    state.set_overlay(replace(state.overlay, records=records,
                              compat={n: c.status for n, c in compat.items()}))
    return state


def _round_trip(state, mode, tmp_path):
    path = str(tmp_path / f"{mode}.json")
    written = io.export_node_data(state, path, mode)
    shown = io._Showing(state, mode)
    overlay = registry.get(mode)
    before, colours = overlay.values(shown), (overlay.colours(shown) if overlay.colours else {})
    placed = io.import_node_data(state, path)
    assert written == len(before)
    assert state.overlay.mode == "node-data"
    assert placed.values == before, mode                 # export then import: the identity
    assert not placed.unmatched
    if colours:
        assert placed.colours == colours, mode
    return path


def test_every_overlay_with_data_exports_and_imports_to_the_same_values(state, tmp_path):
    _with_every_overlay(state)
    modes = [m for m, _ in io.exportable(state)]
    assert {"timings", "ranges", "compat"} <= set(modes), modes
    for mode in modes:
        _round_trip(state, mode, tmp_path)
    # the imported overlay itself exports to the same file contents again
    first = _round_trip(state, "compat", tmp_path)
    again = tmp_path / "again.json"
    io.export_node_data(state, str(again), "node-data")
    a, b = json.loads(open(first).read()), json.loads(again.read_text())
    assert list(a.values())[0]["results"] == list(b.values())[0]["results"]


def test_the_file_is_model_explorers_model_node_data(state, tmp_path):
    """Keyed as Model Explorer looks the data up: its GraphDef adapter's graph id and node
    ids (resolved through the adapter's own conversion of the same file)."""
    from tests.fixtures.me_oracle import convert, resolve

    _with_every_overlay(state)
    path = tmp_path / "t.json"
    io.export_node_data(state, str(path), "timings")
    doc = json.loads(path.read_text())
    me = convert(state.model.path)
    (graph_id, graph), = doc.items()
    assert graph_id == "main" and graph_id in me
    landed = {resolve(me[graph_id], k)["namespace"]: e for k, e in graph["results"].items()}
    assert landed == {"conv/Conv2D": {"value": 1.25}, "conv/Relu": {"value": 0.125},
                      "conv_1/Conv2D": {"value": 3.5}}
    assert [g["stop"] for g in graph["gradient"]] == [0.0, 0.5, 1.0]
    io.export_node_data(state, str(path), "compat")
    graph = json.loads(path.read_text())["main"]
    assert len(graph["results"]) == len(state.model.graph)
    landed = {resolve(me["main"], k)["namespace"]: e for k, e in graph["results"].items()}
    assert landed["conv/Conv2D"] == {"value": "builtin", "bgColor": "#9fd8c3"}


def test_quantizer_validate_form_lands_on_tflite_tensors(data, tmp_path):
    """ai-edge-quantizer writes {"results": {tensor name: {"value"}}, "thresholds": [...]}
    with TFLite tensor names; a fused name lands on its operator, not on the constant that
    took the short name first."""
    state = _state(os.path.join(data, "digits_int8.tflite"))
    fused = ("digits_1/relu1_1/Relu;digits_1/bn1_1/batchnorm/add_1;"
             "digits_1/conv1_1/convolution;digits_1/bn1_1/batchnorm/sub1")
    path = tmp_path / "digits_comparison_result_me_input_mse.json"
    path.write_text(json.dumps({
        "results": {fused: {"value": 0.5}, "output": {"value": 2.5},
                    "not/in/this/model": {"value": 1.0}},
        "thresholds": [{"value": 1, "bgColor": "rgb(200, 255, 0)"},
                       {"value": 3, "bgColor": "rgb(200, 127, 0)"}]}))
    placed = io.import_node_data(state, str(path))
    assert placed.values == {"digits_1/relu1_1/Relu_1": 0.5, "output": 2.5}
    assert placed.unmatched == ("not/in/this/model",)
    assert placed.colours == {"digits_1/relu1_1/Relu_1": "#c8ff00", "output": "#c87f00"}
    assert "1 entries named no node: not/in/this/model" == io.unmatched_text(placed)


def test_a_fused_tflite_name_colours_every_graphdef_node_it_names(state, tmp_path):
    """On a GraphDef, a TFLite tensor name "a;b" (a quantizer's key for a variant of it)
    colours each node it names, as our TF<->TFLite mapping does."""
    from inspector.core.mobile.tflite_mapping import nodes_of

    key = "conv/Relu;conv/Conv2D;not_a_node:0"
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"results": {key: {"value": 0.25}}}))
    placed = io.import_node_data(state, str(path))
    assert set(placed.values) == set(nodes_of(key, state.model.graph)) == {"conv/Relu",
                                                                           "conv/Conv2D"}
    assert placed.unmatched == ()


def test_graph_ids_wrappers_and_output_indices(state, tmp_path):
    path = tmp_path / "n.json"
    path.write_text(json.dumps({"graphsData": {"g": {"results": {
        "conv/Relu:0": {"value": "NPU"}, "conv_1/Relu": {"value": "CPU", "bgColor": "red"}}}}}))
    placed = io.import_node_data(state, str(path))
    assert placed.values == {"conv/Relu": "NPU", "conv_1/Relu": "CPU"}
    assert placed.colours["conv_1/Relu"] == "red" and not placed.numeric
    assert placed.name == "g"


HOSTILE = {
    "deep": "[" * 200_000 + "]" * 200_000,
    "deep_object": '{"results": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001,
    "deep_array": '{"results": {"x": {"value": ' + "[" * 100_000 + "]" * 100_000 + "}}}",
    "deep_results": json.dumps({"results": {"conv/Relu": {"value": [[[[1]]]]}}}),
    "not_object": "[1, 2, 3]",
    "results_list": json.dumps({"results": [1, 2]}),
    "value_missing": json.dumps({"results": {"conv/Relu": {"v": 1}}}),
    "value_object": json.dumps({"results": {"conv/Relu": {"value": {"a": 1}}}}),
    "value_bool": json.dumps({"results": {"conv/Relu": {"value": True}}}),
    "nan": '{"results": {"conv/Relu": {"value": NaN}}}',
    "bad_colour": json.dumps({"results": {"conv/Relu": {"value": 1, "bgColor": 7}}}),
    "script_colour": json.dumps({"results": {"conv/Relu": {"value": 1,
                                                            "bgColor": "url(javascript:x)"}}}),
    "thresholds_wrong": json.dumps({"results": {"conv/Relu": {"value": 1}},
                                    "thresholds": {"value": 1}}),
    "unknown_names": json.dumps({"results": {f"ghost_{i}": {"value": i} for i in range(50)}}),
    "empty": "{}",
    "not_json": "results: yes",
    "huge_int": '{"results": {"conv/Relu": {"value": ' + "9" * 5000 + "}}}",
    "long_text": json.dumps({"results": {"conv/Relu": {"value": "x" * 10_000}}}),
    "binary": b"\xff\xfe\x00garbage",
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_file_gives_one_line_and_changes_nothing(state, tmp_path, case):
    _with_every_overlay(state)
    before = state.overlay
    path = tmp_path / f"{case}.json"
    content = HOSTILE[case]
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(InspectorError) as err:
        io.import_node_data(state, str(path))
    line = str(err.value)
    assert "\n" not in line and len(line) < 400, line
    assert str(path) in line
    assert state.overlay is before


def test_a_5000_digit_value_is_named_as_the_value_not_as_pythons_digit_limit(state, tmp_path):
    """Hostile-input run (hostile2): the line read 'not JSON (Exceeds the limit (4300
    digits) for integer string conversion: ... use sys.set_int_max_str_digits() t)'."""
    path = tmp_path / "huge_int.json"
    path.write_text(HOSTILE["huge_int"])
    with pytest.raises(InspectorError) as err:
        io.import_node_data(state, str(path))
    line = str(err.value)
    assert "results['conv/Relu'].value is not a finite number" in line, line
    assert "set_int_max_str_digits" not in line


def test_a_huge_file_is_refused_before_it_is_read(state, tmp_path, monkeypatch):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(node_data.MAX_BYTES + 1)       # sparse: no disk used
    opened = []
    monkeypatch.setattr("builtins.open", lambda *a, **k: opened.append(a) or 1 / 0)
    before = state.overlay
    with pytest.raises(InspectorError, match="over 64 MB"):
        io.import_node_data(state, str(path))
    assert not opened and state.overlay is before


def test_activation_strengths_keyed_by_scope_import_but_do_not_export(state, tmp_path):
    """The activations overlay names collapsed scopes ("conv/"): Model Explorer keys data by
    node, so the export says so in one line and writes nothing; a file keyed by scopes still
    lands on them, whose boxes the import then colours."""
    from types import SimpleNamespace

    import numpy as np

    state.demo = SimpleNamespace(blocks=[
        SimpleNamespace(item="conv/", mean=np.array([0.5, 2.0])),
        SimpleNamespace(item="mixed/", mean=np.array([-1.0, 0.25]))])
    path = tmp_path / "activations.json"
    with pytest.raises(InspectorError, match="on scopes, which Model Explorer does not"):
        io.export_node_data(state, str(path), "activations")
    assert not path.exists()
    path.write_text(json.dumps({"inception_jpeg.pb": {"results": {
        "conv/": {"value": 2.0}, "mixed/": {"value": 0.25}}}}))
    io.import_node_data(state, str(path))
    assert state.overlay.node_data.values == {"conv/": 2.0, "mixed/": 0.25}

def test_the_windows_export_runs_in_a_task_on_a_snapshot(state, tmp_path):
    """Overlay > Export node data: the state as it was when asked is written, even when the
    overlay changes before the task runs; the status says how many entries."""
    from test_marks_use_cases import AtOnce

    _with_every_overlay(state)
    said, failed = [], []
    state.message.connect(said.append)

    class Later(AtOnce):          # the profile is dropped while the task waits
        def submit(self, kind, work, done, failed=None, **kw):
            state.set_overlay(replace(state.overlay, profiles=(), current=-1))
            super().submit(kind, work, done, failed, **kw)

    path = tmp_path / "timings.json"
    io.start_export(state, Later(), str(path), "timings", failed.append)
    assert not failed and said == [f"Wrote the timings overlay as Model Explorer node data "
                                   f"(3 entries): {path}"]
    assert len(json.loads(path.read_text())["main"]["results"]) == 3


def test_a_400_digit_value_is_named_as_the_value_not_as_an_overflow(state, tmp_path):
    """hostile15: a value of 400 digits (under Python's 4,300-digit limit, so an int) raised
    OverflowError (int too large to convert to float) out of the import: a traceback from
    `overlay import`, a crash dialog in the window. It is a value that is no finite number."""
    path = tmp_path / "big_int.json"
    path.write_text(HOSTILE["huge_int"].replace("9" * 5000, "9" * 400))
    assert "9" * 400 in path.read_text() and "9" * 401 not in path.read_text()
    with pytest.raises(InspectorError) as err:
        io.import_node_data(state, str(path))
    assert "results['conv/Relu'].value is not a finite number" in str(err.value), err.value


@pytest.mark.parametrize("content, said", [
    (HOSTILE["deep"], "not Model Explorer node data: the top level is a list, not an object"),
    ("", "not Model Explorer node data: the file is empty"),
    ("  \n\t ", "not Model Explorer node data: the file holds only white space"),
    ("results: yes", "not Model Explorer node data: the top level is not an object"),
])
def test_a_file_that_is_not_an_object_says_what_it_is(state, tmp_path, content, said):
    """hostile15b: an empty file and a list nested 200,000 deep were both 'the top level is
    not an object'."""
    path = tmp_path / "data.json"
    path.write_text(content)
    with pytest.raises(InspectorError) as err:
        io.import_node_data(state, str(path))
    assert str(err.value) == f"{path}: {said}", str(err.value)
