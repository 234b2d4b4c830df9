"""Which modules the app imports, on which thread and from where, up to the demo model's first
picture and once the imports that wait for it are done: what decides whether a function-local
import may move to its module's top (tests/test_local_imports.py). The app is started as
`python -m inspector` starts it (offscreen, single instance on), stopped a few seconds after
the later imports' thread (start_order.release) and the charts' import have finished.

  QT_QPA_PLATFORM=offscreen python tools/import_map.py OUT.json

OUT.json: {"pre": modules loaded before the app's code, "record": {module: {"i": order,
"thread": first importer's thread, "by": importing module, "in": its function}}, "first":
sys.modules at the first picture, "settled": sys.modules once the later imports are done}.
A local import of T in module X may move to X's top when T is loaded before X on the GUI
thread (X on the first picture's path), when T is in "settled" (X imported after the first
picture), or when X is never imported."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
import uuid
from importlib.machinery import PathFinder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRE = set(sys.modules)
RECORD: dict = {}
SNAP: dict = {}
_lock = threading.Lock()


def _importer():
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if not (name.startswith("<frozen") or name == __file__ or "importlib/__init__" in name):
            return frame.f_globals.get("__name__"), frame.f_code.co_name
        frame = frame.f_back
    return None, None


class Recorder:
    """A finder that finds nothing: it notes who asks first for each module."""

    def find_spec(self, name, path=None, target=None):
        if name not in RECORD:
            by, func = _importer()
            with _lock:
                RECORD.setdefault(name, {"i": len(RECORD), "by": by, "in": func,
                                         "thread": threading.current_thread().name})
        if name == "inspector.gui.app":       # stop the app where we want (see _stop)
            spec = PathFinder.find_spec(name, path)
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                module.exit_after_first_frame = _stop
            spec.loader.exec_module = exec_module
            return spec
        return None


def _stop(window, qapp) -> None:
    from PySide6.QtCore import QTimer

    import inspector.gui.app as app

    def first():
        SNAP["first"] = sorted(sys.modules)
        start = time.monotonic()

        def poll():
            from inspector.gui.startup import start_order

            busy = any(t.name.startswith("inspector-imports") for t in threading.enumerate())
            if (start_order._ready and "pyqtgraph" in sys.modules and not busy) or \
                    time.monotonic() - start > 40:
                QTimer.singleShot(3000, settled)
            else:
                QTimer.singleShot(250, poll)
        poll()

    def settled():
        SNAP["settled"] = sorted(sys.modules)
        qapp.exit(0)

    app.on_first_picture(window, first)


def main(out: str) -> int:
    sys.meta_path.insert(0, Recorder())
    os.environ.update(INSPECTOR_EXIT_AFTER_FIRST_FRAME="1",
                      INSPECTOR_INSTANCE_NAME=f"import-map-{uuid.uuid4().hex[:8]}",
                      INSPECTOR_SETTINGS=os.path.join(tempfile.mkdtemp(), "settings.ini"))
    from inspector.launcher import main as launch

    code = launch([])
    with open(out, "w") as f:
        json.dump({"pre": sorted(PRE), "record": RECORD, **SNAP}, f)
    print(f"{len(SNAP.get('first', ()))} modules at the first picture, "
          f"{len(SNAP.get('settled', ()))} once settled -> {out}")
    return code


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main(sys.argv[1]))
