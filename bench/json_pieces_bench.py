"""json_pieces.loads against json.loads and, with --against REV, against json_pieces as it
was at REV, in the same run, rounds interleaved: the parse time, and the longest the main
thread waited for the GIL while the parse ran in a thread (it ticks every 1 ms: a tick late
by more than the interval is a C call of the parse holding the GIL, as d3faa3e measured it).

    flock /tmp/inspector-bench.lock python bench/slow_class.py -- \\
        python bench/json_pieces_bench.py --against main [--rounds 2] [--only zeros,...]

Documents: a saved comparison shaped as a 300k pair's (~110 MB; tests/core/test_json_pieces'
generator), 2M zeros in an array, 2M small ints in an object, 1M two-name pairs."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)


def _module(folder: str, tag: str):
    path = os.path.join(folder, "inspector", "core", "runtime", "json_pieces.py")
    spec = importlib.util.spec_from_file_location(f"json_pieces_{tag}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def documents(only: set) -> dict:
    from tests.core.test_json_pieces import comparison

    docs = {
        "comparison": lambda: json.dumps(comparison(300_000), indent=1),
        "zeros": lambda: '{"format": "f", "entries": [' + ",".join(["0"] * 2_000_000) + "]}",
        "object": lambda: '{"q": {' + ",".join(f'"k{k}": {k % 97}' for k in range(2_000_000))
        + "}}",
        "pairs": lambda: json.dumps({"matching": {"pairs": [[f"a/n{k}", f"b/m{k}", "name"]
                                                            for k in range(1_000_000)]}}),
    }
    return {k: f() for k, f in docs.items() if not only or k in only}


def held(parse, text: str) -> tuple:
    """(seconds the parse took in a thread, the main thread's longest wait in ms)."""
    done, out, took = threading.Event(), {}, []

    def work():
        from inspector.core.runtime import gc_policy

        t = time.perf_counter()
        with gc_policy.paused():     # as the app's tasks run (core.runtime.tasks)
            out["value"] = parse(text)
        took.append(time.perf_counter() - t)
        done.set()          # (the value is freed after the watch: not the parse's hold)

    worst, thread = 0.0, threading.Thread(target=work)
    last = time.perf_counter()
    thread.start()
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        worst, last = max(worst, now - last - 0.001), now
    thread.join()
    out.clear()
    return took[0], worst * 1000


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--against", help="a commit: its json_pieces timed in the same run")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--only", default="", help="comma-separated documents")
    args = p.parse_args()
    sides = {"json.loads": json.loads, "this tree": _module(ROOT, "new").loads}
    if args.against:
        from ab import tree

        sides[args.against] = _module(tree(args.against), "old").loads
    sys.setswitchinterval(0.005)
    for name, text in documents(set(filter(None, args.only.split(",")))).items():
        want = json.loads(text)
        print(f"{name}: {len(text) / 1e6:.1f} M characters")
        for r in range(args.rounds):
            for side, parse in sides.items():
                took, worst = held(parse, text)
                print(f"  round {r + 1} {side:>12}: {took:6.2f} s, main thread's longest "
                      f"wait {worst:6.1f} ms", flush=True)
        got = sides["this tree"](text)
        assert repr(got) == repr(want), name
    return 0


if __name__ == "__main__":
    sys.exit(main())
