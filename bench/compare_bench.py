"""Diffing two models (issue 35): match and diff 10k- and 50k-node pairs without TensorFlow
(--big adds 300k), against parsing the two files in the same run.

Run: .venv/bin/python bench/compare_bench.py [--big]
Pairs: (same) the graph and itself, (weights) the same structure with every weight different,
(renamed) every node renamed by a random bijection. Targets: 10k under 2 s, 50k under 10 s on
a 2-core machine whose Python loop takes ~0.88 s; the figures are also scaled to that speed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from fixtures.scale_models import blocks_graph  # noqa: E402
from scale import python_speed  # noqa: E402

from inspector.core.compare.diff import diff_graphs  # noqa: E402
from inspector.core.loaders import load  # noqa: E402
from inspector.core.model import protos  # noqa: E402
from inspector.core.model.graph import Graph  # noqa: E402

SLOW_CLASS = 0.88


def renamed(graph: Graph) -> Graph:
    names = [n.name for n in graph]
    new = [f"n{k}" for k in range(len(names))]
    random.Random(5).shuffle(new)
    mapping = dict(zip(names, new))
    gd = protos.GraphDef()
    gd.CopyFrom(graph.graph_def)
    for node in gd.node:
        node.name = mapping[node.name]
        for i, text in enumerate(node.input):
            control = text.startswith("^")
            name, sep, port = (text[1:] if control else text).partition(":")
            node.input[i] = ("^" if control else "") + mapping[name] + sep + port
    return Graph(gd)


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big", action="store_true", help="also 300k nodes")
    args = parser.parse_args()
    speed = python_speed()
    print(f"this machine's Python speed: a loop of 10M additions takes {speed:.2f} s "
          f"(the slow machine class: {SLOW_CLASS} s; 'slow' columns scale to it)")
    scale = SLOW_CLASS / speed
    for nodes, budget in ((10_000, 2.0), (50_000, 10.0)) + (((300_000, None),) if args.big
                                                            else ()):
        path_a, path_b = blocks_graph(nodes, 0), blocks_graph(nodes, 1)
        (ga, gb), parse = timed(lambda: (load(path_a).graph, load(path_b).graph))
        other = renamed(ga)
        print(f"\n{len(ga):,} nodes; parsing both files (reference): {parse:.2f} s")
        for label, b in (("same", Graph(ga.graph_def)), ("weights", gb), ("renamed", other)):
            d, seconds = timed(lambda: diff_graphs(ga, b))
            verdict = "" if budget is None else (
                "  within budget" if seconds * scale < budget else
                f"  OVER the {budget:.0f} s budget on the slow class")
            print(f"  {label:8s} {seconds:6.2f} s  (slow class ~{seconds * scale:5.2f} s; "
                  f"{seconds / parse:4.1f}x the parse)  {d.counts()}{verdict}")


if __name__ == "__main__":
    main()
