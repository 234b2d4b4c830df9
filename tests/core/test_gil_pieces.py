"""Two whole-graph C calls on the diff task's thread held the GIL for hundreds of ms at 300k
nodes (the window stalled while a diff was computed beside it): the scope statistics' name
look-ups and Fingerprints' name-keyed dicts. They now go core.runtime.pieces.PIECE items a
call: same results as the one-shot way, cut into pieces."""

from __future__ import annotations

import numpy as np
import pytest

from inspector.core.compare import fingerprints
from inspector.core.compare.columns import columns
from inspector.core.compare.fingerprints import Fingerprints
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.runtime import pieces
from inspector.core.view import scope_stats
from inspector.core.view.hierarchy import build_hierarchy
from tests.core.test_view_columns import HOSTILE, _graph_def
from tests.fixtures.pieces import CountingNumpy, Slices


@pytest.mark.parametrize("case", ["a flat scope cut into bands",
                                  "a flat root cut into bands, '/x' names in it"])
def test_a_tree_of_scope_objects_looks_names_up_a_piece_at_a_time(monkeypatch, case):
    """The statistics of a tree of Scope objects (names that repeat, or a tree not made as
    columns) look its nodes' names up PIECE a call."""
    graph = Graph(_graph_def(600, 3, HOSTILE[case]))
    root = build_hierarchy(graph).root
    order = list(root.walk())
    one_shot = [graph.index(name) for s in order for name in s.nodes]   # what it means
    whole = scope_stats.columns_of(np, graph, root)
    sizes: list = []
    monkeypatch.setattr(pieces, "PIECE", 7)
    cols = scope_stats.columns_of(CountingNumpy(sizes), graph, root)
    assert cols.pool.tolist() == whole.pool.tolist() == one_shot
    assert cols.paths == whole.paths == [s.path for s in order]
    assert sum(sizes) >= 900 and max(sizes) <= 7     # the banded scopes' names, 7 a call


def _dag(n: int, extra=()) -> Graph:
    """n scoped nodes, each reading earlier ones (data, ports, control), plus `extra`."""
    gd = protos.GraphDef()
    for i in range(n):
        node = gd.node.add(name=f"s{i % 4}/n{i}", op=["Const", "Add", "Relu"][i % 3])
        if i % 3:
            node.input.extend([f"s{(i - 1) % 4}/n{i - 1}", f"s{(i // 2) % 4}/n{i // 2}:1",
                               f"^s0/n{0}"][:1 + i % 3])
    for name, op, inputs in extra:
        gd.node.add(name=name, op=op).input.extend(inputs)
    return Graph(gd)


CASES = {
    "small, acyclic": lambda: _dag(40),
    "acyclic, past several pieces": lambda: _dag(300),
    "a cycle (the walk by names)": lambda: _dag(50, [("c1", "Add", ["c2"]),
                                                     ("c2", "Relu", ["c1", "s1/n1"])]),
    "repeated names": lambda: _dag(50, [("s1/n1", "Relu", ["s0/n0"]),
                                        ("s1/n1", "Add", ["s1/n1", "ghost"])]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_fingerprints_key_names_a_piece_at_a_time(monkeypatch, case):
    whole = Fingerprints(CASES[case]())
    graph = CASES[case]()
    cols = columns(graph)
    names = list(cols.names)
    one_shot = dict(zip(names, Fingerprints._own_signatures(graph, cols, None)))
    taken: list = []
    cols.names = Slices(names, taken)
    monkeypatch.setattr(pieces, "PIECE", 7)
    sliced = Fingerprints(graph)
    assert sliced.own == whole.own and list(sliced.own) == list(whole.own)
    assert sliced.fingerprint == whole.fingerprint and sliced.height == whole.height
    assert list(sliced.fingerprint) == list(whole.fingerprint)
    assert list(sliced.own.items()) == list(one_shot.items())
    assert taken and max(taken) <= 7                     # never the whole list in one call
    assert len(taken) >= len(names) // 7


def test_keyed_is_dict_of_zip_on_repeats_and_ragged_ends(monkeypatch):
    monkeypatch.setattr(pieces, "PIECE", 3)
    names = ["a", "b", "a", "c", "b", "d", "a"]
    for values in (list(range(7)), list(range(10)), list(range(4)), []):
        got = fingerprints.keyed(names, values)
        assert list(got.items()) == list(dict(zip(names, values)).items())
