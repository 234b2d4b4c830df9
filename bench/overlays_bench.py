"""Overlay benchmark: profiling overhead (traced vs untraced runs, same process, same graph)
and the time to parse 10,000 requantization log lines (ours and a regex baseline).

Run: .venv/bin/python bench/overlays_bench.py
"""

from __future__ import annotations

import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from inspector.core.tf.executor import install  # noqa: E402
from tests.fixtures import fixture_dir  # noqa: E402

install()  # TensorFlow work runs in this process


def profiling_overhead() -> None:
    from inspector.core.loaders import load
    from inspector.core.overlays.profiling import run_profile

    found = [os.path.join(fixture_dir(), "mobilenet_v2.pb")]
    if not found:
        print("profiling: build the test fixtures first (run the tests once)")
        return
    gd = load(found[-1]).graph.graph_def
    prof = run_profile(gd, ["input"], ["Identity"], {"input": (1, 224, 224, 3)}, warmup=3,
                       runs=20)
    plain = sorted(prof.untraced_us)[len(prof.untraced_us) // 2]
    traced = sorted(prof.run_totals_us)[len(prof.run_totals_us) // 2]
    print(f"profiling MobileNetV2 (20 runs each): untraced median {plain / 1000:.2f} ms, traced "
          f"median {traced / 1000:.2f} ms, overhead {100 * (traced - plain) / plain:+.0f}%")


def log_parsing() -> None:
    from inspector.core.analysis.ranges import parse_log

    lines = []
    for i in range(10000):
        name = f"block_{i % 50}/conv/Conv2D/eightbit/requant_range"
        prefix = "I0108 21:45:42.261883    1972 logging_ops.cc:79] " if i % 2 else ""
        lines.append(f"{prefix};{name}__print__;__requant_min_max:[{-i % 7 - 0.5}][{i % 11 + 0.25}]")
    text = "\n".join(lines)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        log = parse_log(text)
        best = min(best, time.perf_counter() - t)
    pattern = re.compile(r";([^;]*)__print__;__requant_min_max:\[([^\[\]]*)\]\[([^\[\]]*)\]")
    base = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        found = [pattern.search(line) for line in text.split("\n")]
        base = min(base, time.perf_counter() - t)
    assert sum(len(v) for v in log.records.values()) == 10000 and all(found)
    print(f"parsing 10,000 log lines: {1000 * best:.1f} ms (a bare regex scan: "
          f"{1000 * base:.1f} ms, ratio {best / base:.2f})")


if __name__ == "__main__":
    log_parsing()
    profiling_overhead()
