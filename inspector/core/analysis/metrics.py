"""Model metrics for any graph: sizes (raw and gzip), parameters, node counts, FLOPs, latency
(the FLOPs modules are imported when FLOPs are asked for)."""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.core.errors import InspectorError
from inspector.core.model import protos, tensors
from inspector.core.model.graph import Graph
from inspector.core.model.parameters import (
    const_elements,
    parameter_counts,
    variable_elements,
)
from inspector.core.runtime.executor import tensorflow

if TYPE_CHECKING:
    from inspector.core.analysis.flops import FlopReport


@dataclass
class Metrics:
    serialized_bytes: int
    gzip_bytes: int
    const_parameters: int
    variable_parameters: int
    node_count: int
    op_counts: dict
    flops: FlopReport | None = None
    latency_ms: dict = field(default_factory=dict)

    def row(self) -> dict:
        out = {"size": self.serialized_bytes, "gzip": self.gzip_bytes,
               "params": self.const_parameters + self.variable_parameters,
               "nodes": self.node_count}
        if self.flops is not None:
            out["flops"] = self.flops.total
            out["unknown_shapes"] = len(self.flops.unknown_shape)
        return out


SAMPLE_ABOVE = 8 * 2 ** 20
CHUNK = 256 * 1024


# zlib.compress wraps deflate in a 2-byte header and a 4-byte Adler-32 (6 bytes); a .gz file
# wraps the same deflate stream in a 10-byte header and an 8-byte CRC-32 and length (18 bytes)
ZLIB_FRAME = 6
GZIP_FRAME = 18


def deflated(data) -> int:
    """Bytes of the level-6 deflate stream of `data`, without a frame."""
    return len(zlib.compress(data, 6)) - ZLIB_FRAME


def gzip_size(data: bytes, exact: bool = False) -> int:
    """Size of the gzip-compressed bytes: len(gzip.compress(data, 6)), Python's gzip at
    level 6 (deflate plus gzip's 18-byte frame, no file name in it).

    Above 8 MB, unless `exact`, every 8th 256 KB chunk is compressed and the rest
    extrapolated: within ~1% on model files, and 8x faster (deflate takes ~4 s on 90 MB).
    A change to how this figure is made must change gzip_cache.HOW (the diff keeps it).
    """
    if exact or len(data) <= SAMPLE_ABOVE:
        return deflated(data) + GZIP_FRAME
    view = memoryview(data)
    sampled = compressed = 0
    for start in range(0, len(data), CHUNK * 8):
        chunk = view[start:start + CHUNK]
        sampled += len(chunk)
        compressed += deflated(chunk)
    return int(len(data) * compressed / sampled) + GZIP_FRAME


def compute_metrics(graph_def, input_shapes: dict | None = None, with_flops: bool = True,
                    flops_per_second: float | None = None, shapes: dict | None = None,
                    with_gzip: bool = True) -> Metrics:
    """Metrics of a GraphDef. FLOPs need static shapes: pass `shapes` or let TF infer them.
    Without gzip, the size comes from ByteSize() (no serialization) and gzip_bytes is -1."""
    const, var = parameter_counts(graph_def.node)
    if with_gzip:
        data = protos.serialize_graph_def(graph_def)
        size, packed = len(data), gzip_size(data)
    else:
        size, packed = protos.graph_def_size(graph_def), -1
    m = Metrics(size, packed, const, var, len(graph_def.node),
                dict(Counter(n.op for n in graph_def.node).most_common()))
    if with_flops:
        from inspector.core.analysis.flops import count_flops

        m.flops = flop_report(graph_def, input_shapes) if shapes is None else \
            count_flops(Graph(graph_def), shapes)
        m.latency_ms = latencies(m.flops, flops_per_second)
    return m


class StepMetrics:
    """compute_metrics(graph_def, with_flops=False) of the graphs of an in-place pipeline
    (transforms.run_pipeline(in_place=True)), each taken after its step: a node still the same
    message as in an earlier step keeps the parameters counted then (in-place steps replace
    the nodes they change). Sizes come last (`sizes`), from what writing the output measured
    of its nodes: only nodes that did not reach the output are measured here."""

    def __init__(self, with_gzip: bool = False):
        self.with_gzip = with_gzip
        self._known: dict = {}   # id(node) -> (node, const, variable); the node keeps its id
        self._unsized: list = []  # (Metrics, its nodes, its other fields' bytes)

    def __call__(self, graph_def) -> Metrics:
        """The step's metrics; serialized_bytes is -1 until `sizes` is called (with gzip:
        complete at once)."""
        if self.with_gzip:
            return compute_metrics(graph_def, with_flops=False, with_gzip=True)
        known = self._known
        nodes = list(graph_def.node)
        const = var = 0
        for node in nodes:
            entry = known.get(id(node))
            if entry is None:
                entry = known[id(node)] = (node, const_elements(node), variable_elements(node))
            const += entry[1]
            var += entry[2]
        m = Metrics(-1, -1, const, var, len(nodes),
                    dict(Counter(n.op for n in nodes).most_common()))
        self._unsized.append((m, nodes, protos.other_fields_size(graph_def)))
        return m

    def sizes(self, written: dict | None = None, measure=None) -> None:
        """Fill in serialized_bytes: each node's bytes from `written` ({id(node): bytes},
        what write_graph(node_sizes=...) measured), else measured here (`measure(node)`:
        bytes in its GraphDef, for nodes whose values are elsewhere)."""
        size_of = dict(written or {})
        for m, nodes, other in self._unsized:
            total = other
            for node in nodes:
                n = size_of.get(id(node))
                if n is None:
                    n = size_of[id(node)] = measure(node) if measure else \
                        protos.node_field_size(node.ByteSize())
                total += n
            m.serialized_bytes = total
        self._unsized.clear()


def flop_report(graph_def, input_shapes: dict | None = None) -> FlopReport:
    """FLOPs from TF's shape inference on this graph (open inputs defaulted and said so), or
    unknown with TF's reason."""
    from inspector.core.analysis.flops import count_flops, unknown_flops

    shapes, assumed, failure = infer_shapes(graph_def, input_shapes)
    if failure:
        return unknown_flops(failure)
    report = count_flops(Graph(graph_def), shapes)
    report.assumed = assumed
    return report


def latencies(report: FlopReport, flops_per_second: float | None = None) -> dict:
    """Estimated ms per device class (none when the FLOPs are unknown)."""
    from inspector.core.analysis.flops import DEVICE_PRESETS, latency_ms

    if report is None or report.unknown:
        return {}
    speeds = dict(DEVICE_PRESETS)
    if flops_per_second:
        speeds["custom"] = flops_per_second
    return {k: latency_ms(report.total, v) for k, v in speeds.items()}


def default_input_shapes(graph_def, given: dict | None) -> tuple[dict, list]:
    """Input shapes for counting: the given ones, and for Placeholders the graph leaves open
    the batch of the given ones (1 when none is given) and 1 for other unknown sizes, each
    said in words."""
    shapes, assumed = dict(given or {}), []
    batch = next((dims[0] for dims in shapes.values() if dims and dims[0]), 1)
    for node in graph_def.node:
        if node.op != "Placeholder" or node.name in shapes or "shape" not in node.attr:
            continue
        dims = tensors.shape_dims(node.attr["shape"].shape)
        if dims is None or None not in dims:
            continue
        shapes[node.name] = tuple(batch if i == 0 and d is None else 1 if d is None else d
                                  for i, d in enumerate(dims))
        taken = ",".join(str(d) for d in shapes[node.name])
        assumed.append(f"batch {batch} assumed for input '{node.name}'" if dims[0] is None and
                       None not in dims[1:] else
                       f"open sizes of input '{node.name}' taken as [{taken}]")
    return shapes, assumed


def infer_shapes(graph_def, input_shapes: dict | None = None) -> tuple[dict, list, str]:
    """(shapes, assumptions, failure): TF's shape inference with open inputs defaulted, or the
    reason it failed (a training graph TF cannot import, no TensorFlow, ...)."""
    shapes, assumed = default_input_shapes(graph_def, input_shapes)
    try:
        return tensorflow().infer_shapes(graph_def, shapes), assumed, ""
    except InspectorError as exc:
        if not assumed:
            return {}, [], exc.message
    try:  # the assumed sizes did not fit together: count what the given ones allow
        return tensorflow().infer_shapes(graph_def, input_shapes), [], ""
    except InspectorError as exc:
        return {}, [], exc.message


def open_shapes(graph_def, input_shapes: dict | None, names) -> dict:
    """{node: [output shape, ...]} of the named nodes from TF's shape inference with only the
    given input sizes, the ones the graph leaves open kept unknown (an any-size photo's
    features are [1,?,?,21], not the [1,1,1,21] of the size assumed to count); {} when TF
    cannot infer them."""
    try:
        shapes = tensorflow().infer_shapes(graph_def, input_shapes)
    except InspectorError:
        return {}
    return {name: shapes[name] for name in names if name in shapes}
