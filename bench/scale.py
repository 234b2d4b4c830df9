"""Scale benchmark: big models built by code (tests/fixtures/scale_models.py), each measured in
fresh processes next to the protobuf parse alone measured in the same run.

Run: .venv/bin/python bench/scale.py [--small | --million] [--only NAME] [--no-gui] [--no-tf]
                                     [--against REV] [--repeat N]
  --small    the CI-sized set (10k and 100k blocks, flat 10k, a 200 MB dense model)
  --million  the 1M-node graph with scopes and the flat 1M-node one (1x1 convs, ~190 MB each)
  --no-tf    skip the bare TensorFlow import_graph_def reference
  --against  also run the `inspector` package of commit REV, interleaved, and print the ratio
             of each figure to it (bench/ab.py): on a shared machine, trust the ratios
  --repeat   run each side N times, alternating (the order flips each round), and keep
             each figure's best
  --now REV  the first side is commit REV's package instead of this tree's

Every model's figures are printed with the python_speed measured just before them.

Per model: protobuf parse alone (time, peak RSS); `summarize` on the command line (wall time
of the whole process, peak RSS); the summary alone after the load, in a thread as the window
computes it (seconds, the longest wait of a thread beside it: GIL held by one C call); the app from process start (offscreen, TensorFlow in its
worker process): first picture, longest GUI-thread stall (10 ms heartbeat) while opening,
expanding the largest scope, searching, marking an output and previewing strip_unused_nodes,
the longest stall in the 10 s after the first picture (the settle: warm-ups, panels
built later, collections), the window's peak RSS and anonymous memory, the worker's RSS after that TensorFlow request,
and, as the reference for the latter, `import_graph_def` of the same file in a bare Python.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench import ab  # noqa: E402
PY = sys.executable
MB = 2 ** 20


def models(small: bool, million: bool = False) -> list:
    from tests.fixtures import scale_models as sm

    if million:
        return sm.million_graphs()
    if small:
        return [("blocks 10k", sm.blocks_graph(10_000)), ("blocks 100k", sm.blocks_graph(100_000)),
                ("flat 10k", sm.flat_graph(10_000)), ("dense 200 MB", sm.dense_model(4))]
    return [("blocks 32k", sm.blocks_graph(32_000)), ("blocks 100k", sm.blocks_graph(100_000)),
            ("blocks 300k", sm.blocks_graph(300_000)), ("flat 30k", sm.flat_graph(30_000)),
            ("dense 1.2 GB", sm.dense_model(24))]


def child(code: str, *args, folder: str = ROOT) -> tuple[dict, float, float]:
    """Run python code in a fresh process with `inspector` from `folder` (bench/ab.py):
    (its JSON line, wall seconds, peak RSS MB)."""
    t = time.perf_counter()
    proc = subprocess.Popen([PY, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=folder,
                            env=dict(ab.env(folder), TF_CPP_MIN_LOG_LEVEL="3",
                                     QT_QPA_PLATFORM="offscreen"))
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    out, err = proc.stdout.read().decode(), proc.stderr.read().decode()
    if status != 0:
        raise RuntimeError(f"child failed ({status}): {err[-2000:]}")
    lines = [line for line in out.splitlines() if line.startswith("{")]
    return (json.loads(lines[-1]) if lines else {}), wall, usage.ru_maxrss / 1024


PARSE = """
import sys, time, json
from tensorboard.compat.proto import graph_pb2
t = time.perf_counter()
data = open(sys.argv[1], 'rb').read()
g = graph_pb2.GraphDef(); g.ParseFromString(data)
print(json.dumps({"seconds": time.perf_counter() - t, "nodes": len(g.node)}))
"""

SUMMARIZE = """
import sys
from inspector.launcher import main
sys.argv = ['graphdef-inspector', 'summarize', sys.argv[1]]
main()
"""

# The summary alone, after the load, in a thread as the window computes it: its seconds,
# and the longest wait of a thread beside it waking every ms (the GIL held by one long C
# call shows here), next to that wait beside a plain Python loop of the same length (what
# the machine's own scheduling gives). numpy imported first: the window has it by then.
SUMMARY_ALONE = """
import sys, time, json, threading, gc
sys.setswitchinterval(0.0001)     # as the app
import numpy  # noqa: F401
from inspector.core.app.opening import open_model, summary_of
model = open_model(sys.argv[1])
gc.collect(); gc.disable()

def beside(work):
    done = []
    th = threading.Thread(target=lambda: done.append(work()))
    t = last = time.perf_counter(); worst = 0.0
    th.start()
    while th.is_alive():
        time.sleep(0.001)
        now = time.perf_counter(); worst = max(worst, now - last); last = now
    th.join()
    return done[0], worst

def timed():
    t = time.perf_counter(); summary_of(model); return time.perf_counter() - t

def plain(seconds):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass

seconds, wait = beside(timed)
_, noise = beside(lambda: plain(seconds))
print(json.dumps({"seconds": seconds, "wait": wait, "noise": noise}))
"""

STARTUP = """
import inspector.launcher, inspector.cli.main
"""

TF_IMPORT = """
import sys, os, json, time
import tensorflow as tf
from tensorboard.compat.proto import graph_pb2
t = time.perf_counter()
g = tf.compat.v1.GraphDef(); g.ParseFromString(open(sys.argv[1], 'rb').read())
with tf.Graph().as_default():
    tf.compat.v1.import_graph_def(g, name='')
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def loop_seconds(additions: int) -> float:
    """Seconds for a plain Python loop of this many additions."""
    t, x = time.perf_counter(), 0
    for i in range(additions):
        x += i
    return time.perf_counter() - t


def python_speed() -> float:
    """Seconds for a plain Python loop (best of three): shared machines run at very different
    speeds from hour to hour, and this says which one the figures were measured at."""
    return min(loop_seconds(10_000_000) for _ in range(3))


def measure(path: str, folder: str, gui: bool, tf: bool) -> dict:
    """One model's figures with `inspector` from `folder`."""
    speed = python_speed()
    _, startup, _ = child(STARTUP, folder=folder)
    parse, _, parse_rss = child(PARSE, path, folder=folder)
    _, summ_wall, summ_rss = child(SUMMARIZE, path, folder=folder)
    alone = child(SUMMARY_ALONE, path, folder=folder)[0]
    row = dict(size=os.path.getsize(path) / MB, nodes=parse["nodes"], parse=parse["seconds"],
               parse_rss=parse_rss, summarize=summ_wall, summarize_rss=summ_rss,
               startup=startup, speed=speed, summary=alone["seconds"],
               summary_wait=alone["wait"], summary_noise=alone["noise"])
    if gui:
        app, _, _ = child("from bench.scale_app import main; main()", path, folder=folder)
        row.update(app)
        if tf:
            row["tf_rss"] = child(TF_IMPORT, path, folder=folder)[2]
    return row


def order(sides: int, repeat: int) -> list:
    """Which side runs when: the order flips every round (the run after another app's
    measured ~0.5-1 s slower first pictures at 100k nodes, its worker still exiting)."""
    out = []
    for r in range(repeat):
        out += list(range(sides))[::-1 if r % 2 else 1]
    return out


def best(row: dict, other: dict) -> None:
    """Keep in `row` the smaller of each figure (times, memory, stalls; python_speed too)."""
    for key, value in other.items():
        if isinstance(value, dict):
            best(row.setdefault(key, {}), value)
        elif isinstance(value, float) and key in row:
            row[key] = min(row[key], value)


def run(small: bool, only: str | None, gui: bool, million: bool = False, tf: bool = True,
        against: str | None = None, repeat: int = 1, now: str | None = None) -> None:
    rows = []
    print(f"this machine's Python speed: a loop of 10M additions takes {python_speed():.2f} s "
          "(0.88 s seen on a quiet 2-core machine of this kind; the figures below scale "
          "with it)")
    runs = ab.sides(against, now)
    for label, path in models(small, million):
        if only and only not in label:
            continue
        measured = [None] * len(runs)
        for k in order(len(runs), repeat):
            side, folder = runs[k]
            named = f"{label} ({side})" if len(runs) > 1 else label
            row = dict(measure(path, folder, gui, tf), label=named)
            if measured[k] is None:
                measured[k] = row
            else:
                best(measured[k], row)
        for row in measured:
            report(row)
        if len(measured) == 2:
            ratios(*measured)
        rows.append(measured[0])
    print()
    print("per node beyond start-up and the parse (summarize, us): " + ", ".join(
        f"{r['label']}: {1e6 * (r['summarize'] - r['startup'] - r['parse']) / r['nodes']:.1f}"
        for r in rows))
    if gui:
        print("per node, first picture (us): " + ", ".join(
            f"{r['label']}: {1e6 * r['first'] / r['nodes']:.1f}" for r in rows))


def ratios(now: dict, before: dict) -> None:
    """Each figure of this tree over the earlier commit's, measured side by side."""
    keys = ["summarize", "summarize_rss", "summary", "summary_wait", "first", "settle", "window_peak", "window_anon"]
    parts = [f"{k} {now[k] / before[k]:.2f}" for k in keys
             if now.get(k) and before.get(k)]
    parts += [f"stall {k} {now['stalls'][k] / before['stalls'][k]:.2f}"
              for k in now.get("stalls", {}) if before.get("stalls", {}).get(k)]
    print("  ratio now / before: " + ", ".join(parts))


def report(r: dict) -> None:
    print(f"\n{r['label']}: {r['nodes']:,} nodes, {r['size']:.0f} MB "
          f"(python_speed {r['speed']:.2f} s)")
    print(f"  protobuf parse alone     {r['parse']:6.2f} s   peak {r['parse_rss']:6.0f} MB")
    print(f"  summarize (process)      {r['summarize']:6.2f} s   peak {r['summarize_rss']:6.0f} MB"
          f"   ({r['summarize'] / r['parse']:.1f}x the parse)")
    print(f"  summary alone (in process, after the load) {r['summary']:6.2f} s; longest wait "
          f"of a thread beside it {1000 * r['summary_wait']:.0f} ms (beside a plain Python "
          f"loop: {1000 * r['summary_noise']:.0f} ms)")
    if "first" not in r:
        return
    print(f"  app: first picture       {r['first']:6.2f} s from process start "
          f"({r['first'] / r['parse']:.1f}x the parse); {r['items']} items drawn")
    print(f"  app: longest GUI stall in the 10 s after the first picture "
          f"{1000 * r['settle']:.0f} ms")
    print("  app: longest GUI stall   " + ", ".join(
        f"{k} {1000 * v:.0f} ms" for k, v in r["stalls"].items()))
    if "memory" in r:
        print("  app: window RSS / peak after each action (MB)   " + ", ".join(
            f"{k} {v[0]:.0f}/{v[1]:.0f}" for k, v in r["memory"].items()))
    print(f"  app: window peak RSS     {r['window_peak']:6.0f} MB "
          f"({r['window_peak'] / r['size']:.2f}x the file); anonymous {r['window_anon']:.0f} MB")
    if "tf_rss" not in r:
        return
    both = r['window_rss'] + r['worker_rss']
    print(f"  after a TF request       window {r['window_rss']:.0f} MB + worker "
          f"{r['worker_rss']:.0f} MB = {both:.0f} MB; bare import_graph_def {r['tf_rss']:.0f} MB"
          f" (ratio {both / r['tf_rss']:.2f})")


KNOWN = {"--small", "--million", "--only", "--no-gui", "--no-tf", "--against", "--repeat", "--now"}

if __name__ == "__main__":
    flags = [a for a in sys.argv[1:] if a.startswith("-")]
    if any(a not in KNOWN for a in flags):
        sys.exit(__doc__ if {"-h", "--help"} & set(flags) else
                 f"scale.py: unknown option {[a for a in flags if a not in KNOWN][0]}")
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    against = sys.argv[sys.argv.index("--against") + 1] if "--against" in sys.argv else None
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 1
    now = sys.argv[sys.argv.index("--now") + 1] if "--now" in sys.argv else None
    run("--small" in sys.argv, only, "--no-gui" not in sys.argv, "--million" in sys.argv,
        "--no-tf" not in sys.argv, against, repeat, now)
