"""`overlay export|import`: Model Explorer node-data JSON from the command line (issue 36)."""

import json
import os

from conftest import run_cli

RANGES = (";conv/Conv2D/eightbit/requant_range__print__;__requant_min_max:[-2.5][4.25]\n"
          ";conv_1/Conv2D/eightbit/requant_range__print__;__requant_min_max:[0][6]\n")


def test_export_then_import_is_the_identity(data, tmp_path):
    model = os.path.join(data, "inception_jpeg.pb")
    log = tmp_path / "r.log"
    log.write_text(RANGES)
    out = tmp_path / "ranges.json"
    code, stdout, err = run_cli("overlay", "export", model, "--overlay", "ranges",
                                "--ranges", str(log), "-o", str(out))
    assert code == 0, err
    assert "Wrote 2 node-data entries (ranges)" in stdout
    from tests.fixtures.me_oracle import convert, resolve

    results = json.loads(out.read_text())["main"]["results"]   # Model Explorer's graph id
    me = convert(model)["main"]
    assert {resolve(me, k)["namespace"]: e for k, e in results.items()} == \
        {"conv/Conv2D": {"value": 6.75}, "conv_1/Conv2D": {"value": 6.0}}
    code, stdout, err = run_cli("overlay", "import", model, str(out), "--json")
    assert code == 0, err
    got = json.loads(stdout)
    assert got["values"] == {"conv/Conv2D": 6.75, "conv_1/Conv2D": 6.0}
    assert got["unmatched"] == []
    # an existing file is not overwritten without --force
    code, _, err = run_cli("overlay", "export", model, "--overlay", "ranges", "--ranges",
                           str(log), "-o", str(out))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_import_lists_the_entries_that_name_no_node(data, tmp_path):
    path = tmp_path / "vendor.json"
    path.write_text(json.dumps({"results": {"conv/Relu": {"value": 3},
                                            "npu/ghost_op": {"value": 1}}}))
    code, out, err = run_cli("overlay", "import", os.path.join(data, "inception_jpeg.pb"),
                             str(path))
    assert code == 0, err
    assert "1 of 2 entries on nodes" in out
    assert "1 entries named no node: npu/ghost_op" in out


def test_a_hostile_file_is_one_line_and_exit_2(data, tmp_path):
    model = os.path.join(data, "inception_jpeg.pb")
    cases = {"deep.json": "{" * 1 + '"a":' + "[" * 100_000,
             "types.json": json.dumps({"results": {"conv/Relu": {"value": [1]}}}),
             "names.json": json.dumps({"results": {"nope": {"value": 1}}})}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        code, out, err = run_cli("overlay", "import", model, str(tmp_path / name))
        assert code == 2, (name, out, err)
        assert len(err.strip().splitlines()) == 1, err
        assert name in err and not out
