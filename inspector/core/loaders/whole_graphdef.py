"""A big binary GraphDef read whole, in one pass, for work that needs every value at once (the
command line's transform, flops and check). The loaders open such a file lazily (structure
first, in a reader process, values read back later: what the window wants); this parses the
file's top-level fields straight from one reused read window instead, so there is no copy of
the file in memory, no structure-only pass and no Graph indexes. Only for the plain case:
anything unusual gives None, and the loaders open the file (and say what is wrong)."""

from __future__ import annotations

import os

from google.protobuf import message, unknown_fields

from inspector.core.errors import InspectorError
from inspector.core.loaders import files
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.loaders.protofile import check_kind
from inspector.core.loaders.sniff import graphdef_by_first_fields, varint_at
from inspector.core.model import protos
from inspector.core.model.held_file import HeldFile
from inspector.core.model.weights import LAZY_MARK

WINDOW = 8 * 2 ** 20
_GRAPHDEF_FIELDS = {1: 2, 2: 2, 3: 0, 4: 2, 5: 2}   # GraphDef field number -> its wire type


def opens_lazily(path: str) -> bool:
    """The loaders would open this file with their lazy GraphDef reader (and so would give
    the GraphDef whole parsing gives, once its values are read)."""
    from inspector.core.loaders.readers import REGISTRY, LoadContext, _open_lazily

    try:
        ctx = LoadContext(path, files.stat_input(path), {})
        first = next((r for r in REGISTRY if r.match(ctx)), None)
    except Exception:  # noqa: BLE001  (the loaders report it)
        return False
    return first is not None and first.open is _open_lazily


def read_graph_def(path: str):
    """The GraphDef of a big binary GraphDef file, or None (then use loaders.load)."""
    if not opens_lazily(path):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        before = os.fstat(fd)
        graph_def = _parse(fd)
        after = os.fstat(fd)
    finally:
        os.close(fd)
    if graph_def is None or (before.st_size, before.st_mtime_ns) != \
            (after.st_size, after.st_mtime_ns):
        return None
    return graph_def if _plain(graph_def, path) else None


def _parse(fd: int):
    """Top-level fields parsed a window at a time (a field is never cut: protobuf merges the
    pieces into what one parse of the whole file gives). None on anything but a GraphDef's
    fields, well formed."""
    graph_def = protos.GraphDef()
    buf = bytearray(WINDOW)
    view = memoryview(buf)
    filled, eof, first = 0, False, []
    while True:
        if not eof and filled < len(buf):
            n = os.readv(fd, [view[filled:]])
            eof = n == 0
            filled += n
        pos, need = _whole_fields(buf, filled, first)
        if pos < 0:
            return None
        if pos:
            try:
                graph_def.MergeFromString(view[:pos])
            except (message.DecodeError, RecursionError):
                return None
            view[:filled - pos] = view[pos:filled]
            filled -= pos
        elif need > len(buf):           # one field bigger than the window: grow it
            view.release()
            buf.extend(bytes(need - len(buf)))
            view = memoryview(buf)
        elif eof:
            return None if filled else graph_def if graphdef_by_first_fields(first) else None
        elif filled == len(buf):        # a full window and no whole field: a bad varint
            return None


def _whole_fields(buf, filled: int, first: list) -> tuple[int, int]:
    """(end of the last whole field in buf[:filled], bytes the next field needs from there);
    end -1 at a field no GraphDef has. `first` gets the (number, wire) of the first 64."""
    pos = 0
    while pos < filled:
        try:
            key, i = varint_at(buf, pos, filled)
        except (EOFError, ValueError):
            return pos, 11
        number, wire = key >> 3, key & 7
        if _GRAPHDEF_FIELDS.get(number) != wire:
            return -1, 0
        try:
            value, j = varint_at(buf, i, filled)   # a length, or the value of field 3
        except (EOFError, ValueError):
            return pos, i - pos + 11
        end = j + value if wire == 2 else j
        if end > filled:
            return pos, end - pos
        if len(first) < 64:
            first.append((number, wire))
        pos = end
    return pos, 0


def _plain(graph_def, path: str) -> bool:
    """What the lazy reader would accept without a word: a GraphDef's fields only, readable
    node names, some nodes, no name twice."""
    try:
        check_kind(graph_def, "GraphDef", path)
    except InspectorError:
        return False
    names = {n.name for n in graph_def.node}
    return bool(graph_def.node) and len(names) == len(graph_def.node)


class LeftInFile(HeldFile):
    """The large tensor values of a GraphDef read by read_structure: where each lies in the
    model file (`by_name`: by node name and attribute), and the file, held open with its stamp."""

    def __init__(self, path: str, fd: int, stamp: tuple, by_name: dict):
        super().__init__(path, fd, stamp)
        self.by_name = by_name


def read_structure(path: str):
    """(GraphDef, LeftInFile) of a big binary GraphDef whose large tensor values stay in the
    file (their tensors keep dtype and shape, marked lazy: for transforms that never read
    values, written back by formats/spliced), or None (then use read_graph_def)."""
    if not opens_lazily(path):
        return None
    try:
        opened = open_lazily(path, os.stat(path), parse_below=0)
    except Exception:  # noqa: BLE001  (the loaders say what is wrong)
        return None
    if opened is None:
        return None
    graph_def, store = opened
    if store is None or not _plain(graph_def, path):
        if store is not None:
            store.close()
        return None
    by_name: dict = {}
    for slot in store.slots.values():
        by_name.setdefault(graph_def.node[slot.node].name, {})[slot.attr] = slot
    if any(lazy_attrs(graph_def.node[slot.node], by_name[graph_def.node[slot.node].name])
           is None for slot in store.slots.values()):
        store.close()
        return None
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    left = LeftInFile(path, fd, store.stamp, by_name)
    store.close()
    if not left.unchanged():
        left.close()
        return None
    return graph_def, left


def lazy_attrs(node, slots: dict) -> dict | None:
    """{attr: slot} of the node's tensors still in the file (`slots`: attr -> Slot, those of
    a node of this name); None when one of them cannot be written back in place
    (formats/spliced: unknown fields it could not place)."""
    out = {}
    for key, slot in slots.items():
        if key not in node.attr:
            continue
        value = node.attr[key]
        if value.WhichOneof("value") != "tensor" or value.tensor.version_number != LAZY_MARK:
            continue
        tensor = value.tensor
        if len(unknown_fields.UnknownFieldSet(tensor)) or \
                len(unknown_fields.UnknownFieldSet(value)):
            return None
        out[key] = slot
    if out and len(unknown_fields.UnknownFieldSet(node)):
        return None
    return out
