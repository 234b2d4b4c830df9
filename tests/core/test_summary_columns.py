"""The summary on the Graph's columns (numpy on big graphs): the same Summary as the pure
Python path and as the old walks over Node views, with no Node view made per node."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from inspector.core.analysis import summary_columns
from inspector.core.analysis.summary import summarize, tf_parameter_counts
from inspector.core.model import graph_index, protos
from inspector.core.model.dtypes import dtype_name
from inspector.core.model.graph import Graph
from inspector.core.model.parameters import tf_summarize_counts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
BLOCKS = 1500           # about 4.5k nodes: past graph_index.NUMPY_FROM


def _const(g, name, values, content=True):
    c = g.node.add(name=name, op="Const")
    c.attr["dtype"].type = 1
    t = c.attr["value"].tensor
    t.dtype = 1
    t.tensor_shape.dim.add(size=len(values))
    if content:
        t.tensor_content = np.asarray(values, "<f4").tobytes()
    else:
        t.float_val.extend(values)


def _graph_def(variant: str) -> protos.GraphDef:
    g = protos.GraphDef()
    x = g.node.add(name="input", op="Placeholder")
    x.attr["dtype"].type = 1
    x.attr["shape"].shape.dim.add(size=1)
    x.attr["shape"].shape.dim.add(size=4)
    labels = g.node.add(name="labels", op="Placeholder")
    labels.attr["dtype"].type = 9
    g.node.add(name="unused", op="Placeholder").attr["dtype"].type = 1
    g.node.add(name="training", op="PlaceholderWithDefault", input=["flag"]).attr["dtype"].type = 10
    g.node.add(name="flag", op="Const").attr["dtype"].type = 10     # no value: TF fails on it
    v = g.node.add(name="v", op="VariableV2")
    v.attr["shape"].shape.dim.add(size=3)
    g.node.add(name="rv", op="VarHandleOp").attr["shape"].shape.dim.add(size=5)
    prev = "input"
    for k in range(BLOCKS):
        _const(g, f"b{k}/w", [k, 1.0, 2.0, 3.0])
        _const(g, f"b{k}/b", [float(k)], content=k % 2 == 0)
        mm = g.node.add(name=f"b{k}/mm", op="MatMul", input=[prev, f"b{k}/w"])
        if k % 7 == 0:
            mm.input.append(f"^b{k - 1}/mm" if k else "^v")
            mm.device = "/cpu:0"
        g.node.add(name=f"b{k}/add", op="BiasAdd", input=[f"b{k}/mm", f"b{k}/b:0"])
        prev = f"b{k}/add"
    g.node.add(name="probs", op="Softmax", input=[prev])
    g.node.add(name="probs_out", op="Identity", input=["probs"])
    g.node.add(name="leftover", op="Shape", input=[prev])
    g.node.add(name="loss", op="SparseSoftmaxCrossEntropyWithLogits", input=[prev, "labels"])
    g.node.add(name="mean", op="Mean", input=["loss:0", "training"])
    if variant == "duplicates":
        g.node.add(name="b3/w", op="Identity", input=["input"])
        g.node.add(name="probs", op="Softmax", input=["b3/w"])
    if variant == "dangling":
        g.node.add(name="ghostly", op="Relu", input=["ghost:1", "^nowhere"])
    return g


def _without_numpy(monkeypatch):
    monkeypatch.setattr(summary_columns, "NUMPY_FROM", 10 ** 9)
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 10 ** 9)


def _old_walks(graph: Graph) -> dict:
    """What summarize computed by walking every Node view before the columns."""
    facts = graph.const_facts()
    sizes = [p.ByteSize() for p in graph.structure.node]
    by_op, by_dtype, control = Counter(), Counter(), 0
    for node, size in zip(graph.nodes, sizes):
        by_op[node.op] += size
        fact = facts.get(node.name) if node.op == "Const" else None
        if fact is not None:
            by_dtype[dtype_name(fact.dtype)] += summary_columns.value_bytes(fact)
        control += sum(ref.control for ref in node.inputs)
    others = [n.proto for n in graph if n.op in ("Variable", "VariableV2") or
              (n.op == "Const" and not (n.name in facts and facts[n.name].decodable))]
    const = sum(facts[n.name].elements for n in graph
                if n.op == "Const" and n.name in facts and facts[n.name].decodable)
    more, var, failed = tf_summarize_counts(others)
    return dict(bytes_by_op=dict(by_op.most_common()), control_edges=control,
                bytes_by_dtype=dict(by_dtype.most_common()), tf=(const + more, var, failed),
                op_counts=dict(Counter(n.op for n in graph).most_common()))


@pytest.mark.parametrize("variant", ["plain", "duplicates", "dangling"])
@pytest.mark.parametrize("known", [False, True])
def test_the_summary_on_columns_equals_the_node_walks_without_a_view_per_node(
        variant, known, monkeypatch):
    gd = _graph_def(variant)
    ports = (["input:0"], ["probs_out:0", "leftover"]) if known else ((), ())
    graph = Graph(gd)
    assert len(graph) > graph_index.NUMPY_FROM
    fast = summarize(graph, *ports)
    made = sum(view is not None for view in graph._views)
    assert made < 40, f"{made} Node views made for a {len(graph)}-node graph"
    tf_counts = tf_parameter_counts(graph)
    with monkeypatch.context() as m:
        _without_numpy(m)
        slow_graph = Graph(gd)
        assert summarize(slow_graph, *ports) == fast
        assert tf_parameter_counts(slow_graph) == tf_counts
    old = _old_walks(graph)
    assert tf_counts == old["tf"] and tf_counts[2][:2] == ["flag", "v"]
    for key in ("bytes_by_op", "control_edges", "bytes_by_dtype", "op_counts"):
        assert getattr(fast, key) == old[key], key
    assert fast.control_edges == BLOCKS // 7 + 1 + (variant == "dangling")
    assert list(fast.devices.items()) == [("/cpu:0", BLOCKS // 7 + 1)]
    ranked = {c.name: c for c in fast.inputs}
    assert "does not reach the likely outputs" in ranked["labels"].reason
    assert ranked["unused"].reason.endswith("unused")
    assert "has a default" in ranked["training"].reason
    assert ranked["input"].score == (120 if known else 100)
    outputs = [c.name for c in fast.outputs]
    assert ("probs_out" in outputs) and "leftover" in outputs and "mean" in outputs
    assert [c.name for c in fast.variables] == ["v", "rv"]


def test_the_demo_models_summary_imports_no_numpy():
    """The small-graph path stays numpy-free (a fresh interpreter)."""
    code = ("import sys\n"
            "from inspector.core.app.opening import open_model, summary_of\n"
            f"s = summary_of(open_model({DEMO!r}))\n"
            "assert s.node_count > 10 and s.outputs, s\n"
            "assert 'numpy' not in sys.modules, 'numpy imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def _tf_text_by_node_walks(graph: Graph, path: str) -> str:
    """TF's summarize_graph lines on outputs, control edges and devices as the walks over
    every Node view gave them before the columns."""
    from inspector.core.analysis.summary import UNLIKELY_OUTPUT_OPS
    from inspector.core.model.graph import node_name_from_input

    referenced = {node_name_from_input(i) for n in graph for i in n.proto.input}
    outputs = [n.name for n in graph if n.name not in referenced and
               n.op not in UNLIKELY_OUTPUT_OPS]
    control = sum(1 for n in graph for i in n.proto.input if i.startswith("^"))
    devices = Counter(n.device for n in graph if n.device)
    return outputs, control, devices


@pytest.mark.parametrize("variant", ["plain", "duplicates", "dangling", "odd names"])
def test_tf_summary_text_on_columns_is_the_node_walks_one_without_a_view_per_node(variant):
    """summarize --format tf: outputs, control edges and devices from the columns; the
    same text as the walks over every node (which made a view per node: 6k here)."""
    from inspector.core.formats import summary_format

    gd = _graph_def("dangling" if variant == "odd names" else variant)
    if variant == "odd names":
        gd.node.add(name="x:odd", op="Add", input=["x:odd", "^b3/w", "b3/w:0"])
        gd.node.add(name="^caret", op="Relu", input=["^caret"])
    graph = Graph(gd)
    text, warnings, ok = summary_format.tf_summary_text(graph, "m.pb")
    made = sum(view is not None for view in graph._views)
    outputs, control, devices = _tf_text_by_node_walks(graph, "m.pb")
    assert ("Found %d possible outputs: " % len(outputs) +
            "".join(f"(name={n}, op={graph.node(n).op}) " for n in outputs)) in text
    assert f"and {control} control_edges\n" in text
    for device, k in devices.items():
        assert f"{k} nodes assigned to device '{device}'" in text
    assert ok == (variant in ("plain", "duplicates"))
    if variant != "odd names":
        assert made < 40, f"{made} Node views made for a {len(graph)}-node graph"
