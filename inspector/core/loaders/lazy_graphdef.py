"""Open a big binary GraphDef without reading its weights: one pass over the file's protobuf
fields keeps every node, but for each large tensor only its dtype and shape, and records where
its bytes are (model.weights). Sizes and parameter counts then come from dtype x shape.

The file is read through a small window that grows while nodes are small and shrinks after a
skipped tensor, so a 1.2 GB model of a few hundred nodes reads a few MB to open."""

from __future__ import annotations

import os

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import weight_strip
from inspector.core.loaders.sniff import graphdef_by_first_fields, varint_at
from inspector.core.loaders.weight_skeletons import Skeletons
from inspector.core.loaders.weight_strip import LAZY_FIELD
from inspector.core.model import protos
from inspector.core.model.unparsed import bad_node_error
from inspector.core.model.weights import WeightStore

LAZY_ABOVE = 4 * 2 ** 20      # binary GraphDefs at least this big are opened lazily
MID_NODE = 2 ** 20            # nodes smaller than this are parsed whole, then stripped
SMALL_READ, BIG_READ = 16 * 2 ** 10, 4 * 2 ** 20
_NODE = 1


class _Reader:
    """Bytes of the file at any offset, through a window (reads counted)."""

    def __init__(self, fd: int, size: int, path: str):
        self.fd, self.size, self.path = fd, size, path
        self.base, self.buf, self.read_bytes = 0, b"", 0
        self.chunk = SMALL_READ

    def window(self, pos: int, need: int) -> int:
        """Make [pos, pos + need) available; returns pos's index into self.buf."""
        end = self.base + len(self.buf)
        if self.base <= pos and pos + need <= end:
            return pos - self.base
        self.chunk = min(self.chunk * 2, BIG_READ) if self.base <= pos <= end else SMALL_READ
        want = min(max(need, self.chunk), self.size - pos)
        self.buf = os.pread(self.fd, want, pos)
        self.base = pos
        self.read_bytes += len(self.buf)
        if len(self.buf) < need:
            raise ModelLoadError(f"file is truncated (cut inside a field at byte {pos})",
                                 path=self.path)
        return 0

    def get(self, pos: int, n: int):
        i = self.window(pos, n)
        return memoryview(self.buf)[i:i + n]

    def header(self, pos: int, limit: int) -> tuple[int, int, int, int]:
        """(field number, wire type, payload start, payload end) of the field at pos."""
        i = self.window(pos, min(20, limit - pos))
        buf, start = self.buf, i
        try:
            key, i = varint_at(buf, i)
            number, wire = key >> 3, key & 7
            if wire == 2:
                length, i = varint_at(buf, i)
        except (EOFError, ValueError):
            raise self._invalid(pos) from None
        if wire == 2:
            begin = pos + i - start
            end = begin + length
        elif wire == 0:
            while i < len(buf) and buf[i] & 0x80:
                i += 1
            begin = end = pos + i + 1 - start
        elif wire in (1, 5):
            begin = pos + i - start
            end = begin + (8 if wire == 1 else 4)
        else:
            raise self._invalid(pos)
        if number == 0 or end > limit:
            if end > limit and limit == self.size:
                raise ModelLoadError(f"file is truncated: a field at byte {pos} needs "
                                     f"{end - begin} bytes, only {limit - begin} remain",
                                     path=self.path)
            raise self._invalid(pos)
        return number, wire, begin, end

    def _invalid(self, pos: int) -> ModelLoadError:
        return ModelLoadError("not a TensorFlow model: neither a GraphDef, SavedModel, "
                              f"MetaGraphDef nor Keras file (invalid protobuf data at byte {pos})",
                              path=self.path)

    def fields(self, start: int, end: int):
        pos = start
        while pos < end:
            number, wire, begin, stop = self.header(pos, end)
            yield number, wire, pos, begin, stop
            pos = stop


def encode_node(node_def_bytes: bytes) -> bytes:
    """A NodeDef's bytes as a GraphDef's node field."""
    n = len(node_def_bytes)
    if n < 0x4000:          # (most: a stripped weight node) its head without a varint loop
        return (b"\x0a" + (bytes((n,)) if n < 0x80 else bytes((n & 0x7F | 0x80, n >> 7)))
                + node_def_bytes)
    return weight_strip.encode_field(_NODE, bytes(node_def_bytes))


class GraphDefSink:
    """Where the walk puts what it reads: merged into a GraphDef here. (The reader process
    uses another sink that sends the same pieces to the window: see reader_process.)"""

    def __init__(self, r: _Reader, graph_def):
        self.r, self.graph_def = r, graph_def

    def fields(self, start: int, end: int) -> None:
        """Top-level fields of the file, [start, end), taken as they are."""
        data, before = self.r.get(start, end - start), len(self.graph_def.node)
        try:
            self.graph_def.MergeFromString(data)
        except Exception:  # noqa: BLE001  (protobuf's DecodeError, or upb's own)
            raise (bad_node_error(data, self.r.path, before) or ModelLoadError(
                f"not a valid GraphDef: the fields between bytes {start} and {end} do not "
                "parse", path=self.r.path)) from None

    def node(self, node) -> None:
        """A node parsed and stripped of its large values."""
        self.graph_def.node.append(node)

    def node_bytes(self, data, pos: int) -> None:
        """A node as NodeDef bytes (stripped by the field walk)."""
        try:
            self.graph_def.node.add().MergeFromString(data)
        except Exception:  # noqa: BLE001
            raise ModelLoadError(f"not a valid GraphDef: the node at byte {pos} does not "
                                 "parse", path=self.r.path) from None

    def cut(self, index: int) -> None:
        """index nodes have been read (a place to send what has been read so far)."""


def read_fields(r: _Reader, sink, found: list, every: int = 0, sizes=None,
                parse_below: int = MID_NODE, small=None) -> None:
    """Walk the file's fields: runs of small nodes go to the sink whole (protobuf's parser
    takes them in one call); nodes holding large values are parsed one by one and their
    values left in the file (found gets their slots). sink.cut every `every` nodes. `sizes`
    (a list) gets each node's size in the file, values included (its NodeDef's ByteSize).
    Nodes holding large values and smaller than `parse_below` are parsed, then stripped;
    bigger ones are stripped by walking their fields (0: always, and no value is read).
    small: what finds the runs of small nodes (a compiled _small_nodes); by default _runs,
    which also takes the weight nodes of a known layout between them."""
    size, pos, index = r.size, 0, 0
    sized = sizes if sizes is not None else []
    fused, size_of, small = small is None, sized.append, small or _small_nodes
    cut = every or -1
    layouts = Skeletons()     # weight nodes' layouts: stripped without a parse once known
    run = [0, 0]        # pending small nodes [start, end), always inside the window
    ran = False         # the last step was a run of small nodes: the next node is not one
    # (small() stopped before it: a big node, the window's edge or a cut, taken below)

    def flush():
        if run[1] > run[0]:
            sink.fields(run[0], run[1])
        run[0] = run[1] = pos

    while pos < size:
        if index == cut:
            flush()
            sink.cut(index)
            cut += every
        buf, i = r.buf, pos - r.base
        if ran:
            ran = False
        elif 0 <= i < len(buf) and buf[i] == 0x0A:    # a run of small nodes, in one tight loop
            most = cut - index if every else size
            if fused:        # (and the weight nodes between them, stripped by their layout)
                end, k, at = _runs(buf, i, len(buf), most, sized, layouts.strip, found, r.base,
                                   index, sink, run[0] - r.base if run[1] == pos else i)
            else:
                end, k = small(buf, i, len(buf), most, sized)
                at = i if run[1] != pos else run[0] - r.base
            if k:
                run[0] = at + r.base
                pos = run[1] = end + r.base
                index += k
                ran = True
                continue
        if not 0 <= i <= len(buf) - 20:
            flush()
            number, wire, begin, stop = r.header(pos, size)
        elif buf[i] == 0x0A:      # a node: the common case, decoded here for speed
            length = buf[i + 1]
            if length < 0x80:
                j = i + 2
            elif buf[i + 2] < 0x80:
                length, j = (length & 0x7F) | buf[i + 2] << 7, i + 3
            else:
                try:
                    length, j = varint_at(buf, i + 1)
                except (EOFError, ValueError):
                    raise r._invalid(pos) from None
            number, wire, begin = _NODE, 2, pos + j - i
            stop = begin + length
            if stop > size:
                number, wire, begin, stop = r.header(pos, size)   # reports the truncation
        else:
            number, wire, begin, stop = r.header(pos, size)
        if number == _NODE and wire == 2 and stop - begin < LAZY_FIELD:
            if stop > r.base + len(r.buf):
                flush()
                r.window(pos, stop - pos)
            if run[1] != pos:
                run[0] = pos
            run[1] = stop
            size_of(stop - begin)
            index += 1
        elif number == _NODE and wire == 2:
            flush()
            node = stripped = None
            if stop - begin < parse_below:
                i = r.window(begin, stop - begin)    # parsed and searched in place: no copy
                buf, end = r.buf, i + stop - begin
                stripped = layouts.strip(buf, i, end, begin, index, found)
                try:
                    node = None if stripped is not None else \
                        protos.NodeDef.FromString(memoryview(buf)[i:end])
                except Exception:  # noqa: BLE001  (the field walk below says where it breaks)
                    node = None
                had = len(found)
                if node is not None and not weight_strip.strip_parsed(
                        node, buf, i, end, begin, index, found):
                    node = None
                if node is not None and len(found) > had:     # a layout to strip by
                    stripped = node.SerializeToString()
                    layouts.learn(buf, i, end, begin, found[had:], stripped, node.name)
            if stripped is not None:
                sink.node_bytes(stripped, pos)
            elif node is not None:
                sink.node(node)
            else:
                piece = weight_strip.strip_node(r, begin, stop, index, found)
                if piece is not None:
                    sink.node_bytes(piece, pos)
                else:
                    sink.fields(pos, stop)
            size_of(stop - begin)
            index += 1
        elif number in (2, 4) and wire == 2 or number in (3, 5):   # library, versions...
            flush()
            sink.fields(pos, stop)
        else:
            raise ModelLoadError(f"not a GraphDef: the file holds protobuf data of another "
                                 f"kind (field {number} at the top level)", path=r.path)
        pos = stop
    flush()


def _small_nodes(buf, i: int, edge: int, most: int, sizes: list) -> tuple[int, int]:
    """(where they end, how many) of the node fields from buf[i] with lengths under
    LAZY_FIELD (one- or two-byte lengths), each wholly before buf[edge], at most `most` of
    them; `sizes` gets each one's length. What read_fields does a node at a time for these,
    without its other cases."""
    k, last, add = 0, edge - 3, sizes.append
    while k < most and i < last and buf[i] == 0x0A:
        n = buf[i + 1]
        if n < 0x80:
            j = i + 2 + n
        else:
            m = buf[i + 2]
            if m >= 0x80:
                break
            n = (n & 0x7F) | m << 7
            if n >= LAZY_FIELD:
                break
            j = i + 3 + n
        if j > edge:
            break
        add(n)
        i = j
        k += 1
    return i, k


def _runs(buf, i: int, edge: int, most: int, sizes: list, strip, found: list, base: int,
          index: int, sink, run: int) -> tuple[int, int, int]:
    """_small_nodes going on past each weight node that `strip` (Skeletons.strip) strips by
    a known layout (its length written in two bytes): the run of small nodes before it goes
    to the sink (sink.fields: the run pending from buf[run] on, then each one between two
    weight nodes), the node stripped (sink.node_bytes), its slot into found, as read_fields
    does a node at a time (the nodes from buf[i] are the index-th on; buf[0] is the file's
    byte `base`). Returns (where they end, how many, where the run pending there starts)."""
    k, last, add = 0, edge - 3, sizes.append
    while k < most and i < last and buf[i] == 0x0A:
        n = buf[i + 1]
        if n < 0x80:
            j = i + 2 + n
        else:
            m = buf[i + 2]
            if m >= 0x80:
                break
            n = (n & 0x7F) | m << 7
            j = i + 3 + n
            if n >= LAZY_FIELD:
                if j > edge:
                    break
                stripped = strip(buf, i + 3, j, base + i + 3, index + k, found)
                if stripped is None:
                    break
                if run < i:
                    sink.fields(base + run, base + i)
                sink.node_bytes(stripped, base + i)
                add(n)
                i = run = j
                k += 1
                continue
        if j > edge:
            break
        add(n)
        i = j
        k += 1
    return i, k, run


def _first_fields(r: _Reader, count: int = 64) -> list:
    out, pos = [], 0
    while pos < r.size and len(out) < count:
        number, wire, _, pos = r.header(pos, r.size)
        out.append((number, wire))
    return out


def open_lazily(path: str, st, sink=None, every: int = 0, sizes=None,
                parse_below: int = MID_NODE, small=None) -> tuple | None:
    """(GraphDef without large tensor values, WeightStore or None) of the binary GraphDef at
    path; None when its first fields are not a GraphDef's. sink(reader) makes another sink
    for the walk (the reader process's); the GraphDef is then empty. sizes: see
    read_fields."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        now = os.fstat(fd)
        size = now.st_size
        r = _Reader(fd, size, path)
        try:
            first = _first_fields(r)
        except ModelLoadError:
            first = []
        if not graphdef_by_first_fields(first):
            os.close(fd)
            return None
        graph_def = protos.GraphDef()
        found: list = []
        read_fields(r, GraphDefSink(r, graph_def) if sink is None else sink(r), found, every,
                    sizes, parse_below, small)
        store = WeightStore(path, fd, (now.st_size, now.st_mtime_ns), found, r.read_bytes)
    except BaseException:
        os.close(fd)
        raise
    if not found:
        store.close()
        store = None
    return graph_def, store
