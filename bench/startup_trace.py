"""Where the app's start-up goes: the app run in this process (offscreen, the demo model), with
a line per stage (wall time since this script started and the process's CPU time), up to the
first paint of the graph and the `first frame drawn` line. A tool for bench/startup_bench.py's
figures; run it under bench/slow_class.py to see the slow class.

  python bench/startup_trace.py [--grab OUT.png] [MODEL]
  --grab  save what the window shows at the `first frame drawn` line (to look at it)"""

from __future__ import annotations

import time

T0 = time.perf_counter()
C0 = time.process_time()

import os  # noqa: E402
import sys  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def mark(what: str) -> None:
    main = time.thread_time() if __import__("threading").current_thread().name == \
        "MainThread" else float("nan")
    print(f"{1000 * (time.perf_counter() - T0):7.0f} ms wall {1000 * (time.process_time() - C0):7.0f}"
          f" ms cpu ({1000 * main:5.0f} GUI thread)  {what}", flush=True)


def wrap(owner, name: str, label: str | None = None) -> None:
    inner = getattr(owner, name)

    def traced(*args, **kwargs):
        mark(f"{label or name} ...")
        try:
            return inner(*args, **kwargs)
        finally:
            mark(f"{label or name} done")

    setattr(owner, name, traced)


def main() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("INSPECTOR_EXIT_AFTER_FIRST_FRAME", "1")
    os.environ.setdefault("INSPECTOR_SINGLE_INSTANCE", "0")
    mark("python started (this script's own imports)")
    grab = None
    if sys.argv[1:2] == ["--grab"]:
        grab, sys.argv[1:3] = sys.argv[2], []
    from inspector.gui import app

    mark("inspector.gui.app imported")
    if grab:
        real_exit_after = app.exit_after_first_frame

        def exit_after(window, qapp):
            real_quit = qapp.exit

            def grab_and_exit(code=0):
                window.grab().save(grab)
                mark(f"window saved to {grab}")
                real_quit(code)

            qapp.exit = grab_and_exit
            real_exit_after(window, qapp)

        app.exit_after_first_frame = exit_after
    for name in ("start_early", "tune_runtime", "set_identity", "handed_over",
                 "serve_later_launches", "charts_after_first_picture", "open_once_painted"):
        if hasattr(app, name):
            wrap(app, name)
    import builtins

    real_import = builtins.__import__
    patched = set()

    def watching_import(name, *args, **kwargs):
        module = real_import(name, *args, **kwargs)
        if name == "inspector.gui.main_window" and "mw" not in patched:
            patched.add("mw")
            mark("main_window imported")
            patch_window(sys.modules["inspector.gui.main_window"])
        return module

    builtins.__import__ = watching_import
    sys.exit(app.main(sys.argv[1:]))


def patch_window(mw) -> None:
    from PySide6.QtCore import QEvent, QObject

    cls = mw.MainWindow
    wrap(cls, "__init__", "MainWindow()")
    for name in ("_build_panels", "_build_controllers", "_build_status", "_build_preview",
                 "_build_mobile"):     # the last two: hidden at start, made after the picture
        if hasattr(cls, name):
            wrap(cls, name)
    wrap(cls, "open_path")
    wrap(cls, "_connect")
    import inspector.gui.menus as menus
    import inspector.gui.tf_gate as tf_gate
    from inspector.gui.workspace import Workspace

    wrap(menus, "build_menus")
    wrap(tf_gate, "apply", "tf_gate.apply")
    wrap(Workspace, "switch", "Workspace.switch")
    wrap(Workspace, "__init__", "Workspace()")
    from inspector.core.app.state import AppState

    for name in ("set_model", "set_scene"):
        wrap(AppState, name)
    from inspector.gui.controllers.canvas_controller import CanvasController

    wrap(CanvasController, "_scene_built")
    wrap(CanvasController, "request_layout")
    real_show = cls.show

    class Paints(QObject):
        def __init__(self, parent, label):
            super().__init__(parent)
            self.label, self.n = label, 0

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and self.n < 4:
                self.n += 1
                mark(f"paint of the {self.label} #{self.n}")
            return False

    def show(self):
        mark("window.show()")
        self._trace_paints = [Paints(self, "window"), Paints(self, "canvas viewport")]
        self.installEventFilter(self._trace_paints[0])
        self.canvas.viewport().installEventFilter(self._trace_paints[1])
        self.state.first_frame.connect(lambda *_: mark("state.first_frame"))
        return real_show(self)

    cls.show = show


if __name__ == "__main__":
    main()
