"""Fingerprints of a graph whose nodes come after their data inputs (as TensorFlow writes them)
are made by one pass in graph order, no topological order computed; a shuffled graph, a loop's
back edge or a node reading a later one takes Kahn's order as before. Both ways give the same
values as the walk by names; B's own signatures made before the fork give the forked copy's
fingerprints without its sending the attribute tails back."""

from __future__ import annotations

import pytest

from inspector.core.compare import columns as columns_module, fingerprints
from inspector.core.compare.columns import columns
from inspector.core.compare.fingerprints import Fingerprints
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures.scale_models import blocks_graph


@pytest.fixture
def arrays(monkeypatch):
    """The columns read from the graph's arrays (as for a big graph)."""
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)


def _orders(monkeypatch) -> list:
    calls: list = []
    real = fingerprints._topological
    monkeypatch.setattr(fingerprints, "_topological",
                        lambda cols: calls.append(len(cols.names)) or real(cols))
    return calls


def _by_names(graph: Graph) -> tuple:
    """(fingerprint, height) by name from the walk by names (the reference)."""
    f = Fingerprints(None)
    cols = columns(graph)
    f._own = dict(zip(cols.names, f._own_signatures(cols, None)))
    f._compute(graph)
    return f._fingerprint, f._height


def test_a_graph_in_order_is_fingerprinted_in_one_pass_with_the_same_values(monkeypatch,
                                                                             arrays):
    ga = load(blocks_graph(3000, 0)).graph
    gb, mapping = renamed_shuffled(ga)
    calls = _orders(monkeypatch)
    fa = Fingerprints(ga)
    assert calls == []                        # (no order made: graph order is one)
    fb = Fingerprints(gb)
    assert calls == [len(gb)]                 # shuffled: Kahn's order
    assert (fa.fingerprint, fa.height) == _by_names(ga)
    assert (fb.fingerprint, fb.height) == _by_names(gb)
    assert all(fa.fingerprint[a] == fb.fingerprint[b] for a, b in mapping.items())


def _graph(nodes: list) -> Graph:
    gd = protos.GraphDef()
    for name, op, inputs in nodes:
        node = gd.node.add(name=name, op=op)
        node.input.extend(inputs)
        node.attr["T"].type = 1
    return Graph(gd)


@pytest.mark.parametrize("nodes, in_order", [
    ([("x", "Placeholder", []), ("y", "Relu", ["x"]), ("z", "AddV2", ["y", "x"]),
      ("w", "Concat", ["z", "y:0", "x", "^y"])], True),
    ([("y", "Relu", ["x"]), ("x", "Placeholder", [])], False),          # reads a later node
    ([("x", "Placeholder", []), ("m", "Merge", ["x", "n"]), ("r", "Relu", ["m"]),
      ("n", "NextIteration", ["r"])], False),                            # a loop
    ([("x", "Placeholder", []), ("n", "NextIteration", ["r"]), ("m", "Merge", ["x", "n"]),
      ("r", "Relu", ["m"])], True),            # the back edge's input comes later: not read
    ([("x", "Placeholder", []), ("y", "Relu", ["missing", "x"])], True),
])
def test_every_way_gives_the_walk_s_values(monkeypatch, arrays, nodes, in_order):
    graph = _graph(nodes)
    calls = _orders(monkeypatch)
    f = Fingerprints(graph)
    assert (calls == []) == in_order
    assert (f.fingerprint, f.height) == _by_names(graph)


def test_own_signatures_made_before_give_the_same_fingerprints_and_no_tails_back(arrays):
    ga = load(blocks_graph(3000, 0)).graph
    gb, _ = renamed_shuffled(ga)
    whole = Fingerprints(gb)
    own = Fingerprints.own_signatures(gb)
    assert columns(gb).tails is not None      # (left for the diff, here)
    given = Fingerprints(gb, own=own)
    assert (given.fp, given.heights) == (whole.fp, whole.heights)
    assert given.values()[2] is None          # (nothing to send back but the values)
