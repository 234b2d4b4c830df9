"""Layered (Sugiyama-style) layout of one level of the graph, in five phases, each a function
of the one before: an acyclic copy of the edges (`acyclic`), ranks (`assign_ranks`), dummy
points on long edges (`insert_dummies`), the order within each layer (`order_layers`:
depth-first start, then barycentre sweeps), coordinates (`assign_x`, `assign_y`), and the
edges' bend points (`route_edges`). Pure Python, linear-ish in practice."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.runtime.job import NO_JOB, Job


@dataclass
class LayoutResult:
    positions: dict                     # id -> (x, y) of the item's top-left corner
    width: float
    height: float
    routes: dict = field(default_factory=dict)  # (src, dst) -> [(x, y), ...] bend points


H_GAP, V_GAP, MAX_DUMMIES = 24.0, 46.0, 40000
DUMMY_GAP, DUMMY_WIDTH = 8.0, 2.0      # between dummy points, and the width of one
SWEEPS, PULLS = 4, 6                   # barycentre sweeps; coordinate passes


def layered_layout(ids: list, sizes: dict, edges: list, job: Job = NO_JOB) -> LayoutResult:
    """Top-to-bottom layout of `ids` (sizes: id -> (w, h)) joined by `edges` [(src, dst)]."""
    if not ids:
        return LayoutResult({}, 0.0, 0.0)
    dag, back = acyclic(ids, edges)
    job.check()
    rank = assign_ranks(ids, dag)
    rank, chains, lsucc, lpred = insert_dummies(ids, dag, rank)
    job.check()
    levels = order_layers(ids, rank, lsucc, lpred, job)
    x, width = assign_x(levels, sizes, lsucc, lpred, job)
    y, height = assign_y(levels, sizes)
    min_x = min(x[u] - width[u] / 2 for u in x)
    positions = {v: (x[v] - width[v] / 2 - min_x, y[v]) for v in ids}
    total_w = max(x[u] + width[u] / 2 for u in x) - min_x
    return LayoutResult(positions, total_w, height, route_edges(chains, back, x, y, min_x))


def adjacency(ids: list, pairs: list) -> tuple[dict, dict]:
    """(successors, predecessors) of every id, in the order of `pairs`."""
    succ, pred = {v: [] for v in ids}, {v: [] for v in ids}
    for a, b in pairs:
        succ[a].append(b)
        pred[b].append(a)
    return succ, pred


# -- phase 1: an acyclic copy of the edges -------------------------------------------------
def acyclic(ids: list, edges: list) -> tuple[list, set]:
    """(the edges as a DAG, the back edges reversed to make it): self loops, duplicates
    and edges to unknown ids dropped, back edges of a depth-first search turned round."""
    idset = set(ids)
    pairs = list(dict.fromkeys((a, b) for a, b in edges if a in idset and b in idset and a != b))
    succ, _ = adjacency(ids, pairs)
    back = back_edges(ids, succ)
    dag = [((b, a) if (a, b) in back else (a, b)) for a, b in pairs]
    return list(dict.fromkeys(dag)), back


def back_edges(ids, succ) -> set:
    """Edges to reverse so that the graph becomes acyclic (iterative DFS back edges)."""
    state, back = {}, set()
    for root in ids:
        if root in state:
            continue
        stack = [(root, iter(succ[root]))]
        state[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                back.add((node, nxt))
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(succ[nxt])))
    return back


# -- phase 2: ranks ------------------------------------------------------------------------
def assign_ranks(ids: list, dag: list) -> dict:
    """{id: layer}: the longest path from a source, in topological order; a source sits
    just above its first consumer instead of on the top layer."""
    succ, pred = adjacency(ids, dag)
    indeg = {v: len(pred[v]) for v in ids}
    order = [v for v in ids if indeg[v] == 0]
    for v in order:
        for w in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                order.append(w)
    rank = {}
    for v in order:
        rank[v] = max((rank[p] + 1 for p in pred[v]), default=0)
    for v in reversed(order):  # sources sit just above their first consumer
        if not pred[v] and succ[v]:
            rank[v] = max(min(rank[w] for w in succ[v]) - 1, 0)
    return rank


# -- phase 3: dummy points on long edges ---------------------------------------------------
def insert_dummies(ids: list, dag: list, rank: dict) -> tuple[dict, dict, dict, dict]:
    """(ranks with the dummies, {edge: its dummies}, successors, predecessors): an edge
    spanning several layers gets one dummy point ("~", src, dst, layer) on each layer between
    (MAX_DUMMIES at most in all; past that, long edges go straight)."""
    rank = dict(rank)
    chains, lsucc, lpred = {}, {v: [] for v in ids}, {v: [] for v in ids}
    dummies = 0
    for a, b in dag:
        span = rank[b] - rank[a]
        chain = [a]
        if 1 < span and dummies + span < MAX_DUMMIES:
            for r in range(rank[a] + 1, rank[b]):
                d = ("~", a, b, r)
                rank[d] = r
                lsucc[d], lpred[d] = [], []
                chain.append(d)
                dummies += 1
        chain.append(b)
        for u, v in zip(chain, chain[1:]):
            lsucc[u].append(v)
            lpred[v].append(u)
        chains[(a, b)] = chain[1:-1]
    return rank, chains, lsucc, lpred


# -- phase 4: the order within each layer ---------------------------------------------------
def initial_order(ids: list, rank: dict, lsucc: dict, lpred: dict) -> list:
    """The layers, top first, each in depth-first order from the sources (chains stay
    together); whatever no source reaches follows in rank order."""
    layers: dict = {}
    seen = set()
    for v in ids:
        if lpred[v]:
            continue
        stack = [v]
        while stack:
            u = stack.pop()
            if u in seen:
                continue
            seen.add(u)
            layers.setdefault(rank[u], []).append(u)
            stack.extend(reversed(lsucc[u]))
    for u in list(rank):
        if u not in seen:
            layers.setdefault(rank[u], []).append(u)
    return [layers[r] for r in sorted(layers)]


def barycentre_sweeps(levels: list, lsucc: dict, lpred: dict, job: Job = NO_JOB) -> list:
    """Fewer crossings: SWEEPS passes, alternately down and up, each sorting a layer by the
    mean position of its neighbours in the layer before (the layers are sorted in place)."""
    pos = {u: i for layer in levels for i, u in enumerate(layer)}
    for sweep in range(SWEEPS):
        job.check()
        down = sweep % 2 == 0
        seq = levels[1:] if down else levels[-2::-1]
        nbrs = lpred if down else lsucc

        def bary(u):
            ns = nbrs[u]
            return sum(pos[n] for n in ns) / len(ns) if ns else pos[u]

        for layer in seq:
            layer.sort(key=bary)
            for i, u in enumerate(layer):
                pos[u] = i
    return levels


def order_layers(ids: list, rank: dict, lsucc: dict, lpred: dict, job: Job = NO_JOB) -> list:
    """The layers, top first, each ordered left to right."""
    return barycentre_sweeps(initial_order(ids, rank, lsucc, lpred), lsucc, lpred, job)


# -- phase 5: coordinates ------------------------------------------------------------------
def assign_x(levels: list, sizes: dict, lsucc: dict, lpred: dict,
             job: Job = NO_JOB) -> tuple[dict, dict]:
    """({id: x of its centre}, {id: width}): packed left to right, then PULLS passes
    (alternately down and up) pulling each towards the median of its neighbours and removing
    overlaps from the left."""
    width = {u: (sizes[u][0] if u in sizes else DUMMY_WIDTH) for layer in levels for u in layer}
    x = {}
    for layer in levels:
        cur = 0.0
        for u in layer:
            x[u] = cur + width[u] / 2
            cur += width[u] + (H_GAP if u in sizes else DUMMY_GAP)
    for it in range(PULLS):
        job.check()
        seq = levels if it % 2 == 0 else list(reversed(levels))
        for layer in seq:
            want = {}
            for u in layer:
                ns = lpred[u] + lsucc[u]
                want[u] = sorted(x[n] for n in ns)[len(ns) // 2] if ns else x[u]
            prev_right = None
            for u in layer:
                gap = H_GAP if u in sizes else DUMMY_GAP
                left = want[u] - width[u] / 2
                if prev_right is not None and left < prev_right + gap:
                    left = prev_right + gap
                x[u] = left + width[u] / 2
                prev_right = left + width[u]
    return x, width


def assign_y(levels: list, sizes: dict) -> tuple[dict, float]:
    """({id: y of its top}, the height of all layers): each layer as tall as its tallest
    item, items centred in it, V_GAP between layers."""
    y, top = {}, 0.0
    for layer in levels:
        h = max((sizes[u][1] if u in sizes else 0.0 for u in layer), default=0.0)
        for u in layer:
            y[u] = top + (h - (sizes[u][1] if u in sizes else 0.0)) / 2
        top += h + V_GAP
    return y, max(top - V_GAP, 0.0)


# -- phase 6: edge routes ------------------------------------------------------------------
def route_edges(chains: dict, back: set, x: dict, y: dict, min_x: float = 0.0) -> dict:
    """{(src, dst): bend points}: an edge's dummy points, in the direction of the original
    edge (a reversed back edge's points run upwards)."""
    routes = {}
    for (a, b), chain in chains.items():
        pts = [(x[d] - min_x, y[d]) for d in chain]
        if (b, a) in back:
            routes[(b, a)] = pts[::-1]
        else:
            routes[(a, b)] = pts
    return routes
