"""The window's Profile request in the worker, up to TensorFlow's runs: ModelTasks.profile on
the engine of an opened model (the stripped copy, the check of the inputs' declared shapes,
the copy's Graph, the safety check, the made-up inputs), TensorFlow's runs left out (the
same on both sides). Each side in a child process that opens the model once, then times
`--rounds` requests between `--input` and `--output`.

    python bench/profile_request_bench.py [--against REV] [--rounds 3] MODEL
    bench/slow_class.py -- .venv/bin/python bench/profile_request_bench.py --against REV MODEL"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


class _Stop(Exception):
    pass


def child(model: str, ins: str, outs: str, rounds: int) -> dict:
    from inspector.core.app.preview import PreviewEngine
    from inspector.core.loaders import load
    from inspector.core.overlays import profiling

    class NoTF:             # TensorFlow's runs are left out: the request stops there
        def profile_runs(self, *args, **kwargs):
            raise _Stop

    profiling.tensorflow = NoTF
    engine = PreviewEngine(load(model).graph.graph_def)
    wall, cpu = [], []
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        try:
            engine.profile([ins], [outs], {}, "random", None, 1, 1, 0, 1)
        except _Stop:
            pass
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return {"wall": wall, "cpu": cpu, "nodes": len(engine.graph_def.node)}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--against")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--input", default="input")
    p.add_argument("--output", default="stage_0/block_0/Relu")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(args.model, args.input, args.output, args.rounds)))
        return
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ab
    from scale import python_speed

    print(f"python_speed {python_speed():.2f} s; load {os.getloadavg()[0]:.1f}", flush=True)
    for label, folder in ab.sides(args.against):
        run = subprocess.run([sys.executable, os.path.abspath(__file__), args.model, "--child",
                              "--rounds", str(args.rounds), "--input", args.input,
                              "--output", args.output], cwd=folder, env=ab.env(folder),
                             capture_output=True, text=True)
        if run.returncode:
            print(f"{label}: failed: {run.stderr.strip().splitlines()[-1:]}", flush=True)
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        print(f"{os.path.basename(args.model)} ({r['nodes']:,} nodes) {label:>14}: Profile "
              f"request before TF's runs: {' '.join(f'{w:.2f}' for w in r['wall'])} s (CPU "
              f"{' '.join(f'{c:.2f}' for c in r['cpu'])}); load {os.getloadavg()[0]:.1f}",
              flush=True)


if __name__ == "__main__":
    main()
