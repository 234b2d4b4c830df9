"""Load benchmark: time and peak memory to open a ~30k-node, ~100 MB GraphDef, next to TF.

Run: .venv/bin/python bench/load_bench.py [--nodes 30000] [--megabytes 100]
Each measurement runs in a fresh child process so peak RSS is its own. Compare the ratios
printed at the end; absolute times vary with the (shared, noisy) machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
CACHE = os.path.join(ROOT, "bench", ".cache")


def make_big_graph(path: str, nodes: int, megabytes: int) -> None:
    """A realistic-looking conv net: blocks of Conv2D/BiasAdd/Relu with float weights."""
    import numpy as np

    from inspector.core.model import protos

    g = protos.GraphDef()
    x = g.node.add(name="input", op="Placeholder")
    x.attr["dtype"].type = 1
    for d in (1, 224, 224, 3):
        x.attr["shape"].shape.dim.add(size=d)
    per_block = 6
    blocks = max(1, (nodes - 1) // per_block)
    weight_bytes = megabytes * 1024 * 1024 // blocks
    count = max(1, weight_bytes // 4)
    rng = np.random.default_rng(0)
    prev = "input"
    for b in range(blocks):
        scope = f"stage_{b // 50}/block_{b % 50}"
        w = g.node.add(name=f"{scope}/weights", op="Const")
        w.attr["dtype"].type = 1
        t = w.attr["value"].tensor
        t.dtype = 1
        t.tensor_shape.dim.add(size=count)
        t.tensor_content = rng.standard_normal(count, dtype=np.float32).tobytes()
        r = g.node.add(name=f"{scope}/read", op="Identity", input=[w.name])
        r.attr["T"].type = 1
        c = g.node.add(name=f"{scope}/Conv2D", op="Conv2D", input=[prev, r.name])
        c.attr["T"].type = 1
        c.attr["padding"].s = b"SAME"
        c.attr["strides"].list.i.extend([1, 1, 1, 1])
        bias = g.node.add(name=f"{scope}/bias", op="Const")
        bias.attr["dtype"].type = 1
        bias.attr["value"].tensor.dtype = 1
        bias.attr["value"].tensor.tensor_shape.dim.add(size=1)
        bias.attr["value"].tensor.float_val.append(0.5)
        a = g.node.add(name=f"{scope}/BiasAdd", op="BiasAdd", input=[c.name, bias.name])
        a.attr["T"].type = 1
        relu = g.node.add(name=f"{scope}/Relu", op="Relu", input=[a.name])
        relu.attr["T"].type = 1
        prev = relu.name
    g.node.add(name="output", op="Softmax", input=[prev]).attr["T"].type = 1
    with open(path, "wb") as fh:
        fh.write(g.SerializeToString())


CHILD_OURS = """
import resource, sys, time, json
sys.path.insert(0, {root!r})
from inspector.core.loaders import load
from inspector.core.analysis.summary import summarize
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter(); m = load({path!r}); t1 = time.perf_counter()
s = summarize(m.graph); t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(dict(load=t1 - t0, summary=t2 - t1, nodes=len(m.graph),
                      peak_mb=(peak - base) / 1024, tf="tensorflow" in sys.modules)))
"""

CHILD_TF = """
import os, resource, sys, time, json
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
t0 = time.perf_counter(); import tensorflow as tf; t1 = time.perf_counter()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
data = open({path!r}, "rb").read()
t2 = time.perf_counter(); g = tf.compat.v1.GraphDef.FromString(data); t3 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(dict(import_tf=t1 - t0, parse=t3 - t2, nodes=len(g.node),
                      peak_mb=(peak - base) / 1024)))
"""


def child(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def best_of(code: str, runs: int) -> dict:
    results = [child(code) for _ in range(runs)]
    return min(results, key=lambda r: r.get("load", r.get("parse")))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=30000)
    ap.add_argument("--megabytes", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, f"big_{args.nodes}_{args.megabytes}.pb")
    if not os.path.exists(path):
        make_big_graph(path, args.nodes, args.megabytes)
    size_mb = os.path.getsize(path) / 2 ** 20
    ours = best_of(CHILD_OURS.format(root=ROOT, path=path), args.runs)
    theirs = best_of(CHILD_TF.format(path=path), args.runs)
    print(f"graph: {ours['nodes']} nodes, {size_mb:.1f} MB ({path})")
    print(f"ours : load {ours['load']:.3f} s, summary {ours['summary']:.3f} s, "
          f"peak +{ours['peak_mb']:.0f} MB ({ours['peak_mb'] / size_mb:.2f}x file), "
          f"TensorFlow imported: {ours['tf']}")
    print(f"TF   : import {theirs['import_tf']:.2f} s, parse {theirs['parse']:.3f} s, "
          f"peak +{theirs['peak_mb']:.0f} MB")
    print(f"ratio: our full load / TF parse alone = {ours['load'] / theirs['parse']:.2f}; "
          f"our load / (TF import + parse) = "
          f"{ours['load'] / (theirs['import_tf'] + theirs['parse']):.2f}")


if __name__ == "__main__":
    t = time.perf_counter()
    main()
    print(f"(bench took {time.perf_counter() - t:.0f} s)")
