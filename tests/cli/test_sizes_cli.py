"""Where the bytes go: node sizes add up to the file size. The protobuf framing of every node
(tag + length varint in GraphDef.node) is counted in the node, and the graph's library and
versions fields with their framing in `other`, so for a binary GraphDef the unaccounted
remainder is 0 bytes, lazily read files included (demo: 47,898 = 47,893 in nodes + 5 for
versions). Groups add up, duplicates are found by their bytes, and the squarified treemap
tiles the rectangle.

This file holds the tests that drive the command line; the others are in
tests/core/test_sizes.py, tests/tf/test_sizes_tf.py."""

from __future__ import annotations

import os

from tests.conftest import DEMO, run_cli


def test_cli_sizes():
    import json

    code, out, err = run_cli("sizes", DEMO)
    assert code == 0, err
    assert "not in any node or field: 0 bytes" in out
    code, out, err = run_cli("sizes", DEMO, "--by", "op", "--json")
    data = json.loads(out)
    assert data["remainder"] == 0 and data["groups"][0]["name"] == "Const"
    assert sum(g["bytes"] for g in data["groups"]) == data["nodes_total"]


def test_cli_sizes_of_a_lazily_opened_model(fx):
    import json

    code, out, err = run_cli("sizes", os.path.join(fx, "mobilenet_v2.pb"), "--by", "dtype",
                             "--no-duplicates", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["remainder"] == 0 and data["duplicates"] == []
    assert data["nodes_total"] + data["graph_fields"] == data["file_size"]
    assert data["groups"][0]["name"] == "float"
    code, out, err = run_cli("sizes", os.path.join(fx, "mobilenet_v2.pb"), "--top", "2")
    assert code == 0 and "Duplicated constants:" in out and "more (--top)" in out, err


def test_cli_sizes_of_a_graph_without_scopes_groups_by_op_type():
    """'by scope' of a flat graph listed single nodes in name order (every node a group of
    one at the top level): it says there are no scopes and groups by op type."""
    import json

    from tests.fixtures import scale_models

    path = scale_models.flat_graph(1000)
    code, out, err = run_cli("sizes", path, "--no-duplicates", "--top", "3")
    assert code == 0, err
    assert "(no name scopes in this graph: grouped by op type):" in out
    assert out.splitlines()[1].split()[-1] == "Const" and "nodes  conv_" not in out
    code, out, err = run_cli("sizes", path, "--no-duplicates", "--json")
    data = json.loads(out)
    assert data["by"] == "op" and data["note"].startswith("no name scopes")
    assert sum(g["bytes"] for g in data["groups"]) == data["nodes_total"]


def test_cli_sizes_says_1_node_and_keeps_the_names_column():
    """A group of one node read "1 nodes"; now "1 node", the names still in one column."""
    code, out, err = run_cli("sizes", DEMO, "--by", "op", "--no-duplicates", "--top", "50")
    assert code == 0, err
    rows = [line for line in out.splitlines()[1:] if line.rstrip().endswith(
        ("NoOp", "Const", "MaxPool", "Identity"))]
    assert " 1 nodes " not in out
    one = next(r for r in rows if r.endswith("NoOp"))
    assert one.endswith(" 1 node   NoOp")
    assert len({r.rfind(" ") for r in rows}) == 1, rows   # the names start in one column


def test_cli_sizes_refuses_a_depth_or_top_below_1():
    """--depth -3, --top 0 and --top -2 were taken silently (a negative --top cut rows from
    the end); they are refused in one line, exit 2, before the model is read."""
    for flag, value in (("--depth", "-3"), ("--depth", "0"), ("--top", "0"),
                        ("--top", "-2")):
        code, out, err = run_cli("sizes", DEMO, flag, value)
        assert code == 2 and out == "", (flag, value, out)
        assert err == f"graphdef-inspector: error: {flag} must be at least 1 (got {value})\n"


def test_a_tflite_s_other_subgraphs_are_named_in_the_rest_of_the_file(tmp_path):
    """A .tflite's nodes are its main subgraph's: a WHILE's cond and body subgraphs (not
    drawn) take bytes outside every node. The rest of the file was said to be "the model's
    own fields: operator codes, signatures, metadata; padding" alone, hiding the bodies
    (whose weights can be most of a model); it now names them and their bytes, in the CLI
    and the window alike (sizing.rest_of_file)."""
    import pytest

    pytest.importorskip("ai_edge_litert.schema_py_generated")
    from inspector.core.app import sizing
    from inspector.core.loaders import load
    from tests.fixtures.hostile.inputs import _tflite_calls

    path = _tflite_calls(str(tmp_path), "while_body.tflite",
                         [[("WHILE", (1, 2))], [("LESS", ())], []])
    model = load(path)
    found = model.tflite
    theirs = sum(p.file_bytes for g in found.subgraphs[1:]
                 for p in (*g.tensors, *g.operators))
    assert found.sized and theirs > 0
    said = sizing.rest_of_file(model)
    assert f"its 2 other subgraphs (loop and branch bodies, not drawn: {theirs:,} bytes)" \
        in said, said
    code, out, err = run_cli("sizes", path)
    assert code == 0, err
    assert f"({said})" in out, out


def test_a_few_bytes_are_said_in_bytes_not_as_0_0_kb():
    """The review's item: `sizes` printed 42 bytes as '0.0 KB'."""
    from inspector.cli.sizes import _mb

    assert (_mb(42), _mb(999), _mb(1000), _mb(1_048_575)) == ("42 B", "999 B", "1.0 KB",
                                                               "1.00 MB")
