"""The TensorFlow worker against TensorFlow in this process, measured in the same run:
a small request's round trip, a model-sized request (shape inference of Inception v1 and
MobileNetV2), how fast Cancel returns from a run deep in TF, and how long a new worker takes
to answer after a crash. Prints figures and ratios.

    .venv/bin/python bench/worker_bench.py
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    from fixtures import fixture_dir

    from inspector.core.loaders import load
    from inspector.core.runtime.job import Job, running
    from inspector.core.tf.executor import InProcess
    from inspector.worker.client import WorkerClient, WorkerFailed

    fx = fixture_dir()
    here = InProcess()
    worker = WorkerClient(env=dict(os.environ, INSPECTOR_WORKER_TEST="1"))
    start = time.perf_counter()
    worker.available()
    print(f"worker start + import tensorflow: {time.perf_counter() - start:.2f} s "
          "(once, off the GUI thread; the first frame never waits for it)")
    print(f"{'request':<48}{'in-process':>12}{'worker':>12}{'ratio':>8}")
    cases = [("small: available()", lambda ex: ex.available(), 200)]
    for name, shape in (("inception_jpeg.pb", (1, 299, 299, 3)),
                        ("mobilenet_v2.pb", (1, 224, 224, 3))):
        gd = load(os.path.join(fx, name)).graph.graph_def
        feed = "Mul" if name.startswith("inception") else "input"
        cases.append((f"infer_shapes {name} ({len(gd.node)} nodes)",
                      lambda ex, gd=gd, feed=feed, shape=shape: ex.infer_shapes(
                          gd, {feed: shape}), 10))
    for label, fn, repeat in cases:
        fn(here), fn(worker)  # warm
        a, b = timed(lambda: fn(here), repeat), timed(lambda: fn(worker), repeat)
        print(f"{label:<48}{a * 1000:>10.2f}ms{b * 1000:>10.2f}ms{b / a:>7.1f}x")
    flag = threading.Event()
    threading.Timer(0.2, flag.set).start()
    start = time.perf_counter()
    try:
        with running(Job(flag)):
            worker._sleep(60)
    except Exception:  # noqa: BLE001 - Cancelled
        pass
    print(f"Cancel of a run inside the worker returned after "
          f"{(time.perf_counter() - start - 0.2) * 1000:.0f} ms (in-process: cannot return "
          "until TF does)")
    try:
        worker._abort()
    except WorkerFailed:
        pass
    start = time.perf_counter()
    worker.available()
    print(f"after a crash, a new worker answered (TF imported again) in "
          f"{time.perf_counter() - start:.2f} s")
    worker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
