"""What the window asks of the model's analysis, in tasks off the GUI thread: the summary,
what stripping would drop and where a trace leads, search, sizes and duplicated constants,
a constant's statistics, cones up and down the graph, FLOPs and the model card's parts, and
the transforms' vocabulary for the pipeline editor. (The GUI enters the core here.)"""

from __future__ import annotations

from inspector.core.analysis import sizes
from inspector.core.analysis.flops import count_flops, unknown_flops
from inspector.core.analysis.marks import strip_preview, trace_to_inputs
from inspector.core.analysis.model_card import build_card, ports_with_shapes
from inspector.core.analysis.search import index_for
from inspector.core.analysis.sizes import duplicates
from inspector.core.analysis.summary import summarize
from inspector.core.analysis.tensor_stats import describe_tensor
from inspector.core.mobile.tflite_preview import measured_latency_ms
from inspector.core.model.function_bodies import function_graph
from inspector.core.model.graph import Graph
from inspector.core.model.reachability import downstream, upstream
from inspector.core.transforms import REGISTRY as TRANSFORMS
from inspector.core.transforms.base import TransformError

__all__ = ["Graph", "TRANSFORMS", "TransformError", "build_card", "count_flops",
           "describe_tensor", "downstream", "duplicates", "function_graph", "index_for", "measured_latency_ms",
           "ports_with_shapes", "sizes", "strip_preview", "summarize", "trace_to_inputs",
           "unknown_flops", "upstream"]
