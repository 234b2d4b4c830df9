"""The whole-graph walks behind the Sizes panel and `sizes`, constants stored twice, the
TFLite check (`compat`) and the weight statistics read the Graph's columns: the same answers
as the walks over Node views they replace (kept here as the reference), on the committed
models and hostile graphs, and no Node view made but for the few nodes they look at."""

from __future__ import annotations

import random

import pytest

from inspector.core.model.graph import Graph
from tests.fixtures.walker_graphs import graphs_of, hostile_graph_def


@pytest.fixture
def graphs(data):
    """Opened anew for each test: a test's walks leave views the next must not see."""
    return graphs_of(data)


def _made(graph) -> int:
    return sum(v is not None for v in graph._views)


def _tree(g) -> tuple:
    """A group tree with its children's order."""
    return (g.name, g.bytes, g.nodes, g.node, [(k, _tree(c)) for k, c in g.children.items()])


# -- the per-node walks these replace (the reference) ---------------------------------------
def _group_by_views(graph, node_bytes: dict, by: str):
    from inspector.core.analysis.sizes import Group, group_key

    root = Group("")
    for node in graph:
        size = node_bytes.get(node.name, 0)
        root.bytes += size
        root.nodes += 1
        if by == "scope":
            parts = node.name.split("/")
            here = root
            for k in range(1, len(parts)):
                path = "/".join(parts[:k])
                here = here.children.setdefault(path, Group(path))
                here.bytes += size
                here.nodes += 1
            leaf = here.children.setdefault(node.name + "\0", Group(node.name, node=node.name))
            leaf.bytes += size
            leaf.nodes += 1
        else:
            key = group_key(node, by)
            g = root.children.setdefault(key, Group(key))
            g.bytes += size
            g.nodes += 1
    return root


def _biggest_by_views(graph, nodes: dict, by: str) -> dict:
    from inspector.core.analysis.sizes import group_key

    biggest: dict = {}
    for node in graph:
        key = group_key(node, by)
        if nodes[node.name] > nodes.get(biggest.get(key, ""), -1):
            biggest[key] = node.name
    return biggest


def _sensitivity_by_views(graph) -> list:
    from inspector.core.mobile.sensitivity import (PASS_THROUGH, WEIGHTED_OPS,
                                                   LayerSensitivity, statistics)

    def weight_const(graph, node):
        index = WEIGHTED_OPS.get(node.op)
        data = node.data_inputs
        if index is None or len(data) <= index:
            return None
        name = data[index].node
        for _ in range(8):
            found = graph.get(name)
            if found is None:
                return None
            if found.op == "Const":
                return name
            if found.op not in PASS_THROUGH or not found.data_inputs:
                return None
            name = found.data_inputs[0].node
        return None

    out = []
    for node in graph:
        if node.op not in WEIGHTED_OPS:
            continue
        const = weight_const(graph, node)
        if const is None:
            continue
        try:
            values = graph.tensor_value(const)
        except ValueError:        # (it raised then: a damaged constant is skipped now)
            continue
        if values is None or values.dtype.kind != "f":
            continue
        kurt, spread, outliers = statistics(values)
        out.append(LayerSensitivity(node.name, node.op, const, int(values.size), kurt, spread,
                                    outliers))
    out.sort(key=lambda s: (-s.score, s.node))
    return out


def _compat_by_views(graph, outputs=(), inputs=()):
    from inspector.core.mobile import tflite_compat as tc

    table, flex = tc.builtin_table(), tc.flex_ops()
    needed = tc.upstream(graph, outputs, stop=inputs) if outputs else None
    fed = {i.split(":")[0] for i in inputs}
    folded = _folded_by_views(graph)
    result = tc.Compat(flex_source="Select TF ops allowlist of TensorFlow 2.21")
    for node in graph:
        op, name = node.op, node.name
        mobile = not tc.mobile_gap(op, flex)
        if needed is not None and name not in needed:
            c = tc.NodeCompat("removed", f"{op}: not needed for the outputs", op,
                              mobile_kernel=mobile)
        elif name in fed:
            c = tc.NodeCompat("builtin", f"{op}: becomes a model input", op, "input")
        elif op in tc.TF1_CONTROL_FLOW:
            c = tc.NodeCompat("control_flow", f"{op}: TF1 control flow, the converter must "
                              "rebuild it as WHILE/IF", op, mobile_kernel=mobile)
        elif name in folded:
            c = tc.NodeCompat("removed", f"{op}: folded into a constant buffer", op,
                              mobile_kernel=mobile)
        elif table.get(op) == "-":
            c = tc.NodeCompat("removed", f"{op}: dropped by the converter", op,
                              mobile_kernel=mobile)
        elif table.get(op) == "input":
            c = tc.NodeCompat("builtin", f"{op}: becomes a model input", op, "input")
        elif (why := tc._bad_dtype(node.op, node.proto)) and \
                (why != "string" or op not in table):
            hint = ": a variable, freeze the graph first" if op in tc._RESOURCE_OPS else ""
            c = tc.NodeCompat("dtype", f"{op}: {why} tensors{hint}", op, mobile_kernel=mobile)
        elif op in table:
            c = tc.NodeCompat("builtin", f"{op}: TFLite {table[op]}" if table[op] != "lowered"
                              else f"{op}: rewritten by the converter into builtins", op,
                              table[op], mobile)
        elif op in flex:
            c = tc.NodeCompat("flex", f"{op}: only with Select TF ops (the TF kernel runs on "
                              "the phone)", op, mobile_kernel=mobile)
        else:
            c = tc.NodeCompat("custom", f"{op}: neither a TFLite builtin nor in the Select TF "
                              "ops allowlist: needs a custom op", op, mobile_kernel=False)
        result.nodes[name] = c
    return result


def _folded_by_views(graph) -> set:
    from inspector.core.mobile import tflite_compat as tc

    done: set = set()
    todo = [n.name for n in graph if n.op == "Const" and not n.data_inputs]
    done.update(todo)
    while todo:
        name = todo.pop()
        for edge in graph.data_consumers(name):
            node = graph.get(edge.dst)
            if node is None or node.name in done or node.op in tc._NOT_FOLDABLE or \
                    node.op in tc.TF1_CONTROL_FLOW or ("Random" in node.op and
                                                       not node.op.startswith("Stateless")):
                continue
            if all(i.node in done for i in node.data_inputs):
                done.add(node.name)
                todo.append(node.name)
    return done


# -- the tests ------------------------------------------------------------------------------
def test_size_groups_are_the_per_node_ones_and_make_no_view(graphs):
    from inspector.core.analysis.sizes import group, node_sizes
    from inspector.core.app.sizing import measure

    for label, graph, reference in graphs:
        node_bytes = node_sizes(reference)
        for by in ("scope", "op", "dtype"):
            assert _tree(group(graph, node_bytes, by)) == \
                _tree(_group_by_views(reference, node_bytes, by)), (label, by)
        assert _made(graph) == 0, label
        for by in ("scope", "op", "dtype"):
            got = measure(graph, by)
            assert _tree(got.root) == _tree(_group_by_views(reference, node_bytes, by))
            assert got.ops == {n.name: n.op for n in reference}, label
            assert got.biggest == ({} if by == "scope" else
                                   _biggest_by_views(reference, node_bytes, by)), (label, by)


def test_constants_stored_twice_are_the_per_node_ones_and_make_no_view(graphs):
    from inspector.core.analysis.sizes import duplicates

    found = 0
    for label, graph, reference in graphs:
        got = duplicates(graph)
        want, read = _duplicates_by_views(reference)
        assert got.groups == want.groups, label
        found += len(got.groups)
        assert _made(graph) == 0 and read < len(graph) // 2, label
    assert found


def _duplicates_by_views(graph):
    import hashlib

    from inspector.core.analysis.sizes import Duplicates
    from inspector.core.errors import InspectorError
    from inspector.core.model.dtypes import item_size
    from inspector.core.model.tensors import element_count

    candidates: dict = {}
    for node in graph:
        if node.op != "Const" or not node.has_attr("value") or \
                graph.node(node.name) is not node:      # a name's second node: not by name
            continue
        proto = node.proto.attr["value"].tensor
        length = element_count(proto) * item_size(proto.dtype)
        if element_count(proto) > 1 and length > 0:
            candidates.setdefault((proto.dtype, length), []).append(node.name)
    found, read = [], 0
    for names in candidates.values():
        if len(names) < 2:
            continue
        by_hash: dict = {}
        for name in names:
            read += 1
            try:
                value = graph.tensor_value(name)
            except (InspectorError, ValueError):
                continue
            digest = hashlib.blake2b(value.tobytes(), digest_size=16).digest()
            by_hash.setdefault(digest, (value.nbytes, []))[1].append(name)
        found.extend((size, same) for size, same in by_hash.values() if len(same) > 1)
    found.sort(key=lambda g: -g[0] * (len(g[1]) - 1))
    return Duplicates(found), read


def test_the_tflite_check_is_the_per_node_one_and_makes_no_view(graphs):
    from inspector.core.app.tflite_check import check

    rnd = random.Random(4)
    seen = set()
    for label, graph, reference in graphs:
        names = reference.name_list
        for outs, ins in (([], []), (rnd.sample(names, min(3, len(names))),
                                     rnd.sample(names, min(4, len(names))) + ["nope:0"])):
            got = check(graph, ins, outs).compat
            want = _compat_by_views(reference, outs, ins)
            assert list(got.nodes.items()) == list(want.nodes.items()), label
            assert got.flex_source == want.flex_source
            seen.update(c.status for c in got.nodes.values())
        assert _made(graph) == 0, label
    assert seen == {"builtin", "flex", "custom", "control_flow", "dtype", "removed"}


def test_weight_statistics_are_the_per_node_ones_and_make_no_view(graphs):
    from inspector.core.mobile.sensitivity import layer_sensitivity

    ranked = 0
    for label, graph, reference in graphs:
        got = layer_sensitivity(graph)
        assert got == _sensitivity_by_views(reference), label
        ranked += len(got)
        assert _made(graph) == 0, label
    assert ranked >= 10


def test_the_checks_view_no_node_of_a_big_hostile_graph():
    from inspector.core.analysis.sizes import group
    from inspector.core.app.tflite_check import check

    gd = hostile_graph_def(20_000, seed=9)
    graph = Graph(gd)
    group(graph, {}, "scope"), group(graph, {}, "dtype")
    check(graph, [graph.name_list[251]], [graph.name_list[-1]])
    assert _made(graph) == 0
