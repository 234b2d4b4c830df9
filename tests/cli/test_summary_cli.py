"""summarize: TF's exact text, and the ranked report with its fixes for TF's blind spots.

This file holds the tests that drive the command line; the others are in
tests/core/test_summary.py, tests/tf/test_summary_tf.py."""

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, run_cli
from test_summary import reference_graph  # noqa: F401

REFERENCE_TEXT = """\
Found 1 possible inputs: (name=input, type=float(1), shape=[1,4]) 
No variables spotted.
Found 1 possible outputs: (name=output, op=Relu) 
Found 16 (16) const parameters, 0 (0) variable parameters, and 0 control_edges
Op types used: 2 Const, 2 MatMul, 1 AddV2, 1 Identity, 1 Placeholder, 1 Relu
To use with tensorflow/tools/benchmark:benchmark_model try these arguments:
bazel run tensorflow/tools/benchmark:benchmark_model -- --graph=g.pb --show_flops \
--input_layer=input --input_layer_type=float --input_layer_shape=1,4 --output_layer=output
"""


def test_tf_format_matches_reference_example(tmp_path):
    path = tmp_path / "g.pb"
    path.write_bytes(reference_graph().SerializeToString())
    code, out, err = run_cli("summarize", "--format=tf", "g.pb", cwd=tmp_path)
    assert code == 0, err
    assert out == REFERENCE_TEXT


def test_cli_text_and_json(fx):
    code, out, err = run_cli("summarize", os.path.join(fx, "inception_jpeg.pb"))
    assert code == 0, err
    assert "1. Mul" in out and "--input_layer=Mul" in out and "--output_layer=softmax" in out
    code, out, err = run_cli("summarize", "--json", os.path.join(fx, "mobilenet_v2.pb"))
    data = json.loads(out)
    assert data["inputs"][0]["name"] == "input" and data["inputs"][0]["shape"] == "[1,224,224,3]"
    assert data["op_counts"]["Conv2D"] == 35 and data["op_counts"]["DepthwiseConv2dNative"] == 17
    assert sum(data["bytes_by_op"].values()) <= os.path.getsize(os.path.join(fx, "mobilenet_v2.pb"))


@pytest.mark.parametrize("name", ["inception_jpeg.pb", "mobilenet_v2.pb", "v1_training.pb",
                                  "v1_training.pbtxt", "text_really.pb", "v1_training.meta",
                                  "while_v1.pb", "while_v2.pb", "two_signatures", "tiny.keras",
                                  "tiny.h5"])
@pytest.mark.parametrize("fmt", ["text", "tf", "json"])
def test_summarize_works_on_every_fixture(fx, name, fmt):
    code, out, err = run_cli("summarize", f"--format={fmt}", os.path.join(fx, name))
    assert code == 0, err
    assert out.strip()
    assert "Traceback" not in err


def test_print_structure_lists_nodes_in_execution_order(tmp_path):
    path = tmp_path / "g.pb"
    path.write_bytes(reference_graph().SerializeToString())
    code, out, err = run_cli("summarize", "--format=tf", "--print_structure", "g.pb", cwd=tmp_path)
    assert code == 0, err
    structure = out[len(REFERENCE_TEXT):].splitlines()
    assert structure == [
        "w2 (Const): [], value=Tensor<type: float shape: [4,2] values: [0 1][2...]...>",
        "w (Const): [], value=Tensor<type: float shape: [4,2] values: [0 1][2...]...>",
        "input (Placeholder): []",
        "mm2 (MatMul): [input, w2]",
        "mm (MatMul): [input, w]",
        "add (AddV2): [mm, mm2]",
        "ident (Identity): [add]",
        "output (Relu): [ident]"]


def test_summarize_ends_its_process_without_freeing_the_model_after_a_whole_report():
    """The command's process leaves through launcher.quick_exit once the report is written
    and flushed (a 1M-node graph's objects took ~0.3-0.7 s to free one by one); the report
    and the exit code are whole. A caller's main([...]) returns as before."""
    probe = ("import os, sys\n"
             "real = os._exit\n"
             "def seen(code):\n"
             "    sys.stderr.write(f'quick exit {code}\\n'); sys.stderr.flush(); real(code)\n"
             "os._exit = seen\n"
             "sys.argv = ['graphdef-inspector', 'summarize']\n"
             "from inspector.launcher import main\n"
             "sys.exit(main())\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "quick exit 0" in done.stderr
    assert done.stdout.startswith("Model: ") and "Benchmark: " in done.stdout
    called = ("import contextlib, io\nfrom inspector.launcher import main\n"
              "with contextlib.redirect_stdout(io.StringIO()): code = main(['summarize'])\n"
              "print('returned', code)\n")
    done = subprocess.run([sys.executable, "-c", called], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.stdout.strip() == "returned 0", done.stderr


def test_the_benchmark_line_of_a_meta_names_a_graphdef_to_write_first(fx):
    """benchmark_model reads a GraphDef; the line for a .meta (a SavedModel, a Keras or TF.js
    model) gave it --graph=v1_training.meta, which it cannot read."""

    meta = os.path.join(fx, "v1_training.meta")
    code, out, err = run_cli("summarize", meta)
    assert code == 0, err
    line = out.splitlines()[-1]
    assert line.startswith("Benchmark: benchmark_model --graph=v1_training_frozen.pb "), line
    assert line.endswith(f"(benchmark_model reads a GraphDef: write it first with "
                         f"graphdef-inspector convert {meta} -o v1_training_frozen.pb)"), line
    code, out, err = run_cli("summarize", os.path.join(fx, "v1_training.pb"))
    assert f"--graph={os.path.join(fx, 'v1_training.pb')} " in out.splitlines()[-1]
