"""A small binary GraphDef (parsed whole) with one node that does not parse: the error is one
line naming the file and the node, as a big file's reader says it."""

from __future__ import annotations

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.model import protos


def _graph_with_a_bad_node(tmp_path, bad_index: int) -> str:
    graph = protos.GraphDef()
    for k in range(5):
        node = graph.node.add(name=f"layer{k}/op", op="Identity" if k else "Placeholder")
        if k:
            node.input.append(f"layer{k - 1}/op")
    out = bytearray()
    for k, node in enumerate(graph.node):
        body = node.SerializeToString()
        if k == bad_index:       # an attr field holding 5 bytes that are no valid field
            body += b"\x2a\x05\xff\xff\xff\xff\xff"
        out += protos.varint(1 << 3 | 2) + protos.varint(len(body)) + body
    path = str(tmp_path / "small_broken.pb")
    with open(path, "wb") as fh:
        fh.write(bytes(out))
    return path


def test_a_small_files_bad_node_is_named(tmp_path):
    path = _graph_with_a_bad_node(tmp_path, 3)
    with pytest.raises(ModelLoadError) as caught:
        load(path, freeze=False)
    text = str(caught.value)
    assert "\n" not in text and path in text
    assert "node 'layer3/op'" in text and "node #3 is not a valid NodeDef" in text


def test_a_truncated_small_file_still_says_truncated(tmp_path):
    path = _graph_with_a_bad_node(tmp_path, -1)
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "wb") as fh:
        fh.write(data[:-7])
    with pytest.raises(ModelLoadError, match="truncated"):
        load(path, freeze=False)
