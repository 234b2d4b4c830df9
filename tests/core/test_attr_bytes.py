"""Attribute tails (compare.attr_bytes): a node's serialized bytes past its name, op, inputs and
device. The same tail is the same attributes, so the fingerprints compute an own signature once
per op and tail (the values equal one signature a node), and the diff compares two attribute
maps only where the pair's tails differ (the document is the one the map comparison writes)."""

import gc
import os

from inspector.core.compare import attr_bytes, diff as diff_module, fingerprints
from inspector.core.compare.columns import columns
from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.document import dumps, text_report
from inspector.core.compare.fingerprints import Fingerprints, own_signature
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures.scale_models import blocks_graph


def _odd_graph() -> Graph:
    """Nodes whose leading fields are not the plain short ones: names of 200 bytes and of
    20,000 (a three-byte length), a device, many inputs, debug info, a field NodeDef does not
    know, name attributes, and two nodes with the same attributes set in other orders."""
    gd = protos.GraphDef()
    a = gd.node.add(name="a" * 200, op="Placeholder")
    a.attr["dtype"].type = 1
    b = gd.node.add(name="b" * 20_000, op="Identity", input=[a.name], device="/cpu:0")
    b.attr["T"].type = 1
    c = gd.node.add(name="c", op="AddN", input=[a.name] * 40 + ["^" + b.name])
    c.attr["T"].type = 1
    c.attr["N"].i = 40
    d = gd.node.add(name="d", op="AddN", input=[a.name] * 40)
    d.attr["N"].i = 40
    d.attr["T"].type = 1
    e = gd.node.add(name="e", op="Identity", input=["c"])
    e.attr["T"].type = 1
    e.attr["_class"].list.s.append(b"loc:@c")
    e.experimental_debug_info.original_node_names.append("x")
    f = protos.NodeDef()
    f.ParseFromString(e.SerializeToString() + b"\xf8\x07\x01")      # field 127
    f.name = "f"
    gd.node.add().CopyFrom(f)
    return Graph(gd)


def _graphs(data):
    for name in ("v1_training.pb", "inception_jpeg.pb", "while_v1.pb", "speech_commands.pb"):
        yield load(os.path.join(data, name)).graph
    yield _odd_graph()


def test_signatures_by_tail_equal_each_nodes_own_and_a_tail_is_the_attributes(data):
    for graph in _graphs(data):
        cols = columns(graph)
        assert cols.arrays
        scratch, nodes = protos.NodeDef(), cols.protos()
        own = Fingerprints(graph)._own
        own = own if isinstance(own, list) else [own[n] for n in cols.names]
        assert own == [own_signature(op, p, scratch) for op, p in zip(cols.ops, nodes)]
        keys, ids = cols.tails
        assert len(ids) == len(nodes) and len(set(ids.tolist())) == len(keys)
        for node, k in zip(nodes, ids.tolist()):
            raw, tail = node.SerializeToString(), keys[k]
            assert raw.endswith(tail)
            assert not protos.NodeDef.FromString(raw[:len(raw) - len(tail)]).attr
            parsed = protos.NodeDef.FromString(tail)
            assert parsed.attr == node.attr
            if max(map(len, [node.name, node.device, *node.input])) < 16_000:
                assert not (parsed.name or parsed.input or parsed.device)


def test_a_long_name_is_left_in_its_tail_and_short_ones_are_not():
    keys, ids = attr_bytes.tails(_odd_graph().structure.node)
    tails = [keys[k] for k in ids.tolist()]
    assert tails[1].startswith(b"\x0a\xa0\x9c\x01b")    # 20,000 bytes: a three-byte length
    assert all(not t.startswith(b"\x0a") for k, t in enumerate(tails) if k != 1)
    assert tails[2].startswith(b"\x1a\xa1\x9c\x01^b")   # an input of 20,001 bytes too, and on


def test_own_signatures_are_computed_once_per_op_and_tail(monkeypatch):
    graph = load(blocks_graph(3000, 0)).graph
    calls = []
    real = fingerprints.own_signature
    monkeypatch.setattr(fingerprints, "own_signature",
                        lambda op, p, s: calls.append(op) or real(op, p, s))
    fp = Fingerprints(graph)
    assert len(graph) > 2900 and 0 < len(calls) == len(set(zip(columns(graph).ops,
                                                                columns(graph).tails[1].tolist())))
    assert len(calls) < len(graph) // 5           # (the weights: one tail each)
    monkeypatch.setattr(fingerprints, "own_signature", real)
    scratch = protos.NodeDef()
    assert fp._own == [real(n.op, n, scratch) for n in graph.structure.node]


def _document(ga, gb) -> tuple:
    d = diff_graphs(ga, gb)
    return dumps(d), text_report(d, 40)


def test_the_diff_compares_attribute_maps_only_where_tails_differ(monkeypatch):
    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    compared, quiet, same = [], [], []
    real_attrs, real_quiet, real_tails = diff_module.same_attrs, diff_module.quiet_pairs, \
        diff_module.same_tails
    monkeypatch.setattr(diff_module, "same_attrs",
                        lambda x, y: compared.append(1) or real_attrs(x, y))
    monkeypatch.setattr(diff_module, "quiet_pairs",
                        lambda *args: quiet.append(real_quiet(*args)) or quiet[-1])
    monkeypatch.setattr(diff_module, "same_tails",
                        lambda *args: same.append(real_tails(*args)) or same[-1])
    got = _document(ga, gb)
    flags = quiet[0][2]
    assert len(flags) == len(ga) and sum(same[0]) > len(ga) // 2
    assert len(compared) == sum(q and not s for q, s in zip(flags, same[0]))
    # tails said to differ at every 7th pair, then nowhere known: the maps are compared
    # there, and the document is the same
    monkeypatch.setattr(diff_module, "same_tails", lambda *args: [
        s and k % 7 != 0 for k, s in enumerate(real_tails(*args))])
    compared.clear()
    assert _document(ga, gb) == got
    assert len(compared) == sum(q and not (s and k % 7) for k, (q, s) in
                                enumerate(zip(flags, same[0])))
    monkeypatch.setattr(diff_module, "same_tails", lambda *args: None)
    compared.clear()
    assert _document(ga, gb) == got and len(compared) == sum(flags) > 2900


def _nodedefs_alive() -> int:
    gc.unfreeze()           # (gc_policy freezes what outlives a task: get_objects skips it)
    return sum(1 for o in gc.get_objects() if type(o) is protos.NodeDef)


def test_a_comparison_keeps_no_nodedef_of_its_graphs_alive(monkeypatch):
    """The fingerprints and the diff read each NodeDef while it is at hand, NODES_A_CALL
    sliced at a time: none is kept per node (300k NodeDef wrappers kept alive grew upb's
    object cache past 262k entries in one rehash that held the GIL 15 ms, ~60 ms on the slow
    class, while the comparison window waited)."""
    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    sliced: list = []
    real = attr_bytes.tails

    def counted(nodes, *rest):
        class Slices:
            def __len__(self):
                return len(nodes)

            def __getitem__(self, at):
                sliced.append(at.stop - at.start)
                return nodes[at]
        return real(Slices(), *rest)

    monkeypatch.setattr(fingerprints, "tails", counted)
    before = _nodedefs_alive()
    d = diff_graphs(ga, gb)
    assert columns(ga).arrays and columns(gb).arrays and d.matching.b_of
    assert _nodedefs_alive() - before < 100        # (the old code kept 6,000)
    assert sum(sliced) == len(ga) + len(gb) and max(sliced) <= attr_bytes.NODES_A_CALL
