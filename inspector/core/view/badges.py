"""Constants drawn as badges on the node that consumes them: what the badge says (a small
constant's values, else its shape)."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.analysis.summary import dtype_of
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
    """(constants something reads, {consumer: [names of the constants it shows]}): each read
    constant becomes a badge on its data consumers, listed in the graph order of the Const or
    Identity read; one pass over the inputs."""
    if not consts:
        return set(), {}
    folded: set = set()
    found: dict = {}
    add, get = folded.add, found.get
    for node in graph.nodes:     # one loop, no list of reads: 25 % less at 300k nodes
        inputs = node.inputs
        if not inputs:
            continue
        dst, shows = None, None    # the node's name, and whether it shows badges: on need
        for src, _port, control in inputs:
            if src in consts:
                add(src)
                if control:
                    continue
                if shows is None:
                    dst = node.name
                    shows = dst not in consts
                if shows:
                    srcs = get(dst)
                    if srcs is None:
                        found[dst] = [src]
                    else:
                        srcs.append(src)
    index: dict = {}
    for dst, srcs in found.items():
        if len(srcs) > 1:
            if not index:
                index.update((name, i) for i, name in enumerate(consts))
            srcs.sort(key=index.__getitem__)
    return folded, found   # Badge objects are made when a node is drawn


def badge_of(const) -> Badge:
    """The badge of a Const node (its values are read only when small: small_value)."""
    t = const.proto.attr["value"].tensor
    return Badge(const.short_name, dtype_of(const),
                 tensors.format_shape(tensors.shape_dims(t.tensor_shape)),
                 tensors.element_count(t), small_value(t))
