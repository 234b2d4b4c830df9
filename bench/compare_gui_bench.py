"""The comparison window on big pairs (issue 35: no GUI-thread stall over 100 ms while diffing
or syncing on 50k-node pairs): the diff runs as a task, then the window opens, steps with N
and P, selects across sides, toggles the merged view. Prints the longest time a 10 ms timer
on the GUI thread waited, per action, and the machine's Python speed first.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/compare_gui_bench.py [--nodes 50000]
         [--stacks 3 --late-ms 60]
On the slow class: .venv/bin/python bench/slow_class.py -- (the same command).
With --stacks N, the N stacks the GUI thread was in when most late, per action (stall_watch).
Qt's classes are warmed up first as the app's start does (chart_slot.warm_up); --cold skips it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench"), os.path.join(ROOT, "tests")]
from compare_bench import SLOW_CLASS, renamed  # noqa: E402
from fixtures.scale_models import blocks_graph  # noqa: E402
from scale import python_speed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--stacks", type=int, default=0)
    parser.add_argument("--late-ms", type=float, default=60.0)
    parser.add_argument("--cold", action="store_true",
                        help="skip the app's warm-up of Qt's classes (its start does it): the "
                             "first window then pays PySide's first use of ~70 enums")
    args = parser.parse_args()
    speed = python_speed()
    print(f"this machine's Python speed: a loop of 10M additions takes {speed:.2f} s "
          f"(slow class {SLOW_CLASS} s)")
    from PySide6.QtWidgets import QApplication

    from inspector.core.app.comparing import compare
    from inspector.core.loaders import load
    from inspector.gui.app import tune_runtime
    from inspector.gui.compare_window import CompareWindow, layouts
    from inspector.gui.tasks import gui_tasks

    tune_runtime()                   # as the app does: the GIL handed over quickly
    app = QApplication.instance() or QApplication([])
    ga = load(blocks_graph(args.nodes, 0)).graph
    pairs = {"weights": load(blocks_graph(args.nodes, 1)).graph, "renamed": renamed(ga)}
    tasks = gui_tasks(app)
    if not args.cold:     # as the app has done by the time it compares (after its first
        # picture): PySide's classes and enums made
        from inspector.gui.panels.chart_slot import warm_up

        warmed = []
        warm_up(lambda: warmed.append(True))
        while not warmed:
            app.processEvents()
    from stall_watch import Watch

    watch = Watch(args.late_ms / 1000, sample=args.stacks > 0)   # the sampler slows the GUI
    watch.action = ""

    def settle(seconds: float = 0.0):
        end = time.perf_counter() + seconds
        while tasks.is_busy() or time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)

    for label, gb in pairs.items():
        result = {}
        watch.action = f"{label}: diff in a task"
        start = time.perf_counter()
        def work(task, gb=gb, label=label):     # as the compare controller does
            session = compare(ga, gb, "A", label, job=task)
            return session, layouts(session, ("A", "B"), task)

        tasks.submit("compare", work, lambda r: result.update(s=r[0], first=r[1]),
                     lambda exc: print("failed", exc))
        settle()
        seconds = time.perf_counter() - start
        watch.action = f"{label}: window opens and lays out"
        win = CompareWindow(result["s"], tasks, first=result["first"])
        win.show()
        settle(0.5)
        watch.action = f"{label}: N x5, P x2"
        for delta in (1, 1, 1, 1, 1, -1, -1):
            win.step(delta)
            settle(0.1)
        watch.action = f"{label}: select across sides"
        s = result["s"]
        name = next(iter(s.diff.matching.b_of))
        s.select("A", name)
        win.refresh()
        settle(0.3)
        watch.action = f"{label}: merged view on and off"
        win.merged_box.click()
        settle(0.3)
        win.merged_box.click()
        settle(0.3)
        win.close()
        print(f"\n{len(ga):,} nodes, {label}: diff {seconds:.2f} s in the task; "
              f"{len(s.diff.entries):,} changes")
    watch.action = ""
    watch.running = False
    print("\nlongest GUI-thread wait per action (budget 100 ms):")
    for action, gap in watch.worst.items():
        if action:
            verdict = "" if gap < 0.1 else "  OVER"
            print(f"  {action:44s} {1000 * gap:7.1f} ms  (slow class ~"
                  f"{1000 * gap * SLOW_CLASS / speed:6.0f} ms){verdict}")
    for action in watch.worst:
        ranked = sorted(watch.stacks.get(action, {}).items(), key=lambda kv: -kv[1])
        for text, late in ranked[:args.stacks]:
            print(f"-- {action}: late {late * 1000:.0f} ms in:\n{text}")


if __name__ == "__main__":
    main()
