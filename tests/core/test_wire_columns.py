"""wire_columns (numba kernels over GraphDef wire bytes) against the exact path: a graph's
columns read by the compiled passes, batch by batch as the reader process sends them,
equal those of protobuf's parse of the same bytes (names, ops, inputs as indexes, ports,
control inputs, loose, malformed and huge-port inputs, devices, odd names, duplicates,
scope ids), and each node field's place. Mutated bytes (tests/fixtures/wire_fuzz's
encoder, hostile fields) never crash it: either the same columns or a refusal (None)."""

from __future__ import annotations

import glob
import os
import random

import pytest

from inspector.core.model import graph_index, protos, scope_grouping, wire_columns
from inspector.core.model.graph import Graph
from inspector.core.model.node_store import _fields
from tests.fixtures import scale_models, wire_fuzz
from tests.fixtures.walker_graphs import hostile_graph_def

pytestmark = pytest.mark.skipif(wire_columns.kernels() is None, reason="numba missing")


def _frames(data: bytes, chunk: int) -> list:
    """(bytes, node count) of the GraphDef's fields, `chunk` node fields a frame (other
    top-level fields ride along in the frame they sit in)."""
    out, start, n = [], 0, 0
    for number, wire, s, e in _fields(data):
        n += number == 1 and wire == 2
        if n == chunk:
            out.append((data[start:e], n))
            start, n = e, 0
    if start < len(data):
        out.append((data[start:], n))
    return out


def _wire_graph(data: bytes, chunk: int):
    """The Graph built from wire_columns' batches (as reader_frames._add_placed takes
    them), or None when a batch is refused; each batch's node places are checked."""
    reader = wire_columns.reader()
    graph = Graph(protos.GraphDef(), complete=False)
    for piece, n in _frames(data, chunk):
        if not n:
            continue                    # (the reader sends no columns for no node)
        got = reader.read(piece, n)
        if got is None:
            return None
        nodes = [(s, e) for number, wire, s, e in _fields(piece) if number == 1 and wire == 2]
        assert got.node_at.tolist() == [s for s, _ in nodes]
        assert got.node_size.tolist() == [e - s for s, e in nodes]
        assert got.lengths.tolist() == [len(protos.GraphDef.FromString(piece[s:e]).node[0]
                                            .SerializeToString()) for s, e in nodes] \
            or len(nodes) > 50          # (checked on small frames: a parse a node)
        first = len(graph) == 0
        graph_index.take(graph, got.columns)
        scope_grouping.take_scopes(graph, got.scopes, first)
    graph.finish()
    return graph


def _columns(graph) -> dict:
    return {"names": graph._names, "op_names": graph.op_names, "ops": list(graph._ops),
            "in_off": list(graph._in_off), "src": list(graph._src),
            "port": list(graph._port), "control": list(graph.in_control),
            "loose": graph._loose, "big": graph._big_ports,
            "malformed": graph.malformed_inputs, "devices": graph.devices,
            "duplicates": graph.duplicate_names, "dangling": graph.dangling_inputs,
            "problems": graph.problems(), "odd": graph._odd,
            "scopes": (graph.scope_ids()[0], list(graph.scope_ids()[1]))}


def _same(data: bytes, chunk: int) -> None:
    here = _columns(Graph(protos.GraphDef.FromString(data)))
    got = _wire_graph(data, chunk)
    assert got is not None
    got = _columns(got)
    assert {k for k in here if got[k] != here[k]} == set()


def _pbtxt_made() -> bytes:
    """A graph written as text, read back by the app's own text parser, saved binary."""
    from google.protobuf import text_format

    from inspector.core.loaders.protofile import parse

    gd = hostile_graph_def(400, seed=5)
    for k, node in enumerate(gd.node):
        node.name = node.name or f"nameless{k}"
    text = text_format.MessageToString(gd).encode()
    return parse(text, protos.GraphDef, True, "made.pbtxt").SerializeToString()


@pytest.mark.parametrize("chunk", [1, 64, 700, 100_000])
def test_the_hostile_graphs_columns_equal_protobufs(chunk):
    """Forward references, duplicates, odd names (empty, ':' '^', 70 scopes deep: no scope
    ids then), loose, malformed and huge-port inputs, devices; frames of `chunk` nodes."""
    gd = hostile_graph_def(3000, seed=11)
    gd.node[5].device = "/device:GPU:0"
    gd.node.add(name="big", op="Add").input.extend(["s0/b0/n1:99999999999", "^missing",
                                                     "s0/b0/n1:00007", "s0/b0/n1:"])
    for k, node in enumerate(gd.node):
        if not node.name:
            node.name = f"nameless{k}"          # (a nameless node is refused: below)
    gd.library.function.add().signature.name = "f"     # another top-level field
    _same(gd.SerializeToString(), chunk)


def test_batches_scanned_ahead_and_finished_later_give_the_same_columns():
    """The reader process scans batches in a second thread while it finishes earlier ones:
    every batch scanned before any is finished (the tables grown, copied, meanwhile) gives
    the same Reads as read one by one, the scope ids and a refused batch included."""
    gd = hostile_graph_def(3000, seed=5)
    for k, node in enumerate(gd.node):
        node.name = node.name or f"nameless{k}"
    gd.node[2500].ClearField("name")           # the kernels refuse its batch and later ones
    frames = _frames(gd.SerializeToString(), 400)
    one, ahead = wire_columns.reader(), wire_columns.reader()
    read = [one.read(piece, n) for piece, n in frames]
    scanned = [ahead.scan(piece, n) for piece, n in frames]
    finished = [ahead.finish(s) for s in scanned]
    assert [r is None for r in read] == [False] * 6 + [True] * 2
    assert [r is None for r in finished] == [r is None for r in read]
    for r, f in zip(read, finished):
        if r is not None:
            assert f.columns == r.columns and f.scopes == r.scopes
            assert f.node_at.tolist() == r.node_at.tolist()
            assert f.lengths.tolist() == r.lengths.tolist()


def test_scale_graphs_and_a_pbtxt_made_one_equal_protobufs():
    for data in [open(scale_models.blocks_graph(3000), "rb").read(),
                 open(scale_models.flat_graph(1000), "rb").read(), _pbtxt_made()] + \
            [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(
                os.path.dirname(scale_models._cache("x")), "flat_*_0.pb")))[:1]]:
        _same(data, 16384)


@pytest.mark.parametrize("node", [
    protos.NodeDef(op="Add"),                                  # no name (proto3: no field)
    protos.NodeDef(name="x"),                                  # no op
    protos.NodeDef(name="é", op="Add"),                        # not ASCII
    protos.NodeDef(name="x", op="Add", input=["ü"]),
    protos.NodeDef(name="x", op="Add", device="é")], ids=str)
def test_what_the_kernels_do_not_read_is_refused(node):
    gd = hostile_graph_def(100)
    gd.node.append(node)
    assert wire_columns.reader().read(gd.SerializeToString(), len(gd.node)) is None


def _mutate(body: bytes, rng: random.Random) -> bytes:
    """A NodeDef's bytes with a hostile change at the level the kernels read."""
    fields = wire_fuzz.parse(body) or []
    texts = [b"", b":", b"^", b"a:", b"a:01", b"s0/b0/n1:99999999999", b"^s1/b1/n2:1",
             b"a:b:c", b"a^b", b"\n", b"x\n", b"\xff", "é".encode(), b"\x00", b"s0/b0/n7"]
    kind = rng.randrange(9)
    if kind == 0 and fields:                   # a field written twice
        fields.insert(rng.randrange(len(fields) + 1), list(rng.choice(fields)))
    elif kind == 1 and fields:                 # a field left out
        del fields[rng.randrange(len(fields))]
    elif kind == 2:                            # a string field of another wire type
        wire = rng.choice((0, 1, 5))
        fields.append([rng.randrange(1, 5), wire, 7 if wire == 0 else b"\x00" * (
            8 if wire == 1 else 4)])
    elif kind == 3:                            # a hostile input, name or device text
        fields.append([rng.choice((1, 3, 3, 4)), 2, rng.choice(texts)])
    elif kind == 4:                            # a group
        fields.append([7, "raw", bytes([7 << 3 | 3, 8, 1, 7 << 3 | 4])])
    elif kind == 5:                            # an unknown varint, 10 bytes
        fields.append([9, "raw", bytes([9 << 3]) + wire_fuzz.varint(-1)])
    data = wire_fuzz.serialize(fields, rng if kind == 6 else None)
    if kind == 7 and data:                     # a byte flipped
        at = rng.randrange(len(data))
        data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if kind == 8 and data:                     # cut short
        data = data[:rng.randrange(len(data))]
    return data


def test_mutated_bytes_give_the_same_columns_or_a_refusal():
    """300 graphs of 120 nodes, 1-2 nodes mutated each (and now and then the whole frame
    cut or a byte flipped): never a crash; when the kernels answer, protobuf's parse of the
    bytes gives the same columns."""
    base = hostile_graph_def(120, seed=2)
    for k, node in enumerate(base.node):
        node.name = node.name or f"nameless{k}"
    bodies = [n.SerializeToString() for n in base.node]
    rng, answered = random.Random(47), 0
    for case in range(300):
        chosen = list(bodies)
        for _ in range(rng.choice((1, 1, 1, 2))):
            k = rng.randrange(len(chosen))
            chosen[k] = _mutate(chosen[k], rng)
        data = b"".join(wire_fuzz.varint(1 << 3 | 2) + wire_fuzz.varint(len(b)) + b
                        for b in chosen)
        if case % 10 == 9:
            cut = rng.randrange(len(data))
            data = data[:cut] + (bytes([rng.randrange(256)]) + data[cut + 1:]
                                 if case % 20 == 9 else b"")
        got = wire_columns.reader().read(data, len(chosen))   # must not crash
        try:
            gd = protos.GraphDef.FromString(data)
        except Exception:  # noqa: BLE001  (not a GraphDef protobuf reads: nothing to match)
            continue
        if got is None or len(gd.node) != len(chosen):
            continue
        answered += 1
        here = _columns(Graph(gd))
        mine = _columns(_wire_graph(data, 10_000))
        assert {k for k in here if mine[k] != here[k]} == set(), case
    assert 60 < answered < 280       # (many read, many refused)


def test_loading_the_kernels_imports_no_scipy():
    """numba's first compiled call imports scipy.linalg only to look for a BLAS (np.dot),
    which the kernels do not use: loading them leaves scipy out (~0.15 s at normal speed),
    and scipy can still be imported afterwards."""
    import subprocess
    import sys

    code = ("import sys; from inspector.core.model import wire_columns as w; "
            "assert w.kernels() is not None and w.warm(); "
            "print('scipy' in sys.modules); import scipy.linalg; print('after')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "INSPECTOR_WIRE_KERNELS": "1"})
    assert out.stdout.split() == ["False", "after"], out.stderr
