"""Fuzz the readers at scale: python bench/fuzz.py [CASES] [SEED]
(python bench/fuzz.py consts [CASES] [SEED]: the differential fuzz of the constants read from
NodeDef bytes, core/model/const_columns, against protobuf's parse: tests/fixtures/wire_fuzz;
python bench/fuzz.py wire [CASES] [SEED]: a 10k-node model mutated and opened through the
reader process and its compiled passes, core/model/wire_columns, as the window and as a
command)

Mutates real inputs (tests/fixtures/fuzz.py) and reports cases per second, clean errors,
crashes (any exception that is not the project's own error type, by signature), hangs (cases
over 5 s) and the peak memory. Runs in a child process per batch, so a crash or a memory
blow-up is counted, not fatal. Exit code 1 when anything but clean errors was found.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HANG_SECONDS = 5.0
BATCH = 500


def _signature(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f"{os.path.basename(f.filename)}:{f.lineno}" for f in reversed(frames)
                  if "/inspector/" in f.filename), "?")
    return f"{type(exc).__name__} at {where}"


def _batch(args):
    first, count, seed = args
    import signal

    from tests.fixtures import fuzz

    class Hang(Exception):
        pass

    def alarm(*_):
        raise Hang()

    signal.signal(signal.SIGALRM, alarm)
    models, texts = fuzz.model_corpus(), fuzz.text_corpus()
    out = {"clean": 0, "ok": 0, "crashes": Counter(), "examples": {}, "hangs": 0, "slowest": 0.0}
    with tempfile.TemporaryDirectory(prefix="inspector-fuzz-") as tmp:
        for case in range(first, first + count):
            rng = random.Random(seed * 1_000_003 + case)
            start = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS * 4)
            try:
                if case % 2:
                    name = rng.choice(sorted(models))
                    if name == "graph.pb" and case % 4 == 1:
                        data = fuzz.mutate_graph(models[name], rng, rng.randrange(1, 20))
                    else:
                        data = fuzz.mutate(models[name], rng, rng.randrange(1, 13))
                    folder = os.path.join(tmp, str(case))
                    os.makedirs(folder)
                    result = fuzz.run_model_case(folder, name, data)
                else:
                    kind = rng.choice(sorted(texts))
                    result = fuzz.run_text_case(kind, fuzz.mutate_text(texts[kind], rng,
                                                                       rng.randrange(1, 9)))
                out["clean" if result == "clean error" else "ok"] += 1
            except Hang:
                out["hangs"] += 1
            except Exception as exc:  # noqa: BLE001  (counting them is the point)
                sig = _signature(exc)
                out["crashes"][sig] += 1
                out["examples"].setdefault(sig, f"case {case} (seed {seed}): {exc!r}"[:300])
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            took = time.perf_counter() - start
            out["slowest"] = max(out["slowest"], took)
            if took > HANG_SECONDS:
                out["hangs"] += 1
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main(cases: int = 100_000, seed: int = 1) -> int:
    start = time.perf_counter()
    total = {"clean": 0, "ok": 0, "hangs": 0, "slowest": 0.0, "peak_mb": 0.0}
    crashes, examples = Counter(), {}
    jobs = [(first, min(BATCH, cases - first), seed) for first in range(0, cases, BATCH)]
    with mp.get_context("spawn").Pool(max(1, (os.cpu_count() or 2)), maxtasksperchild=4) as pool:
        for done, out in enumerate(pool.imap_unordered(_batch, jobs), 1):
            for key in ("clean", "ok", "hangs"):
                total[key] += out[key]
            total["slowest"] = max(total["slowest"], out["slowest"])
            total["peak_mb"] = max(total["peak_mb"], out["peak_mb"])
            crashes.update(out["crashes"])
            for sig, text in out["examples"].items():
                examples.setdefault(sig, text)
            if done % 20 == 0:
                print(f"  {done * BATCH} cases ...", file=sys.stderr)
    seconds = time.perf_counter() - start
    report = {"cases": cases, "seconds": round(seconds, 1),
              "cases_per_second": round(cases / seconds, 1), "loaded_or_parsed": total["ok"],
              "clean_errors": total["clean"], "crashes": sum(crashes.values()),
              "crash_signatures": len(crashes), "hangs_over_5s": total["hangs"],
              "slowest_case_s": round(total["slowest"], 2),
              "peak_memory_mb_per_worker": round(total["peak_mb"])}
    print(json.dumps(report, indent=2))
    for sig, n in crashes.most_common():
        print(f"{n:6d}  {sig}\n        {examples[sig]}")
    return 1 if crashes or total["hangs"] else 0


def consts(cases: int = 100_000, seed: int = 1) -> int:
    """Mutated Const NodeDefs whose facts read from the bytes differ from protobuf's parse
    (or make the read raise), 200 a graph; exit code 1 when any does."""
    from tests.fixtures import wire_fuzz

    start = time.perf_counter()
    bodies = wire_fuzz.const_bodies()
    donors = wire_fuzz.donors_of(bodies)
    found, crashes = [], Counter()
    for k in range(0, cases, 200):
        batch = wire_fuzz.cases(seed * 1_000_003 + k, min(200, cases - k), bodies, donors)
        try:
            bodies_of = {b[2:2 + b[1]].decode(): b for b in batch}
            found += [(name, got, want, bodies_of[name].hex())
                      for name, got, want in wire_fuzz.differences(batch)]
        except Exception as exc:  # noqa: BLE001  (counting them is the point)
            crashes[_signature(exc)] += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"cases": cases, "seconds": round(seconds, 1), "differences": len(found),
                      "crashes": sum(crashes.values())}, indent=2))
    for name, got, want, body in found[:20]:
        print(f"{name}: bytes {got} / protobuf {want}\n    {body}")
    for sig, n in crashes.most_common():
        print(f"{n:6d}  {sig}")
    return 1 if found or crashes else 0


def wire(cases: int = 200, seed: int = 1) -> int:
    """Mutated 10k-node GraphDefs opened through the reader process (its compiled passes,
    core/model/wire_columns) as the window does (nodes kept in the file) and as a command
    does: each opens, or fails with the project's one-line error; exit code 1 on anything
    else (an exception of another type, a dead reader is no failure: the file is read here
    then)."""
    from inspector.core.errors import InspectorError
    from inspector.core.loaders import load, reader_process
    from inspector.core.runtime import front_end
    from tests.fixtures import fuzz, scale_models

    data = open(scale_models.blocks_graph(10_000), "rb").read()
    reader_process.STREAM_ABOVE = reader_process.STORE_FROM = 1
    reader_process.CHUNK_NODES = 1000
    start, out, crashes, examples = time.perf_counter(), Counter(), Counter(), {}
    with tempfile.TemporaryDirectory(prefix="inspector-wire-fuzz-") as tmp:
        path = os.path.join(tmp, "m.pb")
        for case in range(cases):
            rng = random.Random(seed * 1_000_003 + case)
            mutated = fuzz.mutate_graph(data, rng, rng.randrange(1, 20)) if case % 2 else \
                fuzz.mutate(data, rng, rng.randrange(1, 13))
            with open(path, "wb") as fh:
                fh.write(mutated)
            front_end.WINDOW = bool(case % 4 < 2)
            try:
                model = load(path, freeze=False)
                fuzz.exercise_graph(model)
                out["opened"] += 1
            except InspectorError as exc:
                out["clean error"] += 1
                assert "\n" not in str(exc)
            except Exception as exc:  # noqa: BLE001  (counting them is the point)
                sig = _signature(exc)
                crashes[sig] += 1
                examples.setdefault(sig, f"case {case} (seed {seed}): {exc!r}"[:300])
    print(json.dumps({"cases": cases, "seconds": round(time.perf_counter() - start, 1),
                      **out, "crashes": sum(crashes.values())}, indent=2))
    for sig, n in crashes.most_common():
        print(f"{n:6d}  {sig}\n        {examples[sig]}")
    return 1 if crashes else 0


if __name__ == "__main__":
    if any(a in ("-h", "--help") for a in sys.argv[1:]) or not all(
            a.isdigit() for a in sys.argv[1 + (sys.argv[1:2] in (["wire"], ["consts"])):]):
        print(__doc__)
        sys.exit(0 if any(a in ("-h", "--help") for a in sys.argv[1:]) else 2)
    if sys.argv[1:2] == ["wire"]:
        sys.exit(wire(*(int(a) for a in sys.argv[2:4])))
    if sys.argv[1:2] == ["consts"]:
        sys.exit(consts(*(int(a) for a in sys.argv[2:4])))
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
