"""A graph's columns read from GraphDef wire bytes by compiled passes (wire_kernels, numba):
what columns.read_wire and graph_index.append make, without a Python object per node or
per input, in the form graph_index.take adds to a Graph (`WireReader.read`), plus each
node field's place in the bytes (for node_store) and the nodes' scope ids.

numba is optional: `reader()` is None when it is missing or does not compile (then
columns.read_wire runs, as before), and a batch the kernels refuse (any encoding but the
plain one) is None too: the caller reads it, and every later batch, the exact way."""

from __future__ import annotations

import os
import re
import sys
import threading
from array import array

from inspector.core.model import const_columns, protos
from inspector.core.model.graph_index import numpy
from inspector.core.model.inputs import MAX_SCOPE_DEPTH, INPUT_SYNTAX, parse_input

_ODD = re.compile("[:^]")
RECENT = 1 << 12           # names in the table of the last ones put (wire_kernels.columns)
_state: list = []          # [the wire_kernels module, or None when numba is unusable]
_lock = threading.Lock()


def kernels():
    """The wire_kernels module (numba imported and its cache set up), or None."""
    if not _state:
        with _lock:
            if not _state:
                _state.append(_load())
    return _state[0]


def _load():
    if os.environ.get("INSPECTOR_WIRE_KERNELS", "1") == "0":
        return None
    os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(
        os.path.expanduser("~"), ".cache", "graphdef-inspector", "numba"))
    # numba's first compiled call imports scipy.linalg only to see whether np.dot & co can
    # use a BLAS (~0.15 s at normal speed); the kernels use none: scipy is kept out then
    block = "scipy" not in sys.modules
    if block:
        sys.modules["scipy"] = None         # an import of it fails at once
    try:
        from inspector.core.model import wire_kernels
        wire_kernels.small_nodes(numpy().zeros(4, numpy().uint8), 0, 4, 1, 1,
                                 numpy().zeros(1, numpy().int64))  # (numba's set-up)
    except Exception:  # noqa: BLE001  (numba missing, or an llvmlite it cannot load)
        return None
    finally:
        if block and sys.modules.get("scipy", 0) is None:
            del sys.modules["scipy"]
    return wire_kernels


def reader(expected: int = 0):
    """A WireReader (see its expected), or None when numba is not usable here."""
    return WireReader(kernels(), expected) if kernels() is not None else None


def _pow2(n: int) -> int:
    return 1 << max(10, (2 * n - 1).bit_length())


class _Keys:
    """Byte strings kept back to back (buf) with start/length each and an open-addressing
    hash table of their ids."""

    def __init__(self, np):
        self.buf = np.zeros(1 << 16, np.uint8)
        self.start = np.zeros(1024, np.int64)
        self.length = np.zeros(1024, np.int64)
        self.table = np.full(1024, -1, np.int64)

    def room(self, np, k, keys: int, used: int, more_bytes: int, more: int) -> None:
        """Room for `more` keys of `more_bytes` bytes after `keys` keys of `used` bytes."""
        if used + more_bytes > len(self.buf):
            self.buf = _grown(np, self.buf, used + more_bytes)
        if keys + more > len(self.start):
            self.start = _grown(np, self.start, keys + more)
            self.length = _grown(np, self.length, keys + more)
        if 2 * (keys + more) > len(self.table):       # half full at most
            self.table = np.full(_pow2(keys + more), -1, np.int64)
            k.rehash(self.start, self.length, self.buf, keys, self.table)

    def text(self, i: int) -> str:
        a = int(self.start[i])
        return self.buf[a:a + int(self.length[i])].tobytes().decode()

    def texts(self, lo: int, hi: int) -> list:
        """Keys lo..hi-1 (kept with a separator after each) as str, decoded in one call
        (one a key when a key holds the separator)."""
        if hi <= lo:
            return []
        a, z = int(self.start[lo]), int(self.start[hi - 1] + self.length[hi - 1])
        out = self.buf[a:z].tobytes().decode().split("\n")
        return out if len(out) == hi - lo else [self.text(i) for i in range(lo, hi)]


def _grown(np, arr, need: int):
    out = np.zeros(max(need, 2 * len(arr)), arr.dtype)
    out[:len(arr)] = arr
    return out


class Read:
    """One batch's columns: `columns` (graph_index.take's tuple), `node_at`/`node_size`
    (each node field's place and size in the bytes, tag and length included), `lengths`
    (each NodeDef's length), `scopes` (new scope paths, scope id of each node) or None
    when a name is deeper than MAX_SCOPE_DEPTH, `body_at`/`ops` (for const_columns)."""

    __slots__ = ("columns", "node_at", "node_size", "lengths", "scopes", "body_at",
                 "body_end", "ops")


class WireReader:
    """Reads consecutive batches of one graph (names, op types and scopes carry over)."""

    def __init__(self, k, expected: int = 0):
        """expected: about how many nodes the graph has (its tables are made that big)."""
        np = numpy()
        self.k, self.np = k, np
        self.names, self.ops, self.paths = _Keys(np), _Keys(np), _Keys(np)
        self.counters = np.zeros(7, np.int64)
        self.recent = np.full(RECENT, -1, np.int64)
        if expected:
            self.names.room(np, k, 0, 0, 0, expected)
        self.inputs = 0             # input positions so far
        self.malformed = 0
        self.empty = False          # some node has an empty name
        self.broken = False         # a batch was refused: every later one is too
        self.undecoded = False      # a batch's names did not decode: finish no later one

    def read(self, data, count: int) -> Read | None:
        """The columns of the `count` nodes in GraphDef wire bytes `data`, or None."""
        return self.finish(self.scan(data, count))

    def scan(self, data, count: int):
        """The compiled passes over a batch (`read`'s first half: no Python object per node;
        the kernels release the GIL): what `finish` makes its columns of, or None when
        they refuse it (then every later batch is refused too). Batches are scanned in
        order, one at a time, and may be finished, in the same order, while later ones
        are scanned (another thread): the tables only grow, a grown one a copy."""
        return self.scan_split(self.split(data, count))

    def split(self, data, count: int):
        """scan's first pass (the node fields' places; it touches no table: it may run
        beside scan_split of the batch before), or None when it refuses the batch."""
        if self.broken or not count:
            return None
        np, k = self.np, self.k
        b = np.frombuffer(data, np.uint8)
        node_at, node_end, body_at = (np.empty(count, np.int64) for _ in range(3))
        name_at, name_end, op_at, op_end, dev_at, dev_end = (np.empty(count, np.int64)
                                                             for _ in range(6))
        n_inputs = np.empty(count, np.int64)
        if k.nodes(b, count, node_at, node_end, body_at, name_at, name_end, op_at, op_end,
                   dev_at, dev_end, n_inputs) != k.OK:
            self.broken = True
            return None
        return (b, count, node_at, node_end, body_at, name_at, name_end, op_at, op_end,
                dev_at, dev_end, n_inputs)

    def scan_split(self, split):
        """scan's second pass over a `split` batch (None: refused; a batch split before a
        refused one is still scanned)."""
        if split is None:
            return None
        np, k = self.np, self.k
        (b, count, node_at, node_end, body_at, name_at, name_end, op_at, op_end, dev_at,
         dev_end, n_inputs) = split
        c = self.counters
        first, ops_before, paths_before = int(c[k.NODES]), int(c[k.OPS]), int(c[k.PATHS])
        name_bytes = int((name_end - name_at).sum())
        self.names.room(np, k, first, int(c[k.NBUF]), name_bytes + count, count)
        self.ops.room(np, k, ops_before, int(c[k.OBUF]), int((op_end - op_at).sum()), count)
        self.paths.room(np, k, paths_before, int(c[k.PBUF]), name_bytes + count, count)
        in_off = np.zeros(count + 1, np.int64)
        np.cumsum(n_inputs, out=in_off[1:])
        m = int(in_off[-1])
        ops, scope = np.empty(count, np.int32), np.empty(count, np.int32)
        src, port, flags = np.empty(m, np.int32), np.empty(m, np.int32), np.empty(m, np.uint8)
        ref_at, ref_end, text_at, text_end = (np.empty(m, np.int64) for _ in range(4))
        n, o, p = self.names, self.ops, self.paths
        dups, odd = k.columns(b, count, body_at, node_end, name_at, name_end, op_at, op_end,
                              in_off, n.buf, n.start, n.length, n.table, self.recent, o.buf,
                              o.start,
                              o.length, o.table, p.buf, p.start, p.length, p.table, c,
                              MAX_SCOPE_DEPTH, ops, scope, src, port, flags, ref_at, ref_end,
                              text_at, text_end)
        return (b, count, first, (ops_before, int(c[k.OPS])), (paths_before, int(c[k.PATHS])),
                bool(c[k.DEEP]), dups, odd, node_at, node_end, body_at, dev_at, dev_end,
                in_off, ops, scope, src, port, flags, ref_at, ref_end, text_at, text_end)

    def finish(self, scanned) -> Read | None:
        """The Read of a `scan` (None: of a refused batch, or once a batch's names did not
        decode, of it and every later one)."""
        if scanned is None or self.undecoded:
            return None
        np, k = self.np, self.k
        (b, count, first, (ops_before, ops_after), (paths_before, paths_after), deep, dups,
         odd, node_at, node_end, body_at, dev_at, dev_end, in_off, ops, scope, src, port,
         flags, ref_at, ref_end, text_at, text_end) = scanned
        try:
            names = self.names.texts(first, first + count)
        except UnicodeDecodeError:      # (the kernels take ASCII only)
            self.broken = self.undecoded = True
            return None
        base, m = self.inputs, int(in_off[-1])
        loose, big, malformed = {}, {}, []
        for q in np.flatnonzero(flags).tolist():
            f = int(flags[q])
            if f & k.LOOSE:
                loose[base + q] = bytes(b[ref_at[q]:ref_end[q]]).decode()
            if f & (k.SYNTAX | k.BIG):
                text = bytes(b[text_at[q]:text_end[q]]).decode()
                if f & k.BIG:
                    big[base + q] = parse_input(text).port
                if (not text or ":" in text or "^" in text) and not INPUT_SYNTAX.match(text):
                    j = int(np.searchsorted(in_off, q, "right")) - 1
                    malformed.append((names[j], text))
        devices = {}
        for j in np.flatnonzero(dev_at >= 0).tolist():
            if dev_end[j] > dev_at[j]:
                devices[first + j] = bytes(b[dev_at[j]:dev_end[j]]).decode()
        odd_names = []
        if odd:
            self.empty = self.empty or "" in names
            odd_names = list(filter(_ODD.search, names)) + ([""] if self.empty else [])
        new_ops = [self.ops.text(i) for i in range(ops_before, ops_after)]
        self.inputs = base + m
        self.malformed += len(malformed)
        out = Read()
        out.columns = (names, new_ops, _raw(ops, "i"), _raw(in_off[1:] + base, "q"),
                       _raw(src, "i"), _raw(port, "i"), loose, big, malformed, devices,
                       odd_names, True, dups > 0)
        out.node_at, out.node_size = node_at, node_end - node_at
        out.lengths = node_end - body_at
        out.body_at, out.body_end, out.ops = body_at, node_end, ops
        out.scopes = None if deep else (self.paths.texts(paths_before, paths_after),
                                        _raw(scope, "i"))
        return out


def _raw(arr, code: str) -> bytes:
    """A numpy array's items as the bytes of an array(code) (native order)."""
    return arr.astype(array(code).itemsize == 4 and "=i4" or "=i8").tobytes()


def small_nodes(limit: int):
    """lazy_graphdef._small_nodes compiled (wire_kernels.small_nodes; same answers; limit:
    its LAZY_FIELD)."""
    k, np = kernels(), numpy()
    lengths = np.empty(1 << 16, np.int64)

    def run(buf, i: int, edge: int, most: int, sizes: list) -> tuple[int, int]:
        end, n = k.small_nodes(np.frombuffer(buf, np.uint8), i, edge, most, limit, lengths)
        sizes += lengths[:n].tolist()
        return end, n

    return run


def const_part(data, starts, ends, columns: tuple, first: int, op_names: list):
    """const_columns.read of the Const nodes among a batch (NodeDef bodies at starts..ends
    of data; `columns` its graph_index.take tuple, for nodes first..; op_names: the op
    types before it), or None when it holds none."""
    np = numpy()
    ops = op_names + columns[1]
    if "Const" not in ops:
        return None
    at = np.flatnonzero(np.frombuffer(columns[2], np.int32) == ops.index("Const"))
    if not len(at):
        return None
    return compiled_consts(data, starts[at], ends[at], at + first)


def compiled_consts(buf, starts, ends, at):
    """const_columns.read by one compiled pass (const_kernels), the same facts: its numpy
    passes held the reader's walk ~1 s at 1M nodes. const_columns.read where numba is not
    loaded in this process (not imported for this alone) or the kernel does not compile."""
    np = numpy()
    kernel = _const_kernel() if _state and _state[0] is not None else None
    if kernel is None:
        return const_columns.read(buf, starts, ends, at)
    n = len(at)
    room = 4 * n + 64
    while True:
        cols = {k: np.zeros(n, t) for k, t in (
            ("has_value", bool), ("odd", bool), ("dtype", np.int32), ("elements", np.int64),
            ("stored", np.int64), ("decodable", bool), ("lazy", bool),
            ("unknown_rank", bool))}
        rank, dims = np.zeros(n, np.int64), np.empty(room, np.int64)
        used = kernel(_read_only(np, buf), np.asarray(starts, np.int64),
                            np.asarray(ends, np.int64), *_tables(), const_columns.LAZY_MARK,
                            *cols.values(), rank, dims)
        if used >= 0:
            break
        room *= 4
    dim_off = np.zeros(n + 1, np.int64)
    np.cumsum(rank, out=dim_off[1:])
    return const_columns.ConstPart(at=np.asarray(at, np.int64), dim_off=dim_off,
                                   dims=dims[:used].copy(), **cols)


_const_state: list = []    # [const_kernels.facts, or None where it does not compile]


def _const_kernel():
    """const_kernels.facts (wire_kernels imports it) once it compiled, else None."""
    if not _const_state and kernels() is not None:
        with _lock:
            if not _const_state:
                facts, np = kernels().const_facts, numpy()
                one = np.zeros(1, np.int64)
                try:
                    facts(_read_only(np, b"\0"), one, one, *_tables(), 0,
                          *(np.zeros(1, t) for t in (bool, bool, np.int32, np.int64,
                                                      np.int64, bool, bool, bool, np.int64,
                                                      np.int64)))
                    _const_state.append(facts)
                except Exception:  # noqa: BLE001  (a numba that does not compile it)
                    _const_state.append(None)
    return _const_state[0] if _const_state else None


def _read_only(np, buf):
    """buf's bytes as a read-only uint8 array (one compiled version of the kernel)."""
    b = np.frombuffer(buf, np.uint8)
    if b.flags.writeable:
        b = b.view()
        b.flags.writeable = False
    return b


_tables_made: list = []


def _tables():
    """const_columns._tables(), made once."""
    if not _tables_made:
        _tables_made.append(const_columns._tables())
    return _tables_made[0]


def packed(part) -> tuple | None:
    """A ConstPart in marshal's types (a reader process sends it), or None."""
    if part is None:
        return None
    return tuple((k, getattr(part, k).dtype.str, getattr(part, k).tobytes())
                 for k in part.__slots__)


def unpacked(items: tuple):
    """The ConstPart `packed` made."""
    np = numpy()
    return const_columns.ConstPart(**{k: np.frombuffer(raw, dtype).copy()
                                      for k, dtype, raw in items})


def warm() -> bool:
    """Compile the kernels into numba's cache (the set-up does it once: a first big model
    then opens without ~5 s of compiling). False when numba is not usable here."""
    if kernels() is None:
        return False
    graph_def = protos.GraphDef()
    for i in range(600):        # past the first table size: its growth is compiled too
        graph_def.node.add(name=f"s{i % 3}/n{i}", op="Add", input=[f"s0/n{i // 2}:1"])
    data = graph_def.SerializeToString()
    small_nodes(1 << 13)(data, 0, len(data), 600, [])
    ok = reader().read(data, 600) is not None
    _const_kernel()             # (into the cache too)
    return ok
