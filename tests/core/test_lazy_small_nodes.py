"""The lazy reader's tight loop over runs of small nodes gives what its node-at-a-time walk
gives: the same GraphDef, weight slots, node sizes, bytes read, cuts and errors."""

from __future__ import annotations

import os

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import lazy_graphdef
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.model import protos


def _mixed(path: str) -> str:
    """Small nodes (one- and two-byte lengths), nodes of 8-16 KB with nothing to strip,
    large constants left in the file, and a library after the nodes."""
    gd = protos.GraphDef()
    for i in range(6000):
        node = gd.node.add(name=f"s{i % 9}/n{i}" + "x" * (i % 300), op="Add",
                           input=[f"s{(i - 1) % 9}/n{i - 1}"] if i else [])
        if i % 500 == 7:
            node.attr["blob"].s = b"b" * (9000 + i)             # 8-16 KB, no tensor
        if i % 700 == 3:
            node.op = "Const"
            tensor = node.attr["value"].tensor
            tensor.dtype = 1
            tensor.tensor_shape.dim.add(size=4096)
            tensor.tensor_content = bytes(range(256)) * 64      # 16 KB: left in the file
    gd.library.function.add().signature.name = "f"
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    return path


class _Pieces(lazy_graphdef.GraphDefSink):
    def __init__(self, r, graph_def):
        super().__init__(r, graph_def)
        self.cuts = []

    def cut(self, index: int) -> None:
        self.cuts.append((index, len(self.graph_def.node)))


def _read(path: str, walk_each: bool, monkeypatch):
    with monkeypatch.context() as m:
        if walk_each:                    # the node-at-a-time walk only
            m.setattr(lazy_graphdef, "_small_nodes", lambda buf, i, *rest: (i, 0))
            m.setattr(lazy_graphdef, "_runs", lambda buf, i, *rest: (i, 0, i))
        sizes, sinks = [], []

        def sink(r):
            sinks.append(_Pieces(r, protos.GraphDef()))
            return sinks[0]

        try:
            _, store = open_lazily(path, os.stat(path), sink=sink, every=1000, sizes=sizes)
        except ModelLoadError as exc:
            return str(exc)
        slots = sorted(store.slots.items()) if store else []
        out = (sinks[0].graph_def, sinks[0].cuts, sizes, slots, store and store.scanned)
        if store:
            store.close()
        return out


def test_runs_of_small_nodes_read_as_one_node_at_a_time(tmp_path, monkeypatch):
    path = _mixed(str(tmp_path / "mixed.pb"))
    fast, slow = _read(path, False, monkeypatch), _read(path, True, monkeypatch)
    assert fast[0] == slow[0] and len(fast[0].node) == 6000 and fast[0].library.function
    assert fast[1:] == slow[1:]
    assert len(fast[3]) == 9 and fast[1][0] == (1000, 1000)


@pytest.mark.parametrize("cut", [0.25, 0.5, 0.999])
def test_a_file_cut_anywhere_gives_the_same_message(tmp_path, monkeypatch, cut):
    whole = open(_mixed(str(tmp_path / "mixed.pb")), "rb").read()
    path = str(tmp_path / "cut.pb")
    with open(path, "wb") as fh:
        fh.write(whole[: int(len(whole) * cut)])
    fast, slow = _read(path, False, monkeypatch), _read(path, True, monkeypatch)
    assert isinstance(fast, str) and fast == slow
