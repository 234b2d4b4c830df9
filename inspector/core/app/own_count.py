"""The model card's FLOPs and port shapes from the graph's own shapes, without TensorFlow
(decisions.md: TF's inference only where shapes need it, and then said). TF's inference of a
1M-node graph took 75 s and 6.2 GB for `explain`; the columnar propagation takes a few
seconds. Used when it counts every op it would count with TF's shapes: no counted op left
without a shape, and no input size but a batch assumed (other open sizes need TF's open
output shapes, card_shapes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from inspector.core.analysis.flops import FlopReport, count_flops
from inspector.core.analysis.graph_flops import OWN, TF_INFERENCE


class OwnCount(NamedTuple):
    report: FlopReport      # counted from the graph's own shapes (assumed, source set)
    shapes: Mapping         # node -> [output shapes]
    usable: bool            # the card takes it, and asks TensorFlow nothing
    why_tf: str             # else: the source to say with TF's count


class ShapesByName(Mapping):
    """node name -> its output shapes, read from the shapes by node index (no 1M-entry dict)."""

    def __init__(self, graph, out: list):
        self.graph, self.out = graph, out

    def __getitem__(self, name):
        try:
            found = self.out[self.graph.index(name)]
        except (KeyError, IndexError, TypeError):
            raise KeyError(name) from None
        if found is None:
            raise KeyError(name)
        return found

    def __iter__(self):
        return (n for n, s in zip(self.graph.name_list, self.out) if s is not None)

    def __len__(self) -> int:
        return sum(1 for s in self.out if s is not None)

    def __bool__(self) -> bool:
        return any(s is not None for s in self.out)


def own_count(graph, input_shapes: dict | None = None) -> OwnCount:
    """The FLOP report of `graph` from its own shapes (as graph_flops counts it), and whether
    the card may take it instead of TF's inference."""
    from inspector.core.analysis import shape_columns as columns, static_shapes as ss

    if columns.columnar(graph):
        given, assumed = ss.placeholder_shapes(graph, input_shapes)
        _, out = columns.column_shapes(graph, given, not input_shapes)
        report, shapes = columns.count_flops_columns(graph, out), ShapesByName(graph, out)
    else:
        shapes, assumed = ss.static_shapes(graph, input_shapes)
        report = count_flops(graph, shapes)
    report.assumed = list(assumed)
    report.source = f"{OWN}, without TensorFlow"
    missing = len(report.unknown_shape)
    # a graph TensorFlow would not import (inputs naming no node, malformed, duplicate
    # names) or one with functions (whose bodies are checked before TF sees them: a function
    # calling itself) goes the TF way, which refuses it in one line as before
    broken = bool(graph.problems()) or bool(graph.structure.library.function)
    usable = not broken and not report.unknown and not missing and \
        all(a.startswith("batch ") for a in assumed)
    why = f"{TF_INFERENCE} (the graph's own shapes leave {missing:,} ops unknown)" if missing \
        else f"{TF_INFERENCE} (the graph has problems or functions)" if broken \
        else f"{TF_INFERENCE} (input sizes other than the batch are open)"
    return OwnCount(report, shapes, usable, why)
