"""Where File > Open starts (walk5): a new user's first Open, with the bundled demo open as
run-demo.sh starts it, showed the demo's folder inside the installed package
(.../inspector/core/app/demo_model, its __pycache__ listed). It now starts in the last model
the user opened that is not the demo, else where Qt starts it (the folder the app was started
in), as with nothing open (test_gui_friction)."""

import os

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog
from test_gui import open_and_wait


def _open_starts_in(window, monkeypatch) -> str:
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: asked.append(a[2]) or ("", ""))
    next(a for a in window.findChildren(QAction) if a.text() == "&Open…").trigger()
    assert len(asked) == 1
    return asked[0]


def test_open_with_the_demo_starts_outside_the_package_then_in_the_users_last_folder(
        qtbot, window, demo_model, model, monkeypatch):
    open_and_wait(qtbot, window, demo_model)
    assert _open_starts_in(window, monkeypatch) == ""         # not the package's folder
    open_and_wait(qtbot, window, model)                 # a model of the user's own
    assert _open_starts_in(window, monkeypatch) == os.path.dirname(model)
    open_and_wait(qtbot, window, demo_model)            # the demo again: the user's folder
    assert _open_starts_in(window, monkeypatch) == os.path.dirname(model)
