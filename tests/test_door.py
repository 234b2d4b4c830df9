"""Issue 46.2, the door decides: the window's controllers hand work to core.app use cases that
write their results into the state, instead of submitting tasks and calling the analysis
through re-export modules themselves. These counts may only fall (lower them as use cases
move; the goal: only layout, view and export tasks submitted in gui/, about 8)."""

from __future__ import annotations

import os
import re

from conftest import ROOT

SUBMITS_IN_GUI = 10          # tasks.submit( written in inspector/gui
RE_EXPORT_IMPORTS_IN_GUI = 29   # imports of the modules that only re-export the analysis
#                                 (app.queries/files/pictures/overlays, view.vocabulary) by the
#                                 window; app.exports (the writes both front ends make) is a door
RE_EXPORTS = re.compile(r"core\.app\.(queries|files|pictures|overlays)\b|"
                        r"core\.view\.vocabulary|"
                        r"core\.app import (queries|files|pictures|overlays)\b")


def _gui_sources():
    for folder, _, files in os.walk(os.path.join(ROOT, "inspector", "gui")):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    yield f.read()


def test_the_window_submits_fewer_tasks_of_its_own():
    count = sum(text.count("tasks.submit(") for text in _gui_sources())
    assert count <= SUBMITS_IN_GUI


def test_the_window_reaches_the_analysis_through_fewer_re_exports():
    count = sum(len(RE_EXPORTS.findall(line)) for text in _gui_sources()
                for line in text.splitlines())
    assert count <= RE_EXPORT_IMPORTS_IN_GUI
