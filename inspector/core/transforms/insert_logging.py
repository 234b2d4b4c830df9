"""insert_logging: add a Print node after matching nodes so their values are logged."""

from __future__ import annotations

from inspector.core.model import protos
from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.graph_utils import (
    canonical_input_name,
    rename_node_inputs,
)

SUFFIX = "__print__"


@transform("insert_logging", "debug",
           "Prints the values of matching nodes to stderr while the graph runs (e.g. the "
           "ranges that requantization sees).",
           [Param("op", "op", repeated=True), Param("prefix", "string", repeated=True),
            Param("message", "string", ""), Param("show_name", "bool", "false"),
            Param("show_op", "bool", "false"), Param("first_n", "int", "-1"),
            Param("summarize", "int", "1024")])
def insert_logging(graph_def, ctx):
    ops, prefixes = set(ctx.values("op")), ctx.values("prefix")
    message = ctx.single("message", "")
    show_name, show_op = ctx.bool("show_name", False), ctx.bool("show_op", False)
    first_n, summarize = ctx.int("first_n", -1), ctx.int("summarize", 1024)
    used: dict = {}
    for node in graph_def.node:
        for text in node.input:
            canon = canonical_input_name(text).lstrip("^")
            name, port = canon.rsplit(":", 1)
            if not port.lstrip("-").isdigit():
                raise TransformError(f"bad output index in input '{text}'", node=node.name)
            used.setdefault(name, set()).add(int(port))
    types = None
    out = protos.GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    renames, printers = {}, set()
    for node in graph_def.node:
        out.node.add().CopyFrom(node)
        if not used.get(node.name):
            continue
        if (ops and node.op not in ops) or (prefixes and not any(
                node.name.startswith(p) for p in prefixes)):
            continue
        if types is None:
            types = tensorflow().output_types(graph_def)
        out_types = types.get(node.name) or []
        if not out_types:
            raise TransformError("cannot log a node without outputs", node=node.name)
        printer = out.node.add(name=node.name + SUFFIX, op="Print")
        text = (f";{node.op};" if show_op else "") + (f";{printer.name};" if show_name else "")
        printer.attr["message"].s = (text + message).encode()
        printer.attr["first_n"].i = first_n
        printer.attr["summarize"].i = summarize
        printer.input.append(node.name + ":0")
        printer.attr["T"].type = out_types[0]
        for port in sorted(used[node.name]):
            printer.input.append(f"{node.name}:{port}")
        printer.attr["U"].list.type.extend(out_types)
        printers.add(printer.name)
        renames[node.name + ":0"] = printer.name + ":0"
        ctx.note(printer.name, f"logs '{node.name}'")
    return rename_node_inputs(out, renames, ignore=printers)
