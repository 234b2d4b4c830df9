"""hierarchy.scope_statistics of a big graph by whole-array steps: no Python step per node and
one per distinct op mix, not per scope (a 300k-node graph has 60k scopes and a handful of
mixes). The grouped tree comes as columns (grouping_columns.ScopeColumns: each scope's
parent and its own nodes, a slice of one pool); each scope's subtree is a contiguous run of
the scopes in preorder, its nodes a run of the nodes laid out scope by scope; an op's count
in a subtree is a difference of binary searches over that op's places."""

from __future__ import annotations

from collections.abc import Mapping

from inspector.core.model.parameters import VARIABLE_OPS
from inspector.core.runtime import pieces
from inspector.core.view.grouping_columns import ScopeColumns

DENSE_MOST = 4_000_000      # scopes x op types counted in one table (int64: 32 MB)
_new = tuple.__new__


def columns_of(np, graph, root) -> ScopeColumns:
    """The columns of a tree of Scope objects (a small graph's, or one whose names repeat:
    a name stands for its first node): scopes numbered parents first, siblings in order."""
    paths, parent, lens, names, stack = [], [], [], [], [(root, -1)]
    while stack:
        scope, up = stack.pop()
        k = len(paths)
        paths.append(scope.path)
        parent.append(up)
        lens.append(len(scope.nodes))
        names += scope.nodes
        stack.extend((c, k) for c in reversed(scope.children.values()))
    pool = pieces.fromiter(np, graph._index.__getitem__, names, np.int64)
    lens = np.asarray(lens, np.int64)
    start = np.zeros(len(paths), np.int64)
    np.cumsum(lens[:-1], out=start[1:])
    return ScopeColumns(paths, np.asarray(parent, np.int64), lens, pool, start, None)


def preorder(np, parent) -> tuple:
    """(place of each scope in hierarchy._preorder's order: each scope before its children,
    the last child first; scopes in each subtree, itself included; depth of each) from the
    parent numbers (parent[k] < k, siblings in number order)."""
    n = len(parent)
    depth = np.zeros(n, np.int64)
    up = parent[1:]
    while n > 1:               # one step a level
        deeper = depth[up] + 1
        if np.array_equal(deeper, depth[1:]):
            break
        depth[1:] = deeper
    size = np.ones(n, np.int64)
    levels = [np.flatnonzero(depth == d) for d in range(int(depth.max(initial=0)) + 1)]
    for k in reversed(levels[1:]):
        np.add.at(size, parent[k], size[k])
    place = np.zeros(n, np.int64)
    for k in levels[1:]:       # siblings: the last one first, after its parent
        k = k[np.lexsort((-k, parent[k]))]
        ends = np.cumsum(size[k])
        first = np.r_[True, parent[k][1:] != parent[k][:-1]]
        group_start = np.maximum.accumulate(np.where(first, np.arange(len(k)), 0))
        before = ends - size[k] - (ends - size[k])[group_start]
        place[k] = place[parent[k]] + 1 + before
    return place, size, depth


def _subtree_counts(np, ops, codes, lens, size, n_ops) -> tuple:
    """(nodes of each op code in each scope's subtree; the first place of each, len(ops) where
    none) as (codes x scopes) tables, scopes in preorder and their nodes laid out so (`ops`,
    `lens`): each scope's own counts by one bincount, a subtree's as a difference of running
    sums along the scopes (its scopes are a run), its first place the own first place of the
    run's first scope holding the op. No pass over the nodes per op code."""
    n_scopes, nc, n = len(lens), len(codes), len(ops)
    rank = np.zeros(n_ops, np.int64)
    rank[codes] = np.arange(nc) * n_scopes
    key = rank[ops] + np.repeat(np.arange(n_scopes, dtype=np.int64), lens)
    own = np.bincount(key, minlength=nc * n_scopes).reshape(nc, n_scopes)
    own_first = np.full(nc * n_scopes, n, np.int64)
    np.minimum.at(own_first, key, np.arange(n, dtype=np.int64))
    running = np.zeros((nc, n_scopes + 1), np.int64)
    np.cumsum(own, axis=1, out=running[:, 1:])
    count = running[:, np.arange(n_scopes) + size] - running[:, :-1]
    holder = np.where(own > 0, np.arange(n_scopes), n_scopes - 1)
    holder = np.minimum.accumulate(holder[:, ::-1], axis=1)[:, ::-1]   # next one holding it
    holder += (np.arange(nc) * n_scopes)[:, None]
    return count, np.where(count > 0, own_first.take(holder), n)


def _ranks(np, count, first):
    """Each present op's place among its scope's ops by first appearance (-1 where absent):
    (codes x scopes), by comparisons of whole rows (a row per op code)."""
    rank = np.empty_like(count)
    for j in range(len(count)):
        rank[j] = (first < first[j]).sum(axis=0)
    rank[count == 0] = -1
    return rank


def _distinct_columns(np, table) -> tuple:
    """(one column index of each distinct column of `table`, the distinct column number of
    each column): columns hashed to one integer each (then checked; sorted if two differ
    under one hash)."""
    weights = np.arange(1, 2 * len(table), 2, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    hashed = (table.astype(np.uint64) * weights[:, None]).sum(axis=0, dtype=np.uint64)
    _, one, inverse = np.unique(hashed, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if np.array_equal(table[:, one][:, inverse], table):
        return one, inverse
    return _distinct_rows(np, table.T)


def _distinct_rows(np, table) -> tuple:
    """(one row index of each distinct row, the distinct row number of each row)."""
    order = np.lexsort(table.T[::-1])
    ranked = table[order]
    new = np.ones(len(order), bool)
    new[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    inverse = np.empty(len(order), np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


def scope_statistics(np, graph, cols: ScopeColumns, marks, summary_of,
                     stats_type) -> dict | None:
    """{path: stats_type} as hierarchy.scope_statistics counts them, or None when scopes x
    op types is too big for one table. marks: (is_reader, is_folded) bool arrays by node
    index (a node reading a constant by data; a constant drawn as a badge)."""
    place, size, _ = preorder(np, cols.parent)
    n_scopes = len(place)
    order = np.empty(n_scopes, np.int64)      # the scopes in preorder
    order[place] = np.arange(n_scopes)
    lens = cols.lens[order]
    starts = np.zeros(n_scopes + 1, np.int64)
    np.cumsum(lens, out=starts[1:])
    step = np.arange(int(starts[-1])) - np.repeat(starts[:-1], lens)
    at = cols.pool[np.repeat(cols.start[order], lens) + step]
    parent = cols.parent[order]
    parent[1:] = place[parent[1:]]
    size = size[order]
    ops = graph.op_codes[at] if len(at) else np.zeros(0, np.int16)
    tally = np.bincount(ops, minlength=len(graph.op_names))
    codes = np.flatnonzero(tally)
    if not len(codes) or n_scopes * len(codes) > DENSE_MOST:
        return None
    lo, hi = starts[:-1], starts[np.arange(n_scopes) + size]
    count, first = _subtree_counts(np, ops, codes, lens, size, len(graph.op_names))
    rank = _ranks(np, count, first)
    one, inverse = _distinct_columns(np, count * (len(codes) + 1) + rank + 1)
    op_names, signatures, summaries, sig_of_mix = graph.op_names, {}, [], []
    for r in one.tolist():          # one scope of each mix: its ((op, nodes), ...)
        row, at_first = count[:, r].tolist(), first[:, r].tolist()
        kept = sorted((j for j in range(len(row)) if row[j]), key=at_first.__getitem__)
        summary = summary_of(tuple((op_names[int(codes[j])], row[j]) for j in kept))
        summaries.append(summary)
        sig_of_mix.append(signatures.setdefault(summary[1], len(signatures)))
    is_reader, is_folded = marks
    variable = np.zeros(len(op_names), bool)
    variable[[c for c, op in enumerate(op_names) if op in VARIABLE_OPS]] = True
    reads = np.zeros(len(at) + 1, np.int64)
    shows = np.zeros(len(at) + 1, np.int64)
    np.cumsum(variable[ops] | is_reader[at], out=reads[1:])
    np.cumsum(~is_folded[at], out=shows[1:])
    reads, shows = reads[hi] > reads[lo], shows[hi] > shows[lo]
    sig = np.asarray(sig_of_mix, np.int64)[inverse]
    alike = np.ones(n_scopes, np.int64)
    below = np.flatnonzero(parent >= 0)
    if len(below):
        pair = parent[below] * len(signatures) + sig[below]
        _, where, times = np.unique(pair, return_inverse=True, return_counts=True)
        alike[below] = times[where.reshape(-1)]
    # the loop's order: parents last to first, each one's children in their own order
    # (in preorder the last child comes first); the facts by scope number
    keys = (np, order, below, parent[below])    # sorted when someone walks them all
    facts = [a[place].tolist() for a in (inverse, reads, shows, alike)]
    return StatsTable(stats_type, cols, keys, summaries, *facts)


class StatsTable(Mapping):
    """{path: stats_type} of every scope, each made when asked for (a picture asks for the
    scopes it draws, not the 60k of a 300k-node graph); in the loop's order. Facts are kept
    by scope number (ScopeColumns.number_of): no dict of every path is made."""

    __slots__ = ("_type", "_cols", "_keys", "_summaries", "_facts")

    def __init__(self, stats_type, cols: ScopeColumns, keys: list, summaries: list,
                 mix: list, reads: list, shows: list, alike: list):
        self._type, self._cols, self._keys = stats_type, cols, keys
        self._summaries, self._facts = summaries, (mix, reads, shows, alike)

    def __getitem__(self, path: str):
        k = self._cols.number_of(path)
        if k is None:
            raise KeyError(path)
        mix, reads, shows, alike = self._facts
        return _new(self._type, self._summaries[mix[k]] + (reads[k], shows[k], alike[k]))

    def __contains__(self, path) -> bool:
        return self._cols.number_of(path) is not None

    def __iter__(self):
        if isinstance(self._keys, tuple):     # made on the first walk (a picture makes none)
            np, order, below, parents = self._keys
            self._keys = order[below[np.lexsort((-below, -parents))]].tolist() + [0]
        return map(self._cols.paths.__getitem__, self._keys)

    def __len__(self) -> int:
        return len(self._facts[0])
