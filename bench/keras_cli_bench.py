"""The command line on normal Keras files: wall time and CPU (the command's and every process
it waited for: the Keras child, tf/keras_child) per command, this tree against an earlier
commit's `inspector` in the same run, rounds interleaved with the order flipping each round
(bench/ab.py). Run it on the slow class:

  bench/slow_class.py -- .venv/bin/python bench/keras_cli_bench.py --against REV
      [--rounds 3] [--commands summarize,flops] [MODEL.keras ...]   (default: tiny.keras)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import ab  # noqa: E402

TINY = os.path.join(ROOT, "tests", "core", "data", "tiny.keras")


def run_once(command: str, model: str, env: dict, cwd: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and the children it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "inspector", command, model], env=env,
                          cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{command} {model}: exit {proc.returncode}: {proc.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="*", default=[TINY])
    p.add_argument("--against", help="also commit REV's inspector, interleaved")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--commands", default="summarize,flops")
    args = p.parse_args()
    sides = ab.sides(args.against)
    envs = [dict(ab.env(folder), TF_CPP_MIN_LOG_LEVEL="3") for _, folder in sides]
    models = [os.path.abspath(m) for m in args.models]
    commands = args.commands.split(",")
    times: dict = {}
    for command in commands:        # warm the page cache and the bytecode once
        for (label, folder), env in zip(sides, envs):
            run_once(command, models[0], env, folder)
    for r in range(args.rounds):
        order = list(zip(sides, envs))
        if r % 2:
            order.reverse()
        for model in models:
            for command in commands:
                for (label, folder), env in order:
                    wall, cpu = run_once(command, model, env, folder)
                    times.setdefault((model, command, label), []).append((wall, cpu))
                    print(f"round {r + 1} {command:<10} {os.path.basename(model):<16} "
                          f"{label:<16} wall {wall:6.2f} s  cpu {cpu:6.2f} s", flush=True)
    print(f"\nmedians of {args.rounds} rounds (wall / CPU incl. children, s)")
    for model in models:
        for command in commands:
            row = []
            for label, _ in sides:
                got = times[(model, command, label)]
                row.append((statistics.median(w for w, _ in got),
                            statistics.median(c for _, c in got)))
            text = "  ".join(f"{label}: {w:.2f} / {c:.2f}"
                             for (label, _), (w, c) in zip(sides, row))
            ratio = f"  ratio wall {row[0][0] / row[1][0]:.2f} cpu {row[0][1] / row[1][1]:.2f}" \
                if len(row) == 2 else ""
            print(f"{command:<10} {os.path.basename(model):<16} {text}{ratio}")


if __name__ == "__main__":
    main()
