"""The summary's whole-graph passes on the Graph's columns (op codes, CSR inputs) instead of
one Node view per node. Big graphs use numpy, each call a few milliseconds (the window
computes the summary in a thread beside the GUI thread: no long call holding the GIL); a
small graph (the demo) never imports numpy. Results equal the walks over Node views."""

from __future__ import annotations

from collections import Counter

from inspector.core.model.dtypes import dtype_name
from inspector.core.model.graph_index import NUMPY_FROM, chunked_list, numpy


def _big(graph) -> bool:
    return len(graph) >= NUMPY_FROM


def indexes_of_ops(graph, ops) -> list:
    """Indexes of the nodes whose op is one of `ops`, in graph order."""
    codes = [graph._op_code[op] for op in ops if op in graph._op_code]
    if not codes:
        return []
    if len(codes) == 1 or not _big(graph):
        return sorted(i for op in ops for i in graph.nodes_of_op(op))
    np = numpy()
    return chunked_list(np.flatnonzero(np.isin(graph.op_codes, codes)))


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
        keep &= ~np.isin(graph.op_codes, list(skip))
    return chunked_list(np.flatnonzero(keep))


def upstream_marks(graph, starts) -> bytearray:
    """marks[i] == 1 for every node the nodes at `starts` depend on (themselves included),
    through data and control inputs: reachability.upstream over node indexes. A Python loop
    (the interpreter hands the GIL over every few milliseconds)."""
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
            else np.asarray(sizes, np.int64)
        totals = np.bincount(graph.op_codes, weights=sizes, minlength=n_ops)
        totals = [int(t) for t in totals]      # exact: a float64 holds sums below 2^53
    present = graph.op_counts()
    return Counter({op: totals[code] for code, op in enumerate(graph.op_names)
                    if op in present})


def const_facts_in_order(graph):
    """(node index, its Facts or None) of every Const, in graph order (a duplicate name
    gets the facts kept for that name, as a look-up by name gives): made as they are read,
    no list of 400k pairs to free in one C call at the end."""
    facts, names = graph.const_facts(), graph.name_list
    for part in graph.nodes_of_op_in_parts("Const"):
        for i in part:
            yield i, facts.get(names[i])


def bytes_by_dtype(pairs) -> tuple[Counter, int]:
    """({dtype name: stored bytes of the constants}, bytes of the lazily kept ones) from
    const_facts_in_order's pairs."""
    by_code: dict = {}
    lazy = 0
    for _, fact in pairs:
        if fact is not None:
            by_code[fact.dtype] = by_code.get(fact.dtype, 0) + fact.stored
            if fact.lazy:
                lazy += fact.stored
    out = Counter()
    for code, stored in by_code.items():
        out[dtype_name(code)] += stored
    return out, lazy
