"""The app half of bench/scale.py, run in a fresh process per model: prints one JSON line with
the first picture from process start, the longest GUI-thread stall per action and in the 10 s
after the first picture (`settle`), and memory (the window's RSS and peak after the open and
after each action: `memory`)."""

from __future__ import annotations

import json
import os
import sys
import time

MB = 2 ** 20
SETTLE = 10.0      # seconds after the first picture that the stall budget covers


def process_start() -> float:
    """When this process started, on the time.time() clock. psutil's create_time() adds the
    boot time, which /proc/stat gives in whole seconds (seen 0.75 s late); the system's uptime
    and the process's start tick, both from the kernel, are exact to one clock tick."""
    with open("/proc/uptime") as fh:
        uptime = float(fh.read().split()[0])
    with open("/proc/self/stat") as fh:
        ticks = int(fh.read().rpartition(")")[2].split()[19])
    return time.time() - (uptime - ticks / os.sysconf("SC_CLK_TCK"))


START = process_start()


def status_mb(field: str, pid: str = "self") -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_app(path: str):
    """(QApplication, window, TF client, restore) started as the app's own start does
    (inspector.gui.app.main), with a fresh session for the model: a session file beside it is
    moved aside (start_floor.aside) until `restore()`, which the caller runs before os._exit
    (atexit does not run then)."""
    from bench.start_floor import aside
    from inspector.gui.app import start_early

    restore = aside([path])

    start_early(path)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from inspector.gui.app import charts_after_first_picture, tune_runtime
    from inspector.gui.main_window import MainWindow
    from inspector.worker.client import install

    tune_runtime()
    client = install()
    settings = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache", "scale.ini")
    win = charts_after_first_picture(lambda: MainWindow(QSettings(settings,
                                                                  QSettings.IniFormat)))
    win.resize(1366, 768)
    win.show()
    return app, win, client, restore


def actions(win, more: bool = False) -> list:
    """What a user does after the open, as (name, action, done) in order: expand the largest
    scope, search for the last node, mark input and output, preview a strip, show constants;
    `more`: then View > Expand all and Collapse all (bench/expand_all.py measures them).
    Each is measured from the action until done and no task is busy."""
    out, seen = [], {}    # seen: counters taken when each action starts
    if more:
        out += _all_scopes(win, seen)
    scopes = [i for i in win.state.scene.items.values() if i.kind == "scope"]
    if scopes:
        largest = max(scopes, key=lambda i: i.child_count)
        out.append(("expand", lambda: (seen.__setitem__("expand", win.scenes_drawn),
                                       win.state.set_expanded(largest.id[:-1], True)),
                    lambda: win.scenes_drawn > seen["expand"]))
    graph = win.state.view.graph
    last, first_input = graph.nodes[-1].name, graph.nodes[0].name
    out.append(("search", lambda: (seen.__setitem__("search", win.search.searches),
                                   win.search_panel.box.setText(last.rpartition("/")[2][:6])),
                lambda: win.search.searches > seen["search"]))
    out.append(("mark", lambda: win.workbench.set_marks([first_input], [last]), lambda: True))
    out.append(("strip preview", lambda: win.workbench.set_text("strip_unused_nodes"),
                lambda: len(win.state.rows) > 1))
    out.append(("constants", lambda: (seen.__setitem__("drawn", win.scenes_drawn),
                                      win.consts_action.trigger()),
                lambda: win.scenes_drawn > seen["drawn"]))
    return out


def _all_scopes(win, seen) -> list:
    from PySide6.QtGui import QAction

    menu = {a.text().replace("&", ""): a for a in win.findChildren(QAction)}

    def step(text):
        return lambda: (seen.__setitem__(text, win.scenes_drawn), menu[text].trigger())

    return [(text.lower(), step(text), lambda t=text: win.scenes_drawn > seen[t] and
             win.canvas.viewport().updatesEnabled())
            for text in ("Expand all scopes", "Collapse all scopes")]


def compare_actions(win, path: str) -> list:
    """The diff window's actions, as (name, action, done) like actions(): File > Compare
    with `path` (the diff in a task, then the window drawn), N x5 and P x2, a node selected
    across the sides, the largest scope of A expanded (its layout) and collapsed."""
    ctl, seen = win.compare_ctl, {}

    def window():
        return ctl.windows[-1]

    def ready():
        return bool(ctl.windows) and window().ready() and not win.tasks.is_busy()

    def steps():
        for delta in (1, 1, 1, 1, 1, -1, -1):
            window().step(delta)

    def select():
        s = window().session
        s.select("A", next(iter(s.diff.matching.b_of)))
        window().refresh()

    def toggle():
        w = window()
        scopes = [g.item for g in w.canvases["A"].items_by_id.values()
                  if g.item.kind == "scope"] if "largest" not in seen else []
        if scopes:
            seen["largest"] = max(scopes, key=lambda i: i.child_count).id
        if "largest" in seen:
            w._toggle("A", seen["largest"])

    return [("compare: diff and window", lambda: ctl.compare_with(path), ready),
            ("compare: N x5, P x2", steps, ready),
            ("compare: select across sides", select, ready),
            ("compare: expand a scope of A", toggle, ready),
            ("compare: collapse it", toggle, ready)]


def settled(beats: list, painted: float) -> float:
    """The longest gap between two heartbeats that ends after the first picture and starts
    within SETTLE seconds of it."""
    return max((b - a for a, b in zip(beats, beats[1:])
                if b > painted and a < painted + SETTLE), default=0.0)


def main() -> None:
    path = sys.argv[1]
    app, win, client, restore = open_app(path)
    from bench.heartbeat import Beat as Heartbeat, wait   # not gui_bench: its imports
    from inspector.gui.app import open_once_painted

    beat = Heartbeat()
    beat.start()
    beats = []                      # when each beat came: the settle's stall
    beat.timer.timeout.connect(lambda: beats.append(time.perf_counter()))
    open_once_painted(win, path)    # as the app's start does
    wait(app, lambda: win.scenes_drawn > 0)
    win.canvas.viewport().repaint()
    first = time.time() - START     # the graph is painted; the summary and TF work follow
    painted = time.perf_counter()
    wait(app, lambda: win.state.summary is not None and not win.tasks.is_busy())
    stalls = {"open": beat.worst}
    memory = {"open": (status_mb("VmRSS"), status_mb("VmHWM"))}
    wait(app, lambda: time.perf_counter() > painted + SETTLE)
    beat.stop()
    settle = settled(beats, painted)
    items = len(win.state.scene.items)

    def timed(name, action, done):
        beat.start()
        action()
        wait(app, done)
        wait(app, lambda: not win.tasks.is_busy())
        stalls[name] = beat.stop()
        memory[name] = (status_mb("VmRSS"), status_mb("VmHWM"))

    for name, action, done in actions(win):
        timed(name, action, done)
    worker = client.pid()
    result = dict(first=first, items=items, stalls=stalls, settle=settle, memory=memory,
                  window_peak=status_mb("VmHWM"), window_anon=status_mb("RssAnon"),
                  window_rss=status_mb("VmRSS"),
                  worker_rss=status_mb("VmRSS", str(worker)) if worker else 0.0)
    win.close()
    restore()
    print(json.dumps(result))
    sys.stdout.flush()
    os._exit(0)
