"""Render summaries: TF's summarize_graph text (exact), our richer report, and JSON."""

from __future__ import annotations

import json

from inspector.core.analysis import summary_columns as columns
from inspector.core.analysis.summary import (
    UNLIKELY_OUTPUT_OPS,
    op_histogram,
    tf_parameter_counts,
)
from inspector.core.formats.commands import graphdef_for
from inspector.core.loaders.loaded import bytes_on_disk
from inspector.core.model import tensors
from inspector.core.model.dtypes import dtype_name
from inspector.core.model.graph import Graph, node_name_from_input
from inspector.core.model.humanize import (
    cpp_std_sort,
    human_bytes,
    tf_human_readable_num,
)


def _tf_shape_text(node) -> str:
    if not node.has_attr("shape"):
        return "None"
    shape = node.proto.attr["shape"].shape
    bad = [d.size for d in shape.dim if d.size < -1]
    if bad:
        return (f"Shape {tensors.format_shape(tuple(d.size for d in shape.dim))} has dimensions "
                "with values below -1 (where -1 means unknown)")
    return tensors.format_shape(tensors.shape_dims(shape))


def _tf_dtype(node) -> tuple[str, int]:
    value = node.proto.attr["dtype"].type if node.has_attr("dtype") else 0
    return dtype_name(value), value


def _tf_node_info(node) -> str:
    name, value = _tf_dtype(node)
    return f"(name={node.name}, type={name}({value}), shape={_tf_shape_text(node)}) "


def _tf_benchmark_shape(node) -> str:
    if not node.has_attr("shape"):
        return ""
    dims = tensors.shape_dims(node.proto.attr["shape"].shape)
    if dims is None:
        return ""
    return ",".join("-1" if d is None else str(d) for d in dims)


def tf_summary_text(graph: Graph, graph_path: str) -> tuple[str, list, bool]:
    """(stdout text, stderr warnings, ok) exactly as TF's summarize_graph prints them."""
    out, warnings = [], []
    placeholders = [graph.nodes[i] for i in graph.nodes_of_op("Placeholder")]
    variables = [graph.nodes[i] for i in columns.indexes_of_ops(graph, ("Variable",
                                                                         "VariableV2"))]
    for items, none_text, what in ((placeholders, "No inputs spotted.", "possible inputs"),
                                   (variables, "No variables spotted.", "variables")):
        if not items:
            out.append(none_text + "\n")
        else:
            out.append(f"Found {len(items)} {what}: " + "".join(_tf_node_info(n) for n in items)
                       + "\n")
    if graph._odd:       # names holding ':' or '^' (or none): TF's own reading of the texts
        referenced = {node_name_from_input(i) for n in graph for i in n.proto.input}
        outputs = [n for n in graph if n.name not in referenced and
                   n.op not in UNLIKELY_OUTPUT_OPS]
        control = sum(1 for n in graph for i in n.proto.input if i.startswith("^"))
    else:                # the same from the columns: a text names the node it resolved to
        outputs = [graph.nodes[i] for i in columns.unread(graph, UNLIKELY_OUTPUT_OPS)]
        control = columns.control_edges(graph)
    if not outputs:
        out.append("No outputs spotted.\n")
    else:
        out.append(f"Found {len(outputs)} possible outputs: "
                   + "".join(f"(name={n.name}, op={n.op}) " for n in outputs) + "\n")
    const, var, failed = tf_parameter_counts(graph)
    warnings += [f"Decoding Tensor failed for node{name}" for name in failed]
    out.append(f"Found {const} ({tf_human_readable_num(const)}) const parameters, {var} "
               f"({tf_human_readable_num(var)}) variable parameters, and {control} control_edges\n")
    devices: dict = {}
    for device in graph.devices.values():      # {node index: its device} of those naming one
        devices[device] = devices.get(device, 0) + 1
    for dev in sorted(devices, key=lambda d: d.encode()):
        out.append(f"{devices[dev]} nodes assigned to device '{dev}'")
    if graph.dangling_inputs or graph.malformed_inputs:
        bad = graph.dangling_inputs + graph.malformed_inputs
        out += [f"Invalid input {m} for node {n}\n" for n, m in bad]
        warnings.append("Invalid graph with inputs referring to nonexistent nodes")
        return "".join(out), warnings, False
    counts = op_histogram(graph)
    pairs = [(op, counts[op]) for op in sorted(counts, key=lambda o: o.encode())]
    pairs = cpp_std_sort(pairs, lambda a, b: a[1] > b[1])
    out.append("Op types used: " + ", ".join(f"{c} {op}" for op, c in pairs) + "\n")
    inputs = placeholders + variables
    out.append("To use with tensorflow/tools/benchmark:benchmark_model try these arguments:\n")
    out.append("bazel run tensorflow/tools/benchmark:benchmark_model --"
               f" --graph={graph_path} --show_flops"
               f" --input_layer={','.join(n.name for n in inputs)}"
               f" --input_layer_type={','.join(_tf_dtype(n)[0] for n in inputs)}"
               f" --input_layer_shape={':'.join(_tf_benchmark_shape(n) for n in inputs)}"
               f" --output_layer={','.join(n.name for n in outputs)}\n")
    return "".join(out), warnings, True


def tf_structure_text(graph: Graph) -> tuple[str, list]:
    """summarize_graph --print_structure: nodes in execution order with inputs and values."""
    from inspector.core.formats.tensor_text import debug_string
    from inspector.core.model.execution_order import execution_order

    out, warnings = [], []
    for node in execution_order(graph):
        line = f"{node.name} ({node.op}): [{', '.join(node.input)}]"
        if node.op == "Const":
            tensor = graph.tensor(node.name) if "value" in node.attr else None
            if tensor is not None and tensors.is_decodable(tensor):
                line += ", value=" + debug_string(tensor)
            else:
                warnings.append(f"Decoding Tensor failed for node{node.name}")
        out.append(line + "\n")
    return "".join(out), warnings


def benchmark_command(summary, graph_path: str) -> str:
    """A benchmark_model line from our ranked candidates (no variables as inputs, no -1)."""
    top_in = [c for c in summary.inputs if c.score >= 100] or summary.inputs[:1]
    top_out = [c for c in summary.outputs if c.score >= 100] or summary.outputs[:1]

    def dims(shape: str) -> str:
        if not shape.startswith("["):
            return ""
        parts = [p for p in shape[1:-1].split(",") if p]
        return ",".join("1" if p == "?" else p for p in parts)

    return ("benchmark_model"
            f" --graph={graph_path}"
            f" --input_layer={','.join(c.name for c in top_in)}"
            f" --input_layer_type={','.join(c.dtype or 'float' for c in top_in)}"
            f" --input_layer_shape={':'.join(dims(c.shape) for c in top_in)}"
            f" --output_layer={','.join(c.name for c in top_out)} --show_flops")


def _cands(title: str, cands: list, limit: int = 12) -> list:
    if not cands:
        return [f"{title}: none found"]
    lines = [f"{title}:"]
    width = min(max(len(c.title) for c in cands[:limit]), 48)
    for i, c in enumerate(cands[:limit], 1):
        kind = f"{c.dtype} {c.shape}".strip() or c.op
        lines.append(f"  {i:>2}. {c.title:<{width}}  {kind:<20}  {c.reason}")
        if c.shape_note:
            lines.append(f"      {c.shape_note}")
    if len(cands) > limit:
        lines.append(f"      ... and {len(cands) - limit} more")
    return lines


def _top(mapping: dict, fmt, limit: int = 10) -> str:
    items = list(mapping.items())
    text = ", ".join(fmt(k, v) for k, v in items[:limit])
    return text + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def report_text(summary, model, graph_path: str) -> str:
    s = summary
    lines = [f"Model: {graph_path} ({model.kind}{', text' if model.is_text else ''}"
             f"{', frozen' if model.frozen else ''}, {human_bytes(bytes_on_disk(model))}), "
             f"{s.node_count} nodes, {s.function_count} functions"]
    if model.signature:
        lines.append(f"Signature: {model.signature.key}  tags: {','.join(model.tags) or '-'}")
    lines += _cands("Likely inputs", s.inputs)
    lines += _cands("Likely outputs", s.outputs)
    if s.unlikely_outputs:
        roles = sorted({c.reason.split("a ", 1)[-1].split(" op")[0] for c in s.unlikely_outputs})
        lines.append(f"  (also {len(s.unlikely_outputs)} unconsumed training-only nodes: "
                     f"{', '.join(roles)})")
    lines += _cands("Variables", s.variables)
    total_bytes = sum(s.bytes_by_dtype.values())
    lines.append(f"Parameters: {s.const_parameters:,} const ({human_bytes(total_bytes)} of "
                 f"constant data), {s.variable_parameters:,} in variables")
    lines.append(f"Control edges: {s.control_edges}")
    lines.append("Devices: " + (_top(s.devices, lambda k, v: f"{v} on {k}") or "none set"))
    lines.append(f"Op types ({len(s.op_counts)}): " + _top(s.op_counts, lambda k, v: f"{v} {k}",
                                                           limit=40))
    size_total = sum(s.bytes_by_op.values()) or 1
    lines.append("Size by op type: " + _top(
        s.bytes_by_op, lambda k, v: f"{k} {human_bytes(v)} ({100 * v / size_total:.1f}%)"))
    lines.append("Constant data by dtype: " + (_top(
        s.bytes_by_dtype, lambda k, v: f"{k} {human_bytes(v)}") or "none"))
    for chain in s.preprocessing:
        lines.append(f"Preprocessing: {chain.kind} chain {' -> '.join(chain.nodes)}; "
                     f"feed '{chain.feed}' {chain.feed_shape}")
    for problem in s.problems:
        lines.append(f"Problem: {problem}")
    if getattr(model, "kind", "") == "tflite":     # TFLite's own benchmark tool
        lines.append(f"Benchmark: benchmark_model --graph={graph_path} "
                     "--enable_op_profiling=true")
    elif getattr(model, "kind", "graphdef") == "graphdef":
        lines.append("Benchmark: " + benchmark_command(s, graph_path))
    else:   # benchmark_model reads a GraphDef file, not a SavedModel, .meta, Keras or TF.js
        frozen, first = graphdef_for(graph_path, getattr(model, "kind", ""))
        lines.append("Benchmark: " + benchmark_command(s, frozen) +
                     f"  (benchmark_model reads a GraphDef: write it first with {first})")
    return "\n".join(lines) + "\n"


def report_json(summary, model, graph_path: str) -> str:
    s = summary
    data = {
        "path": graph_path, "kind": model.kind, "text": model.is_text, "frozen": model.frozen,
        "file_size": model.file_size, "bytes_on_disk": bytes_on_disk(model), "tags": model.tags,
        "signature": model.signature.__dict__ if model.signature else None,
        "node_count": s.node_count, "function_count": s.function_count,
        "inputs": [c.as_dict() for c in s.inputs], "outputs": [c.as_dict() for c in s.outputs],
        "training_only_outputs": [c.as_dict() for c in s.unlikely_outputs],
        "variables": [c.as_dict() for c in s.variables],
        "const_parameters": s.const_parameters, "variable_parameters": s.variable_parameters,
        "tf_variable_parameters": s.tf_variable_parameters,
        "control_edges": s.control_edges, "devices": s.devices, "op_counts": s.op_counts,
        "bytes_by_op": s.bytes_by_op, "bytes_by_dtype": s.bytes_by_dtype,
        "preprocessing": [c.as_dict() for c in s.preprocessing], "problems": s.problems,
        "benchmark_command": benchmark_command(s, graph_path),
    }
    return json.dumps(data, indent=2, default=str) + "\n"


