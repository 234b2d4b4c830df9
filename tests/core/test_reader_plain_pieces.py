"""Without the compiled passes a reader process cuts the walk into pieces of at most
PLAIN_NODES nodes (4096), not CHUNK_NODES (16384): the window, the slower side at the end
of a 300k-node graph's stream, is a piece or two behind when the walk is over, and those
pieces now hold a quarter as many nodes (slow class: the window's last pieces took
0.2-0.27 s after the reader's end, now 0.05-0.1 s). The compiled passes keep their pieces."""

from __future__ import annotations

import marshal
import os

import pytest

from inspector.core.loaders import reader_process
from tests.fixtures import scale_models


def _piece_sizes(path: str, monkeypatch, kernels: str) -> list:
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", kernels)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(path, os.stat(path), window=True)
    assert stream is not None
    sizes = []
    for kind, payload in stream.frames():
        if kind == b"P":
            sizes.append(len(marshal.loads(payload)[1]))
        elif kind != b"D":
            assert not kind, kind
    return sizes


@pytest.mark.parametrize("kernels", ["0", "1"], ids=["plain", "compiled"])
def test_pieces_without_the_compiled_passes_hold_at_most_plain_nodes(monkeypatch, kernels):
    path = scale_models.blocks_graph(20_000)
    sizes = _piece_sizes(path, monkeypatch, kernels)
    assert sum(sizes) > 19_000           # (blocks_graph(n): about n nodes)
    if kernels == "0":
        assert max(sizes) == reader_process.PLAIN_NODES == 4096
        assert len(sizes) == -(-sum(sizes) // 4096)
    else:
        assert max(sizes) == reader_process.CHUNK_NODES == 16384
