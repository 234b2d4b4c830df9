"""The diff's faster steps on big pairs give what the steps they replace gave: own signatures
by one copy of the NodeDef (equal to the attribute map's merge, name attributes and fields
NodeDef does not know included), the constants whose values are stored alike read with one
file check per side, and the unpaired nodes found from the pairs' indexes."""

import os

import pytest

from inspector.core.compare import fingerprints
from inspector.core.compare.changes import stored_alike
from inspector.core.compare.columns import columns, unpaired
from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.fingerprints import NAME_ATTRS, own_signature
from inspector.core.errors import ModelLoadError
from inspector.core.loaders import lazy_graphdef, load
from inspector.core.model import protos
from tests.fixtures.scale_models import blocks_graph


def merged_signature(op: str, proto) -> int:
    """own_signature as ce6c0ef made it: the attributes merged into an empty NodeDef."""
    attr = proto.attr
    if "value" in attr:
        t = attr["value"].tensor
        rest = tuple(sorted((k, attr[k].SerializeToString(deterministic=True)) for k in attr
                            if k != "value" and k not in NAME_ATTRS))
        return hash((op, t.dtype, t.tensor_shape.SerializeToString(), rest))
    scratch = protos.NodeDef()
    scratch.attr.MergeFrom(attr)
    for key in NAME_ATTRS.intersection(attr):
        del scratch.attr[key]
    return hash((op, scratch.SerializeToString(deterministic=True)))


@pytest.mark.parametrize("name", ["v1_training.pb", "inception_jpeg.pb", "while_v1.pb",
                                  "speech_commands.pb"])
def test_own_signatures_by_one_copy_equal_the_merged_attribute_maps(data, name):
    graph = load(os.path.join(data, name)).graph
    scratch = protos.NodeDef()
    ops = {node.op for node in graph.graph_def.node}
    assert len(ops) > 10
    for node in graph.graph_def.node:
        assert own_signature(node.op, node, scratch) == merged_signature(node.op, node), \
            node.name


def test_name_attributes_debug_info_and_unknown_fields_take_the_merge():
    scratch, merged = protos.NodeDef(), []
    real = fingerprints._attrs_only
    fingerprints._attrs_only = lambda op, attr, s: merged.append(op) or real(op, attr, s)
    try:
        plain = protos.NodeDef(name="x", op="Add", input=["a", "^b"], device="/cpu:0")
        plain.attr["T"].type = 1
        plain.experimental_debug_info.original_node_names.append("y")
        shared = protos.NodeDef(name="v", op="VarHandleOp")
        shared.attr["shared_name"].s = b"v"
        shared.attr["dtype"].type = 1
        unknown = protos.NodeDef()
        unknown.ParseFromString(plain.SerializeToString() + b"\xf8\x07\x01")  # field 127
        text = protos.NodeDef(name="s", op="StringConst")
        text.attr["note"].s = b"a container of things"       # a name attribute's bytes
        for node in (plain, shared, unknown, text):
            assert own_signature(node.op, node, scratch) == merged_signature(node.op, node)
        assert merged == ["VarHandleOp", "Add", "StringConst"]   # not the plain node
        assert own_signature("Add", unknown, scratch) == own_signature("Add", plain, scratch)
    finally:
        fingerprints._attrs_only = real


def _with_some_weights_changed(tmp_path, every: int = 5) -> tuple:
    """(a file: blocks 3k with every `every`-th weight's first byte changed, their names)"""
    gd = protos.GraphDef()
    with open(blocks_graph(3000, 0), "rb") as fh:
        gd.ParseFromString(fh.read())
    changed = set()
    for k, node in enumerate(n for n in gd.node if n.op == "Const"):
        content = node.attr["value"].tensor.tensor_content
        if k % every == 0 and len(content) > 64:
            node.attr["value"].tensor.tensor_content = bytes([content[0] ^ 1]) + content[1:]
            changed.add(node.name)
    assert len(changed) > 40
    path = str(tmp_path / "b.pb")
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    return path, changed


def test_constants_stored_alike_are_those_with_the_same_bytes_checked_once_a_side(
        tmp_path, monkeypatch):
    monkeypatch.setattr(lazy_graphdef, "LAZY_ABOVE", 1 << 20)      # values left in the file
    path, changed = _with_some_weights_changed(tmp_path)
    ga, gb = load(blocks_graph(3000, 0)).graph, load(path).graph
    assert ga.weights is not None and ga.weights.slots
    pairs = [(x, gb.index(name)) for x, name in enumerate(ga.name_list)
             if ga.nodes[x].op == "Const"]
    want = {(x, y) for x, y in pairs if (ga.weights.slot(x) is not None and
            gb.weights.slot(y) is not None and ga.weights.read(ga.weights.slot(x)) ==
            gb.weights.read(gb.weights.slot(y)))}
    assert 100 < len(want) < len(pairs) - 40
    stats, real = [], os.fstat
    monkeypatch.setattr(os, "fstat", lambda fd: stats.append(fd) or real(fd))
    assert stored_alike(ga, gb, pairs) == want
    assert len(stats) == 4          # each file before and after, not at every read
    monkeypatch.setattr(os, "fstat", real)
    # the diff says so: the changed constants' values, nothing for the others
    d = diff_graphs(ga, gb)
    assert {e.a for e in d.entries} == changed
    assert changed.isdisjoint(ga.name_list[x] for x, _ in want)


def test_a_model_file_changed_before_its_stored_values_are_compared_is_an_error(
        tmp_path, monkeypatch):
    monkeypatch.setattr(lazy_graphdef, "LAZY_ABOVE", 1 << 20)
    path, _ = _with_some_weights_changed(tmp_path)
    ga, gb = load(blocks_graph(3000, 0)).graph, load(path).graph
    pairs = [(x, gb.index(name)) for x, name in enumerate(ga.name_list)
             if ga.nodes[x].op == "Const"]
    with open(path, "ab") as fh:
        fh.write(b"\0")
    with pytest.raises(ModelLoadError, match="changed on disk"):
        stored_alike(ga, gb, pairs)


def test_unpaired_nodes_from_the_pairs_indexes_are_the_names_left_out():
    graph = load(blocks_graph(3000, 0)).graph
    cols = columns(graph)
    assert cols.arrays and cols.unique
    paired = list(range(0, len(cols.names), 3))
    left = set(cols.names) - {cols.names[i] for i in paired}
    assert [cols.names[i] for i in unpaired(cols, paired)] == \
        [n for n in cols.names if n in left]
    assert unpaired(cols, []) is None


def test_the_matching_leaves_its_pairs_indexes_for_the_diff_and_the_diff_takes_them():
    from inspector.core.compare.matching import match
    from tests.core.test_compare_scale import renamed_shuffled

    ga = load(blocks_graph(3000, 0)).graph
    gb = renamed_shuffled(ga)[0]
    m = match(ga, gb)
    xs, ys = m._indexes
    ca, cb = columns(ga), columns(gb)
    assert xs.tolist() == [ca.at[a] for a in m.b_of]
    assert ys.tolist() == [cb.at[b] for b in m.b_of.values()]
    d = diff_graphs(ga, gb)
    assert "_indexes" not in d.matching.__dict__ and d.counts()["renamed"] == len(ga)


def test_known_indexes_skip_the_names_not_in_the_graph():
    from inspector.core.compare.columns import known_indexes

    cols = columns(load(blocks_graph(3000, 0)).graph)
    names = [cols.names[5], "nowhere", cols.names[0]] * 5000
    assert known_indexes(cols.at, names).tolist() == [5, 0] * 5000
    assert known_indexes(cols.at, {}).tolist() == []
