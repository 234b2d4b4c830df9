"""The comparison window on big pairs (issue 35: no GUI-thread stall over 100 ms while diffing
or syncing on 50k-node pairs): the diff runs as a task, then the window opens, steps with N
and P, selects across sides, toggles the merged view. Prints the longest time a 10 ms timer
on the GUI thread waited, per action, and the machine's Python speed first.

With --run-both (issue 45): the app as users start it (TensorFlow and LiteRT in the worker)
compares Inception v3's GraphDef (Keras, weights=None, frozen) with its full-int8 .tflite (TF's
converter, 4 seeded calibration inputs; both built once into the cache) and clicks "Run both on
the same input": its seconds (budget: 30 s on the slow class) and the longest GUI stall meanwhile
(budget: 100 ms), the first run (LiteRT's interpreter made in the worker) and a second one; the
worker's start with its TensorFlow import is timed before, apart.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/compare_gui_bench.py [--nodes 50000]
         [--stacks 3 --late-ms 60] [--run-both]
On the slow class: .venv/bin/python bench/slow_class.py -- (the same command).
Each action's longest wait comes with the CPU the process and the GUI thread used in it: the
GUI thread's own work (a scene slice of show_scene: GraphCanvas.CHUNK_SECONDS of wall time,
on any machine), or little of it (it waited for the GIL, or the machine ran other work).
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
if os.environ.get("COMPARE_GUI_BENCH_TREE"):      # a side of --against: its `inspector` first
    sys.path.insert(0, os.environ["COMPARE_GUI_BENCH_TREE"])
from compare_bench import SLOW_CLASS, renamed  # noqa: E402
from fixtures.scale_models import blocks_graph  # noqa: E402
from scale import python_speed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--stacks", type=int, default=0)
    parser.add_argument("--late-ms", type=float, default=60.0)
    parser.add_argument("--run-both", action="store_true",
                        help="Inception v3 GraphDef against its int8 .tflite: Run both, through "
                             "the worker (instead of the big pairs)")
    parser.add_argument("--cold", action="store_true",
                        help="skip the app's warm-up of Qt's classes (its start does it): the "
                             "first window then pays PySide's first use of ~70 enums")
    parser.add_argument("--pairs", default="weights,renamed",
                        help="which pairs (comma list of weights, renamed)")
    parser.add_argument("--gil-ms", type=float, default=0.0,
                        help="also print where other threads held the GIL this long in one "
                             "go, per action (stall_watch.Watch.watch_gil)")
    parser.add_argument("--holds", type=int, default=0,
                        help="with --gil-ms: how many of the longest holds to print per "
                             "action (default: --stacks, at least 3)")
    parser.add_argument("--c-holds", type=float, default=0.0, metavar="MS",
                        help="print the C calls of the app's threads that ran this long "
                             "without a Python frame (bench/gil_holds.py: slows Python ~2x)")
    parser.add_argument("--against", metavar="REV",
                        help="also run commit REV's inspector, interleaved with this tree's "
                             "(bench/ab.py), --rounds times each; prints each side's worst "
                             "wait per action per round")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--app-loop", action="store_true",
                        help="wait between actions in Qt's event loop, as the app does, "
                             "instead of a loop of processEvents and 2 ms sleeps")
    parser.add_argument("--where", action="store_true",
                        help="print where the other busy threads were as each action's "
                             "worst wait ended (the call that held the GIL, or the next)")
    parser.add_argument("--profile-gui", type=int, default=0, metavar="N",
                        help="cProfile the GUI thread through each window action and print "
                             "its N busiest functions (cumulative)")
    args = parser.parse_args()
    if args.against or args.rounds > 1:
        interleaved(args.against, args.rounds)
        return
    speed = python_speed()
    print(f"this machine's Python speed: a loop of 10M additions takes {speed:.2f} s "
          f"(slow class {SLOW_CLASS} s)")
    if args.run_both:
        run_both(speed, args.stacks, args.late_ms)
        return
    from PySide6.QtWidgets import QApplication

    from inspector.core.app.comparing import compare
    from inspector.core.loaders import load
    from inspector.gui.app import tune_runtime
    from inspector.gui.compare_window import CompareWindow, layouts
    from inspector.gui.tasks import gui_tasks

    holds = None
    if args.c_holds:
        from gil_holds import Holds

        holds = Holds(args.c_holds / 1000).install()
    tune_runtime()                   # as the app does: the GIL handed over quickly
    app = QApplication.instance() or QApplication([])
    ga = load(blocks_graph(args.nodes, 0)).graph
    make = {"weights": lambda: load(blocks_graph(args.nodes, 1)).graph,
            "renamed": lambda: renamed(ga)}
    pairs = {label: make[label]() for label in args.pairs.split(",")}
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
    if args.gil_ms:
        watch.watch_gil(args.gil_ms / 1000)

    profiles: dict = {}

    def profiled(action: str):
        """Start a cProfile of the GUI thread for `action` (the last one stopped)."""
        import cProfile

        for p in profiles.values():
            p.disable()
        if args.profile_gui and action:
            profiles[action] = cProfile.Profile()
            profiles[action].enable()

    def settle(seconds: float = 0.0):
        """Until the tasks are done and `seconds` have passed: in a loop of processEvents
        and 2 ms sleeps (each turn takes the GIL back twice: on the slow class, whose
        throttled threads may hold the GIL through a CFS period, each take waits up to ~4 ms
        while another thread computes), or with --app-loop in Qt's event loop, as the app
        waits (its GUI thread takes the GIL only for the callbacks)."""
        end = time.perf_counter() + seconds
        if not args.app_loop:
            while tasks.is_busy() or time.perf_counter() < end:
                app.processEvents()
                time.sleep(0.002)
            return
        from PySide6.QtCore import QEventLoop, QTimer

        loop, check = QEventLoop(), QTimer()
        check.timeout.connect(lambda: loop.quit() if not tasks.is_busy() and
                              time.perf_counter() >= end else None)
        check.start(20)
        loop.exec()
        check.stop()

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
        profiled(watch.action)
        win = CompareWindow(result["s"], tasks, first=result["first"])
        win.show()
        settle(0.5)
        watch.action = f"{label}: N x5, P x2"
        profiled(watch.action)
        for delta in (1, 1, 1, 1, 1, -1, -1):
            win.step(delta)
            settle(0.1)
        watch.action = f"{label}: select across sides"
        profiled(watch.action)
        s = result["s"]
        name = next(iter(s.diff.matching.b_of))
        s.select("A", name)
        win.refresh()
        settle(0.3)
        watch.action = f"{label}: merged view on and off"
        profiled(watch.action)
        win.merged_box.click()
        settle(0.3)
        win.merged_box.click()
        settle(0.3)
        win.close()
        print(f"\n{len(ga):,} nodes, {label}: diff {seconds:.2f} s in the task; "
              f"{len(s.diff.entries):,} changes")
    watch.action = ""
    profiled("")
    watch.running = False
    for action, p in profiles.items():
        import io
        import pstats

        out = io.StringIO()
        pstats.Stats(p, stream=out).sort_stats("cumulative").print_stats(args.profile_gui)
        print(f"\n-- GUI thread's profile, {action}:\n" + out.getvalue().split("\n\n", 2)[-1])
    print("\nlongest GUI-thread wait per action (budget 100 ms):")
    for action, gap in watch.worst.items():
        if action:
            verdict = "" if gap < 0.1 else "  OVER"
            cpu, own = watch.cpu_of_worst.get(action, (0.0, 0.0))
            print(f"  {action:44s} {1000 * gap:7.1f} ms  (slow class ~"
                  f"{1000 * gap * SLOW_CLASS / speed:6.0f} ms){verdict}  CPU in it: process "
                  f"{1000 * cpu:.0f}, GUI thread {1000 * own:.0f} ms")
            print(f"    CPU per thread in it (ms): {watch.threads_line(action)}")
            busy = 1000 * watch.worst_busy.get(action, 0.0)
            print(f"    longest with the process busy: {busy:.1f} ms (its CPU at least half a "
                  "thread's share of the gap: ours, not the machine's)")
            over, over_busy = watch.over.get(action, (0, 0))
            print(f"    waits over 50 ms: {over} ({over_busy} with the process busy)")
            if args.where and watch.where_of_worst.get(action):
                print("    busy threads as it ended:\n" + watch.where_of_worst[action])
    if holds is not None:
        print(f"\nC calls that ran {args.c_holds:g} ms or more without a Python frame:")
        print(holds.report(40))
    for action in watch.worst:
        ranked = sorted(watch.stacks.get(action, {}).items(), key=lambda kv: -kv[1])
        for text, late in ranked[:args.stacks]:
            print(f"-- {action}: late {late * 1000:.0f} ms in:\n{text}")
        holds = sorted(watch.holds.get(action, {}).items(), key=lambda kv: -kv[1])
        for text, late in holds[:args.holds or max(args.stacks, 3)]:
            print(f"-- {action}: GIL held {late * 1000:.0f} ms, then:\n{text}")


def interleaved(against: str | None, rounds: int) -> None:
    """This bench's command (without --against and --rounds) run `rounds` times on this tree
    and on commit `against`, alternating (this tree first), each a process of its own; the
    worst wait per action of each run, then per side the worst over the rounds."""
    import subprocess

    import ab

    argv, skip = [], False
    for a in sys.argv[1:]:
        if skip:
            skip = False
        elif a in ("--against", "--rounds"):
            skip = True
        elif not a.startswith(("--against=", "--rounds=")):
            argv.append(a)
    seen: dict = {}                       # side -> action -> [ms per round]
    for k in range(rounds):
        for label, folder in ab.sides(against):
            out = subprocess.run([sys.executable, os.path.abspath(__file__), *argv],
                                 cwd=folder, capture_output=True, text=True,
                                 env=dict(ab.env(folder), COMPARE_GUI_BENCH_TREE=folder)).stdout
            print(f"\n=== round {k + 1}, {label} ({time.strftime('%H:%M:%S')}, load "
                  f"{os.getloadavg()[0]:.1f})\n{out}", flush=True)
            action = None
            for line in out.splitlines():
                if " ms  (slow class" in line:
                    action, ms = line[:line.index(" ms  (slow")].strip().rsplit(None, 1)
                    seen.setdefault(label, {}).setdefault(action, []).append(float(ms))
                elif action and "longest with the process busy: " in line:
                    ms = line.split("busy: ")[1].split(" ms")[0]
                    seen[label].setdefault(action + " (busy)", []).append(float(ms))
                elif action and "waits over 50 ms: " in line:
                    count = line.split("50 ms: ")[1].split()[0]
                    seen[label].setdefault(action + " (waits > 50 ms)", []).append(float(count))
    print("\nworst wait per action, ms, per round (" + ", ".join(seen) + "); (busy): the "
          "worst with the process busy; (waits > 50 ms): how many")
    actions = list(next(iter(seen.values()), {}))
    for action in actions:
        print(f"  {action:44s} " + " | ".join(
            " ".join(f"{ms:5.0f}" for ms in seen[label].get(action, [])) + f"  (max "
            f"{max(seen[label].get(action, [0])):.0f})" for label in seen))


def inception_int8_pair() -> tuple:
    """(Inception v3 .pb, its full-int8 .tflite), built once into the cache (TF's converter in
    a child process, 4 seeded calibration inputs in [-1, 1])."""
    import subprocess

    from demo_bench import inception_v3

    pb = inception_v3()
    tflite = os.path.join(os.path.dirname(pb), "inception_v3_int8.tflite")
    if not os.path.exists(tflite):
        code = ("import numpy as np\n"
                "from inspector.core.model.protos import GraphDef\n"
                "from inspector.core.tf.executor import install\n"
                "from inspector.core.tf.lite import convert_tflite\n"
                "install()\n"
                f"gd = GraphDef.FromString(open({pb!r}, 'rb').read())\n"
                "rng = np.random.default_rng(0)\n"
                "samples = [{'input': rng.uniform(-1, 1, (1, 299, 299, 3)).astype(np.float32)}"
                " for _ in range(4)]\n"
                "made = convert_tflite(gd, ['input'], ['Identity'], 'int8', "
                "representative=samples)\n"
                "assert made['model'], made['errors']\n"
                f"open({tflite + '.tmp'!r}, 'wb').write(made['model'])\n")
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=ROOT))
        os.replace(tflite + ".tmp", tflite)
    return pb, tflite


def run_both(speed: float, stacks: int = 0, late_ms: float = 60.0) -> None:
    """The app's window with the worker: File > Compare with… the int8 .tflite, then "Run both
    on the same input" twice (the second with the worker's interpreter kept); with `stacks`,
    where the GUI thread was when it was late during the runs (stall_watch)."""
    import tempfile

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from heartbeat import Heartbeat
    from inspector.core.app.session_file import session_path
    from inspector.gui.app import tune_runtime
    from inspector.gui.main_window import MainWindow
    from inspector.worker.client import install

    pb, tflite = inception_int8_pair()
    if os.path.exists(session_path(pb)):
        os.remove(session_path(pb))
    app = QApplication.instance() or QApplication([])
    tune_runtime()
    client = install()
    win = MainWindow(QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.IniFormat))
    win.resize(1366, 768)
    win.show()
    beat, ctl = Heartbeat(), win.compare_ctl
    idle = lambda: not win.tasks.is_busy()  # noqa: E731
    import threading

    thread = threading.Thread(target=client.available)     # the worker imports TensorFlow
    warm = beat.phase(app, thread.start, lambda: not thread.is_alive(), 600, "worker")
    opened = beat.phase(app, lambda: win.open_path(pb),
                        lambda: win.state.model is not None and idle(), 600, "open")
    shown = beat.phase(app, lambda: ctl.compare_with(tflite),
                       lambda: bool(ctl.windows) and ctl.windows[-1].ready() and idle(), 600,
                       "compare")
    cw = ctl.windows[-1]
    watch = None
    if stacks:
        from stall_watch import Watch

        watch = Watch(late_ms / 1000)
    runs = []
    for k in range(2):
        cw.divergence = None
        if watch is not None:
            watch.action = f"run both {k + 1}"
        runs.append(beat.phase(app, cw.numeric_button.click,
                               lambda: cw.divergence is not None and
                               cw.numeric_button.isEnabled(), 900, "run both"))
    if watch is not None:
        watch.running = False
        for action, seen in watch.stacks.items():
            for text, late in sorted(seen.items(), key=lambda kv: -kv[1])[:stacks]:
                print(f"-- {action}: late {late * 1000:.0f} ms in:\n{text}")
    d = cw.divergence
    layers = [a for a, _ in d.pairs if a not in d.constant]
    snr = [d.per_node[a]["snr_db"] for a in layers]
    print(f"\nInception v3 ({len(win.state.model.graph):,} nodes, "
          f"{os.path.getsize(pb) / 2 ** 20:.0f} MB) against its int8 .tflite "
          f"({os.path.getsize(tflite) / 2 ** 20:.0f} MB), the worker running both:")
    print(f"  {d.engines[0]} / {d.engines[1]}")
    print(f"  {len(d.per_node)} matched tensors compared ({len(layers)} layers), SNR "
          f"{min(snr):.1f} .. {max(snr):.1f} dB; first divergent layer: {d.first} "
          f"({d.layers.get(d.first, '')})")
    for what, (stall, seconds) in (("worker imports TensorFlow", warm), ("open the .pb", opened),
                                   ("compare with the .tflite", shown),
                                   ("Run both (first)", runs[0]),
                                   ("Run both (again)", runs[1])):
        scaled = seconds * SLOW_CLASS / speed
        print(f"  {what:26s} {seconds:7.2f} s (slow class ~{scaled:6.1f} s)  longest GUI "
              f"stall {1000 * stall:6.1f} ms{'  OVER' if stall >= 0.1 else ''}")
    import resource

    print(f"  GUI process peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}"
          " MB (the tensors stay in the worker: only the figures come back)")
    print("budget: Run both under 30 s on the slow class, no GUI stall over 100 ms")
    win.tasks.cancel()
    client.stop()


if __name__ == "__main__":
    main()
