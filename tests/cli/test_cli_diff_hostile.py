"""`graphdef-inspector diff` of models whose recorded shapes are damaged (`_output_shapes`
holding a shape instead of a list of shapes): the diff's report, not a traceback."""

from conftest import run_cli

from tests.core.test_static_shapes_hostile import hostile_recorded


def test_a_diff_of_damaged_recorded_shapes_reports(tmp_path):
    a, b = tmp_path / "a.pb", tmp_path / "b.pb"
    gd = hostile_recorded("shape")
    a.write_bytes(gd.SerializeToString())
    gd.node.add(name="z", op="Relu", input=["m"]).attr["T"].type = 1
    b.write_bytes(gd.SerializeToString())
    code, out, err = run_cli("diff", str(a), str(b))
    assert code == 1, err
    assert "Traceback" not in err and "added Relu 'z'" in out


def test_a_diff_of_a_tflite_whose_flop_count_is_past_a_float_reports(tmp_path):
    """hostile15: an ADD on tensors of 64 sizes of 2^31-1 counts ~10^597 FLOPs, and the
    latency estimate raised OverflowError (int too large to convert to float): a traceback.
    A count past TensorFlow's int64 is not counted; the diff reports (exit 1: different)."""
    from tests.fixtures.hostile import inputs as I

    a = I.tflite_64_dims_and_another(str(tmp_path))
    code, out, err = run_cli("diff", a, str(tmp_path / "other.tflite"))
    assert code == 1, err[-2000:]
    assert "Traceback" not in err
    assert "FLOPs                     unknown (the count is too big to hold" in out, out
