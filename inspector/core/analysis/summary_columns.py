"""The summary's whole-graph passes on the Graph's columns (op codes, CSR inputs) instead of
one Node view per node. Big graphs use numpy, each call a few milliseconds (the window
computes the summary in a thread beside the GUI thread: no long call holding the GIL); a
small graph (the demo) never imports numpy. Results equal the walks over Node views."""

from __future__ import annotations

import functools
from collections import Counter
from itertools import compress

from inspector.core.model import const_columns
from inspector.core.model.dtypes import dtype_name, item_size
from inspector.core.model.graph_index import NUMPY_FROM, chunked_list, numpy
from inspector.core.model.lazy_numpy import distinct


def _big(graph) -> bool:
    return len(graph) >= NUMPY_FROM


def indexes_of_ops(graph, ops) -> list:
    """Indexes of the nodes whose op is one of `ops`, in graph order."""
    codes = [graph._op_code[op] for op in ops if op in graph._op_code]
    if not codes:
        return []
    if len(codes) == 1 or not _big(graph):
        return sorted(i for op in ops for i in graph.nodes_of_op(op))
    return chunked_list(numpy().flatnonzero(_of_codes(graph, codes)))


def _of_codes(graph, codes):
    """Whether each node's op code is one of `codes` (a table look-up: np.isin sorted the
    300k codes in one call holding the GIL)."""
    np = numpy()
    table = np.zeros(len(graph.op_names), bool)
    table[list(codes)] = True
    return table[graph.op_codes]


def indexes_named(graph, names) -> list:
    """Indexes of every node bearing one of these names (each name's duplicates too)."""
    names = set(names)
    if not names:
        return []
    if not graph.duplicate_names:
        return sorted(graph._index[n] for n in names if n in graph._index)
    return [i for i, n in enumerate(graph.name_list) if n in names]


def unread(graph, skip_ops=()) -> list:
    """Indexes of the nodes nothing reads (graph.has_consumers false for their name), in
    graph order, leaving out those whose op is in skip_ops."""
    skip = {graph._op_code[op] for op in skip_ops if op in graph._op_code}
    if not _big(graph) or graph.duplicate_names:
        read, index, ops = graph._read, graph._index, graph._ops
        return [i for i, name in enumerate(graph.name_list)
                if index[name] not in read and ops[i] not in skip]
    np = numpy()
    read = np.zeros(len(graph) + 1, bool)
    read[graph.in_src] = True       # -1 (an input naming no node) marks the spare last slot
    keep = ~read[:-1]
    if skip:
        keep &= ~_of_codes(graph, skip)
    return chunked_list(np.flatnonzero(keep))


def upstream_marks(graph, starts) -> bytearray:
    """marks[i] == 1 for every node the nodes at `starts` depend on (themselves included),
    through data and control inputs: reachability.upstream over node indexes. A big graph
    whose inputs all come from earlier nodes (a DAG in order, as TF writes them) by
    peeling (_peeled), else a Python loop (the interpreter hands the GIL over every few
    milliseconds)."""
    if _big(graph):
        marks = _peeled(graph, starts)
        if marks is not None:
            return marks
    off, src = graph._in_off, graph._src
    seen = bytearray(len(graph) + 1)
    seen[-1] = 1                    # src -1: an input naming no node
    todo = []
    for s in starts:
        if not seen[s]:
            seen[s] = 1
            todo.append(s)
    pop, push = todo.pop, todo.append
    while todo:
        i = pop()
        for s in src[off[i]:off[i + 1]]:
            if not seen[s]:
                seen[s] = 1
                push(s)
    return seen


PEEL_ROUNDS = 256


def _peeled(graph, starts) -> bytearray | None:
    """upstream_marks of a graph whose every input names an earlier node (or none): the
    nodes that reach `starts` are those left after taking away, round after round, the
    nodes outside `starts` that nothing left reads (in such a graph, a node left always
    has a reader left, and following readers ends at a start). None when the graph is not
    in that order, or after PEEL_ROUNDS rounds (a long dead chain: the loop is better)."""
    np = numpy()
    n = len(graph)
    off, src = graph.in_offsets, graph.in_src
    counts = np.diff(off)
    reader = np.repeat(np.arange(n, dtype=np.int64), counts)
    if len(src) and (src >= reader).any():
        return None                     # an input from a later node (or itself)
    named = src[src >= 0]
    readers = np.bincount(named, minlength=n)
    start = np.zeros(n, bool)
    start[list(starts)] = True
    gone = np.zeros(n, bool)
    front = np.flatnonzero((readers == 0) & ~start)
    for _ in range(PEEL_ROUNDS):
        if not len(front):
            marks = bytearray((~gone).view(np.uint8).tobytes())
            marks.append(1)              # the slot of src -1, as the loop marks it
            return marks
        gone[front] = True
        lengths = counts[front]
        total = int(lengths.sum())
        if not total:
            front = front[:0]
            continue
        firsts = np.repeat(off[front] - np.concatenate(([0], np.cumsum(lengths)[:-1])),
                           lengths)
        read = src[firsts + np.arange(total)]
        read = read[read >= 0]
        np.subtract.at(readers, read, 1)
        cand = distinct(np, read)
        front = cand[(readers[cand] == 0) & ~start[cand] & ~gone[cand]]
    return None


def control_edges(graph) -> int:
    """Inputs that are control inputs (^name)."""
    if not _big(graph):
        return sum(1 for p in graph._port if p < 0)
    return int((graph.in_port < 0).sum())


def bytes_by_op(graph, sizes) -> Counter:
    """{op: bytes of its nodes} from each node's size, ops in order of first sight."""
    n_ops = len(graph.op_names)
    if not _big(graph):
        totals = [0] * n_ops
        for code, size in zip(graph._ops, sizes):
            totals[code] += size
    else:
        np = numpy()
        sizes = np.frombuffer(sizes, np.uint32) if getattr(sizes, "typecode", "") == "I" \
            else np.concatenate([np.zeros(0, np.int64)] + [     # 8192 a C call: a list of
                np.asarray(sizes[lo:lo + 8192], np.int64)       # 300k in one holds the GIL
                for lo in range(0, len(sizes), 8192)])          # ~3 ms (~15 on the slow class)
        totals = np.bincount(graph.op_codes, weights=sizes, minlength=n_ops)
        totals = [int(t) for t in totals]      # exact: a float64 holds sums below 2^53
    present = graph.op_counts()
    return Counter({op: totals[code] for code, op in enumerate(graph.op_names)
                    if op in present})


def const_totals(graph):
    """(elements of the decodable constants, indexes of the other Consts in graph order,
    {dtype name: bytes of the values} in order of first sight, bytes of the lazily kept ones)
    from the constants' columns (Graph.const_parts: whole-array sums a part at a time, no
    Python object a constant), or None when the graph has none (then facts_totals). A
    value's bytes are its tensor's (value_bytes: what numpy's nbytes says of it once
    decoded), not the fewer a compacted TensorProto stores (TF repeats its last value)."""
    parts = graph.const_parts()
    if parts is None:
        return None
    np = numpy()
    elements = lazy = offset = 0
    failed: list = []
    seen: dict = {}     # dtype -> [place of its first constant, stored bytes]
    for part in parts:
        plain = part.has_value & ~part.odd
        good = plain & part.decodable
        elements += _sum(part.elements[good])
        lazy += _sum(part.stored[plain & part.lazy])
        failed += part.at[~good & ~part.odd].tolist()
        where = np.flatnonzero(plain)
        dtypes = part.dtype[where]
        item = _item_sizes()[dtypes]
        held = np.where(part.decodable[where] & (item > 0), part.elements[where] * item,
                        part.stored[where])
        codes, first = np.unique(dtypes, return_index=True)
        for code, j in zip(codes.tolist(), where[first].tolist()):
            entry = seen.setdefault(code, [offset + j, 0])
            entry[1] += _sum(held[dtypes == code])
        for j in np.flatnonzero(part.odd).tolist():      # read from their NodeDefs (few)
            i = int(part.at[j])
            fact = const_columns.message_facts(graph, i)
            if fact is None or not fact.decodable:
                failed.append(i)
            else:
                elements += fact.elements
            if fact is not None:
                entry = seen.setdefault(fact.dtype, [offset + j, 0])
                entry[0], entry[1] = min(entry[0], offset + j), entry[1] + value_bytes(fact)
                lazy += fact.stored if fact.lazy else 0
        offset += len(part.at)
    out = Counter()
    for code, (_, stored) in sorted(seen.items(), key=lambda item: item[1][0]):
        out[dtype_name(code)] += stored
    return elements, sorted(failed), out, lazy


def value_bytes(fact) -> int:
    """Bytes of a constant's values as a tensor (tensors.Facts): elements x item size, as
    numpy's nbytes of the decoded array; a string's or an undecodable one's stored bytes."""
    size = item_size(fact.dtype)
    return fact.elements * size if fact.decodable and size else fact.stored


@functools.lru_cache(maxsize=1)
def _item_sizes():
    """Item size per dtype value 0..255 (0: strings, unknown)."""
    return numpy().array([item_size(d) for d in range(256)], numpy().int64)


def _sum(values) -> int:
    """The exact sum of an int64 array (Python ints where int64 could overflow)."""
    if not len(values):
        return 0
    if int(values.max()) < 2 ** 62 // len(values) and int(values.min()) >= 0:
        return int(values.sum())
    return sum(values.tolist())


LOOKUPS = 2048      # constants looked up per C call (0.2-0.6 us each in a big dict)


def facts_totals(graph):
    """const_totals' answers from graph.const_facts() (a graph without constant columns: the
    window's): each constant's facts looked up by C-level passes LOOKUPS constants a call and
    counted per distinct Facts, then a loop over the distinct ones only (a loop over every
    constant held the summary's thread ~0.1 s beside the GUI thread at 300k)."""
    facts, names = graph.const_facts(), graph.name_list
    counts: Counter = Counter()
    seen: list = []            # (node indexes, their facts) a piece at a time
    for part in graph.nodes_of_op_in_parts("Const"):
        for lo in range(0, len(part), LOOKUPS):
            piece = part[lo:lo + LOOKUPS]
            got = list(map(facts.get, map(names.__getitem__, piece)))
            counts.update(got)
            seen.append((piece, got))
    elements = lazy = 0
    by_code: dict = {}          # dtypes in order of first sight, as the constants come
    bad = set()
    for fact, n in counts.items():          # (in order of first sight)
        if fact is None or not fact.decodable:
            bad.add(fact)
        else:
            elements += fact.elements * n
        if fact is not None:
            by_code[fact.dtype] = by_code.get(fact.dtype, 0) + value_bytes(fact) * n
            lazy += fact.stored * n if fact.lazy else 0
    failed: list = []
    if bad:
        for piece, got in seen:
            failed += compress(piece, map(bad.__contains__, got))
    out = Counter()
    for code, stored in by_code.items():
        out[dtype_name(code)] += stored
    return elements, failed, out, lazy
