"""What a check found stays on the status line (walk16): basic-pitch's compatibility check,
clicked as soon as the model showed, said "TFLite: 273 builtin, 0 to look at"; the opening's
later work (the pipeline's preview, the tensor shapes, a layout) started a moment after it,
took the line, and left "Ready" there. The outcome stays now: later work is named after it
while it runs, and the line goes back to it. Anything else said ends it."""

import os
import shutil
import threading

import pytest
from conftest import DEMO
from PySide6.QtCore import Qt
from test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _phone(qtbot, window) -> None:
    bar = window.workspace.bar
    index = next(i for i in range(bar.count()) if bar.tabText(i) == "Phone")
    qtbot.mouseClick(bar, Qt.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: window.mobile_panel.isVisible(), timeout=10000)


def _later_work(window, label="Working on something else"):
    """Work that starts after the check (as the opening's later work did), held until set."""
    release = threading.Event()
    window.tasks.submit("later work", lambda job: release.wait(30), lambda _: None,
                        lambda exc: None, label=label)
    return release


def test_a_checks_outcome_stays_on_the_status_line_past_later_work(qtbot, window, tmp_path):
    path = tmp_path / "demo_digits.pb"
    shutil.copy(DEMO, path)
    open_and_wait(qtbot, window, str(path))
    _phone(qtbot, window)               # clicked at once: the opening's later work follows
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.state.tflite_check is not None, timeout=30000)
    outcome = window.status_label.text()
    assert outcome.startswith("TFLite: ") and "builtin" in outcome
    qtbot.waitUntil(lambda: window.state.view.shapes is not None and
                    not window.tasks.is_busy(), timeout=60000)
    qtbot.wait(400)
    assert window.status_label.text() == outcome          # not "Ready"

    release = _later_work(window)       # while later work runs: named after the outcome
    assert window.status_label.text() == \
        f"{outcome} · Still running: working on something else…"
    if os.environ.get("SHOT"):
        window.grab().save(os.environ["SHOT"])
    release.set()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    assert window.status_label.text() == outcome

    window.state.say("Something else")  # said after it: the outcome is over
    release = _later_work(window)
    assert window.status_label.text() == "Working on something else…"
    release.set()
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=30000)
    assert window.status_label.text() == "Ready"


def test_an_outcome_of_the_model_before_is_not_kept_for_the_next(qtbot, window, tmp_path):
    path = tmp_path / "demo_digits.pb"
    shutil.copy(DEMO, path)
    open_and_wait(qtbot, window, str(path))
    _phone(qtbot, window)
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.state.tflite_check is not None and
                    not window.tasks.is_busy(), timeout=30000)
    window.open_path(DEMO)                      # another model
    assert "TFLite" not in window.status_label.text()
    qtbot.waitUntil(lambda: window.state.model.path == DEMO and window.state.view.shapes
                    is not None and not window.tasks.is_busy(), timeout=60000)
    qtbot.wait(400)
    assert "TFLite" not in window.status_label.text()
