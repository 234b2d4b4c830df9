"""The Graph's columns: appending a batch of nodes, resolving input names to node indexes,
the checks made once the graph is complete and the consumer index (the scope grouping:
scope_grouping).
Whole-graph passes run as C-level maps (and numpy sorts on big graphs), not a Python loop
per node; a small graph opens without importing numpy."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections import Counter
from itertools import accumulate, compress, count, islice, repeat
from operator import itemgetter, or_

from inspector.core.model import piece_inputs
from inspector.core.model.lazy_numpy import numpy
from inspector.core.model.inputs import INPUT_SYNTAX, parse_input

NUMPY_FROM = 4096       # sorts of at least this many items use numpy
PORT_MAX = 2 ** 31 - 1
PIECE = 8192            # items per C-level step of a whole-graph pass (it holds the GIL)
_ODD = re.compile("[:^]")   # a node name holding these: an input text equal to it means
                            # another node, or a port (so does an empty name)


def append(graph, batch, first: int) -> list:
    """Add the columns of nodes first.. (a columns.Batch) to the graph; returns the names
    among them put in graph._odd (`appended` sends them)."""
    names, k = batch.names, len(batch.names)
    graph._names.extend(names)
    graph._views.extend(repeat(None, k))
    graph.nodes.all_made = False
    index = graph._index
    before = len(index)
    index.update(zip(names, range(first, first + k)))
    if len(index) - before < k:
        graph._duplicates = True      # the first node of a name wins: settled in finish()
    codes, op_names = graph._op_code, graph.op_names
    for op in dict.fromkeys(batch.ops):
        if op not in codes:
            codes[op] = len(op_names)
            op_names.append(op)
    graph._ops.fromlist(list(map(codes.__getitem__, batch.ops)))
    base = len(graph._src)
    if batch.counts.__class__ is array and k >= NUMPY_FROM:    # (a reader's piece's)
        np = numpy()
        graph._in_off.frombytes((np.cumsum(batch.counts, dtype=np.int64) + base).tobytes())
    else:   # (a list: array.extend of an iterator takes a value at a time)
        graph._in_off.fromlist(list(islice(accumulate(batch.counts, initial=base), 1, None)))
    graph._wire = graph._wire and batch.wire
    odd = _odd_names(graph, names)
    graph._odd.update(odd)
    if batch.local is None:
        _resolve(graph, batch.inputs, base)
    else:       # (a reader process found the inputs naming a node of the batch: the rest)
        _parsed(graph, piece_inputs.resolve(graph, batch.local, batch.inputs, first, base))
    if batch.devices:
        graph.devices.update({first + j: d for j, d in batch.devices.items()})
    return odd


def appended(graph, first: int, base: int, ops: int, malformed: int,
             odd: list | None = None) -> tuple:
    """What append() added to `graph` since it held `first` nodes, `base` inputs, `ops` op
    types and `malformed` malformed inputs, in marshal's types: a reader process sends it
    and `take` adds it to the window's graph (which then parses no input text). odd: what
    that append() returned, when one append() added them all."""
    return (graph._names[first:], graph.op_names[ops:], graph._ops[first:].tobytes(),
            graph._in_off[first + 1:].tobytes(), graph._src[base:].tobytes(),
            graph._port[base:].tobytes(), {p: n for p, n in graph._loose.items() if p >= base},
            {p: v for p, v in graph._big_ports.items() if p >= base},
            graph.malformed_inputs[malformed:], {i: d for i, d in graph.devices.items()
                                                 if i >= first},
            _odd_names(graph, graph._names[first:]) if odd is None else odd, graph._wire,
            graph._duplicates)


def _odd_names(graph, names: list) -> list:
    """The names of these that append() puts in graph._odd: those holding ':' or '^', and
    '' when a node has no name."""
    joined, empty = "\n".join(names), "" in graph._index
    if ":" in joined or "^" in joined or empty:
        return list(filter(_ODD.search, names)) + ([""] if empty else [])
    return []


def take(graph, columns: tuple, consts=None) -> None:
    """Add the nodes another process appended (`appended`), as append() would have
    (consts: their constants' const_columns.ConstPart, when read)."""
    names, op_names, ops, in_off, src, port, loose, big, malformed, devices, odd, wire, \
        duplicates = columns
    first, k, index = len(graph._names), len(names), graph._index
    graph._names.extend(names)
    graph._views.extend(repeat(None, k))
    graph.nodes.all_made = False
    before = len(index)
    index.update(zip(names, range(first, first + k)))
    graph._duplicates = graph._duplicates or duplicates or len(index) - before < k
    for op in op_names:
        graph._op_code[op] = len(graph.op_names)
        graph.op_names.append(op)
    graph._ops.frombytes(ops)
    graph._in_off.frombytes(in_off)
    graph._src.frombytes(src)
    graph._port.frombytes(port)
    graph._loose.update(loose)
    graph._big_ports.update(big)
    graph.malformed_inputs.extend(malformed)
    graph.devices.update(devices)
    graph._odd.update(odd)
    graph._wire = graph._wire and wire
    graph.took_nodes(first, k, consts)


def _resolve(graph, texts, base: int) -> None:
    """Producer index (-1: not a node, or not read yet) and port (-1: control) of each
    input text; the misses are parsed here and their names kept in graph._loose. A text
    naming a node resolves with one look-up in C, unless that node's name is odd (empty or
    holding ':' or '^': the text then means another node, or a port)."""
    index, src, port, odd = graph._index, graph._src, graph._port, graph._odd
    got = list(map(index.get, texts, repeat(-1)))
    src.fromlist(got)       # (a list: array.extend(map) took a third longer)
    if odd:
        misses = list(compress(count(base), map(or_, map((-1).__eq__, got),
                                                map(odd.__contains__, texts))))
    else:         # (most pieces: every input names a node read before it)
        misses = list(compress(count(base), map((-1).__eq__, got))) if -1 in got else []
    del got
    port.frombytes(bytes(port.itemsize * len(texts)))     # zeros (extend: one at a time)
    _parsed(graph, [(pos, texts[pos - base]) for pos in misses])


def _parsed(graph, misses) -> None:      # (position, text) of each input that missed
    """The misses' producers, ports and problems (their src already -1, their port 0). A
    plain name (not empty, no ':' or '^') that missed names no node read so far: a forward
    reference (finish() looks it up again) or a dangling input. When every miss is one, as
    in a graph not in topological order (a shuffled 100k graph's reader: 42k of them, 0.44
    s of parse_input), they go to graph._loose in one call."""
    if not misses:
        return
    texts = list(map(itemgetter(1), misses))
    joined = "\n".join(texts)
    if ":" not in joined and "^" not in joined and "" not in texts:
        graph._loose.update(misses)
        return
    index, loose, src, port = graph._index, graph._loose, graph._src, graph._port
    for pos, text in misses:
        ref = parse_input(text)
        if (not text or ":" in text or "^" in text) and not INPUT_SYNTAX.match(text):
            graph.malformed_inputs.append((graph._names[node_at(graph, pos)], text))
        if ref.port > PORT_MAX:
            graph._big_ports[pos] = ref.port
        port[pos] = min(ref.port, PORT_MAX)
        at = index.get(ref.node)
        if at is None:
            src[pos] = -1
            loose[pos] = ref.node
        else:
            src[pos] = at


def node_at(graph, pos: int) -> int:
    """The node whose inputs hold position pos."""
    return bisect_right(graph._in_off, pos) - 1


def finish(graph) -> None:
    """Settle what needs the whole graph: forward references, duplicate names, dangling
    inputs, and which nodes are read."""
    index, loose, src = graph._index, graph._loose, graph._src
    for pos, name in list(loose.items()):   # read before their producer arrived
        at = index.get(name)
        if at is not None:
            src[pos] = at
            del loose[pos]
    graph.duplicate_names = []
    if graph._duplicates:
        index.clear()
        for i, name in enumerate(graph._names):
            if name in index:
                graph.duplicate_names.append(name)
            else:
                index[name] = i
        names = graph._names
        for pos, at in enumerate(src):
            if at >= 0:
                src[pos] = index[names[at]]
        graph._duplicates = False
    graph.dangling_inputs = [(graph._names[node_at(graph, pos)], name)
                             for pos, name in sorted(loose.items())]
    graph._reads = None               # the indexes some input reads: reads(), when asked
    graph._loose_names = set(loose.values())


def reads(graph):
    """The node indexes some input reads (`i in reads(graph)`), made on first use: a set
    (a 1M-node graph's took ~90 ms at the end of its load, before its first picture), or for
    a big graph a byte mask by node index made by one numpy step."""
    found = graph._reads
    if found is None:
        src = graph._src
        if len(src) >= NUMPY_FROM:
            mask = bytearray(len(graph) + 1)     # the last slot: src -1, naming no node
            numpy().frombuffer(mask, numpy().uint8)[graph.in_src] = 1
            found = ReadMask(mask)
        else:
            found = set(src)
        graph._reads = found
    return found


class ReadMask:
    """Node indexes as a byte mask: `i in mask` for i >= 0."""

    __slots__ = ("mask",)

    def __init__(self, mask: bytearray):
        self.mask = mask

    def __contains__(self, i) -> bool:
        return 0 <= i < len(self.mask) - 1 and self.mask[i] == 1

    def __eq__(self, other) -> bool:
        return isinstance(other, ReadMask) and self.mask == other.mask

    __hash__ = None


def stable_order(values, n_values: int):
    """(positions sorted by value, stably; how many items have each value 0..n_values-1)
    for non-negative ints (negative ones are left out)."""
    if len(values) >= NUMPY_FROM:
        np = numpy()
        arr = np.asarray(values, np.int64)
        order = np.argsort(arr, kind="stable")
        skipped = int((arr < 0).sum())
        return order[skipped:].tolist(), np.bincount(arr[arr >= 0], minlength=n_values).tolist()
    tally = Counter(values)
    order = sorted(compress(count(), map((0).__le__, values)), key=values.__getitem__)
    return order, [tally.get(v, 0) for v in range(n_values)]


def tally(values, n_values: int) -> list:
    """How many of these non-negative ints (a buffer, >= NUMPY_FROM of them) have each value
    0..n_values-1 (numpy: a few ms, where Counter holds the GIL through one long pass)."""
    np = numpy()
    return np.bincount(np.frombuffer(values, values.typecode), minlength=n_values).tolist()


def chunked_list(arr, chunk: int = 1 << 16) -> list:
    """A numpy array as a list, made a chunk at a time (each call a millisecond or two, so a
    thread beside the GUI thread hands over the GIL between them)."""
    out: list = []
    for k in range(0, len(arr), chunk):
        out += arr[k:k + chunk].tolist()
    return out


def consumer_csr(graph):
    """(starts, places): the input positions reading node i are places[starts[i]:
    starts[i + 1]], in graph order of the readers."""
    src, n = graph._src, len(graph._names)
    if len(src) < NUMPY_FROM:
        places, counts = stable_order(src, n)
        return array("q", accumulate(counts, initial=0)), array("q", places)
    np = numpy()         # big: the arrays' bytes copied whole, no Python int an item
    arr = np.frombuffer(src, np.int32) if len(src) else np.zeros(0, np.int32)
    order = np.argsort(arr, kind="stable")[int((arr < 0).sum()):].astype(np.int64)
    starts = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(arr[arr >= 0], minlength=n), out=starts[1:])
    out = array("q"), array("q")
    out[0].frombytes(starts.tobytes())
    out[1].frombytes(order.tobytes())
    return out
