"""`graphdef-inspector --smoke-test OUT.png`: the whole app once, end to end, without a user.

Opens a copy of the bundled demo model in a real main window, waits for its laid-out graph,
puts a pure-Python pipeline in place (strip_unused_nodes, quantize_weights) and waits for its
preview (computed by the worker process, as in normal use), exports the whole graph as SVG
(OUT.svg) and PNG (OUT.png), checks both, and exits 0; any failure prints
"smoke test FAILED: ..." and exits 1. It never writes into the install folder or the user's
settings."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

PIPELINE = "strip_unused_nodes quantize_weights"
TIMEOUT_S = float(os.environ.get("INSPECTOR_SMOKE_TIMEOUT", "60"))


class SmokeFailed(Exception):
    pass


def demo_model() -> str:
    from inspector.gui.app import DEMO

    return DEMO


def check_png(path: str) -> str:
    """Raises unless `path` is a PNG with a drawing on it (not one colour)."""
    from PySide6.QtGui import QImage

    image = QImage(path)
    if image.isNull():
        raise SmokeFailed(f"{path}: not a readable PNG")
    small = image.scaled(64, 64)
    colours = {small.pixel(x, y) for x in range(small.width()) for y in range(small.height())}
    if len(colours) < 3:
        raise SmokeFailed(f"{path}: blank ({len(colours)} colour(s))")
    return f"{image.width()}x{image.height()} px, {len(colours)} colours in a 64x64 thumbnail"


def check_svg(path: str) -> str:
    """Raises unless `path` parses as SVG with drawing elements in it."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise SmokeFailed(f"{path}: not valid SVG/XML ({exc})") from None
    if not root.tag.endswith("svg"):
        raise SmokeFailed(f"{path}: root element is {root.tag}, not svg")
    drawn = sum(1 for el in root.iter() if el.tag.rsplit("}", 1)[-1] in
                ("path", "text", "rect", "polyline", "polygon", "ellipse", "image"))
    if drawn < 5:
        raise SmokeFailed(f"{path}: only {drawn} drawing elements")
    return f"{os.path.getsize(path)} bytes, {drawn} drawing elements"


def process_name() -> str:
    """This process's name as `ps` and the desktop show it (the kernel keeps 15 bytes)."""
    try:
        with open("/proc/self/comm", encoding="utf-8") as fh:
            return fh.read().strip()
    except OSError:
        return os.path.basename(sys.argv[0])


class SmokeRun:
    """Drives one window through the steps; `say` prints each as it passes."""

    def __init__(self, app, out_png: str, work: str):
        from PySide6.QtCore import QSettings

        from inspector.gui.main_window import MainWindow

        self.app, self.out_png, self.work = app, out_png, work
        self.out_svg = os.path.splitext(out_png)[0] + ".svg"
        self.errors: list = []
        self.started = time.monotonic()
        settings = QSettings(os.path.join(work, "settings.ini"), QSettings.IniFormat)
        self.window = MainWindow(settings)
        self.window.error_shown.connect(self.errors.append)
        self.model = os.path.join(work, os.path.basename(demo_model()))
        shutil.copyfile(demo_model(), self.model)     # never the session file beside it

    def say(self, text: str) -> None:
        print(f"[{time.monotonic() - self.started:5.2f} s] {text}", flush=True)

    def wait(self, what: str, done) -> None:
        from PySide6.QtCore import QEventLoop

        deadline = time.monotonic() + TIMEOUT_S
        while not done():
            if self.errors:
                raise SmokeFailed(f"the window reported an error while waiting for {what}: "
                                  f"{self.errors[0].splitlines()[0]}")
            if time.monotonic() > deadline:
                raise SmokeFailed(f"timed out after {TIMEOUT_S:.0f} s waiting for {what}")
            self.app.processEvents(QEventLoop.AllEvents, 50)
            time.sleep(0.005)

    def run(self) -> None:
        w = self.window
        scenes = []
        w.state.scene_changed.connect(scenes.append)
        w.pipeline.overrides = (None, ["output"], PIPELINE)
        w.show()
        w.open_path(self.model)
        self.wait("the model", lambda: w.state.model is not None)
        self.say(f"opened {os.path.basename(self.model)}: {len(w.state.model.graph)} nodes")
        self.wait("the laid-out graph", lambda: scenes and len(w.canvas.scene().items()) > 3)
        self.say(f"laid out: {len(w.canvas.scene().items())} items on the canvas")

        def preview_done():
            rows = w.state.rows
            return (w.pipeline.ready and not w.tasks.is_busy() and len(rows) == 3
                    and all(r.report is not None or r.error for r in rows[1:]))
        self.wait("the pipeline preview", preview_done)
        for row in w.state.rows[1:]:
            if row.error:
                raise SmokeFailed(f"preview step {row.label}: {row.error}")
        self.say("preview: " + "; ".join(f"{r.label}: {r.metrics.node_count} nodes"
                                           for r in w.state.rows))
        w.canvas.fit()
        w.canvas.viewport().repaint()
        if not w.exporter.svg(self.out_svg, whole=True):
            raise SmokeFailed(f"could not export {self.out_svg}")
        self.say(f"SVG {self.out_svg}: {check_svg(self.out_svg)}")
        if not w.exporter.png(True, self.out_png):
            raise SmokeFailed(f"could not export {self.out_png}")
        self.say(f"PNG {self.out_png}: {check_png(self.out_png)}")
        if self.errors:
            raise SmokeFailed(f"the window reported: {self.errors[0].splitlines()[0]}")
        self.say(f"process name: {process_name()}")
        tf = "tensorflow" in sys.modules
        self.say(f"tensorflow in this process's sys.modules: {'yes' if tf else 'no'}")
        if tf:
            raise SmokeFailed("the app process imported tensorflow")

    def close(self) -> None:
        w = self.window
        w.tasks.cancel()
        w.tasks.wait(5.0)
        w.close()


def main(out_png: str) -> int:
    """Run the smoke test; 0 when every step passed, 1 otherwise (said on stderr)."""
    if not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY") \
            and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"   # no screen: draw without one
    out_png = os.path.abspath(out_png)
    os.makedirs(os.path.dirname(out_png), exist_ok=True)
    from PySide6.QtWidgets import QApplication

    from inspector.worker.client import install

    install(None, None)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    print(f"smoke test: Qt platform {app.platformName()}", flush=True)
    work = tempfile.mkdtemp(prefix="graphdef-inspector-smoke-")
    run = None
    try:
        run = SmokeRun(app, out_png, work)
        run.run()
    except SmokeFailed as exc:
        print(f"smoke test FAILED: {exc}", file=sys.stderr, flush=True)
        return 1
    except Exception as exc:  # noqa: BLE001  (loudly, with its type)
        import traceback

        traceback.print_exc()
        print(f"smoke test FAILED: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        if run is not None:
            run.close()
        shutil.rmtree(work, ignore_errors=True)
    print("smoke test passed", flush=True)
    return 0
