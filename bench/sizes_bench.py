"""The Sizes panel's work on a big model, this tree against an earlier commit in the same run:
the task's measure (the model opened as the window opens it: a big graph's NodeDefs kept as
bytes in the file) and the treemap's layout the GUI thread makes from its tree (`nested`, at
the panel's size on a 1366x768 window). A side whose tree holds a group of more than
--skip-layout-over children does not lay it out (a flat 1M-node model by scope took minutes
there); it says so.

    python bench/sizes_bench.py [--against REV] [--by scope,op] [--rounds 1] MODEL...
    bench/slow_class.py -- .venv/bin/python bench/sizes_bench.py --against REV MODEL"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def child(path: str, by: str, skip_over: int) -> dict:
    import inspect

    from inspector.core.app import sizing
    from inspector.core.app.opening import open_model
    from inspector.core.runtime import front_end, gc_policy
    from inspector.core.view.treemap import nested

    front_end.WINDOW = True          # opened as the window does (node_store above 32 MB)
    with gc_policy.paused():
        model = open_model(path)
    gc_policy.keep_out_of_collections()
    graph = model.graph
    new = "keep" in inspect.signature(sizing.measure).parameters
    cpu, t = time.process_time(), time.perf_counter()
    with gc_policy.paused():
        measured = sizing.measure(graph, by, model.file_size, keep=sizing.KEEP) if new \
            else sizing.measure(graph, by, model.file_size)
    out = {"measure_s": time.perf_counter() - t, "measure_cpu_s": time.process_time() - cpu,
           "by": getattr(measured, "by", by), "structure": type(graph.structure).__name__}
    widest, stack = 0, [measured.root]
    while stack:
        g = stack.pop()
        widest = max(widest, len(g.children))
        stack.extend(c for c in g.children.values() if c.children)
    out["widest_group"] = widest
    if widest > skip_over:
        out["layout_s"] = None
        return out
    by_made = out["by"]
    from inspector.core.view import treemap

    fold = {"fold": treemap.LABELLED} if hasattr(treemap, "LABELLED") else {}   # as the panel
    t = time.perf_counter()
    tiles = nested(measured.root, 0, 20, 675, 150, depth=3 if by_made == "scope" else 1,
                   scopes=by_made == "scope", **fold)
    out["layout_s"], out["tiles"] = time.perf_counter() - t, len(tiles)
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="*")
    p.add_argument("--against")
    p.add_argument("--by", default="scope,op")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--skip-layout-over", type=int, default=50_000)
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], int(args.child[2]))))
        return
    import ab       # (after the child's imports: scale puts this tree first on sys.path)
    from scale import python_speed

    print(f"python_speed {python_speed():.2f} s; load {os.getloadavg()[0]:.1f}", flush=True)
    for model in args.models:
        for by in args.by.split(","):
            for _ in range(args.rounds):
                for label, folder in ab.sides(args.against):
                    run = subprocess.run(
                        [sys.executable, os.path.abspath(__file__), "--child", model, by,
                         str(args.skip_layout_over)], cwd=folder, env=ab.env(folder),
                        capture_output=True, text=True)
                    if run.returncode:
                        print(f"{label}: failed: {run.stderr.strip().splitlines()[-1:]}")
                        continue
                    r = json.loads(run.stdout.strip().splitlines()[-1])
                    layout = "not laid out (a group of {:,} children)".format(
                        r["widest_group"]) if r["layout_s"] is None else \
                        f"layout {r['layout_s'] * 1000:.0f} ms, {r['tiles']:,} tiles"
                    print(f"{os.path.basename(model)} by {by} {label:>14}: measure "
                          f"{r['measure_s']:.2f} s (CPU {r['measure_cpu_s']:.2f}) -> by "
                          f"{r['by']}, widest group {r['widest_group']:,}; {layout} "
                          f"[{r['structure']}]", flush=True)


if __name__ == "__main__":
    main()
