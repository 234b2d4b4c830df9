"""Issue 37, start-up: what the first picture of the demo model does not need waits until it is
painted (numpy, the transforms' catalogue, OpenSSL, QtNetwork, the single-instance server, the
Pipeline panel's palette and form, Qt's class warm-up), and `first frame drawn` (what
bench/startup_bench.py times) comes right after the canvas painted the graph. No timing here:
the figures are bench/startup_bench.py's (run it under bench/slow_class.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

from conftest import ROOT

# the app started as a user starts it (single instance on), stopped at its first picture:
# what was imported then, and what the window showed
FIRST_PICTURE = r"""
import json, os, sys
import inspector.gui.app as app
from inspector.core.runtime.executor import installed

def report(window, qapp):
    def done():
        canvas = window.canvas
        print(json.dumps({
            "modules": sorted(m for m in ("numpy", "inspector.core.transforms.catalogue",
                                          "_hashlib", "PySide6.QtNetwork", "psutil",
                                          "importlib.metadata", "pyqtgraph",
                                          # the demo model's path and the TFLite tables:
                                          # files beside their modules (typing, zipfile...)
                                          "importlib.resources",
                                          # the analysis' door imports per name: the strip
                                          # preview of an opening needs none of these
                                          "inspector.core.analysis.flops",
                                          "inspector.core.analysis.model_card",
                                          "inspector.core.analysis.search",
                                          # the Phone panels' TFLite statuses
                                          "inspector.core.mobile.tflite_compat",
                                          # the worker's launch, a reader's scan thread
                                          "subprocess", "concurrent.futures",
                                          # the columns' messages come as bytes
                                          "google.protobuf.descriptor_pb2")
                              if m in sys.modules),
            "behind tabs": sorted(m for m in ("inspector.gui.panels.search_panel",
                                              "inspector.gui.panels.overlays_panel",
                                              "inspector.gui.panels.legend",
                                              "inspector.gui.panels.model_card_panel",
                                              "inspector.gui.panels.workbench_panel",
                                              # File > Export, Help's and the dialogs
                                              "inspector.gui.canvas.exporting",
                                              "inspector.gui.signature_dialog",
                                              "inspector.gui.about", "inspector.gui.help")
                                  if m in sys.modules),
            "made": sorted(n for n in ("search_panel", "overlays_panel", "legend",
                                       "card_panel", "workbench_panel", "exporter")
                           if n in window.__dict__),
            # PySide makes a class when it is first read: the dialogs' are not
            "qt classes": sorted(n for n in ("QMessageBox", "QInputDialog", "QTextBrowser",
                                             "QTableWidget", "QDialogButtonBox",
                                             "QFileDialog", "QDialog")
                                 if n in vars(sys.modules["PySide6.QtWidgets"])),
            "items": len(canvas.items_by_id), "scenes": window.scenes_drawn,
            "model": os.path.basename(window.state.model.path),
            "palette": window.pipeline_panel.palette.topLevelItemCount(),
            "svg library": any("libQt6Svg" in line for line in open("/proc/self/maps")),
            "icon sizes": sorted(s.width() for s in qapp.windowIcon().availableSizes()),
            "feature check": sys.modules["shibokensupport.feature"]._mod_uses_pyside.__module__,
            "import hook": __import__("builtins").__import__.__name__,
            "checked by source": sorted(  # the window's modules that PySide's own check saw
                m for m, v in sys.modules["shibokensupport.feature"].pyside_feature_dict.items()
                if m.startswith("inspector.gui") and v == -1),
            "blas threads": os.environ.get("OPENBLAS_NUM_THREADS"),
            "worker blas threads": installed().env.get("OPENBLAS_NUM_THREADS", "unset"),
        }), flush=True)
        qapp.exit(0)
    app.on_first_picture(window, done)

app.exit_after_first_frame = report
sys.exit(app.main([]))
"""


def _app_env(tmp_path, **more):
    # the BLAS setting as a user without one has it (the tests' own environment may set it)
    env = {k: v for k, v in os.environ.items() if k not in (
        "INSPECTOR_SINGLE_INSTANCE", "OPENBLAS_NUM_THREADS", "INSPECTOR_ONE_BLAS_THREAD")}
    env.update(PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen", INSPECTOR_EXIT_AFTER_FIRST_FRAME="1",
               INSPECTOR_INSTANCE_NAME=f"gi-start-{uuid.uuid4().hex[:8]}",
               INSPECTOR_SETTINGS=str(tmp_path / "settings.ini"), **more)
    return env


def test_the_first_picture_imports_nothing_it_does_not_draw_with(tmp_path):
    proc = subprocess.run([sys.executable, "-c", FIRST_PICTURE], cwd=str(tmp_path),
                          env=_app_env(tmp_path), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["model"] == "demo_digits.pb" and seen["scenes"] >= 1 and seen["items"] > 3
    assert seen["modules"] == []          # numpy, every transform, OpenSSL, ... come later
    assert seen["palette"] == 0           # the hidden Pipeline panel fills in after it
    assert seen["svg library"] is False   # the window's icon: PNGs, 16 to 256 px
    assert {16, 48, 256} <= set(seen["icon sizes"])
    # PySide's check of each imported module does not read its source (feature_checks.py)
    assert seen["feature check"] == "inspector.gui.startup.feature_checks"
    assert seen["import hook"] != "__feature_import__"   # PySide's feature hook left out
    assert seen["checked by source"] == []     # replaced before the window's modules came in
    assert seen["blas threads"] == "1"    # numpy, imported after it, spins no threads
    assert seen["worker blas threads"] == "unset"    # the TensorFlow worker: as the user had it


def test_the_panels_behind_a_tab_are_made_after_the_first_picture(tmp_path):
    """Search (behind Summary), Overlays (behind Properties), Legend (behind Minimap), Inputs
    and outputs (in the Optimize task), the model card, File > Export and the dialogs' Qt
    classes: neither made nor imported before the demo model's first picture
    (tests/gui/test_gui_tab_panels_later.py: made when their tab is clicked, and working)."""
    proc = subprocess.run([sys.executable, "-c", FIRST_PICTURE], cwd=str(tmp_path),
                          env=_app_env(tmp_path), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["model"] == "demo_digits.pb" and seen["scenes"] >= 1
    assert seen["made"] == [] and seen["behind tabs"] == [] and seen["qt classes"] == []


def test_the_windows_modules_import_no_protobuf_message(tmp_path):
    """The window paints before any protobuf message module is imported (~50 ms of the slow
    class): the demo's parse imports them on the load thread, a big model's start before
    its reader forks (core.model.protos makes every message class on first read)."""
    probe = ("import sys, inspector.gui.main_window, inspector.gui.app\n"
             "print(sorted(m for m in sys.modules if m.startswith(('google.protobuf', "
             "'tensorboard.compat.proto'))))")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=str(tmp_path),
                          env=_app_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "[]"


def test_the_users_own_blas_threads_stand_in_window_and_worker(tmp_path):
    proc = subprocess.run([sys.executable, "-c", FIRST_PICTURE], cwd=str(tmp_path),
                          env=_app_env(tmp_path, OPENBLAS_NUM_THREADS="3"),
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert (seen["blas threads"], seen["worker blas threads"]) == ("3", "3")


def test_first_frame_drawn_comes_after_the_graph_is_painted(tmp_path):
    code = r"""
import sys
from PySide6.QtCore import QEvent, QObject
import inspector.gui.app as app

painted = []
real = app.exit_after_first_frame

def watch(window, qapp):
    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Paint and window.canvas.items_by_id:
                painted.append(len(window.canvas.items_by_id))
            return False
    window.canvas.viewport().installEventFilter(Paints(window))
    real_exit = qapp.exit
    def exit_(code=0):
        print(f"painted with the graph before the line: {bool(painted)}", flush=True)
        real_exit(code)
    qapp.exit = exit_
    real(window, qapp)

app.exit_after_first_frame = watch
sys.exit(app.main([]))
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path),
                          env=_app_env(tmp_path), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert "first frame drawn" in lines
    assert "painted with the graph before the line: True" in lines


def test_prestart_reads_early_exactly_the_models_opened_lazily():
    from inspector.core.app.start import PRESTART_ABOVE
    from inspector.core.loaders.lazy_graphdef import LAZY_ABOVE

    assert PRESTART_ABOVE == LAZY_ABOVE


def test_a_launch_with_no_server_socket_does_not_load_qt_network(tmp_path):
    code = ("import sys; from inspector.gui.startup import single_instance as s\n"
            "print(s.hand_over('x.pb', name='gi-none-%s'), 'PySide6.QtNetwork' in sys.modules)"
            % uuid.uuid4().hex[:8])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.stdout.split() == ["False", "False"], out.stderr[-2000:]


def test_deferred_pipeline_panel_fills_on_first_show_or_after_release(qtbot, monkeypatch):
    from inspector.gui.startup import start_order
    from inspector.gui.panels.pipeline_panel import PipelinePanel

    for name, value in (("_deferred", False), ("_waiting", {}), ("_released", False),
                        ("_ready", False)):
        monkeypatch.setattr(start_order, name, value)
    start_order.defer()
    shown, hidden = PipelinePanel(), PipelinePanel()
    qtbot.addWidget(shown)
    qtbot.addWidget(hidden)
    assert shown.palette.topLevelItemCount() == 0 == hidden.palette.topLevelItemCount()
    shown.show()                                    # the user opened it before the picture
    qtbot.waitUntil(lambda: shown.palette.topLevelItemCount() > 0, timeout=5000)
    assert hidden.palette.topLevelItemCount() == 0
    start_order.release()                           # the first picture is up
    qtbot.waitUntil(lambda: hidden.palette.topLevelItemCount() > 0, timeout=30000)
    assert not start_order.deferred()
    assert hidden.palette.topLevelItemCount() == shown.palette.topLevelItemCount()
    later = PipelinePanel()                         # nothing waits any more
    qtbot.addWidget(later)
    assert later.palette.topLevelItemCount() == shown.palette.topLevelItemCount()


def test_qt_warm_up_runs_in_slices_then_goes_on(qtbot):
    from inspector.gui.panels import chart_slot

    done = []
    # slices of no time: one name per event-loop turn, whatever earlier tests warmed up
    chart_slot.warm_up(lambda: done.append(True), slice_seconds=0.0)
    assert not done                                 # more than one slice: not all at once
    qtbot.waitUntil(lambda: bool(done), timeout=30000)


GC_AROUND_START = r"""
import gc, json, sys
import inspector.gui.app as app

real_open = app.open_once_painted
seen = {}

def open_once_painted(*args, **kwargs):
    seen["collecting while the window was built"] = gc.isenabled()
    return real_open(*args, **kwargs)

app.open_once_painted = open_once_painted
code = app.main([])
print(json.dumps(dict(seen, code=code, enabled=gc.isenabled(), frozen=gc.get_freeze_count())))
"""


def test_no_garbage_collection_before_the_first_picture_and_its_objects_frozen(tmp_path):
    proc = subprocess.run([sys.executable, "-c", GC_AROUND_START], cwd=str(tmp_path),
                          env=_app_env(tmp_path), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["code"] == 0
    assert seen["collecting while the window was built"] is False
    assert seen["enabled"] is True and seen["frozen"] > 10_000   # on again, start-up frozen


def test_a_big_graph_opened_in_the_window_reads_no_constant_before_its_first_picture(
        tmp_path):
    """The window's first picture needs no constant's facts: a big graph opened at the app's
    start reads none of them from its bytes while it opens, and its layout imports no
    numpy.ma (~7 ms of CPU at normal speed) (front_end.WINDOW, set by
    tune_runtime; ~0.4 us a node before the picture); Graph.const_facts reads them
    after it. The command line still reads them while opening (tests/core)."""
    from tests.fixtures.scale_models import blocks_graph

    code = r"""
import sys
import inspector.gui.app as app
from inspector.core.model import const_columns

read = []
real_read = const_columns.add_batch
const_columns.add_batch = lambda *a: read.append(1) or real_read(*a)

def watch(window, qapp):
    real_exit = qapp.exit
    def exit_(code=0):
        graph = window.state.model.graph
        print(f"nodes {len(graph)} parts {graph._const_parts} read {len(read)} "
              f"numpy.ma {'numpy.ma' in sys.modules}", flush=True)
        real_exit(code)
    qapp.exit = exit_
    real(window, qapp)

real = app.exit_after_first_frame
app.exit_after_first_frame = watch
sys.exit(app.main([sys.argv[1]]))
"""
    proc = subprocess.run([sys.executable, "-c", code, blocks_graph(10_000)],
                          cwd=str(tmp_path), env=_app_env(tmp_path), capture_output=True,
                          text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # nor imports numpy.ma (numpy 2's unique asks np.ma.is_masked: lazy_numpy.distinct)
    assert "nodes 9992 parts None read 0 numpy.ma False" in proc.stdout.splitlines()


def test_a_second_start_compiles_no_dataclass_method_before_its_first_picture(tmp_path):
    """core.runtime.dataclass_code: the first start writes the dataclasses' compiled methods
    once its picture is up; the next one makes its ~34 dataclasses from them (~19 ms of
    compiling before the first picture otherwise, ~60 ms on the slow class)."""
    probe = FIRST_PICTURE.replace('"worker blas threads":', '"dataclasses compiled": __import__('
                                  '"inspector.core.runtime.dataclass_code").core.runtime.'
                                  'dataclass_code._compiled[0], "worker blas threads":')
    env = _app_env(tmp_path, XDG_CACHE_HOME=str(tmp_path / "cache"))
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", probe], cwd=str(tmp_path), env=env,
                              capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr[-3000:]
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert runs[0]["dataclasses compiled"] > 20 and runs[1]["dataclasses compiled"] == 0
    assert runs[1]["model"] == "demo_digits.pb" and runs[1]["items"] == runs[0]["items"] > 3
    assert (tmp_path / "cache" / "graphdef-inspector" /
            f"dataclass-code.window.{sys.implementation.cache_tag}.marshal").is_file()


def test_subprocess_is_imported_on_the_later_thread_not_before_the_first_picture():
    from inspector.gui import app

    assert "subprocess" in app.later_modules()   # the worker's launch: imported after it
