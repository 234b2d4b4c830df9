"""Who reads each node of a Graph: its consumers (edges leaving a node, in graph order), from
a consumer index made on first use (opening a graph does not need it)."""

from __future__ import annotations

from typing import Iterator

from inspector.core.model import graph_index
from inspector.core.model.inputs import Edge

_new = tuple.__new__


class ConsumerLookups:
    """Graph's look-ups of readers (a mixin: the columns and indexes are Graph's)."""

    def consumers(self, name: str) -> list[Edge]:
        """Edges leaving `name`, data and control, in graph order of the consumers."""
        i = self._index.get(name)
        if i is None:       # a name only inputs mention
            places = self._loose_readers().get(name, ())
        else:
            starts, order = self.consumer_index()
            places = order[starts[i]:starts[i + 1]]
        names, port, off, big = self._names, self._port, self._in_off, self._big_ports
        out = []
        for p in places:
            dst = graph_index.node_at(self, p)
            pt = port[p]
            if pt == graph_index.PORT_MAX:     # the port as written, past an int32
                pt = big.get(p, pt)
            out.append(_new(Edge, (name, pt, names[dst], p - off[dst], pt < 0)))
        return out

    def consumer_index(self):
        """(starts, places): where each node is read (built on first use: opening a graph
        does not need it); see graph_index.consumer_csr."""
        if self._consumers is None:
            with self._lock:     # two threads asking at once: built once, one answer
                if self._consumers is None:
                    self._consumers = graph_index.consumer_csr(self)
        return self._consumers

    def consumers_known(self) -> bool:
        """The consumer index is made: consumers() answers without sorting every input."""
        return self._consumers is not None

    def _loose_readers(self) -> dict:
        """{name of no node: the input positions naming it} (built on first use)."""
        if self._loose_at is None:
            with self._lock:
                if self._loose_at is None:
                    at: dict = {}
                    for p, name in sorted(self._loose.items()):
                        at.setdefault(name, []).append(p)
                    self._loose_at = at
        return self._loose_at

    def consumer_names(self, name: str) -> list:
        """Names of the nodes reading `name` (each once), in graph order."""
        return list(dict.fromkeys(e.dst for e in self.consumers(name)))

    def data_consumers(self, name: str) -> list[Edge]:
        return [e for e in self.consumers(name) if not e.control]

    def edges(self) -> Iterator[Edge]:
        for node in self.nodes:
            for k, ref in enumerate(node.inputs):
                yield Edge(ref.node, ref.port, node.name, k, ref.control)

    def has_consumers(self, name: str) -> bool:
        """True when any node reads `name` (data or control)."""
        i = self._index.get(name)
        return name in self._loose_names if i is None else i in graph_index.reads(self)

    _read = property(graph_index.reads)      # the node indexes some input reads
