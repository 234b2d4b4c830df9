"""Pure-Python transforms on the command line: `transform` with strip_unused_nodes and
remove_nodes on a ~2.2k-node, ~96 MB Inception v3 graph, as whole processes (what a user waits
for), against TensorFlow's native transform_graph engine in a process of its own, same run.

Run: .venv/bin/python bench/pure_transform_bench.py [--runs N]
(the graph is transform_bench.py's, built on first use, ~1 minute)

Prints this machine's Python speed first; targets (issue 38.16): our process never imports
TensorFlow and takes under 1 s. Children run with bytecode caching on, as an installed app does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
from scale import python_speed
from transform_bench import CACHE, build

PIPELINE = "strip_unused_nodes remove_nodes(op=Identity, op=CheckNumerics)"
INPUTS, OUTPUTS = "Mul", "Identity"
OURS = """
import sys, time
t = time.perf_counter()
from inspector.launcher import main   # what the graphdef-inspector command runs
rc = main(sys.argv[1:])
heavy = sorted(m for m in ("tensorflow", "keras", "sklearn") if m in sys.modules)
print("BENCH", rc, heavy, file=sys.stderr)
"""
NATIVE = """  # what tensorflow.tools.graph_transforms.TransformGraph calls (not in the pip wheel)
import sys
from tensorflow.core.framework import graph_pb2
from tensorflow.python.util._pywrap_transform_graph import TransformGraphWithStringInputs
src, dst, inputs, outputs, steps = sys.argv[1:]
data = open(src, "rb").read()
out = TransformGraphWithStringInputs(data, inputs.encode(), outputs.encode(), steps.encode())
open(dst, "wb").write(out)
out = graph_pb2.GraphDef.FromString(out)
print("BENCH", len(out.node), file=sys.stderr)
"""


def env(**extra) -> dict:
    e = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3", **extra)
    e.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its .pyc files
    return e


def whole_process(code: str, args: list, runs: int, **extra_env) -> tuple[float, float, str]:
    """(best, median) wall seconds of `python -c code args...`, and the last BENCH line (the
    one timing loop of the transform benches)."""
    times, line = [], ""
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, env=env(**extra_env), cwd=ROOT)
        times.append(time.perf_counter() - t)
        if proc.returncode != 0:
            sys.exit(f"child failed: {proc.stderr[-2000:]}")
        line = next((ln for ln in proc.stderr.splitlines() if ln.startswith("BENCH")), "")
    return min(times), statistics.median(times), line


def same_nodes(a: str, b: str) -> bool:
    from inspector.core.loaders import load

    ga, gb = (load(p).graph.graph_def for p in (a, b))
    return sorted(n.SerializeToString(deterministic=True) for n in ga.node) == \
        sorted(n.SerializeToString(deterministic=True) for n in gb.node)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"this machine's Python speed: a loop of 10M additions takes {python_speed():.2f} s "
          "(0.88 s seen on a quiet 2-core machine of this kind; the figures below scale "
          "with it)")
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "inception_v3_jpeg.pb")
    if not os.path.exists(path):
        build(path)
    print(f"graph: {os.path.getsize(path) / 2 ** 20:.1f} MB; pipeline: {PIPELINE}")
    with tempfile.TemporaryDirectory() as tmp:
        ours_out, native_out = os.path.join(tmp, "ours.pb"), os.path.join(tmp, "native.pb")
        cli = ["transform", "--in_graph", path, "--out_graph", ours_out, "--inputs", INPUTS,
               "--outputs", OUTPUTS, "--transforms", PIPELINE, "--force"]
        whole_process(OURS, cli, 1)  # warm-up: writes the .pyc files, fills the page cache
        o_best, o_med, line = whole_process(OURS, cli, runs)
        print(f"ours, whole process (default table: nodes, size, params): best {o_best:.2f} s, "
              f"median {o_med:.2f} s; exit code, heavy modules imported: {line[6:]}")
        f_best, f_med, _ = whole_process(OURS, cli + ["--gzip", "--flops"], max(1, runs // 2))
        print(f"ours with --gzip --flops (the old default): best {f_best:.2f} s, "
              f"median {f_med:.2f} s")
        t_best, t_med, _ = whole_process(NATIVE, [path, native_out, INPUTS, OUTPUTS, PIPELINE],
                                         max(1, runs // 2))
        print(f"TF native transform_graph, whole process: best {t_best:.2f} s, "
              f"median {t_med:.2f} s")
        print(f"ratio ours/native: {o_best / t_best:.2f}; target: under 1 s "
              f"({'met' if o_best < 1.0 else 'NOT met'} on this machine), no TensorFlow "
              f"({'met' if '[]' in line else 'NOT met'})")
        print(f"same nodes as TF native: {same_nodes(ours_out, native_out)}")
    print(json.dumps({"ours": o_best, "ours_full_metrics": f_best, "native": t_best}))


if __name__ == "__main__":
    main()
