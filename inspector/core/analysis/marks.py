"""Detective work on chosen inputs and outputs: what strip_unused_nodes would keep, what
would still need feeding, training-only parts, and tracing an output back to its feed point."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.analysis.preprocessing import find_preprocessing_chains
from inspector.core.analysis.summary import dtype_of, shape_of
from inspector.core.model import op_categories
from inspector.core.model.graph import Graph, node_name_from_input
from inspector.core.model.node_set import NodeSet, later_duplicates
from inspector.core.model.node_store import byte_sizes
from inspector.core.model.reachability import reached, upstream

FEED_OPS = {"Placeholder", "PlaceholderWithDefault"}


@dataclass
class StripPreview:
    kept: set                    # names (a NodeSet from strip_preview: a mask, no name set)
    dropped: set
    dropped_bytes: int
    needs_feeding: list          # sources the outputs still depend on that are not inputs
    training_only: dict = field(default_factory=dict)  # dropped node -> role
    kept_scopes: frozenset | None = None   # scopes holding a kept node (set by the app)


def strip_preview(graph: Graph, inputs, outputs) -> StripPreview:
    """What strip_unused_nodes keeps for these inputs/outputs (inputs always kept). Kept and
    dropped are one mask over the node indexes, read as two NodeSets."""
    ins = [node_name_from_input(i) for i in inputs if node_name_from_input(i) in graph]
    outs = [node_name_from_input(o) for o in outputs if node_name_from_input(o) in graph]
    index, names = graph._index, graph.name_list
    if not outs:
        every, later = bytearray(b"\x01") * len(names), later_duplicates(graph)
        return StripPreview(NodeSet(graph, every, 1, later), NodeSet(graph, every, 0, later),
                            0, [])
    mask = reached(graph, outs, stop=ins, backwards=True)
    for name in ins:
        mask[index[name]] = 1
    later = later_duplicates(graph)
    kept, dropped = NodeSet(graph, mask, 1, later), NodeSet(graph, mask, 0, later)
    at = dropped.indexes()     # graph order: a big graph's NodeDefs are read from the file
    dropped_bytes = sum(byte_sizes(graph.structure, at))
    needs = [n for n in map(names.__getitem__, graph.nodes_of_op("Placeholder"))
             if n in kept and n not in ins]
    op_of, codes = graph.op_names.__getitem__, graph._ops
    roles = {}
    for i in at:
        role = op_categories.training_role(names[i], op_of(codes[i]))
        if role:
            roles[names[i]] = role
    return StripPreview(kept, dropped, dropped_bytes, needs, roles)


@dataclass
class FeedProposal:
    name: str
    op: str
    dtype: str
    shape: str
    reason: str


def trace_to_inputs(graph: Graph, output: str) -> list:
    """Follow producers back from an output to the places a mobile app would feed."""
    out = node_name_from_input(output)
    if out not in graph:
        return []
    reach = upstream(graph, [out])
    chains = {c.source: c for c in find_preprocessing_chains(graph)}
    proposals = []
    for chain in chains.values():
        if chain.feed in reach:
            proposals.append(FeedProposal(
                chain.feed, graph.node(chain.feed).op, "float", chain.feed_shape,
                f"end of the {chain.kind} decoding chain {' -> '.join(chain.ops)}: feed "
                "decoded, resized, normalised pixels here"))
    for name in sorted(reach, key=lambda x: graph.node(x).index):
        node = graph.node(name)
        if node.op in FEED_OPS:
            chain = chains.get(name)
            why = (f"encoded input of the {chain.kind} chain (feed '{chain.feed}' instead)"
                   if chain else f"{node.op} the output depends on")
            proposals.append(FeedProposal(name, node.op, dtype_of(node), shape_of(node), why))
    return proposals
