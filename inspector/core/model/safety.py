"""What running a graph would execute, checked against an allowlist of pure computation.

A model is untrusted input. Before TensorFlow runs, folds or loads anything, we list every op it
would reach: the nodes upstream of the fetched tensors (data and control edges, stopping at the
feeds), and, recursively, the whole body of every function they call, whether by naming it as
their op or through a function attribute (call ops, If/While/Case branches and bodies, dataset
functions). Each op must be on `pure_ops.txt`, the allowlist of ops that only compute in memory;
a few allowlisted ops also have attributes that must be harmless (PrintV2 must not print to a
file). Anything else is a finding, and the caller refuses unless the user said yes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import compress

from inspector.core.errors import UnsafeGraphError


def _load_allowlist() -> frozenset:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pure_ops.txt")
    with open(path, encoding="utf-8") as fh:
        return frozenset(line.strip() for line in fh if line.strip() and not line.startswith("#"))


PURE_OPS = _load_allowlist()
SAFE_STREAMS = {"", "stderr", "stdout", "log(info)", "log(warning)", "log(error)"}
_FUNC_ATTR_KINDS = ("func",)


@dataclass(frozen=True)
class Finding:
    """One op that is not pure computation, and the node through which it would run."""

    node: str            # the node of the checked graph that reaches it
    op: str              # the offending op (or the function that calls itself)
    why: str
    via: tuple = ()      # functions passed through, outermost first

    def describe(self) -> str:
        where = f"node '{self.node}'"
        if self.via:
            where += " via function " + " -> ".join(f"'{f}'" for f in self.via)
        return f"{where}: {self.op} ({self.why})"


def _why_not_pure(op: str) -> str:
    text = op.lower()
    if "py" in text and "func" in text:
        return "runs Python code"
    if "dataset" in text or "iterator" in text:
        return "an input pipeline, which may read files"
    if any(k in text for k in ("file", "save", "restore", "checkpoint", "reader", "record",
                               "matching", "immutable", "summary", "writer")):
        return "reads or writes files"
    if "debug" in text or "dump" in text:
        return "dumps tensors to files or the network"
    if any(k in text for k in ("send", "recv", "rpc", "collective", "nccl", "remote")):
        return "talks to other processes or hosts"
    return "not on the list of pure operations"


def _stream_problem(node_def) -> str | None:
    stream = node_def.attr["output_stream"].s.decode("utf-8", "replace") \
        if "output_stream" in node_def.attr else "stderr"
    return None if stream in SAFE_STREAMS else f"prints to {stream!r}"


def _descriptor_problem(node_def) -> str | None:
    if "descriptor_source" not in node_def.attr:
        return None
    source = node_def.attr["descriptor_source"].s.decode("utf-8", "replace")
    return None if source in ("", "local://") else f"reads a descriptor from {source!r}"


# the allowlisted ops whose attributes can make them harmful: every other op's nodes are
# alike, so a Checker answers an op once
_ATTR_RULES = {"PrintV2": _stream_problem, "DecodeProtoV2": _descriptor_problem,
               "EncodeProto": _descriptor_problem}
_UNKNOWN = object()


def attr_problem(node_def) -> str | None:
    """Harmful attribute values of an allowlisted op."""
    rule = _ATTR_RULES.get(node_def.op)
    return rule(node_def) if rule is not None else None


def function_refs(node_def, library: dict) -> list:
    """Names of the functions a node calls: its op when that names a library function, and
    every `func` / `list(func)` attribute (call ops, control flow, dataset functions)."""
    out = [node_def.op] if node_def.op in library else []
    attr = node_def.attr
    for key in attr:            # (a key and a look-up: values() is Python's mapping mixin)
        value = attr[key]
        kind = value.WhichOneof("value")
        if kind == "func":
            out.append(value.func.name)
        elif kind == "list":
            out.extend(f.name for f in value.list.func)
    return out


def node_problem(node_def, library: dict, extra_ok=frozenset()) -> str | None:
    """Why this node alone (not the functions it calls) is unsafe, or None."""
    if node_def.op in library:
        return None
    if node_def.op not in PURE_OPS and node_def.op not in extra_ok:
        return _why_not_pure(node_def.op)
    return attr_problem(node_def)


class Checker:
    """Findings per node and per function, memoized (one Checker per graph)."""

    def __init__(self, library: dict, extra_ok=frozenset()):
        self.library = library
        self.extra_ok = extra_ok
        self.memo: dict = {}        # function -> [(op, why, via)]
        self.op_problems: dict = {}     # op -> node_problem of its nodes (not _ATTR_RULES')
        self.active: list = []      # functions being checked (a call stack)

    def function(self, name: str) -> list:
        """(op, why, via) for everything unsafe inside a function and what it calls."""
        if name in self.memo:
            return self.memo[name]
        if name in self.active:
            cycle = self.active[self.active.index(name):] + [name]
            return [(name, "calls itself (" + " -> ".join(cycle) + "); TensorFlow may crash",
                     ())]
        fdef = self.library.get(name)
        if fdef is None:
            return [(name, "calls a function that is not in the graph's library", ())]
        self.active.append(name)
        out = []
        for node in fdef.node_def:
            problem = node_problem(node, self.library, self.extra_ok)
            if problem:
                out.append((node.op, problem, ()))
            for callee in function_refs(node, self.library):
                out.extend((op, why, (callee,) + via) for op, why, via in self.function(callee))
        self.active.pop()
        self.memo[name] = out
        return out

    def node(self, node_def) -> list:
        out = []
        op = node_def.op        # an op's answer once (its attributes matter for a few ops)
        problem = self.op_problems.get(op, _UNKNOWN)
        if problem is _UNKNOWN:
            problem = node_problem(node_def, self.library, self.extra_ok)
            if op not in _ATTR_RULES:
                self.op_problems[op] = problem
        if problem:
            out.append(Finding(node_def.name, node_def.op, problem))
        for callee in function_refs(node_def, self.library):
            for op, why, via in self.function(callee):
                out.append(Finding(node_def.name, op, why, (callee,) + via))
        return out


def library_of(graph_def) -> dict:
    return {f.signature.name: f for f in graph_def.library.function}


def _tensor(text: str) -> str:
    """'x' and 'x:0' -> 'x:0'; '^x' stays a control input."""
    return text if ":" in text or text.startswith("^") else f"{text}:0"


def reached_nodes(graph_def, fetches=None, feeds=()) -> list:
    """NodeDefs TF would execute for these fetches (all nodes when fetches is None), in graph
    order: upstream through data and control inputs. A fed *tensor* cuts its edge only: a
    node whose other output (or control edge) is still needed runs, and so does everything
    above it (feeding `x:0` of an IdentityN does not stop `x:1` from reading a file)."""
    if fetches is None:
        return list(graph_def.node)
    fed = {_tensor(f) for f in feeds}
    nodes = list(graph_def.node)        # (a list: indexing the repeated field costs more)
    names = [n.name for n in nodes]     # names and positions, not a NodeDef a name (1M
    index = dict(zip(names, range(len(names))))     # nodes: ~1 s less); a name's last node
    stack = [_tensor(f).lstrip("^").rpartition(":")[0] for f in fetches
             if _tensor(f) not in fed]
    seen: set = set()
    push = stack.append
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        i = index.get(name)
        if i is None:
            continue
        seen.add(name)
        for text in nodes[i].input:     # (_tensor's rule inline: ~0.1 s at 100k nodes)
            if text[:1] == "^":
                push(text[1:])
            elif ":" in text:
                if text not in fed:
                    push(text.rpartition(":")[0])
            elif not fed or text + ":0" not in fed:
                push(text)
    return list(compress(nodes, map(seen.__contains__, names)))


def assess(graph_def, fetches=None, feeds=(), extra_ok=frozenset()) -> list:
    """Every Finding for running `fetches` of the graph (the whole graph if None)."""
    checker = Checker(library_of(graph_def), extra_ok)
    out = []
    for node in reached_nodes(graph_def, fetches, feeds):
        out.extend(checker.node(node))
    return out


def recursive_functions(graph_def) -> list:
    """A cycle in the function library's call graph (TF overflows its stack on them), as a
    list of [f, ..., f]; empty when no function calls itself."""
    library = library_of(graph_def)
    if not library:
        return []
    import networkx as nx

    calls = nx.DiGraph()
    for name, fdef in library.items():
        calls.add_node(name)
        calls.add_edges_from((name, callee) for node in fdef.node_def
                             for callee in function_refs(node, library) if callee in library)
    try:
        cycle = [edge[0] for edge in nx.find_cycle(calls)]
    except nx.NetworkXNoCycle:
        return []
    return [cycle + cycle[:1]]


def check_no_recursion(graph_def, what: str = "the graph") -> None:
    """Refuse, before TensorFlow sees it, a library whose functions call themselves."""
    cycles = recursive_functions(graph_def)
    if cycles:
        raise UnsafeGraphError(f"{what} has a function that calls itself "
                               f"({' -> '.join(cycles[0])}); TensorFlow would crash on it",
                               findings=[Finding(cycles[0][0], cycles[0][0], "calls itself")])


def summarize_findings(findings: list, limit: int = 4) -> str:
    shown = "; ".join(f.describe() for f in findings[:limit])
    more = f"; and {len(findings) - limit} more" if len(findings) > limit else ""
    return shown + more


def require_safe(graph_def, fetches=None, feeds=(), allow: bool = False,
                 what: str = "the graph", action: str = "run it",
                 extra_ok=frozenset()) -> list:
    """Raise UnsafeGraphError listing the findings unless there are none or `allow`.
    Recursive function libraries are refused even with permission."""
    check_no_recursion(graph_def, what)
    findings = assess(graph_def, fetches, feeds, extra_ok)
    if findings and not allow:
        raise UnsafeGraphError(
            f"{what} would run {len(findings)} operation(s) that are not pure computation: "
            f"{summarize_findings(findings)}; refusing to {action} without permission",
            node=findings[0].node, findings=findings)
    return findings
