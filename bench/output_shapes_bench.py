"""`summarize`'s walk of the likely outputs' shapes (analysis.output_shapes, the cone walk on
the columns above 20k nodes): each side's `summarize MODEL` run in a child process, its walk
(fill_output_shapes) timed inside it, and the whole process's wall time; sides alternate.

    python bench/output_shapes_bench.py [--against REV] [--rounds 3] MODEL
    bench/slow_class.py -- .venv/bin/python bench/output_shapes_bench.py --against REV MODEL"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import time


def child(model: str) -> dict:
    start = time.perf_counter()
    from inspector.core.analysis import output_shapes
    from inspector.core.app import opening

    took = {}
    real = output_shapes.fill_output_shapes

    def timed(*args, **kwargs):
        t, c = time.perf_counter(), time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            took["wall"], took["cpu"] = time.perf_counter() - t, time.process_time() - c

    opening.fill_output_shapes = timed
    from inspector.cli.main import main

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        main(["summarize", model])
    shape = [ln.strip() for ln in text.getvalue().splitlines() if "[" in ln][:3]
    return {**took, "process": time.perf_counter() - start, "said": shape}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--against")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(args.model)))
        return
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ab
    from scale import python_speed

    print(f"python_speed {python_speed():.2f} s; load {os.getloadavg()[0]:.1f}", flush=True)
    sides = ab.sides(args.against)
    seen: dict = {label: [] for label, _ in sides}
    for r in range(args.rounds):
        for label, folder in (sides if r % 2 == 0 else sides[::-1]):
            run = subprocess.run([sys.executable, os.path.abspath(__file__), args.model,
                                  "--child"], cwd=folder, env=ab.env(folder),
                                 capture_output=True, text=True)
            if run.returncode:
                print(f"{label}: failed: {run.stderr.strip().splitlines()[-1:]}", flush=True)
                continue
            got = json.loads(run.stdout.strip().splitlines()[-1])
            seen[label].append(got)
            print(f"{os.path.basename(args.model)} {label:>14}: walk {got['wall']:.2f} s "
                  f"(CPU {got['cpu']:.2f}), summarize process {got['process']:.2f} s; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
    for label, runs in seen.items():
        if runs:
            walls = sorted(g["wall"] for g in runs)
            cpus = sorted(g["cpu"] for g in runs)
            print(f"{label:>14}: walk median {walls[len(walls) // 2]:.2f} s, CPU median "
                  f"{cpus[len(cpus) // 2]:.2f} s; says {runs[0]['said']}")


if __name__ == "__main__":
    main()
