"""The name rules and the merges look only at the nodes in no pair (columns.unpaired_sides,
from the pairs' kept indexes) instead of testing every name of both graphs: the matching is
the one the loops over every name make, pair for pair and in the same order, on pairs where
names, tolerant names, merges, splits and folded batch norms have work."""

import os

import pytest

from inspector.core.compare import columns as columns_module, matching, merges
from inspector.core.compare.columns import columns, unpaired_sides
from inspector.core.compare.provenance import for_tflite
from inspector.core.compare.records import Matching
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.model.origin import is_tflite
from tests.conftest import DEMO
from tests.core.test_compare_scale import renamed_shuffled
from tests.core.test_match_arrays import _changed
from tests.fixtures.scale_models import blocks_graph


def _partly_renamed(graph: Graph, every: int = 3) -> Graph:
    """Every `every`-th node renamed as TF renames a clashing scope's nodes (`x_1`): the
    tolerant names pair those the structure leaves."""
    gd = protos.GraphDef()
    gd.CopyFrom(graph.graph_def)
    names = {n.name: (f"{n.name}_1" if k % every == 0 else n.name)
             for k, n in enumerate(gd.node)}
    for node in gd.node:
        node.name = names[node.name]
        for i, text in enumerate(node.input):
            control = text.startswith("^")
            name, sep, port = (text[1:] if control else text).partition(":")
            node.input[i] = ("^" if control else "") + names.get(name, name) + sep + port
    return Graph(gd)


def _dropped(graph: Graph, op: str, every: int = 2) -> Graph:
    """Every `every`-th node of `op` taken out, its readers reading its first input."""
    gd = protos.GraphDef()
    gd.CopyFrom(graph.graph_def)
    gone = {n.name: n.input[0] for n in [n for n in gd.node if n.op == op][::every]}
    keep = [n for n in gd.node if n.name not in gone]
    for node in keep:
        for i, text in enumerate(node.input):
            if text in gone:
                node.input[i] = gone[text]
    out = protos.GraphDef()
    out.node.extend(keep)
    return Graph(out)


def _match(ga: Graph, gb: Graph):
    """The matching as the diff makes it (a .tflite as B: with the converter's names)."""
    return matching.match(ga, gb, for_tflite(ga, gb) if is_tflite(gb) else None)


def _items(m) -> tuple:
    return (list(m.b_of.items()), list(m.a_of.items()), list(m.rule.items()),
            list(m.merged.items()), list(m.split.items()), m.disagreeing, m.layouts)


def _pairs(data):
    ga = load(blocks_graph(3000, 0)).graph
    yield ga, _changed(_partly_renamed(ga), every=5)
    yield ga, _changed(renamed_shuffled(ga)[0])
    yield ga, _dropped(ga, "Relu")
    yield _dropped(ga, "Identity"), ga
    for lite in ("digits_float.tflite", "digits_int8.tflite"):     # splits, operands
        yield load(DEMO).graph, load(os.path.join(data, lite)).graph
    for name in ("inception_jpeg.pb", "v1_training.pb", "speech_commands.pb"):
        g = load(os.path.join(data, name)).graph
        yield g, _partly_renamed(g, every=4)
        yield g, _dropped(g, "Identity", every=3)


def test_rules_over_unpaired_nodes_match_what_the_loops_over_every_name_match(
        data, monkeypatch):
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)
    used = []
    for module in (matching, merges):
        monkeypatch.setattr(module, "unpaired_sides", lambda *args: used.append(
            unpaired_sides(*args)) or used[-1])
    got = [_match(ga, gb) for ga, gb in _pairs(data)]
    assert sum(left[0] is not None for left in used) > 10       # the shortcut was taken
    monkeypatch.setattr(matching, "unpaired_sides", lambda *args: (None, None))
    monkeypatch.setattr(merges, "unpaired_sides", lambda *args: (None, None))
    every = [_match(ga, gb) for ga, gb in _pairs(data)]
    rules = set()
    for g, e in zip(got, every):
        assert _items(g) == _items(e)
        rules |= set(g.rule.values())
    assert {"name", "tolerant name", "structure", "top-down"} <= rules
    assert any(g.merged for g in got) and any(g.split for g in got)


def test_the_unpaired_sides_are_the_names_in_no_pair(monkeypatch):
    monkeypatch.setattr(columns_module, "ARRAYS_FROM", 0)
    ga = load(blocks_graph(3000, 0)).graph
    gb = _partly_renamed(ga)
    m = matching.match(ga, gb)
    ca, cb = columns(ga), columns(gb)
    left_a, left_b = unpaired_sides(m, ca, cb)
    assert [ca.names[i] for i in left_a] == [a for a in ca.names if a not in m.b_of]
    assert [cb.names[i] for i in left_b] == [b for b in cb.names if b not in m.a_of]
    one_sided = Matching(b_of=dict(m.b_of), a_of=dict(m.a_of))
    b = next(iter(one_sided.a_of))
    del one_sided.a_of[b]                    # not one to one: every name looked at
    assert unpaired_sides(one_sided, ca, cb) == (None, None)


@pytest.mark.parametrize("op", ["FusedBatchNorm", "FusedBatchNormV3"])
def test_a_folded_batch_norm_is_still_found_with_the_shortcut(op):
    """_folded_batch_norms returns at once when A has no batch norm; with one it merges."""
    gd = protos.GraphDef()
    gd.node.add(name="x", op="Placeholder")
    gd.node.add(name="w", op="Const")
    gd.node.add(name="conv", op="Conv2D", input=["x", "w"])
    for k in ("s", "o", "mean", "var"):
        gd.node.add(name=k, op="Const")
    gd.node.add(name="bn", op=op, input=["conv", "s", "o", "mean", "var"])
    gd.node.add(name="out", op="Relu", input=["bn"])
    gb = protos.GraphDef()
    gb.node.add(name="x", op="Placeholder")
    gb.node.add(name="w", op="Const")
    gb.node.add(name="conv", op="Conv2D", input=["x", "w"])
    gb.node.add(name="b", op="Const")
    gb.node.add(name="bn", op="BiasAdd", input=["conv", "b"])
    gb.node.add(name="out", op="Relu", input=["bn"])
    m = matching.match(Graph(gd), Graph(gb))
    assert m.merged.get("bn") == "conv" and m.split.get("bn") == "bn"
