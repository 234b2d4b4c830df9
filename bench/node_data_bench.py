"""Model Explorer node data at scale: a synthetic graph of N nodes in scopes, a node-data
file with a value per node; times reading and matching (done in a task), painting the
visible items (the GUI thread's share: it must stay far under 100 ms) and writing.

    python bench/node_data_bench.py [N]   (default 300000)"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.scale import python_speed  # noqa: E402
from inspector.core.app import node_data_io as io  # noqa: E402
from inspector.core.model import protos  # noqa: E402
from inspector.core.model.graph import Graph  # noqa: E402
from inspector.core.overlays import node_data, registry  # noqa: E402


def main(n: int) -> None:
    print(f"this machine's Python speed: a loop of 10M additions takes {python_speed():.2f} s "
          "(0.88 s on a quiet 2-core machine of the slow class)")
    gd = protos.GraphDef()
    for i in range(n):
        gd.node.add(name=f"block_{i // 1000}/unit_{(i // 50) % 20}/op_{i}", op="Relu")
    graph = Graph(gd, "synthetic")
    doc = {"g": {"results": {f"block_{i // 1000}/unit_{(i // 50) % 20}/op_{i}":
                             {"value": float(i % 977)} for i in range(n)}}}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "n.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        size = os.path.getsize(path) / 2**20
        t = time.perf_counter()
        placed = io.read_onto(graph, path)
        read_s = time.perf_counter() - t
        print(f"{n:,} entries, {size:.1f} MB: read, checked and matched in {read_s:.2f} s "
              f"(a task; {len(placed.scopes):,} scope colours counted)")

        class State:
            overlay = type("O", (), {"node_data": placed, "mode": "node-data"})()

        scopes = [f"block_{b}/" for b in range(n // 1000)]
        nodes = list(placed.values)[:2000]
        items = dict.fromkeys(scopes + nodes)
        t = time.perf_counter()
        heat, _ = registry.get("node-data").paint(State, items, {})
        paint_ms = 1e3 * (time.perf_counter() - t)
        print(f"painting {len(items):,} visible items: {paint_ms:.1f} ms on the GUI thread")
        t = time.perf_counter()
        text = node_data.dumps(node_data.build(placed.values, placed.colours, "g", "x"))
        print(f"writing it back: {time.perf_counter() - t:.2f} s ({len(text) / 2**20:.1f} MB, "
              "a task)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300_000)
