"""The floor under the app's first picture: how long a bare Python, a bare Qt window and the
app itself take from process start on this machine, in the same run. Each row is a fresh
process launched from here and timed from launch to a line it prints (at exit, at the first
paint of its window, or the app's "first frame drawn" once the model's first picture is
painted); rows are interleaved, the order flipping every round, and each row's best and
median are printed with the python_speed measured before and after. No budget is asserted:
the figures say what a first-picture budget from process start can mean here.

  python bench/start_floor.py [--rounds 5] [--model PATH ...] [--against REV] [--only TEXT]
                              [--no-site]
  bench/slow_class.py -- .venv/bin/python bench/start_floor.py     (the slow class)

Rows:
  python -S -c pass        the interpreter alone (no site: no .pth files, no site-packages)
  python -c pass           + site (the editable install's .pth finder)
  Qt window                import PySide6.QtWidgets, a QApplication and a QMainWindow,
                           shown; exits at its first paint
  Qt + app's libraries     the same after importing what the app imports from other
                           packages before its first paint (PySide6's QtCore/QtGui/QtWidgets
                           and protobuf's GraphDef messages)
  ... + the Qt namespace   and reading PySide6.QtCore.Qt, which every widget module of the
                           app reads: PySide then makes its ~90 enum classes (Qt.Key's 471
                           members...), ~11-14 ms at normal speed
  app: window painted      `python -m inspector` (demo model): the window's first paint
  app: first picture       `python -m inspector [MODEL]`: the model's first picture painted
--against REV: the two app rows also with commit REV's `inspector` package (bench/ab.py).
--no-site: each Python started as an install from a wheel starts it (-S, the virtualenv's
packages on PYTHONPATH): without the editable install's .pth finder, which imports pathlib,
tempfile and more into every process of a source checkout."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

PAINTED = """
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow()
window.resize(1366, 768)
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Paint and obj is window:
            print("painted", flush=True)
            app.exit(0)
        return False
watch = FirstPaint()
window.installEventFilter(watch)
window.show()
app.exec()
"""
LIBRARIES = ("import PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets\n"
             "from tensorboard.compat.proto import graph_pb2\n")
QT_NAMESPACE = "from PySide6.QtCore import Qt\nQt.AlignLeft\n"
# the app's own start (the launcher, demo model), hooked at its window's first paint
APP_PAINTED = """
import os, runpy, sys
import inspector.gui.app as app
opening = app.open_once_painted
def hooked(window, *args, **kwargs):
    from PySide6.QtCore import QEvent, QObject
    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and obj is window:
                print("painted", flush=True)
                os._exit(0)
            return False
    window._floor_watch = FirstPaint(window)
    window.installEventFilter(window._floor_watch)
    return opening(window, *args, **kwargs)
app.open_once_painted = hooked
sys.argv = ["graphdef-inspector"]
runpy.run_module("inspector", run_name="__main__")
"""


def cpu_seconds(pid: int) -> float:
    """CPU time the process's threads have run so far (their schedstat, in nanoseconds;
    /proc/PID/stat counts whole clock ticks)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                total += int(fh.read().split()[0])
        except (OSError, ValueError, IndexError):      # a thread that just ended
            pass
    return total / 1e9


def children_cpu(pid: int) -> float:
    """CPU seconds of the children the process has waited for (its start-up reader, once
    it is done): /proc/PID/stat's cutime and cstime."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rpartition(")")[2].split()
        return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def aside(models: list):
    """Move a session file beside a model (it skews the model's open) out of the way for the
    run, and back at exit: never deleted (it may be a user's work, or a file the repository
    ships: the demo's). Returns the restore, also registered with atexit; a run that ends
    with os._exit (the app halves: scale_app, stall_watch) calls it first. The restore puts
    each file back over what the run wrote there, and removes a session file the run made
    beside a model that had none."""
    import atexit

    moved, absent = [], []
    for model in models:
        session = os.path.abspath(model) + ".inspector.json"
        if os.path.lexists(session):
            kept = f"{session}.bench-{os.getpid()}"
            os.rename(session, kept)
            moved.append((kept, session))
        else:
            absent.append(session)

    def restore() -> None:
        while moved:
            os.replace(*moved.pop())
        while absent:
            session = absent.pop()
            if os.path.lexists(session):
                os.remove(session)

    atexit.register(restore)
    return restore


def timed(cmd: list, env: dict, until: str | None, children: bool = False) -> tuple:
    """(seconds from launch to the line starting with `until` (None: to the exit), CPU
    seconds the process had used by then: steadier than the wall time on a busy machine;
    with `children`, also its waited-for children's CPU by then: the start-up reader's)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, cwd="/tmp")
    if until is None:
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return time.perf_counter() - t, usage.ru_utime + usage.ru_stime
    for line in proc.stdout:
        if line.startswith(until):
            elapsed = time.perf_counter() - t
            cpu = cpu_seconds(proc.pid)
            reader = children_cpu(proc.pid) if children else None
            break
    else:
        proc.wait()
        raise RuntimeError(f"{' '.join(cmd[:4])} exited ({proc.returncode}) before {until!r}")
    proc.stdout.close()
    proc.kill()
    proc.wait(timeout=60)
    return (elapsed, cpu, reader) if children else (elapsed, cpu)


def rows(models: list, against: str | None, no_site: bool = False) -> list:
    """[(label, cmd, env, line to wait for)]; no_site: every Python (but the first row's)
    started with -S and the virtualenv's packages on PYTHONPATH, as an install from a wheel
    starts (no editable install's .pth finder and what it imports)."""
    import sysconfig

    py = sys.executable
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",
                                                             "PYTHONDONTWRITEBYTECODE")}
    packages = sysconfig.get_paths()["purelib"]
    if no_site:
        base["PYTHONPATH"] = packages
    base.setdefault("QT_QPA_PLATFORM", "offscreen")
    settings = os.path.join(tempfile.mkdtemp(prefix="start-floor-"), "settings.ini")
    app_env = dict(base, INSPECTOR_EXIT_AFTER_FIRST_FRAME="1", INSPECTOR_SINGLE_INSTANCE="0",
                   INSPECTOR_SETTINGS=settings)
    s = ["-S"] if no_site else []
    out = [("python -S -c pass", [py, "-S", "-c", "pass"], base, None),
           ("python -c pass" + (" (-S, packages on the path)" if no_site else ""),
            [py, *s, "-c", "pass"], base, None),
           ("Qt window painted", [py, *s, "-c", PAINTED], base, "painted"),
           ("Qt + app's libraries, painted", [py, *s, "-c", LIBRARIES + PAINTED], base,
            "painted"),
           ("Qt + libraries + Qt namespace, painted",
            [py, *s, "-c", LIBRARIES + QT_NAMESPACE + PAINTED], base, "painted")]
    from bench import ab

    for label, folder in ab.sides(against):
        env = dict(app_env, PYTHONPATH=folder + (os.pathsep + packages if no_site else ""))
        tag = "" if label == "now" else f" ({label})"
        out.append((f"app: window painted{tag}", [py, *s, "-c", APP_PAINTED], env, "painted"))
        for model in models:
            name = os.path.basename(model) if model else "demo model"
            out.append((f"app: first picture, {name}{tag}",
                        [py, *s, "-m", "inspector"] + ([model] if model else []), env,
                        "first frame drawn"))
    return out


def main() -> None:
    from bench.scale import order, python_speed

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--model", action="append", default=[],
                   help="also this model's first picture (the demo model's always)")
    p.add_argument("--against", help="the app rows also with this commit's inspector")
    p.add_argument("--only", help="only the rows whose label has this text")
    p.add_argument("--no-site", action="store_true",
                   help="start every Python as a wheel install does: -S, the virtualenv's "
                        "packages on PYTHONPATH (no editable install's .pth finder)")
    args = p.parse_args()
    for model in args.model:    # (the app would wait on its "cannot open" dialog for ever)
        if not os.path.exists(model):
            p.error(f"--model {model}: no such file or folder")
    cases = rows([None] + [os.path.abspath(m) for m in args.model], args.against,
                 args.no_site)
    cases = [c for c in cases if args.only is None or args.only in c[0]]
    aside(args.model)
    speed = python_speed()
    print(f"python_speed {speed:.2f} s (the slow class: 0.88 s)", flush=True)
    for _, cmd, env, until in cases:     # warm: bytecode and page cache
        timed(cmd, env, until)
    times = [[] for _ in cases]
    for k in order(len(cases), args.rounds):
        label, cmd, env, until = cases[k]
        times[k].append(timed(cmd, env, until))
    after = python_speed()
    for (label, *_), row in zip(cases, times):
        wall, cpu = [r[0] for r in row], [r[1] for r in row]
        print(f"{label:<46} best {min(wall):5.3f} s   median {statistics.median(wall):5.3f} s"
              f"   CPU median {statistics.median(cpu):5.3f} s   ({len(row)} runs)")
    print(f"python_speed after: {after:.2f} s ({after / speed - 1:+.0%})")


if __name__ == "__main__":
    main()
