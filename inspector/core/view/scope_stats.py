"""hierarchy.scope_statistics of a big graph by whole-array steps: no Python step per node and
one per distinct op mix, not per scope (a 300k-node graph has 60k scopes and a handful of
mixes). Each scope's subtree is a contiguous run of the scopes in preorder, its nodes a run
of the nodes laid out scope by scope; an op's count in a subtree is a difference of binary
searches over that op's places. The nodes' order comes from the graph's scope ids where a
scope holds exactly the nodes of its path (every scope but the groups cut from a big one),
else from the names."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat
from operator import attrgetter

from inspector.core.model.parameters import VARIABLE_OPS

DENSE_MOST = 4_000_000      # scopes x op types counted in one table (int64: 32 MB)
PIECE = 8192    # names looked up per C call: each holds the GIL (300k in one: ~470 ms)
_new = tuple.__new__


def preorder(root) -> tuple:
    """(scopes, parent place of each, -1 for the root, depth of each): every scope before
    its children, the last child first (hierarchy._preorder's order)."""
    order, parent, depth, stack = [], [], [], [(root, -1, 0)]
    while stack:
        scope, up, d = stack.pop()
        k = len(order)
        order.append(scope)
        parent.append(up)
        depth.append(d)
        if scope.children:
            stack.extend(zip(scope.children.values(), repeat(k), repeat(d + 1)))
    return order, parent, depth


def node_order(np, graph, order: list, lens):
    """The node indexes of every scope's own nodes, scope after scope in `order`, each
    scope's in its `nodes` order."""
    total = int(lens.sum())
    out = np.empty(total, np.int64)
    starts = np.zeros(len(order) + 1, np.int64)
    np.cumsum(lens, out=starts[1:])
    run = np.zeros(len(order), bool)
    if not graph.duplicate_names and total == len(graph):
        paths, ids = graph.scope_ids()
        ids = np.frombuffer(ids, np.int32) if len(ids) else np.zeros(0, np.int32)
        id_of = {path: k for k, path in enumerate(paths)}
        ks = np.fromiter((id_of.get(s.path, -1) for s in order), np.int64, len(order))
        counts = np.bincount(ids, minlength=len(paths))
        by_id = np.argsort(ids, kind="stable")
        id_start = np.zeros(len(paths) + 1, np.int64)
        np.cumsum(counts, out=id_start[1:])
        run = (ks >= 0) & (lens > 0)
        run[run] = counts[ks[run]] == lens[run]     # a scope of its path's own nodes
        k = np.flatnonzero(run)
        if len(k):
            n = lens[k]
            step = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
            out[np.repeat(starts[k], n) + step] = by_id[np.repeat(id_start[ks[k]], n) + step]
    rest = np.flatnonzero(~run & (lens > 0)).tolist()
    if rest:
        index, names = graph._index, []
        for k in rest:
            names += order[k].nodes
        n = lens[rest]
        step = np.arange(len(names)) - np.repeat(np.cumsum(n) - n, n)
        at = np.empty(len(names), np.int64)
        for lo in range(0, len(names), PIECE):      # a piece at a time: the GUI's turns
            part = names[lo:lo + PIECE]
            at[lo:lo + len(part)] = np.fromiter(map(index.__getitem__, part), np.int64,
                                                len(part))
        out[np.repeat(starts[rest], n) + step] = at
    return out, starts


def _distinct_rows(np, table) -> tuple:
    """(one row index of each distinct row, the distinct row number of each row)."""
    order = np.lexsort(table.T[::-1])
    ranked = table[order]
    new = np.ones(len(order), bool)
    new[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    inverse = np.empty(len(order), np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


def scope_statistics(np, graph, root, marks, summary_of, stats_type) -> dict | None:
    """{path: stats_type} as hierarchy.scope_statistics counts them, or None when scopes x
    op types is too big for one table. marks: (is_reader, is_folded) bool arrays by node
    index (a node reading a constant by data; a constant drawn as a badge)."""
    order, parent, depth = preorder(root)
    n_scopes = len(order)
    lens = np.fromiter(map(len, (s.nodes for s in order)), np.int64, n_scopes)
    at, starts = node_order(np, graph, order, lens)
    ops = graph.op_codes[at].astype(np.int64) if len(at) else np.zeros(0, np.int64)
    codes = np.unique(ops)
    if not len(codes) or n_scopes * len(codes) > DENSE_MOST:
        return None
    parent, depth = np.asarray(parent, np.int64), np.asarray(depth, np.int64)
    size = np.ones(n_scopes, np.int64)       # scopes in each subtree, itself included
    for d in range(int(depth.max()), 0, -1):
        k = np.flatnonzero(depth == d)
        np.add.at(size, parent[k], size[k])
    lo, hi = starts[:-1], starts[np.arange(n_scopes) + size]
    count = np.zeros((n_scopes, len(codes)), np.int64)
    first = np.full((n_scopes, len(codes)), len(at), np.int64)
    for j, code in enumerate(codes.tolist()):
        places = np.flatnonzero(ops == code)
        a, b = np.searchsorted(places, lo), np.searchsorted(places, hi)
        count[:, j] = b - a
        has = b > a
        first[has, j] = places[a[has]]
    by_first = np.argsort(first, axis=1, kind="stable")
    rank = np.empty_like(by_first)
    np.put_along_axis(rank, by_first, np.arange(len(codes))[None, :], axis=1)
    rank[count == 0] = -1
    one, inverse = _distinct_rows(np, count * (len(codes) + 1) + rank + 1)
    op_names, signatures, summaries, sig_of_mix = graph.op_names, {}, [], []
    for r in one.tolist():          # one scope of each mix: its ((op, nodes), ...)
        cols = [j for j in by_first[r].tolist() if count[r, j]]
        summary = summary_of(tuple((op_names[int(codes[j])], int(count[r, j]))
                                   for j in cols))
        summaries.append(summary)
        sig_of_mix.append(signatures.setdefault(summary[1], len(signatures)))
    is_reader, is_folded = marks
    variable = np.zeros(len(op_names), bool)
    variable[[c for c, op in enumerate(op_names) if op in VARIABLE_OPS]] = True
    reads = np.zeros(len(at) + 1, np.int64)
    shows = np.zeros(len(at) + 1, np.int64)
    np.cumsum(variable[ops] | is_reader[at], out=reads[1:])
    np.cumsum(~is_folded[at], out=shows[1:])
    reads, shows = (reads[hi] > reads[lo]).tolist(), (shows[hi] > shows[lo]).tolist()
    sig = np.asarray(sig_of_mix, np.int64)[inverse]
    alike = np.ones(n_scopes, np.int64)
    below = np.flatnonzero(parent >= 0)
    if len(below):
        pair = parent[below] * len(signatures) + sig[below]
        _, where, times = np.unique(pair, return_inverse=True, return_counts=True)
        alike[below] = times[where.reshape(-1)]
    # the loop's order: parents last to first, each one's children in their own order
    # (in preorder the last child comes first)
    places = below[np.lexsort((-below, -parent[below]))].tolist() + [0]
    paths = list(map(attrgetter("path"), order))
    return StatsTable(stats_type, paths, places, summaries, inverse.tolist(), reads, shows,
                      alike.tolist())


class StatsTable(Mapping):
    """{path: stats_type} of every scope, each made when asked for (a picture asks for the
    scopes it draws, not the 60k of a 300k-node graph); in the loop's order."""

    __slots__ = ("_type", "_paths", "_keys", "_place", "_summaries", "_facts")

    def __init__(self, stats_type, paths: list, keys: list, summaries: list, mix: list,
                 reads: list, shows: list, alike: list):
        self._type, self._paths, self._keys = stats_type, paths, keys
        self._place = dict(zip(paths, range(len(paths))))
        self._summaries, self._facts = summaries, (mix, reads, shows, alike)

    def __getitem__(self, path: str):
        k = self._place[path]
        mix, reads, shows, alike = self._facts
        return _new(self._type, self._summaries[mix[k]] + (reads[k], shows[k], alike[k]))

    def __contains__(self, path) -> bool:
        return path in self._place

    def __iter__(self):
        return map(self._paths.__getitem__, self._keys)

    def __len__(self) -> int:
        return len(self._keys)
