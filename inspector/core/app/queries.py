"""What the window asks of the model's analysis, in tasks off the GUI thread: the summary,
what stripping would drop and where a trace leads, search, sizes and duplicated constants,
a constant's statistics, cones up and down the graph, and the transforms' vocabulary for the
pipeline editor. (The GUI enters the core here.)

Each name is imported from its module on first use: the strip preview a model's opening asks
for needs none of the others (importing them all cost the first picture ~15 ms of CPU, ~60 ms
on the slow machine class)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # the same names, for readers, type checkers and the import contracts
    from inspector.core.analysis import sizes
    from inspector.core.analysis.marks import strip_preview, trace_to_inputs
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

_FROM = {   # name -> (module, its name there; None: the module itself)
    "sizes": ("inspector.core.analysis.sizes", None),
    "strip_preview": ("inspector.core.analysis.marks", "strip_preview"),
    "trace_to_inputs": ("inspector.core.analysis.marks", "trace_to_inputs"),
    "index_for": ("inspector.core.analysis.search", "index_for"),
    "duplicates": ("inspector.core.analysis.sizes", "duplicates"),
    "summarize": ("inspector.core.analysis.summary", "summarize"),
    "describe_tensor": ("inspector.core.analysis.tensor_stats", "describe_tensor"),
    "measured_latency_ms": ("inspector.core.mobile.tflite_preview", "measured_latency_ms"),
    "function_graph": ("inspector.core.model.function_bodies", "function_graph"),
    "Graph": ("inspector.core.model.graph", "Graph"),
    "downstream": ("inspector.core.model.reachability", "downstream"),
    "upstream": ("inspector.core.model.reachability", "upstream"),
    "TRANSFORMS": ("inspector.core.transforms", "REGISTRY"),
    "TransformError": ("inspector.core.transforms.base", "TransformError"),
}
__all__ = ["Graph", "TRANSFORMS", "TransformError", "describe_tensor", "downstream",
           "duplicates", "function_graph", "index_for", "measured_latency_ms", "sizes",
           "strip_preview", "summarize", "trace_to_inputs", "upstream"]


def __getattr__(name: str):
    try:
        module, attr = _FROM[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = importlib.import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_FROM))
