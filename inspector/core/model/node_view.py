"""Node objects as thin views over a Graph's columns, made on demand and kept once made.

Views reference the columns, never the Graph, and the Graph's node list holds the views:
no reference cycle, so a graph the window lets go is freed at once (the app freezes what
it has collected, and a frozen cycle is never collected)."""

from __future__ import annotations

import threading
from bisect import bisect_left
from itertools import repeat

from inspector.core.model import attrs as attr_codec
from inspector.core.model.graph_index import PIECE
from inspector.core.model.inputs import InputRef, scope_of
from inspector.core.runtime import gc_policy

_new = tuple.__new__
_LOCK = threading.Lock()     # views: one made per node, whoever asks (held a view, or a
VIEWS_HELD = 4096            # walk's VIEWS_HELD views: the window's thread waits that long)


class Columns:
    """What a view reads: the graph's columns (shared with the Graph, not copies).
    `walked`: every view was asked for (code walking the nodes), so the first view asked
    for its inputs makes every node's at once (`refs`, one C-level pass)."""

    __slots__ = ("structure", "names", "op_names", "ops", "in_off", "src", "port", "loose",
                 "big_ports", "devices", "walked", "refs", "refs_lock")

    def __init__(self, **columns):
        self.walked, self.refs, self.refs_lock = False, None, threading.Lock()
        for key, value in columns.items():
            setattr(self, key, value)


class Node:
    """One node of a Graph: its index, name and op, and its inputs parsed from the graph's
    columns on first use. The NodeDef itself is fetched from the GraphDef when asked for
    (`proto`): the window mostly never looks at it."""

    __slots__ = ("index", "_cols", "name", "op", "_inputs")

    @property
    def inputs(self) -> tuple:
        refs = self._inputs
        if refs is None:
            cols, i = self._cols, self.index
            table = cols.refs
            if table is None and cols.walked:
                table = every_input(cols)     # None while another thread makes it
            refs = self._inputs = table[i] if table is not None and i < len(table) else \
                inputs_of(cols, i)
        return refs

    @property
    def proto(self):
        return self._cols.structure.node[self.index]

    @property
    def device(self) -> str:
        return self._cols.devices.get(self.index, "")

    @property
    def scope(self) -> str:
        return scope_of(self.name)

    @property
    def short_name(self) -> str:
        return self.name.rpartition("/")[2]

    @property
    def data_inputs(self) -> tuple:
        return tuple(i for i in self.inputs if not i.control)

    @property
    def control_inputs(self) -> tuple:
        return tuple(i for i in self.inputs if i.control)

    def has_attr(self, key: str) -> bool:
        return key in self.proto.attr

    def attr(self, key: str, default=None):
        if key not in self.proto.attr:
            return default
        return attr_codec.decode(self.proto.attr[key])

    @property
    def attrs(self) -> dict:
        return attr_codec.decode_all(self.proto)

    @property
    def shown_attrs(self) -> dict:
        """The attributes the properties list: a .tflite's stored sizes left out (its
        `tflite_shape`, which its FLOP count reads; `_output_shapes` gives the signature's)."""
        return {k: v for k, v in self.attrs.items() if k != "tflite_shape"}

    @property
    def declared_dims(self):
        """The dims its 'shape' attribute declares (None for unknown sizes), None when it
        declares none: no attribute, an unknown rank, or a value of another kind (a hostile
        model's int, which TensorFlow refuses and the readers of a shape took for one)."""
        return getattr(self.attr("shape"), "dims", None)

    def __repr__(self) -> str:
        return f"Node({self.name!r}, {self.op!r})"


def inputs_of(cols: Columns, i: int) -> tuple:
    """Node i's InputRefs from the graph's input columns."""
    off = cols.in_off
    lo, hi = off[i], off[i + 1]
    if lo == hi:
        return ()
    names, src, port, loose = cols.names, cols.src, cols.port, cols.loose
    out = []
    for p in range(lo, hi):
        s, pt = src[p], port[p]
        if pt == 2 ** 31 - 1:
            pt = cols.big_ports.get(p, pt)
        # tuple.__new__ skips the named tuple's Python-level __new__ (5x faster)
        out.append(_new(InputRef, (names[s] if s >= 0 else loose[p], pt, pt < 0)))
    return tuple(out)


def every_input(cols: Columns) -> list | None:
    """Every node's InputRefs (a tuple a node), made in C-level passes and kept in
    cols.refs: what code walking every node's inputs pays once (6 us a node one by one);
    None while another thread makes them (a node's own are made alone then: the window's
    thread never waits for a walk)."""
    if not cols.refs_lock.acquire(blocking=False):
        return None
    try:
        if cols.refs is None:
            # 600k tuples made with collection on cost 3x more (each pass walks the objects)
            with gc_policy.paused():
                cols.refs = _every_input(cols)
        return cols.refs
    finally:
        cols.refs_lock.release()


def _every_input(cols: Columns) -> list:
    """The refs of every node, PIECE nodes a C-level pass (each pass holds the GIL: over a
    300k-node graph's 600k inputs at once, ~20-60 ms while the window waited)."""
    names, src, port, off = cols.names, cols.src, cols.port, cols.in_off
    n = len(off) - 1
    # names[-1] for a producer that is no node: each is then replaced by its own name
    loose, big = sorted(cols.loose.items()), sorted(cols.big_ports.items())
    out: list = []
    for lo in range(0, n, PIECE):
        hi = min(n, lo + PIECE)
        start, end = off[lo], off[hi]
        producers = list(map(names.__getitem__, src[start:end])) if names else []
        for p, name in _within(loose, start, end):
            producers[p - start] = name
        ports = port[start:end].tolist()
        for p, value in _within(big, start, end):
            ports[p - start] = value
        refs = list(map(_new, repeat(InputRef), zip(producers, ports, map((0).__gt__, ports))))
        # the offsets read from the array as they go (a list of them: 300k ints left among
        # the tuples kept, 10 MB of RSS after they are freed)
        cut = list(map(start.__rsub__, off[lo:hi + 1]))
        out += map(tuple, map(refs.__getitem__, map(slice, cut[:-1], cut[1:])))
    return out


def _within(items: list, start: int, end: int) -> list:
    """The (position, value) of sorted `items` with start <= position < end."""
    return items[bisect_left(items, (start,)):bisect_left(items, (end,))]


class NodeList:
    """graph.nodes: a sequence of Node views, each made the first time it is asked for."""

    __slots__ = ("_cols", "_views", "all_made")

    def __init__(self, cols: Columns, views: list):
        self._cols, self._views, self.all_made = cols, views, True

    def __len__(self) -> int:
        return len(self._views)

    def __getitem__(self, i):
        views = self._views
        if i.__class__ is slice:
            return [self[j] for j in range(*i.indices(len(views)))]
        node = views[i]
        if node is None:
            i = i.__index__()
            with _LOCK:      # two threads asking at once get the same view
                node = views[i]
                if node is None:
                    node = views[i] = make_view(self._cols, i if i >= 0 else i + len(views))
        return node

    def __iter__(self):
        return iter(self.all())

    def __bool__(self) -> bool:
        return bool(self._views)

    def index(self, node) -> int:
        return node.index

    def all(self) -> list:
        """Every node's view (made for those not made yet): what code that walks every
        Node object pays once; code on the columns does not."""
        views = self._views
        if self.all_made:
            return views
        cols, make, n = self._cols, Node.__new__, len(views)
        ops = list(map(cols.op_names.__getitem__, cols.ops[:n]))
        for lo in range(0, n, VIEWS_HELD):
            hi = min(n, lo + VIEWS_HELD)
            with _LOCK:
                for i, node, name, op in zip(range(lo, hi), views[lo:hi], cols.names[lo:hi],
                                             ops[lo:hi]):
                    if node is None:
                        node = make(Node)
                        node.index, node._cols, node._inputs, node.name, node.op = \
                            i, cols, None, name, op
                        views[i] = node
        self.all_made = cols.walked = True
        return views


def make_view(cols: Columns, i: int) -> Node:
    node = Node.__new__(Node)
    node.index, node._cols, node._inputs = i, cols, None
    node.name, node.op = cols.names[i], cols.op_names[cols.ops[i]]
    return node
