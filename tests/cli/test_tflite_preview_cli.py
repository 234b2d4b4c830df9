"""Conversion preview on real models: four variants converted by TF's converter, run by a
TFLite interpreter and compared with TensorFlow; TFLite ops mapped back onto GraphDef nodes;
per-layer int8 error from TF's QuantizationDebugger; representative data from photos.

This file holds the tests that drive the command line; the others are in
tests/tf/test_tflite_preview_tf.py, tests/core/test_tflite_preview.py."""

from __future__ import annotations

from tests.conftest import DEMO


def test_cli_tflite_writes_variants_and_refuses_existing(tmp_path):
    from tests.conftest import run_cli

    code, out, err = run_cli("tflite", DEMO, "--inputs", "pixels", "--outputs", "output",
                             "--variants", "float,int8", "--samples", "10", "--compare", "4",
                             "-o", str(tmp_path))
    assert code == 0, err
    assert "RANDOM DATA" in err
    assert (tmp_path / "demo_digits_int8.tflite").read_bytes()[4:8] == b"TFL3"
    assert "in  pixels: int8 [1, 8, 8, 1] scale" in out and "builtin ops: CONV_2D" in out
    code, out, err = run_cli("tflite", DEMO, "--inputs", "pixels", "--outputs", "output",
                             "--variants", "float", "-o", str(tmp_path))
    assert code == 2 and "exists" in err
    code, out, err = run_cli("tflite", DEMO, "--variants", "int4")
    assert code == 2 and "unknown variant 'int4'" in err


def test_input_shape_is_taken_with_either_spelling_on_every_command():
    """`tflite` took only --input-shape and `flops`, `check`, `transform`, `profile`,
    `calibrate`, `explain` only --input_shape: a user who gave `tflite` the spelling the other
    commands take got "unrecognized arguments: --input_shape"."""
    from tests.conftest import run_cli

    code, out, err = run_cli("tflite", DEMO, "--variants", "float", "--samples", "2",
                             "--compare", "2", "--input_shape", "pixels=1,8,8,1")
    assert code == 0, err
    assert "in  pixels: float32 [1, 8, 8, 1]" in out
    code, out, err = run_cli("flops", DEMO, "--input-shape", "pixels=2,8,8,1")
    assert code == 0, err
    assert out.startswith("Total FLOPs: 1,259,928 ")       # batch 2: twice batch 1
    code, out, err = run_cli("explain", DEMO, "--input-shape", "pixels=2,8,8,1")
    assert code == 0, err
