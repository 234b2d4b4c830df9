"""After the first picture (the settle, part of every stall budget): the later panels'
modules are imported on a thread, not on the GUI thread, when the app opens a model as its
start does (with its TensorFlow worker); the GUI thread then only makes their widgets, and
only while none of the window's tasks computes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

from tests.fixtures import scale_models

CHILD = r"""
import importlib.abc, json, os, sys, threading, time
imported = {}          # module -> imported on the GUI thread


class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        imported.setdefault(name, threading.current_thread() is threading.main_thread())
        return None


sys.meta_path.insert(0, Watch())
busy_at_build = []     # was a task of the window busy when a later panel was made?
listed_on_gui = []     # was the later panels' module list made on the GUI thread?
from inspector.gui.startup import window_later
real_list = window_later.later_modules
window_later.later_modules = lambda: (
    listed_on_gui.append(threading.current_thread() is threading.main_thread()),
    real_list())[1]
model = sys.argv[1]
from inspector.gui.app import start_early
start_early(model)
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from inspector.gui.app import charts_after_first_picture, open_once_painted, tune_runtime
from inspector.gui.main_window import MainWindow
from inspector.worker.client import install
tune_runtime()
client = install()
win = charts_after_first_picture(
    lambda: MainWindow(QSettings(sys.argv[2], QSettings.IniFormat)))
win.resize(1366, 768)
win.show()
from inspector.gui.startup import later_panels
real_build = later_panels.build


def build(window, group):
    if group not in window.__dict__.get("_later_built", ()):
        busy_at_build.append(window.tasks.is_busy())
    real_build(window, group)


later_panels.build = build
open_once_painted(win, model)
docked = {g for g, (_, _, dock) in window_later.groups().items() if dock}
end = time.time() + 50
while time.time() < end and not (win.scenes_drawn and
                                 docked <= win.__dict__.get("_later_built", set())):
    app.processEvents()
    time.sleep(0.002)
later = real_list()
print(json.dumps({"built": sorted(win.__dict__.get("_later_built", ())),
                  "docked": sorted(docked), "later": later,
                  "on_gui_thread": [m for m in later if imported.get(m)],
                  "watched": sum(1 for m in later if m in imported),
                  "busy_at_build": busy_at_build, "listed_on_gui": listed_on_gui}))
sys.stdout.flush()
os._exit(0)
"""


def test_the_later_panels_are_made_off_the_busy_time_their_modules_off_the_gui_thread(
        tmp_path):
    model = scale_models.blocks_graph(30_000)     # its summary still runs after the picture
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", CHILD, model, str(tmp_path / "s.ini")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(result["docked"]) <= set(result["built"])       # every later panel is made
    assert "inspector.gui.panels.quant_panel" in result["later"]
    assert result["on_gui_thread"] == []
    assert result["watched"] == len(result["later"]) > 10      # all imported, by the thread
    assert result["busy_at_build"] and not any(result["busy_at_build"])
    assert result["listed_on_gui"] == [False]      # the list too: not before the picture
