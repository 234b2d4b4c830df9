"""Weight nodes stripped by a learnt layout (weight_skeletons) give exactly what parsing each
one gives: the same stripped NodeDef bytes, weight slots, node sizes and errors, on a file
that mixes ordinary layouts with nodes built to look like a known layout but not be one."""

from __future__ import annotations

import os

import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import lazy_graphdef, weight_skeletons
from inspector.core.loaders.lazy_graphdef import encode_node, open_lazily
from inspector.core.model import protos
from inspector.core.model.weights import LAZY_MARK


def _weight(name: str, size: int = 4096, fill: bytes | None = None, dtype: int = 1,
            first_dtype: bool = False) -> bytes:
    node = protos.NodeDef(name=name, op="Const")
    if first_dtype:
        node.attr["dtype"].type = dtype
    tensor = node.attr["value"].tensor
    tensor.dtype = dtype
    tensor.tensor_shape.dim.add(size=size)
    tensor.tensor_content = fill if fill is not None else \
        bytes((k * 7 + len(name)) % 251 for k in range(4 * size))
    if not first_dtype:
        node.attr["dtype"].type = dtype
    return node.SerializeToString()


def _small(name: str, src: str) -> bytes:
    return protos.NodeDef(name=name, op="Identity", input=[src]).SerializeToString()


def _hostile(i: int) -> bytes | None:
    """A node meant to pass for the learnt layout, or None for an ordinary one."""
    same = _weight(f"b{i}/weights")
    if i == 40:        # a name that is not UTF-8 (the parse refuses it; the field walk keeps it)
        return same.replace(b"b40/weights", b"b40/weight\xff")
    if i == 41:        # the values' first bytes inside the name
        fill = b"HEADHEADHEADHEADHEADHEADHEADHEAD" + bytes(4 * 4096 - 32)
        return _weight("HEADHEADHEADHEADHEADHEADHEADHEAD/w", fill=fill)
    if i == 42:        # a second name field after the attributes: the last name counts
        return same + b"\x0a\x05other"
    if i == 43:        # a name of 200 bytes (two length bytes)
        return _weight("n" * 200)
    if i == 44:        # values of another shape and dtype
        return _weight(f"b{i}/w", size=3000, dtype=3)
    if i == 45:        # the same bytes around a name in another place: dtype first
        return _weight(f"b{i}/w", first_dtype=True)
    if i == 46:        # a version already set
        node = protos.NodeDef.FromString(same)
        node.attr["value"].tensor.version_number = 7
        return node.SerializeToString()
    if i == 47:        # values that repeat: their head is found before them only by a search
        return _weight(f"b{i}/w", fill=b"\x80" * (4 * 4096))
    return None


def _model(path: str, hostile: bool, skip: tuple = ()) -> str:
    parts = []
    for i in range(60):
        body = (_hostile(i) if hostile and i not in skip else None) or \
            _weight(f"b{i}/weights")
        parts.append(encode_node(body))
        parts += [encode_node(_small(f"b{i}/read{k}", f"b{i}/weights")) for k in range(3)]
    with open(path, "wb") as fh:
        fh.write(b"".join(parts))
    return path


class _Recording(lazy_graphdef.GraphDefSink):
    """Every node's bytes as the reader process would send them."""

    def __init__(self, r, graph_def):
        super().__init__(r, graph_def)
        self.sent = []

    def node(self, node) -> None:
        self.sent.append(node.SerializeToString())
        super().node(node)

    def node_bytes(self, data, pos: int) -> None:
        self.sent.append(bytes(data))
        try:          # (a name that is not UTF-8: the window reports it when it reads it)
            super().node_bytes(data, pos)
        except ModelLoadError as exc:
            self.sent.append(str(exc))


def _read(path: str, layouts: bool, monkeypatch, learnt: list | None = None):
    with monkeypatch.context() as m:
        if not layouts:
            m.setattr(weight_skeletons.Skeletons, "strip", lambda *a: None)
        else:
            real = weight_skeletons.Skeletons.strip

            def counted(self, *args):
                got = real(self, *args)
                if learnt is not None and got is not None:
                    learnt.append(args[4])
                return got

            m.setattr(weight_skeletons.Skeletons, "strip", counted)
        sinks, sizes = [], []

        def sink(r):
            sinks.append(_Recording(r, protos.GraphDef()))
            return sinks[0]

        try:
            _, store = open_lazily(path, os.stat(path), sink=sink, sizes=sizes)
        except ModelLoadError as exc:
            return str(exc)
        slots = sorted(store.slots.items()) if store else []
        if store:
            store.close()
        return sinks[0].graph_def, sinks[0].sent, sizes, slots


def test_weights_stripped_by_their_layout_equal_those_parsed(tmp_path, monkeypatch):
    path = _model(str(tmp_path / "w.pb"), False)
    learnt: list = []
    fast = _read(path, True, monkeypatch, learnt)
    slow = _read(path, False, monkeypatch)
    assert fast == slow and len(fast[3]) == 60
    assert len(learnt) == 59          # all but the first, which taught the layout
    stripped = protos.NodeDef.FromString(fast[1][4]).attr["value"].tensor
    assert stripped.version_number == LAZY_MARK and not stripped.tensor_content


def test_nodes_that_only_look_like_a_known_layout_are_parsed(tmp_path, monkeypatch):
    path = _model(str(tmp_path / "h.pb"), True)
    learnt: list = []
    fast = _read(path, True, monkeypatch, learnt)
    slow = _read(path, False, monkeypatch)
    assert fast == slow
    fast_ones = {index // 4 for index in learnt}
    assert not {40, 41, 42} & fast_ones and {43, 47} <= fast_ones
    assert len(learnt) >= 45


def test_a_streamed_file_with_hostile_weights_gives_the_graph_read_here(tmp_path, monkeypatch):
    from inspector.core.loaders import reader_process
    from inspector.core.loaders.readers import _receive

    path = _model(str(tmp_path / "s.pb"), True, skip=(40,))   # (an error read here)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 50)
    stream = reader_process.start(path, os.stat(path))
    streamed = _receive(stream, path)
    with monkeypatch.context() as m:
        m.setattr(weight_skeletons.Skeletons, "strip", lambda *a: None)
        graph_def, store = open_lazily(path, os.stat(path))
    assert streamed.structure == graph_def and streamed.weights.slots == store.slots
    store.close()


@pytest.mark.parametrize("cut", [0.3, 0.77])
def test_a_file_cut_inside_a_known_layout_gives_the_same_message(tmp_path, monkeypatch, cut):
    whole = open(_model(str(tmp_path / "c.pb"), False), "rb").read()
    path = str(tmp_path / "cut.pb")
    with open(path, "wb") as fh:
        fh.write(whole[:int(len(whole) * cut)])
    fast, slow = _read(path, True, monkeypatch), _read(path, False, monkeypatch)
    assert fast == slow and "truncated" in fast


def _with_device(name: str, device: bytes, content: bytes) -> bytes:
    node = protos.NodeDef(name=name, op="Const", device=device.decode())
    tensor = node.attr["value"].tensor
    tensor.dtype = 1
    tensor.tensor_shape.dim.add(size=len(content) // 4)
    tensor.tensor_content = content
    return node.SerializeToString()


def test_values_whose_bytes_come_first_in_another_field_are_parsed(tmp_path, monkeypatch):
    """The first node's values are also its device (the parse's search finds them there):
    a node of the same layout with another device and the same values must keep its own
    device and have its slot on its values, not on the device."""
    same = bytes(65 + k * 7 % 26 for k in range(16384))
    other = bytes(97 + k * 11 % 26 for k in range(16384))
    parts = [encode_node(_with_device("a/w", same, same))]
    parts += [encode_node(_with_device(f"b{i}/w", other, same)) for i in range(3)]
    path = str(tmp_path / "d.pb")
    with open(path, "wb") as fh:
        fh.write(b"".join(parts))
    fast, slow = _read(path, True, monkeypatch), _read(path, False, monkeypatch)
    assert fast == slow
    assert fast[0].node[1].device == other.decode()
    data = open(path, "rb").read()
    assert all(data[slot.offset:slot.offset + slot.length] == same for _, slot in fast[3])


@pytest.mark.parametrize("streamed", [False, True])
def test_a_weight_whose_shape_does_not_parse_is_one_line_naming_file_and_node(
        tmp_path, monkeypatch, streamed):
    """A dim's tag flipped to a fixed64 inside a big weight's shape: the node that does not
    parse is named (the stripped tensor's check raised protobuf's DecodeError out of the
    loader)."""
    from inspector.core.loaders import load, reader_process

    path = _model(str(tmp_path / "s.pb"), False)
    data = bytearray(open(path, "rb").read())
    at = data.index(b"b7/weights")
    dim = data.index(b"\x12\x03\x08\x80\x20", at)       # dim { size: 4096 }
    data[dim + 2] = 0x09
    with open(path, "wb") as fh:
        fh.write(data)
    monkeypatch.setattr(lazy_graphdef, "LAZY_ABOVE", 1 << 10)
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1 if streamed else 1 << 40)
    with pytest.raises(ModelLoadError) as err:
        model = load(path, freeze=False)
        list(model.graph.structure.node)       # (a big window graph reads it when asked)
    assert "b7/weights" in str(err.value) and path in str(err.value)
    assert "\n" not in str(err.value)
