"""TFLite compatibility: the static status of every node (tables, no TensorFlow) checked
against TensorFlow's own converter on probe graphs, fixtures and the demo model; the flex
allowlist against the one compiled into TensorFlow; the ops_to_register.h writer against
TF's print_selective_registration_header.

This file holds the tests that drive the command line; the others are in
tests/tf/test_tflite_compat_tf.py, tests/core/test_tflite_compat.py."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.conftest import DATA, DEMO, run_cli
from tests.fixtures import tflite_graphs


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


def test_compat_confirm_exits_1_when_the_converter_fails(fx):
    """Regression: `compat --confirm` on text_really.pb (variables the converter cannot
    read) said "The converter failed: ..." and exited 0, so a script took it for a pass. It
    exits 1 (the check failed, README's convention; 2 stays bad input) with one line on
    stderr, with --json too; a conversion that succeeds with errors placed on nodes exits 0
    (test_cli_compat_names_the_blocking_nodes)."""
    import json

    model = os.path.join(fx, "text_really.pb")
    code, out, err = run_cli("compat", model, "--confirm")
    said = [line for line in err.splitlines() if line.startswith("graphdef-inspector:")]
    assert code == 1, err
    assert said == ["graphdef-inspector: compat --confirm failed: TFLite's converter failed: "
                    "Attempting to use uninitialized value conv1/weights (node 'Identity')"]
    assert "\nThe converter failed: Attempting to use uninitialized value" in out
    code, out, err = run_cli("compat", model, "--confirm", "--json")
    assert code == 1, err
    assert json.loads(out)["converter"]["failed"].startswith("Attempting to use")
    assert err.count("compat --confirm failed") == 1
    code, out, err = run_cli("compat", model)         # nothing converted: nothing failed
    assert code == 0, err


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


def test_ops_header_refuses_a_tflite_in_one_line_as_other_unsupported_inputs(tmp_path):
    """It wrote a header and said "No CPU kernel in this TensorFlow for: CONV_2D, ..." (TFLite
    builtins are not TensorFlow ops): one line saying what to use, exit 2 as `profile` and
    `compat` on a .tflite, nothing written."""
    out = tmp_path / "ops_to_register.h"
    code, stdout, err = run_cli("ops-header", os.path.join(DATA, "digits_int8.tflite"),
                                "-o", str(out))
    assert code == 2 and not out.exists() and "CONV_2D" not in err + stdout
    said = [ln for ln in err.splitlines() if not ln.startswith("note:")]
    assert len(said) == 1 and "a TensorFlow Lite model" in said[0] and "tflite-info" in said[0]
    assert run_cli("profile", os.path.join(DATA, "digits_int8.tflite"))[0] == code


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
    from test_hostile import _run_in_process, check_outcome

    from tests.fixtures.hostile.manifest import Case

    folder = tmp_path / "in"
    folder.mkdir()
    path = make(str(folder))
    code, out, err = _run_in_process(["compat", path, "--json", "--outputs", "y"])
    expect = expect if expect in ("error", "refused") else "clean"
    check_outcome(Case(make.__name__, make, [], expect, message), code, out, err)
