"""The columnar Graph on degenerate graphs, against an earlier commit in the same run: a name
holding ':' early on, half the names repeated, every input dangling, many control inputs and
ports, no scopes at all (300k nodes each, with a plain scoped graph as the reference).

Run: .venv/bin/python bench/columns_degenerate.py [--against REV] [--nodes N] [--whole]
                                                  [--only NAME] [--repeat N] [--now REV]
  --against  the commit to compare with (default 3f706dc, the commit before the columns)
  --whole    nodes without padding (a file under reader_process.STREAM_ABOVE: read whole and
             re-serialized once) instead of ~130 bytes a node (streamed by the reader process)

Per graph and side (a fresh process each, the order flipping every round): load (loaders.load,
as the app and the CLI open it), scope_tree, the consumer index (first consumers() call),
op_counts, a walk of every node's inputs (code still on Node objects), problems (negative:
the load refused the graph, its Graph's problems then, load timed up to the Graph), peak RSS.
python_speed (bench/scale.py) is printed first."""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench import ab  # noqa: E402
from bench.scale import child, order, python_speed  # noqa: E402

KINDS = ("plain", "colon", "dup50", "dangling", "control", "flat")

MEASURE = """
import sys, time, json
t0 = time.perf_counter()
from inspector.core.loaders import load
from inspector.core.errors import ModelLoadError
try:
    m = load(sys.argv[1]); g = m.graph; problems = len(m.problems or [])
except ModelLoadError:      # duplicate names are refused: the Graph alone then
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph
    gd = protos.GraphDef(); gd.ParseFromString(open(sys.argv[1], "rb").read())
    g = Graph(gd); problems = -len(g.problems())
t1 = time.perf_counter()
g.scope_tree()
t2 = time.perf_counter()
g.consumers(g.nodes[len(g) // 2].name)
t3 = time.perf_counter()
g.op_counts()
t4 = time.perf_counter()
edges = sum(len(n.inputs) for n in g.nodes)
t5 = time.perf_counter()
print(json.dumps({"load": t1 - t0, "scope_tree": t2 - t1, "consumers": t3 - t2,
                  "op_counts": t4 - t3, "walk": t5 - t4, "nodes": len(g), "edges": edges,
                  "problems": problems}))
"""


def _names(kind: str, n: int) -> list:
    if kind == "flat":
        return [f"n_{i}" for i in range(n)]
    names = [f"stage_{i // 1000}/block_{i // 10 % 100}/op_{i}" for i in range(n)]
    if kind == "colon":
        names[100] = "odd:name"
    elif kind == "dup50":
        names = [names[i - i % 2] for i in range(n)]
    return names


def _inputs(kind: str, names: list, i: int) -> list:
    if i == 0:
        return []
    if kind == "dangling":
        return [f"missing_{i}", f"gone/{i}:1"]
    prev, far = names[i - 1], names[(i * 7919) % i]
    if kind == "control":
        return [f"{prev}:1", f"{far}:2", "^" + names[i // 2], "^" + names[i // 3],
                "^" + far]
    return [prev, far]


def build(kind: str, n: int, pad: bool) -> str:
    """The graph's file (cached by the generator's code and the arguments)."""
    from inspector.core.model import protos
    from inspector.core.model.protos import varint
    from tests.fixtures import cache_root

    import inspect

    key = hashlib.sha256("".join(map(inspect.getsource, (_names, _inputs, build))).encode()
                         ).hexdigest()[:12]
    folder = os.path.join(cache_root(), "scale", "degenerate", key)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{kind}_{n}{'_pad' if pad else ''}.pb")
    if os.path.exists(path):
        return path
    names, ops = _names(kind, n), ("Placeholder", "Add", "Relu", "Identity", "Conv2D")
    with open(path + ".part", "wb") as fh:
        for i in range(n):
            nd = protos.node_def_pb2.NodeDef(name=names[i], op=ops[i % 5],
                                             input=_inputs(kind, names, i))
            nd.attr["T"].type = 1
            if pad:
                nd.attr["_note"].s = b"x" * 40
            data = nd.SerializeToString()
            fh.write(b"\x0a" + varint(len(data)) + data)
    os.replace(path + ".part", path)
    return path


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--against", default="3f706dc")
    p.add_argument("--nodes", type=int, default=300_000)
    p.add_argument("--whole", action="store_true")
    p.add_argument("--only", action="append")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--now", help="the first side is this commit's package, not this tree's")
    args = p.parse_args()
    print(f"python_speed {python_speed():.2f} s", flush=True)
    sides = ab.sides(args.against, args.now)
    for kind in args.only or KINDS:
        path = build(kind, args.nodes, not args.whole)
        rows: dict = {}
        for s in order(len(sides), args.repeat):
            label, folder = sides[s]
            out, wall, rss = child(MEASURE, path, folder=folder)
            out["rss"] = rss
            old = rows.setdefault(label, out)
            for key, value in out.items():
                old[key] = min(old[key], value)
        size = os.path.getsize(path) / 2 ** 20
        print(f"\n{kind} ({args.nodes} nodes, {size:.0f} MB)")
        keys = ("load", "scope_tree", "consumers", "op_counts", "walk", "rss")
        print(f"  {'':14}" + "".join(f"{k:>11}" for k in keys) + "   problems")
        for label, row in rows.items():
            print(f"  {label:14}" + "".join(
                f"{row[k]:>10.0f}M" if k == "rss" else f"{row[k]:>10.3f}s" for k in keys)
                + f"   {row['problems']}")
        now, then = rows[sides[0][0]], rows[sides[-1][0]]
        print(f"  {'ratio':14}" + "".join(f"{now[k] / max(then[k], 1e-6):>11.2f}" for k in keys),
              flush=True)


if __name__ == "__main__":
    main()
