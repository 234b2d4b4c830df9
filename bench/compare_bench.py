"""Diffing two models (issue 35): match and diff 10k- and 50k-node pairs without TensorFlow
(--big adds 300k), against parsing the two files in the same run.

Run: .venv/bin/python bench/compare_bench.py [--big]
     .venv/bin/python bench/compare_bench.py --cli [--sizes 32000,100000] [--against REV]
Pairs: (same) the graph and itself, (weights) the same structure with every weight different,
(renamed) every node renamed by a random bijection. Targets: 10k under 2 s, 50k under 10 s on
a 2-core machine whose Python loop takes ~0.88 s; the figures are also scaled to that speed.

--cli times the command a user runs, `graphdef-inspector diff A B` in a fresh process (FLOPs
on, the default, and --no-flops), on the file and itself and on the file and a renamed,
shuffled copy of it (written once to the cache), each with its peak memory and the
python_speed measured before it (the renamed pairs of 100k and 300k nodes also scaled to the
slow class beside issue 47's budgets: 10 s; 30 s and 2 GB); with --against REV the
`inspector` package of commit REV runs interleaved (bench/ab.py) and the ratio of each time
to it is printed. Each diff is cold (no gzip size kept by an earlier diff: gzip_cache);
--warm times each after an untimed run of the same diff, which keeps them.
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

import ab  # noqa: E402

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


def shuffled_copy(path: str) -> str:
    """Beside `path`: the same graph with every node renamed (a random bijection) and the
    nodes in a random order, written once."""
    out = path[:-3] + "_renamed_shuffled.pb"
    if os.path.exists(out):
        return out
    gd = renamed(load(path).graph).graph_def
    nodes = list(gd.node)
    random.Random(7).shuffle(nodes)
    shuffled = protos.GraphDef()
    shuffled.node.extend(nodes)
    with open(out + ".part", "wb") as fh:
        fh.write(shuffled.SerializeToString())
    os.replace(out + ".part", out)
    return out


def gzip_cache_folder() -> str:
    """Where `diff` keeps each file's gzip size across runs (analysis.gzip_cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "graphdef-inspector", "gzip-sizes")


def cli_diff(folder: str, a: str, b: str, *flags, warm: bool = False) -> tuple:
    """(wall seconds, exit code, peak RSS in MB, CPU seconds: user + system) of
    `graphdef-inspector diff A B` with `inspector` from `folder` (on a shared machine the
    CPU seconds move less than the wall time). Cold unless `warm`: the gzip sizes an earlier
    run kept (gzip_cache) are removed first, so a commit with the cache and one without
    compress alike."""
    import shutil
    import subprocess

    if not warm:
        shutil.rmtree(gzip_cache_folder(), ignore_errors=True)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "diff", a, b, *flags],
                            cwd=folder, env=dict(ab.env(folder), TF_CPP_MIN_LOG_LEVEL="3"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    proc.stderr.close()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    if code not in (0, 1):
        raise RuntimeError(f"diff failed ({code}): {err[-2000:]}")
    return seconds, code, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


# the budgets of issue 47 on the slow class (python_speed 0.88 s): seconds, MB
BUDGETS = {100_000: (10.0, None), 300_000: (30.0, 2048.0)}


def args_only_same(only: str | None) -> bool:
    """Only the file against itself: no renamed copy needed."""
    return bool(only) and "renamed" not in only and only.startswith("A A")


def cli(sizes: list, against: str | None, only: str | None = None,
        now: str | None = None, warm: bool = False) -> None:
    runs = ab.sides(against, now)
    for nodes in sizes:
        path = blocks_graph(nodes, 0)
        other = shuffled_copy(path) if not args_only_same(only) else path
        print(f"\nblocks {nodes:,} ({os.path.getsize(path) / 2 ** 20:.0f} MB)")
        for label, b, flags in (("A A", path, ()), ("A A --no-flops", path, ("--no-flops",)),
                                ("A renamed+shuffled", other, ()),
                                ("A renamed+shuffled --no-flops", other, ("--no-flops",))):
            if only and only not in label:
                continue
            times, cpus = [], []
            for side, folder in runs:
                speed = python_speed()
                if warm:        # an untimed diff first keeps both files' gzip sizes
                    cli_diff(folder, path, b, *flags, warm=True)
                seconds, code, peak, cpu = cli_diff(folder, path, b, *flags, warm=warm)
                times.append(seconds)
                cpus.append(cpu)
                budget, memory = BUDGETS.get(nodes, (None, None))
                slow = seconds * SLOW_CLASS / speed
                verdict = "" if budget is None or "renamed" not in label else \
                    f"; slow class ~{slow:.1f} s, budget {budget:.0f} s" + \
                    (f", {memory:.0f} MB" if memory else "")
                print(f"  diff {label:30s} {side:14s} {seconds:7.2f} s (CPU {cpu:6.2f} s) "
                      f"{peak:6.0f} MB (exit {code}; python_speed {speed:.2f} s{verdict})")
            if len(times) == 2:
                print(f"  {'':35s} ratio now / before {times[0] / times[1]:.2f} "
                      f"(CPU {cpus[0] / cpus[1]:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big", action="store_true", help="also 300k nodes")
    parser.add_argument("--cli", action="store_true", help="time the CLI's diff instead")
    parser.add_argument("--sizes", default="32000,100000,300000",
                        help="node counts for --cli, comma separated")
    parser.add_argument("--against", help="with --cli: also run this commit's inspector")
    parser.add_argument("--now", help="with --cli: this commit's inspector instead of ours")
    parser.add_argument("--only", help="with --cli: only the pairs whose label holds this "
                        "('A A', 'renamed', 'no-flops')")
    parser.add_argument("--warm", action="store_true", help="with --cli: time each diff after "
                        "an untimed run of the same diff, with the gzip sizes it kept "
                        "(default: none kept, removed before each diff: cold)")
    args = parser.parse_args()
    if args.cli:
        cli([int(n) for n in args.sizes.split(",")], args.against, args.only, args.now,
            args.warm)
        return
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
