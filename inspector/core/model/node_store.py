"""A big graph's NodeDefs kept as their bytes, parsed when asked for.

A GraphDef held as protobuf messages costs ~4x its bytes (a 1M-node graph of 175 MB: 750 MB
of upb messages), and the window reads few of them. A streamed graph (reader_process) keeps
instead, per node, where its NodeDef field sits: in the model file (a range the reader sent,
read back with pread) or, for the few nodes the reader stripped of their large values, in
memory. `StoredGraphDef` stands in for the GraphDef (read-only): `.node[i]` parses node i
(alone, or its block of BLOCK nodes in a walk; the last ones kept), iteration parses WALK
nodes at a time,
`library`/`versions` are real messages. `Graph.graph_def` builds the real GraphDef when
TensorFlow work, a transform or a save needs it. A NodeDef that does not parse raises a
one-line ModelLoadError naming the file and the node, whenever it is read."""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left, bisect_right
from itertools import accumulate

from inspector.core.errors import ModelLoadError
from inspector.core.model import graph_index, protos
from inspector.core.model.held_file import HeldFile
from inspector.core.model.store_places import Pieces, back_to_back

BLOCK = 256            # nodes parsed for one random access (a view's proto)
BLOCKS_KEPT = 64       # parsed blocks kept (16k nodes, ~12 MB)
SINGLES_KEPT = 4096    # nodes read at random kept
WALK = 4096            # nodes parsed at once by iteration and slices


def _varint(data, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError(pos)


def _fields(data) -> list:
    """(number, start, end) of each top-level field of protobuf wire bytes (ValueError or
    IndexError when they are not)."""
    out, pos, end = [], 0, len(data)
    while pos < end:
        key, i = _varint(data, pos)
        wire = key & 7
        if wire == 2:
            length, i = _varint(data, i)
            i += length
        elif wire == 0:
            _, i = _varint(data, i)
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
        else:
            raise ValueError(pos)
        if i > end:
            raise ValueError(pos)
        out.append((key >> 3, wire, pos, i))
        pos = i
    return out


class NodeStore(HeldFile):
    """Where each node's NodeDef field is: `at[i]` its file offset, or -1 - its offset in
    `kept` (stripped nodes), `size[i]` its bytes (tag, length and NodeDef); `other` holds
    the GraphDef's other top-level fields (library, versions)."""

    def __init__(self, path: str):
        super().__init__(path)
        self.at, self.size = array("q"), array("q")
        self.kept = bytearray()
        self.other = protos.GraphDef()
        self.names: list | None = None       # the graph's node names (for error messages)
        self._blocks: dict = {}
        self._singles: dict = {}
        self._last = -2                      # the block of the last read
        self._bad: set = set()               # blocks holding a node that does not parse
        self._lock = threading.Lock()

    def open(self, fd: int, stamp: tuple) -> None:
        """Read the file through fd (the store's own descriptor; closed with the store)."""
        self._fd, self.stamp = fd, tuple(stamp)

    def __len__(self) -> int:
        return len(self.at)

    # -- filling ----------------------------------------------------------------------------
    def add(self, pieces: list, data: bytes, lengths: list | None, count: int) -> bool:
        """Record the nodes of one streamed piece: `pieces` as the reader sent them (file
        ranges (start, end) and stripped nodes' bytes), `data` their join, `lengths` the
        NodeDef lengths of its node fields in order (from columns.read_wire's split), or
        None. False when its node fields are not `count` whole fields of data; None when
        data is None (not read) and the lengths do not fill the pieces. A piece of
        fewer than NUMPY_FROM nodes is placed without numpy (a dense model's ~200 nodes:
        numpy's import is 0.3 s of its first picture on a slow machine)."""
        where = table = None
        if lengths is not None and len(lengths) == count:
            if count >= graph_index.NUMPY_FROM:
                table = Pieces(graph_index.numpy(), pieces)
            where = back_to_back(lengths, len(data) if data is not None else
                                  table.total if table is not None else sum(
                p[1] - p[0] if p.__class__ is tuple else len(p) for p in pieces))
        if where is None and data is None:
            return None
        if where is None:
            try:
                fields = _fields(data)
            except (ValueError, IndexError):
                return False
            nodes = [(s, e) for n, w, s, e in fields if n == 1 and w == 2]
            if len(nodes) != count:
                return False
            for n, w, s, e in fields:
                if not (n == 1 and w == 2):
                    try:
                        self.other.MergeFromString(data[s:e])
                    except Exception:  # noqa: BLE001  (upb's DecodeError)
                        return False
            where = ([s for s, _ in nodes], [e - s for s, e in nodes])
        self.add_places(pieces, *where, table=table)
        return True

    def add_places(self, pieces: list, starts, sizes, table=None) -> None:
        """Record nodes whose fields start at `starts` (int64 array or list) in the join of
        `pieces` and are `sizes` bytes long (tag and length included); table: the pieces'
        _Pieces, when made."""
        if len(starts) >= graph_index.NUMPY_FROM:
            np = graph_index.numpy()
            table = table or Pieces(np, pieces)
            begin, base = table.places(np, len(self.kept))
            self.kept += table.kept
            starts, sizes = np.asarray(starts, np.int64), np.asarray(sizes, np.int64)
            j = np.searchsorted(begin, starts, "right") - 1
            delta = starts - begin[j]
            home = np.where(base[j] >= 0, base[j] + delta, base[j] - delta)
            self.at.frombytes(home.astype("=i8").tobytes())
            self.size.frombytes(sizes.astype("=i8").tobytes())
            return
        # each piece's place in data and where its bytes live (file, or kept: negative)
        lens = [p[1] - p[0] if p.__class__ is tuple else len(p) for p in pieces]
        begin = list(accumulate(lens, initial=0))[:-1]
        base = []
        for p in pieces:
            if p.__class__ is tuple:
                base.append(p[0])
            else:
                base.append(-1 - len(self.kept))
                self.kept += p
        for start in (starts.tolist() if hasattr(starts, "tolist") else starts):
            j = bisect_right(begin, start) - 1
            self.at.append(base[j] + (start - begin[j]) if base[j] >= 0 else
                           base[j] - (start - begin[j]))
        self.size.extend(sizes.tolist() if hasattr(sizes, "tolist") else sizes)

    # -- reading ----------------------------------------------------------------------------
    def _read(self, pos: int, n: int) -> bytes:
        return self.pread(n, pos)

    def field_bytes(self, a: int, b: int) -> bytes:
        """The node fields of nodes a..b-1 as GraphDef wire bytes (one read a run of nodes
        that follow each other in the file)."""
        at, size, kept = self.at, self.size, self.kept
        parts, k = [], a
        while k < b:
            p = at[k]
            nxt = p + size[k] if p >= 0 else p - size[k]
            k += 1
            if p >= 0:
                while k < b and at[k] == nxt:
                    nxt += size[k]
                    k += 1
                parts.append(self._read(p, nxt - p))
            else:
                while k < b and at[k] == nxt:
                    nxt -= size[k]
                    k += 1
                parts.append(bytes(kept[-1 - p:-1 - nxt]))
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def parse(self, a: int, b: int):
        """A GraphDef of nodes a..b-1 (ModelLoadError naming the first that does not
        parse)."""
        try:
            graph_def = protos.GraphDef.FromString(self.field_bytes(a, b))
        except ModelLoadError:
            raise
        except Exception:  # noqa: BLE001  (upb's DecodeError)
            graph_def = None
        if graph_def is None or len(graph_def.node) != b - a:
            self._name_broken(a, b)
        return graph_def

    def _name_broken(self, a: int, b: int) -> None:
        for k in range(a, b):
            try:
                one = protos.GraphDef.FromString(self.field_bytes(k, k + 1))
                if len(one.node) == 1:
                    continue
            except Exception:  # noqa: BLE001
                pass
            name = self.names[k] if self.names is not None and k < len(self.names) else None
            raise ModelLoadError(f"node #{k} is not a valid NodeDef (its bytes in the file do "
                                 "not parse)", path=self.path, node=name or None)
        raise ModelLoadError(f"nodes #{a}-{b - 1} do not parse", path=self.path)

    def walk_at(self, indexes: list):
        """(index, NodeDef) of these nodes (ascending indexes), parsed WALK nodes' span at a
        time: only the nodes asked for, cut from one read of the span in the common case."""
        at, size, pos, n = self.at, self.size, 0, len(indexes)
        while pos < n:
            lo = indexes[pos]
            end = bisect_left(indexes, lo + WALK, pos)
            chunk = indexes[pos:end]
            hi = chunk[-1] + 1
            nodes = None
            base, stop = at[lo], at[hi - 1] + size[hi - 1]
            if len(chunk) < hi - lo and base >= 0 and min(at[lo:hi]) >= 0 and \
                    stop - base == sum(size[lo:hi]):     # one run of the file
                span = self._read(base, stop - base)
                data = b"".join([span[at[k] - base:at[k] - base + size[k]] for k in chunk])
                try:
                    nodes = protos.GraphDef.FromString(data).node
                except Exception:  # noqa: BLE001  (parse() below names the node)
                    nodes = None
                if nodes is not None and len(nodes) != len(chunk):
                    nodes = None
            if nodes is None:
                nodes = self._only(chunk, lo, hi)
            yield from zip(chunk, nodes)
            pos = end

    def _only(self, chunk: list, lo: int, hi: int) -> list:
        """The NodeDefs of `chunk` (indexes in lo..hi-1): parsed as one span, or, when a node
        of the span does not parse, one by one (an error names a node asked for, never a
        broken neighbour: the first picture reads constants beside it)."""
        try:
            whole = self.parse(lo, hi).node
        except ModelLoadError:
            return [self.parse(k, k + 1).node[0] for k in chunk]
        return [whole[k - lo] for k in chunk]

    def node(self, i: int):
        """Node i's NodeDef: from its block when the last read was in that block or the one
        before (a walk in graph order: the block is parsed once, kept while recent), else
        parsed alone (a read at random costs one node's parse, not a block's)."""
        block = i // BLOCK
        graph_def = self._blocks.get(block)
        if graph_def is not None and i - block * BLOCK < len(graph_def.node):
            return graph_def.node[i - block * BLOCK]     # (a block read mid-stream: short)
        one = self._singles.get(i)
        if one is not None:
            return one
        last, self._last = self._last, block
        if block != last and block != last + 1 or block in self._bad:
            one = self.parse(i, i + 1).node[0]
            with self._lock:
                if len(self._singles) >= SINGLES_KEPT:
                    del self._singles[next(iter(self._singles))]
                self._singles[i] = one
            return one
        lo = block * BLOCK
        try:
            graph_def = self.parse(lo, min(lo + BLOCK, len(self.at)))
        except ModelLoadError:      # a broken neighbour: node i alone (named if it is it)
            self._bad.add(block)
            return self.parse(i, i + 1).node[0]
        with self._lock:
            blocks = self._blocks
            if len(blocks) >= BLOCKS_KEPT:
                del blocks[next(iter(blocks))]
            blocks[block] = graph_def
        return graph_def.node[i - lo]


class StoredNodes:
    """StoredGraphDef.node: a read-only sequence of NodeDefs parsed on demand."""

    __slots__ = ("_store",)

    def __init__(self, store: NodeStore):
        self._store = store

    def __len__(self) -> int:
        return len(self._store.at)

    def __bool__(self) -> bool:
        return bool(self._store.at)

    def __getitem__(self, i):
        n = len(self._store.at)
        if i.__class__ is slice:
            lo, hi, step = i.indices(n)
            if step != 1:
                return [self[k] for k in range(lo, hi, step)]
            out = []
            for a in range(lo, hi, WALK):
                out.extend(self._store.parse(a, min(hi, a + WALK)).node)
            return out
        i = i.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("node index out of range")
        return self._store.node(i)

    def __iter__(self):
        store, n = self._store, len(self._store.at)
        for a in range(0, n, WALK):
            yield from store.parse(a, min(n, a + WALK)).node


class StoredGraphDef:
    """A read-only stand-in for a big GraphDef (see the module's docstring): what code that
    reads `graph.structure` uses of a GraphDef."""

    def __init__(self, store: NodeStore):
        self.store = store
        self.node = StoredNodes(store)

    def __getattr__(self, name: str):
        """The other fields (library, versions, debug_info, ...): real messages, read-only."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.__dict__["store"].other, name)

    def HasField(self, name: str) -> bool:  # noqa: N802  (protobuf's spelling)
        return self.store.other.HasField(name)

    def ByteSize(self) -> int:  # noqa: N802
        return sum(self.store.size) + self.store.other.ByteSize()

    def SerializeToString(self, **options) -> bytes:  # noqa: N802
        return self.to_graph_def().SerializeToString(**options)

    def to_graph_def(self):
        """The real GraphDef (every node parsed; large values still in the file)."""
        store, n = self.store, len(self.store.at)
        graph_def = protos.GraphDef()
        for a in range(0, n, WALK):
            graph_def.node.extend(store.parse(a, min(n, a + WALK)).node)
        graph_def.MergeFrom(store.other)
        return graph_def

    def sample(self, count: int = 3):
        """A GraphDef of the first nodes and the other fields (for checks of the kind)."""
        graph_def = protos.GraphDef()
        graph_def.CopyFrom(self.store.other)
        n = min(count, len(self.store.at))
        if n:
            graph_def.node.extend(self.store.parse(0, n).node)
        return graph_def


def protos_at(structure, indexes: list):
    """(index, NodeDef) of these nodes (ascending indexes) of a GraphDef or a stand-in (its
    nodes parsed a span at a time: a walk over many nodes, never one parse a node)."""
    if structure.__class__ is StoredGraphDef:
        return structure.store.walk_at(indexes)
    nodes = structure.node
    return zip(indexes, map(nodes.__getitem__, indexes))


def byte_sizes(structure, indexes) -> list:
    """The ByteSize of each of these nodes' NodeDefs (for a stand-in: the bytes each was
    read from, counted without parsing it)."""
    if structure.__class__ is StoredGraphDef:
        size = structure.store.size
        out = []
        for i in indexes:
            f = size[i]                      # tag + length + body
            body = f - 2
            while body >= 0x80 and 1 + _vlen(body) + body != f:
                body -= 1
            out.append(body)
        return out
    nodes = structure.node
    return [nodes[i].ByteSize() for i in indexes]


def _vlen(n: int) -> int:
    return (n.bit_length() + 6) // 7 or 1


def real_graph_def(structure):
    """A GraphDef of its own with the fields of `structure` (a GraphDef or a stand-in)."""
    if isinstance(structure, StoredGraphDef):
        return structure.to_graph_def()
    copy = protos.GraphDef()
    copy.CopyFrom(structure)
    return copy
