"""Issue 37, start-up: PySide's check of every module imported after it (does it use PySide,
for `from __feature__ import ...`) no longer reads and searches the module's source; the app
never selects a PySide feature, which is what makes the cheap answer safe."""

from __future__ import annotations

import inspect
import pathlib
import re
import sys

import PySide6.QtCore  # noqa: F401  (PySide's import hook and its feature module)
from conftest import ROOT

from inspector.gui.startup import feature_checks


def test_no_module_of_the_app_selects_a_pyside_feature():
    selects = re.compile(r"^\s*(from\s+__feature__\s+import|import\s+__feature__)", re.M)
    users = [str(p) for p in pathlib.Path(ROOT, "inspector").rglob("*.py")
             if selects.search(p.read_text(encoding="utf-8"))]
    assert users == []


def test_modules_imported_after_it_are_not_read(tmp_path, monkeypatch):
    feature = sys.modules["shibokensupport.feature"]
    monkeypatch.setattr(feature, "_mod_uses_pyside", feature._mod_uses_pyside)
    assert feature_checks.make_feature_checks_cheap()
    read = []
    real = inspect.getsource
    monkeypatch.setattr(inspect, "getsource", lambda obj: read.append(obj) or real(obj))
    (tmp_path / "gi_feature_probe.py").write_text("from PySide6.QtCore import Qt\nX = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import gi_feature_probe  # noqa: F401  (through PySide's import hook)

    assert read == []
    assert feature.pyside_feature_dict["gi_feature_probe"] == -1


def test_the_answer_by_name():
    class M:
        def __init__(self, name):
            self.__name__ = name
    assert feature_checks.uses_pyside_by_name(M("inspector.gui.canvas.graph_canvas"))
    assert feature_checks.uses_pyside_by_name(M("pyqtgraph.graphicsItems.PlotItem"))
    assert not feature_checks.uses_pyside_by_name(M("inspector.core.view.scene"))
    assert not feature_checks.uses_pyside_by_name(object())


def test_without_pyside_imported_nothing_is_replaced(monkeypatch):
    monkeypatch.delitem(sys.modules, "shibokensupport.feature")
    assert feature_checks.make_feature_checks_cheap() is False


def test_plain_imports_puts_pythons_own_import_back(monkeypatch):
    import builtins

    monkeypatch.setattr(builtins, "__import__", builtins.__import__)   # restored after
    assert builtins.__import__.__name__ == "__feature_import__"      # PySide's hook
    assert feature_checks.plain_imports()
    assert builtins.__import__ is builtins.__orig_import__     # (PySide's lazy-class import,
    assert builtins.__import__.__name__ != "__feature_import__"  # or Python's own)
    import json  # noqa: F401  (imports go on working)
    from PySide6.QtCore import Qt  # noqa: F401
    assert feature_checks.plain_imports() is False                  # done already
