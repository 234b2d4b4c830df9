"""The first picture of big models, from process start, this tree against an earlier commit
in the same run: `python -m inspector MODEL` launched fresh and timed from launch to its
`first frame drawn` line (INSPECTOR_EXIT_AFTER_FIRST_FRAME; bench/start_floor.py's timing),
rounds alternating between the sides (the order flipping every round), each round's figures
printed as it ends (with the CPU time of the window's process and of its start-up reader by
then), then each side's median, with the python_speed before and after.

  python bench/first_picture.py [--rounds 7] [--against REV ...] [--env NAME=VALUE ...] MODEL...
  bench/slow_class.py -- .venv/bin/python bench/first_picture.py --against REV MODEL

--env NAME=VALUE: one more side, this tree run with that environment variable set (a switch
measured against the code without it)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def sides(models: list, against: list, envs: list) -> list:
    """[(label, cmd, env)] for each side and model."""
    from bench import ab

    py = sys.executable
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",
                                                             "PYTHONDONTWRITEBYTECODE")}
    base.setdefault("QT_QPA_PLATFORM", "offscreen")
    settings = os.path.join(tempfile.mkdtemp(prefix="first-picture-"), "settings.ini")
    base.update(INSPECTOR_EXIT_AFTER_FIRST_FRAME="1", INSPECTOR_SINGLE_INSTANCE="0",
                INSPECTOR_SETTINGS=settings)
    trees = ab.sides(None) + [(f"at {rev}", ab.tree(rev)) for rev in against]
    for label, folder in trees:
        ab.compiled(folder)
    variants = [(label, dict(base, PYTHONPATH=folder)) for label, folder in trees]
    for pair in envs:
        name, _, value = pair.partition("=")
        variants.append((f"now, {pair}", dict(base, PYTHONPATH=ROOT, **{name: value})))
    out = []
    for model in models:
        for label, env in variants:
            out.append((f"{os.path.basename(model)} ({label})",
                        [py, "-m", "inspector", model], env))
    return out


def main() -> None:
    from bench.scale import order, python_speed
    from bench.start_floor import aside, timed

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="+")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--against", action="append", default=[],
                   help="also this commit's inspector, alternating (may be repeated)")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="also this tree with this environment variable set")
    args = p.parse_args()
    models = [os.path.abspath(m) for m in args.models]
    for model in models:
        if not os.path.exists(model):
            p.error(f"{model}: no such file")
    aside(models)
    cases = sides(models, args.against, args.env)
    speed = python_speed()
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    print(f"python_speed {speed:.2f} s (the slow class: 0.88 s), load {load}", flush=True)
    for _, cmd, env in cases:            # warm: bytecode and page cache
        timed(cmd, env, "first frame drawn", children=True)
    times = [[] for _ in cases]
    cpus = [[] for _ in cases]
    for k in order(len(cases), args.rounds):
        label, cmd, env = cases[k]
        wall, cpu, reader = timed(cmd, env, "first frame drawn", children=True)
        times[k].append(wall)
        cpus[k].append(cpu + reader)
        print(f"  {label:<52} {wall:6.3f} s  (CPU: window {cpu:5.3f} s, reader {reader:5.2f} s)",
              flush=True)
    after = python_speed()
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    for (label, *_), row, cpu in zip(cases, times, cpus):
        print(f"{label:<54} median {statistics.median(row):6.3f} s  best {min(row):6.3f} s"
              f"  ({len(row)} runs: {' '.join(f'{t:.2f}' for t in row)});"
              f" CPU both processes median {statistics.median(cpu):5.3f} s")
    print(f"python_speed after: {after:.2f} s ({after / speed - 1:+.0%}), load {load}")


if __name__ == "__main__":
    main()
