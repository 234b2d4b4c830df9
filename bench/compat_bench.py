"""TFLite compatibility overlay benchmark: a 10k-node graph with every node drawn, timed
from "Check compatibility" to the recoloured canvas (budget 200 ms, no GUI-thread stall over
100 ms), split into its parts, with the protobuf parse of the same file as the reference.

Run: .venv/bin/python bench/compat_bench.py [NODES]   (offscreen; default 10000)
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench.gui_bench import Heartbeat, wait  # noqa: E402
from tests.fixtures.scale_models import blocks_graph, flat_graph  # noqa: E402


def best(fn, repeat=5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from inspector.core.app.decorations import decorations
    from inspector.core.mobile import tflite_compat as tc
    from inspector.core.model.protos import GraphDef
    from inspector.gui.app import tune_runtime
    from inspector.gui.main_window import MainWindow

    tune_runtime()          # as the app runs: the GIL handed over quickly
    nodes = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10000
    path = blocks_graph(nodes) if "--blocks" in sys.argv else flat_graph(nodes)
    data = open(path, "rb").read()
    parse = best(lambda: GraphDef.FromString(data))
    app = QApplication([])
    win = MainWindow(QSettings(os.path.join(ROOT, "bench", ".cache", "compat.ini"),
                               QSettings.IniFormat))
    win.resize(1600, 1000)
    win.show()
    win.open_path(path)
    wait(app, lambda: win.scenes_drawn > 0 and not win.tasks.is_busy())
    drawn = win.scenes_drawn
    win.state.expand_all()
    wait(app, lambda: win.scenes_drawn > drawn and not win.tasks.is_busy())
    items = len(win.canvas.items_by_id)
    graph, view = win.state.model.graph, win.state.original_view
    outs = [n.name for n in graph][-1:]
    analyze = best(lambda: tc.analyze(graph, outs))
    compat = tc.analyze(graph, outs)
    paths = [s.path for s in view.root.walk() if s.path]
    fields = best(lambda: tc.overlay_fields(compat, paths))
    win.workbench.set_marks([], outs)
    wait(app, lambda: not win.tasks.is_busy())
    beat = Heartbeat()
    beat.start()
    t = time.perf_counter()
    win.mobile.check()
    wait(app, lambda: win.state.overlay.mode == "compat" and bool(win.state.overlay.compat)
         and not win.tasks.is_busy())
    app.processEvents()
    whole = time.perf_counter() - t
    stall = beat.stop()
    paint = best(lambda: decorations(win.state), 3)
    d = decorations(win.state)
    apply = best(lambda: win.canvas.decorate(d), 3)
    print(f"graph: {nodes:,} nodes, {items:,} items drawn (every scope expanded)")
    print(f"protobuf parse of the file (reference): {parse * 1000:8.1f} ms")
    print(f"static analysis (off the GUI thread):    {analyze * 1000:8.1f} ms  "
          f"({analyze / parse:.1f}x parse)")
    print(f"statuses per scope (off the GUI thread): {fields * 1000:8.1f} ms")
    print(f"decorations of the visible items:        {paint * 1000:8.1f} ms  (GUI thread)")
    print(f"canvas recolouring:                      {apply * 1000:8.1f} ms  (GUI thread)")
    print(f"click to recoloured canvas:              {whole * 1000:8.1f} ms  (budget 200 ms, "
          f"{whole / 0.2:.2f}x budget)")
    print(f"longest GUI-thread stall meanwhile:      {stall * 1000:8.1f} ms  (budget 100 ms)")


if __name__ == "__main__":
    main()
