"""The blocks of a model for demo runs: its top-level scopes (looking through a single wrapper
scope such as Keras's model name) and the tensor each hands on, its "last tensor"."""

from __future__ import annotations

from inspector.core.model.graph import Graph
from inspector.core.model.reachability import downstream

_PASSIVE = {"Const", "Identity", "NoOp", "Shape", "Assert", "CheckNumerics", "StopGradient"}
_SQUASH = ("Relu6", "Sigmoid", "Tanh")


def top_blocks(graph: Graph, limit: int = 64) -> list:
    """Scope paths of the model's blocks, in the scope tree's order."""
    scope = graph.scope_tree()
    while len(scope.children) == 1 and len(scope.nodes) <= 4:
        only = next(iter(scope.children.values()))
        if not only.children:
            break
        scope = only
    return [c.path for c in scope.children.values()][:limit]


def _under(graph: Graph, path: str) -> list:
    scope = graph.scope_tree()
    for part in path.split("/"):
        scope = scope.children.get(part)
        if scope is None:
            return []
    return [n for s in scope.walk() for n in s.nodes]


def block_end(graph: Graph, path: str, live: set | None = None) -> str | None:
    """The tensor a block hands to the rest of the graph: among its nodes whose output leaves
    the block, the one furthest downstream inside it (None for a block of constants or one
    the fed input does not reach, `live`)."""
    members = set(_under(graph, path))
    if live is not None:
        members &= live
    exits = [n for n in members if graph.node(n).op not in _PASSIVE and any(
        e.dst not in members for e in graph.data_consumers(n) if e.src_port == 0)]
    if not exits:
        return None
    preds = {n: [i.node for i in graph.node(n).data_inputs if i.node in members]
             for n in members}
    waiting = {n: len(p) for n, p in preds.items()}
    succs: dict = {}
    for n, ps in preds.items():
        for p in ps:
            succs.setdefault(p, []).append(n)
    depth = {n: 0 for n, k in waiting.items() if k == 0}
    ready = list(depth)
    while ready:                      # longest path from the block's entry (Kahn's order)
        cur = ready.pop()
        for s in succs.get(cur, ()):
            depth[s] = max(depth.get(s, 0), depth[cur] + 1)
            waiting[s] -= 1
            if waiting[s] == 0:
                ready.append(s)
    best = max(exits, key=lambda n: (depth.get(n, 0), n))
    return f"{best}:0"


def block_ends(graph: Graph, paths, feeds=()) -> dict:
    """{scope path: its last tensor} for the blocks the fed inputs reach."""
    live = downstream(graph, [f.split(":")[0] for f in feeds]) if feeds else None
    out = {}
    for path in paths:
        end = block_end(graph, path, live)
        if end is not None:
            out[path] = end
    return out


def first_squash(graph: Graph, start: str, hops: int = 16) -> tuple:
    """(tensor, op) of the first Relu6/Sigmoid/Tanh after `start`, or ('', '')."""
    frontier, seen = [start.split(":")[0]], set()
    for _ in range(hops):
        nxt = []
        for name in frontier:
            for e in graph.data_consumers(name):
                if e.dst in seen:
                    continue
                seen.add(e.dst)
                node = graph.node(e.dst)
                if node.op in _SQUASH:
                    return f"{node.name}:0", node.op
                nxt.append(e.dst)
        frontier = nxt
    return "", ""
