"""Layered (Sugiyama-style) layout of one level of the graph: ranks, crossing reduction,
coordinates and edge routes through dummy points. Pure Python, linear-ish in practice."""

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


def _break_cycles(ids, succ):
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


def _ranks(ids, succ, pred):
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


def layered_layout(ids: list, sizes: dict, edges: list, job: Job = NO_JOB) -> LayoutResult:
    """Top-to-bottom layout of `ids` (sizes: id -> (w, h)) joined by `edges` [(src, dst)]."""
    if not ids:
        return LayoutResult({}, 0.0, 0.0)
    idset = set(ids)
    pairs = list(dict.fromkeys((a, b) for a, b in edges if a in idset and b in idset and a != b))
    succ = {v: [] for v in ids}
    for a, b in pairs:
        succ[a].append(b)
    back = _break_cycles(ids, succ)
    dag = [((b, a) if (a, b) in back else (a, b)) for a, b in pairs]
    dag = list(dict.fromkeys(dag))
    succ, pred = {v: [] for v in ids}, {v: [] for v in ids}
    for a, b in dag:
        succ[a].append(b)
        pred[b].append(a)
    job.check()
    rank = _ranks(ids, succ, pred)
    # dummy nodes for long edges
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
    job.check()
    layers: dict = {}
    seen = set()
    for v in ids:  # initial order: depth-first from sources keeps chains together
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
    levels = [layers[r] for r in sorted(layers)]
    pos = {u: i for layer in levels for i, u in enumerate(layer)}
    for sweep in range(4):
        job.check()
        down = sweep % 2 == 0
        seq = levels[1:] if down else levels[-2::-1]
        for layer in seq:
            nbrs = lpred if down else lsucc

            def bary(u, nbrs=nbrs):
                ns = nbrs[u]
                return sum(pos[n] for n in ns) / len(ns) if ns else pos[u]

            layer.sort(key=bary)
            for i, u in enumerate(layer):
                pos[u] = i
    width = {u: (sizes[u][0] if u in sizes else 2.0) for u in rank}
    height = {u: (sizes[u][1] if u in sizes else 0.0) for u in rank}
    x = {}
    for layer in levels:
        cur = 0.0
        for u in layer:
            x[u] = cur + width[u] / 2
            cur += width[u] + (H_GAP if u in sizes else 8.0)
    for it in range(6):  # pull towards neighbours, then remove overlaps left to right
        job.check()
        seq = levels if it % 2 == 0 else list(reversed(levels))
        for layer in seq:
            want = {}
            for u in layer:
                ns = lpred[u] + lsucc[u]
                want[u] = sorted(x[n] for n in ns)[len(ns) // 2] if ns else x[u]
            prev_right = None
            for u in layer:
                gap = H_GAP if u in sizes else 8.0
                left = want[u] - width[u] / 2
                if prev_right is not None and left < prev_right + gap:
                    left = prev_right + gap
                x[u] = left + width[u] / 2
                prev_right = left + width[u]
    min_x = min(x[u] - width[u] / 2 for u in x)
    y, top = {}, 0.0
    for layer in levels:
        h = max((height[u] for u in layer), default=0.0)
        for u in layer:
            y[u] = top + (h - height[u]) / 2
        top += h + V_GAP
    positions = {v: (x[v] - width[v] / 2 - min_x, y[v]) for v in ids}
    total_w = max(x[u] + width[u] / 2 for u in x) - min_x
    routes = {}
    for (a, b), chain in chains.items():
        pts = [(x[d] - min_x, y[d]) for d in chain]
        key = (b, a) if (b, a) in back else (a, b)
        routes[key] = pts[::-1] if (b, a) in back else pts
    return LayoutResult(positions, total_w, max(top - V_GAP, 0.0), routes)
