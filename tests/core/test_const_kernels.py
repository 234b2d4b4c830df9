"""The constants' facts by one compiled pass (core/model/const_kernels.py through
wire_columns.compiled_consts: the reader process's way once numba is loaded) equal
tensors.facts of protobuf's parse of each NodeDef, for the usual encodings, every odd one
of test_const_columns and the wire-level mutations of tests/fixtures/wire_fuzz.py; on plain
constants its columns equal const_columns.read's (the numpy passes it replaced), odd marks
included. A command's reader reads its constants so: no numpy pass per message level."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.model import const_columns, wire_columns
from tests.core.test_const_columns import CASES
from tests.fixtures import scale_models, wire_fuzz


@pytest.fixture(autouse=True)
def _numba():
    if wire_columns.kernels() is None:
        pytest.skip("numba is not installed")


def _placed(bodies: list):
    """(graph, data, starts, ends, Const indexes) of the named bodies joined."""
    graph = wire_fuzz.streamed(bodies)
    ends = np.cumsum([len(b) for b in bodies])
    starts = ends - [len(b) for b in bodies]
    at = np.array(graph.nodes_of_op("Const"), np.int64)
    return graph, b"".join(bodies), starts[at], ends[at], at


def _differences(bodies: list) -> list:
    graph, data, starts, ends, at = _placed(bodies)
    got = const_columns.facts_dict(graph, wire_columns.compiled_consts(data, starts, ends, at))
    want = wire_fuzz.facts_from_messages(graph)
    return [(k, got.get(k), want.get(k)) for k in sorted(set(got) | set(want))
            if got.get(k) != want.get(k)]


def _columns_equal(a, b) -> list:
    return [k for k in const_columns.ConstPart.__slots__
            if not np.array_equal(getattr(a, k), getattr(b, k))]


def test_the_compiled_facts_of_every_encoding_equal_protobufs():
    bodies = [wire_fuzz.named(wire_fuzz.strip(b), f"case{k}")
              for k, b in enumerate(CASES.values())]
    assert _differences(bodies) == []


@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_facts_of_mutated_constants_equal_protobufs(seed):
    bodies = wire_fuzz.const_bodies(extra=list(CASES.values()))
    cases = wire_fuzz.cases(100 + seed, 300, bodies, wire_fuzz.donors_of(bodies))
    assert _differences(cases) == []


def test_the_compiled_columns_of_real_constants_equal_the_numpy_passes():
    """The committed models' constants and a 10k-node blocks model's (lazy ones too)."""
    bodies = [wire_fuzz.named(b, f"k{k}") for k, b in enumerate(wire_fuzz.const_bodies(600))]
    path = scale_models.blocks_graph(10_000)
    from inspector.core.model import protos

    for node in protos.GraphDef.FromString(open(path, "rb").read()).node[:3000]:
        bodies.append(node.SerializeToString())
    graph, data, starts, ends, at = _placed(bodies)
    compiled = wire_columns.compiled_consts(data, starts, ends, at)
    numpy_read = const_columns.read(data, starts, ends, at)
    assert len(at) > 1000 and not numpy_read.odd.any()
    assert _columns_equal(compiled, numpy_read) == []


def test_a_dims_column_longer_than_first_made_is_grown():
    # 40 dims each: past the 4 a constant the first try makes room for
    dims = wire_fuzz.field(2, 2, b"".join(wire_fuzz.field(2, 2, wire_fuzz.field(1, 0, 1))
                                          for _ in range(40)))
    value = wire_fuzz.field(8, 2, wire_fuzz.field(1, 0, 1) + dims)
    body = wire_fuzz.field(5, 2, wire_fuzz.field(1, 2, b"value") + wire_fuzz.field(2, 2, value))
    bodies = [wire_fuzz.named(body, f"d{k}") for k in range(50)]
    graph, data, starts, ends, at = _placed(bodies)
    part = wire_columns.compiled_consts(data, starts, ends, at)
    assert len(part.dims) == 2000 and _differences(bodies) == []


def test_a_commands_reader_reads_its_constants_by_the_compiled_pass(monkeypatch):
    """The reader process of a command (forked, numba's passes) reads the constants' facts
    with the compiled pass, not const_columns.read's numpy passes (they held its walk ~1 s
    at 1M nodes); the facts equal those of the graph read here."""
    from inspector.core.loaders import reader_process
    from inspector.core.loaders.readers import _receive
    from inspector.core.model.graph import Graph
    from inspector.core.loaders.lazy_graphdef import open_lazily

    path = scale_models.blocks_graph(10_000)
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", "1")
    # frames of 4500 nodes (the first one past graph_index.NUMPY_FROM: facts read there)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 4500)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)

    def refused(*args):
        raise AssertionError("the numpy passes ran")

    with monkeypatch.context() as m:
        m.setattr(const_columns, "read", refused)
        stream = reader_process.start(path, os.stat(path))
        graph = _receive(stream, path)
    assert graph is not None          # (the reader failed: the numpy passes ran there)
    graph_def, store = open_lazily(path, os.stat(path))
    here = Graph(graph_def, weights=store)
    assert len(graph._const_parts) > 1 and not any(p.odd.any() for p in graph._const_parts)
    assert graph.const_facts() == wire_fuzz.facts_from_messages(here)
