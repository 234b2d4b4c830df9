"""A compared graph as columns over node indices, what the matcher's loops read: names, ops,
each node's data inputs in slot order (producer index and port, producers in the graph only,
as operands.data_inputs gives them) and their readers. Made once per graph and kept while
the graph lives, so a rule's step is a list look-up, not a Node and a list per call. The
only code of the comparison that knows how the Graph stores its nodes."""

from __future__ import annotations

import sys
import weakref
from itertools import islice, repeat

from inspector.core.model.lazy_numpy import distinct
from inspector.core.runtime.lazy_import import later

np = later("numpy", globals(), "np")   # read only from ARRAYS_FROM nodes (or numpy loaded)

ARRAYS_FROM = 20_000     # nodes from which reading the arrays pays for importing numpy
PIECE = 2048             # items a C call over a graph's nodes: each call holds the GIL (300k
#                          names in one dict(zip): ~40 ms, ~130 ms on the slow class; 8192
#                          a call: up to 9 ms, ~40 ms on the slow class, in a diff's task)
BIG = 8192               # items from which a list goes the numpy way (order_by, matching)
_MADE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def first_index(names: list) -> dict:
    """{name: index of its first node}, in the order dict(zip(reversed(names), range(n - 1,
    -1, -1))) makes (the last name first), PIECE names a C call."""
    at: dict = {}
    for hi in range(len(names), 0, -PIECE):
        lo = max(0, hi - PIECE)
        at.update(zip(reversed(names[lo:hi]), range(hi - 1, lo - 1, -1)))
    return at


def _index_of(graph, names: list) -> dict:
    """first_index(names) of a complete columnar graph: its own name index, shared (300k names
    made again: ~25 ms of CPU, its growth a ~6 ms GIL hold in the comparison's task)."""
    index = graph.__dict__.get("_index")
    if index is not None and graph.__dict__.get("_complete") and len(index) <= len(names):
        return index
    return first_index(names)


def indexes(at: dict, names: list):
    """The node indexes of `names` (at: Columns.at) as an array, PIECE names a C call."""
    if not names:
        return np.zeros(0, np.int64)
    return np.concatenate([np.fromiter(map(at.__getitem__, names[lo:lo + PIECE]), np.int64,
                                       min(PIECE, len(names) - lo))
                           for lo in range(0, len(names), PIECE)])


def known_indexes(at: dict, names):
    """The node indexes of those of `names` that `at` (Columns.at) holds, in order, one look-up
    a name (no membership test first), PIECE names a C call."""
    names = list(names)
    if not names:
        return np.zeros(0, np.int64)
    got = np.concatenate([np.fromiter(map(at.get, names[lo:lo + PIECE], repeat(-1)), np.int64,
                                      min(PIECE, len(names) - lo))
                          for lo in range(0, len(names), PIECE)])
    return got[got >= 0]


def array_of(ints: list):
    """np.array(ints, np.int64), PIECE items a C call."""
    if len(ints) <= PIECE:
        return np.array(ints, np.int64)
    return np.concatenate([np.array(ints[lo:lo + PIECE], np.int64)
                           for lo in range(0, len(ints), PIECE)])


def listed(items) -> list:
    """list(items) (a dict or its view), PIECE items a C call."""
    out: list = []
    it = iter(items)
    while True:
        before = len(out)
        out += islice(it, PIECE)
        if len(out) == before:
            return out


def starts_with(items: list, head: list) -> bool:
    """items[:len(head)] == head, PIECE items a C call."""
    return len(head) <= len(items) and all(
        items[lo:lo + PIECE] == head[lo:lo + PIECE] for lo in range(0, len(head), PIECE))


def release(*lists) -> None:
    """Empty big lists a piece at a time, from their end: a list freed whole (the function
    holding it returns) frees every item in one C call with the GIL held (300k tuples of
    names and indexes: 15-25 ms, 50-80 ms on the slow class, while the window waits)."""
    for items in lists:
        while items:
            del items[-PIECE:]


def pieces(array) -> list:
    """array.tolist(), PIECE items a C call."""
    out: list = []
    for lo in range(0, len(array), PIECE):
        out += array[lo:lo + PIECE].tolist()
    return out


def order_by(items: list, keys: list, tie) -> list:
    """sorted(items, key=lambda x: (its int in `keys`, tie(x))): a big list by numpy's
    stable sort of the ints (no GIL held; a sort of 300k tuples in C holds it ~0.4 s), then
    each run of equal ints by `tie` (stable: equal keys keep their order)."""
    if len(items) < BIG and "numpy" not in sys.modules:
        return [items[k] for k in sorted(range(len(items)), key=lambda k: (keys[k],
                                                                         tie(items[k])))]
    ints = array_of(keys)
    at = np.argsort(ints, kind="stable")
    out = [items[k] for k in pieces(at)]
    ints = ints[at]
    cut = np.flatnonzero(ints[1:] != ints[:-1]) + 1
    starts, ends = np.concatenate(([0], cut)), np.concatenate((cut, [len(out)]))
    runs = np.flatnonzero(ends - starts > 1)
    for lo, hi in zip(pieces(starts[runs]), pieces(ends[runs])):
        out[lo:hi] = sorted(out[lo:hi], key=tie)
    return out


def pairs(mapping: dict) -> list:
    """list(mapping.items()), PIECE items a C call."""
    items, out = iter(mapping.items()), []
    while True:
        piece = list(islice(items, PIECE))
        if not piece:
            return out
        out += piece


class Columns:
    """names[i], ops[i]; ins[i] / ports[i]: node i's data inputs (producer index, port);
    at[name]: the index a name is looked up as (the graph's first node of that name; every
    index in `ins` and `uses` is such a first index, so a later node repeating a name is seen
    only by a walk over all nodes, as Graph.node(name) never gives it). uses[i]: node i's
    data readers as (reader, position in its inputs, port read), in graph order (as
    Graph.consumers lists them); `unique` says no name repeats; `tails`: attr_bytes.tails
    of the nodes where the fingerprints read them (big graphs), else None."""

    __slots__ = ("names", "at", "ops", "ins", "ports", "uses", "unique", "_gaps", "_every",
                 "_graph", "arrays", "tails", "__weakref__")

    def __init__(self, graph):
        columnar = hasattr(type(graph), "in_src") or "in_src" in getattr(graph, "__dict__", ())
        self.names = names = list(graph.name_list) if columnar else \
            [n.name for n in graph.nodes]
        self.at = at = _index_of(graph, names) if columnar else first_index(names)
        self.unique = len(at) == len(names)
        self._graph = weakref.ref(graph)     # (its structure: protos; columns() keys by it)
        self.tails = None           # attr_bytes.tails, where the fingerprints read them
        self._gaps: dict = {}       # node -> slots of its ins, where an entry names no node
        self._every: dict = {}      # node -> every_input, where not its ins
        self.arrays = columnar and (len(names) >= ARRAYS_FROM or "numpy" in sys.modules)
        if self.arrays:
            self._from_arrays(graph)
        else:
            self._from_nodes(graph)

    def _from_arrays(self, graph) -> None:
        """From the Graph's own columns (op codes, CSR inputs), vectorized where it pays."""
        names, at, unique = self.names, self.at, self.unique
        op_names = graph.op_names
        self.ops = [op_names[c] for c in pieces(graph.op_codes)]
        off, src, port = graph.in_offsets, graph.in_src, graph.in_port
        n = len(names)
        node_of = np.repeat(np.arange(n, dtype=np.int64), np.diff(off))
        data = (port >= 0) & (src >= 0)
        d_node, d_src, d_port = node_of[data], src[data], port[data]
        ins, ports, empty = [], [], ()
        srcs, prts, start = pieces(d_src), pieces(d_port), 0
        for c in pieces(np.bincount(d_node, minlength=n)):
            if c:
                end = start + c
                ins.append(tuple(srcs[start:end]))
                ports.append(tuple(prts[start:end]))
                start = end
            else:
                ins.append(empty)
                ports.append(empty)
        self.ins, self.ports = ins, ports
        order = np.argsort(d_src, kind="stable")    # readers in graph order, by producer
        readers = d_node[order] if unique else \
            np.array([at[names[i]] for i in pieces(d_node[order])], np.int64)
        places, read_port = (np.flatnonzero(data) - off[d_node])[order], d_port[order]
        read: list = []
        for lo in range(0, len(readers), PIECE):
            hi = lo + PIECE
            read += zip(readers[lo:hi].tolist(), places[lo:hi].tolist(),
                        read_port[lo:hi].tolist())
        self.uses = uses = []
        start = 0
        for c in pieces(np.bincount(d_src, minlength=n)):
            uses.append(read[start:start + c])
            start += c
        odd = pieces(distinct(np, node_of[(port < 0) | (src < 0)]))
        offsets, src_all, port_all = (pieces(off), pieces(src), pieces(port)) if odd else \
            ((), (), ())
        for i in odd:        # control inputs or inputs naming no node: their places
            every = src_all[offsets[i]:offsets[i + 1]]
            kinds = port_all[offsets[i]:offsets[i + 1]]
            self._every[i] = tuple(None if j < 0 else j for j in every)
            if any(j < 0 and p >= 0 for j, p in zip(every, kinds)):
                slots = [j for j, p in zip(every, kinds) if p >= 0]
                self._gaps[i] = tuple(k for k, j in enumerate(slots) if j >= 0)

    def _from_nodes(self, graph) -> None:
        nodes, names, at = graph.nodes, self.names, self.at
        self.ops = ops = [n.op for n in nodes]
        get = at.get
        ins, ports = [], []
        self.uses = uses = [[] for _ in names]
        empty = ()
        unique = self.unique
        gaps, alls = self._gaps, self._every
        for i, node in enumerate(nodes):
            if not node.inputs:
                ins.append(empty)
                ports.append(empty)
                continue
            srcs, prts, every = [], [], []
            for k, ref in enumerate(node.inputs):
                j = get(ref.node)
                every.append(j)
                if ref.control:
                    continue
                if j is None:
                    gaps[i] = tuple(n for n, r in enumerate(r for r in node.inputs
                                                            if not r.control)
                                    if get(r.node) is not None)
                    continue
                srcs.append(j)
                prts.append(ref.port)
                uses[j].append((i if unique else at[node.name], k, ref.port))
            ins.append(tuple(srcs))
            ports.append(tuple(prts))
            if len(every) != len(srcs):
                alls[i] = tuple(every)
        self.ins, self.ports = ins, ports

    def free_around(self, graph, taken: tuple, known=None) -> list | None:
        """around[i]: a data input or a data reader of node i is a name in none of the
        `taken` containers (`known`: more taken ones, as an array of node indexes); None
        where the graph's arrays are not read (small graphs) or names repeat."""
        if not (self.arrays and self.unique):
            return None
        n = len(self.names)
        free = np.ones(n, bool)
        for names in taken:
            free[indexes(self.at, list(names))] = False
        if known is not None:
            free[known] = False
        off, src, port = graph.in_offsets, graph.in_src, graph.in_port
        data = (port >= 0) & (src >= 0)
        reader, read = np.repeat(np.arange(n, dtype=np.int64), np.diff(off))[data], src[data]
        around = np.zeros(n, bool)
        around[reader[free[read]]] = True
        around[read[free[reader]]] = True
        return pieces(around)

    def protos(self):
        """protos()[i]: node i's NodeDef, from the graph's structure as it is now (a GraphDef's
        field: a wrapper per access; a big graph's stand-in: parsed on demand), not a list
        kept: 300k NodeDef wrappers alive grew upb's object cache in one rehash (a 15 ms GIL
        hold, ~60 ms on the slow class, in the comparison's task) and kept every parsed node
        in memory. A walk over all nodes slices it a piece at a time (attr_bytes.tails)."""
        return self._graph().structure.node

    def slots(self, i: int):
        """Where node i's data inputs `ins[i]` sit among its data input entries (an entry
        naming no node of the graph takes a place too)."""
        return self._gaps.get(i) or range(len(self.ins[i]))

    def plain(self, i: int) -> bool:
        """Node i's inputs are all data inputs naming nodes of the graph (ins[i] is all)."""
        return i not in self._every

    def every_input(self, i: int) -> tuple:
        """Producers of all node i's inputs, control ones included, in order (None for a
        name not in the graph)."""
        return self._every.get(i, self.ins[i])


KNOWN = "_pair_indexes"       # a Matching's pairs as node indexes: pair_indexes


def pair_indexes(m, ca: Columns, cb: Columns) -> tuple:
    """(xs, ys): the node indexes (int64 arrays; a name's first node) of the pairs of
    matching `m` (m.b_of's, in its order), columns ca of A, cb of B. Pairs whose indexes
    were noted (noted_pairs) or found by an earlier call are not looked up again (300k
    names looked up in a random order: ~0.2 s): m.b_of's keys and values are compared, as
    lists, with those noted (an identity test an item), and any change before their end
    (a pair taken back, another counterpart) has every name looked up."""
    keys, values = listed(m.b_of), listed(m.b_of.values())
    known = m.__dict__.get(KNOWN)
    k = 0
    if known is not None:
        k = len(known[0])
        if k > len(keys) or not starts_with(keys, known[0]) or \
                not starts_with(values, known[1]):
            k = 0
    if k == len(keys) and known is not None:
        return known[2], known[3]
    xs, ys = indexes(ca.at, keys[k:]), indexes(cb.at, values[k:])
    if k:
        xs, ys = np.concatenate((known[2], xs)), np.concatenate((known[3], ys))
    m.__dict__[KNOWN] = (keys, values, xs, ys)
    return xs, ys


def noted_pairs(m, names_a: list, names_b: list, xs: list, ys: list) -> None:
    """The last len(names_a) pairs put in m.b_of are (names_a[k], names_b[k]), at node
    indexes xs[k] of A and ys[k] of B: pair_indexes need not look them up. Kept only where
    the pairs before them are known too (pair_indexes checks every noted name)."""
    before = len(m.b_of) - len(names_a)
    known = m.__dict__.get(KNOWN)
    if before == 0:
        m.__dict__[KNOWN] = (list(names_a), list(names_b), array_of(xs), array_of(ys))
    elif known is not None and len(known[0]) == before:
        m.__dict__[KNOWN] = (known[0] + names_a, known[1] + names_b,
                             np.concatenate((known[2], array_of(xs))),
                             np.concatenate((known[3], array_of(ys))))


def disagreeing(ga, gb, b_of: dict, keep: dict | None = None,
                known: tuple | None = None) -> list | None:
    """[(a, b)] of the pairs of `b_of` (in its order) with a data input slot whose producers
    are paired, each with another node (matching._disagreeing's test), on both graphs'
    arrays; None where they are not read or names repeat. `keep`: given the pairs' node
    indexes as keep["_indexes"] (the diff's quiet_pairs reads them, at 300k ~0.15 s);
    `known`: those indexes (pair_indexes), else looked up."""
    ca, cb = columns(ga), columns(gb)
    if not (ca.arrays and cb.arrays and ca.unique and cb.unique) or not b_of:
        return None
    names = list(b_of)
    xs, ys = known if known is not None else \
        (indexes(ca.at, names), indexes(cb.at, list(b_of.values())))
    if keep is not None:
        keep["_indexes"] = (xs, ys)
    pair = np.full(len(ca.names), -1, np.int64)
    pair[xs] = ys
    paired = np.zeros(len(cb.names), bool)
    paired[ys] = True
    (sa, src_a), (sb, src_b) = _data_inputs(ga), _data_inputs(gb)
    lens = np.minimum(sa[xs + 1] - sa[xs], sb[ys + 1] - sb[ys])
    step = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    i, j = src_a[np.repeat(sa[xs], lens) + step], src_b[np.repeat(sb[ys], lens) + step]
    other = pair[i]
    odd = (other >= 0) & (other != j) & paired[j]
    hit = distinct(np, np.repeat(np.arange(len(xs)), lens)[odd])
    return [(names[k], b_of[names[k]]) for k in pieces(hit)]


def unpaired(cols: Columns, paired: list) -> list | None:
    """The node indexes, in graph order, other than `paired` (indexes of every paired name,
    from quiet_pairs): the only nodes whose names can be unpaired; None where names repeat
    (a later node of a paired name is paired too) or the arrays are not read."""
    if not (cols.arrays and cols.unique) or not paired:
        return None
    left = np.ones(len(cols.names), bool)
    left[array_of(paired)] = False
    return pieces(np.flatnonzero(left))


def unpaired_sides(m, ca: Columns, cb: Columns) -> tuple:
    """(A's node indexes in no pair of matching m, B's), each in graph order: the only nodes
    a rule looking for unpaired names need look at (it still tests each: merged and split
    ones are among them); (None, None) where the arrays are not read, names repeat, there is
    no pair or the pairs are not one to one (every name is looked at then)."""
    if not (ca.arrays and cb.arrays and ca.unique and cb.unique) or not m.b_of or \
            len(m.a_of) != len(m.b_of):
        return None, None
    xs, ys = pair_indexes(m, ca, cb)
    free_a, free_b = np.ones(len(ca.names), bool), np.ones(len(cb.names), bool)
    free_a[xs] = False
    free_b[ys] = False
    if len(cb.names) - int(np.count_nonzero(free_b)) != len(ys):
        return None, None           # (a node of B paired twice)
    return pieces(np.flatnonzero(free_a)), pieces(np.flatnonzero(free_b))


def _data_inputs(graph) -> tuple:
    """(start, src): node i's data inputs naming nodes are src[start[i]:start[i + 1]]."""
    off, src, port = graph.in_offsets, graph.in_src, graph.in_port
    data = (port >= 0) & (src >= 0)
    return np.concatenate(([0], np.cumsum(data)))[off], src[data]


def columns(graph) -> Columns:
    """The graph's columns (made on first use, kept while the graph lives)."""
    made = _MADE.get(graph)
    if made is None:
        made = _MADE[graph] = Columns(graph)
    return made
