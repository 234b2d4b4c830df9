"""A compared graph as columns over node indices, what the matcher's loops read: names, ops,
each node's data inputs in slot order (producer index and port, producers in the graph only,
as operands.data_inputs gives them) and their readers. Made once per graph and kept while
the graph lives, so a rule's step is a list look-up, not a Node and a list per call. The
only code of the comparison that knows how the Graph stores its nodes."""

from __future__ import annotations

import weakref

_MADE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Columns:
    """names[i], ops[i]; ins[i] / ports[i]: node i's data inputs (producer index, port);
    at[name]: the index a name is looked up as (the graph's first node of that name; every
    index in `ins` and `uses` is such a first index, so a later node repeating a name is seen
    only by a walk over all nodes, as Graph.node(name) never gives it). uses[i]: node i's
    data readers as (reader, position in its inputs, port read), in graph order (as
    Graph.consumers lists them); `unique` says no name repeats."""

    __slots__ = ("names", "at", "ops", "ins", "ports", "uses", "unique", "_gaps", "_every",
                 "__weakref__")

    def __init__(self, graph):
        nodes = graph.nodes
        self.names = names = [n.name for n in nodes]
        self.at = at = dict(zip(reversed(names), range(len(names) - 1, -1, -1)))
        self.unique = len(at) == len(names)
        self.ops = ops = [n.op for n in nodes]
        get = at.get
        ins, ports = [], []
        self.uses = uses = [[] for _ in names]
        empty = ()
        unique = self.unique
        self._gaps = gaps = {}       # node -> slots of its ins, where an entry names no node
        self._every = alls = {}      # node -> every_input, where not its ins
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


def columns(graph) -> Columns:
    """The graph's columns (made on first use, kept while the graph lives)."""
    made = _MADE.get(graph)
    if made is None:
        made = _MADE[graph] = Columns(graph)
    return made
