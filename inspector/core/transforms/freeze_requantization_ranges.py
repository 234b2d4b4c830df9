"""freeze_requantization_ranges: replace logged RequantizationRange nodes by constant ranges."""

from __future__ import annotations

import numpy as np

from inspector.core.analysis.ranges import parse_log, percentile_range
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.graph_utils import (
    copy_graph,
    rename_node_inputs,
    tensor_const,
)


def freeze_with_ranges(graph_def, ranges: dict, ctx=None):
    names = {n.name for n in graph_def.node}
    if any(name not in names for name in ranges):
        raise TransformError("Nodes were found in the log file that aren't present in the graph")
    out = copy_graph(graph_def, [])
    renames = {}
    for node in graph_def.node:
        if node.name not in ranges:
            out.node.add().CopyFrom(node)
            continue
        if node.op != "RequantizationRange":
            raise TransformError(f"Node is expected to be a RequantizationRange op: {node.name}, "
                                 f"but is: {node.op}", node=node.name)
        lo, hi = ranges[node.name]
        out.node.add().CopyFrom(tensor_const(node.name + "/frozen_min", np.array(lo, np.float32)))
        out.node.add().CopyFrom(tensor_const(node.name + "/frozen_max", np.array(hi, np.float32)))
        renames[node.name + ":0"] = node.name + "/frozen_min:0"
        renames[node.name + ":1"] = node.name + "/frozen_max:0"
        if ctx is not None:
            ctx.note(node.name, f"range frozen to [{lo:g}, {hi:g}]")
    return rename_node_inputs(out, renames)


@transform("freeze_requantization_ranges", "quantize",
           "Replaces runtime range calculations by the ranges logged on real inputs.",
           [Param("min_max_log_file", "path", required=True),
            Param("min_percentile", "float", "5", minimum=0), Param("max_percentile", "float", "5", minimum=0)])
def freeze_requantization_ranges(graph_def, ctx):
    path = ctx.single("min_max_log_file", "")
    if not path:
        raise TransformError("You must pass a file name to min_max_log_file")
    lo_pct, hi_pct = ctx.float("min_percentile", 5.0), ctx.float("max_percentile", 5.0)
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            log = parse_log(fh.read())
    except OSError as exc:
        raise TransformError(f"cannot read min_max_log_file '{path}': {exc.strerror}") from None
    if not log.records:
        raise TransformError("No min/max range logs were found in the log file")
    ranges = {name: percentile_range(pairs, lo_pct, hi_pct) for name, pairs in log.records.items()}
    return freeze_with_ranges(graph_def, ranges, ctx)
