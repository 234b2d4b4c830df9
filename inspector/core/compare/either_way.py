"""The matching of A and B made in the direction that explains more, so that `diff A B` and
`diff B A` say the same thing from each side (the other way read from A's side:
Matching.mirrored). A .tflite as A against a GraphDef is matched from the GraphDef's side
(the converter's direction, its names as provenance). Two small graphs with no provenance
are matched both ways unless the first pairs every node; the other way is kept when it
leaves fewer nodes neither paired, merged nor split and constants are among those it
explains (a folded graph as A: the original's batch norms split out of its convolutions,
not "added"), or leaves as many with more pairs (a quantized graph as A: its weights
paired as quantized)."""

from __future__ import annotations

from inspector.core.compare.columns import columns
from inspector.core.compare.matching import match
from inspector.core.compare.provenance import for_tflite
from inspector.core.compare.records import Matching, Provenance
from inspector.core.model.graph import Graph
from inspector.core.model.origin import is_tflite
from inspector.core.runtime.job import NO_JOB, Job

BOTH_WAYS_UP_TO = 50_000    # nodes of A and B together: above, one way (matching costs double)


def match_either_way(ga: Graph, gb: Graph, provenance: Provenance | None = None,
                     job: Job = NO_JOB) -> Matching:
    if provenance is None and is_tflite(ga) and not is_tflite(gb):
        return match(gb, ga, for_tflite(gb, ga), job).mirrored()
    m = match(ga, gb, provenance, job)
    if provenance is not None or m.unrelated or len(ga) + len(gb) > BOTH_WAYS_UP_TO:
        return m
    left = unexplained(m, ga, gb)
    if not (left or m.merged or m.split):      # every node paired: nothing to weigh
        return m
    other = match(gb, ga, None, job).mirrored()
    if other.unrelated:
        return m
    still = unexplained(other, ga, gb)
    if len(still) < len(left):      # only a fold's explanation: constants among those it gains
        return other if _constants(left - still, ga, gb) else m
    return other if len(still) == len(left) and len(other.b_of) > len(m.b_of) else m


def unexplained(m: Matching, ga: Graph, gb: Graph) -> set:
    """The nodes the diff calls removed (A, name) and added (B, name)."""
    return {("A", a) for a in columns(ga).names if not m.explains_a(a)} | \
        {("B", b) for b in columns(gb).names if not m.explains_b(b)}


FOLDED = frozenset({"Const", "Identity"})


def _constants(nodes: set, ga: Graph, gb: Graph) -> bool:
    """A Const or Identity among `nodes`: what one way explains and the other leaves added or
    removed is a fold's work (a batch norm's or an expression's constants in the weights, the
    Identity nodes remove_nodes takes out: "merged" one way, so "split" the other), not an op
    inserted or deleted (one inserted Relu stays "added", not "split out of" its input)."""
    cols = {"A": columns(ga), "B": columns(gb)}
    return any(cols[side].ops[cols[side].at[name]] in FOLDED for side, name in nodes)
