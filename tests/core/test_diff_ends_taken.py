"""The 'interface' rule (compare/ends.py) pairs A's one unpaired output op with B's and merges
the Identity nodes that name it, but never one already paired: A's output chain
Softmax -> i1 -> i2 against a B whose own 'i1' (paired by name) reads its input. Before,
A's i1 was both 'changed' (paired with B's i1) and 'merged' into B's Softmax: two entries,
the counts adding up to more nodes than A has."""

from __future__ import annotations

import json

from inspector.core.model.protos import GraphDef
from tests.conftest import run_cli


def _write(path, nodes) -> str:
    graph_def = GraphDef()
    for name, op, inputs in nodes:
        node = graph_def.node.add(name=name, op=op, input=inputs)
        if op == "Placeholder":
            node.attr["dtype"].type = 1
    path.write_bytes(graph_def.SerializeToString())
    return str(path)


def test_an_identity_paired_already_is_not_also_merged_into_the_output(tmp_path):
    a = _write(tmp_path / "a.pb", [("x", "Placeholder", []), ("r", "Tanh", ["x"]),
                                   ("s", "Softmax", ["r"]), ("i1", "Identity", ["s"]),
                                   ("i2", "Identity", ["i1"])])
    b = _write(tmp_path / "b.pb", [("in", "Placeholder", []), ("q", "Relu", ["in"]),
                                   ("p", "Softmax", ["q"]), ("i1", "Identity", ["in"]),
                                   ("z", "Assert", ["i1"])])
    code, out, err = run_cli("diff", a, b, "--no-flops", "--json")
    assert code == 1, err
    data = json.loads(out)
    named = [e["a"] for e in data["entries"] if e["a"]]
    assert sorted(named) == sorted(set(named)), data["entries"]     # one status a node
    counts = data["counts"]
    assert sum(counts.get(k, 0) for k in ("changed", "removed", "merged", "unchanged")) == 5, \
        counts


def test_the_output_behind_identity_nodes_on_b_side_is_paired_as_on_a_side(tmp_path):
    """compare/ends.py looked behind Identity nodes on A's side only: A's Softmax against B's
    Softmax named by an Identity (a Keras export's 'Identity') was left unpaired, and with
    it the input, so one way read as unrelated models (3 removed, 4 added) while the other
    paired both ends. Matched one way (as pairs over 50k nodes are), both orders now pair
    the ends and mirror each other: B's Identity split out of A's Softmax."""
    from inspector.core.compare.matching import match
    from inspector.core.loaders import load

    a = _write(tmp_path / "a.pb", [("x", "Placeholder", []), ("r", "Tanh", ["x"]),
                                   ("s", "Softmax", ["r"])])
    b = _write(tmp_path / "b.pb", [("in", "Placeholder", []), ("q", "Relu", ["in"]),
                                   ("p", "Softmax", ["q"]), ("Identity", "Identity", ["p"])])
    ga, gb = load(a).graph, load(b).graph
    m, back = match(ga, gb), match(gb, ga)
    assert m.b_of == {"x": "in", "s": "p"} and m.split == {"Identity": "s"}, m
    assert back.b_of == {"in": "x", "p": "s"} and back.merged == {"Identity": "s"}, back
    counts = []
    for first, second in ((a, b), (b, a)):
        code, out, err = run_cli("diff", first, second, "--no-flops", "--json")
        assert code == 1, err
        counts.append({k: v for k, v in json.loads(out)["counts"].items() if v})
    assert counts[0] == {"changed": 2, "added": 1, "removed": 1, "split": 1, "renamed": 2}
    assert counts[1] == {"changed": 2, "added": 1, "removed": 1, "merged": 1, "renamed": 2}


def test_naming_identity_nodes_on_both_sides_are_paired_from_the_op_out(tmp_path):
    from inspector.core.compare.matching import match
    from inspector.core.loaders import load

    a = _write(tmp_path / "a.pb", [("x", "Placeholder", []), ("r", "Tanh", ["x"]),
                                   ("s", "Softmax", ["r"]), ("out", "Identity", ["s"])])
    b = _write(tmp_path / "b.pb", [("in", "Placeholder", []), ("q", "Relu", ["in"]),
                                   ("p", "Softmax", ["q"]), ("Identity", "Identity", ["p"]),
                                   ("Identity_1", "Identity", ["Identity"])])
    m = match(load(a).graph, load(b).graph)
    assert m.b_of == {"x": "in", "s": "p", "out": "Identity"}, m
    assert m.split == {"Identity_1": "s"} and not m.merged, m
