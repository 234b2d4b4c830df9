"""Whole-graph C calls on the diff's path go PIECE items a call (each holds the GIL while
the comparison window waits; at 300k nodes one call held it 20-100 ms): every node's input
refs (node_view.every_input), the NodeDef list of compare.columns, and the attribute tails'
pair test; and the matcher's big lists of pairs are emptied a piece at a time, not freed
whole when the function holding them returns. Same results as the one-shot way."""

from __future__ import annotations

from array import array

import numpy as np
import pytest

from inspector.core.compare import (
    attr_bytes,
    columns as columns_module,
    diff as diff_module,
    matching,
    structure,
)
from inspector.core.compare.columns import release
from inspector.core.model import node_view, protos
from inspector.core.model.graph import Graph
from tests.fixtures.pieces import Slices


class _Sliced(array):
    """An array('i'/'q') that records the length of each slice taken of it."""

    def __getitem__(self, key):
        got = super().__getitem__(key)
        if isinstance(key, slice):
            self.taken.append(len(got))
        return got


def _graph() -> Graph:
    gd = protos.GraphDef()
    gd.node.add(name="x", op="Placeholder")
    for k in range(40):
        inputs = ["x" if k == 0 else f"n{k - 1}"]
        if k % 5 == 1:
            inputs.append("nowhere:1")                       # names no node
        if k % 7 == 2:
            inputs.append("x:9999999999")                    # a port past an int32
        if k % 3 == 0:
            inputs.append("^x")                              # a control input
        gd.node.add(name=f"n{k}", op="Identity", input=inputs)
    return Graph(gd)


def test_every_nodes_refs_are_made_a_piece_at_a_time(monkeypatch):
    g = _graph()
    cols = g._cols
    one_by_one = [node_view.inputs_of(cols, i) for i in range(len(g))]
    taken: list = []
    cols.src = _Sliced(cols.src.typecode, cols.src)
    cols.src.taken = taken
    monkeypatch.setattr(node_view, "PIECE", 7)
    assert node_view._every_input(cols) == one_by_one
    assert taken and max(taken) <= 7 * 4            # 7 nodes, each under 4 inputs
    assert any(r.node == "nowhere" for refs in one_by_one for r in refs)
    assert any(r.port == 9999999999 for refs in one_by_one for r in refs)


@pytest.mark.parametrize("n", [0, 5, 40])
def test_same_tails_reads_the_pairs_a_piece_at_a_time(monkeypatch, n):
    rng = np.random.default_rng(n)
    keys_a = [bytes([k]) * 3 for k in range(30)]
    keys_b = [bytes([k]) * 3 for k in range(20, 50)]          # 10 keys shared
    ids_a, ids_b = rng.integers(0, 30, 60), rng.integers(0, 30, 60)
    xs, ys = rng.integers(0, 60, n).tolist(), rng.integers(0, 60, n).tolist()
    want = [keys_a[ids_a[x]] == keys_b[ids_b[y]] for x, y in zip(xs, ys)]
    taken: list = []
    ta, tb = (Slices(keys_a, taken), ids_a), (Slices(keys_b, taken), ids_b)
    ca, cb = type("C", (), {"tails": ta})(), type("C", (), {"tails": tb})()
    monkeypatch.setattr(attr_bytes, "PIECE", 7)
    monkeypatch.setattr(columns_module, "PIECE", 7)
    got = attr_bytes.same_tails(ca, cb, Slices(xs, taken), Slices(ys, taken))
    assert got == (want or None)
    if n:
        assert taken and max(taken) <= 7


class _Deleted(list):
    """A list that records the length of each slice deleted from it."""

    def __delitem__(self, key):
        if isinstance(key, slice):
            self.dropped.append(len(self[key]))
        super().__delitem__(key)


def test_release_empties_lists_from_their_end_a_piece_at_a_time(monkeypatch):
    monkeypatch.setattr(columns_module, "PIECE", 7)
    lists = [_Deleted(range(n)) for n in (0, 3, 7, 50)]
    for items in lists:
        items.dropped = []
    release(*lists)
    assert all(items == [] for items in lists)
    assert [items.dropped for items in lists] == [[], [3], [7], [7] * 7 + [1]]


def _pair(n: int) -> tuple:
    """A chain of n Conv-like blocks, and the same with every node renamed."""
    graphs = []
    for prefix in ("a/", "b/"):
        gd = protos.GraphDef()
        gd.node.add(name=f"{prefix}in", op="Placeholder")
        for k in range(n):
            gd.node.add(name=f"{prefix}w{k}", op="Const")
            gd.node.add(name=f"{prefix}m{k}", op="Mul", input=[
                f"{prefix}m{k - 1}" if k else f"{prefix}in", f"{prefix}w{k}"])
        graphs.append(Graph(gd))
    return graphs


def test_the_matchers_seed_lists_are_released_in_pieces(monkeypatch):
    ga, gb = _pair(60)
    whole = diff_module.diff_graphs(ga, gb)
    given = []                                  # (list, its length) each rule was given
    for module, name in ((structure, "_exact_subgraphs"), (matching, "_propagate")):
        real = getattr(module, name)

        def spy(*args, real=real, name=name):
            seeds = args[0] if name == "_exact_subgraphs" else args[3]
            given.append((name, seeds, len(seeds)))
            return real(*args)

        monkeypatch.setattr(module, name, spy)
    monkeypatch.setattr(columns_module, "PIECE", 7)
    cut = diff_module.diff_graphs(ga, gb)
    assert [(e.status, e.a, e.b) for e in cut.entries] == \
        [(e.status, e.a, e.b) for e in whole.entries]
    assert cut.matching.b_of == whole.matching.b_of and len(cut.matching.b_of) == 121
    assert {name for name, _, n in given if n > 7} == {"_exact_subgraphs", "_propagate"}
    assert all(seeds == [] for _, seeds, _ in given)     # emptied, not left to be freed
