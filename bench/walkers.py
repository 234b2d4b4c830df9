"""The whole-graph walks behind panels, menus and CLI commands, on big graphs: each entry
point timed on a freshly opened graph (its first call: what the user waits for after opening
the model; the graph's Node views not made yet), in a process of its own, this tree beside
commit REV (bench/ab.py) in the same run, interleaved, with the ratio now / before of the
wall time and of the CPU time (the steadier one on a loaded machine); best of --repeat runs.

    python bench/walkers.py [--against REV[,REV2]] [--now REV] [--only NAME] [--sizes 100000,300000]
                            [--repeat N]

Graphs: tests/fixtures/scale_models.blocks_graph(N) (stage/block name scopes, convolutions
with their weights). Every row is printed with the python_speed measured just before it."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench import ab  # noqa: E402
from bench.scale import order, python_speed  # noqa: E402

# name: (setup, the timed call); `model`, `graph`, `path`, `ins`, `outs`, `tmp` are set
ENTRIES = {
    "sizes by scope": ("from inspector.core.app import sizing",
                       "sizing.measure(graph, 'scope', os.path.getsize(path))"),
    "sizes by op": ("from inspector.core.app import sizing", "sizing.measure(graph, 'op')"),
    "sizes by dtype": ("from inspector.core.app import sizing",
                       "sizing.measure(graph, 'dtype')"),
    "duplicates": ("from inspector.core.app import sizing", "sizing.duplicates(graph)"),
    "me ids": ("from inspector.core.formats import me_ids", "me_ids.for_model(model)"),
    "node data import": (
        "from inspector.core.app import node_data_io\n"
        "doc = {'main': {'results': {n.name: {'value': float(k % 97)} for k, n in "
        "enumerate(graph.structure.node) if k % 3 == 0}}}\n"
        "doc['main']['results'][graph.structure.node[0].name.rpartition('/')[0] + '/'] = "
        "{'value': 1.0}\n"
        "file = os.path.join(tmp, 'nd.json'); json.dump(doc, open(file, 'w'))",
        "node_data_io.read_onto(graph, file, model)"),
    "dot (styled)": ("from inspector.core.app import exports", "exports.dot_text(graph)"),
    "dot (TF style)": ("from inspector.core.app import exports",
                       "exports.dot_text(graph, tf_style=True)"),
    "compat": ("from inspector.core.app import tflite_check",
               "tflite_check.check(graph, ins, outs)"),
    "flops (own shapes)": ("from inspector.core.analysis.graph_flops import graph_flops",
                           "graph_flops(graph, allow_tf=False)"),
    "labels": ("from inspector.core.loaders.labels import find_labels",
               "find_labels(path, graph)"),
    "sensitivity": ("from inspector.core.mobile.sensitivity import layer_sensitivity",
                    "layer_sensitivity(graph)"),
    "front end": ("from inspector.core.demo.front_end import detect", "detect(graph, ins)"),
}

CHILD = """
import sys, os, json, time, gc, tempfile
sys.setswitchinterval(0.0001)     # as the app
import numpy  # noqa: F401  (the window has it by then)
from inspector.core.app.opening import open_model
path = sys.argv[1]
model = open_model(path)
graph = model.graph
gc.collect(); gc.freeze()         # as the app, once a graph is open
protos = graph.structure.node
ins = [p.name for p in protos if p.op == 'Placeholder']
outs = [protos[len(protos) - 1].name]
tmp = tempfile.mkdtemp()
exec(sys.argv[2])
t, c = time.perf_counter(), time.process_time()
exec(sys.argv[3])
first, cpu = time.perf_counter() - t, time.process_time() - c
t = time.perf_counter()
exec(sys.argv[3])
again = time.perf_counter() - t
print(json.dumps({"first": first, "cpu": cpu, "again": again, "nodes": len(protos)}))
"""


def child(folder: str, path: str, entry: str) -> dict:
    setup, call = ENTRIES[entry]
    proc = subprocess.run([sys.executable, "-c", CHILD, path, setup, call], cwd=folder,
                          env=dict(ab.env(folder), QT_QPA_PLATFORM="offscreen",
                                   TF_CPP_MIN_LOG_LEVEL="3"),
                          capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": last[:120]}
    return json.loads(lines[-1])


def run(against: str | None, only: str | None, sizes: list, repeat: int,
        now: str | None = None) -> None:
    from tests.fixtures import scale_models as sm

    print(f"python_speed: a loop of 10M additions takes {python_speed():.2f} s "
          "(0.88 s on a quiet slow-class machine)")
    revs = against.split(",") if against else []
    sides = ab.sides(revs[0] if revs else None, now) + [(f"at {r}", ab.tree(r))
                                                         for r in revs[1:]]
    for n in sizes:
        path = sm.blocks_graph(n)
        print(f"\nblocks {n:,} ({os.path.getsize(path) / 2**20:.0f} MB)")
        for entry in ENTRIES:
            if only and only not in entry:
                continue
            speed = python_speed()
            got: list = [None] * len(sides)
            for k in order(len(sides), repeat):
                row = child(sides[k][1], path, entry)
                if got[k] is None or "error" in got[k]:
                    got[k] = row
                elif "first" in row:      # the best of each figure
                    got[k] = {key: min(v, got[k][key]) for key, v in row.items()}
            print(f"  {entry:18s} " + "  ".join(_cell(label, r) for (label, _), r in
                                                zip(sides, got)) +
                  f"  (python_speed {speed:.2f} s)", flush=True)
            for (label, _), before in zip(sides[1:], got[1:]):
                if "first" in got[0] and "first" in before:
                    print(f"  {'':18s} ratio to {label[3:]}: wall "
                          f"{got[0]['first'] / before['first']:.2f}, cpu "
                          f"{got[0]['cpu'] / max(before['cpu'], 1e-6):.2f}", flush=True)


def _cell(label: str, row: dict) -> str:
    if "error" in row:
        return f"{label}: failed ({row['error']})"
    return f"{label}: {row['first']:6.3f} s (cpu {row['cpu']:6.3f}, again {row['again']:6.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="also time commit REV's inspector package (REV,REV2: "
                    "each)")
    ap.add_argument("--only", help="entries whose name holds this")
    ap.add_argument("--sizes", default="100000,300000")
    ap.add_argument("--repeat", type=int, default=1, help="runs a side (the best is kept)")
    ap.add_argument("--now", help="the first side is commit REV's package, not this tree's")
    args = ap.parse_args()
    t = time.perf_counter()
    run(args.against, args.only, [int(s) for s in args.sizes.split(",")], args.repeat,
        args.now)
    print(f"\n({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
