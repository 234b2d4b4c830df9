"""Preview > All stages on a 1366x768 laptop: the lanes window opened 1260x820 (420 px a lane,
820 high) on a 768-high screen, the lanes' bottoms and scroll bars under the screen's edge
(seen under Xvfb at 1366x768). It fits the screen it opens on, as the comparison window does."""

import os

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QScreen
from test_gui import open_and_wait
from test_gui_compare import private_copy
from test_gui_workbench import wait_preview

LAPTOP = QRect(0, 0, 1366, 740)     # a 1366x768 screen less its 28 px panel


@pytest.fixture
def laptop(monkeypatch):
    monkeypatch.setattr(QScreen, "availableGeometry", lambda self: QRect(LAPTOP))
    return LAPTOP


def open_stages(qtbot, window, tmp_path,
                pipeline="fold_old_batch_norms quantize_weights(minimum_size=100)", steps=2):
    """Inception's copy opened, `pipeline` (`steps` steps) previewed, Preview > All stages
    clicked: its lanes window."""
    open_and_wait(qtbot, window, private_copy(tmp_path))
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text(pipeline)
    wait_preview(qtbot, window, steps)
    ctl = window.compare_ctl
    qtbot.mouseClick(window.preview_panel.stages_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    return ctl.windows[-1]


def test_all_stages_fits_a_laptop_screen(qtbot, window, tmp_path, laptop):
    lanes = open_stages(qtbot, window, tmp_path)
    qtbot.addWidget(lanes)
    assert type(lanes).__name__ == "LanesWindow" and len(lanes.canvases) == 3
    assert lanes.width() <= laptop.width() and lanes.height() <= laptop.height()
    for canvas in lanes.canvases:       # every lane whole inside the window
        corner = canvas.mapTo(lanes, canvas.rect().bottomRight())
        assert lanes.rect().contains(corner)


def test_lanes_start_at_one_height_whatever_their_step_names(qtbot, window, tmp_path, laptop):
    """A long step name ('remove_nodes(op=Identity, op=CheckNumerics)') wrapped to three
    lines in its lane's title, so that lane's graph started lower than its neighbours'
    (seen under Xvfb at 1366x768). Each title is one line, elided, whole in its tooltip."""
    open_and_wait(qtbot, window, private_copy(tmp_path))
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("remove_nodes(op=Identity, op=CheckNumerics) "
                              "fold_constants(ignore_errors=true) fold_old_batch_norms "
                              "quantize_weights(minimum_size=100)")
    wait_preview(qtbot, window, 4)
    ctl = window.compare_ctl
    qtbot.mouseClick(window.preview_panel.stages_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    lanes = ctl.windows[-1]
    qtbot.addWidget(lanes)
    lanes.show()
    qtbot.waitUntil(lanes.isVisible, timeout=5000)
    qtbot.wait(100)
    tops = {canvas.mapTo(lanes, canvas.rect().topLeft()).y() for canvas in lanes.canvases}
    assert len(tops) == 1, tops
    names = [lanes.titles[k].toolTip() for k in range(len(lanes.canvases))]
    assert names[1] == "1. remove_nodes(op=Identity, op=CheckNumerics)"
    if os.environ.get("SHOT"):
        lanes.grab().save(os.environ["SHOT"])


def test_a_lane_whose_step_changed_nothing_says_no_change(qtbot, window, tmp_path, laptop):
    """Preview > All stages: the lane of a step that changed nothing (remove_device on a graph
    without devices) had an empty summary line, as if something were missing."""
    open_and_wait(qtbot, window, private_copy(tmp_path))
    window.workbench.set_marks(["Mul"], ["softmax"])
    window.workbench.set_text("remove_device quantize_weights(minimum_size=100)")
    wait_preview(qtbot, window, 2)
    ctl = window.compare_ctl
    qtbot.mouseClick(window.preview_panel.stages_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(ctl.windows), timeout=60000)
    lanes = ctl.windows[-1]
    qtbot.addWidget(lanes)
    said = [label.toolTip() or label.text() for label in lanes.said]
    assert said[0] == "starting point" and said[1] == "no change", said
    assert said[2] not in ("", "no change") and "changed" in said[2], said
    if os.environ.get("SHOT"):
        lanes.show()
        qtbot.waitUntil(lanes.isVisible, timeout=5000)
        qtbot.wait(300)
        lanes.grab().save(os.environ["SHOT"])

