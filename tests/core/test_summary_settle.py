"""The summary of a graph opened as the window opens it (no constant columns: its facts
dict only) counts its constants per distinct Facts, not in a loop over every constant
(summary_columns.facts_totals), and finds op types by a table, not np.isin: a thread beside
the GUI thread held the GIL there in the 300k settle. The answers equal the per-constant
loops' on the committed models, a blocks model (lazy constants) and test_summary_columns'
graphs (a Const without a value, duplicate names)."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
from inspector.core.analysis import summary_columns
from inspector.core.analysis.summary import summarize
from inspector.core.loaders import load
from inspector.core.model.dtypes import dtype_name
from inspector.core.model.graph import Graph
from inspector.core.runtime import front_end
from tests.core.test_summary_columns import _graph_def
from tests.fixtures import scale_models

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")


def _per_constant(graph) -> tuple:
    """What the summary computed before: a loop over every Const (elements of the
    decodable ones, the others in graph order, bytes by dtype, lazy bytes)."""
    facts, names = graph.const_facts(), graph.name_list
    elements, failed, by_code, lazy = 0, [], {}, 0
    for i in sorted(graph.nodes_of_op("Const")):
        fact = facts.get(names[i])
        if fact is not None and fact.decodable:
            elements += fact.elements
        else:
            failed.append(i)
        if fact is not None:
            by_code[fact.dtype] = by_code.get(fact.dtype, 0) + summary_columns.value_bytes(fact)
            lazy += fact.stored if fact.lazy else 0
    out = Counter()
    for code, stored in by_code.items():
        out[dtype_name(code)] += stored
    return elements, failed, out, lazy


def _window_graphs(monkeypatch) -> dict:
    monkeypatch.setattr(front_end, "WINDOW", True)      # no constant columns read
    graphs = {name: load(os.path.join(DATA, name)).graph
              for name in ("v1_training.pb", "inception_jpeg.pb", "text_really.pb",
                           "speech_commands.pb", "while_v2.pb")}
    graphs["blocks 20k"] = load(scale_models.blocks_graph(20_000)).graph
    for variant in ("plain", "duplicates"):
        graphs[variant] = Graph(_graph_def(variant))
    return graphs


def test_facts_totals_equal_the_loop_over_every_constant(monkeypatch):
    graphs = _window_graphs(monkeypatch)
    for name, graph in graphs.items():
        assert summary_columns.const_totals(graph) is None, name
        got, want = summary_columns.facts_totals(graph), _per_constant(graph)
        assert got == want and list(got[2]) == list(want[2]), name
    assert _per_constant(graphs["blocks 20k"])[3] > 0          # lazy constants
    assert _per_constant(graphs["plain"])[1]                   # a Const without a value
    assert len(_per_constant(graphs["v1_training.pb"])[2]) > 1  # several dtypes


def test_the_summary_of_a_big_window_graph_runs_no_isin(monkeypatch):
    graph = _window_graphs(monkeypatch)["blocks 20k"]
    want = summarize(graph)
    ops = tuple(graph.op_names[:3])
    loop = sorted(i for op in ops for i in graph.nodes_of_op(op))
    skip = {graph._op_code[op] for op in ops}
    read = set(graph.in_src.tolist())

    def refused(*args, **kwargs):
        raise AssertionError("np.isin held the GIL over every node")

    monkeypatch.setattr(np, "isin", refused)
    assert len(loop) > 5000 and summary_columns.indexes_of_ops(graph, ops) == loop
    assert summary_columns.unread(graph, ops) == [
        i for i in range(len(graph)) if i not in read and graph._ops[i] not in skip]
    assert summarize(graph) == want


def test_a_big_window_graphs_summary_equals_the_commands(monkeypatch):
    """The window's summary (the facts dict) and the command's (constant columns read
    while it opened) are the same Summary."""
    path = scale_models.blocks_graph(20_000)
    command = load(path).graph
    assert summary_columns.const_totals(command) is not None
    monkeypatch.setattr(front_end, "WINDOW", True)
    window = load(path).graph
    assert summary_columns.const_totals(window) is None
    assert summarize(window) == summarize(command)


def test_facts_totals_and_weight_homes_in_small_look_up_pieces(monkeypatch):
    """Dict look-ups go LOOKUPS / parameters.PIECE (2048) constants a C call (8192 held the
    GIL 2-6 ms at normal speed); pieces of any size give the same answers."""
    from inspector.core.model import parameters

    assert summary_columns.LOOKUPS == parameters.PIECE == 2048
    graph = _window_graphs(monkeypatch)["blocks 20k"]
    want, homes = _per_constant(graph), parameters.weight_homes(graph)
    monkeypatch.setattr(summary_columns, "LOOKUPS", 7)
    monkeypatch.setattr(parameters, "PIECE", 7)
    assert summary_columns.facts_totals(graph) == want
    got = parameters.weight_homes(graph)
    assert got == homes and list(got) == list(homes) and len(homes) > 1000
