"""The Phone tab's line of ports (walk16): "Mark the inputs and outputs, or the likely ones
are used." showed on a model whose inputs and outputs were marked, until a check ran. The
hint shows only while nothing is marked; the line names the ports the check will use, and
follows the marks as they change (a side left unmarked says its ports are the likely ones;
marks changed after a check say to check again)."""

import os
import shutil

import pytest
from conftest import DEMO
from PySide6.QtCore import Qt
from test_gui import open_and_wait

from inspector.gui.panels.mobile_compat import PORTS_HINT

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _mark(qtbot, window, name, key) -> None:
    """Select `name` on the canvas and press I or O, as a user marks it."""
    window.jump_to(name)
    qtbot.waitUntil(lambda: window.state.selected == name and name in
                    window.canvas.items_by_id and not window.tasks.is_busy(), timeout=30000)
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, key)


def _phone(qtbot, window) -> None:
    bar = window.workspace.bar
    index = next(i for i in range(bar.count()) if bar.tabText(i) == "Phone")
    qtbot.mouseClick(bar, Qt.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: window.mobile_panel.isVisible(), timeout=10000)


def test_the_phone_tab_names_the_marked_ports_and_follows_the_marks(qtbot, window, tmp_path):
    path = tmp_path / "demo_digits.pb"
    shutil.copy(DEMO, path)
    open_and_wait(qtbot, window, str(path))
    qtbot.waitUntil(lambda: window.state.summary is not None and not window.tasks.is_busy(),
                    timeout=30000)
    _mark(qtbot, window, "pixels", Qt.Key_I)            # marked in Explore, as walk16 did
    _mark(qtbot, window, "output", Qt.Key_O)
    assert (window.workbench.inputs, window.workbench.outputs) == (["pixels"], ["output"])
    _phone(qtbot, window)
    line = window.mobile_panel.ports
    assert line.text() != PORTS_HINT                    # the marks are said, not the hint
    assert "<b>pixels</b>" in line.text() and "<b>output</b>" in line.text()
    assert "likely" not in line.text()

    _mark(qtbot, window, "output", Qt.Key_O)            # the output unmarked: the likely one
    assert window.workbench.outputs == []
    assert "Outputs: <b>output</b> (likely)" in line.text()
    assert "Inputs: <b>pixels</b>" in line.text() and "Inputs: <b>pixels</b> (" not in line.text()

    _mark(qtbot, window, "pixels", Qt.Key_I)            # nothing marked: the hint again
    assert window.workbench.inputs == []
    assert line.text() == PORTS_HINT

    _mark(qtbot, window, "output", Qt.Key_O)
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.state.tflite_check is not None and
                    not window.tasks.is_busy(), timeout=30000)
    assert "Outputs: <b>output</b>" in line.text() and "check again" not in line.text()

    _mark(qtbot, window, "digits_1/logits_1/BiasAdd", Qt.Key_O)   # a second output, after
    assert window.workbench.outputs == ["output", "digits_1/logits_1/BiasAdd"]
    assert "digits_1/logits_1/BiasAdd" in line.text() and "check again" in line.text()
    if os.environ.get("SHOT"):
        window.grab().save(os.environ["SHOT"])
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "check again" not in line.text() and
                    not window.tasks.is_busy(), timeout=30000)
    assert "digits_1/logits_1/BiasAdd" in line.text()
