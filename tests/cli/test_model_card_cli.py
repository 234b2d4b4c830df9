"""The model card: layers as defined in code, plain words for inputs and outputs, and the same
figures as the Summary and Preview panels; `explain` on the command line.

This file holds the tests that drive the command line; the others are in
tests/core/test_model_card.py, tests/tf/test_model_card_tf.py."""

import json

from conftest import DEMO, run_cli


def test_explain_on_the_command_line():
    code, out, err = run_cli("explain", DEMO)
    assert code == 0, err
    assert "an 8x8 black-and-white picture" in out and "10 probabilities" in out
    assert "arithmetic operations per input" in out and "Raspberry Pi 3" in out
    code, out, err = run_cli("explain", DEMO, "--json")
    card = json.loads(out)
    assert card["outputs"][0]["name"] == "output"
    assert {f["label"] for f in card["facts"]} >= {"layers", "learned numbers", "arithmetic"}


def test_explain_with_a_batch_given_still_reads_the_outputs_per_input():
    """wild16: `explain --input_shape pixels=2,8,8,1` said the output was 'a block of numbers
    shaped [2,10]': an output's first size equal to the inputs' batch is that batch, as 1
    or an open size is. Fails on the old code."""
    code, out, err = run_cli("explain", DEMO, "--input_shape", "pixels=2,8,8,1")
    assert code == 0, err
    assert "10 probabilities, one per category" in out and "[2,10]" in out, out
    assert "a block of numbers" not in out


def test_explain_on_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "notes.pb"
    bad.write_text("this is not a model\n")
    code, out, err = run_cli("explain", str(bad))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "notes.pb" in err


def test_explain_a_tflite_counts_its_arithmetic_and_layers_without_tensorflow():
    """Issue 45.7: a .tflite's card said "arithmetic: unknown" with TF's "Op type not
    registered 'CONV_2D'" (and an E0000 line), and 0 layers: now its own tensors give both."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    lite = os.path.join(ROOT, "tests", "core", "data", "digits_float.tflite")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    code = ("import sys\nfrom inspector.cli.main import main\n"
            f"rc = main({['explain', lite, '--json']!r})\n"
            "print('tensorflow' in sys.modules, rc, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.stderr.strip().splitlines()[-1] == "False 0", proc.stderr
    assert "E0000" not in proc.stderr
    facts = {f["label"]: f for f in json.loads(proc.stdout)["facts"]}
    assert abs(facts["arithmetic"]["value"] - 627_036) / 627_036 < 0.01  # TF's profiler: .pb
    assert facts["layers"]["value"] == 4          # 2 convolutions, 1 fully connected, 1 pool
