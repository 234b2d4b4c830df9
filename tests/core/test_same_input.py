"""One "same input" test (changes.same_input) looks behind reads on both sides, in place of
four special cases (A's read of a constant folded and split out in B, B reading through
Identity nodes A lacks, and the two control-input ones); it reads alike from either side
(the mirrored matching), and a node waiting on thousands of control inputs is compared in
time linear in them. Matching.explains_a / explains_b is the one test of "not removed /
not added" that the diff and the either-way choice share."""

from __future__ import annotations

from inspector.core.compare import changes
from inspector.core.compare.changes import same_input
from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.either_way import unexplained
from inspector.core.model import protos
from inspector.core.model.graph import Graph


def _graph(nodes) -> Graph:
    gd = protos.GraphDef()
    for name, op, inputs in nodes:
        node = gd.node.add(name=name, op=op)
        node.input.extend(inputs)
        node.attr["T"].type = 1
    return Graph(gd)


BASE = [("in", "Placeholder", []), ("w", "Const", []), ("w/read", "Identity", ["w"])]


def test_reading_through_an_identity_one_side_lacks_is_the_same_input_either_way():
    ga = _graph(BASE + [("mm", "MatMul", ["in", "w/read"])])
    gb = _graph(BASE[:2] + [("mm", "MatMul", ["in", "w"])])
    d = diff_graphs(ga, gb)
    m = d.matching
    assert m.b_of["mm"] == "mm" and same_input(ga, gb, "w/read", "w", m)
    assert same_input(gb, ga, "w", "w/read", m.mirrored())
    assert not same_input(ga, gb, "in", "w", m)
    assert not [c for e in d.entries for c in e.changes if c.kind in ("rewired", "control")]
    back = diff_graphs(gb, ga)
    assert not [c for e in back.entries for c in e.changes if c.kind in ("rewired", "control")]


def test_control_inputs_behind_reads_match_and_the_rest_are_counted_once_each():
    ga = _graph(BASE + [("x", "Const", []), ("y", "Relu", ["in"]),
                        ("op", "NoOp", ["^w/read", "^x", "^y"])])
    gb = _graph(BASE[:2] + [("x", "Const", []), ("z", "Tanh", ["in"]),
                            ("op", "NoOp", ["^w", "^x", "^z", "^z"])])
    d = diff_graphs(ga, gb)
    found = [c.text for e in d.entries if e.a == "op" for c in e.changes if c.kind == "control"]
    assert found == ["control inputs: 1 added, 1 removed"]           # y gone, z new


def test_a_node_waiting_on_thousands_is_compared_in_linear_time(monkeypatch):
    n = 3000
    consts = [(f"c{k}", "Const", []) for k in range(n)]
    ga = _graph(consts + [("init", "NoOp", [f"^c{k}" for k in range(n)])])
    gb = _graph(consts + [("init", "NoOp", [f"^c{k}" for k in range(n - 1)] + ["^in"]),
                          ("in", "Placeholder", [])])
    calls = []
    real = changes.behind_reads
    monkeypatch.setattr(changes, "behind_reads", lambda g, name: calls.append(1) or
                        real(g, name))
    d = diff_graphs(ga, gb)
    found = [c.text for e in d.entries if e.a == "init" for c in e.changes
             if c.kind == "control"]
    assert found == ["control inputs: 1 added, 1 removed"]
    assert len(calls) <= 2 * (2 * n + 2)          # each input looked behind once, not n times


def test_explains_is_what_the_diff_leaves_unremoved_and_unadded():
    ga = _graph(BASE + [("mm", "MatMul", ["in", "w/read"]), ("gone", "Relu", ["mm"])])
    gb = _graph(BASE[:2] + [("mm", "MatMul", ["in", "w"]), ("new", "Tanh", ["mm"])])
    d = diff_graphs(ga, gb)
    m = d.matching
    removed = {e.a for e in d.entries if e.status == "removed"}
    added = {e.b for e in d.entries if e.status == "added"}
    assert {a for a in ga.names() if not m.explains_a(a)} == removed
    assert {b for b in gb.names() if not m.explains_b(b)} == added
    assert unexplained(m, ga, gb) == {("A", a) for a in removed} | {("B", b) for b in added}
    assert "gone" in removed and "new" in added
