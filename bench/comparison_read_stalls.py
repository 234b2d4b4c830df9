"""The longest wait of the window's GUI thread while File > Open comparison reads a 200 MB
comparison in its task (comparison_files.read_document through the app's Tasks, a 10 ms Qt
timer watching as stall_watch.Watch does), for this tree and, with --against REV, the
`inspector` package at REV, in the same run, rounds interleaved (one process each).

    flock /tmp/inspector-bench.lock python bench/slow_class.py -- \\
        python bench/comparison_read_stalls.py --against main [--rounds 2] [--only deep]
            [--switch 0.005]

Files (made once in ~/.cache/graphdef-inspector/comparisons/): "comparison", shaped as a
550k pair's saved comparison (tests/core/test_json_pieces' generator, ~200 MB), and "deep",
hostile15's 200 MB array of zeros at depth 4 (refused after the parse).

The GIL's switch interval is the app's (gui.app.tune_runtime: 0.1 ms) unless --switch says
another: each Qt call into Python waits that long for a busy task to hand the GIL over, up
to a few times a timer tick (the watch reads each thread's CPU). Before perf17cmp this bench
ran at Python's default 5 ms, which the figures of 4504ebb were taken at."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CACHE = os.path.expanduser("~/.cache/graphdef-inspector/comparisons")


def files(only: set) -> dict:
    os.makedirs(CACHE, exist_ok=True)
    for name in ("a.pb", "b.pb"):
        open(os.path.join(CACHE, name), "ab").close()
    out = {}
    for name in ("comparison", "deep"):
        if only and name not in only:
            continue
        path = os.path.join(CACHE, f"{name}-200mb.json")
        if not os.path.exists(path):
            sys.path.insert(0, ROOT)
            if name == "comparison":
                from tests.core.test_json_pieces import comparison

                doc = comparison(550_000)      # (made a valid one: from_dict reads it all)
                doc["models"] = {"A": "a.pb", "B": "b.pb"}
                doc["matching"]["merged"], doc["groups"][0]["members"] = {}, [0, 1]
                del doc["quality"]
                for e in doc["entries"]:
                    e["changes"][0]["figures"]["changed_share"] = 0.5
                text = json.dumps(doc, indent=1)
            else:
                text = '{"format": "f", "entries": [[[[' + "0," * 100_000_000 + "0]]]]}"
            with open(path + ".part", "w") as fh:
                fh.write(text)
            os.replace(path + ".part", path)
        out[name] = path
    return out


def child(path: str, switch: float) -> None:
    """Read `path` as the window does and print the figures as JSON."""
    from PySide6.QtWidgets import QApplication

    sys.setswitchinterval(switch)

    from inspector.core.app.comparison_files import read_document   # the side's own
    from inspector.gui.tasks import gui_tasks

    sys.path.insert(0, HERE)      # (after: stall_watch puts this tree first on the path)
    from stall_watch import Watch

    app = QApplication([])
    watch = Watch(late=1.0, sample=False)
    tasks, kept, t0 = gui_tasks(app), [], time.perf_counter()

    def end(result):
        kept.append(result)           # freed after the watch: not the read's
        kept.append(time.perf_counter() - t0)
        watch.timer.stop()
        app.quit()

    tasks.submit("compare", lambda job: read_document(path, job=job), end, end)
    app.exec()
    print(json.dumps({"took": kept[1], "tree": read_document.__code__.co_filename, "worst_ms": 1000 * watch.worst.get("open", 0),
                      "worst_busy_ms": 1000 * watch.worst_busy.get("open", 0),
                      "over_50": watch.over.get("open", [0, 0]),
                      "result": type(kept[0]).__name__}))
    sys.stdout.flush()
    os._exit(0)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--against", help="a commit: its inspector package read the same files")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--only", default="")
    p.add_argument("--switch", type=float, default=0.0001,
                   help="the GIL's switch interval, s (default the app's)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.switch)
        return 0
    sides = {"this tree": ROOT}
    if args.against:
        sys.path.insert(0, HERE)
        from ab import tree

        sides[args.against] = tree(args.against)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    for name, path in files(set(filter(None, args.only.split(",")))).items():
        print(f"{name}: {os.path.getsize(path) / 1e6:.0f} MB", flush=True)
        for r in range(args.rounds):
            for side, folder in sides.items():
                run = subprocess.run([sys.executable, os.path.abspath(__file__), "--child",
                                      path, "--switch", str(args.switch)], cwd=folder,
                                     env=dict(env, PYTHONPATH=folder), capture_output=True,
                                     text=True)
                try:
                    got = json.loads(run.stdout.strip().splitlines()[-1])
                except (IndexError, ValueError):
                    print(f"  {side}: failed\n{run.stderr[-2000:]}")
                    continue
                assert got["tree"].startswith(os.path.realpath(folder)), got["tree"]
                print(f"  round {r + 1} {side:>12}: read {got['took']:6.2f} s ({got['result']}),"
                      f" GUI's longest wait {got['worst_ms']:6.1f} ms (busy "
                      f"{got['worst_busy_ms']:.1f}), waits over 50 ms {got['over_50'][0]}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
