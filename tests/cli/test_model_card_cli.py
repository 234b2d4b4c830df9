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


def test_explain_on_bad_input_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "notes.pb"
    bad.write_text("this is not a model\n")
    code, out, err = run_cli("explain", str(bad))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "notes.pb" in err
