"""Graphviz DOT export: TF's graph_to_dot format, and a styled, readable one."""

from __future__ import annotations

import os
import shutil
import subprocess

from inspector.core.analysis.summary import dtype_of, tensor_label
from inspector.core.errors import InspectorError
from inspector.core.formats.writer import atomic_write, check_target
from inspector.core.model import graph_index, op_categories, tensors
from inspector.core.model.graph import Graph, scope_of
from inspector.core.model.graph_index import PORT_MAX
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


def _fold(graph: Graph, keep) -> tuple:
    """(constants hidden, reader -> badges of the constants folded into it): a Const (or a
    Const->Identity pair) whose readers are all drawn, as const_source and graph.consumers
    see a name (its first node), on the input and consumer columns."""
    names, ops, first, codes = graph.name_list, graph._ops, graph._index, graph._op_code
    const, ident = codes.get("Const"), codes.get("Identity")
    hidden: set = set()
    folded: dict = {}
    if const is None:
        return hidden, folded
    off, src, port = graph._in_off, graph._src, graph._port
    starts, places = graph.consumer_index()

    def source(f: int) -> int:
        """const_source by index: the Const behind node f, else -1."""
        if ops[f] == ident and off[f + 1] - off[f] == 1:
            f = src[off[f]]
            if f < 0:
                return -1
        return f if ops[f] == const else -1

    # a name's nodes all stand for its first (duplicates add the same badges again: the
    # labels keep each once), and only a Const or an Identity has a const source
    badges: dict = {}
    for f in sorted(graph.nodes_of_op("Const") + graph.nodes_of_op("Identity")):
        name = names[f]
        if first[name] != f or (keep is not None and name not in keep):
            continue
        lo, hi = starts[f], starts[f + 1]
        s = source(f) if lo < hi else -1
        if s < 0:
            continue
        readers = [graph_index.node_at(graph, p) for p in places[lo:hi]]
        if keep is None or all(names[d] in keep for d in readers):
            hidden.add(name)
            badge = badges.get(s)
            if badge is None:
                badge = badges[s] = _badge(graph, graph.nodes[s])
            for p, d in zip(places[lo:hi], readers):
                if port[p] >= 0 and source(first[names[d]]) < 0:
                    folded.setdefault(names[d], []).append(badge)
    return hidden, folded


def styled_dot(graph: Graph, inputs=(), outputs=(), fold_constants: bool = True,
               rankdir: str = "TB", clusters: bool = True) -> str:
    """Op-coloured boxes in scope clusters, constants folded into their readers' labels,
    edges labelled `dtype shape`. From the columns: views only of the folded constants and
    of the producers whose outputs label an edge (each label made once; the whole graph's
    views in one pass)."""
    keep = between(graph, inputs, outputs) if (inputs or outputs) else None
    names, op_names, ops = graph.name_list, graph.op_names, graph._ops
    if keep is None:
        graph.nodes.all()     # nearly every node is read (badges, labels): made in one pass
    hidden, folded = _fold(graph, keep) if fold_constants else (set(), {})
    shown = [i for i, name in enumerate(names)
             if name not in hidden and (keep is None or name in keep)]
    lines = ["digraph G {",
             f'  graph [rankdir={rankdir}, fontname="Helvetica", fontsize=11, newrank=true, '
             'nodesep=0.25, ranksep=0.4];',
             '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
             'color="#555555", margin="0.12,0.04"];',
             '  edge [fontname="Helvetica", fontsize=8, color="#666666", fontcolor="#444444"];']
    quoted = {i: _q(names[i]) for i in shown}
    colours = [op_categories.COLOURS[op_categories.category(op)] for op in op_names]
    node_lines: dict = {}
    for i in shown:
        name, op, q = names[i], op_names[ops[i]], quoted[i]
        short = name.rpartition("/")[2]
        label = [op, short if short != op else ""]
        label += sorted(set(folded.get(name, [])))[:6]
        text = "\\n".join(_q(x)[1:-1] for x in label if x)
        node_lines.setdefault(scope_of(name) if clusters else "", []).append(
            f'{q} [label="{text}", fillcolor="{colours[ops[i]]}", tooltip={q}];')
    lines += _emit_scopes(node_lines, indent="  ")
    shown_names = set(map(names.__getitem__, shown))
    off, src, port, loose, big = graph._in_off, graph._src, graph._port, graph._loose, \
        graph._big_ports
    labels: dict = {}
    for i in shown:
        reader = quoted[i]
        for p in range(off[i], off[i + 1]):
            s = src[p]
            producer = names[s] if s >= 0 else loose[p]
            if producer not in shown_names:
                continue
            pt = port[p]
            if pt == PORT_MAX:
                pt = big.get(p, pt)
            attrs = ['style=dashed', 'color="#999999"'] if pt < 0 else []
            label = "" if pt < 0 else labels.get((producer, pt))
            if label is None:
                label = labels[producer, pt] = tensor_label(graph, producer, pt)
            if label:
                attrs.append(f"label={_q(' ' + label)}")
            suffix = f" [{', '.join(attrs)}]" if attrs else ""
            lines.append(f"  {quoted.get(s) or _q(producer)} -> {reader}{suffix};")
    shown = [op_names[ops[i]] for i in shown]
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


def _legend(ops) -> list:
    cats = sorted({op_categories.category(op) for op in ops})
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
