"""TFLite compatibility: the static status of every node (tables, no TensorFlow) checked
against TensorFlow's own converter on probe graphs, fixtures and the demo model; the flex
allowlist against the one compiled into TensorFlow; the ops_to_register.h writer against
TF's print_selective_registration_header."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from inspector.core.app.demo import engine_here
from inspector.core.mobile import tflite_compat as tc
from inspector.core.model.graph import Graph
from inspector.core.model.protos import GraphDef
from inspector.core.tf import lite
from tests.conftest import DEMO, run_cli
from tests.fixtures import tflite_graphs


def _graph(path):
    with open(path, "rb") as fh:
        return GraphDef.FromString(fh.read())


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


def test_tf1_while_loop_is_flagged(fx):
    graph = Graph(_graph(os.path.join(fx, "while_v1.pb")))
    static = tc.analyze(graph)
    loop_ops = {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond"}
    flagged = {n.name for n in graph if n.op in loop_ops}
    assert flagged and {n for n, c in static.nodes.items()
                        if c.status == "control_flow"} == flagged
    assert static.problems()[0][1].status == "control_flow"
    scopes = {n.name.split("/")[0] for n in graph if "/" in n.name}
    counted = static.by_scope(scopes)
    assert sum(c["control_flow"] for c in counted.values()) == len(flagged)


def test_mobile_kernel_check_puts_training_first(fx):
    graph = Graph(_graph(os.path.join(fx, "v1_training.pb")))
    missing = tc.analyze(graph).missing_mobile_kernels()
    whys = [why for _, _, why in missing]
    assert whys and whys[0] == "training only"
    assert whys == sorted(whys, key=lambda w: w != "training only")
    graph = Graph(_graph(os.path.join(fx, "inception_jpeg.pb")))
    missing = tc.analyze(graph, ["softmax"]).missing_mobile_kernels()
    assert [(op, why.split(" (")[0]) for _, op, why in missing] == [
        ("DecodeJpeg", "needs an image library")]


def test_statuses_colours_and_labels_cover_each_other():
    assert set(tc.COLOURS) == set(tc.LABELS) == set(tc.SEVERITY) == set(tc.STATUSES)


def test_cli_compat_json_and_confirm():
    import json

    code, out, err = run_cli("compat", DEMO, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["outputs"] and sum(data["counts"].values()) == len(data["nodes"])
    assert data["counts"]["flex"] == 0 and data["counts"]["builtin"] > 5


def test_cli_compat_names_the_blocking_nodes(tmp_path):
    graph_def, _, _ = tflite_graphs.beyond_builtins()
    path = tmp_path / "odd.pb"
    path.write_bytes(graph_def.SerializeToString())
    code, out, err = run_cli("compat", str(path), "--inputs", "x", "--outputs", "out",
                             "--confirm")
    assert code == 0, err
    assert "custom       erfinv/Erfinv" in out and "flex         det" in out
    assert "3 of 3 located errors placed on nodes" in out
    code, out, err = run_cli("compat", str(path), "--outputs", "nope")
    errors = [line for line in err.splitlines() if "error" in line]
    assert code == 2 and len(errors) == 1 and "node 'nope'" in errors[0]


def test_ops_header_matches_tensorflows_tool(tmp_path, fx):
    from tensorflow.python.tools import selective_registration_header_lib as tf_header

    from inspector.core.mobile.ops_header import parse_header

    for name in ("demo", "speech_commands.pb"):
        model = DEMO if name == "demo" else os.path.join(fx, name)
        out = tmp_path / f"{name}.h"
        code, stdout, err = run_cli("ops-header", model, "-o", str(out))
        assert code == 0, err
        ours = out.read_text()
        assert "TensorFlow 2.21" in ours and "kernel registry" in ours
        theirs = tf_header.get_header([model])
        assert parse_header(ours) == parse_header(theirs)
        assert len(parse_header(ours)[0]) > 5
    code, _, err = run_cli("ops-header", DEMO, "-o", str(out))
    assert code == 2 and "exists" in err     # never over an existing file without --force


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler to check the header")
def test_ops_header_compiles_and_answers(tmp_path):
    out = tmp_path / "ops_to_register.h"
    assert run_cli("ops-header", DEMO, "-o", str(out))[0] == 0
    src = tmp_path / "check.cc"
    src.write_text('#include "ops_to_register.h"\n'
                   'static_assert(SHOULD_REGISTER_OP("Conv2D"), "Conv2D");\n'
                   'static_assert(SHOULD_REGISTER_OP(" Softmax"), "spaces are skipped");\n'
                   'static_assert(!SHOULD_REGISTER_OP("MatrixDeterminant"), "unused op");\n'
                   'static_assert(SHOULD_REGISTER_OP_KERNEL("NoOp"), "default kernel");\n'
                   'static_assert(!SHOULD_REGISTER_OP_KERNEL("NoSuchKernel"), "unknown");\n'
                   'static_assert(!SHOULD_REGISTER_OP_GRADIENT, "no gradients");\n'
                   'int main() { return 0; }\n')
    proc = subprocess.run(["g++", "-std=c++14", "-fsyntax-only", f"-I{tmp_path}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _hostile_inputs():
    from tests.fixtures.hostile.manifest import LOADER_CASES

    return [(make, expect, message) for make, expect, message, _o, isolate in LOADER_CASES
            if not isolate]


@pytest.mark.parametrize("make,expect,message", _hostile_inputs(),
                         ids=[m[0].__name__ for m in _hostile_inputs()])
def test_compat_on_hostile_inputs(make, expect, message, tmp_path):
    """Every malformed input of the hostile manifest: `compat` fails with one clean line
    where loading fails, and otherwise answers (or fails cleanly) without a traceback."""
    from tests.fixtures.hostile.manifest import Case
    from tests.test_hostile import _run_in_process, check_outcome

    folder = tmp_path / "in"
    folder.mkdir()
    path = make(str(folder))
    code, out, err = _run_in_process(["compat", path, "--json", "--outputs", "y"])
    expect = expect if expect in ("error", "refused") else "clean"
    check_outcome(Case(make.__name__, make, [], expect, message), code, out, err)


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
