"""View > Expand all scopes, then Collapse all scopes, on a big model as a user does them (the
menu's actions, after the open has settled), then the top scopes opened (the same picture on
both sides) and collapsed again: per action the longest GUI-thread stall (in it and in the
2 s after it), the seconds until the scene is drawn and no task is busy, the items drawn,
and the window's RSS and peak RSS after it. Each side runs in a fresh process; with --against REV the earlier
commit's `inspector` runs in the same run (bench/ab.py).

    python bench/expand_all.py MODEL [--against REV] [--rounds 1]
    bench/slow_class.py -- .venv/bin/python bench/expand_all.py --against REV MODEL"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if "--child" in sys.argv:      # the side's `inspector` first (PYTHONPATH), then this bench
    sys.path[0] = ROOT
    sys.path.sort(key=lambda p: p == ROOT)
else:
    sys.path.insert(0, ROOT)


def settled_window(model: str):
    """The app's window with `model` opened as a user opens it, drawn, summarised, idle and
    left alone 5 s more: (app, window, restore)."""
    from bench.heartbeat import wait
    from bench.scale_app import open_app
    from inspector.gui.app import open_once_painted

    app, win, _client, restore = open_app(model)
    open_once_painted(win, model)
    wait(app, lambda: win.scenes_drawn > 0, timeout=900)
    wait(app, lambda: win.state.summary is not None and not win.tasks.is_busy(), timeout=900)
    painted = time.perf_counter()
    wait(app, lambda: time.perf_counter() > painted + 5.0, timeout=900)
    return app, win, restore


def _menu_action(win, text: str):
    from PySide6.QtGui import QAction

    for action in win.findChildren(QAction):
        if action.text().replace("&", "") == text:
            return action
    raise LookupError(text)


def child(model: str) -> None:
    import inspector

    print(f"inspector from {os.path.dirname(inspector.__file__)}", file=sys.stderr)
    from bench.heartbeat import Heartbeat, wait
    from bench.scale_app import status_mb

    app, win, restore = settled_window(model)
    canvas = win.canvas
    beat, out = Heartbeat(), {"open": {"rss_mb": round(status_mb("VmRSS")),
                                       "items": len(canvas.items_by_id)}}
    top = [c.path for c in win.state.view.root.children.values()]
    steps = [("expand all", _menu_action(win, "Expand all scopes").trigger),
             ("collapse all", _menu_action(win, "Collapse all scopes").trigger),
             ("open the top scopes", lambda: win.state.open_scopes(top)),
             ("collapse them", _menu_action(win, "Collapse all scopes").trigger)]
    for name, step in steps:
        drawn = win.scenes_drawn

        def done():
            return (win.scenes_drawn > drawn and not win.tasks.is_busy() and
                    canvas.viewport().updatesEnabled())

        stall, took = beat.phase(app, step, done, 1800, name)
        t = time.perf_counter()        # the idle stretch after it: a stall left behind
        beat.worst = 0.0
        wait(app, lambda: time.perf_counter() > t + 2.0)
        out[name] = {"stall_ms": round(1000 * max(stall, beat.worst)), "s": round(took, 2),
                     "items": len(canvas.items_by_id), "rss_mb": round(status_mb("VmRSS")),
                     "peak_mb": round(status_mb("VmHWM")),
                     "status": win.status_line.label.text()}
    restore()              # a session file beside the model, moved aside by open_app
    print("RESULT " + json.dumps(out), flush=True)
    os._exit(0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("--against")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.model)
        return
    from bench import ab
    from bench.scale import python_speed
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    print(f"python_speed {python_speed():.2f} s (the slow class: 0.88 s), load {load}",
          flush=True)
    for r in range(args.rounds):
        sides = ab.sides(args.against)
        if r % 2:
            sides.reverse()
        for label, folder in sides:
            env = dict(ab.env(folder), QT_QPA_PLATFORM="offscreen")
            run = subprocess.run([sys.executable, os.path.abspath(__file__), "--child",
                                  os.path.abspath(args.model)], cwd=folder, env=env,
                                 capture_output=True, text=True)
            line = next((ln for ln in run.stdout.splitlines() if ln.startswith("RESULT ")),
                        None)
            if line is None:
                print(f"{label}: failed (rc {run.returncode})\n{run.stderr[-2000:]}")
                continue
            for phase, figures in json.loads(line[7:]).items():
                print(f"{label:>16} {phase:>13}: " +
                      ", ".join(f"{k} {v}" for k, v in figures.items()), flush=True)


if __name__ == "__main__":
    main()
