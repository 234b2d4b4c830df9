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
