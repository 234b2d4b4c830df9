"""grouping.Groups of a big graph on arrays: which scopes show too many nodes (a bincount of
the shown nodes by scope), their nodes in dataflow order (no walk where every input comes
first, as TensorFlow writes graphs; a walk from the few nodes that read a later one), the
bands cut by a cumulative count of the shown nodes. A band's nodes are a slice of one order
array, listed when asked for; the grouped tree is described as columns (ScopeColumns) for
the statistics and the edge groups."""

from __future__ import annotations

import math
from collections.abc import Mapping

from inspector.core.model.inputs import child_key
from inspector.core.model.lazy_numpy import distinct
from inspector.core.model.scopes import Scope, scope_at
from inspector.core.runtime import pieces
from inspector.core.view.grouping import FANOUT, GROUP_ABOVE, LEAF


class ScopeColumns:
    """The grouped tree as columns: scope k (tree scopes first, then the groups in the order
    they were made) has paths[k] and parent[k] (numpy int64, -1 for the root), and its own
    nodes pool[start[k]:start[k] + lens[k]] (numpy int64 node indexes, in its `nodes`
    order); leaf[i] is the scope node i is drawn in (numpy int64). A scope's children are
    the scopes whose parent it is, in number order."""

    def __init__(self, paths, parent, lens, pool, start, leaf, number: dict | None = None,
                 extra: dict | None = None):
        self.paths, self.parent, self.lens = paths, parent, lens
        self.pool, self.start, self.leaf = pool, start, leaf
        self._number = number if number is not None else pieces.keyed(paths,
                                                                        range(len(paths)))
        self._extra = extra or {}

    def number_of(self, path: str):
        """The number of the scope at `path`, or None."""
        k = self._number.get(path)
        return self._extra.get(path) if k is None else k


def dataflow_at(np, graph, at):
    """grouping.dataflow_order of the nodes `at` (ascending node indexes), as node indexes.
    A node whose member inputs all come before it is placed where it is when reached; the
    depth-first walk runs only from the nodes that read a later member."""
    n, off = len(graph), graph.in_offsets
    member = np.zeros(n + 1, np.uint8)          # the extra slot answers src == -1
    member[at] = 1
    lo, many = off[at], off[at + 1] - off[at]   # the members' inputs only
    places = np.repeat(lo - np.cumsum(many) + many, many) + np.arange(int(many.sum()))
    src, dst = graph.in_src[places], np.repeat(at, many)
    later = distinct(np, dst[(src > dst) & (member[src] == 1)])
    if not len(later):
        return at
    seen_bytes = bytearray(n)
    seen = np.frombuffer(seen_bytes, np.uint8)
    members = member.tobytes()
    srcs, offs = graph._src, graph._in_off
    out, cursor = [], 0
    for stop in np.searchsorted(at, later).tolist() + [len(at)]:
        run = at[cursor:stop]
        if len(run):
            run = run[seen[run] == 0]
            seen[run] = 1
            out.append(run)
        if stop == len(at):
            break
        start, cursor = int(at[stop]), stop + 1
        if seen_bytes[start]:
            continue
        seen_bytes[start] = 1
        walked, stack = [], [(start, iter(srcs[offs[start]:offs[start + 1]]))]
        while stack:
            i, inputs = stack[-1]
            for s in inputs:
                if members[s] and not seen_bytes[s]:
                    seen_bytes[s] = 1
                    stack.append((s, iter(srcs[offs[s]:offs[s + 1]])))
                    break
            else:
                stack.pop()
                walked.append(i)
        out.append(np.asarray(walked, np.int64))
    return np.concatenate(out) if out else at[:0]


class GroupParts(Mapping):
    """{node name: its group segments} of the grouped nodes, from each node's band."""

    __slots__ = ("_names", "_index", "_band", "_segments", "_at")

    def __init__(self, names, index, band, segments: list, at):
        self._names, self._index, self._band = names, index, band   # band: numpy, -1 none
        self._segments, self._at = segments, at        # at: the grouped nodes, numpy

    def __getitem__(self, name):
        i = self._index.get(name)
        b = -1 if i is None else int(self._band[i])
        if b < 0:
            raise KeyError(name)
        return self._segments[b]

    def get(self, name, default=None):
        i = self._index.get(name)
        b = -1 if i is None else int(self._band[i])
        return default if b < 0 else self._segments[b]

    def __contains__(self, name) -> bool:
        return self.get(name) is not None

    def __iter__(self):
        return iter(pieces.names_at(self._names, self._at))

    def __len__(self) -> int:
        return len(self._at)


class ColumnGroups:
    """grouping.Groups on a columnar scope tree: root, parts, labels, bands as there (a
    band's nodes a numpy index array), and the grouped tree's `columns`."""

    def __init__(self, np, graph, tree, is_folded):
        self.np, self.graph, self.tree = np, graph, tree
        self.labels: dict = {}
        self.bands: list = []          # (node indexes, group segments) of each leaf band
        self._groups: list = []        # (path, parent number, band node indexes or None)
        counts = tree.counts()
        shown = np.bincount(tree.of_node[~is_folded[:len(graph)]], minlength=len(counts))
        big = np.flatnonzero(shown > GROUP_ABOVE).tolist()
        self.root = tree.root
        band = np.full(len(graph), -1, np.int64)
        if big:
            self.root = self._copies(big)
            for k in big:
                at = tree.order[tree.starts[k]:tree.starts[k + 1]]
                order = dataflow_at(np, graph, at)
                self._split(self.copies[k], k, order, ~is_folded[order], ())
        segments = [s for _, s in self.bands]
        for b, (at, _) in enumerate(self.bands):
            band[at] = b
        grouped = np.flatnonzero(band >= 0)
        self.parts = GroupParts(graph._names, graph._index, band, segments, grouped)
        self.columns = self._columns(counts, big)

    def _copies(self, big: list) -> Scope:
        """Copies of the big scopes and every scope above one (the rest are shared)."""
        tree, parent = self.tree, self.tree.parent
        wanted: dict = {}
        for k in big:
            while k >= 0 and k not in wanted:
                wanted[k] = None
                k = int(parent[k])
        self.copies = {k: Scope(tree.paths[k], dict(tree.scope(k).children), None, tree, k)
                       for k in sorted(wanted)}
        for k, copy in self.copies.items():
            if k:
                up = self.copies[int(parent[k])]
                up.children[child_key(copy.path)] = copy
        for k in big:
            self.copies[k].nodes = []
        return self.copies[0]

    def _split(self, parent: Scope, number: int, order, shown, segments: tuple) -> None:
        np, names = self.np, self.graph._names
        cs = np.cumsum(shown)
        count = int(cs[-1])
        k = max(1, min(FANOUT, math.ceil(count / LEAF)))
        per = math.ceil(count / k)
        rank = cs - shown
        cuts = np.flatnonzero(shown & (rank % per == 0) & (rank > 0)).tolist()
        for i, (lo, hi) in enumerate(zip([0] + cuts, cuts + [len(order)]), 1):
            segment = f"#{i}"
            path = f"{parent.path}/{segment}" if parent.path else segment
            here = segments + (segment,)
            visible = lo + np.flatnonzero(shown[lo:hi])
            first = names[int(order[visible[0]])].rpartition("/")[2]
            last = names[int(order[visible[-1]])].rpartition("/")[2]
            self.labels[path] = first if first == last else f"{first} … {last}"
            me = len(self.tree.paths) + len(self._groups)
            if len(visible) > GROUP_ABOVE:
                group = parent.children[segment] = Scope(path)
                self._groups.append((path, number, None))
                self._split(group, me, order[lo:hi], shown[lo:hi], here)
            else:
                band = order[lo:hi]
                parent.children[segment] = Scope(path, {}, None, _Band(names, band), 0)
                self._groups.append((path, number, band))
                self.bands.append((band, here))

    def _columns(self, counts, big: list) -> ScopeColumns:
        np, tree = self.np, self.tree
        n_tree = len(tree.paths)
        paths = tree.paths + [g[0] for g in self._groups] if self._groups else tree.paths
        parent = np.concatenate([tree.parent, np.asarray([g[1] for g in self._groups],
                                                         np.int64)])
        lens = np.concatenate([counts, np.asarray([0 if g[2] is None else len(g[2])
                                                   for g in self._groups], np.int64)])
        start = np.concatenate([tree.starts[:-1], np.zeros(len(self._groups), np.int64)])
        leaf = tree.of_node.copy()
        pool = tree.order
        if self._groups:
            lens[big] = 0
            members = [g[2] for g in self._groups if g[2] is not None]
            at = n_tree + np.asarray([j for j, g in enumerate(self._groups)
                                      if g[2] is not None], np.int64)
            sizes = np.asarray(list(map(len, members)), np.int64)
            start[at] = len(pool) + np.concatenate([[0], np.cumsum(sizes)[:-1]])
            grouped = np.concatenate(members)
            leaf[grouped] = np.repeat(at, sizes)
            pool = np.concatenate([pool, grouped])
        groups = {g[0]: n_tree + j for j, g in enumerate(self._groups)}
        return ScopeColumns(paths, parent, lens, pool, start, leaf, tree.number, groups)


class _Band:
    """A leaf band's node names, listed when asked for."""

    __slots__ = ("_names", "_at")

    def __init__(self, names, at):
        self._names, self._at = names, at

    def nodes_of(self, _k: int) -> list:
        return pieces.names_at(self._names, self._at)


class ScopeMap(Mapping):
    """{path: Scope} of a grouped tree, each found from the root through `children` when
    asked for (a picture asks for the scopes it opens), by its parts (inputs.path_parts)."""

    __slots__ = ("_root", "_len")

    def __init__(self, root: Scope, count: int):
        self._root, self._len = root, count

    def __getitem__(self, path: str) -> Scope:
        return scope_at(self._root, path)

    def __contains__(self, path) -> bool:
        try:
            self[path]
        except (KeyError, AttributeError, TypeError):
            return False
        return True

    def __iter__(self):
        return (s.path for s in self._root.walk())

    def __len__(self) -> int:
        return self._len
