"""Layered layout: ours against grandalf's, igraph's and fast-sugiyama's (rust-sugiyama, native)
Sugiyama on the same levels.

python bench/layout_bench.py [--all]   (needs `pip install grandalf igraph fast-sugiyama`; they
are not dependencies: a missing one is skipped; --all runs fast-sugiyama past 5,000 nodes too:
736 s on the random DAG of 10,000 on a 2-core machine)

Levels: the largest scope of MobileNetV2 and of Inception v3 when expanded, and random layered
DAGs of 1,000 and 3,000 nodes. Prints seconds and edge crossings between adjacent layers
(fewer is more readable), with ratios to ours measured in the same run.
"""

from __future__ import annotations

import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.fixtures import fixture_dir  # noqa: E402


def crossings(positions: dict, edges: list) -> int:
    """Crossings between edges joining the same two rows of y (layer by y coordinate)."""
    by_rows: dict = {}
    for a, b in edges:
        if a in positions and b in positions:
            (xa, ya), (xb, yb) = positions[a], positions[b]
            if ya != yb:
                key = (min(ya, yb), max(ya, yb))
                by_rows.setdefault(key, []).append((xa, xb) if ya < yb else (xb, xa))
    total = 0
    for segs in by_rows.values():
        segs.sort()
        tops = [s[1] for s in segs]
        for i in range(len(tops)):  # inversions: small levels only, quadratic is fine
            for j in range(i + 1, min(len(tops), i + 400)):
                total += tops[j] < tops[i]
    return total


def ours(ids, sizes, edges):
    from inspector.core.view.layout import layered_layout

    return layered_layout(ids, sizes, edges).positions


def with_grandalf(ids, sizes, edges):
    from grandalf.graphs import Edge, Graph, Vertex
    from grandalf.layouts import SugiyamaLayout

    class View:
        def __init__(self, w, h):
            self.w, self.h, self.xy = w, h, (0, 0)

    vs = {i: Vertex(i) for i in ids}
    for i, v in vs.items():
        v.view = View(*sizes[i])
    graph = Graph(list(vs.values()), [Edge(vs[a], vs[b]) for a, b in edges if a != b])
    out = {}
    for component in graph.C:
        sug = SugiyamaLayout(component)
        sug.init_all()
        sug.draw(3)
        for v in component.sV:
            out[v.data] = v.view.xy
    return out


def with_igraph(ids, sizes, edges):
    import igraph

    index = {n: k for k, n in enumerate(ids)}
    g = igraph.Graph(n=len(ids), edges=[(index[a], index[b]) for a, b in edges if a != b],
                     directed=True)
    layout = g.layout_sugiyama(hgap=1, vgap=1)
    width = max(w for w, _ in sizes.values()) + 24
    return {n: (layout[k][0] * width, layout[k][1] * 80) for n, k in index.items()}


def with_fast_sugiyama(ids, sizes, edges):
    """rust-sugiyama's layout: one spacing for every node (it knows no sizes), so the widest
    item sets it; nodes without edges are not placed (they add no crossing)."""
    import threading

    from fast_sugiyama import from_edges

    spacing = max(w for w, _ in sizes.values()) + 24
    out: dict = {}

    def run():   # the native solver recurses: a big graph needs a big thread stack
        pos = from_edges([(a, b) for a, b in edges if a != b],
                         vertex_spacing=spacing).dot_layout().to_dict()
        out.update((k, v) for k, v in pos.items() if k in sizes)   # no dummy points

    old = threading.stack_size(512 * 2 ** 20)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old)
    return out


def width_of(pos: dict, sizes: dict) -> float:
    """The picture's width: the rightmost right edge less the leftmost left edge."""
    return max(x + sizes[i][0] for i, (x, _) in pos.items()) - min(x for x, _ in pos.values())


def level_of(path: str):
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    view = ViewModel(load(path).graph)
    scope = max((s for s in view.root.walk() if s.path), key=lambda s: s.node_count())
    view.scene({"", scope.path})
    inside = [p for p in view.hierarchy.scopes if p.startswith(scope.path)]
    items = view.scene({"", *inside}).items
    ids = [i for i in items if not i.endswith("/")]
    sizes = {i: (items[i].w, items[i].h) for i in ids}
    edges = [(a, b) for a, _, b, c in view.hierarchy.edges if not c and a in sizes and b in sizes]
    return f"{os.path.basename(path)} ({scope.path})", ids, sizes, edges


def random_dag(n: int, seed: int = 3):
    rng = random.Random(seed)
    ids = [f"n{i}" for i in range(n)]
    edges = [(ids[rng.randrange(max(0, i - 40), i)], ids[i]) for i in range(1, n)]
    edges += [(ids[rng.randrange(0, i)], ids[i]) for i in range(1, n, 3)]
    return f"random DAG {n}", ids, {i: (90.0, 38.0) for i in ids}, edges


def main() -> None:
    levels = [level_of(os.path.join(fixture_dir(), "mobilenet_v2.pb"))]
    big = os.path.join(ROOT, "bench", ".cache", "inception_v3_jpeg.pb")
    if os.path.exists(big):
        levels.append(level_of(big))
    levels += [random_dag(1000), random_dag(3000), random_dag(10000)]
    from bench.scale import python_speed

    print(f"this machine's Python speed: a loop of 10M additions takes {python_speed():.2f} s")
    print(f"{'level':<48} {'nodes':>6} {'layout':>9} {'seconds':>9} {'x ours':>7} "
          f"{'crossings':>10} {'x ours':>7} {'width':>8}")
    for label, ids, sizes, edges in levels:
        base_t = base_c = None
        for name, fn in (("ours", ours), ("grandalf", with_grandalf), ("igraph", with_igraph),
                         ("fast-sug.", with_fast_sugiyama)):
            if name == "grandalf" and len(ids) > 1500 or \
                    name == "fast-sug." and len(ids) > 5000 and "--all" not in sys.argv:
                print(f"{label[:48]:<48} {len(ids):>6} {name:>9}   (skipped: over 10 min; "
                      "--all runs it)")
                continue
            try:
                start = time.perf_counter()
                pos = fn(ids, sizes, edges)
                took = time.perf_counter() - start
            except ImportError as exc:
                print(f"{name}: not installed ({exc})")
                continue
            cross = crossings(pos, edges)
            base_t, base_c = (took, cross) if name == "ours" else (base_t, base_c)
            print(f"{label[:48]:<48} {len(ids):>6} {name:>9} {took:>9.3f} "
                  f"{took / base_t:>7.2f} {cross:>10} {cross / max(base_c, 1):>7.2f} "
                  f"{width_of(pos, sizes):>8.0f}")


if __name__ == "__main__":
    main()
