"""Graphviz DOT export: TF's graph_to_dot format, and a styled, readable one."""

from __future__ import annotations

import os
import shutil
import subprocess

from inspector.core.analysis.summary import const_source, dtype_of, tensor_label
from inspector.core.errors import InspectorError
from inspector.core.formats.writer import atomic_write, check_target
from inspector.core.model import op_categories, tensors
from inspector.core.model.graph import Graph
from inspector.core.model.reachability import between

RENDERED = {".svg": "svg", ".png": "png", ".pdf": "pdf"}


def tf_dot(graph: Graph) -> str:
    """Byte-for-byte what tensorflow/tools/quantization/graph_to_dot.py wrote (for every valid
    TF name; quotes, backslashes and line breaks in names are escaped, which TF did not do, so
    a name cannot inject DOT statements)."""
    # From the columns (no Node view, no NodeDef): an input's producer name is TF's
    # text.split(":")[0] without its "^" (a node's name, or as parsed for one of no node).
    quoted = list(map(_q, graph.name_list))
    ops = list(map(_q, graph.op_names))
    off, src, loose = graph._in_off, graph._src, graph._loose
    lines = ["digraph graphname {"]
    add = lines.append
    for i, (name, code) in enumerate(zip(quoted, graph._ops)):
        add(f'  {name} [label={ops[code]}];')
        for p in range(off[i], off[i + 1]):
            s = src[p]
            add(f'  {quoted[s] if s >= 0 else _q(loose[p])} -> {name};')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    """A DOT double-quoted string: nothing in `text` can end it."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\r", "\\r") + '"'


GENERIC_CONST_NAMES = {"resource", "value", "Const", "ReadVariableOp", "y", "x", "read"}


def _badge(graph: Graph, const) -> str:
    t = const.proto.attr["value"].tensor
    shape = tensors.format_shape(tensors.shape_dims(t.tensor_shape))
    short = const.short_name
    name = "" if short in GENERIC_CONST_NAMES or short.startswith("Const_") else f"{short}: "
    return f"{name}{dtype_of(const)} {shape}"


def styled_dot(graph: Graph, inputs=(), outputs=(), fold_constants: bool = True,
               rankdir: str = "TB", clusters: bool = True) -> str:
    keep = between(graph, inputs, outputs) if (inputs or outputs) else None
    folded: dict = {}
    hidden = set()
    if fold_constants:
        for node in graph:
            if keep is not None and node.name not in keep:
                continue
            consumers = graph.consumers(node.name)
            src = const_source(graph, node.name)
            if src is None or not consumers:
                continue
            if all(keep is None or e.dst in keep for e in consumers):
                hidden.add(node.name)
                for e in consumers:
                    if not e.control and const_source(graph, e.dst) is None:
                        folded.setdefault(e.dst, []).append(_badge(graph, src))
    shown = [n for n in graph if n.name not in hidden and (keep is None or n.name in keep)]
    lines = ["digraph G {",
             f'  graph [rankdir={rankdir}, fontname="Helvetica", fontsize=11, newrank=true, '
             'nodesep=0.25, ranksep=0.4];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
             'color="#555555", margin="0.12,0.04"];',
             '  edge [fontname="Helvetica", fontsize=8, color="#666666", fontcolor="#444444"];']
    node_lines: dict = {}
    for node in shown:
        cat = op_categories.category(node.op)
        label = [node.op, node.short_name if node.short_name != node.op else ""]
        label += sorted(set(folded.get(node.name, [])))[:6]
        text = "\\n".join(_q(x)[1:-1] for x in label if x)
        node_lines.setdefault(node.scope if clusters else "", []).append(
            f'{_q(node.name)} [label="{text}", fillcolor="{op_categories.COLOURS[cat]}", '
            f'tooltip={_q(node.name)}];')
    lines += _emit_scopes(node_lines, indent="  ")
    shown_names = {n.name for n in shown}
    for node in shown:
        for ref in node.inputs:
            if ref.node not in shown_names:
                continue
            attrs = ['style=dashed', 'color="#999999"'] if ref.control else []
            label = "" if ref.control else tensor_label(graph, ref.node, ref.port)
            if label:
                attrs.append(f"label={_q(' ' + label)}")
            suffix = f" [{', '.join(attrs)}]" if attrs else ""
            lines.append(f"  {_q(ref.node)} -> {_q(node.name)}{suffix};")
    lines += _legend(shown)
    lines.append("}")
    return "\n".join(lines) + "\n"


MAX_CLUSTER_DEPTH = 32


def _emit_scopes(node_lines: dict, indent: str) -> list:
    """Nested `subgraph cluster_*` blocks, one per name scope that holds drawn nodes (scopes
    deeper than MAX_CLUSTER_DEPTH are drawn in their ancestor at that depth). Iterative: scope
    nesting is only limited by the names in the file."""
    lines_at: dict = {}
    tree: dict = {}
    for scope, lines in node_lines.items():
        parts = scope.split("/")[:MAX_CLUSTER_DEPTH] if scope else []
        lines_at.setdefault("/".join(parts), []).extend(lines)
        cur = tree
        for part in parts:
            cur = cur.setdefault(part, {})
    out: list = []
    stack = [("node", "", tree, indent)]
    while stack:
        kind, prefix, sub, ind = stack.pop()
        if kind == "close":
            out.append(f"{ind}}}")
            continue
        if prefix:
            part = prefix.rpartition("/")[2]
            out.append(f"{ind[:-2]}subgraph {_q('cluster_' + prefix)} {{")
            out.append(f'{ind}label={_q(part)}; style="rounded,dashed"; color="#9a9a9a"; '
                       'fontcolor="#555555";')
        out.extend(ind + line for line in lines_at.get(prefix, []))
        for part, child in reversed(list(sub.items())):
            path = f"{prefix}/{part}" if prefix else part
            stack.append(("close", path, None, ind))
            stack.append(("node", path, child, ind + "  "))
    return out


def _legend(shown) -> list:
    cats = sorted({op_categories.category(n.op) for n in shown})
    rows = "".join(f'<TR><TD BGCOLOR="{op_categories.COLOURS[c]}">{c}</TD></TR>' for c in cats)
    return ['  subgraph cluster_legend { label="legend"; style=rounded; color="#cccccc";',
            f'    legend [shape=plaintext, style="", label=<<TABLE BORDER="0" CELLBORDER="1" '
            f'CELLSPACING="0">{rows}</TABLE>>];', "  }"]


def write(text: str, path: str, force: bool = False, timeout: float = 300.0) -> str:
    """Write DOT text, or render it with Graphviz when the extension asks for an image."""
    fmt = RENDERED.get(os.path.splitext(path)[1].lower())
    if fmt is None:
        return atomic_write(path, text, force=force)
    check_target(path, force)
    return atomic_write(path, render(text, fmt, timeout, path), force=force)


def render(text: str, fmt: str, timeout: float = 300.0, path: str = "") -> bytes:
    """Run Graphviz `dot` on DOT text, with a time limit so a huge graph cannot hang us."""
    dot = shutil.which("dot")
    if dot is None:
        raise InspectorError("rendering needs Graphviz's `dot` program "
                             "(apt-get install graphviz)", path=path)
    try:
        proc = subprocess.run([dot, f"-T{fmt}"], input=text.encode("utf-8"),
                              capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise InspectorError(f"Graphviz took longer than {timeout:.0f} s; draw a smaller part "
                             "with --inputs/--outputs", path=path) from None
    if proc.returncode != 0:
        msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InspectorError(f"Graphviz failed: {msg[0] if msg else proc.returncode}", path=path)
    return proc.stdout
