"""Node objects as thin views over a Graph's columns, made on demand and kept once made."""

from __future__ import annotations

from inspector.core.model import attrs as attr_codec
from inspector.core.model.inputs import InputRef, scope_of

_new = tuple.__new__


class Node:
    """One node of a Graph: its index, name and op, and its inputs parsed from the graph's
    columns on first use. The NodeDef itself is fetched from the GraphDef when asked for
    (`proto`): the window mostly never looks at it."""

    __slots__ = ("index", "_graph", "name", "op", "_inputs")

    @property
    def inputs(self) -> tuple:
        refs = self._inputs
        if refs is None:
            refs = self._inputs = self._graph._inputs_of(self.index)
        return refs

    @property
    def proto(self):
        return self._graph.structure.node[self.index]

    @property
    def device(self) -> str:
        return self._graph.devices.get(self.index, "")

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

    def __repr__(self) -> str:
        return f"Node({self.name!r}, {self.op!r})"


def inputs_of(graph, i: int) -> tuple:
    """Node i's InputRefs from the graph's input columns."""
    off = graph._in_off
    lo, hi = off[i], off[i + 1]
    if lo == hi:
        return ()
    names, src, port, loose = graph._names, graph._src, graph._port, graph._loose
    out = []
    for p in range(lo, hi):
        s, pt = src[p], port[p]
        if pt == 2 ** 31 - 1:
            pt = graph._big_ports.get(p, pt)
        # tuple.__new__ skips the named tuple's Python-level __new__ (5x faster)
        out.append(_new(InputRef, (names[s] if s >= 0 else loose[p], pt, pt < 0)))
    return tuple(out)


class NodeList:
    """graph.nodes: a sequence of Node views, each made the first time it is asked for."""

    __slots__ = ("_graph",)

    def __init__(self, graph):
        self._graph = graph

    def __len__(self) -> int:
        return len(self._graph._names)

    def __getitem__(self, i):
        views = self._graph._views
        if i.__class__ is slice:
            return [self[j] for j in range(*i.indices(len(views)))]
        node = views[i]
        if node is None:
            node = views[i] = make_view(self._graph, i if i >= 0 else i + len(views))
        return node

    def __iter__(self):
        return iter(all_views(self._graph))

    def __bool__(self) -> bool:
        return bool(self._graph._names)

    def index(self, node) -> int:
        return node.index


def make_view(graph, i: int) -> Node:
    node = Node.__new__(Node)
    node.index, node._graph, node._inputs = i, graph, None
    node.name, node.op = graph._names[i], graph.op_names[graph._ops[i]]
    return node


def all_views(graph) -> list:
    """Every node's view (made for those not made yet): what code that walks every Node
    object pays once; code on the arrays does not."""
    views = graph._views
    if graph._all_made:
        return views
    names, ops, op_names, make = graph._names, graph._ops, graph.op_names, Node.__new__
    for i, node in enumerate(views):
        if node is None:
            node = make(Node)
            node.index, node._graph, node._inputs = i, graph, None
            node.name, node.op = names[i], op_names[ops[i]]
            views[i] = node
    graph._all_made = len(views) == len(names)
    return views
