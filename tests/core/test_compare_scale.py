"""The matcher on block chains of a few thousand nodes (tests/fixtures/scale_models), without
TensorFlow or Qt: a renamed, shuffled copy is found node for node, by structure alone, and a
copy with other weights pairs every node with its namesake. The speed of the same work at
100k-300k nodes is bench/compare_bench.py's (no timed assertion here)."""

import random

import numpy as np

from inspector.core.compare.diff import diff_graphs
from inspector.core.compare.matching import match
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from tests.fixtures.scale_models import blocks_graph


def renamed_shuffled(graph: Graph, seed: int = 5) -> tuple:
    """(B, mapping): every node renamed by a random bijection, the nodes in a random order."""
    names = [n.name for n in graph]
    new = [f"n{k}" for k in range(len(names))]
    random.Random(seed).shuffle(new)
    mapping = dict(zip(names, new))
    nodes = []
    for node in graph.graph_def.node:
        copy = protos.node_def_pb2.NodeDef()
        copy.CopyFrom(node)
        copy.name = mapping[node.name]
        for i, text in enumerate(copy.input):
            control = text.startswith("^")
            name, sep, port = (text[1:] if control else text).partition(":")
            copy.input[i] = ("^" if control else "") + mapping[name] + sep + port
        nodes.append(copy)
    random.Random(seed + 1).shuffle(nodes)
    gd = protos.GraphDef()
    gd.node.extend(nodes)
    return Graph(gd), mapping


def test_a_renamed_shuffled_chain_is_the_same_bijection_found_by_structure():
    ga = load(blocks_graph(3000, 0)).graph
    gb, mapping = renamed_shuffled(ga)
    m = match(ga, gb)
    assert len(mapping) == len(ga) > 2900
    assert m.b_of == mapping                       # 100 %: each node with its renamed self
    assert m.a_of == {b: a for a, b in mapping.items()}
    assert set(m.rule.values()) == {"structure"}
    assert not m.merged and not m.split and not m.disagreeing and not m.unrelated
    d = diff_graphs(ga, gb)
    assert d.counts() == {"changed": len(ga), "renamed": len(ga), "unchanged": 0}


def test_other_weights_pair_every_node_with_its_namesake_and_name_each_changed_constant():
    """The files are opened lazily (large weights stay in the file until read): a constant
    whose values differ is named even where both sides' tensors are still unread."""
    ga, gb = load(blocks_graph(10000, 0)).graph, load(blocks_graph(10000, 1)).graph
    assert ga.lazy and gb.lazy
    m = match(ga, gb)
    assert m.b_of == {n.name: n.name for n in ga}
    assert not m.merged and not m.split and not m.disagreeing
    d = diff_graphs(ga, gb)
    changed = [e for e in d.entries if e.status == "changed"]
    assert all(e.op_a == "Const" and [c.kind for c in e.changes] == ["values"]
               for e in changed)
    differ = {n.name for n in ga if n.op == "Const" and
              not np.array_equal(ga.tensor_value(n.name), gb.tensor_value(n.name))}
    assert len(differ) > 900 and {e.a for e in changed} == differ


def test_columns_say_what_the_graph_says_with_control_missing_and_repeated_inputs():
    """compare.columns against Graph's own answers (data_inputs, consumers) on a graph with
    control inputs, an input naming no node, a node read twice and a repeated name."""
    from inspector.core.compare.columns import columns
    from inspector.core.compare.operands import data_inputs

    gd = protos.GraphDef()
    for name, op, inputs in (("x", "Placeholder", []), ("w", "Const", []),
                             ("mm", "MatMul", ["^w", "gone", "x", "w:0"]),
                             ("sq", "Mul", ["mm", "mm:1", "^x"]), ("mm", "Relu", ["sq"])):
        gd.node.add(name=name, op=op, input=inputs)
    g = Graph(gd)
    c = columns(g)
    assert not c.unique and c.at == {"x": 0, "w": 1, "mm": 2, "sq": 3}
    for name, i in c.at.items():
        refs = data_inputs(g, name)
        assert [c.names[j] for j in c.ins[i]] == [r.node for r in refs]
        assert list(c.ports[i]) == [r.port for r in refs]
        assert [(c.names[r], k, p) for r, k, p in c.uses[i]] == \
            [(e.dst, e.dst_index, e.src_port) for e in g.consumers(name) if not e.control]
    assert list(c.slots(2)) == [1, 2] and c.every_input(2) == (1, None, 0, 1)
    assert list(c.slots(3)) == [0, 1] and c.every_input(3) == (2, 2, 0)


class _AsColumns:
    """A Graph seen through the columnar API only (name_list, op codes, CSR inputs)."""

    def __init__(self, graph: Graph):
        at = {}
        for i, n in enumerate(graph.nodes):
            at.setdefault(n.name, i)
        self.structure = graph.structure
        self.name_list = [n.name for n in graph.nodes]
        self.op_names = sorted({n.op for n in graph.nodes})
        self.op_codes = np.array([self.op_names.index(n.op) for n in graph.nodes], np.int16)
        refs = [r for n in graph.nodes for r in n.inputs]
        self.in_offsets = np.cumsum([0] + [len(n.inputs) for n in graph.nodes])
        self.in_src = np.array([at.get(r.node, -1) for r in refs], np.int32)
        self.in_port = np.array([-1 if r.control else r.port for r in refs], np.int32)


def test_columns_from_the_graphs_arrays_equal_those_from_its_nodes():
    from inspector.core.compare.columns import Columns

    gd = protos.GraphDef()
    for name, op, inputs in (("x", "Placeholder", []), ("w", "Const", []),
                             ("mm", "MatMul", ["^w", "gone", "x", "w:0"]),
                             ("sq", "Mul", ["mm", "mm:1", "^x", "^gone2"]), ("mm", "Relu", ["sq"])):
        gd.node.add(name=name, op=op, input=inputs)
    for g in (Graph(gd), load(blocks_graph(3000, 0)).graph):
        a, b = Columns(_AsColumns(g)), Columns(g)
        for field in ("names", "at", "unique", "ops", "ins", "ports", "uses"):
            assert getattr(a, field) == getattr(b, field), field
        assert all(list(a.slots(i)) == list(b.slots(i)) and a.every_input(i) ==
                   b.every_input(i) and a.plain(i) == b.plain(i) for i in range(len(g)))


def test_a_small_renamed_pair_is_diffed_without_importing_numpy(tmp_path):
    """Below ARRAYS_FROM nodes the columns come from the nodes: numpy (0.05-0.1 s to import)
    is not imported for a pair whose values need no comparison."""
    import subprocess
    import sys

    ga = load(blocks_graph(3000, 0)).graph
    gb, _ = renamed_shuffled(ga)
    b = tmp_path / "renamed.pb"
    b.write_bytes(gb.structure.SerializeToString())
    code = ("import sys\nfrom inspector.core.loaders import load\n"
            "from inspector.core.compare.diff import diff_graphs\n"
            f"d = diff_graphs(load({blocks_graph(3000, 0)!r}).graph, load({str(b)!r}).graph)\n"
            "print(d.counts()['renamed'], 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == [str(len(ga)), "False"]
