"""Start the desktop app: `graphdef-inspector [MODEL] [--screenshot OUT.png --expand SCOPE]`."""

from __future__ import annotations

import argparse
import os
import sys
import time

from inspector.core.app.demo_model import DEMO_MODEL as DEMO
from inspector.core.runtime import dataclass_code, front_end, gc_policy, threads
from inspector.gui import app_end


def parse_args(argv):
    return build_parser().parse_args(argv)


def build_parser() -> argparse.ArgumentParser:
    """The desktop app's options (the launcher's --help adds the subcommands to them)."""
    p = argparse.ArgumentParser(prog="graphdef-inspector",
                                description="Look inside TensorFlow models: the desktop app "
                                            "(MODEL and the options below) or a subcommand "
                                            "(listed below).")
    p.add_argument("model", nargs="?", default=DEMO, help="model to open (default: demo model)")
    p.add_argument("--signature", help="SavedModel signature (default: ask)")
    p.add_argument("--screenshot", metavar="OUT.png",
                   help="save a PNG of the window once drawn, then exit")
    p.add_argument("--expand", action="append", default=[], metavar="SCOPE",
                   help="expand this name scope first (with --screenshot)")
    p.add_argument("--inputs", help="mark these nodes as inputs (comma list)")
    p.add_argument("--outputs", help="mark these nodes as outputs (comma list)")
    p.add_argument("--transforms", help="put this transform_graph pipeline in place")
    p.add_argument("--compare", metavar="B", help="compare the model with model B")
    p.add_argument("--timings", metavar="FILE",
                   help="show timings from benchmark_model output or a Chrome trace")
    p.add_argument("--ranges", metavar="LOG", help="show ranges from a requantization log")
    p.add_argument("--run", metavar="IMAGE|WAV|NPY",
                   help="run the model on this photo, sound, array or folder of photos once "
                        "it is drawn (Demo panel, feature maps on the blocks)")
    p.add_argument("--tf-python", dest="tf_python", metavar="PATH",
                   help="the Python (with TensorFlow) that runs the TensorFlow worker "
                        "(default: this one, or $INSPECTOR_TF_PYTHON)")
    p.add_argument("--worker-memory-gb", dest="worker_memory_gb", type=float, metavar="GB",
                   help="stop the TensorFlow worker past this much memory (default: half of "
                        "the RAM, or $INSPECTOR_WORKER_MEMORY_GB)")
    p.add_argument("--new-instance", dest="new_instance", action="store_true",
                   help="start a separate app even if one is running (by default the running "
                        "app opens MODEL in a new window)")
    return p


def tune_runtime() -> None:
    """Hand the GIL over quickly: the GUI thread paints through many short Qt calls, each of
    which releases the GIL and then waits up to the switch interval to get it back while a
    worker thread computes (5 ms by default). At 0.1 ms, 300 draw calls under a busy thread
    take ~9 ms instead of ~25 ms at 0.5 ms; the busy thread loses no measurable speed.
    The window's models open for its first picture (front_end.WINDOW: e.g. a big graph's
    constants are read after it)."""
    sys.setswitchinterval(0.0001)
    front_end.WINDOW = True


def start_early(model: str) -> None:
    """Before Qt is imported: a big model is read on the other core while Qt starts."""
    from inspector.core.app.start import prestart

    prestart(model)


def later_modules() -> list:
    """The later panels' modules (start_order imports them on its thread after the first
    picture), and subprocess: the TensorFlow worker's launch (the first preview or run) needs
    it, the first picture not (~2 ms, ~10 ms on the slow class)."""
    from inspector.gui.startup import window_later

    return window_later.later_modules() + ["subprocess"]


def charts_after_first_picture(make_window):
    """The window from make_window(), its charts made once pyqtgraph is imported. Qt's
    classes are warmed up (chart_slot.warm_up, in slices) and then the import (pauses of the
    GUI thread up to ~50 ms) starts once the window has been quiet for a second
    (startup.quiet_watch: no task's work running, no key or mouse input) after its first
    picture, or without a model: neither adds to the first picture, to the pauses of opening
    a model or of answering the user."""
    from inspector.gui.panels import chart_slot
    from inspector.gui.startup import start_order
    from inspector.gui.startup.quiet_watch import QuietWatch

    chart_slot.defer()
    start_order.defer()
    start_order.preload(later_modules)
    window = make_window()
    start_order.wait_while(threads.busy)     # any request's work, quiet ones too (search)
    soon_after_first_picture(window, start_order.release)
    quiet = QuietWatch(window, lambda: chart_slot.warm_up(
        lambda: chart_slot.import_in_background(threads.busy)))
    soon_after_first_picture(window, quiet.start)
    return window


def open_once_painted(window, path: str, signature: str | None = None,
                      wait_ms: int = 1000) -> None:
    """Open `path` in `window` once the window has painted for the first time (at the latest
    after `wait_ms`). The first paint alone takes ~15 ms; started beside the load, whose
    thread holds the GIL in turns with it, it took 60 ms (each of its many calls into Python
    waits), with the resizes before it a stall of ~90 ms. The model's reader process, started
    before Qt, reads on meanwhile."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    started = []

    def start():
        if started:
            return
        started.append(True)
        window.removeEventFilter(watcher)
        watcher.deleteLater()
        try:
            window.open_path(path, signature)
        except Exception as exc:  # noqa: BLE001  (reported in the window, which stays)
            window.show_error(f"{path}: could not open: {exc}")

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and obj is window:
                QTimer.singleShot(0, window, start)     # after the rest of this paint
            return False

    watcher = FirstPaint(window)
    window.installEventFilter(watcher)
    QTimer.singleShot(wait_ms, window, start)


def on_first_picture(window, fn) -> None:
    """fn() right after the canvas has painted the model's first scene (the first paint of
    its viewport once the scene's items are all in: the canvas paints nothing of a scene
    while it builds one)."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    viewport = window.canvas.viewport()

    class GraphPainted(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and window.scenes_drawn and \
                    window.state.model is not None:
                viewport.removeEventFilter(self)
                self.deleteLater()
                QTimer.singleShot(0, fn)       # after this paint has finished
            return False

    viewport.installEventFilter(GraphPainted(window))


def exit_after_first_frame(window, app) -> None:
    """bench/startup_bench.py: print "first frame drawn" once the model's first picture is
    painted, then quit."""
    def done():
        print("first frame drawn", flush=True)
        app.exit(0)

    on_first_picture(window, done)


def soon_after_first_picture(window, fn) -> None:
    """fn() once, right after the model's first picture is painted, or once opening the model
    failed, at the latest after 10 s: what the first picture does not need waits for it."""
    from PySide6.QtCore import QTimer

    done = []

    def once(*_):
        if not done:
            done.append(True)
            fn()

    on_first_picture(window, once)
    window.state.error.connect(once)
    QTimer.singleShot(10_000, window, once)


def new_window(settings, path: str):
    """Another main window in this app (a later launch handed `path` over); closing it frees
    it. Returns the window."""
    from PySide6.QtCore import Qt

    from inspector.gui.main_window import MainWindow

    window = MainWindow(settings)
    window.setAttribute(Qt.WA_DeleteOnClose)
    window.show()
    window.raise_()
    window.activateWindow()
    open_once_painted(window, path or DEMO)
    return window


def handed_over(args, app) -> bool:
    """A plain launch while the app runs: hand the model to it (it opens a new window)."""
    from inspector.gui.startup import single_instance

    plain = not (args.screenshot or args.new_instance or args.inputs is not None or
                 args.outputs is not None or args.transforms or args.timings or args.ranges
                 or args.run or args.signature or args.tf_python)
    if not plain or not single_instance.wanted(app.platformName()):
        return False
    if single_instance.hand_over(args.model):
        print(f"graphdef-inspector: opened {args.model} in the running app")
        return True
    return False


def serve_later_launches(app, settings):
    """Listen for later launches; each opens its model in a new window."""
    from inspector.gui.startup import single_instance

    if not single_instance.wanted(app.platformName()):
        return None
    server = single_instance.InstanceServer(app)
    windows = []

    def open_new(path):
        window = new_window(settings, path)
        windows.append(window)
        window.destroyed.connect(lambda *_: windows.remove(window) if window in windows
                                 else None)

    server.open_requested.connect(open_new)
    server.windows = windows
    return server


def set_identity(app) -> None:
    """Name, desktop entry and icon: the window manager matches the .desktop file."""
    from PySide6.QtGui import QIcon

    from inspector.diagnostics import icon_path, window_icon_files

    app.setApplicationName("GraphDef Inspector")
    app.setDesktopFileName("graphdef-inspector")
    files = window_icon_files()
    if files:
        icon = QIcon()
        for path in files:
            icon.addFile(path)
        app.setWindowIcon(icon)
    elif icon_path():
        app.setWindowIcon(QIcon(icon_path()))


def main(argv=None) -> int:
    # no collection before the first picture (start-up makes long-lived objects: modules,
    # classes, the window; collections were ~3 % of a start), frozen out of later ones after
    pause = gc_policy.paused()
    pause.__enter__()
    ended = []

    def resume():
        if not ended:
            ended.append(True)
            pause.__exit__(None, None, None)

    try:
        return _main(argv, resume)
    finally:
        resume()


def _main(argv, resume) -> int:
    dataclass_code.install()        # (done by the launcher; here for other callers)
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    from inspector import crash_log

    crash_log.install()
    from inspector.core.runtime.blas_threads import one_blas_thread

    one_blas_thread()        # before numpy (after the first picture, for the charts)
    start_early(args.model)
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from inspector.gui.startup.feature_checks import make_feature_checks_cheap, plain_imports

    make_feature_checks_cheap()     # before the window's ~200 modules are imported
    plain_imports()                 # and without PySide's import hook
    from inspector.gui.main_window import MainWindow

    tune_runtime()
    from inspector.worker.client import install

    tf_python = args.tf_python
    if not tf_python and not os.environ.get("INSPECTOR_TF_PYTHON"):
        from inspector.gui.tf_python import (
            saved,  # File > TensorFlow Python for the worker
        )

        tf_python = saved(QSettings(os.environ["INSPECTOR_SETTINGS"], QSettings.IniFormat)
                          if os.environ.get("INSPECTOR_SETTINGS") else
                          QSettings("graphdef-inspector", "inspector"))
    install(tf_python, args.worker_memory_gb)  # TensorFlow runs in its own process
    app = QApplication.instance() or QApplication(sys.argv[:1])
    set_identity(app)
    if handed_over(args, app):
        return 0
    settings = None
    if os.environ.get("INSPECTOR_SETTINGS"):
        settings = QSettings(os.environ["INSPECTOR_SETTINGS"], QSettings.IniFormat)
    window = charts_after_first_picture(lambda: MainWindow(settings))
    soon_after_first_picture(window, resume)
    soon_after_first_picture(window, dataclass_code.save)    # what this start compiled
    servers = []      # later launches are served once the first picture is up
    if not args.screenshot:
        soon_after_first_picture(window, lambda: servers.append(
            serve_later_launches(app, settings)))
    window.loader.auto_signature = bool(args.screenshot)
    driver = None
    if args.screenshot:
        from inspector.gui.startup.screenshot_driver import ScreenshotDriver

        driver = ScreenshotDriver(window, args.screenshot, args.expand, app)
    if args.inputs is not None or args.outputs is not None or args.transforms is not None:
        split = (lambda t: [x for x in t.split(",") if x] if t is not None else None)
        window.pipeline.overrides = (split(args.inputs), split(args.outputs), args.transforms)
        if args.transforms is not None:
            window.workspace.switch("optimize")     # a pipeline asked for: show it
    if args.timings or args.ranges:
        def overlays_once(*_):
            window.state.model_changed.disconnect(overlays_once)
            if args.timings:
                window.overlays.import_timings(args.timings)
            if args.ranges:
                window.overlays.import_ranges(args.ranges)
        window.state.model_changed.connect(overlays_once)
    if args.compare:
        def compare_once(*_):
            window.state.first_frame.disconnect(compare_once)
            window.compare_ctl.compare_with(args.compare)
        window.state.first_frame.connect(compare_once)
        if driver is not None:       # the picture is the comparison, once both sides are in
            ctl = window.compare_ctl
            ctl.on_error = driver._error
            driver.waiting = lambda: not (ctl.windows and ctl.windows[-1].ready())
            driver.target = lambda: ctl.windows[-1]
    if args.run:
        def run_once(*_):
            window.state.first_frame.disconnect(run_once)
            window.demo.run_on(args.run)
        window.state.first_frame.connect(run_once)
        if driver is not None:
            driver.waiting = lambda: window.state.demo is None
            driver.fit = False       # the readable view a run leaves, its blocks' values
    if os.environ.get("INSPECTOR_EXIT_AFTER_FIRST_FRAME") == "1":   # bench/startup_bench.py
        exit_after_first_frame(window, app)
    window.show()
    open_once_painted(window, args.model, args.signature)
    code = app.exec()
    for server in servers:
        if server is not None:
            server.close()
    code = driver.code or code if driver else code
    windows = [window] + [w for server in servers if server is not None for w in server.windows]
    app_end.end_background_work(code, windows)   # no thread runs Python as the interpreter ends
    return code
