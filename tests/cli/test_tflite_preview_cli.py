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


def test_a_tflite_file_name_given_to_o_is_refused_before_any_work(tmp_path):
    """walk16: `tflite mobilenet_v2.pb --variants float -o f.tflite` made a folder named
    f.tflite holding mobilenet_v2_float.tflite, and the next command given f.tflite said
    'directory holds no model'. -o takes a folder: a new name ending in .tflite is refused in
    one line that says how the files are named; an existing folder of any name still works."""
    from tests.conftest import run_cli

    target = tmp_path / "f.tflite"
    code, out, err = run_cli("tflite", DEMO, "--variants", "float", "-o", str(target))
    assert code == 2, (out, err)
    assert "-o takes a folder (each variant is written in it as demo_digits_VARIANT.tflite)" \
        in err and str(target) in err and len(err.strip().splitlines()) == 1, err
    assert not target.exists()
    target.mkdir()                                   # a folder of that name: taken
    code, out, err = run_cli("tflite", DEMO, "--variants", "float", "--samples", "4",
                             "--compare", "2", "-o", str(target))
    assert code == 0, err
    assert (target / "demo_digits_float.tflite").read_bytes()[4:8] == b"TFL3"
