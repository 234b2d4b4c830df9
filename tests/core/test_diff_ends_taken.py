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
