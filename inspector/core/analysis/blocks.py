"""The blocks of a model for demo runs and tours: its top-level scopes (looking through the
scopes it sits in, such as Keras's model name) and the tensor each hands on, its "last tensor"."""

from __future__ import annotations

from inspector.core.model.graph import Graph
from inspector.core.model.inputs import child_key
from inspector.core.model.scopes import scope_at
from inspector.core.model.parameters import VARIABLE_OPS, weight_homes
from inspector.core.model.reachability import downstream

_PASSIVE = {"Const", "Identity", "NoOp", "Shape", "Assert", "CheckNumerics", "StopGradient"}
_SQUASH = ("Relu6", "Sigmoid", "Tanh")
FEW_BLOCKS = 5     # a scope showing more blocks than this is where the model sits


def top_blocks(graph: Graph, limit: int = 64) -> list:
    """Scope paths of the model's blocks: the scopes inside the ones it sits in (see
    main_scopes), then those beside them, in the scope tree's order."""
    wrappers = main_scopes(graph)
    levels = [graph.scope_tree()]
    for path in wrappers:
        levels.append(levels[-1].children[child_key(path)])
    return [c.path for level in reversed(levels) for c in level.children.values()
            if c.path not in wrappers][:limit]


def main_scopes(graph: Graph, flops_per_node: dict | None = None) -> list:
    """The scopes the model sits in, outermost first (Keras's `model/`, slim's
    `InceptionV3/InceptionV3/`, a TF.js model's `StatefulPartitionedCall/model_1/`): from the
    root, while a scope shows at most FEW_BLOCKS blocks, the one holding most of its work
    (more than half of its computing nodes, of its parameters and, when known, of its FLOPs)
    is opened if it has scopes inside; so is a lone scope beside at most 4 nodes."""
    work = _work(graph, flops_per_node)
    scope, opened = graph.scope_tree(), []
    while scope.children:
        best = max(scope.children.values(), key=lambda c: work[c.path])
        if not best.children:
            break
        mine, whole = work[best.path], work[scope.path]
        blocks = sum(work[c.path][0] > 0 for c in scope.children.values())
        most = blocks <= FEW_BLOCKS and all(part * 2 > total
                                            for part, total in zip(mine, whole) if total)
        only = len(scope.children) == 1 and len(scope.nodes) <= 4
        if not (most or only):
            break
        opened.append(best.path)
        scope = best
    return opened


def _work(graph: Graph, flops_per_node: dict | None) -> dict:
    """{scope path: (computing nodes, parameters, FLOPs)}, each summed over the scope."""
    homes = weight_homes(graph)
    flops = flops_per_node or {}
    own: dict = {}
    for scope in graph.scope_tree().walk():
        nodes = params = ops = 0
        for name in scope.nodes:
            node_op = graph.node(name).op
            nodes += node_op not in _PASSIVE and node_op not in VARIABLE_OPS
            params += homes.get(name, 0)
            ops += flops.get(name, 0)
        own[scope.path] = (nodes, params, ops)
    total: dict = {}
    for scope in reversed(list(graph.scope_tree().walk())):     # children first
        sums = own[scope.path]
        for child in scope.children.values():
            sums = tuple(a + b for a, b in zip(sums, total[child.path]))
        total[scope.path] = sums
    return total


def _under(graph: Graph, path: str) -> list:
    scope = scope_at(graph.scope_tree(), path, None)
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
