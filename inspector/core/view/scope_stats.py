"""hierarchy.scope_statistics of a big graph by whole-array steps: no Python step per node and
one per distinct op mix, not per scope (a 300k-node graph has 60k scopes and a handful of
mixes). The grouped tree comes as columns (grouping_columns.ScopeColumns: each scope's
parent and its own nodes, a slice of one pool); each scope's subtree is a contiguous run of
the scopes in preorder, its nodes a run of the nodes laid out scope by scope. Op mixes are
counted when first asked for, the children of one parent at a time (their runs counted by
op code in one bincount): a picture asks for the scopes it draws."""

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
    index (a node reading a constant by data; a constant drawn as a badge). Whether a
    scope reads constants and shows a node are counted here for every scope; its op mix
    and its sibling scopes alike when first asked for, a family of siblings at a time
    (StatsTable: the first picture asks for the few hundred scopes it draws, not 60k)."""
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
    ops = graph.op_codes[at] if len(at) else np.zeros(0, np.int16)
    tally = np.bincount(ops, minlength=len(graph.op_names))
    codes = np.flatnonzero(tally)
    if not len(codes) or n_scopes * len(codes) > DENSE_MOST:
        return None
    lo, hi = starts[:-1], starts[np.arange(n_scopes) + size[order]]
    is_reader, is_folded = marks
    variable = np.zeros(len(graph.op_names), bool)
    variable[[c for c, op in enumerate(graph.op_names) if op in VARIABLE_OPS]] = True
    reads = np.zeros(len(at) + 1, np.int64)
    shows = np.zeros(len(at) + 1, np.int64)
    np.cumsum(variable[ops] | is_reader[at], out=reads[1:])
    np.cumsum(~is_folded[at], out=shows[1:])
    reads, shows = reads[hi] > reads[lo], shows[hi] > shows[lo]
    below = np.flatnonzero(parent >= 0)
    # the loop's order: parents last to first, each one's children in their own order
    # (in preorder the last child comes first); the facts by scope number
    keys = (np, order, below, parent[below])    # sorted when someone walks them all
    rank = np.zeros(len(graph.op_names), np.int64)
    rank[codes] = np.arange(len(codes))
    families = _Families(np, cols.parent, lo[place], hi[place], ops, rank[ops], codes,
                         graph.op_names, summary_of)
    return StatsTable(stats_type, cols, keys, families, reads[place].tolist(),
                      shows[place].tolist())


class _Families:
    """Each scope's op mix (hierarchy.summary_of's answer) and its siblings alike, counted
    for all the children of one parent at once when one of them is first asked for: their
    node runs in preorder (lo, hi by scope number) counted by op (a codes x siblings
    table, as the whole tree's was), one summary_of per distinct mix. Any thread may ask:
    a family counted twice at once is counted the same."""

    def __init__(self, np, parent, lo, hi, ops, op_rank, codes, op_names, summary_of):
        self.np, self.parent, self.lo, self.hi = np, parent, lo, hi
        self.ops, self.op_rank, self.codes = ops, op_rank, codes
        self.op_names, self.summary_of = op_names, summary_of
        self.summary = [None] * len(parent)       # by scope number, once counted
        self.alike = [1] * len(parent)
        self.known: dict = {}          # ((op, nodes), ...) -> its summary
        self.kids = None               # (scope numbers by parent, their parents)
        self.counted = 0               # families counted (a picture counts a few)

    def facts(self, k: int) -> tuple:
        """(summary, alike) of scope k."""
        summary = self.summary[k]
        if summary is None:
            self._count(int(self.parent[k]), k)
            summary = self.summary[k]
        return summary, self.alike[k]

    def _count(self, up: int, k: int) -> None:
        np = self.np
        if up < 0:           # the root (and any scope without a parent) stands alone
            members = np.asarray([k], np.int64)
        else:
            if self.kids is None:
                by = np.argsort(self.parent, kind="stable")
                self.kids = (by, self.parent[by])
            by, ups = self.kids
            members = by[np.searchsorted(ups, up):np.searchsorted(ups, up, "right")]
        m, nc, n = len(members), len(self.codes), len(self.ops)
        lo, hi = self.lo[members], self.hi[members]
        runs = hi - lo
        total = int(runs.sum())
        where = np.repeat(lo - np.cumsum(runs) + runs, runs) + np.arange(total)
        key = self.op_rank[where] * m + np.repeat(np.arange(m, dtype=np.int64), runs)
        count = np.bincount(key, minlength=nc * m).reshape(nc, m)
        first = np.full(nc * m, n, np.int64)
        np.minimum.at(first, key, where)
        first = first.reshape(nc, m)
        rank = _ranks(np, count, first)
        one, inverse = _distinct_columns(np, count * (nc + 1) + rank + 1)
        op_names, codes, mixes = self.op_names, self.codes.tolist(), []
        for r in one.tolist():          # one scope of each mix: its ((op, nodes), ...)
            row, at_first = count[:, r].tolist(), first[:, r].tolist()
            kept = tuple(sorted((j for j in range(nc) if row[j]), key=at_first.__getitem__))
            ordered = tuple((op_names[codes[j]], row[j]) for j in kept)
            summary = self.known.get(ordered)
            if summary is None:
                summary = self.known[ordered] = self.summary_of(ordered)
            mixes.append(summary)
        of_member = [mixes[i] for i in inverse.tolist()]
        alike: dict = {}
        if up >= 0:
            for summary in of_member:
                alike[summary[1]] = alike.get(summary[1], 0) + 1
        for k2, summary in zip(members.tolist(), of_member):
            self.alike[k2] = alike.get(summary[1], 1)
            self.summary[k2] = summary
        self.counted += 1


class StatsTable(Mapping):
    """{path: stats_type} of every scope, each made when asked for (a picture asks for the
    scopes it draws, not the 60k of a 300k-node graph; their op mixes are counted then, a
    family of siblings at a time: _Families); in the loop's order. Facts are kept by scope
    number (ScopeColumns.number_of): no dict of every path is made."""

    __slots__ = ("_type", "_cols", "_keys", "_families", "_reads", "_shows")

    def __init__(self, stats_type, cols: ScopeColumns, keys, families: _Families,
                 reads: list, shows: list):
        self._type, self._cols, self._keys = stats_type, cols, keys
        self._families, self._reads, self._shows = families, reads, shows

    def __getitem__(self, path: str):
        k = self._cols.number_of(path)
        if k is None:
            raise KeyError(path)
        summary, alike = self._families.facts(k)
        return _new(self._type, summary + (self._reads[k], self._shows[k], alike))

    def __contains__(self, path) -> bool:
        return self._cols.number_of(path) is not None

    def __iter__(self):
        if isinstance(self._keys, tuple):     # made on the first walk (a picture makes none)
            np, order, below, parents = self._keys
            self._keys = order[below[np.lexsort((-below, -parents))]].tolist() + [0]
        return map(self._cols.paths.__getitem__, self._keys)

    def __len__(self) -> int:
        return len(self._reads)
