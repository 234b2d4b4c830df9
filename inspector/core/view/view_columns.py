"""The hierarchy's whole-graph passes on the Graph's columns, with no Node object made: which
nodes are constants (a Const, or a lone Identity reading one), which constants fold into
badges and on which readers, the edges drawn, and the edges grouped by the places their ends
are drawn in. numpy on big graphs (whole-array steps, which also leave the GUI thread its
turns), plain loops over the columns on small ones (the demo opens without numpy). Graphs
with duplicate node names keep the name-keyed walk in badges.py / hierarchy.py."""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence, Set

from inspector.core.runtime import pieces as pieces_module
from inspector.core.view.edge_spans import Containers, EdgeGroups, _parts_of  # noqa: F401

NUMPY_FROM = 4096       # nodes (or edges) from which the passes use numpy
PORT_MAX = 2 ** 31 - 1
def _numpy():
    import numpy     # heavy: big graphs only

    return numpy


class ConstSources(Mapping):
    """{name: its Const node} for every Const and Const->Identity pair, in graph order; the
    Node views are made when asked for (a picture asks for the few it draws)."""

    __slots__ = ("_nodes", "_names", "_index", "_target", "nodes_at")

    def __init__(self, graph, target: list, nodes_at: list):
        self._nodes, self._names, self._index = graph.nodes, graph._names, graph._index
        self._target = target          # node index -> index of its Const, else -1 (a list
        #                                or, for a big graph, a numpy array)
        self.nodes_at = nodes_at       # the index of each key's own node, graph order (an
        #                                array('i') for a big graph: no int object a constant)

    def _const(self, name) -> int:
        i = self._index.get(name)
        return -1 if i is None else int(self._target[i])

    def __getitem__(self, name: str):
        k = self._const(name)
        if k < 0:
            raise KeyError(name)
        return self._nodes[k]

    def get(self, name: str, default=None):
        k = self._const(name)
        return default if k < 0 else self._nodes[k]

    def __contains__(self, name) -> bool:
        return self._const(name) >= 0

    def __iter__(self):
        return map(self._names.__getitem__, self.nodes_at)

    def __len__(self) -> int:
        return len(self.nodes_at)


class BadgeSources(Mapping):
    """{reader: [names of the constants it shows]} of a big graph, readers in graph order;
    each list made when asked for (a picture asks for the few nodes it draws)."""

    __slots__ = ("_names", "_index", "_readers", "_bounds", "_shown")

    def __init__(self, names: list, index: dict, readers, bounds, shown):
        self._names, self._index = names, index
        self._readers = readers          # reader node indexes, sorted (numpy)
        # reader k shows shown[b[k]:b[k + 1]] (array('q'): no Python int a badge)
        self._bounds, self._shown = bounds, shown

    def _place(self, name) -> int:
        i = self._index.get(name)
        if i is None:
            return -1
        k = int(self._readers.searchsorted(i))
        return k if k < len(self._readers) and self._readers[k] == i else -1

    def __getitem__(self, name: str) -> list:
        k = self._place(name)
        if k < 0:
            raise KeyError(name)
        return list(map(self._names.__getitem__,
                        self._shown[self._bounds[k]:self._bounds[k + 1]]))

    def __contains__(self, name) -> bool:
        return self._place(name) >= 0

    def __iter__(self):
        return map(self._names.__getitem__, self._readers.tolist())

    def __len__(self) -> int:
        return len(self._readers)


class FoldedSet(Set):
    """The names of a big graph's folded constants, from a mask by node index (no set of
    400k names made at 1M nodes; `in` is one dict look-up and one byte)."""

    __slots__ = ("_names", "_index", "_mask", "_at")

    def __init__(self, names: list, index: dict, mask, at):
        self._names, self._index = names, index
        self._mask, self._at = mask.tobytes(), at     # at: the folded indexes (numpy)

    def __contains__(self, name) -> bool:
        i = self._index.get(name)
        return i is not None and self._mask[i] == 1

    def __iter__(self):
        return iter(pieces_module.names_at(self._names, self._at))

    def __len__(self) -> int:
        return len(self._at)

    def issuperset(self, names) -> bool:
        return all(map(self.__contains__, names))

    def indexes(self):
        """The folded constants' node indexes (numpy)."""
        return self._at


class Edges(Sequence):
    """The hierarchy's edges of a big graph, (src, port, dst, control) each, made when
    asked for (a picture reads the first edge of each group between collapsed scopes).
    Sources, ports, readers and control flags are arrays (array('i'), array('q') or a list
    when a port is too big for it, bytes): no Python object an edge (a list of ints an edge
    column was ~110 MB at 1M nodes, in each view of the model)."""

    __slots__ = ("_names", "_srcs", "_ports", "_dsts", "_control")

    def __init__(self, names: list, srcs, ports, dsts, control):
        self._names, self._srcs, self._ports = names, srcs, ports
        self._dsts, self._control = dsts, control

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        names = self._names
        return (names[self._srcs[k]], self._ports[k], names[self._dsts[k]],
                bool(self._control[k]))

    def __len__(self) -> int:
        return len(self._srcs)

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, Sequence)) and list(self) == list(other)

    __hash__ = None


def const_sources(graph) -> ConstSources:
    """The constants of a graph without duplicate names, from its op and input columns."""
    codes, names = graph._op_code, graph._names
    const, ident = codes.get("Const"), codes.get("Identity", -2)
    if const is None:
        return ConstSources(graph, [-1] * len(names), [])
    if len(names) >= NUMPY_FROM:
        np = _numpy()
        ops, off, src = graph.op_codes, graph.in_offsets, graph.in_src
        is_const = ops == const
        target = np.where(is_const, np.arange(len(ops)), -1)
        reads = np.flatnonzero((ops == ident) & (np.diff(off) == 1))
        first = src[off[reads]]
        keep = first >= 0
        reads, first = reads[keep], first[keep]
        keep = is_const[first]
        target[reads[keep]] = first[keep]
        at = array("i", np.flatnonzero(target >= 0).astype(np.int32).tobytes())
    else:
        ops, off, src = graph._ops, graph._in_off, graph._src
        at, target = [], [-1] * len(names)
        for i, code in enumerate(ops):
            if code == const:
                at.append(i)
                target[i] = i
            elif code == ident and off[i + 1] - off[i] == 1:
                s = src[off[i]]
                if s >= 0 and ops[s] == const:
                    at.append(i)
                    target[i] = s
    return ConstSources(graph, target, at)


def fold(graph, consts: ConstSources) -> tuple:
    """(folded: names of the constants something reads, {reader: [names of the constants it
    shows]}, folded node indexes, reader node indexes): badges.fold_constants_into_badges
    on the columns. A reader's constants are in the graph order of the Const or Identity read; readers in
    graph order; a constant reading a constant shows no badge."""
    names, n = graph._names, len(graph._names)
    if not consts.nodes_at:
        return set(), {}, [], []
    if n >= NUMPY_FROM:
        np = _numpy()
        is_source = np.zeros(n + 1, bool)       # the extra slot answers src == -1
        is_source[np.asarray(consts.nodes_at, np.int64)] = True   # an array: no list read
        src, off = graph.in_src, graph.in_offsets
        hit = is_source[src]
        is_read = np.zeros(n + 1, bool)
        is_read[src[hit]] = True
        read = np.flatnonzero(is_read[:n])
        dst = np.repeat(np.arange(n), np.diff(off))
        shown = np.flatnonzero(hit & (graph.in_port >= 0) & ~is_source[dst])
        d, s = dst[shown], src[shown]          # by reader already (input order)
        same = d[1:] == d[:-1]
        by_reader = shown[np.lexsort((s, d))] if (same & (s[1:] < s[:-1])).any() else shown
        starts = np.flatnonzero(np.r_[True, ~same]) if len(shown) else shown
        readers = dst[by_reader[starts]]
        bounds = np.r_[starts, len(by_reader)].astype(np.int64)
        found = BadgeSources(names, graph._index, readers, array("q", bounds.tobytes()),
                             array("q", src[by_reader].astype(np.int64).tobytes()))
        return (FoldedSet(names, graph._index, is_read[:n], read), found, read,
                readers)
    else:
        is_source = bytearray(n + 1)
        for i in consts.nodes_at:
            is_source[i] = 1
        src, port, off = graph._src, graph._port, graph._in_off
        seen, found = set(), {}
        for i in range(n):
            mine = None
            for p in range(off[i], off[i + 1]):
                s = src[p]
                if is_source[s]:
                    seen.add(s)
                    if port[p] >= 0 and not is_source[i]:
                        if mine is None:
                            mine = found[i] = []
                        mine.append(s)
        reader_at = list(found)
        found = {names[i]: [names[s] for s in sorted(srcs)] for i, srcs in found.items()}
        read = sorted(seen)
    folded: set = set()
    for lo, hi in pieces_module.bounds(len(read)):
        folded.update(map(names.__getitem__, read[lo:hi]))
    return folded, found, read, reader_at


def edges(graph, folded_at) -> tuple:
    """(edges, their source indexes, their reader indexes, their control flags): every input that names a node
    of the graph not folded into a badge, as (src, port, dst, control), in graph order."""
    names, n = graph._names, len(graph._names)
    big = graph._big_ports
    if len(graph._src) >= NUMPY_FROM:
        np = _numpy()
        drop = np.zeros(n + 1, bool)
        drop[-1] = True                       # src == -1: an input naming no node
        drop[folded_at] = True
        src, port = graph.in_src, graph.in_port
        kept = np.flatnonzero(~drop[src])
        srcs = src[kept]
        dsts = np.repeat(np.arange(n), np.diff(graph.in_offsets))[kept]
        ports = array("q", port[kept].astype(np.int64).tobytes())
        if big:
            ports = [big.get(p, pt) if pt == PORT_MAX else pt
                     for p, pt in zip(pieces_module.listed(kept), ports)]
        control = port[kept] < 0
        out = Edges(names, array("i", srcs.astype(np.int32).tobytes()), ports,
                    array("i", dsts.astype(np.int32).tobytes()),
                    control.astype(np.uint8).tobytes())
        return out, srcs, dsts, control
    drop = set(folded_at if isinstance(folded_at, list) else folded_at.tolist())
    src, port, off = graph._src, graph._port, graph._in_off
    out, srcs, dsts, control = [], [], [], []
    for i in range(n):
        for p in range(off[i], off[i + 1]):
            s = src[p]
            if s >= 0 and s not in drop:
                pt = port[p]
                if pt == PORT_MAX:
                    pt = big.get(p, pt)
                out.append((names[s], pt, names[i], pt < 0))
                srcs.append(s)
                dsts.append(i)
                control.append(pt < 0)
    return out, srcs, dsts, control


def edge_groups(hierarchy, srcs, dsts, control) -> tuple:
    """hierarchy.edge_groups on the columns of a big graph: each node's container from its
    scope id (or its group), the edges grouped by (container of src, container of dst,
    control) with one stable sort. Containers and groups in order of first sight, as the
    walk of the edges numbers them."""
    np = _numpy()
    graph = hierarchy.graph
    names, index, parts = graph._names, graph._index, hierarchy.parts
    paths, ids = graph.scope_ids()
    ids = np.frombuffer(ids, np.int32) if len(ids) else np.zeros(0, np.int32)
    columns = hierarchy.memo.get("columns")   # the grouped tree's: each node's scope
    places = columns.paths if columns is not None else paths
    # container k < len(places): scope k (its parts made for the containers an edge
    # touches); later ones: groups and '/x' names, numbered as first met
    keys: list = list(places)
    key_id: dict = {}        # container parts (a tuple) -> a number, until renumbered

    def number(key) -> int:
        if not key_id:
            key_id.update(zip(map(_parts_of, places), range(len(places))))
        k = key_id.get(key)
        if k is None:
            k = key_id[key] = len(keys)
            keys.append(key)
        return k

    where = columns.leaf.copy() if columns is not None else ids.astype(np.int64)
    odd = {}                 # node -> container, where its scope says not
    root = paths.index("") if "" in paths else -1
    if root >= 0:            # "/x" is in the root scope but drawn in scope ""
        at_root = np.flatnonzero(ids == root)   # flat 1M: one tolist of every node held
        for lo, hi in pieces_module.bounds(len(at_root)):     # the GIL ~60 ms before the first picture
            part = pieces_module.names_at(names, at_root[lo:hi])
            if "/" in "".join(part):
                for i, name in zip(at_root[lo:hi].tolist(), part):
                    if "/" in name:
                        odd[i] = number(tuple(parts(name)))
    bands = () if columns is not None else hierarchy.memo.get("bands")
    if bands is None:        # a band's nodes share one scope and one container
        bands = [([name], segments) for name, segments in hierarchy.group_parts.items()]
    for band, _ in bands:
        at = np.fromiter(map(index.__getitem__, band), np.int64, len(band))
        if root >= 0 and "/" in "".join(band) and (ids[at] == root).any():
            for i in at.tolist():
                odd[i] = number(tuple(parts(names[i])))
        elif len(at):
            where[at] = number(tuple(parts(band[0])))
    if odd:
        where[list(odd)] = list(odd.values())
    srcs, dsts = np.asarray(srcs, np.int64), np.asarray(dsts, np.int64)
    control = np.asarray(control, bool)
    ends = np.empty(2 * len(srcs), np.int64)
    ends[0::2], ends[1::2] = where[srcs], where[dsts]
    seen, first = np.unique(ends, return_index=True)
    seen = seen[np.argsort(first)]            # containers in order of first sight
    renumber = np.zeros(len(keys), np.int64)
    renumber[seen] = np.arange(len(seen))
    containers = Containers(keys, seen.tolist(), len(places),
                            columns.parent if columns is not None else None)
    ka, kb = renumber[ends[0::2]], renumber[ends[1::2]]
    code = (ka * len(containers) + kb) * 2 + control
    order = np.argsort(code, kind="stable")
    ordered = code[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(order) else \
        np.zeros(0, np.int64)
    stops = np.r_[starts[1:], len(order)].astype(np.int64)
    firsts = order[starts]                    # each group's first edge (a stable sort)
    by_first = np.argsort(firsts)             # groups in order of their first edge
    starts, stops, firsts = starts[by_first], stops[by_first], firsts[by_first]
    return containers, EdgeGroups(ka[firsts], kb[firsts], control[firsts], order, starts,
                                  stops)
