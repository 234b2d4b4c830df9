"""Issue 38.16's budget on the slow machine class: a pure-Python pipeline (strip_unused_nodes +
remove_nodes on the ~2.2k-node, ~96 MB Inception v3 graph of transform_bench.py) through the
command line, as whole processes, must finish under 1 s and never import TensorFlow.

Prints this machine's Python speed first, then runs the command on an emulated machine of the
slow class (bench/slow_class.py: a CPU cgroup calibrated until the Python loop takes 0.88 s;
needs root) and gives the verdict against the budget. Where the cgroup cannot be made, says
why and gives the figure measured here scaled by the Python speeds instead (an estimate).

Run: sudo .venv/bin/python bench/pure_slow_bench.py [--runs N] [--one-cpu 1 | --per-thread]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
from pure_transform_bench import INPUTS, OURS, OUTPUTS, env, whole_process  # noqa: E402
from pure_transform_bench import PIPELINE as PURE  # noqa: E402
from scale import python_speed  # noqa: E402
from transform_bench import CACHE, build  # noqa: E402

SLOW_CLASS = 0.88     # seconds for python_speed() on the slow 2-core machine class
BUDGET = 1.0          # seconds, the whole process


def graph() -> str:
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "inception_v3_jpeg.pb")
    if not os.path.exists(path):
        build(path)
    return path


def cli_args(path: str, out: str, steps: str = PURE) -> list:
    return ["transform", "--in_graph", path, "--out_graph", out, "--inputs", INPUTS,
            "--outputs", OUTPUTS, "--transforms", steps, "--force"]


def on_slow_class(args: list, runs: int, cpu: int | None) -> tuple[float, float, float, str]:
    """(best, median wall seconds, the Python loop's seconds inside, last BENCH line) of the
    command line `args` run `runs` times under one calibration of the emulator: the whole
    process on CPU `cpu` (slow_class --one-cpu: right for this single-threaded command), or
    each thread in its own cgroup (None: slow_class's default); SystemExit where no cgroup
    can be made (not root, no controller)."""
    import slow_class

    if not os.path.exists(os.path.join(slow_class.V1, "cpu.cfs_quota_us")):
        raise SystemExit("no cgroup v1 cpu controller here (/sys/fs/cgroup/cpu)")
    group = slow_class.PerThread() if cpu is None else slow_class.OneCpu(cpu)
    try:
        _, inside = slow_class.calibrate(group, SLOW_CLASS)
        times, line = [], ""
        for _ in range(runs):
            t = time.perf_counter()
            proc = group.run([sys.executable, "-c", OURS, *args], capture_output=True,
                             text=True, env=env(), cwd=ROOT)
            times.append(time.perf_counter() - t)
            if proc.returncode != 0:
                sys.exit(f"child failed: {proc.stderr[-2000:]}")
            line = next((ln for ln in proc.stderr.splitlines() if ln.startswith("BENCH")), "")
    finally:
        group.close()
    return min(times), statistics.median(times), inside, line


def slow_class_figure(path: str, out: str, runs: int, cpu: int | None, speed: float) -> dict:
    """The pure pipeline's whole-process time on the slow class, printed with its verdict."""
    args = cli_args(path, out)
    whole_process(OURS, args, 1)          # warm-up: .pyc files, the page cache
    try:
        best, median, inside, line = on_slow_class(args, runs, cpu)
        where = "each thread in a cgroup" if cpu is None else f"one cgroup on CPU {cpu}"
        how = f"on the emulated slow class ({where}; Python loop inside {inside:.2f} s)"
    except SystemExit as exc:
        print(f"  (no emulation: {exc}; estimate from this machine instead)")
        here, median_here, line = whole_process(OURS, args, runs)
        best, median = here * SLOW_CLASS / speed, median_here * SLOW_CLASS / speed
        how = f"estimated for the slow class (x{SLOW_CLASS / speed:.1f} of {here:.2f} s here)"
    heavy = line.split(" ", 2)[-1] if line else "?"
    verdict = "met" if best < BUDGET else "NOT met"
    print(f"  pure-Python pipeline, whole process, {how}: best {best:.2f} s, median "
          f"{median:.2f} s; budget {BUDGET:.0f} s: {verdict}; heavy modules imported: {heavy}")
    return {"slow_best": best, "slow_median": median, "met": best < BUDGET,
            "no_tensorflow": heavy == "[]"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--one-cpu", type=int, default=1, metavar="N",
                        help="the emulated process on CPU N (slow_class.py --one-cpu)")
    parser.add_argument("--per-thread", action="store_true",
                        help="each thread in a cgroup of its own (slow_class.py's default)")
    opts = parser.parse_args()
    speed = python_speed()
    print(f"this machine's Python speed: a loop of 10M additions takes {speed:.2f} s "
          f"(slow class: {SLOW_CLASS:.2f} s)")
    path = graph()
    print(f"graph: {os.path.getsize(path) / 2 ** 20:.1f} MB; pipeline: {PURE}")
    with tempfile.TemporaryDirectory() as tmp:
        here, here_median, _ = whole_process(OURS, cli_args(path, os.path.join(tmp, "o.pb")),
                                             opts.runs)
        print(f"  here: best {here:.2f} s, median {here_median:.2f} s")
        figures = slow_class_figure(path, os.path.join(tmp, "o.pb"), opts.runs,
                                    None if opts.per_thread else opts.one_cpu, speed)
    print(json.dumps({"python_speed": speed, "here": here, **figures}))


if __name__ == "__main__":
    main()
