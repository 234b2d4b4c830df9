"""No command sends a model's control characters to the terminal as they are: a node named
'ESC [2J evil RLO BEL' (clear the screen, reverse the line, ring) shows as escapes in explain,
sizes, compat, diff and overlay's output (found by the hostile run; summarize has its own test
in test_loaders)."""

from __future__ import annotations

import pytest
from conftest import run_cli

from tests.fixtures.hostile import inputs as I

NAME = "\x1b[2Jevil\u202e\x07"


def _models(d):
    gd = I._small_graph()
    # in a scope of that name: `sizes` lists scopes (a graph with none is grouped by op type)
    node = gd.node.add(name=f"{NAME}/id", op="Identity", input=["y"])
    node.attr["T"].type = 1
    return I.graph_file(d, "named.pb", gd), I.graph_file(d, "plain.pb", I._small_graph())


@pytest.mark.parametrize("argv", [
    ["explain", "{named}"], ["sizes", "{named}"], ["compat", "{named}"],
    ["diff", "{plain}", "{named}"],
    ["overlay", "export", "{named}", "--overlay", "compat", "-o", "{dir}/o.json"]])
def test_a_node_name_s_control_characters_are_escaped(tmp_path, argv):
    named, plain = _models(str(tmp_path))
    argv = [a.format(named=named, plain=plain, dir=tmp_path) for a in argv]
    code, out, err = run_cli(*argv)
    assert code in (0, 1), err
    for raw in ("\x1b", "\u202e", "\x07"):
        assert raw not in out + err, (out + err)[:2000]
    assert argv[0] == "overlay" or "\\x1b[2Jevil\\u202e\\x07" in out + err
