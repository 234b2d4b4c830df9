"""Constants drawn as badges on the node that consumes them: what the badge says (a small
constant's values, else its shape)."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.model import tensors


@dataclass
class Badge:
    name: str
    dtype: str
    shape: str
    count: int
    value: str = ""      # the values of a small constant ("127.5", "299, 299"), else ""

    def text(self) -> str:
        """What the badge says: a small constant's value (the normalisation numbers a mobile
        developer needs), else its shape."""
        if not self.value:
            return self.shape
        return self.value if self.shape == "[]" else f"{self.shape} {self.value}"


SMALL_CONSTANT = 4  # elements: shown as values on the badge


def small_value(tensor_proto) -> str:
    """The values of a constant with at most SMALL_CONSTANT elements, short; "" otherwise or
    when they cannot be decoded."""
    if tensors.element_count(tensor_proto) > SMALL_CONSTANT:
        return ""
    try:
        values = tensors.head(tensor_proto, SMALL_CONSTANT)
    except (ValueError, TypeError, OverflowError):
        return ""
    out = []
    for v in values.tolist():
        if isinstance(v, bytes):
            v = v[:12].decode("utf-8", "replace")
            out.append(repr(v))
        elif isinstance(v, float):
            out.append(f"{v:.4g}")
        else:
            out.append(str(v))
    return ", ".join(out)


def const_sources(graph) -> dict:
    """Every node that is a Const or reads one through a lone Identity, with its Const
    (what summary.const_source says of one node, for all of them in one pass)."""
    consts = {node.name: node for node in graph if node.op == "Const"}
    out = {}
    for node in graph:       # in graph order, as badges are listed
        if node.op == "Const":
            out[node.name] = node
        elif node.op == "Identity" and len(node.inputs) == 1:
            const = consts.get(node.inputs[0].node)
            if const is not None:
                out[node.name] = const
    return out


def fold_constants_into_badges(graph, consts: dict) -> tuple[set, dict]:
    """(constants something reads, {consumer: [Const nodes]}): each read constant becomes a
    badge on its data consumers, listed in the graph order of the Const or Identity read;
    one pass over the inputs."""
    folded, found = set(), {}
    if consts:
        for node in graph.nodes:
            dst_is_const = node.name in consts
            for ref in node.inputs:
                if ref.node not in consts:
                    continue
                folded.add(ref.node)
                if not ref.control and not dst_is_const:
                    found.setdefault(node.name, []).append(ref.node)
    index = {}
    badges = {}
    for dst, srcs in found.items():
        if len(srcs) > 1:
            if not index:
                index.update((name, i) for i, name in enumerate(consts))
            srcs = sorted(srcs, key=index.__getitem__)
        badges[dst] = [consts[src] for src in srcs]
    return folded, badges   # Badge objects are made when a node is drawn
