"""Names-free fingerprints of nodes, as XLA's hlo_diff matches instructions: a node's own
signature (op, dtype, shapes, attributes; a constant's dtype and shape, not its values, not
the names in `_class` or `shared_name`) and, over it, the fingerprint of the exact subgraph
that feeds it (its data inputs' fingerprints and ports, in slot order)."""

from __future__ import annotations

from inspector.core.model.graph import Graph

# attributes that hold node names (colocation, shared resources) or nothing that computes
NAME_ATTRS = frozenset({"_class", "shared_name", "container", "_XlaCompile", "_XlaScope"})
# a loop's back edge: its input is not part of what it is (fingerprints stay acyclic)
BACK_EDGE_OPS = frozenset({"NextIteration", "RefNextIteration"})


def own_signature(node, scratch) -> int:
    """Hash of what the node is, names left out. The attributes are copied into `scratch`
    (an empty NodeDef) and serialized with sorted keys, all in C; a tensor counts by its dtype
    and shape, never by its values."""
    proto = node.proto
    attr = proto.attr
    if "value" in attr:
        t = attr["value"].tensor
        rest = tuple(sorted((k, attr[k].SerializeToString(deterministic=True)) for k in attr
                            if k != "value" and k not in NAME_ATTRS))
        return hash((node.op, t.dtype, t.tensor_shape.SerializeToString(), rest))
    scratch.Clear()
    scratch.attr.MergeFrom(attr)
    for key in NAME_ATTRS.intersection(attr):
        del scratch.attr[key]
    return hash((node.op, scratch.SerializeToString(deterministic=True)))


class Fingerprints:
    """fingerprint[name] and height[name] (longest data path from a source) of every node."""

    def __init__(self, graph: Graph, job=None):
        self.own: dict = {}
        self.fingerprint: dict = {}
        self.height: dict = {}
        self._compute(graph, job)

    def _compute(self, graph: Graph, job) -> None:
        from inspector.core.model.protos import NodeDef

        own, fp, height = self.own, self.fingerprint, self.height
        nodes = {node.name: node for node in graph}
        scratch = NodeDef()
        for k, node in enumerate(graph):
            if job is not None and not k % 4096:
                job.check()
            own[node.name] = own_signature(node, scratch)
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
