"""TFLite compatibility: the static status of every node (tables, no TensorFlow) checked
against TensorFlow's own converter on probe graphs, fixtures and the demo model; the flex
allowlist against the one compiled into TensorFlow; the ops_to_register.h writer against
TF's print_selective_registration_header.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_tflite_compat.py, tests/cli/test_tflite_compat_cli.py."""

from __future__ import annotations

import os

import pytest
from test_tflite_compat import _graph  # noqa: F401

from inspector.core.app.demo import engine_here
from inspector.core.mobile import tflite_compat as tc
from inspector.core.model.graph import Graph
from inspector.core.tf import lite
from tests.conftest import DEMO
from tests.fixtures import tflite_graphs


def _static_vs_converter(graph_def, ins, outs):
    graph = Graph(graph_def)
    static = tc.analyze(graph, outs, ins)
    first, second = engine_here(graph_def).tflite_confirm(ins, outs, allow_io=True)
    return static, tc.confirm(static, graph, first, second), first, second


def test_builtin_table_names_real_tflite_ops():
    from tensorflow.lite.python import schema_py_generated as schema

    real = {k for k in vars(schema.BuiltinOperator) if k.isupper()}
    for op, target in tc.builtin_table().items():
        assert target in real | {"-", "input", "lowered"}, (op, target)
    assert len(tc.builtin_table()) > 150


def test_flex_table_is_the_installed_tensorflows():
    compiled = lite.flex_allowlist()
    assert len(compiled) > 500 and "MatrixDeterminant" in compiled
    assert tc.flex_ops() == frozenset(compiled)
    assert "Erfinv" not in compiled     # no kernel on phones: our "custom" case below


def test_ops_beyond_builtins_static_equals_converter():
    graph_def, ins, outs = tflite_graphs.beyond_builtins()
    static, confirmed, first, _ = _static_vs_converter(graph_def, ins, outs)
    by = lambda status: {n for n, c in static.nodes.items() if c.status == status}  # noqa: E731
    assert by("flex") == {"det", "cp"}
    assert by("custom") == {"erfinv/Erfinv"}
    assert static.nodes["folded_cumprod"].status == "removed"      # constant input: folded
    assert static.nodes["unused_det"].status == "removed"          # not needed for "out"
    assert {e["code"] for e in first} == {"ERROR_NEEDS_FLEX_OPS", "ERROR_NEEDS_CUSTOM_OPS"}
    assert confirmed["located"] >= 3 and confirmed["unplaced"] == []   # 100 % placed
    assert set(confirmed["nodes"]) == {"det", "cp", "erfinv/Erfinv"}
    assert confirmed["disagree"] == []
    assert sorted(confirmed["agree"]) == ["cp", "det", "erfinv/Erfinv"]
    # With Select TF ops and custom ops allowed it converts; the flex nodes become Flex ops.
    out = lite.convert_tflite(graph_def, ins, outs, select_tf_ops=True, allow_custom_ops=True)
    assert out["errors"] == []
    codes = set(lite.tflite_details(out["model"])["custom"])
    assert {"FlexMatrixDeterminant", "FlexCumprod", "Erfinv"} <= codes
    missing = static.missing_mobile_kernels()
    assert [m[1] for m in missing] == ["Erfinv"]


@pytest.mark.parametrize("build", [tflite_graphs.unary_binary_probe,
                                   tflite_graphs.structural_probe],
                         ids=["elementwise", "structural"])
def test_probe_graphs_static_equals_converter(build):
    graph_def, ins, outs = build()
    static, confirmed, first, second = _static_vs_converter(graph_def, ins, outs)
    assert confirmed["unplaced"] == []
    assert confirmed["disagree"] == [], confirmed["disagree"]
    assert second == [] or all("FLEX" not in e["code"] for e in second)
    counts = static.counts()
    assert counts["builtin"] > 50 and counts["flex"] + counts["custom"] >= 8


@pytest.mark.parametrize("name", ["demo", "mobilenet_v2.pb", "speech_commands.pb",
                                  "inception_jpeg.pb"])
def test_fixture_models_static_equals_converter(name, fx):
    graph_def = _graph(DEMO if name == "demo" else os.path.join(fx, name))
    graph = Graph(graph_def)
    from inspector.core.analysis.summary import summarize

    s = summarize(graph)
    ins = [n.name for n in graph if n.op == "Placeholder"][:1]
    outs = [s.outputs[0].name]
    static, confirmed, first, _ = _static_vs_converter(graph_def, ins, outs)
    assert confirmed["unplaced"] == [] and confirmed["disagree"] == []
    flagged = {n for n, c in static.nodes.items() if c.status in ("flex", "custom")}
    assert flagged == set(confirmed["nodes"])
    if name == "speech_commands.pb":
        assert {static.nodes[n].op for n in flagged} == {"DecodeWav", "AudioSpectrogram",
                                                         "Mfcc"}
    if name == "inception_jpeg.pb":
        assert {static.nodes[n].op for n in flagged} == {"DecodeJpeg"}


def test_the_check_is_a_use_case_whose_result_lives_in_the_state():
    """The window's TFLite check without Qt: the result has one owner, the state."""
    import queue

    from inspector.core.analysis.summary import summarize
    from inspector.core.app import tflite_check
    from inspector.core.app.state import AppState
    from inspector.core.loaders import load
    from inspector.core.runtime.tasks import Tasks
    from inspector.core.view.view_graph import ViewModel
    from tests.fixtures import tflite_graphs

    graph_def, _, _ = tflite_graphs.beyond_builtins()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/odd.pb"
        with open(path, "wb") as fh:
            fh.write(graph_def.SerializeToString())
        model = load(path)
    state = AppState()
    state.engine = None
    seen, errors = [], []
    state.tflite_check_changed.connect(seen.append)
    state.set_model(model, ViewModel(model.graph))
    state.set_summary(model, summarize(model.graph))
    state.workbench.set_marks(["x"], ["out"])
    posted: queue.Queue = queue.Queue()
    tasks = Tasks(posted.put)
    tflite_check.start_check(state, tasks, errors.append)
    while not seen and not errors:
        posted.get(timeout=60)()
    assert errors == []
    check = state.tflite_check
    assert seen == [check] and check.outputs == ("out",)
    assert state.overlay.mode == "compat" and state.overlay.compat["det"] == "flex"
