"""Demo runs (issue #14): the model run on a photo, sound or array, checked against a direct
TensorFlow run of the same graph; front-end and value-range detection; labels; block ends;
bad inputs refused before anything runs.

This file holds the tests that drive the command line; the others are in
tests/tf/test_demo_run_tf.py, tests/core/test_demo_run.py."""

from __future__ import annotations

import json
import os

from conftest import run_cli
from test_demo_run import _wav  # noqa: F401


def test_explain_with_an_input_on_the_command_line(fx, tmp_path):
    _wav(tmp_path / "yes.wav")
    path = os.path.join(fx, "speech_commands.pb")
    code, out, err = run_cli("explain", path, "--input", str(tmp_path / "yes.wav"))
    assert code == 0, err
    assert "Run on yes.wav" in out and "spectrogram" in out
    assert "(names from speech_commands_labels.txt)" in out and "conv2:" in out
    code, out, _ = run_cli("explain", path, "--input", str(tmp_path / "yes.wav"), "--json")
    run = json.loads(out)["run"]
    assert len(run["outputs"][0]["top"]) == 5 and run["blocks"][0]["block"] == "conv1"
    (tmp_path / "names.txt").write_text("\n".join(f"word {i}" for i in range(12)))
    code, out, _ = run_cli("explain", path, "--input", str(tmp_path / "yes.wav"), "--labels",
                           str(tmp_path / "names.txt"))
    assert "word " in out and "(names from names.txt)" in out
    code, _, err = run_cli("explain", path, "--input", str(tmp_path / "nothing.wav"))
    assert code == 2 and err.count("\n") == 1 and "nothing.wav" in err
