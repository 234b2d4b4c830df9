"""What the GUI thread did in its longest stalls during View > Expand all and Collapse all: the
gaps of a 10 ms heartbeat, each with the GUI thread's and the process's CPU in it, and the
Python pieces that ran in it (QTimer.singleShot callables by name, task deliveries, on_done,
the redecoration, charts made, the canvas's paints) with their wall and CPU time, and the task
threads' runs that overlap it. Time in a gap outside any piece is Qt's own work (the scene's
queued work, painting) or a wait for the GIL (--perf says which thread held it).
Nothing hooks every event (that would take the GIL for each while a task thread holds it).

    bench/slow_class.py -- .venv/bin/python bench/turns_trace.py MODEL [--against REV]
                                                                 [--perf FILE]

The labels cost a Python call per piece and per box painted: read which pieces run back to
back and their shares, not the absolute stall (bench/expand_all.py measures that)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if "--child" in sys.argv:
    sys.path[0] = ROOT
    sys.path.sort(key=lambda p: p == ROOT)
else:
    sys.path.insert(0, ROOT)


class Trace:
    def __init__(self):
        self.records: list = []     # (start, end, cpu ms, depth, what, node paints)
        self.depth = 0
        self.paints = 0
        self.ticks: list = []       # (time, GUI thread CPU, process CPU)
        self.tasks: list = []       # (start, end, native thread id, name): task threads' runs

    def label(self, text, fn, *args, **kwargs):
        t, c, p = time.perf_counter(), time.thread_time(), self.paints
        self.depth += 1
        try:
            return fn(*args, **kwargs)
        finally:
            self.depth -= 1
            self.records.append((t, time.perf_counter(), 1000 * (time.thread_time() - c),
                                 self.depth, text, self.paints - p))


TRACE = Trace()
PERF: dict = {}     # "file": where perf records the GUI thread from the first show_scene


def _name(fn) -> str:
    from functools import partial

    while isinstance(fn, partial):
        fn = fn.func
    code = getattr(fn, "__code__", None)
    if code is not None:
        return f"{getattr(fn, '__qualname__', code.co_name)}@" \
               f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}"
    return repr(fn)[:60]


def install():
    """Labels on the GUI thread's Python pieces (QTimer.singleShot callables, task deliveries,
    charts made, the canvas's paints): no hook on every event (that would take the GIL for
    each, and a task thread holds it)."""
    from PySide6.QtCore import QTimer

    single = QTimer.singleShot

    def singleShot(*args):
        if args and callable(args[-1]) and not isinstance(args[-1], str):
            fn, text = args[-1], _name(args[-1])
            args = args[:-1] + (lambda: TRACE.label(text, fn),)
        return single(*args)

    QTimer.singleShot = singleShot
    from inspector.core.runtime import tasks, threads

    plain_start = threads.start

    def start(fn, name):
        def run():
            import threading
            t = time.perf_counter()
            try:
                return fn()
            finally:
                TRACE.tasks.append((t, time.perf_counter(), threading.get_native_id(), name))
        return plain_start(run, name)

    threads.start = start
    from inspector.gui.canvas.graph_canvas import GraphCanvas
    from inspector.gui.canvas.items import NodeItem
    from inspector.gui.panels import chart_slot

    def wrap(owner, attr, text=None):
        fn = getattr(owner, attr)

        def wrapped(*a, **k):
            return TRACE.label(text or attr, fn, *a, **k)
        setattr(owner, attr, wrapped)

    deliver = tasks.Tasks._deliver

    def _deliver(self, kind, gen, what, payload):
        return TRACE.label(f"task {kind} {what}", deliver, self, kind, gen, what, payload)

    tasks.Tasks._deliver = _deliver
    wrap(chart_slot.ChartSlot, "_make", "chart made")
    from inspector.core.runtime import gc_policy
    from inspector.gui.canvas.minimap import Minimap
    from inspector.gui.controllers.canvas_controller import CanvasController

    wrap(CanvasController, "_scene_built", "scene built (on_done)")
    wrap(CanvasController, "redecorate", "redecorate")
    wrap(Minimap, "show_scene", "minimap show_scene")
    wrap(GraphCanvas, "decorate", "canvas.decorate (first slice)")
    wrap(GraphCanvas, "show_start", "show_start")
    wrap(gc_policy, "keep_out_of_collections", "gc.freeze")
    show_scene = GraphCanvas.show_scene

    def show(self, *a, **k):
        return TRACE.label("show_scene", show_scene, self, *a, **k)
    GraphCanvas.show_scene = show
    wrap(GraphCanvas, "drawForeground", "canvas paint ends")
    paint = NodeItem.paint

    def node_paint(self, *a):
        TRACE.paints += 1
        return paint(self, *a)
    NodeItem.paint = node_paint


def report(name, t0, t1, out) -> None:
    ticks = [t for t in TRACE.ticks if t0 <= t[0] <= t1]
    gaps = sorted(((b[0] - a[0], a, b) for a, b in zip(ticks, ticks[1:])), reverse=True)[:3]
    for gap, a, b in gaps:
        inside = [r for r in TRACE.records if r[1] > a[0] and r[0] < b[0]]
        out.append(f"== {name}: gap {1000 * gap:.0f} ms (monotonic {a[0]:.4f},{b[0]:.4f}); "
                   f"CPU in it: GUI thread "
                   f"{1000 * (b[1] - a[1]):.1f} ms, process {1000 * (b[2] - a[2]):.1f} ms")
        for t, e, tid, what in TRACE.tasks:
            if e > a[0] and t < b[0]:
                out.append(f"   task {what} (thread {tid}) {1000 * (t - a[0]):+.1f} .. "
                           f"{1000 * (e - a[0]):+.1f} ms")
        for r in sorted(inside):
            out.append(f"   +{1000 * (r[0] - a[0]):6.1f} {'  ' * r[3]}{1000 * (r[1] - r[0]):6.1f}"
                       f" ms cpu {r[2]:5.1f}  {r[4]}" + (f" ({r[5]} boxes)" if r[5] else ""))


def child(model: str, perf: str | None) -> None:
    PERF["file"] = perf
    install()
    from bench.expand_all import _menu_action, settled_window
    from bench.heartbeat import Heartbeat, wait

    app, win, restore = settled_window(model)
    canvas = win.canvas
    beat = Heartbeat()
    tick = beat._tick

    def ticked():
        TRACE.ticks.append((time.perf_counter(), time.thread_time(), time.process_time()))
        tick()

    beat.timer.timeout.disconnect()
    beat.timer.timeout.connect(ticked)
    out = []
    for name in ("Expand all scopes", "Collapse all scopes"):
        if PERF.get("file") and "proc" not in PERF:     # the whole process, from the start
            PERF["proc"] = subprocess.Popen(
                ["perf", "record", "-F", "2000", "-g", "-k", "CLOCK_MONOTONIC", "-p",
                 str(os.getpid()), "-o", PERF["file"]],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        drawn = win.scenes_drawn
        TRACE.records.clear()
        t0 = time.perf_counter()
        stall, took = beat.phase(app, _menu_action(win, name).trigger,
                                 lambda: win.scenes_drawn > drawn and not win.tasks.is_busy()
                                 and canvas.viewport().updatesEnabled(), 1800, name)
        t = time.perf_counter()
        wait(app, lambda: time.perf_counter() > t + 2.0)
        out.append(f"{name}: {len(canvas.items_by_id)} items, {took:.2f} s")
        if "proc" in PERF:
            import signal
            PERF.pop("proc").send_signal(signal.SIGINT)
            PERF["file"] = None
        report(name, t0, time.perf_counter(), out)
        TRACE.tasks.clear()
    restore()
    print("RESULT " + json.dumps(out), flush=True)
    os._exit(0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("--against")
    p.add_argument("--perf", help="perf record the whole process from Expand all on into "
                   "this file, stamped on CLOCK_MONOTONIC as the gaps printed are: "
                   "perf script -i FILE --time START,END (which thread held the GIL)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.model, args.perf)
        return
    from bench import ab
    for label, folder in ab.sides(args.against):
        env = dict(ab.env(folder), QT_QPA_PLATFORM="offscreen")
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "--child",
                              os.path.abspath(args.model)] +
                             (["--perf", os.path.abspath(args.perf + "." + label.split()[-1])]
                              if args.perf else []), cwd=folder, env=env,
                             capture_output=True, text=True)
        line = next((ln for ln in run.stdout.splitlines() if ln.startswith("RESULT ")), None)
        if line is None:
            print(f"{label}: failed (rc {run.returncode})\n{run.stderr[-3000:]}")
            continue
        print(f"--- {label}")
        print("\n".join(json.loads(line[7:])), flush=True)


if __name__ == "__main__":
    main()
