"""The constants' facts read from the NodeDef bytes while a big graph opens
(core/model/const_columns.py) equal tensors.facts of each NodeDef message, for the usual
encodings and for every odd one a file may hold; the summary reads them with no facts
call, no Node view, and gives the same report as the per-constant path."""

from __future__ import annotations

import os
import struct

import numpy as np
import pytest

from inspector.core.analysis import summary_columns
from inspector.core.analysis.summary import summarize, tf_parameter_counts
from inspector.core.formats import summary_format
from inspector.core.loaders import load
from inspector.core.model import graph_index, protos, tensors
from inspector.core.model.graph import Graph
from inspector.core.model.weights import LAZY_MARK
from tests.fixtures.wire_fuzz import facts_from_messages, streamed
from tests.fixtures.wire_fuzz import field as f
from tests.fixtures.wire_fuzz import varint as v

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")


def shape(*dims, unknown=False, names=False) -> bytes:
    out = b"".join(f(2, 2, f(1, 0, d) + (f(2, 2, b"x") if names else b"")) for d in dims)
    return out + (f(3, 0, 1) if unknown else b"")


def tensor(dtype=1, dims=(2,), content=None, extra=b"", version=None, **kw) -> bytes:
    out = (f(1, 0, dtype) if dtype is not None else b"") + f(2, 2, shape(*dims, **kw))
    if version is not None:
        out += f(3, 0, version)
    if content is not None:
        out += f(4, 2, content)
    return out + extra


def entry(key: bytes, value: bytes, value_first=False) -> bytes:
    k, val = f(1, 2, key), f(2, 2, value)
    return f(5, 2, val + k if value_first else k + val)


def const(name: str, value_attr: bytes | None, head=True, more=b"") -> bytes:
    """A Const NodeDef's bytes: name, op, then its attrs (head=False: attrs first)."""
    top = f(1, 2, name.encode()) + f(2, 2, b"Const")
    attrs = entry(b"dtype", f(6, 0, 1))
    if value_attr is not None:
        attrs += entry(b"value", value_attr)
    body = top + attrs + more if head else attrs + more + top
    return body


def packed_floats(*xs) -> bytes:
    return struct.pack(f"<{len(xs)}f", *xs)


def packed_varints(*xs) -> bytes:
    return b"".join(v(x) for x in xs)


CASES = {
    "content": const("content", f(8, 2, tensor(content=packed_floats(1, 2)))),
    "float_val packed": const("fp", f(8, 2, tensor(extra=f(5, 2, packed_floats(1, 2, 3))))),
    "float_val unpacked": const("fu", f(8, 2, tensor(
        extra=f(5, 5, packed_floats(1)) + f(5, 5, packed_floats(2))))),
    "int_val packed": const("ip", f(8, 2, tensor(dtype=3, extra=f(7, 2, packed_varints(
        1, 300, 2 ** 31 - 1, 5))))),
    "int_val unpacked": const("iu", f(8, 2, tensor(dtype=3, extra=f(7, 0, 7) + f(7, 0, 9)))),
    "int64": const("i64", f(8, 2, tensor(dtype=9, extra=f(10, 2, packed_varints(2 ** 40, 3))))),
    "bool": const("bool", f(8, 2, tensor(dtype=10, extra=f(11, 2, packed_varints(1, 0, 1))))),
    "half": const("half", f(8, 2, tensor(dtype=19, extra=f(13, 2, packed_varints(15360))))),
    "double": const("double", f(8, 2, tensor(dtype=2, extra=f(6, 2, b"\0" * 16)))),
    "complex64": const("c64", f(8, 2, tensor(dtype=8, extra=f(9, 2, packed_floats(1, 2))))),
    "complex128": const("c128", f(8, 2, tensor(dtype=18, extra=f(12, 2, b"\0" * 16)))),
    "strings": const("str", f(8, 2, tensor(dtype=7, extra=f(8, 2, b"abc") + f(8, 2, b"")
                                           + f(8, 2, b"hello")))),
    "string ref": const("sref", f(8, 2, tensor(dtype=107, extra=f(8, 2, b"abc")))),
    "uint64": const("u64", f(8, 2, tensor(dtype=23, extra=f(17, 2, packed_varints(2 ** 63))))),
    "values of another field": const("other", f(8, 2, tensor(extra=f(7, 2, b"\x01\x02")))),
    "content and values": const("both", f(8, 2, tensor(content=packed_floats(1, 2),
                                                       extra=f(5, 2, packed_floats(3))))),
    "empty content written": const("empty", f(8, 2, tensor(content=b""))),
    "unknown rank": const("rank", f(8, 2, tensor(dims=(), unknown=True))),
    "negative dim": const("neg", f(8, 2, tensor(dims=(-1, 4)))),
    "zero dim": const("zero", f(8, 2, tensor(dims=(0, 4), content=b""))),
    "scalar": const("scalar", f(8, 2, tensor(dims=(), extra=f(5, 2, packed_floats(1))))),
    "wrong content size": const("wrong", f(8, 2, tensor(content=b"\0" * 7))),
    "huge shape": const("huge", f(8, 2, tensor(dims=(2 ** 40, 2 ** 40, 2 ** 30)))),
    "lazy": const("lazy", f(8, 2, tensor(dims=(1000,), version=LAZY_MARK))),
    "no dtype": const("nodtype", f(8, 2, tensor(dtype=None))),
    "unknown dtype": const("dt99", f(8, 2, tensor(dtype=99, content=b"\0" * 8))),
    "dtype past 255": const("dt300", f(8, 2, tensor(dtype=300))),
    "negative dtype": const("dtneg", f(8, 2, tensor(dtype=-1))),
    "resource": const("res", f(8, 2, tensor(dtype=20))),
    "dim names": const("named", f(8, 2, tensor(dims=(3, 2), names=True,
                                               content=b"\0" * 24))),
    "unknown tensor field": const("unk", f(8, 2, tensor(extra=f(99, 0, 5)))),
    "dtype as bytes": const("dtbytes", f(8, 2, f(1, 2, b"\x01") + f(2, 2, shape(2)))),
    "no value": const("novalue", None),
    "value not a tensor": const("type", f(6, 0, 1)),
    "empty value": const("emptyvalue", b""),
    "attrs first": const("first", f(8, 2, tensor(content=packed_floats(1, 2))), head=False),
    "value before key": const("vfirst", None, more=entry(
        b"value", f(8, 2, tensor(dims=(3,))), value_first=True)),
    "value twice": const("twice", f(8, 2, tensor(dims=(3,))), more=entry(
        b"value", f(8, 2, tensor(dims=(5,))))),
    "tensor twice": const("merge", f(8, 2, tensor(dims=(3,))) + f(8, 2, tensor(dims=(4,)))),
    "shape twice": const("shapes", f(8, 2, tensor(dims=(3,)) + f(2, 2, shape(7)))),
    "a list then the tensor": const("list", f(1, 2, b"") + f(8, 2, tensor(dims=(3,)))),
    "inputs and device": const("wired", f(8, 2, tensor(content=packed_floats(1, 2))),
                               more=f(3, 2, b"^content") + f(4, 2, b"/cpu:0")),
}


def _graph(monkeypatch, cases=CASES) -> Graph:
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 64)
    fill = [f(1, 2, f"n{k}".encode()) + f(2, 2, b"NoOp") for k in range(80)]
    return streamed(list(cases.values()) + fill)


def test_the_constants_facts_from_the_bytes_equal_those_of_the_messages(monkeypatch):
    graph = _graph(monkeypatch)
    cols = graph.const_columns()
    assert cols is not None and len(cols.at) == len(CASES)
    assert graph.const_facts() == facts_from_messages(graph)
    # the usual encodings are read from the bytes, the odd ones from their messages
    odd = {graph.name_list[i] for i in cols.at[cols.odd].tolist()}
    assert odd == {"huge", "dt300", "dtneg", "dtbytes", "type", "emptyvalue", "twice",
                   "merge", "shapes", "list"}, odd
    assert not {"content", "fp", "fu", "ip", "iu", "str", "lazy", "named", "first",
                "vfirst", "wired", "both", "rank"} & odd


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_encoding_alone(name, monkeypatch):
    graph = _graph(monkeypatch, {name: CASES[name]})
    assert graph.const_columns() is not None
    assert graph.const_facts() == facts_from_messages(graph)


def test_the_summary_reads_the_constants_with_no_facts_call_and_no_node_view(monkeypatch):
    """Fails on the old code: tensors.facts ran once a constant (and made a Node view for
    none, but a NodeDef message each)."""
    from tests.core.test_summary_columns import _graph_def

    graph = Graph(_graph_def("plain"))
    calls = []
    real = tensors.facts
    monkeypatch.setattr(tensors, "facts", lambda t: calls.append(1) or real(t))
    summary = summarize(graph, (), ())
    assert calls == []
    assert sum(v is not None for v in graph._views) < 40    # the candidates' own views
    with monkeypatch.context() as m:
        m.setattr(Graph, "const_parts", lambda self: None)     # the per-constant path
        old_graph = Graph(_graph_def("plain"))
        assert summarize(old_graph, (), ()) == summary
        assert calls                 # that path reads each constant's message
        assert tf_parameter_counts(old_graph) == tf_parameter_counts(graph)


class _Model:
    kind, is_text, frozen, file_size, tags, signature = "graphdef", False, True, 1234, [], None


@pytest.mark.parametrize("name", ["v1_training.pb", "inception_jpeg.pb", "text_really.pb",
                                  "while_v2.pb", "cases"])
def test_the_reports_are_those_of_the_per_constant_path(name, monkeypatch):
    """summarize's text and --json of real models and of every odd constant, read from the
    bytes (small graphs too, NUMPY_FROM lowered) and through each constant's message."""
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 64)
    if name == "cases":
        graph = _graph(monkeypatch)
    else:
        graph = load(os.path.join(DATA, name)).graph
    assert graph.const_columns() is not None or len(graph) < 64
    reports = []
    for columns_on in (True, False):
        with monkeypatch.context() as m:
            if not columns_on:
                m.setattr(Graph, "const_parts", lambda self: None)
                graph = Graph(graph.structure)
            s = summarize(graph, (), ())
            reports.append((summary_format.report_text(s, _Model(), name),
                            summary_format.report_json(s, _Model(), name),
                            summary_format.tf_summary_text(graph, name)))
    assert reports[0] == reports[1]


def test_upstream_marks_by_peeling_equal_the_walk():
    """A big graph in order: peeled by whole arrays (no loop a node); with a cycle or a
    long dead chain: the walk."""
    g = protos.GraphDef()
    g.node.add(name="x", op="Placeholder")
    g.node.add(name="y", op="Placeholder")
    for k in range(3000):
        g.node.add(name=f"a{k}", op="Relu", input=[f"a{k - 1}" if k else "x"])
        g.node.add(name=f"d{k}", op="Relu", input=[f"d{k - 1}" if k else "y"] +
                   ([f"^a{k}"] if k % 500 == 0 else []))
        if k % 100 == 0:
            g.node.add(name=f"s{k}", op="Shape", input=[f"a{k}"])     # read by nothing
    g.node.add(name="out", op="Identity", input=["a2999", "d2999:0", "ghost"])
    graph = Graph(g)
    n = len(graph)
    big = summary_columns._big
    for starts in ([n - 1], [graph.index("d10"), graph.index("a5")], [0, 1]):
        peeled = summary_columns._peeled(graph, starts)
        summary_columns._big = lambda graph: False
        try:
            walked = summary_columns.upstream_marks(graph, starts)
        finally:
            summary_columns._big = big
        if starts == [n - 1]:
            assert peeled is not None
        if peeled is not None:
            assert peeled == walked
    # the dead chain d0..d2999 is 3000 rounds deep: left to the walk
    assert summary_columns._peeled(graph, [graph.index("a100")]) is None
    g.node[5].input.append("out")      # a cycle: the walk
    assert summary_columns._peeled(Graph(g), [n - 1]) is None


def test_a_graph_read_node_by_node_has_columns_read_from_its_messages(monkeypatch):
    """A batch read from messages (no wire bytes): its constants are marked odd, and the
    facts and the summary are still every constant's."""
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 1)
    graph = streamed(list(CASES.values())[:5])
    assert graph.const_columns() is not None
    cols = graph.const_columns()
    assert cols.odd.all()
    assert graph.const_facts() == facts_from_messages(graph)
    assert np.asarray(cols.at).tolist() == graph.nodes_of_op("Const")


def test_nodes_taken_from_a_readers_columns_read_their_constants_from_the_messages(
        monkeypatch):
    """A forked reader's columns (graph_index.take, while the window starts) carry no
    constant facts: those constants are read from their NodeDefs, a later piece read
    here from its bytes; the facts are every constant's."""
    from inspector.core.model import columns

    monkeypatch.setattr(graph_index, "NUMPY_FROM", 64)
    fill = [f(1, 2, f"n{k}".encode()) + f(2, 2, b"NoOp") for k in range(80)]
    first = b"".join(f(1, 2, body) for body in list(CASES.values())[:20] + fill)
    more = [f(1, 2, f"m{k}".encode()) + f(2, 2, b"NoOp") for k in range(70)]
    later = b"".join(f(1, 2, body) for body in list(CASES.values())[20:] + more)
    reader = Graph(protos.GraphDef(), complete=False)
    graph_index.append(reader, columns.read_wire(first, 100), 0)
    graph = Graph(protos.GraphDef(), complete=False)
    graph.structure.MergeFromString(first)
    graph_index.take(graph, graph_index.appended(reader, 0, 0, 0, 0))
    graph.structure.MergeFromString(later)
    graph.add_new_nodes(later)
    graph.finish()
    cols = graph.const_columns()
    assert cols is not None and cols.odd[:20].all() and not cols.odd[20:].all()
    assert cols.at.tolist() == graph.nodes_of_op("Const")
    assert graph.const_facts() == facts_from_messages(graph)


def test_a_graph_opened_without_reading_its_constants_gives_the_same_facts(monkeypatch):
    """The window opens big graphs without reading their constants from the bytes
    (front_end.WINDOW): const_facts then reads them from the NodeDefs, the
    same facts."""
    from inspector.core.loaders import load
    from inspector.core.runtime import front_end
    from tests.fixtures.scale_models import blocks_graph

    path = blocks_graph(10_000)
    read = load(path).graph
    monkeypatch.setattr(front_end, "WINDOW", True)
    later = load(path).graph
    assert later._const_parts is None and read._const_parts
    assert later.const_columns() is None
    assert later.const_facts() == read.const_facts() and len(read.const_facts()) > 900
