"""Names-free fingerprints of nodes, as XLA's hlo_diff matches instructions: a node's own
signature (op, dtype, shapes, attributes; a constant's dtype and shape, not its values, not
the names in `_class` or `shared_name`) and, over it, the fingerprint of the exact subgraph
that feeds it (its data inputs' fingerprints and ports, in slot order)."""

from __future__ import annotations

import re

from inspector.core.compare.attr_bytes import tails
from inspector.core.compare.columns import columns, np
from inspector.core.model.graph import Graph
from inspector.core.model.protos import NodeDef
from inspector.core.runtime.pieces import keyed   # PIECE names a call (300k in one
#                                                   dict(zip()) held the GIL ~280 ms)

# attributes that hold node names (colocation, shared resources) or nothing that computes
NAME_ATTRS = frozenset({"_class", "shared_name", "container", "_XlaCompile", "_XlaScope"})
# a loop's back edge: its input is not part of what it is (fingerprints stay acyclic)
BACK_EDGE_OPS = frozenset({"NextIteration", "RefNextIteration"})
_NOT_ATTR = tuple(f.name for f in NodeDef.DESCRIPTOR.fields if f.name != "attr")
_NAME_BYTES = re.compile(b"|".join(re.escape(k.encode()) for k in sorted(NAME_ATTRS)))


def own_signature(op: str, proto, scratch) -> int:
    """Hash of what a node (op, NodeDef) is, names left out. The attributes are copied into
    `scratch` (a NodeDef) and serialized with sorted keys, all in C; a tensor counts by its
    dtype and shape, never by its values."""
    attr = proto.attr
    if "value" in attr:
        t = attr["value"].tensor
        rest = tuple(sorted((k, attr[k].SerializeToString(deterministic=True)) for k in attr
                            if k != "value" and k not in NAME_ATTRS))
        return hash((op, t.dtype, t.tensor_shape.SerializeToString(), rest))
    # the whole node copied, then all but its attributes cleared: one C copy is faster than
    # merging the attribute map (~1.3 us a node less); the same bytes as _attrs_only's unless
    # a name attribute (found in the bytes) or a field unknown to NodeDef is there
    scratch.CopyFrom(proto)
    for field in _NOT_ATTR:
        scratch.ClearField(field)
    data = scratch.SerializeToString(deterministic=True)
    scratch.ClearField("attr")
    if _NAME_BYTES.search(data) is None and not scratch.ByteSize():
        return hash((op, data))
    return _attrs_only(op, attr, scratch)


def _attrs_only(op: str, attr, scratch) -> int:
    """own_signature of a node without a `value`: its attributes but those in NAME_ATTRS."""
    scratch.Clear()
    scratch.attr.MergeFrom(attr)
    for key in NAME_ATTRS.intersection(attr):
        del scratch.attr[key]
    return hash((op, scratch.SerializeToString(deterministic=True)))


class Fingerprints:
    """fingerprint[name] and height[name] (longest data path from a source) of every node;
    by node index, `fp[i]` and `heights[i]` (None for the names-keyed way below)."""

    def __init__(self, graph: Graph | None, job=None, own: list | None = None):
        """`own`: the graph's own signatures by node index (own_signatures), where made."""
        self._own: dict | list = {}              # by name, or a list by node index
        self._fingerprint: dict | None = {}     # by name: made from fp when first asked
        self._height: dict | None = {}
        self.fp = self.heights = self._tails = None
        self._names: list = []
        if graph is None:
            return
        cols = columns(graph)
        if own is None:
            own = self._own_signatures(cols, job)
        if cols.unique and _in_graph_order(graph, cols):
            self._in_order(cols, own)
            return
        order = _topological(cols) if cols.unique else None
        if order is None:           # a cycle or repeated names: the walk by names below
            self._own = keyed(cols.names, own)
            self._compute(graph)
            return
        self._by_order(cols, own, order)

    @property
    def own(self) -> dict:
        """Each node's own signature, by name."""
        if isinstance(self._own, list):
            self._own = keyed(self._names, self._own)
        return self._own

    @property
    def fingerprint(self) -> dict:
        if self._fingerprint is None:
            self._fingerprint = keyed(self._names, self.fp)
        return self._fingerprint

    @property
    def height(self) -> dict:
        if self._height is None:
            self._height = keyed(self._names, self.heights)
        return self._height

    def values(self) -> tuple:
        """What matching reads, to send from another process: (fp, heights) by node index,
        or the (fingerprint, height) dicts by name; then the graph's attribute tails (None
        where not read)."""
        return ((self.fp, self.heights) if self.fp is not None else
                (self.fingerprint, self.height)) + (self._tails,)

    @classmethod
    def of_values(cls, graph: Graph, values: tuple) -> "Fingerprints":
        """Fingerprints from values() (of the same graph, in a copy of this process)."""
        out = cls(None)
        if values[2] is not None:
            columns(graph).tails = values[2]
        if isinstance(values[0], dict):
            out._fingerprint, out._height = values[:2]
        else:
            out.fp, out.heights = values[:2]
            out._names, out._fingerprint, out._height = columns(graph).names, None, None
        return out

    @classmethod
    def own_signatures(cls, graph: Graph, job=None) -> list:
        """Each node's own_signature by node index (the attribute tails left in the graph's
        columns where read), for Fingerprints(graph, own=...) elsewhere (a forked copy)."""
        return cls(None)._own_signatures(columns(graph), job)

    def _own_signatures(self, cols, job) -> list:
        """Each node's own_signature; on a big graph's arrays (cols.arrays) computed once per
        op and attribute tail (attr_bytes: the same bytes, the same attributes), the tails
        left in `cols` for the diff."""
        out, scratch, protos = [], NodeDef(), cols.protos()
        if not cols.arrays:
            for k, (op, proto) in enumerate(zip(cols.ops, protos)):
                if job is not None and not k % 4096:
                    job.check()
                out.append(own_signature(op, proto, scratch))
            return out
        known: dict = {}
        ops = cols.ops

        def visit(lo: int, nodes: list, ids: list) -> None:
            """The signatures of a piece of nodes, from its NodeDefs while at hand (none
            kept: 300k NodeDef wrappers alive grew upb's object cache in one rehash that
            held the GIL 15 ms, ~60 ms on the slow class, while the window waited)."""
            if job is not None:
                job.check()
            for k, (op, tail) in enumerate(zip(ops[lo:lo + len(ids)], ids)):
                signature = known.get((op, tail))
                if signature is None:
                    signature = known[op, tail] = own_signature(op, nodes[k], scratch)
                out.append(signature)

        self._tails = cols.tails = tails(protos, visit)
        return out

    def _by_order(self, cols, own: list, order: list) -> None:
        """Each node after its inputs: its fingerprint hashes its own signature with its
        inputs' fingerprints and ports (the walk's formula, so the values are the same)."""
        ins, ports, ops = cols.ins, cols.ports, cols.ops
        fp, height = [0] * len(own), [0] * len(own)
        for i in order:
            srcs = ins[i]
            if not srcs or ops[i] in BACK_EDGE_OPS:
                fp[i] = hash((own[i], ()))
                height[i] = 1
            elif len(srcs) == 1:        # (most nodes: the same tuple, made directly)
                j = srcs[0]
                fp[i] = hash((own[i], ((fp[j], ports[i][0]),)))
                height[i] = height[j] + 1
            else:
                fp[i] = hash((own[i], tuple(zip([fp[j] for j in srcs], ports[i]))))
                height[i] = 1 + max([height[j] for j in srcs])
        self._done(cols, own, fp, height)

    def _in_order(self, cols, own: list) -> None:
        """_by_order over the nodes in graph order (each after its inputs already: a graph
        as TensorFlow writes it), by appends in one zip, no order made (~40 % less time)."""
        fp: list = []
        height: list = []
        put, tall = fp.append, height.append
        for srcs, prts, mine, op in zip(cols.ins, cols.ports, own, cols.ops):
            if not srcs or op in BACK_EDGE_OPS:
                put(hash((mine, ())))
                tall(1)
            elif len(srcs) == 1:
                j = srcs[0]
                put(hash((mine, ((fp[j], prts[0]),))))
                tall(height[j] + 1)
            else:
                put(hash((mine, tuple(zip([fp[j] for j in srcs], prts)))))
                tall(1 + max([height[j] for j in srcs]))
        self._done(cols, own, fp, height)

    def _done(self, cols, own: list, fp: list, height: list) -> None:
        self.fp, self.heights = fp, height
        self._names, self._fingerprint, self._height = cols.names, None, None
        self._own = own

    def _compute(self, graph: Graph) -> None:
        own, fp, height = self.own, self.fingerprint, self.height
        nodes = {node.name: node for node in graph}
        on_stack: set = set()
        for node in graph:
            if node.name in fp:
                continue
            stack = [(node, False)]
            while stack:
                current, expanded = stack.pop()
                name = current.name
                if name in fp:
                    continue
                inputs = () if current.op in BACK_EDGE_OPS else \
                    [ref for ref in current.inputs if not ref.control and ref.node in nodes]
                if not expanded:
                    on_stack.add(name)
                    stack.append((current, True))
                    for ref in inputs:
                        if ref.node not in fp and ref.node not in on_stack:
                            stack.append((nodes[ref.node], False))
                    continue
                on_stack.discard(name)
                # an input still open here closes a cycle the graph should not have: it
                # counts by its own signature
                fed = tuple((fp.get(ref.node, own[ref.node]), ref.port) for ref in inputs)
                fp[name] = hash((own[name], fed))
                height[name] = 1 + max((height.get(ref.node, 0) for ref in inputs), default=0)


def _in_graph_order(graph, cols) -> bool:
    """Every node's data inputs (those its fingerprint reads: none for a loop's back edge)
    come before it in the graph (the graph's arrays, where the columns read them)."""
    if not cols.arrays:
        return False
    off, src, port = graph.in_offsets, graph.in_src, graph.in_port
    n = len(cols.names)
    reader = np.repeat(np.arange(n, dtype=np.int64), np.diff(off))
    data = (port >= 0) & (src >= 0)
    back = [c for c, op in enumerate(graph.op_names) if op in BACK_EDGE_OPS]
    if back:
        data &= ~np.isin(graph.op_codes, back)[reader]
    return not (src[data] >= reader[data]).any()


def _topological(cols) -> list | None:
    """Node indices, each after the data inputs its fingerprint reads (Kahn's algorithm), or
    None when some are in a cycle."""
    ins, ops = cols.ins, cols.ops
    pending = [0 if op in BACK_EDGE_OPS else len(srcs) for srcs, op in zip(ins, ops)]
    uses = cols.uses
    ready = [i for i, n in enumerate(pending) if not n]
    order = []
    for i in ready:             # `ready` grows while it is read: a FIFO with no pops
        order.append(i)
        for r, _, _ in uses[i]:
            if pending[r]:
                pending[r] -= 1
                if not pending[r]:
                    ready.append(r)
    return order if len(order) == len(ins) else None
